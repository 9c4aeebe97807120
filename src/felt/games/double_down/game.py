"""Double Down Stud as the outer layers see it (:class:`felt.games.base.TableGame`): registered as
the entry point ``double_down`` of the group ``felt.games``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from felt.core.errors import FeltError
from felt.games.base import GameTable, Log, TableGame
from felt.games.double_down.actions import ACTIONS
from felt.games.double_down.config import GAME as GAME_ID
from felt.games.double_down.config import DoubleDownConfig, load_double_down_table, rules

if TYPE_CHECKING:
    from felt.simulate import Simulation

if TYPE_CHECKING:
    from felt.core.cards import Card
    from felt.games.double_down.round import DoubleDownRound
    from felt.rounds.actions import Action
    from felt.rounds.round_core import RoundCore

if TYPE_CHECKING:
    from felt.core.cards import Card
    from felt.games.double_down.round import DoubleDownRound
    from felt.games.double_down.table import DoubleDownTable
    from felt.rounds.actions import Action
    from felt.rounds.round_core import RoundCore


class DoubleDown(TableGame):
    """Double Down Stud (N.J.A.C. 19:47-17)."""

    family = "double_down"
    ids = (GAME_ID,)
    package = "felt.games.double_down"
    seat_word = "area"
    action_types = ACTIONS

    # ----------------------------------------------------------------- identity and configuration
    def title(self, game_id: str) -> str:
        """Double Down Stud."""
        return "Double Down Stud"

    def editions(self, game_id: str) -> tuple[str, ...]:
        """One text: N.J.A.C. 19:47-17."""
        return ("nj-19-47-17",)

    def config(
        self, game_id: str, settings: Mapping[str, Any], *, edition: str | None = None,
        where: str = "table",
    ) -> DoubleDownConfig:  # fmt: skip
        """A Double Down Stud table."""
        if edition is not None and edition not in self.editions(game_id):
            raise FeltError(
                f"{where}: edition does not apply to {GAME_ID} (one text: N.J.A.C. 19:47-17)"
            )
        return DoubleDownConfig.from_mapping(dict(settings), where=where)

    def load_config(self, path: str | Path) -> tuple[str, DoubleDownConfig]:
        """A Double Down Stud table file."""
        return GAME_ID, load_double_down_table(path)

    # ----------------------------------------------------------------- analysis, simulation, guide
    config_types = (DoubleDownConfig,)

    def analyze(self, game_id: str, config: Any, ante: int | None, log: Log | None = None) -> Any:
        """The exact par sheet of a Double Down Stud table."""
        from felt.games.double_down.analysis import analyze_double_down

        return analyze_double_down(config, ante)

    def guide(self, config: Any, fmt: str) -> str:
        """The patron's guide to a Double Down Stud table."""
        from felt.games.double_down.guide import double_down_guide
        from felt.guide import render

        return render(double_down_guide(config), fmt)

    def edition_text(self, edition: str) -> tuple[str, str] | None:
        """The title and citation format of N.J.A.C. 19:47-17, from the game's rules data."""
        r = rules()
        return r.title, r.clause_format

    def simulation(self, config: Any) -> Simulation:
        """The compiled fast path (:mod:`felt.games.double_down.simulation`)."""
        from felt.games.double_down.simulation import DoubleDownSimulation

        return DoubleDownSimulation(self, config)

    # ----------------------------------------------------------------- tables, rounds, views
    def seat_count(self, config: Any) -> int:
        """The betting areas the table has."""
        return int(config.areas)

    def new_table(self, config: Any, snapshot: Mapping[str, Any] | None = None) -> DoubleDownTable:
        """A Double Down Stud table as :meth:`table_snapshot` left it: where the cut rotation
        stands (17.4(d)), a removed shuffler and the shuffling method in use (17.11(f))."""
        from felt.games.double_down.table import DoubleDownTable

        snap = dict(snapshot or {})
        if "shuffling" in snap:
            config = replace(config, shuffling=snap.pop("shuffling"))
        return DoubleDownTable(config, **snap)

    def table_snapshot(self, table: GameTable) -> dict[str, Any]:
        """The rounds played, the cut rotation (17.4(d)), a removed shuffler and the shuffling
        method."""
        from felt.games.double_down.table import DoubleDownTable

        assert isinstance(table, DoubleDownTable)
        return {
            "rounds_played": table.rounds_played,
            "game_beginning": table.game_beginning,
            "last_offered": table.last_offered,
            "shuffler_removed": table.shuffler_removed,
            "shuffling": table.config.shuffling,
        }

    def new_round(
        self, config: Any, deck: Sequence[Card], origin: Mapping[str, Any]
    ) -> DoubleDownRound:
        """A Double Down Stud round: its number and where the cut rotation stood (17.4(d))."""
        from felt.games.double_down.round import DoubleDownRound

        return DoubleDownRound(config, tuple(deck), **origin)

    def round_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """The round's number, whether it began the game and the area last offered the cut
        (17.4(d))."""
        from felt.games.double_down.round import DoubleDownRound

        assert isinstance(rnd, DoubleDownRound)
        return {"number": rnd.number, "new_game": rnd.new_game, "last_offered": rnd.last_offered}

    def dealer_step(self, table: GameTable, rnd: RoundCore) -> Action | None:
        """The round's next step; a cut the round leaves to the table is placed where the table
        cuts when no player accepts the cut (17.4)."""
        from felt.games.double_down.actions import DealerCut
        from felt.games.double_down.table import DoubleDownTable

        step = rnd.next_dealer_action()
        if isinstance(step, DealerCut):
            assert isinstance(table, DoubleDownTable)
            return DealerCut(position=table.cut_position())
        return step

    def procedures(self) -> dict[str, str]:
        """No gaming activity (17.4(g)), removing the shuffler and shuffling another way
        (17.11(f)): the :class:`~felt.games.double_down.table.DoubleDownTable` methods."""
        return {
            "no_gaming_activity": "",
            "remove_shuffler": "",
            "change_shuffling": "a shuffling method",
        }

    def seat_view(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """:func:`felt.games.double_down.view.area_view` of betting area ``seat`` as JSON."""
        from felt.games.double_down.round import DoubleDownRound
        from felt.games.double_down.view_json import area_json

        assert isinstance(rnd, DoubleDownRound)
        return area_json(rnd, seat)

    # ----------------------------------------------------------------- the browser's layout
    def layout(self, config: Any) -> dict[str, Any]:
        """The table as the browser draws it (the keys: :meth:`TableGame.layout`): one wager
        an area, taken until "No more bets" (17.6, also while the cut is offered, 17.4); the cut
        offered to a player (17.4(c)-(e)) and the double down (17.8(c)); the dealer's hole card
        face down until turned over (17.8(d)); the irregularities of 17.11; a supervisor's
        recut (17.4(f))."""
        from felt.core.money import dollars

        decisions: dict[str, Any] = {}
        cut_from_end = rules().cut_min_from_end
        if config.cut_required:  # 17.4(b): no cut when the shuffler loads the shoe
            decisions["cut or decline"] = {
                "buttons": [
                    {
                        "label": "Cut",
                        "action": {"action": "cut"},
                        "primary": True,
                        "adds": ["position"],
                    },
                    {
                        "label": "Decline the cut",
                        "action": {"action": "decline_cut"},
                        "primary": True,
                        "adds": [],
                    },
                ],
                "number": {
                    "field": "position",
                    "label": "Position",
                    "min": cut_from_end,  # 17.4(e): at least this many cards from either end
                    "max": 52 - cut_from_end,
                    "value": 26,
                },
            }
        # 17.8(c): the double down wager equals the original wager, or (up-to) any amount
        # more than nothing up to it, in whole cents
        double: dict[str, Any] = {
            "label": "Double down",
            "action": {"action": "double"},
            "primary": True,
            "adds": [],
            "places": {"wager": "wager", "times": 1, "label": "Double for"},
        }
        if config.double_down == "up-to":
            double["adds"] = ["amount"]
            double["places"].update(field="amount", minimum=dollars(1), step=dollars(1))
        decisions["double or stand"] = {
            "buttons": [
                double,
                {"label": "Stand", "action": {"action": "stand"}, "primary": False, "adds": []},
            ]
        }
        return {
            "title": "Double Down Stud",
            "wager": {
                "label": "Wager",
                "minimum": dollars(config.minimum),
                "maximum": dollars(config.maximum),
                "legend": "your wager",
                "action": "bet",
                "button": "Bet",
                "phases": ["betting", "cut", "cut done"],
                "spots": [  # any whole cents within the limits (17.6)
                    {
                        "field": "amount",
                        "label": "Wager",
                        "minimum": dollars(config.minimum),
                        "maximum": dollars(config.maximum),
                        "step": dollars(1),
                    }
                ],
            },
            "decisions": decisions,
            "dealer": {"cards": "dealer_up", "hole": "hole_card", "hole_label": "Hole card"},
            "irregularities": [
                {
                    "name": "hole_card_exposed",
                    "label": "Hole card exposed (17.11(a))",
                    "fields": [],
                },
                {
                    "name": "face_up_card",
                    "label": "Card found face up (17.11)",
                    "fields": [{"field": "position", "label": "Position in the deck (1 = top)"}],
                },
                {
                    "name": "misdeal",
                    "label": "Misdeal (17.11)",
                    "fields": [
                        {"field": "cards", "label": "Cards received"},
                        {"field": "seat", "label": "Area (empty: the dealer)"},
                    ],
                },
                {"name": "shuffler_jam", "label": "Shuffler jam (17.11)", "fields": []},
            ],
            "steps": [
                {
                    "label": "Require a recut (17.4(f))",
                    "action": {"dealer": "require_recut"},
                    "role": "supervisor",
                },
            ],
            "dealer_steps": {  # the console's buttons, in the dealer's words
                "offer_cut": "Offer the cut",
                "cut": "Cut the cards",
                "no_more_bets": "No more bets",
                "deal": "Deal a card to each area and four to the dealer",
                "no_more_doubles": "No more bets on double downs",
                "reveal": "Reveal the hole card",
                "settle": "Settle the wagers",
            },
            "phase_words": {  # where the round stands, as a player or dealer says it
                "betting": "taking wagers",
                "cut": "taking wagers: the cut offered",
                "cut done": "taking wagers: cards cut",
                "closed": "no more bets",
                "doubles": "taking double downs",
                "reveal": "no more double downs",
                "revealed": "hole card shown",
                "complete": "settled",
                "void": "void",
            },
        }

    # ----------------------------------------------------------------- scripts and play
    script_fields = ("new_game", "last_offered", "first_to_table")

    def script_round(
        self, game_id: str, script: Mapping[str, Any], table: Mapping[str, Any],
        deck: tuple[Card, ...],
    ) -> RoundCore:  # fmt: skip
        """A Double Down Stud round where the script's cut rotation stands (17.4(d))."""
        from felt.games.double_down.script import script_round

        return script_round(script, table, deck)

    def script_wager(self, key: str, entry: object) -> Action:
        """A betting area's wager."""
        from felt.games.double_down.script import wager

        return wager(key, entry)

    def script_wager_entry(self, action: Action) -> tuple[int, dict[str, Any]] | None:
        """The wager an area placed."""
        from felt.games.double_down.script import wager_entry

        return wager_entry(action)

    def script_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """Whether the round began a new game, else the area last offered the cut."""
        from felt.games.double_down.script import origin

        return origin(self._round(rnd))

    def report_dealer(self, rnd: RoundCore) -> dict[str, Any] | None:
        """The dealer's cards once the hole card is revealed."""
        from felt.games.double_down.script import report_dealer

        return report_dealer(self._round(rnd))

    def report_dealer_text(self, rnd: RoundCore, symbols: bool) -> list[str]:
        """The dealer's cards, the hole card first."""
        from felt.games.double_down.script import report_dealer_text

        return report_dealer_text(self._round(rnd), symbols)

    def report_extra(self, rnd: RoundCore) -> dict[str, Any]:
        """``cut``: where the rotation of 17.4(d) stands."""
        from felt.games.double_down.script import report_cut

        return {"cut": report_cut(self._round(rnd))}

    @staticmethod
    def _round(rnd: RoundCore) -> DoubleDownRound:
        from felt.games.double_down.round import DoubleDownRound

        assert isinstance(rnd, DoubleDownRound)
        return rnd

    def suggest(self, rnd: RoundCore, seat: int, election: str) -> Action:
        """The house's suggested play (:func:`felt.games.double_down.suggest_double`)."""
        from felt.games.double_down.play import suggestion

        return suggestion(self._round(rnd), seat, election)

    def play(self, config: Any, options: Mapping[str, Any]) -> None:
        """A Double Down Stud table in the terminal
        (:func:`felt.games.double_down.play.play_double_down`)."""
        from felt.cli.play import session_options
        from felt.games.double_down.play import play_double_down

        play_double_down(config, **session_options(options, config.areas))


GAME = DoubleDown()
"""The registered game."""
