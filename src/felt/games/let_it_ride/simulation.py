"""Simulating Let It Ride Poker (:class:`felt.simulate.Simulation`): the three wagers at each
seat, the optimal decisions (the exact analysis's tables, :func:`.analysis.decisions`, at the
simulated amount: the payout limit accounted for where it binds), and the exact edge per wager
to compare against.

The compiled fast path (:func:`settle_let_it_ride`) deals each deck exactly as the round engine
does: past the cut the simulated dealer makes on a table shuffled by hand (:class:`.actions.
CutCards`'s position; none after a shuffler), one card at a time to each seat from the dealer's
left and then to the community area, three times round, the community area's first card burned
and its second and third the community cards 1 and 2 (decisions.md 3).  Each seat lets the
first wager ride by the table of three-card hands, the second by the table of four-card hands
(and what became of the first), and its wagers left on the layout are settled on the pay
table's line of its five cards, the hand's wins held to the payout limit together (18.11), as
the round settles them.  ``tests/test_letitride_simulation.py`` checks the two paths' nets
against each other on the same decks.

The bonus wagers (18.6A, 18.6B) are not placed: they do not depend on the decisions, and the par
sheet gives their exact figures on their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numpy.typing import NDArray

from felt.core._jit import jit, jit_inline
from felt.games.base import Log
from felt.games.let_it_ride.actions import CutCards, LetItRide, TakeBack, Wagers
from felt.games.let_it_ride.analysis import (
    HANDS_3,
    HANDS_4,
    LINES,
    check_amount,
    colex,
    decisions,
    five_card_lines,
)
from felt.games.let_it_ride.config import LetItRideConfig
from felt.rounds.actions import Action
from felt.simulate import Simulation, sheet_frequencies

if TYPE_CHECKING:
    from felt.analysis.parsheet import Outcome
    from felt.games.base import TableGame
    from felt.simulate import Job
    from felt.simulate import Settle as SettleBlock

RIDING: Final = ("one wager", "two wagers", "three wagers")
"""The fast path's outcome columns: how many of the three wagers were on the layout."""
CARDS: Final = 3
"""Cards to each position, and to the community area (one burned, two community cards)."""


def pack_plan(first: NDArray[np.bool_], second: NDArray[np.bool_]) -> bytes:
    """The decision tables as :attr:`felt.simulate.Job.plan` carries them to the workers: one bit
    per three-card hand, then two per four-card hand (after the first was taken back, after it
    rode)."""
    return np.packbits(np.concatenate([first.ravel(), second.ravel()])).tobytes()


def unpack_plan(plan: bytes) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """The decision tables :func:`pack_plan` packed."""
    bits = np.unpackbits(np.frombuffer(plan, dtype=np.uint8), count=HANDS_3 + 2 * HANDS_4)
    first = bits[:HANDS_3].astype(np.bool_)
    second = bits[HANDS_3:].astype(np.bool_).reshape(HANDS_4, 2)
    return first, second


class Decisions:
    """The optimal decisions at one table and amount as the engine path asks them (the same
    tables as :func:`.strategy.should_ride`, from the job's plan)."""

    def __init__(self, first: NDArray[np.bool_], second: NDArray[np.bool_]) -> None:
        self.first = first
        self.second = second

    def __call__(self, cards: Sequence[int], first_rides: bool) -> bool:
        """Whether the wager being decided on ``cards`` (three, or four with community card 1)
        rides."""
        if len(cards) == 3:
            return bool(self.first[colex(cards)])
        return bool(self.second[colex(cards), int(first_rides)])


# ------------------------------------------------------------------------------ compiled path
@jit_inline
def _sorted_colex(
    h: NDArray[np.int64], n: int, binom: NDArray[np.int64]
) -> int:  # pragma: no cover - compiled
    """Sort the first ``n`` cards of ``h`` in place and return their colex index."""
    for i in range(1, n):
        x = h[i]
        j = i - 1
        while j >= 0 and h[j] > x:
            h[j + 1] = h[j]
            j -= 1
        h[j + 1] = x
    index = 0
    for i in range(n):
        index += binom[h[i], i + 1]
    return int(index)


@jit
def settle_let_it_ride(
    decks: NDArray[np.uint8],
    seats: int,
    cut: int,
    first: NDArray[np.bool_],
    second: NDArray[np.bool_],
    lines: NDArray[np.uint8],
    nets: NDArray[np.int64],
    binom: NDArray[np.int64],
    cells: NDArray[np.int64],
) -> NDArray[np.int64]:  # pragma: no cover - compiled
    """Let It Ride rounds with the three wagers at each seat: net cents of each seat in each
    round (shape (rounds, seats)), each seat's final hand counted in ``cells[0, line, riding -
    1]``.

    The deal reads the deck from ``cut`` on (round the end of the deck), one card to each seat
    and then to the community area, three times round; the community area's first card is
    burned, its second and third are community cards 1 and 2.  A seat lets the first wager ride
    where ``first`` says (by its three cards' colex index), the second where ``second`` says (by
    the four cards with community card 1, and the first decision); its wagers riding then net
    ``nets[line, riding - 1]`` on the line ``lines`` gives its five cards."""
    rounds = decks.shape[0]
    out = np.zeros((rounds, seats), dtype=np.int64)
    stride = seats + 1
    hand = np.empty(5, dtype=np.int64)
    for r in range(rounds):
        c1 = decks[r, (cut + stride + seats) % 52]
        c2 = decks[r, (cut + 2 * stride + seats) % 52]
        for s in range(seats):
            for i in range(3):
                hand[i] = decks[r, (cut + i * stride + s) % 52]
            d1 = 1 if first[_sorted_colex(hand, 3, binom)] else 0
            hand[3] = c1
            d2 = 1 if second[_sorted_colex(hand, 4, binom), d1] else 0
            hand[4] = c2
            line = lines[_sorted_colex(hand, 5, binom)]
            riding = 1 + d1 + d2
            out[r, s] = nets[line, riding - 1]
            cells[0, line, riding - 1] += 1
    return out


