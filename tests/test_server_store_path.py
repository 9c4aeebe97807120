"""The store path of a player action (issue 25): the connection pool holds a connection for
every thread the server runs without closing and reopening them; a WebSocket's action reads its
session and its key inside its own write transaction, and a session ended by any process, or a
locked account, still refuses the next action."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, insert, select, text, update

from felt.games.boston.actions import PlaceWagers
from felt.server import auth
from felt.server import store as store_module
from felt.server.app import LOGIN_THREADS, WORKER_THREADS
from felt.server.auth import Account, AuthError, create_account, log_in
from felt.server.host import LeaseLost, TableHost, new_table_row
from felt.server.store import (
    POOL_SIZE,
    Conflict,
    InsufficientFunds,
    Posting,
    Store,
    accounts,
    felt_tables,
    player_account,
    round_events,
)
from tests.server_helpers import fast_specs


def test_the_pool_keeps_a_connection_for_every_server_thread() -> None:
    # the database threads, the log-in threads, the group commit's writer and the node hold
    assert POOL_SIZE >= WORKER_THREADS + LOGIN_THREADS + 2


def test_connections_are_opened_once_for_the_threads_that_use_them(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'felt.db'}")
    opened: list[Any] = []
    event.listen(store.engine, "connect", lambda dbapi, _record: opened.append(dbapi))
    threads = WORKER_THREADS + LOGIN_THREADS
    together = threading.Barrier(threads, timeout=10)
    broken: list[BaseException] = []

    def use() -> None:
        try:
            for _ in range(3):  # all of them at once, three times over
                with store.engine.connect() as conn:
                    conn.execute(text("SELECT 1"))
                    together.wait()
        except BaseException as err:  # a thread left waiting for a connection: the pool's size
            broken.append(err)

    try:
        workers = [threading.Thread(target=use) for _ in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    finally:
        store.dispose()
    assert not broken
    assert len(opened) == threads  # each thread's connection opened once, PRAGMAs run once


@pytest.fixture
def table(database_url: str) -> Iterator[tuple[Store, TableHost]]:
    """A Boston 5 table with a round open, on each back end."""
    store = Store(database_url)
    store.migrate()
    try:
        spec = fast_specs()[0]
        with store.transaction() as conn:
            conn.execute(insert(felt_tables).values(**new_table_row(spec, "node-a")))
        host = TableHost(store, spec, "node-a")
        host.load()
        host.start_round()
        yield store, host
    finally:
        store.dispose()


def _player(store: Store, host: TableHost, name: str, seat: int) -> tuple[str, Account]:
    create_account(store, name, "player", f"{name}-password")
    token, who = log_in(store, name, f"{name}-password")
    with store.transaction() as conn:
        store.post(conn, f"cash:{who.id}", [Posting("cage", -10000, "deposit"),
                                            Posting(player_account(who.id), 10000, "deposit")])  # fmt: skip
    host.sit(who, seat)
    return token, who


def test_a_sockets_action_reads_its_session_and_key_in_its_own_write(
    table: tuple[Store, TableHost],
) -> None:
    store, host = table
    token, ann = _player(store, host, "ann", 2)
    checkouts: list[Any] = []
    event.listen(store.engine, "checkout", lambda *_args: checkouts.append(1))
    ack = host.apply_now(PlaceWagers(2, ante=500, first=1000), ann, "k1", "d1", token)
    assert ack["seq"] == 1
    # one transaction: no connection of its own for the session and the key (SQLite's group
    # commit keeps its writer's connection; PostgreSQL takes one for the write)
    assert len(checkouts) == (0 if store.is_sqlite else 1)
    again = host.apply_now(PlaceWagers(2, ante=500, first=1000), ann, "k1", "d1", token)
    assert again == {**ack, "replayed": True}
    with pytest.raises(Conflict, match="another request"):
        host.apply_now(PlaceWagers(2, ante=500, first=1000), ann, "k1", "d2", token)


def test_a_session_ended_by_another_process_refuses_the_next_action(
    table: tuple[Store, TableHost],
) -> None:
    store, host = table
    token, ann = _player(store, host, "ann", 2)
    other = Store(store.url)  # another server process on the same database
    try:
        auth.log_out(other, token)
    finally:
        other.dispose()
    with pytest.raises(AuthError, match="not valid"):
        host.apply_now(PlaceWagers(2, ante=500, first=1000), ann, "k1", "d1", token)
    assert host.round is not None
    assert not host.round.events  # nothing was written, nothing applied
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(round_events)).scalar() == 0


def test_a_locked_sessions_refused_action_is_a_401_not_the_tables_refusal(
    table: tuple[Store, TableHost],
) -> None:
    store, host = table
    token, ann = _player(store, host, "ann", 2)
    with store.transaction() as conn:
        conn.execute(update(accounts).where(accounts.c.id == ann.id).values(locked=True))
    with pytest.raises(AuthError, match="locked"):  # seat 3 is not ann's: refused either way
        host.apply_now(PlaceWagers(3, ante=500, first=1000), ann, "k1", "d1", token)
    with pytest.raises(AuthError, match="locked"):
        host.apply_now(PlaceWagers(2, ante=500, first=1000), ann, "k2", "d2", token)


def test_the_drivers_own_statements_refuse_as_sqlalchemys_did(
    table: tuple[Store, TableHost],
) -> None:
    store, host = table
    _token, ann = _player(store, host, "ann", 2)
    rid = host.round_id
    assert rid is not None
    with store.transaction() as conn:
        store.append_event(conn, rid, 1, {"name": "x"}, [], [], ann.id)
    with (
        pytest.raises(Conflict, match="event 1 was written by another process"),
        store.transaction() as conn,
    ):
        store.append_event(conn, rid, 1, {"name": "y"}, [], [], ann.id)
    over = [Posting(player_account(ann.id), -10001, "wager"), Posting("layout:b5", 10001, "wager")]
    with pytest.raises(InsufficientFunds), store.transaction() as conn:
        store.post(conn, "too-much", over)
    with store.transaction() as conn:
        store.remember(conn, ann.id, "k", "d", "{}")
    with pytest.raises(Conflict, match="used at the same time"), store.transaction() as conn:
        store.remember(conn, ann.id, "k", "d2", "{}")
    with store.engine.connect() as conn:
        assert store.balance(conn, ann.id) == 10000
        rows = conn.execute(select(round_events.c.seq, round_events.c.action)).all()
        assert [(r[0], json.loads(r[1])) for r in rows] == [(1, {"name": "x"})]


def test_a_postgresql_connection_closed_while_idle_is_replaced_before_use(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No ping on every checkout (a round trip per transaction), but a connection back in the
    pool past PING_IDLE_SECONDS is pinged and, found closed by the server, replaced."""
    if database_url.startswith("sqlite"):
        pytest.skip("a PostgreSQL pool's connections")
    store, killer = Store(database_url), Store(database_url)
    try:
        with store.engine.connect() as conn:
            pid = conn.execute(text("SELECT pg_backend_pid()")).scalar()
            conn.commit()
        with killer.engine.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
            conn.commit()
        monkeypatch.setattr(store_module, "PING_IDLE_SECONDS", 0.0)  # idle long enough
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT pg_backend_pid()")).scalar() != pid
    finally:
        killer.dispose()
        store.dispose()


