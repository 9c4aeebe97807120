"""Keno start-up and draw against stored tickets (issue 18 item 15, issue 25 target 3: start-up
under 2 s at 1M tickets, a draw's cost that of its game's tickets): the wall time of
``KenoHost.load()`` on a database holding 10k, 100k and 1M tickets, printed with the growth factor
from one size to the next, beside the peer measured in the same run: the same load replaying every
stored event (no snapshots), where that is feasible, both with the draw as it is (grading the
game's own tickets, kept by day and game) and with the old walk of every ticket held
(:class:`OldWalk`, the code before issue 25 kept here as the reference).  Both load the same
system from the same database; best of three.  Then the started host plays games of 100 tickets
and the draw of each is timed (the host's whole draw: grading, its transaction and the draw's
snapshot; the core's part printed beside), games alternating between the draw as it is and the
old walk on the same host, best of each.  Run with ``./dev bench keno_start [--backend ...]``.

The rows are generated directly: the keno core runs in memory (100 tickets a game, a winner in
about four paid, a void now and then) and its events and the snapshot of each draw are written in
bulk, as the server would have written them; a game is left open with tickets issued after the
last draw (the tail a start replays).  At 1M only the last 100k tickets are played through the
core: the 900k before them are settled tickets of earlier days, generated straight into archive
segments with their games (archived days, as snapshots archive them), so the full-replay peer is not run at 1M (it has no events for them;
at 100k it already takes the time shown, and grows faster than linearly).  ``--year``: the
earlier days carry a year of 5-minute games (105,120) instead of one per 100 tickets, and only
the last 2,000 tickets are played through the core (as when a draw's snapshot still rewrote
every game of the year, so the figures compare with those: see docs/design.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from sqlalchemy import insert

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from felt.games.keno import server as kenoserver
from felt.games.keno import snapshot
from felt.games.keno import snapshots as kenosnap
from felt.games.keno.codec import effect_json, to_json
from felt.games.keno.ratecard import example_rate_card_path
from felt.games.keno.server import KenoHost, keno_events
from felt.games.keno.snapshots import keno_snapshots
from felt.games.keno.spec import KenoSpec
from felt.games.keno.system import (
    SUPERVISOR,
    WRITER,
    Action,
    Draw,
    Event,
    GameRecord,
    Issue,
    KenoSystem,
    LockOut,
    OpenDay,
    OpenGame,
    Redeem,
    Staff,
    TicketState,
    Void,
)
from felt.server.host import new_table_row
from felt.server.store import Store, felt_tables
from tests.server_helpers import postgres_schema_url

ANN = Staff("W-017", WRITER)
SUE = Staff("S-002", SUPERVISOR)
PER_GAME = 100
OWNER = "bench"
DRAWS = 3
"""Games drawn on a started host with each draw (as it is, and the old walk)."""
REAL_AT_MOST = 100_000
SIZES = (10_000, 100_000, 1_000_000)


class OldWalk(KenoSystem):
    """The peer: the keno system as before issue 25, whose draw, game check and day's end walked
    every ticket the system holds (all of them after a replay from the first event; the open
    ones of a system restored from a snapshot)."""

    def _to_play(self) -> list[TicketState]:
        return [
            s
            for s in self.tickets.values()
            if s.record.day == self.day and not s.voided and not s.games_done
        ]

    def _sold_for(self, game: int) -> bool:
        return any(
            self._plays(s, game) and s.record.first_game == game for s in self.tickets.values()
        )


def spec() -> KenoSpec:
    import tomllib

    data = tomllib.loads(example_rate_card_path().read_text(encoding="utf-8"))
    return KenoSpec("keno", data, stations=(1, 2))


def prefix(system: KenoSystem, count: int, template: list[TicketState],
           games: int) -> list[tuple[int, str, bytes]]:  # fmt: skip
    """``count`` settled tickets of earlier days (copies of settled ``template`` tickets,
    numbered 1 to ``count``) and their days' games (``games`` of them, 288 a day) in archive
    segments of about :data:`snapshot.SEGMENT` records, as snapshots would have archived them;
    the segments as (key, archived, archive), keys 1, 2, ..."""
    archive = snapshot.Archive()
    first = date(2025, 1, 1)
    segments: list[tuple[int, str, bytes]] = []

    def add(blob: bytes, archived: str) -> None:
        segments.append((len(segments) + 1, archived, blob))
        archive.add(len(segments), blob, snapshot.listed(archived))

    chunk: dict[int, TicketState] = {}
    for n in range(1, count + 1):
        t = template[n % len(template)]
        day = first + timedelta(days=(n - 1) // 3000)
        game = (n - 1) % 3000 // PER_GAME + 1
        record = replace(t.record, number=n, day=day, first_game=game, last_game=game)
        won = {game: sum(t.won.values())}
        chunk[n] = replace(t, record=record, won=won)
        if len(chunk) == snapshot.SEGMENT or n == count:
            add(*snapshot.pack(chunk))
            chunk = {}
    opened = datetime(2025, 1, 1, tzinfo=UTC)
    days: dict[date, tuple[dict[int, GameRecord], datetime | None]] = {}
    for g in range(games):
        day = first + timedelta(days=g // 288)
        number = g % 288 + 1
        end = datetime.combine(day + timedelta(days=1), datetime.min.time(), UTC)
        played = days.setdefault(day, ({}, end))[0]
        played[number] = GameRecord(day, number, opened, opened, None, opened, tuple(range(1, 21)))
        if g + 1 == games or (number == 288 and len(days) * 288 >= snapshot.SEGMENT - 288):
            add(*snapshot.pack({}, days))
            days = {}
    system.tickets = snapshot.TicketBook({}, archive)
    system.games = snapshot.GameBook({}, archive)
    system.day_ends = snapshot.DayEnds({}, system.games)
    return segments


def generate(store: Store, tickets: int, year: bool = False) -> tuple[int, bool]:
    """Store a keno system with ``tickets`` tickets; the number of events, and whether they are
    every event since the beginning (a full replay is possible).  ``year``: the earlier days
    have a year's games (288 a day), not one per 100 tickets."""
    s = spec()
    config = s.config()
    real = min(tickets, 2_000 if year else REAL_AT_MOST)  # as measured before days were archived
    system = KenoSystem(config)
    rng = random.Random(tickets)
    with store.engine.begin() as conn:
        conn.execute(insert(felt_tables).values(**new_table_row(s, OWNER)))
    template: list[TicketState] = []
    base_seq = 0
    if tickets > real:
        warm = KenoSystem(config)
        _play(warm, 2_000, rng, [], lambda *_: None)
        template = [t for t in warm.tickets.values() if snapshot.settled(t)]
        games = 288 * 365 if year else (tickets - real) // PER_GAME
        segments = prefix(system, tickets - real, template, games)
        base_seq = len(segments)
        with store.engine.begin() as conn:
            for key, archived, blob in segments:
                conn.execute(insert(keno_snapshots).values(
                    system_id=s.id, seq=key, base=key - 1 if key > 1 else None,
                    schema=snapshot.SCHEMA, state=None, digest="", archived=archived,
                    archive=blob, archive_digest=snapshot.digest(archived.encode(), blob), at=0.0,
                ))  # fmt: skip
    rows: list[dict[str, object]] = []

    def flush() -> None:
        if rows:
            with store.engine.begin() as c:
                c.execute(insert(keno_events), rows)
            rows.clear()

    def record(action: Action, seq: int) -> None:
        event = system.events[-1]
        rows.append({"system_id": s.id, "seq": seq, "action": json.dumps(to_json(action)),
                     "effects": json.dumps([effect_json(e) for e in event.effects]),
                     "actor": None, "at": action.at.timestamp()})  # fmt: skip
        if isinstance(action, Draw):
            flush()
            with store.engine.begin() as conn:
                snap = snapshot.take(system, seq, {"approvals": {}, "drawn_at": action.at})
                kenosnap.write(conn, s.id, seq, snap)

    count = _play(system, real, rng, [], record, base_seq)
    flush()
    return count, tickets == real


