"""The durable record: accounts, sessions, tables, rounds, their events and the double-entry
ledger, on SQLite (the embedded default) or PostgreSQL, through SQLAlchemy Core.

Every accepted action is one transaction: its event row keyed on (round, sequence number), so
two writers of the same round conflict instead of both succeeding; its ledger postings, two per
chip movement, summing to zero; each player's balance moved with a guard that refuses to take it
below zero (13:69O-1.4(h)); and the idempotency key of the request that caused it.  The server
acknowledges an action only after this commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import hashlib
import json
import logging
import os
import queue
import sqlite3
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, cast

import orjson
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    false,
    func,
    insert,
    select,
    text,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, DisconnectionError, IntegrityError

from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.server.pauses import Pauses

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False, unique=True),
    Column("role", String(16), nullable=False),
    Column("password_hash", String(256), nullable=False),
    Column("failed_logins", Integer, nullable=False, default=0),
    Column("locked", Boolean, nullable=False, default=False),
    Column("balance", BigInteger, nullable=False, default=0),
    Column("created_at", Float, nullable=False),
    Column("last_login_at", Float, nullable=True),
    Column("must_change_password", Boolean, nullable=False, server_default=false()),
    Column("retired_at", Float, nullable=True),
)
"""People who log in.  ``balance`` (cents) is the player's wallet: always the sum of the
postings on ``player:<id>``, kept here so a wager can be refused in the same transaction.
``last_login_at`` is the last successful log-in; ``must_change_password`` is set by a
supervisor's password reset until the user chooses their own; ``retired_at`` is when the account
was retired (it can no longer log in; its record and ledger stay)."""

account_changes = Table(
    "account_changes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("change", String(32), nullable=False),
    Column("detail", Text, nullable=False, default=""),
    Column("by_id", Integer, ForeignKey("accounts.id"), nullable=True),
    Column("at", Float, nullable=False),
    Index("account_changes_account", "account_id", "id"),
)
"""Every change made to an account (opened, locked, unlocked, password reset or changed,
retired) with who made it (``by_id``; null for the server machine's ``felt admin`` or the
lock-out after failed log-ins) and when: the staff screen's history."""

cage_receipts = Table(
    "cage_receipts",
    metadata,
    Column("number", Integer, primary_key=True, autoincrement=True),
    Column("cashier_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("balance_before", BigInteger, nullable=False),
    Column("balance_after", BigInteger, nullable=False),
    Column("txn", String(120), nullable=False, unique=True),
    Column("at", Float, nullable=False),
    Index("cage_receipts_at", "at"),
)
"""The cage's numbered receipts, one per deposit or withdrawal, written in the transaction that
posts it (``txn`` is its ledger transaction): amounts in cents, the player's balance before and
after.  The day's cage report is read from these and checked against the ledger."""

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("sessions_account", "account_id"),
)
"""Log-in sessions; only a hash of each token is kept, so the table cannot be used to log in."""

felt_tables = Table(
    "felt_tables",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("spec", Text, nullable=False),
    Column("state", Text, nullable=False),
    Column("version", Integer, nullable=False, default=0),
    Column("owner", String(200), nullable=True),
    Column("lease_until", Float, nullable=False, default=0.0),
)
"""Each table: its settings (``spec``), what carries between rounds (``state``: open or closed,
who sits where, the stub-count cadence, the cut rotation), bumped ``version`` on every change,
and which server process holds it (``owner``, while that process's heartbeat in :data:`nodes`
runs; ``lease_until`` is when the lease first ran out as taken, for the record)."""

nodes = Table(
    "nodes",
    metadata,
    Column("name", String(200), primary_key=True),
    Column("lease_until", Float, nullable=False),
)
"""The server processes sharing this database, each with the time its heartbeat runs out.  The
heartbeat is the lease on every table the process owns: once it runs out, another process may
take them.  A process counts the live ones to know its fair share of the tables."""

