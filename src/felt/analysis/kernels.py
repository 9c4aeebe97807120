"""Compiled enumeration kernels for the exact analyses (numba).

Every five-card hand has a *colex index* (0 to C(52,5)-1): for ascending cards c0 < ... < c4 it is
C(c0,1) + C(c1,2) + C(c2,3) + C(c3,4) + C(c4,5).  :func:`five_card_values` gives each index's value
(1-7462) through the batch evaluator, and the kernels below look hands up by index.
"""

from __future__ import annotations

import functools
from math import comb
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from felt.core._jit import jit
from felt.core.batch import rank_batch
from felt.core.tables import cache_dir, load_arrays, save_arrays, source_digest

BINOM = np.array([[comb(n, k) for k in range(8)] for n in range(53)], dtype=np.int64)
N_FIVE = comb(52, 5)


@jit
def _all_fives() -> NDArray[np.uint8]:  # pragma: no cover - compiled
    out = np.empty((N_FIVE, 5), dtype=np.uint8)
    row = 0
    for e in range(4, 52):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        out[row, 0], out[row, 1], out[row, 2], out[row, 3], out[row, 4] = (
                            a,
                            b,
                            c,
                            d,
                            e,
                        )
                        row += 1
    return out


@functools.cache
def five_card_values() -> NDArray[np.uint16]:
    """Value of every five-card hand, indexed by colex index (the loops above run in colex order)."""
    return rank_batch(_all_fives(), check=False)


@jit
def colex5(
    a: int, b: int, c: int, d: int, e: int, binom: NDArray[np.int64]
) -> int:  # pragma: no cover
    """Colex index of five distinct cards given in any order."""
    # sort five small ints with a fixed network
    if a > b:
        a, b = b, a
    if d > e:
        d, e = e, d
    if c > e:
        c, e = e, c
    if c > d:
        c, d = d, c
    if b > e:
        b, e = e, b
    if a > d:
        a, d = d, a
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return int(binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4] + binom[e, 5])


@jit
def _count_below(rows: NDArray[np.uint16], r: int, v: int) -> int:  # pragma: no cover - compiled
    """How many entries of the sorted row ``r`` are below ``v`` (binary search, no array view)."""
    lo, hi = 0, rows.shape[1]
    while lo < hi:
        mid = (lo + hi) >> 1
        if rows[r, mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


@jit
def _triple_values(
    values: NDArray[np.uint16], binom: NDArray[np.int64]
) -> NDArray[np.uint16]:  # pragma: no cover
    """For every three cards (by colex index), the values of the 1,176 hands that hold them."""
    out = np.empty((22100, 1176), dtype=np.uint16)
    fill = np.zeros(22100, dtype=np.int64)
    cards = np.empty(5, dtype=np.int64)
    for e in range(4, 52):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        v = values[
                            binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4] + binom[e, 5]
                        ]
                        cards[0], cards[1], cards[2], cards[3], cards[4] = a, b, c, d, e
                        for i in range(5):
                            for j in range(i + 1, 5):
                                for k in range(j + 1, 5):
                                    t = binom[cards[i], 1] + binom[cards[j], 2] + binom[cards[k], 3]
                                    out[t, fill[t]] = v
                                    fill[t] += 1
    return out


