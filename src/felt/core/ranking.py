"""The hand rankings as the rule texts write them: the reference every fast path is built from.

This module is deliberately plain: it reads like N.J.A.C. 19:47-24.5 and is fast enough only to
build the lookup tables (:mod:`felt.core.tables`) and to serve as the oracle in tests.  The same
five-card ranking is written out for every poker-based game in the chapter (19:47-16.5, 19:47-17.5, 19:47-18.3,
19:47-24.5 and 13:69F-24.5), so one implementation serves them all.

A hand's *key* is ``(category, tie_break)``; keys compare exactly as hands rank, and equal keys
are a push (19:47-24.5(c)).

>>> from felt.core.cards import parse_cards
>>> five_card_key(parse_cards("As Ks Qs Js Ts"))
(<Category.ROYAL_FLUSH: 9>, ())
>>> five_card_key(parse_cards("5d 4c 3h 2s Ah"))
(<Category.STRAIGHT: 4>, (3,))
>>> trio_key(parse_cards("Ah 2h 3h"))
(<TrioCategory.STRAIGHT_FLUSH: 5>, (1,))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from typing import Final

from felt.core.cards import Rank

ACE: Final = int(Rank.ACE)
WHEEL: Final = frozenset({ACE, 0, 1, 2, 3})
"""A-2-3-4-5: the ace completes the lowest straight (19:47-24.5(a), (b)2 and (b)6)."""


class Category(IntEnum):
    """The five-card hands of 19:47-24.5(b), low to high (high card: "none of the hands", (c))."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def label(self) -> str:
        """The category's name as the rule texts use it, e.g. ``"four of a kind"``."""
        return self.name.lower().replace("_", " ")


class TrioCategory(IntEnum):
    """The 3-card hands of 19:47-24.5(d) and 13:69F-24.5(d), lowest to highest.

    The royal flush (A-K-Q of one suit) exists only in 13:69F-24.5(d)1; the 2003 texts pay it as
    a straight flush, which is a pay-table matter, not a ranking one.
    """

    HIGH_CARD = 0
    ONE_PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    STRAIGHT_FLUSH = 5
    ROYAL_FLUSH = 6

    @property
    def label(self) -> str:
        """The name as in the rule texts (19:47-24.5(d)): ``"one pair"``, ``"three of a kind"``."""
        return _THREE_LABELS[self]


_THREE_LABELS: Final = {
    TrioCategory.HIGH_CARD: "high card",
    TrioCategory.ONE_PAIR: "one pair",
    TrioCategory.FLUSH: "three-card flush",
    TrioCategory.STRAIGHT: "three-card straight",
    TrioCategory.THREE_OF_A_KIND: "three of a kind",
    TrioCategory.STRAIGHT_FLUSH: "three-card straight flush",
    TrioCategory.ROYAL_FLUSH: "three-card royal flush",
}

FiveCardKey = tuple[Category, tuple[int, ...]]
TrioKey = tuple[TrioCategory, tuple[int, ...]]


def straight_top(ranks: Sequence[int]) -> int | None:
    """The top rank of a five-card straight, or None; the wheel's top is the five (19:47-24.5(b)6).

    An ace ends a straight only at the top (A-K-Q-J-T) or starts it at the bottom (A-2-3-4-5),
    never wraps around (Q-K-A-2-3 is not a straight).
    """
    distinct = set(ranks)
    if len(distinct) != 5 or len(ranks) != 5:
        return None
    if distinct == WHEEL:
        return int(Rank.FIVE)
    return max(distinct) if max(distinct) - min(distinct) == 4 else None


