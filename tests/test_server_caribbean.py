"""Caribbean Stud Poker at the table server with its linked progressive meter (issue 21;
19:47-16.11 and 16.12, not in the seed text: docs/interpretations.md), on SQLite and on
PostgreSQL: rounds at two linked tables over the API move one meter whose every cent is on the
ledger; a royal flush dealt from a stacked deck is paid the meter as it stood, read locked in the
settlement's own transaction; two royal settlements at once on two tables of two stores (as two
server processes) never pay the same cents twice; and no client ever receives an undealt card,
the dealer's hole cards before the reveal, or another seat's cards before they are turned over.
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
from dataclasses import replace
from typing import Any, cast

import pytest
from sqlalchemy import func, insert, select
from websockets.asyncio.client import connect

from felt.core.cards import parse_cards
from felt.core.errors import FeltError
from felt.core.money import cents
from felt.games.caribbean_stud.round import stacked_deck
from felt.rounds.shuffle import FixedOrder
from felt.server.auth import Account, create_account
from felt.server.host import TableHost, new_table_row
from felt.server.meters import linked, open_meters
from felt.server.spec import TableSpec
from felt.server.store import (
    Posting,
    Store,
    felt_tables,
    player_account,
    postings,
    progressive_account,
    round_events,
)
from tests.server_helpers import Harness, harness, live_server

CS = "caribbean_stud"
METER = "jackpot"
SEED = 10000  # $100.00
ROYAL = parse_cards("As Ks Qs Js Ts")
CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")
"""A card as the API writes it (``As``, ``Td``), wherever it stands in a string."""


PROGRESSIVE_SETTINGS: dict[str, Any] = {"meter": METER, "seed": "100.00", "rate": "50%"}


def cspec(tid: str, **changes: Any) -> TableSpec:
    """A Caribbean Stud table linked to the meter ``jackpot`` (seed $100.00, half of each $1.00
    progressive wager onto the meter), dealt from a shuffler (no cut) without waiting."""
    settings: dict[str, Any] = {
        "decision_seconds": 10,
        "shuffling": "shuffler",
        "progressive": PROGRESSIVE_SETTINGS,
    }
    return TableSpec(tid, CS, settings=settings, pace_seconds=0, betting_seconds=0.3,
                     between_rounds_seconds=0.3, **changes)  # fmt: skip


def royal_deck() -> FixedOrder:
    """A deck that deals the one position in play a royal flush (and the dealer a hand that
    does not qualify: the progressive is paid whatever the dealer holds)."""
    return FixedOrder(stacked_deck([ROYAL], parse_cards("2c 3d 4h 5s 7c")))


def meter_now(store: Store) -> int:
    return store.account_sum(progressive_account(METER))


def check_books(store: Store) -> None:
    """The ledger sums to zero and the meter's row equals its account's postings."""
    assert store.ledger_sum() == 0
    with store.engine.connect() as conn:
        row = store.meters(conn)[METER]
    assert int(row["amount"]) == meter_now(store) >= 0


def settlements(store: Store) -> list[dict[str, Any]]:
    """Each recorded settlement: its round, the meter it carried, what it took off the meter and
    what the meter held on the ledger just before it (its own postings excluded)."""
    out = []
    with store.engine.connect() as conn:
        for e in conn.execute(select(round_events).order_by(round_events.c.at)):
            action = json.loads(e.action)
            if action.get("dealer") != "settle":
                continue
            txn = f"{e.round_id}#{e.seq}"
            first = conn.execute(
                select(func.min(postings.c.id)).where(postings.c.txn == txn)
            ).scalar()
            account = postings.c.account == progressive_account(METER)
            before = conn.execute(
                select(func.coalesce(func.sum(postings.c.amount), 0)).where(
                    account, postings.c.id < (first if first is not None else 2**62)
                )
            ).scalar()
            paid = conn.execute(
                select(func.coalesce(func.sum(postings.c.amount), 0)).where(
                    account, postings.c.txn == txn, postings.c.amount < 0
                )
            ).scalar()
            out.append({"round": e.round_id, "carried": action.get("meter"),
                        "before": int(before or 0), "paid": -int(paid or 0)})  # fmt: skip
    return out


# ----------------------------------------------------------------- over the API


@pytest.fixture
def h(database_url: str) -> Iterator[Harness]:
    """Two linked tables, 'ann' at c1 seat 2 and 'bo' at c2 seat 2, $500.00 each."""
    for running in harness(database_url, [cspec("c1"), cspec("c2")]):
        for name, table in (("ann", "c1"), ("bo", "c2")):
            running.account(name, "player", "500.00")
            assert running.post(name, f"/api/tables/{table}/sit", {"seat": 2}).status_code == 200
        yield running


def _mine(view: dict[str, Any]) -> dict[str, Any]:
    return dict(view.get("mine", {}).get("2") or {})


def _play_round(h: Harness, name: str, table: str) -> None:
    """One round at ``table``: ante $5.00 and the progressive wager, then bet; wait for the end."""
    h.wait_for(name, table, lambda v: _mine(v).get("phase") == "betting" and not v["finished"])
    wager = {"action": "wager", "seat": 2, "ante": "5.00", "progressive": "1.00"}
    r = h.act(name, table, wager)
    assert r.status_code == 200, r.text
    h.wait_for(name, table, lambda v: bool(_mine(v).get("pending")))
    r = h.act(name, table, {"action": "bet", "seat": 2})
    assert r.status_code == 200, r.text
    h.wait_for(name, table, lambda v: bool(v["finished"]))


def test_linked_tables_share_one_meter_on_the_ledger(h: Harness) -> None:
    """19:47-16.11: each progressive wager's rate goes onto the one meter both tables show; a
    royal flush at c1 (a stacked deck) takes the whole meter as it stood, which the settlement
    carries as read locked in its own transaction, and the house resets it to the seed; the meter
    equals its postings and the ledger sums to zero after every round."""
    store = h.server.store
    host = h.server.hosts["c1"]
    assert meter_now(store) == SEED
    for _ in range(2):  # contributions at both tables
        _play_round(h, "bo", "c2")
        check_books(store)
    assert meter_now(store) == SEED + 2 * 50
    cast(Any, host.table).shuffler = royal_deck()  # the next round at c1 deals ann a royal flush
    for _ in range(3):  # the round open at c1 was shuffled before the stack: play until royal
        _play_round(h, "ann", "c1")
        if any(s["paid"] for s in settlements(store)):
            break
    check_books(store)
    royal = [s for s in settlements(store) if s["paid"]]
    assert len(royal) == 1
    paid = royal[0]
    assert cents(paid["carried"]) == paid["before"] == paid["paid"]  # the meter as it stood
    assert paid["paid"] >= SEED + 2 * 50 + 50
    assert meter_now(store) == SEED  # reset by the house; no wager since
    for s in settlements(store):  # every settlement carried the meter the ledger held
        assert cents(s["carried"]) == s["before"]
    for name, table in (("ann", "c1"), ("bo", "c2")):
        view = h.wait_for(name, table, lambda v: v["progressive"]["amount"] == "100.00")
        assert view["progressive"]["meter"] == METER
    assert h.get("ann", "/api/progressive").json()[0]["tables"] == ["c1", "c2"]


def test_a_settlement_sent_with_a_meter_pays_the_meter_on_record(database_url: str) -> None:
    """A settlement that names a meter of its own (stale or made up, as a dealer's console
    could send) is paid off the meter as the ledger holds it: the server always fills the meter
    in, read locked in the settlement's transaction (19:47-16.11)."""
    store = _store_with_tables(database_url)
    try:
        who = _player(store, "ann")
        host = _host_at_settlement(store, "c1", who)
        on_record = meter_now(store)
        made_up = host.game.parse_action({"dealer": "settle", "meter": "999999.00"}, "test")
        host.apply_now(made_up, None)
        [paid] = settlements(store)
        assert cents(paid["carried"]) == paid["before"] == paid["paid"] == on_record
        assert meter_now(store) == SEED
        check_books(store)
    finally:
        store.dispose()


