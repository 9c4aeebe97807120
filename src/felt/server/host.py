"""One live table in a server process: the round engine, who sits where, the dealer's pace and
the decision clock, every accepted action made durable before anyone hears of it.

An action is tried on a copy of the round (:meth:`RoundCore.copy`); the copy's new event, the
cards it drew and its chip movements go to the database in one transaction; only after the
commit does the copy become the table's round and the clients get their new views.  A refused
action, a wager beyond the balance or a failed commit leaves the round as it was; a commit whose
outcome the process did not hear of (the database failed around it) may be on record, so the
table is loaded again from the record before its next change.

The deck a round is dealt from lives only in this process's memory.  Each event row records the
cards its action drew and their places in the deck; after a crash the round is rebuilt from those
rows with the undealt places filled by a new CSPRNG shuffle of the undealt cards
(:func:`felt.rounds.shuffle.complete_deck`), then every action is replayed and checked to give
the events on record.  See docs/design.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, TypeVar, cast

from sqlalchemy import Connection, delete, select, update

from felt.core.cards import CARD_TEXT, Card, parse_cards
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.games.base import GameTable, Progressive, TableGame
from felt.games.registry import table_game
from felt.rounds.actions import (
    Action,
    DecisionTimeout,
    PlayerAction,
    ShufflerJam,
)
from felt.rounds.engine import HOUSE, LAYOUT, POT, PROGRESSIVE, Effect, Event
from felt.rounds.round_core import RoundCore
from felt.rounds.shuffle import SystemShuffle, complete_deck
from felt.server.auth import Account, Forbidden, authenticate, session_and_key
from felt.server.meters import MeterBoard
from felt.server.spec import AnySpec, TableSpec
from felt.server.store import (
    HOUSE_ACCOUNT,
    CommitFailed,
    Conflict,
    Posting,
    Store,
    accounts,
    after_commit,
    felt_tables,
    hot,
    layout_account,
    player_account,
    pot_account,
    progressive_account,
    round_events,
    rounds,
    to_json,
)
from felt.server.views import PUBLIC, Shared, seat_message

log = logging.getLogger("felt.server")
T = TypeVar("T")


class LeaseLost(FeltError):
    """This process no longer holds the table (another process took it over)."""


def _effect_json(e: Effect) -> dict[str, Any]:
    return {
        "kind": e.kind,
        "seat": e.seat,
        "cards": [CARD_TEXT[c] for c in e.cards],
        "amount": e.amount,
        "detail": e.detail,
    }


def event_record(event: Event) -> list[dict[str, Any]]:
    """An event's effects and statement lines as stored (cards dealt included: the record is
    the casino's, read by supervisors; clients get views)."""
    out = [_effect_json(e) for e in event.effects]
    out += [{"kind": "line", "seat": x.seat, "wager": x.wager, "outcome": x.outcome,
             "amount": x.amount, "clause": x.clause} for x in event.lines]  # fmt: skip
    return out


def request_digest(body: Any) -> str:
    """A digest of a request, so an idempotency key reused for another request is refused."""
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


def make_table(spec: TableSpec, snapshot: dict[str, Any] | None) -> GameTable:
    """A table as its snapshot left it (a new one with no snapshot)."""
    return table_game(spec.game).new_table(spec.config(), snapshot)


def _finished(table: GameTable, rnd: RoundCore) -> GameTable:
    """The table as it will be once ``rnd`` is recorded finished (the live table untouched)."""
    after = copy.copy(table)
    after.history = [rnd]
    after.finish(rnd)
    return after


def hands(rnd: RoundCore) -> dict[int, Any]:
    """A round's hands by seat number (every game's round keeps them as ``seats``)."""
    seats: dict[int, Any] = cast(Any, rnd).seats
    return seats


def untouched(rnd: RoundCore) -> bool:
    """Whether no one has wagered in ``rnd`` and no chip has moved in it (at most its cards
    were cut): a round the table may withdraw without a trace."""
    return not hands(rnd) and not rnd.ledger.transfers


def drawn_cards(before: RoundCore, after: RoundCore) -> list[tuple[int, str]]:
    """The cards an action took from the shoe, each with its place in the deck the round began
    with (the coordinates a rebuild fills in, whatever cuts came between)."""
    taken = after.shoe.order[before.shoe.position : after.shoe.position]
    return [(after.dealt_from.index(c), CARD_TEXT[c]) for c in taken]  # a few cards of 52


@dataclass
class _Change:
    """One action tried on a copy of the round (:meth:`TableHost._try`): what its commit writes
    and what the table becomes once it is on record."""

    action: Action
    trial: RoundCore
    event: Event
    drawn: list[tuple[int, str]]
    entries: list[Posting]
    table_after: GameTable | None
    last_after: dict[int, dict[str, Any]]
    state: str | None
    ack: dict[str, Any]
    meter: tuple[int, int] | None = None
    """The table's meter (version, amount) as the commit left it, if the action moved it."""


class _Answered(FeltError):
    """The action's key was answered before: raised in its write transaction, which rolls back
    with nothing written (see :meth:`TableHost.apply_now`)."""

    def __init__(self, seen: tuple[str, str]) -> None:
        super().__init__("answered before")
        self.seen = seen


class Wake(asyncio.Event):
    """A table loop's wake-up: an :class:`asyncio.Event` that can also be slept on with a
    timeout by one future and one timer, not the two tasks :func:`sleep_until` makes per wait
    (a table's loop sleeps once per change)."""

    def __init__(self) -> None:
        super().__init__()
        self._sleeper: asyncio.Future[None] | None = None

    def set(self) -> None:
        """Set the flag and wake its waiters and its sleeper."""
        super().set()
        sleeper = self._sleeper
        if sleeper is not None and not sleeper.done():
            sleeper.set_result(None)

    async def sleep(self, timeout: float | None) -> None:
        """Wait ``timeout`` seconds (None: for ever) or until the flag is set."""
        if self.is_set() or (timeout is not None and timeout <= 0.0):
            return
        loop = asyncio.get_running_loop()
        sleeper: asyncio.Future[None] = loop.create_future()
        timer = None if timeout is None else loop.call_later(timeout, _wake, sleeper)
        self._sleeper = sleeper
        try:
            await sleeper
        finally:
            self._sleeper = None
            if timer is not None:
                timer.cancel()


def _wake(sleeper: asyncio.Future[None]) -> None:
    if not sleeper.done():
        sleeper.set_result(None)


@dataclass
class Seat:
    """A seat held by a player."""

    account_id: int
    name: str


