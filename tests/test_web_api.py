"""The reads the browser screens use, over the API on SQLite and PostgreSQL: who may read them,
what they say, and that nothing in them is a card a reader may not see."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import insert

from felt.games.registry import table_game
from felt.server import web
from felt.server.spec import TableSpec
from felt.server.store import postings
from felt.web import games
from tests.server_helpers import Harness, fast_specs, harness, keno_spec


@pytest.fixture
def h(database_url: str) -> Iterator[Harness]:
    specs: list[Any] = [*fast_specs(decision_seconds=30), keno_spec()]
    for hh in harness(database_url, specs):
        hh.account("ann", "player", "100.00")
        hh.account("dan", "dealer")
        hh.account("kate", "keno_writer")
        yield hh


def test_the_floor_and_the_par_sheet_are_for_supervisors_only(h: Harness) -> None:
    for path in ("/api/floor", "/api/tables/b5/par-sheet"):
        assert h.client.get(path).status_code == 401
        for name in ("ann", "dan", "cage"):
            r = h.get(name, path)
            assert r.status_code == 403, (path, name, r.text)
            assert "supervisor" in r.json()["error"]
    floor = h.get("admin", "/api/floor").json()
    assert [t["id"] for t in floor] == ["b5", "dds"]  # tables only: the keno system is not one


def test_the_lobby_and_the_guide_need_a_log_in_and_say_no_more_than_the_table(h: Harness) -> None:
    for path in ("/api/lobby", "/api/tables/b5/guide"):
        assert h.client.get(path).status_code == 401
    lobby = h.get("ann", "/api/lobby").json()
    b5 = next(t for t in lobby if t["id"] == "b5")
    assert (b5["minimum"], b5["seats"], b5["free"]) == ("5.00", 6, [1, 2, 3, 4, 5, 6])
    assert "owner" not in b5  # which process runs a table is the operator's business
    guide = h.get("ann", "/api/tables/dds/guide").json()
    assert "Double Down" in guide["html"]
    assert h.get("ann", "/api/tables/nope/guide").status_code == 404
    assert h.get("ann", "/api/tables/keno/guide").status_code == 404  # keno has no table guide


def test_the_lobby_gives_each_tables_layout_and_the_games_screens_are_served(h: Harness) -> None:
    """The screens draw a table from its game's layout (issue 19); the index of the games and a
    game's own screens are public page files, revalidated like the shared ones."""
    lobby = {t["id"]: t for t in h.get("ann", "/api/lobby").json()}
    for table in ("b5", "dds"):
        spec = next(s for s in h.server.specs if s.id == table)
        assert isinstance(spec, TableSpec)
        game = table_game(spec.game)
        assert lobby[table]["layout"] == game.layout(spec.config())
        assert lobby[table]["title"] == game.title(spec.game)
    index = h.client.get("/games/index.json")
    assert index.status_code == 200
    assert index.headers["cache-control"] == "no-cache"
    assert index.json() == games()
    module = h.client.get("/games/keno/keno.js")
    assert module.status_code == 200
    assert module.headers["cache-control"] == "no-cache"
    assert "export function kenoWriter" in module.text
    assert "javascript" in module.headers["content-type"]
    assert h.client.get("/games/keno/keno.css").status_code == 200
    assert h.client.get("/static/keno.js").status_code == 404  # moved to the game's folder
    assert h.client.get("/games/boston/layout.json").status_code == 404  # no screens of its own


