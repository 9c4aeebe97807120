"""The exact analysis of Caribbean Stud Poker (19:47-16): every player hand (2,598,960) and dealer
up card (47) against every set of the dealer's four hole cards (163,185): 19,933,230,517,200
equally likely deals, counted exactly, with the optimal bet or fold for each hand and up card.

The counts come from one compiled sweep over the five-card hands in increasing value
(:mod:`._kernel`), once per suit class of the player's hand (134,459 classes): for each class and
up card, how many dealer hands do not qualify (below A-K-4-3-2, 19:47-16.1 "Qualifying hand"),
qualify and rank below the player's, tie it, or beat it.  They depend on no pay table; a table's
figures are then exact integer sums at the ante, reported per ante as
:class:`~fractions.Fraction`.  The figures of a table are cached under the felt cache folder
(named after the pay table, the ante and a digest of the code), so a second run reads a file.

Settlement (public descriptions of the game as dealt in New Jersey; the seed text stops at
19:47-16.5(b)7): a dealer who does not qualify pays the ante 1 to 1 and returns the bet; a
qualifying dealer beaten pays the ante 1 to 1 and the bet by the pay table on the player's hand;
an exact tie pushes both; otherwise both lose.  A fold forfeits the ante.  The bet wager is twice
the ante (19:47-16.1 "Bet wager").
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import json
import math
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, Protocol

import numpy as np
from numpy.typing import NDArray

from felt.analysis.parsheet import (
    Outcome,
    ParSheet,
    Section,
    Table,
    fraction_text,
    prob_text,
    rank_word,
)
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.core.ranking import Category, five_card_key_of_ranks
from felt.core.tables import cache_dir, five_card_order, source_digest

GAME: Final = "caribbean_stud"
EDITION: Final = "nj-19-47-16"
TITLE: Final = "Caribbean Stud Poker"
PLAYER_HANDS: Final = 2_598_960
UP_CARDS: Final = 47
DEALER_HANDS: Final = 163_185
"""The up card and four hole cards of the 46 others: C(46, 4)."""
DEALS: Final = PLAYER_HANDS * UP_CARDS * DEALER_HANDS
NAMES: Final = (
    "royal flush", "straight flush", "four of a kind", "full house", "flush", "straight",
    "three of a kind", "two pair", "one pair", "ace king", "less than ace king",
)  # fmt: skip
"""The player's hands, best first: the pay table's lines (``bet_pays`` keys) and the hands that
can win nothing from a qualifying dealer."""
RESULTS: Final = ("dealer does not qualify", "player wins", "push", "dealer wins")
PROGRESSIVE_HANDS: Final = (  # the minimum table's; a table may pay others too
    "royal flush",
    "straight flush",
    "four of a kind",
    "full house",
    "flush",
)
STRATEGIES: Final = ("optimal", "always bet", "bet a pair or better", "bet ace-king or better")
Log = Callable[[str], None]


class ProgressiveLike(Protocol):
    """The progressive settings the analysis reads (``CaribbeanConfig.progressive``)."""

    @property
    def wager(self) -> int: ...
    @property
    def percent(self) -> Mapping[str, Fraction]: ...
    @property
    def fixed(self) -> Mapping[str, int]: ...


class ConfigLike(Protocol):
    """The table settings the analysis reads (``CaribbeanConfig``)."""

    @property
    def bet_pays(self) -> Mapping[str, Fraction]: ...
    @property
    def minimum(self) -> int: ...
    @property
    def maximum(self) -> int: ...


# ------------------------------------------------------------------------------ the counts
def qualifier_value() -> int:
    """The value of the lowest qualifying hand, A-K-4-3-2 of mixed suits (19:47-16.1
    "Qualifying hand")."""
    key = five_card_key_of_ranks([12, 11, 2, 1, 0], suited=False)
    return five_card_order().index(key) + 1


def _name_of_value() -> NDArray[np.int64]:
    """Index into :data:`NAMES` of every hand value (1-7462)."""
    out = np.zeros(7463, dtype=np.int64)
    q = qualifier_value()
    for v, (category, _) in enumerate(five_card_order(), start=1):
        cat = Category(category)
        if cat >= Category.ONE_PAIR:
            out[v] = NAMES.index(cat.label)
        else:  # high card: ace-king (the only high cards at or above the qualifier) or less
            out[v] = NAMES.index("ace king" if v >= q else "less than ace king")
    return out


@dataclass(frozen=True)
class Counts:
    """One player hand per suit class (rows by increasing value): its cards (ascending), value,
    name (index into :data:`NAMES`), how many hands the class holds, and per up card (column =
    card 0-51) how many of the 163,185 dealer hands fall in each of :data:`RESULTS` (zero rows
    for up cards in the player's hand; ``up`` marks the others)."""

    cards: NDArray[np.int64]
    value: NDArray[np.int64]
    name: NDArray[np.int64]
    weight: NDArray[np.int64]
    colex: NDArray[np.int64]
    """Colex index of each class's hand (:func:`_class_row` finds a hand's class by it)."""
    results: NDArray[np.int32]
    """Shape (4, classes, 52)."""
    up: NDArray[np.bool_]

    def situation(self, hand: Sequence[int], up: int) -> tuple[int, int, int, int]:
        """The dealer hands of ``up`` and four of the 46 cards left by ``hand`` (five card
        numbers) and ``up``, by :data:`RESULTS`: (does not qualify, player wins, push, dealer
        wins).  Looked up in the class of ``hand`` with the suits renamed alike."""
        row, card = _class_row(self, hand, up)
        nq, win, push, lose = (int(self.results[k, row, card]) for k in range(4))
        return nq, win, push, lose


def _check_situation(hand: Sequence[int], up: int) -> tuple[list[int], int]:
    cards = [int(c) for c in hand]
    if len(cards) != 5 or len(set(cards)) != 5 or not all(0 <= c < 52 for c in cards):
        raise FeltError(f"a player's hand is five distinct cards 0-51, got {cards}")
    if not 0 <= int(up) < 52 or int(up) in cards:
        raise FeltError(f"the up card must be a card 0-51 not in the player's hand, got {up}")
    return cards, int(up)


def _canonical(hand: Sequence[int], up: int) -> tuple[list[int], int]:
    """``hand`` and ``up`` with the suits renamed so the hand's suits' rank masks do not increase
    from suit 0 to 3 (the class's canonical hand, as the kernel picks it)."""
    cards, up = _check_situation(hand, up)
    masks = [sum(1 << (c >> 2) for c in cards if c & 3 == s) for s in range(4)]
    order = sorted(range(4), key=lambda s: -masks[s])  # new suit i is old suit order[i]
    new = {old: i for i, old in enumerate(order)}
    return sorted((c & ~3) | new[c & 3] for c in cards), (up & ~3) | new[up & 3]


def _class_row(k: Counts, hand: Sequence[int], up: int) -> tuple[int, int]:
    cards, card = _canonical(hand, up)
    index = sum(math.comb(c, i + 1) for i, c in enumerate(cards))
    by_colex = np.argsort(k.colex)
    at = int(np.searchsorted(k.colex, index, sorter=by_colex))
    row = int(by_colex[min(at, len(by_colex) - 1)])
    if int(k.colex[row]) != index:  # pragma: no cover - every canonical hand is a class
        raise AssertionError(f"no class for {cards}")
    return row, card


def counts(log: Log | None = None) -> Counts:
    """The exact counts (see :class:`Counts`), by the compiled sweep of :mod:`._kernel`; once
    per process."""
    note = log or (lambda _: None)
    if _counts.cache_info().currsize == 0:
        note("caribbean stud: counting 19,933,230,517,200 deals (compiled sweep by value)")
    return _counts()


def _suit_classes() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """One hand per suit class of five cards, the class's canonical hand (its suits' rank masks
    do not increase from suit 0 to 3, as :func:`felt.analysis.kernels.suit_classes` picks it),
    by colex index; and how many hands each class holds: 24 over the orderings of the four suits
    that leave the masks as they are (the product of the factorials of runs of equal masks)."""
    from felt.analysis.kernels import _suit_masks

    a, b, c, d = _suit_masks(5)
    canon = np.flatnonzero((a >= b) & (b >= c) & (c >= d))
    masks = [m[canon] for m in (a, b, c, d)]
    fixing = np.ones(len(canon), dtype=np.int64)
    run = np.ones(len(canon), dtype=np.int64)
    for left, right in itertools.pairwise(masks):
        same = left == right
        run = np.where(same, run + 1, 1)
        fixing = np.where(same, fixing * run, fixing)
    return canon, 24 // fixing


@functools.cache
def _counts() -> Counts:
    from felt.analysis.kernels import _colex_sets, five_card_values
    from felt.games.caribbean_stud import _kernel as kernel

    with ThreadPoolExecutor(max_workers=2) as pool:
        compiling = pool.submit(kernel.warm_up)  # numba compiles while numpy builds the arrays
        values = five_card_values()
        hands = _colex_sets(5).view(np.uint8)  # every hand's ascending cards, by colex index
        canon, weight = _suit_classes()
        canonical = hands[canon].astype(np.int64)
        n = len(canon)
        player_values = values[canon]
        by_value = np.argsort(player_values, kind="stable")
        players = canon[by_value]
        top = 7462
        start = np.zeros(top + 2, dtype=np.int64)
        np.cumsum(np.bincount(values, minlength=top + 1), out=start[1:])
        pstart = np.zeros(top + 2, dtype=np.int64)
        np.cumsum(np.bincount(player_values, minlength=top + 1), out=pstart[1:])
        out = np.zeros((4, n, 52), dtype=np.int32)
        order = np.argsort(values, kind="stable").astype(np.int64)
        binom = kernel.binomials()
        q = qualifier_value()

        def half(first: int, end: int) -> None:
            """The sweep for the up cards first to end - 1, with tables of its own."""
            kernel.sweep(
                values, hands, order, start, players, pstart, q, binom,
                np.zeros(52, dtype=np.int32), np.zeros((52, 52), dtype=np.uint16),
                np.zeros((1326, 52), dtype=np.uint16), np.zeros((22100, 52), dtype=np.uint8), out,
                np.empty(5, dtype=np.int64), np.empty(4, dtype=np.int64), first, end,
            )  # fmt: skip

        compiling.result()
        # two threads (the compiled sweep releases the GIL), half of the up cards each
        done = [pool.submit(half, 0, 26), pool.submit(half, 26, 52)]
        for job in done:
            job.result()
    cards = canonical[by_value]
    up = np.ones((n, 52), dtype=bool)
    up[np.arange(n)[:, None], cards] = False
    value = values[players].astype(np.int64)
    return Counts(cards, value, _name_of_value()[value], weight[by_value], players, out, up)


# ------------------------------------------------------------------------- the decisions
def _check_ante(config: ConfigLike, ante: int | None) -> int:
    ante = config.minimum if ante is None else ante
    if not config.minimum <= ante <= config.maximum:
        raise FeltError(
            f"--ante {dollars(ante)} is outside the table limits {dollars(config.minimum)} to "
            f"{dollars(config.maximum)}"
        )
    return ante


def bet_wins(config: ConfigLike, ante: int) -> list[int]:
    """What a winning bet wager (twice ``ante``) wins, in cents, per :data:`NAMES` (rounded down
    to the cent); 0 for the hands below A-K.  Under a payout limit (16.12) the hand's ante and
    bet together win no more than the limit, the cut falling on the bet first (as the round
    settles it: :meth:`.round.CaribbeanRound._limit_cuts`)."""
    limit = getattr(config, "payout_limit", None)
    room = None if limit is None else int(limit) - ante_win(config, ante)
    wins = []
    for name in NAMES:
        odds = config.bet_pays.get(name)
        win = 0 if odds is None else math.floor(odds * 2 * ante)
        wins.append(win if room is None else min(win, room))
    return wins


def ante_win(config: ConfigLike, ante: int) -> int:
    """What a winning ante wins (1 to 1), in cents, no more than the payout limit (16.12)."""
    limit = getattr(config, "payout_limit", None)
    return ante if limit is None else min(ante, int(limit))


def _bet_value(
    k: Counts, ante: int, wins: list[int], won_ante: int | None = None
) -> NDArray[np.int64]:
    """Per class and up card: the bet's total result in cents over the 163,185 dealer hands
    (zero for up cards in the player's hand); ``won_ante`` is what a winning ante is paid (the
    ante, unless the payout limit is lower)."""
    nq, win, _, lose = k.results
    paid = ante if won_ante is None else won_ante
    gain = np.array(wins, dtype=np.int64)[k.name][:, None] + paid
    bet: NDArray[np.int64] = np.multiply(win, gain, dtype=np.int64)
    bet += np.multiply(nq, paid, dtype=np.int64)
    bet -= np.multiply(lose, 3 * ante, dtype=np.int64)
    return bet


def _figures(k: Counts, config: ConfigLike, ante: int) -> dict[str, Any]:
    """Every figure the sheet prints, as integers (JSON-ready): cached per table and ante.
    Sums over the up cards first (per class), then over the classes by hand."""
    wins = bet_wins(config, ante)
    bet = _bet_value(k, ante, wins, ante_win(config, ante))
    fold = -DEALER_HANDS * ante
    plays = bet > fold  # never an up card in the hand: its bet value is 0 > fold
    plays &= k.up
    ties = int(k.weight @ ((bet == fold) & k.up).sum(axis=1))
    n_names = len(NAMES)

    def by_name(per_class: NDArray[np.int64]) -> list[int]:
        """Per-class figures, weighted by class size, summed per hand name; in two 32-bit
        halves, so no sum can overflow 64 bits whatever the ante."""
        out = []
        for i in range(n_names):
            mine = k.name == i
            w, v = k.weight[mine], per_class[mine]
            out.append(int(w @ (v >> 32)) * 2**32 + int(w @ (v & 0xFFFFFFFF)))
        return out

    bets = plays.sum(axis=1).astype(np.int64)
    bet_sum = bet.sum(axis=1)  # every up card bet
    best_sum = np.where(plays, bet, 0).sum(axis=1) + (UP_CARDS - bets) * fold
    per_result = [by_name(np.where(plays, k.results[r], 0).sum(axis=1)) for r in range(4)]
    bet_situations = by_name(bets)
    fold_situations = by_name(UP_CARDS - bets)
    everyone = by_name(bet_sum)
    best = by_name(best_sum)
    count = by_name(np.ones(len(k.name), dtype=np.int64))
    pair, ace_king = NAMES.index("one pair"), NAMES.index("ace king")

    def rule(last: int) -> dict[str, int]:
        """Bet the hands down to NAMES[last], fold the rest."""
        net = sum(everyone[: last + 1]) + sum(count[last + 1 :]) * UP_CARDS * fold
        return {"net_cents": net, "bet_situations": sum(count[: last + 1]) * UP_CARDS}

    strategies = {
        "optimal": {"net_cents": sum(best), "bet_situations": sum(bet_situations)},
        "always bet": rule(n_names - 1),
        "bet a pair or better": rule(pair),
        "bet ace-king or better": rule(ace_king),
    }
    return {
        "ante": ante,
        "wins": wins,
        "ties": ties,
        "by_name": [
            {
                "bet": [per_result[r][i] for r in range(4)],
                "bet_situations": bet_situations[i],
                "fold_situations": fold_situations[i],
            }
            for i in range(n_names)
        ],
        "strategies": strategies,
        "pair_folded": sum(fold_situations[: pair + 1]),
        "ace_king_table": _ace_king_table(k, plays),
    }


def _ace_king_table(k: Counts, plays: NDArray[np.bool_]) -> dict[str, list[list[int]]]:
    """For the A-K high hands: per three lower ranks (as "Q-J-9") and up card rank (2 to ace),
    [situations bet, situations]."""
    rows = np.flatnonzero(k.name == NAMES.index("ace king"))
    w = k.weight[rows]
    bet = (w[:, None] * plays[rows]).reshape(len(rows), 13, 4).sum(axis=2)
    seen = (w[:, None] * k.up[rows]).reshape(len(rows), 13, 4).sum(axis=2)
    ranks = np.sort(k.cards[rows] >> 2, axis=1)[:, ::-1][:, 2:]  # the three below A-K
    keys, group = np.unique(ranks, axis=0, return_inverse=True)
    group = group.ravel()
    table: dict[str, list[list[int]]] = {}
    for g, key in enumerate(keys.tolist()):
        mine = group == g
        cells = zip(bet[mine].sum(axis=0).tolist(), seen[mine].sum(axis=0).tolist(), strict=True)
        table[rank_word(tuple(key))] = [[int(b), int(s)] for b, s in cells]
    return table


# ------------------------------------------------------------------------------- the cache
def _digest(config: ConfigLike, ante: int) -> str:
    here = Path(__file__).parent
    core = here.parent.parent / "core"
    salt = json.dumps(
        {"ante": ante, "wins": bet_wins(config, ante), "ante_win": ante_win(config, ante)}
    )
    return source_digest(here / "analysis.py", here / "_kernel.py", core / "tables.py",
                         core / "ranking.py", here.parent.parent / "analysis" / "kernels.py",
                         salt=salt)  # fmt: skip


def _load(path: Path) -> dict[str, Any] | None:
    """The cached figures, or None when missing or damaged (never trusted: recomputed)."""
    try:
        stored = json.loads(path.read_text())
        body = json.dumps(stored["figures"], sort_keys=True)
        if hashlib.sha256(body.encode()).hexdigest() != stored["sha256"]:
            return None
        figures: dict[str, Any] = stored["figures"]
        return figures
    except Exception:  # any damage at all: recompute
        return None


def _save(path: Path, figures: dict[str, Any]) -> None:
    """Write the cache atomically; a read-only cache folder only makes the next run slower."""
    body = json.dumps(figures, sort_keys=True)
    text = json.dumps({"sha256": hashlib.sha256(body.encode()).hexdigest(), "figures": figures})
    tmp = ""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".json.tmp")
        with os.fdopen(fd, "w") as out:
            out.write(text)
        os.replace(tmp, path)
    except OSError:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def figures(config: ConfigLike, ante: int | None = None, log: Log | None = None) -> dict[str, Any]:
    """The table's figures at ``ante`` (cents; None: the table minimum), from the cache when it
    holds them, else counted (:func:`counts`) and cached."""
    ante = _check_ante(config, ante)
    path = cache_dir() / f"caribbean-{_digest(config, ante)}.json"
    cached = _load(path)
    if cached is not None:
        return cached
    found = _figures(counts(log), config, ante)
    _save(path, found)
    return found


