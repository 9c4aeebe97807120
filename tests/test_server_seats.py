"""A hand in play belongs to the player who wagered it until it is settled (issue 18, item 1).

Boston 24.6(e): "Once a player has placed a wager and received cards, that player must remain
seated until the completion of the round of play."  The server refuses to let a player stand up
from a seat whose hand is in play, keeps the seat taken until the round ends, and authorises
every action and every view against the hand's owner (the player named in the round's wager),
never against the seat map.  On SQLite and PostgreSQL, against the real server in process.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from felt.server.host import Seat
from felt.server.spec import TableSpec
from felt.server.store import accounts
from tests.server_helpers import Harness, fast_specs, harness

Player = dict[str, Any]


@pytest.fixture
def h(database_url: str) -> Iterator[Harness]:
    """A server whose decisions wait ten minutes: ann ($100.00) and bob ($100.00), unseated."""
    for running in harness(database_url, fast_specs(decision_seconds=600)):
        running.account("ann", "player", "100.00")
        running.account("bob", "player", "100.00")
        yield running


def _mine(view: dict[str, Any], seat: int) -> Player:
    return dict(view.get("mine", {}).get(str(seat)) or {})


def _balance(h: Harness, name: str) -> str:
    return str(h.get(name, "/api/me").json()["balance"])


def _pending(view: dict[str, Any], seat: int) -> list[str]:
    return [p["election"] for p in _mine(view, seat).get("pending", []) if p["seat"] == seat]


def _boston_hand_dealt(h: Harness, name: str, seat: int) -> dict[str, Any]:
    """``name`` sits at Boston 5 ``seat``, wagers $5 ante and $10 first, and is dealt cards;
    returns the view once the second-wager election is pending."""
    assert h.post(name, "/api/tables/b5/sit", {"seat": seat}).status_code == 200
    h.wait_for(name, "b5", lambda v: _mine(v, seat).get("phase") == "betting")
    wager = {"action": "wager", "seat": seat, "ante": "5.00", "first": "10.00"}
    r = h.act(name, "b5", wager)
    assert r.status_code == 200, r.text
    return h.wait_for(name, "b5", lambda v: "second or fold" in _pending(v, seat))


def test_24_6_e_a_seat_changing_hands_mid_round_does_not_hand_over_the_hand(h: Harness) -> None:
    """The attack as found: ann wagers at seat 3, the cards are dealt, ann stands up, bob sits
    at seat 3.  Bob must not see ann's face-down cards, bob's second wager must not come out
    of ann's wallet, and ann's own fold must be taken."""
    dealt = _boston_hand_dealt(h, "ann", 3)
    ann_cards = _mine(dealt, 3)["own_cards"]
    assert len(ann_cards) == 3
    assert _balance(h, "ann") == "85.00"

    stand = h.post("ann", "/api/tables/b5/stand", {"seat": 3})
    sit = h.post("bob", "/api/tables/b5/sit", {"seat": 3})
    seen_by_bob = h.get("bob", "/api/tables/b5").json()
    assert "3" not in seen_by_bob.get("mine", {}), seen_by_bob["mine"]
    assert not set(ann_cards) & set(str(seen_by_bob).replace("'", " ").split()), seen_by_bob
    second = h.act("bob", "b5", {"action": "second", "seat": 3})
    assert second.status_code == 403, second.text
    assert _balance(h, "ann") == "85.00"
    assert _balance(h, "bob") == "100.00"
    fold = h.act("ann", "b5", {"action": "fold", "seat": 3})
    assert fold.status_code == 200, fold.text

    assert stand.status_code == 400, stand.text
    assert "24.6(e)" in stand.json()["error"]
    assert sit.status_code == 400, sit.text
    assert "seat 3" in sit.json()["error"]
    done = h.wait_for("ann", "b5", lambda v: v["finished"] and bool(_mine(v, 3).get("lines")))
    assert _mine(done, 3)["own_cards"][:3] == ann_cards
    assert _balance(h, "ann") == "85.00"  # the fold loses ante and first (24.10(b))
    assert _balance(h, "bob") == "100.00"
    assert h.server.store.ledger_sum() == 0


def test_a_seat_map_that_disagrees_with_the_hand_authorises_nothing(h: Harness) -> None:
    """Defence in depth: were the seat map ever to name someone else at a seat whose hand is in
    play (a record written before this rule), views and actions still follow the hand's owner."""
    _boston_hand_dealt(h, "ann", 3)
    host = h.server.hosts["b5"]
    seats = {3: Seat(_account_id(h, "bob"), "bob")}
    assert isinstance(h.client, TestClient)
    assert h.client.portal is not None
    h.client.portal.call(host.do, host._change_seats, seats)  # as the server's own loop would
    seen_by_bob = h.get("bob", "/api/tables/b5").json()
    assert "3" not in seen_by_bob.get("mine", {}), seen_by_bob["mine"]
    assert h.act("bob", "b5", {"action": "second", "seat": 3}).status_code == 403
    seen_by_ann = h.get("ann", "/api/tables/b5").json()
    assert len(_mine(seen_by_ann, 3)["own_cards"]) == 3
    r = h.act("ann", "b5", {"action": "second", "seat": 3})
    assert r.status_code == 200, r.text
    done = h.wait_for("ann", "b5", lambda v: v["finished"] and bool(_mine(v, 3).get("lines")))
    net = sum(round(float(x["amount"]) * 100) for x in _mine(done, 3)["lines"])
    assert _balance(h, "ann") == f"{(10000 + net) / 100:.2f}"  # ann's hand, ann's money
    assert _balance(h, "bob") == "100.00"
    assert "3" not in h.get("bob", "/api/tables/b5").json().get("mine", {})


