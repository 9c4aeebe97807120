"""The compiled count behind :mod:`felt.games.caribbean_stud.analysis`: every player hand (one
per suit class) against every dealer hand of its up card, by one sweep over the 2,598,960
five-card hands in increasing value.

Kept in its own module so that importing the analysis (for the cached sheet) loads no numba.

Sets of cards are numbered by their *colex index* (ascending cards c0 < c1 < ...: the sum of
C(c_i, i + 1)).  While the sweep adds the hands of value x, ``vec0[u]``, ``vec1[c, u]``,
``vec2[pair, u]`` and ``vec3[triple, u]`` count the hands added so far that hold the card u and
the set (none, one card, a pair, a triple).  The dealer hands that hold the up card u, avoid the
player's five cards P and are valued below x are then, by inclusion-exclusion over the subsets S
of P, the sum of (-1)^|S| times the hands below x holding S and u: 26 rows of those tables (the
subsets of at most three cards) and, for the five four-card subsets, whether S + {u} itself is
below x.  Asked at the qualifier for every player hand, and at each hand's own value before and
after the hands of that value are added, this gives each (player hand, up card) its dealer hands
below the qualifier, below the hand and not above it.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numpy.typing import NDArray

from felt.core._jit import jit


def binomials() -> NDArray[np.int64]:
    """C(n, k) for n to 52 and k to 6."""
    return np.array([[comb(n, k) for k in range(7)] for n in range(53)], dtype=np.int64)


@jit
def _below(
    p: NDArray[np.int64],
    s: NDArray[np.int64],
    x: int,
    values: NDArray[np.uint16],
    binom: NDArray[np.int64],
    vec0: NDArray[np.int32],
    vec1: NDArray[np.uint16],
    vec2: NDArray[np.uint16],
    vec3: NDArray[np.uint8],
    out: NDArray[np.int32],
    kind: int,
    row: int,
    first: int,
    end: int,
) -> None:  # pragma: no cover - compiled
    """``out[kind, row, u]``: the hands added so far holding u and none of the five cards ``p``
    (ascending), by inclusion-exclusion over the subsets of ``p``; for the four-card subsets S,
    whether ``values`` puts S + {u} below ``x``.  Only for the up cards u from ``first`` to
    ``end`` (excluded); entries for u in ``p`` are meaningless."""
    for u in range(first, end):
        out[kind, row, u] = vec0[u]
    for i in range(5):
        for u in range(first, end):
            out[kind, row, u] -= vec1[p[i], u]
    for i in range(5):
        for j in range(i + 1, 5):
            r2 = binom[p[i], 1] + binom[p[j], 2]
            for u in range(first, end):
                out[kind, row, u] += vec2[r2, u]
            for k in range(j + 1, 5):
                r3 = binom[p[i], 1] + binom[p[j], 2] + binom[p[k], 3]
                for u in range(first, end):
                    out[kind, row, u] -= vec3[r3, u]
    for skip in range(5):
        # S = p less p[skip]; S + {u} with j cards of S below u has the colex index
        # sum_{i<j} C(s_i, i+1) + C(u, j+1) + sum_{i>=j} C(s_i, i+2) = s[j] + C(u, j+1)
        m = 0
        for i in range(5):
            if i != skip:
                s[m] = p[i]
                m += 1
        tail = 0
        for i in range(4):
            tail += binom[s[i], i + 2]
        head = 0
        j = 0
        for u in range(end):
            if j < 4 and s[j] == u:
                head += binom[u, j + 1]
                tail -= binom[u, j + 2]
                j += 1
                continue
            if u >= first and values[head + binom[u, j + 1] + tail] < x:
                out[kind, row, u] += 1


@jit
def _add(
    hands: NDArray[np.uint8],
    row: int,
    binom: NDArray[np.int64],
    vec0: NDArray[np.int32],
    vec1: NDArray[np.uint16],
    vec2: NDArray[np.uint16],
    vec3: NDArray[np.uint8],
    first: int,
    end: int,
) -> None:  # pragma: no cover - compiled
    """Count the hand ``h`` (five ascending cards) in every table: for each subset S of at most
    three of its cards and each other card u of it from ``first`` to ``end`` (excluded), the row
    of S at u."""
    for i in range(5):
        u = hands[row, i]
        if u < first or u >= end:
            continue
        vec0[u] += 1
        for j in range(5):
            if j != i:
                vec1[hands[row, j], u] += 1
        for j in range(5):
            for k in range(j + 1, 5):
                if j != i and k != i:
                    pair = binom[hands[row, j], 1] + binom[hands[row, k], 2]
                    vec2[pair, u] += 1
                    for m in range(k + 1, 5):
                        if m != i:
                            vec3[pair + binom[hands[row, m], 3], u] += 1


@jit
def sweep(
    values: NDArray[np.uint16],
    hands: NDArray[np.uint8],
    order: NDArray[np.int64],
    start: NDArray[np.int64],
    players: NDArray[np.int64],
    pstart: NDArray[np.int64],
    qualifier: int,
    binom: NDArray[np.int64],
    vec0: NDArray[np.int32],
    vec1: NDArray[np.uint16],
    vec2: NDArray[np.uint16],
    vec3: NDArray[np.uint8],
    out: NDArray[np.int32],
    p: NDArray[np.int64],
    s: NDArray[np.int64],
    first: int,
    end: int,
) -> None:  # pragma: no cover - compiled
    """For each player hand and each up card u from ``first`` to ``end`` (excluded), into
    ``out`` (shape (4, players, 52)): how many dealer hands (u and four of the 46 other cards) do
    not qualify (valued below ``qualifier``), qualify and rank below the player's hand, tie it,
    and beat it (zero for u in the hand).

    ``values``: each hand's value by colex index (1 up, higher ranks higher), ``hands`` its cards
    (ascending, one row per colex index); ``order``: the colex indices by increasing value, those
    of value x from ``start[x]`` to ``start[x + 1]``; ``players``: the player hands' colex indices
    by increasing value, those of value x from ``pstart[x]``.  The tables ``vec0`` to ``vec3``
    start at zero; ``p`` and ``s`` are scratch.  Two calls on disjoint ranges of up cards (with
    tables of their own) may run at once: they share nothing they write, and the compiled code
    releases the GIL."""
    top = len(start) - 2
    n = len(players)
    dealer = 163_185
    for x in range(top + 2):
        # before the hands of value x are added: every player hand at the qualifier, those of
        # value x (below them) and those of value x - 1 (not above them); one call site keeps
        # the compiled code small
        everyone = n if x == qualifier else 0
        now = pstart[x] if x <= top else n
        now_end = pstart[x + 1] if x <= top else n
        last = pstart[x - 1] if x > 0 else 0
        queries = everyone + (now_end - now) + (now - last)
        for r in range(queries):
            if r < everyone:
                i = r
                kind = 0
            elif r < everyone + now_end - now:
                i = now + r - everyone
                kind = 1
            else:
                i = last + r - everyone - (now_end - now)
                kind = 2
            for j in range(5):
                p[j] = hands[players[i], j]
            _below(p, s, x, values, binom, vec0, vec1, vec2, vec3, out, kind, i, first, end)
        if x <= top:
            for r in range(start[x], start[x + 1]):
                _add(hands, order[r], binom, vec0, vec1, vec2, vec3, first, end)
    # below the qualifier (a), below the hand (b), not above it (c): the dealer does not qualify
    # in a; qualifies and loses from a up to max(a, b); ties up to max(a, c); wins the rest
    for i in range(n):
        for u in range(first, end):
            a = out[0, i, u]
            lo = max(a, out[1, i, u])
            hi = max(a, out[2, i, u])
            out[1, i, u] = lo - a
            out[2, i, u] = hi - lo
            out[3, i, u] = dealer - hi
        for j in range(5):
            u = hands[players[i], j]
            if first <= u < end:
                for kind in range(4):
                    out[kind, i, u] = 0


def warm_up() -> None:
    """Compile :func:`sweep` for the argument types :mod:`.analysis` passes (the values table is
    read-only), on arrays with no player hands: run in a thread while the caller builds the real
    arrays, so compiling and numpy's work overlap."""
    values = np.zeros(1, dtype=np.uint16)
    values.flags.writeable = False
    none = np.zeros(0, dtype=np.int64)
    sweep(
        values, np.zeros((0, 5), dtype=np.uint8), none, np.zeros(2, dtype=np.int64), none,
        np.zeros(2, dtype=np.int64), 0, binomials(), np.zeros(52, dtype=np.int32),
        np.zeros((52, 52), dtype=np.uint16), np.zeros((1326, 52), dtype=np.uint16),
        np.zeros((22100, 52), dtype=np.uint8), np.zeros((4, 0, 52), dtype=np.int32),
        np.empty(5, dtype=np.int64), np.empty(4, dtype=np.int64), 0, 0,
    )  # fmt: skip
