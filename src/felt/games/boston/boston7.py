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
  holding T (:func:`flush_superset_lists`: one list per suit class of T).

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
    alone, are below, equal to, and at most a straight (columns of ``out``).

    The dealer multisets are sorted by value, so each row stops at the first one above both its
    own value and a straight (they count in no column): a quarter of the pairs on average.  Each
    multiset is kept as seven (rank, count) bytes, padded with a rank that is never short of
    cards, so its weight is seven lookups in the row's table of C(cards left, count) with no
    branch (the loop vectorises: twice as fast as stopping at the ranks held or at a zero)."""
    n = counts.shape[0]
    binom4 = np.zeros((5, 5), dtype=np.int64)
    for a in range(5):
        binom4[a, 0] = 1
        for k in range(1, a + 1):
            binom4[a, k] = binom4[a - 1, k - 1] + (binom4[a - 1, k] if k <= a - 1 else 0)
    pad = 13 * 5  # rank 13, count 0: weight 1
    held = np.full((7, n), pad, dtype=np.uint8)  # held[k, i]: 5 x rank + count of i's k-th rank
    for i in range(n):
        k = 0
        for r in range(13):
            if counts[i, r]:
                held[k, i] = 5 * r + counts[i, r]
                k += 1
    h0, h1, h2, h3, h4, h5, h6 = held[0], held[1], held[2], held[3], held[4], held[5], held[6]
    val = value.astype(np.int32)
    ways = np.ones(14 * 5, dtype=np.int64)  # ways[5 r + c]: C(cards of rank r left, c)
    for q in rows:
        for r in range(13):
            for c in range(5):
                ways[5 * r + c] = binom4[4 - counts[q, r], c]  # 0 when c exceeds what is left
        own = val[q]
        end = np.searchsorted(val, max(own, straight_max), side="right")
        below = np.int64(0)
        equal = np.int64(0)
        low = np.int64(0)
        for i in range(end):
            w = ways[h0[i]] * ways[h1[i]] * ways[h2[i]] * ways[h3[i]] * ways[h4[i]]
            w *= ways[h5[i]] * ways[h6[i]]
            v = val[i]
            below += w if v < own else 0
            equal += w if v == own else 0
            low += w if v <= straight_max else 0
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
    work: NDArray[np.int64] | None = None,
) -> None:
    """Run ``fn(lo, hi)`` over ``pieces`` ranges of ``range(n)`` on ``threads`` threads (the
    kernels release the GIL); ``step`` is called as each piece is done.  With ``work`` (the
    work before each index, ascending, n + 1 long) the ranges hold about equal work."""
    edges = np.linspace(0, n, pieces + 1).astype(np.int64)
    if work is not None:
        edges = np.searchsorted(work, np.linspace(0, work[-1], pieces + 1)).astype(np.int64)
        edges[0], edges[-1] = 0, n

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
def comb7(n: int, k: int) -> int:  # pragma: no cover - compiled
    """C(n, k) for the small numbers of this module."""
    if k < 0 or k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


SUPERSET_LEVELS = 6
"""Sets T of 0 to 5 cards have a flush-superset list (one per suit class); six-card sets are
counted directly (:func:`_equity_range`)."""


def superset_classes() -> tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]]:
    """Each set of 0-5 cards (at :data:`LEVEL_BASE` of its size plus its colex index): its suit
    class, numbered through all sizes; and per class its canonical set (cards, padded with -1)
    and size.

    The flush hands holding a set, by rank value, are the same for every set of its suit class
    (renaming suits maps the one's onto the other's), so one list per class serves them all."""
    class_flat = np.zeros(LEVEL_BASE[SUPERSET_LEVELS], dtype=np.int32)
    reps, sizes = [], []
    first = 0
    for k in range(SUPERSET_LEVELS):
        class_of, cards = kernels.suit_classes(k)
        class_flat[LEVEL_BASE[k] : LEVEL_BASE[k + 1]] = class_of + first
        padded = np.full((len(cards), SUPERSET_LEVELS - 1), -1, dtype=np.int64)
        padded[:, :k] = cards
        reps.append(padded)
        sizes.append(np.full(len(cards), k, dtype=np.int64))
        first += len(cards)
    return class_flat, np.concatenate(reps), np.concatenate(sizes)


@jit
def _superset_range(
    reps: NDArray[np.int64],
    size: NDArray[np.int64],
    lo: int,
    hi: int,
    offsets: NDArray[np.int64],
    out: NDArray[np.uint16],
    fill: bool,
    values: NDArray[np.uint16],
    row_offsets: NDArray[np.int64],
    rank_keys: NDArray[np.int64],
) -> None:  # pragma: no cover - compiled
    """For the classes ``lo:hi``: the rank values of the flush hands holding the class's
    canonical set, ascending, into ``out[offsets[c]:offsets[c + 1]]``; without ``fill``, only
    how many there are, into ``offsets[c + 1]``.

    A flush hand holding T has j >= 5 cards of one suit s (ranks U, a superset of T's ranks in
    s) and 7 - j other cards X (a superset of T's other cards, so T has at most two)."""
    free = np.zeros(13, dtype=np.int64)
    pick = np.zeros(7, dtype=np.int64)
    other = np.zeros(39, dtype=np.int64)
    for c in range(lo, hi):
        k = size[c]
        n = 0
        for s in range(4):
            t_mask = 0
            n_off = 0
            low_t = 7 * SIZE_UNIT
            off_mask = np.int64(0)
            for i in range(k):
                card = reps[c, i]
                low_t += rank_keys[card >> 2]
                if card & 3 == s:
                    t_mask |= 1 << (card >> 2)
                else:
                    n_off += 1
                    off_mask |= np.int64(1) << card
            if n_off > 2:
                continue
            t = k - n_off
            n_free = 0
            for r in range(13):
                if not t_mask >> r & 1:
                    free[n_free] = r
                    n_free += 1
            n_other = 0
            for card in range(52):
                if card & 3 != s and not off_mask >> card & 1:
                    other[n_other] = card
                    n_other += 1
            for j in range(max(5, t), 8):
                extra = 7 - j - n_off
                if extra < 0:
                    continue
                need = j - t
                if not fill:
                    n += comb7(n_free, need) * comb7(n_other, extra)
                    continue
                for i in range(need):  # the ranks added in suit s: combinations of free
                    pick[i] = i
                while True:
                    low_u = low_t
                    for i in range(need):
                        low_u += rank_keys[free[pick[i]]]
                    if extra == 0:
                        out[offsets[c] + n] = values[slot_of(low_u, row_offsets)]
                        n += 1
                    elif extra == 1:
                        for x in range(n_other):
                            low = low_u + rank_keys[other[x] >> 2]
                            out[offsets[c] + n] = values[slot_of(low, row_offsets)]
                            n += 1
                    else:
                        for x in range(n_other):
                            for y in range(x + 1, n_other):
                                low = low_u + rank_keys[other[x] >> 2] + rank_keys[other[y] >> 2]
                                out[offsets[c] + n] = values[slot_of(low, row_offsets)]
                                n += 1
                    i = need - 1
                    while i >= 0 and pick[i] == n_free - need + i:
                        i -= 1
                    if i < 0:
                        break
                    pick[i] += 1
                    for m in range(i + 1, need):
                        pick[m] = pick[m - 1] + 1
        if fill:
            if offsets[c] + n != offsets[c + 1]:
                raise ValueError("a flush-superset list was not filled as counted")
            out[offsets[c] : offsets[c + 1]].sort()
        else:
            offsets[c + 1] = n


def flush_superset_lists(
    threads: int,
) -> tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.uint16]]:
    """:func:`superset_classes`' class of each set of 0-5 cards, and per class the rank values
    of the flush hands holding its sets, ascending: segment ``class`` of (offsets, values)."""
    t = tables()
    class_flat, reps, size = superset_classes()
    n = len(size)
    offsets = np.zeros(n + 1, dtype=np.int64)
    out = np.zeros(0, dtype=np.uint16)
    args = (t.values, t.row_offsets, _RANK_KEYS)
    _superset_range(reps, size, 0, n, offsets, out, False, *args)
    offsets = np.cumsum(offsets)
    out = np.zeros(offsets[-1], dtype=np.uint16)
    _run_split(lambda lo, hi: _superset_range(reps, size, lo, hi, offsets, out, True, *args),
               n, threads, work=offsets)  # fmt: skip
    return class_flat, offsets, out


