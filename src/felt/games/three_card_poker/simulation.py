"""Simulating Three Card Poker (:class:`felt.simulate.Simulation`): no compiled fast path; every
round is played through the round engine with the suggested play (Q-6-4 or better), an ante at
each seat, and the exact edge per ante from the analysis to compare against."""

from __future__ import annotations

from fractions import Fraction

from felt.games.base import Log
from felt.games.three_card_poker.actions import Wagers
from felt.rounds.actions import Action
from felt.simulate import Simulation


class ThreeCardSimulation(Simulation):
    """The engine path: each seat antes the base wager (no pair plus wager, so the observed
    edge is the ante-play edge the par sheet gives per ante)."""

    def wagers(self, seat: int, ante: int) -> list[Action]:
        """The ante alone."""
        return [Wagers(seat, ante)]

    def exact_edge(self, ante: int, seats: int, log: Log | None) -> Fraction | None:
        """The exact ante-play house edge per ante (any number of seats: each seat plays
        against the dealer alone) when the suggested play is the table's optimal play, as it is
        at the minimum tables; None (and ``log`` hears why) when richer pay tables make another
        rule optimal."""
        from felt.games.three_card_poker.analysis import analyze, counts, optimal_plays
        from felt.games.three_card_poker.strategy import should_play

        suggested = [should_play([int(c) for c in row]) for row in counts().cards]
        if list(optimal_plays(self.config, ante)) != suggested:
            if log is not None:
                log("the suggested play (Q-6-4 or better) is not this table's optimal play: "
                    "no exact edge to compare with")  # fmt: skip
            return None
        return Fraction(analyze(self.config, ante).house_edge_ante)
