"""What one seat sees of a poker hand, built from the hand, never by filtering a full record.

Its own cards; of every other player only the cards dealt face up (stud) and how many are face
down; the board, the pots, the bets, whose turn and the legal actions with their amounts.  No
hole card of another player before the showdown, and a folded hand's cards never: at the
showdown only the hands still in are shown (14.15(j), (k): a folded hand is dead and mucked).
"""

from __future__ import annotations

from dataclasses import dataclass

from felt.core.cards import Card
from felt.games.poker.hand import PokerHand


@dataclass(frozen=True)
class OtherSeat:
    """Another player as a seat sees them."""

    seat: int
    in_hand: bool
    up: tuple[Card, ...]
    down: int
    """How many of its cards are face down (not which)."""
    shown: tuple[Card, ...]
    """Every card of the hand, only at the showdown and only for a hand still in."""
    stack: int
    bet: int


@dataclass(frozen=True)
class SeatView:
    """One seat's view of a hand (amounts in cents)."""

    seat: int
    cards: tuple[Card, ...]
    others: tuple[OtherSeat, ...]
    board: tuple[Card, ...]
    pots: tuple[tuple[int, tuple[int, ...]], ...]
    pot: int
    stack: int
    bet: int
    to_act: int | None
    legal: tuple[str, ...]
    status: str


def seat_view(hand: PokerHand, seat: int) -> SeatView:
    """What ``seat`` sees now (a seat not in the hand sees every face-up card and nothing else)."""
    showdown = hand.status == "awarded" and sum(hand.in_hand(s) for s in hand.order) > 1
    others = []
    for other in hand.order:
        if other == seat:
            continue
        live = hand.in_hand(other)
        cards = hand.hole_cards(other) if live else ()
        up = tuple(c for c in hand.up_cards(other) if c in cards)
        others.append(
            OtherSeat(
                seat=other,
                in_hand=live,
                up=up,
                down=len(cards) - len(up),
                shown=cards if showdown and live else (),
                stack=hand.stack(other),
                bet=hand.bet(other),
            )
        )
    mine = seat in hand.start
    to_act = hand.to_act()
    return SeatView(
        seat=seat,
        cards=hand.hole_cards(seat) if mine else (),
        others=tuple(others),
        board=hand.board(),
        pots=tuple(hand.pots()),
        pot=hand.pot(),
        stack=hand.stack(seat) if mine else 0,
        bet=hand.bet(seat) if mine else 0,
        to_act=to_act,
        legal=tuple(hand.allowed()) if to_act == seat else (),
        status=hand.status,
    )