@dataclass
class TableHost:
    """A table run by this process; see the module docstring."""

    store: Store
    spec: TableSpec
    owner: str
    game: TableGame = field(init=False)
    """The table's game (:func:`felt.games.registry.table_game`): the host knows it only
    through that interface."""
    table: GameTable = field(init=False)
    round: RoundCore | None = None
    round_id: str | None = None
    is_open: bool = True
    seats: dict[int, Seat] = field(default_factory=dict)
    version: int = 0
    listeners: list[Callable[[TableHost], None]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: Wake = field(default_factory=Wake)
    deadlines: dict[tuple[int, str], float] = field(default_factory=dict)
    betting_closes: float | None = None
    step_at: float | None = None
    next_round_at: float = 0.0
    names: dict[str, int] = field(default_factory=dict)
    """Account ids by name, for the seats of a round (its wagers carry the player's name)."""
    release_wanted: bool = False
    """This process holds more than its share: give the table up when no round is in play or
    the round has had no action yet."""
    leaving: bool = False
    """The table is no longer this process's: its loop ends."""
    last: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Each seat's last settled result (:func:`last_result`), kept with the table's state until
    that seat's or that player's next wager is accepted, so a player reads it at leisure."""
    stale: bool = False
    """The record may be ahead of this process (a write whose commit it did not hear of): the
    table is loaded again before its next change."""
    board: MeterBoard = field(default_factory=MeterBoard)
    """This process's view of the progressive meters, for the screens (the server's one board,
    shared by its tables); a payout never reads it (see :meth:`apply_now`)."""
    progressive: Progressive | None = field(init=False)
    """The meter this table is linked to (:meth:`TableGame.progressive`), or None."""
    clock: Callable[[], float] = time.time
    """The wall clock (seconds since the epoch) the table's schedules are kept by
    (:meth:`TableGame.round_blocked`, :meth:`TableGame.clocked_procedures`); a test gives its
    own."""
    schedule_seconds: float = 60.0
    """How often the table looks at its schedule while a round no one has wagered in waits
    (:meth:`withdraw_empty_round`)."""

    finished_views: tuple[RoundCore, int, dict[int, dict[str, Any]]] | None = field(
        default=None, init=False, repr=False
    )
    """The seat views :func:`last_results` built of the last round this table finished (that
    round, its event count and the views by seat): the push that follows the round's commit
    hands the same views out (:meth:`seed_views`) instead of building them again."""

    def __post_init__(self) -> None:
        self.game = table_game(self.spec.game)
        self.table = self._make_table(None)
        self.progressive = self.game.progressive(self.table.config)

    def _make_table(self, snapshot: dict[str, Any] | None) -> GameTable:
        """The table as ``snapshot`` left it; a table new to the server (no snapshot) is put in
        service now (:meth:`TableGame.open_table`), which its first round's record keeps."""
        table = make_table(self.spec, snapshot)
        if snapshot is None:
            self.game.open_table(table, self.clock())
        return table

    def blocked(self) -> str | None:
        """Why the table opens no new round now (:meth:`TableGame.round_blocked`), or None."""
        return self.game.round_blocked(self.table, self.clock())

    # ----------------------------------------------------------------- state on record
    def state_json(
        self, table: GameTable | None = None, round_id: str | None = "",
        last: dict[int, dict[str, Any]] | None = None,
    ) -> str:  # fmt: skip
        """What carries between rounds, as stored with the table (``table``, ``round_id`` and
        the seats' last results as they will be once the change being written is made, where
        they change)."""
        return to_json(
            {
                "open": self.is_open,
                "seats": {str(n): [s.account_id, s.name] for n, s in sorted(self.seats.items())},
                "table": self.game.table_snapshot(self.table if table is None else table),
                "round_id": self._open_round_id() if round_id == "" else round_id,
                "last": {
                    str(n): v for n, v in sorted((self.last if last is None else last).items())
                },
            },
            sort=True,
        )

    def _open_round_id(self) -> str | None:
        """The round in play, if any (a finished round stays in view but is not in play)."""
        return self.round_id if self.round is not None and not self.round.finished else None

    def _bump(self, conn: Connection, state: str | None = None) -> int:
        """Fence a write: the table's version moves on only while this process holds it."""
        fence(conn, self.spec.id, self.owner, state)
        return self.version + 1

    def _catch_up(self) -> None:
        """Load the table again if a write of this process may have ended unheard."""
        if self.stale:
            self.load()

    @contextmanager
    def _commit(self) -> Iterator[Connection]:
        """A write transaction of this table.  A refusal of ours rolls back for sure; a failure
        of the database around the commit, or an event number already taken, may leave the
        record ahead of this process, which then catches up before its next change."""
        try:
            with self.store.transaction() as conn:
                yield conn
        except Conflict:
            self.stale = True
            raise
        except FeltError:
            raise
        except BaseException:
            self.stale = True
            raise

    # ----------------------------------------------------------------- loading
    def load(self) -> None:
        """Rebuild the table and its open round from the record (after a start or a crash)."""
        with self.store.engine.connect() as conn:
            row = (
                conn.execute(select(felt_tables).where(felt_tables.c.id == self.spec.id))
                .mappings()
                .one()
            )
            state = json.loads(row["state"])
            self.version = int(row["version"])
            self.is_open = bool(state.get("open", True))
            self.seats = {
                int(n): Seat(int(v[0]), str(v[1])) for n, v in state.get("seats", {}).items()
            }
            self.table = self._make_table(state.get("table"))
            self.last = {int(n): dict(v) for n, v in state.get("last", {}).items()}
            self.round_id = state.get("round_id")
            self.round = None
            if self.progressive is not None:
                version, amount = self.store.meter(conn, self.progressive.meter)
                self.board.note(self.progressive.meter, version, amount)
            if self.round_id is None:
                self.stale = False
                return
            rrow = conn.execute(select(rounds).where(rounds.c.id == self.round_id)).mappings().one()
            events = (
                conn.execute(
                    select(round_events)
                    .where(round_events.c.round_id == self.round_id)
                    .order_by(round_events.c.seq)
                )
                .mappings()
                .all()
            )
            rnd = self._rebuild(json.loads(rrow["origin"]), [dict(e) for e in events])
            self._learn_names(conn, rnd)
        self.round, self.stale = rnd, False
        if self.round.finished:  # pragma: no cover - a finished round is closed in its commit
            self.round_id, self.round = None, None
        else:
            self.table.history.append(self.round)

    def _learn_names(self, conn: Connection, rnd: RoundCore) -> None:
        """Know the account of every player with a hand in ``rnd`` (their wagers' chips move to
        and from that account), from the record: a round rebuilt after a restart, or one that
        begins with wagers its table carried from the last (craps's layout)."""
        players = {p for s in hands(rnd).values() if (p := getattr(s, "player", None))}
        if not players - set(self.names):
            return
        for aid, name in conn.execute(
            select(accounts.c.id, accounts.c.name).where(accounts.c.name.in_(sorted(players)))
        ):
            self.names[str(name)] = int(aid)

    def _rebuild(self, origin: dict[str, Any], events: list[dict[str, Any]]) -> RoundCore:
        """The round ``origin`` and ``events`` record, on its recorded cards with the undealt
        places shuffled anew, every action replayed and checked against the record."""
        known: dict[int, Card] = {}
        for e in events:
            for place, card in json.loads(e["drawn"]):
                known[int(place)] = parse_cards(card)[0]
        deck = complete_deck(known, SystemShuffle())
        rnd = self.game.new_round(self.table.config, deck, origin)
        for e in events:
            event = rnd.apply(
                self.game.parse_action(
                    json.loads(e["action"]), f"round {self.round_id} event {e['seq']}"
                )
            )
            if event_record(event) != json.loads(e["effects"]):
                raise RuntimeError(
                    f"round {self.round_id} event {e['seq']} does not replay as recorded"
                )
        return rnd

    # ----------------------------------------------------------------- rounds
    def start_round(self) -> None:
        """Shuffle and open the next round (the table's own rules: stub count, cut rotation)."""
        self._catch_up()
        if self.round is not None and not self.round.finished:
            return
        reason = self.blocked()
        if reason is not None:  # the staff clear it with a table procedure (the loop waits)
            raise FeltError(f"table {self.spec.id} opens no new round: {reason}")
        self.table.history.clear()
        rnd = self.table.new_round()
        rid = f"{self.spec.id}:{rnd.number}"
        try:
            with self._commit() as conn:
                origin = self.game.round_origin(rnd)
                self.store.open_round(conn, rid, self.spec.id, rnd.number, origin)
                self._bump(conn, self.state_json(round_id=rid))
                self._learn_names(conn, rnd)  # the players of wagers carried onto this round
        except BaseException:
            self.table.history.clear()
            raise
        after_commit(partial(self._opened, rnd, rid))

    def _opened(self, rnd: RoundCore, rid: str) -> None:
        """What a committed new round changes in the table this process shows."""
        self.version += 1
        self.round, self.round_id = rnd, rid
        self.finished_views = None  # the last round's views are in no message any more
        self.deadlines.clear()
        self.betting_closes = None

    def withdraw_empty_round(self) -> None:
        """Withdraw the round in play, in which no one has wagered, because the table may not
        open a round now (:meth:`TableGame.round_blocked`: its cards are due to be changed) or a
        table procedure was just done (:meth:`procedure`): no
        card of it was dealt and no chip moved (at most the cards were cut), so it leaves no
        record; the next round takes its number once the staff have cleared the table
        (synchronous, under :attr:`lock`)."""
        self._catch_up()
        rnd, rid = self.round, self.round_id
        if rnd is None or rnd.finished or not untouched(rnd) or rid is None:
            return
        with self._commit() as conn:
            conn.execute(delete(round_events).where(round_events.c.round_id == rid))
            conn.execute(delete(rounds).where(rounds.c.id == rid))
            self._bump(conn, self.state_json(round_id=None))
        self.table.history.clear()
        self.round, self.round_id = None, None
        self.deadlines.clear()
        self.betting_closes = None
        self.version += 1

    def results_of(self, rnd: RoundCore) -> dict[int, dict[str, Any]]:
        """:func:`last_results` of the finished round ``rnd`` (the round in play, tried to its
        end), its seat views kept in :attr:`finished_views` for the push after its commit (a
        round whose commit fails is never in view: its views are never handed out)."""
        assert self.round_id is not None
        out = last_results(self.game, rnd, self.round_id)
        views: dict[int, dict[str, Any]] | None = getattr(out, "views", None)
        self.finished_views = None if views is None else (rnd, len(rnd.events), views)
        return out

    def seed_views(self, shared: Shared, rnd: RoundCore | None) -> None:
        """Give ``shared``, fitted to the round ``rnd`` in view, the seat views
        :meth:`results_of` built of that round if it is the one finished last (a finished round
        changes no more: its views are what :func:`seat_message` would build again)."""
        got = self.finished_views
        if got is not None and rnd is not None and got[0] is rnd and got[1] == len(rnd.events):
            for n, view in got[2].items():
                if n != PUBLIC:  # a seat's own view, never as the view every watcher is sent
                    shared.views.setdefault(n, view)

    def hand_owner(self, seat: int) -> str | None:
        """The player whose hand is at ``seat`` in the round in view (in play or just settled):
        the name its wager was made in, or None if no hand is there.  A hand is its wagering
        player's until it is settled (each game's rule text says so), whoever the seat map
        names."""
        rnd = self.round
        hand = None if rnd is None else hands(rnd).get(seat)
        return None if hand is None else self._owner(seat, hand)

    @staticmethod
    def _owner(seat: int, hand: Any) -> str:
        """:meth:`hand_owner` of ``hand``, the hand at ``seat``."""
        return str(getattr(hand, "player", None) or f"seat {seat}")

    def authorize(self, action: Action, who: Account | None) -> Action:
        """Refuse an action its sender may not take; a wager is made in the sender's name.  An
        action for a seat with a hand in play is its wagering player's alone (the seat map
        decides nothing about it); at a seat with no hand, only the player seated there acts."""
        if who is None:  # the table's own dealer and clock
            return action
        if isinstance(action, DecisionTimeout):
            raise Forbidden("decision timeouts are recorded by the table's clock, not sent")
        if isinstance(action, PlayerAction) and action.family == "action":
            if who.role != "player":
                raise Forbidden(f"only the player at a seat acts for it; you are a {who.role}")
            owner = self.hand_owner(action.seat)
            if owner is not None and owner != who.name:
                raise Forbidden(f"the hand at seat {action.seat} is another player's")
            if owner is None or action.places_wagers:
                seat = self.seats.get(action.seat)
                if seat is None or seat.account_id != who.id:
                    raise Forbidden(f"seat {action.seat} is not yours; take a seat first")
            if action.places_wagers:
                action = replace(action, player=who.name)  # type: ignore[call-arg]  # a wager carries its player
            return action
        if action.supervisor_only and who.role != "supervisor":
            raise Forbidden(f"only a casino supervisor may {action.supervisor_only}")
        if who.role not in ("dealer", "supervisor"):
            raise Forbidden(
                f"only the dealer or a supervisor may take the dealer's steps; you are a {who.role}"
            )
        if isinstance(action, ShufflerJam) and action.deck is not None:
            raise FeltError("shuffler_jam: the server reshuffles; give no deck")
        if action.family in ("dealer", "irregularity"):  # a game's own irregularity too
            return action
        raise Forbidden(f"{action.name} cannot be sent to the table")  # pragma: no cover

    def _seat_owner(self, party: str, *rounds: RoundCore) -> str:
        """The ledger account of a chip movement's party: a seat's is the wallet of the player
        whose hand it is in the first of ``rounds`` that has it (the round after the action,
        else before it: an action that returns a seat's wagers may take its hand off the round)."""
        if party == HOUSE:
            return HOUSE_ACCOUNT
        if party == LAYOUT:
            return layout_account(self.spec.id)
        if party == POT:
            return pot_account(self.spec.id)
        if party == PROGRESSIVE:
            if self.progressive is None:  # pragma: no cover - a game moves it only when linked
                raise RuntimeError(f"table {self.spec.id} has no progressive meter")
            return progressive_account(self.progressive.meter)
        number = int(party.split()[1])
        hand = next((hands(r)[number] for r in rounds if number in hands(r)), None)
        name = getattr(hand, "player", None)
        if name is None or name not in self.names:
            raise RuntimeError(f"seat {number} has no known player")  # pragma: no cover
        return player_account(self.names[name])

    def apply_now(
        self,
        action: Action,
        who: Account | None,
        key: str | None = None,
        digest: str = "",
        token: str | None = None,
        for_round: str | None = None,
    ) -> dict[str, Any]:
        """Check, record and perform one action (synchronous: call under :attr:`lock`, off the
        event loop).  Returns the acknowledgement, which is also stored under ``key``; a key
        already answered gets that answer again (a retry that queued for the lock behind the
        request it repeats must not be tried as a new action).  With ``token``, the sender's
        session is checked again in the same read as the key (a WebSocket's later messages).
        With ``for_round``, the action is refused unless that round is the one in play: a retry
        whose first try never committed cannot land in the next round.

        The session and the key are read inside the action's own write transaction, first, so
        an action costs one transaction, not a read transaction and then a write; an action the
        table refuses reads them in a read of their own before the refusal is given (a retry of
        an action on record is answered, whatever the round has become)."""
        if key is not None and who is not None and action.family == "dealer":
            # a dealer's step may be completed by the table (dice thrown, a clock read): the
            # session and the key are checked first, so a retry or an ended session spends no
            # throw (dealer steps are few a round; players' actions take the one-read path)
            who, seen = answered_before(self.store, who, key, digest, token)
            if seen is not None:
                return seen
        try:
            action = self._admit(action, who, for_round)
            change = None if action.needs_meter else self._try(action, who)
        except Exception:
            if key is not None and who is not None:
                # a retry of an action on record may be refused now (its round has moved on):
                # the answer on record is its answer (the session checked first, as ever)
                who, seen = answered_before(self.store, who, key, digest, token)
                if seen is not None:
                    return seen
            raise
        try:
            with self._commit() as conn:
                if key is not None and who is not None:
                    who = self._sender(conn, who, key, token)
                if change is None:
                    # A payout off the meter: the meter is read with its row locked inside this
                    # action's own transaction, the action carries what was read, and the round
                    # is tried on it there, so linked tables (in any process) never pay the same
                    # cents twice and no meter the screens or another process saw is ever paid
                    # from.
                    amount = None
                    if self.progressive is not None:
                        amount = self.store.meter(conn, self.progressive.meter, lock=True)[1]
                    if not hasattr(action, "meter"):  # pragma: no cover - needs_meter's contract
                        raise RuntimeError(f"{action.name} needs the meter but has no meter field")
                    action = replace(action, meter=amount)  # type: ignore[call-arg]  # whatever was sent
                    change = self._try(action, who)
                self._write(conn, change, who, key, digest)
        except _Answered as answered:  # a retry: nothing was written
            assert key is not None
            seen = self.store.answer_of(answered.seen, key, digest)
            assert seen is not None
            return seen
        after_commit(partial(self._publish, change))
        return change.ack

    def _publish(self, change: _Change) -> None:
        """What a committed action changes in the table this process shows and plays on."""
        if change.meter is not None and self.progressive is not None:
            self.board.note(self.progressive.meter, *change.meter)
        self.version += 1
        self.round = change.trial
        self.last = change.last_after
        if change.table_after is not None:
            self.table = change.table_after
            self.next_round_at = time.monotonic() + self.spec.between_rounds_seconds

    def take_steps(self, step: Action) -> dict[str, Any]:
        """The table's own ``step`` (the dealer's, or the clock's timeout) as :meth:`apply_now`
        takes it; at a table that deals without pause (its own dealer, ``pace_seconds`` 0),
        with every dealer step due straight after it (:meth:`_step_after`) in the same change.
        Each step is checked and recorded as its own event, exactly as if taken alone; they
        share one transaction and the screens are sent the table once, as the last step left
        it (no election is pending between them and the betting clock is over: docs/design.md,
        "Steps due at once").  Returns the first step's acknowledgement."""
        if self.spec.pace_seconds or self.spec.dealer == "manual" or step.needs_meter:
            return self.apply_now(step, None)
        change = self._try(self._admit(step, None, None), None)
        changes = [change]
        while (after := self._step_after(change.trial)) is not None:
            try:
                action = self._admit(after, None, None, change.trial)
                change = self._try(action, None, change.trial, change.last_after)
            except Exception:  # taken alone at the loop's next look, which reports it
                break
            changes.append(change)
        with self._commit() as conn:
            self._write_events(conn, changes, None)  # one statement for the chain's events
            for each in changes:
                self._write_rest(conn, each, None, None, "")
        after_commit(partial(self._publish_all, changes))
        return changes[0].ack

    def _step_after(self, rnd: RoundCore) -> Action | None:
        """The dealer's step due at once in ``rnd``, the round a step just left, to be taken in
        the same change (:meth:`take_steps`); None wherever the table's loop must look first:
        the round over, an election pending (its clock), wagers open (the betting clock), a
        closed table, a round no one has wagered in (the schedule), a step read from the
        meter (it is read in its own transaction)."""
        if rnd.finished or rnd.pending() or rnd.next_dealer_action() is None:
            return None
        if self.game.betting_open(rnd) or self._closed_for_play(rnd) or untouched(rnd):
            return None
        step = self.game.dealer_step(self.table, rnd)
        return None if step is None or step.needs_meter else step

    def _publish_all(self, changes: list[_Change]) -> None:
        """:meth:`_publish` of each of one commit's changes, in order."""
        for change in changes:
            self._publish(change)

    async def act(self, *args: Any) -> dict[str, Any]:
        """:meth:`apply_now` from the event loop, under the table's lock, run by the store
        (:meth:`Store.submit_change`: on SQLite its writer's next batch); its acknowledgement once
        durable, then the table's loop and listeners are told."""
        async with self.lock:
            ack: dict[str, Any] = await self._change(self.apply_now, *args)
            self._touch()
        return ack

    async def _change(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)``, a change that publishes through :func:`after_commit`, run by the
        store (:meth:`Store.submit_change`) with the table's lock held.  A table behind its record
        reads it first, in a worker thread (not in the writer's batch, which every table's
        changes wait for).  A caller cancelled meanwhile (a client gone, a shutdown) keeps the
        lock until the change has ended, so the table's next change is tried on what it did."""
        if self.stale:
            await asyncio.to_thread(self._catch_up)
        future = self.store.submit_change(work, *args)
        try:
            result: T = await asyncio.shield(future)
        except asyncio.CancelledError:
            while not future.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait([future])
            if not future.cancelled() and isinstance(future.exception(), CommitFailed):
                self.stale = True
            raise
        except CommitFailed:  # it may be on record after all: read the record before the next
            self.stale = True
            raise
        return result

    def _admit(
        self, action: Action, who: Account | None, for_round: str | None,
        rnd: RoundCore | None = None,
    ) -> Action:  # fmt: skip
        """The action as the table takes it from ``who`` (authorized, completed by the table),
        or the refusal (the round not in play, the table closed, the sender not allowed); on
        ``rnd``, a trial of the round in play, if given (a step taken after another in one
        change: :meth:`take_steps`)."""
        self._catch_up()
        if rnd is None:
            rnd = self.round
        if for_round is not None and for_round != self._open_round_id():
            now = self._open_round_id() or "no round in play"
            raise Conflict(
                f"the action was for round {for_round[:80]}; the table is at {now}: nothing was done"
            )
        if rnd is None or rnd.finished:
            raise FeltError(f"table {self.spec.id} has no round in play; wait for the next one")
        if untouched(rnd) and (reason := self.blocked()) is not None:
            # the first wager may not open play on a round the table may no longer deal (the
            # loop withdraws it at its next look at the schedule)
            raise FeltError(f"table {self.spec.id} opens no new round: {reason}")
        if not self.is_open and action.places_wagers and self._carries():
            raise FeltError(
                f"table {self.spec.id} is closed: it rolls on only until the wagers on its layout "
                "are decided or taken down, and takes no new wagers"
            )
        action = self.authorize(action, who)
        if action.family == "dealer" and self._closed_for_play(rnd):
            raise FeltError(
                f"table {self.spec.id} is closed: it plays no new round; its seats take their "
                "chips back"
            )
        # what only the table supplies as the action is applied (an electronic table's dice)
        completed = self.game.complete_action(self.table, action, rnd)
        if completed != action and action.family != "dealer":  # pragma: no cover - the contract
            raise RuntimeError(f"{action.name}: a game completes only the dealer's steps")
        action = completed
        if who is not None and action.places_wagers:
            self.names[who.name] = who.id
        return action

    def _sender(self, conn: Connection, who: Account, key: str, token: str | None) -> Account:
        """Inside the action's write transaction: the sender (its session checked again if
        ``token`` is given, in the same read as the key), or :class:`_Answered` if the key was
        answered before (the caller rolls the transaction back and gives that answer)."""
        if token is not None:
            who, seen = session_and_key(conn, token, key)
        else:
            seen = self.store.remembered(conn, who.id, key)
        if seen is not None:
            raise _Answered(seen)
        return who

    def _try(
        self, action: Action, who: Account | None, before: RoundCore | None = None,
        last: dict[int, dict[str, Any]] | None = None,
    ) -> _Change:  # fmt: skip
        """Apply ``action`` to a copy of the round and work out everything its commit writes
        (the live round untouched; a refusal raises here).  ``before`` and ``last``: the round
        and the seats' last results the action is tried on, if not the table's own (a step
        taken after another in one change: :meth:`take_steps`)."""
        if before is None:
            before = self.round
        assert before is not None
        if last is None:
            last = self.last
        assert self.round_id is not None
        trial = before.copy()
        event = trial.apply(action)
        drawn = drawn_cards(before, trial)
        entries: list[Posting] = []
        owners: dict[str, str] = {}  # each party's account, worked out once an action
        for t in trial.ledger.transfers[len(before.ledger.transfers) :]:
            if (source := owners.get(t.source)) is None:
                source = owners[t.source] = self._seat_owner(t.source, trial, before)
            if (target := owners.get(t.target)) is None:
                target = owners[t.target] = self._seat_owner(t.target, trial, before)
            entries.append(Posting(source, -t.amount, t.reason))
            entries.append(Posting(target, t.amount, t.reason))
        table_after: GameTable | None = None
        last_after = last
        if who is not None and action.places_wagers:  # the player's next wager: results go
            seat_of = getattr(action, "seat", None)
            last_after = {n: v for n, v in last.items()
                          if n != seat_of and v.get("player") != who.name}  # fmt: skip
        if trial.finished:
            table_after = _finished(self.table, trial)
            last_after = {**{n: v for n, v in last_after.items() if n not in hands(trial)},
                          **self.results_of(trial)}  # fmt: skip
        state = None
        if table_after is not None:
            state = self.state_json(table_after, None, last_after)
        elif last_after != last:
            state = self.state_json(last=last_after)
        ack = {
            "table": self.spec.id,
            "round": self.round_id,
            "seq": event.seq,
            "action": action.name,
        }
        return _Change(action, trial, event, drawn, entries, table_after, last_after, state, ack)

    def _write(
        self, conn: Connection, change: _Change, who: Account | None, key: str | None,
        digest: str,
    ) -> None:  # fmt: skip
        """Write one tried action in the caller's transaction: the table's version (fenced), its
        event, its postings, the round's record if it finished, the idempotency key's answer;
        and read back the table's meter if the postings moved it (for the screens)."""
        self._write_events(conn, [change], who)
        self._write_rest(conn, change, who, key, digest)

    def _write_events(self, conn: Connection, changes: list[_Change], who: Account | None) -> None:
        """The events of ``changes`` (one change's, or a chain's: :meth:`take_steps`) in one
        statement, the table's version moved on once for each while this process holds it
        (fenced), and its state as the last change that writes it leaves it."""
        assert self.round_id is not None
        state = next((c.state for c in reversed(changes) if c.state is not None), None)
        rows = [(c.event.seq, c.action.to_json(), event_record(c.event), c.drawn) for c in changes]
        fenced = (self.spec.id, self.owner, state)
        actor = None if who is None else who.id
        if not self.store.append_events(conn, self.round_id, rows, actor, fenced):
            raise lease_lost(self.spec.id)

    def _write_rest(
        self, conn: Connection, change: _Change, who: Account | None, key: str | None,
        digest: str,
    ) -> None:  # fmt: skip
        """What :meth:`_write` writes of one change after its event (see there)."""
        assert self.round_id is not None
        action, trial, event = change.action, change.trial, change.event
        self.store.post(conn, f"{self.round_id}#{event.seq}", change.entries)
        if self.progressive is not None:
            account = progressive_account(self.progressive.meter)
            if any(p.account == account for p in change.entries):
                change.meter = self.store.meter(conn, self.progressive.meter)
        if who is not None and action.places_wagers:
            self.store.add_round_player(conn, who.id, self.round_id)
        if change.table_after is not None:
            from felt.cli.script import report

            for hand in hands(trial).values():  # everyone who played it, however they came in
                name = getattr(hand, "player", None)  # (a poker stack carried from the last hand)
                if name in self.names:
                    self.store.add_round_player(conn, self.names[name], self.round_id)

            record = report(cast(Any, trial))  # the script layer reads any game's round
            self.store.finish_round(conn, self.round_id, record)
        if key is not None and who is not None:
            self.store.remember(conn, who.id, key, digest, to_json(change.ack))

    async def do(self, work: Callable[..., T], *args: Any) -> T:
        """Run one synchronous change (an action, a seat, opening or closing) under the table's
        lock in a worker thread, then tell the table's loop and listeners."""
        async with self.lock:
            result = await asyncio.to_thread(work, *args)
            self._touch()
        return result

    def _touch(self) -> None:
        """Wake the table's loop and tell the listeners (on the event loop's thread)."""
        self.changed.set()
        for listener in list(self.listeners):
            listener(self)

    # ----------------------------------------------------------------- seats and table procedure
    def sit(self, who: Account, seat: int) -> None:
        """Take a free seat (synchronous, under :attr:`lock`)."""
        self._catch_up()
        if who.role != "player":
            raise Forbidden("only players take seats")
        count = self.game.seat_count(self.table.config)
        if not 1 <= seat <= count:
            raise FeltError(f"seat must be 1 to {count}, got {seat}")
        held = self.seats.get(seat)
        if held is not None:
            if held.account_id == who.id:
                return
            raise FeltError(f"seat {seat} is taken")
        owner = self._hand_in_play(seat)
        if owner is not None and owner != who.name:
            raise FeltError(f"seat {seat} is taken: its hand is in play until the round is settled")
        if not self.is_open:
            raise FeltError(f"table {self.spec.id} is closed")
        self._change_seats({**self.seats, seat: Seat(who.id, who.name)})
        self.names[who.name] = who.id

    def stand(self, who: Account, seat: int) -> None:
        """Leave a seat with no hand in play (synchronous).  A player whose hand is in play
        stays seated until the round is settled (the game's round says why:
        :meth:`~felt.rounds.round_core.RoundCore.must_stay_seated`): the seat and the hand stay
        theirs, so nobody else can sit down to it.  Where a game lets a player take the wager
        back before the cards, that is an action of the round, taken first."""
        self._catch_up()
        held = self.seats.get(seat)
        if held is None or held.account_id != who.id:
            raise FeltError(f"seat {seat} is not yours")
        if self._hand_in_play(seat) is not None:
            if self.round is None:  # wagers carried into a round not yet opened
                raise FeltError(f"seat {seat}: your wagers stay on the layout until decided")
            raise FeltError(self.round.must_stay_seated(seat))
        self._change_seats({n: s for n, s in self.seats.items() if n != seat})

    def _hand_in_play(self, seat: int) -> str | None:
        """The owner of the hand at ``seat`` if its round is still in play (not yet settled), or
        between rounds of the wagers the table carries there into the next
        (:meth:`TableGame.carried_owner`: craps's chips on the layout)."""
        if self.round is None or self.round.finished:
            return self.game.carried_owner(self.table, seat)
        return self.hand_owner(seat)

    def _closed_for_play(self, rnd: RoundCore) -> bool:
        """Whether ``rnd`` may take no dealer's step because the table is closed and its game does
        not play on when closed (:attr:`TableGame.plays_on_when_closed`) while wagers are open."""
        return (
            not self.is_open and not self.game.plays_on_when_closed and self.game.betting_open(rnd)
        )

    def _carries(self) -> bool:
        """Whether the table carries wagers into its next round (any seat's, between rolls)."""
        count = self.game.seat_count(self.table.config)
        return any(self.game.carried_owner(self.table, n) is not None for n in range(1, count + 1))

    def _change_seats(self, seats: dict[int, Seat]) -> None:
        self._write_state(seats=seats)

    def set_open(self, is_open: bool) -> None:
        """A supervisor opens or closes the table; a closed table finishes its round, then
        starts no other, unless its layout carries wagers into the next (craps): then it rolls on,
        taking no new wagers, until every chip on the layout is decided or taken down."""
        self._catch_up()
        self._write_state(is_open=is_open)

    def _write_state(self, **change: Any) -> None:
        """Change what carries between rounds and record it; undone if the write fails."""
        old = {k: getattr(self, k) for k in change}
        self.__dict__.update(change)
        try:
            with self._commit() as conn:
                self._bump(conn, self.state_json())
        except BaseException:
            self.__dict__.update(old)
            raise
        self.version += 1

    def procedure(self, who: Account, name: str, argument: Any = None) -> None:
        """A supervisor's step on the table between or around rounds (synchronous, under
        :attr:`lock`): one of the game's :meth:`~felt.games.base.TableGame.procedures`."""
        if who.role != "supervisor":
            raise Forbidden(f"only a casino supervisor may {name.replace('_', ' ')}")
        allowed = self.game.procedures()
        if name not in allowed:
            raise FeltError(
                f"{name[:40]!r} is not a procedure of this table (allowed: {', '.join(allowed)})"
            )
        self._catch_up()
        waiting = self.round is not None and not self.round.finished and untouched(self.round)
        after = copy.copy(self.table)
        # A round no one has wagered in does not hold a procedure up: the table opens the next
        # round as soon as one settles, so an idle table always has one.  It is withdrawn once the
        # procedure succeeds (no card of it dealt, no chip moved) and the next opens after.
        after.history = [] if waiting else list(self.table.history)
        step = getattr(after, name)
        if name in self.game.clocked_procedures():  # done now, by the server's clock
            step(self.clock())
        elif allowed[name]:
            if argument is None:
                raise FeltError(f"{name} needs {allowed[name]}")
            step(argument)
        else:
            step()
        if waiting:
            self.withdraw_empty_round()
        with self.store.transaction() as conn:
            self._bump(conn, self.state_json(after))
        self.table = after
        self.version += 1

    # ----------------------------------------------------------------- what clients see
    def message_for(self, who: Account | None, shared: Shared | None = None) -> dict[str, Any]:
        """The table as ``who`` may see it now: built from seat views only (call under
        :attr:`lock`, so the round, its id and the version belong together).  The messages of
        one push share ``shared``: what every viewer sees, and each seat's view, built once."""
        rnd = self.round
        if shared is None:
            shared = Shared()
        shared.fits((self.spec.id, self.version, id(rnd), -1 if rnd is None else len(rnd.events)))
        parts = shared.parts
        if not parts:
            self.seed_views(shared, rnd)
            self._common_parts(shared)
        out: dict[str, Any] = dict(parts["head"])
        if who is not None and who.role == "player":
            # the player's own last results, each built from that seat's own view
            out["last"] = parts["last"].get(who.name) or {}
        out.update(parts["tail"])
        if rnd is None:
            return out
        if who is not None and who.role in ("dealer", "supervisor") and not rnd.finished:
            # its name and arguments (no card is in a step), as the table takes it
            if "next_step" not in shared.parts:
                step = self.game.dealer_step(self.table, rnd)
                shared.parts["next_step"] = None if step is None else step.to_json()
            out["next_step"] = shared.parts["next_step"]
        if who is not None and who.role in ("dealer", "supervisor") and rnd.finished:
            # what the dealer pays or collects at each seat: every seat's settlement statement,
            # each from that seat's own view (the dealer settles every seat in view of all)
            out["settlement"] = [line for n in sorted(hands(rnd))
                                 for line in shared.view(self.game, rnd, n).get("lines", [])]  # fmt: skip
        if who is not None and who.role == "player":
            # a seat's hand is seen by the player who wagered it, never by whoever sits there
            owners = parts.get("owners")
            if owners is None:
                owners = parts["owners"] = {n: self._owner(n, h) for n, h in hands(rnd).items()}
            mine = [n for n, s in self.seats.items()
                    if s.account_id == who.id and owners.get(n) in (None, who.name)]  # fmt: skip
            mine += [n for n, owner in owners.items() if owner == who.name and n not in mine]
            out["mine"] = {str(n): shared.view(self.game, rnd, n) for n in sorted(mine)}
        return out

    def _common_parts(self, shared: Shared) -> None:
        """What every viewer's message holds (:meth:`message_for`): ``head``, before a player's
        own last results, and ``tail`` after them, the public view of the round included."""
        head: dict[str, Any] = {
            "type": "table",
            "table": self.spec.id,
            "game": self.spec.game,
            "open": self.is_open,
            "version": self.version,
            "seats": {str(n): s.name for n, s in sorted(self.seats.items())},
            "round": self.round_id,
            "decision_seconds": self.table.config.decision_seconds,
            # who takes the dealer's steps: the table at its pace, or the dealer at the console
            "dealer": self.spec.dealer,
            "pace_seconds": self.spec.pace_seconds,
        }
        if self.progressive is not None:  # the linked meter, as this process last read it
            head["progressive"] = self.board.view(self.progressive)
        # each player's last results by name, each result without the name it is kept under
        last: dict[str | None, dict[str, Any]] = {}
        for n, r in sorted(self.last.items()):
            last.setdefault(r.get("player"), {})[str(n)] = {
                k: v for k, v in r.items() if k != "player"
            }
        tail: dict[str, Any] = {}
        shared.parts["head"], shared.parts["last"], shared.parts["tail"] = head, last, tail
        rnd = self.round
        if rnd is None or rnd.finished:
            # why no new round opens (not hidden: every role may read it), for the staff to clear
            reason = self.blocked()
            if reason is not None:
                tail["blocked"] = reason
        if rnd is None:
            tail["public"] = None
            tail["sitting_out"] = []
            return
        # seated players with no hand once wagers are closed
        held = hands(rnd)
        tail["sitting_out"] = (
            [] if self.game.betting_open(rnd) else sorted(n for n in self.seats if n not in held)
        )
        tail["number"] = rnd.number
        tail["seq"] = len(rnd.events)  # the last event this view reflects, as in round_events
        tail["finished"] = rnd.finished
        now = time.monotonic()
        full = float(rnd.config.decision_seconds)
        tail["clock"] = [  # the decision time left to each election pending (its clock starts
            # when the table's loop first sees it: until then, the whole time)
            {"seat": s, "election": w,
             "seconds": round(full if (t := self.deadlines.get((s, w))) is None else max(0.0, t - now), 1)}
            for s, w in sorted(rnd.pending())
        ]  # fmt: skip
        tail["public"] = shared.view(self.game, rnd, PUBLIC)

    # ----------------------------------------------------------------- the dealer and the clock
    def due(self, now: float) -> tuple[Action | None, float | None]:
        """The step the table takes by itself now (a round to open is ``None`` with no wait),
        or when to look again."""
        rnd = self.round
        if rnd is None or rnd.finished:
            return None, None
        pending = rnd.pending()
        live = {(s, w) for s, w in pending}
        for k in list(self.deadlines):
            if k not in live:
                del self.deadlines[k]
        for k in live:
            self.deadlines.setdefault(k, now + rnd.config.decision_seconds)
        if pending:
            expired = sorted(k for k, t in self.deadlines.items() if t <= now)
            if expired:
                return DecisionTimeout(expired[0][0]), None
            return None, min(self.deadlines.values())
        if rnd.next_dealer_action() is None:
            return None, None
        if self._closed_for_play(rnd):
            return None, None  # a closed table's seats only take their chips back
        if self.game.betting_open(rnd):
            if self.betting_closes is None:
                self.betting_closes = now + self.spec.betting_seconds
            everyone = self.game.betting_closes_early(rnd, set(self.seats))
            if now < self.betting_closes and not everyone:
                return None, self.betting_closes
        return self.game.dealer_step(self.table, rnd), None

    async def run(self, stop: asyncio.Event) -> None:
        """Run the table until ``stop`` or until another process takes it over: open rounds,
        take the dealer's steps at the table's pace, record timeouts when decision time runs
        out."""
        watcher = asyncio.ensure_future(stop.wait())  # one task for the loop's life, not a wait's
        watcher.add_done_callback(self._stopped)
        try:
            while not stop.is_set() and not self.leaving:
                now = time.monotonic()
                try:
                    async with self.lock:
                        self.changed.clear()
                        wait = await self._tick(now)
                except LeaseLost:
                    self.leaving = True
                    return
                except Exception:  # the database is away: try again shortly
                    log.exception("table %s: step failed", self.spec.id)
                    wait = now + 1.0
                await self.changed.sleep(None if wait is None else wait - now)
        finally:
            watcher.cancel()

    def _stopped(self, watcher: asyncio.Task[Any]) -> None:
        """Wake the table's loop when the server stops (not when the loop ends first)."""
        if not watcher.cancelled():
            self.changed.set()

    async def _tick(self, now: float) -> float | None:
        """Do what is due now; return when to look again (``now``: at once; None: when told)."""
        if self.stale:
            await asyncio.to_thread(self._catch_up)
            self._touch()
        rnd = self.round
        if self.release_wanted and (rnd is None or rnd.finished or not rnd.actions):
            await asyncio.to_thread(self.release)  # between rounds, or before the first wager
            return now
        if rnd is None or rnd.finished:
            if not self.is_open and not self._carries():
                return None  # a closed table whose layout still holds chips rolls on to clear it
            if now < self.next_round_at:
                return self.next_round_at
            try:
                await self._change(self.start_round)
            except FeltError:  # e.g. the deck was removed: wait for the supervisor
                for listener in list(self.listeners):  # the screens say why (``blocked``)
                    listener(self)
                return None
            self._touch()
            return now
        if untouched(rnd) and self.blocked() is not None:  # no wager yet, past the schedule
            await asyncio.to_thread(self.withdraw_empty_round)
            self._touch()
            return now
        step, wait = self.due(now)
        if step is None:
            self.step_at = None
            if untouched(rnd):  # look at the schedule again while no one has wagered
                wait = min(wait if wait is not None else now + self.schedule_seconds,
                           now + self.schedule_seconds)  # fmt: skip
            return wait
        if self.spec.dealer == "manual" and not isinstance(step, DecisionTimeout):
            return wait  # the dealer takes the step from the console; a timeout is the clock's
        if self.spec.pace_seconds and not isinstance(step, DecisionTimeout):
            if self.step_at is None:
                self.step_at = now + self.spec.pace_seconds
            if now < self.step_at:
                return self.step_at
        self.step_at = None
        try:
            await self._change(self.take_steps, step)
            self._touch()
        except FeltError as err:  # e.g. the round changed under a dealer's own step
            if isinstance(err, LeaseLost):
                raise
            return now + max(self.spec.pace_seconds, 0.05)
        return now

    def leave(self) -> None:
        """Stop running the table here (another process holds it now)."""
        self.leaving = True
        self.changed.set()

    def release(self) -> None:
        """Give the table up between rounds so a process with fewer than its share can take it
        (synchronous, under :attr:`lock`).  Nothing is lost: what carries between rounds is
        already on record."""
        give_up(self.store, self.spec.id, self.owner)
        self.leaving = True


