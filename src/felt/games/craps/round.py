"""One roll of craps by N.J.A.C. 19:47-1 as dealt in New Jersey: a round of the shared machinery.

Craps has no rounds: wagers stay on the layout from roll to roll.  felt runs it as one round per
roll (phase ``betting`` -> "no more bets" -> ``closed`` -> the roll -> ``complete``); the table
(:class:`~felt.games.craps.table.CrapsTable`) carries everything still on the layout, the point,
the shooter and the roll history into the next roll's round.

The seed text gives 1.1 (come out roll, come out point, come point) and every wager of 1.2(a);
1.3 to 1.11 are titles only, taken from the public descriptions named in docs/interpretations.md
("Craps"):

- Making and removing wagers (1.3): pass and don't pass only before a come out roll; come and
  don't come only while a point is set.  Pass once a point is set, and a come wager on its come
  point, are contract wagers: never taken down.  Don't pass and don't come may be taken down or
  reduced at any time.  Odds, place, buy, lay, hardway and one-roll wagers are placed, increased,
  reduced or taken down at any time between rolls.
- Payout odds (1.4): the table's posted pay table, never less than the minimums; a wager is
  accepted only when it can be paid in full at its odds (whole cents).
- Buy and lay (1.5): true odds, no commission ("vigorish prohibited").
- Odds (1.6): behind pass and don't pass once the point is set, behind a come or don't come wager
  on its come point, up to the table's multiple (a lay's win up to the multiple).
- Working: place and buy wagers and the odds on come points are off on a come out roll unless
  called on (1.2(a)5 for place bets); everything else works unless its owner calls it off.
- An invalid roll (1.9) is no roll: nothing is decided and the shooter throws again.
- The shooter (1.11): the dice go clockwise, to a seat with a pass or don't pass wager at a come
  out roll, and pass on after a seven out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.games.craps.actions import Bet, CallOff, CallOn, InvalidRoll, PassDice, Roll, TakeDown
from felt.games.craps.config import EDITION, CrapsConfig, odds_text, rules
from felt.games.craps.dice import check_die
from felt.games.craps.spots import NUMBERS, Spot, point_odds, spot
from felt.rounds.actions import DrawnInError, FaceUpCard, NoMoreBets, ShufflerJam, player_name
from felt.rounds.engine import HOUSE, LAYOUT, SettlementLine, seat_party
from felt.rounds.round_core import RoundCore

HISTORY = 20
"""How many past rolls the table keeps in view."""
RETURNED = ("pass", "dont_pass", "come", "dont_come")
"""Kinds whose flat wager (and odds) leave the layout when they win, as a one-roll wager does;
place, place to lose, buy, lay and hardway wagers stay up after a win."""
OFF_ON_COME_OUT = ("place", "buy")
"""Kinds off on a come out roll unless called on (1.2(a)5: place bets; buy bets, being place bets
at true odds, 1.5); the odds on a come point too (1.6, as dealt)."""


class Phase(StrEnum):
    """Where a roll stands."""

    BETTING = "betting"
    CLOSED = "closed"
    """ "No more bets": the dice are out."""
    COMPLETE = "complete"


@dataclass
class CrapsSeat:
    """One player's position: its wagers on the layout (cents by spot id) and the calls its
    player made ("on" / "off" by spot id)."""

    number: int
    player: str | None = None
    wagers: dict[str, int] = field(default_factory=dict)
    calls: dict[str, str] = field(default_factory=dict)
    at_roll: dict[str, int] | None = None
    """The wagers on the layout when the dice went out ("no more bets"); None before."""

    @property
    def placed(self) -> dict[str, int]:
        """The wagers in action at this roll, what its record lists: those on the layout when
        the dice went out (a wager the roll decides leaves ``wagers``, not this); before then,
        the wagers on the layout now."""
        return dict(self.wagers if self.at_roll is None else self.at_roll)

    def hand_cards(self) -> list[Any]:
        """Craps deals no cards."""
        return []

    @property
    def cards(self) -> tuple[Any, ...]:
        """No cards (what a report of any game's seat reads)."""
        return ()

    @property
    def status(self) -> str:
        """``wagers on the layout`` or, once all are decided or taken down, ``settled``."""
        return "wagers on the layout" if self.wagers else "settled"

    def has_line(self) -> bool:
        """Whether the seat has a pass or don't pass wager (what a come out shooter needs)."""
        return "pass" in self.wagers or "dont_pass" in self.wagers


def cite(section: str) -> str:
    """``N.J.A.C. 19:47-1.<section>``."""
    return rules().cite(section)


def _words(s: Spot) -> str:
    """A spot in a sentence (``place 6 to win``)."""
    label = s.label
    return label[0].lower() + label[1:]


@dataclass
class CrapsRound(RoundCore):
    """One roll of craps; see the module docstring."""

    config: CrapsConfig
    deck: tuple[Any, ...] = ()
    number: int = 1
    point: int | None = None
    """The come out point (1.1), None before a come out roll."""
    shooter: int | None = None
    """The seat holding the dice (1.11); fixed for this roll at "no more bets"."""
    rolls: list[dict[str, Any]] = field(default_factory=list)
    """The last rolls, oldest first: number, dice, total, shooter, point_before."""
    seats: dict[int, CrapsSeat] = field(default_factory=dict)
    phase: Phase = Phase.BETTING
    dice: tuple[int, int] | None = None
    """This roll's dice once thrown."""
    invalid_rolls: int = 0
    """Throws declared no roll (1.9) before this roll's valid one."""
    declined: list[int] = field(default_factory=list)
    """Seats that passed the dice before this come out roll (1.11)."""
    _moves: list[tuple[CrapsSeat, Spot, int]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )
    """Come and don't come wagers to move to their come points once the roll is settled."""
    uses_cards: ClassVar[bool] = False
    seat_label: ClassVar[str] = "seat"

    def __post_init__(self) -> None:
        for s in self.seats.values():  # what a carried seat had at the last roll is not this one's
            s.at_roll = None
        super().__post_init__()

    # ----------------------------------------------------------------- what a game supplies
    def seat_count(self) -> int:
        """Player positions at the table, numbered clockwise."""
        return self.config.seats

    def cite(self, section: str) -> str:
        """``N.J.A.C. 19:47-1.<section>``."""
        return cite(section)

    @property
    def title(self) -> str:
        """19:47-1."""
        return rules().title

    @property
    def edition_name(self) -> str:
        """The one text of this game."""
        return EDITION

    @property
    def rack_clause(self) -> str:
        """Craps has no discard rack; the dice (1.7, title only)."""
        return self.cite("7")

    @property
    def finished(self) -> bool:
        """The roll is thrown and every wager it decides settled."""
        return self.phase is Phase.COMPLETE

    @property
    def come_out(self) -> bool:
        """Whether the coming (or this) roll is a come out roll (1.1): no point set before it."""
        return self.point_before() is None

    def point_before(self) -> int | None:
        """The point as the roll found it."""
        if self.phase is Phase.COMPLETE and self.rolls:
            before = self.rolls[-1]["point_before"]
            return None if before is None else int(before)
        return self.point

    def must_stay_seated(self, seat: int) -> str:
        """Wagers stay the player's until decided or taken down (1.3, title only)."""
        return (
            f"seat {seat}: your wagers are on the layout; take down what may be taken down "
            f"({self.cite('3')}); a contract wager stays until it is decided"
        )

    def cards_to_come(self) -> bool:
        """No cards in craps."""
        return False

    def pending(self) -> list[tuple[int, str]]:
        """Craps asks no player for a decision: a wager stays as it lies."""
        return []

    def _deem(self, seat: int, what: str) -> None:  # pragma: no cover - no elections
        raise FeltError("craps has no elections")

    def _void_all(self, clause: str, reason: str) -> None:  # pragma: no cover - never raised
        raise FeltError("a craps roll is never void as a whole; an invalid roll is no roll")

    def next_dealer_action(self) -> NoMoreBets | Roll | None:
        """``no_more_bets`` once a wager is on the layout and a shooter is found; then the roll
        (its dice are the table's or the stickperson's to give)."""
        if self.phase is Phase.BETTING:
            if self.waiting() is None:
                return NoMoreBets()
            return None
        if self.phase is Phase.CLOSED:
            return Roll()
        return None

    def waiting(self) -> str | None:
        """Why the roll cannot close yet (nothing on the layout, no shooter), or None."""
        if not any(s.wagers for s in self.seats.values()):
            return "waiting for a wager on the layout"
        if self.next_shooter() is None:
            passed = [n for n in self.declined if n in self.seats and self.seats[n].has_line()]
            again = (
                f" (seat {passed[0]} passed the dice: its next pass or don't pass wager takes "
                "them back)"
                if passed
                else ""
            )
            return f"waiting for a shooter: a pass or don't pass wager{again}"
        return None

    # ----------------------------------------------------------------- the shooter (1.11)
    def next_shooter(self) -> int | None:
        """Who throws this roll (1.11, title only): while a point is set, the shooter; on a come
        out roll, the shooter if they have a pass or don't pass wager, else the next seat
        clockwise that has one, after a seven out starting from the seat after the shooter;
        seats that passed the dice are skipped."""
        if self.point is not None and self.shooter is not None:
            return self.shooter
        n = self.seat_count()
        start = self.shooter or 1
        last = self.rolls[-1] if self.rolls else None
        if (
            last is not None
            and last["point_before"] is not None
            and last["total"] == 7
            and last["shooter"] == self.shooter
            and self.shooter is not None
        ):
            start = self.shooter % n + 1
        for k in range(n):
            seat = (start - 1 + k) % n + 1
            s = self.seats.get(seat)
            if s is not None and s.has_line() and seat not in self.declined:
                return seat
        return None

    # ----------------------------------------------------------------- working and limits
    def working(self, seat: int, spot_id: str) -> bool:
        """Whether the wager of ``seat`` on ``spot_id`` is decided by the coming roll: a call
        "on" or "off" by its owner rules; else place and buy wagers and come point odds are off
        on a come out roll (1.2(a)5; 1.5, 1.6 as dealt), everything else works."""
        s = self.seats.get(seat)
        if s is None or spot_id not in s.wagers:
            return False
        call = s.calls.get(spot_id)
        if call is not None:
            return call == "on"
        return not (self.come_out and self._off_on_come_out(spot(spot_id)))

    @staticmethod
    def _off_on_come_out(s: Spot) -> bool:
        return s.kind in OFF_ON_COME_OUT or (s.odds and s.kind == "come")

    @staticmethod
    def callable(s: Spot) -> bool:
        """Whether its owner may call the wager off or on: standing wagers and odds, never a line
        flat wager (a contract) or a one-roll wager."""
        return s.odds or s.kind in ("place", "place_lose", "buy", "lay", "hard")

    def pays(self, s: Spot) -> list[Fraction]:
        """Every odds ``s`` can be paid at (for the payable-in-full step)."""
        p = self.config.pays
        if s.odds:
            number = s.number if s.kind in ("come", "dont_come") else self.point
            assert number is not None
            return [point_odds(s.kind, number)]
        if s.kind in ("buy", "lay"):
            assert s.number is not None
            return [point_odds(s.kind, s.number)]
        if s.kind in RETURNED:
            return [p[s.kind]]
        keys = {"field": ("field", "field_2", "field_12"),
                "craps_eleven": ("craps_eleven_craps", "craps_eleven_eleven"),
                "horn": ("horn_2", "horn_3", "horn_11", "horn_12")}.get(s.kind, (s.id,))  # fmt: skip
        return [p[k] for k in keys]

    def step(self, s: Spot) -> int:
        """The cents a wager on ``s`` is a whole number of, so it can be paid in full (1.4)."""
        out = 1
        for odds in self.pays(s):
            out = math.lcm(out, odds.denominator)
        return out

    def _odds_cap(self, seat: CrapsSeat, s: Spot) -> tuple[int, str]:
        """The most the odds on ``s`` may total (1.6): take odds up to the multiple of the flat
        wager; lay odds whose win is up to the multiple of it."""
        number = s.number if s.number is not None else self.point
        assert number is not None
        flat = seat.wagers.get(s.flat.id, 0)
        multiple = self.config.odds[number]
        if s.kind in ("dont_pass", "dont_come"):
            win_to_lay = point_odds(s.kind, number)
            cap = int(multiple * flat / win_to_lay)
            return cap, f"a win of up to {multiple} times the flat wager ({dollars(flat)})"
        return multiple * flat, f"up to {multiple} times the flat wager ({dollars(flat)})"

    # ----------------------------------------------------------------- when a wager may be made
    def bet_refusal(self, seat: int, s: Spot) -> str | None:
        """Why a wager on ``s`` may not be made (or increased) at ``seat`` now, or None."""
        if self.phase is not Phase.BETTING:
            return f'no wager after "No more bets" until the roll is settled ({self.cite("3")})'
        if not s.betting:
            return (
                f"a come point is reached by the roll that moves a come wager there, never bet "
                f"directly ({self.cite('2(a)3')}); bet come, or odds on {s.id}_odds"
            )
        own = self.seats.get(seat)
        wagers = own.wagers if own else {}
        if s.odds:
            flat = s.flat
            if flat.kind in ("pass", "dont_pass") and self.point is None:
                return (
                    f"odds behind {_words(flat)} are taken once a point is set ({self.cite('6')}); "
                    "no point is set"
                )
            if flat.id not in wagers:
                where = "on its come point" if flat.number else "there"
                return (
                    f"odds lie behind your {_words(flat)} wager {where} ({self.cite('6')}); you "
                    f"have none"
                )
            return None
        if s.kind in ("pass", "dont_pass") and self.point is not None:
            return (
                f"a {_words(s)} bet is made only immediately prior to the come out roll "
                f"({self.cite(s.clause)}): the point is {self.point}; bet come or don't come now"
            )
        if s.kind in ("come", "dont_come") and self.point is None:
            return (
                f"a {_words(s)} bet is made only after the come out roll ({self.cite(s.clause)}): "
                "no point is set; bet pass or don't pass now"
            )
        return None

    def take_down_refusal(self, seat: int, s: Spot) -> str | None:
        """Why the wager on ``s`` at ``seat`` may not be taken down or reduced now, or None
        (1.3, title only, as dealt: pass after a point is set and a come wager on its come point
        are contract wagers)."""
        if self.phase is not Phase.BETTING:
            return (
                f'wagers are taken down between rolls, not after "No more bets" ({self.cite("3")})'
            )
        own = self.seats.get(seat)
        if own is None or s.id not in own.wagers:
            return f"seat {seat} has no wager on {_words(s)}"
        if s.id == "pass" and self.point is not None:
            return (
                f"a pass bet is a contract wager once the point is set ({self.cite('3')}): it "
                f"stays until the point {self.point} or a 7 decides it"
            )
        if s.kind == "come" and s.on_point and not s.odds:
            return (
                f"a come bet on its come point is a contract wager ({self.cite('3')}): it stays "
                f"until {s.number} or a 7 decides it; its odds may be taken down"
            )
        return None

    def allowed(self, seat: int) -> dict[str, list[str]]:
        """What ``seat`` may do now: the spots a wager is accepted on, and its wagers that may be
        taken down, called on or called off."""
        from felt.games.craps.spots import SPOTS

        out: dict[str, list[str]] = {"bet": [], "take_down": [], "call_on": [], "call_off": []}
        if self.phase is not Phase.BETTING:
            return out
        out["bet"] = [s.id for s in SPOTS if self.bet_refusal(seat, s) is None]
        own = self.seats.get(seat)
        for sid in own.wagers if own else {}:
            s = spot(sid)
            if self.take_down_refusal(seat, s) is None:
                out["take_down"].append(sid)
            if self.callable(s):  # as _check_call allows: a call other than the one made
                call = own.calls.get(sid) if own else None
                out["call_on"] += [sid] * (call != "on")
                out["call_off"] += [sid] * (call != "off")
        return out

    # ----------------------------------------------------------------- bet, take down, calls
    def _check_bet(self, a: Bet) -> None:
        s = spot(a.spot, "bet spot")
        where = f"{s.id}"
        why = self.bet_refusal(a.seat, s)
        if why is not None:
            raise FeltError(f"{where}: {why}")
        own = self.seats.get(a.seat)
        if own is not None and own.wagers and a.player and own.player and own.player != a.player:
            raise FeltError(f"{where}: seat {a.seat} is {own.player}'s while wagers lie there")
        have = own.wagers.get(s.id, 0) if own else 0
        why = self.amount_refusal(own, s, have, a.amount)
        if why is not None:
            raise FeltError(f"{where}: {why}")

    def amount_refusal(
        self, own: CrapsSeat | None, s: Spot, have: int, amount: int, carried: bool = False
    ) -> str | None:
        """Why ``amount`` more on ``s`` (``have`` there already) is not a wager the table
        accepts, or None: positive, within the table's limits (odds: within the multiple of the
        flat wager, 1.6) and payable in full (1.4).  ``carried``: the amount is one the layout
        carries from the last roll, made under the limits of its day (a table's limits and odds
        multiple may change with chips on the layout): positive and payable in full only."""
        if amount <= 0:
            return f"a wager is a positive amount, got {dollars(amount)}"
        total = have + amount
        cfg = self.config
        if carried:  # made under the limits of its day: a table's limits may change since
            least, most = 1, total
        elif s.odds:
            assert own is not None
            least, (most, words) = 1, self._odds_cap(own, s)
            if total > most:
                return (
                    f"odds may total {words}, so at most {dollars(most)}; "
                    + (f"you have {dollars(have)} there and " if have else "")
                    + f"bet {dollars(amount)} ({self.cite('6')})"
                )
        else:
            prop = s.kind == "hard" or s.one_roll
            least, most = (cfg.proposition_minimum if prop else cfg.minimum), cfg.maximum
            if total < least or total > most:
                return (
                    f"a wager there must total {dollars(least)} to {dollars(most)} (the table's "
                    f"limits), got {dollars(total)}"
                )
        step = self.step(s)
        if total % step:
            below, above = total - total % step, total - total % step + step
            options = [t - have for t in (below, above) if max(least, have + 1) <= t <= most]
            return (
                f"a wager there is paid at {', '.join(odds_text(o) for o in self.pays(s))} and "
                f"must be payable in full, a whole number of {dollars(step)} in all "
                f"({self.cite('4')}); "
                + (
                    f"the {dollars(amount)} carried is not"
                    if carried
                    else f"bet {' or '.join(dollars(x) for x in options)} instead of "
                    f"{dollars(amount)}"
                    if options
                    else "no amount within the limits is"
                )
            )
        return None

    def check_carried(self, where: str) -> None:
        """Every wager the roll carries is one the table could have left on the layout between
        rolls: as :meth:`amount_refusal` accepts it (positive, within the limits and the odds
        multiple, payable in full; 1.4, 1.6), odds only behind their flat wager (pass and don't
        pass odds while a point is set), calls only on wagers that can be called, and no come or
        don't come wager in the come area (the roll after it was made moved it, 1.1)."""
        for n in sorted(self.seats):
            seat = self.seats[n]
            for s in _order(seat.wagers):  # flat wagers before their odds
                why = self._carried_refusal(seat, s)
                if why is not None:
                    raise FeltError(f"{where}: seat {n} {s.id} {dollars(seat.wagers[s.id])}: {why}")
            for sid, call in seat.calls.items():
                s = spot(sid)
                if sid not in seat.wagers:
                    raise FeltError(
                        f"{where}: seat {n}: {sid} is called {call}, but the seat has no wager there"
                    )
                if not self.callable(s):
                    raise FeltError(
                        f"{where}: seat {n}: {sid} cannot be called {call}: only standing wagers "
                        f"(place, place to lose, buy, lay, hardways) and odds can "
                        f"({self.cite('3')})"
                    )

    def _carried_refusal(self, seat: CrapsSeat, s: Spot) -> str | None:
        """Why the layout cannot carry ``seat``'s wager on ``s`` into a roll, or None."""
        if s.kind in ("come", "dont_come") and s.number is None:
            return (
                f"a {_words(s)} wager lies in the come area only until the next roll moves it to "
                f'its come point ({self.cite("1")} "Come Point"); between rolls the come area '
                f"is empty: carry it on {s.id}_N (N one of 4, 5, 6, 8, 9, 10)"
            )
        if s.odds:
            flat = s.flat
            if flat.id not in seat.wagers:
                return f"odds lie behind their flat wager ({self.cite('6')}); the seat has no {flat.id}"
            if flat.kind in ("pass", "dont_pass") and self.point is None:
                return (
                    f"odds behind {_words(flat)} lie there only while a point is set "
                    f"({self.cite('6')}); the point is null"
                )
        return self.amount_refusal(seat, s, 0, seat.wagers[s.id], carried=True)

    def _do_bet(self, a: Bet) -> None:
        if a.spot in ("pass", "dont_pass") and a.seat in self.declined:
            self.declined.remove(a.seat)  # a new line wager offers to take the dice again (1.11)
        own = self.seats.setdefault(a.seat, CrapsSeat(a.seat, a.player))
        if a.player and not own.wagers:
            own.player = a.player
        own.wagers[a.spot] = own.wagers.get(a.spot, 0) + a.amount
        self._place(a.seat, a.spot, a.amount)

    def _check_take_down(self, a: TakeDown) -> None:
        s = spot(a.spot, "take_down spot")
        why = self.take_down_refusal(a.seat, s)
        if why is not None:
            raise FeltError(f"{s.id}: {why}")
        own = self.seats[a.seat]
        have = own.wagers[s.id]
        amount = have if a.amount is None else a.amount
        if not 0 < amount <= have:
            raise FeltError(
                f"{s.id}: take down 0.01 to {dollars(have)} (the wager there), got {dollars(amount)}"
            )
        left = have - amount
        if left and not s.odds:
            prop = s.kind == "hard" or s.one_roll
            least = self.config.proposition_minimum if prop else self.config.minimum
            if left < least:
                raise FeltError(
                    f"{s.id}: what stays must be at least {dollars(least)} (the table's minimum); "
                    f"take down all {dollars(have)} or at most {dollars(have - least)}"
                )
        if left % self.step(s):
            raise FeltError(
                f"{s.id}: what stays must be payable in full, a whole number of "
                f"{dollars(self.step(s))} ({self.cite('4')}); {dollars(left)} is not"
            )
        odds = s.flat.id + ("_odds" if not s.odds else "")
        if not s.odds and left and odds in own.wagers:
            base = own.wagers[s.id]
            own.wagers[s.id] = left
            try:
                cap, words = self._odds_cap(own, spot(odds))
            finally:
                own.wagers[s.id] = base
            if own.wagers[odds] > cap:
                raise FeltError(
                    f"{s.id}: the odds behind it ({dollars(own.wagers[odds])}) would then exceed "
                    f"{words.replace(dollars(base), dollars(left))} ({self.cite('6')}); reduce the "
                    "odds first"
                )

    def _do_take_down(self, a: TakeDown) -> None:
        own = self.seats[a.seat]
        have = own.wagers[a.spot]
        amount = have if a.amount is None else a.amount
        moved = [(a.spot, amount)]
        odds = a.spot + "_odds"
        if amount == have and odds in own.wagers:  # the odds come down with their flat wager
            moved.append((odds, own.wagers[odds]))
        for sid, amt in moved:
            own.wagers[sid] -= amt
            if not own.wagers[sid]:
                del own.wagers[sid]
                own.calls.pop(sid, None)
            self.ledger.move(LAYOUT, seat_party(a.seat), amt, f"{sid} taken down")
            self._effect("take_down", a.seat, amount=amt, detail=sid)
        if not own.wagers and not any(line.seat == a.seat for line in self.lines):
            del self.seats[a.seat]  # nothing of the seat's is on the layout: its player may go

    def _check_call(self, seat: int, spot_id: str, on: bool) -> Spot:
        s = spot(spot_id, "call spot")
        word = "on" if on else "off"
        if self.phase is not Phase.BETTING:
            raise FeltError(
                f'{s.id}: wagers are called {word} between rolls, not after "No more bets"'
            )
        own = self.seats.get(seat)
        if own is None or s.id not in own.wagers:
            raise FeltError(f"{s.id}: seat {seat} has no wager there to call {word}")
        if not self.callable(s):
            kind = "a one-roll wager" if s.one_roll else "a line wager (a contract once on a point)"
            raise FeltError(
                f"{s.id}: {kind} works on every roll and cannot be called {word}; standing wagers "
                f"and odds can ({self.cite('3')})"
            )
        if own.calls.get(s.id) == word:
            raise FeltError(f"{s.id}: already called {word}")
        return s

    def _check_call_on(self, a: CallOn) -> None:
        self._check_call(a.seat, a.spot, True)

    def _do_call_on(self, a: CallOn) -> None:
        self.seats[a.seat].calls[a.spot] = "on"
        self._effect("call", a.seat, detail=f"{a.spot} on")

    def _check_call_off(self, a: CallOff) -> None:
        self._check_call(a.seat, a.spot, False)

    def _do_call_off(self, a: CallOff) -> None:
        self.seats[a.seat].calls[a.spot] = "off"
        self._effect("call", a.seat, detail=f"{a.spot} off")

    def _check_pass_dice(self, a: PassDice) -> None:
        if self.phase is not Phase.BETTING or self.point is not None:
            raise FeltError(
                f"seat {a.seat}: the dice may be passed before a come out roll only "
                f"({self.cite('11')}); the shooter keeps them until a seven out"
            )
        if self.next_shooter() != a.seat:
            raise FeltError(
                f"seat {a.seat} does not hold the dice (the shooter is "
                f"{self.next_shooter() or 'not yet found'}; {self.cite('11')})"
            )
        others = [
            n for n, s in self.seats.items()
            if n != a.seat and s.has_line() and n not in self.declined
        ]  # fmt: skip
        if not others:
            raise FeltError(
                f"seat {a.seat}: no other seat has a pass or don't pass wager to take the dice "
                f"({self.cite('11')}); throw them, or pass them once another seat has one"
            )

    def _do_pass_dice(self, a: PassDice) -> None:
        self.declined.append(a.seat)
        self._effect("pass_dice", a.seat, detail=f"dice passed ({self.cite('11')})")

    # ----------------------------------------------------------------- the roll
    def _check_no_more_bets(self, a: NoMoreBets) -> None:
        if self.phase is not Phase.BETTING:
            raise FeltError(f"wagers are already closed for this roll (the roll is {self.phase})")
        why = self.waiting()
        if why is not None:
            raise FeltError(f"no roll yet: {why} ({self.cite('11')})")

    def _do_no_more_bets(self, a: NoMoreBets) -> None:
        self.shooter = self.next_shooter()
        self.phase = Phase.CLOSED
        for s in self.seats.values():
            s.at_roll = dict(s.wagers)
        self._effect("no_more_bets", self.shooter, detail=f"the dice are out: seat {self.shooter}")

    def _check_invalid_roll(self, a: InvalidRoll) -> None:
        if self.phase is not Phase.CLOSED:
            raise FeltError(f'an invalid roll is a throw after "No more bets" ({self.cite("9")})')

    def _do_invalid_roll(self, a: InvalidRoll) -> None:
        self.invalid_rolls += 1
        self._effect(
            "invalid_roll",
            self.shooter,
            detail=f"no roll; the shooter throws again ({self.cite('9')})",
        )

    def _check_roll(self, a: Roll) -> None:
        if self.phase is not Phase.CLOSED:
            raise FeltError(f'the dice are thrown after "No more bets"; the roll is {self.phase}')
        if a.die1 is None or a.die2 is None:
            raise FeltError(
                "a roll names both dice (die1, die2, each 1 to 6); an electronic table's dice are "
                "filled in by its random number generator"
            )
        check_die(a.die1, "die1")
        check_die(a.die2, "die2")

    def _do_roll(self, a: Roll) -> None:
        """Settle every working wager on the roll (1.2(a), 1.10), then move the come wagers to
        their come points and set or clear the point (1.1)."""
        assert a.die1 is not None
        assert a.die2 is not None
        d1, d2 = a.die1, a.die2
        total = d1 + d2
        before = self.point
        self.dice = (d1, d2)
        self._effect("roll", self.shooter, detail=f"{d1} and {d2}: {total}")
        self._moves = []
        for number in sorted(self.seats):
            seat = self.seats[number]
            for sid in [s.id for s in _order(seat.wagers)]:
                if sid in seat.wagers:
                    self._decide(seat, spot(sid), d1, d2, before)
        for seat, s, to in self._moves:  # after the come points this roll decided
            self._travel(seat, s, to)
        if before is None:
            self.point = total if total in NUMBERS else None
        elif total in (7, before):
            self.point = None
        self.rolls = [*self.rolls, {"number": self.number, "dice": [d1, d2], "total": total,
                                    "shooter": self.shooter, "point_before": before}][-HISTORY:]  # fmt: skip
        self.phase = Phase.COMPLETE

    def _decide(self, seat: CrapsSeat, s: Spot, d1: int, d2: int, before: int | None) -> None:
        """Decide one wager on the roll ``d1``, ``d2`` (the point ``before`` it), or leave it."""
        total = d1 + d2
        pays = self.config.pays
        working = self.working(seat.number, s.id)
        if s.odds:
            flat = s.flat
            number = before if flat.kind in ("pass", "dont_pass") else flat.number
            if number is None or total not in (7, number):
                return
            if not working:
                self._settle(seat, s, "push", Fraction(0), d1, d2)
                return
            right = flat.kind in ("pass", "come")
            won = (total == number) == right
            self._settle(seat, s, "win" if won else "lose", point_odds(flat.kind, number), d1, d2)
            return
        if not working:
            return
        if s.kind in ("pass", "come") and (
            s.number is None and (s.kind == "come" or before is None)
        ):
            if total in (7, 11):
                self._settle(seat, s, "win", pays[s.kind], d1, d2)
            elif total in (2, 3, 12):
                self._settle(seat, s, "lose", Fraction(0), d1, d2)
            elif s.kind == "come":
                self._moves.append((seat, s, total))
            return
        if s.kind in ("dont_pass", "dont_come") and (
            s.number is None and (s.kind == "dont_come" or before is None)
        ):
            if total in (2, 3):
                self._settle(seat, s, "win", pays[s.kind], d1, d2)
            elif total in (7, 11):
                self._settle(seat, s, "lose", Fraction(0), d1, d2)
            elif total == 12:
                self._settle(seat, s, "void", Fraction(0), d1, d2)
            elif s.kind == "dont_come":
                self._moves.append((seat, s, total))
            return
        if s.kind in RETURNED:  # pass / don't pass on the point, or a come point
            number = s.number if s.number is not None else before
            if total not in (7, number):
                return
            right = s.kind in ("pass", "come")
            won = (total == number) == right
            self._settle(seat, s, "win" if won else "lose", pays[s.kind], d1, d2)
            return
        if s.kind in ("place", "buy", "place_lose", "lay"):
            assert s.number is not None
            if total not in (7, s.number):
                return
            right = s.kind in ("place", "buy")
            won = (total == s.number) == right
            odds = pays[s.id] if s.kind.startswith("place") else point_odds(s.kind, s.number)
            self._settle(seat, s, "win" if won else "lose", odds, d1, d2)
            return
        if s.kind == "hard":
            if total == s.number and d1 == d2:
                self._settle(seat, s, "win", pays[s.id], d1, d2)
            elif total in (7, s.number):
                self._settle(seat, s, "lose", Fraction(0), d1, d2)
            return
        prop = one_roll_odds(s.kind, total, pays)
        self._settle(seat, s, "lose" if prop is None else "win", prop or Fraction(0), d1, d2)

    def _travel(self, seat: CrapsSeat, s: Spot, total: int) -> None:
        """A come or don't come wager moves to its come point (1.1 "Come Point"), on top of one
        already there."""
        amount = seat.wagers.pop(s.id)
        target = f"{s.kind}_{total}"
        seat.wagers[target] = seat.wagers.get(target, 0) + amount
        self._effect("travel", seat.number, amount=amount, detail=f"{s.id} to {target}")

    def _settle(
        self, seat: CrapsSeat, s: Spot, outcome: str, odds: Fraction, d1: int, d2: int
    ) -> None:
        """One statement line: a win pays ``odds`` (returning the wager unless it stays up), a
        loss collects it, a void or push returns it."""
        stake = seat.wagers[s.id]
        who = seat_party(seat.number)
        stays = (
            outcome == "win"
            and not s.odds
            and s.kind in ("place", "place_lose", "buy", "lay", "hard")
        )
        amount = 0
        if outcome == "lose":
            self.ledger.move(LAYOUT, HOUSE, stake, f"{s.id} collected")
            amount = -stake
        elif outcome == "win":
            won = stake * odds
            if won.denominator != 1:  # every wager is checked payable in full when made (1.4)
                raise RuntimeError(
                    f"cannot happen: {s.id} {dollars(stake)} at {odds_text(odds)} is not whole cents"
                )
            amount = int(won)
            self.ledger.move(HOUSE, who, amount, f"{s.id} paid")
            if not stays:
                self.ledger.move(LAYOUT, who, stake, f"{s.id} returned")
        else:
            self.ledger.move(LAYOUT, who, stake, f"{s.id} returned")
        if not stays:
            del seat.wagers[s.id]
            seat.calls.pop(s.id, None)
        line = SettlementLine(
            seat.number, s.label, stake, outcome, amount, self.cite(s.clause),
            odds_text(odds) if outcome == "win" else "", f"{d1} and {d2}",
        )  # fmt: skip
        self.lines.append(line)
        self._new_lines.append(line)

    # ----------------------------------------------------------------- no cards
    def _no_cards(self) -> None:
        raise FeltError("craps is played with dice: no cards, no shuffler; an invalid roll is "
                        '{"irregularity": "invalid_roll"}')  # fmt: skip

    def _check_face_up_card(self, a: FaceUpCard) -> None:
        self._no_cards()

    def _check_drawn_in_error(self, a: DrawnInError) -> None:
        self._no_cards()

    def _check_shuffler_jam(self, a: ShufflerJam) -> None:
        self._no_cards()

    # ----------------------------------------------------------------- origin
    def origin_json(self) -> dict[str, Any]:
        """What the roll was made with (the layout the table handed it), as JSON."""
        o = self._origin
        return origin_json(o["number"], o["point"], o["shooter"], o["rolls"], o["seats"])


def one_roll_odds(kind: str, total: int, pays: dict[str, Fraction]) -> Fraction | None:
    """What a one-roll wager pays on ``total`` (1.2(a)11-19, 1.4), None when it loses."""
    if kind == "field":
        if total in (2, 12):
            return pays[f"field_{total}"]
        return pays["field"] if total in (3, 4, 9, 10, 11) else None
    if kind == "craps_eleven":
        if total == 11:
            return pays["craps_eleven_eleven"]
        return pays["craps_eleven_craps"] if total in (2, 3, 12) else None
    if kind == "horn":
        return pays[f"horn_{total}"] if total in (2, 3, 11, 12) else None
    wins = {"any_seven": (7,), "any_craps": (2, 3, 12), "craps_2": (2,), "craps_3": (3,),
            "craps_12": (12,), "eleven": (11,)}[kind]  # fmt: skip
    return pays[kind] if total in wins else None


def _order(wagers: dict[str, int]) -> list[Spot]:
    """A seat's wagers in statement order (flat wagers before their odds)."""
    from felt.games.craps.spots import SPOTS

    return [s for s in SPOTS if s.id in wagers]


def origin_json(
    number: int, point: int | None, shooter: int | None, rolls: list[dict[str, Any]],
    seats: dict[int, CrapsSeat],
) -> dict[str, Any]:  # fmt: skip
    """A roll's origin (what the table hands it) as JSON: amounts in dollars."""
    return {
        "number": number,
        "point": point,
        "shooter": shooter,
        "rolls": [dict(r, dice=list(r["dice"])) for r in rolls],
        "seats": {
            str(n): {
                "player": s.player,
                "wagers": {k: dollars(v) for k, v in s.wagers.items()},
                "calls": dict(s.calls),
            }
            for n, s in sorted(seats.items())
            if s.wagers
        },
    }


def round_from_origin(config: CrapsConfig, origin: Mapping[str, Any]) -> CrapsRound:
    """The roll :func:`origin_json` (or :meth:`CrapsRound.origin_json`) describes; a malformed
    origin, or a layout the table could not have left (a wager it would refuse, odds with no flat
    wager or no point, a call on a wager that cannot be called, a come wager still in the come
    area), is one clear error naming its part."""
    where = "craps roll origin"
    if not isinstance(origin, Mapping):
        raise FeltError(f"{where} must be an object (number, point, shooter, rolls, seats)")
    extra = set(origin) - set(ORIGIN_KEYS)
    if extra:
        raise FeltError(f"{where}: unknown keys {sorted(extra)} (allowed: {sorted(ORIGIN_KEYS)})")
    point = _point(origin.get("point"), f"{where}: point")
    number = _whole(origin.get("number", 1), f"{where}: number")
    shooter = _seat(origin.get("shooter"), config, f"{where}: shooter")
    rolls = _rolls(origin.get("rolls", []), config, f"{where}: rolls")
    seats: dict[int, CrapsSeat] = {}
    raw = origin.get("seats", {})
    if not isinstance(raw, Mapping):
        raise FeltError(f"{where}: seats must be an object by seat number")
    for key, entry in raw.items():
        if not str(key).isdigit() or not 1 <= int(key) <= config.seats:
            raise FeltError(f"{where}: seat {excerpt(key)} is not a seat (1 to {config.seats})")
        seats[int(key)] = _carried_seat(int(key), entry, f"{where}: seat {key}")
    rnd = CrapsRound(config, (), number=number, point=point, shooter=shooter,
                     rolls=rolls[-HISTORY:], seats=seats)  # fmt: skip
    rnd.check_carried(where)
    return rnd


ORIGIN_KEYS = ("number", "point", "shooter", "rolls", "seats")
ROLL_KEYS = ("number", "dice", "total", "shooter", "point_before")


def _whole(value: object, where: str) -> int:
    """A whole number from 1, or one clear error."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise FeltError(f"{where} must be a whole number from 1, got {excerpt(value)}")
    return value


def _point(value: object, where: str) -> int | None:
    """A point number or None, or one clear error."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in NUMBERS:
        raise FeltError(f"{where} must be one of 4, 5, 6, 8, 9, 10 or null, got {excerpt(value)}")
    return value


def _seat(value: object, config: CrapsConfig, where: str) -> int | None:
    """A seat of the table or None, or one clear error."""
    if value is None:
        return None
    seat = _whole(value, where)
    if seat > config.seats:
        raise FeltError(f"{where}: {seat} is not a seat (1 to {config.seats})")
    return seat


def _rolls(raw: object, config: CrapsConfig, where: str) -> list[dict[str, Any]]:
    """The roll history of an origin, each entry checked: number, the two dice and their total,
    the shooter, the point the roll found."""
    if not isinstance(raw, list):
        raise FeltError(f"{where} must be a list of rolls ({', '.join(ROLL_KEYS)})")
    out = []
    for i, r in enumerate(raw):
        at = f"{where}[{i}]"
        if not isinstance(r, Mapping):
            raise FeltError(f"{at} must be an object ({', '.join(ROLL_KEYS)}), got {excerpt(r)}")
        extra = set(r) - set(ROLL_KEYS)
        missing = [k for k in ROLL_KEYS[:3] if k not in r]
        if extra or missing:
            raise FeltError(
                f"{at}: give {', '.join(ROLL_KEYS[:3])} (and shooter, point_before if known); "
                + (f"unknown {sorted(extra)}" if extra else f"missing {missing}")
            )
        dice = r["dice"]
        if not isinstance(dice, list | tuple) or len(dice) != 2:
            raise FeltError(
                f"{at}: dice must be a list of two dice such as [3, 4], got {excerpt(dice)}"
            )
        d1, d2 = check_die(dice[0], f"{at}: dice[0]"), check_die(dice[1], f"{at}: dice[1]")
        if r["total"] != d1 + d2 or isinstance(r["total"], bool):
            raise FeltError(
                f"{at}: total must be the dice's sum {d1 + d2}, got {excerpt(r['total'])}"
            )
        out.append({"number": _whole(r["number"], f"{at}: number"), "dice": [d1, d2],
                    "total": d1 + d2, "shooter": _seat(r.get("shooter"), config, f"{at}: shooter"),
                    "point_before": _point(r.get("point_before"), f"{at}: point_before")})  # fmt: skip
    return out


def _carried_seat(number: int, entry: object, where: str) -> CrapsSeat:
    """One seat of an origin: its player, wagers (dollars by spot id) and calls."""
    if not isinstance(entry, Mapping):
        raise FeltError(f"{where} must be an object (player, wagers, calls)")
    extra = set(entry) - {"player", "wagers", "calls"}
    if extra:
        raise FeltError(f"{where}: unknown keys {sorted(extra)} (allowed: player, wagers, calls)")
    raw_wagers, raw_calls = entry.get("wagers", {}), entry.get("calls", {})
    if not isinstance(raw_wagers, Mapping) or not raw_wagers:
        raise FeltError(
            f'{where}: wagers must be an object of spot and amount such as {{"pass": "10.00"}}; '
            "a seat with no wager on the layout is left out"
        )
    if not isinstance(raw_calls, Mapping):
        raise FeltError(f'{where}: calls must be an object of spot and "on" or "off"')
    wagers = {_spot(k, where).id: cents(v, f"{where} {k}") for k, v in raw_wagers.items()}
    calls = {_spot(k, where).id: v for k, v in raw_calls.items()}
    for sid, call in calls.items():
        if call not in ("on", "off"):
            raise FeltError(f'{where}: the call on {sid} is "on" or "off", got {excerpt(call)}')
    player = player_name(entry.get("player"), f"{where}: player")
    return CrapsSeat(number, player, wagers, calls)


def _spot(key: object, where: str) -> Spot:
    """The spot ``key`` names, its error naming ``where``."""
    try:
        return spot(key)
    except FeltError as err:
        raise FeltError(f"{where}: {err}") from None
