"""One keno system (N.J.A.C. 19:47-15) run by a server process: the schedule of games, the
staff's actions, every accepted action made durable before anyone hears of it.

The system is :class:`~felt.games.keno.system.KenoSystem`, a pure state machine; this host gives it
the time, the draw's numbers and quick-picks (the operating system's CSPRNG), and the staff member
from the session.  An action is applied to the live system only after :meth:`KenoSystem.apply`'s
check has passed (a refusal changes nothing); its event row, ledger postings and (for a draw) the
game's row are then written in one transaction, fenced by the lease as a table's are.  Readers take
the host's lock and see the status cached at the last commit, so nothing uncommitted is ever
shown; if the commit fails the system is loaded again from the record (a draw not committed was
never shown and is drawn again, with new numbers).  Copying the whole system per action is what
this avoids: with many tickets a deep copy would cost more than the action.

Each draw also writes a snapshot of the system (:mod:`felt.games.keno.snapshots`) in its
transaction.  Loading restores the last snapshot that verifies, then replays every stored action
after it and checks each event's effects against the stored ones.

Part of Keno's server adapter, an outer layer that lives in the game's folder: it imports the
server's modules (:mod:`felt.server.host`, :mod:`felt.server.store`, :mod:`felt.server.auth`) and
is what :meth:`felt.games.keno.game.Keno.system_host` runs; the game's pure modules (the system,
tickets, rate cards) never import it.  The routes are in :mod:`felt.games.keno.routes`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import insert, select

from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.games.keno import snapshot
from felt.games.keno import snapshots as kenosnap
from felt.games.keno import system as core
from felt.games.keno.codec import effect_json, from_json, to_json
from felt.games.keno.draw import SystemSource, draw_numbers
from felt.games.keno.spec import KenoSpec
from felt.games.keno.system import (
    NOTICE,
    SUPERIOR,
    SUPERVISOR,
    WRITER,
    Action,
    KenoSystem,
    Staff,
)
from felt.games.keno.tickets import quick_pick
from felt.server.auth import Account, Forbidden
from felt.server.host import LeaseLost, answered_before, fence, give_up, request_digest, sleep_until
from felt.server.store import Posting, Store, accounts, felt_tables, metadata

log = logging.getLogger("felt.server")
T = TypeVar("T")

keno_events = metadata.tables["keno_events"]
"""The keno systems' actions (:mod:`felt.games.keno.tables`)."""
keno_games = metadata.tables["keno_games"]
"""Each drawn keno game with its numbers (:mod:`felt.games.keno.tables`)."""

KENO_ROLES: Final = {"keno_writer": WRITER, "keno_supervisor": SUPERVISOR, "supervisor": SUPERIOR}
"""Server account roles and the keno roles the core knows them by: the casino's supervisor is "a
supervisor thereof" of the keno supervisor (15.5(e), 15.6(b), 15.7(c)2)."""
READERS: Final = ("keno_writer", "keno_supervisor", "supervisor")
"""Who may read a keno system's records (tickets, games, voids)."""
APPROVAL: Final = timedelta(minutes=10)
"""How long a keno supervisor's approval of a payment stands (our choice; see
docs/interpretations.md)."""
SCHEDULED: Final = ("open_day", "open_game", "draw")
STAFF_ACTIONS: Final[dict[str, tuple[str, ...]]] = {
    "issue": ("keno_writer", "keno_supervisor"),
    "void": ("keno_writer", "keno_supervisor"),
    "redeem": ("keno_writer", "keno_supervisor"),
    "closing_notice": ("keno_writer", "keno_supervisor"),
    "manual_pay": ("keno_writer", "keno_supervisor"),
    "approve": ("keno_supervisor", "supervisor"),
    "lock_out": ("keno_supervisor", "keno_writer"),
    "override": ("keno_supervisor", "supervisor"),
    "cancel_races": ("keno_supervisor",),
    "system_down": ("keno_supervisor",),
    "system_up": ("keno_supervisor",),
    "year_end": ("keno_supervisor",),
}
"""What each account role may send (the schedule's own steps are nobody's to send): a casino
supervisor only where the text says "a keno supervisor or a supervisor thereof" (15.5(e) override,
15.6(b) and 15.7(c)2 authorisation); a writer locks out with a keno supervisor's approval (15.5(d))."""
_KEYS: Final[dict[str, set[str]]] = {
    "issue": {"station", "request"},
    "void": {"station", "ticket"},
    "redeem": {"station", "ticket", "method", "manual_entry"},
    "closing_notice": set(),
    "manual_pay": {"station", "ticket", "amount"},
    "approve": {"ticket"},
    "lock_out": {"approved_by"},
    "override": {"what", "reason"},
    "cancel_races": {"ticket", "reason"},
    "system_down": set(),
    "system_up": set(),
    "year_end": {"year", "to"},
}


