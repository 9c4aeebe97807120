"""The optimal Let It Ride Poker decisions (decisions.md 13): whether to let the first wager ride
on the player's three cards, and the second on them and the first community card, read from the
exact analysis's tables (:func:`.analysis.decisions`, computed once per table of payouts), and
the same decisions as rules in words for the patron's guide and the par sheet.

The rules in words are built from the tables, not written by hand: every hand falls in one
family (a paying hand, three to a royal flush, four to an outside straight, ...), a family rides
from some number of high cards (ten or higher) up, and whatever hands of it do otherwise are
named.  :meth:`Rule.rides` reads the rule back for any hand, and the tests check it against the
table for every hand.  At felt's minimum table they read as the published strategy (Wizard of
Odds, wizardofodds.com/games/let-it-ride/).

>>> from felt.core.cards import parse_cards
>>> from felt.games.let_it_ride.config import LetItRideConfig
>>> config = LetItRideConfig.from_mapping({})
>>> should_ride(parse_cards("Th Jh Ah"), config), should_ride(parse_cards("9h 9c 2d"), config)
(True, False)
>>> should_ride(parse_cards("5c 6d 7h 8s"), config), should_ride(parse_cards("9c Td Jh Qs"), config)
(False, True)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from felt.core.errors import FeltError
from felt.games.let_it_ride.analysis import (
    ConfigLike,
    Decisions,
    check_amount,
    colex,
    decide,
    group_decisions,
    keys,
    net_table,
)

HIGH: Final = 8
"""The lowest high card: a ten (a pair of tens or better pays)."""
WORDS: Final = ("no", "one", "two", "three", "four")

FIRST_FAMILIES: Final = (
    ("paying", "a paying hand (a pair of tens or better, or three of a kind)"),
    ("low pair", "a pair below tens"),
    ("royal", "three to a royal flush"),
    ("sf0", "three suited cards in a row"),
    ("sf1", "three to a straight flush with one gap"),
    ("sf2", "three to a straight flush with two gaps"),
    ("flush", "three to a flush"),
    ("straight", "three to a straight"),
    ("nothing", "any other three cards"),
)
"""The families of three-card hands, as the rules name them."""
SECOND_FAMILIES: Final = (
    (
        "paying",
        "a paying hand below four of a kind (a pair of tens or better, two pair, three of a kind)",
    ),
    ("quads", "four of a kind"),
    ("low pair", "a pair below tens"),
    ("flush", "four to a flush (a straight flush or a royal flush too)"),
    ("outside", "four to an outside straight"),
    ("inside", "four to an inside straight"),
    ("nothing", "any other four cards"),
)
"""The families of four-card hands, as the rules name them."""
_TOGETHER: Final = {
    (
        "paying",
        "quads",
    ): "a paying hand (a pair of tens or better, two pair, three or four of a kind)"
}
"""Families a rule names together when every hand of both rides."""
_IN_ORDER: Final = frozenset({"royal", "sf0", "sf1", "sf2", "straight", "outside", "inside"})
"""Families whose hands a rule names from the lowest rank (a straight's order)."""


def _span(ranks: Sequence[int]) -> tuple[int, bool]:
    """The fewest consecutive ranks holding ``ranks`` (distinct), the ace high or low, and
    whether that is with the ace low."""
    high = max(ranks) - min(ranks) + 1
    if 12 in ranks:
        low_ranks = [-1 if r == 12 else r for r in ranks]
        low = max(low_ranks) - min(low_ranks) + 1
        if low < high:
            return low, True
    return high, False


def family(ranks: Sequence[int], suited: bool) -> str:
    """The family of a hand of three or four cards (its ranks, and whether all of one suit), as
    :data:`FIRST_FAMILIES` and :data:`SECOND_FAMILIES` name them.

    >>> family([8, 10, 12], True), family([0, 1, 2], True), family([3, 4, 5, 6], False)
    ('royal', 'sf0', 'outside')
    >>> family([0, 1, 2, 12], False), family([9, 10, 11, 12], False), family([2, 2, 7], False)
    ('inside', 'inside', 'low pair')
    """
    n = len(ranks)
    counts = sorted((list(ranks).count(r) for r in set(ranks)), reverse=True)
    if counts[0] == 4:
        return "quads"
    if counts[0] == 3 or (counts[0] == 2 and (n == 4 and counts[1] == 2)):
        return "paying"
    if counts[0] == 2:
        pair = next(r for r in ranks if list(ranks).count(r) == 2)
        return "paying" if pair >= HIGH else "low pair"
    span, _ = _span(ranks)
    if n == 3:
        if suited:
            if min(ranks) >= HIGH:
                return "royal"
            return f"sf{span - 3}" if span <= 5 else "flush"
        return "straight" if span <= 5 else "nothing"
    if suited:
        return "flush"
    if span == 4 and 12 not in ranks:
        return "outside"
    return "inside" if span <= 5 else "nothing"


def _shown(ranks: Sequence[int], name: str) -> str:
    """A hand's ranks as a rule names it: a straight's from the lowest (the ace low in A-2-3),
    others from the highest."""
    if name not in _IN_ORDER:
        return "-".join("23456789TJQKA"[r] for r in sorted(ranks, reverse=True))
    _, ace_low = _span(ranks)
    order = sorted(ranks, key=lambda r: -1 if ace_low and r == 12 else r)
    return "-".join("23456789TJQKA"[r] for r in order)


def high_cards(ranks: Sequence[int], name: str) -> int:
    """How many of ``ranks`` are high cards (ten or higher; an ace that plays low, as in a
    straight flush draw A-2-4, does not count) in a hand of the family ``name``.

    >>> high_cards([0, 2, 12], "sf1"), high_cards([0, 2, 12], "nothing")
    (0, 1)
    """
    count = sum(r >= HIGH for r in ranks)
    if name in _IN_ORDER and _span(ranks)[1]:
        count -= 1
    return count


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


@dataclass(frozen=True)
class Clause:
    """One family's part of a rule: its hands with at least ``least`` high cards ride, except
    those whose ranks are in ``but``; those in ``also`` ride besides.  ``only``: just the hands
    of ``also`` ride."""

    name: str
    words: str
    others: frozenset[str] = frozenset()
    """Families besides ``name`` the clause covers alike (named together)."""
    least: int = 0
    but: frozenset[tuple[int, ...]] = frozenset()
    also: frozenset[tuple[int, ...]] = frozenset()
    only: bool = False

    @property
    def plain(self) -> bool:
        """Whether every hand of the family rides by this clause."""
        return not (self.least or self.but or self.also or self.only)

    def covers(self, name: str) -> bool:
        """Whether the clause is about the family ``name``."""
        return name == self.name or name in self.others

    def rides(self, ranks: tuple[int, ...]) -> bool:
        """Whether a hand of this family with ``ranks`` (ascending) rides by this clause."""
        if ranks in self.also:
            return True
        if self.only or ranks in self.but:
            return False
        return high_cards(ranks, self.name) >= self.least

    def text(self) -> str:
        """The clause in words."""
        shown = [_shown(r, self.name) for r in sorted(self.also)]
        if self.only:
            return f"{self.words}: only {_listed(shown)}"
        out = self.words
        if self.least:
            joint = " and" if " with " in out else " with"
            cards = "card" if self.least == 1 else "cards"
            out += f"{joint} at least {WORDS[self.least]} high {cards}"
        if self.but:
            out += ", except " + _listed([_shown(r, self.name) for r in sorted(self.but)])
        if self.also:
            out += ", and " + _listed(shown)
        return out


def _clause(name: str, words: str, units: dict[tuple[int, ...], bool]) -> Clause | None:
    """The shortest clause saying which of a family's hands (ranks -> rides) ride; None when
    none does."""
    riding = frozenset(r for r, ride in units.items() if ride)
    if not riding:
        return None
    best = Clause(name, words, also=riding, only=True)
    cost = len(riding)
    highs = {ranks: high_cards(ranks, name) for ranks in units}
    for least in range(max(highs.values()) + 1):
        above = {r for r, high in highs.items() if high >= least}
        but = frozenset(above - riding)
        also = frozenset(riding - above)
        if len(but) + len(also) < cost or (len(but) + len(also) == cost and best.only):
            best, cost = Clause(name, words, least=least, but=but, also=also), len(but) + len(also)
    return best


@dataclass(frozen=True)
class Rule:
    """One decision's rule: the wager rides on a hand that one of ``clauses`` says rides."""

    heading: str
    clauses: tuple[Clause, ...]

    def rides(self, cards: Sequence[int]) -> bool:
        """Whether the rule lets the wager ride on ``cards`` (three or four card numbers)."""
        ranks = tuple(sorted(int(c) >> 2 for c in cards))
        suited = len({int(c) & 3 for c in cards}) == 1
        name = family(ranks, suited)
        return any(c.rides(ranks) for c in self.clauses if c.covers(name))

    def text(self) -> str:
        """The rule in words."""
        if not self.clauses:
            return f"{self.heading}: always take it back."
        high = any(c.least for c in self.clauses)
        note = " (a high card: ten or higher; an ace playing low is not one)" if high else ""
        return (f"{self.heading}: let it ride with "
                + "; ".join(c.text() for c in self.clauses) + f"; otherwise take it back{note}.")  # fmt: skip


@functools.cache
def _families(n: int) -> tuple[str, ...]:
    """The family of every group of :func:`.analysis.keys` (``n`` cards)."""
    k = keys(n)
    return tuple(family(r.tolist(), bool(s)) for r, s in zip(k.ranks, k.suited, strict=True))


def _rule(n: int, rides: np.ndarray, heading: str) -> Rule:
    """The rule that gives the decisions ``rides`` (per hand of ``n`` cards)."""
    k = keys(n)
    groups = group_decisions(n, rides)
    units: dict[str, dict[tuple[int, ...], bool]] = {}
    for g, name in enumerate(_families(n)):
        units.setdefault(name, {})[tuple(k.ranks[g].tolist())] = bool(groups[g])
    clauses: list[Clause] = []
    for name, words in FIRST_FAMILIES if n == 3 else SECOND_FAMILIES:
        clause = _clause(name, words, units.get(name, {}))
        if clause is None:
            continue
        if clauses and clause.plain and clauses[-1].plain:
            together = _TOGETHER.get((clauses[-1].name, name))
            if together is not None:
                clause = Clause(clauses[-1].name, together, frozenset({name}))
                clauses.pop()
        clauses.append(clause)
    return Rule(heading, tuple(clauses))


@dataclass(frozen=True)
class Rules:
    """The optimal strategy at one table and amount in words: the first wager's rule and the
    second's after the first rode and after it was taken back (the same rule unless a payout
    limit binds)."""

    first: Rule
    second_after_ride: Rule
    second_after_take_back: Rule

    def text(self) -> list[str]:
        """One paragraph per rule (the second's once when both are the same)."""
        if self.second_after_ride.clauses == self.second_after_take_back.clauses:
            return [self.first.text(), self.second_after_ride.text()]
        return [self.first.text(), self.second_after_ride.text(),
                self.second_after_take_back.text()]  # fmt: skip


@functools.lru_cache(maxsize=8)
def _rules(nets: tuple[tuple[int, ...], ...]) -> Rules:
    d = decide(nets)
    first = _rule(3, d.first, "First wager")
    if bool((d.second[:, 0] == d.second[:, 1]).all()):
        second = _rule(4, d.second[:, 1], "Second wager")
        return Rules(first, second, second)
    return Rules(
        first,
        _rule(4, d.second[:, 1], "Second wager, when the first rode"),
        _rule(4, d.second[:, 0], "Second wager, when the first was taken back"),
    )


def rules(config: ConfigLike, amount: int | None = None) -> Rules:
    """The optimal strategy in words at a table of ``config`` with each wager ``amount`` cents
    (None: the table minimum)."""
    return _rules(net_table(config, check_amount(config, amount)))


def rules_text(config: ConfigLike, amount: int | None = None) -> list[str]:
    """The optimal strategy as paragraphs of text (for the patron's guide and the par sheet).

    >>> from felt.games.let_it_ride.config import LetItRideConfig
    >>> print(rules_text(LetItRideConfig.from_mapping({}))[0])  # doctest: +NORMALIZE_WHITESPACE
    First wager: let it ride with a paying hand (a pair of tens or better, or three of a kind);
    three to a royal flush; three suited cards in a row, except 2-3-4 and A-2-3; three to a
    straight flush with one gap and at least one high card; three to a straight flush with two
    gaps and at least two high cards; otherwise take it back (a high card: ten or higher; an ace
    playing low is not one).
    """
    return rules(config, amount).text()


def _decisions(config: ConfigLike, amount: int | None) -> Decisions:
    return decide(net_table(config, check_amount(config, amount)))


def should_ride(
    cards: Sequence[int], config: ConfigLike, amount: int | None = None, first_rides: bool = False
) -> bool:
    """Whether the optimal strategy lets the wager being decided ride: the first on the player's
    three ``cards``, or the second on them and the first community card (four ``cards``; with a
    payout limit that binds at ``amount``, the decision depends on ``first_rides``).  Ties take
    the wager back.  ``amount``: each wager in cents (None: the table minimum)."""
    numbers = [int(c) for c in cards]
    if (
        len(numbers) not in (3, 4)
        or len(set(numbers)) != len(numbers)
        or not all(0 <= c < 52 for c in numbers)
    ):
        raise FeltError(
            "a let it ride decision is on three distinct cards (the first wager) or four (the "
            f"second: the player's three and the first community card), got {numbers}"
        )
    d = _decisions(config, amount)
    if len(numbers) == 3:
        return bool(d.first[colex(numbers)])
    return bool(d.second[colex(numbers), int(bool(first_rides))])
