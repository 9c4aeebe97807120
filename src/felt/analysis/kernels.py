"""Enumeration by suit class for the exact analyses of the five-card games (numpy).

Every set of k cards has a *colex index* (0 to C(52,k)-1): for ascending cards c0 < c1 < ... it is
C(c0,1) + C(c1,2) + C(c2,3) + ....  :func:`five_card_values` gives each five-card index's value
(1-7462), and the counts below look hands up by index.  Renaming suits changes no hand's value,
so counts are taken once per *suit class* (:func:`class_completions`) and copied to the other
sets of the class.  All of it is whole-array numpy, not numba: a cold ``felt analyze`` of a
five-card game would spend longer compiling kernels than numpy takes to do the work.  The games'
own counts (in their folders, ``felt/games/<game>/analysis.py``) are built from these.
"""

from __future__ import annotations

import functools
from math import comb
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from felt.core.tables import (
    RANK_KEYS,
    cache_dir,
    five_card_lookup,
    load_arrays,
    save_arrays,
    source_digest,
)

BINOM = np.array([[comb(n, k) for k in range(8)] for n in range(53)], dtype=np.int64)

_SUIT_MAJOR = np.array([1 << (13 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
"""Each card as one bit of a 52-bit set laid out suit by suit, so a set's four 13-bit rank masks
are its sum's four 13-bit fields."""
_SPREAD = np.zeros(1 << 13, dtype=np.int64)
"""A 13-bit rank mask as the cards of those ranks in suit 0 (rank r to bit 4r)."""
_RANK_SUM = np.zeros(1 << 13, dtype=np.int32)
"""A 13-bit rank mask's sum of rank keys (:data:`felt.core.tables.RANK_KEYS`)."""
for _r in range(13):
    _SPREAD[1 << _r : 2 << _r] = _SPREAD[: 1 << _r] | 1 << (4 * _r)
    _RANK_SUM[1 << _r : 2 << _r] = _RANK_SUM[: 1 << _r] + RANK_KEYS[_r]
del _r


def _frozen(*arrays: NDArray[np.generic]) -> None:
    """Mark cached arrays read-only, so no caller can change what the next one is given."""
    for array in arrays:
        array.flags.writeable = False


@functools.cache
def _colex_sets(k: int) -> NDArray[np.int8]:
    """Every k-card set as its ascending cards (shape (C(52,k), k)), in colex order: the sets
    whose highest card is c, for c from 0 up, each the colex-first C(c, k-1) smaller sets plus c."""
    sets = np.zeros((1, 0), dtype=np.int8)
    for size in range(1, k + 1):
        below = [comb(c, size - 1) for c in range(52)]
        smaller = np.concatenate([np.arange(n) for n in below])
        sets = np.column_stack([sets[smaller], np.repeat(np.arange(52, dtype=np.int8), below)])
    return sets


@functools.cache
def _suit_masks(k: int) -> tuple[NDArray[np.uint16], ...]:
    """Each k-card set's (colex order) rank masks of suits 0 to 3 (16-bit: less to hold and to
    sort than 64-bit)."""
    held = np.zeros(comb(52, k), dtype=np.int64)
    for card in _colex_sets(k).T:  # column by column: a (sets, k) int64 array is 100 MB to touch
        held += _SUIT_MAJOR[card]
    return tuple(((held >> (13 * suit)) & 8191).astype(np.uint16) for suit in range(4))


@functools.cache
def suit_classes(k: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For the sets of ``k`` cards (0 to 5): each set's suit class (by colex index) and each
    class's canonical set (its cards, shape (classes, k)).

    Sets are alike when renaming suits turns one into the other, that is when their four rank
    masks sorted are the same.  The canonical set renames the suits so that suits 0 to 3 hold
    descending masks (a set is canonical when its own masks descend); classes are numbered in
    colex order of their canonical sets, which for sets of one size is the order of their cards
    as 52-bit numbers.
    """
    a, b, c, d = _suit_masks(k)
    canonical = (a >= b) & (b >= c) & (c >= d)
    a, b = np.maximum(a, b), np.minimum(a, b)  # a sorting network, largest mask first
    c, d = np.maximum(c, d), np.minimum(c, d)
    a, c = np.maximum(a, c), np.minimum(a, c)
    b, d = np.maximum(b, d), np.minimum(b, d)
    b, c = np.maximum(b, c), np.minimum(b, c)
    bits = _SPREAD[a] | _SPREAD[b] << 1 | _SPREAD[c] << 2 | _SPREAD[d] << 3  # canonical set's cards
    class_of = np.searchsorted(bits[canonical], bits).astype(np.int64, copy=False)
    cards = _colex_sets(k)[canonical].astype(np.int64)
    _frozen(class_of, cards)
    return class_of, cards


@functools.cache
def class_completions(k: int) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """:func:`suit_classes`, and per class the colex indices of the C(52 - k, 5 - k) five-card
    hands holding its canonical set, in colex order.

    A hand is the canonical set plus m = 5 - k of the other cards (``rest``, ascending), chosen in
    colex order.  Its colex index sums C(card, position + 1) over its cards; a chosen card's
    position is its place among the chosen plus the canonical cards below it (``rest[p] - p``),
    and the i-th canonical card's is i plus the chosen cards below it.
    """
    class_of, cards = suit_classes(k)
    n, m = len(cards), 5 - k
    picks = _colex_sets(m)[: comb(52 - k, m)].astype(np.int64)  # positions in rest, per hand
    held = np.zeros((n, 52), dtype=bool)
    held[np.arange(n)[:, None], cards] = True
    rest = np.nonzero(~held)[1].reshape(n, 52 - k)
    hands = np.zeros((n, len(picks)), dtype=np.int64)
    place = np.arange(52 - k)
    for j in range(m):
        hands += BINOM[rest, rest - place + j + 1][:, picks[:, j]]
    for i in range(k):
        chosen_below = np.zeros((n, len(picks)), dtype=np.int64)
        for j in range(m):
            chosen_below += picks[:, j] < cards[:, i, None] - i
        terms = BINOM[cards[:, i, None], np.arange(i + 1, i + m + 2)]
        hands += np.take_along_axis(terms, chosen_below, axis=1)
    _frozen(hands)
    return class_of, cards, hands


def _colex(cards: NDArray[np.int64]) -> NDArray[np.int64]:
    """Colex index of each row of ascending cards."""
    index = np.zeros(len(cards), dtype=np.int64)
    for i in range(cards.shape[1]):
        index += BINOM[cards[:, i], i + 1]
    return index


@functools.cache
def five_card_values() -> NDArray[np.uint16]:
    """Value of every five-card hand, indexed by colex index, from its four suits' rank masks:
    the flush table's value of the one mask when a single suit holds all five, else the value
    of the rank keys' sum (:func:`felt.core.tables.five_card_lookup`)."""
    dense5, flush5 = five_card_lookup()
    a, b, c, d = _suit_masks(5)
    one_suit = (a > 0).astype(np.int8) + (b > 0) + (c > 0) + (d > 0) == 1
    mixed = dense5[_RANK_SUM[a] + _RANK_SUM[b] + _RANK_SUM[c] + _RANK_SUM[d]]
    values: NDArray[np.uint16] = np.where(one_suit, flush5[a | b | c | d], mixed)
    _frozen(values)
    return values


def equity_digest() -> str:
    """Digest of the code the equity counts derive from (this file and the hand tables)."""
    here = Path(__file__)
    return source_digest(here, here.parent.parent / "core" / "tables.py",
                         here.parent.parent / "core" / "ranking.py")  # fmt: skip


@functools.cache
def equity_counts() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """:func:`count_equity`, from the disk cache when its contents check out, else computed once
    and cached: the counts depend on no table, so ``felt analyze`` and ``felt simulate`` need not
    recount them each run.  A cache file whose stored digest does not match its
    contents (edited, truncated, unreadable) is recomputed, never trusted."""
    path = cache_dir() / f"equity5-{equity_digest()}.npz"
    cached = load_arrays(path, ("lower", "equal"))
    if cached is not None and cached["lower"].shape == cached["equal"].shape == (2598960,):
        return cached["lower"].astype(np.int64), cached["equal"].astype(np.int64)
    lower, equal = count_equity()
    save_arrays(path, lower=lower.astype(np.int32), equal=equal.astype(np.int32))
    return lower, equal


def count_equity() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For every five-card hand P (by colex index): how many five-card hands of the other 47 cards
    rank below P, and how many equal it (of C(47,5) = 1,533,939).

    Inclusion-exclusion over the cards of P: the hands disjoint from P are all hands, minus those
    holding each card of P, plus those holding each pair, minus each three, plus each four, minus P
    itself.  Renaming suits changes no hand's value, so the hands holding a set rank alike for
    every set of its class, and one hand of each of the 134,459 classes of five cards adds up its
    31 terms for every hand of its class; the terms come from those same hands
    (:func:`_held_below`), not from the 11 million hands holding each class's canonical set.
    """
    class_of, hands = suit_classes(5)
    value = five_card_values()[_colex(hands)].astype(np.int64)
    by_value = np.argsort(value, kind="stable")
    hands, value = hands[by_value], value[by_value]
    subsets = [[i for i in range(5) if subset >> i & 1] for subset in range(31)]  # all but P
    first_row = np.cumsum([0, *(len(suit_classes(k)[1]) for k in range(5))])
    rows = np.stack([first_row[len(s)] + suit_classes(len(s))[0][_colex(hands[:, s])]
                     for s in subsets], axis=1)  # fmt: skip
    class_size = np.concatenate([np.bincount(suit_classes(k)[0]) for k in range(5)])
    below, alike = _held_below(rows, value, np.bincount(class_of)[by_value], class_size)
    sign = np.array([1 - 2 * (len(s) & 1) for s in subsets])
    lower = np.empty(len(hands), dtype=np.int64)
    equal = np.empty(len(hands), dtype=np.int64)
    lower[by_value] = below @ sign
    equal[by_value] = alike @ sign - 1  # less P itself, the one hand holding all five
    return lower[class_of], equal[class_of]


def _held_below(
    rows: NDArray[np.int64],
    value: NDArray[np.int64],
    weight: NDArray[np.int64],
    class_size: NDArray[np.int64],
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For one hand of each five-card class (ascending ``value``, ``weight`` hands in its class)
    and each of its sets in ``rows`` (the sets' suit classes, numbered through all sizes, of
    ``class_size`` sets each): how many hands holding that set rank below the hand, and how many
    alike.

    Over the hands of one value, the sets of one class are held equally often (renaming suits
    maps one onto another), so a set is held by hands of value v as often as: the sum over the
    five-card classes of value v of (class size x how many of its representative's sets are in
    the set's class), over the set's class size.  Sorting the (set class, value) pairs and
    summing runs of them gives every count at once.
    """
    n_hands, n_sets = rows.shape
    # by class, then value; 18,370 classes fit 16 bits, which numpy sorts stably by radix
    classes = rows.astype(np.int16).ravel()
    order = np.argsort(classes, kind="stable")
    cls = classes[order]
    val = np.repeat(value.astype(np.int32), n_sets)[order]
    held = np.repeat(weight.astype(np.int32), n_sets)[order]
    new_run = np.ones(len(cls), dtype=bool)  # where a run of one (class, value) starts
    new_run[1:] = (cls[1:] != cls[:-1]) | (val[1:] != val[:-1])
    runs = np.flatnonzero(new_run)
    through = np.cumsum(held, dtype=np.int64)  # held by hands of this pair and those before
    before = through[runs] - held[runs]
    total = through[np.append(runs[1:], len(cls)) - 1] - before
    run_cls = cls[runs]
    new_class = np.ones(len(runs), dtype=bool)
    new_class[1:] = run_cls[1:] != run_cls[:-1]
    class_runs = np.flatnonzero(new_class)
    class_before = np.repeat(before[class_runs], np.diff(class_runs, append=len(runs)))
    size = class_size[run_cls]
    run_of = np.empty(len(cls), dtype=np.int32)
    run_of[order] = np.cumsum(new_run, dtype=np.int32) - 1
    below = ((before - class_before) // size)[run_of]
    alike = (total // size)[run_of]
    return below.reshape(n_hands, n_sets), alike.reshape(n_hands, n_sets)
