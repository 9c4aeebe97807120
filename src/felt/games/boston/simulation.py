"""Simulating Boston 5 and Boston 7 (:class:`felt.simulate.Simulation`): a compiled fast path
and the engine path's wagers and choices.

The fast path deals each round exactly as the engine does: three cards to each seat from the
dealer's left, three to the dealer, two (Boston 7: four) more to each seat that raised, then to
the dealer; and settles by the same pay rules, raising by the optimal decision of the exact
analysis.  ``tests/test_simulate.py`` checks it against the round engine on the same decks.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from felt.analysis import kernels
from felt.analysis.compiled import slot_of
from felt.analysis.kernels import BINOM
from felt.analysis.parsheet import ParSheet
from felt.core._jit import jit, jit_inline
from felt.core.batch import FLUSH_BITS64, LOW_MASK64, SUIT_SHIFT64, SUM_START64
from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.core.tables import cache_dir, load_arrays, save_arrays, source_digest, tables
from felt.games.base import Log
from felt.games.boston.actions import Fold, Keep, PlaceWagers, Second
from felt.games.boston.analysis import (
    _boston_payoffs,
    _suit_pattern_label,
    analyze_boston5,
    analyze_boston7,
    boston_line_names,
    line_index_of_code,
)
from felt.games.boston.boston7 import line_code
from felt.games.boston.config import TableConfig
from felt.games.boston.round import Round
from felt.rounds.actions import Action
from felt.rounds.round_core import RoundCore
from felt.simulate import (
    FOLDS,
    Job,
    Settle,
    Simulation,
    exact_edge_of,
    frequencies_of,
    frequencies_text,
    sheet_frequencies,
)


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


def _prepare(job: Job) -> tuple[Any, ...]:
    """What the fast path settles by: the ante-bonus line names, each kernel line code's line,
    the cents won per (line, result), the fold result and the raise table."""
    config = job.config
    if not isinstance(config, TableConfig):
        raise FeltError("the fast path is for Boston tables")
    names = boston_line_names(config)
    win, tie, lose, fold = _boston_payoffs(config, job.ante, names)
    pay = np.array([win, tie, lose], dtype=np.int64).T.copy()
    return names, line_index_of_code(names), pay, fold, raise_table(job)


def raise_table(job: Job) -> NDArray[np.bool_]:
    """The raise table (22,100 starts) of ``job``: its plan, or computed when it has none."""
    if job.plan is not None:
        return np.frombuffer(job.plan, dtype=np.bool_)
    assert isinstance(job.config, TableConfig)
    return optimal_raise_table(job.config, job.ante)


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


def _exact_key(config: TableConfig, ante: int) -> str:
    """Cache key of a table's exact figures: its settings, the ante and the analysis code."""
    here = Path(__file__).parent
    core = Path(kernels.__file__).parent.parent / "core"
    return source_digest(here / "analysis.py", Path(kernels.__file__), here / "boston7.py",
                         core / "tables.py", core / "ranking.py", salt=f"{config!r}|{ante}",
                         length=24)  # fmt: skip


def exact_figures(
    config: TableConfig, ante: int, log: Callable[[str], None] | None = None
) -> tuple[Fraction, NDArray[np.bool_]]:
    """The exact house edge per ante and the optimal raise table, from the disk cache when its
    contents check out (so ``felt simulate`` does not redo the analysis each run), else from
    :func:`exact_sheet` and cached.  A damaged cache file is recomputed, never trusted."""
    path = cache_dir() / f"exact-{_exact_key(config, ante)}.npz"
    cached = load_arrays(path, ("edge", "raising"))
    if cached is not None and cached["raising"].shape == (22100,):
        edge = exact_edge_of(cached["edge"])
        if edge is not None:
            return edge, cached["raising"].astype(np.bool_)
    edge = exact_sheet(config, ante, log).house_edge_ante
    raising = optimal_raise_table(config, ante, log)
    save_arrays(path, edge=np.array(str(edge)), raising=raising)
    return edge, raising


