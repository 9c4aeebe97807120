"""What one betting position may see of a Three Card Poker round, built from the round by rule.

Every hand is dealt face down (20.7-20.9): a player sees their own three cards, and another
position's only once the dealer turns it over to settle it (a folded hand never is).  The
dealer's cards are seen once revealed.  The stub and the discard rack are never part of a view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from felt.core.cards import Card
from felt.games.three_card_poker.round import Phase, ThreeCardRound
from felt.rounds.engine import SettlementLine
from felt.rounds.view_json import cards_json, other_json, view_json


@dataclass(frozen=True)
class SpotSeen:
    """Another position as the viewer sees it: its chips, and its cards once turned over."""

    number: int
    wagers: dict[str, int]
    cards: tuple[Card, ...]
    card_count: int
    status: str


@dataclass(frozen=True)
class SpotView:
    """Everything one position may know about the round now (0: what anyone may know)."""

    seat: int
    phase: Phase
    own_cards: tuple[Card, ...]
    others: tuple[SpotSeen, ...]
    dealer_cards: tuple[Card, ...]
    """The dealer's three cards once revealed, else empty."""
    dealer_card_count: int
    pending: tuple[tuple[int, str], ...]
    lines: tuple[SettlementLine, ...]
    """The viewer's own settlement statement so far."""
    void_reason: str


def spot_view(rnd: ThreeCardRound, viewer: int) -> SpotView:
    """The round as seen from position ``viewer``."""
    others = tuple(
        SpotSeen(n, dict(s.placed), tuple(s.cards) if s.status == "settled" else (),
                 len(s.cards), s.status)
        for n, s in sorted(rnd.seats.items())
        if n != viewer
    )  # fmt: skip
    own = rnd.seats.get(viewer)
    return SpotView(
        seat=viewer,
        phase=rnd.phase,
        own_cards=tuple(own.cards) if own else (),
        others=others,
        dealer_cards=tuple(rnd.dealer_cards) if rnd.dealer_revealed else (),
        dealer_card_count=len(rnd.dealer_cards),
        pending=tuple(rnd.pending()),
        lines=tuple(line for line in rnd.lines if line.seat == viewer),
        void_reason=rnd.void_reason,
    )


def spot_json(rnd: ThreeCardRound, viewer: int) -> dict[str, Any]:
    """:func:`spot_view` as JSON (what the server sends that position): the keys every game's
    view has (:mod:`felt.rounds.view_json`), and the dealer's cards once revealed with how many
    there are."""
    view = spot_view(rnd, viewer)
    others = [other_json(o, card_count=o.card_count) for o in view.others]
    return {
        **view_json(view, view.seat, others),
        "dealer_cards": cards_json(view.dealer_cards),
        "dealer_card_count": view.dealer_card_count,
    }
