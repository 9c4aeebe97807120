"""Keno's routes on the server's API (N.J.A.C. 19:47-15): the keno systems on record, a system's
public status and recent games (the keno board), the staff's actions, a ticket's record, the
day's games and voids, the year's unclaimed winnings, and a request priced without issuing it.
Mounted by :meth:`felt.games.keno.game.Keno.mount`, beside the tables' routes.

Part of Keno's server adapter, an outer layer that lives in the game's folder: it imports the
server's modules (:mod:`felt.server.app`, :mod:`felt.server.store`); the game's pure modules
never import it.
"""

import asyncio
import json
from typing import TYPE_CHECKING, Any, Final

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict
from sqlalchemy import select

from felt.core.money import dollars
from felt.games.keno.server import (
    KenoAck,
    KenoActRequest,
    KenoBoards,
    KenoGames,
    KenoHost,
    KenoStatus,
    KenoSystems,
    KenoTicket,
    KenoUnclaimed,
    KenoVoids,
    keno_games,
)
from felt.games.keno.spec import KenoSpec
from felt.server.spec import any_spec_from_json
from felt.server.store import felt_tables

if TYPE_CHECKING:
    from felt.server.app import Server

RECENT_GAMES: Final = 10


class QuoteRequest(BaseModel):
    """A keno request to price without issuing it."""

    model_config = ConfigDict(extra="forbid")
    request: dict[str, Any]


def keno_host(server: "Server", system: str) -> KenoHost:
    """The keno system, if this process runs it."""
    from felt.server.app import NotFound

    host = server.host(system)
    if not isinstance(host, KenoHost):
        raise NotFound(f"{system[:64]} is a table, not a keno system")
    return host


def keno_systems(server: "Server") -> list[dict[str, Any]]:
    """Every keno system on record, whichever process runs it."""
    with server.store.engine.connect() as conn:
        rows = conn.execute(select(felt_tables.c.id, felt_tables.c.spec)).all()
    out = []
    for r in rows:
        spec = json.loads(r.spec)
        if spec.get("game") == "keno":
            out.append({"id": r.id, "stations": spec["stations"], "closing": spec["closing"],
                        "automatic_lockout": spec["automatic_lockout"]})  # fmt: skip
    return sorted(out, key=lambda s: str(s["id"]))


def _keno_spec(server: "Server", system: str) -> KenoSpec:
    """The stored spec of ``system`` if it is a keno system, else 404."""
    from felt.server.app import NotFound

    with server.store.engine.connect() as conn:
        text = conn.execute(select(felt_tables.c.spec).where(felt_tables.c.id == system)).scalar()
    spec = None if text is None else any_spec_from_json(text)
    if not isinstance(spec, KenoSpec):
        raise NotFound(f"no keno system {system[:64]!r}")
    return spec


def keno_quote(server: "Server", system: str, request: dict[str, Any]) -> dict[str, Any]:
    """What a keno request plays and costs under the system's rate card, without issuing it: the
    writer's price before the patron pays (15.4(a)); an unclear request is refused with the
    reason (15.7(a)).  A quick-pick is priced as a straight ticket of that many spots."""
    from felt.games.keno.advantage import check_issue
    from felt.games.keno.tickets import read_request

    card = _keno_spec(server, system).card()
    spots = request.get("quick_pick")
    if isinstance(spots, int) and not isinstance(spots, bool) and 1 <= spots <= 80:
        rest = {k: v for k, v in request.items() if k != "quick_pick"}
        request = {**rest, "kind": "straight", "numbers": list(range(1, spots + 1))}
    ticket = read_request(request, card)
    check_issue(card, ticket)
    return {
        "kind": ticket.kind,
        "conditioning": ticket.conditioning,
        "rates": ticket.rates,
        "ways": ticket.ways,
        "games": ticket.games,
        "price": dollars(ticket.price),
    }


def keno_recent(server: "Server", system: str, limit: int = RECENT_GAMES) -> dict[str, Any]:
    """The last games drawn, newest first, from the kept winning numbers (15.5(g)-(h)): public,
    as a keno board shows them."""
    _keno_spec(server, system)
    with server.store.engine.connect() as conn:
        rows = conn.execute(
            select(keno_games.c.day, keno_games.c.number, keno_games.c.numbers)
            .where(keno_games.c.system_id == system)
            .order_by(keno_games.c.day.desc(), keno_games.c.number.desc())
            .limit(limit)
        ).all()
    return {
        "system": system,
        "games": [
            {"day": r.day, "game": int(r.number), "numbers": json.loads(r.numbers)} for r in rows
        ],
    }


def mount(app: FastAPI, server: "Server", who: Any) -> None:
    """Add keno's routes to ``app`` (``who``: the API's logged-in-account dependency; this
    module keeps its annotations evaluated so FastAPI reads them)."""

    @app.get("/api/keno", response_model=KenoSystems)
    async def keno_list(caller: who) -> dict[str, Any]:
        return {"systems": await asyncio.to_thread(keno_systems, server)}

    @app.get("/api/keno-boards", response_model=KenoBoards)
    async def keno_boards() -> dict[str, Any]:
        """The ids of the keno systems, whose boards are public: no log-in, so that ``felt keno
        board`` finds the only one without --system or an account (issue 20, item 9)."""
        systems = await asyncio.to_thread(keno_systems, server)
        return {"systems": [str(s["id"]) for s in systems]}

    @app.get("/api/keno/{system}", response_model=KenoStatus)
    async def keno_status(system: str) -> dict[str, Any]:
        """The public status of a keno system (the keno board, 19:47-15.5(c), (g)): no log-in."""
        host = keno_host(server, system)
        async with host.lock:
            return host.message_for(None)

    @app.post(
        "/api/keno/{system}/actions", response_model=KenoAck, response_model_exclude_unset=True
    )
    async def keno_action(system: str, body: KenoActRequest, caller: who) -> dict[str, Any]:
        return await keno_host(server, system).submit(caller, body.action, body.key)

    @app.get("/api/keno/{system}/tickets/{number}", response_model=KenoTicket)
    async def keno_ticket(system: str, number: int, caller: who) -> dict[str, Any]:
        host = keno_host(server, system)
        return await host.read(host.ticket, caller, number)

    @app.get("/api/keno/{system}/games", response_model=KenoGames)
    async def keno_games(system: str, caller: who, day: str | None = None) -> dict[str, Any]:
        host = keno_host(server, system)
        return await host.read(host.games, caller, day)

    @app.get("/api/keno/{system}/voids", response_model=KenoVoids)
    async def keno_voids(
        system: str, caller: who, day: str | None = None, station: int | None = None
    ) -> dict[str, Any]:
        host = keno_host(server, system)
        return await host.read(host.voids, caller, day, station)

    @app.get("/api/keno/{system}/unclaimed", response_model=KenoUnclaimed)
    async def keno_unclaimed(system: str, caller: who, year: int | None = None) -> dict[str, Any]:
        host = keno_host(server, system)
        return await host.read(host.unclaimed, caller, year)

    @app.post("/api/keno/{system}/quote")
    async def keno_quote_route(system: str, body: QuoteRequest, caller: who) -> dict[str, Any]:
        """Price a keno request under the system's rate card without issuing it."""
        return await asyncio.to_thread(keno_quote, server, system, body.request)

    @app.get("/api/keno/{system}/recent")
    async def keno_recent_route(system: str) -> dict[str, Any]:
        """The last ten games drawn with their numbers (public, as on a keno board)."""
        return await asyncio.to_thread(keno_recent, server, system)
