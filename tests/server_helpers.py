"""Shared set-up of the server tests: a fresh database on SQLite and on PostgreSQL, a server
with fast tables, and a client that logs in as each role.

PostgreSQL is read from ``FELT_POSTGRES_URL`` (default ``postgresql://127.0.0.1:5432/test``);
each test gets a schema of its own.  Under ``CI=true`` a PostgreSQL that cannot be reached is a
failure, elsewhere a skip.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from starlette.testclient import WebSocketTestSession

from felt.games.keno.spec import KenoSpec, example_rate_card_data
from felt.server.app import MAX_BODY, Server, create_app
from felt.server.auth import Account
from felt.server.host import TableHost
from felt.server.spec import TableSpec
from felt.server.store import Store, postings
from tests.server_process import Unreachable, scratch_schema

DDS = "double-down-stud"
CRASH_SUMMARIES = pytest.StashKey[list[str]]()
"""The summaries of the crash campaigns a test run made (tests/test_server_crash.py), printed at
the end of the run by tests/conftest.py."""
POSTGRES_URL = os.environ.get("FELT_POSTGRES_URL", "postgresql://127.0.0.1:5432/test")
ADMIN_PASSWORD = "admin-password"
os.environ["FELT_ADMIN_PASSWORD"] = ADMIN_PASSWORD


def postgres_schema_url() -> Iterator[str]:
    """A URL whose connections use a new, empty schema (dropped afterwards)."""
    try:
        with scratch_schema(POSTGRES_URL) as url:
            yield url
    except Unreachable as err:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL at {POSTGRES_URL} is required under CI=true: {err}")
        pytest.skip(str(err))


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database on each back end."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'felt.db'}"
    else:
        yield from postgres_schema_url()


def fast_specs(decision_seconds: int = 10, between: float = 1.5) -> list[TableSpec]:
    """A Boston 5 table and a Double Down Stud table that deal without waiting (a finished
    round stays in view ``between`` seconds)."""
    settings = {"decision_seconds": decision_seconds}
    return [
        TableSpec(
            "b5",
            "boston5",
            settings=settings,
            pace_seconds=0,
            betting_seconds=0.3,
            between_rounds_seconds=between,
        ),
        TableSpec(
            "dds",
            DDS,
            settings=settings,
            pace_seconds=0,
            betting_seconds=0.3,
            between_rounds_seconds=between,
        ),
    ]


def ledger_balances(store: Store) -> dict[str, int]:
    """Each ledger account's balance in cents (accounts at zero left out)."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(postings.c.account, func.sum(postings.c.amount)).group_by(postings.c.account)
        ).all()
    return {str(a): int(v) for a, v in rows if int(v)}


def keno_spec(system: str = "keno", **changes: Any) -> KenoSpec:
    """A keno system of two work stations on the example rate card whose games run fast: open
    ``game_seconds`` (1), drawn 0.05 s after the lock-out, the next opened 0.1 s after."""
    settings: dict[str, Any] = {"stations": (1, 2), "game_seconds": 1.0, "draw_seconds": 0.05,
                                "between_games_seconds": 0.1} | changes  # fmt: skip
    return KenoSpec(system, example_rate_card_data(), **settings)


