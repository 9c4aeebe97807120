"""Load on a real ``felt serve``: bots on loopback play Boston 5 at many tables over WebSockets,
at real-table pace (about one round a minute per table) and flat out, on SQLite and on
PostgreSQL.  Prints tables held, rounds per table-minute, player actions per second with their
latency from send to acknowledgement (p50, p99, and p99 against the issue's 100 ms target),
table events and commits per second; then SQLite against PostgreSQL like for like.

Every action is acknowledged only after its commit (SQLite WAL with synchronous=FULL;
PostgreSQL with synchronous_commit on), so each latency includes a durable write.  The bots run
in this process and share the machine's two cores with the server: the latencies are upper
bounds on what a client elsewhere would see.

Bounded: at most ``--tables`` tables (default 500, 1 to 2000), ``--players`` accounts (default
50, each seated at tables/players tables), and each phase runs a fixed number of seconds; the
whole default run takes about seven minutes.  Only 127.0.0.1 is contacted.  Run with
``./dev bench server_load`` (``--help`` for the options, e.g. ``--backends sqlite``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import secrets
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' server helpers
from felt.server.pauses import LONG_MS, SWEEP
from tests.server_process import ServeProcess, fresh_database

POSTGRES_URL = os.environ.get("FELT_POSTGRES_URL", "postgresql://127.0.0.1:5432/test")
ADMIN_PASSWORD = "bench-admin-password"
TARGET_P99 = 0.100
"""Issue 11: p99 action latency under 100 ms at 500 tables, one round a minute each."""


@dataclass(frozen=True)
class Mode:
    """How the tables are paced and how fast the bots answer."""

    name: str
    pace_seconds: float
    between_rounds_seconds: float
    think: tuple[float, float]
    """A bot waits a random time in this range before each action."""
    ramp: float
    """Bots take their seats spread over this many seconds (so rounds do not start in step)."""


REAL = Mode("table pace", pace_seconds=3.0, between_rounds_seconds=36.0, think=(1.0, 4.0), ramp=40)
FLAT = Mode("flat out", pace_seconds=0.0, between_rounds_seconds=0.0, think=(0.0, 0.0), ramp=0)


def tables_toml(count: int, mode: Mode) -> str:
    """``count`` Boston 5 tables at ``mode``'s pace (between-rounds jittered ±10% per table)."""
    rng = random.Random(count)
    out = []
    for i in range(count):
        between = mode.between_rounds_seconds * rng.uniform(0.9, 1.1)
        out.append(
            f'[[table]]\nid = "t{i:04d}"\ngame = "boston5"\npace_seconds = {mode.pace_seconds}\n'
            f"betting_seconds = 15\n"
            f"between_rounds_seconds = {between:.2f}\n[table.settings]\ndecision_seconds = 60\n"
        )
    return "\n".join(out)


