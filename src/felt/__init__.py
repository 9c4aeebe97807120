"""felt: poker-based casino table games of the New Jersey and Massachusetts rules, exactly.

The core (cards, hand rankings, evaluation) has no I/O and no hidden randomness.

>>> from felt import evaluate
>>> evaluate("Ah Kh Qh Jh Th 9h 2c").describe()
'royal flush'
"""

from __future__ import annotations

__version__ = "0.1.0"

from felt.core.cards import ALL_CARDS, Card, Rank, Suit, format_cards, new_deck, parse_cards
from felt.core.errors import FeltError
from felt.core.evaluator import HandValue, TrioValue, evaluate, evaluate_three, hand_rank
from felt.core.ranking import Category, TrioCategory, royal_flush_length

__all__ = [
    "ALL_CARDS",
    "Card",
    "Category",
    "FeltError",
    "HandValue",
    "Rank",
    "Suit",
    "TrioCategory",
    "TrioValue",
    "__version__",
    "evaluate",
    "evaluate_three",
    "format_cards",
    "hand_rank",
    "new_deck",
    "parse_cards",
    "royal_flush_length",
]
