"""What one betting position may see of a Three Card Poker round, built from the round by rule.

Every hand is dealt face down (20.7-20.9): a player sees their own three cards, and another
position's only once the dealer turns it over to settle it (a folded hand never is).  The
dealer's cards are seen once revealed.  The stub and the discard rack are never part of a view.
"""

from __future__ import annotations

from typing import Any

from felt.games.three_card_poker.round import ThreeCardRound
from felt.rounds.seat_view import SeatSeen, View, seen_view_json

SpotSeen = SeatSeen
"""Another position as the viewer sees it: its chips, and its cards once turned over."""
SpotView = View
"""Everything one position may know about the round now (0: what anyone may know)."""


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
    view has, and the dealer's cards once revealed with how many there are."""
    return seen_view_json(spot_view(rnd, viewer))
