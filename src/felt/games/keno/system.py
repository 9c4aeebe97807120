"""The keno computer system as a pure state machine (N.J.A.C. 19:47-15.3 to 15.7): gaming days and
their sequentially numbered games, work stations issuing and voiding tickets, the closing notice or
countdown, the lock-out and its supervised override, the draw and the grading of every ticket, the
aggregate limit, redemption, expiry, and manual payment while the system is down.

Everything happens by an explicit action (an immutable dataclass carrying who did it and when):
:meth:`KenoSystem.check` refuses one that is not allowed now with one clear error and changes
nothing, :meth:`KenoSystem.can` asks, :meth:`KenoSystem.apply` performs it and records an
immutable :class:`Event`.  The system keeps no clock and draws no random number: each action
carries its time, and the 20 numbers of a draw and a quick-pick's numbers are chosen outside by an
injected source (:mod:`felt.games.keno.draw`) and travel in the action, so replaying the actions
rebuilds the same system (:meth:`KenoSystem.replay_from_start`).

Money is integer cents moved on a ledger between the patrons, each work station's drawer, and
where expired winnings go (15.6(d)), so conservation can be checked.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import date, datetime, timedelta
from typing import Any, ClassVar, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from felt.core.errors import FeltError, excerpt
from felt.core.money import dollars
from felt.games.keno.advantage import check_issue
from felt.games.keno.exact import DRAWN, POOL
from felt.games.keno.grading import grade, share
from felt.games.keno.ratecard import RateCard
from felt.games.keno.tickets import Ticket, cite, read_request
from felt.rounds.engine import Ledger

WRITER: Final = "keno writer"
SUPERVISOR: Final = "keno supervisor"
SUPERIOR: Final = "casino supervisor"
"""A supervisor of the keno supervisor: "a keno supervisor or a supervisor thereof" may override
the lock-out (15.5(e)) and authorise payouts (15.6(b), 15.7(c)2), and nothing else here."""
ROLES: Final = (WRITER, SUPERVISOR)
AUTHORISERS: Final = (SUPERVISOR, SUPERIOR)
"""Who may act where the text says "a keno supervisor or a supervisor thereof"."""
PATRONS: Final = "patrons"
SUPERVISOR_PAYOUT: Final = 150_000
"""Winning payouts of $1,500 or more are authorised by a keno supervisor or a supervisor thereof
(19:47-15.6(b))."""
MANUAL_WRITER: Final = 1_000
"""$10.00: what a keno writer may pay by hand while the system is down (15.7(c)1)."""
MANUAL_SUPERVISED: Final = 100_000
"""$1,000: the most paid by hand, with a supervisor's authorisation (15.7(c)2-3)."""
NOTICE: Final = timedelta(minutes=1)
"""Verbal notice of closing is given at least one minute before (15.5(c))."""
DISPOSITIONS: Final = ("keno jackpot", "Casino Revenue Fund")
"""Where expired unclaimed winnings go each year (15.6(d))."""
CLOSINGS: Final = ("countdown", "notice")
PAYMENT_METHODS: Final = ("cash", "gaming chips", "casino check")


@dataclass(frozen=True)
class Staff:
    """A person at the keno booth: an identification code and a role."""

    id: str
    role: str


@dataclass(frozen=True)
class SystemConfig:
    """One keno system: its rate card, work stations, lock-out and closing display."""

    card: RateCard
    stations: tuple[int, ...] = (1,)
    automatic_lockout: bool = True
    """Whether the system locks out the stations itself at the close of each game (15.5(d)-(e))."""
    closing: str = "countdown"
    """``countdown``: the remaining time is displayed at each booth; ``notice``: a supervisor or
    writer announces the closing at least one minute before (15.5(c))."""
    zone: str = "UTC"
    """The time zone whose calendar is the gaming day's: the year of 15.6(d) is counted in it."""

    def __post_init__(self) -> None:
        if not self.stations or any(not 1 <= s <= 999 for s in self.stations):
            raise FeltError("stations must be work station numbers 1 to 999")
        if self.closing not in CLOSINGS:
            raise FeltError(f"closing must be one of {', '.join(CLOSINGS)} ({cite('5(c)')})")
        try:
            ZoneInfo(self.zone)
        except (ZoneInfoNotFoundError, ValueError, TypeError):
            raise FeltError(f"zone must be a time zone such as America/New_York, got "
                            f"{excerpt(self.zone)}") from None  # fmt: skip

    def year(self, moment: datetime) -> int:
        """The calendar year of ``moment`` in the gaming day's zone (a naive time is local)."""
        return moment.year if moment.tzinfo is None else moment.astimezone(ZoneInfo(self.zone)).year


# ----------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Action:
    """Something done to the system at time ``at``."""

    name: ClassVar[str] = ""
    at: datetime


@dataclass(frozen=True)
class OpenDay(Action):
    """Start a gaming day: its games are numbered from 1 (15.5(b))."""

    name: ClassVar[str] = "open_day"
    day: date


@dataclass(frozen=True)
class OpenGame(Action):
    """Open the next game of the day for wagers; ``closes_at``: when it closes (the countdown
    displayed, 15.5(c)), if the system counts down."""

    name: ClassVar[str] = "open_game"
    closes_at: datetime | None = None


@dataclass(frozen=True)
class ClosingNotice(Action):
    """A supervisor or writer announces the game will close (15.5(c))."""

    name: ClassVar[str] = "closing_notice"
    by: Staff


