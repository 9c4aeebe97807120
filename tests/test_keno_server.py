"""Keno on the table server (N.J.A.C. 19:47-15 through the HTTP API), on SQLite and PostgreSQL:
each clause's scenario as staff would play it, role refusals, bad input refused with no change,
idempotent retries, the ledger mirrored and summing to zero, and recovery from the record.

The schedule runs for real (games of about a second); a test that needs a game to stay open holds
the automatic lock-out with a supervisor's override (15.5(e)) and releases it to have the game
locked out and drawn.  The numbers drawn are fixed where a test needs a winner (the server's draw
function is replaced; the draw itself is checked in tests/test_keno_system.py).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from felt.core.errors import FeltError
from felt.games.keno import server as keno_module
from felt.games.keno import system as ks
from felt.games.keno.codec import from_json, to_json
from felt.games.keno.ratecard import example_rate_card, example_rate_card_path
from felt.games.keno.server import Approve, KenoHost, keno_events, keno_games, status_view
from felt.games.keno.snapshot import same_state
from felt.games.keno.spec import KenoSpec
from felt.games.keno.system import Action, Staff
from felt.server.auth import Account
from felt.server.spec import any_spec_from_json, default_specs, load_specs
from felt.server.store import Store
from tests.keno_helpers import card_data
from tests.server_helpers import Harness, harness, keno_spec, ledger_balances

NUMBERS = tuple(range(1, 21))
"""The draw the tests fix where they need a winner: 1 to 20 in this order."""
WRITER, SUPER = "wendy", "sam"


class Draws:
    """The server's draw function, replaced: the numbers queued, else random (queue them once
    the game is held, lest a game drawn meanwhile take them)."""

    def __init__(self) -> None:
        self.queue: list[tuple[int, ...]] = []
        self.real = keno_module.draw_numbers

    def __call__(self, source: Any) -> tuple[int, ...]:
        return self.queue.pop(0) if self.queue else self.real(source)


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> Draws:
    d = Draws()
    monkeypatch.setattr(keno_module, "draw_numbers", d)
    return d


def keno_harness(url: str, **changes: Any) -> Iterator[Harness]:
    """A server running one fast keno system ``keno`` with a keno writer, a keno supervisor, a
    table supervisor (admin) and a player logged in."""
    for h in harness(url, [keno_spec(**changes)]):
        h.account(WRITER, "keno_writer")
        h.account(SUPER, "keno_supervisor")
        h.account("pat", "player")
        yield h


@pytest.fixture
def h(database_url: str) -> Iterator[Harness]:
    yield from keno_harness(database_url)


def host_of(h: Harness, system: str = "keno") -> KenoHost:
    host = h.server.systems[system]
    assert isinstance(host, KenoHost)
    return host


def status(h: Harness) -> dict[str, Any]:
    return dict(h.client.get("/api/keno/keno").json())


def still(h: Harness) -> dict[str, Any]:
    """The status without the countdown (which runs on)."""
    return {k: v for k, v in status(h).items() if k != "remaining_seconds"}


def ok(r: Any) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json())


def refused(r: Any, code: int = 400, *words: str) -> str:
    assert r.status_code == code, r.text
    error = str(r.json()["error"])
    for w in words:
        assert w in error, error
    return error


def hold(h: Harness) -> dict[str, Any]:
    """Hold the automatic lock-out of the game open now (waiting for the next if this one closes
    first); the status with the game held."""
    for _ in range(50):
        h.keno_wait(lambda s: s["state"] == "open")
        r = h.keno(SUPER, {"action": "override", "what": "hold", "reason": "a test needs time"})
        if r.status_code == 200:
            return status(h)
    raise AssertionError("no game could be held")


def release(h: Harness) -> dict[str, Any]:
    """Release the hold: the game is locked out and drawn; the status once it is drawn."""
    game = status(h)["game"]
    ok(h.keno(SUPER, {"action": "override", "what": "release", "reason": "done"}))
    return h.keno_wait(lambda s: s["board"] is not None and s["board"]["game"] >= game)


def issue(
    h: Harness, request: dict[str, Any], station: int = 1, who: str = WRITER
) -> dict[str, Any]:
    return ok(h.keno(who, {"action": "issue", "station": station, "request": request}))


ledger = ledger_balances


def mirrored(h: Harness) -> dict[str, int]:
    """The core's money() as the server's ledger accounts."""
    host = host_of(h)
    return {host.account(p): v for p, v in host.system.money().items() if v}


STRAIGHT4 = {"numbers": [1, 2, 3, 4], "rate": "1.00"}
LOSER = {"numbers": [77, 78, 79, 80], "rate": "1.00"}


# ----------------------------------------------------------------------------- 15.4 tickets


def test_15_4_c_an_issued_ticket_carries_every_item_and_its_price_is_taken(h: Harness) -> None:
    hold(h)
    ack = issue(h, STRAIGHT4 | {"rate": "2.00"})
    t = ack["ticket"]
    assert t["number"] == 1
    assert t["price"] == "2.00"
    assert [k.split(" ", 1)[0] for k in t["items"]] == [str(i) for i in range(1, 14)]
    assert t["items"]["10 keno writer"] == WRITER
    assert t["items"]["2 keno work station"] == "1"
    assert t["text"].startswith("KENO TICKET 00000001")
    assert ack["effects"][0]["kind"] == "issue"
    assert ack["effects"][0]["amount"] == "2.00"
    assert ledger(h.server.store) == {"keno:keno:patrons": -200, "keno:keno:station:1": 200}
    read = ok(h.get(SUPER, "/api/keno/keno/tickets/1"))
    assert read["items"] == t["items"]
    assert read["voided"] is False


def test_15_1_quick_pick_numbers_are_chosen_by_the_server(h: Harness) -> None:
    hold(h)
    picked = [issue(h, {"quick_pick": 6, "rate": "1.00"})["ticket"] for _ in range(3)]
    for t in picked:
        marked = t["items"]["3 numbers selected"]
        assert marked.endswith("(quick-pick)")
        numbers = [int(n) for n in marked.split()[:-1]]
        assert len(set(numbers)) == 6
        assert all(1 <= n <= 80 for n in numbers)
    assert len({t["items"]["3 numbers selected"] for t in picked}) > 1  # 1 in 300 million alike
    refused(h.keno(WRITER, {"action": "issue", "station": 1,
                            "request": {"quick_pick": True, "numbers": [1], "rate": "1.00"}}),
            400, "quick_pick")  # fmt: skip


def test_15_4_e_void_before_the_game_starts_and_the_voids_per_station(h: Harness) -> None:
    hold(h)
    issue(h, STRAIGHT4)
    issue(h, LOSER, station=2)
    issue(h, LOSER)
    void = ok(h.keno(WRITER, {"action": "void", "station": 2, "ticket": 2}))
    assert void["effects"][0]["kind"] == "void"
    ok(h.keno(SUPER, {"action": "void", "station": 1, "ticket": 3}))
    refused(h.keno(WRITER, {"action": "void", "station": 1, "ticket": 3}), 400, "already void")
    report = ok(h.get(WRITER, "/api/keno/keno/voids"))
    assert [t["number"] for t in report["stations"]["2"]] == [2]
    assert [t["number"] for t in report["stations"]["1"]] == [3]
    one = ok(h.get("admin", "/api/keno/keno/voids?station=2"))
    assert list(one["stations"]) == ["2"]
    assert ledger(h.server.store) == {"keno:keno:patrons": -100, "keno:keno:station:1": 100}
    assert ok(h.get(WRITER, "/api/keno/keno/tickets/2"))["void_station"] == 2


def test_15_5_d_nothing_issued_or_voided_once_the_game_is_locked_out(database_url: str) -> None:
    for h in keno_harness(database_url, draw_seconds=3.0):
        hold(h)
        issue(h, STRAIGHT4)
        ok(h.keno(SUPER, {"action": "override", "what": "release", "reason": "go"}))
        h.keno_wait(lambda s: s["state"] == "locked")
        before = ledger(h.server.store)
        refused(h.keno(WRITER, {"action": "issue", "station": 1, "request": LOSER}), 400,
                "locked", "15.5(d)")  # fmt: skip
        refused(h.keno(WRITER, {"action": "void", "station": 1, "ticket": 1}), 400,
                "may not be voided")  # fmt: skip
        assert ledger(h.server.store) == before
        h.keno_wait(lambda s: s["state"] == "open")  # drawn, and the next game opened
        refused(h.keno(WRITER, {"action": "void", "station": 1, "ticket": 1}), 400,
                "may not be voided")  # fmt: skip


def test_15_5_e_override_only_by_a_keno_supervisor_with_who_and_why(h: Harness) -> None:
    h.keno_wait(lambda s: s["state"] == "open")
    refused(h.keno(WRITER, {"action": "override", "what": "hold", "reason": "x"}), 403)
    held = hold(h)
    assert held["held"] is True
    refused(h.keno(SUPER, {"action": "override", "what": "release", "reason": " "}), 400, "reason")
    game = status(h)["game"]
    ack = ok(h.keno(SUPER, {"action": "override", "what": "release", "reason": "done"}))
    assert set(ack) == {"system", "seq", "action", "at", "effects"}
    assert ack["effects"][0] == {"kind": "override", "ticket": None, "amount": "0.00",
                                 "detail": ack["effects"][0]["detail"]}  # fmt: skip
    h.keno_wait(lambda s: s["board"] is not None and s["board"]["game"] >= game)
    with h.server.store.engine.connect() as conn:
        rows = [json.loads(r.effects) for r in conn.execute(select(keno_events.c.effects))]
    details = [e["detail"] for effects in rows for e in effects if e["kind"] == "override"]
    assert any(f"'hold' by {SUPER}: a test needs time" in d for d in details), details
    assert any(f"'release' by {SUPER}: done" in d for d in details), details


def test_15_5_b_g_h_games_numbered_drawn_on_the_board_and_kept(h: Harness, draws: Draws) -> None:
    game = hold(h)["game"]
    draws.queue = [NUMBERS]
    drawn = release(h)
    assert drawn["board"] == {"day": drawn["day"], "game": game, "numbers": list(NUMBERS)}
    h.keno_wait(lambda s: s["board"]["game"] >= game + 2)
    report = ok(h.get(WRITER, "/api/keno/keno/games"))
    numbers = [g["game"] for g in report["games"]]
    assert numbers == list(range(1, len(numbers) + 1))
    assert report["games"][game - 1]["numbers"] == list(NUMBERS)
    for g in report["games"]:
        assert len(set(g["numbers"])) == 20
    with h.server.store.engine.connect() as conn:
        kept = {r.number: json.loads(r.numbers) for r in conn.execute(select(keno_games))}
    assert kept[game] == list(NUMBERS)
    assert all(kept[g["game"]] == g["numbers"] for g in report["games"])


def test_15_5_c_the_countdown_is_displayed(h: Harness) -> None:
    s = h.keno_wait(lambda s: s["state"] == "open" and s["remaining_seconds"] is not None)
    closes = datetime.fromisoformat(s["closes_at"])
    assert 0 <= s["remaining_seconds"] <= 1.0
    assert closes > datetime.now(UTC) - timedelta(seconds=1)


def test_15_5_c_notice_system_locks_out_one_minute_after_the_notice(database_url: str) -> None:
    for h in keno_harness(database_url, closing="notice", draw_seconds=0.05):
        s = h.keno_wait(lambda s: s["state"] == "open")
        assert s["closes_at"] is None
        host = host_of(h)
        ok(h.keno(WRITER, {"action": "closing_notice"}))
        refused(h.keno(WRITER, {"action": "closing_notice"}), 400, "was given")
        assert status(h)["state"] == "open"
        host.clock_offset = timedelta(seconds=61)  # a minute passes
        host.changed.set()
        h.keno_wait(lambda s: s["board"] is not None and s["board"]["game"] == s["game"])


# ----------------------------------------------------------------------------- 15.6, 15.7 payment


def test_15_6_a_a_winner_is_paid_once_as_computed(h: Harness, draws: Draws) -> None:
    hold(h)
    draws.queue = [NUMBERS]
    issue(h, STRAIGHT4)
    issue(h, LOSER)
    refused(h.keno(WRITER, {"action": "redeem", "station": 1, "ticket": 1}), 400, "not drawn")
    release(h)
    paid = ok(h.keno(WRITER, {"action": "redeem", "station": 2, "ticket": 1}))
    assert paid["paid"] == "110.00"
    refused(h.keno(WRITER, {"action": "redeem", "station": 1, "ticket": 1}), 400, "paid once")
    refused(h.keno(WRITER, {"action": "redeem", "station": 1, "ticket": 2}), 400, "did not win")
    t = ok(h.get(WRITER, "/api/keno/keno/tickets/1"))
    assert t["paid"] == "110.00"
    assert t["won"] == {str(status(h)["board"]["game"]): "110.00"} or t["owed"] == "110.00"
    assert ledger(h.server.store) == {"keno:keno:patrons": -200 + 11000,
                                      "keno:keno:station:1": 200, "keno:keno:station:2": -11000}  # fmt: skip
    assert ledger(h.server.store) == mirrored(h)


def test_15_6_b_1500_or_more_needs_a_live_supervisor_approval(h: Harness, draws: Draws) -> None:
    hold(h)
    draws.queue = [NUMBERS]
    issue(h, STRAIGHT4 | {"rate": "14.00"})  # 4 of 4 at $14: $1,540
    issue(h, STRAIGHT4 | {"rate": "14.00"})
    release(h)
    redeem = {"action": "redeem", "station": 1, "ticket": 1}
    refused(h.keno(WRITER, redeem), 400, "keno supervisor", "15.6(b)")
    refused(h.keno(WRITER, {"action": "approve", "ticket": 1}), 403)
    refused(h.keno(SUPER, {"action": "approve", "ticket": 99}), 400, "no keno ticket 99")
    ok(h.keno(SUPER, {"action": "approve", "ticket": 1}))
    paid = ok(h.keno(WRITER, redeem))
    assert paid["paid"] == "1540.00"
    assert f"authorised by {SUPER}" in paid["effects"][0]["detail"]
    # an approval lasts ten minutes
    ok(h.keno(SUPER, {"action": "approve", "ticket": 2}))
    host_of(h).clock_offset = timedelta(minutes=11)
    refused(h.keno(WRITER, redeem | {"ticket": 2}), 400, "15.6(b)")
    by_supervisor = ok(h.keno(SUPER, redeem | {"ticket": 2}))  # the supervisor is the authority
    assert f"authorised by {SUPER}" in by_supervisor["effects"][0]["detail"]


def test_15_6_b_an_approval_is_for_one_payment_of_one_unpaid_ticket(
    h: Harness, draws: Draws
) -> None:
    """An approval authorises the next payment of that ticket only, once; a voided or paid
    ticket has no payment to authorise."""
    hold(h)
    draws.queue = [NUMBERS]
    for _ in range(3):
        issue(h, STRAIGHT4 | {"rate": "14.00"})  # each pays $1,540
    issue(h, LOSER)
    ok(h.keno(WRITER, {"action": "void", "station": 1, "ticket": 4}))
    refused(h.keno(SUPER, {"action": "approve", "ticket": 4}), 400, "voided", "15.6(b)")
    release(h)
    redeem = {"action": "redeem", "station": 1}
    ok(h.keno(SUPER, {"action": "approve", "ticket": 1}))
    refused(h.keno(WRITER, redeem | {"ticket": 2}), 400, "15.6(b)")  # A's approval is not B's
    ok(h.keno(WRITER, redeem | {"ticket": 1}))
    refused(h.keno(SUPER, {"action": "approve", "ticket": 1}), 400, "paid", "15.6(b)")
    ok(h.keno(SUPER, {"action": "approve", "ticket": 2}))
    ok(h.keno(WRITER, redeem | {"ticket": 2}))
    refused(h.keno(WRITER, redeem | {"ticket": 3}), 400, "15.6(b)")  # never approved
    assert ledger(h.server.store) == mirrored(h)


def test_15_5_d_nothing_is_issued_or_voided_once_the_countdown_ends(database_url: str) -> None:
    """The countdown displayed is the game's close: a ticket issued or voided after it is
    refused even if the schedule has not yet taken its turn to lock out (15.5(c)-(d), 15.4(e))."""
    for h in keno_harness(database_url, game_seconds=30.0):
        h.keno_wait(lambda s: s["state"] == "open")
        ok(h.keno(WRITER, {"action": "issue", "station": 1, "request": LOSER}))
        before = ledger(h.server.store)
        host = host_of(h)
        host.clock_offset = timedelta(seconds=31)  # the loop sleeps on until its own wake-up
        refused(h.keno(WRITER, {"action": "issue", "station": 1, "request": LOSER}), 400, "15.5(d)")
        refused(h.keno(WRITER, {"action": "void", "station": 1, "ticket": 1}), 400, "4(e)")
        assert ledger(h.server.store) == before
        assert status(h)["state"] == "locked"


def test_15_4_d_a_multi_race_ticket_is_paid_after_its_last_game(h: Harness, draws: Draws) -> None:
    hold(h)
    draws.queue = [NUMBERS, NUMBERS]
    issue(h, STRAIGHT4 | {"games": 2})
    release(h)
    refused(h.keno(WRITER, {"action": "redeem", "station": 1, "ticket": 1}), 400,
            "multi-race", "15.4(d)")  # fmt: skip
    hold(h)
    release(h)
    assert ok(h.keno(WRITER, {"action": "redeem", "station": 1, "ticket": 1}))["paid"] == "220.00"


def test_15_4_d_a_supervisor_cancels_remaining_races(h: Harness) -> None:
    hold(h)
    issue(h, LOSER | {"games": 5})
    release(h)
    refused(h.keno(WRITER, {"action": "cancel_races", "ticket": 1, "reason": "asked"}), 403)
    ack = ok(h.keno(SUPER, {"action": "cancel_races", "ticket": 1, "reason": "patron left"}))
    assert ack["effects"][0]["kind"] == "cancel"
    assert ok(h.get(SUPER, "/api/keno/keno/tickets/1"))["cancelled"] is True


def test_15_7_c_manual_payment_limits_while_the_system_is_down(h: Harness, draws: Draws) -> None:
    hold(h)
    draws.queue = [NUMBERS]
    for _ in range(4):
        issue(h, {"numbers": [1, 2], "rate": "1.00"})  # 2 of 2: $12.00
    release(h)
    refused(h.keno(WRITER, {"action": "system_down"}), 403)
    ok(h.keno(SUPER, {"action": "system_down"}))
    assert status(h)["down"] is True
    refused(h.keno(WRITER, {"action": "issue", "station": 1, "request": LOSER}), 400, "15.7(c)")
    pay = {"action": "manual_pay", "station": 1}
    # the limits follow the ticket's value ($12.00), not the amount typed (15.7(c)2)
    refused(h.keno(WRITER, pay | {"ticket": 1, "amount": "8.00"}), 400, "15.7(c)2")
    refused(h.keno(WRITER, pay | {"ticket": 2, "amount": "12.00"}), 400, "15.7(c)2")
    ok(h.keno(SUPER, {"action": "approve", "ticket": 2}))
    refused(h.keno(WRITER, pay | {"ticket": 2, "amount": "8.00"}), 400, "whole value")
    assert ok(h.keno(WRITER, pay | {"ticket": 2, "amount": "12.00"}))["paid"] == "12.00"
    refused(h.keno(SUPER, pay | {"ticket": 3, "amount": "1000.01"}), 400, "whole value")
    refused(h.keno(WRITER, pay | {"ticket": 3, "amount": 12}), 400, "amount")
    up = ok(h.keno(SUPER, {"action": "system_up"}))
    assert [e["kind"] for e in up["effects"]] == ["up"]
    assert ledger(h.server.store) == mirrored(h)


def test_15_6_d_year_end_total_of_expired_unclaimed_winnings(
    database_url: str, draws: Draws
) -> None:
    for h in keno_harness(database_url):
        hold(h)
        draws.queue = [NUMBERS]
        issue(h, STRAIGHT4)
        issue(h, {"numbers": [1, 2], "rate": "1.00"})
        release(h)
        ok(h.keno(WRITER, {"action": "redeem", "station": 1, "ticket": 2}))
        host = host_of(h)
        year = host.system.clock.year if host.system.clock else 0
        refused(h.get(WRITER, f"/api/keno/keno/unclaimed?year={year}"), 403)
        host.clock_offset = timedelta(days=800)  # the ticket's year of validity runs out
        host.changed.set()
        h.keno_wait(lambda s, after=f"{year + 1}": s["day"] > after)
        report = ok(h.get("admin", f"/api/keno/keno/unclaimed?year={year + 1}"))
        assert [t["number"] for t in report["tickets"]] == [1]
        assert report == {**report, "total": "110.00", "taken": False}
        refused(h.keno(SUPER, {"action": "year_end", "year": year + 1, "to": "the bar"}), 400,
                "keno jackpot")  # fmt: skip
        ack = ok(h.keno(SUPER, {"action": "year_end", "year": year + 1, "to": "keno jackpot"}))
        assert ack["effects"][0]["amount"] == "110.00"
        again = ok(h.get(SUPER, f"/api/keno/keno/unclaimed?year={year + 1}"))
        assert again == {**report, "taken": True}
        refused(h.keno(WRITER, {"action": "redeem", "station": 1, "ticket": 1}), 400, "expired")
        assert ledger(h.server.store)["keno:keno:keno jackpot"] == 11000
        assert ledger(h.server.store) == mirrored(h)


# ----------------------------------------------------------------------------- who may do what


def test_roles_each_action_and_record_is_refused_to_the_wrong_role(h: Harness) -> None:
    hold(h)
    issue(h, LOSER)
    issue(h, LOSER, who=SUPER)  # a keno supervisor may write tickets
    for who in ("admin", "pat"):
        refused(h.keno(who, {"action": "issue", "station": 1, "request": LOSER}), 403, "keno")
    for action in ("system_down", "system_up"):
        refused(h.keno(WRITER, {"action": action}), 403)
    refused(h.keno(WRITER, {"action": "lock_out"}), 400, "approved_by")  # 15.5(d)
    for scheduled in ("open_day", "open_game", "draw"):
        refused(h.keno(SUPER, {"action": scheduled}), 403, "schedule")
    assert h.client.post("/api/keno/keno/actions",
                         json={"action": {"action": "closing_notice"}, "key": "k"}).status_code == 401  # fmt: skip
    for who in (WRITER, SUPER, "admin"):
        ok(h.get(who, "/api/keno/keno/tickets/1"))
        ok(h.get(who, "/api/keno/keno/games"))
    refused(h.get("pat", "/api/keno/keno/tickets/1"), 403)
    refused(h.get("pat", "/api/keno/keno/voids"), 403)
    refused(h.get(WRITER, "/api/keno/keno/unclaimed"), 403)
    ok(h.get(SUPER, "/api/keno/keno/unclaimed"))
    assert h.client.get("/api/keno/keno").status_code == 200  # the board is public
    systems = ok(h.get("pat", "/api/keno"))["systems"]
    assert systems == [{"id": "keno", "stations": [1, 2], "closing": "countdown",
                        "automatic_lockout": True}]  # fmt: skip
    assert h.client.get("/api/keno").status_code == 401
    # issue 20, item 9: which keno boards there are is as public as the boards
    assert h.client.get("/api/keno-boards").json() == {"systems": ["keno"]}


def test_lock_out_by_hand_on_a_system_without_automatic_lock_out(database_url: str) -> None:
    for h in keno_harness(database_url, automatic_lockout=False):
        h.keno_wait(lambda s: s["state"] == "open" and s["remaining_seconds"] == 0)
        assert status(h)["state"] == "open"  # nothing locks it out by itself
        refused(h.keno(WRITER, {"action": "lock_out"}), 400, "approved_by")
        refused(h.keno(SUPER, {"action": "override", "what": "hold", "reason": "x"}), 400,
                "has none")  # fmt: skip
        ok(h.keno(SUPER, {"action": "lock_out"}))
        h.keno_wait(lambda s: s["board"] is not None)


# ----------------------------------------------------------------------------- bad input


BAD: list[tuple[dict[str, Any], int, str]] = [
    ({"action": "sing"}, 400, "action must be one of"),
    ({"action": ["issue"]}, 400, "action must be one of"),
    ({"action": {"a": 1}}, 400, "action must be one of"),
    ({"action": None}, 400, "action must be one of"),
    ({"action": "year_end", "year": -5, "to": "keno jackpot"}, 400, "past year"),
    ({"action": "issue", "station": "1", "request": LOSER}, 400, "station"),
    ({"action": "issue", "station": True, "request": LOSER}, 400, "station"),
    ({"action": "issue", "station": 9, "request": LOSER}, 400, "work station 9"),
    ({"action": "issue", "station": 1, "request": [1, 2]}, 400, "request"),
    (
        {"action": "issue", "station": 1, "request": {"numbers": [1, 1], "rate": "1.00"}},
        400,
        "marked twice",
    ),
    (
        {
            "action": "issue",
            "station": 1,
            "request": {"numbers": list(range(1, 17)), "rate": "1.00"},
        },
        400,
        "not offered",
    ),
    ({"action": "issue", "station": 1, "request": LOSER | {"price": "2.00"}}, 400, "priced"),
    ({"action": "issue", "station": 1, "request": LOSER | {"rate": "0.50"}}, 400, "wager"),
    (
        {"action": "issue", "station": 1, "request": {"quick_pick": 0, "rate": "1.00"}},
        400,
        "quick_pick",
    ),
    ({"action": "issue", "station": 1, "request": LOSER, "colour": "red"}, 400, "colour"),
    ({"action": "void", "station": 1, "ticket": True}, 400, "ticket"),
    ({"action": "void", "station": 1, "ticket": 99}, 400, "no keno ticket 99"),
    ({"action": "redeem", "station": 1, "ticket": 1, "method": "bitcoin"}, 400, "payment is by"),
    ({"action": "redeem", "station": 1, "ticket": 1, "manual_entry": "yes"}, 400, "manual_entry"),
    ({"action": "manual_pay", "station": 1, "ticket": 1, "amount": "8.00"}, 400, "not operational"),
    ({"action": "system_up"}, 400, "operational"),
    ({"action": "year_end", "year": 3000, "to": "keno jackpot"}, 400, "after the year ends"),
    ({"action": "override", "what": "explode", "reason": "x"}, 400, "hold, release or lock"),
    ({"action": "cancel_races", "ticket": 1, "reason": "x"}, 400, "no remaining races"),
]


def test_bad_input_is_refused_with_one_clear_error_and_no_change(h: Harness) -> None:
    hold(h)
    issue(h, LOSER)
    host = host_of(h)
    before = (still(h), ledger(h.server.store), copy.deepcopy(host.system.state()))
    for body, code, words in BAD:
        who = (
            SUPER
            if body["action"] in ("override", "cancel_races", "system_up", "year_end")
            else WRITER
        )
        error = refused(h.keno(who, body), code, words)
        assert "\n" not in error
        assert "Traceback" not in error
    paths = ("/api/keno/keno/tickets/x", "/api/keno/keno/games?day=yesterday",
             "/api/keno/keno/voids?station=7", "/api/keno/keno/unclaimed?year=99999")  # fmt: skip
    for path in paths:
        assert 400 <= h.get(SUPER, path).status_code < 500
    refused(h.get(SUPER, "/api/keno/keno/tickets/5"), 404)
    refused(h.client.get("/api/keno/nope"), 404)
    refused(h.post(WRITER, "/api/keno/keno/actions", {"action": {"action": "closing_notice"}}), 422)
    after = (still(h), ledger(h.server.store), host.system.state())
    assert after == before


def test_a_table_is_not_a_keno_system_and_back(database_url: str) -> None:
    from tests.server_helpers import fast_specs

    for h in harness(database_url, [*fast_specs(), keno_spec()]):
        h.account("ann", "player")
        refused(h.client.get("/api/keno/b5"), 404, "not a keno system")
        refused(h.get("ann", "/api/tables/keno"), 404, "keno system")


# ----------------------------------------------------------------------------- retries, ledger


def test_a_retry_with_the_same_key_is_answered_the_same_and_applied_once(h: Harness) -> None:
    hold(h)
    body = {"action": "issue", "station": 1, "request": LOSER}
    first = ok(h.keno(WRITER, body, key="same"))
    again = ok(h.keno(WRITER, body, key="same"))
    assert again == {**first, "replayed": True}
    assert len(host_of(h).system.tickets) == 1
    refused(h.keno(WRITER, {**body, "station": 2}, key="same"), 409, "another request")


def test_the_ledger_sums_to_zero_and_mirrors_the_core(h: Harness, draws: Draws) -> None:
    hold(h)
    draws.queue = [NUMBERS]
    for station in (1, 2, 1):
        issue(h, STRAIGHT4, station=station)
    ok(h.keno(WRITER, {"action": "void", "station": 2, "ticket": 2}))
    release(h)
    ok(h.keno(WRITER, {"action": "redeem", "station": 2, "ticket": 3}))
    assert h.server.store.ledger_sum() == 0
    assert ledger(h.server.store) == mirrored(h)
    money = host_of(h).system.money()
    assert money["patrons"] == -300 + 100 + 11000  # three sold, one voided, ticket 3 paid


def test_websocket_subscribers_get_the_keno_status(h: Harness) -> None:
    with h.socket() as ws:
        ws.send_json({"token": h.tokens["pat"]})
        assert ws.receive_json()["type"] == "hello"
        ws.send_json({"subscribe": "keno"})
        first = ws.receive_json()
        assert first["type"] == "keno"
        assert first["system"] == "keno"
        assert set(first) >= {"day", "game", "state", "board", "rate_card", "remaining_seconds"}
        seen = ws.receive_json()  # the schedule moves on (a repeat of the same status may come
        for _ in range(5):  # first: a push races the subscription's own first answer)
            if seen["version"] > first["version"]:
                break
            assert (seen["type"], seen["version"]) == ("keno", first["version"])
            seen = ws.receive_json()
        assert seen["type"] == "keno"
        assert seen["version"] > first["version"]
    hold(h)
    with h.socket() as ws:  # a keno writer acts over the WebSocket as over HTTP
        ws.send_json({"token": h.tokens[WRITER]})
        assert ws.receive_json()["type"] == "hello"
        request = {"action": "issue", "station": 2, "request": LOSER}
        ws.send_json({"table": "keno", "action": request, "key": "ws-1"})
        ack = ws.receive_json()
        assert ack["type"] == "ack"
        assert ack["key"] == "ws-1"
        assert ack["ticket"]["number"] == 1
        ws.send_json({"table": "keno", "action": {"action": "draw"}, "key": "ws-2"})
        assert ws.receive_json()["status"] == 403
        ws.send_json({"table": "keno", "action": {"action": ["issue"]}, "key": "ws-3"})
        refusal = ws.receive_json()
        assert (refusal["status"], refusal["key"]) == (400, "ws-3")
        assert "action must be one of" in refusal["error"]


# ----------------------------------------------------------------------------- recovery


def test_a_restarted_server_rebuilds_the_same_system(database_url: str, draws: Draws) -> None:
    for h in keno_harness(database_url):
        hold(h)
        draws.queue = [NUMBERS]
        issue(h, STRAIGHT4)
        issue(h, LOSER | {"games": 3}, station=2)
        issue(h, LOSER)
        ok(h.keno(WRITER, {"action": "void", "station": 1, "ticket": 3}))
        release(h)
        ok(h.keno(WRITER, {"action": "redeem", "station": 1, "ticket": 1}))
        ok(h.keno(SUPER, {"action": "approve", "ticket": 2}))
        hold(h)
        original = host_of(h)
    spec = original.spec
    rebuilt = KenoHost(Store(database_url), spec, "node-b")
    try:
        rebuilt.load()
        assert same_state(rebuilt.system, original.system) == []
        assert rebuilt.status == original.status == status_view(original.system)
        assert rebuilt.version == original.version
        assert rebuilt.approvals == original.approvals
        assert rebuilt.drawn_at == original.drawn_at
    finally:
        rebuilt.store.dispose()
    for h in keno_harness_again(database_url):
        s = h.keno_wait(lambda s: s["held"] is False or s["state"] == "open")
        assert s["game"] >= original.system.game
        assert len(host_of(h).system.tickets) == 3


def keno_harness_again(url: str) -> Iterator[Harness]:
    """A second server on the same database (the accounts exist)."""
    for h in harness(url, [keno_spec()]):
        h.login("admin", "admin-password")
        yield h


def test_a_failed_commit_leaves_the_system_as_last_committed(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    hold(h)
    issue(h, LOSER)
    host = host_of(h)
    system = copy.deepcopy(host.system)
    before = (still(h), ledger(h.server.store))
    store = h.server.store
    real = store.post

    def broken(*args: Any) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(store, "post", broken)
    with pytest.raises(RuntimeError):
        h.keno(WRITER, {"action": "issue", "station": 1, "request": STRAIGHT4})
    monkeypatch.setattr(store, "post", real)
    after = (still(h), ledger(h.server.store))
    assert after == before
    assert same_state(host.system, system) == []
    assert issue(h, STRAIGHT4)["ticket"]["number"] == 2


def test_a_new_gaming_day_numbers_games_from_one(h: Harness) -> None:
    first = h.keno_wait(lambda s: s["state"] == "open")
    host = host_of(h)
    host.clock_offset = timedelta(days=1)
    host.changed.set()
    nxt = h.keno_wait(lambda s: s["day"] != first["day"] and s["game"] >= 1)
    assert (
        nxt["day"] == (datetime.fromisoformat(first["day"]) + timedelta(days=1)).date().isoformat()
    )
    assert nxt["game"] <= 2


def test_issuing_with_many_tickets_needs_no_copy_of_the_system(database_url: str) -> None:
    """Thousands of tickets: actions go on against the live system, never a deep copy of it
    (the times are printed; timing is a benchmark's business, not a test's)."""
    import time

    for h in keno_harness(database_url):
        hold(h)
        host = host_of(h)
        body = {"action": "issue", "station": 1, "request": LOSER}

        def timed(n: int, h: Harness = h) -> float:
            start = time.perf_counter()
            for _ in range(n):
                ok(h.keno(WRITER, {"action": "issue", "station": 1, "request": LOSER}))
            return (time.perf_counter() - start) / n

        early = timed(20)
        writer = Account(0, WRITER, "keno_writer")
        # the lock-out is held (hold above), so the schedule has no step to take meanwhile
        for _ in range(3000):  # in memory only (the end of the test): the size is what counts
            action = host.build(body, writer, host._now())
            assert not isinstance(action, Approve)
            host.system.apply(action)
        late = timed(20)
        start = time.perf_counter()
        host.system.copy()
        copying = time.perf_counter() - start
        print(f"per action: {early * 1000:.1f} ms with 1 ticket, {late * 1000:.1f} ms with "
              f"3,000; one deep copy of the system: {copying * 1000:.1f} ms")  # fmt: skip
        assert len(host.system.tickets) >= 3040  # every ticket is still the live system's


# ----------------------------------------------------------------------------- codec and config

_times = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
)
_staff = st.builds(
    Staff, st.text(min_size=1, max_size=8), st.sampled_from(["keno writer", "keno supervisor"])
)
_small = st.integers(min_value=0, max_value=10**6)
_actions = st.one_of(
    st.builds(ks.OpenDay, _times, st.dates()),
    st.builds(ks.OpenGame, _times, st.none() | _times),
    st.builds(ks.ClosingNotice, _times, _staff),
    st.builds(ks.Issue, _times, _small, _staff,
              st.dictionaries(st.sampled_from(["numbers", "rate", "games", "kind"]),
                              st.integers() | st.text(max_size=5) | st.lists(st.integers(), max_size=5))),
    st.builds(ks.Void, _times, _small, _small, _staff),
    st.builds(ks.LockOut, _times, st.none() | _staff, st.none() | _staff),
    st.builds(ks.Override, _times, _staff, st.sampled_from(["hold", "release", "lock"]), st.text(max_size=20)),
    st.builds(ks.Draw, _times, st.lists(st.integers(1, 80), max_size=20).map(tuple)),
    st.builds(ks.Redeem, _times, _small, _small, _staff, st.none() | _staff,
              st.sampled_from(["cash", "gaming chips"]), st.booleans()),
    st.builds(ks.CancelRaces, _times, _small, _staff, st.text(max_size=20)),
    st.builds(ks.SystemDown, _times),
    st.builds(ks.SystemUp, _times),
    st.builds(ks.ManualPay, _times, _small, _small, _small, _staff, st.none() | _staff),
    st.builds(ks.YearEnd, _times, _small, st.sampled_from(["keno jackpot", "Casino Revenue Fund"])),
)  # fmt: skip


@given(_actions)
@settings(max_examples=300, deadline=None)
def test_the_action_codec_round_trips_through_json_text(action: Action) -> None:
    text = json.dumps(to_json(action))
    assert from_json(json.loads(text)) == action
    again = from_json(json.loads(text))
    assert to_json(again) == json.loads(text)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "JSON object"),
        ({"action": "dance"}, "action must be one of"),
        ({"action": "system_up", "at": "2026-01-01T00:00:00"}, "offset"),
        ({"action": "system_up", "at": "yesterday"}, "ISO 8601"),
        ({"action": "open_day", "at": "2026-01-01T00:00:00+00:00", "day": "1/1/26"}, "YYYY-MM-DD"),
        ({"action": "system_up", "at": "2026-01-01T00:00:00+00:00", "x": 1}, "has no x"),
        ({"action": "closing_notice", "at": "2026-01-01T00:00:00+00:00", "by": "sam"}, "staff"),
        ({"action": "closing_notice", "at": "2026-01-01T00:00:00+00:00"}, "closing_notice"),
    ],
)
def test_the_codec_refuses_a_malformed_record_with_the_reason(data: Any, words: str) -> None:
    with pytest.raises(FeltError, match=re.escape(words)):
        from_json(data)


def _tables_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tables.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_keno_entries_of_a_tables_file_are_read_and_checked(tmp_path: Path) -> None:
    card = tmp_path / "card.toml"
    card.write_text(example_rate_card_path().read_text(encoding="utf-8"), encoding="utf-8")
    path = _tables_file(tmp_path, '[[table]]\nid = "b5"\ngame = "boston5"\n\n[[keno]]\nid = "k1"\n'
                        'rate_card = "card.toml"\nstations = [1, 3]\nclosing = "notice"\n'
                        'timezone = "America/New_York"\ngame_seconds = 120\n')  # fmt: skip
    specs = load_specs(path)
    assert [s.id for s in specs] == ["b5", "k1"]
    keno = specs[1]
    assert isinstance(keno, KenoSpec)
    assert keno.stations == (1, 3)
    assert keno.card() == example_rate_card()
    stored = any_spec_from_json(keno.to_json())
    assert stored == keno
    assert json.loads(keno.to_json())["game"] == "keno"


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ('id = "k"\nrate_card = "missing.toml"', "missing.toml"),
        ('id = "k"\nstations = []', "stations"),
        ('id = "k"\nstations = [1, 1]', "stations"),
        ('id = "k"\nclosing = "shout"', "15.5(c)"),
        ('id = "k"\ntimezone = "Mars/Olympus"', "timezone"),
        ('id = "k"\ngame_seconds = 0', "game_seconds"),
        ('id = "k"\ndraw_seconds = -1', "draw_seconds"),
        ('id = "k"\nautomatic_lockout = "yes"', "automatic_lockout"),
        ('id = "k k"', "id must be"),
        ('id = "k"\ncolour = "red"', "colour"),
        ('id = "k"\ngame = "keno"', "game"),
        ('id = "k"\nrate_card = "bad.toml"', "15.3(e)"),
    ],
)
def test_a_bad_keno_entry_is_refused_with_the_reason(
    tmp_path: Path, entry: str, words: str
) -> None:
    data = card_data(aggregate_limit="50000.00", max_payoff="50000.00")
    (tmp_path / "bad.toml").write_text(_toml(data), encoding="utf-8")
    path = _tables_file(tmp_path, f"[[keno]]\n{entry}\n")
    with pytest.raises(FeltError, match=re.escape(words)):
        load_specs(path)


def test_ids_are_distinct_over_tables_and_keno_systems(tmp_path: Path) -> None:
    path = _tables_file(tmp_path, '[[table]]\nid = "x"\ngame = "boston5"\n\n[[keno]]\nid = "x"\n')
    with pytest.raises(FeltError, match="distinct"):
        load_specs(path)


def test_the_default_server_runs_keno_1_on_the_example_rate_card() -> None:
    kenos = [s for s in default_specs() if isinstance(s, KenoSpec)]
    assert [k.id for k in kenos] == ["keno-1"]
    assert kenos[0].card() == example_rate_card()


def _toml(data: dict[str, Any]) -> str:
    """A rate card as TOML (flat keys and the pays tables)."""
    lines = []
    for key, value in data.items():
        if key != "pays":
            lines.append(f"{key} = {json.dumps(value)}")
    for spots, table in data["pays"].items():
        lines.append(f"[pays.{spots}]")
        lines += [f"{catch} = {json.dumps(amount)}" for catch, amount in table.items()]
    return "\n".join(lines) + "\n"


def test_a_process_that_does_not_run_the_system_answers_421_with_its_owner(
    database_url: str,
) -> None:
    for first in keno_harness(database_url):
        first.keno_wait(lambda s: s["game"] >= 1)
        for second in harness(database_url, [keno_spec()], node="node-b"):
            assert "keno" not in second.server.systems
            r = second.client.get("/api/keno/keno")
            assert r.status_code == 421, r.text
            assert r.json()["owner"] == "node-a"
            second.login(WRITER, f"{WRITER}-password")
            r = second.keno(WRITER, {"action": "closing_notice"})
            assert r.status_code == 421, r.text
            systems = ok(second.get(WRITER, "/api/keno"))["systems"]
            assert [s["id"] for s in systems] == ["keno"]