@dataclass(frozen=True)
class Approve:
    """A keno supervisor authorises the next payment of a ticket by a writer (15.6(b),
    15.7(c)2): recorded with the system's events, not an action of the core."""

    at: datetime
    ticket: int
    by: Staff
    name: str = "approve"


def _note(
    approvals: dict[int, tuple[Staff, datetime]],
    action: Action | Approve,
    drawn_at: datetime | None,
) -> datetime | None:
    """Keep what the host holds beside the core after ``action``: a supervisor's approval until
    the ticket is paid; returns the time of the last draw."""
    if isinstance(action, Approve):
        approvals[action.ticket] = (action.by, action.at)
    elif isinstance(action, core.Redeem | core.ManualPay):
        approvals.pop(action.ticket, None)
    return action.at if isinstance(action, core.Draw) else drawn_at


def staff_of(who: Account) -> Staff:
    """The keno staff member a session is (refused for any other role)."""
    role = KENO_ROLES.get(who.role)
    if role is None:
        raise Forbidden(f"only keno staff (keno_writer, keno_supervisor) and their supervisors take "
                        f"keno actions; you are a {who.role}")  # fmt: skip
    return Staff(who.name, role)


def _int(body: Mapping[str, Any], key: str, what: str) -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise FeltError(f"{key} must be {what} (a whole number), got {excerpt(value)}")
    return value


