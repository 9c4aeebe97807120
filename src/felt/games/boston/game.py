"""Boston 5 and Boston 7 Stud Poker as the outer layers see them (:class:`felt.games.base.TableGame`):
registered as the entry point ``boston`` of the group ``felt.games``."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from felt.games.base import GameTable, Log, TableGame
from felt.games.boston.actions import ACTIONS
from felt.games.boston.config import TableConfig, load_table
from felt.games.boston.editions import GAMES, editions
from felt.games.boston.editions import edition as edition_named

if TYPE_CHECKING:
    from felt.simulate import Simulation

if TYPE_CHECKING:
    from felt.core.cards import Card
    from felt.rounds.actions import Action
    from felt.rounds.round_core import RoundCore

if TYPE_CHECKING:
    from felt.core.cards import Card
    from felt.games.boston.round import Round
    from felt.games.boston.table import Table
    from felt.rounds.round_core import RoundCore


class Boston(TableGame):
    """Boston 5 and Boston 7 Stud Poker (N.J.A.C. 19:47-24, 205 CMR, N.J.A.C. 13:69F-24)."""

    family = "boston"
    ids = GAMES
    package = "felt.games.boston"
    action_types = ACTIONS

    # ----------------------------------------------------------------- identity and configuration
    def title(self, game_id: str) -> str:
        """Boston 5 Stud Poker or Boston 7 Stud Poker."""
        return {"boston5": "Boston 5 Stud Poker", "boston7": "Boston 7 Stud Poker"}[game_id]

    def editions(self, game_id: str) -> tuple[str, ...]:
        """The editions that have ``game_id``, the default (the first that has it) first."""
        return tuple(name for name, ed in editions().items() if game_id in ed.games)

    def config(
        self, game_id: str, settings: Mapping[str, Any], *, edition: str | None = None,
        where: str = "table",
    ) -> TableConfig:  # fmt: skip
        """A Boston table of ``game_id`` under ``edition`` (the game's default when None)."""
        data = {**settings, "game": game_id, "edition": edition or self.editions(game_id)[0]}
        return TableConfig.from_mapping(data, where=where)

    def load_config(self, path: str | Path) -> tuple[str, TableConfig]:
        """A Boston table file."""
        config = load_table(path)
        return config.game, config

    def config_game(self, config: Any) -> str:
        """boston5 or boston7."""
        return str(config.game)

    def config_edition(self, config: Any) -> str:
        """The configuration's edition."""
        return str(config.edition.name)

    # ----------------------------------------------------------------- analysis, simulation, guide
    config_types = (TableConfig,)

    def analyze(self, game_id: str, config: Any, ante: int | None, log: Log | None = None) -> Any:
        """The exact par sheet of a Boston 5 or Boston 7 table."""
        from felt.games.boston.analysis import analyze_boston5, analyze_boston7

        if game_id == "boston7":
            return analyze_boston7(config, ante, log=log)
        return analyze_boston5(config, ante)

    def analysis_pending(self, config: Any) -> str | None:
        """Boston 7's counts take minutes the first time on a machine."""
        from felt.games.boston.boston7 import counts_on_disk

        if config.game != "boston7" or counts_on_disk():
            return None
        return (
            "the Boston 7 counts are not computed on this machine yet (minutes of work): "
            "run `felt analyze boston7` once, then open the par sheet again"
        )

    def guide(self, config: Any, fmt: str) -> str:
        """The patron's guide to a Boston table."""
        from felt.games.boston.guide import boston_guide
        from felt.guide import render

        return render(boston_guide(config), fmt)

    def edition_text(self, edition: str) -> tuple[str, str] | None:
        """The edition's title and citation format, from the editions' data."""
        ed = edition_named(edition)
        return ed.title, ed.clause_format

    def simulation(self, config: Any) -> Simulation:
        """The compiled fast path (:mod:`felt.games.boston.simulation`)."""
        from felt.games.boston.simulation import BostonSimulation

        return BostonSimulation(self, config)

    # ----------------------------------------------------------------- tables, rounds, views
    def seat_count(self, config: Any) -> int:
        """Six seats, numbered from the dealer's left."""
        return 6

    def new_table(self, config: Any, snapshot: Mapping[str, Any] | None = None) -> Table:
        """A Boston table as :meth:`table_snapshot` left it: its counts, a removed deck or
        device, and the dealing method in use (24.12(g))."""
        from felt.games.boston.table import Table

        snap = dict(snapshot or {})
        if "dealing" in snap:
            config = replace(config, dealing=snap.pop("dealing"))
        return Table(config, **snap)

    def table_snapshot(self, table: GameTable) -> dict[str, Any]:
        """The rounds played, the stub-count cadence (24.7(f)), a removed deck or device and the
        dealing method."""
        from felt.games.boston.table import Table

        assert isinstance(table, Table)
        return {
            "rounds_played": table.rounds_played,
            "rounds_since_count": table.rounds_since_count,
            "deck_removed": table.deck_removed,
            "device_removed": table.device_removed,
            "dealing": table.config.dealing,
        }

    def new_round(self, config: Any, deck: Sequence[Card], origin: Mapping[str, Any]) -> Round:
        """A Boston round: its number and whether it counts the stub."""
        from felt.games.boston.round import Round

        return Round(config, tuple(deck), **origin)

    def round_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """The round's number and whether it counts the stub (24.7(f))."""
        from felt.games.boston.round import Round

        assert isinstance(rnd, Round)
        return {"number": rnd.number, "stub_count_due": rnd.stub_count_due}

    def procedures(self) -> dict[str, str]:
        """The counting shuffler's report, a new deck, removing the automated shoe and dealing
        another way (the :class:`~felt.games.boston.table.Table` methods)."""
        return {
            "shuffler_count": "the number of cards the counting shuffler counted (24.9(f))",
            "replace_deck": "",
            "remove_device": "",
            "change_dealing": "a dealing method",
        }

    def seat_view(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """:func:`felt.games.boston.view.seat_view` of ``seat`` as JSON."""
        round_type, seat_json = self._view_json()
        assert isinstance(rnd, round_type)
        return seat_json(rnd, seat)

    @staticmethod
    @functools.cache
    def _view_json() -> tuple[type[Round], Callable[[Round, int], dict[str, Any]]]:
        """The round's type and :func:`felt.games.boston.view_json.seat_json`, imported when first
        wanted (not with the game) and then kept: an import statement costs some microseconds
        each time it runs, and the server builds a view for each seat at each push."""
        from felt.games.boston.round import Round
        from felt.games.boston.view_json import seat_json

        return Round, seat_json

    # ----------------------------------------------------------------- the browser's layout
    def layout(self, config: Any) -> dict[str, Any]:
        """The table as the browser draws it (the keys: :meth:`TableGame.layout`): the ante with
        the first wager at the table's ratio and the optional bonus wager (24.6(b), (c)); the
        elections a table of this game and edition can wait for (24.10(a)-(c), 13:69F-24.10(c));
        the dealer's cards face down until revealed (24.10(e)); the irregularities of 24.12."""
        from felt.core.money import dollars

        decisions: dict[str, Any] = {}
        if not config.edition.bonus_exposure_required:  # 19:47-24.10(a): "may elect to expose"
            decisions["expose or decline"] = {
                "buttons": [
                    {
                        "label": "Expose for the bonus",
                        "action": {"action": "expose"},
                        "primary": True,
                        "adds": [],
                    },
                    {
                        "label": "Do not expose",
                        "action": {"action": "decline"},
                        "primary": False,
                        "adds": [],
                    },
                ]
            }
        decisions["second or fold"] = {
            "buttons": [
                {
                    "label": "Second wager",
                    "action": {"action": "second"},
                    "primary": True,
                    "adds": [],
                    # 24.10(b): the second wager equals the first
                    "places": {"wager": "first", "times": 1, "label": "Second wager"},
                },
                {"label": "Fold", "action": {"action": "fold"}, "primary": False, "adds": []},
            ]
        }
        if config.game == "boston7":  # 13:69F-24.10(c): discard two of the seven, or keep all
            decisions["discard or keep"] = {
                "buttons": [
                    {
                        "label": "Discard the two chosen",
                        "action": {"action": "discard"},
                        "primary": True,
                        "adds": ["cards"],
                    },
                    {
                        "label": "Keep all seven",
                        "action": {"action": "keep"},
                        "primary": True,
                        "adds": [],
                    },
                ],
                "pick": {
                    "field": "cards",
                    "count": 2,
                    "prompt": "Choose the two cards to discard first",
                },
            }
        position = {"field": "position", "label": "Position in the deck (1 = top)"}
        return {
            "title": {"boston5": "Boston 5 Stud", "boston7": "Boston 7 Stud"}[config.game],
            "wager": {
                "label": "Ante",
                "minimum": dollars(config.minimum),
                "maximum": dollars(config.maximum),
                "legend": f"ante (the first wager is {config.first_ratio} × the ante)",
                "action": "wager",
                "button": "Wager",
                "phases": ["betting"],
                "spots": [  # any whole cents within the limits (24.6(b), (c))
                    {
                        "field": "ante",
                        "label": "Ante",
                        "minimum": dollars(config.minimum),
                        "maximum": dollars(config.maximum),
                        "step": dollars(1),
                    },
                    {
                        "field": "first",
                        "label": "First wager",
                        "follows": "ante",
                        "times": config.first_ratio,
                    },
                    {
                        "field": "bonus",
                        "label": "Optional bonus wager",
                        "optional": True,
                        "minimum": dollars(config.bonus_minimum),
                        "maximum": dollars(config.bonus_maximum),
                        "step": dollars(1),
                    },
                ],
            },
            "decisions": decisions,
            "dealer": {"cards": "dealer_cards", "count": "dealer_card_count"},
            "irregularities": [
                {
                    "name": "dealer_card_exposed",
                    "label": "A dealer's card exposed (24.12(a))",
                    "fields": [],
                },
                {
                    "name": "face_up_card",
                    "label": "Card found face up (24.12(b))",
                    "fields": [position],
                },
                {"name": "drawn_in_error", "label": "Card drawn in error (24.12(c))", "fields": []},
                {
                    "name": "misdeal",
                    "label": "Misdeal (24.12(d))",
                    "fields": [
                        {"field": "cards", "label": "Cards received"},
                        {"field": "seat", "label": "Seat (empty: the dealer)"},
                    ],
                },
                {"name": "shuffler_jam", "label": "Shuffler jam (24.12(e))", "fields": []},
                {
                    "name": "shoe_jam",
                    "label": "Shoe jam (24.12(f))",
                    "fields": [{"field": "stacks", "label": "Stacks delivered"}],
                },
            ],
            "steps": [],
            "dealer_steps": {  # the console's buttons, in the dealer's words
                "no_more_bets": "No more bets",
                "deal": "Deal three cards to each hand and the dealer",
                "resolve_bonuses": "Settle the bonus wagers",
                "deal_additional": {
                    "boston5": "Deal the fourth and fifth cards",
                    "boston7": "Deal the fourth to seventh cards",
                }[config.game],
                "count_stub": "Count the stub",
                "reveal": "Reveal the dealer's hand",
                "settle": "Settle the wagers",
            },
            "phase_words": {  # where the round stands, as a player or dealer says it
                "betting": "taking wagers",
                "closed": "no more bets",
                "bonus": "settling the bonus wagers",
                "decisions": "second wager or fold",
                "ready": "decisions made",
                "dealt": {
                    "boston5": "all five cards dealt",
                    "boston7": "all seven cards dealt: discard or keep",
                }[config.game],
                "revealed": "dealer's hand shown",
                "complete": "settled",
                "void": "void",
            },
        }

    # ----------------------------------------------------------------- scripts and play
    script_fields = ("stub_count_due",)

    def script_round(
        self, game_id: str, script: Mapping[str, Any], table: Mapping[str, Any],
        deck: tuple[Card, ...],
    ) -> RoundCore:  # fmt: skip
        """A Boston round under the script's edition, counting the stub when it says so."""
        from felt.games.boston.script import script_round

        return script_round(game_id, script, table, deck)

    def script_wager(self, key: str, entry: object) -> Action:
        """A seat's ante, first wager and optional bonus."""
        from felt.games.boston.script import wager

        return wager(key, entry)

    def script_wager_entry(self, action: Action) -> tuple[int, dict[str, Any]] | None:
        """The ante, first wager and optional bonus a seat placed."""
        from felt.games.boston.script import wager_entry

        return wager_entry(action)

    def script_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """Whether the round counted the stub (24.7(f))."""
        from felt.games.boston.round import Round
        from felt.games.boston.script import origin

        assert isinstance(rnd, Round)
        return origin(rnd)

    def suggest(self, rnd: RoundCore, seat: int, election: str) -> Action:
        """The house's suggested play (:mod:`felt.games.boston.strategy`)."""
        from felt.games.boston.play import suggestion
        from felt.games.boston.round import Round

        assert isinstance(rnd, Round)
        return suggestion(rnd, seat, election)

    def play(self, config: Any, options: Mapping[str, Any]) -> None:
        """A Boston table in the terminal (:func:`felt.games.boston.play.play_session`)."""
        from felt.cli.play import session_options
        from felt.games.boston.config import SEATS
        from felt.games.boston.play import play_session

        play_session(config, **session_options(options, SEATS))


GAME = Boston()
"""The registered game."""
