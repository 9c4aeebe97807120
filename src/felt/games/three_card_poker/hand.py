"""Three Card Poker hands (N.J.A.C. 19:47-20.3, title only in the seed): the ranking of core's
:func:`~felt.core.ranking.trio_key`, which is the order the later New Jersey text gives — straight
flush, three of a kind, straight, flush, pair, high card; A-K-Q the highest straight and 3-2-A the
lowest, K-A-2 no straight.  Core's three-card royal flush is here just the highest straight flush.

>>> from felt.core.cards import parse_cards
>>> describe(parse_cards("Qs 6h 4d")), hand_name(parse_cards("Ah Kh Qh"))
('high card, queen-six-four', 'straight flush')
>>> qualifies(parse_cards("Qs 3h 2d")), qualifies(parse_cards("Js Th 8d"))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from felt.core.cards import Rank
from felt.core.ranking import TrioCategory, TrioKey, trio_key

HAND_OF: Final = {
    TrioCategory.ROYAL_FLUSH: "straight flush",
    TrioCategory.STRAIGHT_FLUSH: "straight flush",
    TrioCategory.THREE_OF_A_KIND: "three of a kind",
    TrioCategory.STRAIGHT: "straight",
    TrioCategory.FLUSH: "flush",
    TrioCategory.ONE_PAIR: "pair",
    TrioCategory.HIGH_CARD: "high card",
}
"""The name of each core category as Three Card Poker's pay tables write it."""
QUALIFIER: Final = Rank.QUEEN
"""The dealer's hand qualifies with queen high or better (the rules data repeats it)."""


def hand_key(cards: Sequence[int]) -> TrioKey:
    """The key of three distinct cards: keys compare as the hands rank; equal keys tie."""
    return trio_key(cards)


def hand_name(cards: Sequence[int]) -> str:
    """The hand's name as the pay tables write it (``"pair"``, ``"high card"``, ...)."""
    return HAND_OF[trio_key(cards)[0]]


def describe(cards: Sequence[int]) -> str:
    """Words for the hand, e.g. ``"pair of jacks, nine kicker"``."""
    category, order = trio_key(cards)
    ranks = [Rank(r) for r in order]
    name = HAND_OF[category]
    match category:
        case TrioCategory.ROYAL_FLUSH:
            return "straight flush, ace high"
        case TrioCategory.STRAIGHT_FLUSH | TrioCategory.STRAIGHT:
            return f"{name}, {ranks[0].noun} high"
        case TrioCategory.THREE_OF_A_KIND:
            return f"three of a kind, {ranks[0].plural}"
        case TrioCategory.ONE_PAIR:
            return f"pair of {ranks[0].plural}, {ranks[1].noun} kicker"
        case _:
            return f"{name}, " + "-".join(r.noun for r in ranks)


def qualifies(cards: Sequence[int], qualifier: Rank = QUALIFIER) -> bool:
    """Whether the dealer's hand qualifies: a pair or better, or ``qualifier`` high or better."""
    category, _ = trio_key(cards)
    return category > TrioCategory.HIGH_CARD or max(c >> 2 for c in cards) >= qualifier
