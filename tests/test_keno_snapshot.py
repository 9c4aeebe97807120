"""Keno snapshots (issue 18 item 15; the record of 19:47-15.5(h) rebuilds the system, a snapshot
only shortens the rebuild): the state restored from a snapshot and the actions after it equals
the state of a full replay at every restart point, over scripted games with issues, voids,
redemptions, multi-race tickets, cancelled races, manual payments and the year's total; a snapshot
whose digest, schema or configuration does not match is refused with the reason."""

from __future__ import annotations

import pickle
import random
import zlib
from dataclasses import replace
from datetime import date, datetime, timedelta
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from felt.core.errors import FeltError
from felt.games.keno import snapshot
from felt.games.keno.draw import draw_numbers
from felt.games.keno.system import (
    SUPERVISOR,
    WRITER,
    Action,
    CancelRaces,
    Draw,
    Issue,
    KenoSystem,
    LockOut,
    ManualPay,
    OpenDay,
    OpenGame,
    Redeem,
    Staff,
    SystemConfig,
    SystemDown,
    SystemUp,
    Void,
    YearEnd,
)
from felt.rounds.shuffle import SeededShuffle
from tests.keno_helpers import card

ANN = Staff("W-017", WRITER)
SUE = Staff("S-002", SUPERVISOR)
CONFIG = SystemConfig(card(ticket_validity="30 days"), stations=(1, 2))


def script(seed: int, games: int = 14) -> list[Action]:
    """A valid run of ``games`` games over a few gaming days: tickets of 1 to 8 spots, some for
    several games, some voided, winners redeemed (or paid by hand while the system is down),
    races cancelled, and after the year the total of expired unclaimed winnings.  Each action is
    kept only if the system accepts it, so the script replays."""
    rng = random.Random(seed)
    system = KenoSystem(CONFIG)
    out: list[Action] = []

    def do(action: Action) -> bool:
        if not system.can(action):
            return False
        system.apply(action)
        out.append(action)
        return True

    now = datetime(2026, 12, 30, 10, 0)
    day = now.date()
    do(OpenDay(now, day))
    source = SeededShuffle(seed)
    for g in range(games):
        if g and rng.random() < 0.2:  # a new gaming day
            day += timedelta(days=1)
            now = datetime.combine(day, now.time())
            do(OpenDay(now, day))
        do(OpenGame(now, now + timedelta(minutes=5)))
        for _ in range(rng.randint(0, 7)):
            now += timedelta(seconds=10)
            spots = rng.randint(1, 8)
            request: dict[str, Any] = {"numbers": rng.sample(range(1, 81), spots), "rate": "1.00"}
            if rng.random() < 0.25:
                request["games"] = rng.randint(2, 3)
            do(Issue(now, rng.choice((1, 2)), ANN, request))
        this_game = [n for n, t in system.tickets.items() if t.record.first_game == system.game]
        for n in this_game:
            if rng.random() < 0.2:
                do(Void(now, n, 1, ANN))
        now += timedelta(minutes=5)
        do(LockOut(now))
        now += timedelta(seconds=30)
        do(Draw(now, draw_numbers(source)))
        if rng.random() < 0.15:
            do(SystemDown(now))
            for n in sorted(system.tickets):
                s = system.tickets[n]
                if s.games_done and s.owed and s.paid is None and rng.random() < 0.5:
                    do(ManualPay(now, n, 1, min(s.owed, 1_000), ANN))
            do(SystemUp(now))
        for n in sorted(system.tickets):
            s = system.tickets[n]
            if s.record.ticket.multi_race and not s.games_done and rng.random() < 0.1:
                do(CancelRaces(now, n, SUE, "the patron asked"))
            elif s.games_done and s.owed and s.paid is None and rng.random() < 0.6:
                do(Redeem(now, n, rng.choice((1, 2)), ANN, SUE))
    do(YearEnd(datetime(2028, 1, 2, 9, 0), 2026, "keno jackpot"))
    do(YearEnd(datetime(2028, 1, 2, 9, 1), 2027, "Casino Revenue Fund"))
    return out


