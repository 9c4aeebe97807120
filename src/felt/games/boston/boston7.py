"""Exact Boston 7 counts: every player seven against every dealer seven from the other 45 cards.

For each three-card start the analysis needs, for every way the player's hand is completed
(C(49,4) = 211,876), how many of the C(45,7) = 45,379,620 dealer hands from the remaining cards it
beats, ties and loses to.  That is 6.1e15 pairs of hands, so they are counted, not dealt:

* **Suit symmetry.**  A hand's counts do not change when suits are renamed, so only one player
  hand per suit pattern is counted: four 13-bit suit masks sorted into a canonical order
  (6,009,159 hands, each standing for its 1 to 24 renamings).  Starts likewise fall into 1,755
  classes.
* **Ranks first.**  Valued by its ranks alone (as if no flush were possible), a dealer hand with
  rank multiset R avoids the player's cards in ``prod_r C(4 - Q_r, R_r)`` ways, where Q is the
  player's rank multiset.  Summing that over the 49,205 multisets R gives the dealer hands below
  and equal to the player's value.
* **Flush corrections.**  Dealer hands with five or more cards of one suit (at most one suit can
  have them) are worth their flush, not their ranks: they are counted once more by their suit
  masks (ranks left in the suit, :func:`_flush_subset_lists`) and taken away at their rank value
  by inclusion-exclusion over the player's cards, ``sum over T of (-1)^|T|`` times the flush hands
  holding T (:func:`_flush_superset_lists`).

Each count is exact integer arithmetic.  ``tests/test_boston7.py`` checks every step against brute
force (all 45 million dealer hands) on sample hands, and the whole against the symmetry
P(player higher) = P(dealer higher).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from felt.analysis import kernels
from felt.analysis.compiled import slot_of
from felt.analysis.kernels import BINOM
from felt.core._jit import jit, jit_inline
from felt.core.errors import FeltError
from felt.core.progress import Progress
from felt.core.ranking import Category
from felt.core.tables import (
    RANK_KEYS,
    ROW_BITS,
    ROW_MASK,
    SIZE_UNIT,
    _rank_multisets,
    cache_dir,
    load_arrays,
    save_arrays,
    source_digest,
    tables,
)

DEALER_HANDS = comb(45, 7)
COMPLETIONS = comb(49, 4)
START_CLASSES = 1755
SIX_ROYAL = 10
SEVEN_ROYAL = 11
N_LINES = 12
"""Kernel line codes: a :class:`Category` (0-9), or 10 / 11 for six- and seven-card royals."""

ROYAL5 = 0x1F00  # ten to ace
NINE = 1 << 7
EIGHT = 1 << 6
LEVEL_BASE = np.cumsum([0] + [comb(52, k) for k in range(7)]).astype(np.int64)
"""Where each subset size starts in the flush-superset index (sizes 0 to 6)."""

_RANK_KEYS = np.array(RANK_KEYS, dtype=np.int64)


def _slot(counts: NDArray[np.int64]) -> NDArray[np.int64]:
    """Perfect-hash slot of each seven-card rank multiset (rows of 13 counts)."""
    t = tables()
    low = 7 * SIZE_UNIT + counts @ _RANK_KEYS
    return np.asarray(t.row_offsets[low >> ROW_BITS] + (low & ROW_MASK), dtype=np.int64)


def rank_multisets() -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Every seven-card rank multiset (rows of 13 counts), sorted by its rank-only value.

    Returns (counts, value, slot): value is the best five valued by ranks alone, and slot the
    multiset's perfect-hash slot (how a hand finds its row).
    """
    counts = _rank_multisets(7).astype(np.int64)
    slot = _slot(counts)
    value = tables().values[slot].astype(np.int64)
    order = np.argsort(value, kind="stable")
    return counts[order], value[order], slot[order]


