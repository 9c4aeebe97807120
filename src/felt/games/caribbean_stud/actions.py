"""The actions of a Caribbean Stud Poker round: the game's own (the wagers, bet, fold, the cut and
the supervisor's recut, the settlement that pays the progressive from the meter, a dealer's hole
card exposed) and the ones every game shares (:mod:`felt.rounds.actions`).

Scripts and the API name them as every game does: ``{"seat": 2, "action": "bet"}``,
``{"dealer": "settle", "meter": "12345.67"}``, ``{"irregularity": "misdeal", "cards": 4,
"seat": 1}``; :func:`parse_action` reads one and :meth:`~felt.rounds.actions.Action.to_json`
writes it back.

>>> parse_action({"seat": 1, "action": "wager", "ante": "10", "progressive": "1"}, "x")
Wagers(seat=1, ante=1000, progressive=100, player=None)
>>> Wagers(1, 1000, 100).to_json()
{'action': 'wager', 'seat': 1, 'ante': '10.00', 'progressive': '1.00'}
>>> parse_action({"dealer": "settle", "meter": "10000"}, "x")
Settle(meter=1000000)
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
from felt.rounds.actions import Settle as SharedSettle


@dataclass(frozen=True)
class Wagers(PlayerAction):
    """The ante, with the optional progressive wager of the table's one amount, before "No more
    bets" (16.1 "Ante wager"; 16.6 and 16.11, titles only)."""

    name: ClassVar[str] = "wager"
    places_wagers: ClassVar[bool] = True
    money_fields: ClassVar[frozenset[str]] = frozenset({"ante", "progressive"})
    ante: int = 0
    progressive: int = 0
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The action as a script entry, amounts in dollars (no progressive wager left out)."""
        out: dict[str, Any] = {
            self.family: self.name,
            "seat": self.seat,
            "ante": dollars(self.ante),
        }
        if self.progressive:
            out["progressive"] = dollars(self.progressive)
        if self.player is not None:
            out["player"] = self.player
        return out


@dataclass(frozen=True)
class Bet(PlayerAction):
    """Place the bet wager, twice the ante, once every card is dealt and before the dealer's hole
    cards are exposed (16.1 "Bet wager")."""

    name: ClassVar[str] = "bet"


@dataclass(frozen=True)
class Fold(PlayerAction):
    """Fold: withdraw from the round, the ante and any progressive wager forfeited (16.1 "Fold")."""

    name: ClassVar[str] = "fold"


@dataclass(frozen=True)
class CutCards(DealerAction):
    """The dealer cuts the manually shuffled deck with the cover card, taking ``position`` cards
    (at least 10) from the top (16.4(c)1)."""

    name: ClassVar[str] = "cut"
    position: int = 26


@dataclass(frozen=True)
class RequireRecut(DealerAction):
    """A casino supervisor requires the cards to be recut, after the cut and before any card is
    dealt (16.4(d))."""

    name: ClassVar[str] = "require_recut"
    supervisor_only: ClassVar[str] = "require a recut (19:47-16.4(d))"


@dataclass(frozen=True)
class Settle(SharedSettle):
    """Settle every position's wagers and pay the progressive payouts (16.10, 16.11): ``meter``
    is the cents on the table's progressive meter when the settlement is recorded (the server
    fills it with the meter locked; the CLI and simulations keep a meter of their own).  Refused
    without it when a progressive wager is in play."""

    needs_meter: ClassVar[bool] = True
    meter: int | None = None


@dataclass(frozen=True)
class DealerCardExposed(Irregularity):
    """One of the dealer's four hole cards is exposed before the dealer reveals the hand (16.13,
    title only)."""

    name: ClassVar[str] = "dealer_card_exposed"


ACTIONS: Final[tuple[type[Action], ...]] = (
    Wagers, Bet, Fold, CutCards, RequireRecut, Settle, DealerCardExposed,
)  # fmt: skip
"""The actions particular to Caribbean Stud Poker (the game's ``action_types``); it takes every
one of :data:`~felt.rounds.actions.SHARED_ACTIONS` besides, its own :class:`Settle` in place of
the shared one."""


def parse_action(entry: object, where: str) -> Action:
    """One action of a Caribbean Stud Poker round as JSON, read by the shared reader for this
    game's actions (:func:`felt.rounds.actions.action_from_json`); one clear error naming what is
    allowed."""
    return action_from_json(entry, where, ACTIONS)
