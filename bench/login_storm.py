"""A log-in storm beside the cashier's deposits on a real ``felt serve`` (issue 18, item 3): the
p50 and p99 latency of a deposit (send to acknowledgement, committed) while nobody logs in, then
while ``--clients`` clients log in back to back, on SQLite and on PostgreSQL; printed with the
storm's p50 as a ratio to the quiet p50 of the same run and database.

Each log-in checks an argon2id hash (tens of ms of CPU).  Before issue 18 the check ran inside
the write transaction, so on SQLite, where one writer writes at a time, every deposit queued
behind whole hashes (8 ms to 2 s p50).  The storm still takes CPU from the deposits (the client
and the server share this machine's cores), so a ratio somewhat above 1 is CPU, not the write
turn.  Only 127.0.0.1 is contacted.  Run with ``./dev bench login_storm`` (``--help``).
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' server helpers
from tests.server_process import ServeProcess, fresh_database

POSTGRES_URL = os.environ.get("FELT_POSTGRES_URL", "postgresql://127.0.0.1:5432/test")
ADMIN_PASSWORD = "bench-admin-password"
TABLES = '[[table]]\nid = "b5-1"\ngame = "boston5"\n'


def _ok(r: httpx.Response) -> httpx.Response:
    if r.status_code != 200:
        raise SystemExit(f"login_storm: {r.request.url.path} answered {r.status_code}: {r.text}")
    return r


def deposits(client: httpx.Client, cage: str, count: int) -> list[float]:
    """``count`` deposits of $1.00 one after another; each one's latency in seconds."""
    out = []
    for _ in range(count):
        body = {"player": "pat", "amount": "1.00", "key": secrets.token_hex(8)}
        t0 = time.perf_counter()
        _ok(client.post("/api/cashier/deposit", json=body, headers={"Authorization": cage}))
        out.append(time.perf_counter() - t0)
    return out


def p(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values``."""
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


def run(backend: str, url: str, workdir: Path, clients: int, count: int) -> None:
    tables = workdir / "tables.toml"
    tables.write_text(TABLES)
    server = ServeProcess(url, tables, workdir / f"{backend}.log", ADMIN_PASSWORD)
    server.start()
    try:
        base = f"http://{server.name}"
        with httpx.Client(base_url=base, timeout=120) as c:
            admin = _ok(c.post("/api/login", json={"name": "admin", "password": ADMIN_PASSWORD}))
            auth = {"Authorization": f"Bearer {admin.json()['token']}"}
            names = ["cage", "pat", *(f"storm{i}" for i in range(clients))]
            for name in names:
                role = "cashier" if name == "cage" else "player"
                body = {"name": name, "role": role, "password": f"{name}-password"}
                _ok(c.post("/api/accounts", json=body, headers=auth))
            cage = _ok(c.post("/api/login", json={"name": "cage", "password": "cage-password"}))
            bearer = f"Bearer {cage.json()['token']}"
            deposits(c, bearer, 20)  # warm up
            quiet = deposits(c, bearer, count)
            stop = threading.Event()
            logins = [0] * clients

            def storm(i: int) -> None:
                with httpx.Client(base_url=base, timeout=120) as s:
                    body = {"name": f"storm{i}", "password": f"storm{i}-password"}
                    while not stop.is_set():
                        _ok(s.post("/api/login", json=body))
                        logins[i] += 1

            threads = [threading.Thread(target=storm, args=(i,)) for i in range(clients)]
            for t in threads:
                t.start()
            time.sleep(1.0)  # the storm under way
            t0 = time.perf_counter()
            stormy = deposits(c, bearer, count)
            seconds = time.perf_counter() - t0
            done = sum(logins)
            stop.set()
            for t in threads:
                t.join()
    finally:
        server.stop()
    q50, s50 = p(quiet, 0.5), p(stormy, 0.5)
    print(
        f"{backend:<10}  quiet deposit  p50 {q50 * 1000:7.1f} ms  p99 {p(quiet, 0.99) * 1000:7.1f} ms"
    )
    print(f"{'':<10}  {clients} logging in  p50 {s50 * 1000:7.1f} ms  p99 "
          f"{p(stormy, 0.99) * 1000:7.1f} ms  ({done} log-ins in the storm, "
          f"about {done / seconds:.0f}/s after the first second)")  # fmt: skip
    print(f"{'':<10}  deposit p50 during the storm / quiet p50: {s50 / q50:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8, help="clients logging in (8)")
    parser.add_argument("--deposits", type=int, default=200, help="deposits per phase (200)")
    parser.add_argument("--backends", default="sqlite,postgresql", help="(sqlite,postgresql)")
    args = parser.parse_args()
    if not 1 <= args.clients <= 64 or not 20 <= args.deposits <= 10000:
        raise SystemExit("login_storm: --clients must be 1 to 64, --deposits 20 to 10000")
    print(f"deposit latency (one cashier, {args.deposits} deposits a phase) quiet against beside "
          f"a log-in storm of {args.clients} clients; same server, same database, same run")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for backend in args.backends.split(","):
            if backend not in ("sqlite", "postgresql"):
                raise SystemExit(f"login_storm: unknown back end {backend!r}")
            with fresh_database(backend, Path(tmp), POSTGRES_URL) as url:
                if url is not None:
                    run(backend, url, Path(tmp), args.clients, args.deposits)


if __name__ == "__main__":
    main()
