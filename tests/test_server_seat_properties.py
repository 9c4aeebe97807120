"""Property: random sit, stand, wager, election and dealer sequences by several players, against
the real server in process (SQLite and PostgreSQL), never let one player see or move another's
hand or money (issue 18, item 1; Boston 24.6(e), Double Down Stud 17.6(b)).

Who owns which hand is worked out from the stored record alone (``round_events``: the actor of
each wager, and a Boston ``leave`` taking it back), never with the server's own seat map or view
code.  Checked after every step: a refused request is a 4xx and changes nothing on record; each
player's view shows a seat's cards only to the player who wagered there.  Checked after each
sequence: every player action on record was taken by the hand's owner, every chip movement of a
player's action touches that player's wallet alone, a dealer step pays or collects only the
wallets of players who wagered in that round, and the books balance.

The tables' dealer is manual (the dealer account takes each step) and decisions wait ten
minutes, so nothing changes on record between the steps of a sequence but the steps themselves.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from felt.server.spec import TableSpec
from felt.server.store import accounts, felt_tables, postings, round_events
from tests.server_helpers import Harness, harness

DDS = "double-down-stud"
PLAYERS = ("ann", "bob", "cat")
TABLES = ("b5", "dds")
SEATS = (1, 2)
CHOICES: dict[str, tuple[dict[str, Any], ...]] = {
    "b5": ({"action": "second"}, {"action": "fold"}, {"action": "expose"},
           {"action": "decline"}, {"action": "leave"}),
    "dds": ({"action": "double"}, {"action": "stand"}, {"action": "cut", "position": 20},
            {"action": "decline_cut"}, {"action": "double", "amount": "1.00"}),
}  # fmt: skip
"""Each table's player elections (the seat is added); those out of turn are refused."""
EXAMPLES = 20
"""Sequences tried on each back end."""
DEFAULTS = {"expose or decline": "decline", "second or fold": "fold",
            "cut or decline": "decline_cut", "double or stand": "stand"}  # fmt: skip
"""The choice that ends each election quickly, to bring a table back to no hand in play."""


def _specs() -> list[TableSpec]:
    common: dict[str, Any] = {"settings": {"decision_seconds": 600}, "pace_seconds": 0,
                              "betting_seconds": 0, "between_rounds_seconds": 0,
                              "dealer": "manual"}  # fmt: skip
    return [TableSpec("b5", "boston5", **common), TableSpec("dds", DDS, **common)]


# ----------------------------------------------------------------------------- the record
def _ids(h: Harness) -> dict[int, tuple[str, str]]:
    with h.server.store.engine.connect() as conn:
        rows = conn.execute(select(accounts.c.id, accounts.c.name, accounts.c.role)).all()
    return {int(r.id): (str(r.name), str(r.role)) for r in rows}


def _events(h: Harness, round_id: str) -> list[tuple[int, int | None, dict[str, Any]]]:
    with h.server.store.engine.connect() as conn:
        rows = conn.execute(
            select(round_events.c.seq, round_events.c.actor, round_events.c.action)
            .where(round_events.c.round_id == round_id)
            .order_by(round_events.c.seq)
        ).all()
    return [(int(r.seq), r.actor, json.loads(r.action)) for r in rows]


def _take(hands: dict[int, int], actor: int | None, action: dict[str, Any]) -> None:
    """Follow one event: a wager makes the seat's hand its sender's, a Boston ``leave`` takes
    it back."""
    name = action.get("action")
    if name in ("wager", "bet") and actor is not None:
        hands[int(action["seat"])] = int(actor)
    elif name == "leave":
        hands.pop(int(action["seat"]), None)


def _hands(events: list[tuple[int, int | None, dict[str, Any]]]) -> dict[int, int]:
    """Seat -> account id of the player whose hand is there, from the record alone."""
    hands: dict[int, int] = {}
    for _, actor, action in events:
        _take(hands, actor, action)
    return hands


