"""Simulation of Boston 5, Boston 7 and Double Down Stud rounds: a compiled fast path, the real
round engine on the same decks, and the observed house edge against the exact one.

Rounds are split into fixed blocks of :data:`BLOCK` rounds; block ``b`` draws its decks from a
generator seeded by a digest of ``(seed, b)``.  Totals are integer sums over blocks, so the same
seed gives the same result whatever the number of workers or machines: local processes by
default, or a Dask cluster (``scheduler``).

The fast paths deal each round exactly as the engine does and settle by the same pay rules.
Boston: three cards to each seat from the dealer's left, three to the dealer, two (Boston 7:
four) more to each seat that raised, then to the dealer.  Double Down Stud: past the dealer's
cut, one card to each area from the dealer's left, the hole card, three up-cards; each area
doubles as :func:`felt.games.double_down.suggest_double` would, read from a decision table.
``tests/test_simulate.py`` checks both against the round engine on the same decks.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from felt.analysis.boston7 import line_code, slot_of
from felt.analysis.games import (
    _boston_payoffs,
    _dds_lines,
    _line_payout,
    _suit_pattern_label,
    analyze_boston5,
    analyze_boston7,
    analyze_double_down,
    boston_line_names,
    line_index_of_code,
)
from felt.analysis.kernels import BINOM, class_completions, dds_situations
from felt.analysis.parsheet import ParSheet
from felt.core._jit import jit, jit_inline
from felt.core.batch import FLUSH_BITS64, LOW_MASK64, SUIT_SHIFT64, SUM_START64
from felt.core.cards import ALL_CARDS, Card
from felt.core.errors import FeltError, excerpt
from felt.core.tables import cache_dir, load_arrays, save_arrays, source_digest, tables
from felt.games.boston.actions import Fold, Keep, PlaceWagers, Second
from felt.games.boston.config import TableConfig
from felt.games.boston.round import Round
from felt.games.double_down import DoubleDownConfig, DoubleDownRound, suggest_double
from felt.games.double_down.actions import DealerCut, DeclineCut, DoubleDown, PlaceBet, Stand

BLOCK = 1 << 14
"""Rounds per block: the unit of work and of seeding."""


def block_seed(seed: int, block: int) -> int:
    """The generator seed of one block: a digest of the run's seed and the block number."""
    digest = hashlib.sha256(f"felt-simulate:{seed}:{block}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


@jit
def deal_decks(
    seed: int, rounds: int, need: int
) -> NDArray[np.uint8]:  # pragma: no cover - compiled
    """The first ``need`` cards of ``rounds`` shuffled decks (partial Fisher-Yates, unbiased)."""
    np.random.seed(seed)
    out = np.empty((rounds, need), dtype=np.uint8)
    deck = np.arange(52, dtype=np.uint8)
    for r in range(rounds):
        for i in range(need):
            j = i + np.random.randint(0, 52 - i)
            deck[i], deck[j] = deck[j], deck[i]
            out[r, i] = deck[i]
    return out


@jit_inline
def _hand_code(
    decks: NDArray[np.uint8],
    r: int,
    first: int,
    pos: int,
    extra: int,
    card_keys: NDArray[np.uint64],
    flush: NDArray[np.uint16],
    row_offsets: NDArray[np.int64],
    values: NDArray[np.uint16],
    five_category: NDArray[np.uint8],
) -> tuple[int, int]:  # pragma: no cover - compiled
    """Value and line code (a Category, or six- / seven-card royal) of the three cards at
    ``first`` and the ``extra`` at ``pos`` of round ``r``: the arithmetic of felt.tables."""
    total = SUM_START64
    for i in range(3):
        total += card_keys[decks[r, first + i]]
    for i in range(extra):
        total += card_keys[decks[r, pos + i]]
    suits = (total >> SUIT_SHIFT64) & FLUSH_BITS64
    if not suits:
        v = int(values[slot_of(int(total & LOW_MASK64), row_offsets)])
        return v, int(five_category[v])
    suit = np.int64(suits > 0x8) + np.int64(suits > 0x80) + np.int64(suits > 0x800)
    mask = 0
    for i in range(3 + extra):
        c = int(decks[r, first + i] if i < 3 else decks[r, pos + i - 3])
        if c & 3 == suit:
            mask |= 1 << (c >> 2)
    v = int(flush[mask])
    return v, line_code(int(five_category[v]), mask)


@jit
def settle_boston(
    decks: NDArray[np.uint8],
    seats: int,
    hand: int,
    raise_table: NDArray[np.bool_],
    card_keys: NDArray[np.uint64],
    flush: NDArray[np.uint16],
    row_offsets: NDArray[np.int64],
    values: NDArray[np.uint16],
    five_category: NDArray[np.uint8],
    line_of_code: NDArray[np.int64],
    binom: NDArray[np.int64],
    pay: NDArray[np.int64],
    fold_pay: int,
    cells: NDArray[np.int64],
) -> NDArray[np.int64]:  # pragma: no cover - compiled
    """Boston 5 (``hand`` 5) or Boston 7 (7) rounds: net cents of each seat in each round (shape
    (rounds, seats)); adds each raised hand's (ante-bonus line, result) to ``cells`` and folds to
    ``cells[0, 0, 3]``.  Cards go as the engine deals them: three to each seat from the dealer's
    left, three to the dealer, then the rest of each raised hand, then the dealer's."""
    rounds = decks.shape[0]
    extra = hand - 3
    nets = np.zeros((rounds, seats), dtype=np.int64)
    raised = np.zeros(seats, dtype=np.bool_)
    player_values = np.zeros(seats, dtype=np.int64)
    player_lines = np.zeros(seats, dtype=np.int64)
    for r in range(rounds):
        pos = 3 * seats + 3
        for s in range(seats):
            a, b, c = decks[r, 3 * s], decks[r, 3 * s + 1], decks[r, 3 * s + 2]
            lo, mid, hi = min(a, b, c), a + b + c - min(a, b, c) - max(a, b, c), max(a, b, c)
            raised[s] = raise_table[binom[lo, 1] + binom[mid, 2] + binom[hi, 3]]
        for s in range(seats):
            if raised[s]:
                v, code = _hand_code(decks, r, 3 * s, pos, extra, card_keys, flush, row_offsets,
                                     values, five_category)  # fmt: skip
                player_values[s] = v
                player_lines[s] = line_of_code[code]
                pos += extra
        dealer, _ = _hand_code(decks, r, 3 * seats, pos, extra, card_keys, flush, row_offsets,
                               values, five_category)  # fmt: skip
        for s in range(seats):
            if not raised[s]:
                nets[r, s] = fold_pay
                cells[0, 0, 3] += 1
                continue
            v = player_values[s]
            result = 0 if v > dealer else (1 if v == dealer else 2)
            line = player_lines[s]
            nets[r, s] = pay[line, result]
            cells[0, line, result] += 1
    return nets


DDS_SITUATIONS: Final = 52 * 22100
"""Entries of the Double Down Stud decision table: the area's own card times the colex index of
the dealer's three up-cards (entries whose up-cards include the own card are never read)."""


@jit_inline
def _value5(
    a: int,
    b: int,
    c: int,
    d: int,
    e: int,
    card_keys: NDArray[np.uint64],
    flush: NDArray[np.uint16],
    row_offsets: NDArray[np.int64],
    values: NDArray[np.uint16],
) -> int:  # pragma: no cover - compiled
    """Value (1-7462) of five distinct cards: the arithmetic of felt.tables (five cards make a
    flush only when all share one suit)."""
    suit = a & 3
    if b & 3 == suit and c & 3 == suit and d & 3 == suit and e & 3 == suit:
        return int(flush[(1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2)) | (1 << (d >> 2))
                         | (1 << (e >> 2))])  # fmt: skip
    total = SUM_START64 + card_keys[a] + card_keys[b] + card_keys[c] + card_keys[d] + card_keys[e]
    return int(values[slot_of(int(total & LOW_MASK64), row_offsets)])