@dataclass
class Stats:
    """What the bots saw in one measuring window."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    rounds: int = 0
    measuring: bool = False


@dataclass
class Bot:
    """One player: one WebSocket, a seat at each of its tables, an action when the view asks."""

    name: str
    token: str
    tables: list[str]
    mode: Mode
    stats: Stats
    sent: dict[str, float] = field(default_factory=dict)
    done: set[tuple[str, str | None, str]] = field(default_factory=set)
    ws: ClientConnection | None = None

    async def run(self, base: str, stop: asyncio.Event) -> None:
        async with connect(f"ws://{base}/api/ws", max_size=2**20, open_timeout=60) as ws:
            self.ws = ws
            await ws.send(json.dumps({"token": self.token}))
            for t in self.tables:
                await ws.send(json.dumps({"subscribe": t}))
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    self.seen(json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0)))

    def seen(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind in ("ack", "error"):
            start = self.sent.pop(str(msg.get("key")), None)
            if start is not None and self.stats.measuring:
                if kind == "ack":
                    self.stats.latencies.append(time.monotonic() - start)
                else:
                    self.stats.errors.append(str(msg.get("error"))[:120])
            return
        if kind != "table":
            return
        mine = (msg.get("mine") or {}).get("1")
        if not mine:
            return
        table, rnd = str(msg["table"]), msg.get("round")
        if mine.get("lines") and (table, rnd, "done") not in self.done:
            self.done.add((table, rnd, "done"))
            if self.stats.measuring:
                self.stats.rounds += 1
        if mine.get("phase") == "betting" and (table, rnd, "wager") not in self.done:
            self.done.add((table, rnd, "wager"))
            self.act(table, {"action": "wager", "seat": 1, "ante": "5.00", "first": "10.00"})
        elif (table, rnd, "second") not in self.done and any(
            p["election"] == "second or fold" for p in mine.get("pending", ())
        ):
            self.done.add((table, rnd, "second"))
            self.act(table, {"action": "second", "seat": 1})

    def act(self, table: str, action: dict[str, Any]) -> None:
        asyncio.get_running_loop().create_task(self._send(table, action))

    async def _send(self, table: str, action: dict[str, Any]) -> None:
        low, high = self.mode.think
        if high:
            await asyncio.sleep(random.uniform(low, high))
        key = secrets.token_hex(8)
        assert self.ws is not None
        self.sent[key] = time.monotonic()
        with contextlib.suppress(ConnectionClosed):  # the window ended while this bot thought
            await self.ws.send(json.dumps({"table": table, "action": action, "key": key}))


async def make_players(base: str, count: int) -> list[tuple[str, str]]:
    """Open ``count`` player accounts with money, logged in: (name, token) each."""
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=120) as http:
        r = await http.post("/api/login", json={"name": "admin", "password": ADMIN_PASSWORD})
        admin = {"Authorization": f"Bearer {r.json()['token']}"}
        await http.post("/api/accounts", headers=admin,
                        json={"name": "cage", "role": "cashier", "password": "cage-password"})  # fmt: skip
        r = await http.post("/api/login", json={"name": "cage", "password": "cage-password"})
        cage = {"Authorization": f"Bearer {r.json()['token']}"}

        async def one(i: int) -> tuple[str, str]:
            name, password = f"bot{i:03d}", f"bot{i:03d}-password"
            r = await http.post("/api/accounts", headers=admin,
                                json={"name": name, "role": "player", "password": password})  # fmt: skip
            r.raise_for_status()
            r = await http.post("/api/cashier/deposit", headers=cage,
                                json={"player": name, "amount": "1000000.00", "key": name})  # fmt: skip
            r.raise_for_status()
            r = await http.post("/api/login", json={"name": name, "password": password})
            r.raise_for_status()
            return name, str(r.json()["token"])

        players: list[tuple[str, str]] = []
        for start in range(0, count, 8):  # eight at a time: argon2 is slow on purpose
            players += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 8))))
        return players


async def seat(base: str, bots: list[Bot], ramp: float) -> None:
    """Each bot sits at seat 1 of each of its tables, at random moments over ``ramp`` seconds
    (at most 16 requests at once)."""
    limit = asyncio.Semaphore(16)
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=60) as http:

        async def one(bot: Bot, table: str) -> None:
            await asyncio.sleep(random.uniform(0, ramp))
            async with limit:
                r = await http.post(f"/api/tables/{table}/sit", json={"seat": 1},
                                    headers={"Authorization": f"Bearer {bot.token}"})  # fmt: skip
            r.raise_for_status()

        await asyncio.gather(*(one(b, t) for b in bots for t in b.tables))


async def server_stats(base: str) -> dict[str, Any]:
    """The server's own counters (GET /api/stats as the supervisor)."""
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30) as http:
        r = await http.post("/api/login", json={"name": "admin", "password": ADMIN_PASSWORD})
        r = await http.get("/api/stats", headers={"Authorization": f"Bearer {r.json()['token']}"})
        return dict(r.json())


def event_count(url: str) -> int:
    """Events on record (every accepted action, the dealer's and the clock's included)."""
    full = url.replace("postgresql://", "postgresql+psycopg://", 1)
    engine = create_engine(full)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT count(*) FROM round_events")).scalar_one())
    finally:
        engine.dispose()


@dataclass(frozen=True)
class Window:
    """Pauses the server counted between two readings of ``GET /api/stats`` (see
    ``felt.server.pauses``): how many, their total, how many in each bucket, the longest."""

    count: int
    total_ms: float
    buckets: dict[str, int]
    longest_ms: float
    """The longest pause of 10 ms or more that ended in the window (0 if none did)."""
    label: int
    """The longest one's label: a collection's generation, a COMMIT's group size, the pages
    in the log at a checkpoint."""

    @staticmethod
    def between(before: dict[str, Any], after: dict[str, Any], t0: float, t1: float) -> Window:
        b0, b1 = before["buckets_ms"], after["buckets_ms"]
        long = max(((r[1], r[2]) for r in after["recent"] if t0 <= r[0] <= t1), default=(0, 0))
        return Window(after["count"] - before["count"], after["total_ms"] - before["total_ms"],
                      {k: b1[k] - b0[k] for k in b1}, long[0], long[1])  # fmt: skip

    def text(self, seconds: float, label: str, names: dict[int, str] | None = None) -> str:
        """One line: the rate, share of the time, longest (named by ``names`` for its label, or
        ``label`` and the label), and the buckets over 5 ms."""
        over = {k: v for k, v in self.buckets.items() if v and k not in ("1", "2", "5")}
        shown = " ".join(f"{'>1000' if k == 'more' else '<=' + k}:{v}" for k, v in over.items())
        which = (names or {}).get(self.label, f"{label} {self.label}")
        # only pauses of 10 ms or more are kept with their time: none in the window, none to name
        longest = (f"longest {self.longest_ms:6.1f} ms ({which}; " if self.longest_ms
                   else f"longest under {LONG_MS:g} ms (")  # fmt: skip
        return (
            f"{self.count / seconds:6.1f}/s, {self.total_ms / seconds / 10:4.1f}% of the time, "
            f"{longest}over 5 ms: {shown or 'none'})"
        )