def _cell_of(outcome: Outcome) -> str:
    """The outcome cell (``"line / riding"``) of a par sheet outcome."""
    return f"{outcome.hand} / {RIDING[int(outcome.wagered) - 1]}"


class LetItRideSimulation(Simulation):
    """Each seat places the three wagers of the base amount and plays the optimal decisions; the
    compiled fast path plays every table."""

    result_names = RIDING

    def __init__(self, game: TableGame, config: LetItRideConfig) -> None:
        super().__init__(game, config)

    # ------------------------------------------------------------------ the table and the deal
    def cut(self) -> int:
        """Where the simulated dealer cuts a deck shuffled by hand: the engine's cut step as the
        round proposes it (:class:`.actions.CutCards`, 18.5); 0 after a shuffler, which deals
        uncut."""
        return CutCards().position if self.config.cut_required else 0

    def cards_needed(self, seats: int) -> int:
        """The cards above the cut and the three each seat and the community area take, the whole
        deck when the deal runs past its end."""
        return min(52, self.cut() + CARDS * (seats + 1))

    # ------------------------------------------------------------------ exact figures and plan
    def plan(self, ante: int, log: Log | None) -> bytes | None:
        """The decision tables at ``ante``, packed for the workers."""
        d = decisions(self.config, ante)
        return pack_plan(d.first, d.second)

    def _tables(self, job: Job) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        if job.plan is None:
            d = decisions(self.config, job.ante)
            return d.first, d.second
        return unpack_plan(job.plan)

    def exact_edge(self, ante: int, seats: int, log: Log | None) -> Fraction | None:
        """The exact house edge per wager (any number of seats: each plays the community cards
        and its own three alone; the play is the exact analysis's)."""
        from felt.games.let_it_ride.analysis import analyze

        return Fraction(analyze(self.config, ante, log).house_edge_ante)

    def exact_frequencies(
        self, ante: int, seats: int, log: Log | None
    ) -> dict[str, Fraction] | None:
        """Each fast-path cell's exact probability per seat and round, from the par sheet's
        outcomes (any number of seats: each seat's cards and the community cards are a uniform
        deal)."""
        from felt.games.let_it_ride.analysis import analyze

        return sheet_frequencies(analyze(self.config, ante, log), _cell_of)

    # ------------------------------------------------------------------ the fast path
    def fast(self, log: Log | None) -> bool:
        """Every table runs on the fast path (the three wagers alone)."""
        return True

    def fast_path(self, job: Job) -> tuple[list[str], SettleBlock]:
        """Settlement by :func:`settle_let_it_ride`, deciding by the job's tables."""
        from felt.analysis.kernels import BINOM
        from felt.games.let_it_ride.analysis import net_table

        amount = check_amount(self.config, job.ante)
        first, second = self._tables(job)
        nets = np.array(net_table(self.config, amount), dtype=np.int64)
        lines = five_card_lines()
        cut = self.cut()

        def settle(decks: NDArray[np.uint8], cells: NDArray[np.int64]) -> NDArray[np.int64]:
            return settle_let_it_ride(decks, job.seats, cut, first, second, lines, nets, BINOM,
                                      cells)  # fmt: skip

        return list(LINES), settle

    # ------------------------------------------------------------------ the engine path
    def wagers(self, seat: int, ante: int) -> list[Action]:
        """The three wagers of ``ante`` each, no bonus wager."""
        return [Wagers(seat, ante)]

    def strategy(self, job: Job) -> Decisions:
        """The optimal decisions at the job's amount, from its plan."""
        return Decisions(*self._tables(job))

    def choose(self, rnd: Any, seat: int, election: str, strategy: Any) -> Action:
        """Let it ride or take back by ``strategy`` (:class:`Decisions`), or by the game's
        suggested play when it is None."""
        if strategy is None:
            return super().choose(rnd, seat, election, strategy)
        from felt.games.let_it_ride.game import ELECTION_WAGERS

        wager = ELECTION_WAGERS[election]
        spot = rnd.seats[seat]
        cards = [int(c) for c in [*spot.cards, *rnd.community_up[: wager - 1]]]
        first_rides = spot.decisions.get("first") == "let it ride"
        return LetItRide(seat, wager) if strategy(cards, first_rides) else TakeBack(seat, wager)

    def json_extra(
        self, cells: NDArray[np.int64], seat_rounds: int, counted: bool
    ) -> dict[str, Any]:
        """The wagers left on the layout per seat and round (None on the engine path, which
        counts no outcomes)."""
        if not counted:
            return {"wagers_riding": None}
        riding = sum(int(cells[:, k].sum()) * (k + 1) for k in range(len(RIDING)))
        return {"wagers_riding": riding / seat_rounds}
