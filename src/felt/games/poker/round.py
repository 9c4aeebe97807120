"""One poker hand as a table round (:class:`~felt.rounds.round_core.RoundCore`): how a hand of
the poker room (:class:`~felt.games.poker.hand.PokerHand`, N.J.A.C. 19:47-14) runs on the server's
shared round machinery, with the table's chips and the pot as ledger accounts.

A round has three phases:

- ``betting``: the seats sit in.  A player buys in or adds on (:class:`BuyIn`, from the wallet to
  the table's chips, within the table's buy-in limits) or cashes out (:class:`CashOut`, the whole
  stack back to the wallet); a seat whose stack the table carried from the last hand is in at
  once.  Once two seats have chips the dealer may call "no more bets": the button moves to the
  next seat with chips clockwise (it stays put for a hand dealt again after a misdeal) and the
  hand is dealt to every seat with chips.
- ``playing``: the hand, action by action: the dealer's steps (each hole card, each burn, each
  board card, the award) and the player to act's election (``act``), with every irregularity
  of 14.15 that :class:`PokerHand` records.  A misdeal (14.15(f), the shuffler of (o)) ends the
  round with every chip back where it was, and the next round deals the hand again with the
  button where it was (the reshuffle is the next round's new deck; see docs/interpretations.md,
  "The poker room on the server").
- ``complete``: the hand awarded (or dead, or misdealt); each seat's statement line is its
  result; the table carries the stacks to the next round.

The ledger: the table's chips (every stack) are the layout account; every chip a player puts in
moves from the layout to the pot (:data:`~felt.rounds.engine.POT`), and at the award the pot goes
to the winners' stacks and the rake to the house, so the pot account holds exactly what is in the
pot, and is empty between hands.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Final, Self

from felt.core.cards import Card, new_deck
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.games.poker import hand as ph
from felt.games.poker.config import PokerConfig, TimeRake
from felt.rounds.actions import Action, NoMoreBets, PlayerAction, ShufflerJam
from felt.rounds.engine import HOUSE, LAYOUT, POT, SettlementLine, seat_party
from felt.rounds.round_core import RoundCore
from felt.rounds.shuffle import Shuffler, SystemShuffle

EDITION: Final = "nj-19-47-14"
TITLE: Final = "N.J.A.C. 19:47-14 (the poker room)"


class Phase(StrEnum):
    """Where a round stands."""

    BETTING = "betting"
    PLAYING = "playing"
    COMPLETE = "complete"


# --- the round's own actions -----------------------------------------------------------------


@dataclass(frozen=True)
class BuyIn(PlayerAction):
    """Take a seat's chips from the wallet, or add on: the stack after it from the table's
    minimum to its maximum buy-in (between hands only)."""

    name: ClassVar[str] = "buy_in"
    places_wagers: ClassVar[bool] = True
    amount: int = 0
    player: str | None = None


@dataclass(frozen=True)
class CashOut(PlayerAction):
    """The seat's whole stack back to its player's wallet (between hands only)."""

    name: ClassVar[str] = "cash_out"


@dataclass(frozen=True)
class Redeal(Action):
    """14.15(f)1-4 and (o): a misdeal: every card back, every chip back, the hand dealt again
    from a new shuffle with the button, blinds and antes as they were (the next round)."""

    name: ClassVar[str] = "redeal"
    family: ClassVar[str] = "irregularity"
    clause: str
    by_hand: bool = False
    """The reshuffle is by hand (after the shuffler was removed, 14.15(p))."""


@dataclass(frozen=True)
class Remove(PlayerAction):
    """14.16(b): a floorperson removes the player at ``seat`` (collusion, or any reason the floor
    records): between hands the seat's whole stack goes back to its player's wallet, the reason
    on record (during a hand the floor first records the player leaving, 14.15(j)4)."""

    name: ClassVar[str] = "remove"
    family: ClassVar[str] = "irregularity"
    supervisor_only: ClassVar[str] = "remove a player from the table (14.16(b))"
    reason: str = ""


@dataclass(frozen=True)
class TimeCharge(Action):
    """A time-charge table's clock (14.14, title only; the table's rake ``kind = "time"``): at
    the deal it starts each dealt seat's clock; once the hand is over it collects from each seat
    ``per_half_hour`` for every 30 minutes of the hand (whole minutes, the seconds over carried to
    the seat's next hand), pro rata to the cent, at most its stack.  ``at``: the table's clock
    (seconds since the epoch), which the server supplies as it applies the step."""

    name: ClassVar[str] = "time_charge"
    family: ClassVar[str] = "dealer"
    at: float | None = None


HAND_ACTIONS: Final[tuple[type[Action], ...]] = (
    ph.Fold, ph.Check, ph.Call, ph.Bet, ph.RaiseTo, ph.AllIn, ph.BringIn, ph.Discard,
    ph.Burn, ph.DealHole, ph.DealBoard, ph.Award, ph.DeadRound, ph.TopCardDiscarded,
    ph.DealtToIneligible, ph.LeaveWithoutComment, ph.HandKilled, ph.HandReconstructed,
    ph.StudHoleExposed, ph.Statement, ph.ShufflerRemoved,
)  # fmt: skip
"""The hand's own actions, passed to :class:`PokerHand` as they come (its misdeal, which carries
a new deck, is :class:`Redeal` at a table)."""
ROUND_ACTIONS: Final[tuple[type[Action], ...]] = (BuyIn, CashOut, Redeal, TimeCharge, Remove)
STEPS: Final[dict[str, type[Action]]] = {
    "burn": ph.Burn, "deal_hole": ph.DealHole, "deal_board": ph.DealBoard, "award": ph.Award,
}  # fmt: skip
"""The dealer's step by the word :meth:`PokerHand.allowed` begins with."""