def test_an_action_on_a_table_another_process_took_writes_nothing(
    table: tuple[Store, TableHost],
) -> None:
    store, host = table
    token, ann = _player(store, host, "ann", 2)
    with store.transaction() as conn:  # another process holds the table now
        conn.execute(update(felt_tables).where(felt_tables.c.id == "b5").values(owner="node-b"))
    with pytest.raises(LeaseLost, match="another server process"):
        host.apply_now(PlaceWagers(2, ante=500, first=1000), ann, "k1", "d1", token)
    assert host.round is not None
    assert not host.round.events
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(round_events)).scalar() == 0
        assert store.balance(conn, ann.id) == 10000


def test_a_fenced_event_is_written_only_while_the_table_is_held(
    table: tuple[Store, TableHost],
) -> None:
    store, host = table
    rid = host.round_id
    assert rid is not None
    with store.transaction() as conn:
        assert store.append_event(conn, rid, 1, {"name": "x"}, [], [], None, ("b5", "node-a", None))
    with pytest.raises(Conflict, match="event 1 was written"), store.transaction() as conn:
        store.append_event(conn, rid, 1, {"name": "y"}, [], [], None, ("b5", "node-a", '{"s": 1}'))
    with store.transaction() as conn:
        assert not store.append_event(conn, rid, 2, {"name": "z"}, [], [], None, ("b5", "x", None))
    with store.engine.connect() as conn:
        rows = conn.execute(select(round_events.c.seq)).all()
        assert [r[0] for r in rows] == [1]
        version = conn.execute(select(felt_tables.c.version)).scalar()
        state = conn.execute(select(felt_tables.c.state)).scalar()
    assert version == host.version + 1  # moved once: by the first event's fence alone
    assert state != '{"s": 1}'  # the refused write's state was rolled back with it


