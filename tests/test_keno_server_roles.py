"""Who acts for keno on the server (issue 18, item 13) and manual payment by the ticket's value
(item 12), on SQLite and PostgreSQL: "a keno supervisor or a supervisor thereof" (15.5(e),
15.6(b), 15.7(c)2) lets the casino's supervisor override and authorise, and nothing else; a
keno writer locks out with a keno supervisor's verbal approval recorded by name (15.5(d)).

Figures from the example rate card: 4 of 4 pays $110.00 for $1.00, so $1,540.00 at $14.00;
2 of 2 pays $12.00 for $1.00; 5 of 5 pays $700.00 for $1.00, so $7,000.00 at $10.00.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from felt.games.keno import server as keno_module
from tests.server_helpers import Harness
from tests.test_keno_server import (
    LOSER,
    NUMBERS,
    STRAIGHT4,
    SUPER,
    WRITER,
    Draws,
    hold,
    issue,
    keno_harness,
    ledger,
    mirrored,
    ok,
    refused,
    release,
    status,
)

ADMIN = "admin"
"""The table server's supervisor: a supervisor of the keno supervisor."""


@pytest.fixture
def h(database_url: str) -> Iterator[Harness]:
    yield from keno_harness(database_url)


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> Draws:
    d = Draws()
    monkeypatch.setattr(keno_module, "draw_numbers", d)
    return d


def test_15_5_e_15_6_b_a_supervisor_thereof_overrides_and_authorises(
    h: Harness, draws: Draws
) -> None:
    """The casino supervisor holds and releases the lock-out and authorises a writer's $1,540
    payout; the keno actions the text gives only to keno staff stay refused to them."""
    h.keno_wait(lambda s: s["state"] == "open")
    for _ in range(50):  # the game may close between the wait and the hold: take the next one
        r = h.keno(ADMIN, {"action": "override", "what": "hold", "reason": "long line"})
        if r.status_code == 200:
            break
        refused(r, 400, "is locked")
        h.keno_wait(lambda s: s["state"] == "open")
    assert status(h)["held"] is True
    draws.queue = [NUMBERS]
    issue(h, STRAIGHT4 | {"rate": "14.00"})
    for action in ("issue", "void", "redeem", "lock_out", "cancel_races", "system_down"):
        refused(h.keno(ADMIN, {"action": action}), 403)
    game = status(h)["game"]
    ok(h.keno(ADMIN, {"action": "override", "what": "release", "reason": "line served"}))
    h.keno_wait(lambda s: s["board"] is not None and s["board"]["game"] >= game)
    refused(h.keno(WRITER, {"action": "redeem", "station": 1, "ticket": 1}), 400, "15.6(b)")
    ok(h.keno(ADMIN, {"action": "approve", "ticket": 1}))
    paid = ok(h.keno(WRITER, {"action": "redeem", "station": 1, "ticket": 1}))
    assert paid["paid"] == "1540.00"
    assert f"authorised by {ADMIN}" in paid["effects"][0]["detail"]
    assert ledger(h.server.store) == mirrored(h)


def test_15_7_c_2_a_supervisor_thereof_authorises_a_manual_payment(
    h: Harness, draws: Draws
) -> None:
    hold(h)
    draws.queue = [NUMBERS]
    issue(h, {"numbers": [1, 2], "rate": "1.00"})  # 2 of 2: $12.00
    release(h)
    ok(h.keno(SUPER, {"action": "system_down"}))
    pay = {"action": "manual_pay", "station": 1, "ticket": 1, "amount": "12.00"}
    refused(h.keno(WRITER, pay), 400, "15.7(c)2")
    ok(h.keno(ADMIN, {"action": "approve", "ticket": 1}))
    assert ok(h.keno(WRITER, pay))["paid"] == "12.00"


def test_15_7_c_the_manual_limit_is_the_tickets_value_not_the_amount_typed(
    h: Harness, draws: Draws
) -> None:
    """A $7,000 winner typed as $1,000 is not paid by hand; once the system is up it is paid its
    whole $7,000 (before: $1,000 by hand, and the rest never)."""
    hold(h)
    draws.queue = [NUMBERS]
    issue(h, {"numbers": [1, 2, 3, 4, 5], "rate": "10.00"})
    release(h)
    ok(h.keno(SUPER, {"action": "system_down"}))
    before = ledger(h.server.store)
    pay = {"action": "manual_pay", "station": 1, "ticket": 1, "amount": "1000.00"}
    refused(h.keno(SUPER, pay), 400, "15.7(c)3")
    assert ledger(h.server.store) == before
    ok(h.keno(SUPER, {"action": "system_up"}))
    paid = ok(h.keno(SUPER, {"action": "redeem", "station": 1, "ticket": 1}))
    assert paid["paid"] == "7000.00"
    assert ledger(h.server.store) == mirrored(h)


def test_15_5_d_a_writer_locks_out_with_a_supervisors_verbal_approval(database_url: str) -> None:
    """On a system without automatic lock-out, a keno writer locks out naming the keno
    supervisor who approved it; the name is recorded; no name, or a name that is not a keno
    supervisor's account, is refused and nothing changes."""
    for h in keno_harness(database_url, automatic_lockout=False):
        h.keno_wait(lambda s: s["state"] == "open" and s["remaining_seconds"] == 0)
        issue(h, LOSER)
        before = (status(h), ledger(h.server.store))
        refused(h.keno(WRITER, {"action": "lock_out"}), 400, "approved_by", "15.5(d)")
        for name in ("pat", ADMIN, WRITER, "nobody", 7, ""):
            refused(h.keno(WRITER, {"action": "lock_out", "approved_by": name}), 400,
                    "keno supervisor", "15.5(d)")  # fmt: skip
        refused(h.keno(SUPER, {"action": "lock_out", "approved_by": SUPER}), 400, "own authority")
        assert (status(h), ledger(h.server.store)) == before
        ack = ok(h.keno(WRITER, {"action": "lock_out", "approved_by": SUPER}))
        assert f"{WRITER} approved by {SUPER}" in ack["effects"][0]["detail"]
        h.keno_wait(lambda s: s["board"] is not None)


def test_15_4_e_races_cancelled_before_the_first_are_a_void_on_the_stations_list(
    h: Harness,
) -> None:
    """Cancelling a 3-race $1.00 ticket ($3.00) before its first game starts voids it whole: the
    $3.00 goes back to the patron from station 2's drawer, and it is on station 2's void list
    (before: cancelled, nothing refunded, on no list)."""
    hold(h)
    issue(h, LOSER | {"games": 3}, station=2)
    ack = ok(h.keno(SUPER, {"action": "cancel_races", "ticket": 1, "reason": "patron left"}))
    assert [(e["kind"], e["ticket"], e["amount"]) for e in ack["effects"]] == [("void", 1, "3.00")]
    voids = ok(h.get(SUPER, "/api/keno/keno/voids"))["stations"]
    assert ([t["number"] for t in voids["1"]], [t["number"] for t in voids["2"]]) == ([], [1])
    assert ok(h.get(SUPER, "/api/keno/keno/tickets/1"))["voided"] is True
    assert ledger(h.server.store) == mirrored(h)
    assert ledger(h.server.store).get("keno:keno:patrons", 0) == 0
