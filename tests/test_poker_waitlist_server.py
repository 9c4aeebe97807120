"""The poker room's waiting lists on the server (N.J.A.C. 19:47-14.18), on SQLite and PostgreSQL:
first come first served, a player on several lists, the floor calls, seats, removes and moves
down with a reason, who and when recorded; a player reads only their own place; refusals are
4xx naming what is allowed and change nothing; the lists survive a restart.

Times come from a clock the test sets (the arrival clock is 180 seconds by default)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect, text

from felt.core.errors import FeltError
from felt.games.poker.routes import mount
from felt.games.poker.store import NAMES, WaitlistSettings, WaitlistStore, list_key
from felt.server.app import Server, Who, create_app
from felt.server.auth import Account
from felt.server.spec import TableSpec
from felt.server.store import Store
from tests.server_helpers import Harness, fast_specs

HOLDEM = "holdem 2.00/4.00 fixed"
OMAHA = "omaha 1.00/2.00 pot"
W = "/api/poker/waitlist"
START = 1_000_000.0


class Clock:
    """The time the lists see: set by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def _harness(url: str, clock: Clock, specs: list[TableSpec] | None = None) -> Iterator[Harness]:
    server = Server(Store(url), specs or fast_specs(), "node-a")
    app = create_app(server)
    if not any(getattr(r, "path", None) == W for r in app.routes):  # not yet mounted by the game
        mount(app, server, Who)
    app.state.poker_waitlist.clock = clock
    with TestClient(app) as client:
        yield Harness(client, server)
    server.store.dispose()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def h(database_url: str, clock: Clock) -> Iterator[Harness]:
    harness = _harness(database_url, clock)
    yield from harness


def people(h: Harness) -> None:
    """The floor (``floor``, a supervisor), a dealer, a cashier and four players."""
    h.account("floor", "supervisor")
    h.account("deal", "dealer")
    h.account("cash", "cashier")
    for name in ("ann", "bob", "cat", "dan"):
        h.account(name, "player")


def ok(r: Any) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def refused(r: Any, status: int, *words: str) -> str:
    assert r.status_code == status, r.text
    error: str = r.json()["error"]
    for w in words:
        assert w in error, error
    return error


def order(h: Harness, game: str = HOLDEM) -> list[str]:
    """The names on one list in order, as the floor sees them."""
    lists = ok(h.get("floor", W))["lists"]
    return next(([e["player"] for e in x["entries"]] for x in lists if x["game"] == game), [])


def test_14_18_first_come_first_served_call_arrive_and_seat(h: Harness, clock: Clock) -> None:
    """14.18 "all vacant seats shall be filled on a first come first served basis": the floor
    adds ann, bob joins himself, the floor adds cat; the first call goes to ann with 180 s to
    arrive, the next to bob; ann is seated in time and leaves the list."""
    people(h)
    ok(h.post("floor", f"{W}/join", {"game": "holdem 2/4 fixed", "player": "ann"}))
    clock.now += 1
    ok(h.post("bob", f"{W}/join", {"game": HOLDEM}))
    clock.now += 1
    ok(h.post("floor", f"{W}/join", {"game": HOLDEM, "player": "cat"}))
    assert order(h) == ["ann", "bob", "cat"]
    clock.now += 10
    called = ok(h.post("floor", f"{W}/call", {"game": HOLDEM, "called_to": "table 4 seat 7"}))
    assert called["change"] == {"game": HOLDEM, "player": "ann", "change": "call", "place": 1,
                                "at": START + 12}  # fmt: skip
    first = ok(h.get("floor", W))["lists"][0]["entries"][0]
    assert (first["called_at"], first["arrive_by"]) == (START + 12, START + 192)
    assert (first["called_to"], first["late"]) == ("table 4 seat 7", False)
    assert ok(h.post("floor", f"{W}/call", {"game": HOLDEM}))["change"]["player"] == "bob"
    clock.now = START + 192  # the last second of ann's time
    seated = ok(h.post("floor", f"{W}/seat", {"game": HOLDEM, "player": "ann"}))
    assert seated["change"]["place"] is None
    assert order(h) == ["bob", "cat"]
    bob = {"game": HOLDEM, "player": "bob"}  # called at START + 12 too: the same last second
    refused(h.post("floor", f"{W}/no-show", bob), 400, "still within the time")
    clock.now += 0.5
    refused(h.post("floor", f"{W}/seat", bob), 400, "after the time to arrive")
    assert ok(h.post("floor", f"{W}/no-show", bob))["change"]["place"] is None
    assert order(h) == ["cat"]


