"""Concurrency in the server.  SQLite's group commit (felt.server.store.GroupCommit): writers
that arrive while another is writing share its COMMIT, none returns before that COMMIT, a writer
that fails rolls back alone, and a failed COMMIT fails every writer of the group and keeps none
of their writes.  A WebSocket client's actions at different tables do not wait for each other."""

from __future__ import annotations

import asyncio
import gc
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, create_engine, insert, select, text
from sqlalchemy.exc import OperationalError

from felt.server import store as store_module
from felt.server.store import CommitFailed, GroupCommit, Store, nodes, sessions
from tests.server_helpers import Harness, harness


def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    """A migrated SQLite store on a file in ``tmp_path``, disposed afterwards."""
    s = Store(f"sqlite:///{tmp_path / 'felt.db'}")
    s.migrate()
    yield s
    s.dispose()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A migrated SQLite store."""
    yield from sqlite_store(tmp_path)


def _names(store: Store) -> set[str]:
    """The rows of ``nodes`` as a separate connection sees them: what is committed."""
    engine = create_engine(store.engine.url)
    try:
        with engine.connect() as conn:
            return {r[0] for r in conn.execute(select(nodes.c.name))}
    finally:
        engine.dispose()


def _add(conn: Connection, name: str) -> None:
    conn.execute(insert(nodes).values(name=name, lease_until=0.0))


def _second_writer_waits(store: Store) -> None:
    """Block (inside the first writer's turn) until another writer waits for its turn."""
    assert store.group is not None
    end = time.monotonic() + 10
    while store.group.waiting < 1:
        assert time.monotonic() < end, "the second writer never came"
        time.sleep(0.001)


def _two_writers(
    store: Store, first: Callable[[Connection], None], second: Callable[[Connection], None]
) -> dict[str, BaseException | set[str] | None]:
    """Run ``first`` and ``second`` as two writers, the second arriving during the first;
    returns each one's exception (None if it returned) and, for the first, what was committed
    the moment it returned."""
    out: dict[str, BaseException | set[str] | None] = {}

    def one() -> None:
        try:
            with store.transaction() as conn:
                first(conn)
                _second_writer_waits(store)
            out["seen by first"] = _names(store)
            out["first"] = None
        except BaseException as err:
            out["first"] = err

    def two() -> None:
        try:
            with store.transaction() as conn:
                second(conn)
            out["second"] = None
        except BaseException as err:
            out["second"] = err

    a = threading.Thread(target=one)
    a.start()
    assert store.group is not None
    end = time.monotonic() + 10
    while store.group.batch is None:  # the first writer holds its turn
        assert time.monotonic() < end, "the first writer never took its turn"
        time.sleep(0.001)
    b = threading.Thread(target=two)
    b.start()
    a.join(20)
    b.join(20)
    return out


def test_writers_arriving_together_share_one_commit_and_return_after_it(store: Store) -> None:
    before = store.commits
    out = _two_writers(store, lambda c: _add(c, "a"), lambda c: _add(c, "b"))
    assert out["first"] is None
    assert out["second"] is None
    assert store.commits - before == 1
    assert out["seen by first"] == {"a", "b"}  # the first returned only once both were on disk
    assert _names(store) == {"a", "b"}
    assert store.group is not None
    timed = store.group.timings.reading()
    assert timed["count"] == store.commits  # each COMMIT timed (and none that was not one)


def test_a_failing_writer_rolls_back_alone(store: Store) -> None:
    def fails(conn: Connection) -> None:
        _add(conn, "a")
        _second_writer_waits(store)  # fail only once the second writer is queued behind
        raise ValueError("refused")

    out = _two_writers(store, fails, lambda c: _add(c, "b"))
    assert isinstance(out["first"], ValueError)
    assert out["second"] is None
    assert _names(store) == {"b"}


def test_a_failed_commit_fails_every_writer_of_the_group(store: Store) -> None:
    def breaks_the_commit(conn: Connection) -> None:
        # A session of no account, its foreign key checked only at COMMIT.
        conn.execute(text("PRAGMA defer_foreign_keys = ON"))
        conn.execute(
            insert(sessions).values(token_hash="x", account_id=999, created_at=0, expires_at=0)
        )

    out = _two_writers(store, lambda c: _add(c, "a"), breaks_the_commit)
    assert isinstance(out["first"], CommitFailed)
    assert isinstance(out["second"], CommitFailed)
    assert _names(store) == set()
    with store.transaction() as conn:  # and the store writes again afterwards
        _add(conn, "c")
    assert _names(store) == {"c"}


def test_many_threads_lose_no_write(store: Store) -> None:
    def writer(i: int) -> None:
        for j in range(20):
            with store.transaction() as conn:
                _add(conn, f"{i}-{j}")

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert _names(store) == {f"{i}-{j}" for i in range(8) for j in range(20)}
    assert store.commits <= 160 + 1  # the migration's own writes are not counted here


def test_checkpoints_run_beside_the_writers_not_in_their_commit(store: Store) -> None:
    with store.transaction() as conn:
        _add(conn, "first")
    group = store.group
    assert group is not None
    assert group.conn is not None
    raw = group.conn.connection.driver_connection
    assert raw is not None
    assert raw.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0  # none in a COMMIT
    for i in range(50):
        with store.transaction() as conn:
            _add(conn, f"n{i}")
    end = time.monotonic() + 20
    while not group.checkpoint_timings.count:  # the checkpointer's thread copies the log in
        assert time.monotonic() < end, "no checkpoint ran"
        time.sleep(0.05)
    thread = group._checkpointer
    assert thread is not None
    assert thread.is_alive()
    store.dispose()
    assert not thread.is_alive()  # stopped with the store


def test_a_store_nobody_closed_ends_its_checkpointer(tmp_path: Path) -> None:
    """The checkpointer holds its store only while a round runs, so a store dropped without
    dispose() is collected and its thread ends (tests and tools make many stores)."""
    s = Store(f"sqlite:///{tmp_path / 'felt.db'}")
    s.migrate()
    with s.transaction() as conn:
        _add(conn, "first")
    assert s.group is not None
    thread = s.group._checkpointer
    assert thread is not None
    assert thread.is_alive()
    del s, conn
    gc.collect()
    thread.join(5 * GroupCommit.CHECKPOINT_SECONDS)
    assert not thread.is_alive()


def test_a_database_in_memory_keeps_sqlites_own_checkpoints() -> None:
    s = Store("sqlite://")
    try:
        s.migrate()
        with s.transaction() as conn:
            _add(conn, "first")
        assert s.group is not None
        assert s.group.auto_checkpoints
        assert s.group._checkpointer is None
    finally:
        s.dispose()


def test_failing_checkpoints_are_logged_and_give_sqlite_its_own_back(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A checkpoint that keeps failing must not let the log grow unseen: the first failure is
    logged, and after GIVE_UP in a row the writers' connection checkpoints in its COMMIT again."""
    with store.transaction() as conn:
        _add(conn, "first")
    group = store.group
    assert group is not None
    assert group.conn is not None
    raw = group.conn.connection.driver_connection
    assert raw is not None

    def fail(_conn: Connection) -> int:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(group, "_checkpoint", fail)
    with caplog.at_level(logging.WARNING, logger="felt.server"):
        for _ in range(GroupCommit.GIVE_UP):
            assert raw.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
            group.commits += 1  # a commit came since the last round
            assert group._checkpoint_round(-1) == -1
    assert [r.levelno for r in caplog.records] == [logging.WARNING, logging.ERROR]
    assert group.auto_checkpoints
    assert raw.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000


# Issue 25 made the group commit cheaper: a group's first writer runs without a savepoint of its
# own, each later one in its own; a writer waits for the group's commit on a lock of its
# thread's, made once and reused, not on a new Event per group; the writers waiting for the turn
# are counted without a lock; each group's BEGIN and COMMIT go through the driver.  None of it
# may let a writer return before its group's COMMIT, or let one writer's failure take another's
# writes.


def test_a_later_writer_that_fails_rolls_back_alone(store: Store) -> None:
    """The second writer of a group (in a savepoint) fails: the first's write is committed."""

    def fails(conn: Connection) -> None:
        _add(conn, "b")
        raise ValueError("refused")

    out = _two_writers(store, lambda c: _add(c, "a"), fails)
    assert out["first"] is None
    assert isinstance(out["second"], ValueError)
    assert _names(store) == {"a"}
    with store.transaction() as conn:  # and the store writes on
        _add(conn, "c")
    assert _names(store) == {"a", "c"}


def test_a_lone_writer_that_fails_leaves_nothing_and_the_next_writes(store: Store) -> None:
    """A group's first writer has no savepoint: its failure rolls the transaction back."""

    def refused() -> None:
        with store.transaction() as conn:
            _add(conn, "a")
            raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        refused()
    assert store.group is not None
    assert store.group.batch is None  # no transaction left open
    with store.transaction() as conn:
        _add(conn, "b")
    assert _names(store) == {"b"}


def test_a_writer_whose_last_wait_was_cut_short_still_waits_for_the_commit(store: Store) -> None:
    """A waker left unlocked (a wait interrupted after its group ended) must not let the
    thread's next wait return before its own group's COMMIT."""
    out: dict[str, object] = {}

    def first(conn: Connection) -> None:
        store_module._waker().release()  # as if a wait of this thread had been cut short
        _add(conn, "a")
        _second_writer_waits(store)

    def second(conn: Connection) -> None:
        _add(conn, "b")
        time.sleep(0.3)  # the first, if it did not wait, returns meanwhile
        out["second done"] = True

    got = _two_writers(store, first, second)
    assert got["first"] is None
    assert got["second"] is None
    assert got["seen by first"] == {"a", "b"}
    assert _names(store) == {"a", "b"}
    assert out["second done"]


def test_a_writer_that_waited_keeps_its_waker_locked_for_the_next_wait(store: Store) -> None:
    """The waker is made once per thread and is locked again after each wait."""
    wakers: list[threading.Lock] = []

    def first(conn: Connection) -> None:
        wakers.append(store_module._waker())
        _add(conn, "a")
        _second_writer_waits(store)

    got = _two_writers(store, first, lambda c: _add(c, "b"))
    assert got["first"] is None
    assert got["second"] is None
    assert wakers[0].locked()  # taken back by its wait, ready for the next
    assert _names(store) == {"a", "b"}


def test_many_writers_with_failures_keep_exactly_the_writes_that_returned(store: Store) -> None:
    """Threads writing at once, every third write refused: what is committed is exactly the
    writes that returned, every thread's waker is left locked, and nobody waits for the turn."""
    kept: set[str] = set()
    lock = threading.Lock()
    wakers: list[threading.Lock] = []

    def writer(i: int) -> None:
        for j in range(30):
            name = f"{i}-{j}"
            try:
                with store.transaction() as conn:
                    _add(conn, name)
                    if j % 3 == i % 3:
                        raise ValueError("refused")
            except ValueError:
                continue
            with lock:
                kept.add(name)
        wakers.append(store_module._waker())

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert _names(store) == kept
    assert len(kept) == 8 * 20
    assert all(w.locked() for w in wakers)
    assert store.group is not None
    assert store.group.waiting == 0


def test_a_group_that_cannot_begin_drops_its_connection_and_the_next_writes(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group's BEGIN goes through the driver: if it fails, the writer gets the error, the
    writers' connection is dropped, and the next writer writes on a new one."""
    with store.transaction() as conn:
        _add(conn, "a")
    monkeypatch.setitem(store_module._HOT_SQL, "begin", "BEGIN NOT A STATEMENT")
    with pytest.raises(OperationalError, match="syntax error"):
        store.transaction().__enter__()
    assert store.group is not None
    assert store.group.conn is None
    assert store.group.batch is None
    monkeypatch.undo()
    with store.transaction() as conn:
        _add(conn, "b")
    assert _names(store) == {"a", "b"}


@pytest.fixture
def seated(tmp_path: Path) -> Iterator[Harness]:
    """A server with 'ann' seated at b5 seat 2 and dds seat 3, both tables taking wagers."""
    for h in harness(f"sqlite:///{tmp_path / 'felt.db'}"):
        h.account("ann", "player", "100.00")
        for table, seat in (("b5", 2), ("dds", 3)):
            assert h.post("ann", f"/api/tables/{table}/sit", {"seat": seat}).status_code == 200
            h.wait_for("ann", table, partial(_betting, seat))
        yield h


def _betting(seat: int, view: dict[str, Any]) -> bool:
    return bool(view.get("mine", {}).get(str(seat), {}).get("phase") == "betting")


def test_a_websocket_action_waits_for_no_other_tables_commit(
    seated: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # b5's action is held before its table takes it (on SQLite one writer thread runs every
    # table's changes in turn, so a change held inside it would hold every table's: the
    # WebSocket's handler is what must not wait)
    gate = threading.Event()
    b5 = seated.server.hosts["b5"]
    held = b5.act

    async def stuck(*args: Any) -> dict[str, Any]:
        assert await asyncio.to_thread(gate.wait, 20)
        return await held(*args)

    monkeypatch.setattr(b5, "act", stuck)
    wager = {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"}
    with seated.socket() as ws:
        ws.send_json({"token": seated.tokens["ann"]})
        assert ws.receive_json()["type"] == "hello"
        ws.send_json({"table": "b5", "key": "slow", "action": wager})
        ws.send_json(
            {
                "table": "dds",
                "key": "quick",
                "action": {"action": "bet", "seat": 3, "amount": "5.00"},
            }
        )
        first = _next_answer(ws)
        gate.set()
        second = _next_answer(ws)
    assert (first["key"], first["type"]) == ("quick", "ack")
    assert (second["key"], second["type"]) == ("slow", "ack")


def _next_answer(ws: Any) -> dict[str, Any]:
    """The next ack or error on a WebSocket (table views skipped)."""
    while True:
        msg = dict(ws.receive_json())
        if msg["type"] in ("ack", "error"):
            return msg
