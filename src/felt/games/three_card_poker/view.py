"""What one betting position may see of a Three Card Poker round, built from the round by rule.

Every hand is dealt face down (20.7-20.9): a player sees their own three cards, and another
position's only once the dealer turns it over to settle it (a folded hand never is).  The
dealer's cards are seen once revealed.  The stub and the discard rack are never part of a view.  Each of the viewer's
statement lines says why (20.10, 20.11), from the viewer's own hand and the dealer's revealed one.
"""

from __future__ import annotations

from typing import Any

from felt.games.three_card_poker.config import rules
from felt.games.three_card_poker.hand import describe, hand_key, hand_name, qualifies
from felt.games.three_card_poker.round import Spot, ThreeCardRound
from felt.rounds.engine import SettlementLine
from felt.rounds.seat_view import SeatSeen, View, seen_view_json
from felt.rounds.view_json import common_reason, wager_words, with_limit

SpotSeen = SeatSeen
"""Another position as the viewer sees it: its chips, and its cards once turned over."""
SpotView = View
"""Everything one position may know about the round now (0: what anyone may know)."""


def spot_view(rnd: ThreeCardRound, viewer: int) -> SpotView:
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
        dealer_cards=dealer,
        dealer_card_count=len(rnd.dealer_cards),
        pending=tuple(rnd.pending()),
        lines=lines,
        void_reason=rnd.void_reason,
        hand=describe(own.cards) if own and len(own.cards) == 3 else "",
        dealer_hand=describe(dealer) if len(dealer) == 3 else "",
        reasons=tuple(line_reason(own, dealer, line) for line in lines) if own else (),
    )


WORDS = {"play": "the play wager", "pair plus": "the pair plus wager"}
"""How a reason names Three Card Poker's wagers (the rest: ``the ante``, ``the ante bonus``)."""


def line_reason(spot: Spot, dealer: tuple[int, ...], line: SettlementLine) -> str:
    """Why ``line`` of ``spot`` won, pushed or lost, in the player's words (20.10: the dealer
    qualifies with queen high or better; 20.11: the ante bonus and pair plus pay by hand), from
    the spot's own cards and the dealer's revealed cards only."""
    common = common_reason(line, WORDS)
    if common is not None:
        return common
    the = wager_words(line.wager, WORDS)
    if line.outcome == "forfeit":
        if "time ran out" in line.hand:
            return f"no play wager before the decision time ran out, so a fold: {the} is lost"
        return f"folded: {the} is lost"
    cards = spot.cards
    if len(cards) != 3:  # pragma: no cover - every other line settles a dealt hand
        return f"{the}: {line.hand}"
    you = f"your {describe(cards)}"
    if line.wager == "pair plus":
        if line.outcome == "win":
            return with_limit(line, f"pair plus: {you} pays {line.odds}")
        return f"pair plus: {you} is below a pair: the pair plus wager is lost"
    if line.wager == "ante bonus":
        return with_limit(
            line,
            f"ante bonus: your {hand_name(cards)} is paid {line.odds} whatever the dealer holds",
        )
    if len(dealer) != 3:  # pragma: no cover - the ante and play settle after the reveal
        return f"{the}: {line.hand}"
    they = f"the dealer's {describe(dealer)}"
    if not qualifies(dealer, rules().qualifier):
        if line.outcome == "win":
            return with_limit(
                line, f"{they} does not qualify (queen high or better): the ante pays {line.odds}"
            )
        return f"{they} does not qualify (queen high or better): the play wager is returned"
    mine, theirs = hand_key(cards), hand_key(dealer)
    if line.outcome == "lose":
        return f"{they} beats {you}: {the} is lost"
    if line.outcome == "push" and mine == theirs:
        return f"{you} ties {they}: {the} is returned"
    return with_limit(line, f"{you} beats {they}: {the} pays {line.odds}")


def spot_json(rnd: ThreeCardRound, viewer: int) -> dict[str, Any]:
    """:func:`spot_view` as JSON (what the server sends that position): the keys every game's
    view has, and the dealer's cards once revealed with how many there are."""
    return seen_view_json(spot_view(rnd, viewer))
