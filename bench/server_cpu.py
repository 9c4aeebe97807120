"""CPU per acknowledged player action of a real ``felt serve`` played flat out (issue 25,
target 1): the bots of ``bench/server_load.py`` (imported, unchanged) play Boston 5 at many tables
as fast as the server acknowledges, on SQLite and on PostgreSQL, and this bench reads CPU from
``/proc`` over a fixed window.  Printed per backend: acknowledged player actions per second, the
server process's CPU per action (user + system, all its threads), PostgreSQL's CPU per action
beside it (every ``postgres`` process: backends, WAL writer, checkpointer), the bots' own CPU per
action, table messages per action and the load average.

The peer, run the same way in the same run, is the transport floor: the same bots against a
minimal WebSocket server under the same uvicorn and websockets (no game, no database, no
authentication) that answers each action with an ack and as many table messages, of the size
the real server sent, as the real server sent per action, uncompressed as ``felt serve`` sends
them by default.  Its CPU per action is what speaking the protocol costs at all; the ratio says
how far above that floor felt's server is.

``--before REV`` runs the server of another git revision first (its ``src`` exported, imported
ahead of this checkout's), measured the same way in the same run: a before and an after.
``--profile SECONDS`` runs py-spy (non-blocking sampling) on the server after the measuring
window and prints where its CPU goes: the functions with the most samples of their own, and the
share of samples inside each layer (SQLAlchemy, the database drivers, JSON, the WebSocket
stack, the game ...).  Only 127.0.0.1 is contacted.  Run with ``./dev bench server_cpu``
(``--help`` for the options).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server_load import (
    ADMIN_PASSWORD,
    FLAT,
    POSTGRES_URL,
    Bot,
    Stats,
    make_players,
    seat,
    tables_toml,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' server helpers
from tests.server_process import ServeProcess, free_port, fresh_database

TICK = os.sysconf("SC_CLK_TCK")
TARGETS = {"sqlite": 1.5, "postgresql": 2.0}
"""Issue 25, target 1: server CPU per acknowledged action, in ms."""


def proc_cpu(pid: int) -> float:
    """Seconds of CPU (user + system) of process ``pid`` and all its threads so far (0 if it
    has gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14, 15)


def postgres_cpu() -> dict[int, float]:
    """CPU seconds so far of every process named postgres on this machine, by pid."""
    found = subprocess.run(["pgrep", "postgres"], capture_output=True, text=True).stdout.split()
    return {int(p): proc_cpu(int(p)) for p in found}


