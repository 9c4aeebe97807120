"""The browser screens' side of the server: the page files from the package (no build step, no
front-end server) and the read-only API the screens need beyond the game API: the lobby, a
table's patron guide, the supervisor's floor and a table's par sheet.

Every answer here is built from what its caller may see: the lobby and the guide from the table
settings (public at any table), the floor and the par sheet for supervisors only.
"""

import asyncio
import base64
import json
import tempfile
import threading
import time
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy import or_, select
from starlette.responses import Response

from felt.core.money import dollars
from felt.games.registry import families, table_game
from felt.server import auth
from felt.server.spec import TableSpec, any_spec_from_json
from felt.server.store import HOUSE_ACCOUNT, Conflict, felt_tables, postings, rounds
from felt.web import games as web_games

if TYPE_CHECKING:
    from felt.server.app import Server

STATIC: Final = Path(str(resources.files("felt.web") / "static"))
"""The page files: plain ES modules, hand-written CSS, no build step."""
T = TypeVar("T")
PAGE_HEADERS: Final = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}


def _dollars_or_none(amount: int | None) -> str | None:
    return None if amount is None else dollars(amount)


def _table_rows(server: "Server") -> list[Any]:
    """Every stored table and system: id, spec, state and owner."""
    with server.store.engine.connect() as conn:
        return list(
            conn.execute(
                select(
                    felt_tables.c.id, felt_tables.c.spec, felt_tables.c.state, felt_tables.c.owner
                )
            ).all()
        )


def lobby(server: "Server", rows: list[Any] | None = None) -> list[dict[str, Any]]:
    """Every table with its game, limits and free seats, as a player choosing one sees it
    (from ``rows`` of :func:`_table_rows` if the caller has read them)."""
    out = []
    for r in sorted(_table_rows(server) if rows is None else rows, key=lambda r: str(r.id)):
        spec = any_spec_from_json(r.spec)
        if not isinstance(spec, TableSpec):
            continue  # a system game's system has its own screens
        state = json.loads(r.state) if r.state else {}
        game = table_game(spec.game)
        config = spec.config()
        prog = game.progressive(config)
        seats = game.seat_count(config)
        taken = {int(n): str(v[1]) for n, v in state.get("seats", {}).items()}
        out.append(
            {
                "id": spec.id,
                "game": spec.game,
                "edition": getattr(getattr(config, "edition", None), "name", None),
                "minimum": dollars(config.minimum),
                "maximum": dollars(config.maximum),
                "seats": seats,
                "taken": {str(n): name for n, name in sorted(taken.items())},
                "free": [n for n in range(1, seats + 1) if n not in taken],
                "open": bool(state.get("open", True)),
                "decision_seconds": config.decision_seconds,
                "first_ratio": getattr(config, "first_ratio", None),
                "bonus_minimum": _dollars_or_none(getattr(config, "bonus_minimum", None)),
                "bonus_maximum": _dollars_or_none(getattr(config, "bonus_maximum", None)),
                "procedures": game.procedures(),
                "title": game.title(spec.game),
                "layout": game.layout(config),
                "progressive": None if prog is None else prog.meter,
            }
        )
    return out


def _stored(server: "Server", sid: str, kind: type[T], what: str) -> T:
    """The stored spec of ``sid`` if it is a ``kind`` (a table or a system), else 404."""
    from felt.server.app import NotFound

    with server.store.engine.connect() as conn:
        text = conn.execute(select(felt_tables.c.spec).where(felt_tables.c.id == sid)).scalar()
    spec = None if text is None else any_spec_from_json(text)
    if not isinstance(spec, kind):
        raise NotFound(f"no {what} {sid[:64]!r}")
    return spec


def _spec(server: "Server", table: str) -> TableSpec:
    return _stored(server, table, TableSpec, "table")


def guide(server: "Server", table: str) -> dict[str, Any]:
    """The patron's guide to one table (its rules and pay tables, from its own settings)."""
    spec = _spec(server, table)
    html = table_game(spec.game).guide(spec.config(), "html")
    return {"table": spec.id, "game": spec.game, "html": html}