rounds = Table(
    "rounds",
    metadata,
    Column("id", String(100), primary_key=True),
    Column("table_id", String(64), ForeignKey("felt_tables.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("origin", Text, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("record", Text, nullable=True),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Index("rounds_table", "table_id", "number", unique=True),
)
"""Rounds: what the round was made with besides its deck (``origin``); once finished, its full
record (``record``: the replayable script and report)."""

round_events = Table(
    "round_events",
    metadata,
    Column("round_id", String(100), ForeignKey("rounds.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("action", Text, nullable=False),
    Column("effects", Text, nullable=False),
    Column("drawn", Text, nullable=False),
    Column("actor", Integer, nullable=True),
    Column("at", Float, nullable=False),
)
"""One row per accepted action.  ``drawn`` lists the cards the action took from the deck with
their places in it: all a rebuild needs of the deck (the undealt cards are never written)."""

round_players = Table(
    "round_players",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("round_id", String(100), ForeignKey("rounds.id"), primary_key=True),
    Column("started_at", Float, nullable=False),
    Index("round_players_recent", "account_id", "started_at"),
)
"""Which rounds each player played: for the recall of their last rounds."""

postings = Table(
    "postings",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    Column("txn", String(120), nullable=False),
    Column("account", String(100), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("reason", String(200), nullable=False),
    Column("at", Float, nullable=False),
    Index("postings_account", "account"),
    Index("postings_txn", "txn"),
)
"""The double-entry ledger: each chip movement is two rows, minus on the source and plus on the
target, under one ``txn`` (the round event or the cashier's transaction that caused it)."""

idempotency = Table(
    "idempotency",
    metadata,
    Column("account_id", Integer, primary_key=True),
    Column("key", String(128), primary_key=True),
    Column("request", String(64), nullable=False),
    Column("response", Text, nullable=False),
    Column("at", Float, nullable=False),
)
"""Each client request's idempotency key and the answer it got, so a retry is answered the same
and never applied twice."""

progressive_meters = Table(
    "progressive_meters",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("amount", BigInteger, nullable=False, default=0),
    Column("seed", BigInteger, nullable=False),
    Column("label", String(80), nullable=False),
    Column("version", BigInteger, nullable=False, default=0),
    Column("updated_at", Float, nullable=False),
)
"""The linked progressive meters: each is the ledger account ``progressive:<id>``, and
``amount`` (cents) is always the sum of that account's postings, moved in the transaction that
posts them (as ``accounts.balance`` is for a wallet), never below zero.  ``seed`` is the reset
amount every table linked to the meter agrees on; ``version`` moves on with every change, so a
process tells a changed meter from an unchanged one by one small read (see
:mod:`felt.server.meters`)."""


def _declare_game_tables() -> None:
    """The tables a game keeps of its own (a system game's record, see
    :meth:`felt.games.base.Game.declare_tables`), declared on :data:`metadata` as the store loads,
    so the migrations and ``create_all`` see them beside the shared ones."""
    from felt.games.registry import families

    for game in families().values():
        game.declare_tables(metadata)


_declare_game_tables()

log_store = logging.getLogger("felt.server")
"""The server's log (the store says there when SQLite's checkpoints fail)."""

CAGE: Final = "cage"
"""The ledger account money enters and leaves by (the cashier's cage)."""
HOUSE_ACCOUNT: Final = "house"


def player_account(account_id: int) -> str:
    """The ledger account of a player's wallet."""
    return f"player:{account_id}"


def layout_account(table_id: str) -> str:
    """The ledger account of the wagers in action on a table's layout."""
    return f"layout:{table_id}"


def pot_account(table_id: str) -> str:
    """The ledger account of the pot the players at a table play for against each other (the
    poker room), from the first chip put in until the pot is awarded."""
    return f"pot:{table_id}"


PROGRESSIVE_PREFIX: Final = "progressive:"


def progressive_account(meter: str) -> str:
    """The ledger account of a progressive meter (its row in :data:`progressive_meters`)."""
    return f"{PROGRESSIVE_PREFIX}{meter}"


_ORJSON: Final = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
)


def to_json(value: Any, sort: bool = False) -> str:
    """``value`` as the JSON text the record keeps (keys sorted with ``sort``), read back by
    :func:`json.loads` as :func:`json.dumps` would have written it: orjson, several times faster
    on an action's rows; what orjson refuses (an integer past 64 bits, or what ``json`` refuses
    too: orjson is not let write dataclasses or datetimes) is written by ``json``.

    >>> to_json({"b": [1, "A♠"], 2: None}, sort=True)
    '{"2":null,"b":[1,"A♠"]}'
    """
    try:
        return orjson.dumps(
            value, option=_ORJSON | orjson.OPT_SORT_KEYS if sort else _ORJSON
        ).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, sort_keys=sort)


class Conflict(FeltError):
    """Another writer got there first (the round's next sequence number is taken)."""


class InsufficientFunds(FeltError):
    """A wager larger than the player's balance (13:69O-1.4(h))."""


class MeterShort(FeltError):
    """A movement off a progressive meter larger than the meter (or a meter that was never
    opened): the whole transaction is refused, so no cent is paid twice."""


@dataclass(frozen=True)
class Posting:
    """One side of a chip movement: ``amount`` cents onto ``account`` (negative: off it)."""

    account: str
    amount: int
    reason: str


def default_database_url() -> str:
    """SQLite in the user's data directory (``$XDG_DATA_HOME/felt`` or ``~/.local/share/felt``)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "felt"
    base.mkdir(mode=0o700, parents=True, exist_ok=True)  # felt's own directory: its owner's
    return f"sqlite:///{base / 'felt.db'}"


def shown_database(url: str) -> str:
    """A database URL fit to print: any password (``user:PASSWORD@`` or ``?password=``) shown
    as ``***``."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return "(a database URL that cannot be shown)"
    query = {k: ("***" if "password" in k.lower() else v) for k, v in parsed.query.items()}
    return parsed.set(query=query).render_as_string(hide_password=True)


def sqlalchemy_url(url: str) -> str:
    """The SQLAlchemy spelling of a database URL: ``postgresql://`` uses psycopg 3."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if url.startswith(("sqlite://", "postgresql+psycopg://")):
        return url
    raise FeltError(
        f"--database must be a sqlite:///PATH or postgresql://... URL, "
        f"got {shown_database(url)[:80]!r}"
    )


DATABASE_FILE_MODE: Final = 0o600
"""A new SQLite database file: its owner's alone (it holds password hashes, sessions and the
ledger).  SQLite gives its write-ahead log and shared-memory index the database file's mode."""


def create_private(url: str) -> None:
    """Create the file of a SQLite database ``url`` with :data:`DATABASE_FILE_MODE` if it does
    not exist yet (SQLite itself would create it 0644, whatever the umask).  An existing file's
    mode is the operator's and is left as it is; in-memory databases have no file."""
    parsed = make_url(url)
    path = parsed.database
    if not path or path == ":memory:" or path.startswith("file:") or parsed.query.get("uri"):
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, DATABASE_FILE_MODE)
    except FileExistsError:
        return
    except OSError as err:  # no such directory, no permission: say which file
        raise FeltError(f"cannot create the database file {path[:200]!r}: {err.strerror}") from err
    try:
        os.fchmod(fd, DATABASE_FILE_MODE)  # exact, whatever the umask took away
    finally:
        os.close(fd)


POOL_SIZE: Final = 40
"""Connections a process keeps open once it has needed them: one for each thread that may hold
one at a time (the server's 32 database threads and 2 log-in threads, see
:data:`felt.server.app.WORKER_THREADS`), the group commit's writer, PostgreSQL's node hold and
a few spare (the event loop's own reads).  Kept, not closed on return: a smaller pool closed
every connection over its size when it came back, so under load connections were opened (and
SQLite's PRAGMAs run) again and again."""
POOL_OVERFLOW: Final = 10
"""Connections over :data:`POOL_SIZE` a caller with more threads (a test) may open; each is
closed when returned."""


def in_memory(url: str | URL) -> bool:
    """Whether the SQLite ``url`` is a database in memory (no file, no log).

    >>> in_memory("sqlite://"), in_memory("sqlite:///felt.db")
    (True, False)
    """
    parsed = make_url(url)
    return parsed.database in (None, "", ":memory:") or "memory" in str(parsed.query)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite in WAL mode with full fsync and a busy timeout, so several
    processes can share the file and a commit is on disk when it returns.  A new SQLite file
    and its log are created 0600 (:func:`create_private`)."""
    full = sqlalchemy_url(url)
    if full.startswith("sqlite"):
        create_private(full)
        # a database in memory lives in one connection (SQLAlchemy's SingletonThreadPool, which
        # takes no sizes); a file gets the pool sized to the threads
        sizes = {} if in_memory(full) else {"pool_size": POOL_SIZE, "max_overflow": POOL_OVERFLOW}
        engine = create_engine(
            full, connect_args={"timeout": 30, "check_same_thread": False}, **sizes
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            # SQLAlchemy, not pysqlite, says when a transaction begins (see _begin).
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            # A write transaction takes the write lock at BEGIN, so it never reads a balance
            # another writer may change; a read sees a snapshot and blocks nobody (WAL).
            # Sent by the driver itself: SQLAlchemy's execution of it cost more CPU than the
            # statement (every transaction begins here).  The group commit's connection
            # sends its own BEGIN for each group (see GroupCommit._connect).
            options = conn.get_execution_options()
            if options.get("felt_group", False):
                return
            write = options.get("felt_write", False)
            statement = "BEGIN IMMEDIATE" if write else "BEGIN"
            dbapi = conn.connection.dbapi_connection
            assert dbapi is not None
            try:
                dbapi.cursor().execute(statement)
            except sqlite3.Error as err:  # as SQLAlchemy would have raised it
                raise DBAPIError.instance(statement, (), err, sqlite3.Error) from err

        return engine
    engine = create_engine(full, pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW)

    @event.listens_for(engine, "checkin")
    def _used(_dbapi_conn: Any, record: Any) -> None:
        record.info["felt_used"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        # SQLAlchemy's pool_pre_ping, for a connection idle past PING_IDLE_SECONDS only: a ping
        # on every checkout was a round trip (and some 8% of an action's CPU) per transaction
        if time.monotonic() - record.info.get("felt_used", 0.0) <= PING_IDLE_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_conn)
        except Exception as err:
            if engine.dialect.is_disconnect(cast(Any, err), dbapi_conn, None):
                raise DisconnectionError(str(err)) from err  # the pool opens a new one
            raise

    return engine


PING_IDLE_SECONDS: Final = 1.0
"""A PostgreSQL connection back in the pool for longer than this is pinged before it is used
again (one closed by the server meanwhile, idle or killed, is replaced, as SQLAlchemy's
``pool_pre_ping`` would); one used within it is not (a database restart in that second fails
that connection's next use, as it fails the transactions in flight, and the pool drops it)."""


_HOT_SQL: Final = {
    # a fence moves the table's version on by one for each event it guards
    "fence": "UPDATE felt_tables SET version = version + ? WHERE id = ? AND owner = ?",
    "fence_state": "UPDATE felt_tables SET version = version + ?, state = ? "
    "WHERE id = ? AND owner = ?",
    "meter": "UPDATE progressive_meters SET amount = amount + ?, version = version + 1, "
    "updated_at = ? WHERE id = ? AND amount + ? >= 0",
    "wallet": "UPDATE accounts SET balance = balance + ? WHERE id = ? AND balance + ? >= 0",
    "posting": "INSERT INTO postings (txn, account, amount, reason, at) VALUES (?, ?, ?, ?, ?)",
    "event": "INSERT INTO round_events (round_id, seq, action, effects, drawn, actor, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)",
    "round_player": "INSERT INTO round_players (account_id, round_id, started_at) "
    "VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
    "remembered": "SELECT request, response FROM idempotency WHERE account_id = ? AND key = ?",
    "remember": "INSERT INTO idempotency (account_id, key, request, response, at) "
    "VALUES (?, ?, ?, ?, ?)",
    "begin": "BEGIN IMMEDIATE",
    "commit": "COMMIT",
    "savepoint": "SAVEPOINT felt_writer",
    "release": "RELEASE SAVEPOINT felt_writer",
    "rollback_to": "ROLLBACK TO SAVEPOINT felt_writer",
    "round": "INSERT INTO rounds (id, table_id, number, origin, finished, started_at) "
    "VALUES (?, ?, ?, ?, ?, ?)",
    "round_finished": "UPDATE rounds SET finished = ?, finished_at = ?, record = ? WHERE id = ?",
    "session": "SELECT a.id, a.name, a.role, a.locked, a.must_change_password, a.retired_at, "
    "s.expires_at, i.request, i.response FROM sessions s JOIN accounts a ON a.id = s.account_id "
    "LEFT JOIN idempotency i ON i.account_id = s.account_id AND i.key = ? "
    "WHERE s.token_hash = ?",
}
"""The statements every player action sends (see :func:`hot`; BEGIN, COMMIT and the savepoints
are SQLite's group commit's, :class:`GroupCommit`), in SQLite's parameter style;
PostgreSQL's (psycopg's ``%s``) is made from them.  Each means what the SQLAlchemy Core
statement it replaced meant, column for column."""
_FENCED_EVENT: Final = (
    "WITH fenced AS (UPDATE felt_tables SET version = version + %s::integer{state} "
    "WHERE id = %s AND owner = %s RETURNING id) "
    "INSERT INTO round_events (round_id, seq, action, effects, drawn, actor, at) "
    "SELECT e.* FROM fenced, ( VALUES (%s::text, %s::integer, %s::text, %s::text, %s::text, "
    "%s::integer, %s::double precision) ) AS e"
)
_HOT_PSYCOPG: Final = {
    **{name: sql.replace("?", "%s") for name, sql in _HOT_SQL.items()},
    # PostgreSQL's alone: a change's fence and its events in one statement (one round trip),
    # the events written only if the fence moved the table's version (see Store.append_events)
    "fenced_event": _FENCED_EVENT.format(state=""),
    "fenced_state_event": _FENCED_EVENT.format(state=", state = %s"),
}


@dataclass(frozen=True)
class _Hot:
    """A DBAPI connection's cursor for :func:`hot`, its SQL, and its driver's base error."""

    dbapi: Any
    cursor: Any
    sql: dict[str, str]
    error: type[Exception]


@functools.cache
def _rows_of(sql: str, rows: int) -> str:
    """An ``INSERT ... VALUES (...)`` of one row made to insert ``rows`` rows at once (the
    first ``VALUES`` list repeated: a ``VALUES`` list of a ``SELECT`` as well)."""
    head, rest = sql.split(" VALUES ", 1)
    values, tail = rest.split(")", 1)
    return f"{head} VALUES {', '.join([values + ')'] * rows)}{tail}"


def hot(conn: Connection, name: str, params: Sequence[Any], rows: int = 1) -> Any:
    """Run the per-action statement ``name`` (:data:`_HOT_SQL`) with ``params`` on the driver's
    own cursor of ``conn``'s connection, inside ``conn``'s transaction, and return the cursor
    (``rowcount``, ``fetchone``); an INSERT of ``rows`` rows takes their ``params`` one after
    the other, in one statement (one round trip: psycopg's executemany sets up a pipeline, which
    cost more than the rows of an action).  The hot path of every action skips SQLAlchemy's statement
    building, caching and result wrapping (most of a small write's CPU: ``bench/store_path.py``);
    everything else stays SQLAlchemy Core.  The driver's errors are raised as SQLAlchemy raises
    them (a broken key is its IntegrityError), so callers catch one kind."""
    record = conn.connection
    dbapi = record.dbapi_connection
    got: _Hot | None = record.info.get("felt_hot")
    if got is None or got.dbapi is not dbapi:
        assert dbapi is not None
        style = _HOT_SQL if conn.dialect.name == "sqlite" else _HOT_PSYCOPG
        got = _Hot(dbapi, dbapi.cursor(), style, conn.dialect.loaded_dbapi.Error)
        record.info["felt_hot"] = got
    sql = got.sql[name] if rows == 1 else _rows_of(got.sql[name], rows)
    try:
        got.cursor.execute(sql, params)
    except got.error as err:  # as SQLAlchemy raises it (an IntegrityError, an OperationalError)
        # a lost connection is invalidated as SQLAlchemy would, so the pool never hands it out
        # again (SQLAlchemy's statement events do not see these statements: none are used)
        lost = bool(conn.dialect.is_disconnect(cast(Any, err), dbapi, got.cursor))
        if lost:
            with contextlib.suppress(Exception):
                conn.invalidate(err)
        raise DBAPIError.instance(
            sql, params, err, got.error, connection_invalidated=lost,
            dialect=conn.dialect,
        ) from err  # fmt: skip
    return got.cursor


POSTINGS_AT_ONCE: Final = 199
"""Postings written by one statement at most: 5 parameters each, 995 in all, within the 999
parameters a statement may have on SQLite builds before 3.32 (PostgreSQL allows 65,535)."""


class CommitFailed(RuntimeError):
    """The commit of a group of writes failed: none of them happened."""


@dataclass(eq=False)
class _Batch:
    """Writes that share one SQLite transaction and its one COMMIT."""

    members: int = 0
    ended: bool = False
    """Committed or rolled back (:meth:`GroupCommit._end`)."""
    waiters: list[threading.Lock] = field(default_factory=list)
    """The wakers (:func:`_waker`) of the writers that left the turn with the group still open,
    each released once when the group ends."""
    error: BaseException | None = None


_wakers = threading.local()


def _waker() -> threading.Lock:
    """This thread's lock for waiting on a group's end: kept locked, released once by the
    group's :meth:`GroupCommit._end` and taken again by the waiter, so it is made once per
    thread, not once per group (an Event per group, with the Condition under it, cost more
    than the wait's own system calls)."""
    lock: threading.Lock | None = getattr(_wakers, "lock", None)
    if lock is None:
        lock = threading.Lock()
        lock.acquire()
        _wakers.lock = lock
    return lock


_in_batch = threading.local()
"""On the writer's thread (:meth:`GroupCommit.submit`), while one of a batch's changes runs:
``after``, the list its :func:`after_commit` calls go to."""


def after_commit(publish: Callable[[], None]) -> None:
    """Run ``publish`` (a change's effect on what the process shows: a table's round, its
    version) once the change is durable: at once, after a transaction that has ended, or, for
    a change run by the writer (:meth:`GroupCommit.submit`), once its batch commits (never if it
    does not), so nobody is shown a state the record may not have."""
    after: list[Callable[[], None]] | None = getattr(_in_batch, "after", None)
    if after is None:
        publish()
    else:
        after.append(publish)


@dataclass(eq=False)
class _Job:
    """One change handed to the writer (:meth:`GroupCommit.submit`), and how it ended."""

    work: Callable[..., Any]
    args: tuple[Any, ...]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    result: Any = None
    error: BaseException | None = None
    after: list[Callable[[], None]] = field(default_factory=list)
    """What it publishes once its batch commits (:func:`after_commit`)."""


def _settle(jobs: list[_Job]) -> None:
    """On the event loop: give each of a committed (or failed) batch's changes its outcome."""
    for job in jobs:
        if job.future.done():  # cancelled by its caller (the change ran all the same)
            continue
        if job.error is None:
            job.future.set_result(job.result)
        else:
            job.future.set_exception(job.error)


def _driver(conn: Connection) -> Any:
    """The driver's own connection under ``conn`` (statements on it begin no transaction)."""
    raw = conn.connection.driver_connection
    if raw is None:  # pragma: no cover - a checked-out connection always has one
        raise RuntimeError("the connection has no driver connection")
    return raw


def _daemon(name: str, target: Callable[..., None], *args: Any) -> threading.Thread:
    """A daemon thread of the store's, started (its target holds the store by a weak
    reference, so a store nobody closed is collected and the thread ends)."""
    thread = threading.Thread(target=target, args=args, name=name, daemon=True)
    thread.start()
    return thread


def _writes(ref: weakref.ReferenceType[GroupCommit], jobs: queue.SimpleQueue[_Job | None]) -> None:
    """The writer's thread (:meth:`GroupCommit.submit`): a batch of the changes waiting, then the
    next, until the store closes or is dropped (it holds the store only while a batch runs, so
    a store nobody closed is still collected, and its thread ends)."""
    while True:
        try:
            job = jobs.get(timeout=1.0)
        except queue.Empty:
            if ref() is None:
                return
            continue
        group = ref()
        if job is None or group is None:
            return
        group._serve(job)
        del group, job  # (the change holds its table, and the table its store)


def _checkpoints(ref: weakref.ReferenceType[GroupCommit], closing: threading.Event) -> None:
    """The checkpointer's thread: a round every :attr:`GroupCommit.CHECKPOINT_SECONDS` until
    the store closes or is dropped (it holds the store only while a round runs, so a store
    nobody closed is still collected, and its thread ends)."""
    seen = -1
    while not closing.wait(GroupCommit.CHECKPOINT_SECONDS):
        group = ref()
        if group is None:
            return
        seen = group._checkpoint_round(seen)
        del group


class GroupCommit:
    """SQLite writes from many threads made durable together: each writer's statements run on
    one connection, in turn, each after the first of a group in a savepoint of its own; the
    writer that finds nobody waiting behind it commits the lot (one fsync for the group); every
    writer returns only after that commit.  A writer whose statements fail rolls back alone
    (to its savepoint, or the whole transaction if it was the group's first).

    SQLite lets one connection write at a time anyway; waiting for the turn on an in-process
    lock instead of SQLite's busy handler (which polls, sleeping up to 100 ms) keeps the wait
    short, and one fsync per group instead of one per writer raises the rate of durable
    writes under load.

    The COMMIT runs in the turn, so a writer that comes during a slow fsync waits for it, and no
    longer: its own statements then run and its own group commits.  Checkpoints (the log's pages
    copied into the database file, which SQLite otherwise runs inside the COMMIT that fills the
    log past 1000 pages: two fsyncs and the copying, in the turn) are a thread's of its own on
    another connection, beside the writers; only a short catch-up, for the log to start over,
    takes the turn between two groups (docs/design.md, "Durability").

    The tables' changes come through :meth:`submit` instead: the writer's thread runs them in
    batches, one turn, one transaction and one COMMIT a batch (docs/design.md, "The writer")."""

    MAX_GROUP: Final = 64
    CHECKPOINT_SECONDS: Final = 0.5
    """How often the checkpointer looks for new commits to copy into the database file."""
    GIVE_UP: Final = 20
    """Checkpoints failed in a row after which SQLite's own come back (ten seconds of them)."""
    LOG_PAGES: Final = 4000
    """Past this many pages (16 MB) the checkpointer makes the log start over (see
    :meth:`_checkpoints`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.turn = threading.Lock()
        self.arrived: deque[None] = deque()
        """One item for each writer that came for the turn and has not taken it yet (deque's
        append and pop are atomic, so no lock counts them)."""
        self.conn: Connection | None = None
        self.batch: _Batch | None = None
        self.commits = 0
        self.timings = Pauses()
        """Each group's COMMIT (its fsync), labelled with the group's size."""
        self.checkpoint_timings = Pauses()
        """Each checkpoint, labelled with the pages in the log as it ran."""
        self._checkpointer: threading.Thread | None = None
        self._closing = threading.Event()
        self.auto_checkpoints = in_memory(engine.url)
        """SQLite checkpoints in the COMMIT, as by default (a database in memory; or the
        checkpointer gave up), rather than on the checkpointer's thread."""
        self.checkpoint_failures = 0
        self.owner: int | None = None
        """The writer's thread while it runs a batch (:meth:`submit`): its writes go in that batch."""
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_lock = threading.Lock()
        self.batches = Pauses()
        """Each batch of the writer's (:meth:`submit`), its changes run and committed, labelled
        with its size."""

    def submit(self, work: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """Hand ``work(*args)``, a change of a table's, to the writer's thread (on the event
        loop): the future of its result, set once it is durable.  The writer takes the changes
        that came while it was busy as one batch: the writers' turn once, one transaction, each
        change in a savepoint of its own (rolled back alone if it raises), one COMMIT, and one
        wake of the event loop for all of them; what each change publishes
        (:func:`after_commit`) waits for the commit, and none of it happens if the commit fails
        (every change in the batch then raises :class:`CommitFailed`).  An action handed to a
        worker thread instead crossed threads twice and took the turn and the group's end
        through locks of its own, which cost more CPU than its statements (docs/design.md,
        "The writer")."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        writer = self._writer
        if writer is None or not writer.is_alive():
            with self._writer_lock:
                if self._writer is writer:
                    self._writer = _daemon("felt-writer", _writes, weakref.ref(self), self._jobs)
        self._jobs.put(_Job(work, args, loop, future))
        return future

    def _serve(self, job: _Job) -> None:
        """One batch of the writer's (:func:`_writes`), from ``job`` on, and its outcomes.  The
        writer outlives anything a batch raises: the batch's changes that have no outcome yet
        get :class:`CommitFailed` (their commit unknown: their tables read the record again)."""
        began = time.perf_counter()
        batch = [job]
        try:
            with self.turn:
                self._batch(batch)
        except BaseException as err:  # pragma: no cover - every failure is caught inside
            log_store.exception("the writer's batch failed")
            with self.turn:
                self._drop()
            for lost in batch:
                if lost.error is None:
                    lost.error = CommitFailed(f"the writer's batch failed: {err!r}")
        self.batches.add(time.perf_counter() - began, len(batch))
        self._hand_back(batch)

    def _hand_back(self, batch: list[_Job]) -> None:
        """Settle ``batch``'s changes on their event loops, one wake of each loop."""
        by_loop: dict[asyncio.AbstractEventLoop, list[_Job]] = {}
        for done in batch:
            by_loop.setdefault(done.loop, []).append(done)
        for loop, settled in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a loop closed meanwhile
                loop.call_soon_threadsafe(_settle, settled)

    def _batch(self, batch: list[_Job]) -> None:
        """In the turn: begin, run the changes (``batch``'s, then each that comes meanwhile,
        added to it, up to :attr:`MAX_GROUP`), commit, publish."""
        self.owner = threading.get_ident()
        try:
            if self.batch is not None:  # a group another thread left open for those behind it
                self._end(self.batch, None)  # (its writers are done, each waiting for its end)
            try:
                if self.conn is None:
                    self.conn = self._connect()
                hot(self.conn, "begin", ())
            except BaseException as err:  # a connection that cannot begin is not used again
                self._drop()
                for job in batch:
                    job.error = CommitFailed(f"the database did not begin: {err}")
                return
            group = self.batch = _Batch()
            n = 0
            while True:
                job = batch[n]
                _in_batch.after = job.after
                try:
                    job.result = job.work(*job.args)
                except BaseException as err:
                    job.error = err
                    job.after.clear()
                finally:
                    _in_batch.after = None
                n += 1
                if n < len(batch):
                    continue
                if group.error is not None or n >= self.MAX_GROUP:
                    break
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:  # closing: the writer stops after this batch
                    self._jobs.put(None)
                    break
                batch.append(more)
            self._end(group, group.error)
            for job in batch:
                if job.error is not None:
                    continue
                if group.error is not None:
                    job.error = CommitFailed(f"the database did not commit: {group.error}")
                    continue
                for publish in job.after:
                    try:
                        publish()
                    except BaseException as err:  # pragma: no cover - publishing is assignments
                        job.error = CommitFailed(f"committed, but not shown: {err!r}")
                        log_store.exception("publishing a committed change failed")
        finally:
            self.owner = None

    def _drop(self) -> None:
        """Roll back and close the writers' connection (the next write opens another)."""
        self.batch = None
        if self.conn is not None:
            with contextlib.suppress(BaseException):
                _driver(self.conn).rollback()
            with contextlib.suppress(BaseException):
                self.conn.close()
            self.conn = None

    def _connect(self) -> Connection:
        """The writers' connection, with SQLite's checkpoints in the COMMIT turned off (the
        checkpointer's thread, started with it, runs them); a database in memory, which has no
        log, and a store whose checkpointer gave up keep SQLite's own."""
        conn = self.engine.connect()
        if not self.auto_checkpoints:
            _driver(conn).execute("PRAGMA wal_autocheckpoint=0")
            if self._checkpointer is None:
                self._closing.clear()
                self._checkpointer = _daemon(
                    "felt-checkpoint", _checkpoints, weakref.ref(self), self._closing
                )
        # SQLAlchemy's transaction is begun once, for the connection's life, and sends nothing
        # (see _begin): each group's BEGIN IMMEDIATE and COMMIT go through the driver
        # (:func:`hot`), as SQLAlchemy's begin and commit of every group cost more CPU than the
        # two statements.  The writers' SQLAlchemy statements run in it as in any transaction.
        conn = conn.execution_options(felt_write=True, felt_group=True)
        conn.begin()
        return conn

    def _checkpoint_round(self, seen: int) -> int:
        """One round of the checkpointer (:func:`_checkpoints`): if commits came since
        ``seen``, copy committed pages from the log into the database file beside the writers
        (a PASSIVE checkpoint takes no write lock).  The log starts over only at a write that
        finds all of it copied, which a checkpoint beside the writers seldom leaves (a commit
        comes meanwhile): past :attr:`LOG_PAGES` the checkpointer takes the writers' turn between
        two groups and copies what came since its last pass, little, so the next write starts
        the log over.  Its connection is taken before the turn, so the writers never wait on a
        pool.  Returns the commits seen; after :attr:`GIVE_UP` failures in a row the writers'
        connection gets SQLite's own checkpoints back and the checkpointer stops."""
        if self.commits == seen:
            return seen
        seen = self.commits
        try:
            with self.engine.connect() as conn:
                log = self._checkpoint(conn)
                if log > self.LOG_PAGES:
                    with self.turn:
                        if self.batch is None:  # between groups: no write transaction open
                            self._checkpoint(conn)
            self.checkpoint_failures = 0
        except Exception as err:  # the next round tries again; the writers go on meanwhile
            self.checkpoint_failures += 1
            if self.checkpoint_failures == 1:
                log_store.warning("SQLite checkpoint failed (tried again in %.1f s): %s",
                                  self.CHECKPOINT_SECONDS, err)  # fmt: skip
            if self.checkpoint_failures >= self.GIVE_UP:
                log_store.error("SQLite checkpoints failed %d times in a row: SQLite checkpoints "
                                "in the COMMIT again", self.checkpoint_failures)  # fmt: skip
                with self.turn:
                    self.auto_checkpoints = True
                    if self.conn is not None:
                        with contextlib.suppress(Exception):
                            _driver(self.conn).execute("PRAGMA wal_autocheckpoint=1000")
                self._closing.set()
            return -1
        return seen

    def _checkpoint(self, conn: Connection) -> int:
        """One PASSIVE checkpoint on ``conn`` (not the writers'), timed; the pages in the log."""
        began = time.perf_counter()
        row = _driver(conn).execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        log = int(row[1])
        self.checkpoint_timings.add(time.perf_counter() - began, log)
        return log

    @property
    def waiting(self) -> int:
        """Writers waiting for the turn."""
        return len(self.arrived)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One writer's turn: its statements, then (after the group's commit) its return.  The
        group's first writer runs in the transaction itself, with no savepoint (if it fails,
        the transaction is rolled back: it holds nobody else's writes); each later one in a
        savepoint of its own, released when it succeeds (left open, the savepoints of a group
        nest and SQLite's sub-journal grows past memory into a file: measured slower).  On the
        writer's thread, in its batch (:meth:`submit`), a savepoint of the batch's transaction."""
        if self.owner == threading.get_ident():  # a change the writer runs: in its batch
            batch = self.batch
            conn = self.conn
            assert batch is not None
            assert conn is not None
            try:
                hot(conn, "savepoint", ())
            except BaseException as err:  # the transaction is in doubt: the batch fails
                batch.error = err
                raise
            try:
                yield conn
            except BaseException:
                try:
                    hot(conn, "rollback_to", ())
                    hot(conn, "release", ())
                except BaseException as err:  # the whole transaction is lost
                    batch.error = err
                raise
            try:
                hot(conn, "release", ())
            except BaseException as err:  # the whole transaction is lost
                batch.error = err
                raise
            batch.members += 1
            return
        arrived = self.arrived
        arrived.append(None)
        self.turn.acquire()
        arrived.pop()
        done = waits = False
        try:
            if self.conn is None:
                self.conn = self._connect()
            conn = self.conn
            batch = self.batch
            first = batch is None
            if batch is None:
                try:
                    hot(conn, "begin", ())
                except BaseException:  # a connection that cannot begin is not used again
                    self.conn = None
                    with contextlib.suppress(BaseException):
                        conn.close()
                    raise
                batch = self.batch = _Batch()
            else:
                # Through the driver (:func:`hot`): SQLAlchemy's begin_nested cost some 30
                # times the statements' own CPU, on every action.
                hot(conn, "savepoint", ())
            try:
                yield conn
            except BaseException:
                if first:  # nobody else's writes in the transaction yet
                    self._end(batch, None)
                else:
                    try:
                        hot(conn, "rollback_to", ())
                        hot(conn, "release", ())
                    except BaseException as err:  # the whole transaction is lost
                        self._end(batch, err)
                raise
            if not first:
                try:
                    hot(conn, "release", ())
                except BaseException as err:  # the whole transaction is lost
                    self._end(batch, err)
                    raise
            batch.members += 1
            done = True
        finally:
            group = self.batch
            if group is not None and (not arrived or group.members >= self.MAX_GROUP):
                self._end(group, None)
            elif done and group is not None:
                group.waiters.append(_waker())  # woken by the group's end
                waits = True
            self.turn.release()
        if done:
            if waits:
                waker = _waker()
                while True:  # once for its release; again after a stale one (a wait cut short)
                    waker.acquire()
                    if batch.ended:
                        break
            if batch.error is not None:
                raise CommitFailed(f"the database did not commit: {batch.error}") from None

    def _end(self, batch: _Batch, error: BaseException | None) -> None:
        """Commit the group (or roll it back after ``error``) and wake its writers."""
        conn = self.conn
        assert conn is not None  # the group's: closed only here, once its group has ended
        try:
            if error is None and batch.members:
                began = time.perf_counter()
                hot(conn, "commit", ())
                self.timings.add(time.perf_counter() - began, batch.members)
                self.commits += 1
            else:
                _driver(conn).rollback()
        except BaseException as err:
            error = err
            with contextlib.suppress(BaseException):
                _driver(conn).rollback()
        if error is not None and self.conn is not None:
            with contextlib.suppress(BaseException):
                self.conn.close()
            self.conn = None
        batch.error = error
        self.batch = None
        batch.ended = True
        for waker in batch.waiters:
            with contextlib.suppress(RuntimeError):  # left unlocked by a wait cut short
                waker.release()

    def close(self) -> None:
        """Stop the checkpointer and close the writers' connection (no write may be under
        way).  What is not checkpointed yet is in the log, which SQLite copies in as the last
        connection closes, or as the next one opens after a crash."""
        if self._writer is not None:
            self._jobs.put(None)
            self._writer.join()
            self._writer = None
            left: list[_Job] = []
            while True:  # changes handed over as it closed: failed, nothing written
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is not None:
                    job.error = CommitFailed("the store closed before the change was made")
                    left.append(job)
            self._hand_back(left)
        self._closing.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
            self._checkpointer = None
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Store:
    """The database behind one or more server processes."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        self.group = GroupCommit(self.engine) if self.is_sqlite else None
        self._commits = 0
        self._count = threading.Lock()
        self._node_hold: int | Connection | None = None
        """What holds this process's node name (see :meth:`hold_node`)."""

    @property
    def commits(self) -> int:
        """Write transactions this process has committed (for ``GET /api/stats``)."""
        return self._commits if self.group is None else self.group.commits

    def migrate(self, seed: Callable[[Connection], None] | None = None) -> None:
        """Bring the schema up to date (Alembic, see ``felt/server/migrations``) and run
        ``seed`` in the same transaction, under the lock that makes concurrent starters wait."""
        from felt.server.migrations import upgrade

        upgrade(self.engine, seed)

    def hold_node(self, node: str) -> None:
        """Hold the name ``node`` for the life of this process, or refuse if a live process
        holds it: a PostgreSQL session advisory lock on the schema and the name (kept on a
        connection of its own), or on SQLite an OS lock on a file beside the database.  Both
        end with the process that holds them, however it ends, so a process restarted under
        its name after a crash starts at once."""
        if self._node_hold is not None:
            return
        taken = False
        if self.is_sqlite:
            path = self.engine.url.database
            if not path or path == ":memory:":
                return
            digest = hashlib.sha256(node.encode()).hexdigest()[:16]
            fd = os.open(f"{path}-node-{digest}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                taken = True
            except OSError:
                os.close(fd)
            else:
                self._node_hold = fd
        else:
            conn = self.engine.connect()
            taken = bool(
                conn.execute(
                    text(
                        "SELECT pg_try_advisory_lock("
                        "hashtextextended(current_schema() || '/felt-node/' || :n, 0))"
                    ),
                    {"n": node},
                ).scalar()
            )
            conn.commit()
            if taken:
                self._node_hold = conn
            else:
                conn.close()
        if not taken:
            raise FeltError(
                f"node name {node[:80]!r} is held by another live felt serve process on this "
                "database; give each process its own --node"
            )

    def keep_node(self, node: str) -> None:
        """Make sure this process still holds ``node``, taking it again if the hold was lost,
        or raise :class:`FeltError` if another live process has it now.  A PostgreSQL advisory
        lock ends with its connection, not its process: a database restart, a fail-over or an
        idle-connection kill would otherwise leave a live process under a name a second process
        could take (two processes running every table).  Checked at each lease renewal."""
        hold = self._node_hold
        if not isinstance(hold, Connection):
            return  # SQLite: the file lock lives as long as the process
        try:
            held = hold.execute(
                text(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                    "AND pid = pg_backend_pid()"
                )
            ).scalar()
            hold.commit()
        except Exception:  # the connection is gone, and its lock with it
            held = 0
        if held:
            return
        self._node_hold = None
        with contextlib.suppress(Exception):
            hold.close()
        self.hold_node(node)

    def dispose(self) -> None:
        """Close every pooled connection (and give the node name up)."""
        if self.group is not None:
            self.group.close()
        hold, self._node_hold = self._node_hold, None
        if isinstance(hold, int):
            os.close(hold)
        elif hold is not None:
            hold.close()
        self.engine.dispose()

    def submit_change(self, work: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """Hand ``work(*args)``, a change that publishes through :func:`after_commit`, off the
        event loop (called on it): the future of its result, set once durable.  On SQLite the
        writer's next batch (:meth:`GroupCommit.submit`), on PostgreSQL a worker thread with a
        transaction of its own (each waits on its own round trips, so many run at once).  The
        change is made whatever becomes of whoever awaits it."""
        if self.group is not None:
            return self.group.submit(work, *args)
        return asyncio.get_running_loop().run_in_executor(None, functools.partial(work, *args))

    def transaction(self) -> contextlib.AbstractContextManager[Connection]:
        """One write transaction: durable when the block ends (on SQLite, committed with the
        writes of other threads that came meanwhile, see :class:`GroupCommit`), rolled back if
        it raises.  SQLite's is the group's own context, not one wrapped in another (every
        action enters and leaves it)."""
        if self.group is not None:
            return self.group.write()
        return self._own_transaction()

    @contextmanager
    def _own_transaction(self) -> Iterator[Connection]:
        """PostgreSQL's write transaction: a pooled connection's own, counted once committed."""
        with self.engine.connect() as conn, conn.begin():
            yield conn
        with self._count:
            self._commits += 1

    # ----------------------------------------------------------------- ledger
    def post(self, conn: Connection, txn: str, entries: Sequence[Posting]) -> None:
        """Write postings that sum to zero and move the player balances and progressive meters
        they touch; a player balance or a meter that would go below zero refuses the whole
        transaction.  Meters are moved before wallets (every writer takes their row locks in that
        order, so two tables' transactions never wait for each other in a circle), and the rows
        are written last, so the postings of one meter are numbered in the order its moves
        were made."""
        total = 0
        meters: dict[str, int] = {}
        delta: dict[int, int] = {}
        for p in entries:  # one pass: the sum, and the moves of each meter and each wallet
            account, amount = p.account, p.amount
            total += amount
            if account.startswith("player:"):
                pid = int(account[7:])
                delta[pid] = delta.get(pid, 0) + amount
            elif account.startswith(PROGRESSIVE_PREFIX):
                meter = account[len(PROGRESSIVE_PREFIX) :]
                meters[meter] = meters.get(meter, 0) + amount
        if total != 0:  # pragma: no cover - callers pair every movement
            raise RuntimeError("postings of one transaction must sum to zero")
        now = time.time()
        for meter, d in sorted(meters.items()):  # before any wallet: one lock order for all
            if d == 0:
                continue
            if hot(conn, "meter", (d, now, meter, d)).rowcount != 1:
                raise MeterShort(
                    f"the progressive meter {meter[:64]!r} holds less than the "
                    f"{dollars(-d)} this would take off it, or was never opened: nothing was done"
                )
        for pid, d in sorted(delta.items()):
            if d == 0:
                continue
            if hot(conn, "wallet", (d, pid, d)).rowcount != 1:
                raise InsufficientFunds(
                    "the wager exceeds the player's balance; a player may not wager more than "
                    "their funds (13:69O-1.4(h))"
                )
        # after the guarded moves: a meter's rows are numbered in its lock's order
        for at in range(0, len(entries), POSTINGS_AT_ONCE):
            chunk = entries[at : at + POSTINGS_AT_ONCE]
            params = [x for p in chunk for x in (txn, p.account, p.amount, p.reason, now)]
            hot(conn, "posting", params, rows=len(chunk))

    def balance(self, conn: Connection, account_id: int) -> int:
        """A player's balance in cents."""
        value = conn.execute(select(accounts.c.balance).where(accounts.c.id == account_id)).scalar()
        return int(value or 0)

    def ledger_sum(self) -> int:
        """The sum over every ledger account: zero at every commit."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(select(func.coalesce(func.sum(postings.c.amount), 0))).scalar() or 0
            )

    def account_sum(self, account: str) -> int:
        """The sum of one ledger account's postings."""
        with self.engine.connect() as conn:
            value = conn.execute(
                select(func.coalesce(func.sum(postings.c.amount), 0)).where(
                    postings.c.account == account
                )
            ).scalar()
            return int(value or 0)

    # ----------------------------------------------------------------- progressive meters
    def meter(self, conn: Connection, meter: str, lock: bool = False) -> tuple[int, int]:
        """A meter's ``(version, amount)``; with ``lock``, its row locked until the caller's
        transaction ends (PostgreSQL ``SELECT ... FOR UPDATE``; SQLite's write transaction holds
        the database's one write lock from its BEGIN), so the amount read is the amount a
        payout in the same transaction takes from."""
        query = select(progressive_meters.c.version, progressive_meters.c.amount).where(
            progressive_meters.c.id == meter
        )
        row = conn.execute(query.with_for_update() if lock else query).first()
        if row is None:
            raise MeterShort(f"the progressive meter {meter[:64]!r} was never opened")
        return int(row[0]), int(row[1])

    def meters(self, conn: Connection) -> dict[str, dict[str, Any]]:
        """Every meter's row by id (``amount``, ``seed``, ``label``, ``version``)."""
        rows = conn.execute(select(progressive_meters)).mappings()
        return {str(r["id"]): dict(r) for r in rows}

    def open_meter(self, conn: Connection, meter: str, seed: int, label: str) -> bool:
        """Open a meter the database does not have: its row, then its seed funded by the house
        (``house`` -> ``progressive:<meter>``) in the same transaction.  Once: a meter already
        open is left as it is (False); the caller holds the lock that makes starters wait for
        each other (:meth:`migrate`'s), so two processes never both fund it."""
        if conn.execute(
            select(progressive_meters.c.id).where(progressive_meters.c.id == meter)
        ).first():
            return False
        conn.execute(
            insert(progressive_meters).values(
                id=meter, amount=0, seed=seed, label=label, version=0, updated_at=time.time()
            )
        )
        if seed:
            self.post(conn, f"{progressive_account(meter)}#open", [
                Posting(HOUSE_ACCOUNT, -seed, "progressive meter opened: its seed"),
                Posting(progressive_account(meter), seed, "progressive meter opened: its seed"),
            ])  # fmt: skip
        return True

    # ----------------------------------------------------------------- events
    def append_event(
        self,
        conn: Connection,
        round_id: str,
        seq: int,
        action: dict[str, Any],
        effects: list[dict[str, Any]],
        drawn: list[tuple[int, str]],
        actor: int | None,
        fence: tuple[str, str, str | None] | None = None,
    ) -> bool:
        """:meth:`append_events` of the one event ``seq``."""
        return self.append_events(conn, round_id, [(seq, action, effects, drawn)], actor, fence)

    def append_events(
        self,
        conn: Connection,
        round_id: str,
        events: Sequence[tuple[int, dict[str, Any], list[dict[str, Any]], list[tuple[int, str]]]],
        actor: int | None,
        fence: tuple[str, str, str | None] | None = None,
    ) -> bool:
        """Append events of a round, each (seq, action, effects, cards drawn), in one
        statement; a taken sequence number is a :class:`Conflict` (the caller's transaction is
        then rolled back whole, so no savepoint is needed).  With ``fence`` (table id, owner,
        new state or None), first move the table's version on once for each event (and write
        its state) only while ``owner`` holds it, as :func:`felt.server.host.fence` does, and
        write the events only if it did: False if not, nothing written.  On PostgreSQL the
        two are one statement (one round trip of the few an action costs)."""
        now = time.time()
        params = [x for seq, action, effects, drawn in events
                  for x in (round_id, seq, to_json(action), to_json(effects), to_json(drawn),
                            actor, now)]  # fmt: skip
        rows = len(events)
        try:
            if fence is None:
                hot(conn, "event", params, rows)
                return True
            table_id, owner, state = fence
            held = (rows, table_id, owner) if state is None else (rows, state, table_id, owner)
            if self.is_sqlite:
                if hot(conn, "fence" if state is None else "fence_state", held).rowcount != 1:
                    return False
                hot(conn, "event", params, rows)
                return True
            name = "fenced_event" if state is None else "fenced_state_event"
            return bool(hot(conn, name, (*held, *params), rows).rowcount == rows)
        except IntegrityError as err:
            seqs = ", ".join(str(e[0]) for e in events)
            raise Conflict(
                f"round {round_id}: event {seqs} was written by another process; reload the table"
            ) from err

    def open_round(
        self, conn: Connection, round_id: str, table_id: str, number: int, origin: Any
    ) -> None:
        """Record a round opened at a table: what it was made with besides its deck
        (``origin``), not finished."""
        hot(conn, "round", (round_id, table_id, number, to_json(origin), False, time.time()))

    def finish_round(self, conn: Connection, round_id: str, record: Any) -> None:
        """Record a round finished, with its full ``record`` (the replayable script and
        report)."""
        hot(conn, "round_finished", (True, time.time(), to_json(record), round_id))

    def add_round_player(self, conn: Connection, account_id: int, round_id: str) -> None:
        """Note that a player plays in a round (once, however many wagers)."""
        hot(conn, "round_player", (account_id, round_id, time.time()))

    def round_events_of(self, round_id: str) -> list[dict[str, Any]]:
        """A round's event rows in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(round_events)
                .where(round_events.c.round_id == round_id)
                .order_by(round_events.c.seq)
            ).mappings()
            return [dict(r) for r in rows]

    # ----------------------------------------------------------------- idempotency
    def remembered(self, conn: Connection, account_id: int, key: str) -> tuple[str, str] | None:
        """The (request digest, response) stored under an idempotency key, if any."""
        row = hot(conn, "remembered", (account_id, key)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def answered(
        self, conn: Connection, account_id: int, key: str, request: str
    ) -> dict[str, Any] | None:
        """The answer already given under an idempotency key, marked ``replayed`` (None if the
        key is new); the key reused for another request is a :class:`Conflict`."""
        return self.answer_of(self.remembered(conn, account_id, key), key, request)

    def answer_of(
        self, seen: tuple[str, str] | None, key: str, request: str
    ) -> dict[str, Any] | None:
        """:meth:`answered` of the (request digest, response) read under ``key``, if any."""
        if seen is None:
            return None
        if seen[0] != request:
            raise Conflict(f"idempotency key {key[:40]!r} was used for another request")
        return {**json.loads(seen[1]), "replayed": True}

    def remember(
        self, conn: Connection, account_id: int, key: str, request: str, response: str
    ) -> None:
        """Store the answer given under an idempotency key; a key another transaction stored
        first (the same key sent twice at once) is a :class:`Conflict`, and the caller's
        transaction is rolled back whole (the primary key refuses the second; no savepoint)."""
        try:
            hot(conn, "remember", (account_id, key, request, response, time.time()))
        except IntegrityError as err:
            raise Conflict(f"idempotency key {key[:40]!r} was used at the same time") from err
