"""Boston 5 and Boston 7 Stud Poker as the outer layers see them (:class:`felt.games.base.TableGame`):
registered as the entry point ``boston`` of the group ``felt.games``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from felt.games.base import Log, TableGame
from felt.games.boston.config import TableConfig, load_table
from felt.games.boston.editions import GAMES, editions

if TYPE_CHECKING:
    from felt.core.cards import Card
    from felt.rounds.actions import Action
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
    # (issue 19: the server helper fills this section in)

    # ----------------------------------------------------------------- the browser's layout
    # (issue 19: the browser helper fills this section in)

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
