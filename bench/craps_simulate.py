"""Craps simulation (a whole table of betting systems, one roll a round): the fast path's rolls per
second beside the round engine's on the same throws with the same systems, at one seat (pass
with full odds) and at seven (every system of ``felt.games.craps.simulation.SYSTEMS``), the two
paths' nets compared roll by roll; then 1,000,000 rolls at seven seats through ``felt.simulate``
against the exact loss per roll.  Both paths are plain Python on one core; the fast path keeps
each seat's wagers as a dict of cents, the engine plays every roll as a round (actions, ledger,
statement lines).  Run with ``./dev bench craps_simulate``.
"""

from __future__ import annotations

import time

import numpy as np

from felt.games.craps.config import CrapsConfig
from felt.games.craps.simulation import engine_nets, play, systems_for
from felt.simulate import simulate

SEED = 20261127
FAST_ROLLS = 200_000
ENGINE_ROLLS = 3_000


def main() -> None:
    config = CrapsConfig.from_mapping({})
    rng = np.random.default_rng(SEED)
    throws = [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(FAST_ROLLS, 2))]
    for seats in (1, 7):
        systems = systems_for(seats)
        start = time.perf_counter()
        play(config, throws, systems)
        fast = FAST_ROLLS / (time.perf_counter() - start)
        part = throws[:ENGINE_ROLLS]
        start = time.perf_counter()
        reference = engine_nets(config, part, systems)
        engine = ENGINE_ROLLS / (time.perf_counter() - start)
        same = play(config, part, systems) == reference
        label = f"craps, {seats} seat(s)"
        print(f"{label}: fast path, one core          {fast:>10,.0f} rolls/s")
        print(f"{label}: round engine, same throws    {engine:>10,.0f} rolls/s "
              f"({ENGINE_ROLLS:,} rolls; nets {'identical' if same else 'DIFFER'})")  # fmt: skip
        print(f"{label}: fast path / engine, per roll: {fast / engine:,.1f}x")
    rolls = 1_000_000
    start = time.perf_counter()
    data = simulate(config, rolls, seats=7, seed=SEED).to_json()
    took = time.perf_counter() - start
    lo, hi = data["ci95"]
    print(f"craps {rolls:,} rolls x 7 seats via felt.simulate in {took:.1f} s "
          f"({rolls / took:,.0f} rolls/s): loss per roll per unit {data['house_edge'] * 100:.4f}%, "
          f"95% CI [{lo * 100:.4f}%, {hi * 100:.4f}%], exact {data['exact_house_edge'] * 100:.4f}%: "
          f"{'inside' if data['within_ci'] else 'OUTSIDE'}")  # fmt: skip


if __name__ == "__main__":
    main()
