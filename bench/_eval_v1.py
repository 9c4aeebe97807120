"""felt's 7-card batch kernel as it was before issue 25 (``src/felt/core/batch.py`` at e38fec3),
kept unchanged as the peer that ``bench/eval_speed.py`` measures the current kernel against.

Bench-only: nothing in felt imports it.  It reads the same :func:`felt.core.tables.tables` as the
single-hand evaluator, so its values are today's values; the bench checks that the two agree.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from felt.core._jit import jit
from felt.core.batch import FLUSH_BITS64, LOW_MASK64, SUIT_SHIFT64, SUM_START64, flush_mask
from felt.core.tables import ROW_BITS, ROW_MASK, tables


@jit
def _rank_rows(
    hands: NDArray[np.uint8],
    card_keys: NDArray[np.uint64],
    flush: NDArray[np.uint16],
    row_offsets: NDArray[np.int64],
    values: NDArray[np.uint16],
    out: NDArray[np.uint16],
) -> None:  # pragma: no cover - compiled
    """Write each row's value to ``out`` (the unchecked kernel as it was)."""
    n = hands.shape[1]
    for i in range(hands.shape[0]):
        total = SUM_START64
        for j in range(n):
            total += card_keys[hands[i, j]]
        suits = (total >> SUIT_SHIFT64) & FLUSH_BITS64
        if suits:
            out[i] = flush[flush_mask(hands, i, suits)]
        else:
            low = np.int64(total & LOW_MASK64)
            out[i] = values[row_offsets[low >> ROW_BITS] + (low & ROW_MASK)]


@jit
def _rank_rows_checked(
    hands: NDArray[np.uint8],
    card_keys: NDArray[np.uint64],
    flush: NDArray[np.uint16],
    row_offsets: NDArray[np.int64],
    values: NDArray[np.uint16],
    out: NDArray[np.uint16],
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """:func:`_rank_rows` with the input check fused in, as it was: (row, card, kind) of the first
    bad card, or (-1, -1, 0)."""
    n = hands.shape[1]
    for i in range(hands.shape[0]):
        total = SUM_START64
        seen = np.uint64(0)
        for j in range(n):
            c = hands[i, j]
            if c > 51:
                return i, int(c), 1
            bit = np.uint64(1) << np.uint64(c)
            if seen & bit:
                return i, int(c), 2
            seen |= bit
            total += card_keys[c]
        suits = (total >> SUIT_SHIFT64) & FLUSH_BITS64
        if suits:
            out[i] = flush[flush_mask(hands, i, suits)]
        else:
            low = np.int64(total & LOW_MASK64)
            out[i] = values[row_offsets[low >> ROW_BITS] + (low & ROW_MASK)]
    return -1, -1, 0


def rank_batch_v1(hands: NDArray[np.uint8], *, check: bool = True) -> NDArray[np.uint16]:
    """The old ``rank_batch`` on a contiguous uint8 array of 5 to 7 cards per row (the bench's
    input; the shape and dtype checks of the real one are left out, they cost nothing here)."""
    t = tables()
    out = np.empty(hands.shape[0], dtype=np.uint16)
    if not check:
        _rank_rows(hands, t.card_keys, t.flush, t.row_offsets, t.values, out)
        return out
    row, _, kind = _rank_rows_checked(hands, t.card_keys, t.flush, t.row_offsets, t.values, out)
    if kind:
        raise ValueError(f"hand {row} is not a hand")
    return out