@jit
def _rank_counts_range(
    counts: NDArray[np.int64],
    value: NDArray[np.int64],
    straight_max: int,
    rows: NDArray[np.int64],
    out: NDArray[np.int64],
) -> None:  # pragma: no cover - compiled
    """For the player multisets ``rows``: how many dealer hands avoiding them, valued by ranks
    alone, are below, equal to, and at most a straight (columns of ``out``)."""
    n = counts.shape[0]
    binom4 = np.zeros((5, 5), dtype=np.int64)
    for a in range(5):
        binom4[a, 0] = 1
        for k in range(1, a + 1):
            binom4[a, k] = binom4[a - 1, k - 1] + (binom4[a - 1, k] if k <= a - 1 else 0)
    ranks = np.zeros((n, 7), dtype=np.int64)
    cnts = np.zeros((n, 7), dtype=np.int64)
    used = np.zeros(n, dtype=np.int64)
    for i in range(n):
        for r in range(13):
            if counts[i, r]:
                ranks[i, used[i]] = r
                cnts[i, used[i]] = counts[i, r]
                used[i] += 1
    avail = np.zeros(13, dtype=np.int64)
    for q in rows:
        for r in range(13):
            avail[r] = 4 - counts[q, r]
        own = value[q]
        below = np.int64(0)
        equal = np.int64(0)
        low = np.int64(0)
        for i in range(n):
            w = np.int64(1)
            for k in range(used[i]):
                w *= binom4[avail[ranks[i, k]], cnts[i, k]]
                if w == 0:
                    break
            if w == 0:
                continue
            v = value[i]
            if v < own:
                below += w
            elif v == own:
                equal += w
            if v <= straight_max:
                low += w
        out[q, 0] = below
        out[q, 1] = equal
        out[q, 2] = low


def rank_counts(
    counts: NDArray[np.int64],
    value: NDArray[np.int64],
    straight_max: int,
    threads: int,
    rows: NDArray[np.int64] | None = None,
    step: Callable[[], None] | None = None,
) -> NDArray[np.int64]:
    """:func:`_rank_counts_range` over ``rows`` (default: every multiset), split across threads
    (``step`` hears of each of :data:`PIECES` pieces done)."""
    out = np.full((counts.shape[0], 3), -1, dtype=np.int64)  # -1: not counted (see the kernel)
    todo = np.arange(counts.shape[0], dtype=np.int64) if rows is None else rows
    _run_split(
        lambda lo, hi: _rank_counts_range(counts, value, straight_max, todo[lo:hi], out),
        len(todo),
        threads,
        step=step,
    )
    return out


PIECES = 64
"""How many pieces each stage of the count is split into (for threads, and progress)."""


def _run_split(
    fn: Callable[[int, int], None],
    n: int,
    threads: int,
    pieces: int = PIECES,
    step: Callable[[], None] | None = None,
) -> None:
    """Run ``fn(lo, hi)`` over ``pieces`` ranges of ``range(n)`` on ``threads`` threads (the
    kernels release the GIL); ``step`` is called as each piece is done."""
    edges = np.linspace(0, n, pieces + 1).astype(np.int64)

    def piece(i: int) -> None:
        fn(int(edges[i]), int(edges[i + 1]))
        if step is not None:
            step()

    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(piece, range(pieces)))


@jit
def _popcount(x: int) -> int:  # pragma: no cover - compiled
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@jit_inline
def line_code(category: int, flush_ranks: int) -> int:  # pragma: no cover - compiled
    """A hand's line code: its category, or six- / seven-card royal when the ranks held in its
    flush suit (a 13-bit mask, 0 without a flush) run A-K-Q-J-10-9 (and 8) (13:69F-24.5(e))."""
    if flush_ranks & ROYAL5 == ROYAL5 and flush_ranks & NINE:
        return SEVEN_ROYAL if flush_ranks & EIGHT else SIX_ROYAL
    return category


@jit
def _flush_subset_pairs(
    flush: NDArray[np.uint16],
) -> tuple[NDArray[np.int64], NDArray[np.uint16]]:  # pragma: no cover - compiled
    """(segment, flush value) for every mask M and every subset U of M with 5-7 ranks; segment
    ``3 * M + |U| - 5``."""
    total = 0
    for j in range(5, 8):
        total += comb7(13, j) * (1 << (13 - j))
    segs = np.zeros(total, dtype=np.int64)
    vals = np.zeros(total, dtype=np.uint16)
    n = 0
    for u in range(8192):
        j = _popcount(u)
        if j < 5 or j > 7:
            continue
        comp = 8191 & ~u
        sub = comp
        while True:  # every superset of u
            segs[n] = 3 * (u | sub) + j - 5
            vals[n] = flush[u]
            n += 1
            if sub == 0:
                break
            sub = (sub - 1) & comp
    return segs, vals


