"""What a seat may see of a craps roll: everything.  Every chip on a craps layout is in view of
all, with its owner; the only thing hidden is a roll not yet thrown.  The view adds the point, the
shooter, the dice, the last rolls, each seat's wagers (working or off, the calls), what the viewer
may do now, and each of the viewer's statement lines with the reason in the player's words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from felt.core.money import dollars
from felt.games.craps.round import CrapsRound, CrapsSeat, Phase
from felt.games.craps.spots import SPOTS, spot
from felt.rounds.engine import SettlementLine
from felt.rounds.view_json import common_reason, other_json, view_json


@dataclass(frozen=True)
class Seen:
    """Another seat's wagers as anyone sees them (labels to cents)."""

    number: int
    wagers: dict[str, int]
    cards: tuple[Any, ...]
    status: str


@dataclass(frozen=True)
class CrapsView:
    """One seat's view of a roll (0: what anyone may see)."""

    seat: int
    phase: Phase
    own_cards: tuple[Any, ...]
    others: tuple[Seen, ...]
    pending: tuple[tuple[int, str], ...]
    lines: tuple[SettlementLine, ...]
    void_reason: str
    reasons: tuple[str, ...]


_BY_LABEL = {s.label: s for s in SPOTS}


def line_reason(line: SettlementLine, point_before: int | None) -> str:
    """Why a statement line won, lost or was returned, in the player's words, from the roll (the
    line's dice) and the point the roll found (1.2(a), 1.6).

    >>> from felt.rounds.engine import SettlementLine as L
    >>> line_reason(L(1, "Place 6 to win", 1200, "win", 1400, "", "7 to 6", "3 and 3"), 6)
    '6 came before a 7: pays 7 to 6; the wager stays up'
    >>> line_reason(L(1, "Pass", 1000, "lose", -1000, "", "", "3 and 4"), 6)
    '7 out: the point 6 did not come'
    """
    common = common_reason(line)
    if common is not None:  # pragma: no cover - a craps roll is never void as a whole
        return common
    s = _BY_LABEL.get(line.wager)
    a, _, b = line.hand.partition(" and ")
    if s is None or not (a.isdigit() and b.isdigit()):  # pragma: no cover - every line is ours
        return line.outcome
    total, hard = int(a) + int(b), a == b
    if line.outcome == "void":
        return f"12 on its first roll bars {line.wager.lower()}: it is returned"
    if line.outcome == "push":
        return f"{line.wager.lower()} was off when its wager was decided: it is returned"
    first = s.kind in ("pass", "dont_pass") and point_before is None
    first = first or (s.kind in ("come", "dont_come") and s.number is None)
    stays = s.kind in ("place", "place_lose", "buy", "lay", "hard") and line.outcome == "win"
    tail = "; the wager stays up" if stays else ""
    if s.one_roll:
        why = f"{total} rolled"
    elif first:
        why = f"{total} on the {'come out roll' if s.kind.endswith('pass') else 'first roll'}"
    elif s.kind == "hard":
        why = (
            f"{total} the hard way"
            if hard and total == s.number
            else ("a 7 came" if total == 7 else f"{total} the easy way")
        )
    elif total == 7:
        number = s.number or point_before
        why = (
            f"7 out: the point {number} did not come"
            if s.kind == "pass"
            else f"a 7 came before {number}"
        )
    else:
        why = f"{total} came before a 7"
    if line.outcome == "win":
        return f"{why}: pays {line.odds}{tail}"
    return why if why.startswith("7 out") else f"{why}: the wager is lost"


def seat_wagers(rnd: CrapsRound, seat: CrapsSeat) -> dict[str, dict[str, Any]]:
    """A seat's wagers as the view gives them: {spot id: amount, working, call, player}."""
    return {
        sid: {
            "amount": dollars(amount),
            "working": rnd.working(seat.number, sid) if not rnd.finished else False,
            "call": seat.calls.get(sid),
            "player": seat.player,
        }
        for sid, amount in seat.wagers.items()
    }


def craps_view(rnd: CrapsRound, viewer: int) -> CrapsView:
    """The roll as seen from ``viewer``."""
    lines = tuple(line for line in rnd.lines if line.seat == viewer)
    before = rnd.point_before()
    others = tuple(
        Seen(n, {spot(k).label: v for k, v in s.wagers.items()}, (),
             "wagers" if s.wagers else "settled")
        for n, s in sorted(rnd.seats.items())
        if n != viewer and (s.wagers or any(x.seat == n for x in rnd.lines))
    )  # fmt: skip
    return CrapsView(viewer, rnd.phase, (), others, (), lines, rnd.void_reason,
                     tuple(line_reason(x, before) for x in lines))  # fmt: skip


def seat_json(rnd: CrapsRound, viewer: int) -> dict[str, Any]:
    """:func:`craps_view` as JSON with craps's own keys (decisions.md "The view")."""
    view = craps_view(rnd, viewer)
    own = rnd.seats.get(viewer)
    shooter = rnd.shooter if rnd.phase is not Phase.BETTING else rnd.next_shooter()
    return {
        **view_json(
            view, viewer, [other_json(o, hand="") for o in view.others], reasons=view.reasons
        ),
        "point": rnd.point,
        "come_out": rnd.come_out,
        "shooter": shooter,
        "waiting": rnd.waiting() if rnd.phase is Phase.BETTING else None,
        "dice": list(rnd.dice) if rnd.dice else None,
        "invalid_rolls": rnd.invalid_rolls,
        "rolls": [dict(r, dice=list(r["dice"])) for r in rnd.rolls],
        "layout": {str(n): seat_wagers(rnd, s) for n, s in sorted(rnd.seats.items()) if s.wagers},
        "your_wagers": seat_wagers(rnd, own) if own else {},
        "allowed": rnd.allowed(viewer)
        if viewer
        else {"bet": [], "take_down": [], "call_on": [], "call_off": []},
    }
