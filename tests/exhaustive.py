"""Helpers for tests that visit every hand: enumeration and brute force, compiled with numba."""

from __future__ import annotations

from math import comb

import numpy as np
from numpy.typing import NDArray

from felt.core._jit import jit
from felt.core.batch import rank_batch

BINOM = np.array([[comb(n, k) for k in range(8)] for n in range(53)], dtype=np.int64)


@jit
def all_hands(n: int, first: int, deck: int = 52) -> NDArray[np.uint8]:  # pragma: no cover
    """Every n-card hand (ascending card numbers below ``deck``) whose lowest card is ``first``,
    in order."""
    rest = deck - 1 - first
    count = 1
    for k in range(n - 1):
        count = count * (rest - k) // (k + 1)
    out = np.empty((count, n), dtype=np.uint8)
    idx = np.arange(n) + first
    row = 0
    while True:
        for k in range(n):
            out[row, k] = idx[k]
        row += 1
        k = n - 1
        while k >= 1 and idx[k] == deck - n + k:
            k -= 1
        if k < 1:
            break
        idx[k] += 1
        for m in range(k + 1, n):
            idx[m] = idx[m - 1] + 1
    return out


@jit
def colex5(
    hands: NDArray[np.uint8], binom: NDArray[np.int64]
) -> NDArray[np.int64]:  # pragma: no cover
    """Colex index (0 to C(52,5)-1) of each ascending five-card row."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        s = 0
        for k in range(5):
            s += binom[hands[i, k], k + 1]
        out[i] = s
    return out


@jit
def best_of_fives(
    hands: NDArray[np.uint8], five_values: NDArray[np.uint16], binom: NDArray[np.int64]
) -> NDArray[np.uint16]:  # pragma: no cover - compiled
    """Brute force: for each ascending row of 6 or 7 cards, the best value among its five-card
    subsets, each looked up by colex index in ``five_values``."""
    n = hands.shape[1]
    out = np.zeros(hands.shape[0], dtype=np.uint16)
    for i in range(hands.shape[0]):
        best = 0
        for skip_a in range(n):
            for skip_b in range(skip_a + 1 if n == 7 else n, n if n == 7 else n + 1):
                s = 0
                k = 0
                for j in range(n):
                    if j == skip_a or (n == 7 and j == skip_b):
                        continue
                    k += 1
                    s += binom[hands[i, j], k]
                v = five_values[s]
                if v > best:
                    best = v
        out[i] = best
    return out


def dealer_counts(player: list[int]) -> tuple[int, int]:
    """Brute force: of the C(45,7) dealer hands from the cards a 7-card player hand leaves, how
    many rank below it and how many equal it (the batch evaluator, which ``test_exhaustive``
    checks against best-of-fives on every 7-card hand)."""
    rest = np.array([c for c in range(52) if c not in set(player)], dtype=np.uint8)
    own = int(rank_batch([sorted(player)])[0])
    below = equal = 0
    for first in range(39):
        values = rank_batch(rest[all_hands(7, first, 45)], check=False)
        below += int((values < own).sum())
        equal += int((values == own).sum())
    return below, equal
