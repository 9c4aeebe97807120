"""A poker table: seats with stacks carried from hand to hand, buy-ins and cash-outs between
hands within the table's limits, the button, the hands played and the rake taken.

>>> from felt.core.cards import new_deck
>>> from felt.games.poker.config import PokerConfig
>>> table = PokerTable(PokerConfig.from_mapping({}))
>>> table.buy_in(2, 10_000); table.buy_in(5, 10_000)
>>> hand = table.new_hand(list(new_deck()))
>>> hand.button, table.hands_played
(2, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.games.poker.config import PokerConfig, TimeRake
from felt.games.poker.hand import PokerHand


@dataclass(frozen=True)
class TimeCharge:
    """One seat's time charge collected between hands (14.14, poker revenue): the minutes it
    paid for, the cents moved from its stack to the house, and any part its stack could not
    cover (not collected)."""

    seat: int
    minutes: int
    cents: int
    short: int = 0


class PokerTable:
    """The seats (seat -> stack in cents), the button, the hand in play and the totals."""

    def __init__(self, config: PokerConfig) -> None:
        self.config = config
        self.stacks: dict[int, int] = {}
        self.button = 0
        self.hand: PokerHand | None = None
        self.hands_played = 0
        self.rake_taken = 0
        self.time_taken = 0
        """The time charges collected (cents), apart from the hands' rake."""
        self.time_charges: list[TimeCharge] = []

    def _between_hands(self, what: str) -> None:
        if self.hand is not None:
            raise FeltError(f"{what}: only between hands (a hand is in play)")

    def buy_in(self, seat: int, amount: int) -> None:
        """Take ``seat`` with ``amount`` cents, or add on to its stack: the stack after it must
        be from the table's minimum to its maximum buy-in."""
        self._between_hands("buy-in")
        if not 1 <= seat <= self.config.seats:
            raise FeltError(f"buy-in: seats are 1 to {self.config.seats}, got {seat}")
        low, high = self.config.min_buy_in, self.config.max_buy_in
        after = self.stacks.get(seat, 0) + amount
        if amount <= 0 or not low <= after <= high:
            raise FeltError(
                f"buy-in: seat {seat}'s stack would be {dollars(after)}; it must be from "
                f"{dollars(low)} to {dollars(high)} (adding {dollars(amount)})"
            )
        self.stacks[seat] = after

    def cash_out(self, seat: int) -> int:
        """``seat`` leaves with its whole stack (returned, cents)."""
        self._between_hands("cash-out")
        if seat not in self.stacks:
            raise FeltError(f"cash-out: seat {seat} is empty")
        return self.stacks.pop(seat)

    def new_hand(self, deck: Sequence[Card]) -> PokerHand:
        """The next hand with every seat holding chips, the button moved to the next of them
        clockwise (stud deals without a button: the low card brings it in)."""
        self._between_hands("new hand")
        seats = sorted(s for s, stack in self.stacks.items() if stack > 0)
        if len(seats) < 2:
            raise FeltError(f"a hand needs 2 players with chips, the table has {len(seats)}")
        later = [s for s in seats if s > self.button]
        self.button = later[0] if later else seats[0]
        self.hand = PokerHand(self.config, {s: self.stacks[s] for s in seats}, self.button, deck)
        return self.hand

    def finish(self, hand: PokerHand) -> None:
        """Carry the finished hand's stacks and rake to the table."""
        if hand is not self.hand:
            raise FeltError("finish: not the hand in play at this table")
        if hand.final is None:
            raise FeltError(f"finish: the hand is not over (allowed: {'; '.join(hand.allowed())})")
        self.stacks.update(hand.final)
        self.rake_taken += hand.rake
        self.hands_played += 1
        self.hand = None

    def collect_time_charge(self, seat_minutes: Mapping[int, int]) -> dict[int, int]:
        """Collect the time charge (a table whose rake is ``kind = "time"``) between hands: each
        seat pays ``per_half_hour`` for every 30 of the minutes it was seated since the last
        collection, pro rata and rounded down to the cent, at most its stack; the cents move
        from the stacks to the house (``time_taken``) and each is recorded (``time_charges``).
        Returns the cents taken per seat; a refusal changes nothing."""
        rake = self.config.rake
        if not isinstance(rake, TimeRake):
            raise FeltError("time charge: this table's rake is a percentage of the pot, not time")
        self._between_hands("time charge")
        for seat, minutes in seat_minutes.items():
            if seat not in self.stacks:
                seated = ", ".join(map(str, sorted(self.stacks))) or "none"
                raise FeltError(f"time charge: seat {seat} is empty (seated: {seated})")
            if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
                raise FeltError(
                    f"time charge: seat {seat}'s minutes must be a whole number from 0, "
                    f"got {minutes!r}"
                )
        taken: dict[int, int] = {}
        for seat, minutes in sorted(seat_minutes.items()):
            due = rake.per_half_hour * minutes // 30
            cents = min(due, self.stacks[seat])
            self.stacks[seat] -= cents
            self.time_taken += cents
            self.time_charges.append(TimeCharge(seat, minutes, cents, due - cents))
            taken[seat] = cents
        return taken