def _play(system: KenoSystem, tickets: int, rng: random.Random, out: list[Action],
          record: object, seq: int = 0) -> int:  # fmt: skip
    """Play games of :data:`PER_GAME` tickets until ``tickets`` are issued, then open one more
    game with a few tickets (the tail); each action passed to ``record(action, seq)``."""
    now = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)

    def do(action: Action) -> None:
        nonlocal seq
        system.apply(action)
        seq += 1
        record(action, seq)  # type: ignore[operator]

    do(OpenDay(now, now.date()))
    issued = 0
    while True:
        if now.hour >= 23:
            now = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), UTC)
            now += timedelta(hours=10)
            do(OpenDay(now, now.date()))
        do(OpenGame(now, now + timedelta(minutes=4)))
        game = min(PER_GAME, tickets - issued) if issued < tickets else 5
        first = len(system.tickets) + 1
        for i in range(game):
            now += timedelta(seconds=1)
            spots = rng.randint(1, 6)
            request = {"numbers": rng.sample(range(1, 81), spots), "rate": "1.00"}
            do(Issue(now, 1 + i % 2, ANN, request))
        if rng.random() < 0.3 and game:
            do(Void(now, first, 1, ANN))
        if issued >= tickets:
            return seq
        issued += game
        now += timedelta(minutes=4)
        do(LockOut(now))
        now += timedelta(seconds=5)
        do(Draw(now, tuple(rng.sample(range(1, 81), 20))))
        for n in range(first, first + game):
            t = system.tickets[n]
            if t.owed and t.paid is None and not t.voided and rng.random() < 0.9:
                do(Redeem(now, n, 1, ANN, SUE))
        now += timedelta(seconds=20)


