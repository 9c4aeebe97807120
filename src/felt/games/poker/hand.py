"""One poker hand (N.J.A.C. 19:47-14) as a state machine of explicit, checked, recorded actions.

Every step is an action: the players' (fold, check, call, bet, raise, all-in, the stud bring-in),
the dealer's (each hole card, each burn, each board card, the award) and the irregularities of
14.15 that are part of dealing and of the players' conduct.  ``verify`` refuses a wrong action
with one FeltError naming what is allowed and leaves the hand unchanged; ``do`` applies it and
records one immutable event; :meth:`PokerHand.replay` rebuilds a hand from its start and actions.

The award (felt's, not PokerKit's): the rake of the table's rule is taken off the top, from the
main pot first (then each side pot in turn); uncalled bets go back to their bettor; each pot goes
to its best hand among the players eligible for it, split evenly between equal hands (a slice
of the pot that only a folded player paid goes with the pot below it).  The odd
chip rule: the odd chips of a split pot go one each to the winners in order, in hold'em and Omaha
starting with the first seat clockwise from the button, in stud starting with the winner holding
the highest card by suit (rank first; spades, hearts, diamonds, clubs).  Money is integer cents;
at every step the stacks, the pot and the rake add up to the stacks the hand started with.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Final

from felt.core.cards import Card, new_deck
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.games.poker.config import PokerConfig
from felt.games.poker.engine import felt_card, new_state, pk_card
from felt.rounds import actions as shared
from felt.rounds.actions import Action

if TYPE_CHECKING:  # the state is made by felt.games.poker.engine, which imports PokerKit when dealt
    import pokerkit

# --- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerAction(shared.PlayerAction):
    """A player's action on their turn; ``seat`` is 1..N clockwise from the dealer's left (a
    player's action as every table game's, so the server checks it is the seat's player's)."""


@dataclass(frozen=True)
class Fold(PlayerAction):
    """The player gives up the hand and every chip already in the pot."""

    name: ClassVar[str] = "fold"


@dataclass(frozen=True)
class Check(PlayerAction):
    """No wager to call: the player stays in without betting."""

    name: ClassVar[str] = "check"


@dataclass(frozen=True)
class Call(PlayerAction):
    """The player matches the wager to call (all of the stack if that is less)."""

    name: ClassVar[str] = "call"


@dataclass(frozen=True)
class Bet(PlayerAction):
    """The first wager of a betting round, ``amount`` cents."""

    name: ClassVar[str] = "bet"
    amount: int


@dataclass(frozen=True)
class RaiseTo(PlayerAction):
    """A raise (or the stud completion of the bring-in) to a total of ``amount`` cents this
    round."""

    name: ClassVar[str] = "raise_to"
    amount: int


@dataclass(frozen=True)
class AllIn(PlayerAction):
    """Every chip of the player's stack in: a bet, raise or call for all of it."""

    name: ClassVar[str] = "all_in"


@dataclass(frozen=True)
class BringIn(PlayerAction):
    """Stud: the low card showing posts the bring-in (or it completes with ``RaiseTo``)."""

    name: ClassVar[str] = "bring_in"


@dataclass(frozen=True)
class Discard(PlayerAction):
    """14.15(k)1: the player discards the hand face down toward the discards or the pot (or, in
    stud, turns the up cards face down): a fold."""

    name: ClassVar[str] = "discard"


@dataclass(frozen=True)
class LeaveWithoutComment(Action):
    """14.15(j)4: a player leaves the table without comment with an unprotected hand: the
    player has no interest in the pot; the cards are collected and discarded (folded at the
    player's turn, or now when it is the player's turn)."""

    name: ClassVar[str] = "leave_without_comment"
    family: ClassVar[str] = "irregularity"
    seat: int


@dataclass(frozen=True)
class DealerStep(Action):
    """A step of the dealer."""

    family: ClassVar[str] = "dealer"


@dataclass(frozen=True)
class DealHole(DealerStep):
    """The next card from the top of the deck to the next player in the dealing order (face
    down or, in stud, face up as the street deals it)."""

    name: ClassVar[str] = "deal_hole"


@dataclass(frozen=True)
class Burn(DealerStep):
    """The top card burned before a round's cards are dealt."""

    name: ClassVar[str] = "burn"


@dataclass(frozen=True)
class DealBoard(DealerStep):
    """The flop (three cards), the turn or the river (one) from the top of the deck."""

    name: ClassVar[str] = "deal_board"


@dataclass(frozen=True)
class Award(DealerStep):
    """The rake taken, then each pot pushed to its winners (the module's odd chip rule)."""

    name: ClassVar[str] = "award"


@dataclass(frozen=True)
class Misdeal(Action):
    """14.15(f): every card back to the dealer, reshuffled (``deck``: the new order, top
    first), and the hand dealt again with the blinds and antes as they were.  ``clause``: "f1"
    (not shuffled and cut per 14.5), "f2" (dealt to the wrong starting position), "f3" (more
    than one card face up in the deck), "f4" (an eligible seated player not dealt); f2 and f4
    only before two players have voluntarily put wagers in the pot.  14.15(o): "o" (the
    shuffler jammed, stopped or failed to complete a cycle): the cards are reshuffled too.
    ``by_hand``: reshuffled by hand, another method than the table's automated shuffler, which
    14.15(p) allows only once the shuffler is removed (``ShufflerRemoved``)."""

    name: ClassVar[str] = "misdeal"
    family: ClassVar[str] = "irregularity"
    clause: str
    deck: tuple[Card, ...]
    by_hand: bool = False


@dataclass(frozen=True)
class ShufflerRemoved(Action):
    """14.15(p): the automated card shuffler removed from the table, so that the cards may be
    shuffled another way (by hand) from now on; it stays removed for the rest of the hand."""

    name: ClassVar[str] = "shuffler_removed"
    family: ClassVar[str] = "irregularity"


