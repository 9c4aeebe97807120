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

from felt.core.errors import FeltError
from felt.core.ranking import Category, TrioCategory
from felt.core.tables import tables, trio_lookup

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


def hand_census(cards: int) -> Census:
    """Exact category counts over every hand of ``cards`` cards (3, 5, 6 or 7) from one deck.

    3 cards use the categories of 19:47-24.5(d) and 13:69F-24.5(d); five to
    seven cards use the best five-card hand of 19:47-24.5(b).  Seven cards take about a second.
    """
    if cards not in CENSUS_SIZES:
        allowed = ", ".join(map(str, CENSUS_SIZES[:-1])) + f" or {CENSUS_SIZES[-1]}"
        raise FeltError(f"hand census needs {allowed} cards, got {cards}")
    if cards == 3:  # the 3-card tables alone: a cold analysis of 3-card hands needs no other
        three_table, three_category = trio_lookup()
        three = three_table.tolist()
        per_three = np.zeros(len(TrioCategory), dtype=np.int64)
        for a, b, c in itertools.combinations(range(52), 3):
            per_three[three_category[three[2704 * a + 52 * b + c]]] += 1
        ordered3 = sorted(TrioCategory, reverse=True)
        return Census(3, sum(map(int, per_three)), {c.label: int(per_three[c]) for c in ordered3})
    from felt.core._census_kernel import census_kernel  # numba, loaded only when it is needed

    t = tables()
    counts, royal6, royal7 = census_kernel(
        cards, t.card_keys, t.flush, t.row_offsets, t.values, t.five_category
    )
    extended = {}
    if cards >= 6:
        extended["six-card royal flush"] = int(royal6)
    if cards == 7:
        extended["seven-card royal flush"] = int(royal7)
    ordered = sorted(Category, reverse=True)
    return Census(cards, int(counts.sum()), {c.label: int(counts[c]) for c in ordered}, extended)