@cache
def run(seed: int) -> tuple[list[Action], KenoSystem, dict[int, snapshot.Snapshot]]:
    """The script, its full replay, and the snapshot taken after each draw of a live run (the
    live system archiving its settled tickets as a server does), by action index."""
    actions = script(seed)
    full = KenoSystem.replay(CONFIG, actions)
    live, snaps = played(actions)
    assert snapshot.same_state(live, full) == []
    return actions, full, snaps


def played(actions: list[Action]) -> tuple[KenoSystem, dict[int, snapshot.Snapshot]]:
    """A live system that played ``actions``, and the snapshot it took after each draw (archiving
    as a server does), by action index."""
    live = KenoSystem(CONFIG)
    snaps: dict[int, snapshot.Snapshot] = {}
    for i, a in enumerate(actions):
        live.apply(a)
        if isinstance(a, Draw):
            snaps[i] = snapshot.take(live, i, {"drawn_at": a.at})
    return live, snaps


def restored(snaps: dict[int, snapshot.Snapshot], at: int) -> KenoSystem:
    """The system the snapshot taken at action ``at`` holds, with its chain's archive."""
    chain, key = [], snaps[at].base
    while key is not None:
        chain.append((key, snaps[key].archived, snaps[key].archive))
        key = snaps[key].base
    chain.reverse()
    chain.append((at, snaps[at].archived, snaps[at].archive))
    s = snaps[at]
    system, extra = snapshot.restore(CONFIG, s.schema, s.state, s.digest, chain)
    assert set(extra) == {"drawn_at"}
    return system


def test_the_scripts_cover_every_kind_of_action() -> None:
    kinds = {type(a).__name__ for seed in range(4) for a in run(seed)[0]}
    assert kinds >= {"OpenDay", "OpenGame", "Issue", "Void", "LockOut", "Draw", "Redeem",
                     "CancelRaces", "SystemDown", "ManualPay", "SystemUp", "YearEnd"}  # fmt: skip


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.data())
def test_snapshot_and_tail_equal_the_full_replay_at_every_restart_point(
    seed: int, data: st.DataObject
) -> None:
    actions, full, snaps = run(seed)
    points = data.draw(st.lists(st.sampled_from(sorted(snaps)), min_size=1, max_size=4))
    for at in points:
        system = restored(snaps, at)
        for i, a in enumerate(actions[at + 1 :], start=at + 1):
            event = system.apply(a)
            assert event.effects == full.events[i].effects, f"action {i} after snapshot {at}"
        assert snapshot.same_state(system, full) == []
        for n in sorted(snapshot.all_tickets(full)):
            assert system.tickets.get(n) == full.tickets[n]
        assert len(system.tickets) == len(full.tickets)
        for key, game in full.games.items():
            assert system.games.get(key) == game
        assert len(system.games) == len(full.games)
        assert system.last_drawn() == full.last_drawn()
        assert system.board() == full.board()
        for day in {d for d, _ in full.games}:
            assert system.day_games(day) == full.day_games(day)