@dataclass
class Harness:
    """A running server (in this process) and a client; log in as anyone."""

    client: httpx.Client
    """A TestClient (in process) or an httpx client of a server on loopback."""
    server: Server
    tokens: dict[str, str] = field(default_factory=dict)
    ws_url: str = ""

    def headers(self, name: str) -> dict[str, str]:
        """The Authorization header of ``name`` (logged in once)."""
        return {"Authorization": f"Bearer {self.tokens[name]}"}

    def login(self, name: str, password: str) -> None:
        """Log in and keep the token."""
        r = self.client.post("/api/login", json={"name": name, "password": password})
        assert r.status_code == 200, r.text
        self.tokens[name] = r.json()["token"]

    def account(self, name: str, role: str, deposit: str | None = None) -> None:
        """Open an account (as the supervisor), log in, and deposit (as a cashier)."""
        if "admin" not in self.tokens:
            self.login("admin", ADMIN_PASSWORD)
        password = f"{name}-password"
        r = self.client.post(
            "/api/accounts",
            json={"name": name, "role": role, "password": password},
            headers=self.headers("admin"),
        )
        assert r.status_code == 200, r.text
        self.login(name, password)
        if deposit is not None:
            if "cage" not in self.tokens:
                self.account("cage", "cashier")
            r = self.client.post(
                "/api/cashier/deposit",
                json={"player": name, "amount": deposit, "key": secrets.token_hex(8)},
                headers=self.headers("cage"),
            )
            assert r.status_code == 200, r.text

    def post(self, name: str, path: str, body: dict[str, Any]) -> Any:
        """POST as ``name``; returns the response."""
        return self.client.post(path, json=body, headers=self.headers(name))

    def get(self, name: str, path: str) -> Any:
        """GET as ``name``; returns the response."""
        return self.client.get(path, headers=self.headers(name))

    def socket(self) -> WebSocketTestSession:
        """A WebSocket to the in-process server (a harness of :func:`harness`)."""
        assert isinstance(self.client, TestClient)
        return self.client.websocket_connect("/api/ws")

    def act(self, name: str, table: str, action: dict[str, Any], key: str | None = None) -> Any:
        """Send an action with a fresh (or the given) idempotency key."""
        return self.post(
            name,
            f"/api/tables/{table}/actions",
            {"action": action, "key": key or secrets.token_hex(8)},
        )

    def keno(self, name: str, action: dict[str, Any], key: str | None = None,
             system: str = "keno") -> Any:  # fmt: skip
        """Send a keno action with a fresh (or the given) idempotency key."""
        body = {"action": action, "key": key or secrets.token_hex(8)}
        return self.post(name, f"/api/keno/{system}/actions", body)

    def keno_wait(self, test: Any, seconds: float = 15.0, system: str = "keno") -> dict[str, Any]:
        """Poll the public status of a keno system until ``test(status)`` holds."""
        end = time.monotonic() + seconds
        while True:
            status = self.client.get(f"/api/keno/{system}").json()
            if test(status):
                return dict(status)
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting; last status {status}")
            time.sleep(0.02)

    def wait_for(self, name: str, table: str, test: Any, seconds: float = 15.0) -> dict[str, Any]:
        """Poll ``name``'s view of ``table`` until ``test(view)`` holds."""
        end = time.monotonic() + seconds
        while True:
            view = self.get(name, f"/api/tables/{table}").json()
            if test(view):
                return dict(view)
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting; last view {view}")
            time.sleep(0.05)


def harness(
    url: str, specs: Sequence[TableSpec | KenoSpec] | None = None, node: str = "node-a"
) -> Iterator[Harness]:
    """A server on ``url`` with ``specs`` (default: :func:`fast_specs`), running until the
    caller's block ends."""
    server = Server(Store(url), specs or fast_specs(), node)
    with TestClient(create_app(server)) as client:
        yield Harness(client, server)


@contextlib.contextmanager
def live_server(
    url: str, specs: Sequence[TableSpec | KenoSpec], node: str = "node-a"
) -> Iterator[Harness]:
    """A real ``felt serve`` (uvicorn, as serve.py runs it) on a free loopback port, in a thread
    of this process; the harness's client talks HTTP to it, and ``ws_url`` is its WebSocket."""
    server = Server(Store(url), specs, node)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        create_app(server), log_level="warning", ws_max_size=MAX_BODY, lifespan="on"
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not running.started:
        if not thread.is_alive() or time.monotonic() > end:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            yield Harness(client, server, ws_url=f"ws://127.0.0.1:{port}/api/ws")
    finally:
        running.should_exit = True
        thread.join(30)
        sock.close()


@contextlib.contextmanager
def one_table(
    url: str, spec: TableSpec, deposit: int
) -> Iterator[tuple[Store, TableHost, list[Account]]]:
    """A migrated store with the one table ``spec``, the players ann and bob funded with
    ``deposit`` cents each and seated at 1 and 2, a dealer ``deal``, and the table's host loaded
    with its first round open: (store, host, [ann, bob, deal])."""
    from sqlalchemy import insert

    from felt.server.auth import create_account
    from felt.server.host import new_table_row
    from felt.server.store import Posting, felt_tables, player_account

    store = Store(url)
    store.migrate()
    try:
        with store.transaction() as conn:
            conn.execute(insert(felt_tables).values(**new_table_row(spec, "node-a")))
        people = [create_account(store, n, r, f"{n}-password-x")
                  for n, r in (("ann", "player"), ("bob", "player"), ("deal", "dealer"))]  # fmt: skip
        with store.transaction() as conn:
            for who in people[:2]:
                store.post(conn, f"cash:{who.id}", [Posting("cage", -deposit, "deposit"),
                                                    Posting(player_account(who.id), deposit, "deposit")])  # fmt: skip
        host = TableHost(store, spec, "node-a")
        host.load()
        host.sit(people[0], 1)
        host.sit(people[1], 2)
        host.start_round()
        yield store, host, people
    finally:
        store.dispose()
