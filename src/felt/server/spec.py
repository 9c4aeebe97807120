"""The tables a server runs: ``felt serve --tables FILE``, a TOML file of ``[[table]]`` entries,
each a table configuration as a table file has it plus the table's pace.

    [[table]]
    id = "boston5-1"
    game = "boston5"             # boston5, boston7 or double-down-stud
    edition = "nj-19-47-24"      # Boston only
    pace_seconds = 1.0           # between the dealer's steps
    betting_seconds = 15         # betting stays open this long after the first wager
    between_rounds_seconds = 5
    [table.settings]             # as in a table file: limits, pay tables, decision_seconds ...
    minimum = "5.00"
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from felt.core.errors import FeltError, excerpt
from felt.core.tablefile import check_keys, read_toml
from felt.games.boston.config import TableConfig
from felt.games.boston.editions import GAMES, default_edition
from felt.games.double_down import DoubleDownConfig

DDS: Final = "double-down-stud"
GAME_NAMES: Final = (*GAMES, DDS)
MAX_TABLES: Final = 2000
MAX_SECONDS: Final = 3600.0


@dataclass(frozen=True)
class TableSpec:
    """One table of the server: its id, game, rule settings and pace."""

    id: str
    game: str
    edition: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    pace_seconds: float = 1.0
    betting_seconds: float = 15.0
    between_rounds_seconds: float = 5.0

    def config(self) -> TableConfig | DoubleDownConfig:
        """The rule configuration, checked against the regulatory minimums as a table file is."""
        where = f"table {self.id}: settings"
        if self.game == DDS:
            return DoubleDownConfig.from_mapping(dict(self.settings), where=where)
        data = {
            **self.settings,
            "game": self.game,
            "edition": self.edition or default_edition(self.game),
        }
        return TableConfig.from_mapping(data, where=where)

    def to_json(self) -> str:
        """The spec as stored with the table."""
        return json.dumps(
            {
                "id": self.id,
                "game": self.game,
                "edition": self.edition,
                "settings": dict(self.settings),
                "pace_seconds": self.pace_seconds,
                "betting_seconds": self.betting_seconds,
                "between_rounds_seconds": self.between_rounds_seconds,
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> TableSpec:
        """A spec as stored."""
        return spec_from_mapping(json.loads(text), "stored table")


def _seconds(data: Mapping[str, Any], key: str, default: float, where: str) -> float:
    value = data.get(key, default)
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not 0 <= value <= MAX_SECONDS
    ):
        raise FeltError(
            f"{where}: {key} must be a number of seconds from 0 to {MAX_SECONDS:g}, got {excerpt(value)}"
        )
    return float(value)


def spec_from_mapping(data: Mapping[str, Any], where: str) -> TableSpec:
    """Read and check one ``[[table]]`` entry."""
    check_keys(
        data,
        {
            "id",
            "game",
            "edition",
            "settings",
            "pace_seconds",
            "betting_seconds",
            "between_rounds_seconds",
        },
        where,
    )
    tid = data.get("id")
    if (
        not isinstance(tid, str)
        or not 1 <= len(tid) <= 64
        or not all(c.isascii() and (c.isalnum() or c in "-_") for c in tid)
    ):
        raise FeltError(
            f"{where}: id must be 1 to 64 ASCII letters, digits, '-' or '_', got {excerpt(tid)}"
        )
    game = data.get("game")
    if game not in GAME_NAMES:
        raise FeltError(
            f"{where}: game must be one of {', '.join(GAME_NAMES)}, got {excerpt(game)}"
        )
    edition = data.get("edition")
    if edition is not None and (game == DDS or not isinstance(edition, str)):
        raise FeltError(
            f"{where}: edition applies to Boston tables only, as a name such as nj-19-47-24"
        )
    settings = data.get("settings", {})
    if not isinstance(settings, Mapping):
        raise FeltError(
            f"{where}: settings must be a table of table-file keys, got {excerpt(settings)}"
        )
    spec = TableSpec(
        id=tid,
        game=str(game),
        edition=edition,
        settings=dict(settings),
        pace_seconds=_seconds(data, "pace_seconds", 1.0, where),
        betting_seconds=_seconds(data, "betting_seconds", 15.0, where),
        between_rounds_seconds=_seconds(data, "between_rounds_seconds", 5.0, where),
    )
    spec.config()  # checked now: a bad table never reaches a running server
    return spec


def load_specs(path: str | Path) -> list[TableSpec]:
    """The tables of a ``--tables`` file."""
    data = read_toml(path)
    check_keys(data, {"table"}, str(path))
    entries = data.get("table")
    if not isinstance(entries, list) or not entries or len(entries) > MAX_TABLES:
        raise FeltError(f"{path}: give 1 to {MAX_TABLES} [[table]] entries")
    specs = [spec_from_mapping(e if isinstance(e, Mapping) else {"id": e}, f"{path}: table {i + 1}")
             for i, e in enumerate(entries)]  # fmt: skip
    ids = [s.id for s in specs]
    if len(set(ids)) != len(ids):
        raise FeltError(f"{path}: table ids must be distinct")
    return specs


def default_specs() -> list[TableSpec]:
    """The tables a server runs when no ``--tables`` file is given: one of each game."""
    return [
        TableSpec("boston5-1", "boston5"),
        TableSpec("boston7-1", "boston7"),
        TableSpec("dds-1", DDS),
    ]
