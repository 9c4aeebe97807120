"""The optimal bet or fold for one situation (the player's five cards and the dealer's up card),
exactly: every one of the 163,185 sets of the dealer's four hole cards is valued (numpy), and the
bet is made when it expects more than folding (19:47-16.1 "Bet wager": twice the ante).

>>> from fractions import Fraction
>>> from felt.core.cards import parse_cards
>>> pays = {"one pair": Fraction(1), "ace king": Fraction(1)}
>>> should_bet(parse_cards("As Kd 8h 3c 2s"), parse_cards("4c")[0], pays)
False
>>> should_bet(parse_cards("2s 2d 7h 8c 3s"), parse_cards("Ac")[0], pays)
True
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from felt.games.caribbean_stud.analysis import (
    DEALER_HANDS,
    NAMES,
    _check_situation,
    _name_of_value,
    qualifier_value,
)

_BINOM = np.array([[1 if k == 0 else 0 for k in range(6)]] + [[0] * 6] * 52, dtype=np.int64)
for _n in range(1, 53):
    _BINOM[_n] = [1] + [int(_BINOM[_n - 1, k - 1] + _BINOM[_n - 1, k]) for k in range(1, 6)]
del _n


@functools.cache
def _hole_sets() -> NDArray[np.int64]:
    """Every set of four positions among 46 cards (163,185 rows)."""
    return np.array(list(itertools.combinations(range(46), 4)), dtype=np.int64)


def _colex(cards: NDArray[np.int64]) -> NDArray[np.int64]:
    """Colex index of each row of five ascending cards."""
    return sum((_BINOM[cards[:, i], i + 1] for i in range(5)), np.zeros(len(cards), np.int64))


def situation_counts(hand: Sequence[int], up: int) -> tuple[int, int, int, int]:
    """The 163,185 dealer hands of ``up`` and four of the cards left, for the player's ``hand``:
    how many do not qualify, qualify and lose to the player, tie, and beat the player."""
    from felt.analysis.kernels import five_card_values

    cards, up = _check_situation(hand, up)
    values = five_card_values()
    rest = np.array([c for c in range(52) if c not in cards and c != up], dtype=np.int64)
    dealer = np.sort(np.column_stack([rest[_hole_sets()], np.full(DEALER_HANDS, up)]), axis=1)
    dealt = values[_colex(dealer)].astype(np.int64)
    mine = int(values[_colex(np.array([sorted(cards)], dtype=np.int64))[0]])
    qualify = dealt >= qualifier_value()
    nq = int((~qualify).sum())
    win = int((qualify & (dealt < mine)).sum())
    push = int((qualify & (dealt == mine)).sum())
    return nq, win, push, DEALER_HANDS - nq - win - push


def should_bet(hand: Sequence[int], up: int, bet_pays: Mapping[str, Fraction]) -> bool:
    """Whether betting (twice the ante) expects more than folding for the player's ``hand``
    against the dealer's ``up`` card, under the pay table ``bet_pays`` (odds to 1 by hand name);
    where both expect the same, fold.  Folding loses the ante: -1 per deal; betting wins 1 when
    the dealer does not qualify, 1 + 2 x odds when the player's hand wins, 0 on a tie, -3
    otherwise."""
    from felt.analysis.kernels import five_card_values

    nq, win, _, lose = situation_counts(hand, up)
    colex = _colex(np.array([sorted(int(c) for c in hand)], dtype=np.int64))[0]
    name = NAMES[int(_name_of_value()[int(five_card_values()[colex])])]
    odds = Fraction(bet_pays.get(name, 0))
    return nq + win * (1 + 2 * odds) - 3 * lose > -DEALER_HANDS
