"""Keno tickets: what a keno request plays, read and checked against a rate card (19:47-15.2(c)),
its conditioning written as keno writers write it, and its price.

**Conditioning.**  Each condition is a fraction ``ways/spots``: ``3/8`` is "three ways of eight
spots", every set of the ticket's groups whose sizes add up to eight, each played as a straight
eight-spot ticket at the condition's rate (the rate per way, written beneath the fraction on a
paper request; here ``3/8@1.00``).  This is the fractional format keno writers use in the
ticket's margin: e.g. a Montana keno rule (rules.mt.gov, Print_RV.Asp?RV=4103) writes two wagers
on two different groups of four numbers as 2/4; player guides describe three circled
groups of three conditioned ``3/3 3/6 1/9`` as a combination ticket, and a way ticket as having a
single fraction (chinakahodge.com, rules_keno5.htm).  A straight ticket is conditioned with its
spot count alone (``8``).  A king is a single circled spot (a group of one) that plays only
combined with other groups (chinakahodge.com, rules_keno6.htm; pokeronlineguru.com, "King
Tickets"); once a player conditions a number of spots, every way of that many spots is played
(gamingtoday.com, "For those needing help writing and reading a keno ticket", 2017).

A request is a mapping (as JSON or TOML gives it)::

    {"kind": "way", "groups": [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]],
     "conditions": ["3/8"], "rate": "1.00", "games": 1, "price": "3.00"}

A request that does not say clearly what is played is refused with the reason, and nothing else
happens: the keno request is returned to the player (19:47-15.7(a)).

>>> from felt.games.keno.ratecard import example_rate_card
>>> t = read_request({"kind": "way", "groups": [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]],
...                   "conditions": ["3/8"], "rate": "1.00"}, example_rate_card())
>>> t.conditioning, t.ways, t.price
('3/8', 3, 300)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.core.tablefile import check_keys
from felt.games.keno.exact import POOL, way_count, ways_by_catch

if TYPE_CHECKING:
    from felt.games.keno.ratecard import RateCard

KINDS: Final = ("straight", "split", "way", "combination", "king")
"""The ticket types of 19:47-15.2(c)1-5; a ticket for more than one game is also a multi-race
ticket (15.2(c)6)."""
TICKET_TYPES: Final = (*KINDS, "multi-race")
"""Every type a rate card may offer."""
MAX_GROUPS: Final = 80
MAX_CONDITIONS: Final = 40
_CONDITION = re.compile(r"^\s*(?:(\d{1,7})\s*/\s*)?(\d{1,3})\s*(?:@\s*(\S+))?\s*$", re.ASCII)
_KEYS = {"kind", "numbers", "groups", "conditions", "rate", "games", "price", "quick_pick",
         "combinations"}  # fmt: skip


def cite(section: str) -> str:
    """``cite("2(c)3")`` is ``N.J.A.C. 19:47-15.2(c)3``."""
    return f"N.J.A.C. 19:47-15.{section}"


def unclear(reason: str, clause: str | None = None) -> FeltError:
    """The refusal of a keno request: the reason, the clause it breaks, and 15.7(a)."""
    broken = f" ({cite(clause)})" if clause else ""
    return FeltError(f"keno request returned to the player ({cite('7(a)')}): {reason}{broken}")


@dataclass(frozen=True)
class Condition:
    """``ways/spots`` at ``rate`` cents per way per game."""

    ways: int
    spots: int
    rate: int

    def __str__(self) -> str:
        return f"{self.ways}/{self.spots}"


@dataclass(frozen=True)
class Ticket:
    """What a keno ticket plays: its groups of numbers, its conditioning, its games.

    The numbers of a straight ticket are one group.  A group of one spot on a king ticket is a
    king.  Groups never share a number.
    """

    kind: str
    groups: tuple[tuple[int, ...], ...]
    conditions: tuple[Condition, ...]
    games: int = 1
    quick_pick: bool = False
    chosen: tuple[tuple[int, ...], ...] | None = None
    """A combination ticket's ways as the player chose them (15.2(c)4): each a set of group
    positions (0-based); None: every set of groups whose spots a condition names."""

    @property
    def single(self) -> bool:
        """Whether each way is one group alone (straight and split tickets)."""
        return self.kind in ("straight", "split")

    @property
    def sizes(self) -> tuple[int, ...]:
        """The number of spots in each group."""
        return tuple(len(g) for g in self.groups)

    @property
    def numbers(self) -> tuple[int, ...]:
        """Every number marked, in order."""
        return tuple(sorted(n for g in self.groups for n in g))

    @property
    def ways(self) -> int:
        """The number of ways played in each game (15.4(c)8)."""
        return sum(c.ways for c in self.conditions)

    @property
    def price_per_game(self) -> int:
        """Cents: every way at its rate."""
        return sum(c.ways * c.rate for c in self.conditions)

    @property
    def price(self) -> int:
        """The total price of the ticket in cents, every game included (15.4(c)9)."""
        return self.price_per_game * self.games

    @property
    def multi_race(self) -> bool:
        """Whether the ticket is wagered for more than one game (15.2(c)6)."""
        return self.games > 1

    @property
    def conditioning(self) -> str:
        """The conditioning as keno writers write it: ``8`` for a straight eight-spot, else the
        fractions, e.g. ``3/3 3/6 1/9``."""
        if self.kind == "straight":
            return str(self.conditions[0].spots)
        text = " ".join(str(c) for c in self.conditions)
        if self.chosen is None:
            return text
        return f"{text} ({' '.join('+'.join(str(i + 1) for i in w) for w in self.chosen)})"

    @property
    def rates(self) -> str:
        """The rate of each wager (15.4(c)7): one rate, or each condition's."""
        if len({c.rate for c in self.conditions}) == 1:
            return f"${dollars(self.conditions[0].rate)} per way"
        return ", ".join(f"{c} at ${dollars(c.rate)} per way" for c in self.conditions)

    def marked(self) -> str:
        """The numbers in a clearly identifiable manner (15.4(c)3): each group in brackets, a
        king marked ``K``."""
        if self.kind == "straight":
            return " ".join(str(n) for n in self.groups[0])
        king = self.kind == "king"
        return " ".join(
            f"[K {g[0]}]" if king and len(g) == 1 else "[" + " ".join(map(str, g)) + "]"
            for g in self.groups
        )

    def catches(self, drawn: frozenset[int] | set[int]) -> list[tuple[int, int]]:
        """Each group's (size, numbers caught) against the numbers drawn."""
        return [(len(g), sum(1 for n in g if n in drawn)) for g in self.groups]

    def to_request(self) -> dict[str, Any]:
        """The ticket as a keno request (a losing or winning ticket may be the patron's request
        for the next game, 19:47-15.3(b))."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "groups": [list(g) for g in self.groups],
            "conditions": [f"{c}@{dollars(c.rate)}" for c in self.conditions],
            "games": self.games,
        }
        if self.chosen is not None:
            out["combinations"] = [[i + 1 for i in w] for w in self.chosen]
        return out


class NumberSource(Protocol):
    """An unbiased source of integers: ``below(n)`` is uniform in ``[0, n)``."""

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        ...


def choose(source: NumberSource, count: int, pool: int = POOL) -> tuple[int, ...]:
    """``count`` distinct numbers of 1..``pool``, every set equally likely: a partial
    Fisher-Yates shuffle driven by ``source`` (no modulo bias when ``below`` has none)."""
    if not 0 <= count <= pool:
        raise ValueError(f"cannot choose {count} of {pool} numbers")
    numbers = list(range(1, pool + 1))
    for i in range(count):
        j = i + source.below(pool - i)
        numbers[i], numbers[j] = numbers[j], numbers[i]
    return tuple(numbers[:count])


def quick_pick(request: Mapping[str, Any], source: NumberSource) -> dict[str, Any]:
    """A quick-pick request with its numbers chosen by ``source`` (the system's CSPRNG outside
    tests): ``{"quick_pick": 6, ...}`` becomes a straight request for six chosen numbers
    (19:47-15.1 "Quick-pick").  The numbers are fixed before the ticket is issued, so issuing it
    involves no randomness and replays exactly."""
    spots = request.get("quick_pick")
    if isinstance(spots, bool) or not isinstance(spots, int) or not 1 <= spots <= POOL:
        raise unclear(f"quick_pick must be the number of spots, 1 to {POOL}, got {excerpt(spots)}")
    if request.get("kind", "straight") != "straight":
        raise unclear("a quick-pick is a straight ticket", "1")
    if "numbers" in request or "groups" in request:
        raise unclear("a quick-pick request marks no numbers: the system selects them", "1")
    out = dict(request)
    out["kind"] = "straight"
    out["numbers"] = sorted(choose(source, spots))
    out["quick_pick"] = True
    return out


# ----------------------------------------------------------------------------- reading requests


def _int(value: object, what: str, low: int, high: int, clause: str | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise unclear(f"{what} must be a whole number from {low} to {high}, got {excerpt(value)}",
                      clause)  # fmt: skip
    return value


def _groups(data: Mapping[str, Any], kind: str) -> tuple[tuple[int, ...], ...]:
    has_numbers, has_groups = "numbers" in data, "groups" in data
    if has_numbers == has_groups:
        raise unclear("mark the numbers played: 'numbers' for a straight ticket, or 'groups'")
    if has_numbers:
        if kind != "straight":
            raise unclear(f"a {kind} ticket is marked in groups ('groups'), not 'numbers'")
        raw: object = [data["numbers"]]
    else:
        raw = data["groups"]
    if not isinstance(raw, list) or not raw or len(raw) > MAX_GROUPS:
        raise unclear(f"groups must be a list of 1 to {MAX_GROUPS} groups of numbers")
    seen: set[int] = set()
    groups = []
    for i, group in enumerate(raw, 1):
        if not isinstance(group, list) or not group:
            raise unclear(f"group {i} must be a list of numbers, got {excerpt(group)}")
        for n in group:
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= POOL:
                raise unclear(f"{excerpt(n)} is not a keno number: 1 to {POOL}", "2(a)")
            if n in seen:
                raise unclear(
                    f"number {n} is marked twice; the numbers in one group may not be duplicated "
                    "in any other group",
                    "2(c)2",
                )
            seen.add(n)
        groups.append(tuple(group))
    return tuple(groups)


def _condition(text: object, rate: int | None, card: RateCard) -> Condition:
    match = _CONDITION.match(text) if isinstance(text, str) and len(text) <= 40 else None
    if isinstance(text, int) and not isinstance(text, bool):
        match = _CONDITION.match(str(text))
    if match is None:
        raise unclear(f"condition {excerpt(text)} is not a fraction ways/spots such as 3/8, "
                      "optionally @rate (3/8@1.00)", "1")  # fmt: skip
    ways = int(match[1]) if match[1] else 1
    spots = int(match[2])
    if match[3] is not None:
        rate = cents(match[3], f"rate of condition {text!r}")
    if rate is None:
        raise unclear(f"condition {text!r} has no rate: give 'rate' or write {text}@1.00")
    card.check_rate(rate, f"rate of condition {text!r}")
    return Condition(ways, spots, rate)


_PREFIX: Final = f"keno request returned to the player ({cite('7(a)')}): "


def read_request(data: object, card: RateCard) -> Ticket:
    """The ticket a keno request asks for under ``card``; refused with the reason when the request
    is unclear or not offered (19:47-15.7(a))."""
    try:
        return _read(data, card)
    except FeltError as err:
        if str(err).startswith(_PREFIX):
            raise
        raise unclear(str(err)) from None


def _read(data: object, card: RateCard) -> Ticket:
    if not isinstance(data, Mapping):
        raise unclear(f"a keno request is a mapping of kind, groups, conditions, rate and games, "
                      f"got {excerpt(data)}")  # fmt: skip
    check_keys(data, _KEYS, "keno request")  # refused as unclear by read_request
    kind = data.get("kind", "straight")
    if kind not in KINDS:
        raise unclear(f"kind must be one of {', '.join(KINDS)}, got {excerpt(kind)}", "2(c)")
    if kind not in card.ticket_types:
        raise unclear(f"the rate card does not offer {kind} tickets (it offers "
                      f"{', '.join(card.ticket_types)})", "2(c)")  # fmt: skip
    quick = data.get("quick_pick", False)
    if quick is not False and quick is not True:
        raise unclear("quick_pick must be resolved into chosen numbers before the ticket is issued")
    if quick and not card.quick_pick:
        raise unclear("the rate card does not offer quick-picks", "1")
    groups = _groups(data, kind)
    rate = cents(data["rate"], "rate") if "rate" in data else None
    raw_conditions = data.get("conditions")
    if raw_conditions is None:
        if kind != "straight":
            raise unclear(f"a {kind} ticket needs its conditioning ('conditions', e.g. ['3/8'])",
                          "1")  # fmt: skip
        raw_conditions = [str(len(groups[0]))]
    if not isinstance(raw_conditions, list) or not 1 <= len(raw_conditions) <= MAX_CONDITIONS:
        raise unclear(f"conditions must be a list of 1 to {MAX_CONDITIONS} fractions such as 3/8")
    conditions = tuple(_condition(c, rate, card) for c in raw_conditions)
    spots_seen = [c.spots for c in conditions]
    if len(set(spots_seen)) != len(spots_seen) and kind != "split":
        raise unclear("two conditions name the same number of spots: write each once, e.g. 3/8")
    games = data.get("games", 1)
    if games != 1 and "multi-race" not in card.ticket_types:
        raise unclear("the rate card does not offer multi-race tickets", "2(c)6")
    games = _int(games, "games", 1, card.max_games, "2(c)6")
    chosen = _chosen(data.get("combinations"), kind, len(groups))
    ticket = Ticket(kind, groups, conditions, games, bool(quick), chosen)
    _check_structure(ticket)
    _check_ways(ticket, card)
    if "price" in data:
        stated = cents(data["price"], "price")
        if stated != ticket.price:
            raise unclear(f"the request is priced ${dollars(stated)}, but the rate card prices "
                          f"{ticket.conditioning} at {ticket.rates} for {games} game(s) at "
                          f"${dollars(ticket.price)}", "4(a)")  # fmt: skip
    return ticket


def _check_structure(t: Ticket) -> None:
    """The grouping rules of each ticket type (19:47-15.2(c)1-5)."""
    sizes = t.sizes
    kind = t.kind
    if kind == "straight":
        if len(t.groups) != 1:
            raise unclear("a straight ticket has its spots without any grouping", "2(c)1")
        if len(t.conditions) != 1 or t.conditions[0].spots != sizes[0] or t.conditions[0].ways != 1:
            raise unclear(f"a straight ticket of {sizes[0]} spots is conditioned {sizes[0]}",
                          "2(c)1")  # fmt: skip
        return
    if len(t.groups) < 2:
        raise unclear(f"a {kind} ticket has at least two groups of spots", _KIND_CLAUSE[kind])
    kings = [g for g in t.groups if len(g) == 1]
    if kind == "split":
        wanted = {s: sizes.count(s) for s in sorted(set(sizes))}
        given: dict[int, int] = {}
        for c in t.conditions:
            given[c.spots] = given.get(c.spots, 0) + c.ways
        if given != wanted:
            want = " ".join(f"{n}/{s}" for s, n in wanted.items())
            raise unclear(f"a split ticket plays each group separately: its groups are "
                          f"conditioned {want}", "2(c)2")  # fmt: skip
        _split_rates(t, wanted)
        return
    if kind == "way":
        if len(set(sizes)) != 1:
            raise unclear(f"the groups of a way ticket contain an equal number of spots, got "
                          f"{', '.join(map(str, sizes))}", "2(c)3")  # fmt: skip
        size = sizes[0]
        if size < 2:
            raise unclear("single circled spots are kings: condition this as a king ticket",
                          "2(c)5")  # fmt: skip
        for c in t.conditions:
            if c.spots % size or not 1 <= c.spots // size <= len(sizes):
                raise unclear(f"a way ticket combines its {len(sizes)} groups of {size}: {c} "
                              f"is not 1 to {len(sizes)} whole groups", "2(c)3")  # fmt: skip
        if len({c.rate for c in t.conditions}) > 1:
            raise unclear("each group played on a way ticket is wagered at the same rate",
                          "2(c)3")  # fmt: skip
        return
    if kind == "combination" and kings:
        raise unclear("a single circled spot is a king: condition this as a king ticket", "2(c)5")
    if kind == "king":
        if not kings:
            raise unclear("a king ticket has at least one king: a group of one spot", "2(c)5")
        for c in t.conditions:
            if c.spots < 2:
                raise unclear("a king plays only combined with other groups, never alone",
                              "2(c)5")  # fmt: skip
        king_pairs = [(len(g), 1 if len(g) == 1 else 0) for g in t.groups]
        if not any(any(k for k in ways_by_catch(king_pairs, c.spots) if k) for c in t.conditions):
            raise unclear("no condition combines a king with another group", "2(c)5")


def _split_rates(t: Ticket, counts: dict[int, int]) -> None:
    """The rates of a split ticket: all groups equal, one rate for each (15.2(c)2i); at least
    two groups unequal, a rate of its own for any group (15.2(c)2ii), written one fraction per
    group for groups of one size (``1/4@1 1/4@2 1/8@1``: the k-th ``1/4`` is the k-th group of
    four)."""
    repeated = [c for c in t.conditions if sum(d.spots == c.spots for d in t.conditions) > 1]
    if len(counts) == 1 and (repeated or len({c.rate for c in t.conditions}) > 1):
        raise unclear("all the groups contain an equal number of spots: the split ticket is "
                      "wagered at the same rate for each group, one fraction "
                      f"{counts[t.sizes[0]]}/{t.sizes[0]}", "2(c)2i")  # fmt: skip
    for c in repeated:
        if c.ways != 1:
            raise unclear(f"groups of {c.spots} at rates of their own are conditioned one "
                          f"fraction per group, 1/{c.spots} each, in the order of the groups",
                          "2(c)2ii")  # fmt: skip


_KIND_CLAUSE: Final = {"split": "2(c)2", "way": "2(c)3", "combination": "2(c)4", "king": "2(c)5"}


def _check_ways(t: Ticket, card: RateCard) -> None:
    """Every condition names the ways the groups make; every group is played; every way has a
    pay table; the ticket is within the rate card's size."""
    sizes = t.sizes
    # the spots of each chosen way, found once (a request may list 2,000 ways)
    totals = None if t.chosen is None else [sum(sizes[i] for i in w) for w in t.chosen]
    for c in t.conditions:
        if c.spots not in card.pays:
            offered = ", ".join(map(str, card.pays))
            raise unclear(f"{c.spots} spots is not offered (the rate card pays {offered} spots; "
                          f"at most {card.max_spots})", "2(b)")  # fmt: skip
        made = way_count(sizes, c.spots, t.single)
        if totals is not None:
            made = totals.count(c.spots)
        if t.kind == "split" and sum(d.spots == c.spots for d in t.conditions) > 1:
            made = min(made, 1)  # one fraction per group (15.2(c)2ii)
        if made == 0:
            raise unclear(f"no set of the groups makes {c.spots} spots", _KIND_CLAUSE.get(t.kind))
        if c.ways != made:
            raise unclear(f"{c} names {c.ways} way(s), but the groups make {made} way(s) of "
                          f"{c.spots} spots ({made}/{c.spots})", _KIND_CLAUSE.get(t.kind))  # fmt: skip
    if t.chosen is not None and totals is not None:
        named = {c.spots for c in t.conditions}
        for w, total in zip(t.chosen, totals, strict=True):
            if total not in named:
                raise unclear(f"the combination {'+'.join(str(i + 1) for i in w)} makes {total} "
                              "spots, which no condition names", "2(c)4")  # fmt: skip
        played = {i for w in t.chosen for i in w}
        for i in range(len(t.groups)):
            if i not in played:
                raise unclear(f"group {i + 1} ({' '.join(map(str, t.groups[i]))}) is not in any "
                              "combination chosen", "2(c)4")  # fmt: skip
    elif t.kind != "straight":
        for i in range(len(t.groups)):
            flags = [(g, 1 if j == i else 0) for j, g in enumerate(sizes)]
            if not any(
                any(k for k in ways_by_catch(flags, c.spots, t.single)) for c in t.conditions
            ):
                raise unclear(f"group {i + 1} ({' '.join(map(str, t.groups[i]))}) is not played "
                              "by any condition")  # fmt: skip
    if t.kind != "straight" and t.ways < 2:
        raise unclear(f"a {t.kind} ticket forms several tickets within one; this one plays "
                      "one way: write it as a straight ticket", _KIND_CLAUSE[t.kind])  # fmt: skip
    if t.ways > card.max_ways:
        raise unclear(f"the ticket plays {t.ways:,} ways; the rate card allows at most "
                      f"{card.max_ways:,} per ticket")  # fmt: skip