@dataclass
class Result:
    """One backend in one mode."""

    backend: str
    mode: str
    tables: int
    seconds: float
    stats: Stats
    events: int
    commits: int
    load: float
    """The machine's one-minute load average at the window's end (other work included)."""
    gc: Window
    """The server's garbage-collection pauses in the window."""
    commit: Window | None
    """The server's group COMMITs (each with its fsync) in the window; None on PostgreSQL."""
    checkpoint: Window | None
    """The server's checkpoints (beside the writers) in the window; None on PostgreSQL."""
    run: int = 1

    def quantile(self, q: float) -> float:
        xs = sorted(self.stats.latencies)
        return xs[min(len(xs) - 1, math.ceil(q * len(xs)) - 1)] if xs else math.nan


async def measure(
    backend: str, url: str, mode: Mode, tables: int, players: int, seconds: float, work: Path
) -> Result:
    """Start a server, seat the bots, let play settle, then count for ``seconds``."""
    toml = work / f"tables-{backend}-{mode.name.replace(' ', '-')}.toml"
    toml.write_text(tables_toml(tables, mode))
    server = ServeProcess(url, toml, work / f"serve-{backend}.log", ADMIN_PASSWORD)
    t0 = time.monotonic()
    server.start(seconds=180)
    started = time.monotonic() - t0
    try:
        stats = Stats()
        accounts = await make_players(server.name, players)
        ids = [f"t{i:04d}" for i in range(tables)]
        bots = [Bot(name, token, ids[i::players], mode, stats)
                for i, (name, token) in enumerate(accounts)]  # fmt: skip
        settle = mode.ramp + (20 if mode.ramp else 5)  # every bot seated, play under way
        begin = time.monotonic() + settle
        stop = asyncio.Event()
        runs = [asyncio.create_task(b.run(server.name, stop)) for b in bots]
        await asyncio.sleep(1)
        await seat(server.name, bots, mode.ramp)
        await asyncio.sleep(max(5.0, begin - time.monotonic()))
        before = await server_stats(server.name)
        events0 = await asyncio.to_thread(event_count, url)
        stats.measuring = True
        t1, wall0 = time.monotonic(), time.time()
        await asyncio.sleep(seconds)
        stats.measuring = False
        took, wall1 = time.monotonic() - t1, time.time()
        load = os.getloadavg()[0]
        stop.set()
        after = await server_stats(server.name)
        events1 = await asyncio.to_thread(event_count, url)
        for outcome in await asyncio.gather(*runs, return_exceptions=True):
            if isinstance(outcome, BaseException):
                stats.errors.append(f"a bot's connection failed: {outcome!r}"[:200])
    finally:
        server.stop()
    print(f"  ({backend}, {mode.name}: server up in {started:.1f} s with {after['tables']} tables)")
    gc = Window.between(before["gc_pauses"], after["gc_pauses"], wall0, wall1)
    commit = checkpoint = None
    if after.get("commit_times"):
        commit = Window.between(before["commit_times"], after["commit_times"], wall0, wall1)
    if after.get("checkpoint_times"):
        checkpoint = Window.between(
            before["checkpoint_times"], after["checkpoint_times"], wall0, wall1
        )
    return Result(backend, mode.name, int(after["tables"]), took, stats,
                  events1 - events0, int(after["commits"]) - int(before["commits"]), load,
                  gc, commit, checkpoint)  # fmt: skip