def test_14_18_a_player_on_several_lists_sees_only_their_own_place(h: Harness) -> None:
    """A player may wait on several lists; their reply holds their place and the list's
    length on each, and no other player's name anywhere in it."""
    people(h)
    for name in ("ann", "bob", "cat"):
        ok(h.post("floor", f"{W}/join", {"game": HOLDEM, "player": name}))
    ok(h.post("floor", f"{W}/join", {"game": OMAHA, "player": "dan"}))
    ok(h.post("bob", f"{W}/join", {"game": OMAHA}))
    view = ok(h.get("bob", W))
    places = {p["game"]: (p["place"], p["of"], p["called"]) for p in view["places"]}
    assert places == {HOLDEM: (2, 3, False), OMAHA: (2, 2, False)}
    shown = json.dumps(view)
    for other in ("ann", "cat", "dan", "floor"):
        assert other not in shown
    assert ok(h.get("dan", W))["places"] == [
        {"game": OMAHA, "place": 1, "of": 2, "called": False, "arrive_by": None, "called_to": None}
    ]
    ok(h.post("floor", f"{W}/call", {"game": OMAHA, "called_to": "table 2"}))
    dan = ok(h.get("dan", W))["places"][0]
    assert (dan["called"], dan["called_to"]) == (True, "table 2")
    ok(h.post("floor", f"{W}/seat", {"game": OMAHA, "player": "dan"}))  # seated at omaha only
    assert [p["game"] for p in ok(h.get("bob", W))["places"]] == [HOLDEM, OMAHA]
    assert ok(h.get("bob", W))["places"][1]["place"] == 1


def test_14_18_every_change_recorded_with_who_when_and_why(h: Harness, clock: Clock) -> None:
    """Join, call, no-show, move down, remove, leave and seat each leave one row: the player,
    their place after, the reason (the floor's own words where it acts), who and when."""
    people(h)
    for name in ("ann", "bob", "cat", "dan"):
        ok(h.post("floor", f"{W}/join", {"game": HOLDEM, "player": name}))
    ok(h.post("floor", f"{W}/call", {"game": HOLDEM}))  # ann, at START
    clock.now = START + 181
    ok(h.post("floor", f"{W}/no-show", {"game": HOLDEM, "player": "ann"}))  # removed (default)
    ok(h.post("floor", f"{W}/move-down", {"game": HOLDEM, "player": "bob",
                                          "reason": "waiting for a friend"}))  # fmt: skip
    ok(h.post("floor", f"{W}/leave", {"game": HOLDEM, "player": "dan", "reason": "left the room"}))
    ok(h.post("cat", f"{W}/leave", {"game": HOLDEM}))
    assert order(h) == ["bob"]
    rows = ok(h.get("floor", f"{W}/changes"))["changes"][::-1]
    got = [(r["change"], r["player"], r["place"], r["by"]) for r in rows]
    assert got == [
        ("join", "ann", 1, "floor"), ("join", "bob", 2, "floor"), ("join", "cat", 3, "floor"),
        ("join", "dan", 4, "floor"), ("call", "ann", 1, "floor"), ("no_show", "ann", None, "floor"),
        ("move_down", "bob", 2, "floor"), ("remove", "dan", None, "floor"),
        ("leave", "cat", None, "cat"),
    ]  # fmt: skip
    reasons = [r["reason"] for r in rows]
    assert reasons[5] == "did not arrive in time: removed"
    assert reasons[6:] == ["waiting for a friend", "left the room", "left the list"]
    assert [r["at"] for r in rows] == [START] * 5 + [START + 181] * 4
    assert [
        r["player"] for r in ok(h.get("floor", f"{W}/changes?game=omaha 1/2 pot"))["changes"]
    ] == []


