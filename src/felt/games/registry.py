"""The registry of games: every game felt runs is an entry point of the group ``felt.games``
(``pyproject.toml``), felt's own games included, so a separately installed package adds a game the
same way.  The outer layers look games up here and know them only through
:class:`~felt.games.base.Game`.

>>> from felt.games.registry import game_ids
>>> "boston5" in game_ids()
True
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from typing import Final

from felt.core.errors import FeltError, excerpt
from felt.games.base import Game, TableGame

GROUP: Final = "felt.games"
"""The entry-point group games register under."""


@cache
def families() -> dict[str, Game]:
    """Every registered game, by family name, in a stable order (by name)."""
    out: dict[str, Game] = {}
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        loaded = ep.load()
        game = loaded() if isinstance(loaded, type) else loaded
        if not isinstance(game, Game):
            raise TypeError(f"entry point {ep.name} = {ep.value} is not a felt Game")
        if game.family != ep.name:
            raise TypeError(f"entry point {ep.name} names a game of family {game.family!r}")
        out[ep.name] = game
    return out


@cache
def _by_id() -> dict[str, Game]:
    out: dict[str, Game] = {}
    for game in families().values():
        for gid in game.ids:
            if gid in out:
                raise TypeError(
                    f"game id {gid!r} is registered by {out[gid].family} and {game.family}"
                )
            out[gid] = game
    return out


def game_ids(kind: str | None = None) -> tuple[str, ...]:
    """Every game id (of ``kind``, ``table`` or ``system``, when given), in registry order."""
    return tuple(g for g, game in _by_id().items() if kind is None or game.kind == kind)


def game(game_id: object, kind: str | None = None) -> Game:
    """The game ``game_id`` names, or one clear error naming the games allowed."""
    found = _by_id().get(game_id) if isinstance(game_id, str) else None
    if found is None or (kind is not None and found.kind != kind):
        allowed = ", ".join(game_ids(kind))
        raise FeltError(f"unknown game {excerpt(game_id)} (allowed: {allowed})")
    return found


def table_game(game_id: object) -> TableGame:
    """The house-banked table game ``game_id`` names (a table's or ``felt play``'s game)."""
    found = game(game_id, "table")
    assert isinstance(found, TableGame)
    return found


def game_of_config(config: object) -> Game:
    """The game whose configuration ``config`` is (by :attr:`Game.config_types`), for a layer
    handed a configuration alone (the simulation, the guide)."""
    for found in families().values():
        if isinstance(config, found.config_types):
            return found
    raise FeltError(f"no registered game has a configuration of type {type(config).__name__}")
