"""What one betting area may see of a Double Down Stud round, built from the round by rule.

Every area's card is dealt face up and the dealer's three up cards are in view (17.8(b)); the hole
card only once it is turned over.  The stub and the discard rack are never part of a view.  Each
of the viewer's statement lines says why (17.9, 17.10), from the viewer's own hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from felt.core.cards import Card
from felt.core.evaluator import evaluate
from felt.games.double_down.round import Area, DoubleDownRound, Phase
from felt.rounds.engine import SettlementLine
from felt.rounds.view_json import common_reason, wager_words, with_limit


@dataclass(frozen=True)
class AreaSeen:
    """Another betting area, as the viewer sees it."""

    number: int
    wagers: dict[str, int]
    cards: tuple[Card, ...]
    status: str
    hand: str = ""
    """Its hand (its card with the dealer's four) named once the hole card is turned over."""


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
    hand: str = ""
    """The viewer's hand (its card with the dealer's four, 17.8(b)) named once the hole card is
    turned over."""
    reasons: tuple[str, ...] = ()
    """Why each of :attr:`lines` won, pushed or lost."""


def area_view(rnd: DoubleDownRound, viewer: int) -> AreaView:
    """The round as seen from betting area ``viewer``."""
    others = tuple(
        AreaSeen(n, dict(a.placed), tuple(a.cards), a.status,
                 evaluate(a.hand_cards()).describe() if rnd.hole_revealed and len(a.hand_cards()) == 5 else "")
        for n, a in sorted(rnd.seats.items())
        if n != viewer
    )  # fmt: skip
    own = rnd.seats.get(viewer)
    lines = tuple(line for line in rnd.lines if line.seat == viewer)
    named = own is not None and rnd.hole_revealed and len(own.hand_cards()) == 5
    return AreaView(
        area=viewer,
        phase=rnd.phase,
        own_cards=tuple(own.cards) if own else (),
        others=others,
        dealer_up=tuple(rnd.dealer_cards[1:]),
        hole_card=rnd.dealer_cards[0] if rnd.hole_revealed and rnd.dealer_cards else None,
        pending=tuple(rnd.pending()),
        lines=lines,
        void_reason=rnd.void_reason,
        hand=evaluate(own.hand_cards()).describe() if own is not None and named else "",
        reasons=tuple(line_reason(own, line) for line in lines) if own else (),
    )


def line_reason(area: Area, line: SettlementLine) -> str:
    """Why ``line`` of ``area`` won, pushed or lost, in the player's words: a pair of fives or
    less loses (17.9(a)), a pair of sixes to tens pushes (17.9(b)), jacks or better pays by the
    pay table (17.9(c), 17.10)."""
    common = common_reason(line)
    if common is not None:
        return common
    the = wager_words(line.wager)
    cards = area.hand_cards()
    hand = f"your {evaluate(cards).describe()}" if len(cards) == 5 else f"your {line.hand}"
    if line.outcome == "lose":
        return f"{hand} is less than a pair of sixes: {the} is lost"
    if line.outcome == "push":
        return f"{hand}: a pair of sixes to tens pushes: {the} is returned"
    if line.outcome == "win":
        return with_limit(line, f"{hand} pays {line.odds}")
    return f"{the}: {line.hand}"  # pragma: no cover - every line is one of the above
