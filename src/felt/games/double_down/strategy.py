"""The suggested play at Double Down Stud: double exactly when it has positive expectation."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from felt.core.cards import Card
from felt.core.evaluator import evaluate
from felt.core.paytable import PayTable
from felt.games.double_down.round import DoubleDownRound, classify


def double_expectation(
    own: Card, dealer_up: Sequence[Card], others: Sequence[Card], table: PayTable
) -> Fraction:
    """Expected result per unit of a double down wager, given every card the player can see.

    The hole card is equally likely to be any card not in view: the area's own card, the dealer's
    three face-up cards and every other area's face-up card (all are exposed, 17.8(b)).  Doubling
    has positive expectation exactly when this is above zero.

    >>> from felt.core.cards import parse_cards
    >>> from felt.games.double_down.config import rules
    >>> ah, *up = parse_cards("Ah Ad Kc 7s")
    >>> double_expectation(ah, up, [], rules().pay_table) > 0
    True
    """
    seen = {own, *dealer_up, *others}
    unseen = [Card(c) for c in range(52) if c not in seen]
    total = Fraction(0)
    for hole in unseen:
        kind = classify(evaluate([own, *dealer_up, hole]))
        if kind == "lose":
            total -= 1
        elif kind != "push":
            payout = table.get(kind)
            assert payout is not None
            total += Fraction(payout.to_win, payout.to_stake)
    return total / len(unseen)


def suggest_double(rnd: DoubleDownRound, number: int) -> bool:
    """The suggested play: double exactly when :func:`double_expectation` is positive.

    It uses every card exposed on the table, other players' included, which the rules allow a
    player to see.
    """
    area = rnd.seats[number]
    others = [c for n, a in rnd.seats.items() if n != number for c in a.cards]
    return double_expectation(area.cards[0], rnd.dealer_cards[1:], others, rnd.config.pay_table) > 0
