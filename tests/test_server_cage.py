"""The cashier's cage over HTTP, on SQLite and on PostgreSQL: numbered receipts written with
their ledger postings, idempotent retries, refused withdrawals that change nothing, finding
players, and the day's cage report reconciled with the ledger.

The oracle for the report is the ledger itself: the tests read every posting row and sum the
cage account's by hand, independently of :mod:`felt.server.cage`."""

from __future__ import annotations

import calendar
import itertools
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, insert, select, update

from felt.server.store import CAGE, accounts, cage_receipts, player_account, postings
from tests.server_helpers import Harness, harness


@pytest.fixture
def h(database_url: str) -> Iterator[Harness]:
    """A server with cashiers 'cage' and 'till', a supervisor 'boss', players 'ann', 'annie'
    and 'bob' (no money yet); 'ann' has logged in."""
    for running in harness(database_url, specs=[]):
        running.account("cage", "cashier")
        running.account("till", "cashier")
        running.account("boss", "supervisor")
        for name in ("ann", "annie", "bob"):
            running.account(name, "player")
        yield running


_keys = itertools.count()


def cash(h: Harness, kind: str, player: str, amount: str, cashier: str = "cage",
         key: str | None = None) -> Any:  # fmt: skip
    """A deposit or withdrawal as ``cashier``; the response."""
    path = "/api/cashier/deposit" if kind == "deposit" else "/api/cashier/withdraw"
    body = {"player": player, "amount": amount, "key": key or f"k{next(_keys)}"}
    return h.post(cashier, path, body)


def ok(r: Any) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json())


def c(text: str) -> int:
    """Dollars text as cents (the oracle's own reading, not felt's)."""
    return int(Decimal(text) * 100)


def snapshot(h: Harness) -> tuple[Any, ...]:
    """Every row money lives in: postings, receipts, balances."""
    with h.server.store.engine.connect() as conn:
        return (
            conn.execute(select(postings.c.id, postings.c.amount).order_by(postings.c.id)).all(),
            conn.execute(select(cage_receipts).order_by(cage_receipts.c.number)).all(),
            conn.execute(select(accounts.c.id, accounts.c.balance).order_by(accounts.c.id)).all(),
        )


def cage_postings(h: Harness) -> list[tuple[str, int, float]]:
    """Every posting on the cage account: (txn, cents, time)."""
    with h.server.store.engine.connect() as conn:
        rows = conn.execute(
            select(postings.c.txn, postings.c.amount, postings.c.at).where(
                postings.c.account == CAGE
            )
        ).all()
    return [(str(t), int(a), float(at)) for t, a, at in rows]


def test_receipts_are_numbered_with_the_balance_before_and_after(h: Harness) -> None:
    steps = [("deposit", "ann", "100.00"), ("deposit", "bob", "7.25"),
             ("withdrawal", "ann", "30.50"), ("deposit", "ann", "0.01")]  # fmt: skip
    expected = {"ann": 0, "bob": 0}
    numbers = []
    for kind, player, amount in steps:
        before = expected[player]
        expected[player] += c(amount) if kind == "deposit" else -c(amount)
        got = ok(cash(h, kind, player, amount))
        numbers.append(got["number"])
        assert (got["kind"], got["player"], got["cashier"], got["amount"]) == (
            kind, player, "cage", amount
        )  # fmt: skip
        assert c(got["balance_before"]) == before
        assert c(got["balance_after"]) == expected[player] == c(got["balance"])
        stamp = datetime.fromisoformat(got["time"].replace("Z", "+00:00"))
        assert abs(stamp.timestamp() - got["epoch"]) < 1
        # the receipt's txn is the ledger transaction: two rows, cage and wallet, same time
        with h.server.store.engine.connect() as conn:
            rows = conn.execute(
                select(postings.c.account, postings.c.amount, postings.c.at).where(
                    postings.c.txn == got["txn"]
                )
            ).all()
            pid = conn.execute(select(accounts.c.id).where(accounts.c.name == player)).scalar_one()
        sign = 1 if kind == "deposit" else -1
        assert sorted((a, v) for a, v, _ in rows) == sorted(
            [(CAGE, -sign * c(amount)), (player_account(int(pid)), sign * c(amount))]
        )
        assert {at for _, _, at in rows} == {got["epoch"]}
    assert numbers == list(range(numbers[0], numbers[0] + len(steps)))
    assert ok(h.get("ann", "/api/me"))["balance"] == "69.51"


