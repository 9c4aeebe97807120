"""What the server sends each client, built from that client's seat view and never by filtering
a full state: a player gets :func:`~felt.games.boston.view.seat_view` (or
:func:`~felt.games.double_down.view.area_view`) of each seat they hold, anyone else the view of
no seat (what the whole table may see).  The shoe, the stub and the discard rack are in no view.
"""

from __future__ import annotations

from typing import Any

from felt.core.money import dollars
from felt.games.boston.round import Round
from felt.games.boston.view import SeatSeen, View, seat_view
from felt.games.double_down.round import DoubleDownRound
from felt.games.double_down.view import AreaView, area_view
from felt.rounds.engine import SettlementLine
from felt.rounds.round_core import RoundCore

PUBLIC = 0
"""The seat number of the view of no seat: what a spectator, the dealer or a player without a
seat at this table may see."""


def _cards(cards: tuple[Any, ...]) -> list[str]:
    return [str(c) for c in cards]


def _wagers(wagers: dict[str, int]) -> dict[str, str]:
    return {k: dollars(v) for k, v in wagers.items()}


def line_json(line: SettlementLine) -> dict[str, Any]:
    """A settlement statement line (amounts in dollars)."""
    return {
        "seat": line.seat,
        "wager": line.wager,
        "stake": dollars(line.stake),
        "outcome": line.outcome,
        "amount": dollars(line.amount),
        "odds": line.odds,
        "hand": line.hand,
        "clause": line.clause,
        "limit_reduction": dollars(line.limit_reduction),
    }


def _common(view: View | AreaView, seat: int) -> dict[str, Any]:
    """What every game's view has: the viewer's cards, the others, the elections pending, the
    viewer's own statement."""
    others = []
    for o in view.others:
        entry: dict[str, Any] = {
            "seat": o.number,
            "wagers": _wagers(o.wagers),
            "cards": _cards(o.cards),
        }
        if isinstance(o, SeatSeen):
            entry["card_count"] = o.card_count
        entry["status"] = o.status
        others.append(entry)
    return {
        "seat": seat,
        "phase": str(view.phase),
        "own_cards": _cards(view.own_cards),
        "others": others,
        "pending": [{"seat": s, "election": w} for s, w in view.pending],
        "lines": [line_json(x) for x in view.lines],
        "void_reason": view.void_reason,
    }


def _boston(view: View) -> dict[str, Any]:
    return {
        **_common(view, view.seat),
        "dealer_cards": _cards(view.dealer_cards),
        "dealer_card_count": view.dealer_card_count,
    }


def _double_down(view: AreaView) -> dict[str, Any]:
    return {
        **_common(view, view.area),
        "dealer_up": _cards(view.dealer_up),
        "hole_card": None if view.hole_card is None else str(view.hole_card),
    }


def seat_message(rnd: RoundCore, seat: int) -> dict[str, Any]:
    """The round as seat ``seat`` (or :data:`PUBLIC`) may see it now, as JSON-ready data."""
    if isinstance(rnd, DoubleDownRound):
        return _double_down(area_view(rnd, seat))
    if isinstance(rnd, Round):
        return _boston(seat_view(rnd, seat))
    raise TypeError(f"no view for {type(rnd).__name__}")  # pragma: no cover - two games
