"""Category counts by full enumeration against published figures (perft-style oracle)."""

from __future__ import annotations

import pytest

from felt.core.census import hand_census
from felt.core.errors import FeltError

# Five-card and seven-card (best five of seven) frequencies: Wikipedia, "Poker probability",
# tables "Frequency of 5-card poker hands" and "Frequency of 7-card poker hands".
FIVE = {
    "royal flush": 4,
    "straight flush": 36,
    "four of a kind": 624,
    "full house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three of a kind": 54_912,
    "two pair": 123_552,
    "one pair": 1_098_240,
    "high card": 1_302_540,
}
SEVEN = {
    "royal flush": 4_324,
    "straight flush": 37_260,
    "four of a kind": 224_848,
    "full house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three of a kind": 6_461_620,
    "two pair": 31_433_400,
    "one pair": 58_627_800,
    "high card": 23_294_460,
}
# Three-card frequencies: Wizard of Odds, "Three Card Poker" probability table (straight flush
# 48, of which 4 are A-K-Q suited; three of a kind 52; straight 720; flush 1,096; pair 3,744).
THREE = {
    "three-card royal flush": 4,
    "three-card straight flush": 44,
    "three of a kind": 52,
    "three-card straight": 720,
    "three-card flush": 1_096,
    "one pair": 3_744,
    "high card": 16_440,
}


def test_five_card_counts_equal_published() -> None:
    c = hand_census(5)
    assert c.total == 2_598_960
    assert c.counts == FIVE


def test_seven_card_counts_equal_published() -> None:
    c = hand_census(7)
    assert c.total == 133_784_560
    assert c.counts == SEVEN


def test_seven_card_extended_royals_13_69f_24_5_e() -> None:
    """13:69F-24.5(e): 4 seven-card royals; six-card ones are 4 suits x 45 seventh cards
    (any but the suit's 8, which would make it a seven-card royal)."""
    c = hand_census(7)
    assert c.extended_royals == {"six-card royal flush": 4 * 45, "seven-card royal flush": 4}


def test_three_card_counts_equal_published() -> None:
    c = hand_census(3)
    assert c.total == 22_100
    assert c.counts == THREE


def test_six_card_total_and_royals() -> None:
    c = hand_census(6)
    assert c.total == 20_358_520
    assert sum(c.counts.values()) == c.total
    assert c.extended_royals == {"six-card royal flush": 4}
    # royal flush in six cards: 4 suits x (47 sixth cards), counted once each
    assert c.counts["royal flush"] == 4 * 47


@pytest.mark.parametrize("n", [0, 2, 4, 8])
def test_other_sizes_are_refused(n: int) -> None:
    with pytest.raises(FeltError, match="3, 5, 6 or 7"):
        hand_census(n)
