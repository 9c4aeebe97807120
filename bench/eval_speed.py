"""Hand evaluations per second: felt's batch and single-hand paths against phevaluator and treys.

All measured in this run on this machine, one thread.  Run with ``./dev bench eval_speed``
(installs the bench-only peers).  Prints each rate, the ratios against the peers, the issue's
targets met or not, the size of felt's tables, and a check that felt and phevaluator agree on
every hand timed.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np
from numpy.typing import NDArray

from felt.core.batch import rank_batch
from felt.core.evaluator import evaluate, hand_rank
from felt.core.tables import Tables, tables


def random_hands(n: int, k: int, rng: np.random.Generator) -> NDArray[np.uint8]:
    """n hands of k distinct cards: random rows of a pool of shuffled decks."""
    pool = np.argsort(rng.random((min(n, 1 << 18), 52)), axis=1)[:, :k].astype(np.uint8)
    return pool[rng.integers(0, len(pool), n)]


def each(fn: Callable[[Any], object], items: Sequence[Any]) -> None:
    """Call ``fn`` once per item: the per-call loop every single-hand evaluator is timed in."""
    for item in items:
        fn(item)


def each_spread(fn: Callable[..., object], items: Sequence[Sequence[Any]]) -> None:
    """Call ``fn(*item)`` once per item."""
    for item in items:
        fn(*item)


def best_rate(fn: Callable[[], object], count: int, repeats: int = 3) -> float:
    """Best of ``repeats`` runs, in calls (hands) per second."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return count / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=20_000_000, help="hands per batch run")
    parser.add_argument("--calls", type=int, default=200_000, help="hands per per-call run")
    args = parser.parse_args()

    from phevaluator import evaluate_cards
    from treys import Card as TreysCard
    from treys import Evaluator as TreysEvaluator

    rng = np.random.default_rng(2026)
    treys = TreysEvaluator()
    treys_int = [TreysCard.new(f"{'23456789TJQKA'[c >> 2]}{'cdhs'[c & 3]}") for c in range(52)]
    rows: list[tuple[str, float]] = []
    verdicts: list[str] = []
    for k, target in ((5, 100e6), (7, 50e6)):
        hands = random_hands(args.batch, k, rng)
        rank_batch(hands[:10])  # compile / load the kernel before timing
        batch = best_rate(partial(rank_batch, hands, check=False), len(hands))
        checked = best_rate(partial(rank_batch, hands), len(hands))
        few = hands[: args.calls].tolist()
        single = best_rate(partial(each, hand_rank, few), len(few))
        full = best_rate(partial(each, evaluate, few[:20_000]), 20_000, repeats=1)
        phe = best_rate(partial(each_spread, evaluate_cards, few), len(few))
        as_treys = [([treys_int[c] for c in h[:2]], [treys_int[c] for c in h[2:]]) for h in few]
        trey = best_rate(partial(each_spread, treys.evaluate, as_treys), len(few))

        ours = rank_batch(hands[: args.calls]).astype(np.int64)
        theirs = np.array([evaluate_cards(*h) for h in few], dtype=np.int64)
        agree = bool(np.all(ours == 7463 - theirs))  # phevaluator: 1 is the best hand

        rows += [
            (f"{k}-card felt batch (numba, unchecked)", batch),
            (f"{k}-card felt batch (numba, input checked)", checked),
            (f"{k}-card felt single-hand hand_rank()", single),
            (f"{k}-card felt single-hand evaluate() with best five", full),
            (f"{k}-card phevaluator evaluate_cards() per call", phe),
            (f"{k}-card treys Evaluator.evaluate() per call", trey),
        ]
        verdicts += [
            f"{k}-card batch {checked / 1e6:,.1f} M/s checked vs target {target / 1e6:.0f} M/s: "
            + ("met" if checked >= target else "NOT MET"),
            f"{k}-card batch / phevaluator per call: {checked / phe:,.0f}x (target 10x): "
            + ("met" if checked >= 10 * phe else "NOT MET"),
            f"{k}-card single-hand / phevaluator: {single / phe:.2f}x; "
            f"/ treys: {single / trey:.2f}x",
            f"{k}-card felt and phevaluator agree on all {len(few):,} hands: {agree}",
        ]

    print(f"{'evaluator':<52}{'hands per second':>20}")
    for name, rate in rows:
        print(f"{name:<52}{rate:>20,.0f}")
    print()
    for line in verdicts:
        print(line)
    t: Tables = tables()
    size = sum(getattr(t, f).nbytes for f in Tables.__dataclass_fields__)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"felt tables: {size / 1e6:.2f} MB (limit 300 MB); peak process RSS {peak:,.0f} MB")


if __name__ == "__main__":
    main()
