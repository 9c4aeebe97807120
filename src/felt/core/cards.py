"""Cards and the 52-card deck: parsing, printing and the numbering every other module uses.

A card is an ``int`` from 0 to 51, ``rank * 4 + suit``, so cards drop straight into numpy arrays
and lookup tables.  Ranks run from two (0) to ace (12) as in N.J.A.C. 19:47-24.5(a); the suit
numbering (clubs, diamonds, hearts, spades) is only an identity, since "no suit [is] higher in rank
than another" (19:47-24.1, "Suit").

>>> Card.parse("As")
Card('As')
>>> str(Card.parse("10d")), Card.parse("q♥").symbol
('Td', 'Q♥')
>>> parse_cards("Ah Kh Qh")
(Card('Ah'), Card('Kh'), Card('Qh'))
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Final

from felt.core.errors import FeltError, excerpt


class Rank(IntEnum):
    """Card ranks, low to high (N.J.A.C. 19:47-24.5(a); the ace also plays low in A-2-3-4-5)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        """The one-character symbol: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return RANK_CHARS[self]

    @property
    def noun(self) -> str:
        """The English name used in hand descriptions ("ace", "ten", ...)."""
        return _RANK_NOUNS[self]

    @property
    def plural(self) -> str:
        """Plural noun for descriptions ("aces", "sixes")."""
        return "sixes" if self is Rank.SIX else self.noun + "s"


class Suit(IntEnum):
    """The four suits; none outranks another (N.J.A.C. 19:47-24.1, "Suit")."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """The ASCII letter: ``c``, ``d``, ``h``, ``s``."""
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ♣ ♦ ♥ ♠."""
        return SUIT_SYMBOLS[self]


RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "cdhs"
SUIT_SYMBOLS: Final = "♣♦♥♠"
_RANK_NOUNS: Final = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)  # fmt: skip

_RANK_INPUT: Final = {c: Rank(i) for i, c in enumerate(RANK_CHARS)} | {"10": Rank.TEN}
_SUIT_INPUT: Final = (
    {c: Suit(i) for i, c in enumerate(SUIT_CHARS)}
    | {s: Suit(i) for i, s in enumerate(SUIT_SYMBOLS)}
    | {s: Suit(i) for i, s in enumerate("♧♢♡♤")}
)

CARD_SYNTAX: Final = (
    "a rank (2-9, T or 10, J, Q, K, A) followed by a suit (c, d, h, s or ♣ ♦ ♥ ♠), e.g. As, 10d"
)


class Card(int):
    """One of the 52 cards, numbered ``rank * 4 + suit``; parse with :meth:`parse`.

    >>> c = Card.of(Rank.ACE, Suit.SPADES)
    >>> int(c), c.rank.name, c.suit.name
    (51, 'ACE', 'SPADES')
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        """The card numbered ``index`` (0-51): the one of :data:`ALL_CARDS`, never a copy (a
        server holds thousands of decks; a new object each would be one more for the garbage
        collector to examine)."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 52:
            raise FeltError(f"card index must be a whole number from 0 to 51, got {index!r}")
        return ALL_CARDS[index]

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        """A card is immutable: copying a hand copies the list, not its cards."""
        return self

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The card of the given rank and suit."""
        return ALL_CARDS[int(rank) * 4 + int(suit)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card such as ``As``, ``td``, ``10d`` or ``A♠`` (case-insensitive)."""
        token = unicodedata.normalize("NFC", text.strip()).replace("\ufe0f", "")
        rank = _RANK_INPUT.get(token[:-1].upper())
        suit = _SUIT_INPUT.get(token[-1:].lower())
        if rank is None or suit is None:
            raise FeltError(f"unknown card {excerpt(text)}: expected {CARD_SYNTAX}")
        return ALL_CARDS[rank * 4 + suit]

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return Rank(self >> 2)

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self & 3)

    @property
    def symbol(self) -> str:
        """Rank letter and suit symbol, e.g. ``A♠``."""
        return RANK_CHARS[self >> 2] + SUIT_SYMBOLS[self & 3]

    def __str__(self) -> str:
        """Rank letter and suit letter, e.g. ``As``: the ASCII notation files and JSON use."""
        return RANK_CHARS[self >> 2] + SUIT_CHARS[self & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


ALL_CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(52))
"""The 52 cards in index order: 2c 2d 2h 2s 3c ... As."""

CARD_TEXT: Final[tuple[str, ...]] = tuple(str(c) for c in ALL_CARDS)
"""Each card's text (``str(card)``, e.g. ``As``) by its index, for writing many cards without a
call a card: a round's record writes its whole deck, every action its cards dealt, every view
the cards it shows."""


def parse_cards(cards: str | Iterable[str | int]) -> tuple[Card, ...]:
    """Read several distinct cards from a string (split on spaces or commas) or an iterable.

    Items may be card text or card numbers.  A duplicate is an error: one deck holds each card
    once (N.J.A.C. 19:47-24.2(a)).

    >>> parse_cards("As, Kd")
    (Card('As'), Card('Kd'))
    >>> parse_cards(["As", "as"])
    Traceback (most recent call last):
    ...
    felt.core.errors.FeltError: duplicate card: As appears more than once
    """
    items: Iterable[str | int] = (
        cards.replace(",", " ").split() if isinstance(cards, str) else cards
    )
    out: list[Card] = []
    seen = 0
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool) and 0 <= item < 52:
            card = ALL_CARDS[item]
        else:
            card = Card(item) if isinstance(item, int) else Card.parse(item)
        if seen >> card & 1:
            raise FeltError(f"duplicate card: {card} appears more than once")
        seen |= 1 << card
        out.append(card)
    return tuple(out)


def format_cards(cards: Sequence[int], *, symbols: bool = False) -> str:
    """Cards separated by spaces, as letters (``As Kd``) or with suit symbols (``A♠ K♦``)."""
    return " ".join(Card(c).symbol if symbols else str(Card(c)) for c in cards)


def new_deck() -> list[Card]:
    """A fresh 52-card deck in index order (2c 2d 2h 2s ... As), to be shuffled by the caller."""
    return list(ALL_CARDS)
