"""Compiled enumeration kernels for the exact analyses of Boston 5 and Double Down Stud (numba).

Every set of k cards has a *colex index* (0 to C(52,k)-1): for ascending cards c0 < c1 < ... it is
C(c0,1) + C(c1,2) + C(c2,3) + ....  :func:`five_card_values` gives each five-card index's value
(1-7462), and the kernels below look hands up by index.  Renaming suits changes no hand's value,
so counts are taken once per *suit class* (:func:`class_completions`) and copied to the other
sets of the class.
"""

from __future__ import annotations

import functools
from math import comb
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from felt.core._jit import jit
from felt.core.evaluator import hand_rank
from felt.core.tables import cache_dir, load_arrays, save_arrays, source_digest

BINOM = np.array([[comb(n, k) for k in range(8)] for n in range(53)], dtype=np.int64)


@functools.cache
def five_card_values() -> NDArray[np.uint16]:
    """Value of every five-card hand, indexed by colex index: the value of one hand of each suit
    class (renaming suits changes no value), copied to the class.  The 134,459 hands take the
    one-hand evaluator a tenth of a second, less than compiling the batch evaluator would."""
    class_of, hands, _ = class_completions(5, BINOM)
    by_class = np.array([hand_rank(hand) for hand in hands.tolist()], dtype=np.uint16)
    return by_class[class_of]


