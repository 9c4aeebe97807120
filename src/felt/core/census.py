"""Exact frequency of every hand category by full enumeration: the textbook tables, and an oracle.

Like perft in chess, the counts over every possible hand check the whole evaluator at once against
published figures (see ``tests/test_census.py`` for the figures and their sources).

>>> c = hand_census(5)
>>> c.total, c.counts["royal flush"], c.counts["high card"]
(2598960, 4, 1302540)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from felt.core._jit import jit
from felt.core.batch import FLUSH_BITS64, LOW_MASK64, SUIT_SHIFT64, SUM_START64, flush_mask
from felt.core.errors import FeltError
from felt.core.ranking import Category, ThreeCardCategory
from felt.core.tables import ROW_BITS, ROW_MASK, tables, three_card_lookup

__all__ = ["CENSUS_SIZES", "Census", "hand_census"]

CENSUS_SIZES = (3, 5, 6, 7)
SIX_CARD_ROYAL_MASK = 0x1F80
"""Ranks A-K-Q-J-10-9 (13:69F-24.5(e)1) as a 13-bit rank mask."""
SEVEN_CARD_ROYAL_MASK = 0x1FC0
"""Ranks A-K-Q-J-10-9-8 (13:69F-24.5(e)2) as a 13-bit rank mask."""


@dataclass(frozen=True)
class Census:
    """How many of all C(52, n) hands fall in each category (best five for six or seven cards)."""

    cards: int
    total: int
    counts: dict[str, int]
    """Category label to count, highest category first."""
    extended_royals: dict[str, int] = field(default_factory=dict)
    """For six and seven cards: hands holding a six-card royal flush (and not a seven-card one),
    and hands holding a seven-card royal flush (13:69F-24.5(e))."""

    def probability(self, label: str) -> Fraction:
        """Exact probability of a category or extended royal."""
        return Fraction(self.counts.get(label, self.extended_royals.get(label, 0)), self.total)


@jit
def _census_kernel(
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


def hand_census(cards: int) -> Census:
    """Exact category counts over every hand of ``cards`` cards (3, 5, 6 or 7) from one deck.

    Three cards use the optional-bonus categories of 19:47-24.5(d) and 13:69F-24.5(d); five to
    seven cards use the best five-card hand of 19:47-24.5(b).  Seven cards take about a second.
    """
    if cards not in CENSUS_SIZES:
        allowed = ", ".join(map(str, CENSUS_SIZES[:-1])) + f" or {CENSUS_SIZES[-1]}"
        raise FeltError(f"hand census needs {allowed} cards, got {cards}")
    if cards == 3:  # the three-card tables alone: a cold Boston 5 analysis needs no other
        three_table, three_category = three_card_lookup()
        three = three_table.tolist()
        per_three = np.zeros(len(ThreeCardCategory), dtype=np.int64)
        for a, b, c in itertools.combinations(range(52), 3):
            per_three[three_category[three[2704 * a + 52 * b + c]]] += 1
        ordered3 = sorted(ThreeCardCategory, reverse=True)
        return Census(3, sum(map(int, per_three)), {c.label: int(per_three[c]) for c in ordered3})
    t = tables()
    counts, royal6, royal7 = _census_kernel(
        cards, t.card_keys, t.flush, t.row_offsets, t.values, t.five_category
    )
    extended = {}
    if cards >= 6:
        extended["six-card royal flush"] = int(royal6)
    if cards == 7:
        extended["seven-card royal flush"] = int(royal7)
    ordered = sorted(Category, reverse=True)
    return Census(cards, int(counts.sum()), {c.label: int(counts[c]) for c in ordered}, extended)