# --------------------------------------------------------------------------- the progressive
@dataclass(frozen=True)
class ProgressiveReturn:
    """The progressive wager's return per unit wagered as ``fixed + per_cent * M`` with M the
    meter in cents (what a percentage payout takes from; the payouts rounded down to the cent are
    ignored, under a cent each), and how many of its hands the optimal strategy folds."""

    fixed: Fraction
    per_cent: Fraction
    hands: dict[str, int]
    """Deals per progressive hand that the player bets (a folded hand wins nothing)."""
    folded: int
    """Deals with a progressive hand that the optimal strategy folds."""

    def at(self, meter: int) -> Fraction:
        """Return per unit wagered (payouts over wagers) with the meter at ``meter`` cents."""
        return self.fixed + self.per_cent * meter

    @property
    def break_even(self) -> Fraction | None:
        """The meter in dollars where the return is exactly 1 (None: no percentage payout)."""
        if self.per_cent == 0:
            return None
        return (1 - self.fixed) / self.per_cent / 100


def progressive_return(
    wager: int,
    percent: Mapping[str, Fraction],
    fixed: Mapping[str, int],
    hands: Mapping[str, int],
    folded: int = 0,
) -> ProgressiveReturn:
    """The progressive wager of ``wager`` cents paying ``percent`` of the meter or ``fixed`` cents
    per hand, over :data:`DEALS` deals of which ``hands`` are bet with each hand (19:47-16.11;
    the amounts from the table's settings)."""
    const = sum((Fraction(hands.get(h, 0) * fixed[h], DEALS * wager) for h in fixed), Fraction(0))
    slope = sum((Fraction(hands.get(h, 0), DEALS * wager) * percent[h] for h in percent),
                Fraction(0))  # fmt: skip
    return ProgressiveReturn(const, slope, dict(hands), folded)


