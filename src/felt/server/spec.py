"""The tables a server runs: ``felt serve --tables FILE``, a TOML file of ``[[table]]`` entries,
each a table configuration as a table file has it plus the table's pace.

    [[table]]
    id = "table-1"
    game = "..."                 # a table game's id (felt.games.registry.game_ids("table"))
    edition = "..."              # a game with more than one rule text only (default: its first)
    pace_seconds = 1.0           # between the dealer's steps
    dealer = "automatic"         # or "manual": the dealer's console takes each step
    betting_seconds = 15         # betting stays open this long after the first wager
    between_rounds_seconds = 5
    [table.settings]             # as in a table file: limits, pay tables, decision_seconds ...
    minimum = "5.00"

and, in the same id space, the systems of each system game (:mod:`felt.server.systems`), under
the game's own entry name (``[[<entry>]]``, see :meth:`felt.games.base.Game.system_entry`), each
read and checked by its game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from felt.core.errors import FeltError, excerpt
from felt.core.readers import parse_json
from felt.core.tablefile import check_keys, read_toml
from felt.games.registry import game_ids, table_game
from felt.server.systems import SystemSpec, default_systems, system_game_of, system_games

MAX_TABLES: Final = 2000
MAX_SECONDS: Final = 3600.0
DEALING_MODES: Final = ("automatic", "manual")
"""Who takes a table's dealer steps: the table at its pace, or the dealer at the console."""


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
    dealer: str = "automatic"
    """``automatic``: the table takes the dealer's steps at its pace; ``manual``: the dealer takes
    each from the dealer's console (the decision clock still runs)."""

    def config(self) -> Any:
        """The rule configuration, checked against the regulatory minimums as a table file is
        (:meth:`felt.games.base.Game.config`)."""
        return table_game(self.game).config(
            self.game, self.settings, edition=self.edition, where=f"table {self.id}: settings"
        )

    def to_json(self) -> str:
        """The spec as stored with the table."""
        return json.dumps(
            {
                "id": self.id,
                "game": self.game,
                "edition": self.edition,
                "settings": dict(self.settings),
                "pace_seconds": self.pace_seconds,
                "dealer": self.dealer,
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
            "dealer",
        },
        where,
    )
    tid = _check_id(data.get("id"), where)
    game = data.get("game")
    tables = game_ids("table")
    if not isinstance(game, str) or game not in tables:
        raise FeltError(f"{where}: game must be one of {', '.join(tables)}, got {excerpt(game)}")
    edition = data.get("edition")
    family = table_game(game)
    texts = family.editions(game)
    if edition is not None and len({e for g in family.ids for e in family.editions(g)}) == 1:
        # one rule text for every game of the family: nothing to choose
        raise FeltError(f"{where}: edition does not apply to {game} (one text: {texts[0]})")
    if edition is not None and not isinstance(edition, str):
        raise FeltError(
            f"{where}: edition must be a name such as {texts[0]} (allowed: {', '.join(texts)})"
        )
    settings = data.get("settings", {})
    if not isinstance(settings, Mapping):
        raise FeltError(
            f"{where}: settings must be a table of table-file keys, got {excerpt(settings)}"
        )
    dealer = data.get("dealer", "automatic")
    if dealer not in DEALING_MODES:
        raise FeltError(
            f"{where}: dealer must be one of {', '.join(DEALING_MODES)}, got {excerpt(dealer)}"
        )
    spec = TableSpec(
        id=tid,
        game=str(game),
        edition=edition,
        settings=dict(settings),
        pace_seconds=_seconds(data, "pace_seconds", 1.0, where),
        betting_seconds=_seconds(data, "betting_seconds", 15.0, where),
        between_rounds_seconds=_seconds(data, "between_rounds_seconds", 5.0, where),
        dealer=str(dealer),
    )
    spec.config()  # checked now: a bad table never reaches a running server
    return spec


def _check_id(tid: object, where: str) -> str:
    if (
        not isinstance(tid, str)
        or not 1 <= len(tid) <= 64
        or not all(c.isascii() and (c.isalnum() or c in "-_") for c in tid)
    ):
        raise FeltError(
            f"{where}: id must be 1 to 64 ASCII letters, digits, '-' or '_', got {excerpt(tid)}"
        )
    return tid


AnySpec = TableSpec | SystemSpec
"""A table's spec or a system game's system's (:mod:`felt.server.systems`)."""


def any_spec_from_json(text: str) -> AnySpec:
    """A table's or a system's spec as stored."""
    data = parse_json(text, "stored table")
    game = system_game_of(data.get("game")) if isinstance(data, dict) else None
    if game is not None:
        spec: SystemSpec = game.system_spec(data, f"stored {game.family} system")
        return spec
    return spec_from_mapping(data, "stored table")


def load_specs(path: str | Path) -> list[AnySpec]:
    """The tables and systems of a ``--tables`` file."""
    data = read_toml(path)
    systems = {g.system_entry(): g for g in system_games()}
    check_keys(data, {"table", *systems}, str(path))
    tables = data.get("table", [])
    entries = {key: data.get(key, []) for key in systems}
    if (
        not isinstance(tables, list)
        or not all(isinstance(e, list) for e in entries.values())
        or not 1 <= len(tables) + sum(map(len, entries.values())) <= MAX_TABLES
    ):
        arrays = " and ".join(f"[[{key}]]" for key in ("table", *systems))
        raise FeltError(f"{path}: give 1 to {MAX_TABLES} {arrays} entries")
    specs: list[AnySpec] = [
        spec_from_mapping(e if isinstance(e, Mapping) else {"id": e}, f"{path}: table {i + 1}")
        for i, e in enumerate(tables)
    ]
    base = Path(path).parent
    for key, game in systems.items():
        for i, e in enumerate(entries[key]):
            where = f"{path}: {key} {i + 1}"
            if not isinstance(e, Mapping):
                raise FeltError(f"{where}: a [[{key}]] entry is a table of settings")
            if "game" in e:
                raise FeltError(f"{where}: a [[{key}]] entry has no 'game' (it is {key})")
            specs.append(game.system_spec(e, where, base))
    ids = [s.id for s in specs]
    if len(set(ids)) != len(ids):
        raise FeltError(f"{path}: {' and '.join(('table', *systems))} ids must be distinct")
    return specs


def default_specs() -> list[AnySpec]:
    """What a server runs when no ``--tables`` file is given: one table of each game and each
    system game's own systems."""
    return [
        *(TableSpec(f"{_short(game)}-1", game) for game in game_ids("table")),
        *default_systems(),
    ]


def _short(game: str) -> str:
    """A game id as a default table id begins: the id itself, or a hyphenated id's initials
    (``a-b-c``: ``abc``)."""
    return "".join(word[:1] for word in game.split("-")) if "-" in game else game
