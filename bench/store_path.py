"""The store path of one player action (issue 25, target 1): CPU per action of felt's store code
exactly as the server runs it for a WebSocket wager in the middle of a round (the sender's
session and the key's answer checked, the table's version fenced, the event appended, the
wallet moved and its two postings written, the round's player noted, the key's answer stored,
one durable commit), beside the SAME statements sent through the bare driver (``sqlite3`` /
``psycopg``, one connection, one transaction per action, its SQL written by hand: on PostgreSQL
the fence and the event in one statement and, on both, the two postings in one, as felt sends
them) in the same
run, on SQLite (a file, WAL, ``synchronous=FULL``) and on PostgreSQL (a scratch schema, dropped
after).  The two paths take turns in blocks on one database, so both see the same machine load
and the same table sizes; CPU is the process's (``time.process_time``: user and system, so
SQLite's own work and its fsync calls count on both sides; PostgreSQL's server CPU is not in
either).  Printed: CPU per action of each path, their ratio (target <= 2x), the wall time per
action, and the load average.  Run with ``./dev bench store_path`` (``--help``)."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import insert

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' database helpers
from felt.server.auth import Account, session_and_key
from felt.server.host import request_digest
from felt.server.store import (
    Posting,
    Store,
    accounts,
    felt_tables,
    layout_account,
    player_account,
    rounds,
    sessions,
)
from tests.server_process import fresh_database

POSTGRES_URL = os.environ.get("FELT_POSTGRES_URL", "postgresql://127.0.0.1:5432/test")
TABLE = "bench-1"
OWNER = "bench-node"
ACTION = {"name": "wager", "seat": 1, "wagers": {"ante": "5.00"}}
EFFECTS = [{"kind": "wager", "seat": 1, "cards": [], "amount": 500, "detail": "ante"}]


@dataclass
class Player:
    """One bench player: its account, session token and the round it plays."""

    account: Account
    token: str
    round_id: str
    seq: int = 0


def setup(store: Store, sides: list[str]) -> dict[str, Player]:
    """The schema, the table, and for each side a player with a session, money and a round."""
    store.migrate()
    now = time.time()
    out: dict[str, Player] = {}
    with store.transaction() as conn:
        conn.execute(
            insert(felt_tables).values(
                id=TABLE, spec="{}", state="{}", version=0, owner=OWNER, lease_until=0.0
            )
        )
        for i, side in enumerate(sides):
            name = f"bench-{side}"
            aid = conn.execute(
                insert(accounts)
                .values(name=name, role="player", password_hash="x", failed_logins=0,
                        locked=False, balance=10**15, created_at=now)
                .returning(accounts.c.id)
            ).scalar_one()  # fmt: skip
            token = f"token-{side}-{i}"
            conn.execute(
                insert(sessions).values(
                    token_hash=hashlib.sha256(token.encode()).hexdigest(),
                    account_id=aid, created_at=now, expires_at=now + 10**6,
                )
            )  # fmt: skip
            rid = f"{TABLE}:{i + 1}"
            conn.execute(
                insert(rounds).values(
                    id=rid, table_id=TABLE, number=i + 1, origin="{}", finished=False,
                    started_at=now,
                )
            )  # fmt: skip
            out[side] = Player(Account(int(aid), name, "player"), token, rid)
    return out


def request_of(p: Player) -> tuple[str, str, dict[str, Any]]:
    """The next action's key, request digest and acknowledgement."""
    p.seq += 1
    key = f"k{p.seq}"
    digest = request_digest({"table": TABLE, "action": ACTION})
    return key, digest, {"table": TABLE, "round": p.round_id, "seq": p.seq, "action": "wager"}


def entries_of(p: Player) -> list[Posting]:
    return [
        Posting(player_account(p.account.id), -500, "wager: ante"),
        Posting(layout_account(TABLE), 500, "wager: ante"),
    ]


def felt_action(store: Store, p: Player) -> None:
    """One action through felt's store code, as :meth:`TableHost.apply_now` and
    :meth:`TableHost._write` run it for a wager (no state change, no meter, round unfinished)."""
    key, digest, ack = request_of(p)
    with store.transaction() as conn:
        who, seen = session_and_key(conn, p.token, key)  # TableHost._sender
        assert seen is None
        fenced = (TABLE, OWNER, None)  # the table's fence with the event, as TableHost._write
        assert store.append_event(conn, p.round_id, p.seq, ACTION, EFFECTS, [], who.id, fenced)
        store.post(conn, f"{p.round_id}#{p.seq}", entries_of(p))
        store.add_round_player(conn, who.id, p.round_id)
        store.remember(conn, who.id, key, digest, json.dumps(ack))


SQL = {
    "session": "SELECT a.id, a.name, a.role, a.locked, a.must_change_password, a.retired_at, "
    "s.expires_at FROM accounts a JOIN sessions s ON s.account_id = a.id WHERE s.token_hash = ?",
    "answered": "SELECT request, response FROM idempotency WHERE account_id = ? AND key = ?",
    "fence": "UPDATE felt_tables SET version = version + 1 WHERE id = ? AND owner = ?",
    "event": "INSERT INTO round_events (round_id, seq, action, effects, drawn, actor, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)",
    "wallet": "UPDATE accounts SET balance = balance + ? WHERE id = ? AND balance + ? >= 0",
    "postings": "INSERT INTO postings (txn, account, amount, reason, at) VALUES (?, ?, ?, ?, ?), "
    "(?, ?, ?, ?, ?)",
    "player": "INSERT INTO round_players (account_id, round_id, started_at) VALUES (?, ?, ?) "
    "ON CONFLICT DO NOTHING",
    "remember": "INSERT INTO idempotency (account_id, key, request, response, at) "
    "VALUES (?, ?, ?, ?, ?)",
}

