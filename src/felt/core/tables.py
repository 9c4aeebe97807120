"""Lookup tables for exact hand evaluation, derived from :mod:`felt.core.ranking` and cached on disk.

How a hand of five to seven cards is looked up (the same arithmetic in :mod:`felt.core.evaluator`
for one hand and in :mod:`felt.core.batch` for arrays of hands):

* Each card has a 64-bit key: its rank's *rank key* plus ``SIZE_UNIT`` in the low 32 bits, and a
  one in its suit's 4-bit counter at bit ``32 + 4 * suit``.  Adding the keys of a hand to
  ``SUM_START`` (which starts every suit counter at 3) counts the suits: a counter reaches 8 or
  more exactly when that suit holds five or more cards, so ``(sum >> 32) & 0x8888`` finds a flush.
* With a flush (and at most seven cards only one suit can have one, and no pair-based hand can
  beat it) the ranks held in that suit form a 13-bit mask and ``flush[mask]`` is the value.
* Otherwise the low 32 bits are ``n * SIZE_UNIT`` plus the sum of the rank keys.  The rank keys
  are chosen so that this sum is different for every multiset of ranks a hand of up to seven cards
  can hold, and a displacement perfect hash maps those sums into the small ``values`` table:
  ``values[row_offsets[low >> ROW_BITS] + (low & ROW_MASK)]``.

Values run from 1 (7-5-4-3-2 of mixed suits) to 7462 (royal flush): the 7,462 distinct five-card
hand values of 19:47-24.5.  3-card values (1 to 741) come from a direct table indexed by
``52 * 52 * a + 52 * b + c``.

Building takes about a second; the result is cached under the user's cache directory (or
``$FELT_CACHE_DIR``) in a file named after a digest of the code that built it, so a change to the
ranking rebuilds it.  The file also holds a digest of its own contents, checked at every load: an
edited, truncated or otherwise damaged file is rebuilt, never used.  Nothing is ever downloaded.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Final

import numpy as np
from numpy.typing import NDArray

from felt.core.ranking import (
    FiveCardKey,
    TrioKey,
    five_card_key_of_ranks,
    trio_key,
)

RANK_KEYS: Final = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
"""Rank keys, two to ace: the smallest increasing integers whose sums over any multiset of seven
ranks (each rank at most four times) are all different.  Found by a greedy search
(``tools/rank_keys.py``); ``tests/test_tables.py`` checks the property for sizes five to seven."""

SIZE_UNIT: Final = 1 << 23
"""Added once per card so sums for five, six and seven cards never meet (largest rank sum for
seven cards is 7,825,759 < 2**23)."""

SUIT_SHIFT: Final = 32
SUM_START: Final = 0x3333 << SUIT_SHIFT
FLUSH_BITS: Final = 0x8888
ROW_BITS: Final = 12
ROW_MASK: Final = (1 << ROW_BITS) - 1
LOW_MASK: Final = (1 << SUIT_SHIFT) - 1

FIVE_CARD_VALUES: Final = 7462
TRIO_VALUES: Final = 741


@dataclass(frozen=True)
class Tables:
    """Every array the evaluators read; built by :func:`build_tables`, loaded by :func:`tables`."""

    card_keys: NDArray[np.uint64]
    """Per-card 64-bit key (rank key, size unit, suit counter)."""
    flush: NDArray[np.uint16]
    """Value of the best five from a suit holding the ranks in a 13-bit mask (5 to 7 bits set)."""
    row_offsets: NDArray[np.int64]
    """Perfect-hash displacement per row of ``2**ROW_BITS`` possible rank sums."""
    values: NDArray[np.uint16]
    """Value of the best five-card hand for each rank multiset of five to seven cards."""
    three: NDArray[np.uint16]
    """3-card value indexed by ``2704 * a + 52 * b + c``; 0 where cards repeat."""
    five_category: NDArray[np.uint8]
    """:class:`Category` of each five-card value (index 0 unused)."""
    three_category: NDArray[np.uint8]
    """:class:`TrioCategory` of each 3-card value (index 0 unused)."""


def _rank_multisets(size: int) -> NDArray[np.int8]:
    """All count vectors over the 13 ranks with each count at most 4 and ``size`` cards in all,
    in lexicographic order: built rank by rank, each prefix followed by its counts 0 to 4."""
    rows: NDArray[np.int8] = np.zeros((1, 0), dtype=np.int8)
    for _ in range(13):
        rows = np.column_stack([np.repeat(rows, 5, axis=0), np.tile(np.arange(5), len(rows))])
        rows = rows[rows.sum(axis=1) <= size].astype(np.int8)
    complete: NDArray[np.int8] = rows[rows.sum(axis=1) == size]
    return complete


@functools.cache
def five_card_order() -> tuple[FiveCardKey, ...]:
    """The 7,462 distinct five-card keys, lowest first; a hand's value is its index plus one."""
    keys: set[FiveCardKey] = set()
    for counts in _rank_multisets(5):
        ranks = [r for r in range(13) for _ in range(counts[r])]
        keys.add(five_card_key_of_ranks(ranks, suited=False))
    for combo in itertools.combinations(range(13), 5):
        keys.add(five_card_key_of_ranks(combo, suited=True))
    return tuple(sorted(keys))


