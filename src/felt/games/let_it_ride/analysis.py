"""The exact analysis of Let It Ride Poker (19:47-18): every deal of the player's three cards and
the two community cards, in the order they are turned (22,100 x 49 x 48 = 51,979,200 equally
likely deals), with the optimal decision on each wager a player may take back.

The four-card hands (270,725) fall into 2,535 kinds by their ranks and whether all four are of
one suit, and a kind fixes how many of the 48 five-card hands completing one of its hands fall
on each line of the pay table (a fifth card makes a flush only with four of one suit); those
counts are classified once per kind (numpy), and each three-card hand (22,100) reads the 49
four-card hands it can become.  The strategy is by backward induction: the second wager rides on
four cards when that expects more than taking it back, given what became of the first; the
first rides on three cards when the best play of the second afterwards expects more with it
than without.  Without a payout limit that binds at the analysed amount, the wagers are
independent (each rides when its own expectation is positive: the classical strategy); with one
(18.11, title only: what one hand's three wagers win together is capped), riding more units can
win no more, and the decisions account for it.  Ties (equal expectation) take the wager back: fewer units at risk for the same
expectation.

Settlement (not in the seed text: 18.10, 18.11 titles only; public descriptions, see
docs/interpretations.md "Let It Ride Poker"): each wager left on the layout wins the pay table's
odds on the hand of the player's three cards and the two community cards (rounded down to the
cent), or loses on a hand below a pair of tens; the third wager always stays.  The let it ride
bonus (18.6A) and the three-card bonus (18.6B) do not depend on the decisions and are analysed
on their own (over the 2,598,960 five-card hands and the 22,100 three-card hands).  Nothing is
cached on disk: a cold analysis takes about a second.

>>> HANDS_3 * 49 * 48 == DEALS
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, Protocol

import numpy as np
from numpy.typing import NDArray

from felt.analysis.kernels import BINOM, _colex_sets
from felt.analysis.parsheet import (
    Outcome,
    ParSheet,
    Section,
    Table,
    fraction_text,
    one_in,
    prob_text,
)
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.games.base import Log
from felt.games.let_it_ride.hand import HANDS, THREE_CARD_HANDS

GAME: Final = "let_it_ride"
EDITION: Final = "nj-19-47-18"
TITLE: Final = "Let It Ride Poker"
HANDS_3: Final = 22_100
HANDS_4: Final = 270_725
HANDS_5: Final = 2_598_960
DEALS: Final = 51_979_200
"""The player's three cards, then community card 1 (49 left), then community card 2 (48)."""
LOSES: Final = "below tens"
LINES: Final = (*HANDS, LOSES)
"""The final hand's lines: the pay table's (best first), then the hands that lose the wagers."""
LOSE: Final = len(HANDS)
"""Index of :data:`LOSES` in :data:`LINES`."""
TRIO_LINES: Final = (*THREE_CARD_HANDS, "high card")
"""The three-card bonus lines (best first), then the three cards that lose it."""
PATTERNS: Final = ("take back both", "ride the second only", "ride the first only", "ride both")
"""What became of wagers 1 and 2, by 2 x (first rides) + (second rides)."""


class BonusLike(Protocol):
    """The let it ride bonus settings the analysis reads (``BonusSettings``)."""

    @property
    def wager(self) -> int: ...
    @property
    def pays(self) -> Mapping[str, Fraction]: ...


class ThreeCardLike(Protocol):
    """The three-card bonus settings the analysis reads (``ThreeCardSettings``)."""

    @property
    def pays(self) -> Mapping[str, Fraction]: ...


class ConfigLike(Protocol):
    """The table settings the analysis reads (``LetItRideConfig``)."""

    @property
    def pays(self) -> Mapping[str, Fraction]: ...
    @property
    def minimum(self) -> int: ...
    @property
    def maximum(self) -> int: ...
    @property
    def payout_limit(self) -> int | None: ...
    @property
    def bonus(self) -> BonusLike | None: ...
    @property
    def three_card_bonus(self) -> ThreeCardLike | None: ...


