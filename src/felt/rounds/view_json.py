"""The JSON form of a seat's view of a round, as the server sends it: the parts every game's view
shares (the viewer's cards, the other seats, the elections pending, the viewer's own statement).
A game's folder builds its view of one seat by its rules and adds what is its own (the dealer's
cards as its rules show them) with these helpers; amounts are in dollars, cards as text.

Besides the round's facts, a view carries what a person reads at settlement (issue 20): the
viewer's hand and the dealer's hand named in full (``hand``, ``dealer_hand``: "" until the hand is
complete or revealed), the cards the viewer discarded (``discarded``: empty at a game without
discards, and until a discard), and on each statement line the word for its outcome (``result``:
``won``, ``pushed``, ``lost``, ``returned``, ``paid``) and a sentence saying why (``reason``),
written by the game from what the viewer may see."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Protocol

from felt.core.cards import CARD_TEXT, Card
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
    return [CARD_TEXT[c] for c in cards]


amount_json: Final = functools.lru_cache(maxsize=4096)(dollars)
""":func:`felt.core.money.dollars`, remembered: the views of a table write the same few amounts
(its wagers, their stakes and payouts) at every push, to every viewer."""


def wagers_json(wagers: Mapping[str, int]) -> dict[str, str]:
    """Wagers in dollars, by name."""
    return {k: amount_json(v) for k, v in wagers.items()}


RESULT_WORDS: Final = {
    "win": "won",
    "lose": "lost",
    "forfeit": "lost",
    "push": "pushed",
    "void": "returned",
    "paid": "paid",
}
"""The player's word for each statement outcome (a forfeit is lost, a void wager returned)."""


def wager_words(wager: str, words: Mapping[str, str] | None = None) -> str:
    """A wager named in a sentence: as the game's ``words`` name it (``the second wager``),
    else ``the <wager>`` (``the ante``)."""
    return (words or {}).get(wager, f"the {wager}")


def common_reason(line: SettlementLine, words: Mapping[str, str] | None = None) -> str | None:
    """The reason of a line every game words alike (a void wager returned), else None."""
    if line.outcome == "void":
        why = f"the hand is void ({line.hand})" if line.hand else "the hand is void"
        return f"{why}: {wager_words(line.wager, words)} is returned"
    return None


def with_limit(line: SettlementLine, reason: str) -> str:
    """``reason`` with the payout limit's reduction of the line, if any (a clause the line
    cites)."""
    if line.limit_reduction:
        return f"{reason} (reduced by {dollars(line.limit_reduction)} to the payout limit)"
    return reason


def line_json(line: SettlementLine, reason: str = "") -> dict[str, Any]:
    """A settlement statement line (amounts in dollars), with the word for its outcome and the
    game's ``reason`` for it."""
    return {
        "seat": line.seat,
        "wager": line.wager,
        "stake": amount_json(line.stake),
        "outcome": line.outcome,
        "amount": amount_json(line.amount),
        "odds": line.odds,
        "hand": line.hand,
        "clause": line.clause,
        "limit_reduction": amount_json(line.limit_reduction),
        "result": RESULT_WORDS.get(line.outcome, line.outcome),
        "reason": reason,
    }


def other_json(seen: Seen, **extra: Any) -> dict[str, Any]:
    """Another seat as the viewer sees it, with what the game adds (``extra``: its hand's name
    ``hand`` once all of it is in view) before its status."""
    return {
        "seat": seen.number,
        "wagers": wagers_json(seen.wagers),
        "cards": cards_json(seen.cards),
        **extra,
        "status": seen.status,
    }


def view_json(
    view: SeatView, seat: int, others: list[dict[str, Any]], *, reasons: Sequence[str] = (),
    hand: str = "", dealer_hand: str = "", discarded: Iterable[Card] = (),
) -> dict[str, Any]:  # fmt: skip
    """What every game's view of ``seat`` has, with the other seats as the game wrote them
    (:func:`other_json`) and what the game says of the viewer's hands: ``reasons`` (one a
    statement line, in order), the names of the viewer's hand and the dealer's, the viewer's
    discards."""
    said = list(reasons) + [""] * (len(view.lines) - len(reasons))
    return {
        "seat": seat,
        "phase": str(view.phase),
        "own_cards": cards_json(view.own_cards),
        "others": others,
        "pending": [{"seat": s, "election": w} for s, w in view.pending],
        "lines": [line_json(x, r) for x, r in zip(view.lines, said, strict=False)],
        "void_reason": view.void_reason,
        "hand": hand,
        "dealer_hand": dealer_hand,
        "discarded": cards_json(discarded),
    }
