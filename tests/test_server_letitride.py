"""Let It Ride Poker at the table server (issue 22), through the game interface only: rounds
played over the WebSocket by two players while a third player, the dealer and the supervisor
watch and every role polls the table, the lobby and the floor over HTTP.

Hidden cards are checked AT THE SERVER, against an oracle of this file's own built from the
stored event log by the rules (decisions.md 3 and 11; 18.1 "Community card"), never with felt's
view code: no message to anyone carries a community card before the dealer turns it, the burned
card ever, or another position's cards before its hand is turned over at the settlement.  A take
back after its moment (or of wager $) answers 4xx with a JSON error and changes nothing (the
events and the ledger as they were); the ledger balances.  The cards' change schedule of 18.4(e)
is kept by the server's clock (a fake one here): past ``change_hours`` no round opens, the
staff read why, and the supervisor's ``change_cards`` procedure lets the next round open.

One server per module (a real ``felt serve`` on loopback, one table, short betting clocks).
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from websockets.asyncio.client import connect

from felt.core.money import cents
from felt.server.spec import TableSpec
from felt.server.store import accounts, felt_tables, round_events, rounds
from tests.server_helpers import Harness, ledger_balances, live_server

ID = "let_it_ride"
TABLE = "lir"
ROUNDS = 3
"""Rounds the WebSocket session plays."""
CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")
"""A card as the API writes it (``As``, ``Td``), wherever it stands in a string."""
SEATS = {"ann": 2, "bo": 5}
WATCHERS = {"cy": "player", "deal": "dealer", "admin": "supervisor"}


def spec() -> TableSpec:
    """A Let It Ride table dealing without waiting (decisions wait for the players)."""
    return TableSpec(TABLE, ID, settings={"decision_seconds": 60}, pace_seconds=0,
                     betting_seconds=0.3, between_rounds_seconds=0.3)  # fmt: skip


# ----------------------------------------------------------------- the oracle, from the record


@dataclass
class Rights:
    """When each card of one round may be seen, from its stored events by the rules alone."""

    burn: set[str] = field(default_factory=set)
    """The community area's first card: shown to no one, ever."""
    community: dict[str, int] = field(default_factory=dict)
    """A community card -> the event that turns it face up (absent: never turned)."""
    seat_cards: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    owners: dict[int, int] = field(default_factory=dict)
    """Seat -> the account whose wagers are on it."""
    dealt: dict[str, int] = field(default_factory=dict)
    settle: int | None = None


def rights(store: Any) -> dict[str, Rights]:
    """Every round's :class:`Rights`, from the stored events."""
    out: dict[str, Rights] = {}
    with store.engine.connect() as conn:
        for e in conn.execute(
            select(round_events).order_by(round_events.c.round_id, round_events.c.seq)
        ):
            r = out.setdefault(e.round_id, Rights())
            action = json.loads(e.action)
            if action.get("action") == "wager":
                r.owners[int(action["seat"])] = int(e.actor)
            for _place, card in json.loads(e.drawn):
                r.dealt.setdefault(card, e.seq)
            for eff in json.loads(e.effects):
                cards = list(eff.get("cards", []))
                if eff["kind"] == "burn":
                    r.burn.update(cards)
                elif eff["kind"] == "deal" and eff["seat"] is not None:
                    r.seat_cards[int(eff["seat"])].update(cards)
                elif eff["kind"] == "turn":
                    for c in cards:
                        r.community.setdefault(c, e.seq)
            if action.get("dealer") == "settle":
                r.settle = e.seq
    return out


def cards_in(value: Any) -> set[str]:
    """Every card written anywhere in a message."""
    return set(CARD.findall(json.dumps(value)))


def leaks(received: dict[str, list[dict[str, Any]]], ids: dict[str, int],
          oracle: dict[str, Rights]) -> list[tuple[str, str, str, Any]]:  # fmt: skip
    """Every (client, check, card, where) a message broke: the burn card anywhere; a community
    card before its turn; another seat's card before the settlement."""
    found: list[tuple[str, str, str, Any]] = []
    for name, messages in received.items():
        account = ids.get(name)
        for m in messages:
            if m.get("type") != "table" or m.get("round") is None:
                for card in cards_in(m):  # the lobby, the floor, errors: no card at all
                    found.append((name, "not a round's view", card, m.get("type")))
                continue
            r = oracle.get(str(m["round"]), Rights())
            seq = int(m.get("seq") or 0)
            settled = r.settle is not None and r.settle <= seq
            body = {k: v for k, v in m.items() if k != "last"}  # "last": its own round's
            for card in cards_in(body):
                turned = r.community.get(card)
                if turned is not None and turned <= seq:
                    continue  # a community card face up: everyone's
                seat = next((s for s, held in r.seat_cards.items() if card in held), None)
                if seat is not None and (r.owners.get(seat) == account or settled):
                    continue  # the player's own, or any hand turned over at the settlement
                found.append((name, "too early", card, (m["round"], seq)))
            for card in cards_in(body) & r.burn:  # the round's own burn card (a card burned in
                found.append(
                    (name, "burn card", card, m["round"])
                )  # one round is dealt in another)
            for seat, last in (m.get("last") or {}).items():
                lr = oracle.get(str(last.get("round")), Rights())
                if lr.owners.get(int(seat)) != account:
                    found.append((name, "another's last result", seat, last.get("round")))
                for card in cards_in(last) & lr.burn:
                    found.append((name, "burn card", card, last.get("round")))
    return found


