"""Double Down Stud as the outer layers see it (:class:`felt.games.base.TableGame`): registered as
the entry point ``double_down`` of the group ``felt.games``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from felt.core.errors import FeltError
from felt.games.base import Log, TableGame
from felt.games.double_down.actions import ACTIONS
from felt.games.double_down.config import GAME as GAME_ID
from felt.games.double_down.config import DoubleDownConfig, load_double_down_table


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
    # (issue 19: the server helper fills this section in)

    # ----------------------------------------------------------------- the browser's layout
    # (issue 19: the browser helper fills this section in)

    # ----------------------------------------------------------------- scripts and play
    # (issue 19: the CLI helper fills this section in)


GAME = DoubleDown()
"""The registered game."""