def test_14_18_who_may_read_and_change(h: Harness) -> None:
    """The floor (supervisor) changes any list; a dealer reads every list but changes none; a
    player acts only for themselves and cannot read the record; a cashier sees nothing."""
    people(h)
    ok(h.post("floor", f"{W}/join", {"game": HOLDEM, "player": "ann"}))
    assert [x["game"] for x in ok(h.get("deal", W))["lists"]] == [HOLDEM]
    for path, body in [
        ("join", {"game": HOLDEM, "player": "bob"}),
        ("call", {"game": HOLDEM}),
        ("leave", {"game": HOLDEM, "player": "ann", "reason": "x"}),
    ]:
        refused(h.post("deal", f"{W}/{path}", body), 403, "supervisor")
    refused(h.post("bob", f"{W}/join", {"game": HOLDEM, "player": "cat"}), 403, "themselves")
    refused(h.post("bob", f"{W}/leave", {"game": HOLDEM, "player": "ann"}), 403, "themselves")
    for path in ("call", "seat", "no-show", "move-down"):
        body = {"game": HOLDEM} | ({} if path == "call" else {"player": "ann"})
        refused(h.post("ann", f"{W}/{path}", body), 403, "supervisor")
    refused(h.get("ann", f"{W}/changes"), 403)
    refused(h.get("cash", W), 403, "supervisor or dealer")
    refused(h.client.get(W), 401)
    assert order(h) == ["ann"]


def test_14_18_refusals_name_what_is_allowed_and_change_nothing(h: Harness, clock: Clock) -> None:
    """Each bad request is a 4xx whose error names what was wrong and what is allowed; the lists
    and the record are as before."""
    people(h)
    ok(h.post("floor", f"{W}/join", {"game": HOLDEM, "player": "ann"}))
    ok(h.post("floor", f"{W}/join", {"game": HOLDEM, "player": "bob"}))
    before = (ok(h.get("floor", W)), ok(h.get("floor", f"{W}/changes")))
    cases: list[tuple[str, str, dict[str, Any], int, tuple[str, ...]]] = [
        ("floor", "join", {"game": "blackjack 5/10", "player": "cat"}, 400, ("holdem", "fixed")),
        ("floor", "join", {"game": "stud7 1/2 no", "player": "cat"}, 400, ("stud7: fixed",)),
        ("floor", "join", {"game": "holdem 4/2 fixed", "player": "cat"}, 400, ("at most",)),
        ("floor", "join", {"game": "holdem 2.001/4 fixed", "player": "cat"}, 400, ("whole cents",)),
        ("floor", "join", {"game": 7, "player": "cat"}, 400, ("game must be",)),
        ("floor", "join", {"game": HOLDEM, "player": "zed"}, 404, ("no open account",)),
        ("floor", "join", {"game": HOLDEM, "player": "deal"}, 400, ("only players",)),
        ("floor", "join", {"game": HOLDEM}, 400, ("player must be",)),
        ("floor", "join", {"game": HOLDEM, "player": "ann"}, 400, ("already on",)),
        ("floor", "join", {"game": HOLDEM, "player": "cat", "seat": 3}, 422, ("seat",)),
        ("cat", "join", {"game": OMAHA}, 400, ("no list for", HOLDEM)),
        ("floor", "call", {"game": OMAHA}, 400, ("no one is waiting",)),
        ("floor", "seat", {"game": HOLDEM, "player": "ann"}, 400, ("not been called",)),
        ("floor", "seat", {"game": HOLDEM, "player": "cat"}, 400, ("not on the",)),
        ("floor", "no-show", {"game": HOLDEM, "player": "ann"}, 400, ("not a no-show",)),
        ("floor", "move-down", {"game": HOLDEM, "player": "ann"}, 400, ("reason must be",)),
        ("floor", "move-down", {"game": HOLDEM, "player": "ann", "reason": " "}, 400, ("say why",)),
        ("floor", "leave", {"game": HOLDEM, "player": "ann"}, 400, ("reason",)),
        ("floor", "leave", {"game": HOLDEM, "player": "ann", "reason": "x" * 201}, 400, ("200",)),
        ("floor", "call", {"game": HOLDEM, "called_to": "t\n4"}, 400, ("printable",)),
        ("cat", "leave", {"game": HOLDEM}, 400, ("not on the",)),
    ]
    for who, path, body, status, words in cases:
        refused(h.post(who, f"{W}/{path}", body), status, *words)
    assert (ok(h.get("floor", W)), ok(h.get("floor", f"{W}/changes"))) == before
    ok(h.post("floor", f"{W}/call", {"game": HOLDEM}))
    clock.now += 181
    refused(h.post("floor", f"{W}/seat", {"game": HOLDEM, "player": "ann"}), 400, "no-show")
    refused(h.get("floor", f"{W}/changes?limit=0"), 422)
    assert order(h) == ["ann", "bob"]