def _progressive(figs: dict[str, Any], config: ConfigLike) -> ProgressiveReturn | None:
    settings = getattr(config, "progressive", None)
    if settings is None:
        return None
    paid = [*PROGRESSIVE_HANDS, *(h for h in (*settings.percent, *settings.fixed)
                                  if h not in PROGRESSIVE_HANDS and h in NAMES)]  # fmt: skip
    unknown = sorted(h for h in (*settings.percent, *settings.fixed) if h not in NAMES)
    if unknown:
        raise FeltError(f"progressive pays unknown hands {unknown}; hands: {', '.join(NAMES[:10])}")
    hands = {h: figs["by_name"][NAMES.index(h)]["bet_situations"] * DEALER_HANDS for h in paid}
    folded = sum(figs["by_name"][NAMES.index(h)]["fold_situations"] for h in paid)
    return progressive_return(settings.wager, settings.percent, settings.fixed, hands,
                              folded * DEALER_HANDS)  # fmt: skip


METERS: Final = (10_000_00, 50_000_00, 100_000_00, 150_000_00, 200_000_00, 250_000_00,
                 300_000_00, 500_000_00, 1_000_000_00)  # fmt: skip
"""Meter values (cents) the sheet tabulates the progressive's return at, beside the seed and the
break-even meter."""


