"""What one betting position may see of a Let It Ride Poker round, built from the round by rule.

A player sees their own three cards once dealt.  The community cards are dealt face down and
seen by everyone only as the dealer turns each (18.1 "Community card"): before that a view has
only how many there are.  The burned card is seen by no one, ever.  Another position's cards
stay face down (Let It Ride players do not show their hands) until the dealer turns every hand
over to settle it, when each is shown with its hand named.  The stub and the discard rack are
never part of a view.  Each of the viewer's statement lines says why, from the viewer's own
cards and the community cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from felt.core.cards import Card
from felt.games.let_it_ride.hand import describe, three_card_hand
from felt.games.let_it_ride.round import MAIN, LetItRideRound, Phase, Spot
from felt.rounds.engine import SettlementLine
from felt.rounds.seat_view import SeatSeen
from felt.rounds.view_json import (
    cards_json,
    common_reason,
    other_json,
    view_json,
    wager_words,
    wagers_json,
    with_limit,
)

WORDS = {
    "first": "the first wager (1)",
    "second": "the second wager (2)",
    "third": "the third wager ($)",
    "bonus": "the let it ride bonus wager",
    "three_card_bonus": "the three-card bonus wager",
}
"""How a reason names Let It Ride's wagers."""


@dataclass(frozen=True)
class SpotView:
    """Everything one position may know about the round now (0: what anyone may know)."""

    seat: int
    phase: Phase
    own_cards: tuple[Card, ...]
    others: tuple[SeatSeen, ...]
    community: tuple[Card, ...]
    """The community cards face up (none until the dealer turns card 1)."""
    community_count: int
    """How many community cards lie on the layout (2 once dealt, 0 before)."""
    pending: tuple[tuple[int, str], ...]
    wagers: dict[str, int]
    """The viewer's wagers as placed, without those taken back."""
    decisions: dict[str, str]
    """What the viewer did with wagers 1 and 2 (``first``/``second`` -> ``let it ride`` or
    ``take back``), once decided."""
    lines: tuple[SettlementLine, ...] = ()
    void_reason: str = ""
    hand: str = ""
    """The viewer's five-card hand named once both community cards are face up."""
    reasons: tuple[str, ...] = ()


def standing(spot: Spot) -> dict[str, int]:
    """A position's wagers as placed, less those taken back (what anyone at the table sees)."""
    return {w: v for w, v in spot.placed.items() if spot.decisions.get(w) != "take back"}


def spot_view(rnd: LetItRideRound, viewer: int) -> SpotView:
    """The round as seen from position ``viewer``."""
    up = rnd.community_up
    both = len(up) == 2
    others = tuple(
        SeatSeen(n, standing(s), tuple(s.cards) if s.status == "settled" else (), len(s.cards),
                 s.status, describe([*s.cards, *up]) if s.status == "settled" and both else "")
        for n, s in sorted(rnd.seats.items())
        if n != viewer
    )  # fmt: skip
    own = rnd.seats.get(viewer)
    lines = tuple(line for line in rnd.lines if line.seat == viewer)
    mine = tuple(own.cards) if own else ()
    return SpotView(
        seat=viewer,
        phase=rnd.phase,
        own_cards=mine,
        others=others,
        community=up,
        community_count=len(rnd.community),
        pending=tuple(rnd.pending()),
        wagers=standing(own) if own else {},
        decisions=dict(own.decisions) if own else {},
        lines=lines,
        void_reason=rnd.void_reason,
        hand=describe([*mine, *up]) if len(mine) == 3 and both else "",
        reasons=tuple(line_reason(mine, up, line) for line in lines),
    )


def line_reason(cards: tuple[Card, ...], community: tuple[Card, ...], line: SettlementLine) -> str:
    """Why ``line`` won, lost, was returned or taken back, in the player's words (18.1 "Let it
    ride"; 18.11: each wager left pays by the pay table on a pair of tens or better; 18.6A, 18.6B
    the bonus wagers), from the viewer's own cards and the community cards face up only."""
    common = common_reason(line, WORDS)
    if common is not None:
        return common
    the = wager_words(line.wager, WORDS)
    if line.outcome == "withdrawn":
        return f"you took back {the}: it is returned"
    if line.wager == "three_card_bonus":
        name = three_card_hand(cards) if len(cards) == 3 else line.hand
        if line.outcome == "win":
            return f"your three cards are a {name}: {the} pays {line.odds}"
        return f"your three cards are {_a(name)}, not a paying hand: {the} is lost"
    if len(cards) + len(community) != 5:  # pragma: no cover - the rest settle a complete hand
        return f"{the}: {line.hand}"
    hand = [*cards, *community]
    you = f"your {describe(hand)}"
    if line.wager == "bonus":
        if line.outcome == "win":
            return f"{you} pays the bonus {line.odds}, whatever became of wagers 1 and 2"
        return f"{you} is not a paying hand of the bonus pay table: {the} is lost"
    if line.outcome == "win" and line.wager in MAIN:
        return with_limit(line, f"{you}: {the} pays {line.odds}")
    return f"{you} is below a pair of tens: {the} is lost"


def _a(name: str) -> str:
    return f"a {name}" if name != "high card" else "high card"


def spot_json(rnd: LetItRideRound, viewer: int) -> dict[str, Any]:
    """:func:`spot_view` as JSON (what the server sends that position): the keys every game's
    view has, the community cards face up (``community``) with how many lie on the layout
    (``community_count``), the viewer's ``wagers`` and ``decisions``."""
    view = spot_view(rnd, viewer)
    others = [other_json(o, card_count=o.card_count, hand=o.hand) for o in view.others]
    return {
        **view_json(view, viewer, others, reasons=view.reasons, hand=view.hand),
        "community": cards_json(view.community),
        "community_count": view.community_count,
        "wagers": wagers_json(view.wagers),
        "decisions": dict(view.decisions),
    }
