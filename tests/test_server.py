"""The table server over HTTP, on SQLite and on PostgreSQL: accounts and sessions, the wallet
and its double-entry ledger, rounds played through the API, timeouts, idempotent retries,
recovery after a restart, recall and the supervisor's record."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from felt.games.boston.table import Table
from felt.server.store import accounts, player_account, round_events
from tests.server_helpers import Harness, fast_specs, harness

Player = dict[str, Any]


@pytest.fixture
def h(database_url: str) -> Iterator[Harness]:
    """A running server with a player 'ann' holding $100.00 at Boston 5 seat 2."""
    for running in harness(database_url):
        running.account("ann", "player", "100.00")
        assert running.post("ann", "/api/tables/b5/sit", {"seat": 2}).status_code == 200
        yield running


def _balance(h: Harness, name: str) -> str:
    return str(h.get(name, "/api/me").json()["balance"])


def _books_balance(h: Harness) -> None:
    """Money sums to zero over every ledger account, and every wallet equals its rows."""
    store = h.server.store
    assert store.ledger_sum() == 0
    with store.engine.connect() as conn:
        for aid, balance in conn.execute(select(accounts.c.id, accounts.c.balance)):
            assert store.account_sum(player_account(aid)) == balance


def _mine(view: dict[str, Any], seat: int) -> Player:
    return dict(view.get("mine", {}).get(str(seat)) or {})


def _play_boston(h: Harness, name: str, seat: int, second: bool = True) -> dict[str, Any]:
    """Wager $5 ante and $10 first at ``seat``, then raise or fold; returns the settled view."""
    h.wait_for(name, "b5", lambda v: _mine(v, seat).get("phase") == "betting")
    r = h.act(name, "b5", {"action": "wager", "seat": seat, "ante": "5.00", "first": "10.00"})
    assert r.status_code == 200, r.text
    h.wait_for(
        name, "b5", lambda v: any(p["seat"] == seat for p in _mine(v, seat).get("pending", []))
    )
    r = h.act(name, "b5", {"action": "second" if second else "fold", "seat": seat})
    assert r.status_code == 200, r.text
    return h.wait_for(name, "b5", lambda v: bool(_mine(v, seat).get("lines")) and v["finished"])


def test_13_69o_1_4_i_three_failed_logins_lock_the_account(h: Harness) -> None:
    for _ in range(3):
        r = h.client.post("/api/login", json={"name": "ann", "password": "wrong-password"})
        assert r.status_code == 401
    r = h.client.post("/api/login", json={"name": "ann", "password": "ann-password"})
    assert r.status_code == 401
    assert "locked" in r.json()["error"]
    assert h.post("admin", "/api/accounts/ann/unlock", {}).status_code == 200
    h.login("ann", "ann-password")


def test_one_active_session_per_player(h: Harness) -> None:
    old = h.headers("ann")
    h.login("ann", "ann-password")
    assert h.client.get("/api/me", headers=old).status_code == 401
    assert h.get("ann", "/api/me").status_code == 200


def test_cashier_deposit_is_double_entry_and_idempotent(h: Harness) -> None:
    body = {"player": "ann", "amount": "25.50", "key": "dep-1"}
    first = h.post("cage", "/api/cashier/deposit", body).json()
    again = h.post("cage", "/api/cashier/deposit", body).json()
    assert first["balance"] == "125.50"
    assert again["replayed"]
    assert _balance(h, "ann") == "125.50"
    assert h.post("cage", "/api/cashier/deposit", {**body, "amount": "1.00"}).status_code == 409
    r = h.post("cage", "/api/cashier/withdraw", {"player": "ann", "amount": "500.00", "key": "w-1"})
    assert r.status_code == 409
    assert "balance" in r.json()["error"]
    assert h.post("ann", "/api/cashier/deposit", {**body, "key": "dep-2"}).status_code == 403
    _books_balance(h)


def test_a_boston_round_through_the_api_settles_into_the_ledger(h: Harness) -> None:
    view = _play_boston(h, "ann", 2)
    net = sum(round(float(x["amount"]) * 100) for x in _mine(view, 2)["lines"])
    after = round(float(_balance(h, "ann")) * 100)
    assert after == 10000 + net
    _books_balance(h)


def test_13_69o_1_4_h_a_wager_beyond_the_balance_is_refused_and_changes_nothing(h: Harness) -> None:
    view = h.wait_for("ann", "b5", lambda v: _mine(v, 2).get("phase") == "betting")
    r = h.act("ann", "b5", {"action": "wager", "seat": 2, "ante": "50.00", "first": "100.00"})
    assert r.status_code == 409
    assert "13:69O-1.4(h)" in r.json()["error"]
    again = h.get("ann", "/api/tables/b5").json()
    assert again["version"] == view["version"]
    assert _balance(h, "ann") == "100.00"
    assert again["mine"]["2"]["others"] == []
    assert "2" not in str(again["public"]["others"])


def test_a_player_acts_only_for_their_own_seat(h: Harness) -> None:
    h.account("bob", "player", "50.00")
    h.wait_for("ann", "b5", lambda v: _mine(v, 2).get("phase") == "betting")
    r = h.act("bob", "b5", {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"})
    assert r.status_code == 403
    r = h.act("admin", "b5", {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"})
    assert r.status_code == 403
    r = h.act("ann", "b5", {"dealer": "timeout", "seat": 2})
    assert r.status_code == 403


def test_an_idempotency_key_applies_once(h: Harness) -> None:
    h.wait_for("ann", "b5", lambda v: _mine(v, 2).get("phase") == "betting")
    wager = {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"}
    first = h.act("ann", "b5", wager, key="same").json()
    again = h.act("ann", "b5", wager, key="same").json()
    assert again == {**first, "replayed": True}
    assert _balance(h, "ann") == "85.00"
    other = h.act("ann", "b5", {"action": "fold", "seat": 2}, key="same")
    assert other.status_code == 409


def test_24_10_b_decision_time_runs_out_deemed_fold_as_its_own_event(database_url: str) -> None:
    for h in harness(database_url, fast_specs(decision_seconds=1)):
        _time_runs_out(h)


def _time_runs_out(h: Harness) -> None:
    h.account("ann", "player", "100.00")
    h.post("ann", "/api/tables/b5/sit", {"seat": 2})
    h.wait_for("ann", "b5", lambda v: _mine(v, 2).get("phase") == "betting")
    h.act("ann", "b5", {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"})
    view = h.wait_for("ann", "b5", lambda v: v["finished"], seconds=20)
    assert [x["outcome"] for x in _mine(view, 2)["lines"]] == ["forfeit", "forfeit"]
    with h.server.store.engine.connect() as conn:
        names = [
            a
            for (a,) in conn.execute(
                select(round_events.c.action).where(round_events.c.round_id == view["round"])
            )
        ]
    assert any('"timeout"' in a for a in names), names
    assert _balance(h, "ann") == "85.00"


def test_recall_lists_the_last_rounds_with_lines_and_balances(h: Harness) -> None:
    _play_boston(h, "ann", 2, second=False)
    recall = h.get("ann", "/api/recall").json()
    assert len(recall) == 1
    entry = recall[0]
    assert entry["balance_before"] == "100.00"
    assert entry["balance_after"] == "85.00"
    assert [d["action"] for d in entry["decisions"]] == ["wager", "fold"]
    lines = entry["seats"]["2"]["lines"]
    assert {x["clause"] for x in lines}
    assert all(x["outcome"] == "forfeit" for x in lines)
    assert h.get("admin", "/api/recall").status_code == 403


def test_supervisor_reads_the_full_record_with_the_discard_rack(h: Harness) -> None:
    view = _play_boston(h, "ann", 2)
    record = h.get("admin", f"/api/rounds/{view['round']}").json()
    rack = [c for bundle in record["record"]["discard_rack"] for c in bundle["cards"]]
    assert len(rack) == 52
    assert len(set(rack)) == 52
    assert h.get("ann", f"/api/rounds/{view['round']}").status_code == 403


def test_restart_rebuilds_the_open_round_exactly(database_url: str) -> None:
    for first in harness(database_url):
        first.account("ann", "player", "100.00")
        first.post("ann", "/api/tables/b5/sit", {"seat": 2})
        first.wait_for("ann", "b5", lambda v: _mine(v, 2).get("phase") == "betting")
        first.act("ann", "b5", {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"})
        before = first.wait_for("ann", "b5", lambda v: bool(_mine(v, 2).get("pending")))
    for second in harness(database_url):
        second.login("ann", "ann-password")
        after = second.get("ann", "/api/tables/b5").json()
        assert after["mine"] == before["mine"]
        assert after["round"] == before["round"]
        second.act("ann", "b5", {"action": "second", "seat": 2})
        done = second.wait_for("ann", "b5", lambda v: v["finished"])
        assert _mine(done, 2)["own_cards"][:3] == _mine(before, 2)["own_cards"]
        _books_balance(second)


def test_an_action_for_a_round_is_refused_once_the_table_has_moved_on(h: Harness) -> None:
    """``round`` names the round an action is for: a try whose first never committed cannot
    land in the next round (409, nothing done); a key already answered still gets its answer."""
    assert h.post("ann", "/api/tables/b5/sit", {"seat": 2}).status_code == 200
    view = h.wait_for("ann", "b5", lambda v: _mine(v, 2).get("phase") == "betting")
    wager = {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"}
    balance = h.get("ann", "/api/me").json()["balance"]
    stale = h.post("ann", "/api/tables/b5/actions",
                   {"action": wager, "key": "old", "round": "b5:0"})  # fmt: skip
    assert stale.status_code == 409
    assert "nothing was done" in stale.json()["error"]
    assert h.get("ann", "/api/me").json()["balance"] == balance
    body = {"action": wager, "key": "now", "round": view["round"]}
    first = h.post("ann", "/api/tables/b5/actions", body)
    assert first.status_code == 200, first.text
    h.wait_for("ann", "b5", lambda v: bool(_mine(v, 2).get("pending")))
    assert h.act("ann", "b5", {"action": "second", "seat": 2}).status_code == 200
    h.wait_for("ann", "b5", lambda v: v["finished"])  # the round is over
    again = h.post("ann", "/api/tables/b5/actions", body)  # the same key: the same answer
    assert again.status_code == 200
    assert again.json() == {**first.json(), "replayed": True}
    assert h.post("ann", "/api/tables/b5/actions",
                  {"action": wager, "key": "k", "round": ""}).status_code == 422  # fmt: skip


def test_double_down_stud_round_through_the_api(h: Harness) -> None:
    assert h.post("ann", "/api/tables/dds/sit", {"seat": 3}).status_code == 200
    h.wait_for("ann", "dds", lambda v: _mine(v, 3).get("phase") == "betting")
    assert h.act("ann", "dds", {"action": "bet", "seat": 3, "amount": "5.00"}).status_code == 200
    answers = {"cut or decline": {"action": "cut", "seat": 3, "position": 20},
               "double or stand": {"action": "stand", "seat": 3}}  # fmt: skip
    while True:
        view = h.wait_for("ann", "dds", lambda v: v["finished"] or bool(_mine(v, 3).get("pending")))
        if view["finished"]:
            break
        election = _mine(view, 3)["pending"][0]["election"]
        assert h.act("ann", "dds", answers[election]).status_code == 200
    assert _mine(view, 3)["lines"]
    assert view["public"]["hole_card"] is not None
    _books_balance(h)


def test_19_46_1_18_supervisor_replaces_a_removed_deck_and_procedures_are_checked(
    h: Harness,
) -> None:
    table = h.server.hosts["b5"].table
    assert isinstance(table, Table)
    r = h.post("admin", "/api/tables/b5/procedure", {"procedure": "shuffler_count", "argument": 51})
    assert r.status_code == 400  # no counting shuffler feeding an automated shoe at this table
    assert "9(f)" in r.json()["error"]
    r = h.post("ann", "/api/tables/b5/procedure", {"procedure": "replace_deck"})
    assert r.status_code == 403
    long = h.post(
        "admin", "/api/tables/b5/procedure", {"procedure": "change_dealing", "argument": "x" * 81}
    )
    assert long.status_code == 422  # an argument is a short name or a number, never a payload
    assert "argument" in long.json()["error"]
    r = h.post("admin", "/api/tables/b5/procedure", {"procedure": "no_gaming_activity"})
    assert r.status_code == 400
    assert "allowed: shuffler_count" in r.json()["error"]
    table.deck_removed = True  # as a wrong stub count leaves it (24.7(f)2)
    r = h.post("admin", "/api/tables/b5/procedure", {"procedure": "replace_deck"})
    assert r.status_code == 200
    after = h.server.hosts["b5"].table
    assert isinstance(after, Table)
    assert not after.deck_removed


def test_a_table_names_who_takes_the_dealer_steps() -> None:
    """``dealer = "manual"`` leaves every dealer step to the dealer's console; anything but
    automatic or manual is refused with what is allowed, and a stored spec keeps its mode."""
    from felt.core.errors import FeltError
    from felt.server.spec import TableSpec, spec_from_mapping

    manual = spec_from_mapping({"id": "m", "game": "boston5", "dealer": "manual"}, "t")
    assert manual.dealer == "manual"
    assert TableSpec.from_json(manual.to_json()) == manual
    assert spec_from_mapping({"id": "a", "game": "boston5"}, "t").dealer == "automatic"
    with pytest.raises(FeltError, match="dealer must be one of automatic, manual"):
        spec_from_mapping({"id": "x", "game": "boston5", "dealer": "robot"}, "t")
