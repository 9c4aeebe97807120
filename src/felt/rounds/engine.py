"""Shared machinery of a round at any of the chapter's stud games: the shoe, the discard rack, the
money ledger, settlement lines and the event record.

A game's round module (``felt.games.<game>.round``) says only what is particular to its game;
these pieces keep the physical facts every game shares: which card is next, where every card went
and in what order (so any hand can be reconstructed, 19:47-24.10(g)), and where every chip went.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Final, TypeVar

from felt.core.cards import Card, format_cards
from felt.core.errors import FeltError
from felt.core.money import dollars

HOUSE: Final = "house"
LAYOUT: Final = "layout"
PROGRESSIVE: Final = "progressive"
"""The party of a table's progressive meter (a game with a progressive payout): contributions
move onto it, percentage payouts off it.  The server posts it on the ledger account of the meter
the table is linked to (``progressive:<meter>``, see :class:`felt.games.base.Progressive`)."""
POT: Final = "pot"
"""The chips players put in a pot they play for against each other (the poker room): the table
holds them until the pot is awarded."""


_Frozen = TypeVar("_Frozen")


def quick_init(cls: type[_Frozen]) -> type[_Frozen]:
    """Give a frozen dataclass an ``__init__`` that fills the instance's dict directly.

    The generated ``__init__`` of a frozen dataclass sets each field through
    ``object.__setattr__``, a call per field; the record of every action is made of such values
    (effects, transfers, statement lines, the event), several an action.  The new one takes the
    same parameters with the same defaults, made from the class's fields, and the instance is as
    frozen as ever (``__setattr__`` still refuses).  Only for a class whose fields all are
    parameters with plain defaults (no factory, no ``__post_init__``, no slots): anything else
    is refused here, at import."""
    params: list[str] = []
    lines: list[str] = []
    defaults: dict[str, Any] = {}
    if not cls.__dataclass_params__.frozen or hasattr(cls, "__post_init__"):  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: quick_init is for frozen dataclasses only")
    for f in fields(cls):  # type: ignore[arg-type]
        if not f.init or f.kw_only or f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: quick_init takes plain fields only")
        if f.default is MISSING:
            params.append(f.name)
        else:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        lines.append(f"    fill[{f.name!r}] = {f.name}")
    source = f"def __init__(self, {', '.join(params)}):\n    fill = self.__dict__\n"
    namespace: dict[str, Any] = {}
    exec(source + "\n".join(lines), defaults, namespace)  # the text is made above
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


def check_deck(cards: Sequence[Card], what: str = "deck") -> tuple[Card, ...]:
    """A full 52-card deck in dealing order; a repeated or missing card is a clear error."""
    if len(cards) == 52 and all(type(c) is Card for c in cards) and len(set(cards)) == 52:
        return tuple(cards)  # the common case, checked at once (cards made by Card are valid)
    seen: set[int] = set()
    for i, c in enumerate(cards):
        if c in seen:
            raise FeltError(f"{what}: card {c} appears twice (second time at position {i + 1})")
        seen.add(c)
    if len(cards) != 52:
        raise FeltError(f"{what}: a deck has 52 cards, got {len(cards)}")
    return tuple(Card(int(c)) for c in cards)


class VoidAll(Exception):
    """Raised inside a dealing step when an irregularity voids every hand (e.g. 24.12(b))."""

    def __init__(self, clause: str, reason: str) -> None:
        super().__init__(reason)
        self.clause = clause
        self.reason = reason


@dataclass
class Shoe:
    """The deck in dealing order and the position of the next card.

    ``face_up`` holds positions (0-based) of cards found face up in the deck: such a card is not
    used but goes to the discard rack (24.12(b)); the second one found in a round voids all hands.
    """

    order: tuple[Card, ...]
    position: int = 0
    face_up: set[int] = field(default_factory=set)
    face_up_found: int = 0

    def remaining(self) -> int:
        """Cards left in the shoe (the stub, once the deal is over)."""
        return len(self.order) - self.position

    def draw(self, rack: DiscardRack, clause_b: str) -> Card:
        """The next usable card; a face-up card on top is burned to the rack first (24.12(b))."""
        while True:
            if self.position >= len(self.order):
                raise FeltError("the shoe is empty: no card left to deal")
            pos = self.position
            self.position += 1
            card = self.order[pos]
            if pos not in self.face_up:
                return card
            self.face_up_found += 1
            rack.put(f"card found face up in the deck ({clause_b})", (card,))
            if self.face_up_found > 1:
                raise VoidAll(clause_b, "more than one card found face up in the deck")

    def take_stub(self) -> tuple[Card, ...]:
        """Remove and return the remaining cards."""
        stub = self.order[self.position :]
        self.position = len(self.order)
        return stub


@dataclass
class DiscardRack:
    """Cards in pickup order, in labelled bundles, so each hand can be reconstructed."""

    bundles: list[tuple[str, tuple[Card, ...]]] = field(default_factory=list)

    def put(self, label: str, cards: Sequence[Card]) -> None:
        """Place cards in the rack, on top of what is there."""
        if cards:
            self.bundles.append((label, tuple(cards)))

    def cards(self) -> list[Card]:
        """Every card in the rack, bottom to top."""
        return [c for _, bundle in self.bundles for c in bundle]

    def describe(self) -> list[str]:
        """One line per bundle: what it is and its cards."""
        return [f"{label}: {format_cards(cards)}" for label, cards in self.bundles]


@quick_init
@dataclass(frozen=True)
class Transfer:
    """Chips moving between a player, the layout (wagers in action) and the house."""

    source: str
    target: str
    amount: int
    reason: str


@dataclass
class Ledger:
    """Every chip movement of a round; balances always sum to zero."""

    transfers: list[Transfer] = field(default_factory=list)

    def move(self, source: str, target: str, amount: int, reason: str) -> None:
        """Record a movement of ``amount`` cents (zero moves are skipped)."""
        if amount < 0:
            raise ValueError("a transfer moves a positive amount")
        if amount:
            self.transfers.append(Transfer(source, target, amount, reason))

    def balance(self, party: str) -> int:
        """Net cents received by ``party``."""
        return sum(t.amount for t in self.transfers if t.target == party) - sum(
            t.amount for t in self.transfers if t.source == party
        )


def seat_party(seat: int) -> str:
    """The ledger name of a seat's player."""
    return f"seat {seat}"


