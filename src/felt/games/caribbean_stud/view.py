"""What one betting position may see of a Caribbean Stud Poker round, built from the round by rule.

Every player's five cards are dealt face down: a player sees their own, and another position's
only once the dealer turns it over to settle it (a folded hand never is).  The dealer's face-up
card is seen by everyone once dealt; the four hole cards by no one until the dealer reveals them
(16.1 "Hole card", "Bet wager").  The stub and the discard rack are never part of a view.  Each of
the viewer's statement lines says why, from the viewer's own hand and the dealer's revealed one.
"""

from __future__ import annotations

from typing import Any

from felt.core.cards import Card
from felt.games.caribbean_stud.hand import describe, hand_key, hand_name, qualifies
from felt.games.caribbean_stud.round import CaribbeanRound, Spot
from felt.rounds.engine import SettlementLine
from felt.rounds.seat_view import SeatSeen, View, seen_view_json
from felt.rounds.view_json import cards_json, common_reason, wager_words, with_limit

SpotSeen = SeatSeen
"""Another position as the viewer sees it: its chips, and its cards once turned over."""
SpotView = View
"""Everything one position may know about the round now (0: what anyone may know)."""


def dealer_seen(rnd: CaribbeanRound) -> tuple[Card, ...]:
    """The dealer's cards anyone may see: all five once revealed, else the face-up card once
    dealt, else none."""
    if rnd.dealer_revealed:
        return tuple(rnd.dealer_cards)
    up = rnd.up_card
    return () if up is None else (up,)


def spot_view(rnd: CaribbeanRound, viewer: int) -> SpotView:
    """The round as seen from position ``viewer``."""
    others = tuple(
        SpotSeen(n, dict(s.placed), tuple(s.cards) if s.status == "settled" else (),
                 len(s.cards), s.status, describe(s.cards) if s.status == "settled" else "")
        for n, s in sorted(rnd.seats.items())
        if n != viewer
    )  # fmt: skip
    own = rnd.seats.get(viewer)
    lines = tuple(line for line in rnd.lines if line.seat == viewer)
    dealer = tuple(rnd.dealer_cards) if rnd.dealer_revealed else ()
    return SpotView(
        seat=viewer,
        phase=rnd.phase,
        own_cards=tuple(own.cards) if own else (),
        others=others,
        dealer_cards=dealer_seen(rnd),
        dealer_card_count=len(rnd.dealer_cards),
        pending=tuple(rnd.pending()),
        lines=lines,
        void_reason=rnd.void_reason,
        hand=describe(own.cards) if own and len(own.cards) == 5 else "",
        dealer_hand=describe(dealer) if len(dealer) == 5 else "",
        reasons=tuple(line_reason(own, dealer, line) for line in lines) if own else (),
    )


WORDS = {"bet": "the bet wager", "progressive": "the progressive wager"}
"""How a reason names Caribbean Stud's wagers (the ante: ``the ante``)."""


def line_reason(spot: Spot, dealer: tuple[Card, ...], line: SettlementLine) -> str:
    """Why ``line`` of ``spot`` won, pushed, lost or was paid, in the player's words (16.1: the
    dealer qualifies with A-K-4-3-2 or better; 16.10-16.12: the ante pays 1 to 1, the bet by the
    pay table, the progressive on the player's own hand), from the spot's own cards and the
    dealer's revealed cards only."""
    common = common_reason(line, WORDS)
    if common is not None:
        return common
    the = wager_words(line.wager, WORDS)
    if line.outcome == "forfeit":
        if "time ran out" in line.hand:
            return f"no bet wager before the decision time ran out, so a fold: {the} is lost"
        return f"folded: {the} is lost"
    cards = spot.cards
    if len(cards) != 5:  # pragma: no cover - every other line settles a dealt hand
        return f"{the}: {line.hand}"
    you = f"your {describe(cards)}"
    if line.wager == "progressive payout":
        return f"progressive: {you} is a {line.hand}, paid {line.odds} whatever the dealer holds"
    if line.wager == "progressive":
        return "the progressive wager is not returned: it went to the meter and the house"
    if len(dealer) != 5:  # pragma: no cover - the ante and bet settle after the reveal
        return f"{the}: {line.hand}"
    they = f"the dealer's {describe(dealer)}"
    if not qualifies(dealer):
        if line.outcome == "win":
            return with_limit(
                line, f"{they} does not qualify (A-K-4-3-2 or better): the ante pays {line.odds}"
            )
        return f"{they} does not qualify (A-K-4-3-2 or better): the bet wager is returned"
    mine, theirs = hand_key(cards), hand_key(dealer)
    if line.outcome == "lose":
        return f"{they} beats {you}: {the} is lost"
    if line.outcome == "push":
        return f"{you} ties {they}: {the} is returned"
    if line.wager == "bet":
        return with_limit(
            line, f"{you} beats {they}: the bet wager pays {line.odds} on your {hand_name(cards)}"
        )
    assert mine > theirs
    return with_limit(line, f"{you} beats {they}: {the} pays {line.odds}")


def spot_json(rnd: CaribbeanRound, viewer: int) -> dict[str, Any]:
    """:func:`spot_view` as JSON (what the server sends that position): the keys every game's
    view has, the dealer's cards anyone may see (``dealer_cards``: the face-up card, all five once
    revealed) with how many the dealer holds, and ``dealer_up_card``."""
    out = seen_view_json(spot_view(rnd, viewer))
    up = rnd.up_card
    out["dealer_up_card"] = cards_json(() if up is None else (up,))
    return out