# ------------------------------------------------------------------------------- the sheet
@dataclass(frozen=True)
class CaribbeanSheet(ParSheet):
    """A par sheet with a section for the progressive wager (its return as a function of the
    meter)."""

    progressive: ProgressiveReturn | None = None
    progressive_wager: int = 0
    seed: int = 0
    totals: dict[str, dict[str, Fraction]] = field(default_factory=dict)
    """Per strategy: total net over all deals and total wagered, in antes."""

    def plots(self) -> dict[str, Callable[[str], None]]:
        """The sheet's own plots beside the distribution (``felt analyze --plot``): the
        progressive wager's return against the meter, when the table has one."""
        if self.progressive is None:
            return {}
        return {"progressive": lambda path: progressive_plot(self, path)}

    def meter_rows(self) -> list[tuple[int, Fraction]]:
        """(meter in cents, return per unit) at the seed, the tabulated meters and break-even."""
        p = self.progressive
        if p is None:
            return []
        meters = {self.seed, *METERS}
        if p.break_even is not None:
            meters.add(math.ceil(p.break_even * 100))
        return [(m, p.at(m)) for m in sorted(meters)]

    def by_result(self) -> list[tuple[str, int, Fraction]]:
        """The return table as it is usually published: the player's wins by hand (one pair and
        ace-king together as "pair or less"), then the dealer not qualifying, pushes, folds and
        the dealer's wins; (line, deals, return per ante)."""
        lines: dict[str, list[Any]] = {}
        for o in self.outcomes:
            if o.decision == "fold":
                line = "fold"
            elif o.result == "player wins":
                line = "win: " + ("pair or less" if o.hand in ("one pair", "ace king") else o.hand)
            else:
                line = o.result
            got = lines.setdefault(line, [0, Fraction(0)])
            got[0] += o.count
            got[1] += self.contribution(o)
        order = [f"win: {h}" for h in NAMES[:8]] + ["win: pair or less", *RESULTS[:1], "push",
                                                    "fold", "dealer wins"]  # fmt: skip
        return [(line, *lines[line]) for line in order if line in lines]

    def sections(self) -> list[Section]:
        """The par sheet's sections: after the return table, the same by result as usually
        published; the progressive wager's before the notes."""
        out = super().sections()
        rows = [[line, f"{count:,}", prob_text(Fraction(count, self.total)), f"{float(ret):.6f}"]
                for line, count, ret in self.by_result()]  # fmt: skip
        ev = self.expected_net
        published = Section("by_result", "Return table by result", [
            "The same deals as usually published (a win counted by the player's hand).",
            Table(["result", "count", "probability", "return"], rows, frozenset({1, 2, 3}),
                  ["total", f"{self.total:,}", "1", f"{float(ev):.6f}"]),
        ])  # fmt: skip
        at = next(i for i, s in enumerate(out) if s.key == "return_table") + 1
        out = [*out[:at], published, *out[at:]]
        p = self.progressive
        if p is None:
            return out
        line = (f"Return per unit wagered = {float(p.fixed):.6f} + {float(p.per_cent) * 1_000_000:.4f} "
                f"per $10,000 of meter (exactly {fraction_text(p.fixed)} + "
                f"{fraction_text(p.per_cent)} x meter in cents).")  # fmt: skip
        even = p.break_even
        blocks: list[Any] = [
            f"The progressive wager (${self.progressive_wager / 100:.2f}) is settled on the "
            f"player's five cards whatever the dealer holds; a folded hand wins nothing "
            f"({p.folded:,} deals with a progressive hand are folded by the optimal strategy).",
            line,
            "Break-even meter: " + ("none (no payout takes a share of the meter)" if even is None
                                    else f"${float(even):,.2f} (exactly {fraction_text(even)} dollars)."),
            Table(["meter", "return per unit", "house edge"],
                  [[f"${m / 100:,.2f}", f"{float(r):.6f}", f"{float(1 - r) * 100:.4f}%"]
                   for m, r in self.meter_rows()], frozenset({0, 1, 2})),
        ]  # fmt: skip
        section = Section("progressive", "Progressive wager", blocks)
        at = next(i for i, s in enumerate(out) if s.key == "notes")
        return [*out[:at], section, *out[at:]]

    def to_json(self) -> dict[str, Any]:
        """The par sheet's JSON, with each strategy's totals and the progressive's figures."""
        out = super().to_json()
        out["strategy_totals"] = {name: {k: fraction_text(v) for k, v in t.items()}
                                  for name, t in self.totals.items()}  # fmt: skip
        p = self.progressive
        if p is not None:
            even = p.break_even
            out["progressive"] = {
                "wager_dollars": self.progressive_wager / 100,
                "return_fixed": fraction_text(p.fixed),
                "return_per_meter_cent": fraction_text(p.per_cent),
                "break_even_dollars": None if even is None else fraction_text(even),
                "folded_deals": p.folded,
                "hands": p.hands,
                "table": [{"meter_dollars": m / 100, "return": fraction_text(r), "decimal": float(r)}
                          for m, r in self.meter_rows()],
            }  # fmt: skip
        return out