@quick_init
@dataclass(frozen=True)
class SettlementLine:
    """How one wager of one seat was resolved: the line of a settlement statement."""

    seat: int
    wager: str
    stake: int
    outcome: str
    """``win``, ``lose``, ``push`` (stake returned), ``void`` (returned), ``forfeit``, or ``paid``
    (a payout owed whatever became of the wager it is figured on: an ante bonus when the dealer's
    hand is higher or ties, 19:47-24.10(f)3; ``stake`` is then the ante it is figured on)."""
    amount: int
    """Player's result in cents: the win, minus the stake lost, or zero."""
    clause: str
    odds: str = ""
    hand: str = ""
    limit_reduction: int = 0
    """Cents withheld under the payout limit (24.11(e))."""

    def describe(self) -> str:
        """One line for a printed statement."""
        parts = [f"seat {self.seat}", f"{self.wager} {dollars(self.stake)}", self.outcome]
        if self.hand:
            parts.append(self.hand)
        if self.odds:
            parts.append(f"at {self.odds}")
        sign = "+" if self.amount > 0 else ""
        parts.append(f"{sign}{dollars(self.amount)}")
        if self.limit_reduction:
            parts.append(f"(reduced by {dollars(self.limit_reduction)} to the payout limit)")
        parts.append(f"[{self.clause}]")
        return "  ".join(parts)


@quick_init
@dataclass(frozen=True)
class Effect:
    """One thing that happened as a result of an action: a card dealt, chips moved, a hand void."""

    kind: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    amount: int = 0
    detail: str = ""


@quick_init
@dataclass(frozen=True)
class Event:
    """An accepted action and everything it caused, in order; immutable once recorded."""

    seq: int
    action: object
    effects: tuple[Effect, ...]
    lines: tuple[SettlementLine, ...] = ()
