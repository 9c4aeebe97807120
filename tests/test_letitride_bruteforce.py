"""An independent brute force of Let It Ride Poker's optimal strategy and return, sharing no code
with the analysis, the strategy module or core's evaluator: its own five-card classifier (by the
hand ranks of 19:47-18.3), its own suit-isomorphism classes of the player's three cards, and for
each class every one of the 1,176 pairs of community cards, each in both orders (the first card
turned decides the second wager).  It plays the decisions by backward induction over the units
riding, as the analysis does, and must agree with it to the last fraction: the return, how often
each wager rides, each final hand's count, and the first decision on every three-card hand.

Pure Python: the five-card classifier is cached by rank multiset and flush, and for each class
and first community card the 48 second cards are reduced to a count per line once, so each
table of payouts costs a few million multiplications.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from functools import cache
from typing import NamedTuple

import pytest

from felt.games.let_it_ride import analysis
from felt.games.let_it_ride.config import LetItRideConfig

RANKS = range(2, 15)  # two to ace (14)
SUITS = "cdhs"
DECK = [(r, s) for r in RANKS for s in range(4)]
ORDER = (
    "royal flush", "straight flush", "four of a kind", "full house", "flush", "straight",
    "three of a kind", "two pair", "tens or better", "nothing",
)  # fmt: skip


@cache
def line(ranks: tuple[int, ...], flush: bool) -> int:
    """The index in :data:`ORDER` of a five-card hand with these ranks (sorted) and flush."""
    shape = sorted(Counter(ranks).values(), reverse=True)
    distinct = sorted(set(ranks))
    straight = len(distinct) == 5 and (
        distinct[4] - distinct[0] == 4 or distinct == [2, 3, 4, 5, 14]
    )
    if straight and flush:
        return 0 if distinct[0] == 10 else 1
    if shape[0] == 4:
        return 2
    if shape == [3, 2]:
        return 3
    if flush:
        return 4
    if straight:
        return 5
    if shape[0] == 3:
        return 6
    if shape == [2, 2, 1]:
        return 7
    if shape[0] == 2:
        pair = next(r for r in ranks if ranks.count(r) == 2)
        return 8 if pair >= 10 else 9
    return 9


def classes() -> dict[tuple[tuple[int, int], ...], int]:
    """The player's three cards up to renaming suits: each class's least form (over the 24
    renamings, cards sorted) and how many of the 22,100 hands it holds."""
    out: Counter[tuple[tuple[int, int], ...]] = Counter()
    for hand in itertools.combinations(DECK, 3):
        out[
            min(tuple(sorted((r, p[s]) for r, s in hand)) for p in itertools.permutations(range(4)))
        ] += 1
    return dict(out)


@cache
def histograms(hand: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """For each of the 49 cards that can be turned first, how many of the 48 second cards make
    each line with the player's ``hand``."""
    rest = [c for c in DECK if c not in hand]
    hist = {c: [0] * len(ORDER) for c in rest}
    for a, b in itertools.combinations(rest, 2):
        cards = (*hand, a, b)
        found = line(tuple(sorted(r for r, _ in cards)), len({s for _, s in cards}) == 1)
        hist[a][found] += 1
        hist[b][found] += 1
    return tuple(tuple(hist[c]) for c in rest)


def nets(pays: dict[str, Fraction], amount: int, limit: int | None) -> list[list[int]]:
    """Net cents per line with 1, 2, 3 wagers riding: each wager wins the odds (down to the
    cent), the hand's wins held to ``limit`` together; below a pair of tens every wager loses."""
    out = []
    for name in ORDER:
        win = math.floor(pays[name] * amount) if name in pays else 0
        out.append([min(k * win, limit) if limit is not None else k * win
                    for k in (1, 2, 3)] if win else [-k * amount for k in (1, 2, 3)])  # fmt: skip
    return out


class Brute(NamedTuple):
    """What the brute force finds: the return per wager, how often each wager rides, the deals
    on each line of :data:`ORDER`, the first decision of each class."""

    ret: Fraction
    ride1: Fraction
    ride2: Fraction
    lines: list[int]
    first: dict[tuple[tuple[int, int], ...], bool]


def brute(pays: dict[str, Fraction], amount: int, limit: int | None) -> Brute:
    """Every deal of every class, decided by backward induction; ties take back."""
    table = nets(pays, amount, limit)
    total = 0
    ride1 = ride2 = 0
    per_line = [0] * len(ORDER)
    first: dict[tuple[tuple[int, int], ...], bool] = {}
    for hand, weight in classes().items():
        per_first = []
        for hist in histograms(hand):
            value = [sum(h * table[i][k] for i, h in enumerate(hist)) for k in range(3)]
            per_first.append((hist, value))
        # v[f]: the best total over the 2,352 deals with the first riding (f = 1) or not
        v = [sum(max(value[f], value[f + 1]) for _, value in per_first) for f in (0, 1)]
        f = int(v[1] > v[0])
        first[hand] = bool(f)
        total += weight * v[f]
        ride1 += weight * 2352 * f
        for hist, value in per_first:
            rides = value[f + 1] > value[f]
            ride2 += weight * 48 * rides
            for i, h in enumerate(hist):
                per_line[i] += weight * h
    deals = 22100 * 49 * 48
    return Brute(Fraction(total, deals * amount), Fraction(ride1, deals), Fraction(ride2, deals),
                 per_line, first)  # fmt: skip


def test_there_are_1755_classes_of_three_cards_holding_22100_hands() -> None:
    found = classes()
    assert len(found) == 1755
    assert sum(found.values()) == 22100


@pytest.mark.parametrize(
    ("table", "amount"),
    [({}, 500), ({}, 100_00), ({"maximum": "10000.00"}, 2500_00)],
    ids=["minimum-table", "payout-limit-binds-at-100", "second-depends-on-first-at-2500"],
)
def test_18_11_brute_force_equals_the_analysis_to_the_last_fraction(
    table: dict[str, str], amount: int
) -> None:
    """At the minimum table, where the $50,000 payout limit (18.11) never binds; at $100 a
    wager, where it binds on a royal flush (1,000 to 1 on one wager is $100,000); and at $2,500,
    where it binds so often that the second decision depends on the first."""
    config = LetItRideConfig.from_mapping(table)
    mine = brute(dict(config.pays), amount, config.payout_limit)
    sheet = analysis.analyze(config, amount)
    assert mine.ret == sheet.expected_net
    assert mine.ride1 == sheet.ride_first
    assert mine.ride2 == sheet.ride_second
    by_hand = {hand: count for hand, count, _ in sheet.by_hand()}
    lines = mine.lines
    assert {ORDER[i]: n for i, n in enumerate(lines) if n} == {
        ("nothing" if h == analysis.LOSES else h): n for h, n in by_hand.items()
    }
    d = analysis.decisions(config, amount)
    first = mine.first
    for hand in itertools.combinations(range(52), 3):  # every hand, by its class
        cards = tuple(sorted((c // 4 + 2, c % 4) for c in hand))
        least = min(
            tuple(sorted((r, p[s]) for r, s in cards)) for p in itertools.permutations(range(4))
        )
        assert bool(d.first[analysis.colex(hand)]) == first[least], hand
    if (
        not table and amount == 500
    ):  # Wizard of Odds, wizardofodds.com/games/let-it-ride/: -0.0350568 per unit
        assert round(float(mine.ret), 7) == -0.0350568
        assert mine.ride1 == Fraction(402, 5525)  # issue 22