def test_14_18_lists_survive_a_restart(tmp_path: Path, clock: Clock) -> None:
    """Every accepted change is committed before the answer: a new server on the same database
    has the same lists, calls and record."""
    url = f"sqlite:///{tmp_path / 'felt.db'}"
    first = _harness(url, clock)
    h = next(first)
    people(h)
    for name in ("ann", "bob"):
        ok(h.post("floor", f"{W}/join", {"game": HOLDEM, "player": name}))
    ok(h.post("floor", f"{W}/call", {"game": HOLDEM, "called_to": "table 1"}))
    before = (ok(h.get("floor", W)), ok(h.get("floor", f"{W}/changes")), ok(h.get("bob", W)))
    next(first, None)
    second = _harness(url, clock)
    again = next(second)
    again.tokens = {}
    again.login("floor", "floor-password")
    again.login("bob", "bob-password")
    after = (
        ok(again.get("floor", W)),
        ok(again.get("floor", f"{W}/changes")),
        ok(again.get("bob", W)),
    )
    assert after == before
    ok(again.post("floor", f"{W}/seat", {"game": HOLDEM, "player": "ann"}))
    next(second, None)


def test_14_18_r0007_adds_the_waiting_lists_to_a_database_made_before_it(database_url: str) -> None:
    """A database at r0006 gets the two waiting-list tables from the migration."""
    store = Store(database_url)
    store.migrate()
    with store.engine.begin() as conn:
        for t in NAMES[::-1]:
            conn.execute(text(f"DROP TABLE {t}"))
        conn.execute(text("UPDATE alembic_version SET version_num = 'r0006'"))
    assert not set(NAMES) & set(inspect(store.engine).get_table_names())
    store.migrate()
    assert set(NAMES) <= set(inspect(store.engine).get_table_names())
    store.dispose()


def test_14_18_list_keys_are_the_posted_game_and_limit() -> None:
    """A list's key is the game and limit as a poker table posts them, so "holdem 2/4 fixed"
    and "holdem 2.00/4.00 fixed" are one list."""
    assert list_key("holdem 2/4 fixed") == list_key(" holdem 2.00 / 4 fixed ") == HOLDEM
    assert list_key("stud7 5/10 fixed") == "stud7 5.00/10.00 fixed"
    for bad in ("holdem 2/4", "holdem 0/4 fixed", "stud7 1/2 pot", "HOLDEM 2/4 fixed", "x" * 65):
        with pytest.raises(FeltError, match="game"):
            list_key(bad)


# ----------------------------------------------------------------- the store against a model
OPS = st.lists(
    st.tuples(
        st.sampled_from(["join", "leave", "call", "seat", "no_show", "move_down", "tick"]),
        st.sampled_from(["p0", "p1", "p2"]),
        st.sampled_from([HOLDEM, OMAHA]),
    ),
    max_size=30,
)