class LastResults(dict[int, dict[str, Any]]):
    """:func:`last_results`: each seat's result by seat number, and (:attr:`views`) the seat
    views they were built from, which the push after the round's commit shows again."""

    views: dict[int, dict[str, Any]]
    """Each seat's :func:`seat_message` of the round, by seat (no view is changed once built)."""


def last_results(game: TableGame, rnd: RoundCore, round_id: str) -> LastResults:
    """Each seat's result of the finished round ``rnd``: the seat's own view of it (its cards,
    hand and discards, the dealer's cards and hand, its statement lines with their reasons)
    without the other seats or elections, with the round, the player and the seat's net.  Built
    from that seat's view alone, so it holds nothing the seat's player may not see; the views
    are kept with the results (:attr:`LastResults.views`)."""
    out = LastResults()
    out.views = {}
    for n, hand in hands(rnd).items():
        view = out.views[n] = seat_message(game, rnd, n)
        out[n] = {
            **{k: v for k, v in view.items() if k not in ("others", "pending")},
            "round": round_id,
            "number": rnd.number,
            "player": str(getattr(hand, "player", None) or f"seat {n}"),
            "net": dollars(rnd.net(n)),
        }
    return out


def answered_before(
    store: Store, who: Account, key: str, digest: str, token: str | None
) -> tuple[Account, dict[str, Any] | None]:
    """The sender (its session checked again if ``token`` is given, in the same read) and the
    answer already given under ``key``, if any (see :meth:`Store.answered`)."""
    with store.engine.connect() as conn:
        if token is not None:
            who = authenticate(store, token, conn)
        return who, store.answered(conn, who.id, key, digest)


