"""The suggested play at Three Card Poker: play queen-six-four or better, fold anything lower.

The rule is the optimal one the exact analysis finds (:mod:`.analysis`; the tests hold the two to
each other over all 22,100 hands): every pair or better is played, and a high-card hand is played
exactly when it ranks at or above Q-6-4.  It needs the player's three cards only; no card of
another position is ever in view before the decisions (they are dealt face down).

>>> from felt.core.cards import parse_cards
>>> should_play(parse_cards("Qs 6h 4d")), should_play(parse_cards("Qs 6h 3d"))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from felt.core.cards import Rank
from felt.core.ranking import TrioCategory, TrioKey
from felt.games.three_card_poker.actions import Fold, Play
from felt.games.three_card_poker.hand import hand_key
from felt.games.three_card_poker.round import ThreeCardRound

LEAST_PLAYED: Final[TrioKey] = (TrioCategory.HIGH_CARD, (Rank.QUEEN, Rank.SIX, Rank.FOUR))
"""The lowest hand the optimal strategy plays: queen-six-four."""


def should_play(cards: Sequence[int]) -> bool:
    """Whether the optimal strategy plays these three cards."""
    return hand_key(cards) >= LEAST_PLAYED


def suggest(rnd: ThreeCardRound, seat: int) -> Play | Fold:
    """The suggested play for the position ``seat`` (whose play-or-fold election is pending)."""
    return Play(seat) if should_play(rnd.seats[seat].cards) else Fold(seat)