def _account_id(h: Harness, name: str) -> int:
    with h.server.store.engine.connect() as conn:
        return int(conn.execute(select(accounts.c.id).where(accounts.c.name == name)).scalar_one())


def test_double_down_stud_area_stays_with_its_bettor_until_settled(h: Harness) -> None:
    """19:47-17.6(b): no wager is withdrawn after "No more bets"; the area's bettor keeps the
    area, its double down election and its view until the round is settled."""
    assert h.post("ann", "/api/tables/dds/sit", {"seat": 3}).status_code == 200
    h.wait_for("ann", "dds", lambda v: _mine(v, 3).get("phase") == "betting")
    assert h.act("ann", "dds", {"action": "bet", "seat": 3, "amount": "5.00"}).status_code == 200
    while True:
        view = h.wait_for("ann", "dds", lambda v: bool(_pending(v, 3)))
        if "double or stand" in _pending(view, 3):
            break
        assert h.act("ann", "dds", {"action": "decline_cut", "seat": 3}).status_code == 200
    stand = h.post("ann", "/api/tables/dds/stand", {"seat": 3})
    assert stand.status_code == 400, stand.text
    assert h.post("bob", "/api/tables/dds/sit", {"seat": 3}).status_code == 400
    assert "3" not in h.get("bob", "/api/tables/dds").json().get("mine", {})
    assert h.act("bob", "dds", {"action": "double", "seat": 3}).status_code == 403
    assert _balance(h, "bob") == "100.00"
    assert h.act("ann", "dds", {"action": "stand", "seat": 3}).status_code == 200
    h.wait_for("ann", "dds", lambda v: v["finished"])
    assert _balance(h, "bob") == "100.00"
    # once the round is settled the seat is the player's to leave, and then free
    assert h.post("ann", "/api/tables/dds/stand", {"seat": 3}).status_code == 200
    assert h.post("bob", "/api/tables/dds/sit", {"seat": 3}).status_code == 200


def test_24_6_e_before_the_cards_a_boston_player_takes_the_wager_back_then_stands(
    database_url: str,
) -> None:
    """Before "No more bets" the wagers may be taken back (24.6(b)): ``leave`` returns them to
    the wallet of the player who made them (it once failed with a server error, the seat's
    hand being gone before its wallet was looked up), and the seat can then be left."""
    spec = TableSpec("b5", "boston5", settings={"decision_seconds": 600}, pace_seconds=0,
                     betting_seconds=600, between_rounds_seconds=0)  # fmt: skip
    for h in harness(database_url, [spec]):
        h.account("ann", "player", "100.00")
        h.account("bob", "player", "100.00")
        assert h.post("bob", "/api/tables/b5/sit", {"seat": 4}).status_code == 200
        assert h.post("ann", "/api/tables/b5/sit", {"seat": 2}).status_code == 200
        h.wait_for("ann", "b5", lambda v: _mine(v, 2).get("phase") == "betting")
        wager = {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"}
        assert h.act("ann", "b5", wager).status_code == 200
        stand = h.post("ann", "/api/tables/b5/stand", {"seat": 2})
        assert stand.status_code == 400, stand.text
        assert '"leave"' in stand.json()["error"]
        assert h.act("bob", "b5", {"action": "leave", "seat": 2}).status_code == 403
        r = h.act("ann", "b5", {"action": "leave", "seat": 2})
        assert r.status_code == 200, r.text
        assert _balance(h, "ann") == "100.00"
        assert _balance(h, "bob") == "100.00"
        assert h.post("ann", "/api/tables/b5/stand", {"seat": 2}).status_code == 200
        assert h.post("bob", "/api/tables/b5/sit", {"seat": 2}).status_code == 200
        assert h.server.store.ledger_sum() == 0
