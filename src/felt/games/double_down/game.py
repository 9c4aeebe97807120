"""Double Down Stud as the outer layers see it (:class:`felt.games.base.TableGame`): registered as
the entry point ``double_down`` of the group ``felt.games``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from felt.core.errors import FeltError
from felt.games.base import GameTable, Log, TableGame
from felt.games.double_down.config import GAME as GAME_ID
from felt.games.double_down.config import DoubleDownConfig, load_double_down_table

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
    # (issue 19: the analysis / guide helper moves what these call into this folder)
    def analyze(self, game_id: str, config: Any, ante: int | None, log: Log | None = None) -> Any:
        """The exact par sheet of a Double Down Stud table."""
        from felt.analysis.games import analyze_double_down

        return analyze_double_down(config, ante)

    def guide(self, config: Any, fmt: str) -> str:
        """The patron's guide to a Double Down Stud table."""
        from felt.guide import render_guide

        return render_guide(config, fmt)

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
        from felt.games.double_down.table import DoubleDownTable
        from felt.rounds.actions import DealerCut

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
    # (issue 19: the browser helper fills this section in)

    # ----------------------------------------------------------------- scripts and play
    # (issue 19: the CLI helper fills this section in)


GAME = DoubleDown()
"""The registered game."""