@jit
def settle_double_down(
    decks: NDArray[np.uint8],
    seats: int,
    ante: int,
    worth: NDArray[np.int64],
    unit_of_value: NDArray[np.int64],
    line_of_value: NDArray[np.int64],
    win: NDArray[np.int64],
    limit: int,
    card_keys: NDArray[np.uint64],
    flush: NDArray[np.uint16],
    row_offsets: NDArray[np.int64],
    values: NDArray[np.uint16],
    binom: NDArray[np.int64],
    cells: NDArray[np.int64],
) -> NDArray[np.int64]:  # pragma: no cover - compiled
    """Double Down Stud rounds: net cents of each seat in each round (shape (rounds, seats)); adds
    each hand's (pay line, 0 stood / 1 doubled) to ``cells``.

    Each row holds the cards the deal takes, in its order: one card to each area from the
    dealer's left, then the hole card and the three up-cards (17.8(b)).  An area doubles
    exactly when the hole cards it cannot see are worth more than nothing on average
    (:func:`suggest_double`): ``worth`` sums them over every card but its own and the up-cards,
    less what each other area's card would have made (``unit_of_value``).  Losing hands lose both wagers, pushes
    push, wins pay ``win`` per wager capped at ``limit`` per hand (17.9, 17.10(b)-(c))."""
    rounds = decks.shape[0]
    nets = np.zeros((rounds, seats), dtype=np.int64)
    own = np.zeros(seats, dtype=np.int64)
    for r in range(rounds):
        for s in range(seats):
            own[s] = decks[r, s]
        hole = int(decks[r, seats])
        u1, u2, u3 = int(decks[r, seats + 1]), int(decks[r, seats + 2]), int(decks[r, seats + 3])
        lo, hi = min(u1, u2, u3), max(u1, u2, u3)
        up = binom[lo, 1] + binom[u1 + u2 + u3 - lo - hi, 2] + binom[hi, 3]
        for s in range(seats):
            card = own[s]
            gain = worth[card * 22100 + up]
            # each other area's card lifts the gain by at most a loss (the worth of value 1,
            # seven high, which loses): when even that leaves none, the area stands
            for o in range(seats if gain - (seats - 1) * unit_of_value[1] > 0 else 0):
                if o != s:
                    gain -= unit_of_value[_value5(card, u1, u2, u3, own[o], card_keys, flush,
                                                  row_offsets, values)]  # fmt: skip
            doubled = 1 if gain > 0 else 0
            line = line_of_value[_value5(card, u1, u2, u3, hole, card_keys, flush, row_offsets,
                                         values)]  # fmt: skip
            if line == 0:
                nets[r, s] = -(1 + doubled) * ante
            elif line > 1:
                nets[r, s] = min((1 + doubled) * win[line], limit)
            cells[0, line, doubled] += 1
    return nets


