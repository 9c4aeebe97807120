"""Boston 5 and Boston 7 Stud Poker as the outer layers see them (:class:`felt.games.base.TableGame`):
registered as the entry point ``boston`` of the group ``felt.games``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from felt.games.base import GameTable, Log, TableGame
from felt.games.boston.config import TableConfig, load_table
from felt.games.boston.editions import GAMES, editions

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
    # (issue 19: the analysis / guide helper moves what these call into this folder)
    def analyze(self, game_id: str, config: Any, ante: int | None, log: Log | None = None) -> Any:
        """The exact par sheet of a Boston 5 or Boston 7 table."""
        from felt.analysis.games import analyze_boston5, analyze_boston7

        if game_id == "boston7":
            return analyze_boston7(config, ante, log=log)
        return analyze_boston5(config, ante)

    def analysis_pending(self, config: Any) -> str | None:
        """Boston 7's counts take minutes the first time on a machine."""
        from felt.analysis.boston7 import counts_on_disk

        if config.game != "boston7" or counts_on_disk():
            return None
        return (
            "the Boston 7 counts are not computed on this machine yet (minutes of work): "
            "run `felt analyze boston7` once, then open the par sheet again"
        )

    def guide(self, config: Any, fmt: str) -> str:
        """The patron's guide to a Boston table."""
        from felt.guide import render_guide

        return render_guide(config, fmt)

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
        from felt.games.boston.round import Round
        from felt.games.boston.view_json import seat_json

        assert isinstance(rnd, Round)
        return seat_json(rnd, seat)

    # ----------------------------------------------------------------- the browser's layout
    # (issue 19: the browser helper fills this section in)

    # ----------------------------------------------------------------- scripts and play
    # (issue 19: the CLI helper fills this section in)


GAME = Boston()
"""The registered game."""