def analyze(config: ConfigLike, ante: int | None = None, log: Log | None = None) -> CaribbeanSheet:
    """The exact par sheet of Caribbean Stud Poker under ``config`` at ``ante`` (cents; None:
    the table minimum): amounts at that ante (bet payouts rounded down to the cent and held to
    the payout limit), reported per ante."""
    ante = _check_ante(config, ante)
    figs = figures(config, ante, log)
    wins = [Fraction(w, ante) for w in figs["wins"]]
    outcomes = []
    for i, name in enumerate(NAMES):
        line = figs["by_name"][i]
        nets = (Fraction(1), 1 + wins[i], Fraction(0), Fraction(-3))
        for result, count, net in zip(RESULTS, line["bet"], nets, strict=True):
            if count:
                outcomes.append(Outcome("bet", name, result, count, net, Fraction(3)))
        if line["fold_situations"]:
            outcomes.append(Outcome("fold", name, "ante forfeited",
                                    line["fold_situations"] * DEALER_HANDS, Fraction(-1),
                                    Fraction(1)))  # fmt: skip
    totals = {}
    edges = {}
    for name in STRATEGIES:
        s = figs["strategies"][name]
        net = Fraction(s["net_cents"], ante)
        folds = PLAYER_HANDS * UP_CARDS - s["bet_situations"]
        wagered = (s["bet_situations"] * 3 + folds) * DEALER_HANDS
        totals[name] = {"net": net, "wagered": Fraction(wagered)}
        edges[name] = -net / DEALS
    progressive = _progressive(figs, config)
    settings = getattr(config, "progressive", None)
    rule, table, notes = _strategy(figs)
    return CaribbeanSheet(
        game=GAME,
        edition=EDITION,
        title=TITLE,
        base_wager="ante",
        base_cents=ante,
        initial_units=Fraction(1),
        outcomes=outcomes,
        strategy={"rule": rule, "decisions": table, **notes},
        strategies=edges,
        pay_table=[(h, f"{config.bet_pays[h]} to 1") for h in NAMES if h in config.bet_pays],
        notes=_notes(figs, totals),
        progressive=progressive,
        progressive_wager=0 if settings is None else int(settings.wager),
        seed=0 if settings is None else int(getattr(settings, "seed", 0)),
        totals=totals,
    )


