"""Three Card Poker as the outer layers see it (:class:`felt.games.base.TableGame`): registered as
the entry point ``three_card_poker`` of the group ``felt.games``.  Nothing outside this folder
names the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.games.base import GameTable, Log, TableGame
from felt.games.three_card_poker.actions import ACTIONS
from felt.games.three_card_poker.config import EDITION, ThreeCardConfig
from felt.games.three_card_poker.config import GAME as GAME_ID
from felt.rounds.actions import Action
from felt.rounds.round_core import RoundCore

if TYPE_CHECKING:
    from felt.games.three_card_poker.round import ThreeCardRound
    from felt.simulate import Simulation

TITLE = "Three Card Poker"


class ThreeCardPoker(TableGame):
    """Three Card Poker (N.J.A.C. 19:47-20, as dealt in New Jersey)."""

    family = "three_card_poker"
    ids = (GAME_ID,)
    package = "felt.games.three_card_poker"
    seat_word = "seat"
    action_types = ACTIONS

    # ----------------------------------------------------------------- identity and configuration
    def title(self, game_id: str) -> str:
        """Three Card Poker."""
        return TITLE

    def editions(self, game_id: str) -> tuple[str, ...]:
        """One text: N.J.A.C. 19:47-20."""
        return (EDITION,)

    def config(
        self, game_id: str, settings: Mapping[str, Any], *, edition: str | None = None,
        where: str = "table",
    ) -> ThreeCardConfig:  # fmt: skip
        """A Three Card Poker table; ``{}`` is the minimum table."""
        if edition is not None and edition not in self.editions(game_id):
            raise FeltError(
                f"{where}: edition does not apply to {GAME_ID} (one text: N.J.A.C. 19:47-20)"
            )
        return ThreeCardConfig.from_mapping(dict(settings), where=where)

    def load_config(self, path: str | Path) -> tuple[str, ThreeCardConfig]:
        """A Three Card Poker table file."""
        from felt.games.three_card_poker.config import load_three_card_table

        return GAME_ID, load_three_card_table(path)

    # ----------------------------------------------------------------- analysis, simulation, guide
    config_types = (ThreeCardConfig,)

    def analyze(self, game_id: str, config: Any, ante: int | None, log: Log | None = None) -> Any:
        """The exact par sheet (:func:`.analysis.analyze`: all 22,100 x 18,424 deals)."""
        from felt.games.three_card_poker.analysis import analyze

        return analyze(config, ante)

    def guide(self, config: Any, fmt: str) -> str:
        """The patron's guide to a Three Card Poker table."""
        from felt.games.three_card_poker.guide import render

        return render(config, fmt)

    def edition_text(self, edition: str) -> tuple[str, str] | None:
        """The title and citation format of N.J.A.C. 19:47-20, from the game's rules data."""
        from felt.games.three_card_poker.config import rules

        r = rules()
        return r.title, r.clause_format

    def simulation(self, config: Any) -> Simulation:
        """The engine path with an ante at each seat (:mod:`.simulation`)."""
        from felt.games.three_card_poker.simulation import ThreeCardSimulation

        return ThreeCardSimulation(self, config)

    # ----------------------------------------------------------------- tables, rounds, views
    def seat_count(self, config: Any) -> int:
        """The betting positions the table has."""
        return int(config.seats)

    def new_table(self, config: Any, snapshot: Mapping[str, Any] | None = None) -> GameTable:
        """A table as :meth:`table_snapshot` left it: the rounds played, a removed shuffler and
        the shuffling method in use."""
        from dataclasses import replace

        from felt.games.three_card_poker.table import ThreeCardTable

        snap = dict(snapshot or {})
        if "shuffling" in snap:
            config = replace(config, shuffling=snap.pop("shuffling"))
        return ThreeCardTable(config, **snap)

    def table_snapshot(self, table: GameTable) -> dict[str, Any]:
        """What carries between rounds: the rounds played and the shuffling (a removed
        shuffler, the method in use)."""
        from felt.games.three_card_poker.table import ThreeCardTable

        assert isinstance(table, ThreeCardTable)
        return {
            "rounds_played": table.rounds_played,
            "shuffler_removed": table.shuffler_removed,
            "shuffling": table.config.shuffling,
        }

    def new_round(self, config: Any, deck: Sequence[Card], origin: Mapping[str, Any]) -> RoundCore:
        """A round on ``deck``; its origin is its number only (nothing else carries over)."""
        from felt.games.three_card_poker.round import ThreeCardRound

        return ThreeCardRound(config, tuple(deck), **origin)

    def round_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """The round's number."""
        return {"number": rnd.number}

    def dealer_step(self, table: GameTable, rnd: RoundCore) -> Action | None:
        """The round's next step; the cut it leaves to the table goes where the table cuts."""
        from felt.games.three_card_poker.actions import CutCards
        from felt.games.three_card_poker.table import ThreeCardTable

        step = rnd.next_dealer_action()
        if isinstance(step, CutCards):
            assert isinstance(table, ThreeCardTable)
            return CutCards(table.cut_position())
        return step

    def procedures(self) -> dict[str, str]:
        """Removing the shuffler and shuffling another way (as 19:47-17.11(f))."""
        return {"remove_shuffler": "", "change_shuffling": "a shuffling method"}

    def seat_view(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """:func:`.view.spot_view` of position ``seat`` (0: no position) as JSON."""
        from felt.games.three_card_poker.round import ThreeCardRound
        from felt.games.three_card_poker.view import spot_json

        assert isinstance(rnd, ThreeCardRound)
        return spot_json(rnd, seat)

    # ----------------------------------------------------------------- the browser's layout
    def layout(self, config: Any) -> dict[str, Any]:
        """The table as the browser draws it (the keys: :meth:`TableGame.layout`): the ante and the
        optional pair plus wager (20.6); play or fold (20.10); the dealer's three cards face down
        until revealed; the irregularities of 20.12."""
        from felt.core.money import dollars

        # 20.6: an ante, a pair plus wager or both, each any whole cents within its limits (so
        # the ante is optional where the pair plus is offered)
        spots: list[dict[str, Any]] = [{
            "field": "ante", "label": "Ante", "minimum": dollars(config.minimum),
            "maximum": dollars(config.maximum), "step": dollars(1),
        }]  # fmt: skip
        if config.pair_plus:
            spots[0]["optional"] = True
            spots.append({
                "field": "pair_plus",
                "label": "Pair plus wager",
                "optional": True,
                "minimum": dollars(config.pair_plus_minimum),
                "maximum": dollars(config.pair_plus_maximum),
                "step": dollars(1),
            })  # fmt: skip
        return {
            "title": TITLE,
            "wager": {
                "label": "Ante",
                "minimum": dollars(config.minimum),
                "maximum": dollars(config.maximum),
                "legend": "ante (the play wager, if you play, equals it)",
                "action": "wager",
                "button": "Wager",
                "phases": ["betting", "cut done"],
                "spots": spots,
            },
            "decisions": {
                "play or fold": {
                    "buttons": [
                        {
                            "label": "Play",
                            "action": {"action": "play"},
                            "primary": True,
                            "adds": [],
                            # 20.10: the play wager equals the ante
                            "places": {"wager": "ante", "times": 1, "label": "Play"},
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
            "irregularities": [
                {
                    "name": "dealer_card_exposed",
                    "label": "A dealer's card exposed (20.12)",
                    "fields": [],
                },
                {
                    "name": "face_up_card",
                    "label": "Card found face up (20.12)",
                    "fields": [{"field": "position", "label": "Position in the deck (1 = top)"}],
                },
                {"name": "drawn_in_error", "label": "Card drawn in error (20.12)", "fields": []},
                {
                    "name": "misdeal",
                    "label": "Misdeal (20.12)",
                    "fields": [
                        {"field": "cards", "label": "Cards received"},
                        {"field": "seat", "label": "Seat (empty: the dealer)"},
                    ],
                },
                {"name": "shuffler_jam", "label": "Shuffler jam (20.12)", "fields": []},
            ],
            "steps": [],
            "dealer_steps": {  # the console's buttons, in the dealer's words
                "cut": "Cut the cards",
                "no_more_bets": "No more bets",
                "deal": "Deal three cards to each hand and the dealer",
                "reveal": "Reveal the dealer's hand",
                "settle": "Settle the wagers",
            },
            "phase_words": {  # where the round stands, as a player or dealer says it
                "betting": "taking wagers",
                "cut done": "taking wagers: cards cut",
                "closed": "no more bets",
                "decisions": "play or fold",
                "revealed": "dealer's hand shown",
                "complete": "settled",
                "void": "void",
            },
        }

    # ----------------------------------------------------------------- scripts and play
    def script_round(
        self, game_id: str, script: Mapping[str, Any], table: Mapping[str, Any],
        deck: tuple[Card, ...],
    ) -> RoundCore:  # fmt: skip
        """A Three Card Poker round of the ``table`` settings on ``deck``."""
        from felt.games.three_card_poker.script import script_round

        return script_round(table, deck)

    def script_wager(self, key: str, entry: object) -> Action:
        """A position's ante, pair plus wager or both."""
        from felt.games.three_card_poker.script import wager

        return wager(key, entry)

    def script_wager_entry(self, action: Action) -> tuple[int, dict[str, Any]] | None:
        """The wagers a position placed."""
        from felt.games.three_card_poker.script import wager_entry

        return wager_entry(action)

    def report_dealer(self, rnd: RoundCore) -> dict[str, Any] | None:
        """The dealer's hand once turned over, and whether it qualifies."""
        from felt.games.three_card_poker.script import report_dealer

        return report_dealer(self._round(rnd))

    def report_dealer_text(self, rnd: RoundCore, symbols: bool) -> list[str]:
        """The dealer's three cards and hand."""
        from felt.games.three_card_poker.script import report_dealer_text

        return report_dealer_text(self._round(rnd), symbols)

    def report_hand(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """A settled position's three-card hand (not a five-card one)."""
        from felt.games.three_card_poker.script import report_hand

        return report_hand(self._round(rnd), seat)

    def report_extra(self, rnd: RoundCore) -> dict[str, Any]:
        """Each position's decision and where the dealer cut."""
        from felt.games.three_card_poker.script import report_extra

        return report_extra(self._round(rnd))

    @staticmethod
    def _round(rnd: RoundCore) -> ThreeCardRound:
        from felt.games.three_card_poker.round import ThreeCardRound

        assert isinstance(rnd, ThreeCardRound)
        return rnd

    def suggest(self, rnd: RoundCore, seat: int, election: str) -> Action:
        """Play Q-6-4 or better, fold anything lower (the exact analysis's optimal play)."""
        from felt.games.three_card_poker.strategy import suggest

        if election != "play or fold":
            raise FeltError(f"no election {election!r} at Three Card Poker (it has: play or fold)")
        return suggest(self._round(rnd), seat)

    def play(self, config: Any, options: Mapping[str, Any]) -> None:
        """``felt play``: a session at a table of ``config`` (:func:`.play.play`) with ``felt
        play``'s options; a session test may give ``ask`` and ``say`` besides."""
        from felt.cli.play import session_options
        from felt.games.three_card_poker.play import play

        if "seat" in options or "note" in options:
            own = {k: v for k, v in options.items() if k in ("ask", "say")}
            options = {**session_options(options, config.seats), **own}
        play(config, options)


GAME = ThreeCardPoker()
"""The registered game."""
