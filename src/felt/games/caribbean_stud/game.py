"""Caribbean Stud Poker as the outer layers see it (:class:`felt.games.base.TableGame`):
registered as the entry point ``caribbean_stud`` of the group ``felt.games``.  Nothing outside
this folder names the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.games.base import GameTable, Log, Progressive, TableGame
from felt.games.caribbean_stud.actions import ACTIONS
from felt.games.caribbean_stud.config import EDITION, CaribbeanConfig
from felt.games.caribbean_stud.config import GAME as GAME_ID
from felt.rounds.actions import Action
from felt.rounds.round_core import RoundCore

if TYPE_CHECKING:
    from felt.games.caribbean_stud.round import CaribbeanRound
    from felt.simulate import Simulation

TITLE = "Caribbean Stud Poker"


class CaribbeanStud(TableGame):
    """Caribbean Stud Poker (N.J.A.C. 19:47-16, as dealt in New Jersey)."""

    family = "caribbean_stud"
    ids = (GAME_ID,)
    package = "felt.games.caribbean_stud"
    seat_word = "seat"
    action_types = ACTIONS

    # ----------------------------------------------------------------- identity and configuration
    def title(self, game_id: str) -> str:
        """Caribbean Stud Poker."""
        return TITLE

    def editions(self, game_id: str) -> tuple[str, ...]:
        """One text: N.J.A.C. 19:47-16."""
        return (EDITION,)

    def config(
        self, game_id: str, settings: Mapping[str, Any], *, edition: str | None = None,
        where: str = "table",
    ) -> CaribbeanConfig:  # fmt: skip
        """A Caribbean Stud Poker table; ``{}`` is the minimum table."""
        if edition is not None and edition not in self.editions(game_id):
            raise FeltError(
                f"{where}: edition does not apply to {GAME_ID} (one text: N.J.A.C. 19:47-16)"
            )
        return CaribbeanConfig.from_mapping(dict(settings), where=where)

    def load_config(self, path: str | Path) -> tuple[str, CaribbeanConfig]:
        """A Caribbean Stud Poker table file."""
        from felt.games.caribbean_stud.config import load_caribbean_table

        return GAME_ID, load_caribbean_table(path)

    # ----------------------------------------------------------------- analysis, simulation, guide
    config_types = (CaribbeanConfig,)

    def analyze(self, game_id: str, config: Any, ante: int | None, log: Log | None = None) -> Any:
        """The exact par sheet (:func:`.analysis.analyze`: all 19,933,230,517,200 deals)."""
        from felt.games.caribbean_stud.analysis import analyze

        return analyze(config, ante)

    def guide(self, config: Any, fmt: str) -> str:
        """The patron's guide to a Caribbean Stud Poker table."""
        from felt.games.caribbean_stud.guide import render

        return render(config, fmt)

    def edition_text(self, edition: str) -> tuple[str, str] | None:
        """The title and citation format of N.J.A.C. 19:47-16, from the game's rules data."""
        from felt.games.caribbean_stud.config import rules

        r = rules()
        return r.title, r.clause_format

    def simulation(self, config: Any) -> Simulation:
        """An ante at each seat on the compiled fast path (the engine's nets on the same decks),
        or through the round engine (:mod:`.simulation`)."""
        from felt.games.caribbean_stud.simulation import CaribbeanSimulation

        return CaribbeanSimulation(self, config)

    # ----------------------------------------------------------------- tables, rounds, views
    def seat_count(self, config: Any) -> int:
        """The betting positions the table has."""
        return int(config.seats)

    def progressive(self, config: Any) -> Progressive | None:
        """The meter the table is linked to (its id and seed), None when it offers no
        progressive wager (16.11)."""
        settings = config.progressive
        if settings is None:
            return None
        terms = settings.to_mapping()
        shown = (
            f"wager {terms['wager']}, rate {terms['rate']}, "
            + ", ".join(f"{h} {p} of the meter" for h, p in terms["percent"].items())
            + "".join(f", {h} {a}" for h, a in terms["fixed"].items())
        )
        return Progressive(settings.meter, settings.seed, "Progressive jackpot", shown)

    def new_table(self, config: Any, snapshot: Mapping[str, Any] | None = None) -> GameTable:
        """A table as :meth:`table_snapshot` left it: the rounds played (which deck is next at a
        two-deck table), a removed shuffler and the shuffling method in use.  Such a table keeps
        no meter of its own (a server's meter is the linked one on its ledger; a snapshot's
        ``meter``, which earlier versions wrote, is dropped)."""
        from dataclasses import replace

        from felt.games.caribbean_stud.table import CaribbeanTable

        snap = dict(snapshot or {})
        if "shuffling" in snap:
            config = replace(config, shuffling=snap.pop("shuffling"))
        snap.pop("meter", None)
        return CaribbeanTable(config, **snap, keeps_meter=False)

    def table_snapshot(self, table: GameTable) -> dict[str, Any]:
        """What carries between rounds: the rounds played and the shuffling."""
        from felt.games.caribbean_stud.table import CaribbeanTable

        assert isinstance(table, CaribbeanTable)
        return {
            "rounds_played": table.rounds_played,
            "shuffler_removed": table.shuffler_removed,
            "shuffling": table.config.shuffling,
        }

    def new_round(self, config: Any, deck: Sequence[Card], origin: Mapping[str, Any]) -> RoundCore:
        """A round on ``deck`` as :meth:`round_origin` recorded it (its number, the deck in
        play)."""
        from felt.games.caribbean_stud.round import CaribbeanRound

        return CaribbeanRound(config, tuple(deck), **origin)

    def round_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """The round's number and the deck in play (16.2(b))."""
        return {"number": rnd.number, "deck_name": self._round(rnd).deck_name}

    def dealer_step(self, table: GameTable, rnd: RoundCore) -> Action | None:
        """The round's next step: the cut where the table cuts, the settlement with the table's
        own meter if it keeps one (a server's keeps none: the server fills in the linked meter's,
        with the meter locked)."""
        from felt.games.caribbean_stud.actions import CutCards, Settle
        from felt.games.caribbean_stud.table import CaribbeanTable

        step = rnd.next_dealer_action()
        assert isinstance(table, CaribbeanTable)
        if isinstance(step, CutCards):
            return CutCards(table.cut_position())
        if isinstance(step, Settle):
            return table.settle_step(self._round(rnd))
        return step

    def procedures(self) -> dict[str, str]:
        """Removing the shuffler and shuffling another way."""
        return {"remove_shuffler": "", "change_shuffling": "a shuffling method"}

    def seat_view(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """:func:`.view.spot_view` of position ``seat`` (0: no position) as JSON."""
        from felt.games.caribbean_stud.view import spot_json

        return spot_json(self._round(rnd), seat)

    # ----------------------------------------------------------------- the browser's layout
    def layout(self, config: Any) -> dict[str, Any]:
        """The table as the browser draws it (the keys: :meth:`TableGame.layout`): the ante and
        the optional progressive wager of one amount (16.6, 16.11); bet (twice the ante) or fold
        (16.1); the dealer's face-up card and four hole cards; the irregularities of 16.13."""
        from felt.core.money import dollars

        spots: list[dict[str, Any]] = [{
            "field": "ante", "label": "Ante", "minimum": dollars(config.minimum),
            "maximum": dollars(config.maximum), "step": dollars(1),
        }]  # fmt: skip
        if config.progressive is not None:
            amount = dollars(config.progressive.wager)
            spots.append({
                "field": "progressive",
                "label": "Progressive wager",
                "optional": True,
                "minimum": amount,
                "maximum": amount,
                "step": amount,
            })  # fmt: skip
        irregularities: list[dict[str, Any]] = [
            {"name": "dealer_card_exposed", "label": "A dealer's hole card exposed (16.13)",
             "fields": []},
            {"name": "face_up_card", "label": "Card found face up (16.13)",
             "fields": [{"field": "position", "label": "Position in the deck (1 = top)"}]},
            {"name": "drawn_in_error", "label": "Card drawn in error (16.13)", "fields": []},
            {"name": "misdeal", "label": "Misdeal (16.13)", "fields": [
                {"field": "cards", "label": "Cards received"},
                {"field": "seat", "label": "Seat (empty: the dealer)"},
            ]},
        ]  # fmt: skip
        if config.shuffling != "manual":
            irregularities.append(
                {"name": "shuffler_jam", "label": "Shuffler jam (16.13)", "fields": []}
            )
        steps: list[dict[str, Any]] = []
        if config.cut_required:
            steps.append({"label": "Require a recut (16.4(d))",
                          "action": {"dealer": "require_recut"}, "role": "supervisor"})  # fmt: skip
        return {
            "title": TITLE,
            "wager": {
                "label": "Ante",
                "minimum": dollars(config.minimum),
                "maximum": dollars(config.maximum),
                "legend": "ante (the bet wager, if you bet, is twice it)",
                "action": "wager",
                "button": "Wager",
                "phases": ["betting", "cut done"],
                "spots": spots,
            },
            "decisions": {
                "bet or fold": {
                    "buttons": [
                        {
                            "label": "Bet",
                            "action": {"action": "bet"},
                            "primary": True,
                            "adds": [],
                            # 16.1 "Bet wager": double the player's ante wager
                            "places": {"wager": "ante", "times": 2, "label": "Bet"},
                        },
                        {
                            "label": "Fold",
                            "action": {"action": "fold"},
                            "primary": False,
                            "adds": [],
                        },
                    ]
                }
            },
            "dealer": {"cards": "dealer_cards", "count": "dealer_card_count"},
            "irregularities": irregularities,
            "steps": steps,
            "dealer_steps": {  # the console's buttons, in the dealer's words
                "cut": "Cut the cards with the cover card",
                "no_more_bets": "No more bets",
                "deal": "Deal five cards to each hand and the dealer, the dealer's last face up",
                "reveal": "Turn over the dealer's hole cards",
                "settle": "Settle the wagers and the progressive",
            },
            "phase_words": {  # where the round stands, as a player or dealer says it
                "betting": "taking wagers",
                "cut done": "taking wagers: cards cut",
                "recut": "recut required",
                "closed": "no more bets",
                "decisions": "bet or fold",
                "revealed": "dealer's hand shown",
                "complete": "settled",
                "void": "void",
            },
        }

    # ----------------------------------------------------------------- scripts and play
    script_fields = ("deck_in_play",)

    def script_round(
        self, game_id: str, script: Mapping[str, Any], table: Mapping[str, Any],
        deck: tuple[Card, ...],
    ) -> RoundCore:  # fmt: skip
        """A Caribbean Stud Poker round of the ``table`` settings on ``deck``, with the deck in
        play the script names."""
        from felt.games.caribbean_stud.script import script_round

        return script_round(table, deck, script)

    def script_wager(self, key: str, entry: object) -> Action:
        """A position's ante, with a progressive wager or without."""
        from felt.games.caribbean_stud.script import wager

        return wager(key, entry)

    def script_wager_entry(self, action: Action) -> tuple[int, dict[str, Any]] | None:
        """The wagers a position placed."""
        from felt.games.caribbean_stud.script import wager_entry

        return wager_entry(action)

    def script_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """The deck in play, when it is a two-deck table's second."""
        from felt.games.caribbean_stud.script import script_origin

        return script_origin(self._round(rnd))

    def report_dealer(self, rnd: RoundCore) -> dict[str, Any] | None:
        """The dealer's face-up card; the hand once revealed and whether it qualifies."""
        from felt.games.caribbean_stud.script import report_dealer

        return report_dealer(self._round(rnd))

    def report_dealer_text(self, rnd: RoundCore, symbols: bool) -> list[str]:
        """The dealer's five cards (four face down until revealed) and hand."""
        from felt.games.caribbean_stud.script import report_dealer_text

        return report_dealer_text(self._round(rnd), symbols)

    def report_extra(self, rnd: RoundCore) -> dict[str, Any]:
        """Each position's decision, the cuts, the deck in play and the meter."""
        from felt.games.caribbean_stud.script import report_extra

        return report_extra(self._round(rnd))

    @staticmethod
    def _round(rnd: RoundCore) -> CaribbeanRound:
        from felt.games.caribbean_stud.round import CaribbeanRound

        assert isinstance(rnd, CaribbeanRound)
        return rnd

    def suggest(self, rnd: RoundCore, seat: int, election: str) -> Action:
        """Bet or fold by the optimal strategy (:func:`.strategy.should_bet` on the seat's five
        cards and the dealer's face-up card, at the table's pay table)."""
        from felt.games.caribbean_stud.actions import Bet, Fold
        from felt.games.caribbean_stud.strategy import should_bet

        if election != "bet or fold":
            raise FeltError(
                f"no election {election!r} at Caribbean Stud Poker (it has: bet or fold)"
            )
        played = self._round(rnd)
        up = played.up_card
        if seat not in played.seats or up is None:
            raise FeltError(f"seat {seat} has no hand to bet or fold")
        cards = [int(c) for c in played.seats[seat].cards]
        bet = should_bet(cards, int(up), played.config.bet_pays)
        return Bet(seat) if bet else Fold(seat)

    def play(self, config: Any, options: Mapping[str, Any]) -> None:
        """``felt play``: a session at a table of ``config`` (:func:`.play.play`) with ``felt
        play``'s options; a session test may give ``ask`` and ``say`` besides."""
        from felt.cli.play import session_options
        from felt.games.caribbean_stud.play import play

        if "seat" in options or "note" in options:
            own = {k: v for k, v in options.items() if k in ("ask", "say")}
            options = {**session_options(options, config.seats), **own}
        play(config, options)


GAME = CaribbeanStud()
"""The registered game."""
