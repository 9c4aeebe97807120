"""What the house-banked stud rounds share: wagers placed at numbered positions, one cut, "No
more bets", one deal of a fixed count of cards to each position and to the dealer (where a
misdeal of the wrong count voids every hand), the cards accounted for, and every hand voided
alike.

A game's round subclasses :class:`StudRound` (a :class:`~felt.rounds.round_core.RoundCore`)
and sets the class attributes below; its ``Phase`` names the shared phases with the values
:data:`BETTING`, :data:`CUT_DONE`, :data:`CLOSED`, :data:`REVEALED`, :data:`COMPLETE` and
:data:`VOID` (its own phases, between the deal and the reveal, in ``DEALER_STEPS``), and its
seats have a ``status`` (``in`` while the hand is in play, ``folded`` once its cards are in the
rack).  Clauses are cited only through ``self.cite`` with the sections the game names.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.rounds.actions import Action, Deal, Misdeal, NoMoreBets, Settle
from felt.rounds.engine import VoidAll
from felt.rounds.round_core import RoundCore

BETTING = "betting"
"""Wagers are taken (the cut, if any, not yet made)."""
CUT_DONE = "cut done"
"""The cards are cut; wagers are still taken."""
CLOSED = "closed"
""" "No more bets" announced; the cards are to be dealt."""
RECUT = "recut"
"""A supervisor has required the cards to be cut again (a cover-card cut, below)."""
REVEALED = "revealed"
"""The dealer's hand is turned over; the wagers are to be settled."""
COMPLETE = "complete"
VOID = "void"


def card_count(count: int) -> str:
    """``1 card``, ``3 cards``."""
    return f"{count} card" if count == 1 else f"{count} cards"


@dataclass
class StudPosition:
    """What every stud game's betting position holds: its number, its player, its wagers still
    in action and as placed, and the cards dealt to it.  A game's position adds its own state
    after these, and a ``status`` (``in`` while its hand is in play)."""

    number: int
    player: str
    wagers: dict[str, int]
    placed: dict[str, int]
    cards: list[Card] = field(default_factory=list)


