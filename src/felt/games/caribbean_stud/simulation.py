"""Simulating Caribbean Stud Poker (:class:`felt.simulate.Simulation`): no compiled fast path;
every round is played through the round engine with the suggested play (the exact strategy's bet
or fold), an ante at each seat, and the exact edge per ante from the analysis to compare against.

The simulation keeps a progressive meter of its own, starting at the table's seed, as the
command line's session does: the settlement carries it as it stands (19:47-16.11), and the meter
takes what each round moved on and off it.  ``felt simulate`` places the ante alone, so what it
observes is the par sheet's ante-and-bet edge and the meter only stands at the seed; a simulation
built with ``progressive=True`` places the table's progressive wager at every seat too (its
payouts then come off the running meter, and no exact edge is claimed for the mix).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.games.base import Log
from felt.games.caribbean_stud.actions import Bet, Fold, Settle, Wagers
from felt.games.caribbean_stud.config import CaribbeanConfig
from felt.games.caribbean_stud.round import CaribbeanRound
from felt.rounds.actions import Action
from felt.rounds.engine import PROGRESSIVE
from felt.simulate import Simulation

if TYPE_CHECKING:
    from felt.games.base import TableGame
    from felt.simulate import Job


class Decisions:
    """The optimal bet or fold of every situation (the player's five cards, the dealer's up
    card) at one table and ante, read from the exact count's table (:mod:`.analysis`: the same
    numbers :func:`.strategy.should_bet` counts for one situation at a time, some 45 ms each),
    so a simulated decision is a look-up.  Ties between betting and folding fold, as there."""

    def __init__(self, config: CaribbeanConfig, ante: int) -> None:
        from felt.games.caribbean_stud import analysis

        k = analysis.counts()
        bet = analysis._bet_value(
            k, ante, analysis.bet_wins(config, ante), analysis.ante_win(config, ante)
        )
        self.plays: NDArray[np.bool_] = bet > -analysis.DEALER_HANDS * ante
        self.rows = {int(c): i for i, c in enumerate(k.colex)}
        self.canonical = analysis._canonical

    def __call__(self, hand: Sequence[int], up: int) -> bool:
        """Whether the optimal strategy bets ``hand`` against the face-up card ``up``."""
        cards, card = self.canonical(hand, up)
        index = sum(math.comb(c, i + 1) for i, c in enumerate(cards))
        return bool(self.plays[self.rows[index], card])


class CaribbeanSimulation(Simulation):
    """The engine path: each seat antes the base wager (with ``progressive``, the progressive
    wager besides), the suggested play decides, the simulation's meter settles."""

    def __init__(self, game: TableGame, config: CaribbeanConfig, progressive: bool = False) -> None:
        super().__init__(game, config)
        settings = config.progressive
        if progressive and settings is None:
            raise FeltError("this table offers no progressive wager to simulate")
        self.progressive = progressive
        self.meter: int | None = None if settings is None else settings.seed
        """The simulation's meter (None: the table has no progressive), from the seed."""

    def wagers(self, seat: int, ante: int) -> list[Action]:
        """The ante, and the progressive wager of the table's one amount when simulating it."""
        settings = self.config.progressive
        extra = settings.wager if self.progressive and settings is not None else 0
        return [Wagers(seat, ante, extra)]

    def strategy(self, job: Job) -> Decisions:
        """The optimal decisions at the job's ante, from the exact count (once per worker)."""
        return Decisions(self.config, job.ante)

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

        return Fraction(analyze(self.config, ante).house_edge_ante)