def test_a_retried_key_returns_the_same_receipt_and_writes_no_second(h: Harness) -> None:
    first = ok(cash(h, "deposit", "ann", "25.00", key="same"))
    before = snapshot(h)
    again = ok(cash(h, "deposit", "ann", "25.00", key="same"))
    assert again == {**first, "replayed": True}
    assert snapshot(h) == before
    assert ok(h.get("cage", f"/api/cage/receipts/{first['number']}")) == {
        k: v for k, v in first.items() if k != "balance"
    }
    # the same key for another amount is refused, and writes nothing either
    assert cash(h, "deposit", "ann", "26.00", key="same").status_code == 409
    assert snapshot(h) == before


def test_a_withdrawal_over_the_balance_is_refused_names_the_balance_and_changes_nothing(
    h: Harness,
) -> None:
    ok(cash(h, "deposit", "ann", "30.00"))
    before = snapshot(h)
    r = cash(h, "withdrawal", "ann", "30.01")
    assert r.status_code == 409
    assert "30.00" in r.json()["error"]
    assert "balance" in r.json()["error"]
    assert snapshot(h) == before
    r = cash(h, "withdrawal", "bob", "0.01")
    assert r.status_code == 409
    assert "0.00" in r.json()["error"]
    assert snapshot(h) == before
    # the refused key was not spent: the same key for an allowed amount is paid
    got = ok(cash(h, "withdrawal", "ann", "30.00", key="w"))
    assert (got["balance_before"], got["balance_after"]) == ("30.00", "0.00")


def test_bad_amounts_players_and_roles_are_clean_refusals(h: Harness) -> None:
    before = snapshot(h)
    for amount in ("0", "-1.00", "1.001", "10000000.01", "ten"):
        r = cash(h, "deposit", "ann", amount)
        assert r.status_code == 422, (amount, r.text)
        assert "error" in r.json()
    assert cash(h, "deposit", "nobody", "1.00").status_code == 404
    assert cash(h, "deposit", "till", "1.00").status_code == 404  # a cashier has no wallet
    assert cash(h, "deposit", "ann", "1.00", cashier="boss").status_code == 403
    assert snapshot(h) == before


def test_a_receipt_is_read_by_its_cashier_or_a_supervisor(h: Harness) -> None:
    got = ok(cash(h, "deposit", "ann", "5.00"))
    path = f"/api/cage/receipts/{got['number']}"
    assert ok(h.get("cage", path))["amount"] == "5.00"
    assert ok(h.get("boss", path))["player"] == "ann"
    assert h.get("till", path).status_code == 403
    assert h.get("ann", path).status_code == 403
    assert h.get("cage", f"/api/cage/receipts/{got['number'] + 1}").status_code == 404
    # past the receipt column's range (a 32-bit integer in PostgreSQL): input, not a server error
    for bad in ("0", "x", "1.5", "9" * 30, str(2**31), "137438953471"):
        r = h.get("cage", f"/api/cage/receipts/{bad}")
        assert r.status_code == 422
        assert "error" in r.json()