def exact_sum_of_squares(values: NDArray[np.int64]) -> int:
    """Sum of squares of int64 values as an exact Python int (an int64 sum would overflow at
    large wagers); a round's nets take few distinct values, so this groups them first.

    >>> exact_sum_of_squares(np.array([3_000_000_000, -3_000_000_000, 3_000_000_000]))
    27000000000000000000
    """
    distinct, counts = np.unique(values, return_counts=True)
    return sum(int(v) * int(v) * int(c) for v, c in zip(distinct, counts, strict=True))


@dataclass
class Tally:
    """Integer sums over simulated rounds; adding two tallies is exact and order-free."""

    rounds: int = 0
    seat_rounds: int = 0
    total: int = 0
    """Sum of every seat's net, in cents."""
    total_sq: int = 0
    """Sum over rounds of the square of the round's total net (for the confidence interval)."""
    cells: NDArray[np.int64] = field(default_factory=lambda: np.zeros((1, 1, 4), dtype=np.int64))
    checkpoints: list[tuple[int, int]] = field(default_factory=list)
    """(rounds, total) after each block, for the convergence plot."""

    def add(self, other: Tally) -> Tally:
        """The sum of two tallies."""
        return Tally(
            self.rounds + other.rounds,
            self.seat_rounds + other.seat_rounds,
            self.total + other.total,
            self.total_sq + other.total_sq,
            self.cells + other.cells,
            self.checkpoints + other.checkpoints,
        )


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to simulate blocks (picklable)."""

    config: TableConfig | DoubleDownConfig
    ante: int
    seats: int
    seed: int
    rounds: int
    raising: bytes | None = None
    """Boston: raise (1) or fold (0) per three-card start by colex index, decided by the parent
    from the exact analysis, so no worker has to compute it; None computes it where needed."""

    def raise_table(self) -> NDArray[np.bool_]:
        """The Boston raise table (22,100 starts)."""
        if self.raising is not None:
            return np.frombuffer(self.raising, dtype=np.bool_)
        assert isinstance(self.config, TableConfig)
        return optimal_raise_table(self.config, self.ante)


def _prepare(job: Job) -> tuple[Any, ...]:
    config = job.config
    if not isinstance(config, TableConfig):
        raise FeltError("the fast path is for Boston tables")
    names = boston_line_names(config)
    win, tie, lose, fold = _boston_payoffs(config, job.ante, names)
    pay = np.array([win, tie, lose], dtype=np.int64).T.copy()
    raise_table = job.raise_table()
    return names, line_index_of_code(names), pay, fold, raise_table


_SHEETS: dict[tuple[str, int], ParSheet] = {}


def exact_sheet(
    config: TableConfig, ante: int, log: Callable[[str], None] | None = None
) -> ParSheet:
    """The exact Boston 5 or Boston 7 analysis for a table and ante, computed once per process."""
    key = (repr(config), ante)
    if key not in _SHEETS:
        if config.game == "boston7":
            _SHEETS[key] = analyze_boston7(config, ante, log=log)
        else:
            _SHEETS[key] = analyze_boston5(config, ante)
    return _SHEETS[key]


def _exact_key(config: TableConfig | DoubleDownConfig, ante: int) -> str:
    """Cache key of a table's exact figures: its settings, the ante and the analysis code."""
    here = Path(__file__).parent
    return source_digest(here / "analysis" / "games.py", here / "analysis" / "kernels.py",
                         here / "analysis" / "boston7.py", here / "core" / "tables.py",
                         here / "core" / "ranking.py", salt=f"{config!r}|{ante}", length=24)  # fmt: skip