# ------------------------------------------------------------------------------ the counts
def colex(cards: Sequence[int]) -> int:
    """The colex index of a set of cards (ascending c0 < c1 < ...: the sum of C(c_i, i + 1)), the
    row of the set in every table here.

    >>> colex([0, 1, 2]), colex([49, 50, 51]) == HANDS_3 - 1
    (0, True)
    """
    return sum(math.comb(c, i + 1) for i, c in enumerate(sorted(int(c) for c in cards)))


def _lines_of(cards: NDArray[np.int8]) -> NDArray[np.uint8]:
    """The line (index into :data:`LINES`) of each row of five ascending cards (18.3: the ace
    high, or low in A-2-3-4-5 only; a pair pays from tens up)."""
    ranks = [(cards[:, i] >> 2).astype(np.int8) for i in range(5)]
    suit = cards[:, 0] & 3
    flush = np.ones(len(cards), dtype=bool)
    for i in range(1, 5):
        flush &= (cards[:, i] & 3) == suit
    eq = [ranks[i + 1] == ranks[i] for i in range(4)]  # ranks ascend: equal ranks are adjacent
    pairs = eq[0].astype(np.int8) + eq[1] + eq[2] + eq[3]
    run3 = (eq[0] & eq[1]) | (eq[1] & eq[2]) | (eq[2] & eq[3])
    quads = (eq[0] & eq[1] & eq[2]) | (eq[1] & eq[2] & eq[3])
    wheel = (ranks[4] == 12) & (ranks[3] == 3)
    straight = (pairs == 0) & ((ranks[4] - ranks[0] == 4) | wheel)
    top_pair = np.maximum.reduce([np.where(eq[i], ranks[i], -1) for i in range(4)])
    conditions = [
        straight & flush & (ranks[0] == 8),
        straight & flush,
        quads,
        (pairs == 3),
        flush,
        straight,
        (pairs == 2) & run3,
        (pairs == 2),
        (pairs == 1) & (top_pair >= 8),
    ]
    return np.select(conditions, list(range(LOSE)), LOSE).astype(np.uint8)


@functools.cache
def five_card_lines() -> NDArray[np.uint8]:
    """The line of every five-card hand, by colex index."""
    lines = _lines_of(_colex_sets(5))
    lines.flags.writeable = False
    return lines


@functools.cache
def four_card_groups() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Every four-card hand's group (:func:`keys`: its ranks, and whether all four are of one
    suit), and per group how many of the 48 five-card hands holding one of its hands fall on
    each line (columns: :data:`LINES`).  The group fixes the counts: a fifth card makes a flush
    only with four of one suit, and then with the nine other cards of that suit, whatever the
    four ranks are."""
    k = keys(4)
    held = np.zeros((len(k.first), 52), dtype=bool)
    reps = _colex_sets(4)[k.first].astype(np.int8)
    held[np.arange(len(reps))[:, None], reps] = True
    fifth = np.nonzero(~held)[1].reshape(len(reps), 48).astype(np.int8)
    hands = np.sort(np.concatenate([np.repeat(reps[:, None, :], 48, axis=1), fifth[:, :, None]],
                                   axis=2).reshape(-1, 5), axis=1)  # fmt: skip
    lines = _lines_of(hands).reshape(len(reps), 48).astype(np.int64)
    counts = np.zeros((len(reps), len(LINES)), dtype=np.int64)
    for line in range(len(LINES)):
        counts[:, line] = (lines == line).sum(axis=1)
    counts.flags.writeable = False
    return k.of, counts


def five_card_counts() -> NDArray[np.int64]:
    """How many of the 2,598,960 five-card hands fall on each line: every hand holds five
    four-card hands, so a fifth of the four-card hands' counts."""
    of, counts = four_card_groups()
    total = np.bincount(of, minlength=len(counts)) @ counts
    if (total % 5).any():  # pragma: no cover - every five-card hand is counted five times
        raise AssertionError("five-card counts are not whole")
    return total // 5


