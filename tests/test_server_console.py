"""What the dealer's console and a page whose session ends need of the server (issue 20 items 7
and 12): a log-in elsewhere closes the old session's sockets at once with 4401 and says why;
the table message says who takes the dealer's steps; once a round is over the dealer and the
supervisor get every seat's settlement statement (what to pay or collect), a player never."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from felt.server.spec import TableSpec
from tests.server_helpers import Harness, database_url, harness

__all__ = ["database_url"]

SPECS = [
    TableSpec("b5", "boston5", settings={"decision_seconds": 30}, pace_seconds=0,
              betting_seconds=0.2, between_rounds_seconds=30),
    TableSpec("m5", "boston5", settings={"decision_seconds": 30}, dealer="manual"),
]  # fmt: skip
"""An automatic table that keeps a settled round in view, and a manual one."""


@pytest.fixture
def h(database_url: str) -> Iterator[Harness]:
    for h in harness(database_url, SPECS):
        h.account("ann", "player", "100.00")
        h.account("dan", "dealer")
        yield h


def first_error(ws: Any) -> dict[str, Any]:
    """The first error message the server sends on ``ws`` (within 10 s), skipping views."""
    pool = ThreadPoolExecutor(1)
    try:
        while True:
            msg: dict[str, Any] = pool.submit(ws.receive_json).result(timeout=10)
            if msg["type"] == "error":
                return msg
    finally:
        pool.shutdown(wait=False)


def test_a_log_in_elsewhere_closes_the_old_sessions_socket_with_4401(h: Harness) -> None:
    old = h.tokens["ann"]
    with h.socket() as ws:
        ws.send_json({"token": old})
        assert ws.receive_json()["type"] == "hello"
        ws.send_json({"subscribe": "b5"})
        assert ws.receive_json()["type"] == "table"
        h.login("ann", "ann-password")  # the same account, elsewhere: one session an account
        msg = first_error(ws)  # the socket sends nothing: only the server can tell it
        assert msg["status"] == 401
        assert "newer log-in" in msg["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    assert h.get("ann", "/api/me").status_code == 200  # the new session is untouched


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("/api/accounts/ann/lock", {}, "locked this account"),
        (
            "/api/accounts/ann/password",
            {"password": "temporary-1"},
            "reset this account's password",
        ),
    ],
)
def test_a_supervisors_lock_or_reset_closes_the_accounts_socket_with_4401(
    h: Harness, path: str, body: dict[str, Any], words: str
) -> None:
    """Issue 20 items 1 and 12: the locked or reset account's open page learns at once that its
    session ended, and why (not at its next request)."""
    with h.socket() as ws:
        ws.send_json({"token": h.tokens["ann"]})
        assert ws.receive_json()["type"] == "hello"
        assert h.post("admin", path, body).status_code == 200
        msg = first_error(ws)
        assert (msg["status"], words in msg["error"]) == (401, True)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401


def test_the_table_message_says_who_takes_the_dealers_steps(h: Harness) -> None:
    assert h.get("dan", "/api/tables/m5").json()["dealer"] == "manual"
    auto = h.get("dan", "/api/tables/b5").json()
    assert (auto["dealer"], auto["pace_seconds"]) == ("automatic", 0)


def _settled(view: dict[str, Any]) -> bool:
    return bool(view.get("finished"))


def test_the_dealer_gets_every_seats_settlement_once_the_round_is_over(h: Harness) -> None:
    """Oracle: the round's record (the ledger's settlement), seat by seat."""
    assert h.post("ann", "/api/tables/b5/sit", {"seat": 3}).status_code == 200
    wager = {"action": "wager", "seat": 3, "ante": "5.00", "first": "10.00"}
    assert h.act("ann", "b5", wager).status_code == 200
    while True:
        view = h.wait_for("dan", "b5", lambda v: _settled(v) or v["public"]["pending"])
        if view.get("finished"):
            break
        assert h.act("ann", "b5", {"action": "fold", "seat": 3}).status_code == 200
    assert "settlement" not in h.get("ann", "/api/tables/b5").json()  # a player: own lines only
    record = h.get("admin", f"/api/rounds/{view['round']}").json()["record"]  # a supervisor
    nets: dict[str, Decimal] = {}
    for line in view["settlement"]:
        nets[str(line["seat"])] = nets.get(str(line["seat"]), Decimal(0)) + Decimal(line["amount"])
    assert {s: int(n * 100) for s, n in nets.items()} == {
        s: seat["net_cents"] for s, seat in record["seats"].items()
    }
    assert nets["3"] < 0  # the fold forfeited the ante and the first wager