@jit
def class_completions(
    k: int, binom: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:  # pragma: no cover - compiled
    """For the sets of ``k`` cards (0 to 5): each set's suit class (by colex index), each class's
    canonical set (its cards, shape (classes, k)), and per class the colex indices of the
    C(52 - k, 5 - k) hands holding its canonical set, in colex order.

    Sets are alike when renaming suits turns one into the other; the canonical set renames the
    suits so that suits 0 to 3 hold descending rank masks, and classes are numbered in colex order
    of their canonical sets.  Classes and completions are one compiled function, as numba's
    compile time, which a cold run pays, goes mostly by function.
    """
    n_sets = binom[52, k]
    class_of = np.empty(n_sets, dtype=np.int64)  # first the canonical set's index, then its class
    number = np.empty(n_sets, dtype=np.int64)
    found = np.empty((n_sets, k), dtype=np.uint8)
    cards = np.empty(k + 1, dtype=np.int64)
    for i in range(k):
        cards[i] = i
    cards[k] = 52  # a sentinel above every card
    masks = np.empty(4, dtype=np.int64)
    order = np.empty(4, dtype=np.int64)  # suits by descending mask
    rename = np.empty(4, dtype=np.int64)
    renamed = np.empty(k + 1, dtype=np.int64)
    n = 0
    for index in range(n_sets):  # the sets in colex order, so index counts them
        for suit in range(4):
            masks[suit] = 0
            order[suit] = suit
        for i in range(k):
            masks[cards[i] & 3] |= 1 << (cards[i] >> 2)
        for i in range(1, 4):  # insertion sort of four suits, largest mask first
            j = i
            while j > 0 and masks[order[j - 1]] < masks[order[j]]:
                order[j - 1], order[j] = order[j], order[j - 1]
                j -= 1
        for i in range(4):
            rename[order[i]] = i
        canonical = 0
        for i in range(k):  # the renamed cards, kept ascending by insertion
            card = (cards[i] & ~3) | rename[cards[i] & 3]
            j = i
            while j > 0 and renamed[j - 1] > card:
                renamed[j] = renamed[j - 1]
                j -= 1
            renamed[j] = card
        for i in range(k):
            canonical += binom[renamed[i], i + 1]
        class_of[index] = canonical
        if canonical == index:
            number[index] = n
            for i in range(k):
                found[n, i] = cards[i]
            n += 1
        t = 0  # the next set in colex order
        while t < k and cards[t] + 1 == cards[t + 1]:
            t += 1
        if t < k:
            cards[t] += 1
            for u in range(t):
                cards[u] = u
    for index in range(n_sets):
        class_of[index] = number[class_of[index]]
    reps = np.empty((n, k), dtype=np.int64)
    for c in range(n):
        for i in range(k):
            reps[c, i] = found[c, i]
    m = 5 - k
    table = np.empty((n, binom[52 - k, m]), dtype=np.int64)
    rest = np.empty(52, dtype=np.int64)
    pick = np.empty(m + 1, dtype=np.int64)  # positions in rest of the completion's cards
    for c in range(n):
        r = 0  # the other cards, ascending
        i = 0
        for card in range(52):
            if i < k and reps[c, i] == card:
                i += 1
            else:
                rest[r] = card
                r += 1
        for i in range(m):
            pick[i] = i
        pick[m] = r  # a sentinel past the last position
        done = 0
        while True:
            h = 0
            i = 0
            j = 0
            for pos in range(5):  # merge the two ascending lists, summing the colex terms
                if j == m or (i < k and reps[c, i] < rest[pick[j]]):
                    card = reps[c, i]
                    i += 1
                else:
                    card = rest[pick[j]]
                    j += 1
                h += binom[card, pos + 1]
            table[c, done] = h
            done += 1
            t = 0  # the next m-subset of rest, in colex order
            while t < m and pick[t] + 1 == pick[t + 1]:
                t += 1
            if t == m:
                break
            pick[t] += 1
            for u in range(t):
                pick[u] = u
    return class_of, reps, table


@jit
def _class_equity(
    hands: NDArray[np.int64],
    values: NDArray[np.uint16],
    binom: NDArray[np.int64],
    row_of: NDArray[np.int64],
    members: NDArray[np.int64],
    row_start: NDArray[np.int64],
    row_of_four: NDArray[np.int64],
    four: NDArray[np.uint16],
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:  # pragma: no cover - compiled
    """:func:`count_equity` for each hand of ``hands`` (rows of five ascending cards) from the
    hands holding each of its subsets.  Sets of 0 to 3 cards: one row per suit class (``row_of``,
    indexed by the set's colex index plus 0, 1, 53 or 1379 for its size) of hands
    ``members[row_start[row]:row_start[row + 1]]``, counted below each value.  Sets of four: the
    values of the 48 hands holding it (``four``, rows by ``row_of_four``), compared one by one."""
    n_rows = row_start.shape[0] - 1
    below = np.zeros((n_rows, 7465), dtype=np.int32)  # column v: how many rank below v
    for row in range(n_rows):
        for i in range(row_start[row], row_start[row + 1]):
            below[row, values[members[i]] + 1] += 1
        for col in range(1, 7465):
            below[row, col] += below[row, col - 1]
    lower = np.empty(hands.shape[0], dtype=np.int64)
    equal = np.empty(hands.shape[0], dtype=np.int64)
    offsets = np.array([0, 1, 53, 1379])
    for c in range(hands.shape[0]):
        h = 0
        for i in range(5):
            h += binom[hands[c, i], i + 1]
        v = np.int64(values[h])
        lo = 0
        eq = -1  # P itself, the one hand holding all five cards
        for subset in range(31):  # every subset but all five
            k = 0
            index = 0
            for i in range(5):
                if subset >> i & 1:
                    k += 1
                    index += binom[hands[c, i], k]
            if k == 4:  # sign +1
                row = row_of_four[index]
                for i in range(48):
                    if four[row, i] < v:
                        lo += 1
                    elif four[row, i] == v:
                        eq += 1
            else:
                row = row_of[offsets[k] + index]
                sign = 1 - 2 * (k & 1)
                lo += sign * below[row, v]
                eq += sign * (below[row, v + 1] - below[row, v])
        lower[c] = lo
        equal[c] = eq
    return lower, equal


def _equity_digest() -> str:
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
    path = cache_dir() / f"equity5-{_equity_digest()}.npz"
    cached = load_arrays(path, ("lower", "equal"))
    if cached is not None and cached["lower"].shape == cached["equal"].shape == (2598960,):
        return cached["lower"].astype(np.int64), cached["equal"].astype(np.int64)
    lower, equal = count_equity()
    save_arrays(path, lower=lower.astype(np.int32), equal=equal.astype(np.int32))
    return lower, equal


def boston5_cells(line_of_value: NDArray[np.int64], n_lines: int) -> NDArray[np.int64]:
    """For each three-card start (by colex index): over its 1,176 completions to five cards and the
    dealer's C(47,5) hands, how many (completion, dealer hand) pairs fall in each (ante-bonus line,
    result) cell; results are 0 player higher, 1 tie, 2 dealer higher.  Shape (22100, n_lines, 3).

    Counted for one start of each suit class (1,755) and copied to the rest; from a verified disk
    cache when there is one: the cells depend on which lines the table pays, not on its odds,
    limit or ante, so a warm ``felt analyze`` or ``felt simulate`` skips the count."""
    lines = ",".join(map(str, np.asarray(line_of_value).tolist()))
    here = Path(__file__)
    key = source_digest(here, salt=f"{_equity_digest()}|{n_lines}|{lines}", length=24)
    path = cache_dir() / f"cells5-{key}.npz"
    cached = load_arrays(path, ("cells",))
    if cached is not None and cached["cells"].shape == (22100, n_lines, 3):
        return cached["cells"].astype(np.int64)
    lower, equal = equity_counts()
    class_of, _, hands = class_completions(3, BINOM)
    line = np.asarray(line_of_value)[five_card_values()[hands]]
    results = (lower[hands], equal[hands], comb(47, 5) - lower[hands] - equal[hands])
    cells = np.zeros((len(hands), n_lines, 3), dtype=np.int64)
    for li in range(n_lines):
        on_line = line == li
        for ri, count in enumerate(results):
            cells[:, li, ri] = count.sum(axis=1, where=on_line)
    cells = cells[class_of]
    save_arrays(path, cells=cells)
    return cells


def count_equity() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For every five-card hand P (by colex index): how many five-card hands of the other 47 cards
    rank below P, and how many equal it (of C(47,5) = 1,533,939).

    Inclusion-exclusion over the cards of P: the hands disjoint from P are all hands, minus those
    holding each card of P, plus those holding each pair, minus each three, plus each four, minus P
    itself.  Each term is counted once per set of cards, not once per hand holding it, and once
    per suit class, not once per set: renaming suits changes no hand's value, so the hands holding
    a set rank alike for every set of its class.  The 16,432 classes of four cards value their 48
    completions once each (789 thousand values, where valuing each hand's five four-card subsets
    afresh took 624 million); the 1,938 classes of up to three cards count their completions below
    each value once; then one hand of each of the 134,459 classes of five cards adds up its 31
    terms, and every hand of the class takes its counts.
    """
    values = five_card_values()
    row_of: list[NDArray[np.int64]] = []  # sets of 0 to 3 cards: each class's row
    members: list[NDArray[np.int64]] = []  # each row's hands
    for k in range(4):
        class_of, _, completions = class_completions(k, BINOM)
        row_of.append(class_of + len(members))
        members.extend(completions)
    row_start = np.cumsum([0, *map(len, members)], dtype=np.int64)
    row_of_four, _, four = class_completions(4, BINOM)
    class_of, hands, _ = class_completions(5, BINOM)
    lower, equal = _class_equity(hands, values, BINOM, np.concatenate(row_of),
                                 np.concatenate(members), row_start, row_of_four, values[four])  # fmt: skip
    return lower[class_of], equal[class_of]


def dds_situations(
    line_of_value: NDArray[np.int64], n_lines: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Double Down Stud, per suit class of the four cards the player sees (own card and three
    dealer up-cards, 16,432 classes): how many of the 48 possible hole cards give each pay line
    (shape (classes, n_lines)); the class's key (its four ranks, high to low, in base 13, times 2,
    plus 1 if all four share a suit); how many situations (own card, up-cards) it stands for
    (each set of four cards is 4 situations: any of them may be the player's; the sum is
    52 x C(51,3)); and the class's canonical cards (shape (classes, 4), class 0 is 2c 2d 2h 2s).

    A situation's counts and key do not change when suits are renamed or when another of the
    four is the player's card, so one set of each class is counted (48 hands, not 48 per
    situation: 789 thousand hand values instead of 52 million)."""
    class_of, cards, completions = class_completions(4, BINOM)
    lines = np.asarray(line_of_value)[five_card_values()[completions]]
    counts = np.zeros((len(completions), n_lines), dtype=np.int64)
    for line in range(n_lines):
        counts[:, line] = (lines == line).sum(axis=1)
    ranks = np.sort(cards >> 2, axis=1)
    keys = ((ranks[:, 3] * 13 + ranks[:, 2]) * 13 + ranks[:, 1]) * 13 + ranks[:, 0]
    suited = ((cards & 3) == (cards[:, :1] & 3)).all(axis=1)
    situations = 4 * np.bincount(class_of, minlength=len(completions))
    return counts, keys * 2 + suited, situations, cards