# ----------------------------------------------------------------- the session


@dataclass
class Played:
    """The server and what every client received."""

    h: Harness
    received: dict[str, list[dict[str, Any]]]
    balances_before: dict[str, int]


async def _session(url: str, tokens: dict[str, str],
                   received: dict[str, list[dict[str, Any]]]) -> None:  # fmt: skip
    """Every client on its own WebSocket until :data:`ROUNDS` rounds have settled; the players
    wager (ann with both bonus wagers) and decide: ann takes back wager 1 in odd rounds and
    wager 2 in even ones, bo lets both ride."""

    async def client(name: str) -> None:
        async with connect(url) as ws:
            await ws.send(json.dumps({"token": tokens[name]}))
            await ws.send(json.dumps({"subscribe": TABLE}))
            answered: set[tuple[str, str]] = set()
            end = time.monotonic() + 60
            while time.monotonic() < end:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=5)
                except TimeoutError:
                    continue
                msg = json.loads(raw)
                received[name].append(msg)
                if msg.get("type") != "table":
                    continue
                number = int(msg.get("number") or 0)
                if number > ROUNDS or (number == ROUNDS and msg["finished"]):
                    return
                if name not in SEATS:
                    continue
                seat = SEATS[name]
                mine = msg.get("mine", {}).get(str(seat)) or {}
                rid = str(msg.get("round"))
                send: dict[str, Any] | None = None
                if (
                    mine.get("phase") == "betting"
                    and not mine.get("wagers")
                    and not msg["finished"]
                ) and (rid, "w") not in answered:
                    answered.add((rid, "w"))
                    send = {"action": "wager", "seat": seat, "amount": "10.00"}
                    if name == "ann":
                        send |= {"bonus": "1.00", "three_card_bonus": "5"}
                for p in mine.get("pending") or []:
                    if p["seat"] != seat or (rid, p["election"]) in answered:
                        continue
                    answered.add((rid, p["election"]))
                    n = 1 if p["election"] == "first wager" else 2
                    back = name == "ann" and n == (1 if number % 2 else 2)
                    send = {"action": "take_back" if back else "let_it_ride", "seat": seat,
                            "wager": n}  # fmt: skip
                if send is not None:
                    await ws.send(json.dumps({"table": TABLE, "action": send, "round": rid,
                                              "key": secrets.token_hex(8)}))  # fmt: skip

    await asyncio.gather(*(client(n) for n in received))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    url = f"sqlite:///{tmp_path_factory.mktemp('lir-server') / 'felt.db'}"
    with live_server(url, [spec()]) as h:
        for name in SEATS:
            h.account(name, "player", "500.00")
        for name, role in WATCHERS.items():
            if name not in h.tokens:
                h.account(name, role)
        for name, seat in SEATS.items():
            r = h.post(name, f"/api/tables/{TABLE}/sit", {"seat": seat})
            assert r.status_code == 200, r.text
        before = ledger_balances(h.server.store)
        received: dict[str, list[dict[str, Any]]] = {n: [] for n in (*SEATS, *WATCHERS)}
        polled: dict[str, list[dict[str, Any]]] = {n: [] for n in received}
        stop = threading.Event()

        def poll() -> None:  # the HTTP answers too, as each role reads them
            while not stop.is_set():
                for name in polled:
                    polled[name].append(h.get(name, f"/api/tables/{TABLE}").json())
                    polled[name].append({"type": "lobby", "v": h.get(name, "/api/lobby").json()})
                polled["admin"].append({"type": "floor", "v": h.get("admin", "/api/floor").json()})
                time.sleep(0.1)

        poller = threading.Thread(target=poll, daemon=True)
        poller.start()
        try:
            asyncio.run(_session(h.ws_url, h.tokens, received))
        finally:
            stop.set()
            poller.join(10)
        for name, extra in polled.items():
            received[name] += extra
        yield Played(h, received, before)


