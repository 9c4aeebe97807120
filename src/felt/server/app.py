"""The HTTP and WebSocket API of ``felt serve`` (FastAPI; see docs/design.md).

Every request is checked on the server: the token names the account, the account's role and
seats say what it may do, the engine says whether the action is allowed now.  Errors are JSON
``{"error": "..."}`` with a 4xx status; nothing a client sends reaches a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import re
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

import orjson
from fastapi import Depends, FastAPI, Header, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from sqlalchemy import Connection, func, insert, or_, select, update
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from felt.core.errors import MAX_NAME_CHARS, FeltError
from felt.core.money import MAX_AMOUNT, dollars
from felt.core.readers import parse_json
from felt.games.registry import families, game, game_ids, table_game
from felt.server import auth, cage
from felt.server.auth import Account, AuthError, Forbidden
from felt.server.host import LeaseLost, TableHost, new_table_row, request_digest
from felt.server.meters import MeterBoard, linked, open_meters, stored_specs
from felt.server.pauses import GC_PAUSES
from felt.server.spec import AnySpec, TableSpec, any_spec_from_json
from felt.server.store import (
    Conflict,
    InsufficientFunds,
    MeterShort,
    Store,
    accounts,
    felt_tables,
    nodes,
    player_account,
    postings,
    round_events,
    round_players,
    rounds,
)
from felt.server.systems import SystemHost
from felt.server.views import Shared, seat_message

log = logging.getLogger("felt.server")

MAX_BODY: Final = 64 * 1024
"""The largest request body or WebSocket message the server reads."""
MAX_DEPTH: Final = 32
"""The deepest JSON nesting the server reads (its own requests are four levels deep at most)."""
LEASE_SECONDS: Final = 10.0
"""How long a table's lease (and a process's heartbeat) lasts unrenewed; renewed every third."""
MAX_IN_FLIGHT: Final = 32
"""Actions one WebSocket client may have in progress at once; more wait to be read."""
WORKER_THREADS: Final = 32
"""Threads for database work (see ``create_app``): PostgreSQL's pool allows 30 connections."""
LOGIN_THREADS: Final = 2
"""Threads of their own for log-ins: one hashes (a process hashes one password at a time,
:mod:`felt.server.auth`) while the other reserves or records an attempt.  Log-ins never take the
database threads, so a storm of them cannot hold up tables, the cage or the lease heartbeat."""
MAX_WAITING_LOGINS: Final = 64
"""Log-ins queued for a hash at most; one more is answered 429 at once (try again shortly)."""
RECALL_ROUNDS: Final = 10
"""AGCO 13.1, 58 Pa. Code 810a.11: the last ten games can be recalled."""
METER_POLL_SECONDS: Final = 0.5
"""How often a process that runs a table linked to a progressive meter reads the meters, so
its tables' screens show a move another process made (a move made here shows at once)."""


class NotHere(FeltError):
    """The table is run by another server process."""

    def __init__(self, table: str, owner: str | None) -> None:
        super().__init__(
            f"table {table} is run by another server process"
            + (f" at {owner}; connect there" if owner else "; try again shortly")
        )
        self.owner = owner


class NotFound(FeltError):
    """No such table, round or account."""


class TooLarge(FeltError):
    """A request body or message over :data:`MAX_BODY` bytes."""


class NodeTaken(FeltError):
    """Another live process holds this process's node name (its hold was lost and taken)."""


class Busy(FeltError):
    """Too many log-ins already waiting for their password check: try again shortly."""


STATUS: Final[dict[type[FeltError], int]] = {
    AuthError: 401,
    Forbidden: 403,
    NotFound: 404,
    auth.NoAccount: 404,
    TooLarge: 413,
    Busy: 429,
    Conflict: 409,
    InsufficientFunds: 409,
    MeterShort: 409,
    NotHere: 421,
    LeaseLost: 421,
}


def status_of(err: FeltError) -> int:
    """The HTTP status of a refusal."""
    for kind, code in STATUS.items():
        if isinstance(err, kind):
            return code
    return 400


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None.  The scheme is
    case-insensitive and one or more spaces may follow it (RFC 9110, 11.1 and 11.4)."""
    scheme, _, token = (authorization or "").strip(" ").partition(" ")
    if scheme.lower() != "bearer" or not token.strip(" "):
        return None
    return token.strip(" ")


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
"""NUL, which PostgreSQL text cannot hold, and half a surrogate pair, which no UTF-8 can."""


def check_json(value: Any) -> None:
    """Refuse a parsed request nested deeper than :data:`MAX_DEPTH` or holding text that no
    database column or reply could carry, before any handler sees it (checked without
    recursion, so no depth of nesting can overflow the stack).

    Every WebSocket message is checked, so the common answer, nothing wrong, is found first by
    :func:`_plainly_fine` (one pass a level, one search over all the text); anything else is
    walked as ever, item by item, so a refusal names what it always named."""
    if not _plainly_fine(value):
        _walk_json(value)


def _walk_json(value: Any) -> None:
    """:func:`check_json` item by item: the first thing wrong, depth first, is refused."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise FeltError(f"JSON nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, dict):
            stack.extend((k, depth) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, str) and _UNSTORABLE.search(item):
            raise FeltError("text may not contain NUL characters or unpaired surrogates")


_SCALARS: Final = frozenset({int, float, bool, type(None)})


def _plainly_fine(value: Any) -> bool:
    """Whether :func:`check_json` plainly passes ``value``: JSON's own types (no subclass), no
    item deeper than :data:`MAX_DEPTH`, no key but text and no text it refuses.  False is no
    refusal, only "walk it item by item"."""
    texts: list[str] = []
    level = [value]
    depth = 1
    while level:
        if depth > MAX_DEPTH:
            return False
        below: list[Any] = []
        for item in level:
            kind = type(item)
            if kind is str:
                texts.append(item)
            elif kind is dict:
                texts.extend(item)  # its keys, at its own depth (a key not text: see below)
                below.extend(item.values())
            elif kind is list:
                below.extend(item)
            elif kind not in _SCALARS:
                return False
        level = below
        depth += 1
    try:
        text = "".join(texts)
    except TypeError:  # a key that is not text (a value not read from JSON)
        return False
    return _UNSTORABLE.search(text) is None


