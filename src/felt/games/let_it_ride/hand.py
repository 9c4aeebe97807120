"""Let It Ride Poker hands: the five-card ranking of 19:47-18.3 (core's
:func:`~felt.core.ranking.five_card_key`: the ace high, or low only in A-2-3-4-5, 18.3(a) and
(b)6; suits equal), the pay-table line a hand is paid on, and the three-card hands of the
three-card bonus wager (18.6B, not in the seed text: Three Card Poker's ranking, core's
:func:`~felt.core.ranking.trio_key`, a straight above a flush).

The three wagers are paid on a pair of tens or better (18.11, not in the seed text); a lower pair
or no pair loses them.

>>> from felt.core.cards import parse_cards
>>> pay_hand(parse_cards("Th Tc 9d 5s 2h")), pay_hand(parse_cards("9h 9c Ad Ks 2h"))
('tens or better', None)
>>> pay_hand(parse_cards("5d 4c 3h 2s Ah")), bonus_hand(parse_cards("Ah Ac 9d 5s 2h"), ("flush",))
('straight', None)
>>> three_card_hand(parse_cards("Ah Kh Qh")), three_card_hand(parse_cards("Qs Qh 2d"))
('mini royal', 'pair')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from felt.core.cards import Card, Rank
from felt.core.evaluator import describe_five
from felt.core.ranking import Category, TrioCategory, five_card_key, trio_key

LEAST_PAIR: Final = Rank.TEN
"""The lowest pair the three wagers are paid on (a pair of tens or better, 18.11)."""
HANDS: Final = (
    "royal flush", "straight flush", "four of a kind", "full house", "flush", "straight",
    "three of a kind", "two pair", "tens or better",
)  # fmt: skip
"""The lines of the three wagers' pay table, best first (18.3(b) and, not in the seed text, the
least paying hand: a pair of tens or better)."""
BONUS_HANDS: Final = HANDS
"""The lines a let it ride bonus pay table (18.6A) may pay, best first."""
THREE_CARD_HANDS: Final = (
    "mini royal", "straight flush", "three of a kind", "straight", "flush", "pair",
)  # fmt: skip
"""The lines of the three-card bonus pay table (18.6B), best first: the mini royal is an ace,
king and queen of one suit."""
_TRIO_NAMES: Final = {
    TrioCategory.ROYAL_FLUSH: "mini royal",
    TrioCategory.STRAIGHT_FLUSH: "straight flush",
    TrioCategory.THREE_OF_A_KIND: "three of a kind",
    TrioCategory.STRAIGHT: "straight",
    TrioCategory.FLUSH: "flush",
    TrioCategory.ONE_PAIR: "pair",
    TrioCategory.HIGH_CARD: "high card",
}


def hand_name(cards: Sequence[int]) -> str:
    """The five-card hand's category as 18.3(b) names it (``"two pair"``, ``"one pair"``),
    ``"high card"`` below a pair."""
    return five_card_key(cards)[0].label


def pay_hand(cards: Sequence[int]) -> str | None:
    """The line of the three wagers' pay table the five cards are paid on (:data:`HANDS`), or None
    when they lose (below a pair of tens)."""
    category, order = five_card_key(cards)
    if category is Category.HIGH_CARD:
        return None
    if category is Category.ONE_PAIR:
        return "tens or better" if order[0] >= LEAST_PAIR else None
    return category.label


def bonus_hand(cards: Sequence[int], pays: Sequence[str] = BONUS_HANDS) -> str | None:
    """The line of a let it ride bonus pay table with the lines ``pays`` the five cards are paid
    on, or None."""
    name = pay_hand(cards)
    return name if name in pays else None


def three_card_hand(cards: Sequence[int]) -> str:
    """The player's own three cards as the three-card bonus pay table names them
    (:data:`THREE_CARD_HANDS`), ``"high card"`` below a pair."""
    return _TRIO_NAMES[trio_key(cards)[0]]


def describe(cards: Sequence[Card]) -> str:
    """Words for a five-card hand: ``"two pair, nines and twos, king kicker"``."""
    return describe_five(cards)