@dataclass(frozen=True)
class Issue(Action):
    """A keno writer issues a ticket at a work station for the request (15.4(c)); the patron pays
    its price.  A quick-pick's numbers are chosen before (:func:`~.tickets.quick_pick`)."""

    name: ClassVar[str] = "issue"
    station: int
    writer: Staff
    request: Mapping[str, Any]

    def __post_init__(self) -> None:
        # the action keeps its own copy: whoever built the request cannot change the record
        object.__setattr__(self, "request", copy.deepcopy(dict(self.request)))


@dataclass(frozen=True)
class Void(Action):
    """A keno writer voids a ticket before its (first) game starts (15.4(e))."""

    name: ClassVar[str] = "void"
    ticket: int
    station: int
    writer: Staff


@dataclass(frozen=True)
class LockOut(Action):
    """Start the game: lock out every work station (15.5(d)1).  ``by`` None is the automatic
    lock-out; by hand it is a supervisor, or a writer with a supervisor's approval."""

    name: ClassVar[str] = "lock_out"
    by: Staff | None = None
    approved_by: Staff | None = None


@dataclass(frozen=True)
class Override(Action):
    """A supervisor overrides the automatic lock-out (15.5(e)): ``hold`` it, ``release`` a hold,
    or ``lock`` now; who and why are recorded."""

    name: ClassVar[str] = "override"
    by: Staff
    what: str
    reason: str


@dataclass(frozen=True)
class Draw(Action):
    """The 20 numbers selected for the locked game, in the order selected (15.5(d)2, (f))."""

    name: ClassVar[str] = "draw"
    numbers: tuple[int, ...]


@dataclass(frozen=True)
class Redeem(Action):
    """Pay a winning ticket at a work station per the computed ticket (15.6(a)); a supervisor
    authorises $1,500 or more (15.6(b)); ``manual_entry``: the ticket was not read and was keyed
    in (15.7(b))."""

    name: ClassVar[str] = "redeem"
    ticket: int
    station: int
    writer: Staff
    supervisor: Staff | None = None
    method: str = "cash"
    manual_entry: bool = False


@dataclass(frozen=True)
class CancelRaces(Action):
    """A supervisor cancels the remaining games of a multi-race ticket (15.4(d))."""

    name: ClassVar[str] = "cancel_races"
    ticket: int
    by: Staff
    reason: str


@dataclass(frozen=True)
class SystemDown(Action):
    """The keno computer system is not operational (15.7(c))."""

    name: ClassVar[str] = "system_down"


@dataclass(frozen=True)
class SystemUp(Action):
    """The system is operational again; manual payments are entered and checked."""

    name: ClassVar[str] = "system_up"


@dataclass(frozen=True)
class ManualPay(Action):
    """While the system is down, a writer pays a winning ticket by hand (15.7(c)): ``amount`` as
    read from the ticket."""

    name: ClassVar[str] = "manual_pay"
    ticket: int
    station: int
    amount: int
    writer: Staff
    supervisor: Staff | None = None


@dataclass(frozen=True)
class YearEnd(Action):
    """Add the year's expired unclaimed winnings to a jackpot or pay them to the Casino Revenue
    Fund (15.6(d))."""

    name: ClassVar[str] = "year_end"
    year: int
    to: str


@dataclass(frozen=True)
class Effect:
    """One thing an action caused."""

    kind: str
    ticket: int | None = None
    amount: int = 0
    detail: str = ""


@dataclass(frozen=True)
class Event:
    """An accepted action and what it caused; immutable once recorded."""

    seq: int
    action: Action
    effects: tuple[Effect, ...]


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True)
class TicketRecord:
    """The keno ticket as printed: every item of 19:47-15.4(c)1-13."""

    number: int
    issued_at: datetime
    station: int
    writer: str
    ticket: Ticket
    day: date
    first_game: int
    last_game: int
    limit_statement: str
    validity_statement: str
    present_statement: str = (
        "Winning patrons must present a computer-generated keno ticket to collect winnings."
    )

    def items(self) -> dict[str, str]:
        """The items of 15.4(c), numbered as there."""
        t = self.ticket
        return {
            "1 date and time of issuance": self.issued_at.isoformat(sep=" ", timespec="seconds"),
            "2 keno work station": str(self.station),
            "3 numbers selected": t.marked() + (" (quick-pick)" if t.quick_pick else ""),
            "4 number of games": str(t.games),
            "5 first and last game": f"{self.first_game} to {self.last_game} of {self.day.isoformat()}",
            "6 conditioning": t.conditioning,
            "7 rate of each wager": t.rates,
            "8 number of ways": str(t.ways),
            "9 total price": f"${dollars(t.price)}",
            "10 keno writer": self.writer,
            "11 maximum keno limit": self.limit_statement,
            "12 presentation": self.present_statement,
            "13 time to claim": self.validity_statement,
        }

    def render(self) -> str:
        """The ticket as printed, one item a line."""
        return f"KENO TICKET {self.number:08d}\n" + "\n".join(
            f"{key.split(' ', 1)[1]}: {value}" for key, value in self.items().items()
        )


@dataclass
class TicketState:
    """A ticket's standing in the system."""

    record: TicketRecord
    voided: bool = False
    void_station: int | None = None
    won: dict[int, int] = field(default_factory=dict)
    """Game number -> cents won in that game (after the aggregate limit)."""
    cancelled: bool = False
    refund: int = 0
    paid: int | None = None
    paid_at: datetime | None = None
    manual: bool = False
    expired_year: int | None = None
    """The year whose 15.6(d) total this ticket's expired winnings were counted in."""

    @property
    def owed(self) -> int:
        """Cents owed: the winnings of every game played and any refund."""
        return self.winnings + self.refund

    @property
    def winnings(self) -> int:
        """Cents won in the games played: a refund of races not played is not winnings
        (15.6(d))."""
        return sum(self.won.values())

    @property
    def games_done(self) -> bool:
        """Whether every game of the ticket has been drawn or cancelled."""
        r = self.record
        return self.cancelled or len(self.won) == r.ticket.games