def test_only_staff_see_the_dealers_next_step_and_everyone_sees_the_clock(h: Harness) -> None:
    """``next_step`` names a step and nothing dealt; the decision clock counts down from the
    table's decision_seconds (GLI-19 5.2.2)."""
    assert h.post("ann", "/api/tables/b5/sit", {"seat": 2}).status_code == 200
    h.wait_for("ann", "b5", lambda v: v.get("mine", {}).get("2", {}).get("phase") == "betting")
    r = h.act("ann", "b5", {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"})
    assert r.status_code == 200, r.text
    first = h.wait_for("ann", "b5", lambda v: v.get("clock"))
    assert "next_step" not in first
    (clock,) = first["clock"]
    assert (clock["seat"], clock["election"]) == (2, "second or fold")
    assert 0 < clock["seconds"] <= 30
    time.sleep(1.1)
    later = h.get("ann", "/api/tables/b5").json()["clock"][0]["seconds"]
    assert later <= clock["seconds"] - 1
    dealer = h.get("dan", "/api/tables/b5").json()
    assert dealer["next_step"] is None  # a player's election is pending: no dealer step
    assert "mine" not in dealer


def test_a_keno_request_is_priced_without_issuing_it(h: Harness) -> None:
    """3/4 on three groups of two is three ways of four spots at $1: $3.00 (15.2(c)3); an
    unclear request is refused with its reason (15.7(a)); nothing is issued."""
    way = {"kind": "way", "groups": [[1, 2], [3, 4], [5, 6]], "conditions": ["3/4"], "rate": "1.00"}
    q = h.post("kate", "/api/keno/keno/quote", {"request": way}).json()
    assert (q["ways"], q["price"], q["conditioning"]) == (3, "3.00", "3/4")
    quick = h.post(
        "kate", "/api/keno/keno/quote", {"request": {"quick_pick": 6, "rate": "2.00", "games": 3}}
    )
    assert quick.json()["price"] == "6.00"
    unclear = h.post(
        "kate", "/api/keno/keno/quote", {"request": {"numbers": [1, 1], "rate": "1.00"}}
    )
    assert unclear.status_code == 400
    assert "marked twice" in unclear.json()["error"]
    assert h.post("kate", "/api/keno/nope/quote", {"request": way}).status_code == 404
    assert h.post("kate", "/api/keno/b5/quote", {"request": way}).status_code == 404
    assert h.post("kate", "/api/keno/keno/quote", {"oops": 1}).status_code == 422
    assert h.client.post("/api/keno/keno/quote", json={"request": way}).status_code == 401


def test_recent_keno_games_are_public_and_newest_first(h: Harness) -> None:
    h.keno_wait(lambda s: s["board"] is not None and s["game"] >= 3, seconds=30)
    recent = h.client.get("/api/keno/keno/recent").json()["games"]
    assert len(recent) >= 2
    assert [g["game"] for g in recent] == sorted((g["game"] for g in recent), reverse=True)
    assert all(len(set(g["numbers"])) == 20 for g in recent)
    assert h.client.get("/api/keno/nope/recent").status_code == 404


def test_the_floor_counts_each_tables_money_by_its_own_rounds(database_url: str) -> None:
    """Table ids may hold ``_`` (a LIKE wildcard): t_1's postings are never tx1's."""
    specs = [
        TableSpec("t_1", "boston5", pace_seconds=0),
        TableSpec("tx1", "boston5", pace_seconds=0),
    ]
    for hh in harness(database_url, specs):
        hh.login("admin", "admin-password")
        now = time.time()
        with hh.server.store.transaction() as conn:
            conn.execute(insert(postings), [
                {"txn": "t_1:1#9", "account": "house", "amount": 700, "reason": "t", "at": now},
                {"txn": "t_1:1#9", "account": "player:99", "amount": -700, "reason": "t", "at": now},
                {"txn": "tx1:1#9", "account": "house", "amount": -250, "reason": "t", "at": now},
                {"txn": "tx1:1#9", "account": "player:99", "amount": 250, "reason": "t", "at": now},
            ])  # fmt: skip
        floor = {t["id"]: t["house_today"] for t in hh.get("admin", "/api/floor").json()}
        assert floor == {"t_1": "7.00", "tx1": "-2.50"}


def test_a_par_sheet_is_computed_once_and_a_cold_boston7_is_refused_at_once(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two supervisors asking at once make one computation; a Boston 7 table whose counts are
    not on disk answers 409 at once instead of counting for minutes inside a request."""
    import felt.games.boston.analysis as games
    import felt.games.boston.boston7 as b7

    web._SHEETS.clear()
    calls: list[int] = []
    real = games.analyze_boston5

    def slow(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        time.sleep(0.5)
        return real(*args, **kwargs)

    monkeypatch.setattr(games, "analyze_boston5", slow)
    answers: list[int] = []

    def ask() -> None:
        answers.append(h.get("admin", "/api/tables/b5/par-sheet").status_code)

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [200, 200]
    assert calls == [1]
    sheet = h.get("admin", "/api/tables/b5/par-sheet").json()
    assert "house edge" in sheet["html"]
    assert sheet["plot"].startswith("data:image/png;base64,")
    assert calls == [1]
    monkeypatch.setattr(b7, "counts_on_disk", lambda: False)
    for hh in harness(h.server.store.url, [TableSpec("b7", "boston7", pace_seconds=0)], node="n2"):
        hh.login("admin", "admin-password")
        start = time.monotonic()
        r = hh.get("admin", "/api/tables/b7/par-sheet")
        assert r.status_code == 409
        assert "felt analyze boston7" in r.json()["error"]
        assert time.monotonic() - start < 5