def _strategy(figs: dict[str, Any]) -> tuple[str, list[dict[str, Any]], dict[str, str]]:
    """The optimal rule in words, the decision table of the A-K high hands (three lower ranks
    against the up card's rank) and what else the strategy says."""
    by_name = figs["by_name"]
    pair_index = NAMES.index("one pair")
    pair_all = all(by_name[i]["fold_situations"] == 0 for i in range(pair_index + 1))
    low = by_name[NAMES.index("less than ace king")]
    table = []
    for key in sorted(
        figs["ace_king_table"], key=lambda w: [-"23456789TJQKA".index(c) for c in w.split("-")]
    ):
        cells = figs["ace_king_table"][key]
        row: dict[str, Any] = {"hand": f"A-K-{key}"}
        for r, (bet, total) in enumerate(cells):
            if total == 0:
                row[rank_word((r,))] = "-"
            elif bet == total:
                row[rank_word((r,))] = "bet"
            elif bet == 0:
                row[rank_word((r,))] = "fold"
            else:
                row[rank_word((r,))] = f"depends on suits ({bet:,} of {total:,})"
        table.append(row)
    rule = (
        ("Bet every pair or better; " if pair_all else "Bet a pair or better except as tabled; ")
        + ("fold every hand below ace-king; " if low["bet_situations"] == 0 else "")
        + "with ace-king high, bet or fold as the decision table says (the hand's three lower "
        "ranks against the dealer's up card)."
    )
    bets = figs["strategies"]["optimal"]["bet_situations"]
    situations = PLAYER_HANDS * UP_CARDS
    frequency = Fraction(bets, situations)
    notes = {
        "bet frequency": f"Bet frequency: {float(frequency) * 100:.4f}% ({bets:,} of the "
        f"{situations:,} situations, hand and up card; exactly {fraction_text(frequency)}).",
        "pairs": f"Pairs or better folded: {figs['pair_folded']:,} situations (hand and up card).",
        "ties": f"Situations where betting and folding expect the same (folded): {figs['ties']:,}.",
    }
    return rule, table, notes


