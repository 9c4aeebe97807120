"""Two ``felt serve`` processes on one PostgreSQL schema: each table is run by exactly one of
them, the other answers 421 naming it, the processes share the tables fairly, and when one is
killed with SIGKILL the other takes its tables over and the open round goes on exactly."""

from __future__ import annotations

import json
import math
import secrets
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from felt.server.store import (
    accounts,
    felt_tables,
    nodes,
    player_account,
    postings,
    sqlalchemy_url,
)
from tests.server_helpers import ADMIN_PASSWORD, postgres_schema_url
from tests.server_process import ServeProcess

LEASE = 2.0
TABLES = ("b5-1", "b5-2", "b5-3", "dds-1")

TABLES_TOML = "".join(
    f"""
[[table]]
id = "{tid}"
game = "{"double-down-stud" if tid.startswith("dds") else "boston5"}"
pace_seconds = 0
betting_seconds = 0.3
between_rounds_seconds = 0.5
[table.settings]
decision_seconds = 60
"""
    for tid in TABLES
)


def _until(test: Callable[[], Any], seconds: float, what: str) -> Any:
    end = time.monotonic() + seconds
    while True:
        got = test()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@dataclass
class Player:
    """A logged-in account speaking HTTP to whichever process it is pointed at."""

    token: str

    def call(self, node: str, method: str, path: str, body: Any = None) -> httpx.Response:
        return httpx.request(
            method,
            f"http://{node}{path}",
            json=body,
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
        )


def _login(node: str, name: str, password: str) -> Player:
    r = httpx.post(f"http://{node}/api/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return Player(r.json()["token"])


@contextmanager
def _pair(
    url: str, tmp_path: Path, toml: str, count: int
) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    """Two processes on ``url`` running the tables of ``toml``, the second started once the
    first holds all ``count`` of them."""
    tables = tmp_path / "tables.toml"
    tables.write_text(toml)
    lease = ["--lease-seconds", str(LEASE)]
    a = ServeProcess(url, tables, tmp_path / "a.log", ADMIN_PASSWORD, lease)
    b = ServeProcess(url, tables, tmp_path / "b.log", ADMIN_PASSWORD, lease)
    try:
        a.start()
        _until(partial(_holds, url, a.name, count), 20, "a to hold every table")
        b.start()
        yield a, b
    finally:
        a.stop()
        b.stop()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, ServeProcess, ServeProcess]]:
    """Two processes on one fresh PostgreSQL schema, the second started once the first holds
    every table."""
    for url in postgres_schema_url():
        with _pair(url, tmp_path, TABLES_TOML, len(TABLES)) as (a, b):
            yield url, a, b


