"""The store path of a player action (issue 25): the connection pool holds a connection for
every thread the server runs without closing and reopening them."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from sqlalchemy import event, text

from felt.server.app import LOGIN_THREADS, WORKER_THREADS
from felt.server.store import POOL_SIZE, Store


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