def _text(body: Mapping[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str):
        raise FeltError(f"{key} must be text, got {excerpt(value)}")
    return value


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def status_view(system: KenoSystem) -> dict[str, Any]:
    """What the keno board and booths show (15.5(c), (g)): the day, the current game and its
    state, the countdown's end, whether the lock-out is held or the system down, and the last
    game drawn.  Read field by field; no ticket is looked at."""
    game = system.current
    board = system.last_drawn()
    return {
        "day": None if system.day is None else system.day.isoformat(),
        "game": system.game,
        "state": None if game is None else game.state,
        "closes_at": None if game is None else _iso(game.closes_at),
        "held": system.held,
        "down": system.down,
        "board": None
        if board is None
        else {"day": board.day.isoformat(), "game": board.number, "numbers": list(board.numbers)},
    }


def ticket_json(state: core.TicketState, system: KenoSystem) -> dict[str, Any]:
    """A ticket's record and standing, for keno staff and supervisors."""
    r = state.record
    return {
        "number": r.number,
        "items": r.items(),
        "text": r.render(),
        "voided": state.voided,
        "void_station": state.void_station,
        "won": {str(g): dollars(a) for g, a in sorted(state.won.items())},
        "owed": dollars(state.owed),
        "paid": None if state.paid is None else dollars(state.paid),
        "paid_at": _iso(state.paid_at),
        "expires": _iso(system.expires(state)),
        "cancelled": state.cancelled,
    }


def _summary(state: core.TicketState) -> dict[str, Any]:
    r = state.record
    return {"number": r.number, "price": dollars(r.ticket.price), "issued_at": r.issued_at.isoformat(),
            "writer": r.writer, "first_game": r.first_game, "last_game": r.last_game}  # fmt: skip


@dataclass
class KenoHost:
    """A keno system run by this process; see the module docstring.  What
    :class:`~felt.server.app.Server` needs of a system (:class:`felt.server.systems.SystemHost`)."""

    store: Store
    spec: KenoSpec
    owner: str
    system: KenoSystem = field(init=False)
    version: int = 0
    rows: int = 0
    """Event rows on record (the core's events and approvals)."""
    listeners: list[Callable[[KenoHost], None]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    seats: dict[int, Any] = field(default_factory=dict)
    """A keno system seats nobody (the server keeps tables with seated players first)."""
    release_wanted: bool = False
    leaving: bool = False
    stale: bool = False
    """The record may differ from the live system (a commit failed or went unheard): loaded
    again before anything else is read or done."""
    drawn_at: datetime | None = None
    approvals: dict[int, tuple[Staff, datetime]] = field(default_factory=dict)
    status: dict[str, Any] = field(default_factory=dict)
    """The status as of the last commit (what readers see)."""
    clock_offset: timedelta = timedelta(0)
    """How far this server's clock is set ahead of the operating system's (tests and
    demonstrations move time on with it; it never goes back)."""

    def __post_init__(self) -> None:
        self.system = KenoSystem(self.spec.config())
        self._refresh()

    # ----------------------------------------------------------------- the record
    def load(self) -> None:
        """Rebuild the system from the record: the last good snapshot (:mod:`.snapshots`), then
        every stored action after it replayed and each event checked against the effects stored
        with it (every action since the beginning if there is no good snapshot)."""
        config = self.spec.config()
        with self.store.engine.connect() as conn:
            version = conn.execute(
                select(felt_tables.c.version).where(felt_tables.c.id == self.spec.id)
            ).scalar_one()
            loaded = kenosnap.load(conn, self.spec.id, config)
            after = 0 if loaded is None else loaded.seq
            rows = conn.execute(
                select(keno_events.c.seq, keno_events.c.action, keno_events.c.effects)
                .where(keno_events.c.system_id == self.spec.id, keno_events.c.seq > after)
                .order_by(keno_events.c.seq)
            ).all()
        system = KenoSystem(config) if loaded is None else loaded.system
        approvals: dict[int, tuple[Staff, datetime]] = {}
        drawn_at = None
        if loaded is not None:
            approvals, drawn_at = dict(loaded.extra["approvals"]), loaded.extra["drawn_at"]
        for row in rows:
            data = json.loads(row.action)
            where = f"keno {self.spec.id} event {row.seq}"
            action: Action | Approve
            if data.get("action") == "approve":
                by = data["by"]
                at = datetime.fromisoformat(data["at"])
                action = Approve(at, int(data["ticket"]), Staff(by["id"], by["role"]))
            else:
                action = from_json(data, where)
                event = system.apply(action)
                if [effect_json(e) for e in event.effects] != json.loads(row.effects):
                    raise RuntimeError(f"{where} does not replay as recorded")
            drawn_at = _note(approvals, action, drawn_at)
        self.system, self.version = system, int(version)
        self.rows = rows[-1].seq if rows else after
        self.approvals, self.drawn_at, self.stale = approvals, drawn_at, False
        self._refresh()

    def _refresh(self) -> None:
        self.status = status_view(self.system)

    def _catch_up(self) -> None:
        if self.stale:
            self.load()

    def _now(self) -> datetime:
        """The server's clock, never behind the system's."""
        now = datetime.now(UTC) + self.clock_offset
        clock = self.system.clock
        return now if clock is None or clock < now else clock

    def _record(
        self,
        action: Action | Approve,
        who: Account | None,
        key: str | None = None,
        digest: str = "",
    ) -> dict[str, Any]:
        """Apply ``action`` (refused: nothing changes), then write its event, postings and any
        game drawn in one fenced transaction; the acknowledgement, also stored under ``key``.
        If the write fails the system is loaded again from the record."""
        system = self.system
        start = len(system.ledger.transfers)
        event: core.Event | None = None
        if isinstance(action, Approve):
            if action.ticket not in system.tickets:
                raise FeltError(f"no keno ticket {action.ticket} was issued by this system")
            state = system.tickets[action.ticket]
            if state.voided or state.paid is not None:
                what = "voided" if state.voided else "paid"
                raise FeltError(f"ticket {action.ticket} was {what}: there is no payment to "
                                "authorise (N.J.A.C. 19:47-15.6(b))")  # fmt: skip
            data = {"action": "approve", "at": action.at.isoformat(), "ticket": action.ticket,
                    "by": {"id": action.by.id, "role": action.by.role}}  # fmt: skip
            effects = [{"kind": "approve", "ticket": action.ticket, "amount": 0,
                        "detail": f"payment of ticket {action.ticket} authorised by {action.by.id} "
                        f"for {APPROVAL.seconds // 60} minutes (N.J.A.C. 19:47-15.6(b), 15.7(c)2)"}]  # fmt: skip
        else:
            event = system.apply(action)
            data = to_json(action)
            effects = [effect_json(e) for e in event.effects]
        try:
            seq = self.rows + 1
            ack = self._ack(action, event, effects, seq)
            with self.store.transaction() as conn:
                fence(conn, self.spec.id, self.owner)
                conn.execute(
                    insert(keno_events).values(
                        system_id=self.spec.id, seq=seq, action=json.dumps(data),
                        effects=json.dumps(effects), actor=None if who is None else who.id,
                        at=action.at.timestamp(),
                    )
                )  # fmt: skip
                self.store.post(conn, f"keno:{self.spec.id}#{seq}", self._postings(start))
                if isinstance(action, core.Draw):
                    self._write_game(conn, action)
                    # the game is complete: its snapshot, so a start replays only what follows
                    extra = {"approvals": dict(self.approvals), "drawn_at": action.at}
                    kenosnap.write(conn, self.spec.id, seq, snapshot.take(system, seq, extra))
                if key is not None and who is not None:
                    self.store.remember(conn, who.id, key, digest, json.dumps(ack))
        except BaseException:
            self.stale = True
            try:
                self.load()
            except Exception:  # the database is away: loaded before anything else
                log.exception("keno %s: reload after a failed write failed", self.spec.id)
            raise
        self.rows, self.version = seq, self.version + 1
        self.drawn_at = _note(self.approvals, action, self.drawn_at)
        self._refresh()
        return ack

    def account(self, party: str) -> str:
        """The server's ledger account of a party of the core's ledger."""
        base = f"keno:{self.spec.id}"
        if party.startswith("station "):
            return f"{base}:station:{party.split()[1]}"
        return f"{base}:{party}"

    def _postings(self, start: int) -> list[Posting]:
        out = []
        for t in self.system.ledger.transfers[start:]:
            out.append(Posting(self.account(t.source), -t.amount, t.reason[:200]))
            out.append(Posting(self.account(t.target), t.amount, t.reason[:200]))
        return out

    def _write_game(self, conn: Any, action: core.Draw) -> None:
        game = self.system.current
        assert game is not None
        assert game.started_at is not None
        conn.execute(
            insert(keno_games).values(
                system_id=self.spec.id, day=game.day.isoformat(), number=game.number,
                numbers=json.dumps(list(action.numbers)), opened_at=game.opened_at.isoformat(),
                started_at=game.started_at.isoformat(), drawn_at=action.at.isoformat(),
            )
        )  # fmt: skip

    def _ack(
        self,
        action: Action | Approve,
        event: core.Event | None,
        effects: list[dict[str, Any]],
        seq: int,
    ) -> dict[str, Any]:
        ack: dict[str, Any] = {
            "system": self.spec.id,
            "seq": seq,
            "action": action.name,
            "at": action.at.isoformat(),
            "effects": [{**e, "amount": dollars(e["amount"])} for e in effects],
        }
        if isinstance(action, core.Issue):
            assert event is not None
            assert event.effects[0].ticket is not None
            number = event.effects[0].ticket
            record = self.system.tickets[number].record
            ack["ticket"] = {"number": number, "price": dollars(record.ticket.price),
                             "items": record.items(), "text": record.render()}  # fmt: skip
        if isinstance(action, core.Redeem | core.ManualPay):
            paid = self.system.tickets[action.ticket].paid
            ack["paid"] = dollars(paid or 0)
        return ack

    # ----------------------------------------------------------------- staff actions
    @property
    def noun(self) -> str:
        """What a keno system is called when a table's route is asked of it."""
        return "keno system"

    @property
    def url(self) -> str:
        """The keno system's own API."""
        return f"/api/keno/{self.spec.id}"

    async def submit(
        self, who: Account, body: dict[str, Any], key: str, token: str | None = None
    ) -> dict[str, Any]:
        """One keno staff action from a client (its route or a WebSocket message), run by
        :meth:`act` under the lock: answered from the idempotency record if the key was seen."""
        digest = request_digest({"keno": self.spec.id, "action": body})
        return await self.do(self.act, body, who, key, digest, token)

    def act(
        self,
        body: Mapping[str, Any],
        who: Account,
        key: str | None = None,
        digest: str = "",
        token: str | None = None,
    ) -> dict[str, Any]:
        """One staff action from a request (synchronous: call under :attr:`lock`, off the event
        loop); a key already answered gets that answer again."""
        if key is not None:
            who, seen = answered_before(self.store, who, key, digest, token)
            if seen is not None:
                return seen
        self._catch_up()
        now = self._now()
        step, _ = self.next_step(now)
        if isinstance(step, core.LockOut):
            # the countdown has run out (or the notice's minute): the game is closed before
            # anything else is done, even if the schedule has not taken its turn yet (15.5(c)-(d))
            self._record(step, None)
        action = self.build(body, who, self._now())
        return self._record(action, who, key, digest)

    def build(self, body: Mapping[str, Any], who: Account, at: datetime) -> Action | Approve:
        """The core action a request asks for, in the sender's name at ``at``; refused if the
        sender's role may not send it or the request is malformed."""
        name = body.get("action")
        if not isinstance(name, str):
            raise FeltError(
                f"action must be one of {', '.join(STAFF_ACTIONS)}, got {excerpt(name)}"
            )
        if name in SCHEDULED:
            raise Forbidden(f"{name} is the server's schedule's own step; no one sends it")
        if name not in STAFF_ACTIONS:
            raise FeltError(
                f"action must be one of {', '.join(STAFF_ACTIONS)}, got {excerpt(name)}"
            )
        if who.role not in STAFF_ACTIONS[name]:
            roles = " or ".join(STAFF_ACTIONS[name])
            raise Forbidden(f"{name} is for a {roles}; you are a {who.role}")
        extra = set(body) - _KEYS[name] - {"action"}
        if extra:
            raise FeltError(f"{name} takes {', '.join(sorted(_KEYS[name])) or 'nothing else'}; "
                            f"not {', '.join(sorted(map(str, extra)))[:80]}")  # fmt: skip
        staff = staff_of(who)
        if name == "issue":
            request = body.get("request")
            if not isinstance(request, Mapping):
                raise FeltError(
                    f"request must be a keno request (an object), got {excerpt(request)}"
                )
            if "quick_pick" in request:
                request = quick_pick(request, SystemSource())
            return core.Issue(at, _int(body, "station", "a work station"), staff, request)
        if name == "void":
            return core.Void(at, _int(body, "ticket", "a ticket number"),
                        _int(body, "station", "a work station"), staff)  # fmt: skip
        if name == "redeem":
            ticket = _int(body, "ticket", "a ticket number")
            manual = body.get("manual_entry", False)
            if not isinstance(manual, bool):
                raise FeltError(f"manual_entry must be true or false, got {excerpt(manual)}")
            method = body.get("method", "cash")
            return core.Redeem(at, ticket, _int(body, "station", "a work station"), staff,
                          self._authoriser(staff, ticket, at), method, manual)  # fmt: skip
        if name == "manual_pay":
            ticket = _int(body, "ticket", "a ticket number")
            amount = body.get("amount")
            if not isinstance(amount, str):
                raise FeltError(
                    f'amount must be dollars as a string such as "8.00", got {excerpt(amount)}'
                )
            return core.ManualPay(at, ticket, _int(body, "station", "a work station"),
                             cents(amount, "amount"), staff, self._authoriser(staff, ticket, at))  # fmt: skip
        if name == "approve":
            return Approve(at, _int(body, "ticket", "a ticket number"), staff)
        if name == "closing_notice":
            return core.ClosingNotice(at, staff)
        if name == "lock_out":
            return core.LockOut(at, staff, self._approver(body, staff))
        if name == "override":
            return core.Override(at, staff, _text(body, "what"), _text(body, "reason"))
        if name == "cancel_races":
            return core.CancelRaces(
                at, _int(body, "ticket", "a ticket number"), staff, _text(body, "reason")
            )
        if name == "system_down":
            return core.SystemDown(at)
        if name == "system_up":
            return core.SystemUp(at)
        year = _int(body, "year", "a year")
        if year < 1:  # a year to come is refused by the system itself (15.6(d): after it ends)
            raise FeltError(f"year must be a past year, 1 or later, got {year}")
        return core.YearEnd(at, year, _text(body, "to"))

    def _approver(self, body: Mapping[str, Any], staff: Staff) -> Staff | None:
        """The keno supervisor whose verbal approval a writer's lock-out records by name
        (15.5(d)): a keno supervisor's account; a supervisor locks out on their own authority."""
        if "approved_by" not in body:
            if staff.role == WRITER:
                raise FeltError("a keno writer locks out with a keno supervisor's verbal approval: "
                                "approved_by names that keno supervisor (N.J.A.C. 19:47-15.5(d))")  # fmt: skip
            return None
        if staff.role != WRITER:
            raise FeltError("approved_by is for a keno writer's lock-out; a keno supervisor locks "
                            "out on their own authority (N.J.A.C. 19:47-15.5(d))")  # fmt: skip
        name = body["approved_by"]
        role = None
        if isinstance(name, str) and 1 <= len(name) <= 64:
            with self.store.engine.connect() as conn:
                role = conn.execute(
                    select(accounts.c.role).where(accounts.c.name == name)
                ).scalar_one_or_none()
        if role != "keno_supervisor":
            raise FeltError(f"approved_by must name a keno supervisor's account, got "
                            f"{excerpt(name)} (N.J.A.C. 19:47-15.5(d))")  # fmt: skip
        return Staff(name, SUPERVISOR)

    def _authoriser(self, staff: Staff, ticket: int, at: datetime) -> Staff | None:
        """Who authorises a payment: the keno supervisor paying, or a supervisor's approval of
        this ticket given within :data:`APPROVAL`."""
        if staff.role == SUPERVISOR:
            return staff
        approval = self.approvals.get(ticket)
        if approval is not None and at - approval[1] <= APPROVAL:
            return approval[0]
        return None

    # ----------------------------------------------------------------- reading
    def message_for(self, who: Account | None) -> dict[str, Any]:
        """The public status (anyone may see it; call under :attr:`lock`): as of the last
        commit, with the countdown's remaining time now."""
        closes = self.status["closes_at"]
        remaining = None
        if closes is not None and self.status["state"] == "open":
            left = datetime.fromisoformat(closes) - self._now()
            remaining = max(left.total_seconds(), 0.0)
        card = self.system.card
        return {
            "type": "keno",
            "system": self.spec.id,
            "version": self.version,
            **self.status,
            "remaining_seconds": remaining,
            "stations": list(self.spec.stations),
            "rate_card": {
                "name": card.name,
                "ticket_types": list(card.ticket_types),
                "minimum_wager": dollars(card.minimum_wager),
                "maximum_wager": dollars(card.maximum_wager),
                "max_spots": card.max_spots,
                "max_games": card.max_games,
            },
        }

    def _reader(self, who: Account, roles: tuple[str, ...] = READERS) -> None:
        if who.role not in roles:
            raise Forbidden(
                f"keno records are read by a {' or '.join(roles)}; you are a {who.role}"
            )
        self._catch_up()

    def ticket(self, who: Account, number: int) -> dict[str, Any]:
        """A ticket's record and standing (call under :attr:`lock`)."""
        from felt.server.app import NotFound

        self._reader(who)
        state = self.system.tickets.get(number)
        if state is None:
            raise NotFound(f"no keno ticket {number} was issued by {self.spec.id}")
        return ticket_json(state, self.system)

    def _day(self, day: str | None) -> date:
        if day is None:
            return self.system.day or self._now().astimezone(self.spec.zone()).date()
        try:
            if len(day) == 10:
                return date.fromisoformat(day)
        except ValueError:
            pass
        raise FeltError(f"day must be a date YYYY-MM-DD, got {excerpt(day)}")

    def games(self, who: Account, day: str | None) -> dict[str, Any]:
        """The games of a day drawn so far, with their numbers in drawing order (15.5(b), (h))."""
        self._reader(who)
        when = self._day(day)
        games = [
            {"game": g.number, "opened_at": g.opened_at.isoformat(), "started_at": _iso(g.started_at),
             "numbers": list(g.numbers), "shared": g.shared}
            for g in self.system.day_games(when) if g.numbers
        ]  # fmt: skip
        return {"day": when.isoformat(), "games": games}

    def voids(self, who: Account, day: str | None, station: int | None) -> dict[str, Any]:
        """The day's voided tickets of each work station, or of one (15.4(e))."""
        self._reader(who)
        when = self._day(day)
        stations = self.spec.stations if station is None else (station,)
        if station is not None and station not in self.spec.stations:
            raise FeltError(
                f"station must be one of {', '.join(map(str, self.spec.stations))}, got {station}"
            )
        return {
            "day": when.isoformat(),
            "stations": {
                str(n): [
                    _summary(self.system.tickets[r.number]) for r in self.system.voided(when, n)
                ]
                for n in stations
            },
        }

    def unclaimed(self, who: Account, year: int | None) -> dict[str, Any]:
        """Winning tickets whose time to claim ran out in a year unpaid, and whether the year's
        total was taken (15.6(d))."""
        self._reader(who, ("keno_supervisor", "supervisor"))
        now = self._now()
        year = now.astimezone(self.spec.zone()).year - 1 if year is None else year
        if not 1 <= year <= 9998:
            raise FeltError(f"year must be 1 to 9998, got {year}")
        taken = year in self.system.years_taken
        found = self.system.expired_in(year) if taken else self.system.expired_unclaimed(year, now)
        return {
            "year": year,
            "tickets": [
                {
                    "number": s.record.number,
                    "owed": dollars(s.owed),
                    "expired": _iso(self.system.expires(s)),
                }
                for s in found
            ],
            "total": dollars(sum(s.owed for s in found)),
            "taken": taken,
        }

    # ----------------------------------------------------------------- the schedule
    def next_step(self, now: datetime) -> tuple[Action | None, datetime | None]:
        """The schedule's step due at ``now``, or when to look again (None: when told).  A new
        gaming day opens between games once the date in the system's zone changes; each game
        opens ``between_games_seconds`` after the last draw, closes after ``game_seconds``
        (countdown) or one minute after the closing notice (notice), is locked out then unless
        a supervisor holds the lock-out, and is drawn ``draw_seconds`` after its lock-out."""
        s, spec = self.system, self.spec
        if s.down:
            return None, None
        today = now.astimezone(spec.zone()).date()
        game = s.current
        between = game is None or game.state == "drawn"
        if between and (s.day is None or today > s.day):
            return core.OpenDay(now, today), None
        if game is None or game.state == "drawn":
            if game is not None and self.drawn_at is not None:
                ready = self.drawn_at + timedelta(seconds=spec.between_games_seconds)
                if now < ready:
                    return None, ready
            closes = None
            if spec.closing == "countdown":
                closes = now + timedelta(seconds=spec.game_seconds)
            return core.OpenGame(now, closes), None
        if game.state == "open":
            if not spec.automatic_lockout or s.held:
                return None, None
            due = game.closes_at
            if spec.closing == "notice":
                due = None if game.notice_at is None else game.notice_at + NOTICE
            if due is None:
                return None, None
            return (core.LockOut(now), None) if now >= due else (None, due)
        assert game.started_at is not None
        due = game.started_at + timedelta(seconds=spec.draw_seconds)
        if now < due:
            return None, due
        return core.Draw(now, draw_numbers(SystemSource())), None

    def _tick(self) -> tuple[bool, float | None]:
        """Take the schedule's step if one is due (synchronous, under :attr:`lock`): whether
        something changed, and how long to wait before looking again (None: until told)."""
        if self.stale:
            self.load()
            return True, 0.0
        game = self.system.current
        if self.release_wanted and (game is None or game.state == "drawn"):
            self.release()
            return False, None
        now = self._now()
        step, when = self.next_step(now)
        if step is None:
            return False, None if when is None else (when - now).total_seconds()
        self._record(step, None)
        return True, 0.0

    async def run(self, stop: asyncio.Event) -> None:
        """Run the schedule until ``stop`` or until another process takes the system over."""
        while not stop.is_set() and not self.leaving:
            try:
                async with self.lock:
                    self.changed.clear()
                    touched, wait = await asyncio.to_thread(self._tick)
                    if touched:
                        self._touch()
            except LeaseLost:
                self.leaving = True
                return
            except Exception:  # the database is away, or a step was refused: try again shortly
                log.exception("keno %s: step failed", self.spec.id)
                wait = 1.0
            await sleep_until(self.changed, stop, wait)

    async def do(self, work: Callable[..., T], *args: Any) -> T:
        """Run one synchronous change or read under the lock in a worker thread, then tell
        the schedule and the listeners."""
        async with self.lock:
            result = await asyncio.to_thread(work, *args)
            self._touch()
        return result

    async def read(self, work: Callable[..., T], *args: Any) -> T:
        """Run one synchronous read under the lock in a worker thread (never half an action)."""
        async with self.lock:
            return await asyncio.to_thread(work, *args)

    def _touch(self) -> None:
        self.changed.set()
        for listener in list(self.listeners):
            listener(self)

    def leave(self) -> None:
        """Stop running the system here (another process holds it now)."""
        self.leaving = True
        self.changed.set()

    def release(self) -> None:
        """Give the system up between games (synchronous, under :attr:`lock`); all of it is on
        record."""
        give_up(self.store, self.spec.id, self.owner)
        self.leaving = True


__all__ = [
    "KENO_ROLES",
    "Approve",
    "KenoHost",
    "draw_numbers",
    "staff_of",
    "status_view",
    "ticket_json",
]


# ----------------------------------------------------------------------------- the API's shapes


class _Shape(BaseModel):
    model_config = ConfigDict(extra="forbid")


class KenoBoard(_Shape):
    """The last game drawn, as the keno board shows it (15.5(g))."""

    day: str
    game: int
    numbers: list[int] = Field(description="the 20 numbers in the order drawn")


class KenoCard(_Shape):
    """What a booth shows of the rate card."""

    name: str
    ticket_types: list[str]
    minimum_wager: str
    maximum_wager: str
    max_spots: int
    max_games: int


class KenoStatus(_Shape):
    """The public status of a keno system (also each WebSocket ``keno`` message)."""

    type: Literal["keno"]
    system: str
    version: int
    day: str | None
    game: int
    state: Literal["open", "locked", "drawn"] | None
    closes_at: str | None
    remaining_seconds: float | None
    held: bool
    down: bool
    board: KenoBoard | None
    stations: list[int]
    rate_card: KenoCard


class KenoSystemEntry(_Shape):
    """One keno system on record."""

    id: str
    stations: list[int]
    closing: str
    automatic_lockout: bool


class KenoSystems(_Shape):
    """Every keno system on record, whichever process runs it."""

    systems: list[KenoSystemEntry]


class KenoBoards(_Shape):
    """The keno systems whose boards anyone may read: their ids (each board is public at
    ``/api/keno/{system}``, 19:47-15.5(g), so its id is no secret)."""

    systems: list[str]


class KenoActRequest(_Shape):
    """A keno staff action and the client's idempotency key."""

    action: dict[str, Any] = Field(
        description="{'action': NAME, ...}: issue, void, redeem, approve, closing_notice, "
        "lock_out, override, cancel_races, system_down, system_up, manual_pay, year_end"
    )
    key: str = Field(min_length=1, max_length=128)


class KenoEffect(_Shape):
    """One thing an action caused (money in dollars)."""

    kind: str
    ticket: int | None
    amount: str
    detail: str


class KenoIssued(_Shape):
    """The ticket an issue printed (15.4(c))."""

    number: int
    price: str
    items: dict[str, str]
    text: str


class KenoAck(_Shape):
    """An accepted keno action."""

    system: str
    seq: int
    action: str
    at: str
    effects: list[KenoEffect]
    ticket: KenoIssued | None = None
    paid: str | None = None
    replayed: bool | None = None


class KenoTicket(_Shape):
    """A ticket's record and standing."""

    number: int
    items: dict[str, str]
    text: str
    voided: bool
    void_station: int | None
    won: dict[str, str] = Field(description="game number -> dollars won")
    owed: str
    paid: str | None
    paid_at: str | None
    expires: str | None
    cancelled: bool


class KenoGame(_Shape):
    """A game drawn."""

    game: int
    opened_at: str
    started_at: str | None
    numbers: list[int]
    shared: bool


class KenoGames(_Shape):
    """The games of a day drawn so far (15.5(b), (h))."""

    day: str
    games: list[KenoGame]


class KenoVoid(_Shape):
    """A voided ticket in the daily list of its work station (15.4(e))."""

    number: int
    price: str
    issued_at: str
    writer: str
    first_game: int
    last_game: int


class KenoVoids(_Shape):
    """The voided tickets of a day per work station."""

    day: str
    stations: dict[str, list[KenoVoid]]


class KenoUnclaimedTicket(_Shape):
    """A winning ticket whose time to claim ran out unpaid."""

    number: int
    owed: str
    expired: str | None


class KenoUnclaimed(_Shape):
    """A year's expired unclaimed winnings and whether their total was taken (15.6(d))."""

    year: int
    tickets: list[KenoUnclaimedTicket]
    total: str
    taken: bool
