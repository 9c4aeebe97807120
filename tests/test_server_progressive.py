"""The linked progressive meter on the server (issue 21, 19:47-16.11 and 16.12 as the game
builds them), the generic machinery on SQLite and on PostgreSQL: the meter is the ledger account
``progressive:<id>`` and its row's amount is that account's sum after every commit; opening a
meter funds its seed from the house once, however many processes start; linked tables must agree
on the seed; a payout reads the meter with its row locked, so two payers never take the same
cents; every linked table's messages carry the meter and follow its moves, also moves made by
another process.

These tests link Three Card Poker tables to a meter by patching
:meth:`~felt.games.base.TableGame.progressive` (the server knows games only through it); the
Caribbean Stud tests (tests/test_server_caribbean_*.py) run real progressive rounds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from felt.core.errors import FeltError
from felt.games.base import Progressive, TableGame
from felt.games.registry import table_game
from felt.server.app import Server
from felt.server.meters import stored_specs
from felt.server.spec import TableSpec
from felt.server.store import (
    HOUSE_ACCOUNT,
    MeterShort,
    Posting,
    Store,
    progressive_account,
    progressive_meters,
)
from tests.server_helpers import Harness, harness, ledger_balances

TCP = "three-card-poker"
SEED = 5000


def tcp(tid: str, decision_seconds: int = 10) -> TableSpec:
    """A Three Card Poker table that deals without waiting."""
    return TableSpec(tid, TCP, settings={"decision_seconds": decision_seconds}, pace_seconds=0,
                     betting_seconds=0.3, between_rounds_seconds=1.5)  # fmt: skip


@pytest.fixture
def linked_tcp(monkeypatch: pytest.MonkeyPatch) -> dict[int, int]:
    """Three Card Poker tables linked to the meter ``m``: seed $50.00, or the seed this mapping
    gives for the table's decision seconds (to test the seed's agreement)."""
    seeds: dict[int, int] = {}
    game = table_game(TCP)

    def progressive(self: TableGame, config: Any) -> Progressive:
        return Progressive("m", seeds.get(config.decision_seconds, SEED), "Test jackpot")

    monkeypatch.setattr(type(game), "progressive", progressive)
    return seeds


def meter_row(store: Store, meter: str = "m") -> dict[str, Any]:
    with store.engine.connect() as conn:
        row = conn.execute(
            select(progressive_meters).where(progressive_meters.c.id == meter)
        ).mappings()
        return dict(row.one())


def check_books(store: Store) -> None:
    """The ledger sums to zero and every meter equals the sum of its account's postings."""
    assert store.ledger_sum() == 0
    with store.engine.connect() as conn:
        for meter, row in store.meters(conn).items():
            assert int(row["amount"]) == store.account_sum(progressive_account(meter)), meter


# ----------------------------------------------------------------- the store


def test_a_meter_opens_once_with_its_seed_from_the_house(database_url: str) -> None:
    """Opening funds the seed house -> progressive:<id>; a second opening does nothing."""
    store = Store(database_url)
    store.migrate()
    try:
        with store.transaction() as conn:
            assert store.open_meter(conn, "m", SEED, "Jackpot")
        with store.transaction() as conn:
            assert not store.open_meter(conn, "m", SEED, "Jackpot")
        assert meter_row(store)["amount"] == SEED
        assert ledger_balances(store) == {HOUSE_ACCOUNT: -SEED, "progressive:m": SEED}
        check_books(store)
    finally:
        store.dispose()


def test_a_meter_never_goes_below_zero_and_a_refusal_changes_nothing(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    try:
        with store.transaction() as conn:
            store.open_meter(conn, "m", SEED, "Jackpot")
        before = meter_row(store)
        take = [Posting("progressive:m", -SEED - 1, "too much"), Posting("house", SEED + 1, "x")]
        with (
            pytest.raises(MeterShort, match=r"holds less than the 50\.01"),
            store.transaction() as conn,
        ):
            store.post(conn, "t1", take)
        nope = [Posting("progressive:nope", 1, "x"), Posting("house", -1, "x")]
        with pytest.raises(MeterShort, match="never opened"), store.transaction() as conn:
            store.post(conn, "t2", nope)
        assert meter_row(store) == before
        check_books(store)
    finally:
        store.dispose()


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(moves=st.lists(st.integers(-3000, 3000), min_size=1, max_size=12))
def test_the_meter_is_the_sum_of_its_postings_after_every_commit(
    tmp_path_factory: pytest.TempPathFactory, moves: list[int]
) -> None:
    """Property: whatever contributions and payouts are posted (a payout larger than the meter
    refused whole), the meter's row equals its account's postings after every commit, it is never
    negative, and its version moves on with each change."""
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('meter') / 'felt.db'}")
    store.migrate()
    try:
        with store.transaction() as conn:
            store.open_meter(conn, "m", SEED, "Jackpot")
        expected = SEED
        for i, d in enumerate(moves):
            version, version_amount = meter_row(store)["version"], expected
            entries = [Posting("progressive:m", d, "move"), Posting("house", -d, "move")]
            if expected + d < 0:
                with pytest.raises(MeterShort), store.transaction() as conn:
                    store.post(conn, f"t{i}", entries)
            else:
                with store.transaction() as conn:
                    store.post(conn, f"t{i}", entries)
                expected += d
            row = meter_row(store)
            assert row["amount"] == expected >= 0
            moved = d != 0 and row["amount"] != version_amount
            assert row["version"] == version + (1 if moved else 0)
            check_books(store)
    finally:
        store.dispose()


