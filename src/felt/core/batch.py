"""Hand evaluation over numpy arrays of hands, compiled with numba: the fast path for analysis.

Each row of a ``(N, k)`` integer array is one hand of card numbers (0-51, see :mod:`felt.core.cards`).
The kernels read the same tables with the same arithmetic as the single-hand path in
:mod:`felt.core.evaluator` (explained in :mod:`felt.core.tables`), and the tests check that the two agree.

>>> import numpy as np
>>> hands = np.array([[51, 47, 43, 39, 35], [0, 5, 10, 15, 21]])  # As Ks Qs Js Ts / 2c 3d 4h 5s 7d
>>> rank_batch(hands).tolist()
[7462, 1]
>>> [c.label for c in categories(rank_batch(hands))]
['royal flush', 'high card']
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from felt.core._jit import jit
from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.core.ranking import Category, TrioCategory
from felt.core.tables import FLUSH_BITS, LOW_MASK, ROW_BITS, ROW_MASK, SUIT_SHIFT, SUM_START, tables

__all__ = ["categories", "rank_batch", "rank_three_batch", "three_categories"]

# The table constants as numba sees them: typed uint64 so no arithmetic mixes signedness.
SUM_START64 = np.uint64(SUM_START)
SUIT_SHIFT64 = np.uint64(SUIT_SHIFT)
FLUSH_BITS64 = np.uint64(FLUSH_BITS)
LOW_MASK64 = np.uint64(LOW_MASK)


@jit
def flush_mask(
    hands: NDArray[np.uint8], i: int, suits: np.uint64
) -> np.int64:  # pragma: no cover - compiled
    """Ranks held in the flush suit of row ``i``, as a 13-bit mask; ``suits`` found the flush."""
    suit = np.int64(suits > 0x8) + np.int64(suits > 0x80) + np.int64(suits > 0x800)
    mask = np.int64(0)
    for j in range(hands.shape[1]):
        c = np.int64(hands[i, j])
        if c & 3 == suit:
            mask |= np.int64(1) << (c >> 2)
    return mask


@jit
def _rank_rows(
    hands: NDArray[np.uint8],
    card_keys: NDArray[np.uint64],
    flush: NDArray[np.uint16],
    row_offsets: NDArray[np.int64],
    values: NDArray[np.uint16],
    out: NDArray[np.uint16],
) -> None:  # pragma: no cover - compiled
    """Write each row's value to ``out``: the arithmetic of felt.core.tables, kept inline.

    Written for speed under numba.  Every intermediate keeps one integer type (numba widens a mix
    of signed and unsigned 64-bit integers to a float), the common non-flush case stays in this
    loop, and the flush case (3% of seven-card hands) calls out: each call of a compiled function
    with array arguments pays for reference counting that costs more than the evaluation.
    """
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
    """:func:`_rank_rows` with the input check in the same pass: (row, card, 1) for a card number
    above 51, (row, card, 2) for a card repeated in its row, (-1, -1, 0) when every row is good
    (a separate checking pass halved the batch's throughput)."""
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


@jit
def _rank_three_rows(
    hands: NDArray[np.uint8], three: NDArray[np.uint16], out: NDArray[np.uint16]
) -> None:  # pragma: no cover - compiled
    for i in range(hands.shape[0]):
        a, b, c = np.int64(hands[i, 0]), np.int64(hands[i, 1]), np.int64(hands[i, 2])
        out[i] = three[2704 * a + 52 * b + c]


@jit
def _first_repeat(hands: NDArray[np.uint8]) -> tuple[int, int]:  # pragma: no cover - compiled
    """(row, card) of the first card repeated within its row, or (-1, -1) if there is none."""
    for i in range(hands.shape[0]):
        seen = np.uint64(0)
        for j in range(hands.shape[1]):
            bit = np.uint64(1) << np.uint64(hands[i, j])
            if seen & bit:
                return i, int(hands[i, j])
            seen |= bit
    return -1, -1


def _as_hands(hands: ArrayLike, sizes: tuple[int, ...], check: bool) -> NDArray[np.uint8]:
    """Validate a 2-D array of card numbers and return it as contiguous uint8."""
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] not in sizes:
        allowed = " or ".join(map(str, sizes))
        raise FeltError(
            f"hands must be a 2-D array with {allowed} cards per row, got shape {arr.shape}"
        )
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise FeltError(f"hands must hold integer card numbers 0-51, got dtype {arr.dtype}")
    if check and arr.size and arr.dtype != np.uint8 and (arr.min() < 0 or arr.max() > 51):
        row = int(np.argmax(((arr < 0) | (arr > 51)).any(axis=1)))
        bad = next(int(c) for c in arr[row] if not 0 <= c <= 51)
        raise FeltError(f"hand {row}: {bad} is not a card number (allowed: 0-51)")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def _check_rows(u8: NDArray[np.uint8]) -> None:
    """The separate checking pass, for kernels without a fused check."""
    if u8.size:
        row, card = _first_repeat(u8)
        if row >= 0:
            raise FeltError(f"hand {row}: card {Card(int(card))} appears more than once")
        if u8.max() > 51:
            row = int(np.argmax((u8 > 51).any(axis=1)))
            raise FeltError(
                f"hand {row}: {int(u8[row].max())} is not a card number (allowed: 0-51)"
            )


def rank_batch(hands: ArrayLike, *, check: bool = True) -> NDArray[np.uint16]:
    """Values (1-7462) of the best five in each row of 5, 6 or 7 cards (19:47-24.5).

    With ``check`` (the default) every card is checked to be 0-51 and distinct within its hand; a
    caller that generated the hands itself may pass ``check=False`` to skip that pass.
    """
    arr = _as_hands(hands, (5, 6, 7), check)
    t = tables()
    out = np.empty(arr.shape[0], dtype=np.uint16)
    if not check:
        _rank_rows(arr, t.card_keys, t.flush, t.row_offsets, t.values, out)
        return out
    row, card, kind = _rank_rows_checked(arr, t.card_keys, t.flush, t.row_offsets, t.values, out)
    if kind == 1:
        raise FeltError(f"hand {row}: {card} is not a card number (allowed: 0-51)")
    if kind == 2:
        raise FeltError(f"hand {row}: card {Card(card)} appears more than once")
    return out


def rank_three_batch(hands: ArrayLike, *, check: bool = True) -> NDArray[np.uint16]:
    """3-card values (1-741), ranked as 19:47-24.5(d) and 13:69F-24.5(d) rank them."""
    arr = _as_hands(hands, (3,), check)
    if check:
        _check_rows(arr)
    out = np.empty(arr.shape[0], dtype=np.uint16)
    _rank_three_rows(arr, tables().three, out)
    return out


def categories(ranks: NDArray[Any]) -> list[Category]:
    """The :class:`Category` of each five-card value."""
    return [Category(int(c)) for c in tables().five_category[np.asarray(ranks)]]


def three_categories(ranks: NDArray[Any]) -> list[TrioCategory]:
    """The :class:`TrioCategory` of each 3-card value."""
    return [TrioCategory(int(c)) for c in tables().three_category[np.asarray(ranks)]]