FENCED_EVENT = (
    "WITH fenced AS (UPDATE felt_tables SET version = version + 1 WHERE id = %s AND owner = %s "
    "RETURNING id) INSERT INTO round_events (round_id, seq, action, effects, drawn, actor, at) "
    "SELECT %s::text, %s::integer, %s::text, %s::text, %s::text, %s::integer, "
    "%s::double precision FROM fenced"
)


def bare_action(conn: Any, cur: Any, sql: dict[str, str], p: Player, token_hash: str) -> None:
    """The same statements through the bare driver: one transaction, committed."""
    key, digest, ack = request_of(p)
    now = time.time()
    aid = p.account.id
    if isinstance(conn, sqlite3.Connection):
        cur.execute("BEGIN IMMEDIATE")
    row = cur.execute(sql["session"], (token_hash,)).fetchone()
    assert row is not None
    assert not row[3]
    assert cur.execute(sql["answered"], (aid, key)).fetchone() is None
    event = (p.round_id, p.seq, json.dumps(ACTION), json.dumps(EFFECTS), "[]", aid, now)
    if isinstance(conn, sqlite3.Connection):
        cur.execute(sql["fence"], (TABLE, OWNER))
        assert cur.rowcount == 1
        cur.execute(sql["event"], event)
    else:  # PostgreSQL: the fence and the event in one statement, as felt sends them
        cur.execute(FENCED_EVENT, (TABLE, OWNER, *event))
        assert cur.rowcount == 1
    cur.execute(sql["wallet"], (-500, aid, -500))
    assert cur.rowcount == 1
    txn = f"{p.round_id}#{p.seq}"
    cur.execute(
        sql["postings"],
        [x for e in entries_of(p) for x in (txn, e.account, e.amount, e.reason, now)],
    )
    cur.execute(sql["player"], (aid, p.round_id, now))
    cur.execute(sql["remember"], (aid, key, digest, json.dumps(ack), now))
    conn.commit() if not isinstance(conn, sqlite3.Connection) else cur.execute("COMMIT")


def bare_connection(store: Store, url: str) -> tuple[Any, dict[str, str]]:
    """A bare driver connection to the bench's database, and the SQL in its parameter style."""
    if store.is_sqlite:
        path = store.engine.url.database
        assert path is not None
        conn = sqlite3.connect(path, timeout=30, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn, SQL
    import psycopg

    return psycopg.connect(url), {k: v.replace("?", "%s") for k, v in SQL.items()}


def timed(work: Callable[[], None], count: int) -> tuple[float, float]:
    """CPU and wall seconds of ``count`` calls of ``work``."""
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(count):
        work()
    return time.process_time() - c0, time.perf_counter() - w0


def run(backend: str, url: str, actions: int, block: int) -> None:
    store = Store(url)
    try:
        players = setup(store, ["felt", "bare"])
        conn, sql = bare_connection(store, url)
        cur = conn.cursor()
        fp, bp = players["felt"], players["bare"]
        token_hash = hashlib.sha256(bp.token.encode()).hexdigest()
        for _ in range(50):  # warm up both: caches, pools, the first pages
            felt_action(store, fp)
            bare_action(conn, cur, sql, bp, token_hash)
        cpu = {"felt": 0.0, "bare": 0.0}
        wall = {"felt": 0.0, "bare": 0.0}
        done = 0
        while done < actions:
            n = min(block, actions - done)
            for side, work in (
                ("felt", lambda: felt_action(store, fp)),
                ("bare", lambda: bare_action(conn, cur, sql, bp, token_hash)),
            ):
                c, w = timed(work, n)
                cpu[side] += c
                wall[side] += w
            done += n
        conn.close()
    finally:
        store.dispose()
    load = os.getloadavg()
    f_ms, b_ms = cpu["felt"] / actions * 1000, cpu["bare"] / actions * 1000
    print(
        f"{backend:<10}  felt store path {f_ms:6.3f} ms CPU/action "
        f"({wall['felt'] / actions * 1000:6.3f} ms wall)   "
        f"bare {'sqlite3' if store.is_sqlite else 'psycopg'} {b_ms:6.3f} ms CPU/action "
        f"({wall['bare'] / actions * 1000:6.3f} ms wall)   "
        f"ratio {f_ms / b_ms:5.2f}x   loadavg {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=2000, help="actions per path (2000)")
    parser.add_argument("--block", type=int, default=100, help="actions per turn (100)")
    parser.add_argument("--backends", default="sqlite,postgresql", help="(sqlite,postgresql)")
    args = parser.parse_args()
    if not 100 <= args.actions <= 1_000_000 or not 1 <= args.block <= args.actions:
        raise SystemExit("store_path: --actions must be 100 to 1000000, --block 1 to --actions")
    print(f"store path of one player action (a wager), {args.actions} actions per path, "
          f"felt's store code against the same statements through the bare driver, same run, "
          f"same database")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for backend in args.backends.split(","):
            if backend not in ("sqlite", "postgresql"):
                raise SystemExit(f"store_path: unknown back end {backend!r}")
            with fresh_database(backend, Path(tmp), POSTGRES_URL) as url:
                if url is not None:
                    run(backend, url, args.actions, args.block)


if __name__ == "__main__":
    main()
