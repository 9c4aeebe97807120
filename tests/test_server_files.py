"""The SQLite database holds password hashes, sessions and the ledger: its file, its write-ahead
log and its shared-memory index are created readable and writable by their owner alone (0600),
whatever the process's umask (issue 18, item 8)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from felt.server import auth
from felt.server.store import Store, default_database_url


@pytest.fixture(params=[0o000, 0o022], ids=["umask-000", "umask-022"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    """A permissive umask for the test (the old one restored after)."""
    old = os.umask(request.param)
    try:
        yield int(request.param)
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_sqlite_database_its_wal_and_shm_are_created_0600(tmp_path: Path, umask: int) -> None:
    db = tmp_path / "felt.db"
    store = Store(f"sqlite:///{db}")
    try:
        store.migrate()
        auth.create_account(store, "ann", "player", "ann-password")
        with store.engine.connect() as conn:  # the log and its index exist while a reader is open
            conn.exec_driver_sql("SELECT count(*) FROM accounts").scalar_one()
            files = {p.name: _mode(p) for p in tmp_path.iterdir()}
    finally:
        store.dispose()
    assert set(files) >= {"felt.db", "felt.db-wal", "felt.db-shm"}, files
    assert files == dict.fromkeys(files, 0o600), files


def test_a_database_reopened_keeps_0600_and_an_operators_mode_is_left_alone(
    tmp_path: Path, umask: int
) -> None:
    db = tmp_path / "felt.db"
    for _ in range(2):
        store = Store(f"sqlite:///{db}")
        store.migrate()
        store.dispose()
    assert _mode(db) == 0o600
    os.chmod(db, 0o640)  # an operator's choice (a backup group, say) is theirs to make
    store = Store(f"sqlite:///{db}")
    store.migrate()
    store.dispose()
    assert _mode(db) == 0o640


def test_the_default_database_directory_is_its_owners_alone(
    tmp_path: Path, umask: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    url = default_database_url()
    assert _mode(tmp_path / "data" / "felt") == 0o700
    store = Store(url)
    store.migrate()
    store.dispose()
    assert _mode(tmp_path / "data" / "felt" / "felt.db") == 0o600


def test_a_database_in_memory_needs_no_file(tmp_path: Path, umask: int) -> None:
    store = Store("sqlite://")
    store.migrate()
    store.dispose()
    assert list(tmp_path.iterdir()) == []
