"""The reference ranking, clause by clause (N.J.A.C. 19:47-24.5; 13:69F-24.5)."""

from __future__ import annotations

import pytest

from felt.core.cards import parse_cards
from felt.core.evaluator import evaluate, evaluate_three
from felt.core.ranking import (
    Category,
    TrioCategory,
    five_card_key,
    royal_flush_length,
    trio_key,
)


def cat(text: str) -> Category:
    return five_card_key(parse_cards(text))[0]


def beats(a: str, b: str) -> bool:
    return five_card_key(parse_cards(a)) > five_card_key(parse_cards(b))


@pytest.mark.parametrize(
    ("hand", "category"),
    [
        ("As Ks Qs Js Ts", Category.ROYAL_FLUSH),
        ("9h Kh Qh Jh Th", Category.STRAIGHT_FLUSH),
        ("Ad 2d 3d 4d 5d", Category.STRAIGHT_FLUSH),
        ("7c 7d 7h 7s 2c", Category.FOUR_OF_A_KIND),
        ("7c 7d 7h 2s 2c", Category.FULL_HOUSE),
        ("Ac Kc Qc Jc 9c", Category.FLUSH),
        ("Ac Kd Qc Jc Tc", Category.STRAIGHT),
        ("Ac 2d 3c 4c 5c", Category.STRAIGHT),
        ("7c 7d 7h 2s 3c", Category.THREE_OF_A_KIND),
        ("7c 7d 2h 2s 3c", Category.TWO_PAIR),
        ("7c 7d 2h 4s 3c", Category.ONE_PAIR),
        ("7c 5d 2h 4s 3c", Category.HIGH_CARD),
    ],
)
def test_24_5_b_categories(hand: str, category: Category) -> None:
    """19:47-24.5(b)1-9 and the no-pair hand of 24.5(c)."""
    assert cat(hand) is category


def test_24_5_a_ace_completes_only_the_wheel_and_the_top() -> None:
    """19:47-24.5(a) and (b)6: A-2-3-4-5 is the lowest straight; Q-K-A-2-3 is not a straight."""
    assert cat("Qc Kd Ah 2s 3c") is Category.HIGH_CARD
    assert cat("Kc Ad 2h 3s 4c") is Category.HIGH_CARD
    assert beats("2c 3d 4h 5s 6c", "Ac 2d 3h 4s 5c")
    assert beats("Ac Kd Qh Js Tc", "9c Kd Qh Js Tc")


def test_24_5_b2_straight_flush_order() -> None:
    """24.5(b)2: A-K-Q-J-10 suited is highest (the royal), A-2-3-4-5 suited the lowest."""
    assert beats("Kh Qh Jh Th 9h", "Ah 2h 3h 4h 5h")
    assert beats("6h 2h 3h 4h 5h", "Ah 2h 3h 4h 5h")
    assert beats("Ah Kh Qh Jh Th", "Kh Qh Jh Th 9h")


def test_24_5_b_within_category_orders_named_in_the_text() -> None:
    """24.5(b)3-9: the highest and lowest hand of each category as the text names them."""
    assert beats("Ac Ad Ah As 2c", "Kc Kd Kh Ks Ac")  # four aces highest
    assert beats("Ac Ad Ah Ks Kc", "Kc Kd Kh As Ac")  # three aces and two kings highest
    assert beats("3c 3d 3h 2s 2c", "2c 2d 2h 3s 3c")  # three twos, two threes lowest
    assert beats("2c 2d 2h As Ac", "2c 2d 2h 3s 3c")
    assert beats("Ac Kc Qc Jc 9c", "Ac Kc Qc Jc 8c")  # A-K-Q-J-9 the highest flush
    assert beats("2c 3c 4c 5c 8c", "2c 3c 4c 5c 7c")  # 2-3-4-5-7 the lowest flush
    assert beats("3c 3d 3h 2s 4c", "2c 2d 2h As Kc")  # three twos the lowest trips
    assert beats("Ac Ad Kh Ks 2c", "Ac Ad Qh Qs Kc")  # aces and kings the highest two pair
    assert beats("3c 3d 2h 2s 5c", "3c 3d 2h 2s 4c")
    assert beats("Qc Qd Jh Js 2c", "Qc Qd Th Ts Ac")  # the lower pair before the kicker
    assert beats("3c 3d 2h 4s 5c", "2c 2d Ah Ks Qc")  # two twos the lowest pair


