"""Brute force for Caribbean Stud Poker (19:47-16.1 qualifying hand, 19:47-16.5 rankings): random
(player hand, up card) situations, each dealt out over all 163,185 sets of the dealer's four hole
cards and valued by the small numpy evaluator below, which shares no code with felt; compared with
the counts of the exact analysis's sweep and with the one-situation path the game suggests from.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
from numpy.typing import NDArray

from felt.games.caribbean_stud.analysis import counts
from felt.games.caribbean_stud.strategy import should_bet, situation_counts

HOLE_SETS = np.array(list(itertools.combinations(range(46), 4)), dtype=np.int64)


def score(hands: NDArray[np.int64]) -> NDArray[np.int64]:
    """A number per five-card hand (cards 0-51 as rank * 4 + suit, rank 0 = two) that orders hands
    as poker ranks them: category first (0 high card to 8 straight flush, a royal flush being the
    ace-high straight flush), then the ranks grouped by how often they occur, most first, higher
    rank first; the wheel A-2-3-4-5 counts as five high."""
    ranks, suits = hands // 4, hands % 4
    count = (ranks[:, :, None] == np.arange(13)).sum(axis=1)  # (n, 13)
    # each rank present, keyed by (its count, the rank): the five ranks in tie-break order
    key = np.where(count > 0, count * 16 + np.arange(13), -1)
    order = -np.sort(-key, axis=1)[:, :5]
    groups = np.where(order >= 0, order // 16, 0)
    tie = np.where(order >= 0, order % 16, 0)
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = groups[:, 0] == 1
    wheel = distinct & (tie[:, 0] == 12) & (tie[:, 1] == 3) & (tie[:, 4] == 0)
    straight = distinct & ((tie[:, 0] - tie[:, 4] == 4) | wheel)
    tie = np.where(wheel[:, None], np.array([3, 2, 1, 0, 0]), tie)
    first, second = groups[:, 0], groups[:, 1]
    category = np.select(
        [straight & flush, first == 4, (first == 3) & (second == 2), flush, straight,
         first == 3, (first == 2) & (second == 2), first == 2],
        [8, 7, 6, 5, 4, 3, 2, 1], 0)  # fmt: skip
    value = category.astype(np.int64)
    for i in range(5):
        value = value * 16 + tie[:, i]
    return value


def brute(hand: list[int], up: int) -> tuple[int, int, int, int]:
    """(dealer does not qualify, player wins, push, dealer wins) over the 163,185 hole sets."""
    rest = np.array([c for c in range(52) if c not in hand and c != up], dtype=np.int64)
    dealer = np.column_stack([rest[HOLE_SETS], np.full(len(HOLE_SETS), up)])
    d = score(dealer)
    p = int(score(np.array([hand]))[0])
    q = int(score(np.array([[48, 44, 8, 4, 1]]))[0])  # A-K-4-3-2 of mixed suits
    qualifies = d >= q
    nq = int((~qualifies).sum())
    win = int((qualifies & (d < p)).sum())
    push = int((qualifies & (d == p)).sum())
    return nq, win, push, len(d) - nq - win - push


def situations() -> list[tuple[list[int], int]]:
    """Twenty seeded random situations, and a few chosen: A-K high (the hands whose decision
    depends on the up card), a pair, the lowest qualifying hand, a royal flush."""
    rng = random.Random(21)
    out = []
    for _ in range(20):
        cards = rng.sample(range(52), 6)
        out.append((cards[:5], cards[5]))
    out += [
        ([48, 45, 34, 13, 1], 20),  # A-K-T-5-3 against a 7
        ([48, 44, 8, 4, 1], 49),  # A-K-4-3-2 against an ace
        ([0, 1, 26, 31, 50], 2),  # pair of twos against a two
        ([51, 47, 43, 39, 35], 50),  # royal flush
    ]
    return out


def test_score_ranks_the_categories_in_order() -> None:
    """The test's own evaluator: one hand of each category, low to high, scores increasing."""
    hands = [[0, 5, 10, 17, 48], [0, 1, 10, 17, 48], [0, 1, 10, 11, 48], [0, 1, 2, 17, 48],
             [48, 1, 6, 11, 12], [0, 8, 16, 24, 48], [0, 1, 2, 5, 6], [0, 1, 2, 3, 48],
             [0, 4, 8, 12, 48], [51, 47, 43, 39, 35]]  # fmt: skip
    s = score(np.array(hands)).tolist()
    assert s == sorted(s)
    assert len(set(s)) == len(s)
    assert s[4] < score(np.array([[4, 9, 14, 19, 20]]))[0]  # the wheel below 6-high straight


@pytest.mark.parametrize(("hand", "up"), situations())
def test_sweep_counts_equal_brute_force(hand: list[int], up: int) -> None:
    """19:47-16.1 qualifying hand: the sweep's counts for one (player hand, up card), the
    one-situation path's, and a full deal of the hole cards agree exactly."""
    expected = brute(hand, up)
    assert sum(expected) == 163_185
    assert counts().situation(hand, up) == expected
    assert situation_counts(hand, up) == expected


@pytest.mark.parametrize(("hand", "up"), situations()[:8])
def test_should_bet_is_the_better_expectation(hand: list[int], up: int) -> None:
    """The suggestion bets exactly when the bet (twice the ante, 19:47-16.1) expects more than
    the ante lost by folding, at the minimum pay table, by the brute-force counts."""
    nq, win, _, lose = brute(hand, up)
    pays = {"royal flush": 100, "straight flush": 50, "four of a kind": 20, "full house": 7,
            "flush": 5, "straight": 4, "three of a kind": 3, "two pair": 2, "one pair": 1,
            "ace king": 1}  # fmt: skip
    category = int(score(np.array([hand]))[0]) >> 20
    ranks = sorted((c // 4 for c in hand), reverse=True)
    if category == 0:
        name = "ace king" if ranks[:2] == [12, 11] else "nothing"
    else:
        names = ["one pair", "two pair", "three of a kind", "straight", "flush", "full house",
                 "four of a kind", "straight flush"]  # fmt: skip
        name = names[category - 1]
        if name == "straight flush" and ranks[0] == 12 and ranks[1] == 11:
            name = "royal flush"
    odds = pays.get(name, 0)
    bet = nq + win * (1 + 2 * odds) - 3 * lose
    fractions = {k: Fraction(v) for k, v in pays.items()}
    assert should_bet(hand, up, fractions) == (bet > -163_185)
