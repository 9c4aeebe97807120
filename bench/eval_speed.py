"""Hand evaluations per second, felt against its peers, like with like, on the same random hands.

Three comparisons, all measured in this run on this machine, one thread:

- per call vs per call: felt's single-hand ``hand_rank()`` (plain Python) against phevaluator's
  ``evaluate_cards()``, eval7's ``evaluate()`` and treys' ``Evaluator.evaluate()``, each called
  once per hand from the same Python loop with the cards already in its own representation;
- batch vs batch (C loop): felt's numba ``rank_batch()`` over a numpy array against phevaluator's
  compiled C evaluator (the ``evaluate_5cards`` / ``evaluate_7cards`` its wheel ships) called
  once per row by a C loop over the same array (``bench/eval_loop.c``, built here with the
  system ``cc``, the whole batch one ctypes call, timed inside C).  Neither side checks input.
- felt's batch now against felt's batch before issue 25 (``bench/_eval_v1.py``, the kernel and
  tables as they were, code unchanged), unchecked and checked, same hands, same run (target for
  seven cards: 1.3x).

OMPEval is not among the peers: its only registry package, ``omp-wrapper`` (0.7), does not build
with this machine's g++ 12 (its random generator's ``min()``/``max()`` are not ``constexpr``,
which libstdc++ 12's ``uniform_int_distribution`` requires).

Every run is timed by the CPU clock of the thread that runs it (``time.thread_time`` in Python,
``CLOCK_THREAD_CPUTIME_ID`` in the C loop), the best of several rounds in which the runs take
turns: on a machine shared with other work, the time it gives them is not counted, and for one
thread doing nothing but compute the CPU time is the wall time of an idle machine.

Every ratio is felt's rate over the peer's (above 1, felt is faster) and its line says what it
compares.  Also prints felt's batch against the issue's throughput targets, the size of felt's
tables, and whether each peer agrees with felt on every hand it evaluated.  Run with
``./dev bench eval_speed`` (installs the bench-only peers).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np
from _eval_v1 import rank_batch_v1
from numpy.typing import NDArray

from felt.core.batch import rank_batch
from felt.core.evaluator import evaluate, hand_rank
from felt.core.tables import Tables, tables

C_LOOP = Path(__file__).with_name("eval_loop.c")
WORST = 7463
"""phevaluator and treys number hands 1 (royal flush) to 7462; felt the other way round."""


def random_hands(n: int, k: int, rng: np.random.Generator) -> NDArray[np.uint8]:
    """n hands of k distinct cards: random rows of a pool of shuffled decks."""
    pool = np.argsort(rng.random((min(n, 1 << 18), 52)), axis=1)[:, :k].astype(np.uint8)
    return pool[rng.integers(0, len(pool), n)]


def each(fn: Callable[[Any], object], items: Sequence[Any]) -> list[object]:
    """Call ``fn`` once per item, keeping the results: the loop every per-call evaluator runs in."""
    return [fn(item) for item in items]


def each_spread(fn: Callable[..., object], items: Sequence[Sequence[Any]]) -> list[object]:
    """Call ``fn(*item)`` once per item, keeping the results."""
    return [fn(*item) for item in items]


Timed = Callable[[], tuple[float, Any]]
"""One timed run: the seconds it took and what it returned."""


def timed(fn: Callable[[], object]) -> Timed:
    """``fn`` as a timed run, timed from Python by this thread's CPU clock."""

    def run() -> tuple[float, Any]:
        start = time.thread_time()
        result = fn()
        return time.thread_time() - start, result

    return run


def race(runs: Sequence[Timed], repeats: int = 3) -> list[tuple[float, Any]]:
    """Each run's best seconds over ``repeats`` rounds and its last result; the runs take turns
    within a round, so that load from elsewhere on a shared machine falls on all of them alike."""
    best = [float("inf")] * len(runs)
    results: list[Any] = [None] * len(runs)
    for _ in range(repeats):
        for i, run in enumerate(runs):
            seconds, results[i] = run()
            best[i] = min(best[i], seconds)
    return list(zip(best, results, strict=True))