def _flush_subset_lists(flush: NDArray[np.uint16]) -> tuple[NDArray[np.int64], NDArray[np.uint16]]:
    """For every 13-bit mask M and size j in 5-7: the sorted flush values of the j-subsets of M,
    as segment ``3 * M + j - 5`` of the returned (offsets, values)."""
    segs, vals = _flush_subset_pairs(flush)
    order = np.lexsort((vals, segs))
    offsets = np.zeros(8192 * 3 + 1, dtype=np.int64)
    offsets[1:] = np.cumsum(np.bincount(segs, minlength=8192 * 3))
    return offsets, vals[order]


@jit
def _flush_hands(
    values: NDArray[np.uint16],
    row_offsets: NDArray[np.int64],
    rank_keys: NDArray[np.int64],
) -> tuple[NDArray[np.uint8], NDArray[np.uint16]]:  # pragma: no cover - compiled
    """Every seven-card hand with five or more cards of one suit (sorted cards), and its value by
    ranks alone (what the rank count gave it)."""
    total = 4 * (comb7(13, 5) * comb7(39, 2) + comb7(13, 6) * 39 + comb7(13, 7))
    cards = np.zeros((total, 7), dtype=np.uint8)
    value = np.zeros(total, dtype=np.uint16)
    row = 0
    hand = np.zeros(7, dtype=np.int64)
    others = np.zeros(39, dtype=np.int64)
    for s in range(4):
        n_other = 0
        for c in range(52):
            if c & 3 != s:
                others[n_other] = c
                n_other += 1
        for u in range(8192):
            j = _popcount(u)
            if j < 5 or j > 7:
                continue
            extra = 7 - j
            # extra cards: none, one of 39, or two of 39
            n_x = 1 if extra == 0 else (39 if extra == 1 else 741)
            for x in range(n_x):
                n = 0
                for r in range(13):
                    if u >> r & 1:
                        hand[n] = 4 * r + s
                        n += 1
                if extra == 1:
                    hand[n] = others[x]
                    n += 1
                elif extra == 2:
                    # x-th pair (a < b) of the 39 others, in order
                    a = 0
                    k = x
                    while k >= 38 - a:
                        k -= 38 - a
                        a += 1
                    hand[n] = others[a]
                    hand[n + 1] = others[a + 1 + k]
                    n += 2
                hand.sort()
                low = 7 * SIZE_UNIT
                for i in range(7):
                    cards[row, i] = hand[i]
                    low += rank_keys[hand[i] >> 2]
                value[row] = values[slot_of(low, row_offsets)]
                row += 1
    return cards, value


@jit
def comb7(n: int, k: int) -> int:  # pragma: no cover - compiled
    """C(n, k) for the small numbers of this module."""
    if k < 0 or k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


@jit
def _subset_index(cards: NDArray[np.int64], m: int, binom: NDArray[np.int64], base: NDArray[np.int64]) -> int:  # pragma: no cover - compiled  # fmt: skip
    """Index of the subset ``m`` (a bit per position) of seven sorted cards: its size's base plus
    its colex index."""
    idx = np.int64(0)
    k = 0
    for i in range(7):
        if m >> i & 1:
            k += 1
            idx += binom[cards[i], k]
    return int(base[k] + idx)