@dataclass(frozen=True)
class DeadRound(Action):
    """14.15(h): cards found missing or extra: the round is dead and every chip in the pot
    goes back to the player who put it there."""

    name: ClassVar[str] = "dead_round"
    family: ClassVar[str] = "irregularity"


@dataclass(frozen=True)
class TopCardDiscarded(Action):
    """The top card of the deck goes to the discards, unused: ``clause`` "i" (found face up in
    the deck), "m" (dealt off the table), or "n" (a hold'em or Omaha hole card exposed in
    dealing to ``seat``: the dealer exchanges it for the next card, which that seat gets)."""

    name: ClassVar[str] = "top_card_discarded"
    family: ClassVar[str] = "irregularity"
    clause: str
    seat: int = 0


@dataclass(frozen=True)
class DealtToIneligible(Action):
    """14.15(g): ``count`` cards mistakenly dealt to ``seat``, a seat not in the hand: only those
    cards are discarded (the top ``count`` cards) and the round goes on."""

    name: ClassVar[str] = "dealt_to_ineligible"
    family: ClassVar[str] = "irregularity"
    seat: int
    count: int = 1


@dataclass(frozen=True)
class HandKilled(Action):
    """A hand out of play, folded at once if it is the player's turn, else at that turn; a dead
    hand never wins.  ``clause`` "l" (stud: both hole cards turned face up in dealing: the two
    cards collected, the hand dead, the ante returned, 14.15(l)), "j3" (a protected hand
    collected by the dealer or fouled by the discards, its player a victim and not a
    contributor: all the player put in refunded, each pot giving back the seat's share of it,
    14.15(j)3) or "j" (an unprotected hand collected by the dealer or, ``fouled``, fouled: no
    redress, nothing refunded, 14.15(j); in stud a hand cannot be fouled unprotected, (j)1)."""

    name: ClassVar[str] = "hand_killed"
    family: ClassVar[str] = "irregularity"
    clause: str
    seat: int
    fouled: bool = False


@dataclass(frozen=True)
class HandReconstructed(Action):
    """14.15(j)2: ``seat``'s protected hand came into contact with the discards and is
    reconstructed (felt knows every card dealt, so exactly): the round of play goes on."""

    name: ClassVar[str] = "hand_reconstructed"
    family: ClassVar[str] = "irregularity"
    seat: int


@dataclass(frozen=True)
class StudHoleExposed(Action):
    """14.15(l): in stud, ``seat``'s first or second hole card (``card`` 1 or 2) turned face up
    by the dealer in dealing: the third card is dealt face down instead, so the exposed card is
    the seat's up card on third street (the bring-in reads it).  Recorded for the second of the
    two as well: both hole cards exposed, the hand is dead and the ante returned (as HandKilled
    "l")."""

    name: ClassVar[str] = "stud_hole_exposed"
    family: ClassVar[str] = "irregularity"
    seat: int
    card: int


@dataclass(frozen=True)
class Statement(Action):
    """14.15(k): a verbal statement, clearly audible by and directed to the dealer, by the seat
    whose turn it is: binding and ahead of any gesture, so the stated action is what is done.
    ``then_discards``: the player then throws the cards away, which by 14.15(k)2 does not relieve
    the stated wager: it stays in the pot and the hand is folded."""

    name: ClassVar[str] = "statement"
    family: ClassVar[str] = "irregularity"
    seat: int
    stated: PlayerAction
    then_discards: bool = False

    def to_json(self) -> dict[str, Any]:
        """Flat, as the dealer's form gives it: ``{"irregularity": "statement", "seat": 3,
        "stated": "raise_to", "amount": "8.00", "then_discards": false}``."""
        out: dict[str, Any] = {self.family: self.name, "seat": self.seat,
                               "stated": self.stated.name, "then_discards": self.then_discards}  # fmt: skip
        amount = getattr(self.stated, "amount", None)
        if amount is not None:
            out["amount"] = dollars(amount)
        return out


@dataclass(frozen=True)
class Event:
    """One accepted action: its number in the hand, the action, and what it did in words."""

    number: int
    action: Action
    text: str


MISDEAL_CLAUSES: Final = ("f1", "f2", "f3", "f4", "o")
DISCARD_CLAUSES: Final = ("i", "m", "n")
STATUSES: Final = ("playing", "awarded", "dead")


@dataclass
class _Table:
    """The hand's moving parts, rebuilt from the start on a misdeal."""

    state: pokerkit.State
    deck: list[Card]
    discards: list[Card] = field(default_factory=list)
    burned: list[Card] = field(default_factory=list)
    exposed: list[Card] = field(default_factory=list)
    voluntary: set[int] = field(default_factory=set)
    gone: set[int] = field(default_factory=set)
    refunds: dict[int, str] = field(default_factory=dict)
    dealt: dict[int, list[Card]] = field(default_factory=dict)
    """Each seat's cards as felt dealt them (PokerKit mucks the losers' at showdown)."""
    folded: set[int] = field(default_factory=set)
    receiving: set[int] = field(default_factory=set)
    """14.15(e): folded seats whose position still receives a card (no subsequent wager yet)."""
    owed: list[tuple[int, int]] = field(default_factory=list)
    """14.15(e): (street index, seat) of each card still due to a folded position."""
    street: int = 0
    brought_in: set[int] = field(default_factory=set)
    up_exposed: dict[int, int] = field(default_factory=dict)
    """14.15(l): seat -> the index (0 or 1) of its hole card exposed in dealing, now its up card."""