def self_cpu() -> float:
    """CPU seconds of this process (the bots) so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


@dataclass
class Window:
    """What one measuring window saw."""

    name: str
    seconds: float
    actions: int
    server: float
    postgres: float
    bots: float
    messages: int
    load: tuple[float, float, float]
    errors: list[str] = field(default_factory=list)

    def line(self) -> str:
        per = max(1, self.actions)
        target = TARGETS.get(self.name.split(" ")[0])
        ms = self.server / per * 1000
        verdict = (
            ""
            if target is None
            else f" (target {target} ms: {'met' if ms <= target else 'NOT MET'})"
        )
        return (
            f"{self.name:<18} player actions {self.actions / self.seconds:7.1f}/s  "
            f"server CPU {ms:6.3f} ms/action{verdict}  "
            f"postgres CPU {self.postgres / per * 1000:6.3f} ms/action  "
            f"bots CPU {self.bots / per * 1000:6.3f} ms/action  "
            f"server cores busy {self.server / self.seconds:4.2f}  "
            f"table messages {self.messages / per:4.1f}/action  errors {len(self.errors)}  "
            f"load {self.load[0]:.2f} {self.load[1]:.2f} {self.load[2]:.2f}"
        )


class CountingBot(Bot):
    """A :class:`server_load.Bot` that counts the table messages it receives and keeps one of
    each kind a player acts on (for the transport floor to send back)."""

    counter: Counter[str]
    samples: dict[str, dict[str, Any]]

    def seen(self, msg: dict[str, Any]) -> None:
        kind = str(msg.get("type"))
        self.counter[kind] += 1
        if kind == "table":
            mine = (msg.get("mine") or {}).get("1") or {}
            if mine.get("phase") == "betting" and not mine.get("lines"):
                self.samples.setdefault("betting", msg)
            elif any(p["election"] == "second or fold" for p in mine.get("pending", ())):
                self.samples.setdefault("second", msg)
            elif mine.get("lines"):
                self.samples.setdefault("settled", msg)
        super().seen(msg)


def make_bots(
    accounts: list[tuple[str, str]], tables: int, stats: Stats, samples: dict[str, Any]
) -> tuple[list[CountingBot], Counter[str]]:
    """One bot per account, the tables dealt round-robin, all counting into one counter."""
    ids = [f"t{i:04d}" for i in range(tables)]
    counter: Counter[str] = Counter()
    bots = []
    for i, (name, token) in enumerate(accounts):
        bot = CountingBot(name, token, ids[i :: len(accounts)], FLAT, stats)
        bot.counter, bot.samples = counter, samples
        bots.append(bot)
    return bots, counter


async def window(
    name: str, pid: int, bots: list[CountingBot], counter: Counter[str], stats: Stats,
    seconds: float, watch_postgres: bool,
) -> Window:  # fmt: skip
    """Count acknowledged actions and CPU over ``seconds``."""
    pg0 = postgres_cpu() if watch_postgres else {}
    s0, b0, m0 = proc_cpu(pid), self_cpu(), counter["table"]
    stats.measuring = True
    t0 = time.monotonic()
    await asyncio.sleep(seconds)
    stats.measuring = False
    took = time.monotonic() - t0
    s1, b1, m1 = proc_cpu(pid), self_cpu(), counter["table"]
    pg1 = postgres_cpu() if watch_postgres else {}
    pg = sum(v - pg0.get(p, 0.0) for p, v in pg1.items())
    return Window(name, took, len(stats.latencies), s1 - s0, pg, b1 - b0, m1 - m0,
                  os.getloadavg(), list(stats.errors))  # fmt: skip


@contextlib.contextmanager
def source(src: Path | None) -> Iterator[None]:
    """While a server starts: its ``felt`` imported from ``src`` (another version's ``src``
    folder, ahead of this checkout's) if given."""
    if src is None:
        yield
        return
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(src)
    try:
        yield
    finally:
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before


def export_src(rev: str, work: Path) -> Path:
    """The ``src`` folder of git revision ``rev`` of this checkout, written under ``work``."""
    root = Path(__file__).resolve().parents[1]
    out = work / f"src-{rev.replace('/', '_')}"
    out.mkdir()
    tar = subprocess.run(["git", "-C", str(root), "archive", rev, "src"], capture_output=True,
                         check=True).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(out)], input=tar, check=True)
    return out / "src"


async def felt_run(
    backend: str, url: str, args: argparse.Namespace, work: Path, samples: dict[str, Any]
) -> tuple[Window, str | None]:
    """A real ``felt serve``: seat the bots, let play settle, measure, then profile."""
    toml = work / f"tables-{backend}.toml"
    toml.write_text(tables_toml(args.tables, FLAT))
    server = ServeProcess(url, toml, work / f"serve-{backend}.log", ADMIN_PASSWORD)
    with source(args.src):
        server.start(seconds=180)
    profile = None
    try:
        assert server.proc is not None
        stats = Stats()
        accounts = await make_players(server.name, args.players)
        bots, counter = make_bots(accounts, args.tables, stats, samples)
        stop = asyncio.Event()
        runs = [asyncio.create_task(b.run(server.name, stop)) for b in bots]
        await asyncio.sleep(1)
        await seat(server.name, list[Bot](bots), 0)
        await asyncio.sleep(args.settle)
        result = await window(backend, server.proc.pid, bots, counter, stats, args.seconds,
                              backend == "postgresql")  # fmt: skip
        if args.profile:
            name = backend + ("-before" if args.label else "")
            profile = await asyncio.to_thread(py_spy, server.proc.pid, args.profile, work, name)
        stop.set()
        for outcome in await asyncio.gather(*runs, return_exceptions=True):
            if isinstance(outcome, BaseException):
                result.errors.append(f"a bot's connection failed: {outcome!r}"[:200])
    finally:
        server.stop()
    return result, profile


