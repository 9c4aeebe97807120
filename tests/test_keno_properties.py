"""Property tests of the keno system over random days of play: money is conserved across issue,
void and redemption; a ticket is paid at most once; nothing is issued or voided after lock-out; a
refused action changes nothing; replay equals the original."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from felt.core.errors import FeltError
from felt.games.keno.draw import draw_numbers
from felt.games.keno.system import (
    PATRONS,
    SUPERVISOR,
    WRITER,
    Action,
    Draw,
    Issue,
    KenoSystem,
    LockOut,
    OpenDay,
    OpenGame,
    Redeem,
    Staff,
    SystemConfig,
    Void,
)
from felt.games.keno.tickets import quick_pick
from felt.rounds.shuffle import SeededShuffle
from tests.keno_helpers import card

ANN = Staff("W-1", WRITER)
SUE = Staff("S-1", SUPERVISOR)
START = datetime(2026, 5, 1, 9, 0)

REQUESTS: list[dict[str, Any]] = [
    {"kind": "way", "groups": [[1, 2], [3, 4], [5, 6]], "conditions": ["3/4"], "rate": "2.00"},
    {"kind": "king", "groups": [[7], [8, 9], [10, 11], [12, 13]], "conditions": ["3/3", "3/5"]},
    {"kind": "split", "groups": [[14, 15, 16], [17, 18]], "conditions": ["1/3", "1/2@5"]},
    {"numbers": [1, 2, 3, 4, 5, 6], "games": 3},
]

operations = st.lists(
    st.tuples(
        st.sampled_from(["issue", "quick", "void", "game", "redeem", "late"]), st.integers(0, 50)
    ),
    min_size=1,
    max_size=40,
)


def run(ops: list[tuple[str, int]], seed: int) -> tuple[KenoSystem, int]:
    """Play ``ops`` on a fresh system; every refused action is checked to change nothing."""
    system = KenoSystem(SystemConfig(card(), stations=(1, 2)))
    source = SeededShuffle(seed)
    now = START
    system.apply(OpenDay(now, date(2026, 5, 1)))
    system.apply(OpenGame(now, now + timedelta(minutes=5)))
    refused = 0

    def attempt(action: Action) -> None:
        nonlocal refused
        before, events = system.state(), len(system.events)
        try:
            system.apply(action)
        except FeltError:
            refused += 1
            assert system.state() == before
            assert len(system.events) == events

    for op, n in ops:
        now += timedelta(seconds=20)
        station = 1 + n % 2
        game = system.current
        assert game is not None
        if op == "issue":
            attempt(Issue(now, station, ANN, {"rate": "1.00"} | REQUESTS[n % len(REQUESTS)]))
        elif op == "quick":
            attempt(
                Issue(
                    now,
                    station,
                    ANN,
                    quick_pick({"quick_pick": 1 + n % 10, "rate": "1.00"}, source),
                )
            )
        elif op == "void":
            attempt(Void(now, 1 + n % max(1, len(system.tickets)), station, ANN))
        elif op == "redeem":
            attempt(Redeem(now, 1 + n % max(1, len(system.tickets)), station, ANN, SUE))
        elif op == "late":
            if game.closes_at is not None:
                now = max(now, game.closes_at)
            attempt(LockOut(now))
            late: list[Action] = [Issue(now, station, ANN, {"numbers": [n % 80 + 1], "rate": "1"})]
            late += [Void(now, t, station, ANN) for t in system.tickets]
            for action in late:
                assert not system.can(action)  # 15.5(d)1: locked out
                attempt(action)
        else:
            if game.state == "open":
                now = max(now, game.closes_at or now)
                attempt(LockOut(now))
            attempt(Draw(now, draw_numbers(source)))
            attempt(OpenGame(now, now + timedelta(minutes=5)))
    return system, refused


def check_money(system: KenoSystem) -> None:
    money = system.money()
    assert sum(money.values()) == 0
    expected = 0
    stations: dict[str, int] = {}
    for s in system.tickets.values():
        r = s.record
        drawer = f"station {r.station}"
        expected -= r.ticket.price
        stations[drawer] = stations.get(drawer, 0) + r.ticket.price
        if s.voided:
            expected += r.ticket.price
            key = f"station {s.void_station}"
            stations[key] = stations.get(key, 0) - r.ticket.price
        if s.paid is not None:
            expected += s.paid
            assert s.paid == s.owed
    for e in system.events:
        if isinstance(e.action, Redeem):
            key = f"station {e.action.station}"
            stations[key] = stations.get(key, 0) - e.effects[0].amount
    assert money.get(PATRONS, 0) == expected
    for drawer, amount in stations.items():
        assert money.get(drawer, 0) == amount


@settings(max_examples=80)
@given(ops=operations, seed=st.integers(0, 10_000))
def test_money_is_conserved_across_issue_void_and_redemption(
    ops: list[tuple[str, int]], seed: int
) -> None:
    system, _ = run(ops, seed)
    check_money(system)


@settings(max_examples=80)
@given(ops=operations, seed=st.integers(0, 10_000))
def test_a_ticket_is_paid_at_most_once(ops: list[tuple[str, int]], seed: int) -> None:
    system, _ = run([*ops, ("game", 0), ("redeem", 0), ("redeem", 0)], seed)
    paid = [e.ticket for ev in system.events for e in ev.effects if e.kind == "paid"]
    assert len(paid) == len(set(paid))


@settings(max_examples=80)
@given(ops=operations, seed=st.integers(0, 10_000))
def test_nothing_is_issued_or_voided_after_lock_out(ops: list[tuple[str, int]], seed: int) -> None:
    system, _ = run(ops, seed)
    locked: set[int] = set()
    for ev in system.events:
        a = ev.action
        if isinstance(a, LockOut):
            locked.add(len([e for e in system.events[: ev.seq] if isinstance(e.action, OpenGame)]))
        elif isinstance(a, Issue):
            assert system.tickets[ev.effects[0].ticket or 0].record.first_game not in locked
        elif isinstance(a, Void):
            assert system.tickets[a.ticket].record.first_game not in locked


@settings(max_examples=60)
@given(ops=operations, seed=st.integers(0, 10_000))
def test_replay_equals_the_original(ops: list[tuple[str, int]], seed: int) -> None:
    system, _ = run(ops, seed)
    again = system.replay_from_start()
    assert again.events == system.events
    assert again.state() == system.state()