class StudRound(RoundCore):
    """Shared machinery of a house-banked stud round; see the module docstring."""

    phase: str
    seats: dict[int, Any]
    dealer_cards: list[Card]
    pending_misdeals: dict[int | None, int]
    """Misdeals given for the deal to come: position (None: the dealer) -> cards it receives."""

    position_noun: ClassVar[str] = "position"
    """What the rule text calls a betting position in prose ("area" or "position")."""
    WAGERS: ClassVar[tuple[str, ...]] = ()
    """The wagers a position may have in action, in the order a statement lists them."""
    cards_per_position: ClassVar[int] = 1
    """Cards the deal gives each position with a wager."""
    dealer_card_count: ClassVar[int] = 1
    """Cards the deal gives the dealer."""
    misdeal_clause: ClassVar[str] = ""
    """The section on a deal of the wrong number of cards (every hand void)."""
    cut_first_clause: ClassVar[str] = ""
    """The section that has the cards cut before "No more bets"."""
    CUT_STEP: ClassVar[type[Action]] = NoMoreBets
    """The dealer's first step once a position has a wager, where the table cuts the cards."""
    DEALER_STEPS: ClassVar[dict[str, type[Action]]] = {}
    """The dealer's step in each of the game's own phases (by the phase's value)."""
    cover_cut_clauses: ClassVar[dict[str, tuple[str, ...]]] = {}
    """A game whose text has a hand-shuffled deck cut with a cover card, at least so many cards
    from the top, and recut when a supervisor requires it before any card is dealt (Caribbean
    Stud 16.4, Let It Ride 18.5), takes this shared cut: the sections it cites by key, ``no
    cut`` (a shuffler's deck is not cut), ``when``, ``position``, ``cut`` and ``recut``; the
    round keeps ``cut_positions`` and ``recut_from``."""
    cut_positions: list[int]
    recut_from: str | None

    def next_dealer_action(self) -> Action | None:
        """The dealer's next step, or None while a player must act first (the dealer waits):
        the cut (if the table cuts) and "No more bets" once a position has a wager, the deal,
        the game's own steps, and the settlement once the dealer's hand is revealed."""
        if self.pending():
            return None
        if self.phase == BETTING:
            if not self.seats:
                return None
            return self.CUT_STEP() if self.config.cut_required else NoMoreBets()
        if self.phase == CUT_DONE:
            return NoMoreBets() if self.seats else None
        if self.phase == CLOSED:
            return Deal()
        if self.phase == REVEALED:
            return Settle()
        step = self.DEALER_STEPS.get(self.phase)
        return None if step is None else step()

    @property
    def finished(self) -> bool:
        """Whether the round is over."""
        return self.phase in (COMPLETE, VOID)

    def cards_to_come(self) -> bool:
        """Cards remain to be dealt until the single deal step (once any cut is made: the cut
        moves them)."""
        return self.phase in (CUT_DONE, CLOSED) or (
            self.phase == BETTING and not self.config.cut_required
        )

    def in_play(self) -> list[Any]:
        """Positions whose hand is still in play, position 1 first."""
        return [self.seats[n] for n in sorted(self.seats) if self.seats[n].status == "in"]

    def settle_order(self) -> list[Any]:
        """Positions in play from the dealer's right (the highest number) round to the left."""
        return sorted(self.in_play(), key=lambda s: -s.number)

    # ----------------------------------------------------------------- wagers and the cut
    def _check_room_for(self, seat: int) -> None:
        """Refuse a wager at ``seat`` the cards left could not deal in, with a misdeal given."""
        if self.pending_misdeals:
            self._check_cards_suffice(
                f"{self.seat_label} {seat}",
                f"with the misdeal given ({self.cite(self.misdeal_clause)}) no further "
                f"{self.position_noun} can be dealt in",
                new_seat=seat,
            )

    def _check_cut_position(self, position: int, min_from_end: int, clause: str) -> None:
        """The cutting card goes at least ``min_from_end`` cards from either end."""
        lo, hi = min_from_end, 52 - min_from_end
        if not lo <= position <= hi:
            raise FeltError(
                f"the cutting card goes at least {lo} cards from either end: position {lo} to "
                f"{hi}, got {position} ({self.cite(clause)})"
            )

    def cover_cut_least(self) -> int:
        """The fewest cards the cover-card cut takes from the top (the game's rules data)."""
        raise NotImplementedError

    def cover_card(self) -> str:
        """What the cards are cut onto, as a cut's record names it."""
        return "the cover card"

    def _cover_cites(self, key: str) -> str:
        return ", ".join(self.cite(section) for section in self.cover_cut_clauses[key])

    def _check_cut(self, a: Any) -> None:
        """The cover-card cut: a hand-shuffled deck only, once before "No more bets" or again on
        a recut, at least :meth:`cover_cut_least` cards from the top and leaving one."""
        if not self.config.cut_required:
            raise FeltError(
                "no cut: cards shuffled by an automated card shuffling device are dealt without "
                f"one ({self._cover_cites('no cut')})"
            )
        if self.phase not in (BETTING, RECUT):
            raise FeltError(
                f'the cards are cut once, before "No more bets", or again when a supervisor '
                f"requires a recut ({self._cover_cites('when')}); the round is at {self.phase}"
            )
        least = self.cover_cut_least()
        if not least <= a.position <= 51:
            raise FeltError(
                f"the dealer takes a stack of at least {least} cards from the top and leaves at "
                f"least one: position {least} to 51, got {a.position} "
                f"({self._cover_cites('position')})"
            )

    def _do_cut(self, a: Any) -> None:
        self._cut_shoe(a.position)
        self.cut_positions.append(a.position)
        self._effect("cut", None, amount=a.position,
                     detail=f"the dealer cuts {a.position} cards from the top onto "
                     f"{self.cover_card()}; the cover card to the discard rack "
                     f"({self._cover_cites('cut')})")  # fmt: skip
        if self.phase == RECUT:
            self.phase = type(self.phase)(self.recut_from or CUT_DONE)
            self.recut_from = None
        else:
            self.phase = type(self.phase)(CUT_DONE)

    def _check_require_recut(self, a: Any) -> None:
        if not self.cut_positions or self.phase not in (CUT_DONE, CLOSED):
            raise FeltError(
                "a supervisor may require a recut after the cards are cut and before any card is "
                f"dealt ({self._cover_cites('recut')}); the round is at {self.phase}"
            )

    def _do_require_recut(self, a: Any) -> None:
        self.recut_from = str(self.phase)
        self.phase = type(self.phase)(RECUT)
        self._effect(
            "recut", None, detail=f"a supervisor requires a recut ({self._cover_cites('recut')})"
        )

    def _cut_shoe(self, position: int) -> None:
        """Cut the cards ``position`` cards from the top (before any is dealt).  A card already
        marked as found face up moves with the cut: the mark is on the card, not on the place in
        the deck it had (a recut must not turn another card into the one found face up)."""
        order = self.shoe.order
        n = len(order)
        marks = {(i - position) % n for i in self.shoe.face_up}
        self.shoe = replace(self.shoe, order=order[position:] + order[:position], face_up=marks)

    # ----------------------------------------------------------------- "No more bets" and the deal
    def _check_no_more_bets(self, a: NoMoreBets) -> None:
        if not self.seats:
            raise FeltError(f"no {self.position_noun} has a wager: nothing to deal")
        if self.phase == BETTING and self.config.cut_required:
            raise FeltError(
                f'the cards are cut before "No more bets" ({self.cite(self.cut_first_clause)})'
            )
        if self.phase not in (BETTING, CUT_DONE):
            raise FeltError(
                f'"No more bets" is announced once, before the deal (the round is at {self.phase})'
            )

    def _do_no_more_bets(self, a: NoMoreBets) -> None:
        self.phase = type(self.phase)(CLOSED)
        self._effect("announce", detail="No more bets")

    def _check_deal(self, a: Deal) -> None:
        if self.phase != CLOSED:
            raise FeltError(
                f'the cards are dealt after "No more bets" (the round is at {self.phase})'
            )

    def _deal_positions(self, detail: str) -> None:
        """Deal each position in play its cards, from the dealer's left; a misdeal given for a
        position deals its wrong count and voids every hand there and then."""
        for spot in self.in_play():
            count = self.pending_misdeals.pop(spot.number, self.cards_per_position)
            self._deal_cards(spot.cards, count, spot.number, detail)
            if count != self.cards_per_position:
                raise VoidAll(
                    self.cite(self.misdeal_clause),
                    f"{self.seat_label} {spot.number} was dealt {card_count(count)}",
                )

    def _close_settlement(self) -> None:
        """After the hands: the dealer's cards, then the stub, to the rack; the round complete."""
        self.rack.put("dealer", self.dealer_cards)
        self._effect("rack", None, self.dealer_cards, detail="dealer")
        self._stub_to_rack("stub")
        self.phase = type(self.phase)(COMPLETE)

    # ----------------------------------------------------------------- irregularities
    def _check_misdeal(self, a: Misdeal) -> None:
        if not self.cards_to_come():
            raise FeltError("a misdeal is given before the deal it happens in")
        if a.seat is not None and a.seat not in self.seats:
            noun = "card" if self.cards_per_position == 1 else "cards"
            raise FeltError(f"{self.seat_label} {a.seat} has no wager and receives no {noun}")
        if not 0 <= a.cards <= 10:
            raise FeltError(f"misdeal cards must be 0 to 10, got {a.cards}")
        self._check_misdeal_count(a)
        self._check_misdeal_fits(a.seat, a.cards, self.cite(self.misdeal_clause))

    def _check_misdeal_count(self, a: Misdeal) -> None:
        """A game's own refusal of a misdeal's count (none by default)."""

    def _do_misdeal(self, a: Misdeal) -> None:
        self.pending_misdeals[a.seat] = a.cards
        self._effect(
            "irregularity",
            a.seat,
            detail=f"wrong number of cards in the deal ({self.cite(self.misdeal_clause)})",
        )

    def _cards_needed(
        self, misdeal: tuple[int | None, int] | None = None, new_seat: int | None = None
    ) -> int:
        """The most cards the deal can take: its count to each position and to the dealer, with
        the misdeals given; a wrong count voids every hand there and then."""
        if not self.cards_to_come():
            return 0
        given = dict(self.pending_misdeals)
        if misdeal is not None:
            given[misdeal[0]] = misdeal[1]
        numbers = sorted(
            [s.number for s in self.in_play()] + ([] if new_seat is None else [new_seat])
        )
        per = self.cards_per_position
        need = 0
        for n in numbers:
            need += given.get(n, per)
            if given.get(n, per) != per:
                return need
        return need + given.get(None, self.dealer_card_count)

    def _void_all(self, clause: str, reason: str) -> None:
        """Every hand void, every wager in action returned, the cards to the rack; what was
        settled before (a fold) stands."""
        for spot in self.settle_order():
            for wager in [w for w in self.WAGERS if w in spot.wagers]:
                self._line(spot, wager, "void", clause, hand=reason)
            spot.status = "void"
            self.rack.put(f"{self.seat_label} {spot.number} void hand", spot.cards)
        self.rack.put("dealer", self.dealer_cards)
        if self.shoe.remaining():
            self._stub_to_rack("stub")
        self.void_reason = f"{reason} ({clause}); the cards are reshuffled"
        self.phase = type(self.phase)(VOID)
        self._effect("void", None, detail=self.void_reason)

    def cards_accounted(self) -> list[Card]:
        """Every card in the rack, on the layout or in the shoe."""
        layout: list[Card] = []
        if not self.finished:
            for spot in self.seats.values():
                if spot.status != "folded":
                    layout += spot.cards
            layout += self.dealer_cards
        return self.rack.cards() + layout + list(self.shoe.order[self.shoe.position :])
