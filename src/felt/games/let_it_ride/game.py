"""Let It Ride Poker as the outer layers see it (:class:`felt.games.base.TableGame`): registered
as the entry point ``let_it_ride`` of the group ``felt.games``.  Nothing outside this folder
names the game; the analysis, strategy, simulation, guide and terminal session are imported only
when asked for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.games.base import GameTable, Log, TableGame
from felt.games.let_it_ride.actions import ACTIONS
from felt.games.let_it_ride.config import EDITION, LetItRideConfig
from felt.games.let_it_ride.config import GAME as GAME_ID
from felt.rounds.actions import Action
from felt.rounds.round_core import RoundCore

if TYPE_CHECKING:
    from felt.games.let_it_ride.round import LetItRideRound
    from felt.simulate import Simulation

TITLE = "Let It Ride Poker"
ELECTION_WAGERS = {"first wager": 1, "second wager": 2}
"""The wager each election decides."""


class LetItRide(TableGame):
    """Let It Ride Poker (N.J.A.C. 19:47-18, as dealt in New Jersey)."""

    family = "let_it_ride"
    ids = (GAME_ID,)
    package = "felt.games.let_it_ride"
    seat_word = "seat"
    action_types = ACTIONS

    # ----------------------------------------------------------------- identity and configuration
    def title(self, game_id: str) -> str:
        """Let It Ride Poker."""
        return TITLE

    def editions(self, game_id: str) -> tuple[str, ...]:
        """One text: N.J.A.C. 19:47-18."""
        return (EDITION,)

    def config(
        self, game_id: str, settings: Mapping[str, Any], *, edition: str | None = None,
        where: str = "table",
    ) -> LetItRideConfig:  # fmt: skip
        """A Let It Ride Poker table; ``{}`` is the minimum table."""
        if edition is not None and edition not in self.editions(game_id):
            raise FeltError(
                f"{where}: edition does not apply to {GAME_ID} (one text: N.J.A.C. 19:47-18)"
            )
        return LetItRideConfig.from_mapping(dict(settings), where=where)

    def load_config(self, path: str | Path) -> tuple[str, LetItRideConfig]:
        """A Let It Ride Poker table file."""
        from felt.games.let_it_ride.config import load_let_it_ride_table

        return GAME_ID, load_let_it_ride_table(path)

    # ----------------------------------------------------------------- analysis, simulation, guide
    config_types = (LetItRideConfig,)

    def analyze(self, game_id: str, config: Any, ante: int | None, log: Log | None = None) -> Any:
        """The exact par sheet at ``ante`` (each of the three wagers; None: the minimum):
        :func:`.analysis.analyze`."""
        from felt.games.let_it_ride.analysis import analyze

        return analyze(config, ante)

    def guide(self, config: Any, fmt: str) -> str:
        """The patron's guide to a Let It Ride Poker table."""
        from felt.games.let_it_ride.guide import render

        return render(config, fmt)

    def edition_text(self, edition: str) -> tuple[str, str] | None:
        """The title and citation format of N.J.A.C. 19:47-18, from the game's rules data."""
        from felt.games.let_it_ride.config import rules

        r = rules()
        return r.title, r.clause_format

    def simulation(self, config: Any) -> Simulation:
        """The optimal strategy at each seat on the game's fast path (:mod:`.simulation`)."""
        from felt.games.let_it_ride.simulation import LetItRideSimulation

        return LetItRideSimulation(self, config)

    # ----------------------------------------------------------------- tables, rounds, views
    def seat_count(self, config: Any) -> int:
        """The betting positions the table has."""
        return int(config.seats)

    def new_table(self, config: Any, snapshot: Mapping[str, Any] | None = None) -> GameTable:
        """A table as :meth:`table_snapshot` left it: the rounds played (which deck is next at a
        two-deck table), a removed shuffler, the shuffling method in use and when the cards in
        use were opened (18.4(e); absent or None: not tracked)."""
        from dataclasses import replace

        from felt.games.let_it_ride.table import LetItRideTable

        snap = dict(snapshot or {})
        if "shuffling" in snap:
            config = replace(config, shuffling=snap.pop("shuffling"))
        return LetItRideTable(config, **snap)

    def table_snapshot(self, table: GameTable) -> dict[str, Any]:
        """What carries between rounds: the rounds played, the shuffling and when the cards in
        use were opened."""
        from felt.games.let_it_ride.table import LetItRideTable

        assert isinstance(table, LetItRideTable)
        return {
            "rounds_played": table.rounds_played,
            "shuffler_removed": table.shuffler_removed,
            "shuffling": table.config.shuffling,
            "cards_opened_at": table.cards_opened_at,
        }

    def new_round(self, config: Any, deck: Sequence[Card], origin: Mapping[str, Any]) -> RoundCore:
        """A round on ``deck`` as :meth:`round_origin` recorded it (its number, the deck in
        play)."""
        from felt.games.let_it_ride.round import LetItRideRound

        return LetItRideRound(config, tuple(deck), **origin)

    def round_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """The round's number and the deck in play (18.2(b))."""
        return {"number": rnd.number, "deck_name": self._round(rnd).deck_name}

    def parse_action(self, entry: object, where: str) -> Action:
        """One action as JSON, read as every game reads it, but the shared ``reveal``: Let It
        Ride has no dealer's hand; the dealer turns the community cards instead."""
        if isinstance(entry, dict) and entry.get("dealer") == "reveal":
            raise FeltError(
                f"{where}: Let It Ride has no dealer's hand to reveal; the dealer turns the "
                'community cards ({"dealer": "turn"})'
            )
        return super().parse_action(entry, where)

    def dealer_step(self, table: GameTable, rnd: RoundCore) -> Action | None:
        """The round's next step, the cut where the table cuts it."""
        from felt.games.let_it_ride.actions import CutCards
        from felt.games.let_it_ride.table import LetItRideTable

        step = rnd.next_dealer_action()
        assert isinstance(table, LetItRideTable)
        if isinstance(step, CutCards):
            return CutCards(table.cut_position())
        return step

    def procedures(self) -> dict[str, str]:
        """Removing the shuffler, shuffling another way, and recording new cards opened for use
        (18.4(e)), at the time the server's clock gives (:meth:`clocked_procedures`)."""
        return {"remove_shuffler": "", "change_shuffling": "a shuffling method", "change_cards": ""}

    def clocked_procedures(self) -> frozenset[str]:
        """``change_cards`` records when the new cards were opened: the server passes its clock."""
        return frozenset({"change_cards"})

    def open_table(self, table: GameTable, now: float) -> None:
        """A table new to a server opens its cards for use at ``now`` (18.4(e)), unless it
        already tracks them."""
        from felt.games.let_it_ride.table import LetItRideTable

        assert isinstance(table, LetItRideTable)
        if table.cards_opened_at is None:
            table.change_cards(now)

    def round_blocked(self, table: GameTable, now: float) -> str | None:
        """Why no new round may open at ``now``: the cards in use are due to be changed
        (18.4(e), :meth:`.table.LetItRideTable.cards_due`); None when they are not."""
        from felt.games.let_it_ride.table import LetItRideTable

        assert isinstance(table, LetItRideTable)
        return table.cards_due(now)

    def seat_view(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """:func:`.view.spot_view` of position ``seat`` (0: no position) as JSON."""
        from felt.games.let_it_ride.view import spot_json

        return spot_json(self._round(rnd), seat)

    # ----------------------------------------------------------------- the browser's layout
    def layout(self, config: Any) -> dict[str, Any]:
        """The table as the browser draws it (the keys: :meth:`TableGame.layout`): three equal
        wagers of one amount and the optional bonus wagers (18.6, 18.6A, 18.6B); take back or
        let ride wagers 1 and 2 (18.1 "Let it ride"); the community cards; the irregularities of
        18.12."""
        from felt.core.money import dollars

        spots: list[dict[str, Any]] = [{
            "field": "amount", "label": "Each wager (1, 2, $)", "minimum": dollars(config.minimum),
            "maximum": dollars(config.maximum), "step": "0.01",
            "count": 3,  # the amount is placed on each of the three equal wagers
        }]  # fmt: skip
        if config.bonus is not None:
            amount = dollars(config.bonus.wager)
            spots.append({"field": "bonus", "label": "Let it ride bonus", "optional": True,
                          "minimum": amount, "maximum": amount, "step": amount})  # fmt: skip
        if config.three_card_bonus is not None:
            three = config.three_card_bonus
            spots.append({"field": "three_card_bonus", "label": "Three-card bonus",
                          "optional": True, "minimum": dollars(three.minimum),
                          "maximum": dollars(three.maximum), "step": "1.00"})  # fmt: skip
        decisions = {
            election: {
                "buttons": [
                    {
                        "label": "Let it ride",
                        "action": {"action": "let_it_ride", "wager": n},
                        "primary": True,
                        "adds": [],
                    },
                    {
                        "label": f"Take back wager {n}",
                        "action": {"action": "take_back", "wager": n},
                        "primary": False,
                        "adds": [],
                    },
                ]
            }
            for election, n in ELECTION_WAGERS.items()
        }
        irregularities: list[dict[str, Any]] = [
            {"name": "community_card_exposed", "label": "A community card exposed early (18.12)",
             "fields": [{"field": "card", "label": "Community card (1 or 2)"}]},
            {"name": "face_up_card", "label": "Card found face up (18.12)",
             "fields": [{"field": "position", "label": "Position in the deck (1 = top)"}]},
            {"name": "drawn_in_error", "label": "Card drawn in error (18.12)", "fields": []},
            {"name": "misdeal", "label": "Misdeal (18.12)", "fields": [
                {"field": "cards", "label": "Cards received"},
                {"field": "seat", "label": "Seat (empty: the community area)"},
            ]},
        ]  # fmt: skip
        if config.shuffling != "manual":
            irregularities.append(
                {"name": "shuffler_jam", "label": "Shuffler jam (18.12)", "fields": []}
            )
        steps: list[dict[str, Any]] = []
        if config.cut_required:
            steps.append({"label": "Require a recut (18.5)",
                          "action": {"dealer": "require_recut"}, "role": "supervisor"})  # fmt: skip
        return {
            "title": TITLE,
            "wager": {
                "label": "Each wager",
                "minimum": dollars(config.minimum),
                "maximum": dollars(config.maximum),
                "legend": "three equal wagers (1, 2 and $); you may take back 1 and 2",
                "action": "wager",
                "button": "Wager",
                "phases": ["betting", "cut done"],
                "spots": spots,
            },
            "decisions": decisions,
            "dealer": {
                "cards": "community",
                "count": "community_count",
                "label": "Community cards",
            },
            "irregularities": irregularities,
            "steps": steps,
            "dealer_steps": {  # the console's buttons, in the dealer's words
                "cut": "Cut the cards with the cover card",
                "no_more_bets": "No more bets",
                "deal": "Deal three cards to each hand and three to the community area (one burned)",
                "turn": "Turn the next community card face up",
                "settle": "Settle the wagers and the bonus wagers",
            },
            "phase_words": {  # where the round stands, as a player or dealer says it
                "betting": "taking wagers",
                "cut done": "taking wagers: cards cut",
                "recut": "recut required",
                "closed": "no more bets",
                "first wager": "let it ride or take back wager 1",
                "second wager": "let it ride or take back wager 2",
                "revealed": "both community cards face up",
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
        """A Let It Ride Poker round of the ``table`` settings on ``deck``, with the deck in play
        the script names."""
        from felt.games.let_it_ride.script import script_round

        return script_round(table, deck, script)

    def script_wager(self, key: str, entry: object) -> Action:
        """A position's three equal wagers, with the bonus wagers or without."""
        from felt.games.let_it_ride.script import wager

        return wager(key, entry)

    def script_wager_entry(self, action: Action) -> tuple[int, dict[str, Any]] | None:
        """The wagers a position placed."""
        from felt.games.let_it_ride.script import wager_entry

        return wager_entry(action)

    def script_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """The deck in play, when it is a two-deck table's second."""
        from felt.games.let_it_ride.script import script_origin

        return script_origin(self._round(rnd))

    def report_dealer(self, rnd: RoundCore) -> dict[str, Any] | None:
        """The community cards face up and how many there are."""
        from felt.games.let_it_ride.script import report_dealer

        return report_dealer(self._round(rnd))

    def report_dealer_text(self, rnd: RoundCore, symbols: bool) -> list[str]:
        """The community cards (face down until turned)."""
        from felt.games.let_it_ride.script import report_dealer_text

        return report_dealer_text(self._round(rnd), symbols)

    def report_hand(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """The position's three cards with the two community cards (18.1 "Hand")."""
        from felt.games.let_it_ride.script import report_hand

        return report_hand(self._round(rnd), seat)

    def report_extra(self, rnd: RoundCore) -> dict[str, Any]:
        """Each position's decisions, the cuts and the deck in play."""
        from felt.games.let_it_ride.script import report_extra

        return report_extra(self._round(rnd))

    @staticmethod
    def _round(rnd: RoundCore) -> LetItRideRound:
        from felt.games.let_it_ride.round import LetItRideRound

        assert isinstance(rnd, LetItRideRound)
        return rnd

    def suggest(self, rnd: RoundCore, seat: int, election: str) -> Action:
        """Let it ride or take back by the optimal strategy (:func:`.strategy.should_ride` on the
        seat's three cards, with community card 1 for the second wager, at the table's pay
        table, the amount of its wagers and what it did with wager 1)."""
        from felt.games.let_it_ride.actions import LetItRide as Ride
        from felt.games.let_it_ride.actions import TakeBack
        from felt.games.let_it_ride.strategy import should_ride

        if election not in ELECTION_WAGERS:
            raise FeltError(
                f"no election {election!r} at Let It Ride Poker (it has: "
                f"{', '.join(ELECTION_WAGERS)})"
            )
        played = self._round(rnd)
        wager = ELECTION_WAGERS[election]
        spot = played.seats.get(seat)
        if spot is None or len(spot.cards) != 3 or len(played.community_up) < wager - 1:
            raise FeltError(f"seat {seat} has no hand to decide on wager {wager}")
        cards = [int(c) for c in [*spot.cards, *played.community_up[: wager - 1]]]
        first_rides = spot.decisions.get("first") == "let it ride"
        ride = should_ride(cards, played.config, spot.placed["first"], first_rides)
        return Ride(seat, wager) if ride else TakeBack(seat, wager)

    def play(self, config: Any, options: Mapping[str, Any]) -> None:
        """``felt play``: a session at a table of ``config`` (:func:`.play.play`) with ``felt
        play``'s options; a session test may give ``ask`` and ``say`` besides."""
        from felt.cli.play import session_options
        from felt.games.let_it_ride.play import play

        if "seat" in options or "note" in options:
            own = {k: v for k, v in options.items() if k in ("ask", "say")}
            options = {**session_options(options, config.seats), **own}
        play(config, options)


GAME = LetItRide()
"""The registered game."""
