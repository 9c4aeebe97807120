"""What one seat sees of a poker hand, built from the hand, never by filtering a full record.

Its own cards; of every other player only the cards dealt face up (stud) and how many are face
down; the board, the pots, the bets, whose turn and the legal actions with their amounts.  No
hole card of another player before the showdown, and a folded hand's cards never: at the
showdown only the hands still in are shown (14.15(j), (k): a folded hand is dead and mucked).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from felt.core.cards import Card
from felt.core.money import dollars
from felt.games.poker.hand import PokerHand
from felt.games.poker.round import Phase, PokerRound
from felt.rounds.engine import SettlementLine
from felt.rounds.view_json import cards_json, view_json


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

    def live(s: int) -> bool:  # a hand still in: not folded, not dead ((j), (j)3, (j)4, (k)2, (l))
        return hand.in_hand(s) and not hand.dead(s)

    showdown = hand.status == "awarded" and sum(live(s) for s in hand.order) > 1
    others = []
    for other in hand.order:
        if other == seat:
            continue
        alive = live(other)
        cards = hand.hole_cards(other) if alive else ()
        up = tuple(c for c in hand.up_cards(other) if c in cards)
        others.append(
            OtherSeat(
                seat=other,
                in_hand=alive,
                up=up,
                down=len(cards) - len(up),
                shown=cards if showdown and alive else (),
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


def seat_json(rnd: PokerRound, seat: int) -> dict[str, Any]:
    """What ``seat`` (0: anyone) sees of a table round, JSON-ready (dollars as strings): the keys
    every game's view has (:func:`felt.rounds.view_json.view_json`) and the poker room's own:
    ``board``, ``pot``, ``pots`` (each ``amount`` and the ``seats`` that may win it), ``stack``
    and ``bet`` (the viewer's), ``to_act``, ``legal`` (the viewer's choices on their turn, in
    words with their amounts), ``button`` and ``stacks`` (every seat's chips, in view of all).
    Built from :func:`seat_view` of the hand, never by filtering it."""
    mine = tuple(line for line in rnd.lines if line.seat == seat)
    variant = rnd.config.variant
    over = rnd.finished or bool(rnd.over)  # no one acts in a hand that is over (or misdealt)
    hand = rnd.hand
    seen = seat_view(hand, seat) if hand is not None else None
    others: list[dict[str, Any]] = []
    by_seat = {o.seat: o for o in seen.others} if seen is not None else {}
    for n, held in sorted(rnd.seats.items()):
        if n == seat:
            continue
        o = by_seat.get(n)
        in_hand = o is not None and o.in_hand
        shown = o.shown if o is not None else ()
        others.append({
            "seat": n,
            "wagers": {"bet": dollars(o.bet)} if o is not None and o.bet else {},
            "cards": cards_json(shown or (o.up if o is not None else ())),
            "card_count": (len(shown) if shown else (o.down + len(o.up))) if o is not None else 0,
            "stack": dollars(o.stack if o is not None else held.stack),
            "hand": _hand_name(shown, seen.board if seen else (), variant) if shown else "",
            "status": "in" if in_hand else "folded" if o is not None else "sitting in",
        })  # fmt: skip
    own = seen.cards if seen is not None else ()
    view = _Shape(rnd.phase, own, tuple(rnd.pending()), mine, rnd.void_reason)
    out = view_json(view, seat, others, reasons=[_reason(x) for x in mine])  # type: ignore[arg-type]
    held_here = rnd.seats.get(seat)
    out.update(
        {
            "board": cards_json(seen.board) if seen else [],
            "board_count": len(seen.board) if seen else 0,
            "pot": dollars(seen.pot) if seen else "0.00",
            "pots": [
                {"amount": dollars(a), "seats": list(s)} for a, s in (seen.pots if seen else ())
            ],
            "stack": dollars(
                seen.stack
                if seen is not None and hand is not None and seat in hand.start
                else held_here.stack
                if held_here
                else 0
            ),
            "bet": dollars(seen.bet) if seen else "0.00",
            "to_act": seen.to_act if seen and not over else None,
            "legal": list(seen.legal) if seen and not over else [],
            "choices": choices(hand, seat) if hand is not None and not over else [],
            "button": rnd.button if hand is not None else None,
            "status": rnd.ended_by or ("playing" if hand is not None else "sitting in"),
            "hand": _hand_name(own, seen.board, variant) if seen and own and rnd.finished else "",
        }
    )
    return out


@dataclass(frozen=True)
class _Shape:
    """The fields :func:`view_json` reads."""

    phase: Phase
    own_cards: tuple[Card, ...]
    pending: tuple[tuple[int, str], ...]
    lines: tuple[SettlementLine, ...]
    void_reason: str


def _reason(line: SettlementLine) -> str:
    """Why the seat won or lost what it did, in the player's words."""
    if line.outcome == "void":
        return f"no hand: {line.hand}; every chip returned"
    if line.outcome == "win":
        return f"won {dollars(line.amount)} more than you put in ({line.hand})"
    if line.outcome == "lose":
        return f"put in {dollars(line.stake)} and did not win the pot"
    return "took back what you put in"


def _hand_name(cards: tuple[Card, ...], board: tuple[Card, ...], variant: str) -> str:
    """The best five-card hand of ``cards`` with ``board`` (Omaha: exactly two of the hole
    cards with three of the board), named, or "" when fewer than five cards are known."""
    from itertools import combinations

    from felt.core.evaluator import evaluate

    if variant == "omaha":
        if len(cards) < 2 or len(board) < 3:
            return ""
        best = max(
            evaluate([*h, *b]) for h in combinations(cards, 2) for b in combinations(board, 3)
        )
        return best.describe()
    every = list(cards) + list(board)
    return evaluate(every).describe() if 5 <= len(every) <= 7 else ""


def choices(hand: PokerHand, seat: int) -> list[dict[str, Any]]:
    """What ``seat`` may do now, on its turn only, each ``action`` (the JSON name) with its
    ``amount`` (check, call, bring in, all in: what it puts in) or ``minimum`` and ``maximum``
    (a bet or a raise to a total this betting round), dollars; empty when it is not its turn."""
    from felt.games.poker import hand as ph

    if hand.to_act() != seat:
        return []
    s = hand.state
    owed = int(s.checking_or_calling_amount or 0)
    out: list[dict[str, Any]] = []
    for kind, extra in (
        (ph.Fold, {}),
        (ph.Check, {}),
        (ph.Call, {"amount": dollars(owed)}),
        (ph.BringIn, {"amount": dollars(int(s.effective_bring_in_amount or 0))}),
        (ph.AllIn, {"amount": dollars(hand.stack(seat))}),
    ):
        if hand.can(kind(seat)):
            out.append({"action": kind.name, **extra})
    low = int(s.min_completion_betting_or_raising_to_amount or 0)
    high = int(s.max_completion_betting_or_raising_to_amount or 0)
    for wager in (ph.Bet(seat, low), ph.RaiseTo(seat, low)):
        if low and hand.can(wager):
            out.append({"action": wager.name, "minimum": dollars(low), "maximum": dollars(high)})
    return out
