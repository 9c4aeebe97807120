"""What the fast-path simulation benches share (``caribbean_simulate``, ``letitride_simulate``): a
game's compiled fast path timed in rounds per second beside its round engine on the same decks
(the first decks of the fast path's first block) at one and at seven seats, the two paths' nets
compared on those decks, then 10 million rounds at one seat against the exact house edge.  The
fast path is timed on whole blocks of 16,384 rounds (dealing, deciding, settling; best of three
runs); the engine plays one round at a time, deciding by the same exact tables.  Not a bench of
its own (``./dev bench`` skips files starting with ``_``); ``craps_simulate`` (a dice game, no
decks) takes its timing and its ``felt.simulate`` line."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

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
    simulation_of,
)

SEED = 20261127
FAST_BLOCKS = 64
"""Blocks the fast path is timed on (about a million rounds)."""
ENGINE_ROUNDS = {1: 2000, 7: 500}
"""Rounds the engine is timed on, per number of seats."""


def shortest(run: Callable[[], object], times: int = 3) -> float:
    """The least wall time of ``times`` runs of ``run`` (the machine is shared)."""
    took = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        took.append(time.perf_counter() - start)
    return min(took)


def compare(config: Any, name: str, per: str, extra: Callable[[dict[str, Any]], str]) -> None:
    """Print the figures for tables of ``config`` (the game's id ``name``), the house edge ``per``
    its unit, and ``extra`` of the simulation's JSON after the last line."""
    simulate(config, BLOCK, seats=7, seed=0)  # compile the fast path; count the tables
    sim = simulation_of(config)
    for seats in (1, 7):
        job = Job(config, config.minimum, seats, SEED, FAST_BLOCKS * BLOCK,
                  sim.plan(config.minimum, None))  # fmt: skip
        fast = job.rounds / shortest(partial(run_blocks, job, range(FAST_BLOCKS)))
        count = ENGINE_ROUNDS[seats]
        decks = deal_decks(block_seed(SEED, 0), BLOCK, cards_needed(config, seats))[:count]
        strategy = sim.strategy(job)
        start = time.perf_counter()
        reference = engine_nets(config, decks, seats, strategy)
        engine = count / (time.perf_counter() - start)
        _, names, settle = _fast_path(job)
        cells = np.zeros((1, len(names), 4), dtype=np.int64)
        same = np.array_equal(settle(decks, cells), reference)
        label = f"{name}, {seats} seat(s)"
        print(f"{label}: fast path (blocks), one core  {fast:>12,.0f} rounds/s")
        print(f"{label}: round engine, same decks     {engine:>12,.0f} rounds/s "
              f"({count:,} rounds; nets {'identical' if same else 'DIFFER'})")  # fmt: skip
        print(f"{label}: fast path / engine, per round: {fast / engine:,.0f}x")
    simulated(config, name, 10_000_000, 1, f"house edge{per}", extra)


def simulated(
    config: Any, name: str, rounds: int, seats: int, what: str,
    extra: Callable[[dict[str, Any]], str] = lambda data: "",
) -> None:  # fmt: skip
    """Print ``rounds`` rounds at ``seats`` seats through ``felt.simulate``: the time, the observed
    figure (``what``) with its 95% interval, and the exact one."""
    start = time.perf_counter()
    data = simulate(config, rounds, seats=seats, seed=SEED).to_json()
    took = time.perf_counter() - start
    lo, hi = data["ci95"]
    print(f"{name} {rounds:,} rounds x {seats} seat(s) via felt.simulate in {took:.1f} s "
          f"({rounds / took:,.0f} rounds/s): {what} {data['house_edge'] * 100:.4f}%, "
          f"95% CI [{lo * 100:.4f}%, {hi * 100:.4f}%], exact {data['exact_house_edge'] * 100:.4f}%: "
          f"{'inside' if data['within_ci'] else 'OUTSIDE'}{extra(data)}")  # fmt: skip
