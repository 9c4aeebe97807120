"""Staff administration (issue 20, item 1) on both back ends: a supervisor opens, finds, locks,
unlocks, resets and retires accounts, each change recorded with who made it in the change's own
transaction; a refusal changes nothing; a retired account never logs in; a temporary password
lets its user do nothing but choose their own (over HTTP and the WebSocket); a locked supervisor
is recovered by another supervisor or by ``felt admin unlock`` on the server machine.

Oracles: the ``account_changes`` and ``accounts`` rows read straight from the database, the
refused log-in's one answer (:data:`felt.server.auth.REFUSED`), and snapshots of the accounts,
sessions and history taken before and after each refused request."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from felt.cli.main import main
from felt.server import auth
from felt.server.store import account_changes, accounts, sessions
from tests.server_helpers import ADMIN_PASSWORD, Harness, harness


@pytest.fixture
def h(database_url: str) -> Iterator[Harness]:
    """A server with the supervisors admin and sue, the players ann ($25.00) and bob, and the
    dealer dee, each logged in."""
    for running in harness(database_url):
        running.account("sue", "supervisor")
        running.account("ann", "player", deposit="25.00")
        running.account("bob", "player")
        running.account("dee", "dealer")
        yield running


def ids(h: Harness) -> dict[str, int]:
    """Each account's id by name."""
    with h.server.store.engine.connect() as conn:
        return {r.name: int(r.id) for r in conn.execute(select(accounts.c.name, accounts.c.id))}


def changes(h: Harness, name: str) -> list[tuple[str, int | None]]:
    """An account's history as stored, oldest first: (change, by_id)."""
    with h.server.store.engine.connect() as conn:
        rows = conn.execute(
            select(account_changes.c.change, account_changes.c.by_id)
            .join(accounts, accounts.c.id == account_changes.c.account_id)
            .where(accounts.c.name == name)
            .order_by(account_changes.c.id)
        ).all()
    return [(str(r.change), r.by_id) for r in rows]


def snapshot(h: Harness) -> tuple[Any, ...]:
    """Every account, session and recorded change, as stored."""
    with h.server.store.engine.connect() as conn:
        return tuple(
            sorted(tuple(map(repr, r)) for r in conn.execute(select(table)))
            for table in (accounts, sessions, account_changes)
        )


def login(h: Harness, name: str, password: str) -> Any:
    """A log-in's response (not asserted)."""
    return h.client.post("/api/login", json={"name": name, "password": password})


def test_every_change_is_recorded_with_the_supervisor_who_made_it(h: Harness) -> None:
    who = ids(h)
    assert changes(h, "admin") == [("opened", None)]  # the first start, no supervisor
    assert changes(h, "ann") == [("opened", who["admin"])]
    assert h.post("sue", "/api/accounts/ann/lock", {}).status_code == 200
    assert h.get("ann", "/api/me").status_code == 401  # the lock ended ann's session
    assert login(h, "ann", "ann-password").json() == {"error": auth.REFUSED}
    assert h.post("admin", "/api/accounts/ann/unlock", {}).status_code == 200
    assert login(h, "ann", "ann-password").status_code == 200
    assert h.post("admin", "/api/accounts/ann/unlock", {}).status_code == 200  # nothing to undo:
    r = h.post("sue", "/api/accounts/dee/password", {"password": "temporary-1"})
    assert r.status_code == 200, r.text
    assert h.post("admin", "/api/accounts/bob/retire", {}).status_code == 200
    assert changes(h, "ann") == [
        ("opened", who["admin"]),
        ("locked", who["sue"]),
        ("unlocked", who["admin"]),
    ]
    assert changes(h, "dee") == [("opened", who["admin"]), ("password reset", who["sue"])]
    assert changes(h, "bob") == [("opened", who["admin"]), ("retired", who["admin"])]
    history = h.get("admin", "/api/accounts/ann/history").json()
    assert [(c["change"], c["by"]) for c in history["changes"]] == [
        ("unlocked", "admin"),
        ("locked", "sue"),
        ("opened", "admin"),
    ]  # newest first, by name
    assert history["account"]["name"] == "ann"
    assert all(c["at"].endswith("Z") for c in history["changes"])