def read_json(text: str | bytes) -> Any:
    """Parse a request or message and :func:`check_json` it; every way it can fail is a
    :class:`FeltError` (``json.JSONDecodeError`` included, as a ``ValueError``)."""
    value = parse_json(text, "the request")  # felt.core.readers: the one JSON reader
    check_json(value)
    return value


class RequestGuard:
    """ASGI middleware in front of the HTTP API: reads each body whole, but never more than
    :data:`MAX_BODY` bytes however it is sent (a ``Content-Length`` or chunks), and refuses a
    path or a JSON body :func:`check_json` refuses, so handlers see only what they can store."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            check_json(scope["path"])
            body = await self._body(scope, receive)
            if body:
                try:
                    read_json(body)
                except FeltError as err:
                    if not isinstance(err.__cause__, json.JSONDecodeError):
                        raise  # not JSON at all: the handler's own validation says what it wants
        except FeltError as err:
            reply = JSONResponse({"error": str(err)}, status_code=status_of(err))
            await reply(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    @staticmethod
    async def _body(scope: Scope, receive: Receive) -> bytes:
        for name, value in scope["headers"]:
            if name == b"content-length":
                if not value.isdigit():
                    raise FeltError("Content-Length must be a number of bytes")
                if int(value) > MAX_BODY:
                    raise TooLarge(f"request body over {MAX_BODY} bytes")
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY:
                raise TooLarge(f"request body over {MAX_BODY} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


class ErrorBody(BaseModel):
    """A refusal: what was wrong and, for 421, the server process that runs the table."""

    error: str
    owner: str | None = None


ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    code: {"model": ErrorBody, "description": text}
    for code, text in (
        (400, "Refused: the request or the action is not allowed now"),
        (401, "Not logged in, or the session has ended (expired, replaced, locked)"),
        (403, "This role or seat may not do that, or the password must be changed first"),
        (404, "No such table, round, account or route"),
        (405, "No such method for this route"),
        (
            409,
            "The idempotency key was used for another request, the funds are short, or the "
            "account is retired or already locked",
        ),
        (413, f"The request body is over {MAX_BODY} bytes"),
        (421, "The table is run by another server process (see owner)"),
        (422, "The request is not of the documented shape"),
        (429, "Too many log-ins waiting for their password check: try again shortly"),
    )
}
"""The refusals any route may give, for the OpenAPI schema: every error is ``{"error"}``."""


class Login(BaseModel):
    """Name and password."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=64)
    password: str = Field(max_length=256)


AccountName = Annotated[
    str, Field(pattern=auth.NAME_PATTERN, max_length=MAX_NAME_CHARS, description="an account name")
]
"""A new account's name as :func:`felt.server.auth.check_name` takes it, stated in the schema."""
ExistingName = Annotated[
    str, Field(pattern=auth.EXISTING_NAME_PATTERN, max_length=MAX_NAME_CHARS,
               description="the name of an existing account")
]  # fmt: skip
"""The name of an account that may exist (:func:`felt.server.auth.check_existing_name`): names
opened before the rule for new names are still named."""
if TYPE_CHECKING:
    Role = str
else:
    Role = Literal[auth.ROLES]
"""The roles of :data:`felt.server.auth.ROLES` (a test holds the two the same): the games' staff
roles come from the registry, so the type checker reads it as text."""


def _procedures() -> tuple[str, ...]:
    """Every table game's procedures (:meth:`felt.games.base.TableGame.procedures`), each once,
    in the registry's order."""
    out: dict[str, None] = {}
    for game_id in game_ids("table"):
        out.update(dict.fromkeys(table_game(game_id).procedures()))
    return tuple(out)


if TYPE_CHECKING:
    Procedure = str
else:
    _PROCEDURES = _procedures()
    Procedure = Literal[_PROCEDURES] if _PROCEDURES else str
"""Every table game's procedures, as the API's schema lists them (a test holds them the same);
which a table takes depends on its game."""
DOLLARS_PATTERN: Final = (
    r"^\$?(?:[1-9][0-9]{0,6}(?:\.[0-9]{1,2})?|10000000(?:\.00?)?|0?\.(?:0[1-9]|[1-9][0-9]?))$"
)
"""A cashier's amount as text: plain dollars, more than 0.00 and at most 10000000.00
(:data:`felt.core.money.MAX_AMOUNT`), in whole cents, such as ``12.50`` (``$`` allowed before)."""
Dollars = Annotated[
    str, Field(pattern=DOLLARS_PATTERN, max_length=12, examples=["12.50"],
               description="dollars, more than 0.00, at most 10000000.00, whole cents")
]  # fmt: skip
DollarsNumber = Annotated[
    float, Field(strict=True, gt=0, le=MAX_AMOUNT // 100, multiple_of=0.01, allow_inf_nan=False,
                 description="dollars as a JSON number (not true or false), whole cents")
]  # fmt: skip


class NewAccount(BaseModel):
    """An account a supervisor opens."""

    model_config = ConfigDict(extra="forbid")
    name: AccountName
    role: Role
    password: str = Field(min_length=auth.MIN_PASSWORD_CHARS, max_length=auth.MAX_PASSWORD_CHARS)
    must_change_password: bool = Field(
        default=False,
        description="the password is temporary: the user chooses their own at the first log-in",
    )


class Cash(BaseModel):
    """A cashier's deposit or withdrawal, in dollars."""

    model_config = ConfigDict(extra="forbid")
    player: ExistingName
    amount: Dollars | DollarsNumber
    key: str = Field(min_length=1, max_length=128)