def timed_load(url: str, full: bool, runs: int = 3, old: bool = False) -> tuple[float, int, float]:
    """Best wall time of a fresh host's load (snapshots, or every event), tickets loaded, and
    the time of taking the next draw's snapshot of the system loaded (encoding and digests).
    ``old``: the system loaded is an :class:`OldWalk`."""
    best, count, take = float("inf"), 0, 0.0
    real = kenosnap.load
    if full:
        kenosnap.load = lambda *args: None
    if old:
        vars(kenoserver)["KenoSystem"] = vars(snapshot)["KenoSystem"] = OldWalk
    try:
        for _ in range(runs):
            store = Store(url)
            host = KenoHost(store, spec(), "bench")
            start = time.perf_counter()
            host.load()
            best = min(best, time.perf_counter() - start)
            count = len(host.system.tickets)
            start = time.perf_counter()
            snapshot.take(host.system, host.rows + 1, {"approvals": {}, "drawn_at": None})
            take = time.perf_counter() - start
            store.dispose()
    finally:
        kenosnap.load = real
        vars(kenoserver)["KenoSystem"] = vars(snapshot)["KenoSystem"] = KenoSystem
    return best, count, take


@dataclass
class Draws:
    """Draw times (s) of games of :data:`PER_GAME` tickets on a started host: the host's whole
    draw and the core's part, best of :data:`DRAWS`, with the draw as it is and the old walk;
    the draw's snapshot, and the first draw after the start (which builds the index)."""

    host: float = float("inf")
    core: float = float("inf")
    old_host: float = float("inf")
    old_core: float = float("inf")
    take: float = float("inf")
    first: float = 0.0