@jit
def _flush_superset_lists(
    cards: NDArray[np.uint8],
    order: NDArray[np.int64],
    value: NDArray[np.uint16],
    binom: NDArray[np.int64],
    base: NDArray[np.int64],
) -> tuple[NDArray[np.int64], NDArray[np.uint16]]:  # pragma: no cover - compiled
    """For every set T of 0-6 cards, the rank values of the flush hands holding T, ascending.

    Segment :func:`_subset_index` of the returned (offsets, values); ``order`` lists the flush
    hands by rank value, so each segment fills in ascending order.
    """
    size = base[7]
    count = np.zeros(size + 1, dtype=np.int64)
    hand = np.zeros(7, dtype=np.int64)
    for h in range(cards.shape[0]):
        for i in range(7):
            hand[i] = cards[h, i]
        for m in range(127):
            count[_subset_index(hand, m, binom, base) + 1] += 1
    offsets = np.cumsum(count)
    out = np.zeros(offsets[-1], dtype=np.uint16)
    fill = offsets[:-1].copy()
    for t in range(order.shape[0]):
        h = order[t]
        for i in range(7):
            hand[i] = cards[h, i]
        v = value[h]
        for m in range(127):
            seg = _subset_index(hand, m, binom, base)
            out[fill[seg]] = v
            fill[seg] += 1
    return offsets, out


