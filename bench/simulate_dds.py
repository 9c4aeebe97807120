"""Double Down Stud simulation: the compiled fast path's rounds per second beside the round
engine's, measured in the same run on the same decks (the first decks of the fast path's own
first block), at one and at seven betting areas; then 10 million rounds at one area against the
exact house edge.  The fast path's figure is per round of a batch (dealing, deciding and settling
blocks of 16,384 rounds; best of three runs); the engine's is per round played one at a time with
the suggested play.
Run with ``./dev bench simulate_dds``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import numpy as np

from felt.games.double_down import DoubleDownConfig
from felt.simulate import (
    BLOCK,
    Job,
    _fast_path,
    block_seed,
    cards_needed,
    deal_decks,
    engine_nets,
    run_blocks,
    simulate,
)

SEED = 20261125
FAST_BLOCKS = 64
"""Blocks the fast path is timed on (about a million rounds)."""
ENGINE_ROUNDS = {1: 2000, 7: 400}
"""Rounds the engine is timed on, per number of areas: the first decks of block 0."""


def best_of(run: Callable[[], object], times: int = 3) -> float:
    """The shortest of ``times`` wall times of ``run`` (the machine is shared: the least
    disturbed run is the closest to the code's own speed)."""
    took = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        took.append(time.perf_counter() - start)
    return min(took)


def main() -> None:
    config = DoubleDownConfig.from_mapping({})
    simulate(config, BLOCK, seats=7, seed=0)  # compile, read or build the decision table
    for seats in (1, 7):
        job = Job(config, config.minimum, seats, SEED, FAST_BLOCKS * BLOCK)
        fast = job.rounds / best_of(partial(run_blocks, job, range(FAST_BLOCKS)))
        count = ENGINE_ROUNDS[seats]
        decks = deal_decks(block_seed(SEED, 0), BLOCK, cards_needed(config, seats))[:count]
        start = time.perf_counter()
        reference = engine_nets(config, decks, seats)
        engine = count / (time.perf_counter() - start)
        _, names, settle = _fast_path(job)
        same = np.array_equal(
            settle(decks, np.zeros((1, len(names), 4), dtype=np.int64)), reference
        )
        print(
            f"double-down-stud, {seats} area(s): fast path (batch), one core {fast:>12,.0f} rounds/s"
        )
        print(f"double-down-stud, {seats} area(s): round engine, same decks   {engine:>12,.0f} rounds/s "
              f"({count:,} rounds; nets {'identical' if same else 'DIFFER'})")  # fmt: skip
        print(
            f"double-down-stud, {seats} area(s): batch fast path vs engine, per round: {fast / engine:,.0f}x"
        )
    rounds = 10_000_000
    start = time.perf_counter()
    result = simulate(config, rounds, seats=1, seed=SEED)
    took = time.perf_counter() - start
    data = result.to_json()
    lo, hi = data["ci95"]
    print(f"double-down-stud 10,000,000 rounds via felt.simulate in {took:.1f} s "
          f"({rounds / took:,.0f} rounds/s): house edge {data['house_edge'] * 100:.4f}%, "
          f"95% CI [{lo * 100:.4f}%, {hi * 100:.4f}%], exact {data['exact_house_edge'] * 100:.4f}%: "
          f"{'inside' if data['within_ci'] else 'OUTSIDE'}")  # fmt: skip


if __name__ == "__main__":
    main()