def build_c_loop(workdir: Path) -> ctypes.CDLL | str:
    """``bench/eval_loop.c`` built with the system cc and loaded, or why it could not be."""
    cc = shutil.which("cc")
    if cc is None:
        return "no C compiler ('cc') on PATH"
    lib = workdir / "eval_loop.so"
    cmd = [cc, "-O2", "-shared", "-fPIC", "-o", str(lib), str(C_LOOP)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"cc failed: {(done.stderr.strip().splitlines() or ['no message'])[0]}"
    loaded = ctypes.CDLL(str(lib))
    for name in ("loop5", "loop7"):
        fn = getattr(loaded, name)
        fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p]
        fn.restype = ctypes.c_double
    return loaded


def phevaluator_core(k: int) -> int:
    """Address of phevaluator's compiled k-card evaluator, from the extension its wheel ships."""
    from phevaluator import _pheval

    core = ctypes.CDLL(_pheval.__file__)
    address = ctypes.cast(getattr(core, f"evaluate_{k}cards"), ctypes.c_void_p).value
    assert address is not None
    return address


def c_loop_run(loop: ctypes.CDLL, k: int, hands: NDArray[np.uint8]) -> Timed:
    """phevaluator's core over ``hands`` in the C loop as a timed run, timed inside C."""
    rows = np.ascontiguousarray(hands)
    run = getattr(loop, f"loop{k}")
    core = phevaluator_core(k)

    def timed_in_c() -> tuple[float, Any]:
        # a fresh output each run, as rank_batch() allocates its own: its pages fault in the loop
        out = np.empty(len(rows), dtype=np.uint16)
        return float(run(core, rows.ctypes.data, len(rows), out.ctypes.data)), out

    return timed_in_c