def report(r: Result) -> None:
    """Print one line of figures with what they compare."""
    n = len(r.stats.latencies)
    p50, p99 = r.quantile(0.50), r.quantile(0.99)
    verdict = "met" if p99 < TARGET_P99 else "NOT MET"
    per_table_minute = r.stats.rounds / r.tables / (r.seconds / 60) if r.tables else 0.0
    print(
        f"{r.backend:<10} {r.mode:<10} run {r.run} tables {r.tables:4d}  rounds/table-min "
        f"{per_table_minute:4.2f}  player actions {n / r.seconds:7.1f}/s  "
        f"p50 {p50 * 1000:7.1f} ms  p99 {p99 * 1000:7.1f} ms "
        f"(p99/100 ms = {p99 / TARGET_P99:5.2f}, {verdict})  "
        f"events {r.events / r.seconds:7.1f}/s  commits {r.commits / r.seconds:7.1f}/s  "
        f"errors {len(r.stats.errors)}  load {r.load:.1f}"
    )
    if r.mode == FLAT.name:
        rounds = r.stats.rounds / (r.seconds / 60)
        print(f"{'':<21} {rounds:.0f} rounds a minute in all: at most about that many tables at "
              f"one round a minute, {rounds / max(1, r.tables):.1f}x the {r.tables} here")  # fmt: skip
    sweep = {SWEEP: "a sweep, the frozen heap included"}
    print(f"{'':<21} server GC pauses {r.gc.text(r.seconds, 'generation', sweep)}")
    if r.commit is not None:
        print(f"{'':<21} group COMMITs    {r.commit.text(r.seconds, 'group of')}")
    if r.checkpoint is not None:
        print(f"{'':<21} checkpoints      {r.checkpoint.text(r.seconds, 'log pages')}")
    if r.stats.errors:
        print(f"           first error: {r.stats.errors[0]}")


def compare(results: list[Result]) -> None:
    """SQLite against PostgreSQL in the same mode, same tables, same bots, run by run; then each
    backend's p99 against the target over its consecutive runs."""
    by = {(r.backend, r.mode, r.run): r for r in results}
    for mode in (REAL.name, FLAT.name):
        for run in sorted({r.run for r in results}):
            s, p = by.get(("sqlite", mode, run)), by.get(("postgresql", mode, run))
            if s is None or p is None:
                continue
            sp, pp = s.quantile(0.99), p.quantile(0.99)
            sa, pa = len(s.stats.latencies) / s.seconds, len(p.stats.latencies) / p.seconds
            print(
                f"{mode} run {run}: PostgreSQL/SQLite  p99 {pp / sp:5.2f}x   "
                f"player actions/s {pa / sa:5.2f}x   "
                f"commits/s {(p.commits / p.seconds) / max(1e-9, s.commits / s.seconds):5.2f}x"
            )
    for backend in ("sqlite", "postgresql"):
        for mode in (REAL.name, FLAT.name):
            runs = [r for r in results if r.backend == backend and r.mode == mode]
            if len(runs) > 1:
                p99s = ", ".join(f"{r.quantile(0.99) * 1000:.1f}" for r in runs)
                met = sum(r.quantile(0.99) < TARGET_P99 for r in runs)
                print(f"{backend} {mode}: p99 under 100 ms in {met} of {len(runs)} consecutive "
                      f"runs (p99 {p99s} ms)")  # fmt: skip


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--tables", type=int, default=500, help="tables (default 500)")
    parser.add_argument("--players", type=int, default=50, help="bot accounts (default 50)")
    parser.add_argument("--seconds", type=float, default=90, help="table-pace window (90)")
    parser.add_argument("--flat-seconds", type=float, default=30, help="flat-out window (30)")
    parser.add_argument("--backends", default="sqlite,postgresql", help="sqlite,postgresql")
    parser.add_argument("--modes", default="pace,flat", help="pace,flat")
    parser.add_argument("--runs", type=int, default=1, help="runs of each, one after another (1)")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 2000 or not 1 <= args.players <= min(args.tables, 500):
        parser.error("--tables must be 1 to 2000 and --players 1 to min(tables, 500)")
    if not 1 <= args.seconds <= 600 or not 1 <= args.flat_seconds <= 600:
        parser.error("--seconds and --flat-seconds must be 1 to 600")
    if not 1 <= args.runs <= 5:
        parser.error("--runs must be 1 to 5")
    modes = {"pace": (REAL, args.seconds), "flat": (FLAT, args.flat_seconds)}
    print(f"felt serve under load: {args.tables} Boston 5 tables, {args.players} bot players "
          f"({math.ceil(args.tables / args.players)} tables each, one seat per table), "
          f"bots and server on this machine's {os.cpu_count()} cores")  # fmt: skip
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="felt-load-") as tmp:
        work = Path(tmp)
        for backend in args.backends.split(","):
            for key in args.modes.split(","):
                mode, seconds = modes[key]
                for run in range(1, args.runs + 1):
                    with fresh_database(backend, work, POSTGRES_URL) as url:
                        if url is None:
                            break
                        one = await measure(
                            backend, url, mode, args.tables, args.players, seconds, work
                        )
                    one.run = run
                    report(one)  # as it comes: a long run shows its figures early
                    results.append(one)
    print()
    print("each action is acknowledged only after its commit; latency: bot send to ack; load: "
          "the machine's load average (bots, server and any other work on its cores); GC pauses "
          "and COMMITs (with their fsync) as the server timed them in the window")  # fmt: skip
    for r in results:
        report(r)
    compare(results)


if __name__ == "__main__":
    asyncio.run(main())
