"""Craps simulation (a whole table of betting systems, one roll a round): the fast path's rolls per
second beside the round engine's on the same throws with the same systems, at one seat (pass
with full odds) and at ten (every system of ``felt.games.craps.simulation.SYSTEMS``, a seat each),
the two paths' nets compared roll by roll; then 1,000,000 rolls at ten seats through ``felt.simulate``
against the exact loss per roll.  Both paths are plain Python on one core; the fast path keeps
each seat's wagers as a dict of cents, the engine plays every roll as a round (actions, ledger,
statement lines).  Run with ``./dev bench craps_simulate``.
"""

from __future__ import annotations

import time
from functools import partial

import numpy as np
from _fast_path import SEED, shortest, simulated

from felt.games.craps.config import CrapsConfig
from felt.games.craps.simulation import SYSTEMS, engine_nets, play, systems_for

FAST_ROLLS = 200_000
ENGINE_ROLLS = 3_000


def main() -> None:
    config = CrapsConfig.from_mapping({})
    rng = np.random.default_rng(SEED)
    throws = [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(FAST_ROLLS, 2))]
    for seats in (1, len(SYSTEMS)):
        systems = systems_for(seats)
        fast = FAST_ROLLS / shortest(partial(play, config, throws, systems))
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
    simulated(
        config, "craps (a round is a roll)", 1_000_000, len(SYSTEMS), "loss per roll per unit"
    )


if __name__ == "__main__":
    main()