def five_card_key_of_ranks(ranks: Sequence[int], suited: bool) -> FiveCardKey:
    """Key of five cards given their ranks and whether all five share a suit (19:47-24.5(b), (c)).

    Categories are ordered as (b) lists them.  Within a category the hands are ordered by the
    ranks (b) names for that category (the four, the three then the pair, the higher pair then the
    lower, the pair), and what remains is decided by (c): the highest card not held by the other
    hand, which for hands alike so far is a comparison of the remaining ranks from the top
    (see docs/interpretations.md, "Comparing hands of the same category").
    """
    if len(ranks) != 5:
        raise ValueError("a five-card key needs exactly five ranks")
    counts = Counter(ranks)
    # Ranks ordered by (how many, rank), highest first: the order (b) and (c) compare them in.
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    order = tuple(r for r, _ in groups)
    top = straight_top(ranks)
    if suited and top is not None:
        if top == ACE:
            return Category.ROYAL_FLUSH, ()
        return Category.STRAIGHT_FLUSH, (top,)
    if shape == (4, 1):
        return Category.FOUR_OF_A_KIND, order
    if shape == (3, 2):
        return Category.FULL_HOUSE, order
    if suited:
        return Category.FLUSH, order
    if top is not None:
        return Category.STRAIGHT, (top,)
    if shape == (3, 1, 1):
        return Category.THREE_OF_A_KIND, order
    if shape == (2, 2, 1):
        return Category.TWO_PAIR, order
    if shape == (2, 1, 1, 1):
        return Category.ONE_PAIR, order
    return Category.HIGH_CARD, order


def five_card_key(cards: Sequence[int]) -> FiveCardKey:
    """Key of exactly five distinct cards (card numbers as in :mod:`felt.core.cards`)."""
    if len(cards) != 5 or len(set(cards)) != 5:
        raise ValueError("a five-card key needs five distinct cards")
    return five_card_key_of_ranks([c >> 2 for c in cards], len({c & 3 for c in cards}) == 1)


def trio_key(cards: Sequence[int]) -> TrioKey:
    """Key of three distinct cards, ranked as 19:47-24.5(d) and 13:69F-24.5(d) rank them.

    A-2-3 is a straight (the ace plays low as in 24.5(a)) and the lowest one; K-A-2 is not
    ("an ace may not be combined with a king and two", 24.5(d)3).  A-K-Q of one suit is the
    royal flush of 13:69F-24.5(d)1.
    """
    if len(cards) != 3 or len(set(cards)) != 3:
        raise ValueError("a 3-card key needs three distinct cards")
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    suited = len({c & 3 for c in cards}) == 1
    distinct = set(ranks)
    top: int | None = None
    if len(distinct) == 3:
        if ranks[0] - ranks[2] == 2:
            top = ranks[0]
        elif distinct == {ACE, 0, 1}:
            top = int(Rank.THREE)
    if suited and top is not None:
        if top == ACE:
            return TrioCategory.ROYAL_FLUSH, ()
        return TrioCategory.STRAIGHT_FLUSH, (top,)
    if len(distinct) == 1:
        return TrioCategory.THREE_OF_A_KIND, (ranks[0],)
    if top is not None:
        return TrioCategory.STRAIGHT, (top,)
    if suited:
        return TrioCategory.FLUSH, tuple(ranks)
    if len(distinct) == 2:
        pair = ranks[1]  # the middle card of three sorted cards always belongs to the pair
        kicker = ranks[0] if ranks[0] != pair else ranks[2]
        return TrioCategory.ONE_PAIR, (pair, kicker)
    return TrioCategory.HIGH_CARD, tuple(ranks)


ROYAL_RUNS: Final = {
    5: (12, 11, 10, 9, 8),
    6: (12, 11, 10, 9, 8, 7),
    7: (12, 11, 10, 9, 8, 7, 6),
}
"""Ranks of the five-, six- and seven-card royal flushes (19:47-24.5(b)1; 13:69F-24.5(e))."""


def royal_flush_length(cards: Sequence[int]) -> int:
    """The longest royal flush the cards hold: 7, 6, 5, or 0 for none (13:69F-24.5(e)).

    A six-card royal flush is A-K-Q-J-10-9 of one suit and a seven-card one adds the 8; a hand is
    counted once, at its longest (13:69F-24.11(c) pays "once for the highest payout").

    >>> from felt.core.cards import parse_cards
    >>> royal_flush_length(parse_cards("Ah Kh Qh Jh Th 9h 2c"))
    6
    """
    suited: dict[int, set[int]] = {}
    for c in cards:
        suited.setdefault(c & 3, set()).add(c >> 2)
    best = 0
    for ranks in suited.values():
        for length in (7, 6, 5):
            if length > best and ranks.issuperset(ROYAL_RUNS[length]):
                best = length
    return best
