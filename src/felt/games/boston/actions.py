"""The actions of Boston 5 and Boston 7 Stud Poker besides the ones every table game shares
(:data:`felt.rounds.actions.SHARED_ACTIONS`): the wagers, the elections, the dealer's steps and the
irregularities of N.J.A.C. 19:47-24 and 13:69F-24."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from felt.core.cards import Card
from felt.rounds.actions import Action, DealerAction, Irregularity, PlayerAction, action_from_json


@dataclass(frozen=True)
class PlaceWagers(PlayerAction):
    """Ante and first wager, and optionally the optional bonus wager (24.6(b), (c))."""

    name: ClassVar[str] = "wager"
    places_wagers: ClassVar[bool] = True
    ante: int
    first: int
    bonus: int = 0
    player: str | None = None


@dataclass(frozen=True)
class Leave(PlayerAction):
    """The player leaves the seat (refused once cards are dealt, 24.6(e))."""

    name: ClassVar[str] = "leave"


@dataclass(frozen=True)
class Expose(PlayerAction):
    """Expose the three cards for the optional bonus (24.10(a))."""

    name: ClassVar[str] = "expose"


@dataclass(frozen=True)
class Decline(PlayerAction):
    """Elect not to expose the three cards; the optional bonus wager loses (19:47-24.10(a))."""

    name: ClassVar[str] = "decline"


@dataclass(frozen=True)
class Second(PlayerAction):
    """Place the second wager (24.10(b))."""

    name: ClassVar[str] = "second"


@dataclass(frozen=True)
class Fold(PlayerAction):
    """Fold, forfeiting ante and first wager (24.10(b))."""

    name: ClassVar[str] = "fold"


@dataclass(frozen=True)
class Withdraw(PlayerAction):
    """Withdraw the second wager before the additional cards (24.10(c))."""

    name: ClassVar[str] = "withdraw"


@dataclass(frozen=True)
class Discard(PlayerAction):
    """Boston 7: discard two of seven cards, playing the other five (13:69F-24.10(c))."""

    name: ClassVar[str] = "discard"
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Keep(PlayerAction):
    """Boston 7: keep all seven cards (no discard)."""

    name: ClassVar[str] = "keep"


@dataclass(frozen=True)
class ResolveBonuses(DealerAction):
    """Collect losing and pay winning optional bonus wagers (24.10(a))."""

    name: ClassVar[str] = "resolve_bonuses"


@dataclass(frozen=True)
class DealAdditional(DealerAction):
    """The additional cards to each seat with a second wager, then the dealer (24.10(d))."""

    name: ClassVar[str] = "deal_additional"


@dataclass(frozen=True)
class CountStub(DealerAction):
    """Count the stub (24.7(f)); ``count`` is what the dealer counted, None for the true count."""

    name: ClassVar[str] = "count_stub"
    count: int | None = None


@dataclass(frozen=True)
class DealerCardExposed(Irregularity):
    """One of the dealer's first three cards is exposed early (24.12(a))."""

    name: ClassVar[str] = "dealer_card_exposed"


@dataclass(frozen=True)
class ShoeJam(Irregularity):
    """The automated shoe jams after ``stacks`` stacks of three were delivered (24.12(f))."""

    name: ClassVar[str] = "shoe_jam"
    stacks: int


ACTIONS: Final[tuple[type[Action], ...]] = (
    PlaceWagers, Leave, Expose, Decline, Second, Fold, Withdraw, Discard, Keep,
    ResolveBonuses, DealAdditional, CountStub,
    DealerCardExposed, ShoeJam,
)  # fmt: skip
"""Boston's own actions (its :attr:`~felt.games.base.TableGame.action_types`)."""


def parse_action(entry: object, where: str) -> Action:
    """One round-script entry read as a shared action or one of :data:`ACTIONS`."""
    return action_from_json(entry, where, ACTIONS)