@dataclass
class PokerSeat:
    """A seat in the round: its player and stack (cents) as the round began or was bought."""

    number: int
    player: str | None
    stack: int
    wagers: dict[str, int] = field(default_factory=dict)
    placed: dict[str, int] = field(default_factory=dict)
    """What the seat put in this hand's pot (``pot``) and bought in for (``buy-in``), cents."""
    cards: tuple[Card, ...] = ()
    """The seat's cards as dealt, once the hand is over (the record's; views are built from the
    hand)."""
    status: str = "sitting in"
    """``sitting in``, ``in`` (dealt in), ``settled`` (the hand over)."""

    def hand_cards(self) -> list[Card]:
        """The seat's cards once the hand is over."""
        return list(self.cards)


@dataclass
class PokerRound(RoundCore):
    """One hand at a poker table, with the sitting in before it (see the module docstring)."""

    stacks: dict[int, int] = field(default_factory=dict)
    """The stacks the table carried from the last hand, by seat."""
    players: dict[int, str] = field(default_factory=dict)
    """Whose each carried stack is."""
    button: int = 0
    """Where the button was after the last hand (0: no hand yet)."""
    redeal: bool = False
    """This round deals again the hand a misdeal ended: the button stays."""
    charged_at: dict[int, float] = field(default_factory=dict)
    """At a time-charge table: the seconds each seat's last hands left over a whole minute,
    carried to its next hand's charge."""
    phase: Phase = field(default=Phase.BETTING, init=False)
    seats: dict[int, PokerSeat] = field(default_factory=dict, init=False)
    hand: ph.PokerHand | None = field(default=None, init=False)
    in_pot: dict[int, int] = field(default_factory=dict, init=False)
    """What each seat has put in the pot this hand (cents): the layout-to-pot moves."""
    clock_from: float | None = field(default=None, init=False)
    """At a time-charge table: when this hand was dealt (the table's clock)."""
    time_charged: bool = field(default=False, init=False)
    over: str = field(default="", init=False)
    """The hand is over (awarded, dead or misdealt) and its time not yet collected."""
    ended_by: str = field(default="", init=False)
    """How the round ended: "awarded", "dead" (14.15(h)) or "misdeal" (with its clause)."""

    ELECTIONS: ClassVar[dict[str, tuple[str, str]]] = {
        "act": ("a check where nothing is to be called, else a fold", "14.15(k)"),
    }

    def __post_init__(self) -> None:
        super().__post_init__()
        for n, stack in sorted(self.stacks.items()):
            if stack > 0:
                self.seats[n] = PokerSeat(n, self.players.get(n), stack)

    # ----------------------------------------------------------------- what a game supplies
    def seat_count(self) -> int:
        """The table's seats."""
        return int(self.config.seats)

    def cite(self, section: str) -> str:
        """``14.15(k)`` -> ``N.J.A.C. 19:47-14.15(k)``."""
        return f"N.J.A.C. 19:47-{section}"

    @property
    def finished(self) -> bool:
        """The hand is awarded, dead or misdealt."""
        return self.phase is Phase.COMPLETE

    def must_stay_seated(self, seat: int) -> str:
        """A stack stays at the table until its player cashes out between hands."""
        return (
            f"seat {seat}'s chips are at the table: cash out between hands to leave "
            f"({self.cite('14.15(j)4')} for a player who leaves during a hand)"
        )

    @property
    def title(self) -> str:
        """The poker room's rule text."""
        return TITLE

    @property
    def edition_name(self) -> str:
        """One text."""
        return EDITION

    @property
    def rack_clause(self) -> str:
        """A folded hand is dead and goes to the discards (14.15(k))."""
        return self.cite("14.15(k)")

    def cards_to_come(self) -> bool:
        """While the hand is in play."""
        return self.phase is not Phase.COMPLETE

    def ready(self) -> list[int]:
        """The seats with chips, which the next deal goes to."""
        return sorted(n for n, s in self.seats.items() if s.stack > 0)

    def pending(self) -> list[tuple[int, str]]:
        """The player to act, once the hand is dealt to them."""
        if self.phase is not Phase.PLAYING or self.hand is None or self.over:
            return []
        seat = self.hand.to_act()
        return [] if seat is None else [(seat, "act")]

    def window_actions(self) -> tuple[type[Action], ...]:
        """The player's actions while one is to act."""
        return HAND_ACTIONS[:8] if self.pending() else ()

    def next_dealer_action(self) -> Action | None:
        """ "No more bets" once two seats have chips; then the hand's next dealer step (none
        while a player is to act)."""
        if self.phase is Phase.BETTING:
            if len(self.ready()) < 2:
                return None
            return TimeCharge() if self._time_due() else NoMoreBets()
        if self.over:
            return TimeCharge()
        if self.phase is not Phase.PLAYING or self.hand is None or self.pending():
            return None
        allowed = self.hand.allowed()
        if not allowed:
            return None
        step = STEPS.get(allowed[0].split()[0])
        return None if step is None else step()

    # ----------------------------------------------------------------- copies and checks
    def copy(self) -> Self:
        """An independent copy, with its own PokerKit state."""
        twin = super().copy()
        twin.hand = _copy.deepcopy(self.hand)
        return twin

    def check(self, action: Action) -> None:
        """The round's own actions as any round checks them; the hand's by the hand."""
        if type(action) in HAND_ACTIONS:
            if self.phase is not Phase.PLAYING or self.hand is None:
                raise FeltError(
                    f"{action.name}: no hand is in play (the round is at {self.phase}; the seats "
                    "are sitting in until the dealer calls no more bets)"
                )
            if self.over:
                raise FeltError(f"{action.name}: the hand is over; its time is being collected")
            if isinstance(action, PlayerAction) and action.seat not in self.hand.start:
                raise FeltError(f"seat {action.seat} has no hand in this round")
            self.hand.verify(action)
            return
        super().check(action)

    def _between_hands(self, what: str) -> None:
        if self.phase is not Phase.BETTING:
            raise FeltError(
                f"{what}: only between hands, while the seats sit in (the round is at {self.phase})"
            )

    def _check_buy_in(self, a: BuyIn) -> None:
        self._between_hands("buy_in")
        low, high = self.config.min_buy_in, self.config.max_buy_in
        held = self.seats.get(a.seat)
        if held is not None and a.player is not None and held.player not in (None, a.player):
            raise FeltError(f"seat {a.seat}'s chips are another player's")
        after = (held.stack if held else 0) + a.amount
        if a.amount <= 0 or not low <= after <= high:
            raise FeltError(
                f"buy_in: seat {a.seat}'s stack would be {dollars(after)}; it must be from "
                f"{dollars(low)} to {dollars(high)} (the table's buy-in limits, 14.17)"
            )

    def _do_buy_in(self, a: BuyIn) -> None:
        held = self.seats.setdefault(a.seat, PokerSeat(a.seat, a.player, 0))
        held.stack += a.amount
        held.placed["buy-in"] = held.placed.get("buy-in", 0) + a.amount
        if a.player is not None:
            held.player = a.player
        self.ledger.move(seat_party(a.seat), LAYOUT, a.amount, "buy-in: chips to the table")
        self._effect("wager", a.seat, amount=a.amount, detail="buy-in")

    def _check_cash_out(self, a: CashOut) -> None:
        self._check_leaving(a.name, a.seat)

    def _do_cash_out(self, a: CashOut) -> None:
        self._pay_out(a.seat, "cash_out", "cash-out")

    def _check_remove(self, a: Remove) -> None:
        if not a.reason.strip():
            raise FeltError("remove: the floor records why (reason)")
        self._check_leaving(a.name, a.seat)

    def _do_remove(self, a: Remove) -> None:
        self._pay_out(a.seat, "remove", f"removed (14.16(b)): {a.reason}")

    def _check_leaving(self, what: str, seat: int) -> None:
        self._between_hands(what)
        if seat not in self.seats:
            raise FeltError(f"{what}: seat {seat} has no chips at the table")

    def _pay_out(self, seat: int, kind: str, why: str) -> None:
        """The seat's whole stack back to its player's wallet; its time charge's seconds go."""
        held = self.seats.pop(seat)
        self.charged_at.pop(seat, None)
        self.ledger.move(LAYOUT, seat_party(seat), held.stack, f"{why}: chips to the wallet")
        self._effect(kind, seat, amount=held.stack, detail=why)

    def _check_no_more_bets(self, a: NoMoreBets) -> None:
        self._between_hands("no_more_bets")
        if self._time_due():
            raise FeltError(
                'no_more_bets: at a time-charge table the clock starts first ({"dealer": '
                '"time_charge"})'
            )
        if len(self.ready()) < 2:
            raise FeltError(
                f"no_more_bets: a hand needs two players with chips; {len(self.ready())} "
                "sit in: wait for a buy-in"
            )

    def _do_no_more_bets(self, a: NoMoreBets) -> None:
        seats = self.ready()
        if not self.redeal or self.button not in seats:
            later = [s for s in seats if s > self.button]
            self.button = later[0] if later else seats[0]
        stacks = {s: self.seats[s].stack for s in seats}
        self.hand = ph.PokerHand(self.config, stacks, self.button, self.deck)
        for s in seats:
            self.seats[s].status = "in"
        self.phase = Phase.PLAYING
        self._effect("no_more_bets", detail=f"button at seat {self.button}")
        self._post(None)

    def _time_due(self) -> bool:
        """The clock must start before the deal (a time-charge table)."""
        return isinstance(self.config.rake, TimeRake) and self.clock_from is None

    def _check_time_charge(self, a: TimeCharge) -> None:
        if not isinstance(self.config.rake, TimeRake):
            raise FeltError("time_charge: this table's rake is a percentage of the pot")
        if a.at is None or a.at != a.at or a.at < 0:
            raise FeltError("time_charge: the table's clock gives the time (at, seconds)")
        if self.phase is Phase.BETTING:
            if self.clock_from is not None:
                raise FeltError("time_charge: the clock has started; deal the hand")
            return
        if not self.over:
            raise FeltError("time_charge: the time is collected once the hand is over")
        assert self.clock_from is not None
        if a.at < self.clock_from:
            raise FeltError("time_charge: the clock is before the deal")

    def _do_time_charge(self, a: TimeCharge) -> None:
        """At the deal the clock starts; once the hand is over each dealt seat pays for the
        whole minutes of the hand and the seconds it carried, the seconds over carried on."""
        assert a.at is not None
        assert isinstance(self.config.rake, TimeRake)
        if self.phase is Phase.BETTING:
            self.clock_from = a.at
            self._effect("time_charge", detail="the clock starts")
            return
        assert self.hand is not None
        assert self.clock_from is not None
        per = self.config.rake.per_half_hour
        for n in self.hand.start:
            seconds = a.at - self.clock_from + self.charged_at.get(n, 0.0)
            minutes = int(seconds // 60)
            taken = min(per * minutes // 30, self.seats[n].stack)
            self.seats[n].stack -= taken
            self.charged_at[n] = seconds - minutes * 60
            self.ledger.move(LAYOUT, HOUSE, taken, f"seat {n} time charge, {minutes} minutes")
            self._effect("time_charge", n, amount=taken, detail=f"{minutes} minutes")
        self.time_charged = True
        self._complete()

    def _check_redeal(self, a: Redeal) -> None:
        if self.phase is not Phase.PLAYING or self.hand is None:
            raise FeltError("redeal: no hand is being dealt")
        if self.over:
            raise FeltError("redeal: the hand is over")
        probe = ph.Misdeal(a.clause, self.deck, by_hand=a.by_hand)  # the hand's own test
        self.hand.verify(probe)

    def _do_redeal(self, a: Redeal) -> None:
        self._end("misdeal", f"misdeal ({a.clause}): every chip back; dealt again next")

    def _check_shuffler_jam(self, a: ShufflerJam) -> None:
        self._check_redeal(Redeal("o"))

    def _do_shuffler_jam(self, a: ShufflerJam) -> None:
        self._do_redeal(Redeal("o"))

    def _do_hand(self, action: Action) -> None:
        """One of the hand's actions: done by the hand, the chips it moved posted."""
        assert self.hand is not None
        before = {s: self._behind(s) for s in self.hand.start}
        event = self.hand.do(action)
        self._post(before, event.text, getattr(action, "seat", None))
        if self.hand.status != "playing":
            self._end(self.hand.status, event.text)

    def _behind(self, seat: int) -> int:
        assert self.hand is not None
        return self.hand.stack(seat)

    def _post(
        self, before: Mapping[int, int] | None, text: str = "", seat: int | None = None
    ) -> None:
        """Move what each stack put in the pot (layout to pot), and the cards drawn."""
        assert self.hand is not None
        start = self.hand.start
        for s in start:
            was = start[s] if before is None else before[s]
            now = self._behind(s)
            if self.hand.final is None and was > now:
                self.ledger.move(LAYOUT, POT, was - now, f"seat {s} to the pot")
                self.in_pot[s] = self.in_pot.get(s, 0) + was - now
            elif self.hand.final is None and now > was:  # an uncalled bet back to its bettor
                self.ledger.move(POT, LAYOUT, now - was, f"seat {s}'s uncalled bet returned")
                self.in_pot[s] = self.in_pot.get(s, 0) - (now - was)
        self.shoe.position = len(self.hand.first_deck) - len(self.hand.deck)
        if text:
            self._effect("hand", seat, detail=text)

    def _end(self, status: str, text: str) -> None:
        """The hand over: the pot to the winners' stacks and the rake to the house (or every chip
        back), each seat's statement line, the stacks the table carries."""
        assert self.hand is not None
        hand = self.hand
        final = dict(hand.start) if status == "misdeal" else dict(hand.final or hand.start)
        in_pot = {s: self.in_pot.get(s, 0) for s in hand.start}
        rake = 0 if status != "awarded" else hand.rake
        for s in hand.start:
            back = final[s] - (hand.start[s] - in_pot[s])
            self.ledger.move(POT, LAYOUT, back, f"seat {s}'s share of the pot")
        self.ledger.move(POT, HOUSE, rake, "the rake")
        for s in hand.start:
            net = final[s] - hand.start[s]
            outcome = (
                "void"
                if status != "awarded"
                else "win"
                if net > 0
                else "lose"
                if net < 0
                else "push"
            )
            line = SettlementLine(s, "pot", in_pot[s], outcome, net, self.cite("14.15"), hand=text)
            self.lines.append(line)
            self._new_lines.append(line)
            seat = self.seats[s]
            seat.stack, seat.status, seat.cards = final[s], "settled", hand.hole_cards(s)
            if in_pot[s]:
                seat.placed["pot"] = in_pot[s]
        self.ended_by = status
        if isinstance(self.config.rake, TimeRake):
            self.over = status  # the hand's time is collected next
        else:
            self._complete()

    def _complete(self) -> None:
        self.over = ""
        self.phase = Phase.COMPLETE

    def _void_all(
        self, clause: str, reason: str
    ) -> None:  # pragma: no cover - cards are PokerKit's
        raise FeltError(reason)

    def _deem(self, seat: int, what: str) -> None:
        """Decision time ran out: a check where nothing is to be called, else a fold; the low
        card in stud brings it in (docs/interpretations.md)."""
        assert self.hand is not None
        for action in (ph.Check(seat), ph.BringIn(seat), ph.Fold(seat)):
            if self.hand.can(action):
                self._do_hand(action)
                return
        raise FeltError(f"seat {seat}: nothing can be deemed")  # pragma: no cover

    def final_stacks(self) -> dict[int, int]:
        """The stacks the table carries to the next round."""
        return {n: s.stack for n, s in sorted(self.seats.items()) if s.stack > 0}


for _kind in HAND_ACTIONS:
    setattr(PokerRound, f"_do_{_kind.name}", PokerRound._do_hand)


@dataclass
class PokerRoomTable:
    """A poker table across hands (:class:`~felt.games.base.GameTable`): the stacks and whose
    they are, the button, the hands played and the rake taken; each hand on a new shuffle."""

    config: PokerConfig
    shuffler: Shuffler = field(default_factory=SystemShuffle)
    rounds_played: int = 0
    stacks: dict[int, int] = field(default_factory=dict)
    players: dict[int, str] = field(default_factory=dict)
    button: int = 0
    redeal: bool = False
    rake_taken: int = 0
    charged_at: dict[int, float] = field(default_factory=dict)
    history: list[PokerRound] = field(default_factory=list)

    def origin(self) -> dict[str, Any]:
        """The next round's origin as JSON (stacks in dollars)."""
        return {
            "number": self.rounds_played + 1,
            "stacks": {str(n): dollars(c) for n, c in sorted(self.stacks.items())},
            "players": {str(n): p for n, p in sorted(self.players.items())},
            "button": self.button,
            "redeal": self.redeal,
            "charged_at": {str(n): t for n, t in sorted(self.charged_at.items())},
        }

    def snapshot(self) -> dict[str, Any]:
        """What carries between hands, as JSON."""
        return {"rounds_played": self.rounds_played, "rake_taken": dollars(self.rake_taken),
                **self.origin()}  # fmt: skip

    @classmethod
    def from_snapshot(cls, config: PokerConfig, snapshot: Mapping[str, Any]) -> PokerRoomTable:
        """The table :meth:`snapshot` describes (one clear error for a malformed one)."""
        snap = dict(snapshot)
        played, rake = snap.get("rounds_played", 0), snap.get("rake_taken", "0.00")
        if isinstance(played, bool) or not isinstance(played, int) or played < 0:
            raise FeltError(
                f"poker table snapshot: rounds_played must be 0 or more, got {played!r}"
            )
        o = origin_fields(config, snap)
        return cls(config, SystemShuffle(), played, o["stacks"], o["players"], o["button"],
                   o["redeal"], parse_cents(rake, "poker table snapshot: rake_taken"),
                   o["charged_at"])  # fmt: skip

    def new_round(self) -> PokerRound:
        """The next hand's round on a new shuffle, carrying the stacks: phase betting."""
        if self.history and not self.history[-1].finished:
            raise FeltError("the hand in play is not over")
        rnd = PokerRound(self.config, self.shuffler.shuffle(new_deck()),
                         number=self.rounds_played + 1, **origin_fields(self.config, self.origin()))  # fmt: skip
        self.history.append(rnd)
        return rnd

    def finish(self, rnd: PokerRound) -> None:
        """Carry the finished round's stacks, players and button to the next hand."""
        if not rnd.finished:
            raise FeltError("the hand is not over")
        self.rounds_played += 1
        self.stacks = rnd.final_stacks()
        self.players = {n: s.player for n, s in rnd.seats.items() if s.player and n in self.stacks}
        self.button = rnd.button
        self.redeal = rnd.ended_by == "misdeal"
        self.charged_at = {n: t for n, t in rnd.charged_at.items() if n in self.stacks}
        if rnd.hand is not None and rnd.ended_by == "awarded":
            self.rake_taken += rnd.hand.rake
        if self.history and self.history[-1] is rnd:
            self.history = self.history[-1:]


def parse_cents(value: object, where: str) -> int:
    """Dollars as text ("12.50") -> cents, or one clear error."""
    from felt.core.money import cents

    return cents(value, where)


def origin_fields(config: PokerConfig, origin: Mapping[str, Any]) -> dict[str, Any]:
    """A round's origin as JSON (:meth:`PokerRoomTable.origin`) read back into the keyword
    arguments of :class:`PokerRound` (one clear error naming what is wrong)."""
    where = "poker round origin"
    raw_stacks, raw_players = origin.get("stacks", {}), origin.get("players", {})
    if not isinstance(raw_stacks, Mapping) or not isinstance(raw_players, Mapping):
        raise FeltError(f"{where}: stacks and players are objects keyed by seat number")
    stacks: dict[int, int] = {}
    for k, v in raw_stacks.items():
        n = _seat(k, config, where)
        stacks[n] = parse_cents(v, f"{where}: stacks.{n}")
        if stacks[n] <= 0:
            raise FeltError(f"{where}: stacks.{n} must be more than 0.00")
    players = {_seat(k, config, where): str(v) for k, v in raw_players.items()}
    button = origin.get("button", 0)
    if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button <= config.seats:
        raise FeltError(f"{where}: button must be 0 to {config.seats}, got {button!r}")
    redeal = origin.get("redeal", False)
    if not isinstance(redeal, bool):
        raise FeltError(f"{where}: redeal must be true or false, got {redeal!r}")
    raw_charged = origin.get("charged_at", {})
    if not isinstance(raw_charged, Mapping):
        raise FeltError(f"{where}: charged_at is an object keyed by seat number")
    charged: dict[int, float] = {}
    for k, v in raw_charged.items():
        if isinstance(v, bool) or not isinstance(v, int | float) or v != v or v < 0:
            raise FeltError(
                f"{where}: charged_at.{k} must be the seconds a seat carries, got {v!r}"
            )
        charged[_seat(k, config, where)] = float(v)
    return {"stacks": stacks, "players": players, "button": button, "redeal": redeal,
            "charged_at": charged}  # fmt: skip


def _seat(key: object, config: PokerConfig, where: str) -> int:
    try:
        n = int(str(key))
    except ValueError:
        n = 0
    if not 1 <= n <= config.seats:
        raise FeltError(f"{where}: seats are 1 to {config.seats}, got {key!r}")
    return n