def test_find_players_by_any_part_of_the_name(h: Harness) -> None:
    ok(cash(h, "deposit", "annie", "12.00"))
    found = ok(h.get("cage", "/api/cage/players?q=AN"))
    assert [p["name"] for p in found["players"]] == ["ann", "annie"]  # cashiers never listed
    annie = found["players"][1]
    assert (annie["balance"], annie["state"]) == ("12.00", "active")
    with h.server.store.transaction() as conn:  # filled by the log-in (the staff part)
        conn.execute(update(accounts).where(accounts.c.name == "ann").values(last_login_at=0.0))
    ann = ok(h.get("cage", "/api/cage/players?q=ann"))["players"][0]
    assert ann["last_login"] == "1970-01-01T00:00:00Z"
    # a substring: names that begin with it first
    assert [p["name"] for p in ok(h.get("cage", "/api/cage/players?q=n"))["players"]] == [
        "ann", "annie"
    ]  # fmt: skip
    assert [p["name"] for p in ok(h.get("boss", "/api/cage/players?q=b"))["players"]] == ["bob"]
    assert ok(h.get("cage", "/api/cage/players?q=_"))["players"] == []  # '_' is no wildcard
    assert len(ok(h.get("cage", "/api/cage/players"))["players"]) == 3
    r = h.get("cage", "/api/cage/players?q=a%20b")
    assert r.status_code == 400
    assert "error" in r.json()
    assert h.get("ann", "/api/cage/players?q=a").status_code == 403
    with h.server.store.transaction() as conn:
        conn.execute(update(accounts).where(accounts.c.name == "bob").values(locked=True))
    assert ok(h.get("cage", "/api/cage/players?q=bob"))["players"][0]["state"] == "locked"


def test_one_players_recent_receipts_newest_first(h: Harness) -> None:
    made = [ok(cash(h, "deposit", "ann", f"{n}.00"))["number"] for n in range(1, 5)]
    ok(cash(h, "deposit", "bob", "1.00"))
    got = ok(h.get("cage", "/api/cage/players/ann/receipts?limit=3"))
    assert got["player"]["balance"] == "10.00"
    assert [r["number"] for r in got["receipts"]] == made[::-1][:3]
    assert h.get("cage", "/api/cage/players/nobody/receipts").status_code == 404
    assert h.get("cage", "/api/cage/players/ann/receipts?limit=0").status_code == 422


def _yesterday(h: Harness, numbers: list[int]) -> None:
    """Move receipts (and their ledger postings, with them) to the same hour yesterday."""
    with h.server.store.transaction() as conn:
        for n in numbers:
            txn, at = conn.execute(
                select(cage_receipts.c.txn, cage_receipts.c.at).where(cage_receipts.c.number == n)
            ).one()
            conn.execute(
                update(cage_receipts).where(cage_receipts.c.number == n).values(at=at - 86400)
            )
            conn.execute(update(postings).where(postings.c.txn == txn).values(at=at - 86400))


def _by_hand(h: Harness, day: date) -> dict[str, int]:
    """The oracle: the cage's position (taken in minus paid out: minus its postings) before,
    during and through ``day``, summed over every posting row here."""
    start = calendar.timegm(day.timetuple())
    end = start + 86400
    rows = cage_postings(h)
    return {
        "opening": -sum(a for _, a, at in rows if at < start),
        "day": -sum(a for _, a, at in rows if start <= at < end),
        "closing": -sum(a for _, a, at in rows if at < end),
    }