def exact_figures(
    config: TableConfig, ante: int, log: Callable[[str], None] | None = None
) -> tuple[Fraction, NDArray[np.bool_]]:
    """The exact house edge per ante and the optimal raise table, from the disk cache when its
    contents check out (so ``felt simulate`` does not redo the analysis each run), else from
    :func:`exact_sheet` and cached.  A damaged cache file is recomputed, never trusted."""
    path = cache_dir() / f"exact-{_exact_key(config, ante)}.npz"
    cached = load_arrays(path, ("edge", "raising"))
    if cached is not None and cached["raising"].shape == (22100,):
        edge = _edge_of(cached["edge"])
        if edge is not None:
            return edge, cached["raising"].astype(np.bool_)
    edge = exact_sheet(config, ante, log).house_edge_ante
    raising = optimal_raise_table(config, ante, log)
    save_arrays(path, edge=np.array(str(edge)), raising=raising)
    return edge, raising


def _edge_of(stored: NDArray[Any]) -> Fraction | None:
    """A cached exact edge (a fraction's text), or None when it does not read as one."""
    try:
        return Fraction(str(stored))
    except (ValueError, ZeroDivisionError):
        return None


def dds_exact_edge(config: DoubleDownConfig, ante: int) -> Fraction:
    """The exact Double Down Stud house edge per wager for one area, from a verified disk cache
    when it checks out, else from :func:`analyze_double_down` and cached."""
    path = cache_dir() / f"exact-{_exact_key(config, ante)}.npz"
    cached = load_arrays(path, ("edge",))
    edge = None if cached is None else _edge_of(cached["edge"])
    if edge is None:
        edge = analyze_double_down(config, ante).house_edge_ante
        save_arrays(path, edge=np.array(str(edge)))
    return edge


