"""The house advantage of any one keno ticket at the minimum wager, exactly and fast enough to
check every request at issue: "notwithstanding any maximum payoff amount, the house advantage
shall not exceed 30 percent for the minimum wager which is offered" (19:47-15.3(e)).

A ticket's payout in a game is ``T`` = the sum over its ways of each way's payoff (capped at the
maximum payoff), and the ticket is paid ``min(T, L)`` for the aggregate limit ``L``, as a lone
winner.  So its expected payout is ``E[T] - E[(T - L)+]``:

- ``E[T]`` is linear: each way of ``s`` spots returns what a straight ``s``-spot ticket returns,
  so it is the sum over conditions of ways times the straight return (no enumeration);
- ``E[(T - L)+]`` is non-zero only on draws where the ways together pay more than the limit.  It
  is found by a depth-first search over the catches of the groups (groups of one size are
  exchangeable, so their catches are a non-increasing sequence counted with its arrangements),
  carrying the ways polynomial (ways by spots and catch) group by group, and leaving out every
  subtree in which no completion can pay more than ``L`` (an upper bound from the catches still
  possible: no more than 20 in all, none above the group's size or the previous equal group's).

The multi-race ticket returns the same per game, so one game is analysed.  The figure is at the
minimum wager for every way (the clause's "minimum wager which is offered"), whatever the rates
written on the ticket.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain
from math import comb, factorial
from typing import TYPE_CHECKING, Final

import numpy as np
from numpy.typing import NDArray

from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.games.keno.exact import DRAWN, POOL, catch_counts, way_count
from felt.games.keno.ratecard import MAX_HOUSE_ADVANTAGE_PERCENT
from felt.games.keno.tickets import Ticket, cite

if TYPE_CHECKING:
    from felt.games.keno.ratecard import RateCard

LIMIT: Final = Fraction(MAX_HOUSE_ADVANTAGE_PERCENT, 100)
ISSUE_WORK: Final = 4_500
"""The most work one check at issue does, in units of about 10 microseconds each charged before
the work it stands for: a search node over groups of equal size costs two plus the ticket's
conditions (1,500 nodes for one condition); one over the combinations a player chose costs what
it does over those ways (:data:`CHOSEN_NODE`, :data:`CHOSEN_WAYS`).  A bound of about 50 ms at
the writer's station whatever the ticket, counted, never timed, so a replay decides the same; a
ticket not decided within it is refused as not shown to be within 15.3(e)
(docs/interpretations.md, "Which tickets the 30 percent applies to")."""
CHOSEN_NODE: Final = 3
"""Units a node of the chosen-combination search costs, plus one per :data:`CHOSEN_WAYS` ways:
the node works on every chosen way at once (each way's catch so far and spots to come, one
array operation each), so its time grows with the ways, not with their length."""
CHOSEN_WAYS: Final = 256
"""Ways per extra unit of a chosen-combination node: a way takes about 20 ns of a node's time, so
256 ways take about half of a unit's 10 us (measured by ``./dev bench keno_issue_check``)."""
CHOSEN_KIND: Final = 2
"""Units per kind of way (spots, catch so far, spots to come) summed in closed form once the
ways fully caught already pay the limit: each is an exact sum over the catches to come."""
CHOSEN_ENTRIES: Final = 1_024
"""Group entries of the chosen ways (their total length) per unit of the search's set-up, which
reads each way once."""
_MARGIN: Final = 1e-9
"""Relative margin on the floating-point upper bound used only to leave out subtrees: a subtree
is left out only when its bound is below the limit by more than any rounding of the bound."""


class TooComplex(FeltError):
    """The ticket's figure would take more work than a check at issue may do."""