def test_the_day_report_reconciles_with_the_ledger_by_hand(h: Harness) -> None:
    if datetime.now(UTC).hour == 23 and datetime.now(UTC).minute >= 58:
        time.sleep(150)  # not across midnight: every movement below must fall on one day
    old = [ok(cash(h, "deposit", "ann", "500.00"))["number"],
           ok(cash(h, "withdrawal", "ann", "120.00"))["number"]]  # fmt: skip
    _yesterday(h, old)
    ok(cash(h, "deposit", "ann", "40.00"))
    ok(cash(h, "deposit", "bob", "60.50", cashier="till"))
    ok(cash(h, "withdrawal", "ann", "15.25", cashier="till"))
    ok(cash(h, "withdrawal", "bob", "0.50"))
    assert cash(h, "withdrawal", "bob", "999.00").status_code == 409  # refused: not a movement
    today = datetime.now(UTC).date()
    report = ok(h.get("cage", "/api/cage/report"))
    assert report["date"] == today.isoformat()
    oracle = _by_hand(h, today)
    assert c(report["opening"]) == oracle["opening"] == 38000
    assert c(report["net"]) == oracle["day"] == 4000 + 6050 - 1525 - 50
    assert c(report["closing"]) == oracle["closing"]
    assert (report["deposits"], report["withdrawals"], report["count"]) == ("100.50", "15.75", 4)
    assert report["by_cashier"] == [
        {"cashier": "cage", "deposits": "40.00", "withdrawals": "0.50", "count": 2, "net": "39.50"},
        {
            "cashier": "till",
            "deposits": "60.50",
            "withdrawals": "15.25",
            "count": 2,
            "net": "45.25",
        },
    ]
    assert [(m["kind"], m["amount"]) for m in report["movements"]] == [
        ("deposit", "40.00"), ("deposit", "60.50"), ("withdrawal", "15.25"), ("withdrawal", "0.50")
    ]  # fmt: skip
    assert report["reconciled"] is True
    assert report["reconciliation"] == "reconciled"
    # yesterday's report: its own two movements, closing where today's opens
    yesterday = ok(h.get("boss", f"/api/cage/report?date={today - timedelta(days=1)}"))
    assert (yesterday["opening"], yesterday["closing"]) == ("0.00", "380.00")
    assert yesterday["complete"] is True
    assert yesterday["reconciled"] is True
    # a supervisor narrows to one cashier; the reconciliation stays the whole cage's
    till = ok(h.get("boss", "/api/cage/report?cashier=till"))
    assert {m["cashier"] for m in till["movements"]} == {"till"}
    assert [t["cashier"] for t in till["by_cashier"]] == ["till"]
    assert till["closing"] == report["closing"]
    assert till["reconciled"]


def test_a_ledger_posting_without_a_receipt_is_named_as_a_difference(h: Harness) -> None:
    """The reconciliation can fail: a cage posting no receipt accounts for."""
    ok(cash(h, "deposit", "ann", "10.00"))
    with h.server.store.transaction() as conn:
        conn.execute(
            insert(postings),
            [{"txn": "stray", "account": CAGE, "amount": -700, "reason": "x", "at": time.time()},
             {"txn": "stray", "account": "house", "amount": 700, "reason": "x", "at": time.time()}],
        )  # fmt: skip
    report = ok(h.get("cage", "/api/cage/report"))
    assert report["reconciled"] is False
    assert "7.00" in report["reconciliation"]
    assert "difference" in report["reconciliation"]
    assert c(report["ledger"]["closing"]) == _by_hand(h, datetime.now(UTC).date())["closing"]


def test_a_receipt_that_does_not_match_its_own_postings_is_named(h: Harness) -> None:
    """Two receipts' postings changed so the day's total still agrees (12.00 moved from one
    deposit's cage posting to the other's): the sum alone cannot see it; the check of each
    receipt against its own transaction names both."""
    first = ok(cash(h, "deposit", "ann", "20.00"))
    second = ok(cash(h, "deposit", "bob", "30.00"))
    with h.server.store.transaction() as conn:
        for txn, moved in ((first["txn"], 1200), (second["txn"], -1200)):
            conn.execute(
                update(postings)
                .where(postings.c.txn == txn, postings.c.account == CAGE)
                .values(amount=postings.c.amount + moved)
            )
    report = ok(h.get("cage", "/api/cage/report"))
    assert report["ledger"]["day"] == report["net"]  # the sum agrees ...
    assert report["reconciled"] is False  # ... but each receipt is checked
    assert f"receipt {first['number']} " in report["reconciliation"]
    assert f"receipt {second['number']} " in report["reconciliation"]


def test_report_dates_and_who_may_read_it(h: Harness) -> None:
    today = datetime.now(UTC).date()
    for bad in ("2026-13-01", "yesterday", "2026-02-30", "26-11-2026", "0999-01-01",
                (today + timedelta(days=1)).isoformat()):  # fmt: skip
        r = h.get("cage", f"/api/cage/report?date={bad}")
        assert r.status_code in (400, 422), (bad, r.text)
        assert "date" in r.json()["error"]
    assert ok(h.get("till", "/api/cage/report?date=2020-02-29"))["count"] == 0
    assert ok(h.get("till", "/api/cage/report?cashier=till"))["cashier"] == "till"
    assert h.get("till", "/api/cage/report?cashier=cage").status_code == 403
    assert h.get("boss", "/api/cage/report?cashier=nobody").status_code == 404
    assert h.get("boss", "/api/cage/report?cashier=ann").status_code == 404
    assert h.get("ann", "/api/cage/report").status_code == 403