@jit
def _lower_bound(vals: NDArray[np.uint16], lo: int, hi: int, v: int) -> int:  # pragma: no cover
    """First position in the ascending ``vals[lo:hi]`` holding ``v`` or more (an absolute index)."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if vals[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


@jit
def canonical_hands() -> tuple[NDArray[np.int64], NDArray[np.int64]]:  # pragma: no cover
    """One seven-card hand per suit pattern: four suit masks m0 >= m1 >= m2 >= m3 (suit i holds
    the ranks of mask i), and how many hands each stands for (24 over its symmetries)."""
    by_pop = [np.zeros(0, dtype=np.int64) for _ in range(8)]
    sizes = np.zeros(8, dtype=np.int64)
    for m in range(8192):
        p = _popcount(m)
        if p <= 7:
            sizes[p] += 1
    for p in range(8):
        by_pop[p] = np.zeros(sizes[p], dtype=np.int64)
    fill = np.zeros(8, dtype=np.int64)
    for m in range(8192):  # ascending, so each list is sorted
        p = _popcount(m)
        if p <= 7:
            by_pop[p][fill[p]] = m
            fill[p] += 1
    cap = 6_100_000
    masks = np.zeros((cap, 4), dtype=np.int64)
    orbit = np.zeros(cap, dtype=np.int64)
    n = 0
    for p0 in range(8):
        for p1 in range(8 - p0):
            for p2 in range(8 - p0 - p1):
                p3 = 7 - p0 - p1 - p2
                for m0 in by_pop[p0]:
                    for m1 in by_pop[p1]:
                        if m1 > m0:
                            break
                        for m2 in by_pop[p2]:
                            if m2 > m1:
                                break
                            for m3 in by_pop[p3]:
                                if m3 > m2:
                                    break
                                masks[n, 0], masks[n, 1], masks[n, 2], masks[n, 3] = m0, m1, m2, m3
                                stab = 1
                                run = 1
                                prev = m0
                                for mm in (m1, m2, m3):
                                    if mm == prev:
                                        run += 1
                                        stab *= run
                                    else:
                                        run = 1
                                    prev = mm
                                orbit[n] = 24 // stab
                                n += 1
    return masks[:n], orbit[:n]


@functools.cache
def start_classes() -> tuple[NDArray[np.int64], NDArray[np.int64], list[tuple[int, int, int]]]:
    """Each three-card start's class (by colex index), each class's size, and a representative.

    Classes are suit patterns: the start's suit masks sorted, as for the seven-card hands.
    """
    from itertools import combinations

    keys: dict[tuple[int, ...], int] = {}
    cls = np.zeros(22100, dtype=np.int64)
    reps: list[tuple[int, int, int]] = []
    sizes: list[int] = []
    for a, b, c in combinations(range(52), 3):  # colex order needs c outermost; index explicitly
        masks = [0, 0, 0, 0]
        for card in (a, b, c):
            masks[card & 3] |= 1 << (card >> 2)
        key = tuple(sorted(masks, reverse=True))
        if key not in keys:
            keys[key] = len(keys)
            # the representative: suit i holds mask i
            reps.append(
                tuple(sorted(4 * r + i for i, m in enumerate(key) for r in range(13) if m >> r & 1))  # type: ignore[arg-type]
            )
            sizes.append(0)
        k = keys[key]
        cls[comb(a, 1) + comb(b, 2) + comb(c, 3)] = k
        sizes[k] += 1
    return cls, np.array(sizes, dtype=np.int64), reps


@jit
def _equity_range(
    masks: NDArray[np.int64],
    orbit: NDArray[np.int64],
    lo: int,
    hi: int,
    values: NDArray[np.uint16],
    row_offsets: NDArray[np.int64],
    rank_keys: NDArray[np.int64],
    flush: NDArray[np.uint16],
    five_category: NDArray[np.uint8],
    row_of_slot: NDArray[np.int64],
    rank_count: NDArray[np.int64],
    sub_off: NDArray[np.int64],
    sub_vals: NDArray[np.uint16],
    sup_off: NDArray[np.int64],
    sup_vals: NDArray[np.uint16],
    binom: NDArray[np.int64],
    base: NDArray[np.int64],
    start_class: NDArray[np.int64],
    straight_max: int,
    count: bool,
    acc: NDArray[np.int64],
    per_hand: NDArray[np.int64],
) -> None:  # pragma: no cover - compiled
    """Count canonical hands ``lo:hi``: each one's dealer hands below / equal / above, added
    (times the hands it stands for) to ``acc[start class, line, result]`` for each of its 35
    three-card starts; ``per_hand[i]`` keeps (below, equal) for the tests."""
    dealer_hands = DEALER_HANDS
    cards = np.zeros(7, dtype=np.int64)
    for i in range(lo, hi):
        n = 0
        low = 7 * SIZE_UNIT
        for r in range(13):
            for s in range(4):
                if masks[i, s] >> r & 1:
                    cards[n] = 4 * r + s
                    n += 1
                    low += rank_keys[r]
        slot = slot_of(low, row_offsets)
        q = row_of_slot[slot]
        if count and rank_count[q, 0] < 0:
            raise ValueError("a hand's rank multiset was not among the rows prepared")
        v = int(values[slot])
        flush_ranks = 0
        for s in range(4):
            if _popcount(masks[i, s]) >= 5:  # at most one suit can hold five of seven
                flush_ranks = masks[i, s]
                v = int(flush[flush_ranks])
        category = int(five_category[v])
        line = line_code(category, flush_ranks)
        # dealer hands valued by ranks alone
        if not count:  # only the lines (a test of the bookkeeping)
            below = np.int64(0)
            equal = np.int64(0)
        elif category == 5:  # flush: below are the rank values up to a straight
            below = rank_count[q, 2]
            equal = np.int64(0)
        elif category >= 8:  # straight or royal flush: every rank value is below
            below = np.int64(dealer_hands)
            equal = np.int64(0)
        else:
            below = rank_count[q, 0]
            equal = rank_count[q, 1]
        if not count:
            pass
        elif v > straight_max:
            # flush dealer hands: every one was counted below by its ranks; count by its flush
            for s in range(4):
                m = masks[i, s]
                avail = 8191 & ~m
                others = 32 + _popcount(m)  # cards outside suit s not in the hand
                n_avail = _popcount(avail)
                for j in range(5, 8):
                    w = comb7(others, 7 - j)
                    seg = 3 * avail + j - 5
                    a, b = sub_off[seg], sub_off[seg + 1]
                    under = _lower_bound(sub_vals, a, b, v) - a
                    upto = _lower_bound(sub_vals, a, b, v + 1) - a
                    below += w * (under - comb7(n_avail, j))
                    equal += w * (upto - under)
        else:
            # flush dealer hands are above; take away those counted below or equal by ranks
            for m in range(127):
                seg = _subset_index(cards, m, binom, base)
                a, b = sup_off[seg], sup_off[seg + 1]
                if a == b:
                    continue
                under = _lower_bound(sup_vals, a, b, v) - a
                upto = _lower_bound(sup_vals, a, b, v + 1) - a
                if _popcount(m) & 1:
                    below += under
                    equal += upto - under
                else:
                    below -= under
                    equal -= upto - under
        per_hand[i, 0] = below
        per_hand[i, 1] = equal
        above = dealer_hands - below - equal
        o = orbit[i]
        for x in range(7):
            for y in range(x + 1, 7):
                for z in range(y + 1, 7):
                    c = start_class[binom[cards[x], 1] + binom[cards[y], 2] + binom[cards[z], 3]]
                    acc[c, line, 0] += o * below
                    acc[c, line, 1] += o * equal
                    acc[c, line, 2] += o * above


@dataclass(frozen=True)
class Prepared:
    """The tables the per-hand count reads (about 1.3 GB; built in some 30 seconds)."""

    straight_max: int
    row_of_slot: NDArray[np.int64]
    rank_count: NDArray[np.int64]
    sub_off: NDArray[np.int64]
    sub_vals: NDArray[np.uint16]
    sup_off: NDArray[np.int64]
    sup_vals: NDArray[np.uint16]
    start_class: NDArray[np.int64]


def straight_max() -> int:
    """The highest five-card value that is a straight or less (what a flush dealer hand's ranks
    can be worth)."""
    category = tables().five_category
    return int(np.flatnonzero(category <= Category.STRAIGHT).max())


def prepare(
    threads: int,
    hands: NDArray[np.int64] | None = None,
    *,
    count: bool = True,
    step: Callable[[], None] | None = None,
) -> Prepared:
    """Build what :func:`count_hands` reads; with ``hands`` (suit masks), only the rank counts
    those hands need; without ``count``, only the line bookkeeping (``step``: as
    :func:`rank_counts`)."""
    t = tables()
    top = straight_max()
    counts, value, slot = rank_multisets()
    row_of_slot = np.full(len(t.values), -1, dtype=np.int64)
    row_of_slot[slot] = np.arange(len(slot))
    if not count:  # the kernel reads no count table: empty placeholders
        empty16, empty64 = np.zeros(0, dtype=np.uint16), np.zeros(1, dtype=np.int64)
        return Prepared(top, row_of_slot, np.zeros((len(slot), 3), dtype=np.int64), empty64,
                        empty16, empty64, empty16, start_classes()[0])  # fmt: skip
    rows = None
    if hands is not None:
        ranks = np.zeros((len(hands), 13), dtype=np.int64)
        for r in range(13):
            for s in range(4):
                ranks[:, r] += (hands[:, s] >> r) & 1
        rows = np.unique(row_of_slot[_slot(ranks)])
    rank_count = rank_counts(counts, value, top, threads, rows, step)
    sub_off, sub_vals = _flush_subset_lists(t.flush)
    flush_cards, flush_value = _flush_hands(t.values, t.row_offsets, _RANK_KEYS)
    order = np.argsort(flush_value, kind="stable")
    sup_off, sup_vals = _flush_superset_lists(flush_cards, order, flush_value, BINOM, LEVEL_BASE)
    return Prepared(top, row_of_slot, rank_count, sub_off, sub_vals, sup_off, sup_vals,
                    start_classes()[0])  # fmt: skip


def count_hands(
    prep: Prepared,
    masks: NDArray[np.int64],
    orbit: NDArray[np.int64],
    threads: int,
    *,
    count: bool = True,
    step: Callable[[], None] | None = None,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Count every hand of ``masks``: (sums per start class, line and result; each hand's
    dealer hands below and equal).  Sums are over starts of the class, each hand weighted by
    ``orbit`` (``step`` hears of each piece done)."""
    t = tables()
    n = len(masks)
    per_hand = np.zeros((n, 2), dtype=np.int64)
    pieces = max(1, min(PIECES, n))
    accs = np.zeros((pieces, START_CLASSES, N_LINES, 3), dtype=np.int64)
    edges = np.linspace(0, n, pieces + 1).astype(np.int64)

    def run(k: int, _: int) -> None:
        _equity_range(masks, orbit, int(edges[k]), int(edges[k + 1]), t.values, t.row_offsets,
                      _RANK_KEYS, t.flush, t.five_category, prep.row_of_slot, prep.rank_count,
                      prep.sub_off, prep.sub_vals, prep.sup_off, prep.sup_vals, BINOM,
                      LEVEL_BASE, prep.start_class, prep.straight_max, count, accs[k],
                      per_hand)  # fmt: skip

    _run_split(run, pieces, threads, pieces, step)
    return accs.sum(axis=0), per_hand


