"""The first decision against a published rule written here, sharing no code with felt's analysis.

Alan Krigman, "The Hows and Whys of First-Level Bets at Let It Ride", Casino City Times, 14 June
1999, gives the optimal play of the first wager (19:47-18.1 "Let it ride") in words: keep it with a
"made" hand (a pair of tens through aces, or three of a kind) and with three to a straight flush
with no gap when the lowest card is a three or higher, with one gap when at least one card is a ten
or higher, and with two gaps when at least two are; take it back otherwise.  felt's exact table
(:func:`felt.games.let_it_ride.strategy.should_ride`, built by backward induction) must say the
same for every one of the 22,100 three-card hands at the minimum pay table.
"""

from __future__ import annotations

import itertools

from felt.games.let_it_ride.config import LetItRideConfig
from felt.games.let_it_ride.strategy import should_ride

TEN, ACE = 8, 12  # ranks 0 (two) to 12 (ace), a card being rank * 4 + suit


def krigman_rides(cards: tuple[int, int, int]) -> bool:
    """The 1999 rule, as worded, for three cards."""
    ranks = sorted(c >> 2 for c in cards)
    if len(set(ranks)) == 1:
        return True  # three of a kind
    if len(set(ranks)) == 2:
        pair = max(set(ranks), key=ranks.count)
        return pair >= TEN  # a pair of tens through aces
    if len({c & 3 for c in cards}) != 1:
        return False  # not suited: no straight flush to draw to
    readings = [ranks]
    if ACE in ranks:  # the ace may play low, below the two
        readings.append(sorted(-1 if r == ACE else r for r in ranks))
    for low_to_high in readings:
        span = low_to_high[-1] - low_to_high[0]
        if span > 4:
            continue  # no five-card window holds all three
        gaps = span - 2
        high = sum(r >= TEN for r in low_to_high)  # an ace played low (-1) is no high card
        if gaps == 0:
            return low_to_high[0] >= 1  # lowest card three or higher: not A-2-3 nor 2-3-4
        if gaps == 1:
            return high >= 1
        return high >= 2
    return False


def test_18_1_first_wager_rides_exactly_as_the_published_rule_says_for_all_22100_hands() -> None:
    config = LetItRideConfig.from_mapping({})
    rides = 0
    differ = []
    for hand in itertools.combinations(range(52), 3):
        ours = should_ride(list(hand), config)
        rides += ours
        if ours != krigman_rides(hand):
            differ.append(hand)
    assert differ == []
    assert rides == 1608  # 402/5525 of 22,100 (issue 22)


def test_the_published_rule_itself_on_examples() -> None:
    """The rule as written here, on the article's own examples: 4-5-6 suited, 8-9-J suited and
    8-10-Q suited ride; 4-6-9 offsuit does not."""

    def card(rank: int, suit: int) -> int:
        return rank * 4 + suit

    assert krigman_rides((card(2, 2), card(3, 2), card(4, 2)))  # 4H-5H-6H
    assert krigman_rides((card(6, 0), card(7, 0), card(9, 0)))  # 8C-9C-JC
    assert krigman_rides((card(6, 1), card(8, 1), card(10, 1)))  # 8D-10D-QD
    assert not krigman_rides((card(2, 2), card(4, 1), card(7, 1)))  # 4H-6D-9D
    assert not krigman_rides((card(0, 3), card(1, 3), card(2, 3)))  # 2-3-4 suited
    assert not krigman_rides((card(12, 3), card(0, 3), card(1, 3)))  # A-2-3 suited
