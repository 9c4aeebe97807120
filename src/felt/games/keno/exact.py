"""Exact keno mathematics: how many of the equally likely draws give each catch, for one group of
spots or jointly for the disjoint groups of a split, way, combination or king ticket.

A draw is ``drawn`` numbers out of ``pool`` (20 of 80 in the game, 19:47-15.2(a), 15.5(d)2; any
smaller game for the brute-force checks).  Counts are integers over ``comb(pool, drawn)`` draws, so
every probability is an exact :class:`~fractions.Fraction`.

Catching ``k`` of ``n`` spots is hypergeometric:

>>> catch_counts(4)[4], comb(POOL, DRAWN)
(10830060261901380, 3535316142212174320)

Disjoint groups of sizes ``g1..gm`` (``G`` spots in all) catch ``k1..km`` in
``prod(comb(gi, ki)) * comb(pool - G, drawn - sum(k))`` draws (multivariate hypergeometric).  The
ways a ticket plays are sets of its groups; how many ways of ``s`` spots caught ``t`` is read off a
small dynamic programme over the groups (:func:`ways_by_catch`), so neither the analysis nor the
grading lists the ways.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations_with_replacement, product
from math import comb, factorial
from typing import Final

POOL: Final = 80
"""Keno is played with the numbers 1 to 80 (19:47-15.2(a))."""
DRAWN: Final = 20
"""20 of the 80 numbers are selected for each game (19:47-15.5(d)2)."""
MAX_JOINT: Final = 2_000_000
"""The most catch patterns one exact ticket distribution enumerates (a bound on the work)."""

Pay = Callable[[int, int, int], int]
"""``pay(spots, catches, rate)``: cents one way of ``spots`` spots pays at ``rate`` cents."""


def catch_counts(spots: int, pool: int = POOL, drawn: int = DRAWN) -> list[int]:
    """Draws in which ``spots`` marked numbers catch exactly k, for k = 0 .. min(spots, drawn)."""
    return [comb(spots, k) * comb(pool - spots, drawn - k) for k in range(min(spots, drawn) + 1)]


def ways_by_catch(
    groups: Sequence[tuple[int, int]], spots: int, single: bool = False
) -> dict[int, int]:
    """How many ways of ``spots`` spots catch each number, given each group's (size, catch).

    The ways are every set of groups whose sizes add up to ``spots`` (``single``: one group
    alone, as a split ticket plays them).  Counted by a programme over the groups on (spots so
    far, catches so far), never listing a way.

    >>> ways_by_catch([(4, 1), (4, 2), (4, 0)], 8)  # a 3/8 way ticket: AB, AC, BC
    {1: 1, 2: 1, 3: 1}
    """
    if single:
        out: dict[int, int] = {}
        for size, caught in groups:
            if size == spots:
                out[caught] = out.get(caught, 0) + 1
        return dict(sorted(out.items()))
    table: dict[tuple[int, int], int] = {(0, 0): 1}
    for size, caught in groups:
        if size > spots:
            continue
        grown = dict(table)
        for (s, t), n in table.items():
            if s + size <= spots:
                key = (s + size, t + caught)
                grown[key] = grown.get(key, 0) + n
        table = grown
    return dict(sorted((t, n) for (s, t), n in table.items() if s == spots))


def way_count(sizes: Sequence[int], spots: int, single: bool = False) -> int:
    """How many ways of ``spots`` spots the groups of ``sizes`` make."""
    return sum(ways_by_catch([(g, 0) for g in sizes], spots, single).values())


def payout(
    groups: Sequence[tuple[int, int]],
    conditions: Sequence[tuple[int, int]],
    single: bool,
    pay: Pay,
) -> int:
    """Cents a ticket pays in one game: every way of every condition (spots, rate) paid at its
    rate, given each group's (size, catch)."""
    total = 0
    for spots, rate in conditions:
        for caught, n in ways_by_catch(groups, spots, single).items():
            total += n * pay(spots, caught, rate)
    return total


def _patterns(sizes: Sequence[int], drawn: int) -> Iterator[tuple[list[tuple[int, int]], int]]:
    """Every catch pattern up to exchanging groups of one size: (group, catch) pairs and how many
    assignments of catches to the actual groups it stands for."""
    classes = sorted(Counter(sizes).items())
    per_class = []
    for size, count in classes:
        options = []
        for caught in combinations_with_replacement(range(min(size, drawn) + 1), count):
            repeats = 1
            for n in Counter(caught).values():
                repeats *= factorial(n)
            options.append(([(size, k) for k in caught], factorial(count) // repeats))
        per_class.append(options)
    for choice in product(*per_class):
        pairs = [p for part, _ in choice for p in part]
        if sum(k for _, k in pairs) > drawn:
            continue
        arrangements = 1
        for _, n in choice:
            arrangements *= n
        yield pairs, arrangements


def pattern_total(sizes: Sequence[int], drawn: int = DRAWN) -> int:
    """How many catch patterns :func:`distribution` enumerates for groups of ``sizes``."""
    total = 1
    for size, count in Counter(sizes).items():
        total *= comb(count + min(size, drawn), count)
    return total


def distribution(
    sizes: Sequence[int],
    conditions: Sequence[tuple[int, int]],
    single: bool,
    pay: Pay,
    *,
    ticket_limit: int | None = None,
    pool: int = POOL,
    drawn: int = DRAWN,
) -> dict[int, int]:
    """The exact distribution of a ticket's payout in one game: cents -> number of draws (out of
    ``comb(pool, drawn)``) that pay it.

    Groups of equal size are exchangeable (every condition plays every set of groups of its
    total), so catches are enumerated per size as multisets.  ``ticket_limit`` caps the ticket's
    total, as the aggregate limit caps a lone winner's.
    """
    marked = sum(sizes)
    if marked > pool:
        raise ValueError(f"{marked} spots marked in a pool of {pool}")
    spots = [s for s, _ in conditions]
    if len(set(spots)) != len(spots):
        raise ValueError("groups of one size at different rates are not exchangeable: "
                         "analyse such a ticket at one rate")  # fmt: skip
    if pattern_total(sizes, drawn) > MAX_JOINT:
        raise ValueError(f"more than {MAX_JOINT:,} catch patterns: too many groups to enumerate")
    out: dict[int, int] = {}
    for pairs, arrangements in _patterns(sizes, drawn):
        caught = sum(k for _, k in pairs)
        draws = arrangements * comb(pool - marked, drawn - caught)
        for size, k in pairs:
            draws *= comb(size, k)
        if not draws:
            continue
        amount = payout(pairs, conditions, single, pay)
        if ticket_limit is not None:
            amount = min(amount, ticket_limit)
        out[amount] = out.get(amount, 0) + draws
    return dict(sorted(out.items()))
