"""The server survives ``kill -9``: a real ``felt serve`` process, killed with SIGKILL at random
moments while bots play at three tables, restarted each time, on SQLite and on PostgreSQL (see
tests/crash_campaign.py for the bots and every check made after each kill and restart).

Also the recovery fixes the campaign led to, each tested on its own: a retry that reaches the
server while the request it repeats is still being applied gets that request's acknowledgement;
an idempotency key stored twice at once undoes the second transaction instead of failing with a
server error; and a change whose commit the process did not hear of (the in-process cousin of a
kill between the commit and the swap) is caught up from the record before the next change,
instead of leaving the table refusing every later event number or round.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, func, insert, select
from sqlalchemy.exc import OperationalError

from felt.games.boston.actions import PlaceWagers
from felt.server.auth import create_account
from felt.server.host import TableHost, new_table_row
from felt.server.store import Conflict, Posting, Store, felt_tables, player_account, postings
from tests.crash_campaign import COVERAGE, run_campaign
from tests.server_helpers import CRASH_SUMMARIES, Harness, fast_specs, harness

KILLS_PER_BACK_END = 10
"""SIGKILLs per back end; CI runs both, so 20 in all (the issue asks for at least 20)."""
KILLED: dict[str, int] = {}
"""Kills made per back end in this test run (for the total below and the terminal summary)."""


def test_sigkill_at_random_moments_loses_nothing(
    database_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    backend = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    report = run_campaign(database_url, tmp_path, KILLS_PER_BACK_END, backend)
    summary = report.summary()
    print(summary)
    request.config.stash.setdefault(CRASH_SUMMARIES, []).append(summary)
    KILLED[backend] = report.kills
    assert report.kills >= KILLS_PER_BACK_END, summary
    assert report.counts["actions acknowledged"] >= 50, summary
    assert all(n >= 2 for n in report.books.rounds.values()), summary
    assert report.counts["kills with a round mid-way (per table)"] >= COVERAGE, summary
    assert report.views_compared() >= COVERAGE, summary


def test_at_least_twenty_kills_over_both_back_ends() -> None:
    if len(KILLED) < 2:
        pytest.skip(f"the crash campaign ran only on {', '.join(KILLED) or 'no back end'}")
    assert sum(KILLED.values()) >= 20, KILLED


def _send_twice_at_once(
    h: Harness, action: dict[str, Any], slow: float, monkeypatch: pytest.MonkeyPatch
) -> list[Any]:
    """Send ``action`` under one key, and again under the same key while the first is still
    being written (its ledger posting slowed by ``slow`` seconds); both answers."""
    store = h.server.store
    original = store.post

    def slow_post(*args: Any) -> None:
        time.sleep(slow)
        original(*args)

    answers: list[Any] = []

    def send() -> None:
        r = h.act("ann", "b5", action, key="twice")
        answers.append((r.status_code, r.json()))

    monkeypatch.setattr(store, "post", slow_post)
    first = threading.Thread(target=send)
    first.start()
    time.sleep(slow / 2)
    send()
    first.join()
    return answers


def test_a_retry_while_its_request_is_applied_gets_the_same_acknowledgement(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for h in harness(database_url):
        h.account("ann", "player", "100.00")
        h.post("ann", "/api/tables/b5/sit", {"seat": 2})
        h.wait_for("ann", "b5", lambda v: v.get("mine", {}).get("2", {}).get("phase") == "betting")
        wager = {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"}
        answers = _send_twice_at_once(h, wager, 0.6, monkeypatch)
        assert [code for code, _ in answers] == [200, 200], answers
        first, again = sorted((a for _, a in answers), key=lambda a: "replayed" in a)
        assert again == {**first, "replayed": True}
        assert h.get("ann", "/api/me").json()["balance"] == "85.00"


def test_an_idempotency_key_stored_twice_undoes_the_second_transaction(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    try:
        moves = [Posting("cage", -100, "deposit"), Posting("house", 100, "deposit")]

        def write(txn: str) -> None:
            with store.transaction() as conn:
                store.post(conn, txn, moves)
                store.remember(conn, 1, "key", "digest", "{}")

        write("first")
        with pytest.raises(Conflict):
            write("second")
        with store.engine.connect() as conn:
            txns = conn.execute(select(postings.c.txn, func.count()).group_by(postings.c.txn))
            assert dict(txns.all()) == {"first": 2}
    finally:
        store.dispose()


@contextmanager
def _reply_lost(store: Store) -> Iterator[None]:
    """The next write transaction commits, then reports a failure (the database's reply to the
    COMMIT lost): the process cannot tell whether its change is on record."""
    real = store.transaction

    @contextmanager
    def commit_then_fail() -> Iterator[Connection]:
        store.transaction = real  # type: ignore[method-assign]
        with real() as conn:
            yield conn
        raise OperationalError("COMMIT", {}, ConnectionResetError("reply to the commit lost"))

    store.transaction = commit_then_fail  # type: ignore[method-assign]
    try:
        yield
    finally:
        store.transaction = real  # type: ignore[method-assign]


def test_a_change_committed_unheard_is_caught_up_before_the_next(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    try:
        spec = fast_specs()[0]
        with store.transaction() as conn:
            conn.execute(insert(felt_tables).values(**new_table_row(spec, "node-a")))
        ann = create_account(store, "ann", "player", "ann-password")
        bob = create_account(store, "bob", "player", "bob-password")
        with store.transaction() as conn:
            for who in (ann, bob):
                store.post(conn, f"cash:{who.id}", [Posting("cage", -10000, "deposit"),
                                                    Posting(player_account(who.id), 10000, "deposit")])  # fmt: skip
        host = TableHost(store, spec, "node-a")
        host.load()
        with _reply_lost(store), pytest.raises(OperationalError):
            host.sit(ann, 2)
        host.sit(bob, 4)
        assert {n: s.name for n, s in host.seats.items()} == {2: "ann", 4: "bob"}
        with _reply_lost(store), pytest.raises(OperationalError):
            host.start_round()  # on record, not in this process
        host.start_round()
        assert host.round_id == "b5:1"
        with _reply_lost(store), pytest.raises(OperationalError):
            host.apply_now(PlaceWagers(2, ante=500, first=1000), ann, "k1", "d1")
        ack = host.apply_now(PlaceWagers(4, ante=500, first=1000), bob, "k2", "d2")
        assert ack["seq"] == 2
        assert sorted(host.round.seats) == [2, 4]  # type: ignore[union-attr]
        again = host.apply_now(PlaceWagers(2, ante=500, first=1000), ann, "k1", "d1")
        assert again == {**ack, "seq": 1, "action": "wager", "replayed": True}
    finally:
        store.dispose()
