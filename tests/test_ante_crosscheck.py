"""The Boston house edge checked by an argument that shares nothing with felt's enumeration.

Under 24.10(f), with the second wager always placed and a ratio of ``r`` (first = second =
``r`` x ante), one round's result in antes is

    2r (+1 player higher, 0 tie, -1 dealer higher)      first and second wagers, (f)1-(f)3
    - 1 if the dealer is higher                         the ante loses, (f)1
    + odds of the player's ante bonus line, if any      paid "regardless", (f)3 and 11(c)

(while the payout limit does not bind).  Player and dealer hands are alike (five or seven random
cards of one deck), so P(player higher) = P(dealer higher) = (1 - P(tie)) / 2, and the house edge
per ante of always raising is

    (1 - P(tie)) / 2  -  sum over lines of P(line) x odds(line).

Both terms come from outside felt's code: the hand frequencies are the published counts of
five- and seven-card poker hands (the "Poker probability" tables, e.g. Wikipedia's: 4 royal
flushes, 36 straight flushes, 624 fours of a kind ... of 2,598,960 five-card hands), and the tie
probability of two disjoint five-card hands is counted below over rank multisets alone.  The
settlement code read the ante the old way (the ante kept when a bonus hand lost) and every test
agreed with it; this check would have failed.
"""

from __future__ import annotations

import itertools
import os
from fractions import Fraction
from math import comb, prod

import pytest

from felt.games.boston.analysis import analyze_boston5
from felt.games.boston.config import TableConfig

FIVE_CARD_COUNTS = {  # published five-card hand counts (of C(52,5) = 2,598,960)
    "royal flush": 4,
    "straight flush": 36,
    "four of a kind": 624,
    "full house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three of a kind": 54912,
    "two pair": 123552,
}
SEVEN_CARD_COUNTS = {  # published best-five-of-seven counts (of C(52,7) = 133,784,560)
    "royal flush": 4324,
    "straight flush": 37260,
    "four of a kind": 224848,
    "full house": 3473184,
    "flush": 4047644,
    "straight": 6180020,
    "three of a kind": 6461620,
}
BOSTON5_ODDS = {  # 19:47-24.11(c), the same in 205 CMR and 13:69F-24.11(c) for Boston 5
    "royal flush": 1000,
    "straight flush": 200,
    "four of a kind": 100,
    "full house": 25,
    "flush": 15,
    "straight": 8,
    "three of a kind": 4,
    "two pair": 2,
}


def five_card_tie_pairs() -> int:
    """Ordered pairs of disjoint five-card hands that push (24.5(c)), counted by rank multiset.

    Two hands push exactly when they hold the same ranks and are both flushes or both not.  With
    repeated ranks no flush is possible and the second hand picks, rank by rank, from the suits
    the first left: C(4, m) x C(4 - m, m).  With five distinct ranks each hand picks one suit
    per rank (12^5 ordered pairs); both are flushes in 4 x 3 ways, exactly one is in
    2 x 4 x (3^5 - 3) ways.
    """
    return tie_pairs(13)


def tie_pairs(ranks: int) -> int:
    """:func:`five_card_tie_pairs` for a deck of ``ranks`` ranks in four suits."""
    total = 0
    for multiset in itertools.combinations_with_replacement(range(ranks), 5):
        counts = [multiset.count(r) for r in set(multiset)]
        if max(counts) > 4:
            continue
        if max(counts) == 1:
            both_flush = 4 * 3
            one_flush = 2 * 4 * (3**5 - 3)
            total += both_flush + (12**5 - both_flush - one_flush)
        else:
            total += prod(comb(4, m) * comb(4 - m, m) for m in counts if m)
    return total