@functools.cache
def three_card_supersets() -> NDArray[np.int64]:
    """For every three-card hand (rows, by colex index), the colex index of the four-card hand
    each of the 49 other cards (in increasing order) makes with it as the first community
    card."""
    hands = _colex_sets(3).astype(np.int64)
    x = np.arange(52)
    index = np.zeros((HANDS_3, 52), dtype=np.int64)
    held = np.zeros((HANDS_3, 52), dtype=bool)
    below = np.zeros((HANDS_3, 52), dtype=np.int64)
    for j in range(3):
        under = hands[:, j, None] < x  # card j keeps its place below x, moves up one above it
        below += under
        index += np.where(under, BINOM[hands[:, j], j + 1][:, None],
                          BINOM[hands[:, j], j + 2][:, None])  # fmt: skip
        held |= hands[:, j, None] == x
    index += BINOM[x, below + 1]
    supersets = index[~held].reshape(HANDS_3, 49)
    supersets.flags.writeable = False
    return supersets


# ------------------------------------------------------------------------------ the wagers
def check_amount(config: ConfigLike, amount: int | None) -> int:
    """``amount`` (each wager, cents; None: the table minimum), refused outside the limits."""
    amount = config.minimum if amount is None else int(amount)
    if not config.minimum <= amount <= config.maximum:
        raise FeltError(
            f"--ante {dollars(amount)} (the amount of each wager) is outside the table limits "
            f"{dollars(config.minimum)} to {dollars(config.maximum)}"
        )
    return amount


def wins(config: ConfigLike, amount: int) -> list[int]:
    """What one wager of ``amount`` cents wins on each line of :data:`LINES` (the odds times the
    amount, rounded down to the cent; 0 on the losing line)."""
    return [math.floor(config.pays[h] * amount) if h in config.pays else 0 for h in HANDS] + [0]


def net_table(config: ConfigLike, amount: int) -> tuple[tuple[int, ...], ...]:
    """The hand's net in cents per line (rows: :data:`LINES`) with 1, 2 or 3 wagers of ``amount``
    riding (columns): their wins together held to the payout limit (18.11), or their loss."""
    limit = config.payout_limit
    rows = []
    for line, win in enumerate(wins(config, amount)):
        if line == LOSE or win == 0:
            rows.append(tuple(-k * amount for k in (1, 2, 3)))
        else:
            rows.append(tuple(k * win if limit is None else min(k * win, limit) for k in (1, 2, 3)))
    return tuple(rows)


def limit_binds(config: ConfigLike, amount: int) -> bool:
    """Whether the payout limit cuts some hand's win with the three wagers of ``amount`` riding
    (then the decisions account for it)."""
    limit = config.payout_limit
    return limit is not None and 3 * max(wins(config, amount)) > limit


@dataclass(frozen=True)
class Decisions:
    """The optimal decisions under one table of nets (:func:`net_table`).

    ``first[h3]``: let the first wager ride on the three-card hand h3 (colex index);
    ``second[h4, f]``: let the second ride on the four-card hand h4 when the first rode (f = 1)
    or was taken back (f = 0); ``values``: per four-card hand the total net (cents) over its 48
    completions with 1, 2 and 3 wagers riding; ``first_values[h3, f]``: the total net over the
    2,352 ways to complete h3 when the first rides (f = 1) or not, the second played best."""

    nets: tuple[tuple[int, ...], ...]
    first: NDArray[np.bool_]
    second: NDArray[np.bool_]
    values: NDArray[np.int64]
    first_values: NDArray[np.int64]

    @property
    def total(self) -> int:
        """The net in cents over all :data:`DEALS` deals, played best."""
        return int(self.first_values.max(axis=1).sum())