def test_the_list_filters_by_role_state_and_name(h: Harness) -> None:
    assert h.post("admin", "/api/accounts/bob/lock", {}).status_code == 200
    assert (
        h.post("admin", "/api/accounts/dee/password", {"password": "temporary-1"}).status_code
        == 200
    )

    def names(query: str = "") -> list[str]:
        r = h.get("admin", "/api/accounts" + query)
        assert r.status_code == 200, r.text
        return [a["name"] for a in r.json()]

    assert names() == ["admin", "ann", "bob", "cage", "dee", "sue"]
    assert names("?role=player") == ["ann", "bob"]
    assert names("?state=locked") == ["bob"]
    assert names("?state=must-change") == ["dee"]
    assert names("?state=active") == ["admin", "ann", "cage", "sue"]  # as each row's state says
    assert all(a["state"] == "active" for a in h.get("admin", "/api/accounts?state=active").json())
    assert names("?q=A") == ["admin", "ann", "cage"]  # any case
    assert names("?q=%25") == []  # a wildcard of SQL's LIKE is text here
    rows = {a["name"]: a for a in h.get("admin", "/api/accounts").json()}
    assert rows["ann"]["balance"] == "25.00"
    assert rows["sue"]["balance"] is None
    assert (rows["bob"]["state"], rows["dee"]["state"], rows["ann"]["state"]) == (
        "locked",
        "must-change",
        "active",
    )
    assert rows["ann"]["last_login"] is not None
    assert rows["ann"]["created"].endswith("Z")
    assert h.post("admin", "/api/accounts/ann/retire", {}).status_code == 409  # $25.00 left
    r = h.get("admin", "/api/roles").json()
    assert [x["role"] for x in r] == list(auth.ROLES)
    assert {"role": "cashier", "words": "Cashier (the cage)"} in r


REFUSALS: list[tuple[str, str, str, dict[str, Any] | None, int]] = [
    ("admin", "POST", "/api/accounts/admin/lock", {}, 403),  # not one's own
    ("admin", "POST", "/api/accounts/admin/retire", {}, 403),
    ("admin", "POST", "/api/accounts/admin/password", {"password": "temporary-1"}, 403),
    ("admin", "POST", "/api/accounts/ann/retire", {}, 409),  # a balance to pay out first
    ("admin", "POST", "/api/accounts/nobody/lock", {}, 404),
    ("admin", "POST", "/api/accounts/nobody/unlock", {}, 404),
    ("admin", "GET", "/api/accounts/nobody/history", None, 404),
    ("admin", "POST", "/api/accounts/ann/password", {"password": "short"}, 422),
    ("admin", "POST", "/api/accounts/ann/password", {"password": "long-enough", "x": 1}, 422),
    ("admin", "POST", "/api/accounts/a%20b/lock", {}, 422),
    ("admin", "GET", "/api/accounts?state=asleep", None, 422),
    ("admin", "GET", "/api/accounts?role=croupier", None, 422),
    ("ann", "POST", "/api/accounts/bob/lock", {}, 403),  # only a supervisor
    ("cage", "GET", "/api/accounts", None, 403),
    ("dee", "POST", "/api/accounts/bob/password", {"password": "temporary-1"}, 403),
    ("ann", "POST", "/api/password", {"current": "ann-password", "new": "ann-password"}, 400),
    ("ann", "POST", "/api/password", {"current": "ann-password", "new": "short"}, 422),
    (
        "admin",
        "POST",
        "/api/accounts",
        {"name": "ann", "role": "player", "password": "p" * 8},
        400,
    ),
]


def test_a_refusal_is_a_clean_error_and_changes_nothing(h: Harness) -> None:
    for who, method, path, body, status in REFUSALS:
        before = snapshot(h)
        r = h.client.request(method, path, json=body, headers=h.headers(who))
        assert r.status_code == status, (path, r.text)
        assert isinstance(r.json()["error"], str), path
        assert r.json()["error"], path
        assert snapshot(h) == before, path