def test_five_card_tie_count_by_brute_force_on_a_reduced_deck() -> None:
    """The multiset count's argument, checked by dealing out every pair on a 20-card deck."""
    ranks = range(5)  # five ranks, four suits: 20 cards
    deck = [(r, s) for r in ranks for s in range(4)]

    def key(hand: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], bool]:
        return tuple(sorted(r for r, _ in hand)), len({s for _, s in hand}) == 1

    buckets: dict[tuple[tuple[int, ...], bool], list[int]] = {}
    for hand in itertools.combinations(deck, 5):
        mask = sum(1 << (r * 4 + s) for r, s in hand)
        buckets.setdefault(key(hand), []).append(mask)
    brute = sum(  # every ordered pair of disjoint hands with the same key
        sum(1 for a in masks for b in masks if not a & b) for masks in buckets.values()
    )
    formula = tie_pairs(5)
    assert brute == formula


def boston5_edge_always_raise() -> Fraction:
    """The closed form above for Boston 5 at a minimum table (the limit does not bind)."""
    hands = comb(52, 5)
    p_tie = Fraction(five_card_tie_pairs(), hands * comb(47, 5))
    bonus = sum(
        Fraction(FIVE_CARD_COUNTS[line] * odds, hands) for line, odds in BOSTON5_ODDS.items()
    )
    return (1 - p_tie) / 2 - bonus


@pytest.mark.parametrize("edition", ["nj-19-47-24", "ma-205-cmr", "nj-13-69f-24"])
def test_24_10_f_boston5_house_edge_equals_the_closed_form(edition: str) -> None:
    """24.10(f)1-3 and 24.11(c): felt's exact par sheet against the independent closed form."""
    config = TableConfig.from_mapping({"game": "boston5", "edition": edition})
    sheet = analyze_boston5(config)
    expected = boston5_edge_always_raise()
    assert sheet.strategies["always raise"] == expected
    assert sheet.house_edge_ante == expected  # always raising is optimal at the minimum table
    # 5,893,982,021 / 30,201,864,420 = 19.5153% per ante (see the closing note of issue 9)
    assert expected == Fraction(5893982021, 30201864420)


def boston7_bonus_term(ante: int) -> Fraction:
    """Sum of P(line) x payout / ante for Boston 7's ante bonus (13:69F-24.11(c)), paid once for
    the highest payout: a seven-card royal flush (A-K-Q-J-10-9-8 suited, 4 hands) $25,000, a
    six-card royal flush (A-K-Q-J-10-9 suited without the 8: 4 x 45 hands) $5,000, and the
    published seven-card counts for the rest."""
    hands = comb(52, 7)
    seven_royal, six_royal = 4, 4 * 45
    odds = {"royal flush": 200, "straight flush": 50, "four of a kind": 20, "full house": 4,
            "flush": 3, "straight": 2, "three of a kind": 1}  # fmt: skip
    counts = dict(SEVEN_CARD_COUNTS)
    counts["royal flush"] -= seven_royal + six_royal
    term = Fraction(seven_royal * max(2500000, 200 * ante) + six_royal * max(500000, 200 * ante),
                    hands * ante)  # fmt: skip
    return term + sum(Fraction(counts[line] * o, hands) for line, o in odds.items())


@pytest.mark.skipif(
    not os.environ.get("FELT_FULL"),
    reason="needs the Boston 7 counts (about 90 s cold); set FELT_FULL=1",
)
@pytest.mark.parametrize("ratio", [1, 2])
def test_13_69f_24_10_f_boston7_house_edge_equals_the_closed_form(ratio: int) -> None:
    """13:69F-24.10(f), 24.11(c): Boston 7's edge per ante is (1 - P(tie)) / 2 minus the bonus
    term from the published seven-card counts, at either wager ratio of 13:69F-24.6(d)."""
    from felt.games.boston.analysis import analyze_boston7

    config = TableConfig.from_mapping(
        {"game": "boston7", "edition": "nj-13-69f-24", "first_ratio": ratio}
    )
    sheet = analyze_boston7(config)
    ties = sum(o.count for o in sheet.outcomes if o.result == "tie")
    total = sum(o.count for o in sheet.outcomes)
    p_tie = Fraction(ties, total)
    assert sheet.strategies["always raise"] == (1 - p_tie) / 2 - boston7_bonus_term(500)
    assert sheet.house_edge_ante == sheet.strategies["always raise"]