def trio_order() -> list[TrioKey]:
    """The 741 distinct 3-card keys, lowest first; a hand's value is its index plus one."""
    return sorted({trio_key(c) for c in itertools.combinations(range(52), 3)})


@functools.cache
def trio_lookup() -> tuple[NDArray[np.uint16], NDArray[np.uint8]]:
    """The 3-card tables of :class:`Tables` on their own (``three`` and ``three_category``),
    for what needs no other table.  A 3-card key depends only on the ranks and on whether one
    suit holds all three, so one set of each such kind is keyed (hundreds, not 22,100)."""
    cards = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    ranks = cards >> 2
    suited = ((cards & 3) == (cards[:, :1] & 3)).all(axis=1)
    kind = ((ranks[:, 0] * 13 + ranks[:, 1]) * 13 + ranks[:, 2]) * 2 + suited
    _, first, kind_of = np.unique(kind, return_index=True, return_inverse=True)
    keys = [trio_key(cards[i].tolist()) for i in first.tolist()]
    order = sorted(set(keys))
    value_of = {key: i + 1 for i, key in enumerate(order)}
    combo_values = np.array([value_of[key] for key in keys], dtype=np.uint16)[kind_of.ravel()]
    three = np.zeros(52**3, dtype=np.uint16)
    for a, b, c in itertools.permutations(range(3)):  # every order of the same 3 cards
        three[2704 * cards[:, a] + 52 * cards[:, b] + cards[:, c]] = combo_values
    category = np.array([0] + [int(key[0]) for key in order], dtype=np.uint8)
    return three, category


def _build_perfect_hash(
    keys: NDArray[np.int64], vals: NDArray[np.uint16]
) -> tuple[NDArray[np.int64], NDArray[np.uint16]]:
    """Row displacements placing every key at ``offset[key >> ROW_BITS] + (key & ROW_MASK)``.

    First-fit (:func:`_first_fit`): rows with the most keys are placed first, each at the lowest
    offset where none of its slots is taken.  Checked afterwards: every key lands on its own slot.
    """
    rows = keys >> ROW_BITS
    n_rows = int(rows.max()) + 1
    order = np.argsort(rows, kind="stable")
    keys, vals, rows = keys[order], vals[order], rows[order]
    starts = np.searchsorted(rows, np.arange(n_rows + 1))
    sizes = np.diff(starts)
    offsets = np.zeros(n_rows, dtype=np.int64)
    placing = [row for row in np.argsort(-sizes, kind="stable").tolist() if sizes[row]]
    slots = [(keys[starts[row] : starts[row + 1]] & ROW_MASK).tolist() for row in placing]
    offsets[placing] = _first_fit(slots)
    where = offsets[rows] + (keys & ROW_MASK)
    if len(np.unique(where)) != len(where):  # pragma: no cover - a bug, not an input error
        raise AssertionError("perfect hash placed two keys on one slot")
    table = np.zeros(int(where.max()) + 1, dtype=np.uint16)
    table[where] = vals
    return offsets, table