def fence(conn: Connection, table_id: str, owner: str, state: str | None = None) -> None:
    """Fence a write of a table or a system (a system game's): its version moves on (and its ``state`` is
    written, if given) only while ``owner`` holds it; else :class:`LeaseLost`."""
    if state is None:
        result = hot(conn, "fence", (1, table_id, owner))
    else:
        result = hot(conn, "fence_state", (1, state, table_id, owner))
    if result.rowcount != 1:
        raise lease_lost(table_id)


def lease_lost(table_id: str) -> LeaseLost:
    """The refusal of a write to a table or a system this process no longer holds."""
    return LeaseLost(f"{table_id} is now run by another server process")


def give_up(store: Store, table_id: str, owner: str) -> None:
    """Release ``owner``'s lease on a table or a system."""
    with store.transaction() as conn:
        conn.execute(
            update(felt_tables)
            .where(felt_tables.c.id == table_id, felt_tables.c.owner == owner)
            .values(owner=None, lease_until=0.0)
        )


async def sleep_until(changed: asyncio.Event, stop: asyncio.Event, timeout: float | None) -> None:
    """Wait ``timeout`` seconds (None: for ever) or until ``changed`` or ``stop`` is set."""
    if timeout is not None and timeout <= 0.0:
        return
    waiter = asyncio.ensure_future(changed.wait())
    stopper = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({waiter, stopper}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
        stopper.cancel()


def new_table_row(spec: AnySpec, owner: str | None) -> dict[str, Any]:
    """The row of a table or a system the database has not seen."""
    host_state = {"open": True, "seats": {}, "table": None, "round_id": None}
    return {"id": spec.id, "spec": spec.to_json(), "state": json.dumps(host_state), "version": 0,
            "owner": owner, "lease_until": 0.0}  # fmt: skip


__all__ = [
    "LeaseLost",
    "TableHost",
    "drawn_cards",
    "event_record",
    "make_table",
]