@functools.lru_cache(maxsize=8)
def decide(nets: tuple[tuple[int, ...], ...]) -> Decisions:
    """The decisions by backward induction under ``nets`` (see :class:`Decisions`); ties take
    back."""
    table = np.array(nets, dtype=np.int64)
    of, counts = four_card_groups()
    values = (counts @ table)[of]  # (HANDS_4, 3): 1, 2, 3 wagers riding
    second = np.stack([values[:, 1] > values[:, 0], values[:, 2] > values[:, 1]], axis=1)
    best = np.stack([values[:, :2].max(axis=1), values[:, 1:].max(axis=1)], axis=1)
    supersets = three_card_supersets()
    first_values = np.stack([best[supersets, f].sum(axis=1) for f in (0, 1)], axis=1)
    first = first_values[:, 1] > first_values[:, 0]
    for array in (first, second, values, first_values):
        array.flags.writeable = False
    return Decisions(nets, first, second, values, first_values)


def decisions(config: ConfigLike, amount: int | None = None) -> Decisions:
    """The optimal decisions at a table of ``config`` with wagers of ``amount`` cents (None: the
    table minimum); computed once per table of nets."""
    return decide(net_table(config, check_amount(config, amount)))


def evaluate(
    d: Decisions, first: NDArray[np.bool_], second: NDArray[np.bool_]
) -> NDArray[np.int64]:
    """How many deals end on each line (columns: :data:`LINES`) with each pattern of decisions
    (rows: :data:`PATTERNS`) when playing by ``first`` (per three-card hand) and ``second`` (per
    four-card hand and first decision)."""
    supersets = three_card_supersets()
    of, counts = four_card_groups()
    f = np.broadcast_to(first[:, None], supersets.shape)
    pattern = 2 * f + second[supersets, f.astype(np.int64)]
    cell = pattern * len(counts) + of[supersets]
    per_group = np.bincount(cell.ravel(), minlength=len(PATTERNS) * len(counts))
    out: NDArray[np.int64] = per_group.reshape(len(PATTERNS), len(counts)) @ counts
    return out


# ------------------------------------------------------------------------------ the bonus wagers
@functools.cache
def three_card_lines() -> NDArray[np.uint8]:
    """The three-card bonus line (index into :data:`TRIO_LINES`) of every three-card hand, by
    colex index (18.6B: Three Card Poker's ranking, a straight above a flush; A-2-3 and Q-K-A are
    straights; the mini royal is A-K-Q of one suit)."""
    cards = _colex_sets(3)
    r0, r1, r2 = ((cards[:, i] >> 2).astype(np.int8) for i in range(3))
    flush = ((cards[:, 0] & 3) == (cards[:, 1] & 3)) & ((cards[:, 1] & 3) == (cards[:, 2] & 3))
    distinct = (r0 != r1) & (r1 != r2)
    straight = distinct & ((r2 - r0 == 2) | ((r2 == 12) & (r1 == 1) & (r0 == 0)))
    conditions = [
        flush & (r0 == 10) & (r1 == 11) & (r2 == 12),
        straight & flush,
        r0 == r2,
        straight,
        flush,
        ~distinct,
    ]
    out = np.select(conditions, list(range(len(THREE_CARD_HANDS))), len(THREE_CARD_HANDS))
    lines = out.astype(np.uint8)
    lines.flags.writeable = False
    return lines