def test_a_locked_or_retired_account_is_not_changed_again(h: Harness) -> None:
    assert h.post("admin", "/api/accounts/bob/lock", {}).status_code == 200
    before = snapshot(h)
    assert h.post("admin", "/api/accounts/bob/lock", {}).status_code == 409
    assert snapshot(h) == before
    assert h.post("admin", "/api/accounts/dee/retire", {}).status_code == 200
    before = snapshot(h)
    for action, body in (("lock", {}), ("unlock", {}), ("retire", {}),
                         ("password", {"password": "temporary-1"})):  # fmt: skip
        r = h.post("admin", f"/api/accounts/dee/{action}", body)
        assert r.status_code == 409, (action, r.text)
    assert snapshot(h) == before


ACTIONS = st.sampled_from(["lock", "unlock", "retire", "password"])
TARGETS = st.sampled_from(["admin", "sue", "ann", "bob", "dee", "nobody"])


@settings(max_examples=8, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(steps=st.lists(st.tuples(st.sampled_from(["admin", "sue"]), ACTIONS, TARGETS), max_size=5))
def test_each_accepted_change_writes_one_history_row_and_a_refusal_none(
    h: Harness, steps: list[tuple[str, str, str]]
) -> None:
    """Property: whatever two supervisors do to whichever accounts, in any order, an accepted
    change adds exactly one row to the target's history, naming the supervisor who made it; a
    refused one (4xx), or an unlock of an account neither locked nor counting failed log-ins,
    changes no account, session or history."""
    who = ids(h)
    for actor, action, target in steps:
        for name, password in (("admin", ADMIN_PASSWORD), ("sue", "sue-password")):
            if h.get(name, "/api/me").status_code != 200:  # a lock or a reset ended it
                h.tokens[name] = login(h, name, password).json().get("token", "none")
        before = snapshot(h)
        had = changes(h, target) if target in who else []
        body = {"password": "temporary-1"} if action == "password" else {}
        r = h.post(actor, f"/api/accounts/{target}/{action}", body)
        if r.status_code == 200 and changes(h, target) == had:  # an unlock with nothing to
            assert (action, snapshot(h)) == ("unlock", before)  # undo changes nothing at all
        elif r.status_code == 200:
            assert changes(h, target)[:-1] == had
            assert changes(h, target)[-1][1] == who[actor]
        else:
            assert 400 <= r.status_code < 500, r.text
            assert snapshot(h) == before


def test_a_temporary_password_allows_nothing_but_choosing_ones_own(h: Harness) -> None:
    assert (
        h.post("sue", "/api/accounts/ann/password", {"password": "temporary-1"}).status_code == 200
    )
    assert h.get("ann", "/api/me").status_code == 401  # the reset ended ann's session
    assert login(h, "ann", "ann-password").json() == {"error": auth.REFUSED}
    r = login(h, "ann", "temporary-1")
    assert r.json()["must_change_password"] is True
    h.tokens["ann"] = r.json()["token"]
    for path in ("/api/lobby", "/api/tables", "/api/recall", "/api/tables/b5"):
        r = h.get("ann", path)
        assert (r.status_code, r.json()) == (403, {"error": auth.MUST_CHANGE}), path
    r = h.post("ann", "/api/tables/b5/sit", {"seat": 1})
    assert r.status_code == 403, r.text
    assert h.get("ann", "/api/me").json()["must_change_password"] is True
    with h.socket() as ws:
        ws.send_json({"token": h.tokens["ann"]})
        reply = ws.receive_json()
        assert (reply["type"], reply["status"], reply["error"]) == ("error", 403, auth.MUST_CHANGE)
        closed = ws.receive()
        assert (closed["type"], closed["code"]) == ("websocket.close", 4403)
    before = snapshot(h)
    r = h.post("ann", "/api/password", {"current": "temporary-1", "new": "temporary-1"})
    assert r.status_code == 400
    assert "differ" in r.json()["error"]
    assert snapshot(h) == before
    r = h.post("ann", "/api/password", {"current": "not-the-one", "new": "ann-own-password"})
    assert r.status_code == 400
    assert "not right" in r.json()["error"]
    r = h.post("ann", "/api/password", {"current": "temporary-1", "new": "ann-own-password"})
    assert r.status_code == 200, r.text
    assert h.get("ann", "/api/lobby").status_code == 200  # the same session goes on
    assert h.get("ann", "/api/me").json()["must_change_password"] is False
    with h.socket() as ws:
        ws.send_json({"token": h.tokens["ann"]})
        assert ws.receive_json()["type"] == "hello"
    assert changes(h, "ann")[-2:] == [
        ("password reset", ids(h)["sue"]),
        ("password changed", ids(h)["ann"]),
    ]
    assert login(h, "ann", "ann-own-password").json()["must_change_password"] is False


def test_three_wrong_current_passwords_lock_the_account(h: Harness) -> None:
    for _ in range(2):
        r = h.post("bob", "/api/password", {"current": "wrong-one", "new": "bob-new-password"})
        assert r.status_code == 400, r.text
    r = h.post("bob", "/api/password", {"current": "wrong-one", "new": "bob-new-password"})
    assert r.status_code == 401
    assert "locked" in r.json()["error"]
    assert h.get("bob", "/api/me").status_code == 401
    assert login(h, "bob", "bob-password").json() == {"error": auth.REFUSED}
    assert changes(h, "bob")[-1] == ("locked", None)


def test_a_retired_account_never_logs_in(h: Harness) -> None:
    token = h.tokens["bob"]
    assert h.post("admin", "/api/accounts/bob/retire", {}).status_code == 200
    assert h.get("bob", "/api/me").status_code == 401
    assert login(h, "bob", "bob-password").json() == {"error": auth.REFUSED}  # one answer
    with h.socket() as ws:
        ws.send_json({"token": token})
        assert ws.receive_json()["status"] == 401
    rows = {a["name"]: a for a in h.get("admin", "/api/accounts?state=retired").json()}
    assert list(rows) == ["bob"]
    assert rows["bob"]["retired"] is True
    # and a retired account's session, had one survived, is no session
    with h.server.store.transaction() as conn:
        conn.execute(
            sessions.insert().values(token_hash=auth._token_hash("left-over"), account_id=ids(h)["bob"],
                                     created_at=0.0, expires_at=2e9)
        )  # fmt: skip
    h.tokens["bob"] = "left-over"
    assert h.get("bob", "/api/me").json() == {"error": "this account is retired"}


def test_a_locked_supervisor_is_recovered_by_another_or_on_the_machine(h: Harness) -> None:
    for _ in range(3):
        assert login(h, "admin", "wrong-password").status_code == 401
    assert login(h, "admin", ADMIN_PASSWORD).json() == {"error": auth.REFUSED}
    assert changes(h, "admin")[-1] == ("locked", None)  # the lock-out: no supervisor
    assert h.post("sue", "/api/accounts/admin/unlock", {}).status_code == 200
    assert login(h, "admin", ADMIN_PASSWORD).status_code == 200
    assert changes(h, "admin")[-1] == ("unlocked", ids(h)["sue"])
    for _ in range(3):
        login(h, "admin", "wrong-password")
    assert main(["admin", "unlock", "admin", "--database", h.server.store.url]) == 0
    assert login(h, "admin", ADMIN_PASSWORD).status_code == 200
    assert changes(h, "admin")[-2:] == [("locked", None), ("unlocked", None)]
    history = h.get("sue", "/api/accounts/admin/history").json()["changes"]
    assert history[0]["by"] is None
    assert "felt admin" in history[0]["detail"]


def test_felt_admin_password_is_recorded_and_asks_no_change(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("a-brand-new-password\n"))
    assert main(["admin", "password", "dee", "--database", h.server.store.url]) == 0
    assert changes(h, "dee")[-1] == ("password set", None)
    assert login(h, "dee", "a-brand-new-password").json()["must_change_password"] is False


def test_a_new_account_with_a_temporary_password_must_change_it(h: Harness) -> None:
    body = {
        "name": "nia",
        "role": "cashier",
        "password": "temporary-1",
        "must_change_password": True,
    }
    assert h.post("admin", "/api/accounts", body).status_code == 200
    r = login(h, "nia", "temporary-1")
    assert r.json()["must_change_password"] is True
    rows = {a["name"]: a for a in h.get("admin", "/api/accounts?q=nia").json()}
    assert rows["nia"]["state"] == "must-change"
