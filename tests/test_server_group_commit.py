"""SQLite's group commit (felt.server.store.GroupCommit) as issue 25 made it cheaper: a group's
first writer runs without a savepoint of its own, each later one in its own; a writer waits for
the group's commit on a lock of its thread's, made once and reused, not on a new Event per
group; the writers waiting for the turn are counted without a lock.  None of it may let a writer
return before its group's COMMIT, or let one writer's failure take another's writes."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Connection
from sqlalchemy.exc import OperationalError

from felt.server import store as store_module
from felt.server.store import Store
from tests.test_server_concurrency import _add, _names, _second_writer_waits, _two_writers


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A migrated SQLite store."""
    s = Store(f"sqlite:///{tmp_path / 'felt.db'}")
    s.migrate()
    yield s
    s.dispose()


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