def test_24_5_c_highest_card_not_held_by_the_other_decides() -> None:
    """24.5(c): same rank, then the highest card one hand holds and the other does not."""
    assert beats("Ac Ad Kh Qs 3c", "Ac Ad Kh Qs 2c")
    assert beats("Ac Kd Qh Js 9c", "Ac Kd Qh Js 8c")
    assert beats("Kc Qd Jh 9s 8c", "Kc Qd Jh 9s 7c")


def test_24_5_c_identical_ranks_push_whatever_the_suits() -> None:
    """24.5(c) last sentence, and 24.1 "Suit": no suit is higher than another."""
    a = evaluate("Ac Ad Kh Qs 3c")
    b = evaluate("Ah As Kc Qd 3s")
    assert a == b
    assert not a < b
    assert not b < a
    assert evaluate("Ac Kc Qc Jc 9c") == evaluate("As Ks Qs Js 9s")


@pytest.mark.parametrize(
    ("hand", "category"),
    [
        ("Ah Kh Qh", TrioCategory.ROYAL_FLUSH),
        ("Kh Qh Jh", TrioCategory.STRAIGHT_FLUSH),
        ("Ah 2h 3h", TrioCategory.STRAIGHT_FLUSH),
        ("5c 5d 5h", TrioCategory.THREE_OF_A_KIND),
        ("Ah 2d 3h", TrioCategory.STRAIGHT),
        ("Ah Kd Qh", TrioCategory.STRAIGHT),
        ("Kh Ad 2h", TrioCategory.HIGH_CARD),
        ("Kh Ah 2h", TrioCategory.FLUSH),
        ("Kh 9h 2h", TrioCategory.FLUSH),
        ("Kh Kd 2h", TrioCategory.ONE_PAIR),
        ("Kh Jd 2h", TrioCategory.HIGH_CARD),
    ],
)
def test_24_5_d_three_card_hands(hand: str, category: TrioCategory) -> None:
    """19:47-24.5(d), 13:69F-24.5(d): A-2-3 is a straight, K-A-2 is not; A-K-Q suited is royal."""
    assert trio_key(parse_cards(hand))[0] is category
    assert evaluate_three(hand).category is category


def test_24_5_d_trio_order() -> None:
    """Categories in the order 24.5(d) lists them; A-2-3 the lowest straight."""
    order = ["Ah Kh Qh", "Kh Qh Jh", "2c 2d 2h", "Ah Kd Qh", "Kh 9h 2h", "Kh Kd 2h", "Ah Kd Jh"]
    values = [evaluate_three(h) for h in order]
    assert values == sorted(values, reverse=True)
    assert evaluate_three("2c 3d 4h") > evaluate_three("Ac 2d 3h")
    assert evaluate_three("4h 3h 2h") > evaluate_three("Ah 2h 3h")


def test_13_69f_24_5_e_six_and_seven_card_royals() -> None:
    """13:69F-24.5(e): A-K-Q-J-10-9 suited is a six-card royal; adding the 8, a seven-card one."""
    assert royal_flush_length(parse_cards("Ah Kh Qh Jh Th 9h 8h")) == 7
    assert royal_flush_length(parse_cards("Ah Kh Qh Jh Th 9h 8c")) == 6
    assert royal_flush_length(parse_cards("Ah Kh Qh Jh Th 8h 7h")) == 5
    assert royal_flush_length(parse_cards("Ah Kh Qh Jh 9h 8h 7h")) == 0
    assert royal_flush_length(parse_cards("Kh Qh Jh Th 9h 8h 7h")) == 0
    assert evaluate("Ah Kh Qh Jh Th 9h 8h").royal_flush_length == 7
