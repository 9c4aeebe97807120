"""Hand evaluation over numpy arrays of hands, compiled with numba: the fast path for analysis.

Each row of a ``(N, k)`` integer array is one hand of card numbers (0-51, see :mod:`felt.core.cards`).
The kernels add the same card keys as the single-hand path in :mod:`felt.core.evaluator` (explained in
:mod:`felt.core.tables`) and read the same flush table; a hand without a flush is looked up in a
denser hash of its own size's rank sums (:class:`BatchTables`, derived from the same tables and
cached beside them), and the tests check that the two paths agree on every rank multiset.

>>> import numpy as np
>>> hands = np.array([[51, 47, 43, 39, 35], [0, 5, 10, 15, 21]])  # As Ks Qs Js Ts / 2c 3d 4h 5s 7d
>>> rank_batch(hands).tolist()
[7462, 1]
>>> [c.label for c in categories(rank_batch(hands))]
['royal flush', 'high card']
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, cast

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.extending import intrinsic
from numpy.typing import ArrayLike, NDArray

from felt.core._jit import jit, jit_inline
from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.core.ranking import Category, TrioCategory
from felt.core.tables import (
    FLUSH_BITS,
    LOW_MASK,
    RANK_KEYS,
    ROW_BITS,
    ROW_MASK,
    SIZE_UNIT,
    SUIT_SHIFT,
    SUM_START,
    _first_fit,
    _rank_multisets,
    cache_dir,
    load_arrays,
    save_arrays,
    source_digest,
    tables,
)

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


SLOT_BITS: Final = 12
"""A rank sum's slot within its bucket of the batch hash: the low 12 bits of its scrambled sum."""

BUCKET_BITS: Final = {5: 10, 6: 12, 7: 13}
"""Buckets of the batch hash (as a power of two) per hand size: about six sums to a bucket, which
first-fit packs into a table of values under 1.1 entries per sum."""

MULTIPLIERS: Final = (
    0x9E3779B97F4A7C15,
    0xC2B2AE3D27D4EB4F,
    0x165667B19E3779F9,
    0x85EBCA77C2B2AE63,
    0x27D4EB2F165667C5,
)
"""Odd 64-bit constants tried in turn to scramble a rank sum; the first under which no two sums of
one size share a bucket and a slot is the one kept (the third for five cards, the first for six
and seven)."""

SLOT_MASK64 = np.uint64((1 << SLOT_BITS) - 1)
RANKS64 = np.uint64(0x1FFF)


HashArgs = tuple[np.uint64, np.uint64, NDArray[np.uint16], NDArray[np.uint16]]
"""One size's :class:`SizeHash` as the kernels take it: multiplier, shift, offsets, values."""


@dataclass(frozen=True)
class SizeHash:
    """Values of one hand size's rank sums: ``x = (sum & LOW_MASK) * multiplier`` (mod 2**64),
    then ``values[(x & SLOT_MASK) + offsets[x >> shift]]``."""

    multiplier: np.uint64
    shift: np.uint64
    offsets: NDArray[np.uint16]
    values: NDArray[np.uint16]


@dataclass(frozen=True)
class BatchTables:
    """What the batch kernels read, derived from :func:`felt.core.tables.tables`.

    The shared ``values`` table hashes the rank sums of every size by their bits, which spreads
    the 7-card sums over 6,829 cache lines of a 481 kB table: that lookup took half the time of
    the 7-card kernel.  Scrambled by a multiplication first, one size's sums pack into a table
    barely larger than their number (52,285 entries, 104 kB, for 49,205 seven-card sums); with
    the unrolled loops the 7-card batch became 1.23 to 1.38 times as fast in same-run races
    (``bench/eval_speed.py``); taking the flush suit's ranks from or-ed lanes, out of the way of
    the loop's registers, made it 1.3 to 1.4 times as fast (1.4 to 1.5 checked).  The card tables
    have 256 entries, zeros past card 51, so that no byte of input, even unchecked, reads outside
    a table.
    """

    card_keys: NDArray[np.uint64]
    """:attr:`Tables.card_keys`, then zeros up to 256 entries."""
    card_lanes: NDArray[np.uint64]
    """One bit per card, its rank's bit in its suit's 16-bit lane (``1 << (16 * suit + rank)``) for
    the 52 cards, then zeros (not a card) up to 256 entries: or-ed over a hand of ``k`` cards, the
    flush suit's lane is the flush table's index, and ``k`` bits set mean ``k`` distinct cards."""
    flush: NDArray[np.uint16]
    """:attr:`Tables.flush`, indexed by the 13-bit rank mask of the flush suit."""
    sizes: dict[int, SizeHash]
    """The hash of each hand size (5, 6, 7)."""

    @functools.cached_property
    def kernel_args(
        self,
    ) -> tuple[
        NDArray[np.uint64], NDArray[np.uint64], NDArray[np.uint16], HashArgs, HashArgs, HashArgs
    ]:
        """The card tables, the flush table and each size's hash as :data:`KERNELS` take them."""
        h5, h6, h7 = (
            (h.multiplier, h.shift, h.offsets, h.values) for h in (self.sizes[k] for k in (5, 6, 7))
        )
        return self.card_keys, self.card_lanes, self.flush, h5, h6, h7