def exact_frequencies(
    config: TableConfig, ante: int, log: Callable[[str], None] | None = None
) -> dict[str, Fraction]:
    """Each outcome cell's exact probability per seat under the optimal play (the raise table
    the simulation plays by): ante-bonus line and result of a raised hand, or a fold; from the
    disk cache when it checks out, else from :func:`exact_sheet` and cached."""
    path = cache_dir() / f"frequencies-{_exact_key(config, ante)}.npz"
    cached = load_arrays(path, ("frequencies",))
    found = None if cached is None else frequencies_of(cached["frequencies"])
    if found is not None:
        return found
    sheet = exact_sheet(config, ante, log)
    found = sheet_frequencies(
        sheet, lambda o: FOLDS if o.decision == "fold" else f"{o.hand} / {o.result}"
    )
    save_arrays(path, frequencies=np.array(frequencies_text(found)))
    return found


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
    from felt.games.boston.boston7 import start_classes

    raising = {row["start"]: bool(row["raise"]) for row in sheet.strategy["decisions"]}
    cls, _, starts = start_classes()
    by_class = np.array([raising[_suit_pattern_label(s)] for s in starts], dtype=np.bool_)
    return by_class[cls]


class BostonSimulation(Simulation):
    """Boston 5 and Boston 7 tables: the optimal raise decision (never discarding, Boston 7)."""

    result_names = ("player higher", "tie", "dealer higher")

    def __init__(self, game: Any, config: TableConfig) -> None:
        super().__init__(game, config)
        self._edge: Fraction | None = None

    def max_seats(self) -> int:
        """Six player positions (24.2)."""
        return 6

    def cards_needed(self, seats: int) -> int:
        """Boston 5 (7): five (seven) to each seat and the dealer."""
        return (5 if self.config.game == "boston5" else 7) * (seats + 1)

    def plan(self, ante: int, log: Log | None) -> bytes | None:
        """The optimal raise table, from the exact figures (which :meth:`exact_edge` gives)."""
        self._edge, raising = exact_figures(self.config, ante, log)
        return raising.tobytes()

    def exact_edge(self, ante: int, seats: int, log: Log | None) -> Fraction | None:
        """The exact house edge per ante under the optimal strategy, any number of seats."""
        if self._edge is None:
            self._edge = exact_figures(self.config, ante, log)[0]
        return self._edge

    def exact_frequencies(
        self, ante: int, seats: int, log: Log | None
    ) -> dict[str, Fraction] | None:
        """The optimal play's outcome probabilities (a seat's do not depend on how many
        seats play: the cards are exchangeable)."""
        return exact_frequencies(self.config, ante, log)

    def fast(self, log: Log | None) -> bool:
        """Every legal Boston table runs on the fast path."""
        return True

    def fast_path(self, job: Job) -> tuple[list[str], Settle]:
        """Settlement by :func:`settle_boston`."""
        t = tables()
        names, line_of_code, pay, fold, raising = _prepare(job)
        hand = 7 if self.config.game == "boston7" else 5

        def settle(decks: NDArray[np.uint8], cells: NDArray[np.int64]) -> NDArray[np.int64]:
            return settle_boston(decks, job.seats, hand, raising, t.card_keys, t.flush,
                                 t.row_offsets, t.values, t.five_category, line_of_code, BINOM,
                                 pay, fold, cells)  # fmt: skip

        return names, settle

    def strategy(self, job: Job) -> NDArray[np.bool_]:
        """The raise table."""
        return raise_table(job)

    def new_round(self, deck: tuple[Card, ...]) -> RoundCore:
        """A Boston round on ``deck``."""
        return Round(self.config, deck)

    def wagers(self, seat: int, ante: int) -> list[Action]:
        """The ante and the first wager its ratio asks (24.6)."""
        return [PlaceWagers(seat, ante, self.config.first_ratio * ante)]

    def choose(self, rnd: RoundCore, seat: int, election: str, strategy: Any) -> Action:
        """Raise by the raise table (always when None); a Boston 7 seat keeps all seven (the
        fast path never discards)."""
        assert isinstance(rnd, Round)
        if election == "discard or keep":
            return Keep(seat)
        cards = sorted(int(c) for c in rnd.seats[seat].cards[:3])
        index = int(BINOM[cards[0], 1] + BINOM[cards[1], 2] + BINOM[cards[2], 3])
        wants = True if strategy is None else bool(strategy[index])
        return Second(seat) if wants else Fold(seat)