def _ids(h: Harness) -> dict[str, int]:
    """Account ids by name, from the store."""
    with h.server.store.engine.connect() as conn:
        return {str(n): int(i) for n, i in conn.execute(select(accounts.c.name, accounts.c.id))}


def test_rounds_are_played_over_the_websocket_with_both_take_backs(played: Played) -> None:
    """18.1 "Let it ride": each player decided wagers 1 and 2 in turn; ann's take-backs are on
    record, wager $ never; every round settled."""
    store = played.h.server.store
    with store.engine.connect() as conn:
        actions = [json.loads(a) for (a,) in conn.execute(select(round_events.c.action))]
        done = conn.execute(select(rounds.c.id).where(rounds.c.finished)).all()
    assert len(done) >= ROUNDS
    taken = [(a["seat"], a["wager"]) for a in actions if a.get("action") == "take_back"]
    assert (2, 1) in taken
    assert (2, 2) in taken
    assert all(w in (1, 2) for _, w in taken)
    assert sum(1 for a in actions if a.get("dealer") == "turn") >= 2 * ROUNDS
    refused = [m for ms in played.received.values() for m in ms if m.get("type") == "error"]
    assert not refused, refused


def test_no_message_carries_a_card_before_it_may_be_seen(played: Played) -> None:
    """Every WebSocket message and every HTTP answer to every role: no community card before it
    is turned, the burned card never, no other position's card before the settlement; and the
    oracle found something to check (community cards and hands were shown when they could be)."""
    oracle = rights(played.h.server.store)
    found = leaks(played.received, _ids(played.h), oracle)
    assert not found, found[:20]
    shown = [m for ms in played.received.values() for m in ms if cards_in(m)]
    assert len(shown) > 30
    assert all(len(r.burn) == 1 for r in oracle.values() if r.dealt)


def test_the_checks_catch_a_community_card_or_the_burn_card_shown_early(played: Played) -> None:
    """The oracle can fail: a message of the deal's event that holds community card 1, another
    seat's card or the burn card is found; the player's own cards are not."""
    oracle = rights(played.h.server.store)
    ids = _ids(played.h)
    rid, r = next((k, v) for k, v in oracle.items() if v.settle is not None and len(v.owners) == 2)
    deal = min(r.dealt.values())
    first = min(r.community, key=lambda c: r.community[c])
    burn = next(iter(r.burn))
    bo_seat = next(s for s, a in r.owners.items() if a == ids["bo"])
    ann_seat = next(s for s, a in r.owners.items() if a == ids["ann"])
    bos = next(iter(r.seat_cards[bo_seat]))
    for card in (first, burn, bos):
        fake = {"type": "table", "table": TABLE, "round": rid, "seq": deal, "public": [card]}
        assert {x[2] for x in leaks({"ann": [fake]}, ids, oracle)} == {card}
    late = {"type": "table", "table": TABLE, "round": rid, "seq": r.settle, "public": [burn]}
    assert [x[1] for x in leaks({"ann": [late]}, ids, oracle)] == ["too early", "burn card"]
    own = {"type": "table", "round": rid, "seq": deal, "mine": sorted(r.seat_cards[ann_seat])}
    assert leaks({"ann": [own]}, ids, oracle) == []


def test_the_ledger_balances_and_the_players_money_is_conserved(played: Played) -> None:
    """Every cent the players lost or won is the house's gain or loss; nothing stays on the
    layout once the rounds are settled."""
    store = played.h.server.store
    assert store.ledger_sum() == 0
    after = ledger_balances(store)
    players = [a for a in after if a.startswith("player:")]
    moved = sum(after.get(a, 0) - played.balances_before.get(a, 0) for a in players)
    house = sum(after.get(a, 0) - played.balances_before.get(a, 0) for a in after
                if not a.startswith("player:"))  # fmt: skip
    assert moved == -house
    assert all(not a.startswith("layout:") or v == 0 for a, v in after.items())
    for name in SEATS:
        shown = cents(played.h.get(name, "/api/me").json()["balance"])
        assert shown == after.get(f"player:{_ids(played.h)[name]}", 0)


# ----------------------------------------------------------------- a decision after its moment


def _mine(view: dict[str, Any], seat: int) -> dict[str, Any]:
    return dict(view.get("mine", {}).get(str(seat)) or {})