def _size_hash(size: int) -> SizeHash:
    """Place every rank sum of ``size`` cards in the batch hash (first-fit over buckets, largest
    first, as :func:`felt.core.tables._build_perfect_hash` places rows), with its value read
    through the shared tables, so both give the same value by construction."""
    t = tables()
    sums = _rank_multisets(size).astype(np.int64) @ np.array(RANK_KEYS, dtype=np.int64)
    sums += size * SIZE_UNIT
    vals = t.values[t.row_offsets[sums >> ROW_BITS] + (sums & ROW_MASK)]
    bits = BUCKET_BITS[size]
    for multiplier in MULTIPLIERS:
        x = sums.astype(np.uint64) * np.uint64(multiplier)
        bucket = (x >> np.uint64(64 - bits)).astype(np.int64)
        slot = (x & SLOT_MASK64).astype(np.int64)
        if len(np.unique((bucket << SLOT_BITS) | slot)) == len(sums):
            break
    else:  # pragma: no cover - a change of rank keys would show it at the first build
        raise AssertionError(f"no multiplier separates the {size}-card rank sums")
    order = np.argsort(bucket, kind="stable")
    starts = np.searchsorted(bucket[order], np.arange((1 << bits) + 1))
    counts = np.diff(starts)
    placing = [b for b in np.argsort(-counts, kind="stable").tolist() if counts[b]]
    slots = slot[order]
    offsets = np.zeros(1 << bits, dtype=np.int64)
    offsets[placing] = _first_fit([slots[starts[b] : starts[b + 1]].tolist() for b in placing])
    where = offsets[bucket] + slot
    if len(np.unique(where)) != len(where):  # pragma: no cover - a bug, not an input error
        raise AssertionError("batch hash placed two sums on one slot")
    # room for every slot of every bucket: a sum no hand has still reads inside the table
    table = np.zeros(int(offsets.max()) + (1 << SLOT_BITS), dtype=np.uint16)
    table[where] = vals
    if len(table) > 1 << 16:  # pragma: no cover - offsets are stored in 16 bits
        raise AssertionError(f"batch hash of {size} cards too large: {len(table)}")
    return SizeHash(np.uint64(multiplier), np.uint64(64 - bits), offsets.astype(np.uint16), table)


def build_batch_tables() -> BatchTables:
    """Derive :class:`BatchTables` from the shared tables (about a second)."""
    t = tables()
    card_keys = np.zeros(256, dtype=np.uint64)
    card_keys[:52] = t.card_keys
    card_lanes = np.zeros(256, dtype=np.uint64)
    cards = np.arange(52, dtype=np.uint64)
    card_lanes[:52] = np.uint64(1) << (
        np.uint64(16) * (cards & np.uint64(3)) + (cards >> np.uint64(2))
    )
    return BatchTables(card_keys, card_lanes, t.flush, {k: _size_hash(k) for k in (5, 6, 7)})


BATCH_ARRAYS: Final = (
    "card_keys",
    "card_lanes",
    *(f"{name}{k}" for k in BUCKET_BITS for name in ("hash", "offsets", "values")),
)
"""The arrays of a :class:`BatchTables` cache file (``hash5`` holds the multiplier and shift)."""