def _first_fit(rows: Sequence[Sequence[int]]) -> list[int]:
    """Place the rows of slots in the order given, each at the lowest offset where none of its
    slots meets a slot of a row placed before it; their offsets.  The used slots are the bits of
    one Python integer, so a shift per slot finds every clashing offset at once (searching offset
    by offset in numpy took two of the three seconds of the build)."""
    taken = 0
    offsets = []
    for slots in rows:
        clash = 0  # bit o set: at offset o some slot would meet a used one
        pattern = 0
        for s in slots:
            clash |= taken >> s
            pattern |= 1 << s
        offset = (~clash & (clash + 1)).bit_length() - 1  # the lowest clear bit
        taken |= pattern << offset
        offsets.append(offset)
    return offsets


@functools.cache
def five_card_lookup() -> tuple[NDArray[np.uint16], NDArray[np.uint16]]:
    """Five-card values without the rest of the tables (a tenth of a second, not a second): by
    the sum of the five ranks' rank keys when the suits are mixed, and by the 13-bit rank mask
    when all five share a suit.  The first pieces of :func:`build_tables`, and all that valuing
    every five-card hand needs."""
    value_of = {key: i + 1 for i, key in enumerate(five_card_order())}
    multisets = _rank_multisets(5)
    sums5 = multisets.astype(np.int64) @ np.array(RANK_KEYS, dtype=np.int64)
    dense5 = np.zeros(int(sums5.max()) + 1, dtype=np.uint16)
    for counts, total in zip(multisets, sums5, strict=True):
        ranks = [r for r in range(13) for _ in range(counts[r])]
        dense5[total] = value_of[five_card_key_of_ranks(ranks, suited=False)]
    flush5 = np.zeros(1 << 13, dtype=np.uint16)
    for five in itertools.combinations(range(13), 5):
        flush5[sum(1 << r for r in five)] = value_of[five_card_key_of_ranks(five, suited=True)]
    return dense5, flush5


def build_tables() -> Tables:
    """Derive every table from the reference ranking in :mod:`felt.core.ranking` (about a second)."""
    order = five_card_order()
    rank_keys = np.array(RANK_KEYS, dtype=np.int64)

    # Five-card rank multisets, then six and seven as the best five-card subset.
    dense5, flush5 = five_card_lookup()
    sums5 = _rank_multisets(5).astype(np.int64) @ rank_keys
    all_keys = [5 * SIZE_UNIT + sums5]
    all_vals = [dense5[sums5]]
    for size in (6, 7):
        counts = _rank_multisets(size).astype(np.int64)
        sums = counts @ rank_keys
        best = np.zeros(len(counts), dtype=np.uint16)
        for drop in itertools.combinations_with_replacement(range(13), size - 5):
            need = np.bincount(np.array(drop), minlength=13)
            ok = np.all(counts >= need, axis=1)
            sub = np.where(ok, sums - int(rank_keys[list(drop)].sum()), 0)
            best = np.maximum(best, np.where(ok, dense5[sub], 0).astype(np.uint16))
        all_keys.append(size * SIZE_UNIT + sums)
        all_vals.append(best)
    row_offsets, values = _build_perfect_hash(
        np.concatenate(all_keys).astype(np.int64), np.concatenate(all_vals)
    )

    flush = flush5.copy()
    for size in (6, 7):  # the best five of six or seven is the best left after dropping one
        for held in itertools.combinations(range(13), size):
            mask = sum(1 << r for r in held)
            flush[mask] = max(flush[mask & ~(1 << r)] for r in held)

    card_keys = np.array(
        [RANK_KEYS[c >> 2] + SIZE_UNIT + (1 << (SUIT_SHIFT + 4 * (c & 3))) for c in range(52)],
        dtype=np.uint64,
    )

    three, three_category = trio_lookup()

    return Tables(
        card_keys=card_keys,
        flush=flush,
        row_offsets=row_offsets,
        values=values,
        three=three,
        five_category=np.array([0] + [int(k[0]) for k in order], dtype=np.uint8),
        three_category=three_category,
    )