def same_order(ours: NDArray[np.int64], theirs: NDArray[np.int64]) -> bool:
    """True if the two value lists rank the hands identically (ties included), whatever the scale."""
    order = np.argsort(ours, kind="stable")
    a, b = np.diff(ours[order]), np.diff(theirs[order])
    return bool(np.all(b >= 0) and np.array_equal(a > 0, b > 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=20_000_000, help="hands per batch run")
    parser.add_argument("--calls", type=int, default=200_000, help="hands per per-call run")
    args = parser.parse_args()

    import eval7
    from phevaluator import evaluate_cards
    from treys import Card as TreysCard
    from treys import Evaluator as TreysEvaluator

    rng = np.random.default_rng(2026)
    treys = TreysEvaluator()
    names = [f"{'23456789TJQKA'[c >> 2]}{'cdhs'[c & 3]}" for c in range(52)]
    treys_int = [TreysCard.new(n) for n in names]
    eval7_card = [eval7.Card(n) for n in names]
    workdir = Path(tempfile.mkdtemp(prefix="felt-eval-loop-"))
    loop = build_c_loop(workdir)
    rows: list[tuple[str, float]] = []
    lines: list[str] = []
    for k, target in ((5, 100e6), (7, 50e6)):
        hands = random_hands(args.batch, k, rng)
        rank_batch(hands[:10])  # compile / load the kernel before timing
        rank_batch_v1(hands[:10])
        runs = [
            timed(partial(rank_batch, hands, check=False)),
            timed(partial(rank_batch, hands)),
            timed(partial(rank_batch_v1, hands, check=False)),
            timed(partial(rank_batch_v1, hands)),
        ]
        if not isinstance(loop, str):
            runs.append(c_loop_run(loop, k, hands))
        load = os.getloadavg()[0]
        (
            (unchecked_s, felt_values),
            (checked_s, _),
            (v1_s, v1_values),
            (v1_checked_s, _),
            *c_loop,
        ) = race(runs, repeats=5)
        batch, checked = len(hands) / unchecked_s, len(hands) / checked_s
        v1, v1_checked = len(hands) / v1_s, len(hands) / v1_checked_s
        rows += [
            (f"{k}-card felt rank_batch() unchecked (numba)", batch),
            (f"{k}-card felt rank_batch() input checked (numba)", checked),
            (f"{k}-card felt rank_batch() before issue 25, unchecked", v1),
            (f"{k}-card felt rank_batch() before issue 25, checked", v1_checked),
        ]
        same_v1 = bool(np.array_equal(felt_values, v1_values))
        verdict = (
            ""
            if k != 7
            else (" (target 1.3x: met)" if batch >= 1.3 * v1 else " (target 1.3x: NOT MET)")
        )
        lines.append(
            f"{k}-card felt batch now / before issue 25 (bench/_eval_v1.py), load {load:.2f}: "
            f"unchecked {batch / v1:.2f}x{verdict}, input checked {checked / v1_checked:.2f}x; "
            f"same value on all {len(hands):,} hands: {same_v1}"
        )
        lines.append(
            f"{k}-card felt batch, input checked, vs target {target / 1e6:.0f} M/s: "
            f"{checked / 1e6:,.1f} M/s, " + ("met" if checked >= target else "NOT MET")
        )
        if isinstance(loop, str):
            lines.append(f"{k}-card batch vs batch (C loop): skipped, {loop}")
        else:
            c_rate, c_values = len(hands) / c_loop[0][0], c_loop[0][1]
            rows.append((f"{k}-card phevaluator C core in a C loop", c_rate))
            agree = bool(np.array_equal(felt_values, WORST - c_values.astype(np.int64)))
            lines.append(
                f"{k}-card batch vs batch (C loop): felt rank_batch() unchecked / phevaluator "
                f"C core in a C loop = {batch / c_rate:.2f}x; "
                f"same value on all {len(hands):,} hands: {agree}"
            )

        few = hands[: args.calls].tolist()
        ours = rank_batch(hands[: args.calls]).astype(np.int64)
        as_eval7 = [[eval7_card[c] for c in h] for h in few]
        as_treys = [([treys_int[c] for c in h[:2]], [treys_int[c] for c in h[2:]]) for h in few]
        # (name, run, whether its values are felt's numbered the other way round; eval7's have
        # their own scale, so only the order it puts the hands in can be compared)
        peers: list[tuple[str, Callable[[], object], bool]] = [
            ("phevaluator evaluate_cards()", partial(each_spread, evaluate_cards, few), True),
            ("eval7 evaluate()", partial(each, eval7.evaluate, as_eval7), False),
            ("treys Evaluator.evaluate()", partial(each_spread, treys.evaluate, as_treys), True),
        ]
        (felt_s, felt_single), *peer_results = race(
            [timed(partial(each, hand_rank, few))] + [timed(run) for _, run, _ in peers]
        )
        ((full_s, _),) = race([timed(partial(each, evaluate, few[:20_000]))], repeats=1)
        single = len(few) / felt_s
        rows += [
            (f"{k}-card felt hand_rank() per call", single),
            (f"{k}-card felt evaluate() per call, with best five", 20_000 / full_s),
        ]
        same = bool(np.array_equal(ours, np.array(felt_single, dtype=np.int64)))
        lines.append(f"{k}-card felt hand_rank() and rank_batch() agree on all hands: {same}")
        for (name, _, reversed_values), (seconds, values) in zip(peers, peer_results, strict=True):
            rate = len(few) / seconds
            rows.append((f"{k}-card {name} per call", rate))
            theirs = np.array(values, dtype=np.int64)
            if reversed_values:
                how, ok = "same value", bool(np.array_equal(ours, WORST - theirs))
            else:
                how, ok = "same order", same_order(ours, theirs)
            lines.append(
                f"{k}-card per call vs per call: felt hand_rank() / {name} = {single / rate:.2f}x; "
                f"{how} on all {len(few):,} hands: {ok}"
            )
    shutil.rmtree(workdir, ignore_errors=True)

    print(f"load average (1, 5, 15 min) at the end: {os.getloadavg()}")
    print(f"{'evaluator':<56}{'hands per second':>20}")
    for name, rate in rows:
        print(f"{name:<56}{rate:>20,.0f}")
    print()
    print("ratios are felt's rate over the peer's (above 1, felt is faster):")
    for line in lines:
        print(line)
    t: Tables = tables()
    size = sum(getattr(t, f).nbytes for f in Tables.__dataclass_fields__)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"felt tables: {size / 1e6:.2f} MB (limit 300 MB); peak process RSS {peak:,.0f} MB")


if __name__ == "__main__":
    main()
