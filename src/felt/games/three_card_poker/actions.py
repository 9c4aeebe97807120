"""The actions of a Three Card Poker round: the game's own (the wagers, play, fold, the dealer's
cut, a dealer's card exposed) and the ones every game shares (:mod:`felt.rounds.actions`).

Scripts and the API name them as every game does: ``{"seat": 2, "action": "play"}``,
``{"dealer": "reveal"}``, ``{"irregularity": "misdeal", "cards": 2, "seat": 1}``;
:func:`parse_action` reads one and :meth:`~felt.rounds.actions.Action.to_json` writes it back.

>>> parse_action({"seat": 1, "action": "wager", "ante": "10", "pair_plus": "5"}, "x")
Wagers(seat=1, ante=1000, pair_plus=500, player=None)
>>> Wagers(1, 1000, 500).to_json()
{'action': 'wager', 'seat': 1, 'ante': '10.00', 'pair_plus': '5.00'}
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


@dataclass(frozen=True)
class Wagers(PlayerAction):
    """The ante, the optional pair plus wager, or both, before "No more bets" (20.6)."""

    name: ClassVar[str] = "wager"
    places_wagers: ClassVar[bool] = True
    money_fields: ClassVar[frozenset[str]] = frozenset({"ante", "pair_plus"})
    ante: int = 0
    pair_plus: int = 0
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The action as a script entry, amounts in dollars (a wager of nothing left out)."""
        out: dict[str, Any] = {self.family: self.name, "seat": self.seat}
        if self.ante:
            out["ante"] = dollars(self.ante)
        if self.pair_plus:
            out["pair_plus"] = dollars(self.pair_plus)
        if self.player is not None:
            out["player"] = self.player
        return out


@dataclass(frozen=True)
class Play(PlayerAction):
    """Place the play wager, equal to the ante, and stay in against the dealer (20.10)."""

    name: ClassVar[str] = "play"


@dataclass(frozen=True)
class Fold(PlayerAction):
    """Fold: the ante, and a pair plus wager with it, are forfeited (20.10)."""

    name: ClassVar[str] = "fold"


@dataclass(frozen=True)
class CutCards(DealerAction):
    """The dealer cuts the stacked deck ``position`` cards from the top (20.5)."""

    name: ClassVar[str] = "cut"
    position: int = 26


@dataclass(frozen=True)
class DealerCardExposed(Irregularity):
    """One of the dealer's cards is exposed before the dealer reveals the hand (20.12)."""

    name: ClassVar[str] = "dealer_card_exposed"


ACTIONS: Final[tuple[type[Action], ...]] = (Wagers, Play, Fold, CutCards, DealerCardExposed)
"""The actions particular to Three Card Poker (the game's ``action_types``); it takes every one
of :data:`~felt.rounds.actions.SHARED_ACTIONS` besides."""


def parse_action(entry: object, where: str) -> Action:
    """One action of a Three Card Poker round as JSON, read by the shared reader for this game's
    actions (:func:`felt.rounds.actions.action_from_json`); one clear error naming what is
    allowed."""
    return action_from_json(entry, where, ACTIONS)
