"""What one betting area may see of a Double Down Stud round, built from the round by rule.

Every area's card is dealt face up and the dealer's three up cards are in view (17.8(b)); the hole
card only once it is turned over.  The stub and the discard rack are never part of a view.
"""

from __future__ import annotations

from dataclasses import dataclass

from felt.core.cards import Card
from felt.games.double_down.round import DoubleDownRound, Phase
from felt.rounds.engine import SettlementLine


@dataclass(frozen=True)
class AreaSeen:
    """Another betting area, as the viewer sees it."""

    number: int
    wagers: dict[str, int]
    cards: tuple[Card, ...]
    status: str


@dataclass(frozen=True)
class AreaView:
    """Everything one betting area may know about the round now."""

    area: int
    phase: Phase
    own_cards: tuple[Card, ...]
    others: tuple[AreaSeen, ...]
    dealer_up: tuple[Card, ...]
    hole_card: Card | None
    """The dealer's hole card once turned over (17.8(d)), else None."""
    pending: tuple[tuple[int, str], ...]
    lines: tuple[SettlementLine, ...]
    """The viewer's own settlement statement so far."""
    void_reason: str


def area_view(rnd: DoubleDownRound, viewer: int) -> AreaView:
    """The round as seen from betting area ``viewer``."""
    others = tuple(
        AreaSeen(n, dict(a.placed), tuple(a.cards), a.status)
        for n, a in sorted(rnd.seats.items())
        if n != viewer
    )
    own = rnd.seats.get(viewer)
    return AreaView(
        area=viewer,
        phase=rnd.phase,
        own_cards=tuple(own.cards) if own else (),
        others=others,
        dealer_up=tuple(rnd.dealer_cards[1:]),
        hole_card=rnd.dealer_cards[0] if rnd.hole_revealed and rnd.dealer_cards else None,
        pending=tuple(rnd.pending()),
        lines=tuple(line for line in rnd.lines if line.seat == viewer),
        void_reason=rnd.void_reason,
    )