def _model_step(
    model: dict[str, list[list[Any]]], op: str, name: str, game: str, now: float, rule: str
) -> bool:
    """The rules of 14.18 as felt reads them, written again from the interpretations for the
    oracle: each list is ``[name, arrive_by or None]`` in order.  Returns whether ``op`` is
    allowed (and then applies it)."""
    entries = model.setdefault(game, [])
    names = [e[0] for e in entries]
    i = names.index(name) if name in names else None
    if op == "join":
        if i is not None:
            return False
        entries.append([name, None])
    elif op == "leave":
        if i is None:
            return False
        entries.pop(i)
    elif op == "call":
        free = [e for e in entries if e[1] is None]
        if not free:
            return False
        free[0][1] = now + 180
    elif op == "seat":
        if i is None or entries[i][1] is None or now > entries[i][1]:
            return False
        entries.pop(i)
    elif op == "no_show":
        if i is None or entries[i][1] is None or now <= entries[i][1]:
            return False
        entry = entries.pop(i)
        if rule == "move_down":
            entries.insert(min(i + 1, len(entries)), [entry[0], None])
    elif op == "move_down":
        if i is None:
            return False
        entry = entries.pop(i)
        entries.insert(min(i + 1, len(entries)), [entry[0], None])
    return True


@pytest.fixture(scope="module")
def model_store(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Store, Account, list[Account]]]:
    """A migrated SQLite store with a floor account and four players (for the model test)."""
    from felt.server.auth import create_account

    store = Store(f"sqlite:///{tmp_path_factory.mktemp('wl') / 'felt.db'}")
    store.migrate()
    floor = create_account(store, "floor", "supervisor", "floor-password-1")
    players = [create_account(store, f"p{i}", "player", "player-password-1") for i in range(4)]
    yield store, floor, players
    store.dispose()


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=OPS, rule=st.sampled_from(["remove", "move_down"]))
def test_14_18_store_follows_a_model_of_the_rules(
    model_store: tuple[Store, Account, list[Account]], ops: list[tuple[str, str, str]], rule: Any
) -> None:
    """Random changes through the durable store agree with a model written apart: the same
    changes allowed and refused, the same order and calls after each, every player's own view
    equal to their place in the model, and one record row per accepted change."""
    store, floor, players = model_store
    with store.transaction() as conn:
        for t in NAMES[::-1]:
            conn.execute(text(f"DELETE FROM {t}"))
    clock = Clock()
    lists = WaitlistStore(store, WaitlistSettings(180, rule), clock=clock)
    by_name = {p.name: p for p in players}
    model: dict[str, list[list[Any]]] = {}
    accepted = 0
    for op, name, game in ops:
        if op == "tick":
            clock.now += 60  # three ticks reach the call's last second exactly
            continue
        allowed = _model_step(model, op, name, game, clock.now, rule)
        try:
            if op == "join":
                lists.join(floor, game, name)
            elif op == "leave":
                lists.leave(by_name[name], game)
            elif op == "call":
                lists.call(floor, game)
            elif op == "seat":
                lists.seat(floor, game, name)
            elif op == "no_show":
                lists.no_show(floor, game, name)
            else:
                lists.move_down(floor, game, name, "passed on the seat")
            done = True
        except FeltError:
            done = False
        assert done == allowed, (op, name, game, model)
        accepted += done
        view = lists.floor_view(floor)["lists"]
        got = {x["game"]: [[e["player"], e["arrive_by"]] for e in x["entries"]] for x in view}
        assert got == {g: e for g, e in model.items() if e}
    for p in players:
        mine = {x["game"]: (x["place"], x["of"]) for x in lists.player_view(p)["places"]}
        want = {g: ([e[0] for e in es].index(p.name) + 1, len(es))
                for g, es in model.items() if p.name in [e[0] for e in es]}  # fmt: skip
        assert mine == want
    assert len(lists.changes(floor, limit=500)["changes"]) == accepted