def test_a_chains_events_are_one_fenced_write_the_version_moved_once_for_each(
    table: tuple[Store, TableHost],
) -> None:
    """:meth:`Store.append_events` (a pace-0 table's dealer steps due at once): every event
    written and the version moved by their number, the state written, all only while the table
    is held; an event number taken refuses them all."""
    store, host = table
    rid = host.round_id
    assert rid is not None
    events = [(n, {"name": f"e{n}"}, [{"n": n}], [(n, "As")]) for n in (1, 2, 3)]
    with store.transaction() as conn:
        assert not store.append_events(conn, rid, events, None, ("b5", "x", '{"s": 0}'))
        assert store.append_events(conn, rid, events, None, ("b5", "node-a", '{"s": 3}'))
    later: list[tuple[int, dict[str, Any], list[dict[str, Any]], list[tuple[int, str]]]] = [
        (4, {"name": "e4"}, [], []),
        (3, {"name": "again"}, [], []),
    ]
    with pytest.raises(Conflict, match="event 4, 3 was written"), store.transaction() as conn:
        store.append_events(conn, rid, later, None, ("b5", "node-a", None))
    with store.engine.connect() as conn:
        rows = conn.execute(select(round_events).order_by(round_events.c.seq)).mappings().all()
        version = conn.execute(select(felt_tables.c.version)).scalar()
        state = conn.execute(select(felt_tables.c.state)).scalar()
    assert [(r["seq"], json.loads(r["action"]), json.loads(r["drawn"])) for r in rows] == [
        (n, {"name": f"e{n}"}, [[n, "As"]]) for n in (1, 2, 3)
    ]
    assert version == host.version + 3
    assert state == '{"s": 3}'


def test_postings_past_one_statements_rows_are_all_written_in_order(database_url: str) -> None:
    """An action's postings are written several rows a statement, at most
    ``POSTINGS_AT_ONCE`` (995 parameters, within SQLite's oldest limit of 999): a transaction
    with more than two statements' worth writes every row once, in order, summing to zero."""
    from sqlalchemy import func, select

    from felt.server.store import POSTINGS_AT_ONCE, Posting, postings

    assert POSTINGS_AT_ONCE * 5 <= 999
    store = Store(database_url)
    store.migrate()
    try:
        n = 2 * POSTINGS_AT_ONCE + 3
        entries = [Posting("house:a" if i % 2 else "house:b", 1 if i % 2 else -1, f"r{i}")
                   for i in range(n - 1)]  # fmt: skip
        entries.append(Posting("house:b", -sum(p.amount for p in entries), "last"))
        with store.transaction() as conn:
            store.post(conn, "txn-many", entries)
        with store.engine.connect() as conn:
            rows = conn.execute(
                select(postings.c.reason, postings.c.amount)
                .where(postings.c.txn == "txn-many")
                .order_by(postings.c.id)
            ).all()
            total = conn.execute(select(func.sum(postings.c.amount))).scalar()
        assert [r.reason for r in rows] == [p.reason for p in entries]
        assert total == 0
    finally:
        store.dispose()
