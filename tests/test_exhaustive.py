"""Every hand: the fast paths against the reference ranking and against brute force.

The chain: every five-card hand's batch value equals the reference ranking's (felt.core.ranking) and
the single-hand path's; every six- and seven-card hand's batch value equals the best of its
five-card subsets.  These are the "on every hand" checks of the evaluator.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from felt.core.batch import rank_batch, rank_three_batch
from felt.core.evaluator import evaluate_three, hand_rank
from felt.core.ranking import five_card_key_of_ranks, trio_key
from felt.core.tables import five_card_order, trio_order
from tests.exhaustive import BINOM, all_hands, best_of_fives, colex5


def _all(n: int) -> np.ndarray:
    return np.concatenate([all_hands(n, first) for first in range(52 - n + 1)])


@pytest.fixture(scope="module")
def five_hands() -> np.ndarray:
    return _all(5)


@pytest.fixture(scope="module")
def five_values(five_hands: np.ndarray) -> np.ndarray:
    """Batch values of every five-card hand, indexed by colex index."""
    values = np.zeros(len(five_hands), dtype=np.uint16)
    values[colex5(five_hands, BINOM)] = rank_batch(five_hands, check=False)
    return values


def test_every_five_card_hand_matches_the_reference_ranking(five_hands: np.ndarray) -> None:
    """19:47-24.5: each of the 2,598,960 hands gets the value of its reference key."""
    assert len(five_hands) == 2_598_960
    value_of = {key: i + 1 for i, key in enumerate(five_card_order())}
    ranks = np.sort(five_hands >> 2, axis=1).astype(np.int64)
    suited = (five_hands & 3 == (five_hands[:, :1] & 3)).all(axis=1)
    code = (ranks @ (13 ** np.arange(5))) * 2 + suited
    classes, first = np.unique(code, return_index=True)
    expected_by_class = np.array(
        [value_of[five_card_key_of_ranks(list(ranks[i]), bool(suited[i]))] for i in first]
    )
    expected = expected_by_class[np.searchsorted(classes, code)]
    assert len(classes) == 6175 + 1287
    np.testing.assert_array_equal(rank_batch(five_hands), expected)


def test_every_five_card_hand_single_path_equals_batch(five_hands: np.ndarray) -> None:
    batch = rank_batch(five_hands).tolist()
    assert [hand_rank(h) for h in five_hands.tolist()] == batch


def test_analysis_five_card_values_are_every_hands_batch_value(five_values: np.ndarray) -> None:
    """The analyses' table of values (one hand per suit class evaluated, copied to the class)
    equals the batch value of every hand by its colex index."""
    from felt.analysis.kernels import five_card_values

    np.testing.assert_array_equal(five_card_values(), five_values)


@pytest.mark.parametrize("n", [6, 7])
def test_every_six_and_seven_card_hand_is_its_best_five(n: int, five_values: np.ndarray) -> None:
    """Best five of six or seven (13:69F-24.10(e)): the table equals brute force on every hand."""
    total = 0
    for first in range(52 - n + 1):
        hands = all_hands(n, first)
        total += len(hands)
        fast = rank_batch(hands, check=False)
        brute = best_of_fives(hands, five_values, BINOM)
        if not np.array_equal(fast, brute):
            bad = int(np.flatnonzero(fast != brute)[0])
            pytest.fail(f"{hands[bad].tolist()}: table {fast[bad]} but best five {brute[bad]}")
    assert total == (20_358_520 if n == 6 else 133_784_560)


def test_every_three_card_hand_matches_reference_and_single_path() -> None:
    """19:47-24.5(d) and 13:69F-24.5(d), all 22,100 hands, all orders of the three cards."""
    value_of = {key: i + 1 for i, key in enumerate(trio_order())}
    hands = np.array(list(itertools.permutations(range(52), 3)), dtype=np.uint8)
    batch = rank_three_batch(hands)
    for hand, value in zip(hands.tolist()[::7], batch.tolist()[::7], strict=True):
        assert value == value_of[trio_key(hand)] == evaluate_three(hand).rank
    sorted_hands = np.sort(hands, axis=1)
    np.testing.assert_array_equal(batch, rank_three_batch(sorted_hands))
    assert len(value_of) == 741