def test_14_18_restore_keeps_order_and_refuses_a_player_twice() -> None:
    """The store's way back into the pure lists: the order and calls as kept; a player twice
    on one list is refused (first come first served has one place per player)."""
    from felt.games.poker.waitlist import Entry, WaitingLists

    kept = [Entry("ann", 1.0, 5.0, 185.0), Entry("bob", 2.0)]
    lists = WaitingLists.restore({HOLDEM: kept, OMAHA: []}, 180)
    assert lists.entries(HOLDEM) == tuple(kept)
    assert lists.floor_view() == {HOLDEM: tuple(kept)}
    lists.move_down(HOLDEM, "ann", lapse=True)
    assert lists.entries(HOLDEM) == (Entry("bob", 2.0), Entry("ann", 1.0))
    with pytest.raises(FeltError, match="twice"):
        WaitingLists.restore({HOLDEM: [Entry("ann", 1.0), Entry("ann", 2.0)]})


def test_14_18_players_joining_at_once_get_distinct_places_in_record_order(
    database_url: str,
) -> None:
    """Eight players join one list at the same moment from eight threads: places 1 to 8, each
    once, in the order the record wrote the joins (one change to a list at a time)."""
    from concurrent.futures import ThreadPoolExecutor

    from felt.server.auth import create_account

    store = Store(database_url)
    store.migrate()
    floor = create_account(store, "floor", "supervisor", "floor-password-1")
    names = [f"p{i}" for i in range(8)]
    for name in names:
        create_account(store, name, "player", "player-password-1")
    lists = WaitlistStore(store)
    with ThreadPoolExecutor(8) as pool:
        done = list(pool.map(lambda n: lists.join(floor, HOLDEM, n), names))
    assert sorted(d["place"] for d in done) == list(range(1, 9))
    view = lists.floor_view(floor)["lists"][0]["entries"]
    record = lists.changes(floor, HOLDEM)["changes"][::-1]
    assert [e["player"] for e in view] == [r["player"] for r in record]
    assert {d["player"]: d["place"] for d in done} == {e["player"]: e["place"] for e in view}
    store.dispose()


def test_14_18_a_change_sent_again_with_its_key_is_made_once(h: Harness) -> None:
    """A call whose answer was lost, sent again with its key, answers the same call (the next
    player is not called); a join likewise; the key sent with another change is a 409."""
    people(h)
    for name in ("ann", "bob"):
        ok(h.post("floor", f"{W}/join", {"game": HOLDEM, "player": name, "key": f"join-{name}"}))
    again = ok(h.post("floor", f"{W}/join", {"game": HOLDEM, "player": "ann", "key": "join-ann"}))
    assert again["change"]["place"] == 1
    first = ok(h.post("floor", f"{W}/call", {"game": HOLDEM, "key": "call-1"}))["change"]
    assert ok(h.post("floor", f"{W}/call", {"game": HOLDEM, "key": "call-1"}))["change"] == first
    assert first["player"] == "ann"
    rows = ok(h.get("floor", f"{W}/changes"))["changes"]
    assert [r["change"] for r in rows] == ["call", "join", "join"]
    refused(h.post("floor", f"{W}/seat", {"game": HOLDEM, "player": "ann", "key": "call-1"}), 409,
            "another change")  # fmt: skip
    refused(h.post("ann", f"{W}/leave", {"game": HOLDEM, "key": "x" * 65}), 400, "1 to 64")
    assert ok(h.post("ann", f"{W}/leave", {"game": HOLDEM, "key": "call-1"}))["change"][
        "change"
    ] == ("leave")  # a key is the account's own: ann's "call-1" is not the floor's


def test_14_18_a_player_joins_the_list_of_a_game_a_poker_table_posts(
    tmp_path: Path, clock: Clock
) -> None:
    """The lists a player may join are the games the room's poker tables post (the default
    table: fixed-limit hold'em $2/$4), before anyone waits on them; others are refused."""
    url = f"sqlite:///{tmp_path / 'felt.db'}"
    run = _harness(url, clock, [TableSpec("pk", "poker", pace_seconds=0, betting_seconds=0.3)])
    h = next(run)
    people(h)
    assert ok(h.get("ann", W))["games"] == [HOLDEM]
    assert ok(h.post("ann", f"{W}/join", {"game": "holdem 2/4 fixed"}))["change"]["place"] == 1
    refused(h.post("ann", f"{W}/join", {"game": OMAHA}), 400, "no list for", HOLDEM)
    next(run, None)
