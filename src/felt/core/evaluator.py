"""Exact evaluation of one hand: value, category and, from six or seven cards, the best five.

This is the single-hand path.  It reads the same tables with the same arithmetic as the batch
path in :mod:`felt.core.batch` (see :mod:`felt.core.tables` for how), in plain Python so that evaluating a
hand needs no compilation; the tests check that both give the same value for every hand.

>>> hand = evaluate("Ah Kh Qh Jh Th 9h 2c")
>>> hand.category.label, hand.rank, format_cards(hand.best_five)
('royal flush', 7462, 'Ah Kh Qh Jh Th')
>>> evaluate("As Ad Kc Kd 2s") > evaluate("Ks Kh Qc Qd As")
True
>>> evaluate_three("Qd Kd Ad").category
<TrioCategory.ROYAL_FLUSH: 6>
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from felt.core.cards import Card, Rank, format_cards, parse_cards
from felt.core.errors import FeltError
from felt.core.ranking import Category, TrioCategory, five_card_key_of_ranks, royal_flush_length
from felt.core.tables import (
    FLUSH_BITS,
    LOW_MASK,
    ROW_BITS,
    ROW_MASK,
    SUIT_SHIFT,
    SUM_START,
    tables,
)

__all__ = [
    "HandValue",
    "TrioValue",
    "evaluate",
    "evaluate_three",
    "format_cards",
    "hand_rank",
    "royal_flush_length",
]

CardsLike = str | Iterable[str | int]


@dataclass(frozen=True, slots=True)
class _PyTables:
    """The tables as Python lists: indexing a list is several times faster than a numpy array."""

    card_keys: list[int]
    flush: list[int]
    row_offsets: list[int]
    values: list[int]
    three: list[int]
    five_category: list[Category]
    three_category: list[TrioCategory]


@functools.cache
def _py() -> _PyTables:
    t = tables()
    return _PyTables(
        card_keys=[int(k) for k in t.card_keys],
        flush=t.flush.tolist(),
        row_offsets=t.row_offsets.tolist(),
        values=t.values.tolist(),
        three=t.three.tolist(),
        five_category=[Category(int(c)) for c in t.five_category],
        three_category=[TrioCategory(int(c)) for c in t.three_category],
    )


def hand_rank(cards: Sequence[int]) -> int:
    """Value (1-7462, higher is better) of the best five of 5-7 distinct card numbers; no checks.

    The fast core of :func:`evaluate`, for callers that already hold validated card numbers.

    >>> hand_rank([51, 47, 43, 39, 35])  # As Ks Qs Js Ts
    7462
    """
    t = _py()
    keys = t.card_keys
    total = SUM_START
    for c in cards:
        total += keys[c]
    flush = (total >> SUIT_SHIFT) & FLUSH_BITS
    if flush:
        suit = (flush > 0x8) + (flush > 0x80) + (flush > 0x800)
        mask = 0
        for c in cards:
            if c & 3 == suit:
                mask |= 1 << (c >> 2)
        return t.flush[mask]
    low = total & LOW_MASK
    return t.values[t.row_offsets[low >> ROW_BITS] + (low & ROW_MASK)]


def _display_order(five: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards as a dealer would set them: larger groups first, then higher ranks.

    In a five-high straight (A-2-3-4-5) the ace plays low and is shown last (19:47-24.5(a)).
    """
    counts = [0] * 13
    for c in five:
        counts[c >> 2] += 1
    wheel = counts[12] == counts[0] == counts[1] == counts[2] == counts[3] == 1

    def weight(c: Card) -> int:
        rank = c >> 2
        return counts[rank] * 64 + (-1 if wheel and rank == 12 else rank) * 4 + (c & 3)

    return tuple(sorted(five, key=weight, reverse=True))


class _ComparedByRank:
    """Order, equality and hash by ``rank`` alone, between values of the same kind.

    Equal ranks are a push (19:47-24.5(c)) whatever the suits, so they compare equal.
    """

    rank: int

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.rank == other.rank

    def __lt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.rank < other.rank

    def __le__(self, other: object) -> bool:
        return self == other or self < other

    def __gt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.rank > other.rank

    def __ge__(self, other: object) -> bool:
        return self == other or self > other

    def __hash__(self) -> int:
        return hash(self.rank)