def strip(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what moves by itself (the decision clock) or between rounds."""
    return {k: x for k, x in view.items() if k not in ("clock", "last")}


def _events(h: Harness, rid: str) -> list[tuple[int, str, str]]:
    with h.server.store.engine.connect() as conn:
        rows = conn.execute(
            select(round_events.c.seq, round_events.c.action, round_events.c.effects)
            .where(round_events.c.round_id == rid)
            .order_by(round_events.c.seq)
        ).all()
    return [(int(s), str(a), str(e)) for s, a, e in rows]


def test_18_1_a_take_back_after_its_moment_is_4xx_and_changes_nothing(played: Played) -> None:
    """With community card 1 face up and wager 2 pending, taking back wager 1 (its moment
    passed), wager 3 ($ always stays) or wager 2 twice answers 4xx with one JSON error naming
    what may be decided now, and the events, the ledger and the views are as they were."""
    h = played.h
    view = h.wait_for("ann", TABLE, lambda v: _mine(v, 2).get("phase") == "betting"
                      and not v["finished"] and not _mine(v, 2).get("wagers"))  # fmt: skip
    rid = view["round"]
    for name, seat in SEATS.items():
        r = h.act(name, TABLE, {"action": "wager", "seat": seat, "amount": "5.00"})
        assert r.status_code == 200, r.text
    h.wait_for("ann", TABLE, lambda v: any(p["election"] == "first wager"
                                           for p in _mine(v, 2).get("pending", [])))  # fmt: skip
    for name, seat in SEATS.items():
        r = h.act(name, TABLE, {"action": "let_it_ride", "seat": seat, "wager": 1})
        assert r.status_code == 200, r.text
    view = h.wait_for("ann", TABLE, lambda v: _mine(v, 2).get("phase") == "second wager")
    assert len(view["public"]["community"]) == 1
    assert view["public"]["community_count"] == 2
    events, ledger = _events(h, rid), ledger_balances(h.server.store)
    seen = strip(h.get("ann", f"/api/tables/{TABLE}").json())
    tries = [
        ({"action": "take_back", "seat": 2, "wager": 1}, "wager 2 may be decided now"),
        ({"action": "take_back", "seat": 2, "wager": 3}, "the third wager ($) always stays"),
        ({"action": "let_it_ride", "seat": 2, "wager": 1}, "its moment has passed"),
    ]
    for action, message in tries:
        r = h.act("ann", TABLE, action)
        assert 400 <= r.status_code < 500, r.text
        body = r.json()
        assert message in json.dumps(body), body
        assert _events(h, rid) == events
        assert ledger_balances(h.server.store) == ledger
        assert strip(h.get("ann", f"/api/tables/{TABLE}").json()) == seen
    r = h.act("ann", TABLE, {"action": "take_back", "seat": 2, "wager": 2})
    assert r.status_code == 200, r.text
    r = h.act("ann", TABLE, {"action": "take_back", "seat": 2, "wager": 2})  # twice: refused
    assert 400 <= r.status_code < 500
    assert "already taken back wager 2" in r.text
    r = h.act("bo", TABLE, {"action": "let_it_ride", "seat": 5, "wager": 2})
    assert r.status_code == 200, r.text
    h.wait_for("ann", TABLE, lambda v: v["round"] == rid and bool(v["finished"]))
    assert h.server.store.ledger_sum() == 0


# ----------------------------------------------------------------- 18.4(e): the cards changed


def test_18_4_e_no_round_opens_once_the_cards_are_due_until_the_supervisor_changes_them(
    played: Played,
) -> None:
    """The server's clock (a fake one) moves past ``change_hours`` (8: cards dealt from a shoe):
    a round with wagers goes on with the cards it began with, and once it is settled no new
    round opens; every role's view says why, with the clause; a dealer may not record the
    change; the supervisor's ``change_cards`` (no argument: the server records its own time)
    lets the next round open, with the new cards' time on the table's record.  A round no one
    has wagered in when the cards fall due is withdrawn (no card of it dealt, no record left),
    and the round opened after the change takes its number."""
    h = played.h
    host = h.server.hosts[TABLE]
    now = [time.time()]
    host.clock = lambda: now[0]
    host.schedule_seconds = 0.2  # a waiting round looks at the schedule this often
    view = h.wait_for("ann", TABLE, lambda v: _mine(v, 2).get("phase") == "betting"
                      and not v["finished"])  # fmt: skip
    rid = view["round"]
    assert "blocked" not in h.get("deal", f"/api/tables/{TABLE}").json()
    r = h.act("ann", TABLE, {"action": "wager", "seat": 2, "amount": "5.00"})
    assert r.status_code == 200, r.text
    now[0] += 8 * 3600 + 1  # the round in play goes on with the cards it began with
    for n in (1, 2):
        h.wait_for("ann", TABLE, lambda v, n=n: any(
            p["election"] == ("first wager", "second wager")[n - 1]
            for p in _mine(v, 2).get("pending", [])))  # fmt: skip
        r = h.act("ann", TABLE, {"action": "let_it_ride", "seat": 2, "wager": n})
        assert r.status_code == 200, r.text
    staff = h.wait_for("deal", TABLE, lambda v: v["round"] == rid and "blocked" in v)
    assert "18.4(e)" in staff["blocked"]
    assert "8 hours" in staff["blocked"]
    time.sleep(1.0)  # well past between_rounds_seconds: still no new round
    for name in ("ann", "deal", "admin"):
        view = h.get(name, f"/api/tables/{TABLE}").json()
        assert view["round"] == rid
        assert view["finished"]
        assert "change the cards" in view["blocked"]
    r = h.act("ann", TABLE, {"action": "wager", "seat": 2, "amount": "5.00"})
    assert 400 <= r.status_code < 500
    r = h.post("deal", f"/api/tables/{TABLE}/procedure", {"procedure": "change_cards"})
    assert r.status_code == 403, r.text
    r = h.post("admin", f"/api/tables/{TABLE}/procedure", {"procedure": "change_cards"})
    assert r.status_code == 200, r.text
    view = h.wait_for("ann", TABLE, lambda v: v["round"] != rid and not v["finished"])
    assert "blocked" not in view
    with h.server.store.engine.connect() as conn:
        state = json.loads(
            conn.execute(select(felt_tables.c.state).where(felt_tables.c.id == TABLE)).scalar_one()
        )
    assert state["table"]["cards_opened_at"] == now[0]
    # the cards fall due again while the new round waits for its first wager: it is withdrawn
    fresh = view["round"]
    now[0] += 8 * 3600 + 1
    view = h.wait_for("deal", TABLE, lambda v: v["round"] is None and "blocked" in v)
    with h.server.store.engine.connect() as conn:
        assert conn.execute(select(rounds.c.id).where(rounds.c.id == fresh)).first() is None
    r = h.post("admin", f"/api/tables/{TABLE}/procedure", {"procedure": "change_cards"})
    assert r.status_code == 200, r.text
    view = h.wait_for("ann", TABLE, lambda v: v["round"] is not None and not v["finished"])
    assert view["round"] == fresh  # the withdrawn round's number, taken again
    # a supervisor may change the cards early on an idle table: the round no one has wagered in
    # does not hold the procedure up (it is withdrawn and the next opens with the new cards)
    now[0] += 3600
    r = h.post("admin", f"/api/tables/{TABLE}/procedure", {"procedure": "change_cards"})
    assert r.status_code == 200, r.text
    view = h.wait_for("ann", TABLE, lambda v: v["round"] is not None and not v["finished"])
    with h.server.store.engine.connect() as conn:
        state = json.loads(
            conn.execute(select(felt_tables.c.state).where(felt_tables.c.id == TABLE)).scalar_one()
        )
    assert state["table"]["cards_opened_at"] == now[0]
    # a first wager that arrives once the cards are due, before the table's next look at its
    # schedule, is refused: it may not open play on cards past their time
    host.schedule_seconds = 3600.0
    waiting = view["round"]
    now[0] += 8 * 3600 + 1
    r = h.act(
        "ann",
        TABLE,
        {"action": "wager", "seat": 2, "amount": "5.00"},
    )
    assert 400 <= r.status_code < 500, r.text
    assert "18.4(e)" in r.json()["error"]
    with h.server.store.engine.connect() as conn:
        assert conn.execute(select(rounds.c.id).where(rounds.c.id == waiting)).first() is not None
        assert h.server.store.ledger_sum() == 0
    r = h.post("admin", f"/api/tables/{TABLE}/procedure", {"procedure": "change_cards"})
    assert r.status_code == 200, r.text
    h.wait_for("ann", TABLE, lambda v: v["round"] is not None and not v["finished"])
    host.clock, host.schedule_seconds = time.time, 60.0


def test_the_example_table_file_runs_as_a_server_table() -> None:
    """examples/table-let-it-ride.toml's settings are a valid ``[[table]]`` entry."""
    import tomllib

    from felt.server.spec import spec_from_mapping

    path = Path(__file__).resolve().parents[1] / "examples" / "table-let-it-ride.toml"
    settings = {k: v for k, v in tomllib.loads(path.read_text()).items() if k != "game"}
    table = spec_from_mapping({"id": "x", "game": ID, "settings": settings}, "t")
    assert table.config().change_hours == 8
