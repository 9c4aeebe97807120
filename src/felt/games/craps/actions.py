"""The actions of craps: a player's wager on a spot, taking it down, calling it on or off, the
shooter passing the dice; the dealer's "no more bets", the roll, and an invalid roll.

Scripts and the API name them as every game does: ``{"seat": 2, "action": "bet", "spot":
"place_6", "amount": "12.00"}``, ``{"dealer": "roll", "die1": 3, "die2": 4}``,
``{"irregularity": "invalid_roll"}``; :func:`parse_action` reads one and
:meth:`~felt.rounds.actions.Action.to_json` writes it back.

>>> parse_action({"seat": 1, "action": "bet", "spot": "pass", "amount": "10"}, "x")
Bet(seat=1, spot='pass', amount=1000, player=None)
>>> Roll(3, 4).to_json()
{'dealer': 'roll', 'die1': 3, 'die2': 4}
>>> Roll().to_json()
{'dealer': 'roll'}
>>> parse_action({"seat": 3, "action": "take_down", "spot": "place_6"}, "x")
TakeDown(seat=3, spot='place_6', amount=None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from felt.rounds.actions import (
    Action,
    DealerAction,
    Irregularity,
    PlayerAction,
    action_from_json,
)


@dataclass(frozen=True)
class Bet(PlayerAction):
    """Chips of ``amount`` on ``spot`` (a :mod:`~felt.games.craps.spots` id), added to the
    player's wager there if there is one: only while wagers are taken, only on a spot the wager
    may be made on now (1.2(a), 1.3), within the table's limits and the odds multiple (1.6), and
    payable in full at the posted odds (1.4)."""

    name: ClassVar[str] = "bet"
    places_wagers: ClassVar[bool] = True
    spot: str
    amount: int
    player: str | None = None


@dataclass(frozen=True)
class TakeDown(PlayerAction):
    """Take ``amount`` (None: all) of the wager on ``spot`` back off the layout, where 1.3 lets
    the player remove or reduce it (never a contract wager: a pass wager once a point is set, a
    come wager on its come point)."""

    name: ClassVar[str] = "take_down"
    spot: str
    amount: int | None = None


@dataclass(frozen=True)
class CallOn(PlayerAction):
    """The player calls the wager on ``spot`` "on": it works on the rolls it would otherwise be
    off for (a place bet on the come out roll, marked by the dealer's "on" button, 1.2(a)5)."""

    name: ClassVar[str] = "call_on"
    spot: str


@dataclass(frozen=True)
class CallOff(PlayerAction):
    """The player calls the wager on ``spot`` "off": it stays on the layout and is neither won
    nor lost until called on again."""

    name: ClassVar[str] = "call_off"
    spot: str


@dataclass(frozen=True)
class PassDice(PlayerAction):
    """The shooter at ``seat`` declines the dice before a come out roll; they pass clockwise
    (1.11, title only)."""

    name: ClassVar[str] = "pass_dice"


@dataclass(frozen=True)
class Roll(DealerAction):
    """The shooter's throw (1.8): ``die1`` and ``die2`` as they came to rest.  An electronic
    table's server fills them in from the operating system's CSPRNG when the roll is taken; a
    live table's stickperson enters them."""

    name: ClassVar[str] = "roll"
    die1: int | None = None
    die2: int | None = None


@dataclass(frozen=True)
class InvalidRoll(Irregularity):
    """The throw does not count (1.9, title only: a die leaves the table, or does not come to rest
    flat on the layout): no wager is decided and the shooter rolls again."""

    name: ClassVar[str] = "invalid_roll"


ACTIONS: Final[tuple[type[Action], ...]] = (
    Bet, TakeDown, CallOn, CallOff, PassDice, Roll, InvalidRoll,
)  # fmt: skip
"""The actions particular to craps (the game's ``action_types``); of
:data:`~felt.rounds.actions.SHARED_ACTIONS` it takes only ``no_more_bets``, refusing the others,
which deal or settle cards."""


def parse_action(entry: object, where: str) -> Action:
    """One craps action as JSON, read by the shared reader for this game's actions
    (:func:`felt.rounds.actions.action_from_json`); one clear error naming what is allowed."""
    return action_from_json(entry, where, ACTIONS)