@dataclass(frozen=True)
class Advantage:
    """A ticket's house advantage at the minimum wager: exactly, or (at issue, when that decides
    15.3(e)) between two exact bounds."""

    low: Fraction
    """The house advantage is at least this (the ways' payoffs with no aggregate limit)."""
    high: Fraction
    """... and at most this; equal to ``low`` when found exactly."""
    price: int
    """Cents: every way at the minimum wager, one game."""
    ways: int
    capped: bool
    """Whether the aggregate limit can cut the ticket's payout at the minimum wager."""
    nodes: int
    """Search nodes visited (0 when no search was needed)."""
    work: int = 0
    """Units of work the search was charged (:data:`ISSUE_WORK`); never above its budget."""

    @property
    def exact(self) -> bool:
        """Whether the figure is exact (not only bounded)."""
        return self.low == self.high

    @property
    def house_advantage(self) -> Fraction:
        """The exact figure."""
        if not self.exact:
            raise ValueError("the house advantage was only bounded")
        return self.low

    @property
    def complies(self) -> bool:
        """Whether the house advantage is shown to be at most 30 percent (15.3(e))."""
        return self.high <= LIMIT

    @property
    def figure(self) -> str:
        """e.g. ``43.1497% (n/d)``, or ``between 20.1% and 31.2%`` when only bounded."""
        if self.exact:
            h = self.low
            return f"{_pct(h)} ({h.numerator}/{h.denominator})"
        return f"between {_pct(self.low)} and {_pct(self.high)}"


def _pct(value: Fraction) -> str:
    return f"{float(value) * 100:.4f}%"


def _pays(card: RateCard, spots: int) -> list[int]:
    """Cents one way of ``spots`` spots pays at the minimum wager, per catch 0..20."""
    return [card.payoff(spots, t, card.minimum_wager) if t <= spots else 0
            for t in range(DRAWN + 1)]  # fmt: skip


def ticket_advantage(
    card: RateCard,
    sizes: Sequence[int],
    spots: Sequence[int],
    single: bool,
    *,
    exact: bool = True,
    budget: int | None = None,
    chosen: Sequence[tuple[int, ...]] | None = None,
) -> Advantage:
    """The house advantage, at the minimum wager, of a ticket whose groups have ``sizes`` and
    whose conditions name ``spots`` (``single``: each way is one group alone, as on a split
    ticket).

    ``exact=False`` (the check at issue): stop at exact bounds as soon as they decide 15.3(e):
    the excess over the limit is at most the sum over ways of each way's excess over an equal
    share of the limit, since ``(sum x - L)+ <= sum (x - L/n)+``.  ``budget`` bounds the search's
    units of work (:data:`ISSUE_WORK`); past it, :class:`TooComplex` (exact) or the bounds are
    returned.  ``chosen``: the ways a combination ticket's player listed (15.2(c)4); a list of
    every way the conditions name is the same bet as the ticket without it, and is worked out as
    that one (its groups of one size exchangeable again)."""
    if sum(sizes) > POOL:
        raise FeltError(f"{sum(sizes)} spots marked: keno has {POOL} numbers")
    every = {s: way_count(sizes, s, single) for s in spots}
    if chosen is None:
        ways = every
    else:
        made = Counter(sum(sizes[i] for i in w) for w in chosen)
        ways = {s: made[s] for s in spots}
        distinct = len({frozenset(w) for w in chosen}) == len(chosen) and all(
            len(set(w)) == len(w) for w in chosen
        )
        if not single and distinct and ways == every and sum(ways.values()) == len(chosen):
            chosen = None  # every way of every condition, each once: no list needed
    total_ways = sum(ways.values())
    if total_ways == 0:
        raise FeltError("the ticket plays no way")
    pays = {s: _pays(card, s) for s in spots}
    draws = comb(POOL, DRAWN)
    linear = sum(
        n * sum(p * c for p, c in zip(pays[s], catch_counts(s), strict=False))
        for s, n in ways.items()
    )
    price = total_ways * card.minimum_wager
    low = 1 - Fraction(linear, draws * price)
    limit = card.aggregate_limit
    most = sum(n * max(pays[s]) for s, n in ways.items())
    if limit is None or most <= limit:
        return Advantage(low, low, price, total_ways, False, 0)
    if not exact:
        over = _excess_bound(ways, pays, limit)
        high = low + Fraction(over, draws * price)
        if high <= LIMIT:
            return Advantage(low, high, price, total_ways, True, 0)
    search: _Excess | _ChosenExcess
    if chosen is None:
        search = _Excess(sizes, pays, single, limit, budget)
    else:
        search = _ChosenExcess(sizes, chosen, pays, limit, budget)
    try:
        excess, nodes = search.run()
    except TooComplex:
        if exact:
            raise
        return Advantage(low, high, price, total_ways, True, search.nodes, search.work)
    value = low + Fraction(excess, draws * price)
    return Advantage(value, value, price, total_ways, True, nodes, search.work)


