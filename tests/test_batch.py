"""The batch API: agreement with the single-hand path, and refusal of bad arrays."""

from __future__ import annotations

import numpy as np
import pytest

from felt.core.batch import categories, rank_batch, rank_three_batch, three_categories
from felt.core.cards import parse_cards
from felt.core.errors import FeltError
from felt.core.evaluator import evaluate, evaluate_three, hand_rank
from felt.core.ranking import Category, TrioCategory


def random_hands(n: int, k: int, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_equals_single_hand_path_on_random_hands(k: int) -> None:
    hands = random_hands(100_000, k, seed=k)
    assert rank_batch(hands).tolist() == [hand_rank(h) for h in hands.tolist()]


def test_batch_accepts_any_integer_dtype_and_empty() -> None:
    hand = [list(parse_cards("As Ks Qs Js Ts"))]
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint64):
        assert rank_batch(np.array(hand, dtype=dtype)).tolist() == [7462]
    assert rank_batch(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)


def test_categories_and_three_card_batch() -> None:
    hands = np.array([parse_cards("2c 2d 2h 2s 3c"), parse_cards("Ac Kd Qh Js 9c")])
    assert categories(rank_batch(hands)) == [Category.FOUR_OF_A_KIND, Category.HIGH_CARD]
    three = np.array([parse_cards("Ah Kh Qh"), parse_cards("Ac 2d 3h")])
    ranks = rank_three_batch(three)
    assert three_categories(ranks) == [TrioCategory.ROYAL_FLUSH, TrioCategory.STRAIGHT]
    assert ranks.tolist() == [evaluate_three("Ah Kh Qh").rank, evaluate_three("Ac 2d 3h").rank]


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (np.zeros((3, 4), dtype=np.uint8), r"5 or 6 or 7 cards per row, got shape \(3, 4\)"),
        (np.zeros(5, dtype=np.uint8), "2-D array"),
        (np.array([[0.0, 1, 2, 3, 4]]), "integer card numbers"),
        (np.array([[0, 1, 2, 3, 52]]), "hand 0: 52 is not a card number"),
        (np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, -1]]), "hand 1: -1 is not a card number"),
        (np.array([[0, 1, 2, 3, 4], [5, 6, 7, 8, 5]]), "hand 1: card 3d appears more than once"),
        (np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 200]], dtype=np.uint8), "hand 1: 200 is not a"),
        (np.array([[9, 1, 2, 3, 4, 5, 9]], dtype=np.uint8), "hand 0: card 4d appears more than"),
        (np.array([[0, 1, 2], [7, 7, 1]], dtype=np.uint8), "hand 1: card 3s appears more than"),
        (np.array([[0, 1, 99]], dtype=np.uint8), "hand 0: 99 is not a card number"),
    ],
)
def test_bad_arrays_are_refused_with_a_clear_error(hands: np.ndarray, message: str) -> None:
    """The input check, fused into the evaluation pass for uint8 hands, still refuses each."""
    rank = rank_three_batch if hands.ndim == 2 and hands.shape[1] == 3 else rank_batch
    with pytest.raises(FeltError, match=message):
        rank(hands)


def test_three_card_batch_needs_three_columns() -> None:
    with pytest.raises(FeltError, match="3 cards per row"):
        rank_three_batch(np.zeros((1, 5), dtype=np.uint8))


def test_unchecked_batch_is_the_same_on_good_input() -> None:
    hands = random_hands(1000, 7)
    np.testing.assert_array_equal(rank_batch(hands, check=False), rank_batch(hands))
    assert evaluate(hands[0].tolist()).rank == rank_batch(hands[:1])[0]