def _owners(url: str) -> dict[str | None, set[str]]:
    """The tables each node holds by the record, its heartbeat (the lease) unexpired."""
    engine = create_engine(sqlalchemy_url(url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(felt_tables.c.id, felt_tables.c.owner)).all()
            live = {
                n
                for (n,) in conn.execute(
                    select(nodes.c.name).where(nodes.c.lease_until >= time.time())
                )
            }
    finally:
        engine.dispose()
    out: dict[str | None, set[str]] = {}
    for r in rows:
        out.setdefault(r.owner if r.owner in live else None, set()).add(r.id)
    return out


def _holds(url: str, node: str, count: int) -> bool:
    """Whether ``node`` holds ``count`` tables."""
    return len(_owners(url).get(node, ())) == count


def _runner(table: str, processes: list[ServeProcess], admin: Player) -> str | None:
    """The one node that serves ``table``, checked by asking every node: exactly one answers
    with the table, each other answers 421 naming it."""
    serving, named = [], set()
    for node in processes:
        r = admin.call(node.name, "GET", f"/api/tables/{table}")
        if r.status_code == 200:
            serving.append(node.name)
        else:
            assert r.status_code == 421, r.text
            named.add(r.json().get("owner"))
    if len(serving) != 1 or named - set(serving):
        return None  # a table changing hands: ask again
    return serving[0]


def _mine(view: dict[str, Any], seat: int) -> dict[str, Any]:
    return dict(view.get("mine", {}).get(str(seat)) or {})


def _view(player: Player, node: str, table: str) -> dict[str, Any]:
    r = player.call(node, "GET", f"/api/tables/{table}")
    return dict(r.json()) if r.status_code == 200 else {}


def _view_when(player: Player, node: str, table: str, key: str) -> dict[str, Any] | None:
    """The player's view of seat 2 once it has ``key`` (pending elections, statement lines)."""
    view = _view(player, node, table)
    return view if _mine(view, 2).get(key) else None


def test_each_table_has_one_process_and_a_new_process_takes_its_fair_share(
    cluster: tuple[str, ServeProcess, ServeProcess],
) -> None:
    url, a, b = cluster
    share = math.ceil(len(TABLES) / 2)
    _until(partial(_holds, url, b.name, share), 10 * LEASE, "b to take its share")
    owners = _owners(url)
    assert owners[a.name] | owners[b.name] == set(TABLES)
    assert owners[a.name].isdisjoint(owners[b.name])
    assert len(owners[a.name]) == share
    admin = _login(a.name, "admin", ADMIN_PASSWORD)
    for table in TABLES:
        runner = _until(partial(_runner, table, [a, b], admin), 5, f"one runner of {table}")
        assert table in owners[runner]


def test_a_client_follows_the_owner_and_play_survives_sigkill_of_its_process(
    cluster: tuple[str, ServeProcess, ServeProcess],
) -> None:
    url, a, b = cluster
    processes = {a.name: a, b.name: b}
    _until(partial(_holds, url, b.name, math.ceil(len(TABLES) / 2)), 10 * LEASE, "b's share")
    admin = _login(a.name, "admin", ADMIN_PASSWORD)
    for name, role in (("ann", "player"), ("cage", "cashier")):
        body = {"name": name, "role": role, "password": f"{name}-password"}
        assert admin.call(b.name, "POST", "/api/accounts", body).status_code == 200
    cage = _login(b.name, "cage", "cage-password")
    deposit = {"player": "ann", "amount": "100.00", "key": secrets.token_hex(8)}
    assert cage.call(a.name, "POST", "/api/cashier/deposit", deposit).status_code == 200
    ann = _login(a.name, "ann", "ann-password")

    table = "b5-1"
    runner = _until(partial(_runner, table, [a, b], admin), 5, "b5-1's runner")
    other = b.name if runner == a.name else a.name
    refused = ann.call(other, "POST", f"/api/tables/{table}/sit", {"seat": 2})
    assert refused.status_code == 421
    assert refused.json()["owner"] == runner
    there = refused.json()["owner"]
    assert ann.call(there, "POST", f"/api/tables/{table}/sit", {"seat": 2}).status_code == 200
    _until(lambda: _mine(_view(ann, there, table), 2).get("phase") == "betting", 20, "betting")
    wager = {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"}
    r = ann.call(there, "POST", f"/api/tables/{table}/actions", {"action": wager, "key": "w1"})
    assert r.status_code == 200, r.text
    before = _until(lambda: _view_when(ann, there, table, "pending"), 20, "ann's election")

    processes[there].stop(signal.SIGKILL)
    killed = time.monotonic()
    after = _until(
        lambda: _view(ann, other, table) or None, 6 * LEASE, f"{other} to take {table} over"
    )
    assert time.monotonic() - killed < 6 * LEASE
    assert after["round"] == before["round"]
    assert after["mine"] == before["mine"]
    _until(partial(_holds, url, other, len(TABLES)), 6 * LEASE, f"{other} to hold every table")

    second = {"action": "second", "seat": 2}
    r = ann.call(other, "POST", f"/api/tables/{table}/actions", {"action": second, "key": "s1"})
    assert r.status_code == 200, r.text
    done = _until(lambda: _view_when(ann, other, table, "lines"), 20, "settlement")
    assert done["round"] == before["round"]
    assert _mine(done, 2)["own_cards"][:3] == _mine(before, 2)["own_cards"]
    assert _mine(done, 2)["lines"]
    _books_balance(url, ann, other)


def _books_balance(url: str, ann: Player, node: str) -> None:
    """Money sums to zero; every wallet equals its ledger rows; ann's balance is what her
    statement lines say."""
    engine = create_engine(sqlalchemy_url(url))
    try:
        with engine.connect() as conn:
            assert conn.execute(select(func.coalesce(func.sum(postings.c.amount), 0))).scalar() == 0
            for aid, balance in conn.execute(select(accounts.c.id, accounts.c.balance)):
                rows = conn.execute(
                    select(func.coalesce(func.sum(postings.c.amount), 0)).where(
                        postings.c.account == player_account(aid)
                    )
                ).scalar()
                assert rows == balance
    finally:
        engine.dispose()
    me = ann.call(node, "GET", "/api/me").json()
    recall = ann.call(node, "GET", "/api/recall").json()
    lines = recall[0]["seats"]["2"]["lines"]
    net = sum(round(float(x["amount"]) * 100) for x in lines)
    assert round(float(me["balance"]) * 100) == 10000 + net, json.dumps(recall)[:500]


KENO_TOML = """
[[table]]
id = "b5-1"
game = "boston5"
pace_seconds = 0
betting_seconds = 0.3
between_rounds_seconds = 0.5

[[keno]]
id = "keno-1"
rate_card = "example"
stations = [1, 2]
game_seconds = 4
draw_seconds = 0.2
between_games_seconds = 0.5
"""


def _keno_runner(processes: list[ServeProcess]) -> str | None:
    """The one node that runs keno-1 (its public status answers there; 421 elsewhere)."""
    serving = []
    for node in processes:
        r = httpx.get(f"http://{node.name}/api/keno/keno-1", timeout=5)
        if r.status_code == 200:
            serving.append(node.name)
        else:
            assert r.status_code == 421, r.text
    return serving[0] if len(serving) == 1 else None


def _keno_status(node: str) -> dict[str, Any] | None:
    """keno-1's public status at ``node``, if that node runs it."""
    r = httpx.get(f"http://{node}/api/keno/keno-1", timeout=5)
    return dict(r.json()) if r.status_code == 200 else None


def test_a_keno_system_is_taken_over_from_the_record_after_sigkill(tmp_path: Path) -> None:
    """A keno system is leased as a table is: when its process is killed the other process
    takes it over from the event store, every ticket issued is there, its schedule goes on
    with the next game, and ticket numbers run on without a gap (19:47-15.4(c), 15.5(b))."""
    for url in postgres_schema_url():
        with _pair(url, tmp_path, KENO_TOML, 2) as (a, b):
            _until(partial(_holds, url, b.name, 1), 10 * LEASE, "b to take its share")
            admin = _login(a.name, "admin", ADMIN_PASSWORD)
            body = {"name": "kw", "role": "keno_writer", "password": "kw-password"}
            assert admin.call(a.name, "POST", "/api/accounts", body).status_code == 200
            runner = _until(partial(_keno_runner, [a, b]), 10, "keno-1's runner")
            other = b if runner == a.name else a
            writer = _login(runner, "kw", "kw-password")

            def issue(node: str, writer: Player = writer) -> dict[str, Any] | None:
                request = {"numbers": [7], "rate": "1.00"}
                action = {"action": "issue", "station": 1, "request": request}
                body = {"action": action, "key": secrets.token_hex(8)}
                r = writer.call(node, "POST", "/api/keno/keno-1/actions", body)
                return dict(r.json()["ticket"]) if r.status_code == 200 else None

            first = _until(partial(issue, runner), 20, "a ticket issued")
            (a if runner == a.name else b).stop(signal.SIGKILL)
            killed = time.monotonic()
            status = _until(partial(_keno_status, other.name), 6 * LEASE, "the takeover")
            assert time.monotonic() - killed < 6 * LEASE
            kept = writer.call(other.name, "GET", f"/api/keno/keno-1/tickets/{first['number']}")
            assert kept.status_code == 200, kept.text
            assert kept.json()["items"] == first["items"]
            game = int(first["items"]["5 first and last game"].split()[0])

            def drawn(node: str = other.name, game: int = game) -> bool:
                board = (_keno_status(node) or {}).get("board")
                return board is not None and board["game"] >= game

            _until(drawn, 30, "the ticket's game drawn after the takeover")
            second = _until(partial(issue, other.name), 30, "a ticket issued after the takeover")
            assert second["number"] == first["number"] + 1
            assert status["system"] == "keno-1"
            engine = create_engine(sqlalchemy_url(url))
            try:
                with engine.connect() as conn:
                    total = conn.execute(select(func.coalesce(func.sum(postings.c.amount), 0)))
                    assert total.scalar() == 0
            finally:
                engine.dispose()


@pytest.mark.parametrize("value", ["0.5", "3601", "nan", "-1"])
def test_lease_seconds_out_of_bounds_is_a_clear_error(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from felt.cli.main import main

    assert main(["serve", "--lease-seconds", value, "--database", "sqlite:///unused.db"]) == 2
    assert "--lease-seconds must be 1 to 3600" in capsys.readouterr().err
