"""Start-up of `felt simulate`, each figure beside a peer measured in the same run:

1. ``felt simulate boston5 --rounds 1000`` wall time in a fresh process on warm caches (target:
   under 1.5 s), beside a fresh process that only imports what any simulation needs (numpy and
   numba), the floor no start-up can go below.
2. ``felt simulate boston5 --rounds N --workers 2`` against ``--workers 1``: wall time and the CPU
   time of the whole process tree (the parent and its workers), so that what the second worker
   costs beyond the first shows as the CPU the two-worker run takes beyond the one-worker run
   (issue 25: the start-up is paid once, not once per worker).
3. The start-up of one worker, timed inside it (from its first task's start until the fast path
   is built and one round settled): in a worker forked from a parent that has not loaded the
   game's kernels (as every worker was before issue 25) against one forked after the parent ran
   one round (as :func:`felt.simulate._run_pool` now does before it forks its workers).

Whole-process figures are the best of several runs.  Run with ``./dev bench simulate_start``
(``--rounds`` for part 2, ``--runs`` for the repeats).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

SIMULATE = [sys.executable, "-m", "felt", "simulate", "boston5", "--seed", "1"]
PEER = [sys.executable, "-c", "import numpy, numba"]


def run_once(argv: list[str]) -> tuple[float, float]:
    """Wall seconds of one run of a command (output discarded) and the CPU seconds (user and
    system) of it and every process it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def best_of(argv: list[str], runs: int) -> tuple[float, float]:
    """The shortest wall time and the smallest CPU time of ``runs`` runs of a command."""
    results = [run_once(argv) for _ in range(runs)]
    return min(w for w, _ in results), min(c for _, c in results)


def worker_start(job: Any) -> float:
    """Seconds a worker takes from its task's start until it has settled one round of ``job``
    (the fast path built: the game's tables and compiled kernels loaded)."""
    from felt.simulate import run_blocks

    start = time.perf_counter()
    run_blocks(job, [0])
    return time.perf_counter() - start


BARRIER: Any = None
"""Set before forking: each worker waits at it before it starts, so no worker takes two tasks."""


def _after_barrier(job: Any) -> float:
    BARRIER.wait()
    return worker_start(job)


def fresh_workers(job: Any, workers: int) -> list[float]:
    """:func:`worker_start` in each of ``workers`` new processes forked from this one."""
    global BARRIER
    context = multiprocessing.get_context("fork")
    BARRIER = context.Barrier(workers)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(_after_barrier, [job] * workers))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200_000, help="rounds for part 2")
    parser.add_argument("--runs", type=int, default=3, help="runs of each command (best kept)")
    args = parser.parse_args()

    # 1. one worker, a thousand rounds, against importing numpy and numba
    small = [*SIMULATE, "--rounds", "1000"]
    subprocess.run(small, check=True, stdout=subprocess.DEVNULL)  # warm every cache
    took, _ = best_of(small, max(args.runs, 5))
    peer, _ = best_of(PEER, max(args.runs, 5))
    verdict = "met" if took < 1.5 else "NOT MET"
    print(f"load average at the start: {os.getloadavg()}")
    print(f"felt simulate boston5 --rounds 1000, warm   {took:6.2f} s (target 1.5 s: {verdict})")
    print(
        f"peer: python importing numpy and numba      {peer:6.2f} s (simulate is {took / peer:.1f}x)"
    )

    # 2. two workers against one
    big = [*SIMULATE, "--rounds", str(args.rounds)]
    one_wall, one_cpu = best_of([*big, "--workers", "1"], args.runs)
    two_wall, two_cpu = best_of([*big, "--workers", "2"], args.runs)
    print(
        f"felt simulate boston5 --rounds {args.rounds:,} (load average {os.getloadavg()[0]:.2f}):"
    )
    print(f"  --workers 1: {one_wall:6.2f} s wall, {one_cpu:6.2f} s CPU (parent and workers)")
    print(f"  --workers 2: {two_wall:6.2f} s wall, {two_cpu:6.2f} s CPU (parent and workers)")
    print(
        f"  --workers 2 / --workers 1: wall {two_wall / one_wall:.2f}x; "
        f"CPU beyond one worker's run {two_cpu - one_cpu:+.2f} s"
    )

    # 3. one worker's start-up, forked before and after the parent loaded the fast path
    from felt.games.boston.config import TableConfig
    from felt.simulate import Job, simulation_of

    config = TableConfig.from_mapping({"game": "boston5"})
    sim = simulation_of(config)
    job = replace(Job(config, config.minimum, 1, 1, 1, None), plan=sim.plan(config.minimum, None))
    cold = fresh_workers(job, 2)
    worker_start(job)  # what _run_pool does in the parent before it forks: one round
    warm = fresh_workers(job, 2)
    print(f"one worker's start-up, timed inside it (load average {os.getloadavg()[0]:.2f}):")
    print(f"  forked before the parent loaded the fast path (as before): {min(cold):8.4f} s")
    print(f"  forked after the parent ran one round (as now):            {min(warm):8.4f} s")
    print(f"  before / now: {min(cold) / min(warm):,.0f}x")


if __name__ == "__main__":
    main()
