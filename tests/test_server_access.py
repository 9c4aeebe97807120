"""Access to the server (issue 18, items 2-5 and 7): the three-strikes lock-out holds against
parallel guesses on both databases (13:69O-1.4(i)), the password is checked outside the write
turn, a refused log-in never tells a locked account from an unknown name, the operator recovers
a locked supervisor from the machine (``felt admin``), processes started together on a fresh
database all come up, and a second live process under a node name in use is refused."""

from __future__ import annotations

import io
import logging
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError
from sqlalchemy import func, select, text, update

from felt.cli.main import main
from felt.core.errors import FeltError
from felt.server import auth
from felt.server.app import NodeTaken, Server
from felt.server.store import Store, accounts, felt_tables, nodes
from tests.server_helpers import ADMIN_PASSWORD, fast_specs
from tests.server_process import FELT, ServeProcess, free_port

GUESSES = 40


def _prepared(database_url: str) -> Iterator[Store]:
    server = Server(Store(database_url), fast_specs(), "node-a")
    server.prepare()
    auth.create_account(server.store, "ann", "player", "ann-password")
    yield server.store
    server.store.dispose()


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    """A prepared database (schema, tables, the supervisor 'admin') with the player 'ann'."""
    yield from _prepared(database_url)


CHECK_SECONDS = 0.1
"""How long each password check of :func:`slow_check_store` takes (sleeping, not computing)."""


