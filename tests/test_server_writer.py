"""SQLite's writer (issue 25, target 1): the tables' changes run one after another on one thread
of the store's, as batches that share one transaction and one COMMIT, each change in a savepoint
of its own (:meth:`felt.server.store.GroupCommit.submit`).  What must hold: a change's result and
what it publishes come only after the commit that makes it durable; a change that raises rolls
back alone and publishes nothing; a failed commit fails every change of its batch and publishes
none; writes from other threads, interleaved with batches, lose nothing; and a table whose
action's commit failed reads the record again before its next change."""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, text

from felt.games.boston.actions import PlaceWagers
from felt.server import store as store_module
from felt.server.host import TableHost, new_table_row
from felt.server.store import CommitFailed, Store, after_commit, felt_tables, sessions
from tests.server_helpers import fast_specs
from tests.test_server_concurrency import _add, _names, sqlite_store
from tests.test_server_store_path import _player


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A migrated SQLite store (on a file: the writer's group commit)."""
    yield from sqlite_store(tmp_path)


def _change(store: Store, name: str, published: dict[str, set[str]],
            then: Callable[[], None] | None = None) -> Callable[[], str]:  # fmt: skip
    """A change that writes ``name`` (then runs ``then``, which may raise) and publishes what
    a separate connection sees committed at the moment it publishes."""

    def work() -> str:
        with store.transaction() as conn:
            _add(conn, name)
            if then is not None:
                then()
        after_commit(lambda: published.__setitem__(name, _names(store)))
        return name

    return work


async def _made(store: Store, work: Callable[[], str]) -> str:
    """``work`` made by the store (its writer, on SQLite), once durable."""
    made: str = await store.submit_change(work)
    return made


async def _batch(store: Store, works: list[Callable[[], str]]) -> list[Any]:
    """Run ``works`` through the writer as one batch: the first holds the writer until the
    others are queued behind it; each one's result or exception."""
    go = threading.Event()

    def first() -> str:
        assert go.wait(10)
        return works[0]()

    tasks = [store.submit_change(first)]
    tasks += [store.submit_change(w) for w in works[1:]]
    await asyncio.sleep(0.05)  # the writer is in the first change, the others queued behind
    go.set()
    return list(await asyncio.gather(*tasks, return_exceptions=True))


def test_a_batch_shares_one_commit_and_publishes_only_once_it_is_durable(store: Store) -> None:
    published: dict[str, set[str]] = {}
    names = ["a", "b", "c", "d"]
    before = store.commits
    got = asyncio.run(_batch(store, [_change(store, n, published) for n in names]))
    assert got == names
    assert store.commits - before == 1  # those that came while the first ran joined its batch
    assert all(published[n] == set(names) for n in names)  # all on disk when published
    assert store.group is not None
    assert store.group.batches.reading()["count"] == 1


def test_a_change_that_raises_rolls_back_alone_and_publishes_nothing(store: Store) -> None:
    published: dict[str, set[str]] = {}

    def refuse() -> None:
        raise ValueError("refused")

    works = [_change(store, "a", published), _change(store, "b", published, refuse),
             _change(store, "c", published)]  # fmt: skip
    got = asyncio.run(_batch(store, works))
    assert got[0] == "a"
    assert isinstance(got[1], ValueError)
    assert got[2] == "c"
    assert set(published) == {"a", "c"}
    assert _names(store) == {"a", "c"}


def test_a_failed_commit_fails_every_change_of_its_batch_and_publishes_none(
    store: Store,
) -> None:
    published: dict[str, set[str]] = {}

    def breaks_the_commit() -> None:
        with store.transaction() as conn:  # a session of no account: its key checked at COMMIT
            conn.execute(text("PRAGMA defer_foreign_keys = ON"))
            conn.execute(
                insert(sessions).values(token_hash="x", account_id=999, created_at=0, expires_at=0)
            )

    works = [_change(store, "a", published), _change(store, "b", published, breaks_the_commit),
             _change(store, "c", published)]  # fmt: skip
    got = asyncio.run(_batch(store, works))
    assert all(isinstance(g, CommitFailed) for g in got), got
    assert not published
    assert _names(store) == set()
    assert asyncio.run(_made(store, _change(store, "d", published))) == "d"  # writes again
    assert _names(store) == {"d"}
    assert published == {"d": {"d"}}


def test_writes_of_other_threads_between_batches_lose_nothing(store: Store) -> None:
    """Threads writing through the group commit while the writer runs batches (a group a
    thread left open for the writers behind it is committed before the writer's batch): what
    is on disk is exactly what returned."""
    kept: set[str] = set()
    lock = threading.Lock()

    def thread(i: int) -> None:
        for j in range(40):
            name = f"t{i}-{j}"
            try:
                with store.transaction() as conn:
                    _add(conn, name)
                    if j % 5 == 0:
                        raise ValueError("refused")
            except ValueError:
                continue
            with lock:
                kept.add(name)

    async def changes() -> list[Any]:
        def refused(name: str) -> Callable[[], str]:
            def work() -> str:
                with store.transaction() as conn:
                    _add(conn, name)
                    raise ValueError("refused")

            return work

        works = [_change(store, f"w{k}", {}) if k % 4 else refused(f"w{k}") for k in range(200)]
        return list(await asyncio.gather(*(store.submit_change(w) for w in works),
                                         return_exceptions=True))  # fmt: skip

    threads = [threading.Thread(target=thread, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    got = asyncio.run(changes())
    for t in threads:
        t.join(60)
    kept |= {g for g in got if isinstance(g, str)}
    assert sum(isinstance(g, ValueError) for g in got) == 50
    assert _names(store) == kept
    assert len(kept) == 4 * 32 + 150
    assert store.group is not None
    assert store.group.waiting == 0
    assert store.group.batch is None


def test_after_commit_outside_the_writer_publishes_at_once() -> None:
    seen: list[int] = []
    after_commit(lambda: seen.append(1))
    assert seen == [1]


def test_an_action_whose_commit_fails_leaves_the_table_as_it_was_and_to_be_read_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table shows nothing of an action whose COMMIT failed (its round and version stay),
    and reads the record again before its next change (the commit may have happened)."""
    host = _table(store)
    _, ann = _player(store, host, "ann", 2)
    version, rnd = host.version, host.round
    monkeypatch.setitem(store_module._HOT_SQL, "commit", "COMMIT NOT A STATEMENT")
    wager = PlaceWagers(2, ante=500, first=1000)
    with pytest.raises(CommitFailed):
        asyncio.run(host.act(wager, ann, "k1", "d", None))
    assert (host.version, host.round, host.stale) == (version, rnd, True)
    monkeypatch.undo()
    ack = asyncio.run(host.act(wager, ann, "k2", "d", None))
    assert ack["action"] == "wager"
    assert host.version == version + 1
    assert not host.stale


def test_a_store_nobody_closed_ends_its_writer(tmp_path: Path) -> None:
    """The writer's thread holds its store only while a batch runs, so a store dropped without
    dispose() is collected and the thread ends; a store disposed stops its writer at once."""
    for dispose in (False, True):
        s = Store(f"sqlite:///{tmp_path / f'felt-{dispose}.db'}")
        s.migrate()
        assert asyncio.run(_made(s, _change(s, "a", {}))) == "a"
        assert s.group is not None
        thread = s.group._writer
        assert thread is not None
        assert thread.is_alive()
        if dispose:
            s.dispose()
            assert not thread.is_alive()
        del s
        gc.collect()
        thread.join(5)
        assert not thread.is_alive()


def test_a_group_another_thread_left_open_is_committed_before_the_writers_batch(
    store: Store,
) -> None:
    """A thread's group left open for a writer behind it (here one made to look queued) is
    committed when the writer takes the turn, before the writer's BEGIN: both are on disk, the
    thread returned after its own commit, and nothing is left open."""
    group = store.group
    assert group is not None
    inside, go = threading.Event(), threading.Event()
    out: dict[str, Any] = {}

    def thread() -> None:
        with store.transaction() as conn:
            _add(conn, "a")
            inside.set()
            assert go.wait(10)
        out["seen"] = _names(store)

    async def main() -> str:
        t = threading.Thread(target=thread)
        t.start()
        assert await asyncio.to_thread(inside.wait, 10)
        change = store.submit_change(_change(store, "w", {}))  # the writer waits for the turn
        group.arrived.append(None)  # the thread leaves its group open on the way out
        go.set()
        result: str = await change
        group.arrived.pop()
        await asyncio.to_thread(t.join, 10)
        return result

    before = store.commits
    assert asyncio.run(main()) == "w"
    assert out["seen"] >= {"a"}  # the thread returned once its group was on disk
    assert _names(store) == {"a", "w"}
    assert store.commits - before == 2
    assert group.batch is None


def _table(store: Store) -> TableHost:
    with store.transaction() as conn:
        conn.execute(insert(felt_tables).values(**new_table_row(fast_specs()[0], "node-a")))
    host = TableHost(store, fast_specs()[0], "node-a")
    host.load()
    host.start_round()
    return host


def test_an_action_whose_caller_is_cancelled_is_made_and_holds_the_table_until_then(
    store: Store,
) -> None:
    """A cancelled caller does not end its change, nor let the table's next change in before it
    has ended: the next action is tried on what the first did (no false refusal)."""
    host = _table(store)
    _, ann = _player(store, host, "ann", 2)
    _, bob = _player(store, host, "bob", 4)
    version = host.version
    gate = threading.Event()

    async def main() -> dict[str, Any]:
        hold = store.submit_change(lambda: gate.wait(10))  # the writer busy till the gate
        first = asyncio.ensure_future(host.act(PlaceWagers(2, ante=500, first=1000), ann, "k1",
                                               "d", None))  # fmt: skip
        await asyncio.sleep(0.05)
        first.cancel()
        second = asyncio.ensure_future(host.act(PlaceWagers(4, ante=500, first=1000), bob, "k2",
                                                "d", None))  # fmt: skip
        await asyncio.sleep(0.05)
        assert not second.done()
        gate.set()
        await hold
        with pytest.raises(asyncio.CancelledError):
            await first
        ack: dict[str, Any] = await second
        return ack

    ack = asyncio.run(main())
    assert ack["action"] == "wager"
    assert host.version == version + 2  # both made, one after the other
    assert not host.stale


def test_a_cancelled_action_whose_commit_fails_leaves_its_table_to_be_read_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = _table(store)
    _, ann = _player(store, host, "ann", 2)
    version = host.version
    gate = threading.Event()

    async def main() -> None:
        hold = store.submit_change(lambda: gate.wait(10))
        first = asyncio.ensure_future(host.act(PlaceWagers(2, ante=500, first=1000), ann, "k1",
                                               "d", None))  # fmt: skip
        await asyncio.sleep(0.05)
        first.cancel()
        monkeypatch.setitem(store_module._HOT_SQL, "commit", "COMMIT NOT A STATEMENT")
        gate.set()
        await asyncio.gather(hold, return_exceptions=True)
        with pytest.raises(asyncio.CancelledError):
            await first

    asyncio.run(main())
    assert host.stale
    assert host.version == version
    monkeypatch.undo()


def test_a_change_handed_over_as_the_store_closes_is_made_or_fails_never_hangs(
    store: Store,
) -> None:
    """Closing stops the writer after the batch in hand.  A change handed over as it closes
    is made by that batch or the one after it, or, left in the queue when the writer stopped,
    fails (CommitFailed) with nothing written; whoever awaits it never waits for ever."""
    group = store.group
    assert group is not None

    async def main(where: str, gate: threading.Event) -> list[Any]:
        hold = store.submit_change(lambda: gate.wait(10))
        if where == "in a batch":
            await asyncio.sleep(0.05)  # the writer is in the held change's batch
        group._jobs.put(None)  # the stop, as close() sends it
        late = store.submit_change(_change(store, where, {}))
        gate.set()
        await asyncio.to_thread(group.close)
        both = asyncio.gather(hold, late, return_exceptions=True)
        return list(await asyncio.wait_for(both, 10))

    for where in ("in a batch", "between batches"):
        hold, late = asyncio.run(main(where, threading.Event()))
        assert hold is True
        if isinstance(late, CommitFailed):
            assert where not in _names(store)
        else:
            assert late == where
            assert where in _names(store)
