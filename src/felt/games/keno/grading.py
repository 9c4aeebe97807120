"""Grading many keno tickets against one draw at once (numpy), and sharing the aggregate limit.

Tickets are grouped by shape (the type, the sizes of the groups, the conditions' spots): one
shape's ways are the same sets of its groups for every ticket of it, listed once as an incidence
matrix.  A ticket's groups are bit masks of the numbers 1-80 (two 64-bit words); the catches of
each group are the popcount of the mask and the draw's; each way's catch is a matrix product, its
payoff a table lookup scaled to the rate (19:47-15.3(e)).

>>> from felt.games.keno.ratecard import example_rate_card
>>> from felt.games.keno.tickets import read_request
>>> card = example_rate_card()
>>> t = read_request({"numbers": [1, 2, 3, 4, 5], "rate": "2.00"}, card)
>>> grade([t], tuple(range(1, 21)), card).tolist()
[140000]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import numpy as np
from numpy.typing import NDArray

from felt.games.keno.exact import DRAWN

if TYPE_CHECKING:
    from felt.games.keno.ratecard import RateCard
    from felt.games.keno.tickets import Ticket

Masks = NDArray[np.uint64]


def mask(numbers: Sequence[int]) -> tuple[int, int]:
    """The numbers as two words: bit n-1 of the first for 1..64, bit n-65 of the second."""
    lo = hi = 0
    for n in numbers:
        if n <= 64:
            lo |= 1 << (n - 1)
        else:
            hi |= 1 << (n - 65)
    return lo, hi


@dataclass(frozen=True)
class Shape:
    """The ways of every ticket of one shape: which groups each way joins, its spots, and which
    condition (so which rate) it belongs to."""

    sizes: tuple[int, ...]
    incidence: NDArray[np.int64]
    """groups x ways: 1 where the way includes the group."""
    spots: NDArray[np.int64]
    condition: NDArray[np.int64]


@functools.lru_cache(maxsize=4096)
def shape(
    sizes: tuple[int, ...],
    spots: tuple[int, ...],
    single: bool,
    chosen: tuple[tuple[int, ...], ...] | None = None,
) -> Shape:
    """The ways of tickets whose groups have ``sizes`` and whose conditions name ``spots`` (or,
    on a combination ticket whose player chose them, the sets ``chosen``, 15.2(c)4)."""
    columns: list[tuple[int, ...]] = []
    way_spots: list[int] = []
    cond: list[int] = []
    for ci, s in enumerate(spots):
        if chosen is not None:
            picks: list[tuple[int, ...]] = [w for w in chosen if sum(sizes[i] for i in w) == s]
        elif single:
            picks = [(i,) for i, g in enumerate(sizes) if g == s]
        else:
            picks = sets_of(sizes, s)
        for pick in picks:
            if _conditioned(pick, ci, sizes, spots, single):
                columns.append(pick)
                way_spots.append(s)
                cond.append(ci)
    incidence = np.zeros((len(sizes), len(columns)), dtype=np.int64)
    for w, pick in enumerate(columns):
        incidence[list(pick), w] = 1
    return Shape(sizes, incidence, np.array(way_spots, np.int64), np.array(cond, np.int64))


def sets_of(sizes: Sequence[int], spots: int) -> list[tuple[int, ...]]:
    """Every set of groups (positions) whose sizes add up to ``spots``, found without visiting
    a set that cannot be completed (so the work follows the ways, not the 2^groups subsets:
    24 kings played 276/2 took 36 s the old way, a draw's grading stalled).

    >>> sets_of([4, 4, 4], 8)
    [(0, 1), (0, 2), (1, 2)]
    """
    n = len(sizes)
    full = (1 << (spots + 1)) - 1
    reach = [1] * (n + 1)  # reach[i]: bit t set when groups i.. have a subset of t spots
    for i in range(n - 1, -1, -1):
        reach[i] = (reach[i + 1] | (reach[i + 1] << sizes[i])) & full
    out: list[tuple[int, ...]] = []

    def grow(start: int, total: int, picked: tuple[int, ...]) -> None:
        if total == spots:
            out.append(picked)
            return
        for j in range(start, n):
            t = total + sizes[j]
            if t <= spots and reach[j + 1] >> (spots - t) & 1:
                grow(j + 1, t, (*picked, j))

    grow(0, 0, ())
    return sorted(out, key=lambda w: (len(w), w))


def _conditioned(
    pick: tuple[int, ...], ci: int, sizes: tuple[int, ...], spots: tuple[int, ...], single: bool
) -> bool:
    """Whether condition ``ci`` plays the way ``pick``: every way of its spots, except on a split
    ticket whose groups of one size are conditioned one by one (``1/4 1/4``, a rate per group,
    19:47-15.2(c)2(ii)), where the k-th such condition plays the k-th such group."""
    s = spots[ci]
    if not single or spots.count(s) == 1:
        return True
    same = [i for i, g in enumerate(sizes) if g == s]
    return pick == (same[spots[:ci].count(s)],)


def pay_matrix(card: RateCard) -> NDArray[np.int64]:
    """``[spots, catch]``: cents paid for the minimum wager (zero where nothing is paid)."""
    out = np.zeros((card.max_spots + 1, DRAWN + 1), dtype=np.int64)
    for s, line in card.pays.items():
        for k, amount in line.items():
            out[s, k] = amount
    return out


CHUNK: Final = 1 << 16
"""Ways graded at a time: tickets are taken in slices of about this many ways, so the arrays of
each step stay in the processor's cache (several times faster than whole arrays)."""


def grade_shape(
    lo: Masks,
    hi: Masks,
    rates: NDArray[np.int64],
    sh: Shape,
    draw: tuple[int, int],
    card: RateCard,
    pays: NDArray[np.int64] | None = None,
) -> NDArray[np.int64]:
    """Cents each ticket of one shape pays: ``lo``/``hi`` are tickets x groups masks, ``rates``
    tickets x conditions (cents per way).

    Every payoff at a rate is exact (the rate card is refused otherwise, 15.3(e)), so when no
    way can reach the maximum payoff a condition's ways are summed at the minimum wager and
    scaled once; otherwise each way is scaled and capped.
    """
    matrix = pay_matrix(card) if pays is None else pays
    table = matrix.ravel()
    incidence = sh.incidence.astype(np.float32)
    offset = (sh.spots * (DRAWN + 1)).astype(np.intp)[None, :]
    cap = card.max_payoff
    top = matrix.max(axis=1)[sh.spots]
    capped = (
        cap is not None
        and len(rates) > 0
        and (int((top * rates[:, sh.condition].max(axis=0)).max()) > cap * card.minimum_wager)
    )
    starts = np.flatnonzero(np.r_[True, np.diff(sh.condition) != 0])
    d0, d1 = np.uint64(draw[0]), np.uint64(draw[1])
    out = np.empty(len(lo), dtype=np.int64)
    step = max(1, CHUNK // max(1, incidence.shape[1]))
    for i in range(0, len(lo), step):
        rows = slice(i, i + step)
        caught = np.bitwise_count(lo[rows] & d0).astype(np.float32)
        caught += np.bitwise_count(hi[rows] & d1)
        way = (caught @ incidence).astype(np.intp)
        way += offset
        base = table[way]
        if capped and cap is not None:
            amount = base * rates[rows][:, sh.condition] // card.minimum_wager
            np.minimum(amount, cap, out=amount)
            out[rows] = amount.sum(axis=1)
        else:
            per_condition = np.add.reduceat(base, starts, axis=1)
            out[rows] = (per_condition * rates[rows]).sum(axis=1) // card.minimum_wager
    return out


def grade(tickets: Sequence[Ticket], drawn: Sequence[int], card: RateCard) -> NDArray[np.int64]:
    """Cents each ticket pays for one game (each way capped at the maximum payoff; the aggregate
    limit is applied by :func:`share`)."""
    out = np.zeros(len(tickets), dtype=np.int64)
    if not tickets:
        return out
    draw = mask(drawn)
    table = pay_matrix(card)
    by_shape: dict[
        tuple[tuple[int, ...], tuple[int, ...], bool, tuple[tuple[int, ...], ...] | None], list[int]
    ] = {}
    for i, t in enumerate(tickets):
        key = (t.sizes, tuple(c.spots for c in t.conditions), t.single, t.chosen)
        by_shape.setdefault(key, []).append(i)
    for key, idx in by_shape.items():
        sh = shape(*key)
        masks = [[mask(g) for g in tickets[i].groups] for i in idx]
        lo = np.array([[m[0] for m in row] for row in masks], dtype=np.uint64)
        hi = np.array([[m[1] for m in row] for row in masks], dtype=np.uint64)
        rates = np.array([[c.rate for c in tickets[i].conditions] for i in idx], dtype=np.int64)
        out[idx] = grade_shape(lo, hi, rates, sh, draw, card, table)
    return out


def share(winnings: Sequence[int], limit: int | None) -> list[int]:
    """What each winner of a game is paid under the maximum aggregate payoff: everything when the
    total is within the limit, else each the limit times its share of the total, rounded down to
    the cent (19:47-15.3(e), "pro-rata" on the rate card).

    >>> share([6_000_000, 12_000_000, 300], 10_000_000)
    [3333277, 6666555, 166]
    """
    total = sum(winnings)
    if limit is None or total <= limit:
        return list(winnings)
    return [w * limit // total for w in winnings]
