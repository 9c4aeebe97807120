"""The lookup tables: the properties their construction relies on, and the on-disk cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from felt.core import tables as tables_module
from felt.core.cards import parse_cards
from felt.core.evaluator import hand_rank
from felt.core.tables import (
    FIVE_CARD_VALUES,
    RANK_KEYS,
    SIZE_UNIT,
    TRIO_VALUES,
    Tables,
    _rank_multisets,
    build_tables,
    five_card_order,
    tables,
)


@pytest.mark.parametrize(("size", "count"), [(5, 6175), (6, 18395), (7, 49205)])
def test_rank_key_sums_are_unique_for_every_rank_multiset(size: int, count: int) -> None:
    counts = _rank_multisets(size).astype(np.int64)
    assert len(counts) == count
    sums = counts @ np.array(RANK_KEYS, dtype=np.int64)
    assert len(np.unique(sums)) == count
    assert sums.max() < SIZE_UNIT


def test_there_are_7462_five_card_values_and_741_trio_values() -> None:
    """19:47-24.5(b)-(c): 7,462 distinct values from 7-5-4-3-2 up to the royal flush."""
    t = tables()
    assert len(five_card_order()) == FIVE_CARD_VALUES == 7462
    # Without a flush the best hand is four aces with a king; the ten straight flushes are above.
    assert t.values.max() == FIVE_CARD_VALUES - 10 == hand_rank(parse_cards("Ac Ad Ah As Kc"))
    assert t.flush.max() == FIVE_CARD_VALUES
    assert t.three.max() == TRIO_VALUES == 741


def test_tables_fit_in_a_few_megabytes() -> None:
    """The issue allows 300 MB; these are well under one."""
    t = tables()
    total = sum(getattr(t, f).nbytes for f in Tables.__dataclass_fields__)
    assert total < 2_000_000


def test_cache_round_trip_and_corrupt_cache_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FELT_CACHE_DIR", str(tmp_path))
    tables.cache_clear()
    try:
        first = tables()
        files = list(tmp_path.glob("tables-*.npz"))
        assert len(files) == 1
        tables.cache_clear()
        again = tables()
        for name in Tables.__dataclass_fields__:
            np.testing.assert_array_equal(getattr(first, name), getattr(again, name))
        files[0].write_bytes(b"not a table")
        assert tables_module._load(files[0]) is None
        tables.cache_clear()
        rebuilt = tables()
        np.testing.assert_array_equal(rebuilt.values, first.values)
    finally:
        tables.cache_clear()


def test_unwritable_cache_dir_still_gives_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("FELT_CACHE_DIR", str(blocker / "sub"))
    tables.cache_clear()
    try:
        assert tables().flush.shape == (8192,)
    finally:
        tables.cache_clear()


def test_build_is_deterministic() -> None:
    a, b = build_tables(), tables()
    for name in Tables.__dataclass_fields__:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


def test_first_fit_places_each_row_at_its_lowest_free_offset() -> None:
    """The perfect hash's placement by integer bit shifts agrees with first fit written out
    plainly (lowest offset at which no slot of the row meets a used one), on rows long and short,
    sparse and crowded."""
    rng = np.random.default_rng(7)
    rows = [np.unique(rng.integers(0, width, size)).tolist() for width, size in
            [(4096, 300), (200, 90), (4096, 40), (64, 64), (100, 1)] * 6]  # fmt: skip
    used: set[int] = set()
    expected = []
    for row in rows:
        offset = 0
        while any(offset + s in used for s in row):
            offset += 1
        used.update(offset + s for s in row)
        expected.append(offset)
    assert tables_module._first_fit(rows) == expected