def cache_dir() -> Path:
    """The cache folder: ``$FELT_CACHE_DIR``, ``$XDG_CACHE_HOME/felt`` or ``~/.cache/felt``."""
    if os.environ.get("FELT_CACHE_DIR"):
        return Path(os.environ["FELT_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "felt"


def source_digest(*paths: Path, salt: str = "", length: int = 16) -> str:
    """Digest of the source files a cache derives from (and ``salt``, e.g. a table's settings),
    so every cache file's name follows each change to the code that computes it."""
    h = hashlib.sha256(salt.encode())
    for path in paths:
        h.update(path.read_bytes())
    return h.hexdigest()[:length]


def _code_digest() -> str:
    """Digest of the code the tables derive from, so the cache follows every change to it."""
    here = Path(__file__).parent
    return source_digest(*(here / m for m in ("ranking.py", "tables.py", "cards.py")))


DIGEST_KEY: Final = "content_sha256"
"""The entry of every cache file holding the SHA-256 of its arrays, written with them."""


def content_digest(arrays: Mapping[str, NDArray[np.generic]]) -> str:
    """SHA-256 over every array's name, dtype, shape and bytes, in name order."""
    h = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        h.update(f"{name}\0{array.dtype.str}\0{array.shape}\0".encode())
        h.update(array.tobytes())
    return h.hexdigest()


def load_arrays(path: Path, names: Sequence[str]) -> dict[str, NDArray[np.generic]] | None:
    """The arrays ``names`` from a cache file written by :func:`save_arrays`, or None when the
    file is missing, unreadable, truncated, or its contents do not match the digest written with
    them (a cache is never trusted: the caller rebuilds)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files if name != DIGEST_KEY}
            stored = str(data[DIGEST_KEY])
    except Exception:  # any damage at all (short file, bad zip, bad header): rebuild
        return None
    if stored != content_digest(arrays) or not set(names) <= set(arrays):
        return None
    return {name: arrays[name] for name in names}


def _load(path: Path) -> Tables | None:
    """Tables from a cache file, or None when it is missing, damaged or not as expected."""
    arrays = load_arrays(path, [f.name for f in fields(Tables)])
    if arrays is None:
        return None
    loaded = Tables(**arrays)  # type: ignore[arg-type]
    if loaded.card_keys.shape != (52,) or loaded.flush.shape != (1 << 13,):
        return None
    if loaded.five_category.shape != (FIVE_CARD_VALUES + 1,):
        return None
    return loaded


def save_arrays(path: Path, **arrays: NDArray[np.generic]) -> None:
    """Write a cache file atomically (a temporary file renamed into place), with the digest of its
    contents that :func:`load_arrays` checks; a read-only or missing home is not an error, only
    slower."""
    tmp = ""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz.tmp")
        with os.fdopen(fd, "wb") as out:
            np.savez(out, **arrays, **{DIGEST_KEY: np.array(content_digest(arrays))})  # type: ignore[arg-type]
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _save(path: Path, built: Tables) -> None:
    """Write the tables' cache file."""
    save_arrays(path, **{f.name: getattr(built, f.name) for f in fields(Tables)})


@functools.cache
def tables() -> Tables:
    """The evaluation tables: from the cache when present, else built and cached."""
    path = cache_dir() / f"tables-{_code_digest()}.npz"
    loaded = _load(path)
    if loaded is not None:
        return loaded
    built = build_tables()
    _save(path, built)
    return built