def _batch_arrays(bt: BatchTables) -> dict[str, NDArray[np.generic]]:
    """The arrays of :class:`BatchTables` by name, as its cache file holds them."""
    arrays: dict[str, NDArray[np.generic]] = {
        "card_keys": bt.card_keys,
        "card_lanes": bt.card_lanes,
    }
    for k, h in bt.sizes.items():
        arrays[f"hash{k}"] = np.array([h.multiplier, h.shift], dtype=np.uint64)
        arrays[f"offsets{k}"] = h.offsets
        arrays[f"values{k}"] = h.values
    return arrays


def _batch_from(arrays: dict[str, NDArray[Any]]) -> BatchTables | None:
    """:class:`BatchTables` from a cache file's arrays, or None if any is not as built (a cache
    is never trusted: every index the kernels can form must stay inside its table)."""
    keys, lanes = arrays["card_keys"], arrays["card_lanes"]
    if any(a.dtype != np.uint64 or a.shape != (256,) for a in (keys, lanes)):
        return None
    sizes = {}
    for k, bucket_bits in BUCKET_BITS.items():
        head, offsets, values = arrays[f"hash{k}"], arrays[f"offsets{k}"], arrays[f"values{k}"]
        if head.dtype != np.uint64 or head.shape != (2,) or int(head[1]) != 64 - bucket_bits:
            return None
        if offsets.dtype != np.uint16 or offsets.shape != (1 << bucket_bits,):
            return None
        if values.dtype != np.uint16 or len(values) < int(offsets.max()) + (1 << SLOT_BITS):
            return None
        sizes[k] = SizeHash(head[0], head[1], offsets, values)
    return BatchTables(keys, lanes, tables().flush, sizes)


@functools.cache
def batch_tables() -> BatchTables:
    """The batch kernels' tables: from their cache file (named after a digest of this module and
    of the code the shared tables derive from) when it is whole, else built and cached."""
    here = Path(__file__).parent
    digest = source_digest(*(here / m for m in ("batch.py", "tables.py", "ranking.py", "cards.py")))
    path = cache_dir() / f"batch-{digest}.npz"
    arrays = load_arrays(path, BATCH_ARRAYS)
    loaded = None if arrays is None else _batch_from(arrays)
    if loaded is not None:
        return loaded
    built = build_batch_tables()
    save_arrays(path, **_batch_arrays(built))
    return built


@jit_inline
def _bad_card(flat: NDArray[np.uint8], b: int, k: int) -> tuple[int, int]:  # pragma: no cover
    """(card, 1) for the first card above 51 of the row at ``flat[b]``, (card, 2) for the first
    repeated, (-1, 0) if neither: the order the error message names them in."""
    seen = np.uint64(0)
    for j in range(k):
        c = flat[b + j]
        if c > 51:
            return int(c), 1
        bit = np.uint64(1) << np.uint64(c)
        if seen & bit:
            return int(c), 2
        seen |= bit
    return -1, 0


def _expect_false(typingctx: Any, cond: Any) -> Any:  # pragma: no cover - runs while compiling
    """``cond`` (a bool), told to the compiler as nearly always false (LLVM's ``llvm.expect``), so
    that it lays out and allocates registers for the other branch first."""
    if not isinstance(cond, types.Boolean):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        bit = ir.IntType(1)
        expect = builder.module.declare_intrinsic(
            "llvm.expect", [bit], ir.FunctionType(bit, [bit, bit])
        )
        return builder.call(expect, [args[0], ir.Constant(bit, 0)])

    return types.boolean(cond), codegen


def _count_bits(typingctx: Any, x: Any) -> Any:  # pragma: no cover - runs while compiling
    """The number of bits set in the uint64 ``x`` (LLVM's ``llvm.ctpop``, one instruction)."""
    if x != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        word = ir.IntType(64)
        ctpop = builder.module.declare_intrinsic(
            "llvm.ctpop", [word], ir.FunctionType(word, [word])
        )
        return builder.call(ctpop, [args[0]])

    return types.uint64(x), codegen


# numba intrinsics: callable in compiled code as (cond) and (x) (typed here as they are called)
_unlikely = cast(Callable[[bool], bool], intrinsic(_expect_false))
_popcount = cast(Callable[[np.uint64], np.uint64], intrinsic(_count_bits))