def _store_with_tables(url: str) -> Store:
    """A migrated store with the tables c1 and c2 (run by 'node-a') and their meter open."""
    store = Store(url)
    store.migrate()
    with store.transaction() as conn:
        for tid in ("c1", "c2"):
            conn.execute(insert(felt_tables).values(**new_table_row(cspec(tid), "node-a")))
        open_meters(store, conn)
    return store


def _player(store: Store, name: str) -> Account:
    """A player with $500.00."""
    who = create_account(store, name, "player", f"{name}-password")
    with store.transaction() as conn:
        store.post(conn, f"cash:{who.id}", [
            Posting("cage", -50000, "deposit"), Posting(player_account(who.id), 50000, "deposit"),
        ])  # fmt: skip
    return who


# ----------------------------------------------------------------- two payers at once


def _host_at_settlement(store: Store, tid: str, who: Account) -> TableHost:
    """A table of ``store`` whose round has ``who`` at seat 2 with a royal flush, the ante, the
    progressive wager and the bet placed, and the dealer's hand revealed: the settlement next."""
    host = TableHost(store, cspec(tid), "node-a")
    host.load()
    host.sit(who, 2)
    cast(Any, host.table).shuffler = royal_deck()
    host.start_round()
    game = host.game
    wager = game.parse_action({"action": "wager", "seat": 2, "ante": "5.00",
                               "progressive": "1.00"}, "test")  # fmt: skip
    host.apply_now(wager, who, secrets.token_hex(8), "d")
    for _ in range(20):
        rnd = host.round
        assert rnd is not None
        if rnd.pending():
            host.apply_now(game.parse_action({"action": "bet", "seat": 2}, "test"), who,
                           secrets.token_hex(8), "d")  # fmt: skip
            continue
        step = game.dealer_step(host.table, rnd)
        assert step is not None
        if step.needs_meter:
            return host
        host.apply_now(step, None)
    raise AssertionError("the round never reached its settlement")


