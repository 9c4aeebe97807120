"""The actions of a Let It Ride Poker round: the game's own (the wagers, taking back a wager or
letting it ride, the dealer turning a community card, the cut and the supervisor's recut, a
community card exposed early) and the ones every game shares (:mod:`felt.rounds.actions`).

Scripts and the API name them as every game does: ``{"seat": 2, "action": "take_back", "wager":
1}``, ``{"dealer": "turn"}``, ``{"irregularity": "community_card_exposed", "card": 2}``;
:func:`parse_action` reads one and :meth:`~felt.rounds.actions.Action.to_json` writes it back.

>>> parse_action({"seat": 1, "action": "wager", "amount": "10", "bonus": "1"}, "x")
Wagers(seat=1, amount=1000, bonus=100, three_card_bonus=0, player=None)
>>> Wagers(1, 1000, 0, 500).to_json()
{'action': 'wager', 'seat': 1, 'amount': '10.00', 'three_card_bonus': '5.00'}
>>> parse_action({"seat": 3, "action": "let_it_ride", "wager": 2}, "x")
LetItRide(seat=3, wager=2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final

from felt.core.money import dollars
from felt.rounds.actions import (
    Action,
    DealerAction,
    Irregularity,
    PlayerAction,
    action_from_json,
)

WITHDRAWABLE: Final = (1, 2)
"""The wagers a player may take back: the first ("1") before the first community card is turned,
the second ("2") before the second; the third ("$") always stays (18.1 "Let it ride", 18.10)."""


@dataclass(frozen=True)
class Wagers(PlayerAction):
    """Three equal wagers of ``amount`` each, within the table's limits, with the optional let it
    ride bonus wager (``bonus``, the table's one amount, 18.6A) and three-card bonus wager
    (``three_card_bonus``, within its limits, 18.6B), before "No more bets" (18.6, title only)."""

    name: ClassVar[str] = "wager"
    places_wagers: ClassVar[bool] = True
    money_fields: ClassVar[frozenset[str]] = frozenset({"amount", "bonus", "three_card_bonus"})
    amount: int = 0
    bonus: int = 0
    three_card_bonus: int = 0
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The action as a script entry, amounts in dollars (bonus wagers not placed left out)."""
        out: dict[str, Any] = {self.family: self.name, "seat": self.seat}
        out["amount"] = dollars(self.amount)
        if self.bonus:
            out["bonus"] = dollars(self.bonus)
        if self.three_card_bonus:
            out["three_card_bonus"] = dollars(self.three_card_bonus)
        if self.player is not None:
            out["player"] = self.player
        return out


@dataclass(frozen=True)
class TakeBack(PlayerAction):
    """Take back ``wager`` (1 or 2) at its moment: the first once the player has seen three cards
    and before the first community card is turned, the second before the second is turned
    (18.1 "Let it ride"; 18.10, title only)."""

    name: ClassVar[str] = "take_back"
    wager: int


@dataclass(frozen=True)
class LetItRide(PlayerAction):
    """Leave ``wager`` (1 or 2) on the layout at its moment (18.1 "Let it ride")."""

    name: ClassVar[str] = "let_it_ride"
    wager: int


@dataclass(frozen=True)
class TurnCard(DealerAction):
    """The dealer turns the next community card face up, once every player has decided on the
    wager it closes (18.10, title only)."""

    name: ClassVar[str] = "turn"


@dataclass(frozen=True)
class CutCards(DealerAction):
    """The dealer cuts the manually shuffled deck with the cover card of 18.2(a), taking
    ``position`` cards (at least 10) from the top (18.5, title only)."""

    name: ClassVar[str] = "cut"
    position: int = 26


@dataclass(frozen=True)
class RequireRecut(DealerAction):
    """A casino supervisor requires the cards to be recut, after the cut and before any card is
    dealt (18.5, title only)."""

    name: ClassVar[str] = "require_recut"
    supervisor_only: ClassVar[str] = "require a recut (19:47-18.5)"


@dataclass(frozen=True)
class CommunityCardExposed(Irregularity):
    """Community card ``card`` (1 or 2) is exposed before the dealer turns it at its moment
    (18.12, title only)."""

    name: ClassVar[str] = "community_card_exposed"
    card: int = 1


ACTIONS: Final[tuple[type[Action], ...]] = (
    Wagers, TakeBack, LetItRide, TurnCard, CutCards, RequireRecut, CommunityCardExposed,
)  # fmt: skip
"""The actions particular to Let It Ride Poker (the game's ``action_types``); it takes every one
of :data:`~felt.rounds.actions.SHARED_ACTIONS` besides but ``reveal``, which it refuses."""


def parse_action(entry: object, where: str) -> Action:
    """One action of a Let It Ride Poker round as JSON, read by the shared reader for this game's
    actions (:func:`felt.rounds.actions.action_from_json`); one clear error naming what is
    allowed."""
    return action_from_json(entry, where, ACTIONS)
