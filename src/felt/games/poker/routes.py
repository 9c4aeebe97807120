"""The poker room's waiting lists on the server's API (N.J.A.C. 19:47-14.18), under
``/api/poker/waitlist``: the caller's view (every list for the floor, one's own places for a
player), the record of changes, and the changes themselves (join, leave or remove, call, seat,
no-show, move down).  Mounted by the poker game's ``mount``; the record is
:mod:`felt.games.poker.store`.

Part of poker's server adapter (an outer layer in the game's folder): it imports the server's
modules; the game's pure modules never import it.
"""

import asyncio
import json
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Query
from pydantic import BaseModel, ConfigDict
from sqlalchemy import select

from felt.core.errors import FeltError
from felt.games.poker.config import GAME, PokerConfig
from felt.games.poker.store import MAX_CHANGES, WaitlistSettings, WaitlistStore
from felt.server.store import felt_tables

if TYPE_CHECKING:
    from felt.server.app import Server

PREFIX = "/api/poker/waitlist"


class Named(BaseModel):
    """A change to one player's place: join (a player leaves ``player`` out: themselves), seat,
    no-show."""

    model_config = ConfigDict(extra="forbid")
    game: Any = None
    player: Any = None
    key: Any = None
    """The client's key of this change: sent again (its answer lost), it is not made twice."""


class Reasoned(Named):
    """A change with the floor's reason: remove (a player leaving gives none), move down."""

    reason: Any = None


class Call(BaseModel):
    """Call the first player not yet called, to the seat ``called_to`` (e.g. "table 4 seat 7")."""

    model_config = ConfigDict(extra="forbid")
    game: Any = None
    called_to: Any = None
    key: Any = None


def room_games(server: "Server") -> list[str]:
    """The game and limit each poker table on record posts (its lists' keys, 14.17-14.18)."""
    with server.store.engine.connect() as conn:
        specs = conn.execute(select(felt_tables.c.spec)).scalars().all()
    games = set()
    for text in specs:
        spec = json.loads(text)
        if isinstance(spec, dict) and spec.get("game") == GAME:
            try:
                games.add(PokerConfig.from_mapping(spec.get("settings") or {}).limits_text())
            except FeltError:  # a table that cannot load is reported where tables load
                continue
    return sorted(games)


def mount(
    app: FastAPI, server: "Server", who: Any, settings: WaitlistSettings | None = None
) -> WaitlistStore:
    """Add the waiting lists' routes to ``app`` (``who``: the API's logged-in-account
    dependency); the store they use is returned and kept as ``app.state.poker_waitlist``."""
    lists = WaitlistStore(server.store, settings, games=lambda: room_games(server))
    app.state.poker_waitlist = lists

    async def run(fn: Any, *args: Any) -> dict[str, Any]:
        result: dict[str, Any] = await asyncio.to_thread(fn, *args)
        return result

    async def changed(caller: Any, fn: Any, *args: Any) -> dict[str, Any]:
        change = await run(fn, caller, *args)
        return {"change": change, "view": await run(lists.view, caller)}

    @app.get(PREFIX)
    async def waitlist_view(caller: who) -> dict[str, Any]:
        """Every list for the floor (supervisor, dealer); a player's own places for a player."""
        return await run(lists.view, caller)

    @app.get(f"{PREFIX}/changes")
    async def waitlist_changes(
        caller: who,
        game: Annotated[str | None, Query(max_length=64)] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_CHANGES)] = 100,
    ) -> dict[str, Any]:
        """The record of every change, newest first (the floor)."""
        return await run(lists.changes, caller, game, limit)

    @app.post(f"{PREFIX}/join")
    async def waitlist_join(body: Named, caller: who) -> dict[str, Any]:
        return await changed(caller, lists.join, body.game, body.player, body.key)

    @app.post(f"{PREFIX}/leave")
    async def waitlist_leave(body: Reasoned, caller: who) -> dict[str, Any]:
        return await changed(caller, lists.leave, body.game, body.player, body.reason, body.key)

    @app.post(f"{PREFIX}/call")
    async def waitlist_call(body: Call, caller: who) -> dict[str, Any]:
        return await changed(caller, lists.call, body.game, body.called_to, body.key)

    @app.post(f"{PREFIX}/seat")
    async def waitlist_seat(body: Named, caller: who) -> dict[str, Any]:
        return await changed(caller, lists.seat, body.game, body.player, body.key)

    @app.post(f"{PREFIX}/no-show")
    async def waitlist_no_show(body: Named, caller: who) -> dict[str, Any]:
        return await changed(caller, lists.no_show, body.game, body.player, body.key)

    @app.post(f"{PREFIX}/move-down")
    async def waitlist_move_down(body: Reasoned, caller: who) -> dict[str, Any]:
        return await changed(caller, lists.move_down, body.game, body.player, body.reason, body.key)

    return lists
