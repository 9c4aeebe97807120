"""Craps's exact analysis (``felt.games.craps.analysis``): every wager of the default table (53 rows:
line wagers, place to win and to lose, buy, lay, hardways, one roll wagers, the odds) solved from
the 36 throws, timed beside a peer measured in the same run doing the same job less well: a
vectorised numpy Monte Carlo of the pass line's house edge over 10,000,000 decisions, which gets
one figure to about three decimal places (its standard error printed) where the exact solve gets
all of them exactly.  Like with like: the exact solve of the pass line alone is timed too, and
the ratio printed is the Monte Carlo's time over it; the bench checks the exact edge lies within
three standard errors of the Monte Carlo's.  Run with ``./dev bench craps_speed``.
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from felt.games.craps.analysis import line_rule, solve, wager_figures
from felt.games.craps.config import CrapsConfig

SEED = 20261127
DECISIONS = 10_000_000


def shortest(run: object, times: int = 5) -> float:
    """The least wall time of ``times`` calls of ``run`` (the machine is shared)."""
    assert callable(run)
    took = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        took.append(time.perf_counter() - start)
    return min(took)


def pass_line_monte_carlo(n: int, seed: int) -> NDArray[np.int8]:
    """``n`` pass line decisions (net per unit), thrown with numpy and settled a roll at a time
    for the decisions still waiting on their point."""
    rng = np.random.default_rng(seed)
    first = rng.integers(1, 7, n, dtype=np.int8) + rng.integers(1, 7, n, dtype=np.int8)
    net = np.zeros(n, dtype=np.int8)
    net[(first == 7) | (first == 11)] = 1
    net[(first == 2) | (first == 3) | (first == 12)] = -1
    live = np.flatnonzero(net == 0)
    point = first[live]
    while live.size:
        t = rng.integers(1, 7, live.size, dtype=np.int8) + rng.integers(
            1, 7, live.size, dtype=np.int8
        )
        won, lost = t == point, t == 7
        net[live[won]] = 1
        net[live[lost]] = -1
        keep = ~(won | lost)
        live, point = live[keep], point[keep]
    return net


def main() -> None:
    config = CrapsConfig.from_mapping({})
    every = shortest(lambda: wager_figures(config))
    one = shortest(lambda: solve(line_rule(True, Fraction(1))))
    exact = -solve(line_rule(True, Fraction(1))).net
    start = time.perf_counter()
    nets = pass_line_monte_carlo(DECISIONS, SEED)
    mc = time.perf_counter() - start
    edge = -float(nets.mean())
    se = float(nets.std(ddof=1)) / np.sqrt(DECISIONS)
    inside = abs(edge - float(exact)) <= 3 * se
    rows = len(wager_figures(config))
    print(
        f"craps exact analysis, every wager ({rows} rows) of the default table: {every * 1000:.2f} ms"
    )
    print(f"craps exact pass line edge {exact} = {float(exact) * 100:.6f}%: {one * 1e6:.0f} us")
    print(f"numpy Monte Carlo, {DECISIONS:,} pass decisions: {mc:.2f} s, edge "
          f"{edge * 100:.4f}% +- {se * 100:.4f}% (one standard error); exact "
          f"{'within' if inside else 'OUTSIDE'} 3 standard errors")  # fmt: skip
    print(f"Monte Carlo time / exact time, pass line: {mc / one:,.0f}x; / every wager exactly: "
          f"{mc / every:,.0f}x")  # fmt: skip


if __name__ == "__main__":
    main()