def test_two_royal_settlements_at_once_never_pay_the_same_cents(database_url: str) -> None:
    """Two linked tables run by two stores (as two server processes) settle a royal flush each
    at the same moment.  One settlement reads the meter locked and takes all of it, the house
    resets it, and only then does the other read it and take the seed: together they pay the
    meter plus the one reset, never the same cents twice, and the meter ends at the seed."""
    stores = [_store_with_tables(database_url), Store(database_url)]
    try:
        players = [_player(stores[0], name) for name in ("ann", "bo")]
        hosts = [
            _host_at_settlement(s, t, w)
            for s, t, w in zip(stores, ("c1", "c2"), players, strict=True)
        ]
        before = meter_now(stores[0])
        assert before == SEED + 2 * 50
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []

        def settle(host: TableHost) -> None:
            rnd = host.round
            assert rnd is not None
            step = host.game.dealer_step(host.table, rnd)
            assert step is not None
            barrier.wait()
            try:
                host.apply_now(step, None)
            except BaseException as err:  # reported below
                errors.append(err)

        threads = [threading.Thread(target=settle, args=(host,)) for host in hosts]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors, errors
        paid = sorted(s["paid"] for s in settlements(stores[0]))
        assert paid == [SEED, before]
        carried = sorted(cents(s["carried"]) for s in settlements(stores[0]))
        assert carried == [SEED, before]
        assert meter_now(stores[0]) == SEED
        check_books(stores[0])
    finally:
        for s in stores:
            s.dispose()


# ----------------------------------------------------------------- hidden cards


ROUNDS = 3


