"""The batch API: agreement with the single-hand path, and refusal of bad arrays."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from felt.core import batch as batch_module
from felt.core.batch import (
    BATCH_ARRAYS,
    batch_tables,
    build_batch_tables,
    categories,
    rank_batch,
    rank_three_batch,
    three_categories,
)
from felt.core.cards import parse_cards
from felt.core.errors import FeltError
from felt.core.evaluator import evaluate, evaluate_three, hand_rank
from felt.core.ranking import Category, TrioCategory
from felt.core.tables import (
    FLUSH_BITS,
    LOW_MASK,
    ROW_BITS,
    ROW_MASK,
    SUIT_SHIFT,
    SUM_START,
    _rank_multisets,
    save_arrays,
    tables,
)


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


def shared_table_values(hands: np.ndarray) -> np.ndarray:
    """The arithmetic of felt.core.tables in numpy, over the shared tables the single-hand path
    reads: what the batch kernel computed before it had a hash of its own (issue 25)."""
    t = tables()
    h = hands.astype(np.int64)
    total = t.card_keys[h].sum(axis=1, dtype=np.uint64) + np.uint64(SUM_START)
    suits = ((total >> np.uint64(SUIT_SHIFT)) & np.uint64(FLUSH_BITS)).astype(np.int64)
    suit = (suits > 0x8).astype(np.int64) + (suits > 0x80) + (suits > 0x800)
    in_suit = (h & 3) == suit[:, None]
    mask = np.where(in_suit, 1 << (h >> 2), 0).sum(axis=1)
    low = (total & np.uint64(LOW_MASK)).astype(np.int64)
    plain = t.values[t.row_offsets[low >> ROW_BITS] + (low & ROW_MASK)]
    values: np.ndarray = np.where(suits != 0, t.flush[mask], plain).astype(np.uint16)
    return values


def every_key_hands(k: int) -> np.ndarray:
    """Hands of ``k`` cards that between them reach every entry either table can be read at: each
    rank multiset with its cards dealt round the suits (no flush), and each set of 5 to ``k``
    ranks in one suit with the rest of the hand in other suits (every flush mask)."""
    rows = []
    for counts in _rank_multisets(k).tolist():
        ranks = [r for r in range(13) for _ in range(counts[r])]
        # card i in suit i % 4: copies of a rank are neighbours, so in different suits
        rows.append([4 * r + i % 4 for i, r in enumerate(ranks)])
    for n in range(5, k + 1):
        for suited in itertools.combinations(range(13), n):
            others = [4 * r + 1 + i % 3 for i, r in enumerate(range(13)) if r not in suited]
            rows.append([4 * r for r in suited] + others[: k - n])
    return np.array(rows, dtype=np.uint8)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_hash_gives_the_shared_tables_value_for_every_rank_multiset_and_flush(k: int) -> None:
    """Every non-flush value the batch reads comes from its own hash; every entry of it and of
    the flush table is read here, checked and unchecked, against the shared tables' value."""
    hands = every_key_hands(k)
    assert len(np.unique(np.sort(hands, axis=1), axis=0)) == len(hands)
    expected = shared_table_values(hands)
    np.testing.assert_array_equal(rank_batch(hands), expected)
    np.testing.assert_array_equal(rank_batch(hands, check=False), expected)
    assert set(categories(expected)) == set(Category)
    if k == 5:  # five cards: each of the 7,462 values once
        assert sorted(expected.tolist()) == list(range(1, 7463))


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_equals_the_shared_table_arithmetic_on_many_random_hands(k: int) -> None:
    """Random hands as a user would send them, beside the every-entry test above."""
    hands = random_hands(100_000, k, seed=25 + k)
    expected = shared_table_values(hands)
    np.testing.assert_array_equal(rank_batch(hands, check=False), expected)
    np.testing.assert_array_equal(rank_batch(hands), expected)


def test_unchecked_batch_reads_inside_its_tables_whatever_the_bytes() -> None:
    """Unchecked, a byte that is no card (or a card twice) gives some value, never a read past
    a table: the card tables have 256 entries, and the asserts below are the bound on every
    index the hash can form (a bucket ``x >> shift`` is below ``2**bits``, the length of the
    offsets; a slot adds at most ``2**SLOT_BITS - 1`` to an offset, and the values reach past the
    largest offset by that much).  numba does not check bounds, so the junk run only shows the
    kernel runs on such bytes; the asserts are what would fail on a table too short."""
    rng = np.random.default_rng(3)
    for k in (5, 6, 7):
        junk = rng.integers(0, 256, (200_000, k), dtype=np.uint8)
        assert rank_batch(junk, check=False).shape == (200_000,)
    for k, h in batch_tables().sizes.items():
        assert int(h.shift) == 64 - batch_module.BUCKET_BITS[k]
        assert len(h.values) >= int(h.offsets.max()) + (1 << batch_module.SLOT_BITS)


def test_batch_tables_cache_round_trip_and_damaged_cache_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FELT_CACHE_DIR", str(tmp_path))
    batch_tables.cache_clear()
    tables.cache_clear()
    try:
        first = batch_tables()
        (path,) = tmp_path.glob("batch-*.npz")
        batch_tables.cache_clear()
        again = batch_tables()
        for k, h in first.sizes.items():
            np.testing.assert_array_equal(again.sizes[k].values, h.values)
            np.testing.assert_array_equal(again.sizes[k].offsets, h.offsets)
            assert again.sizes[k].multiplier == h.multiplier
        path.write_bytes(b"not a table")
        batch_tables.cache_clear()
        np.testing.assert_array_equal(batch_tables().sizes[7].values, first.sizes[7].values)
        # whole and digest-true, but a table too short for its offsets: rebuilt, never read
        arrays = dict(np.load(path))
        arrays = {name: arrays[name] for name in BATCH_ARRAYS}
        arrays["values7"] = arrays["values7"][:100]
        save_arrays(path, **arrays)
        batch_tables.cache_clear()
        np.testing.assert_array_equal(batch_tables().sizes[7].values, first.sizes[7].values)
        hands = random_hands(1000, 7)
        np.testing.assert_array_equal(rank_batch(hands), shared_table_values(hands))
    finally:
        batch_tables.cache_clear()
        tables.cache_clear()


def test_card_lanes_give_one_bit_a_card_and_none_past_51() -> None:
    """The fused check counts the bits of a row's or-ed lanes: that is the number of distinct
    cards only if each card has a bit of its own and no other byte has one."""
    lanes = batch_tables().card_lanes
    # the rank's bit in the suit's lane (so the flush suit's lane is the flush table's index)
    assert [int(x) for x in lanes[:52]] == [1 << (16 * (c % 4) + c // 4) for c in range(52)]
    assert not lanes[52:].any()


def test_batch_tables_build_is_deterministic() -> None:
    a, b = build_batch_tables(), batch_tables()
    np.testing.assert_array_equal(a.card_keys, b.card_keys)
    np.testing.assert_array_equal(a.card_lanes, b.card_lanes)
    for k, h in a.sizes.items():
        assert (h.multiplier, h.shift) == (b.sizes[k].multiplier, b.sizes[k].shift)
        np.testing.assert_array_equal(h.offsets, b.sizes[k].offsets)
        np.testing.assert_array_equal(h.values, b.sizes[k].values)