@jit
def _equity_counts(
    values: NDArray[np.uint16], binom: NDArray[np.int64], triples: NDArray[np.uint16]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:  # pragma: no cover - compiled
    n_values = 7463
    hist0 = np.zeros(n_values + 1, dtype=np.int64)
    hist1 = np.zeros((52, n_values + 1), dtype=np.int64)
    hist2 = np.zeros((1326, n_values + 1), dtype=np.int64)
    cards = np.empty(5, dtype=np.int64)
    for e in range(4, 52):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        v = values[
                            binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4] + binom[e, 5]
                        ]
                        hist0[v] += 1
                        cards[0], cards[1], cards[2], cards[3], cards[4] = a, b, c, d, e
                        for i in range(5):
                            hist1[cards[i], v] += 1
                            for j in range(i + 1, 5):
                                hist2[binom[cards[i], 1] + binom[cards[j], 2], v] += 1
    below0 = np.zeros(n_values + 1, dtype=np.int64)
    below1 = np.zeros((52, n_values + 1), dtype=np.int64)
    below2 = np.zeros((1326, n_values + 1), dtype=np.int64)
    for v in range(1, n_values + 1):
        below0[v] = below0[v - 1] + hist0[v - 1]
        for c in range(52):
            below1[c, v] = below1[c, v - 1] + hist1[c, v - 1]
        for p in range(1326):
            below2[p, v] = below2[p, v - 1] + hist2[p, v - 1]
    lower = np.zeros(N_FIVE, dtype=np.int64)
    equal = np.zeros(N_FIVE, dtype=np.int64)
    for e in range(4, 52):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        h = binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4] + binom[e, 5]
                        v = np.int64(values[h])
                        cards[0], cards[1], cards[2], cards[3], cards[4] = a, b, c, d, e
                        lo = below0[v]
                        eq = hist0[v]
                        for i in range(5):
                            lo -= below1[cards[i], v]
                            eq -= hist1[cards[i], v]
                            for j in range(i + 1, 5):
                                p = binom[cards[i], 1] + binom[cards[j], 2]
                                lo += below2[p, v]
                                eq += hist2[p, v]
                                for k in range(j + 1, 5):
                                    t = binom[cards[i], 1] + binom[cards[j], 2] + binom[cards[k], 3]
                                    under = _count_below(triples, t, int(v))
                                    lo -= under
                                    eq -= _count_below(triples, t, int(v) + 1) - under
                        for skip in range(5):  # hands holding four given cards of P
                            q0, q1, q2, q3 = -1, -1, -1, -1
                            n = 0
                            for i in range(5):
                                if i != skip:
                                    if n == 0:
                                        q0 = cards[i]
                                    elif n == 1:
                                        q1 = cards[i]
                                    elif n == 2:
                                        q2 = cards[i]
                                    else:
                                        q3 = cards[i]
                                    n += 1
                            for x in range(52):
                                if x == q0 or x == q1 or x == q2 or x == q3:
                                    continue
                                vv = values[colex5(q0, q1, q2, q3, x, binom)]
                                if vv < v:
                                    lo += 1
                                elif vv == v:
                                    eq += 1
                        eq -= 1  # P itself
                        lower[h] = lo
                        equal[h] = eq
    return lower, equal


def _equity_digest() -> str:
    """Digest of the code the equity counts derive from (this file and the hand tables)."""
    here = Path(__file__)
    return source_digest(here, here.parent.parent / "core" / "tables.py",
                         here.parent.parent / "core" / "ranking.py")  # fmt: skip


@functools.cache
def equity_counts() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """:func:`count_equity`, from the disk cache when its contents check out, else computed once
    and cached: the counts depend on no table, so ``felt analyze`` and ``felt simulate`` need not
    recount them (about 5 s) each run.  A cache file whose stored digest does not match its
    contents (edited, truncated, unreadable) is recomputed, never trusted."""
    path = cache_dir() / f"equity5-{_equity_digest()}.npz"
    cached = load_arrays(path, ("lower", "equal"))
    if cached is not None and cached["lower"].shape == cached["equal"].shape == (2598960,):
        return cached["lower"].astype(np.int64), cached["equal"].astype(np.int64)
    lower, equal = count_equity()
    save_arrays(path, lower=lower.astype(np.int32), equal=equal.astype(np.int32))
    return lower, equal


def boston5_cells(line_of_value: NDArray[np.int64], n_lines: int) -> NDArray[np.int64]:
    """:func:`boston5_start_counts` for one assignment of hand values to ante bonus lines, from a
    verified disk cache when there is one: the cells depend on which lines the table pays, not on
    its odds, limit or ante, so a warm ``felt analyze`` or ``felt simulate`` skips the count."""
    lines = ",".join(map(str, np.asarray(line_of_value).tolist()))
    here = Path(__file__)
    key = source_digest(here, salt=f"{_equity_digest()}|{n_lines}|{lines}", length=24)
    path = cache_dir() / f"cells5-{key}.npz"
    cached = load_arrays(path, ("cells",))
    if cached is not None and cached["cells"].shape == (22100, n_lines, 3):
        return cached["cells"].astype(np.int64)
    values = five_card_values()
    lower, equal = equity_counts()
    cells = boston5_start_counts(values, lower, equal, line_of_value, n_lines, BINOM)
    save_arrays(path, cells=cells)
    return cells