def test_a_restored_system_goes_on_as_the_full_replay_does() -> None:
    """Restart after a draw, then more games on both: the same effects, the same state."""
    actions, _, snaps = run(7)
    cut = sorted(snaps)[len(snaps) // 2]
    system = restored(snaps, cut)
    for a in actions[cut + 1 :]:
        system.apply(a)
    full = KenoSystem.replay(CONFIG, actions)
    more = full.copy()
    now = max(full.clock or datetime.min, datetime(2028, 1, 3))
    extra: list[Action] = [
        OpenDay(now, date(2028, 1, 3)),
        OpenGame(now, now + timedelta(minutes=5)),
        Issue(now, 1, ANN, {"numbers": [1, 2, 3], "rate": "1.00"}),
        LockOut(now + timedelta(minutes=5)),
        Draw(now + timedelta(minutes=6), tuple(range(1, 21))),
        Redeem(now + timedelta(minutes=7), len(full.tickets) + 1, 1, ANN),
    ]
    for a in extra:
        assert system.apply(a).effects == more.apply(a).effects
    assert snapshot.same_state(system, more) == []


def test_15_6_d_a_year_totalled_before_a_snapshot_is_not_totalled_again() -> None:
    actions, full, _ = run(3)
    live = KenoSystem(CONFIG)
    for a in actions:
        live.apply(a)
    snap = snapshot.take(live, 1, {})
    system, _ = snapshot.restore(CONFIG, snap.schema, snap.state, snap.digest,
                                 [(1, snap.archived, snap.archive)])  # fmt: skip
    assert system.years_taken == full.years_taken == {2026, 2027}
    with pytest.raises(FeltError, match="was taken"):
        system.apply(YearEnd(datetime(2028, 2, 1), 2026, "keno jackpot"))


def test_settled_tickets_leave_the_decoded_state_and_are_looked_up_by_number() -> None:
    _, full, snaps = run(11)
    last = max(snaps)
    system = restored(snaps, last)
    assert isinstance(system.tickets, snapshot.TicketBook)
    opened = system.tickets.opened()
    assert all(not snapshot.settled(s) for s in opened.values())
    archived = [n for n in full.tickets if n not in opened]
    assert archived, "a run of 14 games settles tickets"
    assert [s.record.number for s in system.tickets.values()] == sorted(opened)
    n = archived[0]
    assert system.tickets[n] == full.tickets[n]
    assert n in system.tickets.opened()  # looked up: open again until the next snapshot


def test_past_gaming_days_leave_the_decoded_state_and_are_looked_up_by_game() -> None:
    """The games of a day before the last game drawn go to the archive once: the state holds
    only the days from the last game drawn's, and a past game is read from the archive."""
    _, full, snaps = run(11)
    last = max(snaps)
    system = restored(snaps, last)
    assert isinstance(system.games, snapshot.GameBook)
    opened = system.games.opened()
    board = full.last_drawn()
    assert board is not None
    assert {d for d, _ in opened} == {board.day}
    past = sorted({d for d, _ in full.games} - {board.day})
    assert past, "a run of 14 games spans several gaming days"
    assert sorted(system.games.archive.days) == past
    assert system.day_games(past[0]) == full.day_games(past[0])
    assert system.game_start(past[0], 1) == full.game_start(past[0], 1)
    assert system.day_ends.get(past[0]) == full.day_ends[past[0]]
    assert not set(dict(system.day_ends.items())) & set(past)  # their ends are archived too
    for n, state in snapshot.all_tickets(full).items():  # 15.6(c): from a past game or day's end
        assert system.expires(system.tickets[n]) == full.expires(state)
    assert (past[0], 1) in system.games
    assert (past[0], 99) not in system.games
    assert system.games.opened() == opened  # looked up, not reopened: never written again


def test_a_draws_snapshot_does_not_grow_with_the_days_before_it() -> None:
    """A draw's state is as large after 40 gaming days as after 2: past days' games are written
    once, in the archive segment of the snapshot after their day ends, never again."""
    system = KenoSystem(CONFIG)
    now = datetime(2026, 1, 1, 10, 0)
    sizes: list[int] = []
    for d in range(40):
        system.apply(OpenDay(now, now.date()))
        for _ in range(12):
            system.apply(OpenGame(now, now + timedelta(minutes=5)))
            now += timedelta(minutes=5)
            system.apply(LockOut(now))
            now += timedelta(seconds=30)
            system.apply(Draw(now, tuple(range(1 + d % 60, 21 + d % 60))))
            sizes.append(len(snapshot.take(system, len(sizes) + 1, {}).state))
        now += timedelta(days=1)
    assert max(sizes[-12:]) < 1.2 * max(sizes[12:24])
    assert len(system.games) == 40 * 12
    assert snapshot.all_games(system) == KenoSystem.replay(CONFIG, system.actions).games


def _one() -> tuple[snapshot.Snapshot, list[tuple[int, str, bytes]]]:
    _, _, snaps = run(5)
    at = max(snaps)
    s = snaps[at]
    assert s.base is None or s.base in snaps
    return s, [(at, s.archived, s.archive)]


def test_a_snapshot_whose_state_does_not_match_its_digest_is_refused() -> None:
    s, segments = _one()
    bad = bytes([s.state[0] ^ 1]) + s.state[1:]
    with pytest.raises(FeltError, match="does not match its digest"):
        snapshot.restore(CONFIG, s.schema, bad, s.digest, segments)


def test_an_archive_that_does_not_match_its_digest_is_refused() -> None:
    s, _ = _one()
    assert snapshot.segment_ok(s.archived, s.archive, s.archive_digest) is None
    assert "does not match" in str(
        snapshot.segment_ok(s.archived + " ", s.archive, s.archive_digest)
    )
    assert "does not match" in str(
        snapshot.segment_ok(s.archived, s.archive + b"x", s.archive_digest)
    )


def test_a_snapshot_of_another_schema_or_configuration_is_refused() -> None:
    s, segments = _one()
    other = "0" * 64
    with pytest.raises(FeltError, match="another shape"):
        snapshot.restore(CONFIG, other, s.state, snapshot.digest(other.encode(), s.state), segments)
    with pytest.raises(FeltError, match="another configuration"):
        snapshot.restore(replace(CONFIG, stations=(1,)), s.schema, s.state, s.digest, segments)


def test_a_snapshot_builds_only_the_systems_own_classes() -> None:
    """A blob with the right digest that would call anything else is refused, not run."""
    evil = zlib.compress(pickle.dumps(print))
    with pytest.raises(FeltError, match="does not read"):
        snapshot.restore(CONFIG, snapshot.SCHEMA, evil,
                         snapshot.digest(snapshot.SCHEMA.encode(), evil), [])  # fmt: skip


def test_the_ledger_is_brought_forward_as_its_balances() -> None:
    _, full, _ = run(9)
    net = snapshot.balances(full.ledger)
    assert sum(net.values()) == 0
    assert snapshot.balances(snapshot.brought_forward(net)) == net
    with pytest.raises(FeltError, match="sum to zero"):
        snapshot.brought_forward({"patrons": 1})


def test_segments_merge_so_the_chain_stays_short() -> None:
    """Each snapshot's archive joins the ones before it while they are no larger: the chain of a
    long run is a few segments, every settled ticket in exactly one of them."""
    actions = script(21, games=40)
    live = KenoSystem(CONFIG)
    keys = []
    for i, a in enumerate(actions):
        live.apply(a)
        if isinstance(a, Draw):
            snapshot.take(live, i, {})
            keys.append(i)
    book = live.tickets
    assert isinstance(book, snapshot.TicketBook)
    assert len(book.archive.segments) < len(keys) // 2
    assert sorted(book.archive.tickets) == sorted(
        n for n in snapshot.all_tickets(live) if n not in book.opened()
    )


def claims(seed: int, days: int = 45) -> list[Action]:
    """A valid run over ``days`` gaming days from 2026-11-20 (three games a day) across a year's
    end: tickets at both stations, voids at both, winners paid at the draw or days later, some
    never paid, and the 2026 total of expired unclaimed winnings taken on 2027-01-02, after
    which games go on (so winners totalled by 15.6(d) are archived too)."""
    rng = random.Random(seed)
    system = KenoSystem(CONFIG)
    out: list[Action] = []

    def do(action: Action) -> None:
        system.apply(action)
        out.append(action)

    source = SeededShuffle(seed)
    unpaid: list[int] = []
    for d in range(days):
        day = date(2026, 11, 20) + timedelta(days=d)
        now = datetime.combine(day, datetime.min.time()) + timedelta(hours=10)
        do(OpenDay(now, day))
        if day == date(2027, 1, 2):
            do(YearEnd(now, 2026, "keno jackpot"))
        for _ in range(3):
            do(OpenGame(now, now + timedelta(minutes=5)))
            first = len(system.tickets) + 1
            for _ in range(rng.randint(2, 6)):
                now += timedelta(seconds=10)
                request = {"numbers": rng.sample(range(1, 81), rng.randint(1, 4)), "rate": "1.00"}
                do(Issue(now, rng.choice((1, 2)), ANN, request))
            if rng.random() < 0.5:
                do(
                    Void(
                        now, rng.randrange(first, len(system.tickets) + 1), rng.choice((1, 2)), ANN
                    )
                )
            now += timedelta(minutes=5)
            do(LockOut(now))
            now += timedelta(seconds=30)
            do(Draw(now, draw_numbers(source)))
            for n in range(first, len(system.tickets) + 1):
                if system.tickets[n].owed and not system.tickets[n].voided and rng.random() < 0.7:
                    unpaid.append(n)  # the others are never claimed
            for n in [n for n in unpaid if rng.random() < 0.3]:
                unpaid.remove(n)
                action = Redeem(now, n, rng.choice((1, 2)), ANN, SUE)
                if system.can(action):  # not expired yet (15.6(c))
                    do(action)
    return out


@cache
def claims_run(seed: int) -> tuple[list[Action], dict[int, snapshot.Snapshot]]:
    """The claims script and the snapshot a live run takes after each draw, by action index."""
    actions = claims(seed)
    return actions, played(actions)[1]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_past_days_voids_and_unpaid_winners_are_archived_and_reported_as_before(
    seed: int,
) -> None:
    """15.4(e), 15.6(c)-(d): once its gaming day is past, a void and an unpaid winner leave the
    snapshot's state for the archive; a day's voids, a year's expired unclaimed winnings and a
    year's total read from a restored system are the full replay's, a winner of a past day is
    still paid (looked up by number), and the restored system goes on as the full replay."""
    actions, snaps = claims_run(seed)
    full = KenoSystem.replay(CONFIG, actions)
    kinds = {t.split()[0] for s in snaps.values() for t in snapshot.listed(s.archived)[2]}
    assert kinds == {"void", "unclaimed", "expired"}, "the script archives every kind"
    days = sorted({d for d, _ in full.games})
    for at in [*sorted(snaps)[:: max(1, len(snaps) // 9)], max(snaps)]:
        system = restored(snaps, at)
        then = KenoSystem.replay(CONFIG, actions[: at + 1])
        book = system.tickets
        assert isinstance(book, snapshot.TicketBook)
        assert system.day is not None
        for s in book.opened().values():  # only the current day's, or what is still to play
            assert s.record.day == system.day or not (s.voided or s.games_done)
        for day in days:
            for station in (1, 2):
                assert system.voided(day, station) == then.voided(day, station)
        for year in (2026, 2027):
            for moment in (datetime(2027, 1, 15), datetime(2028, 2, 1)):
                assert system.expired_unclaimed(year, moment) == then.expired_unclaimed(year, moment)  # fmt: skip
            assert system.expired_in(year) == then.expired_in(year)
        for i, a in enumerate(actions[at + 1 :], start=at + 1):
            assert system.apply(a).effects == full.events[i].effects, f"action {i} after {at}"
        assert snapshot.same_state(system, full) == []
    assert full.expired_in(2026), "the 2026 total counted expired winners"


def test_a_draws_snapshot_does_not_grow_with_past_days_voids_and_unpaid_winners() -> None:
    """The state written with a draw holds the current day's open tickets: as large after 45
    days of voids and winners left unpaid as after a few."""
    actions, snaps = claims_run(1)
    sizes = [len(snaps[k].state) for k in sorted(snaps)]
    assert max(sizes[-15:]) < 1.5 * max(sizes[3:15])
    ever = KenoSystem.replay(CONFIG, actions)
    left = [s for s in ever.tickets.values() if s.voided or (s.owed and s.paid is None)]
    assert len(left) > 40  # what the state carried, every one of them, before