def json_integer(value: object) -> object:
    """JSON Schema's integer: a number without a fraction (``3`` or ``3.0``), never ``true``,
    ``false`` or text, which a lax integer would read as 1, 0 or a number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("must be an integer (not true, false or text)")
    return value


JsonInt = Annotated[int, BeforeValidator(json_integer)]
"""An integer as the schema states it (``"type": "integer"``), booleans and text refused."""


class SeatRequest(BaseModel):
    """A seat to take or leave (a JSON integer: ``true`` is no seat)."""

    model_config = ConfigDict(extra="forbid")
    seat: JsonInt = Field(ge=1, le=7)


class ProcedureRequest(BaseModel):
    """A supervisor's table procedure and its argument, if it takes one."""

    model_config = ConfigDict(extra="forbid")
    procedure: Procedure
    argument: Annotated[int, Field(strict=True)] | Annotated[str, Field(max_length=80)] | None = (
        None
    )


class ActRequest(BaseModel):
    """An action as a round script spells it, with the client's idempotency key and, if the
    client says so, the round it is for (refused with 409 if the table has moved on)."""

    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any]
    key: str = Field(min_length=1, max_length=128)
    round: str | None = Field(default=None, min_length=1, max_length=80)


@dataclass
class Server:
    """One ``felt serve`` process: its tables, its lease on them, its clients."""

    store: Store
    specs: Sequence[AnySpec]
    node: str
    lease_seconds: float = LEASE_SECONDS
    hosts: dict[str, TableHost] = field(default_factory=dict)
    systems: dict[str, SystemHost] = field(default_factory=dict)
    """The system games' systems this process runs (leased as tables are)."""
    tasks: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    sockets: set[Client] = field(default_factory=set)
    watchers: dict[str, set[Client]] = field(default_factory=dict)
    """The clients subscribed to each table or system, so a change is pushed to its own
    watchers without walking every socket (kept with each client's :attr:`Client.tables`)."""
    share: int = 0
    """The most tables this process should hold (see :meth:`claim`)."""
    prepared: bool = False
    """Whether :meth:`prepare` has run (``felt serve`` runs it before it listens)."""
    first_admin: str | None = None
    """Set by :meth:`prepare` when it opened the first account, ``admin``: its one-time password,
    or "" when ``FELT_ADMIN_PASSWORD`` gave it (``felt serve`` prints what to do next)."""
    board: MeterBoard = field(default_factory=MeterBoard)
    """The progressive meters as this process last read them, for its tables' screens."""
    meter_poll_seconds: float = METER_POLL_SECONDS

    def __post_init__(self) -> None:
        # tables of one file linked to one meter must agree on its seed: said before anything
        linked(s for s in self.specs if isinstance(s, TableSpec))

    # ----------------------------------------------------------------- start and leases
    def prepare(self) -> None:
        """Migrate the schema and, in the same transaction under the migration lock, add the
        tables the database does not have and open the first account (so processes started
        together on a fresh database each find what the first wrote); then take this
        process's node name, refused if a live process holds it.  Runs once."""
        if self.prepared:
            return
        created: list[str] = []

        def seed(conn: Connection) -> None:
            have = {r[0] for r in conn.execute(select(felt_tables.c.id))}
            for spec in self.specs:
                if spec.id not in have:
                    conn.execute(insert(felt_tables).values(**new_table_row(spec, None)))
            open_meters(self.store, conn)  # the seed of each meter a table links, once
            if not conn.execute(select(func.count()).select_from(accounts)).scalar():
                given = os.environ.get("FELT_ADMIN_PASSWORD")
                password = given or secrets.token_urlsafe(12)
                auth.open_first_supervisor(conn, "admin", password, must_change=not given)
                created.append(password)

        self.store.migrate(seed)
        if created:
            self.first_admin = "" if os.environ.get("FELT_ADMIN_PASSWORD") else created[0]
        self.store.hold_node(self.node)
        self.prepared = True

    def claim(self) -> list[str]:
        """Renew this process's heartbeat, which is the lease on every table it holds, and take
        tables nobody live holds while this process holds fewer than its fair share; returns
        every table this process holds now.  The share is ``ceil(tables / live processes)``: a
        process above it gives the surplus up between rounds (see :meth:`hold` and
        docs/design.md, "Several processes, one database").  Renewing touches one row, never
        the tables' rows that every action updates, so it holds up no action."""
        try:
            self.store.keep_node(self.node)  # never renew a name another live process holds
        except FeltError as err:
            raise NodeTaken(str(err)) from err
        now = time.time()
        with self.store.transaction() as conn:
            beat = nodes.c.name == self.node
            until = now + self.lease_seconds
            if conn.execute(update(nodes).where(beat).values(lease_until=until)).rowcount != 1:
                conn.execute(insert(nodes).values(name=self.node, lease_until=until))
            live = select(nodes.c.name).where(nodes.c.lease_until >= now)
            alive = {r[0] for r in conn.execute(live)}
            rows = conn.execute(select(felt_tables.c.id, felt_tables.c.owner)).all()
            share = math.ceil(len(rows) / max(1, len(alive)))
            held = [r.id for r in rows if r.owner == self.node]
            free = [r.id for r in rows if r.owner not in alive]
            for tid in free[: max(0, share - len(held))]:
                result = conn.execute(
                    update(felt_tables)
                    .where(
                        felt_tables.c.id == tid,
                        or_(felt_tables.c.owner.is_(None), felt_tables.c.owner.not_in(live)),
                    )
                    .values(owner=self.node, lease_until=until)
                )
                if result.rowcount == 1:
                    held.append(tid)
        self.share = share
        return held

    def load_tables(self, ids: list[str]) -> list[TableHost | SystemHost]:
        """Rebuild tables and systems this process has just taken from the record (in a
        worker thread)."""
        out: list[TableHost | SystemHost] = []
        with self.store.engine.connect() as conn:
            stored = dict(
                conn.execute(
                    select(felt_tables.c.id, felt_tables.c.spec).where(felt_tables.c.id.in_(ids))
                ).all()
            )
        for tid in ids:
            spec = any_spec_from_json(stored[tid])
            host: TableHost | SystemHost
            if isinstance(spec, TableSpec):
                host = TableHost(self.store, spec, self.node, board=self.board)
            else:
                host = game(spec.game).system_host(self.store, spec, self.node)
            host.load()
            host.listeners.append(self._broadcast)
            out.append(host)
        return out

    async def hold(self) -> None:
        """One round of lease keeping (on the event loop): claim, start the tables newly held,
        stop those held no more, and ask the surplus over the fair share to leave between
        rounds."""
        held = await asyncio.to_thread(self.claim)
        for host in await asyncio.to_thread(
            self.load_tables, [t for t in held if t not in self.hosts and t not in self.systems]
        ):
            if isinstance(host, TableHost):
                self.hosts[host.spec.id] = host
            else:
                self.systems[host.spec.id] = host
            self.tasks[host.spec.id] = asyncio.create_task(self._run(host))
        running = self.running()
        for tid, host in running.items():
            if tid not in held:  # another process took it over: its writes are fenced anyway
                host.leave()
        # keep the tables with seated players; release the idle ones first, then the last ones
        order = sorted(running, key=lambda t: (bool(running[t].seats), t))
        surplus = set(order[: max(0, len(running) - self.share)])
        for tid, host in running.items():
            if host.release_wanted != (tid in surplus):
                host.release_wanted = tid in surplus
                host.changed.set()  # an idle table's loop waits to be told

    def running(self) -> dict[str, TableHost | SystemHost]:
        """Every table and system this process runs."""
        return {**self.hosts, **self.systems}

    async def _run(self, host: TableHost | SystemHost) -> None:
        await host.run(self.stop)
        if self.stop.is_set():
            return
        # released or taken over: another process runs it now; tell its watchers to go there
        if self.hosts.get(host.spec.id) is host or self.systems.get(host.spec.id) is host:
            self.hosts.pop(host.spec.id, None)
            self.systems.pop(host.spec.id, None)
            self.tasks.pop(host.spec.id, None)
        moved = {"type": "moved", "table": host.spec.id}
        for client in self.watchers.pop(host.spec.id, set()):
            client.tables.discard(host.spec.id)
            client.queue.put_nowait(moved)

    async def keep_leases(self) -> None:
        """Renew leases and take over tables whose process has died."""
        while not self.stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.stop.wait(), timeout=self.lease_seconds / 3)
            if self.stop.is_set():
                return
            try:
                await self.hold()
            except NodeTaken as err:
                log.critical("%s: this process stops running tables", err)
                self.step_down()
                return
            except Exception:  # the database is away: keep serving, try again
                log.exception("lease renewal failed")

    def step_down(self) -> None:
        """Stop running every table and system at once (another live process holds this
        process's node name, so it is the one whose leases these are)."""
        self.hosts.clear()
        self.systems.clear()
        self.stop.set()

    def owner_of(self, table: str) -> str | None:
        """Which node runs ``table`` (for a client that came to the wrong one)."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(felt_tables.c.owner).where(felt_tables.c.id == table)).first()
        if row is None:
            raise NotFound(f"no table {table[:64]!r}")
        return None if row[0] is None else str(row[0])

    def host(self, table: str) -> TableHost | SystemHost:
        """The table or system, if this process runs it."""
        host: TableHost | SystemHost | None = self.hosts.get(table) or self.systems.get(table)
        if host is None or host.leaving:
            raise NotHere(table, self.owner_of(table))
        return host

    def table_host(self, table: str) -> TableHost:
        """The table, if this process runs it (a system game's system is no table)."""
        host = self.host(table)
        if not isinstance(host, TableHost):
            raise NotFound(f"{table} is a {host.noun}, not a table: see {host.url}")
        return host

    # ----------------------------------------------------------------- clients
    def end_sockets(self, account_id: int, why: str, keep: str | None = None) -> None:
        """Tell the account's open sockets (all but the session ``keep``) that their session
        has ended, and close them (4401), so a page learns it at once rather than at its next
        message: a log-in elsewhere ends the account's other sessions."""
        for client in list(self.sockets):
            if client.who.id == account_id and client.token != keep:
                client.queue.put_nowait({"type": "error", "status": 401, "key": None,
                                         "error": why, "close": 4401})  # fmt: skip

    def end_sockets_named(self, name: str, why: str) -> None:
        """:meth:`end_sockets` of the account named ``name`` (a supervisor's lock, password
        reset or retirement ends that account's sessions, so its open pages learn it at once)."""
        for client in list(self.sockets):
            if client.who.name == name:
                self.end_sockets(client.who.id, why)
                return

    def watch(self, client: Client, table: str) -> None:
        """Subscribe ``client`` to ``table``'s views (not if its socket has closed already: a
        subscription handled after the disconnect would leave it watching for good)."""
        if client not in self.sockets:
            return
        client.tables.add(table)
        self.watchers.setdefault(table, set()).add(client)

    def unwatch(self, client: Client, table: str) -> None:
        """Stop pushing ``table``'s views to ``client``."""
        client.tables.discard(table)
        watching = self.watchers.get(table)
        if watching is not None:
            watching.discard(client)
            if not watching:
                del self.watchers[table]

    def disconnected(self, client: Client) -> None:
        """Forget a closed socket and its subscriptions."""
        self.sockets.discard(client)
        for table in list(client.tables):
            self.unwatch(client, table)

    def _push_all(self, host: TableHost | SystemHost) -> None:
        """Queue each watcher of ``host`` its own view of it, what they share built once."""
        shared = Shared()
        for client in list(self.watchers.get(host.spec.id, ())):
            client.push(host, shared)

    def _broadcast(self, host: TableHost | SystemHost) -> None:
        self._push_all(host)
        if isinstance(host, TableHost) and host.progressive is not None:
            self.meters_moved(skip=host)

    def meters_moved(self, skip: TableHost | None = None) -> None:
        """Send a new view of every table this process runs whose meter has moved since its
        screens last showed it (on the event loop's thread), ``skip`` aside (just sent)."""
        moved = set(self.board.moved())
        if not moved:
            return
        for host in list(self.hosts.values()):
            if (
                host is not skip
                and host.progressive is not None
                and host.progressive.meter in moved
            ):
                self._push_all(host)

    async def watch_meters(self) -> None:
        """Read the meters every :attr:`meter_poll_seconds` while this process runs a linked
        table, so a move made by another process (a contribution, a payout) reaches the screens
        of this process's linked tables too."""
        while not self.stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.stop.wait(), timeout=self.meter_poll_seconds)
            if self.stop.is_set():
                return
            if not any(h.progressive is not None for h in self.hosts.values()):
                continue
            try:
                await asyncio.to_thread(self.read_meters)
            except Exception:  # the database is away: the next read catches up
                log.exception("reading the progressive meters failed")
                continue
            self.meters_moved()

    def read_meters(self) -> dict[str, dict[str, Any]]:
        """Every meter's row, noted on :attr:`board` (in a worker thread)."""
        with self.store.engine.connect() as conn:
            rows = self.store.meters(conn)
        for meter, row in rows.items():
            self.board.note(meter, int(row["version"]), int(row["amount"]), str(row["label"]))
        return rows

    def progressive(self, who: Account) -> list[dict[str, Any]]:
        """Every meter with its label, amount, seed and the tables linked to it (read-only: any
        logged-in account may read what every linked table shows)."""
        rows = self.read_meters()
        with self.store.engine.connect() as conn:
            links = linked(stored_specs(conn))
        return [
            {
                "meter": meter,
                "label": str(row["label"]),
                "amount": dollars(int(row["amount"])),
                "seed": dollars(int(row["seed"])),
                "tables": sorted(links[meter][1]) if meter in links else [],
            }
            for meter, row in sorted(rows.items())
        ]

    def account(self, authorization: str | None) -> Account:
        """The account of a request's bearer token."""
        return auth.authenticate(self.store, bearer_token(authorization))

    async def act(
        self,
        who: Account,
        table: str,
        body: dict[str, Any],
        key: str,
        token: str | None = None,
        for_round: str | None = None,
    ) -> dict[str, Any]:
        """One client action, run by its table (:meth:`TableHost.apply_now`): answered from the
        idempotency record if the key was seen.  With ``token`` (a WebSocket's), the session is
        checked again in that same read; with ``for_round``, only in that round."""
        host = self.host(table)
        if not isinstance(host, TableHost):
            if for_round is not None:
                raise FeltError(f"round applies to a table's actions, not to {host.spec.game}")
            return await host.submit(who, body, key, token)
        request: dict[str, Any] = {"table": table, "action": body}
        if for_round is not None:
            request["round"] = for_round
        digest = request_digest(request)
        try:
            action = host.game.parse_action(body, "action")
        except FeltError:  # a key already used for another request is that conflict first
            await asyncio.to_thread(self._check_key, who.id, key, digest)
            raise
        return await host.act(action, who, key, digest, token, for_round)

    def _check_key(self, account_id: int, key: str, digest: str) -> None:
        """Refuse (409) an idempotency key already used for another request (a read)."""
        with self.store.engine.connect() as conn:
            self.store.answered(conn, account_id, key, digest)

    # ----------------------------------------------------------------- money and records
    def cash(self, who: Account, body: Cash, sign: int) -> dict[str, Any]:
        """A cashier moves money between the cage and a player's wallet; the answer is the
        numbered receipt (:func:`felt.server.cage.cash`)."""
        return cage.cash(self.store, who, body.player, body.amount, body.key, sign)

    def recall(self, who: Account, limit: int = RECALL_ROUNDS) -> list[dict[str, Any]]:
        """A player's last rounds: cards, wagers, decisions, statement lines with clauses, and
        the balance before and after (AGCO 13.1, 58 Pa. Code 810a.11)."""
        from felt.cli.script import run_script

        wallet = player_account(who.id)
        out: list[dict[str, Any]] = []
        with self.store.engine.connect() as conn:
            rows = (
                conn.execute(
                    select(rounds)
                    .join(round_players, round_players.c.round_id == rounds.c.id)
                    .where(round_players.c.account_id == who.id)
                    .order_by(round_players.c.started_at.desc())
                    .limit(limit)
                )
                .mappings()
                .all()
            )
            for r in rows:
                entry: dict[str, Any] = {"round": r["id"], "table": r["table_id"], "number": r["number"],
                                         "finished": bool(r["finished"])}  # fmt: skip
                ids = conn.execute(
                    select(func.min(postings.c.id), func.max(postings.c.id)).where(
                        postings.c.account == wallet, postings.c.txn.like(f"{r['id']}#%")
                    )
                ).first()
                if ids is not None and ids[0] is not None:
                    before = conn.execute(
                        select(func.coalesce(func.sum(postings.c.amount), 0)).where(
                            postings.c.account == wallet, postings.c.id < ids[0]
                        )
                    ).scalar()
                    after = conn.execute(
                        select(func.coalesce(func.sum(postings.c.amount), 0)).where(
                            postings.c.account == wallet, postings.c.id <= ids[1]
                        )
                    ).scalar()
                    entry["balance_before"] = dollars(int(before or 0))
                    entry["balance_after"] = dollars(int(after or 0))
                mine: list[int] = []
                decisions: list[dict[str, Any]] = []
                for e in conn.execute(
                    select(round_events.c.seq, round_events.c.action)
                    .where(round_events.c.round_id == r["id"], round_events.c.actor == who.id)
                    .order_by(round_events.c.seq)
                ):
                    act = json.loads(e.action)
                    decisions.append(act)
                    if "seat" in act and act["seat"] not in mine:
                        mine.append(int(act["seat"]))
                entry["decisions"] = decisions
                if r["finished"] and r["record"]:
                    record = json.loads(r["record"])
                    rnd = run_script(record["script"])
                    game = table_game(record["script"]["game"])
                    entry["seats"] = {str(n): seat_message(game, rnd, n) for n in sorted(mine)}
                    entry["dealer"] = record.get("dealer")
                out.append(entry)
        return out

    def round_record(self, who: Account, round_id: str) -> dict[str, Any]:
        """A supervisor's full reconstruction of any round: the record of a finished one (its
        script, settlement and discard rack in pickup order), the events so far of one in play."""
        auth.require(who, "supervisor")
        with self.store.engine.connect() as conn:
            row = conn.execute(select(rounds).where(rounds.c.id == round_id)).mappings().first()
            if row is None:
                raise NotFound(f"no round {round_id[:80]!r}")
            events = [
                {
                    "seq": e.seq,
                    "action": json.loads(e.action),
                    "effects": json.loads(e.effects),
                    "actor": e.actor,
                }
                for e in conn.execute(
                    select(round_events)
                    .where(round_events.c.round_id == round_id)
                    .order_by(round_events.c.seq)
                )
            ]
        return {
            "round": round_id,
            "table": row["table_id"],
            "number": row["number"],
            "finished": bool(row["finished"]),
            "record": json.loads(row["record"]) if row["record"] else None,
            "events": events,
        }