@dataclass(frozen=True)
class GameRecord:
    """One game: its number in the day, when it started (the lock-out) and the numbers drawn."""

    day: date
    number: int
    opened_at: datetime
    closes_at: datetime | None = None
    notice_at: datetime | None = None
    started_at: datetime | None = None
    numbers: tuple[int, ...] = ()
    shared: bool = False

    @property
    def state(self) -> str:
        """``open``, ``locked`` or ``drawn``."""
        if self.numbers:
            return "drawn"
        return "locked" if self.started_at is not None else "open"


# ----------------------------------------------------------------------------- the system


@dataclass
class KenoSystem:
    """The keno computer system; see the module docstring."""

    config: SystemConfig
    events: list[Event] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger)
    tickets: dict[int, TicketState] = field(default_factory=dict)
    games: dict[tuple[date, int], GameRecord] = field(default_factory=dict)
    day: date | None = None
    game: int = 0
    clock: datetime | None = None
    held: bool = False
    down: bool = False
    manual_log: list[tuple[int, int, int]] = field(default_factory=list)
    """Manual payments while down: (ticket, amount paid, amount the system computes)."""
    day_ends: dict[date, datetime] = field(default_factory=dict)
    """When each past gaming day ended (the next one opened): the claim period of a ticket whose
    last game was never played runs from it (15.6(c))."""
    years_taken: set[int] = field(default_factory=set)
    """The years whose expired unclaimed winnings were totalled (15.6(d)): kept as state, not
    read from the events, so a system restored from a snapshot still refuses a second total."""
    _effects: list[Effect] = field(default_factory=list, repr=False, compare=False)

    def __post_init__(self) -> None:
        # derived, not a field (so not in a snapshot's schema): see _pending
        self._live: dict[tuple[date, int], dict[int, TicketState]] | None = None

    @property
    def card(self) -> RateCard:
        """The rate card in force."""
        return self.config.card

    @property
    def current(self) -> GameRecord | None:
        """The current game of the day, if one has been opened."""
        return None if self.day is None else self.games.get((self.day, self.game))

    # ------------------------------------------------------------------ verify / can / do
    def check(self, action: Action) -> None:
        """Raise :class:`FeltError` if ``action`` is not allowed now; never changes anything."""
        checker = getattr(self, f"_check_{action.name}", None)
        if checker is None or not isinstance(action, Action):
            raise FeltError(f"{excerpt(action)} is not an action of the keno system")
        if not isinstance(action.at, datetime):
            raise FeltError("every action carries its time (at)")
        if self.clock is not None and action.at < self.clock:
            raise FeltError(f"the system's clock is at {self.clock.isoformat()}; an action cannot "
                            f"be earlier ({action.at.isoformat()})")  # fmt: skip
        if self.down and action.name not in ("system_up", "manual_pay"):
            raise FeltError(f"the keno computer system is not operational: only manual payments "
                            f"within {cite('7(c)')} until it is up")  # fmt: skip
        checker(action)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is allowed now."""
        try:
            self.check(action)
        except FeltError:
            return False
        return True

    def apply(self, action: Action) -> Event:
        """Check and perform ``action``; return the event it recorded.  All or nothing."""
        self.check(action)
        self._effects = []
        try:
            getattr(self, f"_do_{action.name}")(action)
            self.clock = action.at
        except BaseException:
            self._restore()
            raise
        event = Event(len(self.events) + 1, action, tuple(self._effects))
        self.events.append(event)
        return event

    def _restore(self) -> None:  # pragma: no cover - every action is checked before it is done
        fresh = self.replay_from_start()
        self.__dict__.update(fresh.__dict__)

    @property
    def actions(self) -> list[Action]:
        """Every accepted action, in order."""
        return [e.action for e in self.events]

    @classmethod
    def replay(cls, config: SystemConfig, actions: Iterable[Action]) -> KenoSystem:
        """A new system with every action applied again in order."""
        system = cls(config)
        for a in actions:
            system.apply(a)
        return system

    def replay_from_start(self) -> KenoSystem:
        """A new system made as this one was, with every recorded action applied again."""
        return self.replay(self.config, self.actions)

    def copy(self) -> KenoSystem:
        """An independent copy (a server tries an action on a copy and keeps it once recorded)."""
        return copy.deepcopy(self)

    def state(self) -> dict[str, Any]:
        """Everything that defines the system now, for comparing a replay with the original."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.compare}

    # ------------------------------------------------------------------ helpers
    def _effect(
        self, kind: str, ticket: int | None = None, amount: int = 0, detail: str = ""
    ) -> None:
        self._effects.append(Effect(kind, ticket, amount, detail))

    def _staff(self, who: object, roles: tuple[str, ...], what: str, clause: str) -> None:
        if not isinstance(who, Staff) or who.role not in roles or not who.id:
            need = " or ".join(roles)
            raise FeltError(f"{what} needs a {need}, got {excerpt(who)} ({cite(clause)})")

    def _station(self, station: int) -> None:
        if station not in self.config.stations:
            raise FeltError(f"work station {excerpt(station)} is not a keno work station of this "
                            f"system ({', '.join(map(str, self.config.stations))}) ({cite('3(a)')})")  # fmt: skip

    def _open_game(self, what: str) -> GameRecord:
        game = self.current
        if game is None or game.state != "open":
            state = "no game is open" if game is None else f"game {game.number} is {game.state}"
            raise FeltError(f"{what}: {state}; every work station is locked out once the game "
                            f"starts ({cite('5(d)')}1, {cite('3(c)')})")  # fmt: skip
        return game

    def _ticket(self, number: object) -> TicketState:
        state = self.tickets.get(number) if isinstance(number, int) else None
        if state is None:
            raise FeltError(f"no keno ticket {excerpt(number)} was issued by this system")
        return state

    def game_start(self, day: date, number: int) -> datetime | None:
        """When a game started (its lock-out), if it has."""
        game = self.games.get((day, number))
        return None if game is None else game.started_at

    def expires(self, state: TicketState) -> datetime | None:
        """The last moment a ticket may be paid: the rate card's validity from the start of the
        last game the ticket was sold for (15.6(c)1-2), even if its own races were cancelled
        before it; if that game was never played (its gaming day ended first), from the end of
        the gaming day.  None while games remain or the last game sold has yet to start."""
        r = state.record
        if not state.games_done:
            return None
        start = self.game_start(r.day, r.last_game) or self.day_ends.get(r.day)
        return None if start is None else self.card.validity.expires(start)

    # ------------------------------------------------------------------ days and games
    def _check_open_day(self, a: OpenDay) -> None:
        if not isinstance(a.day, date) or isinstance(a.day, datetime):
            raise FeltError("open_day needs the gaming day's date")
        if self.day is not None and a.day <= self.day:
            raise FeltError(f"gaming day {a.day.isoformat()} is not after {self.day.isoformat()}")
        game = self.current
        if game is not None and game.state == "locked":
            raise FeltError(f"game {game.number} is locked out and must be drawn first")
        if game is not None and game.state == "open" and self._sold_for(game.number):
            raise FeltError(f"game {game.number} has tickets: draw it or void them before the "
                            "day ends")  # fmt: skip

    def _do_open_day(self, a: OpenDay) -> None:
        if self.day is not None:
            self._end_day(a.at)
            self.day_ends[self.day] = a.at
        self.day, self.game = a.day, 0
        self._effect(
            "day", detail=f"gaming day {a.day.isoformat()}: games numbered from 1 ({cite('5(b)')})"
        )

    def _end_day(self, at: datetime) -> None:
        """Multi-race tickets whose games run past the day have their remaining races cancelled
        and refunded, whatever the card says of refunds on request: the casino, not the player,
        ended them (15.4(d); docs/interpretations.md)."""
        for state in self._to_play():
            self._cancel(state, at, "the gaming day ended", refund=True)

    def _check_open_game(self, a: OpenGame) -> None:
        if self.day is None:
            raise FeltError("no gaming day is open (open_day)")
        game = self.current
        if game is not None and game.state != "drawn":
            raise FeltError(
                f"game {game.number} is {game.state}; the next game opens after the draw"
            )
        if self.config.closing == "countdown":
            if a.closes_at is None or a.closes_at <= a.at:
                raise FeltError(f"a countdown system opens each game with the time it closes, "
                                f"after it opens ({cite('5(c)')})")  # fmt: skip
        elif a.closes_at is not None:
            raise FeltError("closes_at is for a countdown system; this one gives verbal notice")

    def _do_open_game(self, a: OpenGame) -> None:
        assert self.day is not None
        self.game += 1
        self.games[(self.day, self.game)] = GameRecord(self.day, self.game, a.at, a.closes_at)
        self._effect("game", detail=f"game {self.game} of {self.day.isoformat()} open for wagers "
                     f"(unique sequential number, {cite('5(b)')})")  # fmt: skip

    def remaining(self, at: datetime) -> timedelta | None:
        """The countdown displayed at each booth: time left before the current game closes."""
        game = self.current
        if game is None or game.closes_at is None or game.state != "open":
            return None
        return max(game.closes_at - at, timedelta(0))

    def _check_closing_notice(self, a: ClosingNotice) -> None:
        game = self._open_game("closing notice")
        self._staff(a.by, ROLES, "the closing notice", "5(c)")
        if game.notice_at is not None:
            raise FeltError(
                f"closing notice for game {game.number} was given at {game.notice_at.isoformat()}"
            )

    def _do_closing_notice(self, a: ClosingNotice) -> None:
        game = self.current
        assert game is not None
        self.games[(game.day, game.number)] = replace(game, notice_at=a.at)
        self._effect("notice", detail=f"game {game.number} will close in one minute, announced by "
                     f"{a.by.id} ({cite('5(c)')})")  # fmt: skip

    def _check_lock_out(self, a: LockOut) -> None:
        game = self._open_game("lock-out")
        if a.by is None:
            if not self.config.automatic_lockout:
                raise FeltError(f"this system has no automatic lock-out: a keno supervisor, or a "
                                f"writer with a supervisor's approval, starts the game ({cite('5(d)')})")  # fmt: skip
            if self.held:
                raise FeltError(
                    f"the automatic lock-out is held by a supervisor's override ({cite('5(e)')})"
                )
        else:
            if self.config.automatic_lockout:
                raise FeltError(f"this system locks out automatically; a supervisor overrides it "
                                f"(override 'lock') ({cite('5(e)')})")  # fmt: skip
            self._staff(a.by, ROLES, "a lock-out by hand", "5(d)")
            if a.by.role == WRITER:
                self._staff(a.approved_by, (SUPERVISOR,), "a writer's lock-out (approval)", "5(d)")
        self._check_closing_time(game, a.at)

    def _check_closing_time(self, game: GameRecord, at: datetime) -> None:
        if self.config.closing == "countdown":
            assert game.closes_at is not None
            if at < game.closes_at:
                raise FeltError(f"game {game.number} closes at {game.closes_at.isoformat()}, as the "
                                f"countdown displays ({cite('5(c)')})")  # fmt: skip
        elif game.notice_at is None or at - game.notice_at < NOTICE:
            raise FeltError(f"notice that game {game.number} is closing is given at least one "
                            f"minute before it closes ({cite('5(c)')})")  # fmt: skip

    def _do_lock_out(self, a: LockOut) -> None:
        who = (
            "automatic"
            if a.by is None
            else a.by.id + (f" approved by {a.approved_by.id}" if a.approved_by else "")
        )
        self._lock(a.at, f"lock-out ({who})")

    def _lock(self, at: datetime, how: str) -> None:
        game = self.current
        assert game is not None
        self.games[(game.day, game.number)] = replace(game, started_at=at)
        self.held = False
        self._effect("lock-out", detail=f"game {game.number} started: every work station locked "
                     f"out by {how} ({cite('5(d)')}1)")  # fmt: skip

    def _check_override(self, a: Override) -> None:
        if not self.config.automatic_lockout:
            raise FeltError(
                f"override concerns an automatic lock-out feature; this system has none ({cite('5(e)')})"
            )
        self._staff(a.by, AUTHORISERS, "overriding the lock-out", "5(e)")
        if not isinstance(a.reason, str) or not a.reason.strip() or len(a.reason) > 500:
            raise FeltError(
                f"an override records the reason for it (1 to 500 characters) ({cite('5(e)')})"
            )
        game = self._open_game("override")
        if a.what == "hold":
            if self.held:
                raise FeltError("the automatic lock-out is already held")
        elif a.what == "release":
            if not self.held:
                raise FeltError("the automatic lock-out is not held")
        elif a.what == "lock":
            self._check_closing_time(game, a.at)
        else:
            raise FeltError(f"override must be hold, release or lock, got {excerpt(a.what)}")

    def _do_override(self, a: Override) -> None:
        self._effect(
            "override",
            detail=f"lock-out override '{a.what}' by {a.by.id}: {a.reason} ({cite('5(e)')})",
        )
        if a.what == "lock":
            self._lock(a.at, f"supervisor {a.by.id}'s override")
        else:
            self.held = a.what == "hold"

    def _check_draw(self, a: Draw) -> None:
        game = self.current
        if game is None or game.state != "locked":
            state = "no game" if game is None else f"game {game.number} is {game.state}"
            raise FeltError(
                f"numbers are drawn for a game locked out first: {state} ({cite('5(d)')})"
            )
        numbers = a.numbers
        if (
            not isinstance(numbers, tuple)
            or len(numbers) != DRAWN
            or any(
                isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= POOL for n in numbers
            )
            or len(set(numbers)) != DRAWN
        ):
            raise FeltError(f"a draw is {DRAWN} different numbers of 1 to {POOL}, got {excerpt(numbers)} "
                            f"({cite('5(d)')}2)")  # fmt: skip

    def _do_draw(self, a: Draw) -> None:
        game = self.current
        assert game is not None
        assert self.day is not None
        number = game.number
        live = [s for s in self._to_play() if self._plays(s, number)]
        paid = grade([s.record.ticket for s in live], a.numbers, self.card)
        winnings = [int(x) for x in paid]
        shares = share(winnings, self.card.aggregate_limit)
        for s, amount in zip(live, shares, strict=True):
            s.won[number] = amount
            if s.games_done:
                self._unlist(s)
        self.games[(self.day, number)] = replace(game, numbers=a.numbers, shared=shares != winnings)
        self._effect(
            "draw", detail=f"game {number}: {' '.join(map(str, a.numbers))} ({cite('5(g)')})"
        )
        if shares != winnings:
            self._effect("aggregate", amount=sum(shares), detail=f"winnings ${dollars(sum(winnings))} "
                         f"exceed the aggregate limit: shared pro rata ({cite('3(e)')})")  # fmt: skip
        for s, amount in zip(live, shares, strict=True):
            if amount:
                self._effect("won", s.record.number, amount, f"game {number}")

    def _sold_for(self, game: int) -> bool:
        """Whether live tickets start with ``game`` of the current day (void them or draw)."""
        assert self.day is not None
        first = self._pending().get((self.day, game), {})
        return any(self._plays(s, game) for s in first.values())

    def _pending(self) -> dict[tuple[date, int], dict[int, TicketState]]:
        """The tickets with games still to play (not void, not cancelled, not every game
        drawn) by (gaming day, first game), each in the order issued: what a draw grades, the
        day's end cancels and a game's tickets are, so neither walks every ticket ever issued.
        Built from the tickets once when first needed (a restored system's), then kept as
        tickets are issued, voided, cancelled and played."""
        if self._live is None:
            live: dict[tuple[date, int], dict[int, TicketState]] = {}
            for s in self.tickets.values():
                if not s.voided and not s.games_done:
                    r = s.record
                    live.setdefault((r.day, r.first_game), {})[r.number] = s
            self._live = live
        return self._live

    def _to_play(self) -> list[TicketState]:
        """The current day's tickets with games still to play, in the order issued (every one
        plays the current game: a day's games are drawn in turn)."""
        pending = self._pending()
        return [s for k in sorted(k for k in pending if k[0] == self.day) for s in pending[k].values()]  # fmt: skip

    def _unlist(self, s: TicketState) -> None:
        """Take a ticket that has no game left to play out of :meth:`_pending`."""
        r = s.record
        key = (r.day, r.first_game)
        tickets = self._pending().get(key)
        if tickets is not None and tickets.pop(r.number, None) is not None and not tickets:
            del self._pending()[key]

    def _plays(self, s: TicketState, game: int) -> bool:
        r = s.record
        return (
            r.day == self.day
            and not s.voided
            and not s.cancelled
            and r.first_game <= game <= r.last_game
        )

    # ------------------------------------------------------------------ tickets
    def _check_issue(self, a: Issue) -> None:
        self._station(a.station)
        self._staff(a.writer, ROLES, "issuing a keno ticket", "4(c)")
        self._open_game("no ticket may be issued")
        check_issue(self.card, read_request(a.request, self.card))

    def _do_issue(self, a: Issue) -> None:
        game = self.current
        assert game is not None
        assert self.day is not None
        t = read_request(a.request, self.card)
        number = len(self.tickets) + 1
        last = game.number + t.games - 1
        record = TicketRecord(number, a.at, a.station, a.writer.id, t, self.day, game.number, last,
                              self.card.limit_statement(),
                              self.card.validity_statement(self.day, last, t.multi_race))  # fmt: skip
        state = self.tickets[number] = TicketState(record)
        self._pending().setdefault((self.day, game.number), {})[number] = state
        self.ledger.move(PATRONS, _drawer(a.station), t.price, f"ticket {number} sold")
        self._effect("issue", number, t.price, f"{t.kind} {t.conditioning} for games "
                     f"{record.first_game} to {record.last_game}")  # fmt: skip

    def _check_void(self, a: Void) -> None:
        self._station(a.station)
        self._staff(a.writer, ROLES, "voiding a keno ticket", "4(e)")
        s = self._ticket(a.ticket)
        if s.voided:
            raise FeltError(f"ticket {a.ticket} is already void")
        r = s.record
        if r.day != self.day or self.game_start(r.day, r.first_game) is not None:
            raise FeltError(f"ticket {a.ticket} may not be voided: game {r.first_game}, its first, "
                            f"has started; a ticket is voided only before the start of the game "
                            f"({cite('4(e)')}, {cite('3(c)')})")  # fmt: skip

    def _do_void(self, a: Void) -> None:
        s = self.tickets[a.ticket]
        s.voided, s.void_station = True, a.station
        self._unlist(s)
        price = s.record.ticket.price
        self.ledger.move(_drawer(a.station), PATRONS, price, f"ticket {a.ticket} voided")
        whole = " in its entirety" if s.record.ticket.multi_race else ""
        self._effect(
            "void",
            a.ticket,
            price,
            f"voided{whole} by {a.writer.id} at station {a.station} ({cite('4(e)')})",
        )

    def voided(self, day: date, station: int) -> list[TicketRecord]:
        """The day's voided tickets of one work station (15.4(e)): the open ones, and those of
        a past day kept apart under the day's list (:meth:`kept_under`)."""
        found = [*self.tickets.values(), *self._kept_apart(f"void {day.isoformat()} {station}")]
        return sorted(
            (s.record for s in found if s.voided and s.record.day == day and s.void_station == station),
            key=lambda r: r.number,
        )  # fmt: skip

    def _check_cancel_races(self, a: CancelRaces) -> None:
        self._staff(a.by, (SUPERVISOR,), "cancelling races", "4(d)")
        s = self._ticket(a.ticket)
        if not s.record.ticket.multi_race or s.voided or s.games_done:
            raise FeltError(f"ticket {a.ticket} has no remaining races to cancel ({cite('4(d)')})")
        if not isinstance(a.reason, str) or not a.reason.strip():
            raise FeltError("a cancellation records its reason")
        game = self.current
        r = s.record
        if (
            game is not None
            and game.state == "locked"
            and r.first_game <= game.number <= r.last_game
        ):
            raise FeltError(
                f"game {game.number} has started: its race stands; cancel after the draw"
            )

    def _do_cancel_races(self, a: CancelRaces) -> None:
        s = self.tickets[a.ticket]
        r = s.record
        if r.day == self.day and self.game_start(r.day, r.first_game) is None:
            # before its first game starts, cancelling is voiding it in its entirety (15.4(e)):
            # refunded by the station that sold it and listed among that station's voids
            s.voided, s.void_station = True, r.station
            self._unlist(s)
            price = r.ticket.price
            self.ledger.move(_drawer(r.station), PATRONS, price, f"ticket {r.number} voided")
            self._effect("void", r.number, price, f"races cancelled before the first by {a.by.id}: "
                         f"{a.reason}; voided in its entirety and refunded, listed at station "
                         f"{r.station} ({cite('4(e)')})")  # fmt: skip
            return
        self._cancel(s, a.at, f"{a.reason} (by {a.by.id})", refund=self.card.multi_race_refund)

    def _cancel(self, s: TicketState, at: datetime, why: str, refund: bool) -> None:
        r = s.record
        s.cancelled = True
        self._unlist(s)
        undrawn = r.ticket.games - len(s.won)
        if refund:
            s.refund = undrawn * r.ticket.price_per_game
        self._effect("cancel", r.number, s.refund, f"{undrawn} remaining race(s) cancelled: {why}; "
                     f"the ticket is payable now ({cite('4(d)')})")  # fmt: skip

    # ------------------------------------------------------------------ payment
    def payable(self, number: int, at: datetime) -> int:
        """Cents ticket ``number`` is paid if presented at ``at``; refused with the reason if none."""
        s = self._ticket(number)
        if s.voided:
            raise FeltError(f"ticket {number} was voided")
        if s.paid is not None:
            raise FeltError(f"ticket {number} was paid ${dollars(s.paid)} at {s.paid_at.isoformat() if s.paid_at else ''}; "
                            "a ticket is paid once")  # fmt: skip
        if not s.games_done:
            r = s.record
            if not r.ticket.multi_race:
                raise FeltError(
                    f"ticket {number} is for game {r.first_game}, not drawn yet ({cite('6(a)')})"
                )
            raise FeltError(f"ticket {number} is a multi-race ticket for games {r.first_game} to "
                            f"{r.last_game}: it is paid after its last game ({cite('4(d)')})")  # fmt: skip
        end = self.expires(s)
        if end is not None and at > end:
            raise FeltError(f"ticket {number} expired at {end.isoformat(sep=' ')}: winning tickets are "
                            f"valid for {self.card.validity} ({cite('6(c)')})")  # fmt: skip
        if s.owed == 0:
            raise FeltError(f"ticket {number} did not win")
        return s.owed

    def _check_redeem(self, a: Redeem) -> None:
        self._station(a.station)
        self._staff(a.writer, ROLES, "paying a keno ticket", "6(a)")
        if a.method not in PAYMENT_METHODS:
            raise FeltError(f"payment is by {', '.join(PAYMENT_METHODS)} ({cite('6(a)')})")
        amount = self.payable(a.ticket, a.at)
        if amount >= SUPERVISOR_PAYOUT:
            self._staff(
                a.supervisor,
                AUTHORISERS,
                f"a payout of ${dollars(amount)} (authorisation)",
                "6(b)",
            )

    def _do_redeem(self, a: Redeem) -> None:
        s = self.tickets[a.ticket]
        amount = s.owed
        s.paid, s.paid_at = amount, a.at
        self.ledger.move(_drawer(a.station), PATRONS, amount, f"ticket {a.ticket} paid")
        notes = [f"paid by {a.method} at station {a.station} by {a.writer.id} ({cite('6(a)')})"]
        if a.supervisor is not None and amount >= SUPERVISOR_PAYOUT:
            notes.append(f"authorised by {a.supervisor.id} ({cite('6(b)')})")
        if a.manual_entry:
            notes.append(f"ticket not read: keyed in by the writer ({cite('7(b)')})")
        self._effect("paid", a.ticket, amount, "; ".join(notes))

    def _check_system_down(self, a: SystemDown) -> None:
        pass  # the system may fail at any time; while down only manual payments are accepted

    def _do_system_down(self, a: SystemDown) -> None:
        self.down = True
        self._effect("down", detail=f"keno computer system not operational ({cite('7(c)')})")

    def _check_system_up(self, a: SystemUp) -> None:
        if not self.down:
            raise FeltError("the system is operational")

    def _do_system_up(self, a: SystemUp) -> None:
        self.down = False
        for number, paid, computed in self.manual_log:
            if paid != computed:
                self._effect("discrepancy", number, paid - computed, f"paid by hand ${dollars(paid)}, "
                             f"the system computes ${dollars(computed)}")  # fmt: skip
        self.manual_log = []
        self._effect("up", detail="keno computer system operational; manual payments entered")

    def _check_manual_pay(self, a: ManualPay) -> None:
        if not self.down:
            raise FeltError(
                f"tickets are paid by hand only while the system is not operational ({cite('7(c)')})"
            )
        self._station(a.station)
        self._staff(a.writer, ROLES, "a manual payment", "7(c)")
        if isinstance(a.amount, bool) or not isinstance(a.amount, int) or a.amount <= 0:
            raise FeltError("a manual payment is an amount in cents above zero")
        s = self._ticket(a.ticket)
        if s.paid is not None:
            raise FeltError(f"ticket {a.ticket} was paid ${dollars(s.paid)}; a ticket is paid once")
        if s.voided:
            raise FeltError(f"ticket {a.ticket} was voided")
        if not s.games_done:
            r = s.record
            raise FeltError(f"ticket {a.ticket} is for game(s) {r.first_game} to {r.last_game}, not all "
                            f"drawn: only a winning ticket is paid ({cite('7(c)')}, {cite('4(d)')})")  # fmt: skip
        end = self.expires(s)
        if end is not None and a.at > end:
            raise FeltError(
                f"ticket {a.ticket} expired at {end.isoformat(sep=' ')} ({cite('6(c)')})"
            )
        # the limits are the ticket's value as the system computes it, not the amount typed
        value = s.owed
        if value > MANUAL_SUPERVISED:
            raise FeltError(f"ticket {a.ticket} is a winning ticket over ${dollars(MANUAL_SUPERVISED)}: it "
                            f"may not be paid until it is verified by the keno computer system "
                            f"({cite('7(c)')}3)")  # fmt: skip
        if value > MANUAL_WRITER:
            self._staff(
                a.supervisor,
                AUTHORISERS,
                f"a manual payment of a ticket over ${dollars(MANUAL_WRITER)} (authorisation)",
                "7(c)2",
            )
        if a.amount != value:
            raise FeltError(f"${dollars(a.amount)} is not ticket {a.ticket}'s value: a manual payment pays "
                            f"the winning ticket's whole value, never part or more "
                            f"({cite('7(c)')}, {cite('6(a)')})")  # fmt: skip

    def _do_manual_pay(self, a: ManualPay) -> None:
        s = self.tickets[a.ticket]
        s.paid, s.paid_at, s.manual = a.amount, a.at, True
        self.manual_log.append((a.ticket, a.amount, s.owed))
        self.ledger.move(_drawer(a.station), PATRONS, a.amount, f"ticket {a.ticket} paid by hand")
        self._effect("paid", a.ticket, a.amount, f"paid by hand while the system was down by {a.writer.id}"
                     + (f", authorised by {a.supervisor.id}" if a.supervisor else "") + f" ({cite('7(c)')})")  # fmt: skip

    # ------------------------------------------------------------------ expiry and the year
    def expired_unclaimed(self, year: int, at: datetime) -> list[TicketState]:
        """Winning tickets never paid whose validity ended in ``year`` of the gaming day's zone
        (by ``at``); a ticket with only a refund has no winnings and is not one (15.6(d))."""
        out = []
        for s in [*self.tickets.values(), *self._kept_apart(f"unclaimed {year}")]:
            end = self.expires(s)
            if (
                end is not None
                and self.config.year(end) == year
                and end < at
                and s.paid is None
                and not s.voided
                and s.winnings > 0
                and s.expired_year is None
            ):
                out.append(s)
        return sorted(out, key=lambda s: s.record.number)

    def expired_in(self, year: int) -> list[TicketState]:
        """The winning tickets whose expired winnings were totalled in ``year`` (15.6(d)), by
        number: the open ones and those kept apart under that year (:meth:`kept_under`)."""
        found = [*self.tickets.values(), *self._kept_apart(f"expired {year}")]
        return sorted((s for s in found if s.expired_year == year), key=lambda s: s.record.number)

    def kept_under(self, state: TicketState) -> str | None:
        """The list that still reports a ticket with no game left once it is kept apart from
        the open ones (the snapshot's archive, :mod:`felt.games.keno.snapshot`): a void its
        day's voids of its station (15.4(e)), a winner totalled by 15.6(d) that year's total,
        an unpaid winner the unclaimed winnings of the year its claim expires (15.6(c)-(d));
        "" if none does, None if that year is not known yet (it cannot be kept apart)."""
        if state.voided:
            return f"void {state.record.day.isoformat()} {state.void_station}"
        if state.expired_year is not None:
            return f"expired {state.expired_year}"
        if state.paid is not None or state.winnings == 0:
            return ""
        end = self.expires(state)
        return None if end is None else f"unclaimed {self.config.year(end)}"

    def _kept_apart(self, tag: str) -> list[TicketState]:
        """The tickets kept apart from the open ones under ``tag`` (:meth:`kept_under`), looked
        up (open again); none if the tickets are a plain dict (nothing is kept apart)."""
        listed = getattr(self.tickets, "listed", None)
        return [] if listed is None else list(listed(tag))

    def _check_year_end(self, a: YearEnd) -> None:
        if a.to not in DISPOSITIONS:
            raise FeltError(f"expired winnings go to {' or '.join(DISPOSITIONS)} ({cite('6(d)')})")
        if (
            isinstance(a.year, bool)
            or not isinstance(a.year, int)
            or self.config.year(a.at) <= a.year
        ):
            raise FeltError(
                f"the year's total is taken after the year ends (year {excerpt(a.year)})"
            )
        if a.year in self.years_taken:
            raise FeltError(f"the total of {a.year} was taken")

    def _do_year_end(self, a: YearEnd) -> None:
        found = self.expired_unclaimed(a.year, a.at)
        total = sum(s.winnings for s in found)
        for s in found:
            s.expired_year = a.year
        self.years_taken.add(a.year)
        self.ledger.move("house", a.to, total, f"expired unclaimed winnings of {a.year}")
        self._effect("year", amount=total, detail=f"{len(found)} expired unclaimed winning ticket(s) of "
                     f"{a.year}: ${dollars(total)} to the {a.to} ({cite('6(d)')})")  # fmt: skip

    # ------------------------------------------------------------------ reports
    def winning_numbers(self, day: date, game: int) -> tuple[int, ...]:
        """The numbers drawn for a game, kept for every game (15.5(h))."""
        record = self.games.get((day, game))
        if record is None or not record.numbers:
            raise FeltError(f"no game {game} of {day.isoformat()} was drawn")
        return record.numbers

    def last_drawn(self) -> GameRecord | None:
        """The last game drawn, the one the board shows (15.5(g)); iterating the games from the
        newest finds it among the first few."""
        return next((g for g in reversed(self.games.values()) if g.numbers), None)

    def day_games(self, day: date) -> list[GameRecord]:
        """The games of a gaming day in order, each looked up by its number (numbered from 1,
        15.5(b)), so a day kept apart from the rest is read alone."""
        out: list[GameRecord] = []
        while (game := self.games.get((day, len(out) + 1))) is not None:
            out.append(game)
        return out

    def board(self) -> str:
        """The keno board: the game number and its 20 numbers (15.5(g))."""
        g = self.last_drawn()
        if g is None:
            return "KENO  no game drawn yet"
        return f"KENO  game {g.number}  {g.day.isoformat()}\n" + " ".join(
            f"{n:2d}" for n in sorted(g.numbers)
        )

    def money(self) -> dict[str, int]:
        """Balances: what the patrons, each drawer and the house funds have received (net)."""
        parties = {t.source for t in self.ledger.transfers} | {
            t.target for t in self.ledger.transfers
        }
        return {p: self.ledger.balance(p) for p in sorted(parties)}


def _drawer(station: int) -> str:
    return f"station {station}"


__all__ = [
    "AUTHORISERS",
    "PATRONS",
    "ROLES",
    "SUPERIOR",
    "SUPERVISOR",
    "WRITER",
    "CancelRaces",
    "ClosingNotice",
    "Draw",
    "Event",
    "GameRecord",
    "Issue",
    "KenoSystem",
    "LockOut",
    "ManualPay",
    "OpenDay",
    "OpenGame",
    "Override",
    "Redeem",
    "Staff",
    "SystemConfig",
    "SystemDown",
    "SystemUp",
    "TicketRecord",
    "TicketState",
    "Void",
    "YearEnd",
]