# ----------------------------------------------------------------- the transport floor
def floor_app(samples: dict[str, Any], per_action: int) -> Any:
    """A bare ASGI WebSocket app speaking felt's table protocol from canned messages: each
    action is answered with an ack and ``per_action`` table messages (the sampled views of the
    real server, their round renamed so the bots play on)."""

    def view(kind: str, table: str, rnd: str) -> str:
        return json.dumps({**samples[kind], "table": table, "round": rnd},
                          separators=(",", ":"), ensure_ascii=False)  # fmt: skip

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                kind = (await receive())["type"]
                await send({"type": f"{kind}.complete"})
                if kind == "lifespan.shutdown":
                    return
        if scope["type"] != "websocket":  # HTTP: answer the readiness probe only
            await receive()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"{}"})
            return
        rounds: dict[str, int] = {}

        async def text(s: str) -> None:
            await send({"type": "websocket.send", "text": s})

        while True:
            event = await receive()
            if event["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                continue
            if event["type"] == "websocket.disconnect":
                return
            msg = json.loads(event.get("text") or event.get("bytes") or "{}")
            if "token" in msg:
                await text(json.dumps({"type": "hello", "name": "bot", "role": "player"}))
            elif "subscribe" in msg:
                t = str(msg["subscribe"])
                rounds[t] = 1
                await text(view("betting", t, f"{t}-1"))
            elif "action" in msg:
                t, n = str(msg["table"]), rounds[str(msg["table"])]
                rnd = f"{t}-{n}"
                await text(json.dumps({"type": "ack", "key": msg["key"], "table": t,
                                       "round": rnd, "seq": 1, "action": msg["action"]["action"]}))  # fmt: skip
                if msg["action"]["action"] == "wager":
                    for _ in range(per_action):
                        await text(view("second", t, rnd))
                else:
                    for _ in range(per_action - 1):
                        await text(view("settled", t, rnd))
                    rounds[t] = n + 1
                    await text(view("betting", t, f"{t}-{n + 1}"))

    return app


def serve_floor(port: int, samples_file: str, per_action: int) -> None:
    """Run the transport floor on ``port`` (in its own process) until terminated."""
    import uvicorn

    samples = json.loads(Path(samples_file).read_text())
    uvicorn.run(floor_app(samples, per_action), host="127.0.0.1", port=port,
                log_level="warning", ws_max_size=65536, ws_per_message_deflate=False)  # fmt: skip


async def floor_run(args: argparse.Namespace, work: Path, samples: dict[str, Any],
                    per_action: int) -> Window:  # fmt: skip
    """The same bots against the transport floor, measured the same way."""
    samples_file = work / "samples.json"
    samples_file.write_text(json.dumps(samples))
    port = free_port()
    proc = subprocess.Popen([sys.executable, __file__, "--floor-server", str(port),
                             str(samples_file), str(per_action)])  # fmt: skip
    try:
        import httpx

        end = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                    break
            if time.monotonic() > end or proc.poll() is not None:
                raise SystemExit("server_cpu: the transport floor did not start")
            await asyncio.sleep(0.1)
        stats = Stats()
        accounts = [(f"bot{i:03d}", "token") for i in range(args.players)]
        bots, counter = make_bots(accounts, args.tables, stats, {})
        stop = asyncio.Event()
        runs = [asyncio.create_task(b.run(f"127.0.0.1:{port}", stop)) for b in bots]
        await asyncio.sleep(args.settle)
        result = await window("floor", proc.pid, bots, counter, stats, args.seconds, False)
        stop.set()
        await asyncio.gather(*runs, return_exceptions=True)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return result


# ----------------------------------------------------------------- the profile
LAYERS = (
    ("JSON encoding and decoding", ("/json/", "orjson")),
    ("SQLAlchemy", ("/sqlalchemy/",)),
    ("database drivers (sqlite3, psycopg)", ("/sqlite3/", "/psycopg/", "/psycopg_binary/")),
    ("WebSocket and HTTP stack (uvicorn, websockets, starlette, fastapi)",
     ("/uvicorn/", "/websockets/", "/starlette/", "/fastapi/", "/h11/", "/httptools/")),
    ("pydantic", ("/pydantic/", "/pydantic_core/")),
    ("felt: shuffle", ("felt/rounds/shuffle.py",)),
    ("felt: store, table host, auth", ("felt/server/store.py", "felt/server/host.py",
                                       "felt/server/auth.py")),
    ("felt: views (round views, view JSON)", ("felt/server/views.py", "felt/rounds/view_json.py",
                                              "felt/rounds/seat_view.py", "/seat_view")),
    ("felt: WebSocket handler and app", ("felt/server/app.py",)),
    ("felt: the game (rounds, games, core)", ("felt/rounds/", "felt/games/", "felt/core/")),
    ("asyncio event loop and threads", ("/asyncio/", "threading.py", "/concurrent/", "selectors")),
)  # fmt: skip
"""Each sample counts in the layer of the innermost frame that names one of these paths."""


def py_spy(pid: int, seconds: float, work: Path, name: str) -> str:
    """Sample ``pid`` with py-spy for ``seconds`` (non-blocking; only the thread holding the GIL,
    that is the Python work; idle threads dropped) and summarise the samples."""
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(exe).exists():
        return "py-spy is not installed (./dev bench installs the bench extra)"
    out = work / f"profile-{name}.txt"
    done = subprocess.run(
        [exe, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "250",
         "--nonblocking", "--gil", "--full-filenames", "--format", "raw", "--output", str(out)],
        capture_output=True, text=True,
    )  # fmt: skip
    if not out.exists():
        return f"py-spy failed: {done.stderr.strip()[-500:]}"
    keep = Path(tempfile.gettempdir()) / f"felt-server-cpu-profile-{name}.txt"
    shutil.copy(out, keep)
    return summarise(out.read_text(), keep)


def _short(frame: str) -> str:
    """``func (path/to/site-packages/pkg/mod.py:12)`` as ``func (pkg/mod.py)``."""
    name, _, where = frame.partition(" (")
    path = where.rstrip(")").rsplit(":", 1)[0]
    for cut in ("site-packages/", "/src/", "/lib/python3.11/"):
        if cut in path:
            path = path.split(cut, 1)[1]
    return f"{name} ({path})"


def summarise(raw: str, kept: Path) -> str:
    """Each layer's share of the samples, the top functions by own samples, and the felt
    functions with the most samples inside them."""
    own: Counter[str] = Counter()
    layers: Counter[str] = Counter()
    inside: Counter[str] = Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = stack.split(";")
        own[_short(frames[-1])] += n
        layer = next((name for f in reversed(frames) for name, marks in LAYERS
                      if any(m in f for m in marks)), "other")  # fmt: skip
        layers[layer] += n
        for f in {_short(f) for f in frames if "felt/" in f and "/bench/" not in f}:
            inside[f] += n

    def pct(n: int) -> str:
        return f"{100 * n / max(1, total):5.1f}%"

    out = [f"  {total} samples of the thread holding the GIL (raw stacks in {kept})",
           "  by layer (the innermost frame's):"]  # fmt: skip
    out += [f"    {pct(n)}  {layer}" for layer, n in layers.most_common()]
    out.append("  functions with the most samples of their own:")
    out += [f"    {pct(n)}  {f[:140]}" for f, n in own.most_common(20)]
    out.append("  felt functions with the most samples inside them (inclusive):")
    out += [f"    {pct(n)}  {f[:140]}" for f, n in inside.most_common(20)]
    return "\n".join(out)


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--tables", type=int, default=200, help="Boston 5 tables (default 200)")
    parser.add_argument("--players", type=int, default=25, help="bot accounts (default 25)")
    parser.add_argument("--seconds", type=float, default=20, help="measuring window (20)")
    parser.add_argument("--settle", type=float, default=8, help="play before measuring (8)")
    parser.add_argument("--backends", default="sqlite,postgresql", help="sqlite,postgresql")
    parser.add_argument("--profile", type=float, default=0,
                        help="py-spy the server this many seconds after each window (0: no)")  # fmt: skip
    parser.add_argument("--no-floor", action="store_true", help="skip the transport floor")
    parser.add_argument("--before", metavar="REV",
                        help="also run the server of git revision REV (its src), before each "
                             "backend's run of this checkout: a before figure in the same run")  # fmt: skip
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 2000 or not 1 <= args.players <= min(args.tables, 500):
        parser.error("--tables must be 1 to 2000 and --players 1 to min(tables, 500)")
    if not 1 <= args.seconds <= 600 or not 0 <= args.profile <= 600 or not 0 <= args.settle <= 120:
        parser.error("--seconds 1 to 600, --profile 0 to 600, --settle 0 to 120")
    print(f"felt serve flat out: {args.tables} Boston 5 tables, {args.players} bot players, "
          f"server and bots on this machine's {os.cpu_count()} cores; CPU from /proc")  # fmt: skip
    results: list[Window] = []
    profiles: list[tuple[str, str]] = []
    samples: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="felt-cpu-") as tmp:
        work = Path(tmp)
        versions: list[tuple[str, Path | None]] = [("", None)]
        if args.before:
            versions.insert(0, (f" ({args.before})", export_src(args.before, work)))
        for backend in args.backends.split(","):
            for label, src in versions:
                with fresh_database(backend, work, POSTGRES_URL) as url:
                    if url is None:
                        continue
                    args.src, args.label = src, label
                    result, profile = await felt_run(backend, url, args, work, samples)
                    result.name += label
                    results.append(result)
                    print(result.line(), flush=True)
                    if profile is not None:
                        profiles.append((backend + label, profile))
        if not args.no_floor and results and {"betting", "second", "settled"} <= set(samples):
            # as many messages an action as this checkout's server sent (not a --before run's)
            mine = next((r for r in results if args.before is None
                         or not r.name.endswith(f"({args.before})")), results[0])  # fmt: skip
            per_action = max(1, round(mine.messages / max(1, mine.actions)))
            floor = await floor_run(args, work, samples, per_action)
            results.append(floor)
            print(floor.line(), flush=True)
    print()
    print("server CPU: user+system of the serving process and all its threads over the window, "
          "per acknowledged player action (each acknowledged after its commit); postgres: every "
          "postgres process on the machine; floor: the same bots against a bare uvicorn "
          "WebSocket app sending the same number of table messages of the same size per action "
          "(no game, no database)")  # fmt: skip
    floor_ms = next((r.server / max(1, r.actions) for r in results if r.name == "floor"), None)
    for r in results:
        if r.name != "floor" and floor_ms:
            ms = r.server / max(1, r.actions)
            print(f"{r.name}: server CPU per action {ms / floor_ms:5.1f}x the transport floor's")
        if r.name != "floor" and args.before and not r.name.endswith(f"({args.before})"):
            was = next((b for b in results if b.name == f"{r.name} ({args.before})"), None)
            if was is not None and r.actions and was.actions:
                print(f"{r.name}: server CPU per action {r.server / r.actions * 1000:.3f} ms now, "
                      f"{was.server / was.actions * 1000:.3f} ms at {args.before} "
                      f"(before/after {(was.server / was.actions) / (r.server / r.actions):.2f})")  # fmt: skip
        if r.errors:
            print(f"{r.name}: first error: {r.errors[0]}")
    for backend, profile in profiles:
        print(f"\nwhere the server's CPU goes ({backend}, py-spy):\n{profile}")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--floor-server":
        serve_floor(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
    else:
        asyncio.run(main())