def _snapshot(h: Harness) -> dict[str, Any]:
    """Everything on record a refused request must leave as it was."""
    with h.server.store.engine.connect() as conn:
        return {
            "tables": sorted(conn.execute(
                select(felt_tables.c.id, felt_tables.c.version, felt_tables.c.state)).all()),
            "balances": sorted(conn.execute(select(accounts.c.name, accounts.c.balance)).all()),
            "postings": conn.execute(select(func.count()).select_from(postings)).scalar_one(),
            "events": conn.execute(select(func.count()).select_from(round_events)).scalar_one(),
        }  # fmt: skip


# ----------------------------------------------------------------------------- the checks
def check_views(h: Harness, ids: dict[int, tuple[str, str]]) -> None:
    """Each player sees the cards of the hands they wagered, and of no one else's."""
    by_name = {name: aid for aid, (name, _) in ids.items()}
    for table in TABLES:
        for player in PLAYERS:
            view = h.get(player, f"/api/tables/{table}").json()
            if view.get("round") is None:
                continue
            hands = _hands(_events(h, view["round"]))
            mine = {int(n): v for n, v in view.get("mine", {}).items()}
            for seat, seen in mine.items():
                owner = hands.get(seat)
                assert owner in (None, by_name[player]), (player, table, seat, ids.get(owner or 0))
                if owner is None:
                    assert seen["own_cards"] == [], (player, table, seat, seen)
            for seat, owner in hands.items():
                if owner == by_name[player]:
                    assert seat in mine, (player, table, seat, view)


def check_record(h: Harness, ids: dict[int, tuple[str, str]]) -> None:
    """Every player action on record is the hand owner's, and money moves only for owners."""
    with h.server.store.engine.connect() as conn:
        round_ids = [r[0] for r in conn.execute(select(round_events.c.round_id).distinct())]
        moved: dict[str, set[str]] = {}
        for txn, account in conn.execute(select(postings.c.txn, postings.c.account)):
            if account.startswith("player:"):
                moved.setdefault(str(txn), set()).add(str(account))
    for rid in round_ids:
        events = _events(h, rid)
        wagered = {f"player:{a}" for _, a, act in events if act.get("action") in ("wager", "bet")}
        hands: dict[int, int] = {}
        for seq, actor, action in events:
            name, role = ids[actor] if actor is not None else ("the table", "table")
            touched = moved.get(f"{rid}#{seq}", set())
            if role == "player":
                seat = int(action["seat"])
                if action["action"] in ("wager", "bet"):
                    assert seat not in hands, (rid, seq, name, "wagered on a hand in play")
                    assert action.get("player") == name, (rid, seq, action)
                else:
                    assert hands.get(seat) == actor, (rid, seq, name, "acted for another's hand")
                assert touched <= {f"player:{actor}"}, (rid, seq, name, touched)
            else:
                assert touched <= wagered, (rid, seq, touched, wagered)
            _take(hands, actor, action)
    store = h.server.store
    assert store.ledger_sum() == 0
    with store.engine.connect() as conn:
        for aid, balance in conn.execute(select(accounts.c.id, accounts.c.balance)):
            assert store.account_sum(f"player:{aid}") == balance


# ----------------------------------------------------------------------------- the steps
def _dealer_step(h: Harness, table: str) -> Any:
    """The dealer takes the table's next step, if it has one; waits for a finished round's
    successor to open, so nothing then changes by itself."""
    view = h.get("dealer1", f"/api/tables/{table}").json()
    step = view.get("next_step")
    if step is None:
        return None
    r = h.act("dealer1", table, step)
    after = h.get("dealer1", f"/api/tables/{table}").json()
    if after.get("finished"):
        h.wait_for("dealer1", table, lambda v: v["round"] != after["round"] and not v["finished"])
    return r