MOVES = st.lists(
    st.tuples(
        st.sampled_from(["deposit", "withdrawal"]),
        st.sampled_from(["ann", "annie", "bob"]),
        st.integers(min_value=1, max_value=5000),
        st.sampled_from(["cage", "till"]),
    ),
    max_size=12,
)


@settings(max_examples=12, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(moves=MOVES)
def test_property_receipts_net_is_the_ledgers_cage_movement(h: Harness, moves: Any) -> None:
    """Any deposits and withdrawals (those over the balance refused): the receipts' net equals
    minus the cage account's postings, each receipt's balance after is its balance before plus
    or minus its amount and the next receipt of that player starts from it, and each refused
    withdrawal wrote nothing.  One server runs every example, so the sums are cumulative."""
    for kind, player, amount, cashier in moves:
        before = snapshot(h)
        r = cash(h, kind, player, f"{amount // 100}.{amount % 100:02d}", cashier=cashier)
        if r.status_code == 409:
            assert kind == "withdrawal"
            assert snapshot(h) == before
        else:
            assert r.status_code == 200, r.text
    with h.server.store.engine.connect() as conn:
        rows = conn.execute(select(cage_receipts).order_by(cage_receipts.c.number)).all()
        balances = dict(conn.execute(select(accounts.c.id, accounts.c.balance)).all())
        cage_sum = conn.execute(
            select(func.coalesce(func.sum(postings.c.amount), 0)).where(postings.c.account == CAGE)
        ).scalar()
    net = sum(r.amount if r.kind == "deposit" else -r.amount for r in rows)
    assert net == -int(cage_sum or 0)
    last: dict[int, int] = {}
    for r in rows:
        sign = 1 if r.kind == "deposit" else -1
        assert r.balance_after == r.balance_before + sign * r.amount >= 0
        assert r.balance_before == last.get(r.player_id, 0)
        last[r.player_id] = r.balance_after
    for pid, balance in last.items():
        assert balances[pid] == balance
    report = ok(h.get("boss", "/api/cage/report"))
    assert report["reconciled"] is True


def test_the_same_key_sent_twice_at_once_writes_one_receipt_and_answers_both_cleanly(
    h: Harness,
) -> None:
    """A double click sends one deposit twice with one key at the same moment: one receipt
    and one pair of postings are written, and each request gets that receipt (or, if the twin
    is still writing it, a clean refusal), never a server error.  On PostgreSQL the two
    requests really overlap: the second waits on the player's row the first has locked."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from felt.core.errors import FeltError
    from felt.server import auth, cage

    cashier = auth.authenticate(h.server.store, h.tokens["cage"])
    for attempt in range(8):
        gate = Barrier(2)

        def send(key: str = f"twin-{attempt}", gate: Barrier = gate) -> dict[str, Any] | str:
            gate.wait()
            try:
                return cage.cash(h.server.store, cashier, "ann", "5.00", key, 1)
            except FeltError as err:  # a clean refusal is allowed; anything else fails
                return type(err).__name__

        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda _: send(), range(2)))
        receipts = {a["number"] for a in answers if isinstance(a, dict)}
        assert len(receipts) == 1, answers
        assert all(isinstance(a, dict) or a == "Conflict" for a in answers), answers
    with h.server.store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(cage_receipts)).scalar_one() == 8
        wallet = player_account(
            conn.execute(select(accounts.c.id).where(accounts.c.name == "ann")).scalar_one()
        )
        total = select(func.sum(postings.c.amount)).where(postings.c.account == wallet)
        assert conn.execute(total).scalar_one() == 8 * 500