@jit_inline
def _rows(
    flat: NDArray[np.uint8],
    again: NDArray[np.uint8],
    k: int,
    check: bool,
    keys: NDArray[np.uint64],
    lanes: NDArray[np.uint64],
    flush: NDArray[np.uint16],
    h: HashArgs,
    out: NDArray[np.uint16],
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """Each row of ``k`` cards' value into ``out``; with ``check``, each row checked first: its
    cards' lanes or-ed have ``k`` bits set (no card twice, none above 51: those have no bit).
    (row, card, kind) of the first bad row, (-1, -1, 0) if none.

    Inlined with ``k`` and ``check`` constants, so the card loops unroll and the check goes
    when not asked for.  Nothing called in the loop takes an array (numba counts references
    around every such call, even inlined, and that cost three times the evaluation).  The flush
    branch (3% of seven-card hands) is marked unlikely, and unchecked it reads its row again
    through ``again``, the same array passed twice: the compiler cannot tell the two are one, so
    it does not keep the row's cards in registers across the branch, and the loop keeps its
    tables in registers instead of reloading them from the stack for every hand.
    """
    multiplier, shift, offsets, values = h
    for i in range(out.shape[0]):
        b = k * i
        ored = np.uint64(0)
        if check:
            for j in range(k):
                ored |= lanes[flat[b + j]]
            if _popcount(ored) != np.uint64(k):
                card, kind = _bad_card(flat, b, k)
                return i, card, kind
        total = SUM_START64
        for j in range(k):
            total += keys[flat[b + j]]
        suits = (total >> SUIT_SHIFT64) & FLUSH_BITS64
        if _unlikely(suits != np.uint64(0)):
            if not check:
                for j in range(k):
                    ored |= lanes[again[b + j]]
            # the flush suit's lane (16 bits a suit) shifted down: its ranks as a 13-bit mask
            lane_shift = (
                np.uint64(suits > 0x8) + np.uint64(suits > 0x80) + np.uint64(suits > 0x800)
            ) << np.uint64(4)
            out[i] = flush[(ored >> lane_shift) & RANKS64]
        else:
            x = (total & LOW_MASK64) * multiplier
            out[i] = values[(x & SLOT_MASK64) + np.uint64(offsets[x >> shift])]
    return -1, -1, 0


Kernel = Callable[
    [NDArray[np.uint8], NDArray[np.uint8], NDArray[np.uint64], NDArray[np.uint64],
     NDArray[np.uint16], HashArgs, NDArray[np.uint16]],
    tuple[int, int, int],
]  # fmt: skip
"""A compiled :func:`_rows` for one hand size, checked or not: (flat, again, keys, lanes, flush,
hash, out) to (row, card, kind); ``again`` is ``flat`` a second time."""


def _kernel(k: int, check: bool) -> Kernel:
    """:func:`_rows` compiled for ``k`` cards, with or without the input check: each of the six
    compiles on its first use only (all six in one function took 2.8 s to compile cold)."""

    def rank_rows(
        flat: NDArray[np.uint8],
        again: NDArray[np.uint8],
        keys: NDArray[np.uint64],
        lanes: NDArray[np.uint64],
        flush: NDArray[np.uint16],
        h: HashArgs,
        out: NDArray[np.uint16],
    ) -> tuple[int, int, int]:  # pragma: no cover - compiled
        return _rows(flat, again, k, check, keys, lanes, flush, h, out)

    rank_rows.__qualname__ = rank_rows.__name__ = f"rank_rows_{k}{'_checked' if check else ''}"
    return jit(rank_rows)


KERNELS: Final = {(k, check): _kernel(k, check) for k in (5, 6, 7) for check in (False, True)}
"""The batch kernel of each hand size, unchecked and checked.

Written for speed under numba: one loop per hand size and check, both constants, so the cards
are read unrolled from a flat array (indexing the 2-D array row by row cost a quarter of the
time); every intermediate unsigned 64-bit (numba widens a mix of signed and unsigned to a float,
and checks signed indices for wraparound); the check fused into the same pass (a separate
checking pass halved the throughput)."""


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
    out = np.empty(arr.shape[0], dtype=np.uint16)
    keys, lanes, flush, *hashes = batch_tables().kernel_args
    kernel = KERNELS[arr.shape[1], check]
    flat = arr.reshape(-1)
    row, card, kind = kernel(flat, flat, keys, lanes, flush, hashes[arr.shape[1] - 5], out)
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