def timed_draws(url: str) -> Draws:
    """Start a host from the record, then play :data:`DRAWS` games of :data:`PER_GAME` tickets
    with each draw, alternating (the first, the tail game's, timed apart), timing each draw."""
    store = Store(url)
    host = KenoHost(store, spec(), OWNER)
    host.load()
    system = host.system
    spent: dict[str, float] = {}
    real_apply, real_take = system.apply, snapshot.take

    def apply(action: Action) -> Event:
        start = time.perf_counter()
        try:
            return real_apply(action)
        finally:
            spent["core"] = time.perf_counter() - start

    def take(
        system: KenoSystem, key: int, extra: Mapping[str, Any] | None = None
    ) -> snapshot.Snapshot:
        start = time.perf_counter()
        try:
            return real_take(system, key, extra)
        finally:
            spent["take"] = time.perf_counter() - start

    system.apply = apply  # type: ignore[method-assign]
    snapshot.take = take
    out = Draws()
    rng = random.Random(25)
    assert system.clock is not None
    at = system.clock
    try:
        for i in range(2 * DRAWS + 1):
            old = i % 2 == 0 and i > 0
            system.__class__ = OldWalk if old else KenoSystem
            game = system.current
            assert game is not None
            if game.state == "drawn":
                at += timedelta(seconds=20)
                host._record(OpenGame(at, at + timedelta(minutes=4)), None)
                game = system.current
                assert game is not None
            for k in range(PER_GAME):
                at += timedelta(seconds=1)
                request = {"numbers": rng.sample(range(1, 81), rng.randint(1, 6)), "rate": "1.00"}
                host._record(Issue(at, 1 + k % 2, ANN, request), None)
            assert game.closes_at is not None
            at = max(at, game.closes_at)
            host._record(LockOut(at), None)
            at += timedelta(seconds=5)
            start = time.perf_counter()
            host._record(Draw(at, tuple(rng.sample(range(1, 81), 20))), None)
            took = time.perf_counter() - start
            if i == 0:
                out.first = took
            elif old:
                out.old_host = min(out.old_host, took)
                out.old_core = min(out.old_core, spent["core"])
            else:
                out.host = min(out.host, took)
                out.core = min(out.core, spent["core"])
                out.take = min(out.take, spent["take"])
    finally:
        snapshot.take = real_take
        system.__class__ = KenoSystem
        store.dispose()
    return out


@contextmanager
def database(backend: str) -> Iterator[str]:
    if backend == "sqlite":
        with TemporaryDirectory() as tmp:
            yield f"sqlite:///{tmp}/felt.db"
    else:
        yield from postgres_schema_url()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--year", action="store_true",
                        help="earlier days have a year of 5-minute games (105,120), not 1 per 100 tickets")  # fmt: skip
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    print(f"keno start-up (KenoHost.load) on {args.backend}, best of 3; peer: the same load "
          "replaying every event, with the draw as it is and the old walk of every ticket; then "
          f"a game's draw on the started host ({PER_GAME} tickets, best of {DRAWS}; peer: the "
          f"old walk on the same host, games alternating); load average {os.getloadavg()}")  # fmt: skip
    last: float | None = None
    last_draw: float | None = None
    for n in sizes:
        with database(args.backend) as url:
            store = Store(url)
            store.migrate()
            t0 = time.perf_counter()
            events, replayable = generate(store, n, args.year)
            made = time.perf_counter() - t0
            store.dispose()
            took, loaded, take = timed_load(url, full=False)
            assert loaded == n + 5, (loaded, n)
            growth = "" if last is None else f"  growth x{took / last:5.2f}"
            verdict = "met" if took < 2 else "NOT MET"
            line = (f"{n:>9,} tickets  start-up {took:6.3f} s (target 2 s: {verdict}){growth}"
                    f"  [{events:,} events on record, generated in {made:.0f} s; a draw's "
                    f"snapshot then takes {take * 1000:.0f} ms]")  # fmt: skip
            if replayable:
                full, _, _ = timed_load(url, full=True, runs=1)
                old, _, _ = timed_load(url, full=True, runs=1, old=True)
                line += (f"\n{'':>9}          peer: full replay {full:7.3f} s (snapshot start is "
                         f"{full / took:,.0f}x faster); with the old walk {old:7.3f} s "
                         f"({old / full:.1f}x the draw as it is)")  # fmt: skip
            else:
                line += f"\n{'':>9}          peer: full replay not run (earlier tickets generated as archive only)"
            d = timed_draws(url)
            growth = "" if last_draw is None else f"  growth x{d.host / last_draw:5.2f}"
            line += (f"\n{'':>9}          draw {d.host * 1000:6.1f} ms (core {d.core * 1000:5.2f} ms, "
                     f"snapshot {d.take * 1000:5.1f} ms){growth}; peer: old walk "
                     f"{d.old_host * 1000:6.1f} ms (core {d.old_core * 1000:5.2f} ms); first draw "
                     f"after start {d.first * 1000:.1f} ms; load average "
                     f"{os.getloadavg()[0]:.2f}")  # fmt: skip
            print(line, flush=True)
            last, last_draw = took, d.host


if __name__ == "__main__":
    main()
