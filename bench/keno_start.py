"""Keno start-up against stored tickets (issue 18 item 15; target: under 2 s at 1M tickets): the
wall time of ``KenoHost.load()`` on a database holding 10k, 100k and 1M tickets, printed with the
growth factor from one size to the next, beside the peer measured in the same run: the same load
replaying every stored event (no snapshots), where that is feasible.  Both load the same system
from the same database; best of three.  Run with ``./dev bench keno_start [--backend ...]``.

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
import random
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from tempfile import TemporaryDirectory

from sqlalchemy import insert

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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
REAL_AT_MOST = 100_000
SIZES = (10_000, 100_000, 1_000_000)


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
        conn.execute(insert(felt_tables).values(**new_table_row(s, None)))
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


def timed_load(url: str, full: bool, runs: int = 3) -> tuple[float, int, float]:
    """Best wall time of a fresh host's load (snapshots, or every event), tickets loaded, and
    the time of taking the next draw's snapshot of the system loaded (encoding and digests)."""
    best, count, take = float("inf"), 0, 0.0
    real = kenosnap.load
    if full:
        kenosnap.load = lambda *args: None
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
    return best, count, take


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
          "replaying every event")  # fmt: skip
    last: float | None = None
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
                line += f"\n{'':>9}          peer: full replay {full:7.3f} s (snapshot start is {full / took:,.0f}x faster)"
            else:
                line += f"\n{'':>9}          peer: full replay not run (earlier tickets generated as archive only)"
            print(line, flush=True)
            last = took


if __name__ == "__main__":
    main()