@pytest.fixture
def slow_check_store(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    """:func:`store` whose password checks take :data:`CHECK_SECONDS` each, in the process's
    one hashing turn as a real argon2id check does, whatever the suite's hash cost
    (``FELT_TEST_WEAK_HASHES``): parallel guesses still overlap their checks with each other's
    reservations, without the CPU of forty real checks (the decoys included) on two cores."""
    inner = auth._hasher

    class SlowHasher:
        def verify(self, stored: str, password: str) -> bool:
            time.sleep(CHECK_SECONDS)
            return bool(inner.verify(stored, password))

        def hash(self, password: str) -> str:
            return str(inner.hash(password))

    monkeypatch.setattr(auth, "_hasher", SlowHasher())
    yield from _prepared(database_url)


class CountingChecks:
    """Counts the passwords checked against one account's stored hash (the decoy check that
    an unknown name or a locked account costs is not a check of any account)."""

    def __init__(self, store: Store, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
        with store.engine.connect() as conn:
            self.hash = conn.execute(
                select(accounts.c.password_hash).where(accounts.c.name == name)
            ).scalar_one()
        self.count = 0
        self.lock = threading.Lock()
        real = auth._hasher

        class Hasher:
            def verify(inner, stored: str, password: str) -> bool:
                if stored == self.hash:
                    with self.lock:
                        self.count += 1
                return real.verify(stored, password)

            def hash(inner, password: str) -> str:
                return real.hash(password)

        monkeypatch.setattr(auth, "_hasher", Hasher())


def _try(store: Store, name: str, password: str) -> str:
    """Log in; the error's text, or "ok"."""
    try:
        auth.log_in(store, name, password)
    except auth.AuthError as err:
        return str(err)
    return "ok"


def test_13_69o_1_4_i_forty_parallel_wrong_passwords_check_three_and_lock(
    slow_check_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """40 guesses at once: exactly three are checked, the account locks, and the right password
    afterwards is refused (PostgreSQL used to check all 40 and lock none)."""
    store = slow_check_store
    checks = CountingChecks(store, "ann", monkeypatch)
    start = threading.Barrier(GUESSES)
    answers: list[str] = []

    def guess(i: int) -> None:
        start.wait()
        answers.append(_try(store, "ann", f"wrong-guess-{i}"))

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(GUESSES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert answers == [auth.REFUSED] * GUESSES
    assert checks.count == auth.MAX_FAILED_LOGINS
    assert _try(store, "ann", "ann-password") == auth.REFUSED
    assert checks.count == auth.MAX_FAILED_LOGINS  # refused before any check
    with store.engine.connect() as conn:
        assert conn.execute(select(accounts.c.locked).where(accounts.c.name == "ann")).scalar()


def test_13_69o_1_4_i_the_right_password_among_parallel_guesses_is_not_a_way_in(
    slow_check_store: Store,
) -> None:
    """The right password sent with 39 wrong ones at once: whatever order they are checked in,
    the account ends locked or logged in with fewer than three failures before it, never both
    past three failures and logged in."""
    store = slow_check_store
    start = threading.Barrier(GUESSES)
    answers: list[str] = []

    def guess(i: int) -> None:
        start.wait()
        answers.append(_try(store, "ann", "ann-password" if i == 17 else f"wrong-guess-{i}"))

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(GUESSES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert answers.count("ok") <= 1
    with store.engine.connect() as conn:
        row = conn.execute(select(accounts).where(accounts.c.name == "ann")).mappings().one()
    assert row["failed_logins"] <= auth.MAX_FAILED_LOGINS
    if row["locked"]:
        assert answers.count("ok") == 0


def test_a_password_is_checked_outside_the_write_turn(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a log-in's password is being checked, another write commits (on SQLite it used
    to wait the whole hash out in the single write turn: a log-in storm froze deposits)."""
    wrote = threading.Event()
    during: list[bool] = []

    def write() -> None:
        with store.transaction() as conn:
            conn.execute(update(accounts).where(accounts.c.name == "admin").values(balance=0))
        wrote.set()

    class Hasher:
        def verify(self, stored: str, password: str) -> bool:
            threading.Thread(target=write, daemon=True).start()
            during.append(wrote.wait(10))
            return inner.verify(stored, password)

        def hash(self, password: str) -> str:
            return inner.hash(password)

        def check_needs_rehash(self, stored: str) -> bool:
            return inner.check_needs_rehash(stored)

    inner = auth._hasher
    monkeypatch.setattr(auth, "_hasher", Hasher())
    auth.log_in(store, "ann", "ann-password")
    assert during == [True]


def test_13_69o_1_4_i_a_locked_name_answers_as_an_unknown_one(store: Store) -> None:
    """A locked account refuses its right password, a wrong one and an unknown name alike."""
    for _ in range(3):
        assert _try(store, "ann", "wrong-password") == auth.REFUSED
    locked_right = _try(store, "ann", "ann-password")
    locked_wrong = _try(store, "ann", "wrong-password")
    unknown = _try(store, "nobody", "ann-password")
    assert locked_right == locked_wrong == unknown == auth.REFUSED
    assert "ann" not in unknown


def test_a_supervisor_lock_out_raises_an_alert_in_the_server_log(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """The decision of docs/interpretations.md: a supervisor locks like anyone (13:69O-1.4(i)),
    and the lock-out is logged as an error naming the recovery command."""
    with caplog.at_level(logging.WARNING, logger="felt.server"):
        for _ in range(3):
            _try(store, "admin", "wrong-password")
    alerts = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(alerts) == 1
    assert "supervisor account 'admin' locked" in alerts[0].getMessage()
    assert "felt admin unlock admin" in alerts[0].getMessage()
    with caplog.at_level(logging.WARNING, logger="felt.server"):
        for _ in range(3):
            _try(store, "ann", "wrong-password")
    assert [r.levelno for r in caplog.records].count(logging.WARNING) == 1


# ---------------------------------------------------------------------- felt admin
def _lock(store: Store, name: str) -> None:
    for _ in range(3):
        _try(store, name, "wrong-password")
    assert _try(store, name, ADMIN_PASSWORD if name == "admin" else f"{name}-password") != "ok"


def test_attempts_spent_by_a_crash_lock_the_account_in_plain_sight(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 18 item 4 (review): three attempts cut off by a crash stay counted, so the account
    refused every log-in while not marked locked, with no alert; the next attempt marks it
    locked and raises the supervisor's alert, and the way back is the usual one."""
    with store.transaction() as conn:  # three log-ins reserved, then the process was killed
        conn.execute(update(accounts).where(accounts.c.name == "admin").values(failed_logins=3))
    with caplog.at_level(logging.WARNING, logger="felt.server"):
        assert _try(store, "admin", ADMIN_PASSWORD) == auth.REFUSED
        assert _try(store, "admin", ADMIN_PASSWORD) == auth.REFUSED
    alerts = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(alerts) == 1
    assert "supervisor account 'admin' locked" in alerts[0].getMessage()
    with store.engine.connect() as conn:
        assert conn.execute(select(accounts.c.locked).where(accounts.c.name == "admin")).scalar()
    assert main(["admin", "unlock", "admin", "--database", store.url]) == 0
    assert _try(store, "admin", ADMIN_PASSWORD) == "ok"


def test_felt_admin_unlock_recovers_the_only_supervisor(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    _lock(store, "admin")
    assert main(["admin", "unlock", "admin", "--database", store.url]) == 0
    assert "unlocked admin" in capsys.readouterr().out
    assert _try(store, "admin", ADMIN_PASSWORD) == "ok"


def test_felt_admin_password_reads_stdin_and_ends_sessions(
    store: Store, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    token, _ = auth.log_in(store, "admin", ADMIN_PASSWORD)
    monkeypatch.setattr("sys.stdin", io.StringIO("a-brand-new-password\n"))
    assert main(["admin", "password", "admin", "--database", store.url]) == 0
    assert "new password set for admin" in capsys.readouterr().out
    with pytest.raises(auth.AuthError):
        auth.authenticate(store, token)
    assert _try(store, "admin", ADMIN_PASSWORD) != "ok"
    assert _try(store, "admin", "a-brand-new-password") == "ok"


def test_felt_admin_password_reads_a_terminal_with_getpass(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    typed = iter(["typed-at-the-tty", "typed-at-the-tty"])

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Tty(""))
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(typed))
    assert main(["admin", "password", "admin", "--database", store.url]) == 0
    assert _try(store, "admin", "typed-at-the-tty") == "ok"


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str], has: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("felt: error: "), err
    assert has in err, err


@pytest.mark.parametrize(
    ("argv", "stdin", "has"),
    [
        (["unlock", "nobody"], "", "no account named 'nobody'"),
        (["password", "nobody"], "long-enough-password\n", "no account named 'nobody'"),
        (["password", "admin"], "short\n", "password must be 8 to"),
        (["password", "admin", "on-the-command-line"], "", "unrecognized arguments"),
        (["unlock", "../etc"], "", "name must be"),
    ],
)
def test_felt_admin_refuses_with_one_line_and_status_2(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stdin: str,
    has: str,
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    _one_line_error(capsys, ["admin", *argv, "--database", store.url], has)
    assert _try(store, "admin", ADMIN_PASSWORD) == "ok"  # nothing changed


def test_felt_admin_on_a_missing_or_empty_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = f"sqlite:///{tmp_path / 'none.db'}"
    _one_line_error(capsys, ["admin", "unlock", "admin", "--database", missing], "no database at")
    assert not (tmp_path / "none.db").exists()
    (tmp_path / "empty.db").write_bytes(b"")
    empty = f"sqlite:///{tmp_path / 'empty.db'}"
    _one_line_error(capsys, ["admin", "unlock", "admin", "--database", empty], "cannot be used")


# ---------------------------------------------------------------------- start-up
TABLES_TOML = """
[[table]]
id = "b5-1"
game = "boston5"

[[table]]
id = "dds-1"
game = "double-down-stud"
"""


def _process(url: str, tmp_path: Path, i: int, **kw: Any) -> ServeProcess:
    tables = tmp_path / "tables.toml"
    tables.write_text(TABLES_TOML)
    return ServeProcess(url, tables, tmp_path / f"serve-{i}.log", ADMIN_PASSWORD, **kw)


def test_four_processes_started_together_on_a_fresh_database_all_come_up(
    database_url: str, tmp_path: Path
) -> None:
    """First-start seeding (the supervisor, the tables) runs under the migration lock: four
    processes at once on an empty database all start (one used to die, "an account named
    'admin' already exists"), with one admin and each table once."""
    procs = [_process(database_url, tmp_path, i) for i in range(4)]
    failures: list[BaseException] = []

    def start(p: ServeProcess) -> None:
        try:
            p.start()
        except BaseException as err:
            failures.append(err)

    threads = [threading.Thread(target=start, args=(p,)) for p in procs]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(180)
        assert not failures, failures
        store = Store(database_url)
        with store.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(accounts)).scalar() == 1
            assert conn.execute(select(func.count()).select_from(felt_tables)).scalar() == 2
        store.dispose()
    finally:
        for p in procs:
            p.stop()


def test_felt_serve_hashes_at_the_cost_its_environment_says_and_warns_of_the_test_cost(
    tmp_path: Path,
) -> None:
    """The suite's ``FELT_TEST_WEAK_HASHES`` (tests/conftest.py) reaches the ``felt serve``
    processes it starts; at 1 the server says so at the end of its start line and hashes at
    argon2id's least cost, otherwise it says nothing of it and hashes at the real cost."""
    weak = os.environ.get(auth.WEAK_HASHES_ENV) == "1"
    url = f"sqlite:///{tmp_path / 'felt.db'}"
    proc = _process(url, tmp_path, 0)
    proc.start()
    try:
        r = httpx.post(f"http://{proc.name}/api/login",
                       json={"name": "admin", "password": ADMIN_PASSWORD}, timeout=30)  # fmt: skip
        assert r.status_code == 200, r.text
    finally:
        proc.stop()
    store = Store(url)
    with store.engine.connect() as conn:
        stored = conn.execute(select(accounts.c.password_hash)).scalar_one()
    store.dispose()
    strong = "$argon2id$v=19$m=65536,t=3,p=4$"
    assert stored.startswith("$argon2id$v=19$m=8,t=1,p=1$" if weak else strong)
    start = proc.log.read_text().splitlines()[0]
    assert start.startswith("felt serve: listening on")
    assert start.endswith(f"| {auth.WEAK_HASHES_ENV}=1: passwords hashed at the test cost") == weak


def test_a_hash_made_at_either_cost_verifies_at_the_other() -> None:
    """A hash carries its parameters: accounts opened under the test cost still log in on a
    server at the real cost, and the other way round."""
    weak = auth.password_hasher({auth.WEAK_HASHES_ENV: "1"})
    strong = auth.password_hasher({auth.WEAK_HASHES_ENV: "0"})
    assert (strong.time_cost, strong.memory_cost, strong.parallelism) == (3, 65536, 4)
    assert strong.verify(weak.hash("a-password"), "a-password")
    assert weak.verify(strong.hash("a-password"), "a-password")
    assert not auth.password_hasher({}).check_needs_rehash(strong.hash("a-password"))


def test_a_log_in_brings_a_hash_made_at_the_test_cost_up_to_the_servers(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server started by mistake with ``FELT_TEST_WEAK_HASHES`` stores weak hashes; once it
    runs at the real cost, each account's next log-in re-hashes its password at that cost (and
    the password still works).  A wrong password changes nothing."""
    weak = auth.password_hasher({auth.WEAK_HASHES_ENV: "1"})
    with store.engine.begin() as conn:  # 'ann' as the mistaken server stored her
        conn.execute(
            update(accounts)
            .where(accounts.c.name == "ann")
            .values(password_hash=weak.hash("ann-password"))
        )

    def stored() -> str:
        with store.engine.connect() as conn:
            return str(
                conn.execute(
                    select(accounts.c.password_hash).where(accounts.c.name == "ann")
                ).scalar_one()
            )

    monkeypatch.setattr(auth, "_hasher", auth.password_hasher({auth.WEAK_HASHES_ENV: "0"}))
    before = stored()
    with pytest.raises(auth.AuthError):
        auth.log_in(store, "ann", "wrong-password")
    assert stored() == before
    auth.log_in(store, "ann", "ann-password")
    after = stored()
    assert after != before
    assert "m=65536,t=3,p=4" in after
    assert not auth._hasher.check_needs_rehash(after)
    auth.log_in(store, "ann", "ann-password")
    assert stored() == after  # at the server's cost already: left as it is


def test_a_node_name_is_held_by_one_live_store_at_a_time(database_url: str) -> None:
    first, second = Store(database_url), Store(database_url)
    first.migrate()
    first.hold_node("node-x")
    with pytest.raises(FeltError, match="node name 'node-x' is held by another live"):
        second.hold_node("node-x")
    second.hold_node("node-y")  # another name is free
    first.dispose()
    second.hold_node("node-x")  # given up with its holder
    second.dispose()


def test_a_second_live_process_under_a_node_name_in_use_is_refused(
    database_url: str, tmp_path: Path
) -> None:
    """Two processes given the same --node used to run every table twice; the second is
    refused with one line and status 2, and the first, killed with SIGKILL, restarts under its
    name at once."""
    first = _process(database_url, tmp_path, 0)
    first.start()
    try:
        args = [str(FELT), "serve", "--database", database_url, "--port", str(free_port()),
                "--node", first.name, "--tables", str(first.tables)]  # fmt: skip
        second = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            _, err = second.communicate(timeout=60)
        except subprocess.TimeoutExpired as late:
            second.kill()
            second.communicate()
            raise AssertionError(
                "the second process under the same node name kept running"
            ) from late
        assert second.returncode == 2, err
        text = err.decode()
        assert text.count("\n") == 1, text
        assert "is held by another live felt serve process" in text
        first.stop(signal.SIGKILL)
        first.start(seconds=30)
    finally:
        first.stop()


def test_an_account_named_before_the_new_name_rule_is_still_paid_and_recovered(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 18 (review): new names begin with a letter or digit, but an account opened before
    that rule (``_bob``) keeps its money movable by the cage and can be unlocked on the machine."""
    from felt.server.app import Cash, NewAccount

    with store.transaction() as conn:
        conn.execute(
            accounts.insert().values(name="_bob", role="player", password_hash="x",
                                     failed_logins=0, locked=True, balance=0, created_at=0.0)
        )  # fmt: skip
    with pytest.raises(ValidationError, match="name"):
        NewAccount.model_validate({"name": "_bob", "role": "player", "password": "p" * 12})
    assert Cash.model_validate({"player": "_bob", "amount": "1.00", "key": "k"}).player == "_bob"
    for bad in ("", "a b", "é", "x" * 65):
        with pytest.raises(ValidationError, match="player"):
            Cash.model_validate({"player": bad, "amount": "1.00", "key": "k"})
    assert main(["admin", "unlock", "_bob", "--database", store.url]) == 0
    assert "unlocked _bob" in capsys.readouterr().out
    with store.engine.connect() as conn:
        assert (
            conn.execute(select(accounts.c.locked).where(accounts.c.name == "_bob")).scalar_one()
            is False
        )


def test_a_log_in_storm_never_takes_the_database_threads(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18 item 3 (review): log-ins waiting for their hash once held the shared database
    threads, so more than 31 of them (a stranger's wrong guesses) stopped every deposit, table
    action and lease heartbeat.  With every password check held, 70 log-ins are fired: 64 wait on
    their own threads, the rest are answered 429 at once, and the cage still deposits."""
    from felt.server import app as app_module
    from tests.server_helpers import live_server

    held = threading.Event()
    started = threading.Semaphore(0)
    real = auth.verify_password

    def slow(stored: str, password: str) -> bool:
        started.release()
        held.wait(60)
        return real(stored, password)

    with live_server(database_url, fast_specs()) as h:
        h.account("pat", "player")
        h.account("cage", "cashier")
        monkeypatch.setattr(auth, "verify_password", slow)
        answers: list[int] = []

        def guess(i: int) -> None:
            with httpx.Client(base_url=str(h.client.base_url), timeout=60) as c:
                r = c.post("/api/login", json={"name": f"nobody{i}", "password": "wrong-guess"})
                answers.append(r.status_code)

        storm = [threading.Thread(target=guess, args=(i,)) for i in range(70)]
        for t in storm:
            t.start()
        assert started.acquire(timeout=30)  # one check is under way and held
        deadline = time.monotonic() + 30
        while answers.count(429) < 70 - app_module.MAX_WAITING_LOGINS:
            assert time.monotonic() < deadline, answers
            time.sleep(0.05)
        r = h.client.post(
            "/api/cashier/deposit",
            json={"player": "pat", "amount": "5.00", "key": "storm-deposit"},
            headers=h.headers("cage"),
        )
        assert r.status_code == 200, r.text
        assert r.json()["balance"] == "5.00"
        held.set()
        for t in storm:
            t.join(60)
        assert sorted(set(answers)) == [401, 429]
        assert answers.count(429) == 70 - app_module.MAX_WAITING_LOGINS


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL schema (a node's advisory lock is PostgreSQL's alone)."""
    from tests.server_helpers import postgres_schema_url

    yield from postgres_schema_url()


def _end_backend_of(store: Store, url: str) -> None:
    """End the PostgreSQL connection that holds ``store``'s node name, as a database restart or
    an idle-connection kill would."""
    hold = store._node_hold
    assert hold is not None
    assert not isinstance(hold, int)
    pid = hold.execute(text("SELECT pg_backend_pid()")).scalar()
    hold.commit()
    other = Store(url)
    with other.engine.connect() as conn:
        conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
        conn.commit()
    other.dispose()


def test_a_node_name_lost_with_its_connection_is_taken_again(postgres_url: str) -> None:
    """Issue 18 item 7 (review): the advisory lock ends with its connection, not its process;
    the next lease renewal finds it gone and takes the name again, so a second process is still
    refused it."""
    first = Server(Store(postgres_url), fast_specs(), "node-x")
    first.prepare()
    _end_backend_of(first.store, postgres_url)
    first.claim()  # renews: the name is held again
    second = Store(postgres_url)
    with pytest.raises(FeltError, match="node name 'node-x' is held by another live"):
        second.hold_node("node-x")
    second.dispose()
    first.store.dispose()


def test_a_process_whose_node_name_was_taken_stops_running_tables(postgres_url: str) -> None:
    """Issue 18 item 7 (review): when the hold was lost and another process took the name in
    between, the first never renews that name's leases again and stops running its tables."""
    first = Server(Store(postgres_url), fast_specs(), "node-x")
    first.prepare()
    assert set(first.claim()) == {"b5", "dds"}
    _end_backend_of(first.store, postgres_url)
    second = Store(postgres_url)
    second.hold_node("node-x")  # the twin starts in the gap
    with first.store.engine.connect() as conn:
        lease = conn.execute(select(nodes.c.lease_until).where(nodes.c.name == "node-x")).scalar()
    with pytest.raises(NodeTaken, match="node-x"):
        first.claim()
    with first.store.engine.connect() as conn:  # the name's leases were not renewed
        assert (
            conn.execute(select(nodes.c.lease_until).where(nodes.c.name == "node-x")).scalar()
            == lease
        )
    first.step_down()
    assert not first.hosts
    assert not first.systems
    assert first.stop.is_set()
    second.dispose()
    first.store.dispose()