def canonical_masks(hand: Sequence[int]) -> NDArray[np.int64]:
    """A hand's four suit masks in canonical order (the row :func:`canonical_hands` has for it)."""
    masks = [0, 0, 0, 0]
    for c in hand:
        masks[c & 3] |= 1 << (c >> 2)
    return np.array(sorted(masks, reverse=True), dtype=np.int64)


@dataclass(frozen=True)
class Boston7Counts:
    """For one start of each class: deals by (line, result), from the player's side.

    ``counts[c, line, result]``: line is a :class:`Category` or :data:`SIX_ROYAL` /
    :data:`SEVEN_ROYAL`, result 0 player higher, 1 tie, 2 dealer higher; each class's cells sum to
    C(49,4) x C(45,7).  ``sizes[c]`` starts share the class; ``starts[c]`` is one of them.
    """

    counts: NDArray[np.int64]
    sizes: NDArray[np.int64]
    starts: list[tuple[int, int, int]]


def _digest() -> str:
    """Digest of the code the counts derive from: this module, the shared kernels it uses and
    the hand tables."""
    shared = Path(kernels.__file__).parent
    core = shared.parent / "core"
    return source_digest(Path(__file__), shared / "kernels.py", shared / "compiled.py",
                         core / "tables.py", core / "ranking.py")  # fmt: skip