def _pay_the_meter(store: Store, paid: list[int], barrier: threading.Barrier) -> None:
    """One payer: read the meter locked, pay all of it to the house, in one transaction."""
    barrier.wait()
    with store.transaction() as conn:
        amount = store.meter(conn, "m", lock=True)[1]
        time.sleep(0.05)  # the other payer is at its read meanwhile
        store.post(conn, f"pay-{threading.get_ident()}", [
            Posting("progressive:m", -amount, "jackpot"), Posting("house", amount, "jackpot"),
        ])  # fmt: skip
    paid.append(amount)


def test_two_payers_never_pay_the_same_cents(database_url: str) -> None:
    """Two payers at once, each on its own store (as two server processes), each paying the
    whole meter as it reads it locked: together they pay exactly the meter, one of them nothing
    (19:47-16.11: a payout is of the meter as it stands)."""
    stores = [Store(database_url), Store(database_url)]
    stores[0].migrate()
    try:
        with stores[0].transaction() as conn:
            stores[0].open_meter(conn, "m", SEED, "Jackpot")
        paid: list[int] = []
        barrier = threading.Barrier(2)
        threads = [threading.Thread(target=_pay_the_meter, args=(s, paid, barrier)) for s in stores]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(paid) == [0, SEED]
        assert meter_row(stores[0])["amount"] == 0
        check_books(stores[0])
    finally:
        for s in stores:
            s.dispose()


# ----------------------------------------------------------------- the server


@pytest.fixture
def h(database_url: str, linked_tcp: dict[int, int]) -> Iterator[Harness]:
    """A server of two Three Card Poker tables linked to the meter ``m``."""
    for running in harness(database_url, [tcp("t1"), tcp("t2")]):
        running.account("ann", "player", "100.00")
        yield running


def test_linked_tables_open_their_meter_once_and_show_it(h: Harness, database_url: str) -> None:
    """The first start funds the seed once for both tables; every table message, the lobby,
    the floor and GET /api/progressive name the meter; a second process on the same database
    funds nothing more."""
    store = h.server.store
    assert meter_row(store)["amount"] == SEED
    assert ledger_balances(store)[HOUSE_ACCOUNT] == -SEED
    for tid in ("t1", "t2"):
        for who in ("ann", "admin"):
            view = h.get(who, f"/api/tables/{tid}").json()
            assert view["progressive"] == {"meter": "m", "label": "Test jackpot",
                                           "amount": "50.00"}  # fmt: skip
    assert {t["id"]: t["progressive"] for t in h.get("ann", "/api/lobby").json()} == {
        "t1": "m",
        "t2": "m",
    }
    assert {t["id"]: t["progressive"] for t in h.get("admin", "/api/floor").json()} == {
        "t1": "m",
        "t2": "m",
    }
    meters = h.get("ann", "/api/progressive").json()
    assert meters == [{"meter": "m", "label": "Test jackpot", "amount": "50.00",
                       "seed": "50.00", "tables": ["t1", "t2"]}]  # fmt: skip
    assert h.client.get("/api/progressive").status_code == 401
    other = Server(Store(database_url), [tcp("t1"), tcp("t3")], "node-b")
    try:
        other.prepare()
        assert meter_row(store)["amount"] == SEED
        check_books(store)
    finally:
        other.store.dispose()


def test_every_linked_screen_follows_a_move_made_elsewhere(h: Harness) -> None:
    """A move of the meter made by another process (here: a posting straight on the database)
    reaches the WebSocket of every linked table this process runs within its meter poll."""
    store = h.server.store
    with h.socket() as ws:
        ws.send_json({"token": h.tokens["ann"]})
        assert ws.receive_json()["type"] == "hello"
        for tid in ("t1", "t2"):
            ws.send_json({"subscribe": tid})
        with store.transaction() as conn:
            store.post(conn, "elsewhere", [Posting("house", -1234, "x"),
                                           Posting("progressive:m", 1234, "x")])  # fmt: skip
        seen: dict[str, str] = {}
        end = time.monotonic() + 20
        while len([t for t, a in seen.items() if a == "62.34"]) < 2:
            assert time.monotonic() < end, seen
            msg = ws.receive_json()
            if msg.get("type") == "table" and "progressive" in msg:
                seen[msg["table"]] = msg["progressive"]["amount"]
    assert h.get("ann", "/api/progressive").json()[0]["amount"] == "62.34"


def test_linked_tables_must_agree_on_the_seed(
    database_url: str, linked_tcp: dict[int, int]
) -> None:
    """A table linked to an open meter with another seed is one clear error at the start, and
    nothing is written; so are two tables of one file that disagree."""
    first = Server(Store(database_url), [tcp("t1")], "node-a")
    try:
        first.prepare()
    finally:
        first.store.dispose()
    linked_tcp[11] = SEED + 100
    with pytest.raises(FeltError, match=r"tables t1 and t9 .* different seeds"):
        Server(Store(database_url), [tcp("t1"), tcp("t9", 11)], "node-b")
    second = Server(Store(database_url), [tcp("t9", 11)], "node-b")
    try:
        with pytest.raises(FeltError, match=r"t1 and t9 .* seeds \(50.00 and 51.00\)"):
            second.prepare()
        assert meter_row(second.store)["seed"] == SEED
        with second.store.engine.connect() as conn:
            assert "t9" not in {s.id for s in stored_specs(conn)}
    finally:
        second.store.dispose()