def _chosen(raw: object, kind: str, count: int) -> tuple[tuple[int, ...], ...] | None:
    """The combinations a player chose on a combination ticket (15.2(c)4): a list of sets of
    group numbers (1-based, as the groups are written), e.g. ``[[1, 2], [2, 3]]``."""
    if raw is None:
        return None
    if kind != "combination":
        raise unclear("only a combination ticket lists the combinations the player chose; a "
                      f"{kind} ticket plays every set of groups its conditions name", "2(c)4")  # fmt: skip
    if not isinstance(raw, list) or not raw or len(raw) > MAX_CHOSEN:
        raise unclear(f"combinations must be a list of 1 to {MAX_CHOSEN} sets of group numbers, "
                      "e.g. [[1, 2], [2, 3]]", "2(c)4")  # fmt: skip
    out: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()  # not ``in out``: quadratic in 2,000 combinations
    for w in raw:
        if (
            not isinstance(w, list)
            or not w
            or any(isinstance(i, bool) or not isinstance(i, int) or not 1 <= i <= count for i in w)
            or len(set(w)) != len(w)
        ):
            raise unclear(f"combination {excerpt(w)} must list distinct group numbers, 1 to "
                          f"{count}", "2(c)4")  # fmt: skip
        way = tuple(sorted(i - 1 for i in w))
        if way in seen:
            raise unclear(f"combination {excerpt(w)} is listed twice", "2(c)4")
        seen.add(way)
        out.append(way)
    return tuple(out)


MAX_CHOSEN: Final = 2_000
"""The most combinations one request may list."""


def parse_conditioning(text: str) -> list[str]:
    """The fractions of a conditioning as written, e.g. ``"3/3 3/6 1/9"``.

    >>> parse_conditioning("3/3  3/6 1/9")
    ['3/3', '3/6', '1/9']
    """
    return [part for part in text.split() if part]


def same_play(a: Ticket, b: Ticket) -> bool:
    """Whether two tickets play the same wagers (their groups in any order)."""
    return (
        a.kind == b.kind
        and sorted(a.groups) == sorted(b.groups)
        and sorted((c.spots, c.ways, c.rate) for c in a.conditions)
        == sorted((c.spots, c.ways, c.rate) for c in b.conditions)
        and a.games == b.games
        and a.chosen == b.chosen
    )


def groups_of(sizes: Sequence[int], start: int = 1) -> list[list[int]]:
    """Consecutive numbers in groups of ``sizes`` from ``start``: ``[[1, 2], [3, 4, 5]]``."""
    out, n = [], start
    for size in sizes:
        out.append(list(range(n, n + size)))
        n += size
    return out
