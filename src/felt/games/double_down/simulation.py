"""Simulating Double Down Stud (:class:`felt.simulate.Simulation`): a compiled fast path and the
engine path's wagers and choices.

The fast path deals as the engine does: past the dealer's cut, one card to each area from the
dealer's left, the hole card, three up-cards; each area doubles as
:func:`felt.games.double_down.suggest_double` would, read from a decision table.
``tests/test_simulate.py`` checks it against the round engine on the same decks.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from felt.analysis import kernels
from felt.analysis.compiled import slot_of
from felt.analysis.kernels import BINOM, class_completions
from felt.core._jit import jit, jit_inline
from felt.core.batch import LOW_MASK64, SUM_START64
from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.core.tables import cache_dir, load_arrays, save_arrays, source_digest, tables
from felt.games.base import Log
from felt.games.double_down.actions import DealerCut, DeclineCut, DoubleDown, PlaceBet, Stand
from felt.games.double_down.analysis import (
    _dds_lines,
    _line_payout,
    analyze_double_down,
    dds_situations,
)
from felt.games.double_down.config import DoubleDownConfig
from felt.games.double_down.round import DoubleDownRound
from felt.games.double_down.strategy import suggest_double
from felt.rounds.actions import Action
from felt.rounds.round_core import RoundCore
from felt.simulate import (
    Job,
    Settle,
    Simulation,
    exact_edge_of,
    frequencies_of,
    frequencies_text,
    sheet_frequencies,
)


def _code_digest(*salt: str) -> str:
    """Digest of the code the exact figures and the decision table derive from (this module,
    the analysis, the shared kernels, the hand tables) and ``salt``."""
    here = Path(__file__).parent
    core = Path(kernels.__file__).parent.parent / "core"
    return source_digest(Path(__file__), here / "analysis.py", Path(kernels.__file__),
                         core / "tables.py", core / "ranking.py", salt="|".join(salt),
                         length=24)  # fmt: skip


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


DDS_RESULT_LINES: Final = {"pair of fives or less": "lose", "pair of sixes to tens": "push"}
"""The par sheet's names of the unpaid outcomes, as the fast path's lines call them."""


def dds_exact_frequencies(config: DoubleDownConfig, ante: int) -> dict[str, Fraction]:
    """Each outcome cell's exact probability for one area under the analysis's play (pay line
    and whether it doubled), from a verified disk cache, else from :func:`analyze_double_down`
    and cached."""
    path = cache_dir() / f"frequencies-{_code_digest('exact', repr(config), str(ante))}.npz"
    cached = load_arrays(path, ("frequencies",))
    found = None if cached is None else frequencies_of(cached["frequencies"])
    if found is None:
        sheet = analyze_double_down(config, ante)
        found = sheet_frequencies(
            sheet, lambda o: f"{DDS_RESULT_LINES.get(o.hand, o.hand)} / {o.decision}"
        )
        save_arrays(path, frequencies=np.array(frequencies_text(found)))
    return found


def dds_exact_edge(config: DoubleDownConfig, ante: int) -> Fraction:
    """The exact Double Down Stud house edge per wager for one area, from a verified disk cache
    when it checks out, else from :func:`analyze_double_down` and cached."""
    path = cache_dir() / f"exact-{_code_digest('exact', repr(config), str(ante))}.npz"
    cached = load_arrays(path, ("edge",))
    edge = None if cached is None else exact_edge_of(cached["edge"])
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
    among them, in :func:`double_units`.  Computed from the exact counts of the analysis once per
    pay table, then read from a verified disk cache (a damaged file is recomputed)."""
    units = double_units(config)
    if units is None:
        raise FeltError("this pay table's odds are too fine for the fast path; use --engine")
    key = _code_digest("double", repr(config.pay_table))
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


class DoubleDownSimulation(Simulation):
    """Double Down Stud tables: each area doubles by :func:`suggest_double`, which sees the other
    areas' cards; a player offered the cut declines it (the dealer cuts)."""

    result_names = ("stand", "double")

    def max_seats(self) -> int:
        """The table's betting areas."""
        return int(self.config.areas)

    def cards_needed(self, seats: int) -> int:
        """One card to each area and four to the dealer (17.8(b))."""
        return seats + 4

    def deal_start(self) -> int:
        """Past the cut where the dealer cuts (17.4(c), the simulated player declining it); none
        after a shuffler loads the shoe (17.4(b))."""
        return DealerCut().position if self.config.cut_required else 0

    def exact_edge(self, ante: int, seats: int, log: Log | None) -> Fraction | None:
        """The exact edge with one area, whose suggested play is the analysis's optimal one
        unless the payout limit caps a win (suggest_double does not see the limit); other
        areas' cards change the play, so with more there is none."""
        return dds_exact_edge(self.config, ante) if seats == 1 else None

    def exact_frequencies(
        self, ante: int, seats: int, log: Log | None
    ) -> dict[str, Fraction] | None:
        """The outcome probabilities with one area (as :meth:`exact_edge`)."""
        return dds_exact_frequencies(self.config, ante) if seats == 1 else None

    def fast(self, log: Log | None) -> bool:
        """The fast path, unless the pay table's odds are too fine for its sums; the decision
        table is built here once, so local workers read it from the disk cache."""
        if double_units(self.config) is None:
            if log is not None:
                log(
                    "this pay table's odds are too fine for the fast path: every round runs through the round engine"
                )
            return False
        double_table(self.config)
        return True

    def fast_path(self, job: Job) -> tuple[list[str], Settle]:
        """Settlement by :func:`settle_double_down`."""
        t = tables()
        config = self.config
        names, line_of_value = _dds_lines(config)
        units = double_units(config)
        assert units is not None
        worth, unit_of_value = double_table(config), units[line_of_value]
        win = np.array([0, 0, *(_line_payout(config, n).win(job.ante) for n in names[2:])],
                       dtype=np.int64)  # fmt: skip

        def settle(decks: NDArray[np.uint8], cells: NDArray[np.int64]) -> NDArray[np.int64]:
            return settle_double_down(decks, job.seats, job.ante, worth, unit_of_value,
                                      line_of_value, win,
                                      config.payout_limit, t.card_keys, t.flush, t.row_offsets,
                                      t.values, BINOM, cells)  # fmt: skip

        return names, settle

    def new_round(self, deck: tuple[Card, ...]) -> RoundCore:
        """A Double Down Stud round on ``deck``."""
        return DoubleDownRound(self.config, deck)

    def wagers(self, seat: int, ante: int) -> list[Action]:
        """The wager (17.6)."""
        return [PlaceBet(seat, ante)]

    def choose(self, rnd: RoundCore, seat: int, election: str, strategy: Any) -> Action:
        """Decline the cut; double by :func:`suggest_double`."""
        assert isinstance(rnd, DoubleDownRound)
        if election == "cut or decline":
            return DeclineCut(seat)
        return DoubleDown(seat) if suggest_double(rnd, seat) else Stand(seat)

    def json_extra(
        self, cells: NDArray[np.int64], seat_rounds: int, counted: bool
    ) -> dict[str, Any]:
        """How often an area doubled (None on the engine path, which counts no outcomes)."""
        return {"doubles": int(cells[:, 1].sum()) / seat_rounds if counted else None}