@dataclass(frozen=True)
class BonusReturn:
    """One bonus wager's return table: per line (best first, then the losing hands) how many of
    ``total`` equally likely hands fall on it, what it pays and its net per unit wagered."""

    key: str
    name: str
    cards: int
    wager: str
    """What one unit is (the fixed wager, or any amount)."""
    lines: list[tuple[str, int, str, Fraction]]

    @property
    def total(self) -> int:
        """Equally likely hands counted."""
        return sum(count for _, count, _, _ in self.lines)

    @property
    def expected_net(self) -> Fraction:
        """Expected net per unit wagered."""
        return sum((Fraction(c) * net for _, c, _, net in self.lines), Fraction(0)) / self.total

    @property
    def house_edge(self) -> Fraction:
        """House edge per unit wagered."""
        return -self.expected_net

    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures, exact values as "n/d"."""
        total = self.total
        return {
            "name": self.name,
            "cards": self.cards,
            "wager": self.wager,
            "house_edge": float(self.house_edge),
            "house_edge_exact": fraction_text(self.house_edge),
            "total": total,
            "lines": [
                {"hand": hand, "count": count, "pays": pays,
                 "probability": fraction_text(Fraction(count, total)),
                 "net": fraction_text(net),
                 "contribution_exact": fraction_text(Fraction(count, total) * net)}
                for hand, count, pays, net in self.lines
            ],
        }  # fmt: skip

    def section(self) -> Section:
        """The wager's section of the par sheet."""
        total, ret = self.total, self.expected_net
        rows = [[hand, f"{count:,}", prob_text(Fraction(count, total)), one_in(total, count), pays,
                 f"{float(Fraction(count, total) * net):.6f}"]
                for hand, count, pays, net in self.lines]  # fmt: skip
        return Section(self.key, f"{self.name[0].upper()}{self.name[1:]} wager", [
            f"Settled on the player's {'five' if self.cards == 5 else 'three'} cards alone, "
            f"whatever became of the three wagers, over {total:,} equally likely hands; return "
            f"per unit wagered ({self.wager}). House edge {float(-ret) * 100:.4f}% "
            f"({fraction_text(-ret)}).",
            Table(["hand", "count", "probability", "one in N", "pays", "return"], rows,
                  frozenset({1, 2, 3, 5}),
                  ["total", f"{total:,}", "1", "1 in 1", "", f"{float(ret):.6f}"]),
        ])  # fmt: skip


def bonus_return(config: ConfigLike) -> BonusReturn | None:
    """The let it ride bonus wager (18.6A) of the table's one amount, paid on the player's five
    cards at the table's odds (rounded down to the cent), per unit of that amount; None when the
    table has none."""
    settings = config.bonus
    if settings is None:
        return None
    wager = int(settings.wager)
    counts = five_card_counts()
    lines = []
    for i, hand in enumerate(LINES):
        odds = settings.pays.get(hand) if hand in HANDS else None
        net = Fraction(math.floor(odds * wager), wager) if odds else Fraction(-1)
        pays = f"{odds.numerator} to {odds.denominator}" if odds else "loses"
        name = hand if hand != LOSES else "below tens"
        lines.append((name, int(counts[i]), pays, net))
    merged = [line for line in lines if line[3] > 0]
    lost = sum(count for _, count, _, net in lines if net < 0)
    merged.append(("any other hand", lost, "loses", Fraction(-1)))
    return BonusReturn("bonus", "let it ride bonus", 5, f"the table's ${dollars(wager)}", merged)


def three_card_return(config: ConfigLike) -> BonusReturn | None:
    """The three-card bonus wager (18.6B), paid on the player's own three cards at the table's
    odds exactly (a whole-dollar wager at the odds in force), per unit wagered; None when the
    table has none."""
    settings = config.three_card_bonus
    if settings is None:
        return None
    counts = np.bincount(three_card_lines(), minlength=len(TRIO_LINES))
    lines = []
    lost = 0
    for i, hand in enumerate(TRIO_LINES):
        odds = settings.pays.get(hand)
        if odds:
            lines.append((hand, int(counts[i]), f"{odds.numerator} to {odds.denominator}",
                          Fraction(odds)))  # fmt: skip
        else:
            lost += int(counts[i])
    lines.append(("any other hand", lost, "loses", Fraction(-1)))
    return BonusReturn("three_card_bonus", "three-card bonus", 3, "any amount", lines)


