"""Simulating Caribbean Stud Poker (:class:`felt.simulate.Simulation`): a compiled fast path for
the ante alone, and the engine path with the suggested play (the exact strategy's bet or fold),
an ante at each seat, and the exact edge per ante from the analysis to compare against.

The fast path (:func:`settle_caribbean`) deals each deck exactly as the round engine does: past
the cut the simulated dealer makes on a table shuffled by hand (:class:`.actions.CutCards`'s
position; none after a shuffler, 16.4(b)), one card at a time to each seat from the dealer's left
and then to the dealer, five times round, the dealer's last card face up; it bets or folds by the
same table as :class:`Decisions` (the suits renamed in compiled code as the analysis's classes
name them) and settles by the same rules and payout limit as the round.
``tests/test_caribbean_simulation.py`` checks the two paths' nets against each other on the same
decks.

The simulation keeps a progressive meter of its own, starting at the table's seed, as the
command line's session does: the settlement carries it as it stands (19:47-16.11), and the meter
takes what each round moved on and off it.  ``felt simulate`` places the ante alone, so what it
observes is the par sheet's ante-and-bet edge and the meter only stands at the seed; a simulation
built with ``progressive=True`` places the table's progressive wager at every seat too (its
payouts then come off the running meter, no exact edge is claimed for the mix, and every round
runs through the round engine).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numpy.typing import NDArray

from felt.core._jit import jit, jit_inline
from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.core.tables import cache_dir, load_arrays, save_arrays, source_digest
from felt.games.base import Log
from felt.games.caribbean_stud.actions import Bet, CutCards, Fold, Settle, Wagers
from felt.games.caribbean_stud.config import CaribbeanConfig
from felt.games.caribbean_stud.round import CARDS, CaribbeanRound
from felt.rounds.actions import Action
from felt.rounds.engine import PROGRESSIVE
from felt.simulate import FOLDS, Simulation, frequencies_of, frequencies_text, sheet_frequencies

if TYPE_CHECKING:
    from felt.analysis.parsheet import Outcome
    from felt.games.base import TableGame
    from felt.simulate import Job
    from felt.simulate import Settle as SettleBlock

HANDS_OF_FIVE: Final = 2_598_960
"""Five-card hands: the colex indices the compiled look-ups read."""


def _digest(config: CaribbeanConfig, ante: int, what: str) -> str:
    """Digest of the code a cached decision table or frequency list derives from (this module,
    the analysis and its kernel, the hand tables) and what of the table it depends on."""
    here = Path(__file__).parent
    core = here.parent.parent / "core"
    salt = f"{what}|{config.bet_pays!r}|{config.payout_limit}|{ante}"
    return source_digest(Path(__file__), here / "analysis.py", here / "_kernel.py",
                         core / "tables.py", core / "ranking.py", salt=salt, length=24)  # fmt: skip


def decision_table(
    config: CaribbeanConfig, ante: int, log: Log | None = None
) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
    """The optimal bet (True) or fold of every suit class of the player's hand (rows) against
    every up card (columns 0-51), and each class's colex index (:attr:`.analysis.Counts.colex`):
    the bet's result over the 163,185 dealer hands against the ante forfeited, ties folding.
    Counted once (:func:`.analysis.counts`), then read from a verified disk cache."""
    path = cache_dir() / f"caribbean-decisions-{_digest(config, ante, 'decisions')}.npz"
    cached = load_arrays(path, ("plays", "colex"))
    if (
        cached is not None
        and cached["plays"].dtype == np.bool_
        and cached["plays"].ndim == 2
        and cached["plays"].shape[1] == 52
        and cached["colex"].shape == (cached["plays"].shape[0],)
        and cached["colex"].dtype == np.int64
    ):
        return cached["plays"].astype(np.bool_), cached["colex"].astype(np.int64)
    from felt.games.caribbean_stud import analysis

    k = analysis.counts(log)
    bet = analysis._bet_value(
        k, ante, analysis.bet_wins(config, ante), analysis.ante_win(config, ante)
    )
    plays: NDArray[np.bool_] = bet > -analysis.DEALER_HANDS * ante
    colex = np.asarray(k.colex, dtype=np.int64)
    save_arrays(path, plays=plays, colex=colex)
    return plays, colex


def pack_plan(plays: NDArray[np.bool_], colex: NDArray[np.int64]) -> bytes:
    """A decision table as :attr:`felt.simulate.Job.plan` carries it to the workers: the class
    count, the classes' colex indices (32 bits), the decisions one bit each."""
    n = np.array([len(colex)], dtype="<i4")
    bits = np.packbits(plays.ravel())
    return n.tobytes() + colex.astype("<i4").tobytes() + bits.tobytes()