def default_threads() -> int:
    """Threads to count with: the cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def load_counts(path: Path) -> NDArray[np.int64] | None:
    """The counts from a cache file, or None when it is missing, damaged, or does not hold what
    its digest says or what the counts must be (whole numbers of the expected shape)."""
    arrays = load_arrays(path, ["counts"])
    if arrays is None:
        return None
    counts = arrays["counts"]
    if counts.dtype != np.int64 or counts.shape != (START_CLASSES, N_LINES, 3):
        return None
    return counts.astype(np.int64)


def counts_on_disk() -> bool:
    """Whether the Boston 7 counts are in the disk cache (so a par sheet takes seconds, not the
    minutes of counting every deal)."""
    return load_counts(cache_dir() / f"boston7-{_digest()}.npz") is not None


RANK_SHARE = 0.25
"""About the share of a cold count's time its first stage (the rank counts) takes, so the
progress bar moves evenly; measured on two cores."""


def boston7_counts(
    threads: int | None = None,
    *,
    cache: bool = True,
    log: Callable[[str], None] | None = None,
    progress: Progress | None = None,
) -> Boston7Counts:
    """The Boston 7 counts, from the disk cache or computed (about a minute on two cores);
    ``progress`` shows how far a count has gone and the time left (issue 20, item 9)."""
    path = cache_dir() / f"boston7-{_digest()}.npz"
    _, sizes, starts = start_classes()
    if cache:
        counts = load_counts(path)
        if counts is not None:
            return Boston7Counts(counts, sizes, starts)
    n = threads or default_threads()
    if log:
        log("counting every Boston 7 deal (once; cached afterwards)")
    if progress is not None:
        progress.fraction(0.0)  # the bar shows at once, before the first piece is done
    ranks = None if progress is None else progress.steps(0.0, RANK_SHARE, PIECES)
    prep = prepare(n, step=ranks)
    masks, orbit = canonical_hands()
    hands = None if progress is None else progress.steps(RANK_SHARE, 1 - RANK_SHARE, PIECES)
    acc, _ = count_hands(prep, masks, orbit, n, step=hands)
    del prep
    if np.any(acc % sizes[:, None, None]):  # pragma: no cover - an internal invariant
        raise FeltError("Boston 7 counts do not divide evenly over a start class")
    counts = acc // sizes[:, None, None]
    if cache:
        save_arrays(path, counts=counts)
    return Boston7Counts(counts, sizes, starts)
