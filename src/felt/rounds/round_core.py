"""What every round of every game shares: the verify / can / do triple over actions, the event
record and replay, chips moved through the ledger into statement lines, and the irregularities
whose handling is the same in every game of the chapter (a card found face up, a card drawn in
error, a shuffler that jams).

A game subclasses :class:`RoundCore` and supplies its phases, its seats, ``cite``,
``next_dealer_action``, ``finished``, ``cards_to_come``, ``pending``, its elections
(``ELECTIONS`` and ``_deem``) and one ``_check_<action>`` / ``_do_<action>`` pair per action it
knows.

A player's election (a choice the rules leave to the player, such as 19:47-24.10(a) and (b) or
19:47-17.4(c) and 17.8(c)) is never cut off by a dealer step: the step is refused while the
election is pending.  The engine keeps no clock; whoever runs the table records a
:class:`~felt.rounds.actions.DecisionTimeout` when the table's ``decision_seconds`` have passed,
and the player is deemed to have made the choice ``ELECTIONS`` names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Protocol, Self

from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.rounds.actions import (
    Action,
    DecisionTimeout,
    DrawnInError,
    FaceUpCard,
    PlayerAction,
    ShufflerJam,
)
from felt.rounds.engine import (
    HOUSE,
    LAYOUT,
    DiscardRack,
    Effect,
    Event,
    Ledger,
    SettlementLine,
    Shoe,
    VoidAll,
    check_deck,
    seat_party,
)


class Position(Protocol):
    """A betting position: its number, its wagers still in action, the cards it plays."""

    number: int
    wagers: dict[str, int]

    def hand_cards(self) -> list[Card]:
        """The cards this position's hand is played with."""
        ...


def _clone(value: Any) -> Any:
    """A copy of round state deep enough that no change to the copy reaches the original: the
    state is held in dicts, lists, sets and (unfrozen) dataclasses; everything else in it
    (cards, numbers, strings, tuples, enums, frozen dataclasses) is immutable and shared."""
    how = _HOW.get(type(value), _learn)
    return value if how is None else how(value)


def _clone_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    # the dispatch inlined: most values are shared, and a call per value was most of a copy
    return {k: v if (how := _HOW.get(type(v), _learn)) is None else how(v)
            for k, v in value.items()}  # fmt: skip


def _clone_list(value: list[Any]) -> list[Any]:
    return [v if (how := _HOW.get(type(v), _learn)) is None else how(v) for v in value]


def _clone_object(value: Any) -> Any:
    twin = object.__new__(type(value))
    twin.__dict__.update(_clone_dict(value.__dict__))
    return twin


_HOW: dict[type, Callable[[Any], Any] | None] = dict.fromkeys(
    (Card, int, str, bool, float, tuple, type(None))
)
"""How :func:`_clone` copies a value of each type it has met (None: shared, immutable); the
answer depends on the type alone, so it is worked out once per type (:func:`_learn`)."""


def _learn(value: Any) -> Any:
    """Work out how values of ``value``'s type are copied, remember it, and copy ``value``."""
    kind = type(value)
    how: Callable[[Any], Any] | None = None
    if isinstance(value, dict):
        how = _clone_dict
    elif isinstance(value, list):
        how = _clone_list
    elif isinstance(value, set):
        how = set
    else:
        params = getattr(kind, "__dataclass_params__", None)
        if params is not None and not params.frozen and hasattr(value, "__dict__"):
            how = _clone_object
    _HOW[kind] = how
    return value if how is None else how(value)


_MADE_WITH: dict[type, tuple[str, ...]] = {}
"""The constructor's arguments of each kind of round (its ``init`` fields), by class."""


