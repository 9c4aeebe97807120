"""What one seat may see of a round: built from the round by rule, never by hiding afterwards.

A player sees their own cards; another seat's cards once exposed for the bonus (the first three)
or turned over at settlement (24.10(f)); the dealer's cards once revealed (24.10(e)).
"""

from __future__ import annotations

from felt.core.cards import Card
from felt.games.boston.round import Round
from felt.rounds.seat_view import SeatSeen, View

__all__ = ["SeatSeen", "View", "seat_view"]


def seat_view(rnd: Round, viewer: int) -> View:
    """The round as seen from seat ``viewer``."""
    revealed = rnd.dealer_hand is not None
    others = []
    for number, seat in sorted(rnd.seats.items()):
        if number == viewer:
            continue
        if seat.status == "settled":
            visible: tuple[Card, ...] = tuple(seat.hand_cards())
        elif seat.exposed:
            visible = tuple(seat.cards[:3])
        else:
            visible = ()
        others.append(SeatSeen(number, dict(seat.placed), visible, len(seat.cards), seat.status))
    own = rnd.seats.get(viewer)
    return View(
        seat=viewer,
        phase=rnd.phase,
        own_cards=tuple(own.cards) if own else (),
        others=tuple(others),
        dealer_cards=tuple(rnd.dealer_cards) if revealed else (),
        dealer_card_count=len(rnd.dealer_cards),
        pending=tuple(rnd.pending()),
        lines=tuple(line for line in rnd.lines if line.seat == viewer),
        void_reason=rnd.void_reason,
    )
