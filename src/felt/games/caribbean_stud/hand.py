"""Caribbean Stud Poker hands: the five-card ranking of 19:47-16.5 (core's
:func:`~felt.core.ranking.five_card_key`: the ace high, or low only in A-2-3-4-5; a straight never
wraps round the ace), the names the pay tables use, and the dealer's qualifying hand (16.1).

Two pair's order, one pair and high card, and ties compared card by card with an exact tie a push,
are not in the seed text (16.5(b) stops at "Two pairs"): they are the ranking every poker text of
the chapter writes out (19:47-24.5), which core implements once.

>>> from felt.core.cards import parse_cards
>>> hand_name(parse_cards("As Kd 9h 5c 2s")), qualifies(parse_cards("As Kd 4h 3c 2s"))
('ace king', True)
>>> qualifies(parse_cards("As Qd Jh Tc 8s")), hand_name(parse_cards("5d 4c 3h 2s Ah"))
(False, 'straight')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from felt.core.cards import Card, Rank
from felt.core.evaluator import describe_five
from felt.core.ranking import Category, FiveCardKey, five_card_key

QUALIFIER: Final = (Rank.ACE, Rank.KING, Rank.FOUR, Rank.THREE, Rank.TWO)
"""The least qualifying hand (16.1 "Qualifying hand": "ace, king, four, three and two or
better"); the rules data repeats it."""


def hand_key(cards: Sequence[int]) -> FiveCardKey:
    """The key of five distinct cards: keys compare as the hands rank (16.5); equal keys tie."""
    return five_card_key(cards)


def hand_name(cards: Sequence[int]) -> str:
    """The hand as the pay tables name it: a category of 16.5(b) (``"two pair"``, ``"one
    pair"``), ``"ace king"`` for a high-card hand holding an ace and a king, else ``"high
    card"``."""
    category, order = five_card_key(cards)
    if category is Category.HIGH_CARD:
        return "ace king" if order[:2] == (Rank.ACE, Rank.KING) else "high card"
    return category.label


def describe(cards: Sequence[Card]) -> str:
    """Words for the hand: ``"two pair, nines and twos, king kicker"``."""
    return describe_five(cards)


def qualifies(cards: Sequence[int], qualifier: Sequence[int] = QUALIFIER) -> bool:
    """Whether the dealer's hand qualifies: ranks at least A-K-4-3-2 (16.1), so any pair or
    better, or a high-card hand that compares card by card at least as high as ``qualifier``."""
    category, order = five_card_key(cards)
    return category > Category.HIGH_CARD or tuple(order) >= tuple(qualifier)