# ------------------------------------------------------------------------------- the sheet
@dataclass(frozen=True)
class LetItRideSheet(ParSheet):
    """A par sheet with the chance of letting each wager ride, the return by final hand, the
    readable rules and both bonus wagers."""

    ride_first: Fraction = Fraction(0)
    """Probability that the optimal strategy lets the first wager ride."""
    ride_second: Fraction = Fraction(0)
    """Probability that it lets the second ride."""
    binds: bool = False
    """Whether the payout limit binds at the analysed amount (the strategy then accounts for
    it)."""
    payout_limit: int | None = None
    rules: list[str] = field(default_factory=list)
    """The optimal strategy in words, one paragraph per decision."""
    bonuses: list[BonusReturn] = field(default_factory=list)

    def by_hand(self) -> list[tuple[str, int, Fraction]]:
        """The return table by final hand (every decision together): (hand, deals, return per
        unit)."""
        out = []
        for hand in LINES:
            mine = [o for o in self.outcomes if o.hand == hand]
            count = sum(o.count for o in mine)
            if count:
                out.append((hand, count, sum((self.contribution(o) for o in mine), Fraction(0))))
        return out

    def pay_tables(self) -> list[tuple[str, dict[str, str]]]:
        """The three wagers' pay table, then each bonus wager's."""
        tables = [("the three wagers", dict(self.pay_table))]
        for b in self.bonuses:
            tables.append((f"{b.name} wager", {h: p for h, _, p, net in b.lines if net > 0}))
        return tables

    def sections(self) -> list[Section]:
        """The par sheet's sections: after the return table, the same by final hand; the
        decisions in words and their frequencies in the strategy; each bonus wager's before the
        notes."""
        out = super().sections()
        total = self.total
        rows = [[hand, f"{count:,}", prob_text(Fraction(count, total)), one_in(total, count),
                 f"{float(ret):.6f}"] for hand, count, ret in self.by_hand()]  # fmt: skip
        ev = self.expected_net
        by_hand = Section("by_hand", "Return table by final hand", [
            "The same deals by the final hand (whatever was let ride); return per wager.",
            Table(["hand", "count", "probability", "one in N", "return"], rows,
                  frozenset({1, 2, 3, 4}), ["total", f"{total:,}", "1", "1 in 1", f"{float(ev):.6f}"]),
        ])  # fmt: skip
        at = next(i for i, s in enumerate(out) if s.key == "return_table") + 1
        out = [*out[:at], by_hand, *out[at:]]
        at = next(i for i, s in enumerate(out) if s.key == "notes")
        return [*out[:at], *(b.section() for b in self.bonuses), *out[at:]]

    def to_json(self) -> dict[str, Any]:
        """The par sheet's JSON, with the decisions' frequencies, the rules in words, the return
        by final hand and both bonus wagers."""
        out = super().to_json()
        out["ride_first"] = {"exact": fraction_text(self.ride_first),
                             "decimal": float(self.ride_first)}  # fmt: skip
        out["ride_second"] = {"exact": fraction_text(self.ride_second),
                              "decimal": float(self.ride_second)}  # fmt: skip
        out["payout_limit_binds"] = self.binds
        out["payout_limit_dollars"] = (
            None if self.payout_limit is None else dollars(self.payout_limit)
        )
        out["rules"] = self.rules
        out["by_hand"] = [{"hand": h, "count": c, "return": fraction_text(r)}
                          for h, c, r in self.by_hand()]  # fmt: skip
        out["bonuses"] = {b.key: b.to_json() for b in self.bonuses}
        return out


def _outcomes(d: Decisions, counts: NDArray[np.int64], amount: int) -> list[Outcome]:
    out = []
    for p, pattern in enumerate(PATTERNS):
        riding = 1 + (p >> 1) + (p & 1)
        for line, hand in enumerate(LINES):
            count = int(counts[p, line])
            if count:
                net = Fraction(d.nets[line][riding - 1], amount)
                out.append(Outcome(pattern, hand, "wins" if net > 0 else "loses", count, net,
                                   Fraction(riding)))  # fmt: skip
    return out


def _edge(counts: NDArray[np.int64], d: Decisions, amount: int) -> Fraction:
    """House edge per wager of a play whose deals fall as ``counts`` (:func:`evaluate`)."""
    net = sum(int(counts[p, line]) * d.nets[line][(p >> 1) + (p & 1)]
              for p in range(len(PATTERNS)) for line in range(len(LINES)))  # fmt: skip
    return -Fraction(net, DEALS * amount)