PREFIX_LEVELS = 4
"""Sets of up to three cards (1,938 classes, lists of 4 million flush hands down to thousands)
also get their counts by value at hand (46 MB), so that no count searches a long list."""


def _counts_below(
    offsets: NDArray[np.int64], values: NDArray[np.uint16], width: int
) -> NDArray[np.int32]:
    """For the classes of sets of up to :data:`PREFIX_LEVELS` - 1 cards: ``[u, c]`` how many
    values in the class's list are below u (u from 0 to ``width`` - 1).  Value-major, so the
    counts one hand reads (its value and the next, every class) lie in two rows of 8 kB."""
    n = sum(len(kernels.suit_classes(k)[1]) for k in range(PREFIX_LEVELS))
    out = np.zeros((width, n), dtype=np.int32)
    at = np.arange(width)
    for c in range(n):
        out[:, c] = np.searchsorted(values[offsets[c] : offsets[c + 1]], at)
    return out


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
    sup_class: NDArray[np.int32],
    sup_off: NDArray[np.int64],
    sup_vals: NDArray[np.uint16],
    sup_below: NDArray[np.int32],
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
    suited = np.zeros(4, dtype=np.int64)
    bits = np.zeros(128, dtype=np.int64)  # bits[m]: cards in the subset m of seven positions
    last = np.zeros(128, dtype=np.int64)  # last[m]: m's highest position
    for m in range(1, 128):
        bits[m] = bits[m >> 1] + (m & 1)
        last[m] = last[m >> 1] + 1 if m > 1 else 0
    colex = np.zeros(128, dtype=np.int64)  # colex[m]: the colex index of the cards of m
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
            # flush dealer hands are above; take away those counted below or equal by ranks:
            # the sets T of up to five of the player's cards from the lists (a set no flush
            # hand holds has more than two cards outside each suit), six from the suit of four
            for s in range(4):
                at = 0
                for x in range(7):
                    if cards[x] & 3 == s:
                        at |= 1 << x
                suited[s] = at
            for m in range(1, 128):  # the highest card of m is its bits[m]-th
                colex[m] = colex[m ^ (1 << last[m])] + binom[cards[last[m]], bits[m]]
            for m in range(127):
                size = bits[m]
                if size == 6:
                    continue
                if min(bits[m & ~suited[0]], bits[m & ~suited[1]], bits[m & ~suited[2]],
                       bits[m & ~suited[3]]) > 2:  # fmt: skip
                    continue
                seg = sup_class[base[size] + colex[m]]
                if seg < sup_below.shape[1]:  # the long lists: counts by value at hand
                    under = np.int64(sup_below[v, seg])
                    upto = np.int64(sup_below[v + 1, seg])
                else:
                    a, b = sup_off[seg], sup_off[seg + 1]
                    if a == b:
                        continue
                    under = _lower_bound(sup_vals, a, b, v) - a
                    upto = _lower_bound(sup_vals, a, b, v + 1) - a
                if size & 1:
                    below += under
                    equal += upto - under
                else:
                    below -= under
                    equal -= upto - under
            for s in range(4):
                if _popcount(masks[i, s]) != 4:
                    continue
                # T: all but one card x outside suit s; its flush hands add a card of suit s
                for x in range(7):
                    if cards[x] & 3 == s:
                        continue
                    low_t = low - rank_keys[cards[x] >> 2]
                    for r in range(13):
                        if masks[i, s] >> r & 1:
                            continue
                        w = int(values[slot_of(low_t + rank_keys[r], row_offsets)])
                        if w < v:
                            below -= 1
                        elif w == v:
                            equal -= 1
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
    """The tables the per-hand count reads (about 250 MB)."""

    straight_max: int
    row_of_slot: NDArray[np.int64]
    rank_count: NDArray[np.int64]
    sub_off: NDArray[np.int64]
    sub_vals: NDArray[np.uint16]
    sup_class: NDArray[np.int32]
    sup_off: NDArray[np.int64]
    sup_vals: NDArray[np.uint16]
    sup_below: NDArray[np.int32]
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
                        empty16, np.zeros(0, dtype=np.int32), empty64, empty16,
                        np.zeros((top + 2, 0), dtype=np.int32), start_classes()[0])  # fmt: skip
    rows = None
    if hands is not None:
        ranks = np.zeros((len(hands), 13), dtype=np.int64)
        for r in range(13):
            for s in range(4):
                ranks[:, r] += (hands[:, s] >> r) & 1
        rows = np.unique(row_of_slot[_slot(ranks)])
    rank_count = rank_counts(counts, value, top, threads, rows, step)
    sub_off, sub_vals = _flush_subset_lists(t.flush)
    sup_class, sup_off, sup_vals = flush_superset_lists(threads)
    sup_below = _counts_below(sup_off, sup_vals, top + 2)
    return Prepared(top, row_of_slot, rank_count, sub_off, sub_vals, sup_class, sup_off,
                    sup_vals, sup_below, start_classes()[0])  # fmt: skip


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
                      prep.sub_off, prep.sub_vals, prep.sup_class, prep.sup_off,
                      prep.sup_vals, prep.sup_below, BINOM,
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
    """The Boston 7 counts, from the disk cache or computed (some 45 s of CPU, 0.9 GB);
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
