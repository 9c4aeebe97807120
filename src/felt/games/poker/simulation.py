"""Simulating poker tables: whole tables of simple bots playing hands through felt's own
:class:`~felt.games.poker.hand.PokerHand` (every card dealt by felt, every action checked and
recorded), to measure what a card room cares about: hands per second, the rake per hand, and that
every chip is conserved.

The players play each other, so there is no house edge to converge on: what the house keeps is the
rake.  :func:`run_table` plays one table hand after hand (stacks carried, the button moving, a
seat that runs low buying back in to the table's maximum) and checks after every step of every
hand that the stacks, the pot and the rake add up to the chips the hand started with, and after
every hand that the table's chips and the rake add up to every buy-in.  :class:`PokerSimulation`
is the same play as the shared :mod:`felt.simulate` engine path sees it: one hand on a deck, each
seat's net (the nets add up to minus the rake).

The bots (:func:`bot_action`) decide from their own cards and the legal amounts only (never
another player's cards): a random mix of folds, checks, calls, bets, raises and all-ins, a little
bolder with a pair or a high card, so hands reach every street, all-ins make side pots, and some
hands end before the flop (no flop, no drop).

>>> from felt.games.poker.config import PokerConfig, TimeRake
>>> run = run_table(PokerConfig.from_mapping({}), hands=20, seats=6, seed=1)
>>> run.hands, run.conserved, run.rake == sum(run.rakes)
(20, True, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from felt.core.cards import Card, Rank, new_deck
from felt.core.errors import FeltError
from felt.games.poker.config import PokerConfig, TimeRake
from felt.games.poker.hand import (
    AllIn,
    Award,
    Bet,
    BringIn,
    Burn,
    Call,
    Check,
    DealBoard,
    DealHole,
    Fold,
    PokerHand,
    RaiseTo,
)
from felt.games.poker.table import PokerTable
from felt.rounds.actions import Action
from felt.rounds.shuffle import SeededShuffle, Shuffler
from felt.simulate import Simulation

if TYPE_CHECKING:
    from felt.games.base import TableGame

Decide = Callable[[PokerHand, int], Action]
"""A player's decision: the action of ``seat`` on its turn in ``hand``."""


def dealer_step(hand: PokerHand) -> Action | None:
    """The dealer's next step (burn, a hole card, the board, the award), or None when it is a
    player's turn or the hand is over."""
    if hand.status != "playing" or hand.to_act() is not None:
        return None
    for step in (Burn(), DealHole(), DealBoard(), Award()):
        if hand.can(step):
            return step
    return None


def _strong(cards: Sequence[Card]) -> bool:
    """A pair among ``cards``, or a queen or better: the bots' whole idea of a good hand."""
    ranks = [c.rank for c in cards]
    return len(set(ranks)) < len(ranks) or any(r >= Rank.QUEEN for r in ranks)


def completion(hand: PokerHand, seat: int) -> Action:
    """The least bet or raise of ``seat`` now: a bet when no wager is in this round (the stud
    completion of the bring-in is one), else a raise to the least amount."""
    s = hand.state
    low = s.min_completion_betting_or_raising_to_amount or 0
    return Bet(seat, low) if max(s.bets) == 0 else RaiseTo(seat, low)


def bot_action(hand: PokerHand, seat: int, rng: random.Random) -> Action:
    """A simple bot's action on its turn, from its own cards and the legal amounts only (the
    state is read, never changed; a choice the hand would refuse falls back to check or call)."""
    s = hand.state
    low = s.min_completion_betting_or_raising_to_amount or 0
    if s.can_post_bring_in():
        complete = completion(hand, seat)
        return complete if rng.random() < 0.2 and hand.can(complete) else BringIn(seat)
    owed = s.checking_or_calling_amount or 0
    strong = _strong(hand.hole_cards(seat))
    r = rng.random()
    if r < 0.03 and hand.can(AllIn(seat)):
        return AllIn(seat)
    if r < (0.35 if strong else 0.15) and s.can_complete_bet_or_raise_to():
        high = s.max_completion_betting_or_raising_to_amount or low
        fixed = hand.config.limit == "fixed"
        amount = low if fixed or rng.random() < 0.6 else rng.randint(low, high)
        wager: Action = Bet(seat, amount) if max(s.bets) == 0 else RaiseTo(seat, amount)
        if hand.can(wager):
            return wager
    if not owed:
        return Check(seat)
    if r > (0.85 if strong else 0.7):
        return Fold(seat)
    return Call(seat)


def bots(seed: int | str) -> Decide:
    """Every seat played by :func:`bot_action` from one generator seeded by ``seed``."""
    rng = random.Random(str(seed))
    return lambda hand, seat: bot_action(hand, seat, rng)


def check_chips(hand: PokerHand) -> None:
    """Refuse a hand whose chips do not add up: the stacks, the pot and the rake are the chips
    the hand started with (every step), and no stack is negative."""
    stacks = [hand.stack(s) for s in hand.order]
    total = sum(stacks) + hand.pot() + hand.rake
    if total != sum(hand.start.values()) or min(stacks) < 0:
        raise FeltError(
            f"chips not conserved: stacks {stacks}, pot {hand.pot()}, rake {hand.rake}; the hand "
            f"began with {sum(hand.start.values())}"
        )


def play_hand(hand: PokerHand, decide: Decide, check: bool = True) -> PokerHand:
    """Play ``hand`` to its end: the dealer's steps in order, each player's turn by ``decide``;
    with ``check``, the chips checked after every step (:func:`check_chips`)."""
    while hand.status == "playing":
        step = dealer_step(hand)
        if step is None:
            seat = hand.to_act()
            if seat is None:
                raise FeltError(f"the hand stopped: allowed {hand.allowed()}")
            step = decide(hand, seat)
        hand.do(step)
        if check:
            check_chips(hand)
    return hand