def double_units(config: DoubleDownConfig) -> NDArray[np.int64] | None:
    """What one hole card makes a double down wager gain, per pay line (lose, push, then the pay
    table), as integers over the least common multiple of the odds' stakes, so comparing sums
    with zero is exact; None when that scale could overflow the compiled sums (odds such as
    "999983 to 499979" on several lines), where only the engine path decides."""
    names, _ = _dds_lines(config)
    odds = [_line_payout(config, name) for name in names[2:]]  # odds on every line (17.10(b))
    scale = math.lcm(*(p.to_stake for p in odds))
    gains = [p.to_win * (scale // p.to_stake) for p in odds]
    if 52 * max(scale, *gains) >= 1 << 62:
        return None
    return np.array([-scale, 0, *gains], dtype=np.int64)


def _situation_sets() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For every decision-table entry whose up-cards do not include the own card: the entry, and
    the colex index of its four cards as one set (what :func:`dds_situations` counts by class)."""
    from itertools import combinations

    triples = np.array(list(combinations(range(52), 3)), dtype=np.int64)  # colex order per row
    colex3 = BINOM[triples[:, 0], 1] + BINOM[triples[:, 1], 2] + BINOM[triples[:, 2], 3]
    slots, sets = [], []
    for own in range(52):
        keep = (triples != own).all(axis=1)
        four = np.sort(np.column_stack([triples[keep], np.full(int(keep.sum()), own)]), axis=1)
        slots.append(own * 22100 + colex3[keep])
        sets.append(
            BINOM[four[:, 0], 1]
            + BINOM[four[:, 1], 2]
            + BINOM[four[:, 2], 3]
            + BINOM[four[:, 3], 4]
        )
    return np.concatenate(slots), np.concatenate(sets)


_DOUBLE_TABLES: dict[str, NDArray[np.int64]] = {}


def double_table(config: DoubleDownConfig) -> NDArray[np.int64]:
    """The fast path's decision table: for every own card and three up-cards (see
    :data:`DDS_SITUATIONS`), what a double down wager gains summed over the 48 hole cards not
    among them, in :func:`double_units`.  Computed from the exact counts of felt.analysis once per
    pay table, then read from a verified disk cache (a damaged file is recomputed)."""
    units = double_units(config)
    if units is None:
        raise FeltError("this pay table's odds are too fine for the fast path; use --engine")
    here = Path(__file__).parent
    key = source_digest(Path(__file__), here / "analysis" / "games.py",
                        here / "analysis" / "kernels.py", here / "core" / "tables.py",
                        here / "core" / "ranking.py", salt=repr(config.pay_table), length=24)  # fmt: skip
    if key not in _DOUBLE_TABLES:
        path = cache_dir() / f"dds-double-{key}.npz"
        cached = load_arrays(path, ("worth",))
        if (
            cached is not None
            and cached["worth"].shape == (DDS_SITUATIONS,)
            and cached["worth"].dtype == np.int64
        ):
            _DOUBLE_TABLES[key] = cached["worth"].astype(np.int64)
        else:
            names, line_of_value = _dds_lines(config)
            counts, _, _, _ = dds_situations(line_of_value, len(names))
            class_of, _, _ = class_completions(4)
            slots, sets = _situation_sets()
            worth = np.zeros(DDS_SITUATIONS, dtype=np.int64)
            worth[slots] = (counts @ units)[class_of[sets]]
            save_arrays(path, worth=worth)
            _DOUBLE_TABLES[key] = worth
    return _DOUBLE_TABLES[key]


def optimal_raise_table(
    config: TableConfig, ante: int, log: Callable[[str], None] | None = None
) -> NDArray[np.bool_]:
    """Raise or fold for each three-card start (by colex index), from the exact analysis."""
    sheet = exact_sheet(config, ante, log)
    if sheet.strategy["rule"] == "Always place the second wager.":
        return np.ones(22100, dtype=np.bool_)
    if config.game != "boston7":  # pragma: no cover - no legal Boston 5 table folds
        raise FeltError(
            "this pay table's optimal strategy folds some hands; simulation supports always-raise tables"
        )
    from felt.analysis.boston7 import start_classes

    raising = {row["start"]: bool(row["raise"]) for row in sheet.strategy["decisions"]}
    cls, _, starts = start_classes()
    by_class = np.array([raising[_suit_pattern_label(s)] for s in starts], dtype=np.bool_)
    return by_class[cls]


Settle = Callable[[NDArray[np.uint8], NDArray[np.int64]], NDArray[np.int64]]
"""A fast path's settlement of a block of decks: each seat's net per round, counting outcomes
into the cells given."""


def _fast_path(job: Job) -> tuple[int, list[str], Settle]:
    """What a job's fast path needs: cards dealt per deck, outcome line names, settlement."""
    t = tables()
    config = job.config
    if isinstance(config, DoubleDownConfig):
        names, line_of_value = _dds_lines(config)
        units = double_units(config)
        assert units is not None
        worth, unit_of_value = double_table(config), units[line_of_value]
        win = np.array([0, 0, *(_line_payout(config, n).win(job.ante) for n in names[2:])],
                       dtype=np.int64)  # fmt: skip

        def settle_dds(decks: NDArray[np.uint8], cells: NDArray[np.int64]) -> NDArray[np.int64]:
            return settle_double_down(decks, job.seats, job.ante, worth, unit_of_value,
                                      line_of_value, win,
                                      config.payout_limit, t.card_keys, t.flush, t.row_offsets,
                                      t.values, BINOM, cells)  # fmt: skip

        return _cards_needed(config, job.seats), names, settle_dds
    names, line_of_code, pay, fold, raise_table = _prepare(job)
    hand = 7 if config.game == "boston7" else 5

    def settle(decks: NDArray[np.uint8], cells: NDArray[np.int64]) -> NDArray[np.int64]:
        return settle_boston(decks, job.seats, hand, raise_table, t.card_keys, t.flush,
                             t.row_offsets, t.values, t.five_category, line_of_code, BINOM, pay,
                             fold, cells)  # fmt: skip

    return _cards_needed(config, job.seats), names, settle


def run_blocks(
    job: Job, blocks: Sequence[int], progress: Callable[[int, int], None] | None = None
) -> Tally:
    """Simulate the given blocks of a job on the compiled fast path (what each worker runs)."""
    need, names, settle = _fast_path(job)
    tally = Tally(cells=np.zeros((1, len(names), 4), dtype=np.int64))
    for b in blocks:
        count = min(BLOCK, job.rounds - b * BLOCK)
        nets = settle(deal_decks(block_seed(job.seed, b), count, need), tally.cells)
        per_round = nets.sum(axis=1)
        block_total = int(per_round.sum())
        tally.rounds += count
        tally.seat_rounds += count * job.seats
        tally.total += block_total
        tally.total_sq += exact_sum_of_squares(per_round)
        tally.checkpoints.append((b, block_total))
        if progress is not None:
            progress(len(tally.checkpoints), len(blocks))
    return tally


@dataclass(frozen=True)
class SimResult:
    """A simulation's observed figures beside the exact ones."""

    job: Job
    tally: Tally
    names: list[str]
    exact_edge: Fraction | None

    @property
    def house_edge(self) -> float:
        """Observed house edge per ante."""
        return -self.tally.total / (self.tally.seat_rounds * self.job.ante)

    @property
    def half_width(self) -> float | None:
        """Half-width of the 95% confidence interval of the house edge per ante (per-round totals
        are the independent samples: seats at one table share the dealer's hand); None with
        fewer than two rounds, where no interval exists.  The sample variance is exact integer
        arithmetic, (n * sum x^2 - (sum x)^2) / (n (n - 1)), so no size of wager overflows it.
        """
        n = self.tally.rounds
        if n < 2:
            return None
        var = Fraction(n * self.tally.total_sq - self.tally.total**2, n * (n - 1))
        return 1.959964 * math.sqrt(float(var) / n) / (self.job.seats * self.job.ante)

    def to_json(self) -> dict[str, Any]:
        """Observed against exact."""
        cells = self.tally.cells[0]
        seat_rounds = self.tally.seat_rounds
        boston = isinstance(self.job.config, TableConfig)
        results = ("player higher", "tie", "dealer higher") if boston else ("stand", "double")
        freq = {
            f"{name} / {result}": cells[i, j] / seat_rounds
            for i, name in enumerate(self.names)
            for j, result in enumerate(results)
            if cells[i, j]
        }
        exact = self.exact_edge
        edition = (
            self.job.config.edition.name
            if isinstance(self.job.config, TableConfig)
            else "nj-19-47-17"
        )
        half = self.half_width
        counted = self.names != ["(engine path)"]
        extra = (
            {} if boston else {"doubles": int(cells[:, 1].sum()) / seat_rounds if counted else None}
        )
        return {
            "game": self.job.config.game,
            "edition": edition,
            "rounds": self.tally.rounds,
            "seats": self.job.seats,
            "seed": self.job.seed,
            "house_edge": self.house_edge,
            "ci95": None if half is None else [self.house_edge - half, self.house_edge + half],
            "exact_house_edge": None if exact is None else float(exact),
            "exact_house_edge_exact": None
            if exact is None
            else f"{exact.numerator}/{exact.denominator}",
            "within_ci": None
            if exact is None or half is None
            else abs(self.house_edge - float(exact)) <= half,
            "folds": int(cells[0, 3]) / seat_rounds,
            **extra,
            "frequencies": freq,
        }


def _full_deck(
    config: TableConfig | DoubleDownConfig, dealt: NDArray[np.uint8]
) -> tuple[Card, ...]:
    """A whole deck whose cards at :func:`_deal_start` are ``dealt``, the rest in card order
    (cards the deal never reaches: their order never matters)."""
    given = [Card(int(c)) for c in dealt]
    seen = set(given)
    rest = [c for c in ALL_CARDS if c not in seen]
    start = _deal_start(config)
    return (*rest[:start], *given, *rest[start:])


def _engine_seat_nets(config: TableConfig | DoubleDownConfig, deck: tuple[Card, ...], seats: int,
                      ante: int, raise_table: NDArray[np.bool_] | None) -> list[int]:  # fmt: skip
    """One round through the real engine with the suggested strategy; each seat's net, seat 1
    first (Boston: raise by ``raise_table``, always when None; Double Down Stud:
    :func:`suggest_double`, the dealer cutting when the player offered the cut declines)."""
    if isinstance(config, DoubleDownConfig):
        dd = DoubleDownRound(config, deck)
        for s in range(1, seats + 1):
            dd.apply(PlaceBet(s, ante))
        while not dd.finished:
            pending = dd.pending()
            if not pending:
                dd.advance()
            elif pending[0][1] == "cut or decline":
                dd.apply(DeclineCut(pending[0][0]))
            else:
                area = pending[0][0]
                dd.apply(DoubleDown(area) if suggest_double(dd, area) else Stand(area))
        return [dd.net(s) for s in range(1, seats + 1)]
    rnd = Round(config, deck)
    for s in range(1, seats + 1):
        rnd.apply(PlaceWagers(s, ante, config.first_ratio * ante))
    rnd.run_dealer()
    for s in range(1, seats + 1):
        cards = sorted(int(c) for c in rnd.seats[s].cards[:3])
        index = int(BINOM[cards[0], 1] + BINOM[cards[1], 2] + BINOM[cards[2], 3])
        wants = True if raise_table is None else bool(raise_table[index])
        rnd.apply(Second(s) if wants else Fold(s))
    _finish_keeping_all(rnd)
    return [rnd.net(s) for s in range(1, seats + 1)]


def _finish_keeping_all(rnd: Round) -> None:
    """Let the dealer finish; a Boston 7 seat keeps all seven (the fast path never discards)."""
    rnd.run_dealer()
    for seat, _ in rnd.pending():  # only "discard or keep" can be pending here
        rnd.apply(Keep(seat))
    rnd.run_dealer()


def _cards_needed(config: TableConfig | DoubleDownConfig, seats: int) -> int:
    """Cards a round's deal takes, drawn for both paths so they play the same decks: Boston 5
    (7) five (seven) to each seat and the dealer; Double Down Stud one to each area and four to
    the dealer (17.8(b))."""
    if isinstance(config, DoubleDownConfig):
        return seats + 4
    return (5 if config.game == "boston5" else 7) * (seats + 1)


def _deal_start(config: TableConfig | DoubleDownConfig) -> int:
    """Where in the deck the deal begins: past the cut where the dealer cuts (Double Down Stud,
    17.4(c), the simulated player declining it; none after a shuffler loads the shoe, 17.4(b)),
    else at the top."""
    if isinstance(config, DoubleDownConfig) and config.cut_required:
        return DealerCut().position
    return 0


def run_engine_blocks(
    job: Job, blocks: Sequence[int], progress: Callable[[int, int], None] | None = None
) -> Tally:
    """Simulate blocks through the real round engine (any game; slow, the reference)."""
    config = job.config
    raise_table = job.raise_table() if isinstance(config, TableConfig) else None
    tally = Tally(cells=np.zeros((1, 1, 4), dtype=np.int64))
    for b in blocks:
        count = min(BLOCK, job.rounds - b * BLOCK)
        decks = deal_decks(block_seed(job.seed, b), count, _cards_needed(config, job.seats))
        block_total = 0
        for row in decks:
            net = sum(
                _engine_seat_nets(config, _full_deck(config, row), job.seats, job.ante, raise_table)
            )
            block_total += net
            tally.total_sq += net * net
        tally.rounds += count
        tally.seat_rounds += count * job.seats
        tally.total += block_total
        tally.checkpoints.append((b, block_total))
        if progress is not None:
            progress(len(tally.checkpoints), len(blocks))
    return tally


def simulate(
    config: TableConfig | DoubleDownConfig,
    rounds: int,
    *,
    seats: int = 1,
    seed: int = 0,
    workers: int = 1,
    ante: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: bool = False,
    log: Callable[[str], None] | None = None,
) -> SimResult:
    """Simulate ``rounds`` rounds with the suggested (for Boston, optimal) strategy.

    Every game runs on the compiled fast path unless ``engine`` (or, for Double Down Stud, a pay
    table whose odds are too fine for it, which ``log`` hears).  The exact edge comes from the
    exact analysis (``log`` hears when Boston 7's counts are computed rather than read from the
    cache); for Double Down Stud only with one area, whose suggested play is the analysis's
    optimal one unless the payout limit caps a win (suggest_double does not see the limit).
    """
    max_seats = config.areas if isinstance(config, DoubleDownConfig) else 6
    if rounds < 1 or not 1 <= seats <= max_seats or workers < 1:
        raise FeltError(
            f"--rounds must be at least 1, --seats 1 to {max_seats}, --workers at least 1"
        )
    base = config.minimum if ante is None else ante
    if not config.minimum <= base <= config.maximum:
        raise FeltError(f"--ante {base / 100:.2f} is outside the table limits")
    with contextlib.ExitStack() as stack:
        client = stack.enter_context(_connect(scheduler)) if scheduler is not None else None
        return _simulate(config, rounds, base, seats, seed, workers, client, progress, engine, log)


def _simulate(
    config: TableConfig | DoubleDownConfig,
    rounds: int,
    base: int,
    seats: int,
    seed: int,
    workers: int,
    client: Any,
    progress: Callable[[int, int], None] | None,
    engine: bool,
    log: Callable[[str], None] | None,
) -> SimResult:
    """:func:`simulate` once its arguments are checked (and the Dask client, if any, connected)."""
    figures = exact_figures(config, base, log) if isinstance(config, TableConfig) else None
    raising = None if figures is None else figures[1].tobytes()
    job = Job(config, base, seats, seed, rounds, raising)
    fast = not engine
    if isinstance(config, DoubleDownConfig) and fast:
        fast = double_units(config) is not None
        if fast:
            double_table(config)  # once here, so local workers read it from the disk cache
        elif log is not None:
            log(
                "this pay table's odds are too fine for the fast path: every round runs through the round engine"
            )
    runner = run_blocks if fast else run_engine_blocks
    blocks = list(range(math.ceil(rounds / BLOCK)))
    chunks = [blocks[i :: max(1, workers)] for i in range(max(1, workers))]
    chunks = [c for c in chunks if c]
    parts: list[Tally]
    if client is not None:
        futures = client.map(runner, [job] * len(chunks), chunks, pure=False)
        parts = client.gather(futures)
    elif workers == 1:
        parts = [runner(job, blocks, progress)]
    else:
        parts = _run_pool(runner, job, blocks, workers, progress)
    tally = parts[0]
    for part in parts[1:]:
        tally = tally.add(part)
    tally.checkpoints.sort()
    exact: Fraction | None = None
    if isinstance(config, DoubleDownConfig):
        exact = dds_exact_edge(config, base) if seats == 1 else None
    else:
        assert figures is not None
        exact = figures[0]
    names = _fast_path(job)[1] if fast else ["(engine path)"]
    return SimResult(job, tally, names, exact)


def _run_pool(
    runner: Callable[[Job, Sequence[int], Callable[[int, int], None] | None], Tally],
    job: Job,
    blocks: list[int],
    workers: int,
    progress: Callable[[int, int], None] | None,
) -> list[Tally]:
    """Blocks across local processes, a few at a time so progress shows as each task finishes
    (tallies add exactly in any order, so the result is the same as one process's)."""
    size = max(1, len(blocks) // (workers * 16))
    tasks = [blocks[i : i + size] for i in range(0, len(blocks), size)]
    parts: list[Tally] = []
    done = 0
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(runner, job, task, None) for task in tasks]
        for future in as_completed(futures):
            parts.append(future.result())
            done += len(parts[-1].checkpoints)
            if progress is not None:
                progress(done, len(blocks))
    return parts


SCHEDULER_CONNECT_SECONDS: Final = 5
"""How long ``--scheduler`` waits to reach the Dask scheduler before giving up with an error."""


def _connect(address: str) -> Any:
    """A Dask client on the scheduler at ``address``; one clear error, within a few seconds,
    when the address is malformed or nothing answers there."""
    if len(address) > 200 or not address.isprintable():
        raise FeltError(
            "--scheduler must be a scheduler address such as tcp://host:8786, "
            f"got {excerpt(address)}"
        )
    try:
        from distributed import Client
    except ImportError:
        raise FeltError(
            "--scheduler needs the 'distributed' package (pip install distributed)"
        ) from None
    try:
        return Client(address, timeout=f"{SCHEDULER_CONNECT_SECONDS}s")
    except (OSError, TimeoutError) as err:
        raise FeltError(
            f"--scheduler: no Dask scheduler answered at {excerpt(address)} within "
            f"{SCHEDULER_CONNECT_SECONDS} s ({type(err).__name__}); start one with "
            "'dask scheduler' or leave --scheduler out to run here"
        ) from None
    except (ValueError, TypeError) as err:
        raise FeltError(
            f"--scheduler must be a scheduler address such as tcp://host:8786, got "
            f"{excerpt(address)} ({excerpt(str(err), 60)})"
        ) from None


def engine_nets(
    config: TableConfig | DoubleDownConfig,
    decks: NDArray[np.uint8],
    seats: int,
    raise_table: NDArray[np.bool_] | None = None,
    ante: int | None = None,
) -> NDArray[np.int64]:
    """Each seat's net on each deck through the real round engine (the reference for the fast
    paths), at ``ante`` (default: the table minimum); ``raise_table`` is Boston's."""
    out = np.zeros((len(decks), seats), dtype=np.int64)
    ante = config.minimum if ante is None else ante
    for r, top in enumerate(decks):
        out[r] = _engine_seat_nets(config, _full_deck(config, top), seats, ante, raise_table)
    return out


def progress_bar(done: int, total: int) -> None:
    """A one-line progress bar on standard error, when it is a terminal."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} blocks")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