def _send(h: Harness, op: tuple[Any, ...]) -> Any:
    kind, rest = op[0], op[1:]
    if kind == "deal":
        return _dealer_step(h, rest[0])
    player, table, seat = rest[:3]
    if kind in ("sit", "stand"):
        return h.post(player, f"/api/tables/{table}/{kind}", {"seat": seat})
    if kind == "wager":
        if table == "b5":
            return h.act(player, table, {"action": "wager", "seat": seat, "ante": "5.00",
                                         "first": "10.00", "bonus": "1.00"})  # fmt: skip
        return h.act(player, table, {"action": "bet", "seat": seat, "amount": "5.00"})
    choice = CHOICES[table][rest[3]]
    return h.act(player, table, {**choice, "seat": seat})


def _settle_everything(h: Harness) -> None:
    """Bring each table to a round with no hand in play, and stand everyone up."""
    for table in TABLES:
        for _ in range(60):
            view = h.get("dealer1", f"/api/tables/{table}").json()
            hands = _hands(_events(h, view["round"])) if view.get("round") else {}
            if not hands:
                break
            names = {aid: name for aid, (name, _) in _ids(h).items()}
            pending = view["public"]["pending"] if view.get("public") else []
            for p in pending:
                who = names[hands[p["seat"]]]
                r = h.act(who, table, {"action": DEFAULTS[p["election"]], "seat": p["seat"]})
                assert r.status_code == 200, r.text
            if not pending and _dealer_step(h, table) is None:
                time.sleep(0.02)
        else:
            raise AssertionError(f"{table} did not settle")
        for player in PLAYERS:
            seats = h.get(player, f"/api/tables/{table}").json()["seats"]
            for n, name in seats.items():
                if name == player:
                    r = h.post(player, f"/api/tables/{table}/stand", {"seat": int(n)})
                    assert r.status_code == 200, r.text


KINDS = ("sit", "stand", "wager", "elect", "deal")


def _draw_step(data: st.DataObject, held: dict[str, set[int]], table: str) -> tuple[Any, ...]:
    """One step at ``table``: mostly at a seat the player holds (``held``, as the server's
    answers said), so that seats change hands often (three players, two seats), sometimes
    anywhere at all."""
    kind = data.draw(st.sampled_from(KINDS), label="kind")
    if kind == "deal":
        return ("deal", table)
    seated = [p for p in PLAYERS if held[p]]
    who = st.sampled_from(PLAYERS)
    if kind != "sit" and seated:  # mostly someone with a seat acts or stands up
        who = st.sampled_from(seated) | who
    player = data.draw(who, label="player")
    mine = sorted(held[player])
    anywhere = st.sampled_from(SEATS)
    where = anywhere if kind == "sit" or not mine else st.sampled_from(mine) | anywhere
    seat = data.draw(where, label="seat")
    if kind == "elect":
        return ("elect", player, table, seat, data.draw(st.integers(0, 4), label="choice"))
    return (kind, player, table, seat)


def _server(url: str) -> Iterator[Harness]:
    for h in harness(url, _specs()):
        for player in PLAYERS:
            h.account(player, "player", "10000.00")
        h.account("dealer1", "dealer")
        yield h


def _sequences(h: Harness) -> None:
    """Run random sequences of steps on ``h``, checking after each step and each sequence."""
    ids = _ids(h)

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(table=st.sampled_from(TABLES), count=st.integers(10, 40), data=st.data())
    def run(table: str, count: int, data: st.DataObject) -> None:
        _settle_everything(h)
        held: dict[str, set[int]] = {p: set() for p in PLAYERS}
        for _ in range(count):
            op = _draw_step(data, held, table)
            before = _snapshot(h)
            r = _send(h, op)
            if r is not None and r.status_code != 200:
                assert 400 <= r.status_code < 500, (op, r.status_code, r.text)
                assert _snapshot(h) == before, (op, r.text)
            elif op[0] in ("sit", "stand"):
                (held[op[1]].add if op[0] == "sit" else held[op[1]].discard)(op[3])
            check_views(h, ids)
        check_record(h, ids)
        _settle_everything(h)  # each hand's owner can still finish it, whoever sat down since

    run()


def test_random_seat_changes_never_hand_over_a_hand_or_its_money(database_url: str) -> None:
    for h in _server(database_url):
        _sequences(h)