@dataclass(frozen=True, eq=False)
class HandValue(_ComparedByRank):
    """A hand's value: higher ``rank`` wins, equal ranks push (19:47-24.5(c)).

    Comparisons and equality look at ``rank`` only, so two hands that push are equal whatever
    their suits.  ``best_five`` are the five cards that make the value, in display order; from six
    or seven cards where several fives tie, the one using the earliest-listed cards is chosen.
    """

    rank: int
    category: Category
    best_five: tuple[Card, ...]
    cards: tuple[Card, ...]

    @property
    def royal_flush_length(self) -> int:
        """Longest royal flush among all the cards (7, 6, 5 or 0), per 13:69F-24.5(e)."""
        return royal_flush_length(self.cards)

    def describe(self) -> str:
        """A dealer's description, e.g. ``"full house, aces full of kings"``.

        >>> evaluate("2c 2d 9h 9s Kd").describe()
        'two pair, nines and twos, king kicker'
        """
        return self._words

    @functools.cached_property
    def _words(self) -> str:
        """:meth:`describe`, worded once a value: a value is immutable, and a table server names
        the same hands (each :func:`evaluate` of the same cards is the same value) in every view
        it sends of a round."""
        return describe_five(self.best_five)

    def __str__(self) -> str:
        return f"{self.describe()} ({format_cards(self.best_five)})"


def describe_five(five: Sequence[Card]) -> str:
    """Words for a five-card hand, from the reference ranking of 19:47-24.5(b)."""
    if len(five) != 5 or len(set(five)) != 5:
        raise ValueError("a five-card key needs five distinct cards")
    ranks = tuple(sorted((c >> 2 for c in five), reverse=True))
    return _describe(ranks, len({c & 3 for c in five}) == 1)


@functools.cache
def _describe(ranks: tuple[int, ...], suited: bool) -> str:
    """:func:`describe_five` of five ranks (highest first) and whether they share a suit: the
    words depend on nothing else, so each of the few thousand such hands is worded once."""
    category, order = five_card_key_of_ranks(ranks, suited)
    r = [Rank(x) for x in order]
    match category:
        case Category.ROYAL_FLUSH:
            return "royal flush"
        case Category.STRAIGHT_FLUSH | Category.STRAIGHT:
            return f"{category.label}, {r[0].noun} high"
        case Category.FOUR_OF_A_KIND:
            return f"four of a kind, {r[0].plural}, {r[1].noun} kicker"
        case Category.FULL_HOUSE:
            return f"full house, {r[0].plural} full of {r[1].plural}"
        case Category.FLUSH | Category.HIGH_CARD:
            return f"{category.label}, " + "-".join(x.noun for x in r)
        case Category.THREE_OF_A_KIND:
            return f"three of a kind, {r[0].plural}"
        case Category.TWO_PAIR:
            return f"two pair, {r[0].plural} and {r[1].plural}, {r[2].noun} kicker"
        case _:
            return f"one pair, {r[0].plural}"


HAND_SIZES: Final = (5, 6, 7)


def _cards_of(cards: CardsLike, allowed: tuple[int, ...], what: str) -> tuple[Card, ...]:
    """Parse and count-check cards; the error names the sizes allowed."""
    parsed = parse_cards(cards)
    if len(parsed) not in allowed:
        sizes = " or ".join(filter(None, [", ".join(map(str, allowed[:-1])), str(allowed[-1])]))
        raise FeltError(f"{what} needs {sizes} cards, got {len(parsed)}")
    return parsed


def evaluate(cards: CardsLike) -> HandValue:
    """The value of the best five-card hand among 5, 6 or 7 distinct cards (19:47-24.5).

    From six or seven cards this is the hand the dealer "shall set" (13:69F-24.10(e)), and
    ``best_five`` shows which five make it.  Raises :class:`FeltError` on unknown or repeated
    cards or a wrong number of them.
    """
    return _evaluate(_cards_of(cards, HAND_SIZES, "a poker hand"))


@functools.lru_cache(maxsize=4096)
def _evaluate(hand: tuple[Card, ...]) -> HandValue:
    """:func:`evaluate` of checked cards, remembered: a table server names the same hands in
    every view it sends of a round (a value is immutable, so sharing it is safe)."""
    value = hand_rank(hand)
    if len(hand) == 5:
        five: Sequence[Card] = hand
    else:
        five = next(f for f in itertools.combinations(hand, 5) if hand_rank(f) == value)
    return HandValue(value, _py().five_category[value], _display_order(five), hand)


@dataclass(frozen=True, eq=False)
class TrioValue(_ComparedByRank):
    """A 3-card hand, ranked as 19:47-24.5(d) and 13:69F-24.5(d) rank them.

    ``rank`` runs from 1 to 741; categories follow the order the texts list them in and, within
    a category, higher cards rank higher (A-2-3 is the lowest straight).  Like :class:`HandValue`,
    comparisons look at ``rank`` only.
    """

    rank: int
    category: TrioCategory
    cards: tuple[Card, ...]


def evaluate_three(hand: CardsLike) -> TrioValue:
    """Classify three distinct cards as 19:47-24.5(d) and 13:69F-24.5(d) rank them.

    >>> evaluate_three("Ac 2d 3h").category.name, evaluate_three("Kc Ad 2h").category.name
    ('STRAIGHT', 'HIGH_CARD')
    """
    a, b, c = _cards_of(hand, (3,), "a 3-card hand")
    t = _py()
    value = t.three[2704 * a + 52 * b + c]
    return TrioValue(value, t.three_category[value], (a, b, c))
