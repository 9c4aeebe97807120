"""The compiled walk over every five- to seven-card hand behind :func:`felt.core.census.hand_census`.

Kept out of :mod:`felt.core.census` so that importing the census does not load numba: the
3-card census is plain Python, and an analysis that needs only it compiles nothing.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from felt.core._jit import jit
from felt.core.batch import FLUSH_BITS64, LOW_MASK64, SUIT_SHIFT64, SUM_START64, flush_mask
from felt.core.census import SEVEN_CARD_ROYAL_MASK, SIX_CARD_ROYAL_MASK
from felt.core.tables import ROW_BITS, ROW_MASK


@jit
def census_kernel(
    n: int,
    card_keys: NDArray[np.uint64],
    flush: NDArray[np.uint16],
    row_offsets: NDArray[np.int64],
    values: NDArray[np.uint16],
    five_category: NDArray[np.uint8],
) -> tuple[NDArray[np.int64], int, int]:  # pragma: no cover - compiled
    """Counts per category over all n-card hands (n = 5 to 7), and six-/seven-card royals.

    Walks the combinations in lexicographic order keeping the partial key sums, so each hand costs
    one addition and one lookup; the lookup is the arithmetic of felt.batch._rank_rows.
    """
    counts = np.zeros(10, dtype=np.int64)
    royal6 = 0
    royal7 = 0
    hand = np.zeros((1, n), dtype=np.uint8)
    idx = np.arange(n)
    sums = np.empty(n + 1, dtype=np.uint64)
    sums[0] = SUM_START64
    for k in range(n):
        hand[0, k] = k
        sums[k + 1] = sums[k] + card_keys[k]
    while True:
        total = sums[n]
        suits = (total >> SUIT_SHIFT64) & FLUSH_BITS64
        if suits:
            mask = flush_mask(hand, 0, suits)
            value = flush[mask]
            if mask & SEVEN_CARD_ROYAL_MASK == SEVEN_CARD_ROYAL_MASK:
                royal7 += 1
            elif mask & SIX_CARD_ROYAL_MASK == SIX_CARD_ROYAL_MASK:
                royal6 += 1
        else:
            low = np.int64(total & LOW_MASK64)
            value = values[row_offsets[low >> ROW_BITS] + (low & ROW_MASK)]
        counts[five_category[value]] += 1
        # Advance to the next combination: bump the rightmost index that can still move.
        k = n - 1
        while k >= 0 and idx[k] == 52 - n + k:
            k -= 1
        if k < 0:
            break
        idx[k] += 1
        for m in range(k, n):
            if m > k:
                idx[m] = idx[m - 1] + 1
            hand[0, m] = idx[m]
            sums[m + 1] = sums[m] + card_keys[idx[m]]
    return counts, royal6, royal7
