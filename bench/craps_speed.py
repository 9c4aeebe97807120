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
from _fast_path import shortest

from felt.games.craps.analysis import line_rule, pass_line_monte_carlo, solve, wager_figures
from felt.games.craps.config import CrapsConfig

SEED = 20261127
DECISIONS = 10_000_000


def main() -> None:
    config = CrapsConfig.from_mapping({})
    every = shortest(lambda: wager_figures(config), 5)
    one = shortest(lambda: solve(line_rule(True, Fraction(1))), 5)
    exact = -solve(line_rule(True, Fraction(1))).net
    start = time.perf_counter()
    nets = pass_line_monte_carlo(np.random.default_rng(SEED), DECISIONS)
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
