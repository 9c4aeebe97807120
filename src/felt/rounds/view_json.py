"""The JSON form of a seat's view of a round, as the server sends it: the parts every game's view
shares (the viewer's cards, the other seats, the elections pending, the viewer's own statement).
A game's folder builds its view of one seat by its rules and adds what is its own (the dealer's
cards as its rules show them) with these helpers; amounts are in dollars, cards as text."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from felt.core.cards import Card
from felt.core.money import dollars
from felt.rounds.engine import SettlementLine


class Seen(Protocol):
    """Another seat as the viewer sees it."""

    @property
    def number(self) -> int:
        """The seat's number."""
        ...

    @property
    def wagers(self) -> dict[str, int]:
        """Its wagers in cents, by name."""
        ...

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of it the viewer may see."""
        ...

    @property
    def status(self) -> str:
        """Where its hand stands (in play, folded, settled ...)."""
        ...


class SeatView(Protocol):
    """What every game's view of one seat has."""

    @property
    def phase(self) -> Any:
        """The round's phase."""
        ...

    @property
    def own_cards(self) -> tuple[Card, ...]:
        """The viewer's cards."""
        ...

    @property
    def others(self) -> Sequence[Seen]:
        """The other seats with a hand."""
        ...

    @property
    def pending(self) -> tuple[tuple[int, str], ...]:
        """The elections the round waits for: (seat, election)."""
        ...

    @property
    def lines(self) -> tuple[SettlementLine, ...]:
        """The viewer's own settlement statement so far."""
        ...

    @property
    def void_reason(self) -> str:
        """Why the round was declared void, if it was."""
        ...


def cards_json(cards: Iterable[Card]) -> list[str]:
    """Cards as text (``"AS"``)."""
    return [str(c) for c in cards]


def wagers_json(wagers: Mapping[str, int]) -> dict[str, str]:
    """Wagers in dollars, by name."""
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


def other_json(seen: Seen, **extra: Any) -> dict[str, Any]:
    """Another seat as the viewer sees it, with what the game adds (``extra``) before its
    status."""
    return {
        "seat": seen.number,
        "wagers": wagers_json(seen.wagers),
        "cards": cards_json(seen.cards),
        **extra,
        "status": seen.status,
    }


def view_json(view: SeatView, seat: int, others: list[dict[str, Any]]) -> dict[str, Any]:
    """What every game's view of ``seat`` has, with the other seats as the game wrote them
    (:func:`other_json`)."""
    return {
        "seat": seat,
        "phase": str(view.phase),
        "own_cards": cards_json(view.own_cards),
        "others": others,
        "pending": [{"seat": s, "election": w} for s, w in view.pending],
        "lines": [line_json(x) for x in view.lines],
        "void_reason": view.void_reason,
    }