def analyze(config: ConfigLike, ante: int | None = None, log: Log | None = None) -> LetItRideSheet:
    """The exact par sheet of Let It Ride Poker at a table of ``config`` with each of the three
    wagers ``ante`` cents (None: the table minimum); figures per wager."""
    amount = check_amount(config, ante)
    d = decisions(config, amount)
    counts = evaluate(d, d.first, d.second)
    n_hands = counts.sum(axis=1)
    ride_first = Fraction(int(n_hands[2:].sum()), DEALS)
    ride_second = Fraction(int(n_hands[1] + n_hands[3]), DEALS)
    every = counts.sum(axis=0)  # each line's deals, whatever is decided
    fixed = np.zeros((len(PATTERNS), len(LINES)), dtype=np.int64)
    edges = {"optimal": _edge(counts, d, amount)}
    for name, p in (("never take back", 3), ("always take back", 0)):
        fixed[:] = 0
        fixed[p] = every
        edges[name] = _edge(fixed, d, amount)
    binds = limit_binds(config, amount)
    if binds:  # the classical decisions, blind to the limit, paid as the limit pays
        free = decide(net_table(_Unlimited(config), amount))
        edges["the classical strategy (ignoring the payout limit)"] = _edge(
            evaluate(d, free.first, free.second), d, amount
        )
    from felt.games.let_it_ride import strategy

    rules = strategy.rules_text(config, amount)
    outcomes = _outcomes(d, counts, amount)
    bonuses = [b for b in (bonus_return(config), three_card_return(config)) if b is not None]
    limit = config.payout_limit
    notes = [
        "one player's three cards and the two community cards, dealt in the order they are "
        "turned: 22,100 three-card hands x 49 first community cards x 48 second",
        "three equal wagers; the first is decided on the player's three cards, the second on "
        "them and the first community card, each independently of the other (18.1 \"Let it "
        "ride\"); the third always stays",
        "each wager left on the layout wins the pay table's odds (rounded down to the cent) on "
        "a pair of tens or better, or loses",
        ("no payout limit" if limit is None else
         f"payout limit ${dollars(limit)} on what one hand's three wagers win together "
         f"(18.11): {'it binds at this amount, and the strategy accounts for it' if binds else 'it never binds at this amount'}"),
        "ties (riding and taking back expect the same) take the wager back",
        "element of risk: the house edge per amount wagered (the wagers left on the layout)",
        "house edge by strategy: per one of the three wagers placed, as the other figures; never "
        "taking a wager back keeps all three at risk, so its edge per amount wagered is a third "
        "of its figure",
    ]  # fmt: skip
    strat = {
        "rule": " ".join(rules),
        "decisions": decision_rows(d, amount),
        "ride first": f"Probability of letting the first wager ride: {float(ride_first):.6f} "
        f"(exactly {fraction_text(ride_first)}).",
        "ride second": f"Probability of letting the second wager ride: {float(ride_second):.6f} "
        f"(exactly {fraction_text(ride_second)}).",
    }
    return LetItRideSheet(
        game=GAME,
        edition=EDITION,
        title=TITLE,
        base_wager="wager",
        base_cents=amount,
        initial_units=Fraction(3),
        outcomes=outcomes,
        strategy=strat,
        strategies=edges,
        pay_table=[
            (h, f"{config.pays[h].numerator} to {config.pays[h].denominator}")
            for h in HANDS
            if h in config.pays
        ],
        notes=notes,
        ride_first=ride_first,
        ride_second=ride_second,
        binds=binds,
        payout_limit=limit,
        rules=rules,
        bonuses=bonuses,
    )


@dataclass(frozen=True)
class _Unlimited:
    """A table as ``config`` without its payout limit."""

    config: ConfigLike

    @property
    def pays(self) -> Mapping[str, Fraction]:
        return self.config.pays

    @property
    def minimum(self) -> int:
        return self.config.minimum

    @property
    def maximum(self) -> int:
        return self.config.maximum

    @property
    def payout_limit(self) -> int | None:
        return None

    @property
    def bonus(self) -> BonusLike | None:
        return self.config.bonus

    @property
    def three_card_bonus(self) -> ThreeCardLike | None:
        return self.config.three_card_bonus