def unpack_plan(plan: bytes) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
    """The decision table :func:`pack_plan` packed."""
    n = int(np.frombuffer(plan[:4], dtype="<i4")[0])
    colex = np.frombuffer(plan[4 : 4 + 4 * n], dtype="<i4").astype(np.int64)
    bits = np.frombuffer(plan[4 + 4 * n :], dtype=np.uint8)
    plays = np.unpackbits(bits, count=n * 52).astype(np.bool_).reshape(n, 52)
    return plays, colex


class Decisions:
    """The optimal bet or fold of every situation (the player's five cards, the dealer's up
    card) at one table and ante, read from the exact count's table (:func:`decision_table`: the
    same numbers :func:`.strategy.should_bet` counts for one situation at a time, some 45 ms
    each), so a simulated decision is a look-up.  Ties between betting and folding fold, as
    there."""

    def __init__(
        self,
        config: CaribbeanConfig,
        ante: int,
        table: tuple[NDArray[np.bool_], NDArray[np.int64]] | None = None,
    ) -> None:
        from felt.games.caribbean_stud import analysis

        plays, colex = decision_table(config, ante) if table is None else table
        self.plays: NDArray[np.bool_] = plays
        self.colex = colex
        self.rows = {int(c): i for i, c in enumerate(colex)}
        self.canonical = analysis._canonical

    def __call__(self, hand: Sequence[int], up: int) -> bool:
        """Whether the optimal strategy bets ``hand`` against the face-up card ``up``."""
        cards, card = self.canonical(hand, up)
        index = sum(math.comb(c, i + 1) for i, c in enumerate(cards))
        return bool(self.plays[self.rows[index], card])

    def row_of_colex(self) -> NDArray[np.int32]:
        """Every five-card hand's colex index to its class's row, -1 for a hand that is not its
        class's canonical one (what the compiled look-up reads)."""
        out = np.full(HANDS_OF_FIVE, -1, dtype=np.int32)
        out[self.colex] = np.arange(len(self.colex), dtype=np.int32)
        return out


# ------------------------------------------------------------------------------ compiled path
@jit_inline
def _sort5(h: NDArray[np.int64]) -> None:  # pragma: no cover - compiled
    """Sort five cards in place, ascending."""
    for i in range(1, 5):
        x = h[i]
        j = i - 1
        while j >= 0 and h[j] > x:
            h[j + 1] = h[j]
            j -= 1
        h[j + 1] = x