class PokerHand:
    """One hand at a poker table: the seats in it with their stacks (cents), the button, and
    the deck felt shuffled (top first)."""

    def __init__(
        self,
        config: PokerConfig,
        stacks: Mapping[int, int],
        button: int,
        deck: Sequence[Card],
        *,
        shuffler: bool = True,
    ) -> None:
        """``shuffler``: an automated shuffler is at the table as the hand starts (felt's own
        shuffle stands for it); without one every reshuffle is by hand (14.15(p))."""
        if not 2 <= len(stacks) <= config.seats:
            raise FeltError(f"a hand needs 2 to {config.seats} players, got {len(stacks)}")
        for seat, stack in stacks.items():
            if not 1 <= seat <= config.seats or stack <= 0:
                raise FeltError(
                    f"seat {seat}: seats are 1 to {config.seats}, each with chips "
                    f"(got {dollars(stack)})"
                )
        if not 1 <= button <= config.seats:
            raise FeltError(f"the button must be on a seat 1 to {config.seats}, got {button}")
        self.config = config
        self.start: Final = dict(sorted(stacks.items()))
        self.button: Final = button
        self.first_deck: Final = _checked_deck(deck)
        self.shuffler_at_start: Final = shuffler
        self.shuffler = shuffler
        seats = sorted(stacks)
        if config.variant == "stud7":
            self.order: tuple[int, ...] = tuple(seats)
        else:
            after = [s for s in seats if s > button] + [s for s in seats if s <= button]
            self.order = tuple(after)
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self.status = "playing"
        self.rake = 0
        self.final: dict[int, int] | None = None
        self.awards: dict[int, int] = {}
        self._t = self._begin(self.first_deck)

    def _begin(self, deck: Sequence[Card]) -> _Table:
        state = new_state(self.config, [self.start[s] for s in self.order])
        return _Table(state=state, deck=list(deck))

    # --- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> pokerkit.State:
        """The PokerKit state underneath (read only: change it only through ``do``)."""
        return self._t.state

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards still in the deck, top first."""
        return tuple(self._t.deck)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The discards: burned cards, the cards of 14.15(g), (i), (m), (n) and folded hands."""
        return tuple(self._t.burned + self._t.discards)

    def seat_of(self, index: int) -> int:
        """The seat of PokerKit's player ``index``."""
        return self.order[index]

    def index_of(self, seat: int) -> int:
        """PokerKit's player index of ``seat`` (refused when the seat is not in the hand)."""
        if seat not in self.start:
            raise FeltError(
                f"seat {seat} is not in this hand (seats in it: {', '.join(map(str, self.order))})"
            )
        return self.order.index(seat)

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """Every card dealt to ``seat`` still in its hand (down and up), in dealing order; none
        once it folded."""
        return tuple(self._t.dealt.get(seat, ()))

    def up_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards of ``seat`` dealt face up: in stud the third to sixth cards (third street's
        door card, fourth to sixth street); none in hold'em and Omaha.  felt's own record, not
        PokerKit's (which counts a hand shown at its showdown as up).  14.15(l): a first or
        second hole card exposed in dealing is up in place of the third card, dealt down."""
        if self.config.variant != "stud7":
            return ()
        up = {2, 3, 4, 5}
        if seat in self._t.up_exposed:
            up = up - {2} | {self._t.up_exposed[seat]}
        return tuple(c for k, c in enumerate(self.hole_cards(seat)) if k in up)

    def board(self) -> tuple[Card, ...]:
        """The community cards (hold'em and Omaha)."""
        return tuple(felt_card(c) for c in self.state.get_board_cards(0))

    def in_hand(self, seat: int) -> bool:
        """Whether ``seat`` still holds a hand: it has not folded (a hand that lost at the
        showdown is still in; PokerKit's own status drops it)."""
        return self.index_of(seat) >= 0 and seat not in self._t.folded

    def dead(self, seat: int) -> bool:
        """``seat``'s hand is out of play though PokerKit may not have folded it yet: left without
        comment (14.15(j)4), killed ((j)3, (l)) or thrown away after a wager owed ((k)2)."""
        return seat in self._t.gone

    def stack(self, seat: int) -> int:
        """``seat``'s chips behind (cents): the final stack once the hand is over."""
        if self.final is not None:
            return self.final[seat]
        return int(self.state.stacks[self.index_of(seat)])

    def bet(self, seat: int) -> int:
        """``seat``'s wager this round, not yet collected into the pot."""
        if self.final is not None:
            return 0
        return int(self.state.bets[self.index_of(seat)])

    def pot(self) -> int:
        """Every chip wagered and not yet awarded or returned: the pots and this round's bets."""
        if self.final is not None:
            return 0
        return sum(self.start.values()) - sum(int(s) for s in self.state.stacks)

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        """The main pot then each side pot: (cents, the seats eligible), bets of the round
        not yet collected excluded."""
        if self.final is not None:
            return []
        return [
            (int(p.amount), tuple(self.seat_of(i) for i in p.player_indices))
            for p in self.state.pots
        ]

    def to_act(self) -> int | None:
        """The seat whose turn it is, or None."""
        index = self.state.actor_index
        if index is None or self.status != "playing" or self._folded_due() is not None:
            return None
        return self.seat_of(index)

    def flop_seen(self) -> bool:
        """For no flop, no drop: a flop was dealt (stud: fourth street was dealt)."""
        if self.config.variant == "stud7":
            return any(len(h) > 3 for h in self.state.hole_cards)
        return len(self.board()) >= 3

    # --- what may be done --------------------------------------------------------------------

    def allowed(self) -> list[str]:
        """The actions allowed now, in words with their amounts (what a refusal names)."""
        if self.status != "playing":
            return []
        s = self.state
        out: list[str] = []
        due = self._folded_due()
        if due is not None:
            out.append(f"deal_hole (to seat {due}'s folded position, 14.15(e))")
        elif s.can_burn_card():
            out.append("burn")
        elif s.can_deal_hole():
            dealee = s.hole_dealee_index
            out.append(f"deal_hole (to seat {self.seat_of(dealee) if dealee is not None else 0})")
        elif s.can_deal_board():
            out.append("deal_board")
        elif s.actor_index is not None:
            seat = self.seat_of(s.actor_index)
            out += [f"seat {seat}: {w}" for w in self._player_options(s.actor_index)]
        elif self._award_ready():
            out.append("award")
        return out

    def _player_options(self, index: int) -> list[str]:
        s = self.state
        owed = s.checking_or_calling_amount or 0
        out = [] if s.can_post_bring_in() else ["fold", "discard"]
        if s.can_post_bring_in():
            out.append(f"bring_in {dollars(s.effective_bring_in_amount or 0)}")
        elif owed == 0:
            out.append("check")
        else:
            out.append(f"call {dollars(owed)}")
        if self._may_raise():
            low = s.min_completion_betting_or_raising_to_amount or 0
            high = s.max_completion_betting_or_raising_to_amount or 0
            word = "bet" if max(s.bets) == 0 else "raise_to"
            out.append(f"{word} {dollars(low)}" + (f" to {dollars(high)}" if high > low else ""))
        if self._all_in_action(index) is not None:
            out.append("all_in")
        return out

    def _may_raise(self) -> bool:
        """PokerKit's rules, then 14.17's cap at fixed limit: a bet and ``max_raises`` raises a
        round (pre-flop the big blind is the bet; in stud the completion of the bring-in)."""
        s = self.state
        if not s.can_complete_bet_or_raise_to():
            return False
        if self.config.limit != "fixed":
            return True
        blind_round = self.config.blinds and s.street_index == 0
        cap = self.config.max_raises + (0 if blind_round else 1)
        return int(s.completion_betting_or_raising_count) < cap

    def _all_in_action(self, index: int) -> str | None:
        """How an all-in is made now: "raise" (to the whole stack), "call", or None."""
        s = self.state
        total = int(s.stacks[index]) + int(s.bets[index])
        owed = s.checking_or_calling_amount or 0
        if self._may_raise() and s.max_completion_betting_or_raising_to_amount == total:
            return "raise"
        if owed and owed >= s.stacks[index]:
            return "call"
        return None

    def _folded_due(self) -> int | None:
        """14.15(e): the folded position due the next card, if it comes before PokerKit's next
        step: a card owed for an earlier street first, else in dealing order with the live seats
        after this street's burn."""
        if not self._t.owed:
            return None
        s = self.state
        street, seat = min(self._t.owed, key=lambda o: (o[0], self.order.index(o[1])))
        if s.street_index is None or street < s.street_index:
            return seat
        if s.can_burn_card():
            return None
        live = s.hole_dealee_index if s.can_deal_hole() else None
        return None if live is not None and live < self.order.index(seat) else seat

    def _keeps_receiving(self, seat: int) -> bool:
        """14.15(e): a fold "after making a forced bet or blind bet or on a round of checking":
        no bet, raise or completion yet this round, and the seat has a forced bet in (an ante,
        a blind, the bring-in) or no wager at all is out (a round of checking)."""
        s = self.state
        if int(s.completion_betting_or_raising_count) > 0:
            return False
        index = self.index_of(seat)
        forced = (
            self.config.ante > 0
            or seat in self._t.brought_in
            or int(s.blinds_or_straddles[index]) > 0
        )
        return forced or max(s.bets) == 0

    def _fold(self, seat: int) -> None:
        """Fold ``seat`` in PokerKit, its cards to the discards; 14.15(e): its position goes on
        receiving cards when the fold qualifies."""
        if self._keeps_receiving(seat):
            self._t.receiving.add(seat)
        self._t.discards.extend(self._t.dealt.pop(seat, []))
        self._t.folded.add(seat)
        self._t.state.fold()

    def _throw_away(self, seat: int) -> None:
        """14.15(k)2: ``seat`` threw its cards away after a wager it owed was put in (its turn
        has passed): the cards go to the discards, the hand is dead now (never wins) and PokerKit
        folds it at its next turn, if one comes."""
        if self._keeps_receiving(seat):
            self._t.receiving.add(seat)
        self._t.discards.extend(self._t.dealt.pop(seat, []))
        self._t.folded.add(seat)
        self._t.gone.add(seat)

    def _sync_streets(self) -> None:
        """14.15(e): on each new street every folded position still receiving is owed its
        cards of that street (stud: one; hold'em and Omaha deal no hole cards after the first)."""
        s = self.state
        now = s.street_index
        if now is None or now <= self._t.street:
            return
        for k in range(self._t.street + 1, now + 1):
            count = len(s.streets[k].hole_dealing_statuses)
            for seat in sorted(self._t.receiving, key=self.order.index):
                self._t.owed += [(k, seat)] * count
        self._t.street = now

    def _award_ready(self) -> bool:
        s = self.state
        ready = s.can_push_chips() or s.can_pull_chips() or not s.status
        return self.status == "playing" and ready and self._folded_due() is None

    def verify(self, action: Action) -> None:
        """Refuse ``action`` (one FeltError naming what is allowed) unless it may be done now."""
        if self.status != "playing":
            raise FeltError(f"{action.name}: the hand is over ({self.status})")
        check = _CHECKS.get(type(action))
        if check is None:
            raise FeltError(f"{action.name}: not an action of a poker hand")
        problem = check(self, action)
        if problem:
            allowed = "; ".join(self.allowed()) or "nothing"
            raise FeltError(f"{action.name}: {problem} (allowed now: {allowed})")

    def can(self, action: Action) -> bool:
        """Whether ``action`` may be done now."""
        try:
            self.verify(action)
        except FeltError:
            return False
        return True

    def do(self, action: Action) -> Event:
        """Apply ``action`` (verified first) and record its event."""
        self.verify(action)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            text = _APPLY[type(action)](self, action)
            self._fold_gone()
            self._sync_streets()
        self.actions.append(action)
        event = Event(len(self.events) + 1, action, text)
        self.events.append(event)
        return event

    @classmethod
    def replay(
        cls,
        config: PokerConfig,
        stacks: Mapping[int, int],
        button: int,
        deck: Sequence[Card],
        actions: Sequence[Action],
        *,
        shuffler: bool = True,
    ) -> PokerHand:
        """The hand rebuilt from its start by doing ``actions`` in order."""
        hand = cls(config, stacks, button, deck, shuffler=shuffler)
        for action in actions:
            hand.do(action)
        return hand

    def replay_from_start(self) -> PokerHand:
        """This hand rebuilt from its start and its actions (equal to it)."""
        return PokerHand.replay(
            self.config,
            self.start,
            self.button,
            self.first_deck,
            self.actions,
            shuffler=self.shuffler_at_start,
        )

    def summary(self) -> tuple[object, ...]:
        """What identifies the hand's outcome and position (replay compares these)."""
        return (
            self.status,
            self.final,
            self.rake,
            tuple(self.awards.items()),
            self.deck,
            self.discards,
            tuple(self.hole_cards(s) for s in self.order),
            self.board(),
            tuple(self.stack(s) for s in self.order),
            self.pot(),
            tuple(e.text for e in self.events),
        )

    # --- internals ------------------------------------------------------------------------------

    def _top(self) -> Card:
        if not self._t.deck:
            raise FeltError("the deck is empty")
        return self._t.deck.pop(0)

    def _fold_gone(self) -> None:
        """14.15(j)4: a seat that left without comment (or a dead hand) is folded when its turn
        comes; a dead hand due to bring in passes the bring-in on (``_pass_bring_in``)."""
        s = self._t.state
        while (
            self.status == "playing"
            and s.actor_index is not None
            and self.seat_of(s.actor_index) in self._t.gone
            and self._folded_due() is None
        ):
            seat = self.seat_of(s.actor_index)
            if s.can_post_bring_in():
                self._pass_bring_in(seat)
            else:
                self._fold(seat)

    def _pass_bring_in(self, seat: int) -> None:
        """A dead hand ((j)3, (j)4, (l)) owes no bring-in: it is mucked and the bring-in passes
        to the lowest up card among the live hands (PokerKit refuses a fold before the bring-in,
        so felt mucks the hand and has PokerKit choose the opener again; nothing has been wagered
        on third street yet, the bring-in being its first act).  With one live hand left the
        hand is over."""
        s = self._t.state
        self._t.discards.extend(self._t.dealt.pop(seat, []))
        self._t.folded.add(seat)
        if sum(1 for live in s.statuses if live) > 2:
            s._muck_hole_cards(self.index_of(seat))
            s._begin_betting()
        else:  # one live hand left: it wins what is not refunded, with no bring-in
            s.bring_in_status = False
            s.fold()

    def _award(self) -> str:
        s = self.state
        contributed = {
            seat: self.start[seat] - int(s.stacks[i]) - int(s.bets[i])
            for i, seat in enumerate(self.order)
        }
        layers = self._layers(contributed)
        amounts = [sum(part.values()) for _, part in layers]
        eligible = [[self.index_of(seat) for seat in players] for players, _ in layers]
        for k in range(1, len(eligible)):  # a slice only a dead hand paid: with the pot below
            eligible[k] = eligible[k] or eligible[k - 1]
        assert sum(amounts) == sum(contributed.values())
        awards = dict.fromkeys(self.order, 0)
        shares = [part for _, part in layers]
        for seat, clause in self._t.refunds.items():
            refund = contributed[seat]
            if clause == "l":  # the ante: the first money in, in the main pot
                refund = min(self.config.ante, refund)
            awards[seat] += refund
            for k, amount in enumerate(amounts):  # (j)3: each pot gives back the seat's share
                taken = min(refund, amount, shares[k][seat])
                amounts[k] -= taken
                refund -= taken
            assert refund == 0
        rake = self.config.rake.take(sum(amounts), self.flop_seen())
        left = rake
        for amount, players in zip(amounts, eligible, strict=True):
            taken = min(left, amount)
            left -= taken
            amount -= taken
            if not amount:
                continue
            winners = self._winners(players)
            share, odd = divmod(amount, len(winners))
            for k, index in enumerate(winners):
                awards[self.seat_of(index)] += share + (1 if k < odd else 0)
        self.rake = rake
        self.awards = awards
        self.final = {
            seat: int(s.stacks[i]) + int(s.bets[i]) + awards[seat]
            for i, seat in enumerate(self.order)
        }
        self.status = "awarded"
        won = ", ".join(f"seat {k} {dollars(v)}" for k, v in awards.items() if v)
        return f"rake {dollars(rake)}; {won or 'nothing awarded'}"

    def _layers(
        self, contributed: Mapping[int, int]
    ) -> list[tuple[tuple[int, ...], dict[int, int]]]:
        """The main pot then each side pot as (the seats that may win it, what each seat put in
        it): a layer per distinct contribution, layers with the same live seats one pot, empty
        ones none.  felt's own record of who is live: not folded and not a dead hand (gone,
        killed, thrown away), so a dead hand never wins even with no turn left, and a hand that
        lost the showdown (PokerKit mucks it) is still compared."""
        out = set(self._t.folded) | self._t.gone
        layers: list[tuple[tuple[int, ...], dict[int, int]]] = []
        below = 0
        for level in sorted(set(contributed.values())):
            part = {seat: max(0, min(c, level) - below) for seat, c in contributed.items()}
            players = tuple(s for s in self.order if s not in out and contributed[s] >= level)
            if layers and layers[-1][0] == players:
                merged = layers.pop()[1]
                part = {seat: part[seat] + merged[seat] for seat in part}
            if sum(part.values()):
                layers.append((players, part))
            below = level
        if layers and not layers[0][0]:  # every hand dead: to those PokerKit has standing
            s = self.state
            standing = tuple(seat for i, seat in enumerate(self.order) if s.statuses[i])
            paid = tuple(seat for seat, part in layers[0][1].items() if part)
            layers[0] = (standing or paid, layers[0][1])
        return layers

    def _winners(self, players: list[int]) -> list[int]:
        """The best hands among ``players`` (PokerKit indices), in the odd chip order."""
        if len(players) == 1:
            return players
        hand_type = self.state.hand_types[0]
        board = [pk_card(c) for c in self.board()]
        hands = {}
        for i in players:
            try:
                cards = [pk_card(c) for c in self.hole_cards(self.seat_of(i))]
                hands[i] = hand_type.from_game(cards, board)
            except ValueError:  # a dead hand's cards are gone: it ranks below any hand
                continue
        if not hands:
            return sorted(players)
        best = max(hands.values())
        winners = [i for i in players if hands.get(i) == best]
        if self.config.variant == "stud7":
            return sorted(winners, key=lambda i: -max(self.hole_cards(self.seat_of(i))))
        return sorted(winners)


def _checked_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    cards = tuple(Card(int(c)) for c in deck)
    if sorted(cards) != sorted(new_deck()):
        raise FeltError("the deck must be the 52 cards, each once, in the order to deal")
    return cards


# --- checks: each returns what is wrong ("" when the action may be done) ---------------------


def _check_player(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, PlayerAction)
    s = hand.state
    due = hand._folded_due()
    if due is not None:
        return f"the dealer owes seat {due}'s folded position a card first (14.15(e))"
    if s.actor_index is None:
        return "it is no player's turn"
    if hand.seat_of(s.actor_index) != action.seat:
        return f"it is seat {hand.seat_of(s.actor_index)}'s turn, not seat {action.seat}'s"
    owed = s.checking_or_calling_amount or 0
    bring_in = s.can_post_bring_in()
    match action:
        case Discard():
            return ""  # 14.15(k)2: a bring-in due is posted before the hand folds
        case Fold():
            return "the low card must bring it in or complete" if bring_in else ""
        case Check():
            if bring_in:
                return "the low card must bring it in or complete"
            return f"there is {dollars(owed)} to call" if owed else ""
        case Call():
            if bring_in:
                return "the low card must bring it in or complete"
            return "nothing to call: check" if not owed else ""
        case BringIn():
            return "" if bring_in else "no bring-in is due"
        case Bet() | RaiseTo():
            if not hand._may_raise():
                return "no bet or raise is allowed now (14.17: the most raises a round)"
            opening = max(s.bets) == 0
            if isinstance(action, Bet) and not opening:
                return "there is a wager already: raise_to"
            if isinstance(action, RaiseTo) and opening:
                return "nothing to raise: bet"
            low = s.min_completion_betting_or_raising_to_amount or 0
            high = s.max_completion_betting_or_raising_to_amount or 0
            if not low <= action.amount <= high:
                return f"the amount must be {dollars(low)} to {dollars(high)}"
            return ""
        case AllIn():
            return "" if hand._all_in_action(s.actor_index) else "no all-in wager is possible"
    return "unknown player action"


def _check_dealer(hand: PokerHand, action: Action) -> str:
    s = hand.state
    due = hand._folded_due()
    if due is not None:
        what = f"seat {due}'s folded position is due a card (14.15(e))"
        return "" if isinstance(action, DealHole) else what
    match action:
        case Burn():
            return "" if s.can_burn_card() else "no card is to be burned now"
        case DealHole():
            return "" if s.can_deal_hole() and not s.can_burn_card() else "no hole card is due"
        case DealBoard():
            return "" if s.can_deal_board() and not s.can_burn_card() else "no board card is due"
        case Award():
            return "" if hand._award_ready() else "the betting is not over"
    return "unknown dealer step"


def _check_misdeal(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, Misdeal)
    if action.clause not in MISDEAL_CLAUSES:
        return f"clause must be one of {', '.join(MISDEAL_CLAUSES)}"
    try:
        _checked_deck(action.deck)
    except FeltError as error:
        return str(error)
    if action.clause in ("f2", "f4") and len(hand._t.voluntary) >= 2:
        return "two players have voluntarily put wagers in the pot: no misdeal (14.15(f)2, 4)"
    if hand.shuffler and action.by_hand:
        return "14.15(p): the automated shuffler must be removed (shuffler_removed) before a shuffle by hand"
    if not hand.shuffler_at_start and action.clause == "o":
        return "no automated shuffler is at this table to jam (14.15(o))"
    if not hand.shuffler and not action.by_hand:
        return "no automated shuffler is at this table: the reshuffle is by hand (by_hand)"
    return ""


def _check_shuffler_removed(hand: PokerHand, action: Action) -> str:
    return "" if hand.shuffler else "no automated shuffler is at this table"


def _check_discard_top(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, TopCardDiscarded)
    if action.clause not in DISCARD_CLAUSES:
        return f"clause must be one of {', '.join(DISCARD_CLAUSES)}"
    if not hand._t.deck:
        return "the deck is empty"
    s = hand.state
    if action.clause == "n":
        if hand.config.variant == "stud7":
            return "14.15(n) is for hold'em and Omaha (stud: 14.15(l))"
        dealee = s.hole_dealee_index
        if not s.can_deal_hole() or dealee is None or hand.seat_of(dealee) != action.seat:
            return f"seat {action.seat} is not being dealt a hole card"
    return ""


def _check_ineligible(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, DealtToIneligible)
    if not 1 <= action.seat <= hand.config.seats:
        return f"seat must be 1 to {hand.config.seats}"
    if action.seat in hand.start:
        return f"seat {action.seat} is in the hand"
    if not 1 <= action.count <= len(hand._t.deck):
        return f"count must be 1 to {len(hand._t.deck)}"
    return ""


def _check_leave(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, LeaveWithoutComment)
    if action.seat not in hand.start or not hand.in_hand(action.seat) or hand.dead(action.seat):
        return f"seat {action.seat} has no live hand"
    return ""


def _check_killed(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, HandKilled)
    if action.clause not in ("l", "j3", "j"):
        return "clause must be l, j3 or j"
    if action.clause == "l" and hand.config.variant != "stud7":
        return "14.15(l) is for stud (hold'em and Omaha: 14.15(n))"
    if action.clause == "j" and action.fouled and hand.config.variant == "stud7":
        return "14.15(j)1: stud hole cards are protected against fouling: (j)2 or (j)3"
    return _check_leave(hand, LeaveWithoutComment(action.seat))


def _check_reconstructed(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, HandReconstructed)
    return _check_leave(hand, LeaveWithoutComment(action.seat))


def _check_dead(hand: PokerHand, action: Action) -> str:
    return ""


def _check_exposed(hand: PokerHand, action: Action) -> str:
    """14.15(l): a first or second stud hole card, dealt and not yet followed by the third."""
    assert isinstance(action, StudHoleExposed)
    if hand.config.variant != "stud7":
        return "14.15(l) is for stud (hold'em and Omaha: 14.15(n))"
    if action.card not in (1, 2):
        return "card must be 1 or 2 (the first or second hole card)"
    dealt = len(hand.hole_cards(action.seat)) if action.seat in hand.start else 0
    if (
        action.seat not in hand.start
        or not hand.in_hand(action.seat)
        or action.seat in hand._t.gone
    ):
        return f"seat {action.seat} has no live hand"
    if hand.state.street_index != 0 or not 1 <= dealt <= 2:
        return f"seat {action.seat} is not being dealt its first three cards (it has {dealt})"
    if action.card > dealt:
        return f"seat {action.seat} has {dealt} card(s), not a card {action.card}"
    if hand._t.up_exposed.get(action.seat) == action.card - 1:
        return f"seat {action.seat}'s card {action.card} is already exposed"
    return ""


def _check_statement(hand: PokerHand, action: Action) -> str:
    """14.15(k): the stated action must be the stating seat's and one it may do now."""
    assert isinstance(action, Statement)
    if action.stated.seat != action.seat:
        return f"seat {action.seat} may state only its own action"
    check = _CHECKS.get(type(action.stated))
    if check is not _check_player:
        return "a statement states a player's action (fold, check, call, bet, raise_to, ...)"
    return _check_player(hand, action.stated)


_CHECKS: Final[dict[type[Action], Callable[[PokerHand, Action], str]]] = {
    Fold: _check_player, Check: _check_player, Call: _check_player, Bet: _check_player,
    RaiseTo: _check_player, AllIn: _check_player, BringIn: _check_player,
    Discard: _check_player, Burn: _check_dealer, DealHole: _check_dealer,
    DealBoard: _check_dealer, Award: _check_dealer, Misdeal: _check_misdeal,
    DeadRound: _check_dead, TopCardDiscarded: _check_discard_top,
    DealtToIneligible: _check_ineligible, LeaveWithoutComment: _check_leave,
    HandKilled: _check_killed, StudHoleExposed: _check_exposed, Statement: _check_statement,
    ShufflerRemoved: _check_shuffler_removed, HandReconstructed: _check_reconstructed,
}  # fmt: skip


# --- effects: each changes the hand and says what it did ---------------------------------------


def _apply_player(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, PlayerAction)
    s = hand._t.state
    index = hand.index_of(action.seat)
    seat = f"seat {action.seat}"
    match action:
        case Fold() | Discard():
            if isinstance(action, Discard) and s.can_post_bring_in():
                paid = s.post_bring_in().amount  # 14.15(k)2: the forced wager is not relieved
                hand._t.brought_in.add(action.seat)
                hand._throw_away(action.seat)
                return (
                    f"{seat} threw the hand away: the bring-in of {dollars(paid)} it owed "
                    "posted, the hand folded (14.15(k)2)"
                )
            hand._fold(action.seat)
            if isinstance(action, Discard):
                return f"{seat} discarded the hand: folded (14.15(k)1)"
            return f"{seat} folds"
        case Check():
            s.check_or_call()
            return f"{seat} checks"
        case Call():
            paid = s.check_or_call().amount
            hand._t.voluntary.add(action.seat)
            return f"{seat} calls {dollars(paid)}"
        case BringIn():
            paid = s.post_bring_in().amount
            hand._t.brought_in.add(action.seat)
            return f"{seat} brings it in for {dollars(paid)}"
        case Bet() | RaiseTo():
            s.complete_bet_or_raise_to(action.amount)
            hand._t.voluntary.add(action.seat)
            hand._t.receiving.clear()  # 14.15(e): a subsequent wager at the table
            return f"{seat} {action.name.replace('_', 's ')} {dollars(action.amount)}"
        case AllIn():
            hand._t.voluntary.add(action.seat)
            if hand._all_in_action(index) == "raise":
                to = s.max_completion_betting_or_raising_to_amount or 0
                s.complete_bet_or_raise_to(to)
                hand._t.receiving.clear()  # 14.15(e): a subsequent wager at the table
                return f"{seat} is all in to {dollars(to)}"
            paid = s.check_or_call().amount
            return f"{seat} calls all in {dollars(paid)}"
    raise AssertionError(action)


def _apply_dealer(hand: PokerHand, action: Action) -> str:
    s = hand._t.state
    match action:
        case Burn():
            card = hand._top()
            s.burn_card(pk_card(card))
            hand._t.burned.append(card)
            return "burn"
        case DealHole():
            due = hand._folded_due()
            if due is not None:
                card = hand._top()
                hand._t.owed.remove(min(o for o in hand._t.owed if o[1] == due))
                hand._t.discards.append(card)
                return f"a card to seat {due}'s folded position: dead, to the discards (14.15(e))"
            index = s.hole_dealee_index
            assert index is not None
            card = hand._top()
            s.deal_hole(pk_card(card))
            hand._t.dealt.setdefault(hand.seat_of(index), []).append(card)
            return f"a card to seat {hand.seat_of(index)}"
        case DealBoard():
            count = s.board_dealing_count or 0
            cards = [hand._top() for _ in range(count)]
            s.deal_board("".join(str(c) for c in cards))
            return "board " + " ".join(str(c) for c in cards)
        case Award():
            return hand._award()
    raise AssertionError(action)


def _apply_misdeal(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, Misdeal)
    hand._t = hand._begin(action.deck)
    how = "by hand" if action.by_hand or not hand.shuffler else "by the shuffler"
    return f"misdeal (14.15({action.clause[0]}){action.clause[1:]}): reshuffled {how}, dealt again"


def _apply_shuffler_removed(hand: PokerHand, action: Action) -> str:
    hand.shuffler = False
    return "the automated shuffler removed from the table (14.15(p)): shuffles by hand from now"


def _apply_dead(hand: PokerHand, action: Action) -> str:
    """14.15(h): every chip back to the player who put it there."""
    hand.final = dict(hand.start)
    hand.status = "dead"
    return "round dead (14.15(h)): every chip in the pot returned to its player"


def _apply_discard_top(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, TopCardDiscarded)
    card = hand._top()
    hand._t.discards.append(card)
    if action.clause == "n":
        hand._t.exposed.append(card)
        return f"{card} exposed dealing to seat {action.seat}: to the discards (14.15(n))"
    return f"{card} to the discards (14.15({action.clause}))"


def _apply_ineligible(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, DealtToIneligible)
    cards = [hand._top() for _ in range(action.count)]
    hand._t.discards.extend(cards)
    return f"{action.count} card(s) dealt to seat {action.seat}, not in the hand: discarded"


def _apply_leave(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, LeaveWithoutComment)
    hand._t.gone.add(action.seat)
    return f"seat {action.seat} left without comment: no interest in the pot (14.15(j)4)"


def _apply_killed(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, HandKilled)
    hand._t.gone.add(action.seat)
    if action.clause == "j":
        how = "fouled" if action.fouled else "collected by the dealer"
        return f"seat {action.seat}'s unprotected hand {how}: dead, no redress (14.15(j))"
    hand._t.refunds[action.seat] = action.clause
    what = "the ante" if action.clause == "l" else "all it put in"
    return f"seat {action.seat}'s hand dead (14.15({action.clause[0]}){action.clause[1:]}): {what} refunded"


def _apply_reconstructed(hand: PokerHand, action: Action) -> str:
    assert isinstance(action, HandReconstructed)
    cards = " ".join(str(c) for c in hand.hole_cards(action.seat))
    return f"seat {action.seat}'s hand reconstructed ({cards}): the round goes on (14.15(j)2)"


def _apply_exposed(hand: PokerHand, action: Action) -> str:
    """14.15(l): one exposed hole card: up, and the third card (still to come) down; the second
    exposed: the hand dead, the ante returned."""
    assert isinstance(action, StudHoleExposed)
    which = action.card - 1
    if action.seat in hand._t.up_exposed:
        del hand._t.up_exposed[action.seat]
        return _apply_killed(hand, HandKilled("l", action.seat)) + " (both hole cards exposed)"
    index = hand.index_of(action.seat)
    s = hand._t.state
    s.hole_card_statuses[index][which] = True
    pending = s.hole_dealing_statuses[index]
    pending[len(pending) - 1] = False
    hand._t.up_exposed[action.seat] = which
    return (
        f"seat {action.seat}'s hole card {action.card} exposed in dealing: it is the up card, the "
        "third card dealt down (14.15(l))"
    )


def _apply_statement(hand: PokerHand, action: Action) -> str:
    """14.15(k): the statement binds: the stated action is done; (k)2: cards thrown away after
    it leave the wager in the pot and fold the hand."""
    assert isinstance(action, Statement)
    text = _apply_player(hand, action.stated)
    said = f"seat {action.seat} states it (binding, 14.15(k)): {text}"
    if action.then_discards and hand.in_hand(action.seat):
        hand._throw_away(action.seat)
        said += "; then threw the cards away: the wager stays, the hand folded (14.15(k)2)"
    return said


_APPLY: Final[dict[type[Action], Callable[[PokerHand, Action], str]]] = {
    Fold: _apply_player, Check: _apply_player, Call: _apply_player, Bet: _apply_player,
    RaiseTo: _apply_player, AllIn: _apply_player, BringIn: _apply_player,
    Discard: _apply_player, Burn: _apply_dealer, DealHole: _apply_dealer,
    DealBoard: _apply_dealer, Award: _apply_dealer, Misdeal: _apply_misdeal,
    DeadRound: _apply_dead, TopCardDiscarded: _apply_discard_top,
    DealtToIneligible: _apply_ineligible, LeaveWithoutComment: _apply_leave,
    HandKilled: _apply_killed, StudHoleExposed: _apply_exposed, Statement: _apply_statement,
    ShufflerRemoved: _apply_shuffler_removed, HandReconstructed: _apply_reconstructed,
}  # fmt: skip