def _excess_bound(ways: dict[int, int], pays: dict[int, list[int]], limit: int) -> Fraction:
    """An exact upper bound on the sum over draws of ``(T - L)+``.  For any shares ``c_s >= 0``
    with ``sum n_s c_s = L``, ``(T - L)+ <= sum over ways (x_w - c_s)+``; the best shares raise,
    unit of the limit by unit, the share of the condition whose ways most often pay more than
    their share (each term is convex in its share, so this greedy filling is optimal)."""
    counts = {s: catch_counts(s) for s in ways}
    share = dict.fromkeys(ways, Fraction(0))
    left = Fraction(limit)

    def tail(s: int) -> int:
        return sum(c for p, c in zip(pays[s], counts[s], strict=False) if p > share[s])

    while left > 0:
        s = max(ways, key=tail)
        if tail(s) == 0:
            break
        step = min(p for p in pays[s] if p > share[s]) - share[s]
        used = min(step * ways[s], left)
        share[s] += used / ways[s]
        left -= used
    return Fraction(0) + sum(
        (n * sum((p - share[s]) * c for p, c in zip(pays[s], counts[s], strict=False)
                 if p > share[s]) for s, n in ways.items()),
        Fraction(0),
    )  # fmt: skip


def advantage_of(
    card: RateCard, ticket: Ticket, *, exact: bool = True, budget: int | None = None
) -> Advantage:
    """:func:`ticket_advantage` of a ticket as read from a request."""
    spots = [c.spots for c in ticket.conditions]
    return ticket_advantage(card, ticket.sizes, spots, ticket.single, exact=exact, budget=budget,
                            chosen=ticket.chosen)  # fmt: skip


def check_issue(card: RateCard, ticket: Ticket) -> Advantage:
    """Refuse to issue a ticket whose house advantage at the minimum wager is above 30 percent,
    or not shown to be at most 30 percent within the check's work bound (19:47-15.3(e)), naming
    the clause and the figure; nothing is issued.  The figure depends only on the ticket's form
    (its group sizes, conditions' spots and any combinations chosen), so the card remembers the
    forms checked last (:data:`ISSUE_CACHE`)."""
    chosen = (
        None if ticket.chosen is None else hashlib.sha256(repr(ticket.chosen).encode()).digest()
    )
    key = (ticket.sizes, tuple(sorted(c.spots for c in ticket.conditions)), ticket.single,
           chosen)  # fmt: skip
    known = card.__dict__.get(_CHECKS)
    if not isinstance(known, _Recent):
        known = card.__dict__.setdefault(_CHECKS, _Recent(ISSUE_CACHE))
    a = known.get(key)
    if a is None:
        a = advantage_of(card, ticket, exact=False, budget=ISSUE_WORK)
        known.put(key, a)
    if a.complies:
        return a
    shown = (
        ""
        if a.exact
        else (
            f", not shown to be at most {MAX_HOUSE_ADVANTAGE_PERCENT}% within the {ISSUE_WORK:,} "
            "steps a check at issue may take: write it as simpler tickets"
        )
    )
    raise FeltError(
        f"keno request returned to the player ({cite('7(a)')}): the house advantage of "
        f"{ticket.kind} {ticket.conditioning} ({ticket.ways:,} ways of groups "
        f"{'+'.join(map(str, ticket.sizes))}) at the minimum wager "
        f"${dollars(card.minimum_wager)} is {a.figure}{shown}; the house advantage "
        f"shall not exceed {MAX_HOUSE_ADVANTAGE_PERCENT}% for the minimum wager notwithstanding "
        f"any maximum payoff ({cite('3(e)')}); nothing was issued"
    )


ISSUE_CACHE: Final = 256
"""Checks at issue one rate card remembers, the least recently used dropped first: a form sold
again is answered at once, and a stream of new forms (a quote per variation of the combinations)
cannot grow memory without bound.  Keys are small: a list of chosen combinations (up to 2,000)
is keyed by its SHA-256, which no two lists share in practice (an ordinary hash could be made to
collide, answering one form with another's figure)."""
_CHECKS: Final = "_issue_checks"


