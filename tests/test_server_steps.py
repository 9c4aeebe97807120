"""A table that deals without pause takes the dealer's steps due at once in one change
(:meth:`felt.server.host.TableHost.take_steps`, issue 25, target 1): one transaction and one
message to the screens, but each step checked and recorded as its own event, exactly as if the
steps were taken one at a time.  The oracle is the pure round itself: the same round, dealt by
its own :meth:`~felt.rounds.round_core.RoundCore.run_dealer` one step at a time, must record the
same events and move the same chips; and the record on disk must rebuild to the round in view."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from felt.core.errors import FeltError
from felt.games.boston.actions import PlaceWagers, Second
from felt.games.craps.actions import Bet, Roll
from felt.games.craps.dice import FixedDice
from felt.rounds.actions import NoMoreBets
from felt.rounds.round_core import RoundCore
from felt.server import store as store_module
from felt.server.auth import Account
from felt.server.host import TableHost, event_record
from felt.server.spec import TableSpec
from felt.server.store import CommitFailed, Store
from tests.server_helpers import database_url, fast_specs, ledger_balances, one_table

__all__ = ["database_url"]

DEPOSIT = 100_000


@pytest.fixture
def table(database_url: str) -> Iterator[tuple[Store, TableHost, list[Account]]]:
    """Boston 5 at pace 0 (its own dealer), ann and bob seated, the first round open."""
    with one_table(database_url, fast_specs()[0], DEPOSIT) as made:
        yield made


def _recorded(store: Store, host: TableHost) -> list[list[dict[str, Any]]]:
    """The effects of each event of the round in view, as stored."""
    assert host.round_id is not None
    return [json.loads(e["effects"]) for e in store.round_events_of(host.round_id)]


def _by_hand(rnd: RoundCore) -> list[list[dict[str, Any]]]:
    """The same round dealt by the pure core alone, step by step (the oracle): its events."""
    twin = rnd.copy()
    twin.run_dealer()
    return [event_record(e) for e in twin.events]


def _steps(host: TableHost) -> dict[str, Any]:
    """The table loop's next step, taken as the loop takes it."""
    step, _ = host.due(0.0)
    assert step is not None
    return host.take_steps(step)


def test_steps_due_at_once_at_a_pace_0_table_are_one_change_each_its_own_event(
    table: tuple[Store, TableHost, list[Account]],
) -> None:
    store, host, (ann, bob, _) = table
    host.apply_now(PlaceWagers(seat=1, ante=500, first=1000), ann)
    host.apply_now(PlaceWagers(seat=2, ante=500, first=1000), bob)
    assert host.round is not None
    oracle = _by_hand(host.round)
    version, events = host.version, len(host.round.events)
    _steps(host)  # no more bets, the deal, the bonuses: then the players' elections
    rnd = host.round
    assert rnd.pending()
    assert not rnd.finished
    taken = len(rnd.events) - events
    assert taken >= 2  # more than one step in the change
    assert host.version == version + taken  # the table's version moves once per event
    assert _recorded(store, host) == [event_record(e) for e in rnd.events]
    assert [event_record(e) for e in rnd.events] == oracle[: len(rnd.events)]
    for seat, who in ((1, ann), (2, bob)):
        host.apply_now(Second(seat=seat), who)
    oracle = _by_hand(host.round)
    _steps(host)  # the additional cards, the reveal, the settlement
    rnd = host.round
    assert rnd.finished
    assert _recorded(store, host) == [event_record(e) for e in rnd.events] == oracle
    # the chips the round moved, on record, as the round's own ledger moved them
    balances = ledger_balances(store)
    assert sum(balances.values()) == 0
    for seat, who in ((1, ann), (2, bob)):
        assert balances[f"player:{who.id}"] == DEPOSIT + rnd.net(seat)
    # the record rebuilds to what is in view
    again = TableHost(store, host.spec, "node-a")
    again.load()
    assert again.version == host.version
    assert again.last == host.last


def test_a_table_with_a_pace_takes_one_step_a_change(
    table: tuple[Store, TableHost, list[Account]],
) -> None:
    _store, host, (ann, _, _) = table
    host.spec = replace(host.spec, pace_seconds=0.5)
    host.apply_now(PlaceWagers(seat=1, ante=500, first=1000), ann)
    assert host.round is not None
    events = len(host.round.events)
    host.betting_closes = 0.0
    _steps(host)
    assert len(host.round.events) == events + 1


