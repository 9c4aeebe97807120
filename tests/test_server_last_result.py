"""A seat's settled result stays in its player's view until that player's next wager (issue 20
item 5), across rounds the player sits out and across a restart of the server; seated players
with no hand once wagers close are listed as sitting out; a player's message never carries
another player's last result.  On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from tests.server_helpers import Harness, harness


def _mine(view: dict[str, Any], seat: int) -> dict[str, Any]:
    return dict(view.get("mine", {}).get(str(seat)) or {})


def _betting(h: Harness, name: str, seat: int, after: int = 0) -> dict[str, Any]:
    return h.wait_for(
        name, "b5",
        lambda v: _mine(v, seat).get("phase") == "betting" and (v.get("number") or 0) > after,
    )  # fmt: skip


def _play(h: Harness, name: str, seat: int) -> dict[str, Any]:
    """Wager at ``seat``, place the second wager, and return the settled view."""
    r = h.act(name, "b5", {"action": "wager", "seat": seat, "ante": "5.00", "first": "10.00"})
    assert r.status_code == 200, r.text
    h.wait_for(
        name, "b5", lambda v: any(p["seat"] == seat for p in _mine(v, seat).get("pending", []))
    )
    assert h.act(name, "b5", {"action": "second", "seat": seat}).status_code == 200
    return h.wait_for(name, "b5", lambda v: bool(_mine(v, seat).get("lines")) and v["finished"])


def test_the_last_result_stays_until_the_players_next_wager(database_url: str) -> None:
    for h in harness(database_url):
        h.account("ann", "player", "100.00")
        h.account("bob", "player", "100.00")
        assert h.post("ann", "/api/tables/b5/sit", {"seat": 2}).status_code == 200
        assert h.post("bob", "/api/tables/b5/sit", {"seat": 3}).status_code == 200
        first = _betting(h, "ann", 2)
        settled = _play(h, "ann", 2)  # bob sits this round out
        lines = _mine(settled, 2)["lines"]
        last = settled["last"]["2"]
        assert last["round"] == settled["round"]
        assert last["number"] == first["number"]
        assert last["lines"] == lines
        assert all(x["reason"] for x in last["lines"])
        assert last["hand"]
        assert last["dealer_hand"]
        assert last["net"] == f"{sum(round(float(x['amount']) * 100) for x in lines) / 100:.2f}"
        assert "others" not in last
        assert "player" not in last
        assert settled["sitting_out"] == [3]
        assert h.get("bob", "/api/tables/b5").json()["last"] == {}  # never another's result

        # the next round: ann sits out, bob plays; ann's result stays
        _betting(h, "bob", 3, after=first["number"])
        bobs = _play(h, "bob", 3)
        ann = h.get("ann", "/api/tables/b5").json()
        assert ann["last"]["2"]["round"] == settled["round"]
        assert ann["sitting_out"] == [2]
        assert set(bobs["last"]) == {"3"}
        assert bobs["last"]["3"]["round"] == bobs["round"]
    for h in harness(database_url):  # a restart keeps it
        h.login("ann", "ann-password")
        h.login("bob", "bob-password")
        view = _betting(h, "ann", 2, after=bobs["number"])
        assert view["last"]["2"]["round"] == settled["round"]
        r = h.act("ann", "b5", {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"})
        assert r.status_code == 200, r.text
        after = h.get("ann", "/api/tables/b5").json()
        assert after["last"] == {}
        assert h.get("bob", "/api/tables/b5").json()["last"]["3"]["round"] == bobs["round"]