# ------------------------------------------------------------------------- the decision table
@dataclass(frozen=True)
class Keys:
    """The hands of ``n`` cards grouped by their ranks and whether all their cards are of one
    suit, which is all a decision depends on (with three or four cards not all of one suit no
    flush can be made): ``of[h]`` is the group of the hand of colex index h, ``ranks`` (ascending)
    and ``suited`` describe each group, ``first[g]`` is a hand of group g."""

    of: NDArray[np.int64]
    ranks: NDArray[np.int64]
    suited: NDArray[np.bool_]
    first: NDArray[np.int64]


@functools.cache
def keys(n: int) -> Keys:
    """:class:`Keys` of the hands of ``n`` (3 or 4) cards."""
    cards = _colex_sets(n)
    suited = np.ones(len(cards), dtype=bool)
    code = np.zeros(len(cards), dtype=np.int32)
    for i in range(n):
        suited &= (cards[:, i] & 3) == (cards[:, 0] & 3)
        code = code * 13 + (cards[:, i] >> 2)
    code = code * 2 + suited
    # groups numbered in increasing code, without sorting: a table over every possible code
    seen = np.zeros(2 * 13**n, dtype=np.int64)
    seen[code] = 1
    number = np.cumsum(seen) - 1
    of = number[code]
    first = np.full(int(seen.sum()), len(code), dtype=np.int64)
    np.minimum.at(first, of, np.arange(len(code)))  # each group's first hand
    ranks = (cards[first] >> 2).astype(np.int64)
    return Keys(of, ranks, suited[first], first)


def group_decisions(n: int, rides: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Per group of :func:`keys` (``n`` cards), the decision ``rides`` (per hand) takes for every
    hand of the group; an error if the group is split (never: the decisions depend only on what
    the group fixes)."""
    k = keys(n)
    riding = np.bincount(k.of, weights=rides, minlength=len(k.first))
    size = np.bincount(k.of, minlength=len(k.first))
    if ((riding != 0) & (riding != size)).any():  # pragma: no cover - suits beyond a flush matter
        raise AssertionError("a decision depends on more than ranks and a flush")
    out: NDArray[np.bool_] = riding > 0
    return out


def ranks_text(ranks: Sequence[int]) -> str:
    """Ranks (0 = deuce to 12 = ace) from the highest, as a decision table names them: ``A-K-7``.

    >>> ranks_text([5, 12, 11])
    'A-K-7'
    """
    return "-".join("23456789TJQKA"[r] for r in sorted(ranks, reverse=True))


def decision_rows(d: Decisions, amount: int) -> list[dict[str, Any]]:
    """The decision table by ranks and suitedness: the first wager on every three-card hand,
    the second on every four-card hand (after the first rode and after it was taken back, when
    the payout limit makes them differ), each with the hand's expected net per wager riding and
    taking back."""
    rows: list[dict[str, Any]] = []
    k3 = keys(3)
    rides = group_decisions(3, d.first)
    per = 49 * 48 * amount
    for g in np.lexsort((k3.suited, *k3.ranks.T))[::-1]:
        h = int(k3.first[g])
        rows.append({"decision": "first wager", "cards": ranks_text(k3.ranks[g].tolist()),
                     "suited": bool(k3.suited[g]), "after": "", "ride": bool(rides[g]),
                     "ev_ride": int(d.first_values[h, 1]) / per,
                     "ev_take_back": int(d.first_values[h, 0]) / per})  # fmt: skip
    k4 = keys(4)
    same = bool((d.second[:, 0] == d.second[:, 1]).all())
    afters = [(1, "either")] if same else [(1, "first rode"), (0, "first taken back")]
    for f, after in afters:
        rides = group_decisions(4, d.second[:, f])
        for g in np.lexsort((k4.suited, *k4.ranks.T))[::-1]:
            h = int(k4.first[g])
            rows.append({"decision": "second wager", "cards": ranks_text(k4.ranks[g].tolist()),
                         "suited": bool(k4.suited[g]), "after": after, "ride": bool(rides[g]),
                         "ev_ride": int(d.values[h, f + 1]) / (48 * amount),
                         "ev_take_back": int(d.values[h, f]) / (48 * amount)})  # fmt: skip
    return rows
