"""What one seat may see of a round: built from the round by rule, never by hiding afterwards.

A player sees their own cards; another seat's cards once exposed for the bonus (the first three)
or turned over at settlement (24.10(f)); the dealer's cards once revealed (24.10(e)).  Each of the
viewer's statement lines says why, from the viewer's own hand and the dealer's revealed one.
"""

from __future__ import annotations

from dataclasses import dataclass

from felt.core.cards import Card
from felt.core.evaluator import HandValue, evaluate
from felt.games.boston.round import Round, SeatState
from felt.rounds.engine import SettlementLine
from felt.rounds.seat_view import SeatSeen, View
from felt.rounds.view_json import common_reason, wager_words, with_limit

__all__ = ["SeatSeen", "View", "line_reason", "seat_view"]


def seat_view(rnd: Round, viewer: int) -> View:
    """The round as seen from seat ``viewer``."""
    common = table_seen(rnd)
    own = rnd.seats.get(viewer)
    lines = tuple(line for line in rnd.lines if line.seat == viewer)
    value = own_hand(rnd, own)
    return View(
        seat=viewer,
        phase=rnd.phase,
        own_cards=tuple(own.cards) if own else (),
        others=tuple(o for o in common.seats if o.number != viewer),
        dealer_cards=common.dealer_cards,
        dealer_card_count=len(rnd.dealer_cards),
        pending=common.pending,
        lines=lines,
        void_reason=rnd.void_reason,
        hand="" if value is None else value.describe(),
        dealer_hand=common.dealer_hand,
        reasons=tuple(line_reason(rnd, own, line, value) for line in lines) if own else (),
        discarded=tuple(own.discarded or ()) if own else (),
    )


@dataclass(frozen=True)
class TableSeen:
    """What every seat's view of one state of a round has alike, whoever the viewer: each seat
    with a hand as any other seat sees it (a viewer's view leaves its own seat out), the
    elections pending, the dealer's cards once revealed and their hand named."""

    seats: tuple[SeatSeen, ...]
    pending: tuple[tuple[int, str], ...]
    dealer_cards: tuple[Card, ...]
    dealer_hand: str


_last: tuple[Round, int, TableSeen] | None = None
"""The last :class:`TableSeen` built, with its round and the round's event count: the views of
one push are built one after another for one state of one round, so one is remembered.  The
round is held (so its identity is not another's), and it changes only with an event (an action
adds one, or fails and leaves the round as it was)."""


def table_seen(rnd: Round) -> TableSeen:
    """:class:`TableSeen` of ``rnd`` as it stands, built once for the views of one state (a
    view built in another thread at once may replace what is remembered, never change it)."""
    global _last
    count, last = len(rnd.events), _last
    if last is not None and last[0] is rnd and last[1] == count:
        return last[2]
    seen = TableSeen(
        seats=tuple(_seen(number, seat) for number, seat in sorted(rnd.seats.items())),
        pending=tuple(rnd.pending()),
        dealer_cards=tuple(rnd.dealer_cards) if rnd.dealer_hand is not None else (),
        dealer_hand="" if rnd.dealer_hand is None else rnd.dealer_hand.describe(),
    )
    _last = (rnd, count, seen)
    return seen


def _seen(number: int, seat: SeatState) -> SeatSeen:
    """Seat ``number`` as any other seat sees it: its cards once turned over at settlement
    (24.10(f)) and named, its first three once exposed for the bonus (24.10(a)), else none."""
    if seat.status == "settled":
        visible: tuple[Card, ...] = tuple(seat.hand_cards())
    elif seat.exposed:
        visible = tuple(seat.cards[:3])
    else:
        visible = ()
    named = evaluate(visible).describe() if seat.status == "settled" and len(visible) >= 5 else ""
    return SeatSeen(number, dict(seat.placed), visible, len(seat.cards), seat.status, named)


def own_hand(rnd: Round, seat: SeatState | None) -> HandValue | None:
    """The seat's hand once it holds all its cards (five, or the five or seven it plays after
    the Boston 7 discard, 13:69F-24.10(c))."""
    if seat is None or len(seat.cards) < rnd.hand_size:
        return None
    return evaluate(seat.hand_cards())


WORDS = {"first": "the first wager", "second": "the second wager"}
"""How a reason names Boston's wagers (the rest: ``the ante``, ``the bonus``)."""


def line_reason(
    rnd: Round, seat: SeatState, line: SettlementLine, hand: HandValue | None = None
) -> str:
    """Why ``line`` of ``seat`` won, pushed or lost, in the player's words (24.10(a)-(g),
    24.11, 24.12), from the seat's own hand and the dealer's revealed hand only.  ``hand``: the
    seat's :func:`own_hand` where the caller has it already (else it is worked out here)."""
    if line.outcome == "void" and line.hand == "withdrawn":  # 24.10(c)
        return "second wager withdrawn: the second wager is returned"
    common = common_reason(line, WORDS)
    if common is not None:
        return common
    the = wager_words(line.wager, WORDS)
    if line.outcome == "forfeit":
        if "decision time ran out" in line.hand:
            return f"no second wager before the decision time ran out, so a fold: {the} is lost"
        if seat.decision == "withdraw":
            return f"second wager withdrawn, so the hand folds: {the} is lost"
        return f"folded: {the} is lost"
    if line.wager == "bonus":
        if line.outcome == "win":
            return with_limit(line, f"bonus: your first three cards ({line.hand}) pay {line.odds}")
        if line.hand.startswith("not exposed"):
            late = " (the decision time ran out)" if "time ran out" in line.hand else ""
            return f"bonus: your first three cards were not exposed{late}: the bonus is lost"
        return f"bonus: your first three cards ({line.hand}) pay no bonus: the bonus is lost"
    dealer = rnd.dealer_hand
    mine = own_hand(rnd, seat) if hand is None else hand
    if dealer is None or mine is None:  # a round void but for hands that qualify (24.12(a), (f))
        if line.outcome == "win":
            return with_limit(
                line, f"the round is void, but your first three cards are three of a kind: "
                f"the ante bonus pays {line.odds}",
            )  # fmt: skip
        return f"{the}: {line.hand}" if line.hand else the
    you, they = f"your {mine.describe()}", f"the dealer's {dealer.describe()}"
    if line.wager == "ante bonus":
        name = line.hand.removeprefix("ante bonus: ").split(",")[0]
        return with_limit(
            line, f"ante bonus: your {name} is paid {line.odds} whatever the dealer holds"
        )
    if line.outcome == "lose":
        return f"{they} beats {you}: {the} is lost"
    if line.outcome == "push" and dealer == mine:
        return f"{you} ties {they}: {the} is returned"
    if line.outcome == "push":  # the ante of a winning hand that is no ante bonus hand
        return f"{you} beats {they}, but it is no ante bonus hand: the ante is returned"
    if line.wager == "ante":
        name = line.hand.removeprefix("ante bonus: ")
        return with_limit(line, f"{you} beats {they}; ante bonus for {name}: pays {line.odds}")
    return with_limit(line, f"{you} beats {they}: pays {line.odds}")