def floor(server: "Server", now: float | None = None) -> list[dict[str, Any]]:
    """The floor at a glance: each table's state, players, rounds in the last hour, and what
    the house won (+) or lost (-) there since midnight UTC, from the ledger's house postings
    (a round's postings are named ``TABLE:NUMBER#SEQ``; a table id holds no ``:``)."""
    now = time.time() if now is None else now
    midnight = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    rows = _table_rows(server)
    tables = lobby(server, rows)
    owners = {r.id: r.owner for r in rows}
    with server.store.engine.connect() as conn:
        started = conn.execute(
            select(
                rounds.c.table_id, rounds.c.number, rounds.c.started_at, rounds.c.finished
            ).where(or_(rounds.c.started_at >= now - 3600, rounds.c.finished.is_(False)))
        ).all()
        house_rows = conn.execute(
            select(postings.c.txn, postings.c.amount).where(
                postings.c.account == HOUSE_ACCOUNT, postings.c.at >= midnight.timestamp()
            )
        ).all()
    per_hour: dict[str, int] = {}
    in_play: dict[str, int] = {}
    for r in started:
        if r.started_at >= now - 3600:
            per_hour[r.table_id] = per_hour.get(r.table_id, 0) + 1
        if not r.finished:
            in_play[r.table_id] = max(in_play.get(r.table_id, 0), int(r.number))
    house: dict[str, int] = {}
    for txn, amount in house_rows:
        table = str(txn).split(":", 1)[0]
        house[table] = house.get(table, 0) + int(amount)
    return [
        {
            "id": t["id"],
            "game": t["game"],
            "open": t["open"],
            "players": len(t["taken"]),
            "seated": t["taken"],
            "rounds_last_hour": per_hour.get(t["id"], 0),
            "house_today": dollars(house.get(t["id"], 0)),
            "round_in_play": f"{t['id']}:{in_play[t['id']]}" if t["id"] in in_play else None,
            "owner": owners.get(t["id"]),
            "progressive": t["progressive"],
        }
        for t in tables
    ]


class _Pages(StaticFiles):
    """The page files, revalidated on every load (with their ETag, so unchanged files cost a
    304): after an upgrade no browser runs yesterday's modules."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers.update(PAGE_HEADERS)
        return response


_SHEETS: dict[str, dict[str, Any]] = {}
"""Par sheets already computed, by table configuration (they are exact and never change)."""
_SHEET_LOCK = threading.Lock()
"""One par sheet is computed at a time: each takes the machine's cores and memory for a while,
and pyplot is not for threads side by side."""


class NotReady(Conflict):
    """The exact figures need a computation too long for a request (409, as a conflict with
    the state of the machine's caches)."""


def par_sheet(server: "Server", table: str) -> dict[str, Any]:
    """The exact analysis of a table's configuration (``felt analyze``) as HTML, with the plot
    of the distribution of a round's result as a PNG data URL.  Computed once per configuration,
    one at a time; a table whose analysis needs minutes of precomputation not yet on this
    machine (:meth:`~felt.games.base.Game.analysis_pending`) is refused at once (409) rather
    than computing it inside a request."""
    from felt.cli.plots import distribution_plot

    spec = _spec(server, table)
    key = json.dumps([spec.game, spec.edition, dict(spec.settings)], sort_keys=True, default=str)
    with _SHEET_LOCK:
        done = _SHEETS.get(key)
        if done is not None:
            return {"table": spec.id, **done}
        game = table_game(spec.game)
        config = spec.config()
        pending = game.analysis_pending(config)
        if pending is not None:
            raise NotReady(pending)
        sheet = game.analyze(spec.game, config, None)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "plot.png"
            distribution_plot(sheet, str(path))
            plot = "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")
        done = {"game": spec.game, "html": sheet.to_html(), "plot": plot}
        _SHEETS[key] = done
        return {"table": spec.id, **done}


def add_web(app: FastAPI, server: "Server", who: Any) -> None:
    """Serve the screens at ``/`` and the screens' read-only API (``who``: the API's
    logged-in-account dependency; this module keeps its annotations evaluated so FastAPI reads
    it)."""

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)

    @app.get("/api/lobby")
    async def lobby_route(caller: who) -> list[dict[str, Any]]:
        """The tables with their game, limits and free seats."""
        return await asyncio.to_thread(lobby, server)

    @app.get("/api/tables/{table}/guide")
    async def guide_route(table: str, caller: who) -> dict[str, Any]:
        """The patron's guide to a table: its rules and pay tables."""
        return await asyncio.to_thread(guide, server, table)

    @app.get("/api/floor")
    async def floor_route(caller: who) -> list[dict[str, Any]]:
        """The supervisor's floor: tables, players, rounds in the last hour, the house today."""
        auth.require(caller, "supervisor")
        return await asyncio.to_thread(floor, server)

    @app.get("/api/tables/{table}/par-sheet")
    async def par_sheet_route(table: str, caller: who) -> dict[str, Any]:
        """A supervisor's par sheet of a table's configuration: the exact figures and a plot."""
        auth.require(caller, "supervisor")
        return await asyncio.to_thread(par_sheet, server, table)

    app.mount("/static", _Pages(directory=STATIC), name="static")

    @app.get("/games/index.json", include_in_schema=False)
    async def games_index() -> JSONResponse:  # each game's screen names and own screens
        return JSONResponse(web_games(), headers=PAGE_HEADERS)

    for family, game in families().items():  # a game's own screens, from its folder
        if (folder := game.static_dir()) is not None:
            app.mount(f"/games/{family}", _Pages(directory=str(folder)), name=f"games-{family}")