@dataclass
class TableRun:
    """What one simulated table did: hands, time, the rake (cents) and the chips checks."""

    hands: int
    seats: int
    seconds: float
    bought: int
    """Every chip bought in (cents): the first buy-ins and every top-up."""
    stacks: dict[int, int]
    rakes: list[int] = field(default_factory=list)
    """Each hand's rake, in order."""
    conserved: bool = True
    steps: int = 0
    """Actions done (the dealer's and the players')."""
    time_charged: int = 0
    """The time charges collected from the seats (cents), apart from the hands' rake."""

    @property
    def rake(self) -> int:
        """The rake of every hand, cents."""
        return sum(self.rakes)

    @property
    def rake_per_hand(self) -> Fraction:
        """The rake per hand, exact cents."""
        return Fraction(self.rake, max(1, self.hands))

    @property
    def hands_per_second(self) -> float:
        """Hands played a second of wall time."""
        return self.hands / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        """The run's figures, JSON-ready (rake per hand exact as ``"n/d"`` cents)."""
        per = self.rake_per_hand
        return {"hands": self.hands, "seats": self.seats, "seconds": self.seconds,
                "hands_per_second": self.hands_per_second, "steps": self.steps,
                "rake": self.rake, "rake_per_hand": {"exact": f"{per.numerator}/{per.denominator}",
                                                     "decimal": float(per)},
                "raked_hands": sum(1 for r in self.rakes if r), "bought": self.bought,
                "time_charged": self.time_charged,
                "conserved": self.conserved}  # fmt: skip


def run_table(
    config: PokerConfig,
    hands: int,
    seats: int,
    seed: int | str = 0,
    *,
    shuffler: Shuffler | None = None,
    decide: Decide | None = None,
    check: bool = True,
    minutes_per_hand: int = 2,
) -> TableRun:
    """Play ``hands`` hands at one table of ``config`` with ``seats`` bots (seats 1 to
    ``seats``), each buying in for the table's maximum and topping up to it when its stack falls
    below the minimum buy-in; decks from ``shuffler`` (a seeded one by default).  At a table with
    a time charge, each hand is taken to last ``minutes_per_hand`` minutes and the charge is
    collected from every seat each 30 minutes of play (PokerTable.collect_time_charge).  Every
    chip is checked (see the module); a failure raises FeltError."""
    if not 2 <= seats <= config.seats or hands < 0:
        raise FeltError(f"a simulated table needs 2 to {config.seats} seats and hands >= 0")
    shuffle = shuffler or SeededShuffle(f"poker-sim:{seed}")
    decide = decide or bots(seed)
    table = PokerTable(config)
    bought = 0
    run = TableRun(0, seats, 0.0, 0, {})
    start = time.perf_counter()
    timed = isinstance(config.rake, TimeRake)
    for n in range(hands):
        if timed and n and n * minutes_per_hand % 30 == 0:
            table.collect_time_charge(dict.fromkeys(table.stacks, 30))
        for seat in range(1, seats + 1):
            stack = table.stacks.get(seat, 0)
            if stack < config.min_buy_in:
                table.buy_in(seat, config.max_buy_in - stack)
                bought += config.max_buy_in - stack
        hand = table.new_hand(shuffle.shuffle(new_deck()))
        play_hand(hand, decide, check)
        table.finish(hand)
        run.rakes.append(hand.rake)
        run.steps += len(hand.actions)
        house = table.rake_taken + table.time_taken
        if sum(table.stacks.values()) + house != bought:
            run.conserved = False
            raise FeltError(
                f"hand {table.hands_played}: the table's chips {sum(table.stacks.values())} and "
                f"the house's {house} (rake and time charges) are not the {bought} bought in"
            )
    run.seconds = time.perf_counter() - start
    run.hands = table.hands_played
    run.bought = bought
    run.stacks = dict(table.stacks)
    run.time_charged = table.time_taken
    return run


class PokerSimulation(Simulation):
    """The shared simulation's engine path for poker: a round is one hand on a deck, each seat
    starting with the table's maximum buy-in, the button on the last seat, every seat a bot; a
    seat's net is its end stack less its start (the nets add up to minus the rake)."""

    def __init__(self, config: PokerConfig, game: TableGame | None = None) -> None:
        if game is None:  # the registered poker game (Game.simulation passes itself)
            from felt.games.base import TableGame
            from felt.games.registry import game_of_config

            found = game_of_config(config)
            assert isinstance(found, TableGame)
            game = found
        super().__init__(game, config)
        self.poker: PokerConfig = config

    def max_seats(self) -> int:
        """The table's seats."""
        return self.poker.seats

    def play_round(self, deck: tuple[Card, ...], seats: int, ante: int, strategy: Any) -> list[int]:
        """One hand on ``deck`` among seats 1 to ``seats`` (at least 2), bots seeded by the deck;
        each seat's net, seat 1 first (``ante`` is not a poker wager: the blinds are the
        table's)."""
        if seats < 2:
            raise FeltError("a poker hand needs at least 2 seats")
        stacks = dict.fromkeys(range(1, seats + 1), self.poker.max_buy_in)
        hand = PokerHand(self.poker, stacks, seats, deck)
        play_hand(hand, bots("".join(str(c) for c in deck)))
        assert hand.final is not None
        return [hand.final[s] - stacks[s] for s in range(1, seats + 1)]

    def wagers(self, seat: int, ante: int) -> list[Action]:
        """A seat sits in by buying in for ``ante`` (the table's round: sitting in, then the
        hand; a stack the table carries plays on without one)."""
        from felt.games.poker.round import BuyIn

        return [BuyIn(seat, amount=ante)]