def count_equity() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For every five-card hand P (by colex index): how many five-card hands of the other 47 cards
    rank below P, and how many equal it (of C(47,5) = 1,533,939).

    Inclusion-exclusion over the cards of P: the hands disjoint from P are all hands, minus those
    holding each card of P, plus those holding each pair, minus each three, plus each four, minus P.
    Counts for one and two cards come from histograms by value, for three from the sorted values
    of the 1,176 hands holding them, for four by enumeration.
    """
    values = five_card_values()
    triples = _triple_values(values, BINOM)
    triples.sort(axis=1)
    return _equity_counts(values, BINOM, triples)


@jit
def boston5_start_counts(
    values: NDArray[np.uint16],
    lower: NDArray[np.int64],
    equal: NDArray[np.int64],
    line_of_value: NDArray[np.int64],
    n_lines: int,
    binom: NDArray[np.int64],
) -> NDArray[np.int64]:  # pragma: no cover - compiled
    """For each three-card start (by colex index): over its 1,176 completions to five cards and the
    dealer's C(47,5) hands, how many (completion, dealer hand) pairs fall in each (ante-bonus line,
    result) cell; results are 0 player higher, 1 tie, 2 dealer higher. Shape (22100, n_lines, 3)."""
    total = 1533939
    out = np.zeros((22100, n_lines, 3), dtype=np.int64)
    for c in range(2, 52):
        for b in range(1, c):
            for a in range(b):
                s = binom[a, 1] + binom[b, 2] + binom[c, 3]
                for x in range(52):
                    if x == a or x == b or x == c:
                        continue
                    for y in range(x + 1, 52):
                        if y == a or y == b or y == c:
                            continue
                        h = colex5(a, b, c, x, y, binom)
                        line = line_of_value[values[h]]
                        lo = lower[h]
                        eq = equal[h]
                        out[s, line, 0] += lo
                        out[s, line, 1] += eq
                        out[s, line, 2] += total - lo - eq
    return out


@jit
def dds_situations(
    values: NDArray[np.uint16],
    line_of_value: NDArray[np.int64],
    n_lines: int,
    binom: NDArray[np.int64],
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:  # pragma: no cover - compiled
    """Double Down Stud: for each situation (own card, three dealer up-cards), how many of the 48
    possible hole cards give each pay line (shape (52 * C(51,3), n_lines), in loop order), and the
    situation's class: its four ranks, high to low, in base 13, times 2, plus 1 if all four share
    a suit."""
    out = np.zeros((52 * 20825, n_lines), dtype=np.int64)
    keys = np.zeros(52 * 20825, dtype=np.int64)
    four = np.empty(4, dtype=np.int64)
    s = 0
    for own in range(52):
        for u1 in range(52):
            if u1 == own:
                continue
            for u2 in range(u1 + 1, 52):
                if u2 == own:
                    continue
                for u3 in range(u2 + 1, 52):
                    if u3 == own:
                        continue
                    for hole in range(52):
                        if hole == own or hole == u1 or hole == u2 or hole == u3:
                            continue
                        out[s, line_of_value[values[colex5(own, u1, u2, u3, hole, binom)]]] += 1
                    four[0], four[1], four[2], four[3] = own >> 2, u1 >> 2, u2 >> 2, u3 >> 2
                    four.sort()
                    key = 0
                    for i in range(3, -1, -1):
                        key = key * 13 + four[i]
                    suited = (own & 3) == (u1 & 3) == (u2 & 3) == (u3 & 3)
                    keys[s] = key * 2 + (1 if suited else 0)
                    s += 1
    return out, keys