async def _session(url: str, tokens: dict[str, str], seats: dict[str, int],
                   seen: dict[str, list[dict[str, Any]]]) -> None:  # fmt: skip
    """Every client on its own WebSocket, watching both tables until both have settled
    :data:`ROUNDS` rounds; each player wagers at their table (with the progressive wager every
    other round) and bets or folds."""
    places = {"ann": "c1", "bo": "c2", "cy": "c1"}

    async def client(name: str) -> None:
        async with connect(url) as ws:
            await ws.send(json.dumps({"token": tokens[name]}))
            for t in ("c1", "c2"):
                await ws.send(json.dumps({"subscribe": t}))
            answered: set[tuple[str, str, str]] = set()
            done: set[str] = set()  # the tables whose last round this client saw settled
            end = time.monotonic() + 90
            while time.monotonic() < end and len(done) < 2:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=5)
                except TimeoutError:
                    continue
                msg = json.loads(raw)
                seen[name].append(msg)
                if msg.get("type") != "table":
                    continue
                table = msg["table"]
                number = int(msg.get("number") or 0)
                if number > ROUNDS or (number == ROUNDS and msg["finished"]):
                    done.add(table)
                if name not in seats or table != places[name] or number > ROUNDS:
                    continue
                mine = msg.get("mine", {}).get(str(seats[name])) or {}
                rid = str(msg.get("round"))
                if (
                    mine.get("phase") == "betting"
                    and not mine.get("wagers")
                    and not msg["finished"]
                ):
                    if (rid, name, "w") in answered:
                        continue
                    answered.add((rid, name, "w"))
                    body = {"action": "wager", "seat": seats[name], "ante": "5.00"}
                    if number % 2:
                        body["progressive"] = "1.00"
                    await ws.send(json.dumps({"table": table, "action": body,
                                              "key": secrets.token_hex(8), "round": rid}))  # fmt: skip
                elif mine.get("pending") and (rid, name, "d") not in answered:
                    answered.add((rid, name, "d"))
                    choice = "fold" if (number + seats[name]) % 3 == 0 else "bet"
                    await ws.send(json.dumps({"table": table, "key": secrets.token_hex(8),
                                              "action": {"action": choice, "seat": seats[name]},
                                              "round": rid}))  # fmt: skip

    await asyncio.gather(*(client(n) for n in seen))


def _entitlements(store: Store) -> dict[str, Any]:
    """From the stored events alone: for each round, each card's first event (dealt), the
    dealer's hole cards and the event that reveals them, each seat's cards and the event that
    turns them over (the settlement)."""
    out: dict[str, Any] = {}
    with store.engine.connect() as conn:
        for e in conn.execute(
            select(round_events).order_by(round_events.c.round_id, round_events.c.seq)
        ):
            r = out.setdefault(e.round_id, {"dealt": {}, "hole": set(), "seats": defaultdict(set),
                                             "reveal": None, "settle": None})  # fmt: skip
            for place_card in json.loads(e.drawn):
                r["dealt"].setdefault(place_card[1], e.seq)
            for eff in json.loads(e.effects):
                if eff["kind"] == "deal" and eff["seat"] is None and "down" in str(eff["detail"]):
                    r["hole"].update(eff["cards"])
                elif eff["kind"] == "deal" and eff["seat"] is not None:
                    r["seats"][eff["seat"]].update(eff["cards"])
                elif eff["kind"] == "reveal" and r["reveal"] is None:
                    r["reveal"] = e.seq
            if json.loads(e.action).get("dealer") == "settle":
                r["settle"] = e.seq
    return out