def test_a_later_step_refused_leaves_the_earlier_ones_recorded(
    table: tuple[Store, TableHost, list[Account]], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, host, (ann, _, _) = table
    host.apply_now(PlaceWagers(seat=1, ante=500, first=1000), ann)
    assert host.round is not None
    events, version = len(host.round.events), host.version
    host.betting_closes = 0.0  # bob has not wagered: the betting clock has run out
    tried = TableHost._try
    calls: list[int] = []

    def second_refused(self: TableHost, *args: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:
            raise FeltError("refused")
        return tried(self, *args)

    monkeypatch.setattr(TableHost, "_try", second_refused)
    _steps(host)
    assert len(host.round.events) == events + 1
    assert host.version == version + 1
    assert _recorded(store, host) == [event_record(e) for e in host.round.events]
    monkeypatch.undo()
    _steps(host)  # the loop's next look takes the rest
    assert len(host.round.events) > events + 1
    assert _recorded(store, host) == [event_record(e) for e in host.round.events]


def test_the_loop_sends_the_screens_one_message_a_chain_and_none_if_its_commit_fails(
    table: tuple[Store, TableHost, list[Account]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the table's loop (``_tick``) and the store (on SQLite, its writer): the
    listeners are told once for the whole chain, after its commit; a chain whose COMMIT fails
    shows nothing (round and version as they were) and the table reads its record again."""
    store, host, (ann, bob, _) = table
    told: list[int] = []
    host.listeners.append(lambda h: told.append(h.version))
    for seat, who in ((1, ann), (2, bob)):
        host.apply_now(PlaceWagers(seat=seat, ante=500, first=1000), who)
    version, rnd = host.version, host.round
    assert rnd is not None
    if store.is_sqlite:
        monkeypatch.setitem(store_module._HOT_SQL, "commit", "COMMIT NOT A STATEMENT")
        with pytest.raises(CommitFailed):
            asyncio.run(host._tick(time.monotonic()))
        assert (host.version, host.round, host.stale, told) == (version, rnd, True, [])
        monkeypatch.undo()
        host.load()  # the record read again (the loop's next look does it, and tells them)
    asyncio.run(host._tick(time.monotonic()))
    assert host.round is not None
    assert host.round.pending()
    assert told == [host.version]  # one message, showing the chain's last step
    assert host.version - version == len(host.round.events) - len(rnd.events) >= 2
    assert _recorded(store, host) == [event_record(e) for e in host.round.events]


def _craps(url: str, dice: str) -> Iterator[tuple[Store, TableHost, list[Account]]]:
    spec = TableSpec("c1", "craps", settings={"dice": dice, "decision_seconds": 30},
                     pace_seconds=0, betting_seconds=0.5, between_rounds_seconds=0.05)  # fmt: skip
    with one_table(url, spec, DEPOSIT) as made:
        yield made


def test_a_craps_roll_thrown_by_the_table_is_chained_and_recorded_completed_1_8(
    database_url: str,
) -> None:
    """decisions.md "The dice": the table's roll, chained after no more bets, is completed from
    the table's dice source on the trial round and recorded with its dice; the record rebuilds
    to the layout in view, and the pass line is paid as 1.2(a)1 says (11 on the come out)."""
    for store, host, (ann, _, _) in _craps(database_url, "table"):
        host.table.dice = FixedDice([(5, 6)])  # type: ignore[attr-defined]
        host.apply_now(Bet(1, "pass", 10_00), ann)
        host.betting_closes = 0.0
        assert host.round is not None
        version, events, rid = host.version, len(host.round.events), host.round_id
        _steps(host)
        assert host.version == version + 2  # no more bets, and the roll
        assert host.round.events[events].action == NoMoreBets()
        assert host.round.events[events + 1].action == Roll(5, 6)
        assert rid is not None
        assert json.loads(store.round_events_of(rid)[-1]["action"]) == {
            "dealer": "roll", "die1": 5, "die2": 6,
        }  # fmt: skip
        assert ledger_balances(store)[f"player:{ann.id}"] == DEPOSIT + 10_00
        again = TableHost(store, host.spec, "node-a")
        again.load()
        assert again.version == host.version


def test_a_craps_roll_entered_by_the_stickperson_ends_the_chain_1_8(database_url: str) -> None:
    """A live table's dice are entered by a person: the chain stops after no more bets."""
    for _, host, (ann, _, _) in _craps(database_url, "entered"):
        host.apply_now(Bet(1, "pass", 10_00), ann)
        host.betting_closes = 0.0
        assert host.round is not None
        events = len(host.round.events)
        _steps(host)
        assert len(host.round.events) == events + 1
