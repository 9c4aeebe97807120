"""Exact analysis times from a cold process and from a fresh process on warm caches: Boston 5
(targets: cold under 5 s, warm under 2 s), Double Down Stud (under 10 s), Three Card Poker (the
analysis under 0.5 s cold, printed by the child; the whole process under 1.5 s), Caribbean Stud
(cold under 10 s, warm under 1 s; its own bench, ``caribbean_speed``, compares it with a count in
C) and Boston 7 (targets: cold under 30 s on two cores and 1 GB at most, warm under 1 s; the
job ``boston7-ratio1`` does one wager ratio, ``boston7`` both), each run in a fresh Python
process so compilation, table building and the cached counts all count.  Each line prints the
load average beside it and the child's peak resident memory.

The peer measured in the same run is a plain count of the work: the time to evaluate as many
random five-card hands through felt's batch evaluator as dealing out Double Down Stud would look
up (52 x C(51,3) x 48), which the analysis must not be much slower than (it counts by suit class,
so it looks up far fewer).  For Boston 7 the peer's
rate also says how long dealing out every pair of seven-card hands (C(52,7) x C(45,7)) would take.
Run with ``./dev bench analysis_speed``; name jobs to run only those (``./dev bench analysis_speed
boston5 double-down-stud``: a job runs when its name starts with one of the words given).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

from felt.core.batch import rank_batch

JOBS = {
    "boston5 (nj-19-47-24)": (
        "from felt.games.boston.analysis import analyze_boston5;"
        "from felt.games.boston.config import TableConfig;"
        "analyze_boston5(TableConfig.from_mapping({'game': 'boston5'}))",
        (5.0, 2.0),
    ),
    "double-down-stud": (
        "from felt.games.double_down.analysis import analyze_double_down;"
        "from felt.games.double_down import DoubleDownConfig;"
        "analyze_double_down(DoubleDownConfig.from_mapping({}))",
        (10.0, 10.0),
    ),
    "three-card-poker": (
        "import time;"
        "from felt.games.registry import table_game;"
        "g = table_game('three-card-poker'); c = g.config('three-card-poker', {});"
        "t = time.perf_counter(); g.analyze('three-card-poker', c, None);"
        "print(f'  three-card-poker: the analysis itself {time.perf_counter() - t:.3f} s "
        "(target 0.5 s), after the imports')",
        (1.5, 1.5),
    ),
    "caribbean_stud (all 19.9 trillion deals)": (
        "from felt.games.caribbean_stud.analysis import analyze;"
        "from felt.games.caribbean_stud.config import CaribbeanConfig;"
        "analyze(CaribbeanConfig.from_mapping({}))",
        (10.0, 1.0),
    ),
    "boston7 (ratios 1 and 2)": (
        "from felt.games.boston.analysis import analyze_boston7;"
        "from felt.games.boston.config import TableConfig;"
        "[analyze_boston7(TableConfig.from_mapping({'game': 'boston7', 'first_ratio': r}))"
        " for r in (1, 2)]",
        (30.0, 1.0),
    ),
    "boston7-ratio1": (
        "from felt.games.boston.analysis import analyze_boston7;"
        "from felt.games.boston.config import TableConfig;"
        "analyze_boston7(TableConfig.from_mapping({'game': 'boston7'}))",
        (30.0, 1.0),
    ),
}
SEVEN_PAIRS = 133_784_560 * 45_379_620


def main(only: list[str]) -> None:
    jobs = {name: job for name, job in JOBS.items() if not only or name.startswith(tuple(only))}
    if not jobs:
        raise SystemExit(f"no job starts with {' or '.join(only)}; jobs: {', '.join(JOBS)}")
    rng = np.random.default_rng(1)
    n = 52 * 20825 * 48
    pool = np.argsort(rng.random((1 << 16, 52)), axis=1)[:, :5].astype(np.uint8)
    hands = pool[rng.integers(0, len(pool), n)]
    rank_batch(hands[:10])
    start = time.perf_counter()
    rank_batch(hands, check=False)
    peer = time.perf_counter() - start
    print(f"peer: {n:,} batch evaluations in {peer:.2f} s")
    days = SEVEN_PAIRS / (n / peer) / 86400
    print(f"peer rate applied to Boston 7 by dealing: {SEVEN_PAIRS:.3e} pairs, {days:,.0f} days")
    for name, (code, targets) in jobs.items():
        with tempfile.TemporaryDirectory() as scratch:
            # cold: nothing compiled or cached (numba compiles, felt builds its tables and any
            # counts); warm: a fresh process on the caches the cold run left
            env = dict(os.environ)
            env |= {"NUMBA_CACHE_DIR": f"{scratch}/numba", "FELT_CACHE_DIR": f"{scratch}/felt"}
            for cold, target in zip((True, False), targets, strict=True):
                start, cpu = time.perf_counter(), _child_cpu()
                # the child's own peak (VmHWM, kB): ru_maxrss would count this process's size
                # as the child was forked from it
                peak_rss = "print(next(x.split()[1] for x in open('/proc/self/status') if x.startswith('VmHWM')))"  # fmt: skip
                child = [sys.executable, "-c", f"{code}; {peak_rss}"]
                run = subprocess.run(child, check=True, env=env, stdout=subprocess.PIPE, text=True)
                took, cpu = time.perf_counter() - start, _child_cpu() - cpu
                *out, peak = run.stdout.splitlines()
                for line in out:  # what the child printed itself
                    print(line)
                verdict = "met" if took < target else "NOT MET"
                how = "cold start (no caches)" if cold else "fresh process, warm caches"
                load = os.getloadavg()[0]
                print(f"{name:<24} {how:<27} {took:7.2f} s (target {target:g} s: {verdict}); "
                      f"{took / peer:.1f}x the peer; cpu {cpu:.2f} s; peak RSS "
                      f"{int(peak) / 1024:.0f} MB; load {load:.2f}")  # fmt: skip


def _child_cpu() -> float:
    """CPU seconds used so far by finished child processes: on a machine shared with other work
    the wall time above can be well over the work done, and this says how much."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main(sys.argv[1:])