def test_no_client_sees_a_card_before_it_may(database_url: str) -> None:
    """19:47-16.7 to 16.9 as the game deals them: the dealer's four hole cards are face down
    until revealed and each position's five cards are its player's until turned over at the
    settlement.  Every message to every role (players at either table, a player at neither, the
    dealer, the supervisor) and every table view answered over HTTP holds no undealt card, no
    hole card before the reveal and no other seat's card before the settlement."""
    with live_server(database_url, [cspec("c1"), cspec("c2")]) as h:
        h.account("ann", "player", "200.00")
        h.account("bo", "player", "200.00")
        h.account("cy", "player", "200.00")
        h.account("dee", "player", "200.00")  # sits nowhere
        h.account("deal", "dealer")
        seats = {"ann": 2, "bo": 3, "cy": 5}
        for name, table in (("ann", "c1"), ("bo", "c2"), ("cy", "c1")):
            assert (
                h.post(name, f"/api/tables/{table}/sit", {"seat": seats[name]}).status_code == 200
            )
        seen: dict[str, list[dict[str, Any]]] = {
            n: [] for n in ("ann", "bo", "cy", "dee", "deal", "admin")
        }
        polled: list[tuple[str, dict[str, Any]]] = []
        stop = threading.Event()

        def poll() -> None:  # HTTP answers too, as each role reads them
            while not stop.is_set():
                for name in seen:
                    for t in ("c1", "c2"):
                        polled.append((name, h.get(name, f"/api/tables/{t}").json()))
                polled.extend(("dee", {"other": h.get("dee", path).json()})
                              for path in ("/api/progressive", "/api/lobby"))  # fmt: skip
                time.sleep(0.2)

        poller = threading.Thread(target=poll, daemon=True)
        poller.start()
        try:
            asyncio.run(_session(h.ws_url, h.tokens, seats, seen))
        finally:
            stop.set()
            poller.join(10)
        rights = _entitlements(h.server.store)
        who_sits = {("c1", 2): "ann", ("c2", 3): "bo", ("c1", 5): "cy"}
        checked = 0
        for name, msgs in [*seen.items(), *(((n, [m]) for n, m in polled))]:
            for msg in msgs:
                if msg.get("type") != "table":
                    assert not CARD.findall(json.dumps(msg.get("other", ""))), msg
                    continue
                r = rights.get(str(msg.get("round")))
                text = json.dumps({k: v for k, v in msg.items() if k != "last"})
                cards = set(CARD.findall(text))
                if r is None:
                    assert not cards, (name, msg)
                    continue
                seq = int(msg.get("seq", 0))
                for card in cards:
                    dealt = r["dealt"].get(card)
                    assert dealt is not None, (name, card, "never dealt", msg)
                    assert dealt <= seq, (name, card, "undealt", msg)
                    if card in r["hole"]:
                        revealed = r["reveal"] is not None and r["reveal"] <= seq
                        assert revealed, (name, card, "a hole card before the reveal", msg)
                    for seat, held in r["seats"].items():
                        if card in held and who_sits.get((msg["table"], seat)) != name:
                            settled = r["settle"] is not None and r["settle"] <= seq
                            assert settled, (name, card, f"seat {seat}'s card", msg)
                checked += 1
        assert checked > 50
        assert all(r["settle"] is not None for rid, r in rights.items() if not rid.endswith(":4"))


def test_16_12_tables_linked_to_one_meter_must_share_its_terms() -> None:
    """One meter, one rate of progression and one set of payouts (13:69D-1.52(e)): a second
    table linked to ``jackpot`` at another rate, or paying another share of the meter on a
    straight flush, is one clear error naming both tables."""
    base = cspec("c9")
    other_rate = replace(
        base, settings={**base.settings, "progressive": {**PROGRESSIVE_SETTINGS, "rate": "40%"}}
    )
    with pytest.raises(
        FeltError, match=r"tables c1 and c9 .* different terms \(.*rate 50%.*rate 40%"
    ):
        linked([cspec("c1"), other_rate])
    other_share = replace(base, settings={**base.settings, "progressive": {
        **PROGRESSIVE_SETTINGS, "percent": {"straight flush": "20%"}}})  # fmt: skip
    with pytest.raises(FeltError, match="different terms"):
        linked([cspec("c1"), other_share])
    assert linked([cspec("c1"), cspec("c2")])[METER][1] == ["c1", "c2"]