@dataclass
class RoundCore:
    """Shared machinery of a round; see the module docstring."""

    config: Any
    deck: tuple[Card, ...]
    number: int = 1
    events: list[Event] = field(default_factory=list)
    lines: list[SettlementLine] = field(default_factory=list)
    rack: DiscardRack = field(default_factory=DiscardRack)
    ledger: Ledger = field(default_factory=Ledger)
    shoe: Shoe = field(init=False)
    dealt_from: tuple[Card, ...] = field(init=False)
    """The deck as the round began (before any cut or reshuffle): what a replay starts from."""
    void_reason: str = ""
    _effects: list[Effect] = field(default_factory=list)
    _new_lines: list[SettlementLine] = field(default_factory=list)
    _origin: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """The round as it was made (its constructor's arguments), for :meth:`replay_from_start`;
    never changed once made (copies of the round share it)."""

    def __post_init__(self) -> None:
        if self.uses_cards:
            self.deck = check_deck(self.deck)
        elif self.deck:
            raise FeltError(f"{self.config.game} is played without cards: its deck is empty")
        self.dealt_from = self.deck
        self.shoe = Shoe(self.deck)
        made = _MADE_WITH.get(type(self))
        if made is None:
            made = _MADE_WITH[type(self)] = tuple(f.name for f in fields(self) if f.init)
        self._origin = {name: _clone(getattr(self, name)) for name in made}

    # ----------------------------------------------------------------- what a game supplies
    uses_cards: ClassVar[bool] = True
    """Whether the game deals cards; a dice game sets False and is made with ``deck=()`` (an
    empty shoe, no deck to check)."""
    face_up_clause: ClassVar[str] = "12(b)"
    drawn_in_error_clause: ClassVar[str] = "12(c)"
    shuffler_jam_clause: ClassVar[str] = "12(e)"
    seat_label: ClassVar[str] = "seat"
    """What the game calls a betting position, as its rule text does ("seat" or "area")."""
    ELECTIONS: ClassVar[dict[str, tuple[str, str]]] = {}
    """Each election ``pending`` can name -> (the choice a player whose decision time ran out is
    deemed to have made, the section that gives the election)."""

    def seat_count(self) -> int:
        """Positions at the table, numbered 1 to this from the dealer's left."""
        return 6

    def cite(self, section: str) -> str:
        """The citation of a section of this game's rules."""
        raise NotImplementedError

    @property
    def finished(self) -> bool:
        """Whether the round is over."""
        raise NotImplementedError

    def must_stay_seated(self, seat: int) -> str:
        """Why the player whose hand is in play at ``seat`` may not stand up yet (the game's
        clause): a hand is its wagering player's until the round is settled."""
        raise NotImplementedError

    def next_dealer_action(self) -> Action | None:
        """The dealer's next step, or None while players must act first (an election pending)."""
        raise NotImplementedError

    def cards_to_come(self) -> bool:
        """Whether cards remain to be dealt (so a face-up card can still be found)."""
        raise NotImplementedError

    @property
    def title(self) -> str:
        """The rule text this round follows."""
        raise NotImplementedError

    @property
    def edition_name(self) -> str:
        """The edition's short name (e.g. ``nj-19-47-24``)."""
        raise NotImplementedError

    @property
    def rack_clause(self) -> str:
        """The clause on how cards are collected into the discard rack."""
        raise NotImplementedError

    def pending(self) -> list[tuple[int, str]]:
        """Player elections the round waits for, in any order: (seat, what) pairs, ``what`` a key
        of ``ELECTIONS``."""
        raise NotImplementedError

    def _deem(self, seat: int, what: str) -> None:
        """Apply the choice ``seat`` is deemed to have made on ``what`` when its time ran out."""
        raise NotImplementedError

    def window_actions(self) -> tuple[type[Action], ...]:
        """Kinds of action the open decision window is for (the dealer must not move past it
        when such an action is refused: its own refusal is the useful error)."""
        return ()

    def _void_all(self, clause: str, reason: str) -> None:
        raise NotImplementedError

    def _cards_needed(
        self, misdeal: tuple[int | None, int] | None = None, new_seat: int | None = None
    ) -> int:
        """The most usable cards the deals still to come can take, with the misdeals given so
        far, and ``misdeal`` (position, cards) and a wager on ``new_seat`` if named: every
        position now in play assumed to stay in; a deal that voids every hand stops there."""
        return 0

    def _check_cards_suffice(
        self,
        what: str,
        allowed: str = "",
        *,
        misdeal: tuple[int | None, int] | None = None,
        face_up: int | None = None,
        new_seat: int | None = None,
    ) -> None:
        """Refuse an action after which the deal could run out of cards partway.

        Walks the shoe as the deal will: a card marked face up is burned to the rack (24.12(b),
        17.11(b)) and a second one voids every hand, which ends the deal.
        """
        need = self._cards_needed(misdeal, new_seat)
        marked = self.shoe.face_up | ({face_up - 1} if face_up is not None else set())
        found, usable, pos = self.shoe.face_up_found, 0, self.shoe.position
        while usable < need:
            if pos >= len(self.shoe.order):
                raise FeltError(
                    f"{what}: the deal would then need {need} cards"
                    + (" besides a card found face up" if found > self.shoe.face_up_found else "")
                    + f" and only {self.shoe.remaining()} are left in the shoe"
                    + (f"; {allowed}" if allowed else "")
                )
            if pos in marked:
                found += 1
                if found > 1:
                    return
            else:
                usable += 1
            pos += 1

    # ----------------------------------------------------------------- verify / can / do
    def check(self, action: Action) -> None:
        """Raise :class:`FeltError` if ``action`` is not allowed now; never changes the round."""
        checker = getattr(self, f"_check_{action.name}", None)
        if checker is None:
            raise FeltError(f"{action.name!r} is not an action of {self.config.game}")
        if self.finished:
            raise FeltError("the round is over; no more actions")
        if isinstance(action, PlayerAction) and not 1 <= action.seat <= self.seat_count():
            raise FeltError(
                f"seat {action.seat} does not exist (seats are 1 to {self.seat_count()})"
            )
        checker(action)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is allowed now."""
        try:
            self.check(action)
        except FeltError:
            return False
        return True

    def apply(self, action: Action) -> Event:
        """Check and perform ``action``; return the immutable event it recorded.

        All or nothing: an action ``check`` refuses changes nothing, and one it allows is applied
        completely.  The rules are checked so that an allowed action never fails partway (e.g. a
        misdeal that would empty the shoe is refused, 24.12(d)); should anything still go wrong
        while it is applied, the round is rebuilt exactly as it was (see :meth:`_restore`) and
        the error raised.
        """
        self.check(action)
        self._effects, self._new_lines = [], []
        try:
            try:
                getattr(self, f"_do_{action.name}")(action)
            except VoidAll as void:
                self._void_all(void.clause, void.reason)
        except BaseException:
            self._restore()
            raise
        event = Event(len(self.events) + 1, action, tuple(self._effects), tuple(self._new_lines))
        self.events.append(event)
        return event

    def _restore(self) -> None:
        """Put the round back as it was before the action being applied: replay the recorded
        actions on a new round made as this one was (replay is exact, a property the tests
        hold it to), and take over its state.  The record objects (events, lines, the discard
        rack, the ledger) stay the same objects, so whoever holds them sees the restored state.
        Nothing is copied while actions succeed.  (A failure that recurs on every action, such
        as running out of memory, cannot be undone this way; the replay then fails too.)"""
        fresh = self.replay_from_start()
        if fresh.events != self.events:  # pragma: no cover - replay is exact
            raise RuntimeError("the round cannot be rebuilt from its record")
        kept = {"events": "events", "lines": "lines"}
        for name, value in fresh.__dict__.items():
            mine = self.__dict__.get(name)
            if name in kept and isinstance(mine, list):
                mine[:] = value
            elif isinstance(mine, DiscardRack):
                mine.bundles[:] = value.bundles
            elif isinstance(mine, Ledger):
                mine.transfers[:] = value.transfers
            else:
                self.__dict__[name] = value

    def copy(self) -> Self:
        """An independent copy: an action tried on it leaves this round untouched (a server
        applies an action to a copy and keeps it only once the action is durably recorded).
        What the round was made with (``_origin``), never changed, is shared."""
        twin = object.__new__(type(self))
        state = dict(self.__dict__)
        origin = state.pop("_origin")  # never changed once made: shared, not copied
        twin.__dict__.update(_clone_dict(state), _origin=origin)
        return twin

    def replay_from_start(self) -> Self:
        """A new round made as this one was, with every recorded action applied again."""
        fresh = type(self)(**_clone(self._origin))
        for action in self.actions:
            fresh.apply(action)
        return fresh

    def advance(self) -> Event | None:
        """Perform the dealer's next step if one is due (see :meth:`next_dealer_action`)."""
        step = self.next_dealer_action()
        return None if step is None else self.apply(step)

    def run_dealer(self) -> list[Event]:
        """Perform dealer steps until players must act or the round is over."""
        done: list[Event] = []
        while (event := self.advance()) is not None:
            done.append(event)
        return done

    def time_out_pending(self) -> list[Event]:
        """Record a :class:`DecisionTimeout` for every election pending now, seat by seat: what
        the table does when the decision time of each of them has run out."""
        done: list[Event] = []
        for seat, _ in self.pending():
            if self.finished:
                break
            done.append(self.apply(DecisionTimeout(seat)))
        return done

    # ----------------------------------------------------------------- elections and the clock
    def election_clause(self, what: str) -> str:
        """The clause that gives the election ``what``."""
        return self.cite(self.ELECTIONS[what][1])

    def _refuse_while_pending(self, step: str) -> None:
        """A dealer step never cuts off a player's election: refuse it while one is pending."""
        pending = self.pending()
        if not pending:
            return
        waiting = "; ".join(
            f"{self.seat_label} {seat} to {what} ({self.election_clause(what)})"
            for seat, what in pending
        )
        raise FeltError(
            f"the dealer may not {step} while a player's election is pending: {waiting}. Each "
            f"player has {self.config.decision_seconds} seconds (decision_seconds); when they "
            f'have run out the table records a timeout ({{"dealer": "timeout", "seat": n}})'
        )

    def _check_timeout(self, a: DecisionTimeout) -> None:
        label = self.seat_label
        if not 1 <= a.seat <= self.seat_count():
            raise FeltError(
                f"{label} {a.seat} does not exist ({label}s are 1 to {self.seat_count()})"
            )
        if not any(seat == a.seat for seat, _ in self.pending()):
            others = ", ".join(f"{label} {s} to {what}" for s, what in self.pending())
            raise FeltError(
                f"{label} {a.seat} has no election pending, so its decision time cannot run out"
                + (f" (pending: {others})" if others else " (no election is pending)")
            )

    def _do_timeout(self, a: DecisionTimeout) -> None:
        what = next(w for seat, w in self.pending() if seat == a.seat)
        deemed, _ = self.ELECTIONS[what]
        self._effect(
            "timeout",
            a.seat,
            detail=f"decision time ran out ({self.config.decision_seconds} seconds) to {what}: "
            f"deemed {deemed} ({self.election_clause(what)})",
        )
        self._deem(a.seat, what)

    @classmethod
    def replay(
        cls, config: Any, deck: Sequence[Card], actions: Iterable[Action], **kw: Any
    ) -> Self:
        """A new round with every action applied again in order."""
        rnd = cls(config, tuple(deck), **kw)
        for action in actions:
            rnd.apply(action)
        return rnd

    @property
    def actions(self) -> list[Action]:
        """Every accepted action, in order."""
        return [e.action for e in self.events if isinstance(e.action, Action)]

    # ----------------------------------------------------------------- effects, cards and chips
    def _effect(
        self,
        kind: str,
        seat: int | None = None,
        cards: Sequence[Card] = (),
        amount: int = 0,
        detail: str = "",
    ) -> None:
        self._effects.append(Effect(kind, seat, tuple(cards), amount, detail))

    def _line(self, seat: Position, wager: str, outcome: str, clause: str, *, win: int = 0,
              odds: str = "", hand: str = "", reduction: int = 0) -> None:  # fmt: skip
        """Resolve one wager of ``seat``, moving the chips, and record its statement line.

        ``lose`` and ``forfeit`` collect the stake; ``win`` returns it and pays ``win``; ``push``
        and ``void`` return it.
        """
        stake = seat.wagers.pop(wager)
        who = seat_party(seat.number)
        if outcome in ("lose", "forfeit"):
            self.ledger.move(LAYOUT, HOUSE, stake, f"{wager} collected")
            amount = -stake
        elif outcome == "win":
            self.ledger.move(LAYOUT, who, stake, f"{wager} returned")
            self.ledger.move(HOUSE, who, win, f"{wager} paid")
            amount = win
        else:
            self.ledger.move(LAYOUT, who, stake, f"{wager} returned")
            amount = 0
        line = SettlementLine(
            seat.number, wager, stake, outcome, amount, clause, odds, hand, reduction
        )
        self.lines.append(line)
        self._new_lines.append(line)

    def _pay(self, seat: Position, label: str, base: int, clause: str, *, win: int, odds: str = "",
             hand: str = "", reduction: int = 0) -> None:  # fmt: skip
        """Pay ``win`` on a wager whose stake is otherwise resolved (outcome ``paid``).

        For a payout the rules owe whatever happens to the wager it is figured on: an ante
        bonus paid "regardless of whether the hand of the player is higher" (19:47-24.10(f)3)
        while the ante itself is collected or pushed.  ``base`` is the stake the odds apply to.
        """
        self.ledger.move(HOUSE, seat_party(seat.number), win, f"{label} paid")
        line = SettlementLine(seat.number, label, base, "paid", win, clause, odds, hand, reduction)
        self.lines.append(line)
        self._new_lines.append(line)

    def _place(self, seat: int, wager: str, amount: int) -> None:
        """Chips from a player onto the layout."""
        self.ledger.move(seat_party(seat), LAYOUT, amount, f"{wager} placed")
        self._effect("wager", seat, amount=amount, detail=wager)

    def _collect_cards(self, seat: Position, label: str) -> None:
        cards = seat.hand_cards()
        self.rack.put(f"seat {seat.number} {label}", cards)
        self._effect("rack", seat.number, cards, detail=label)

    def _draw(self) -> Card:
        return self.shoe.draw(self.rack, self.cite(self.face_up_clause))

    def _deal_cards(
        self, hand: list[Card], count: int, seat: int | None, detail: str
    ) -> list[Card]:
        """Deal ``count`` cards onto ``hand`` one at a time, recording the deal.

        Each card lies on the layout as soon as it is drawn, so a void found partway through the
        step (a second card face up in the deck, 24.12(b), 17.11(b)) collects it with the hand it
        was dealt to and every card stays accounted for in pickup order (24.10(g)).
        """
        got: list[Card] = []
        try:
            for _ in range(count):
                card = self._draw()
                hand.append(card)
                got.append(card)
        finally:
            self._effect("deal", seat, got, detail=detail)
        return got

    def _stub_to_rack(self, label: str) -> None:
        stub = self.shoe.take_stub()
        self.rack.put(label, stub)
        self._effect("rack", None, stub, detail=label)

    def net(self, seat: int) -> int:
        """A seat's result in cents so far (positive when the player is ahead)."""
        return sum(line.amount for line in self.lines if line.seat == seat)

    def house_net(self) -> int:
        """The house's result in cents: minus the players' results."""
        return -sum(line.amount for line in self.lines)

    # ----------------------------------------------------------------- shared irregularities
    def _check_misdeal_fits(self, seat: int | None, cards: int, clause: str) -> None:
        """Refuse a misdeal of ``cards`` to ``seat`` (None: the dealer) that the cards left could
        not deal, naming the counts that fit: a misdeal (``clause``) is a deal of the wrong
        number of cards, which must exist to be dealt."""
        who = "the dealer" if seat is None else f"{self.seat_label} {seat}"

        def fits(n: int) -> bool:
            try:
                self._check_cards_suffice("", misdeal=(seat, n))
            except FeltError:
                return False
            return True

        if fits(cards):
            return
        ok = [n for n in range(11) if fits(n)]
        spans: list[str] = []
        for n in ok:
            if spans and n - 1 in ok:
                spans[-1] = f"{spans[-1].split(' to ')[0]} to {n}"
            else:
                spans.append(str(n))
        allowed = (
            f"the misdeal to {who} may be of {', '.join(spans)} cards"
            if ok
            else f"no misdeal to {who} fits in the cards left"
        )
        self._check_cards_suffice(
            f"misdeal of {cards} cards to {who} ({clause})", allowed, misdeal=(seat, cards)
        )

    def _check_face_up_card(self, a: FaceUpCard) -> None:
        if not self.cards_to_come():
            raise FeltError(
                f"a card found face up concerns the deal ({self.cite(self.face_up_clause)}); "
                "no cards remain to be dealt"
            )
        if not self.shoe.position < a.position <= 52:
            raise FeltError(
                f"face_up_card position must be a card not yet dealt: {self.shoe.position + 1} to 52, "
                f"got {a.position}"
            )
        self._check_cards_suffice(
            f"face_up_card at position {a.position}",
            "a card found face up may be given only where the deal still has a card to replace "
            f"it ({self.cite(self.face_up_clause)})",
            face_up=a.position,
        )

    def _do_face_up_card(self, a: FaceUpCard) -> None:
        self.shoe.face_up.add(a.position - 1)
        self._effect(
            "irregularity",
            detail=f"card at position {a.position} will be found face up ({self.cite(self.face_up_clause)})",
        )

    def _check_drawn_in_error(self, a: DrawnInError) -> None:
        if not self.cards_to_come():
            raise FeltError("no card remains to be drawn")

    def _do_drawn_in_error(self, a: DrawnInError) -> None:
        self._effect(
            "irregularity",
            detail="card drawn in error, face not exposed: used as the next card "
            f"({self.cite(self.drawn_in_error_clause)})",
        )

    def _check_shuffler_jam(self, a: ShufflerJam) -> None:
        if self.shoe.position:
            raise FeltError("the shuffler jams before any card is dealt")
        if a.deck is not None:
            check_deck(a.deck, "shuffler_jam deck")

    def _do_shuffler_jam(self, a: ShufflerJam) -> None:
        if a.deck is not None:
            self.deck = check_deck(a.deck, "shuffler_jam deck")
            self.shoe = Shoe(self.deck, face_up=self.shoe.face_up)
        self._effect(
            "irregularity",
            detail=f"shuffler jammed: cards reshuffled ({self.cite(self.shuffler_jam_clause)})",
        )
