"""The crash campaign of tests/test_server_crash.py run longer: bots play at three fast tables
over HTTP while ``felt serve`` is killed with SIGKILL at random moments and restarted, every
invariant checked after each kill and restart (see tests/crash_campaign.py); prints the counts.

Beside them, the time from spawning the server to its first HTTP answer after a SIGKILL (start-up
plus recovery: rebuilding the open rounds, taking back the leases) against the peer measured in
the same run on the same database and tables: the same restart after a clean stop (SIGINT).
Nothing here is asserted.  Run with ``./dev bench server_crash [--kills N] [--backend B]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import warnings
from collections.abc import Generator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
warnings.filterwarnings("ignore", message=".*starlette.testclient")  # the tests' helpers import it

from tests.crash_campaign import ServerProcess, free_port, run_campaign  # noqa: E402
from tests.server_helpers import postgres_schema_url  # noqa: E402


def databases(backend: str, workdir: Path) -> Generator[str, None, None]:
    """One fresh database on ``backend`` (a PostgreSQL schema dropped afterwards)."""
    if backend == "sqlite":
        yield f"sqlite:///{workdir / 'felt.db'}"
    else:
        yield from postgres_schema_url()


def clean_restarts(database: str, workdir: Path, times: int) -> list[float]:
    """Seconds from spawn to the first HTTP answer, each after a clean stop of the last."""
    server = ServerProcess(database, free_port(), workdir / "tables.toml", workdir / "clean.log")
    took = []
    for _ in range(times):
        server.start()
        took.append(server.wait_ready())
        server.stop()
    return took


def campaign(backend: str, kills: int, restarts: int, seed: int | None, verbose: bool) -> None:
    """Run one back end's campaign and its peer; print both."""
    with tempfile.TemporaryDirectory(prefix=f"felt-crash-{backend}-") as tmp:
        workdir = Path(tmp)
        found = databases(backend, workdir)
        try:
            database = next(found)
        except pytest.skip.Exception as err:
            print(f"{backend}: skipped ({err})")
            return
        try:
            report = run_campaign(
                database, workdir, kills, backend, seed, say=print if verbose else None
            )
            print(report.summary())
            clean = clean_restarts(database, workdir, restarts)
        finally:
            found.close()
    after_kill = statistics.median(report.ready_after_kill)
    after_stop = statistics.median(clean)
    print(
        f"  spawn to first answer, median: after SIGKILL {after_kill:.2f} s "
        f"({len(report.ready_after_kill)} restarts), after a clean stop {after_stop:.2f} s "
        f"({len(clean)} restarts): recovery costs {after_kill / after_stop:.2f}x a clean start"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=40, help="SIGKILLs per back end (40)")
    parser.add_argument(
        "--backend", choices=["sqlite", "postgresql", "both"], default="both", help="(both)"
    )
    parser.add_argument("--restarts", type=int, default=5, help="clean restarts for the peer (5)")
    parser.add_argument("--seed", type=int, default=None, help="the campaign's random seed")
    parser.add_argument("--verbose", action="store_true", help="a line per kill and restart")
    args = parser.parse_args()
    for backend in ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]:
        campaign(backend, args.kills, args.restarts, args.seed, args.verbose)


if __name__ == "__main__":
    main()