@jit_inline
def _colex5(h: NDArray[np.int64], binom: NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """Colex index of five ascending cards."""
    return int(binom[h[0], 1] + binom[h[1], 2] + binom[h[2], 3] + binom[h[3], 4] + binom[h[4], 5])


@jit_inline
def _rename_suits(
    h: NDArray[np.int64],
    new: NDArray[np.int64],
    masks: NDArray[np.int64],
    order: NDArray[np.int64],
) -> None:  # pragma: no cover - compiled
    """The suit renaming of :func:`.analysis._canonical` for the hand ``h``: ``new[old]`` is the
    new suit, suits taken by decreasing rank mask, equal masks in suit order (a stable sort)."""
    for s in range(4):
        masks[s] = 0
    for i in range(5):
        masks[h[i] & 3] |= 1 << (h[i] >> 2)
    for s in range(4):
        order[s] = s
    for i in range(1, 4):
        x = order[i]
        j = i - 1
        while j >= 0 and masks[order[j]] < masks[x]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = x
    for i in range(4):
        new[order[i]] = i


@jit
def settle_caribbean(
    decks: NDArray[np.uint8],
    seats: int,
    cut: int,
    ante: int,
    ante_won: int,
    bet_won: NDArray[np.int64],
    values: NDArray[np.uint16],
    name_of_value: NDArray[np.int64],
    qualifier: int,
    plays: NDArray[np.bool_],
    row_of: NDArray[np.int32],
    binom: NDArray[np.int64],
    cells: NDArray[np.int64],
) -> NDArray[np.int64]:  # pragma: no cover - compiled
    """Caribbean Stud rounds with the ante alone: net cents of each seat in each round (shape
    (rounds, seats)), each seat's outcome counted in ``cells`` (lines: the player's hand
    winning against a qualifying dealer by ``name_of_value``, then the dealer not qualifying, a
    push, the dealer winning; folds in ``cells[0, 0, 3]``).

    The deal reads the deck from ``cut`` on (round the end of the deck), one card to each seat
    and then to the dealer, five times round; the dealer's fifth card is the up card.  A seat
    bets where ``plays`` says (its class's row by ``row_of``, the up card's suit renamed as the
    hand's), else folds the ante (16.1 "Fold").  A dealer below ``qualifier`` (A-K-4-3-2, 16.1
    "Qualifying hand") pays the ante (``ante_won``) and pushes the bet; a qualifying dealer
    beaten pays the ante and the bet (``bet_won`` by hand name, both already held to the payout
    limit as the round holds them), an exact tie pushes, a higher dealer takes the ante and the
    bet (three antes)."""
    rounds = decks.shape[0]
    nets = np.zeros((rounds, seats), dtype=np.int64)
    stride = seats + 1
    dealer = np.empty(5, dtype=np.int64)
    hand = np.empty(5, dtype=np.int64)
    new = np.empty(4, dtype=np.int64)
    masks = np.empty(4, dtype=np.int64)
    order = np.empty(4, dtype=np.int64)
    paid = name_of_value.max() + 1
    for r in range(rounds):
        for i in range(5):
            dealer[i] = decks[r, (cut + i * stride + seats) % 52]
        up = dealer[4]
        _sort5(dealer)
        dv = int(values[_colex5(dealer, binom)])
        for s in range(seats):
            for i in range(5):
                hand[i] = decks[r, (cut + i * stride + s) % 52]
            _rename_suits(hand, new, masks, order)
            for i in range(5):
                hand[i] = (hand[i] & ~3) | new[hand[i] & 3]
            _sort5(hand)
            index = _colex5(hand, binom)
            if not plays[row_of[index], (up & ~3) | new[up & 3]]:
                nets[r, s] = -ante
                cells[0, 0, 3] += 1
                continue
            pv = int(values[index])  # the suits renamed keep the hand's value
            if dv < qualifier:
                nets[r, s] = ante_won
                cells[0, paid, 0] += 1
            elif pv > dv:
                name = name_of_value[pv]
                nets[r, s] = ante_won + bet_won[name]
                cells[0, name, 0] += 1
            elif pv == dv:
                cells[0, paid + 1, 0] += 1
            else:
                nets[r, s] = -3 * ante
                cells[0, paid + 2, 0] += 1
    return nets


LINES: Final = ("dealer does not qualify", "push", "dealer wins")
"""The fast path's outcome lines after the player's winning hands."""


def _line_of(outcome: Outcome) -> str:
    """The outcome cell (``"line / bet"``, or :data:`FOLDS`) of a par sheet outcome."""
    if outcome.decision == "fold":
        return FOLDS
    line = f"player wins, {outcome.hand}" if outcome.result == "player wins" else outcome.result
    return f"{line} / bet"


class CaribbeanSimulation(Simulation):
    """Each seat antes the base wager (with ``progressive``, the progressive wager besides),
    the optimal play decides, the simulation's meter settles; the ante alone runs on the
    compiled fast path."""

    result_names = ("bet",)

    def __init__(self, game: TableGame, config: CaribbeanConfig, progressive: bool = False) -> None:
        super().__init__(game, config)
        settings = config.progressive
        if progressive and settings is None:
            raise FeltError("this table offers no progressive wager to simulate")
        self.progressive = progressive
        self.meter: int | None = None if settings is None else settings.seed
        """The simulation's meter (None: the table has no progressive), from the seed."""

    # ------------------------------------------------------------------ the table and the deal
    def cut(self) -> int:
        """Where the simulated dealer cuts a deck shuffled by hand: the engine's cut step as the
        round proposes it (:class:`.actions.CutCards`, 16.4(c)1); 0 after a shuffler, which
        deals uncut (16.4(b))."""
        return CutCards().position if self.config.cut_required else 0

    def cards_needed(self, seats: int) -> int:
        """The cards above the cut and the five each seat and the dealer take (16.1 "Hand"),
        the whole deck when the deal runs past its end."""
        return min(52, self.cut() + CARDS * (seats + 1))

    # ------------------------------------------------------------------ exact figures and plan
    def plan(self, ante: int, log: Log | None) -> bytes | None:
        """The decision table (:func:`decision_table`), packed for the workers."""
        return pack_plan(*decision_table(self.config, ante, log))

    def _table(self, job: Job) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
        return decision_table(self.config, job.ante) if job.plan is None else unpack_plan(job.plan)

    def exact_edge(self, ante: int, seats: int, log: Log | None) -> Fraction | None:
        """The exact ante-and-bet house edge per ante (any number of seats: each plays against
        the dealer alone; the suggested play is the exact analysis's optimal one); None, and
        ``log`` hears why, when the progressive wager is simulated besides."""
        if self.progressive:
            if log is not None:
                log("the progressive wager is simulated besides the ante: no exact edge to "
                    "compare with (its return depends on the meter)")  # fmt: skip
            return None
        from felt.games.caribbean_stud.analysis import analyze

        return Fraction(analyze(self.config, ante, log).house_edge_ante)

    def exact_frequencies(
        self, ante: int, seats: int, log: Log | None
    ) -> dict[str, Fraction] | None:
        """Each fast-path cell's exact probability per seat and round, from the par sheet's
        outcomes (any number of seats: each seat's cards and the dealer's are a uniform deal);
        None with the progressive wager simulated."""
        if self.progressive:
            return None
        path = cache_dir() / f"caribbean-frequencies-{_digest(self.config, ante, 'freq')}.npz"
        cached = load_arrays(path, ("frequencies",))
        found = None if cached is None else frequencies_of(cached["frequencies"])
        if found is None:
            from felt.games.caribbean_stud.analysis import analyze

            found = sheet_frequencies(analyze(self.config, ante, log), _line_of)
            save_arrays(path, frequencies=np.array(frequencies_text(found)))
        return found

    # ------------------------------------------------------------------ the fast path
    def fast(self, log: Log | None) -> bool:
        """The fast path for the ante alone; with the progressive wager simulated, whose payouts
        come off a meter carried from round to round, the round engine plays every round."""
        if self.progressive:
            if log is not None:
                log("the progressive wager is simulated: every round runs through the round "
                    "engine")  # fmt: skip
            return False
        return True

    def fast_path(self, job: Job) -> tuple[list[str], SettleBlock]:
        """Settlement by :func:`settle_caribbean`, deciding by the job's decision table."""
        from felt.analysis.kernels import BINOM, five_card_values
        from felt.games.caribbean_stud import analysis

        config = self.config
        names = [f"player wins, {name}" for name in analysis.NAMES] + list(LINES)
        plays, colex = self._table(job)
        row_of = Decisions(config, job.ante, (plays, colex)).row_of_colex()
        values = five_card_values()
        name_of_value = analysis._name_of_value()
        qualifier = analysis.qualifier_value()
        bet_won = np.array(analysis.bet_wins(config, job.ante), dtype=np.int64)
        ante_won = analysis.ante_win(config, job.ante)
        cut = self.cut()

        def settle(decks: NDArray[np.uint8], cells: NDArray[np.int64]) -> NDArray[np.int64]:
            return settle_caribbean(decks, job.seats, cut, job.ante, ante_won, bet_won, values,
                                    name_of_value, qualifier, plays, row_of, BINOM,
                                    cells)  # fmt: skip

        return names, settle

    # ------------------------------------------------------------------ the engine path
    def wagers(self, seat: int, ante: int) -> list[Action]:
        """The ante, and the progressive wager of the table's one amount when simulating it."""
        settings = self.config.progressive
        extra = settings.wager if self.progressive and settings is not None else 0
        return [Wagers(seat, ante, extra)]

    def strategy(self, job: Job) -> Decisions:
        """The optimal decisions at the job's ante, from its plan (else the exact count)."""
        return Decisions(self.config, job.ante, self._table(job))

    def choose(self, rnd: Any, seat: int, election: str, strategy: Any) -> Action:
        """Bet or fold by ``strategy`` (:class:`Decisions`), or by the game's suggested play
        when it is None."""
        if strategy is None:
            return super().choose(rnd, seat, election, strategy)
        assert isinstance(rnd, CaribbeanRound)
        assert rnd.up_card is not None
        cards = [int(c) for c in rnd.seats[seat].cards]
        return Bet(seat) if strategy(cards, int(rnd.up_card)) else Fold(seat)

    def meter_now(self, rnd: CaribbeanRound) -> int | None:
        """The meter as it stands during ``rnd``: the simulation's, with the round's
        contributions so far."""
        return None if self.meter is None else self.meter + rnd.ledger.balance(PROGRESSIVE)

    def play_round(self, deck: tuple[Card, ...], seats: int, ante: int, strategy: Any) -> list[int]:
        """One round on ``deck`` through the round engine, as :meth:`Simulation.play_round`, the
        settlement carrying the simulation's meter; the meter then takes what the round moved on
        and off it.  Each seat's net, seat 1 first."""
        rnd = self.new_round(deck)
        assert isinstance(rnd, CaribbeanRound)
        for seat in range(1, seats + 1):
            for action in self.wagers(seat, ante):
                rnd.apply(action)
        while not rnd.finished:
            step = rnd.next_dealer_action()
            if isinstance(step, Settle):
                step = Settle(meter=self.meter_now(rnd))
            if step is not None:
                rnd.apply(step)
                continue
            pending = rnd.pending()
            if not pending:
                raise FeltError("caribbean_stud: a simulated round stopped unfinished")
            seat, election = pending[0]
            rnd.apply(self.choose(rnd, seat, election, strategy))
        if self.meter is not None:
            self.meter += rnd.ledger.balance(PROGRESSIVE)
        return [rnd.net(seat) for seat in range(1, seats + 1)]

    def json_extra(
        self, cells: NDArray[np.int64], seat_rounds: int, counted: bool
    ) -> dict[str, Any]:
        """How often a seat bet (None on the engine path, which counts no outcomes)."""
        return {"bets": int(cells[:, 0].sum()) / seat_rounds if counted else None}