class _Recent:
    """The last ``size`` checks at issue of one rate card, by form (an LRU, safe across the
    server's threads).  A copy of the card shares it (the same card gives the same figures, and
    a system copied per action need not copy it); unpickled, it starts empty."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[tuple[object, ...], Advantage] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __copy__(self) -> _Recent:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> _Recent:
        return self

    def __reduce__(self) -> tuple[type[_Recent], tuple[int]]:
        return (_Recent, (self.size,))

    def get(self, key: tuple[object, ...]) -> Advantage | None:
        """The check of this form, if remembered (it becomes the most recently used)."""
        with self._lock:
            a = self._items.get(key)
            if a is not None:
                self._items.move_to_end(key)
            return a

    def put(self, key: tuple[object, ...], a: Advantage) -> None:
        """Remember a check, dropping the least recently used beyond ``size``."""
        with self._lock:
            self._items[key] = a
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


def _completed(pays: Sequence[int], caught: int, spots: int, rest: int, left: int) -> int:
    """Total payout of a way that has caught ``caught`` and has ``spots`` still to come, over the
    ``comb(rest, left)`` ways the ``left`` numbers still to be drawn fall among ``rest``: the
    spots to come catch ``u`` in ``comb(spots, u) * comb(rest - spots, left - u)`` of them."""
    return sum(
        pays[caught + u] * comb(spots, u) * comb(rest - spots, left - u)
        for u in range(min(spots, left) + 1)
        if caught + u <= DRAWN
    )


def _best_table(pays: Sequence[int]) -> NDArray[np.int64]:
    """``[t, c]``: the most one way paying ``pays`` pays having caught ``t``, with up to ``c``
    more (``c = 0``: what it pays)."""
    table = np.zeros((DRAWN + 1, DRAWN + 1), dtype=np.int64)
    p = np.array(pays, dtype=np.int64)
    table[:, 0] = p
    caught = np.arange(DRAWN + 1)
    for c in range(1, DRAWN + 1):
        table[:, c] = np.maximum(table[:, c - 1], p[np.minimum(DRAWN, caught + c)])
    return table


class _Search:
    """What both searches share: the excess found, the nodes visited and the work charged."""

    def __init__(self, budget: int | None) -> None:
        self.budget = budget
        self.work = 0
        self.nodes = 0
        self.excess = 0

    def _charge(self, units: int) -> None:
        """Count ``units`` of work about to be done; past the budget, stop before doing it."""
        if self.budget is not None and self.work + units > self.budget:
            raise TooComplex(f"more than {self.budget:,} units of search")
        self.work += units


class _Excess(_Search):
    """``sum over draws of (T - L)+``: the depth-first search of the module docstring."""

    def __init__(
        self,
        sizes: Sequence[int],
        pays: dict[int, list[int]],
        single: bool,
        limit: int,
        budget: int | None,
    ) -> None:
        super().__init__(budget)
        self.cost = 2 + len(pays)
        """Units of work per search node: its cost grows with the conditions bounded."""
        self.classes = sorted(Counter(sizes).items(), reverse=True)
        self.marked = sum(sizes)
        self.single = single
        self.limit = limit
        self.top = max(pays)
        self.spots = sorted(pays)
        self.pay = {s: np.array(p, dtype=np.int64) for s, p in pays.items()}
        self.pay_int = np.array([pays[s] for s in self.spots], dtype=np.int64)
        # best[s][t, c]: the most one way of s spots pays having caught t, with up to c more.
        self.best = {s: _best_table(p).astype(np.float64) for s, p in pays.items()}
        self.pays = np.array([pays[s] for s in self.spots], dtype=np.float64)
        self.rest_cache: dict[tuple[int, int, int], NDArray[np.float64]] = {}
        self.best_cache: dict[int, NDArray[np.float64]] = {}
        self.reversed_cache: dict[int, NDArray[np.float64]] = {}

    def run(self) -> tuple[int, int]:
        """The excess (an integer over comb(80, 20) draws) and the nodes visited."""
        width = self.top + 1
        w = np.zeros((width, DRAWN + 1))
        w[0, 0] = 1
        self._class(0, w, 0, 1)
        return self.excess, self.nodes

    # ------------------------------------------------------------------ bound
    def _rest(self, ci: int, left: int, cap: int) -> NDArray[np.float64]:
        """Sets of the groups not yet given catches (``left`` of class ``ci``, each catching at
        most ``cap``; every later class in full): count by (spots, most catches), the latter
        clipped at 20.  Single-group ways: only sets of one group, no empty set."""
        key = (ci, left, cap)
        got = self.rest_cache.get(key)
        if got is not None:
            return got
        if left == 0:
            out = self._tail(ci + 1)
        else:
            out = self._with(self._rest(ci, left - 1, cap), self.classes[ci][0], cap)
        self.rest_cache[key] = out
        return out

    def _tail(self, ci: int) -> NDArray[np.float64]:
        """Every group of the classes from ``ci`` on, each at most its size (or 20)."""
        key = (ci, -1, -1)
        got = self.rest_cache.get(key)
        if got is not None:
            return got
        if ci == len(self.classes):
            out = np.zeros((self.top + 1, DRAWN + 1))
            if not self.single:
                out[0, 0] = 1
        else:
            out = self._tail(ci + 1)
            size, count = self.classes[ci]
            for _ in range(count):
                out = self._with(out, size, min(size, DRAWN))
        self.rest_cache[key] = out
        return out

    def _with(self, r: NDArray[np.float64], size: int, most: int) -> NDArray[np.float64]:
        """``r`` with one more group of ``size`` spots catching at most ``most``."""
        width = self.top + 1
        if size >= width:
            return r
        grown = r.copy()
        if self.single:
            grown[size, most] += 1
            return grown
        shifted = np.zeros_like(r)
        shifted[:, most:] = r[:, : DRAWN + 1 - most]
        if most:
            shifted[:, DRAWN] += r[:, DRAWN + 1 - most :].sum(axis=1)
        grown[size:] += shifted[: width - size]
        return grown

    def _bound(self, w: NDArray[np.float64], rest: NDArray[np.float64], budget: int) -> float:
        """The most the ticket can pay in any completion: fixed ways exactly, ways with groups to
        come at the best their catches still allow."""
        best = self._best(budget)  # [spots, t, m]: caught t so far, up to m more
        if self.single:
            fixed = float((w[self.spots] * self.pays).sum())
            return fixed + float((rest[self.spots] * best[:, 0, :]).sum())
        return float(((w @ best) * self._reversed(rest)).sum())

    def _best(self, budget: int) -> NDArray[np.float64]:
        got = self.best_cache.get(budget)
        if got is None:
            clip = np.minimum(np.arange(DRAWN + 1), budget)
            got = np.stack([self.best[s][:, clip] for s in self.spots])
            self.best_cache[budget] = got
        return got

    def _reversed(self, rest: NDArray[np.float64]) -> NDArray[np.float64]:
        """``[spots, a, m]``: the sets to come of ``s - a`` spots, for a way of ``s`` spots whose
        groups given catches so far have ``a``."""
        key = id(rest)
        got = self.reversed_cache.get(key)
        if got is None:
            got = np.zeros((len(self.spots), self.top + 1, DRAWN + 1))
            for i, s in enumerate(self.spots):
                got[i, : s + 1] = rest[s::-1]
            self.reversed_cache[key] = got
        return got

    # ------------------------------------------------------------------ search
    def _class(self, ci: int, w: NDArray[np.float64], caught: int, weight: int) -> None:
        if ci == len(self.classes):
            self._leaf(w, caught, weight)
            return
        if self._fixed(w) >= self.limit:
            self._beyond(ci, w, caught, weight)
            return
        size, count = self.classes[ci]
        self._group(ci, count, min(size, DRAWN), w, caught, weight, Counter())

    def _group(
        self,
        ci: int,
        left: int,
        cap: int,
        w: NDArray[np.float64],
        caught: int,
        weight: int,
        seen: Counter[int],
    ) -> None:
        self._charge(self.cost)
        self.nodes += 1
        size, count = self.classes[ci]
        if left == 0:
            arrangements = factorial(count)
            for n in seen.values():
                arrangements //= factorial(n)
            self._class(ci + 1, w, caught, weight * arrangements)
            return
        budget = DRAWN - caught
        rest = self._rest(ci, left, min(cap, budget))
        if self._bound(w, rest, budget) <= self.limit * (1 - _MARGIN):
            return
        width = self.top + 1
        for k in range(min(cap, budget), -1, -1):
            grown = w.copy()
            if self.single:
                if size < width:
                    grown[size, k] += 1
            elif size < width:
                grown[size:, k:] += w[: width - size, : DRAWN + 1 - k]
            seen[k] += 1
            self._group(ci, left - 1, k, grown, caught + k, weight * comb(size, k), seen)
            seen[k] -= 1
            if not seen[k]:
                del seen[k]

    def _fixed(self, w: NDArray[np.float64]) -> int:
        """Cents the ways within the groups given catches pay (no payoff is negative, so the
        ticket pays at least this whatever the other groups catch)."""
        return int((np.rint(w[self.spots]).astype(np.int64) * self.pay_int).sum())

    def _beyond(self, ci: int, w: NDArray[np.float64], caught: int, weight: int) -> None:
        """Every completion pays at least the limit: the excess over them is their total payout
        less the limit each, in closed form.  The remaining draw of ``20 - caught`` numbers falls
        among the ``80 - marked so far`` numbers uniformly, so a set of ``b`` spots still to come
        catches ``u`` in ``comb(b, u) * comb(rest - b, left - u)`` of them."""
        self._charge(self.cost)
        self.nodes += 1
        done = sum(size * count for size, count in self.classes[:ci])
        rest, left = POOL - done, DRAWN - caught
        counts = np.zeros(self.top + 1, dtype=object)  # sets of spots still to come, by size
        counts[0] = 1
        for size, count in self.classes[ci:]:
            for _ in range(count):
                if size > self.top:
                    continue
                grown = counts.copy()
                grown[size:] += counts[: self.top + 1 - size]
                counts = grown
        if self.single:
            counts = np.zeros(self.top + 1, dtype=object)
            for size, count in self.classes[ci:]:
                if size <= self.top:
                    counts[size] += count
        total = 0
        for s in self.spots:
            p = [int(v) for v in self.pay[s]]
            for a in range(s + 1):
                b = s - a
                if self.single and a not in (0, s):
                    continue
                if self.single and a == 0:
                    row = {0: 1}
                else:
                    row = {t: int(n) for t, n in enumerate(w[a]) if n}
                sets = 1 if b == 0 else int(counts[b])
                if not sets:
                    continue
                for t, n in row.items():
                    total += n * sets * _completed(p, t, b, rest, left)
        self.excess += weight * (total - self.limit * comb(rest, left))

    def _leaf(self, w: NDArray[np.float64], caught: int, weight: int) -> None:
        self._charge(self.cost)
        self.nodes += 1
        paid = self._fixed(w)
        if paid > self.limit:
            rest = comb(POOL - self.marked, DRAWN - caught)
            self.excess += (paid - self.limit) * weight * rest


class _ChosenExcess(_Search):
    """The excess over the limit for ways the player chose (15.2(c)4): groups are no longer
    exchangeable, so each group's catch is enumerated, ways paid as listed, with the same
    bound and the same closed form once the ways fully caught already pay the limit.

    A node works on every chosen way at once: each way's spots and catch so far are one index
    into a table of the most it can still pay, moved by one array operation when a group is
    given its catch, so a node's work grows with the ways and not with their length; it is
    charged that way (:data:`CHOSEN_NODE`, :data:`CHOSEN_WAYS`), and the set-up, which reads
    every way once, by the ways' total length (:data:`CHOSEN_ENTRIES`)."""

    def __init__(
        self,
        sizes: Sequence[int],
        chosen: Sequence[tuple[int, ...]],
        pays: dict[int, list[int]],
        limit: int,
        budget: int | None,
    ) -> None:
        super().__init__(budget)
        count = len(chosen)
        lengths = [len(w) for w in chosen]
        self._charge(CHOSEN_NODE + sum(lengths) // CHOSEN_ENTRIES + count // CHOSEN_WAYS)
        self.sizes = list(sizes)
        self.limit = limit
        self.marked = sum(sizes)
        self.node_cost = CHOSEN_NODE + count // CHOSEN_WAYS
        """Units of work per search node (and per closed form over every completion)."""
        member = np.zeros((len(sizes), count), dtype=np.int64)  # [g, w]: group g is in way w
        member[list(chain.from_iterable(chosen)), np.repeat(np.arange(count), lengths)] = 1
        size = np.array(sizes, dtype=np.int64)
        # to_come[d, w]: the spots of way w in the groups from the d-th on (no catch given yet).
        self.to_come = np.zeros((len(sizes) + 1, count), dtype=np.int64)
        for d in range(len(sizes) - 1, -1, -1):
            self.to_come[d] = self.to_come[d + 1] + size[d] * member[d]
        self.longest = int(self.to_come[0].max())
        spots = sorted(pays)
        self.pay = [pays[s] for s in spots]
        # best[(i * 21 + t) * 21 + r]: the most one way of spots[i] pays having caught t, with
        # up to r more; r = 0: what it pays.
        self.best = np.stack([_best_table(p) for p in self.pay]).ravel()
        self.side = DRAWN + 1
        self.start = np.searchsorted(spots, self.to_come[0]) * self.side**2
        """Each way's place in ``best`` before any catch (its spots' table, caught 0)."""
        self.step = self.side * member
        """``step[g]``: how one number caught in group ``g`` moves each way's place in ``best``."""
        self.completed: dict[tuple[int, int, int, int, int], int] = {}

    def run(self) -> tuple[int, int]:
        """The excess (an integer over comb(80, 20) draws) and the nodes visited."""
        self._visit(self.start, 0, 0, 1)
        return self.excess, self.nodes

    def _visit(self, place: NDArray[np.int64], fixed: int, caught: int, weight: int) -> None:
        """The groups before the ``fixed``-th have their catches (``caught`` numbers in all, in
        ``weight`` arrangements of their numbers); ``place``: each way's spots and catch so far,
        as its row in ``best``."""
        self._charge(self.node_cost)
        self.nodes += 1
        budget = DRAWN - caught
        to_come = self.to_come[fixed]
        room = to_come if budget >= self.longest else np.minimum(to_come, budget)
        value = self.best[place + room]
        if int(value.sum()) <= self.limit:
            return
        done = int(value[room == 0].sum())  # ways that can catch no more: what they pay
        if fixed == len(self.sizes):
            self.excess += (done - self.limit) * weight * comb(POOL - self.marked, budget)
            return
        if done >= self.limit:
            self._beyond(place, fixed, caught, weight)
            return
        g = self.sizes[fixed]
        step = self.step[fixed]
        for k in range(min(g, budget), -1, -1):
            self._visit(place + k * step, fixed + 1, caught + k, weight * comb(g, k))

    def _beyond(self, place: NDArray[np.int64], fixed: int, caught: int, weight: int) -> None:
        """Every completion pays at least the limit: their total payout less the limit each,
        the numbers still to be drawn falling uniformly among those not yet given catches.
        Ways alike in spots, catch so far and spots to come are summed once (:data:`CHOSEN_KIND`)."""
        self._charge(self.node_cost)
        rest = POOL - sum(self.sizes[:fixed])
        left = DRAWN - caught
        kinds, counts = np.unique(place + self.to_come[fixed], return_counts=True)
        self._charge(CHOSEN_KIND * len(kinds))
        total = 0
        for key, n in zip(kinds.tolist(), counts.tolist(), strict=True):
            row, b = divmod(key, self.side)
            i, t = divmod(row, self.side)
            memo = (i, t, b, rest, left)
            got = self.completed.get(memo)
            if got is None:
                got = self.completed[memo] = _completed(self.pay[i], t, b, rest, left)
            total += n * got
        self.excess += weight * (total - self.limit * comb(rest, left))


@dataclass(frozen=True)
class Form:
    """A many-way ticket form the card permits beyond its standard forms, with its figure."""

    kind: str
    sizes: tuple[int, ...]
    conditioning: str
    advantage: Advantage

    @property
    def label(self) -> str:
        """e.g. ``king 2002/9 (14 kings)`` or ``way 70/8 (8 groups of 2)``."""
        if self.kind == "king":
            return f"king {self.conditioning} ({len(self.sizes)} kings)"
        return f"way {self.conditioning} ({len(self.sizes)} groups of {self.sizes[0]})"


def many_way_forms(card: RateCard) -> list[Form]:
    """Every ticket of one kind of group and one condition that the card permits: ``n`` kings
    played ``comb(n, s)/s`` and ``k`` equal groups of ``g`` played ``comb(k, j)/(j*g)`` (the
    audit's scan of issue 18: many ways, top prizes cut by the aggregate limit), each with its
    exact house advantage at the minimum wager."""
    out: list[Form] = []
    offered = card.ticket_types
    if "king" in offered:
        for n in range(3, POOL + 1):
            for s in card.pays:
                if 2 <= s < n and comb(n, s) <= card.max_ways:
                    a = ticket_advantage(card, [1] * n, [s], False)
                    out.append(Form("king", (1,) * n, f"{comb(n, s)}/{s}", a))
    if "way" in offered:
        for g in range(2, max(card.pays) + 1):
            for k in range(3, POOL // g + 1):
                for j in range(2, k):
                    if j * g in card.pays and comb(k, j) <= card.max_ways:
                        a = ticket_advantage(card, [g] * k, [j * g], False)
                        out.append(Form("way", (g,) * k, f"{comb(k, j)}/{j * g}", a))
    return out