@dataclass(eq=False)
class Client:
    """One WebSocket connection: its account, the tables it watches, its outgoing queue."""

    server: Server
    who: Account
    token: str
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    tables: set[str] = field(default_factory=set)

    def push(self, host: TableHost | SystemHost, shared: Shared | None = None) -> None:
        """Queue this client's own view of ``host`` (a table's built with the other messages of
        the same push, ``shared``)."""
        if isinstance(host, TableHost):
            self.queue.put_nowait(host.message_for(self.who, shared))
        else:
            self.queue.put_nowait(host.message_for(self.who))


async def current(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> Account:
    """The account making a request (its bearer token checked)."""
    server: Server = request.app.state.server
    return await asyncio.to_thread(server.account, authorization)


Who = Annotated[Account, Depends(current)]


async def current_pending(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> Account:
    """The account making a request, let through while it must change its password (for the
    few requests it may make then: /api/me, /api/logout, /api/password)."""
    server: Server = request.app.state.server
    token = bearer_token(authorization)
    return await asyncio.to_thread(auth.authenticate, server.store, token, None, True)


Pending = Annotated[Account, Depends(current_pending)]


@dataclass
class _Logins:
    """The log-ins' own threads and how many log-ins wait on them (the event loop's count)."""

    pool: ThreadPoolExecutor
    waiting: int = 0


def create_app(server: Server, documented: bool = False) -> FastAPI:
    """The ASGI application of ``server``.  Its OpenAPI schema lists :data:`ERRORS` on every
    operation; FastAPI builds a response model of each for each route as the route is added
    (two thirds of the app's start-up), so only a ``documented`` twin is built with them, once,
    when the schema is first asked for: the schema is the twin's, the routes are the same."""

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Database work runs in threads; most of them wait on a commit, not on the CPU, so
        # allow more than the default (cores + 4) lest tables queue behind each other's fsyncs.
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(max_workers=WORKER_THREADS, thread_name_prefix="felt-db")
        )
        await asyncio.to_thread(server.prepare)  # nothing to do if felt serve ran it
        await server.hold()
        keeper = asyncio.create_task(server.keep_leases())
        watcher = asyncio.create_task(server.watch_meters())
        try:
            yield
        finally:
            server.stop.set()
            await asyncio.gather(keeper, watcher, *server.tasks.values(), return_exceptions=True)
            logins.pool.shutdown(wait=False, cancel_futures=True)
            server.store.dispose()

    app = FastAPI(
        title="felt table server",
        version="1",
        lifespan=lifespan,
        responses=ERRORS if documented else None,
    )
    logins = _Logins(ThreadPoolExecutor(max_workers=LOGIN_THREADS, thread_name_prefix="felt-login"))
    app.state.server = server

    @app.exception_handler(FeltError)
    async def _felt_error(_req: Request, err: FeltError) -> JSONResponse:
        body: dict[str, Any] = {"error": str(err)}
        if isinstance(err, NotHere) and err.owner:
            body["owner"] = err.owner
        return JSONResponse(body, status_code=status_of(err))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_req: Request, err: RequestValidationError) -> JSONResponse:
        first = err.errors()[0] if err.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return JSONResponse(
            {"error": f"{where}: {first.get('msg', 'invalid request')}"}, status_code=422
        )

    @app.exception_handler(HTTPException)
    async def _http_error(_req: Request, err: HTTPException) -> JSONResponse:
        """Starlette's own refusals (no such route, method not allowed) in the API's shape."""
        return JSONResponse(
            {"error": str(err.detail)}, status_code=err.status_code, headers=err.headers
        )

    app.add_middleware(RequestGuard)

    @app.post("/api/login")
    async def login(body: Login) -> dict[str, Any]:
        if logins.waiting >= MAX_WAITING_LOGINS:
            raise Busy(f"{MAX_WAITING_LOGINS} log-ins are waiting for their password check; "
                       "try again in a second")  # fmt: skip
        logins.waiting += 1
        try:
            token, who = await asyncio.get_running_loop().run_in_executor(
                logins.pool, auth.log_in, server.store, body.name, body.password
            )
        finally:
            logins.waiting -= 1
        server.end_sockets(who.id, "the session was replaced by a newer log-in", keep=token)
        return {"token": token, "name": who.name, "role": who.role,
                "must_change_password": who.must_change_password}  # fmt: skip

    @app.post("/api/logout")
    async def logout(
        who: Pending, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        await asyncio.to_thread(auth.log_out, server.store, bearer_token(authorization) or "")
        return {"ok": True}

    @app.get("/api/me")
    async def me(who: Pending) -> dict[str, Any]:
        def read() -> int:
            with server.store.engine.connect() as conn:
                return server.store.balance(conn, who.id)

        return {
            "name": who.name,
            "role": who.role,
            "balance": dollars(await asyncio.to_thread(read)),
            "must_change_password": who.must_change_password,
        }

    from felt.server.staff import add_staff

    add_staff(app, server, Who, Pending)  # accounts, their history, one's own password

    @app.post("/api/cashier/deposit")
    async def deposit(body: Cash, who: Who) -> dict[str, Any]:
        return await asyncio.to_thread(server.cash, who, body, 1)

    @app.post("/api/cashier/withdraw")
    async def withdraw(body: Cash, who: Who) -> dict[str, Any]:
        return await asyncio.to_thread(server.cash, who, body, -1)

    @app.get("/api/cage/players")
    async def cage_players(
        who: Who, q: Annotated[str, Query(max_length=64)] = ""
    ) -> dict[str, Any]:
        return await asyncio.to_thread(cage.find_players, server.store, who, q)

    @app.get("/api/cage/players/{name}/receipts")
    async def cage_player(
        name: str, who: Who, limit: Annotated[int, Query(ge=1, le=cage.MAX_RECEIPTS_LIMIT)] = 20
    ) -> dict[str, Any]:
        return await asyncio.to_thread(cage.player_receipts, server.store, who, name, limit)

    @app.get("/api/cage/receipts/{number}")
    async def cage_receipt(
        number: Annotated[int, Path(ge=1, le=cage.MAX_RECEIPT_NUMBER)], who: Who
    ) -> dict[str, Any]:
        return await asyncio.to_thread(cage.receipt, server.store, who, number)

    @app.get("/api/cage/report")
    async def cage_report(
        who: Who,
        date: Annotated[str | None, Query(max_length=10)] = None,
        cashier: Annotated[str | None, Query(max_length=MAX_NAME_CHARS)] = None,
    ) -> dict[str, Any]:
        return await asyncio.to_thread(cage.day_report, server.store, who, date, cashier)

    @app.get("/api/tables")
    async def tables(who: Who) -> list[dict[str, Any]]:
        def read() -> list[dict[str, Any]]:
            with server.store.engine.connect() as conn:
                rows = conn.execute(
                    select(felt_tables.c.id, felt_tables.c.spec, felt_tables.c.owner)
                ).all()
            return [
                {"id": r.id, "game": json.loads(r.spec)["game"], "owner": r.owner} for r in rows
            ]

        return await asyncio.to_thread(read)

    @app.get("/api/tables/{table}")
    async def table_view(table: str, who: Who) -> dict[str, Any]:
        host = server.table_host(table)
        async with host.lock:
            return host.message_for(who)

    @app.post("/api/tables/{table}/sit")
    async def sit(table: str, body: SeatRequest, who: Who) -> dict[str, Any]:
        host = server.table_host(table)
        await host.do(host.sit, who, body.seat)
        return {"ok": True}

    @app.post("/api/tables/{table}/stand")
    async def stand(table: str, body: SeatRequest, who: Who) -> dict[str, Any]:
        host = server.table_host(table)
        await host.do(host.stand, who, body.seat)
        return {"ok": True}

    @app.post("/api/tables/{table}/actions")
    async def act(table: str, body: ActRequest, who: Who) -> dict[str, Any]:
        return await server.act(who, table, body.action, body.key, for_round=body.round)

    @app.post("/api/tables/{table}/procedure")
    async def procedure(table: str, body: ProcedureRequest, who: Who) -> dict[str, Any]:
        host = server.table_host(table)
        await host.do(host.procedure, who, body.procedure, body.argument)
        return {"ok": True}

    @app.post("/api/tables/{table}/{change}")
    async def open_or_close(
        table: str, change: Literal["open", "close"], who: Who
    ) -> dict[str, Any]:
        auth.require(who, "supervisor")
        host = server.table_host(table)
        await host.do(host.set_open, change == "open")
        return {"ok": True}

    for each in families().values():  # a game's own routes (a system's, a poker room's lists)
        each.mount(app, server, Who)

    @app.get("/api/stats")
    async def stats(who: Who) -> dict[str, Any]:
        auth.require(who, "supervisor")
        group = server.store.group
        return {
            "node": server.node,
            "tables": len(server.running()),
            "share": server.share,
            "commits": server.store.commits,
            "clients": len(server.sockets),
            "gc_pauses": GC_PAUSES.reading(),
            "commit_times": None if group is None else group.timings.reading(),
            "checkpoint_times": None if group is None else group.checkpoint_timings.reading(),
        }

    @app.get("/api/progressive")
    async def progressive(who: Who) -> list[dict[str, Any]]:
        """The linked progressive meters: each one's label, amount, seed and linked tables."""
        return await asyncio.to_thread(server.progressive, who)

    @app.get("/api/recall")
    async def recall(who: Who) -> list[dict[str, Any]]:
        auth.require(who, "player")
        return await asyncio.to_thread(server.recall, who)

    @app.get("/api/rounds/{round_id}")
    async def round_record(round_id: str, who: Who) -> dict[str, Any]:
        return await asyncio.to_thread(server.round_record, who, round_id)

    @app.websocket("/api/ws")
    async def socket(ws: WebSocket) -> None:
        """One client: ``{"token": T}`` first, then the messages :func:`_handle` reads.  The
        server sends ``hello``, ``table`` (the client's view, with the table's ``version`` and
        the round's last event ``seq``), ``ack`` and ``error`` (with the HTTP ``status`` the
        same refusal would have; 401 also closes the socket with code 4401)."""
        await ws.accept()
        try:
            first = await _receive(ws)
            token = str(first.get("token") or "")
            who = await asyncio.to_thread(auth.authenticate, server.store, token)
        except (FeltError, ValueError) as err:
            refusal = _error(err, None)
            refusal.pop("close", None)
            await ws.send_json(refusal)  # 4403: a password to change first; 4401: no session
            await ws.close(code=4403 if refusal["status"] == 403 else 4401)
            return
        except WebSocketDisconnect:
            return
        client = Client(server, who, token)
        server.sockets.add(client)
        sender = asyncio.create_task(_send_loop(ws, client))
        slots = asyncio.Semaphore(MAX_IN_FLIGHT)
        running: set[asyncio.Task[None]] = set()
        try:
            await ws.send_text(message_text({"type": "hello", "name": who.name, "role": who.role}))
            while True:
                msg: dict[str, Any] | None = None
                try:
                    msg = await _receive(ws)
                    if "action" in msg:  # beside the client's other actions, see _in_turn
                        await slots.acquire()
                        task = asyncio.create_task(_in_turn(server, client, msg, slots))
                        running.add(task)
                        task.add_done_callback(running.discard)
                    else:
                        await _recheck(server, client)
                        await _handle(server, client, msg)
                except (FeltError, ValueError) as err:
                    await client.queue.put(_error(err, _key_of(msg)))
        except WebSocketDisconnect:
            pass
        finally:
            server.disconnected(client)
            sender.cancel()

    from felt.server.web import add_web

    add_web(app, server, Who)
    if not documented:

        def openapi() -> dict[str, Any]:
            if app.openapi_schema is None:
                app.openapi_schema = create_app(server, documented=True).openapi()
            return app.openapi_schema

        app.openapi = openapi  # type: ignore[method-assign]
    return app


async def _in_turn(
    server: Server, client: Client, msg: dict[str, Any], slots: asyncio.Semaphore
) -> None:
    """One action message of a WebSocket client, run beside its others: a client playing at
    several tables waits for no table's commit but its own."""
    try:
        await _handle(server, client, msg)  # the session is checked again with the key
    except (FeltError, ValueError) as err:
        client.queue.put_nowait(_error(err, _key_of(msg)))
    except Exception:
        log.exception("a WebSocket action failed")
        client.queue.put_nowait(
            {"type": "error", "status": 500, "key": _key_of(msg),
             "error": "the server could not record the action; send it again with the same key"}
        )  # fmt: skip
    finally:
        slots.release()


async def _recheck(server: Server, client: Client) -> None:
    """Each message is checked as a request is: a session that has ended since the socket
    opened (expired, logged out, replaced, locked) acts no more."""
    client.who = await asyncio.to_thread(auth.authenticate, server.store, client.token)


def _key_of(msg: dict[str, Any] | None) -> Any:
    key = None if msg is None else msg.get("key")
    return key if isinstance(key, str) else None


def _error(err: Exception, key: str | None) -> dict[str, Any]:
    """A refusal sent over a WebSocket: the HTTP status the same refusal would have, and the
    session's end (401) closes the socket."""
    status = status_of(err) if isinstance(err, FeltError) else 400
    out: dict[str, Any] = {"type": "error", "status": status, "error": str(err), "key": key}
    if status == 401:
        out["close"] = 4401
    return out


async def _receive(ws: WebSocket) -> dict[str, Any]:
    """The next message, a JSON object (sent as text or as binary UTF-8)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    data: str | bytes = message.get("text") or message.get("bytes") or ""
    if len(data) > MAX_BODY:
        raise TooLarge(f"message over {MAX_BODY} bytes")
    msg = read_json(data)
    if not isinstance(msg, dict):
        raise FeltError("a message must be a JSON object")
    return msg


async def _handle(server: Server, client: Client, msg: dict[str, Any]) -> None:
    """One WebSocket message: ``{"subscribe": T}``, ``{"unsubscribe": T}`` or ``{"table": T,
    "action": {...}, "key": K}``."""
    if "subscribe" in msg:
        table = str(msg["subscribe"])[:64]
        host = server.host(table)
        server.watch(client, table)
        async with host.lock:  # not while an action is half applied
            client.push(host)
        return
    if "unsubscribe" in msg:
        server.unwatch(client, str(msg["unsubscribe"]))
        return
    if "action" in msg:
        key: Any = msg.get("key")
        if not isinstance(key, str) or not 1 <= len(key) <= 128:
            raise FeltError(
                "an action needs a key: a string of 1 to 128 characters, unique per action"
            )
        target, body, for_round = msg.get("table"), msg.get("action"), msg.get("round")
        if not isinstance(target, str) or not isinstance(body, dict):
            raise FeltError('an action message is {"table": ID, "action": {...}, "key": K}')
        if for_round is not None and (
            not isinstance(for_round, str) or not 1 <= len(for_round) <= 80
        ):
            raise FeltError("round, if given, is the id of the round the action is for")
        try:
            ack = await server.act(client.who, target, body, key, client.token, for_round)
        except FeltError as err:
            await client.queue.put(_error(err, key))
            return
        await client.queue.put({"type": "ack", "key": key, **ack})
        return
    raise FeltError(
        'a message is {"subscribe": T}, {"unsubscribe": T} or {"table": T, "action": {...}, "key": K}'
    )


def message_text(msg: dict[str, Any]) -> str:
    """A WebSocket message as JSON text: the text Starlette's ``send_json`` wrote
    (``json.dumps`` with ``separators=(",", ":")`` and ``ensure_ascii=False``), encoded by
    orjson, several times faster on a table's view (number keys written as text, as ``json``
    writes them); what orjson refuses (an integer past 64 bits) is written by ``json``."""
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


async def _send_loop(ws: WebSocket, client: Client) -> None:
    with contextlib.suppress(Exception):
        while True:
            msg = await client.queue.get()
            close = msg.pop("close", None)
            await ws.send_text(message_text(msg))
            if close is not None:
                await ws.close(code=close)
                return
