"""What the server needs of a system game (a game of kind ``system``: tickets written at a counter
against draws, not seats and rounds; see docs/design.md).  Each such game runs as systems of its
own beside the tables: a ``--tables`` file lists them under the game's own entry name, each is read
into a :class:`SystemSpec` and run by a :class:`SystemHost` the game makes, leased as a table is,
and the game mounts its own routes.  The server finds these games in :mod:`felt.games.registry`
and knows them only through :class:`felt.games.base.Game` and the two protocols here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from felt.games.base import Game
from felt.games.registry import families, game

if TYPE_CHECKING:
    from felt.server.auth import Account


class SystemSpec(Protocol):
    """One system of a system game as the server stores and leases it (a row of
    ``felt_tables``, in the same id space as the tables)."""

    @property
    def id(self) -> str:
        """The system's id."""
        ...

    @property
    def game(self) -> str:
        """The game id (stored with the spec, so a stored spec finds its game again)."""
        ...

    def to_json(self) -> str:
        """The spec as stored with the system (with ``game``)."""
        ...


class SystemHost(Protocol):
    """One system run by this process: leased, loaded, run and released as a table host is."""

    @property
    def spec(self) -> SystemSpec:
        """The system's spec."""
        ...

    @property
    def noun(self) -> str:
        """What the system is called in a refusal (``a ... , not a table``)."""
        ...

    @property
    def url(self) -> str:
        """Where the system's own API is (named when a table's route is asked of it)."""
        ...

    lock: asyncio.Lock
    changed: asyncio.Event
    listeners: list[Callable[[Any], None]]
    seats: dict[int, Any]
    """Nobody sits at a system (the server keeps tables with seated players first)."""
    release_wanted: bool
    leaving: bool

    def load(self) -> None:
        """Rebuild the system from the record."""
        ...

    async def run(self, stop: asyncio.Event) -> None:
        """Run the system until ``stop`` or until another process takes it over."""
        ...

    def leave(self) -> None:
        """Stop running the system here (another process holds it now)."""
        ...

    def message_for(self, who: Account | None) -> dict[str, Any]:
        """What a WebSocket subscriber (or anyone, with None) is sent of the system."""
        ...

    async def submit(
        self, who: Account, body: dict[str, Any], key: str, token: str | None = None
    ) -> dict[str, Any]:
        """One action a client sends the system (by the WebSocket or its own route), answered
        from the idempotency record if ``key`` was seen."""
        ...


def system_games() -> list[Game]:
    """Every registered game of kind ``system``, in registry order."""
    return [g for g in families().values() if g.kind == "system"]


def system_game_of(game_id: object) -> Game | None:
    """The system game a stored spec's ``game`` names, or None (a table's game)."""
    if not isinstance(game_id, str) or not any(game_id in g.ids for g in system_games()):
        return None
    return game(game_id, "system")


def default_systems() -> list[SystemSpec]:
    """The systems a server runs when no ``--tables`` file is given: each system game's own."""
    out: list[SystemSpec] = []
    for g in system_games():
        out.extend(g.default_systems())
    return out


def game_roles() -> tuple[str, ...]:
    """The staff roles the games add to the server's accounts (a system game's staff), in
    registry order."""
    return tuple(role for g in families().values() for role in g.roles())
