"""The actions of Double Down Stud besides the ones every table game shares
(:data:`felt.rounds.actions.SHARED_ACTIONS`): the bet, the double down, the cut and the
irregularities of N.J.A.C. 19:47-17."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from felt.rounds.actions import Action, DealerAction, Irregularity, PlayerAction, action_from_json


@dataclass(frozen=True)
class PlaceBet(PlayerAction):
    """Double Down Stud: the wager on one betting area, before "No more bets" (19:47-17.6)."""

    name: ClassVar[str] = "bet"
    places_wagers: ClassVar[bool] = True
    amount: int
    player: str | None = None


@dataclass(frozen=True)
class DoubleDown(PlayerAction):
    """Double Down Stud: the double down wager (19:47-17.8(c)); None means the full amount."""

    name: ClassVar[str] = "double"
    amount: int | None = None


@dataclass(frozen=True)
class Stand(PlayerAction):
    """Double Down Stud: no double down wager on this area."""

    name: ClassVar[str] = "stand"


@dataclass(frozen=True)
class PlayerCut(PlayerAction):
    """The player offered the cut places the cutting card ``position`` cards from the top (17.4(e))."""

    name: ClassVar[str] = "cut"
    position: int


@dataclass(frozen=True)
class DeclineCut(PlayerAction):
    """The player offered the cut declines it (17.4(c): then the dealer cuts)."""

    name: ClassVar[str] = "decline_cut"


@dataclass(frozen=True)
class OfferCut(DealerAction):
    """The dealer offers the cut to the player 17.4(d) names (Double Down Stud)."""

    name: ClassVar[str] = "offer_cut"


@dataclass(frozen=True)
class DealerCut(DealerAction):
    """The dealer cuts, placing the cutting card ``position`` cards from the top (17.4(c), (e))."""

    name: ClassVar[str] = "cut"
    position: int = 26


@dataclass(frozen=True)
class RequireRecut(DealerAction):
    """A casino supervisor requires the cards to be recut before any are dealt (17.4(f))."""

    name: ClassVar[str] = "require_recut"
    supervisor_only: ClassVar[str] = "require a recut (17.4(f))"


@dataclass(frozen=True)
class NoMoreDoubles(DealerAction):
    """The dealer announces "No more bets" again after the double down wagers (17.8(d))."""

    name: ClassVar[str] = "no_more_doubles"


@dataclass(frozen=True)
class HoleCardExposed(Irregularity):
    """The dealer's hole card is exposed before the second "No more bets" (17.11(a))."""

    name: ClassVar[str] = "hole_card_exposed"


ACTIONS: Final[tuple[type[Action], ...]] = (
    PlaceBet, DoubleDown, Stand, PlayerCut, DeclineCut,
    OfferCut, DealerCut, RequireRecut, NoMoreDoubles,
    HoleCardExposed,
)  # fmt: skip
"""Double Down Stud's own actions (its :attr:`~felt.games.base.TableGame.action_types`)."""


def parse_action(entry: object, where: str) -> Action:
    """One round-script entry read as a shared action or one of :data:`ACTIONS`."""
    return action_from_json(entry, where, ACTIONS)