def _notes(figs: dict[str, Any], totals: dict[str, dict[str, Fraction]]) -> list[str]:
    notes = [
        "one player against the dealer, one deck; the decision sees the player's five cards and "
        "the dealer's up card (other players' cards are not used)",
        'the bet wager is twice the ante (19:47-16.1 "Bet wager"); the dealer qualifies with '
        'A-K-4-3-2 or better (19:47-16.1 "Qualifying hand")',
        "a dealer who does not qualify pays the ante 1 to 1 and returns the bet; a qualifying "
        "dealer beaten pays the ante 1 to 1 and the bet by the pay table; an exact tie pushes; "
        "a fold forfeits the ante",
        "element of risk: the house edge per amount wagered (the ante, and the bet when placed)",
    ]
    for name, t in totals.items():
        edge = -t["net"] / t["wagered"]
        notes.append(f"{name}: total result {t['net']} antes over {DEALS:,} deals; element of "
                     f"risk {float(edge) * 100:.4f}% ({fraction_text(edge)})")  # fmt: skip
    return notes


def progressive_plot(sheet: CaribbeanSheet, path: str) -> None:
    """The progressive wager's return per unit wagered against the meter (PNG), with the
    break-even meter marked."""
    from felt.cli.plots import _pyplot, _save

    p = sheet.progressive
    if p is None:
        raise FeltError("this table has no progressive wager to plot")
    plt = _pyplot()
    rows = sheet.meter_rows()
    top = max(m for m, _ in rows)
    xs = np.linspace(0, top, 200)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(xs / 100, [float(p.fixed) + float(p.per_cent) * x for x in xs], label="return per unit")
    ax.axhline(1.0, color="k", linestyle="--", label="break even")
    if p.break_even is not None:
        ax.axvline(float(p.break_even), color="tab:red", linestyle=":",
                   label=f"break-even meter ${float(p.break_even):,.2f}")  # fmt: skip
    ax.set_xlabel("meter ($)")
    ax.set_ylabel("return per unit wagered")
    ax.set_title("Caribbean Stud progressive wager")
    ax.legend()
    _save(fig, path)
    plt.close(fig)
