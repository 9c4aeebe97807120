"""Snapshots of a keno system's state, so a restart replays only the actions after the last one
instead of every action since the beginning (what 19:47-15.5(h) keeps is the record; a snapshot is
only a faster way to rebuild from it, and is checked before it is trusted).

A snapshot is taken after a draw.  It has two parts:

* the **state**: every field of :class:`~felt.games.keno.system.KenoSystem` that defines it
  (``compare`` fields), taken generically from the dataclass, so a field added to the system is
  carried without a change here; except the configuration (it comes from the system's spec and
  is checked by fingerprint), the events (they are the record, already stored), the tickets
  **kept apart**, the games of **past gaming days**, and the ledger's movements (carried as the
  balances brought forward);
* the **archive**: the tickets kept apart and the gaming days past since the snapshot before,
  stored once each.  A ticket is kept apart once it has no game left to play and is settled
  (paid in full or owed nothing, or its winnings totalled by 15.6(d)), or its gaming day is past
  (a void stays on its day's list, 15.4(e); an unpaid winner can still be paid until its claim
  expires, 15.6(c)).  None of them is in a list the draw or the day's end iterates; the reports
  that list voids and unclaimed winnings read the ones kept apart from the archive's listing
  (each is listed there under :meth:`~felt.games.keno.system.KenoSystem.kept_under`), and a
  ticket that can still change (an unpaid winner) is decoded and open again when it is looked
  up by number, as before it is paid.  Nor can a past day's games change, which are only looked
  up (a ticket's start and expiry, a day's games): each is kept compressed and decoded only when
  looked up, so a start with a year of tickets and games decodes neither, and a draw's snapshot
  holds the current day's open tickets, costing the same on the first day as after a year.

Both are pickled (every value is one of the system's own dataclasses, a date or time, or a builtin
container), read back by an unpickler that builds only those classes, and each carries its SHA-256
digest; the state also names the **schema** (every class's fields) it was written with.  A
snapshot whose digest, schema or configuration does not match is refused with the reason.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import pickle
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from datetime import date, datetime
from typing import Any, Final

from felt.core.errors import FeltError
from felt.games.keno import system as core
from felt.games.keno import tickets as ticket_module
from felt.games.keno.system import GameRecord, KenoSystem, SystemConfig, TicketState
from felt.rounds import engine
from felt.rounds.engine import Ledger, Transfer

_MODULES: Final = (core, ticket_module, engine)
_CLASSES: Final[dict[tuple[str, str], type]] = {
    (cls.__module__, cls.__qualname__): cls
    for module in _MODULES
    for cls in vars(module).values()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__
}
"""The classes a snapshot may hold: the dataclasses of the keno system, its tickets and the
ledger."""
_SAFE: Final[dict[str, frozenset[str]]] = {
    "datetime": frozenset({"datetime", "date", "time", "timedelta", "timezone"}),
    "zoneinfo": frozenset({"ZoneInfo"}),
    "zoneinfo._zoneinfo": frozenset({"ZoneInfo"}),
    "copyreg": frozenset({"_reconstructor"}),
    "builtins": frozenset({"object", "set", "frozenset"}),
}
SKIPPED: Final = ("config", "events", "tickets", "games", "day_ends", "ledger")
"""Fields of the system not carried generically in the state (see the module docstring)."""
SEGMENT: Final = 8192
"""The most records (tickets and games) one archive segment gathers by merging the ones before
it."""
FORMAT: Final = 3
"""The layout of a snapshot's parts (2: past gaming days' games archived; 3: a past day's voids
and unpaid winners archived with it, listed by the report that lists them); part of the schema,
so a snapshot of another layout is refused and the system rebuilt from the record."""
Listing = tuple[list[int], dict[date, int], dict[str, list[int]]]
"""What an archive segment holds: its ticket numbers, its days with their game counts, and the
numbers of its tickets that a report lists, by report (:meth:`KenoSystem.kept_under`)."""
BROUGHT_FORWARD: Final = "balance brought forward"
"""The reason of the ledger movements that restore the balances of a snapshot."""


def schema(layout: int = FORMAT) -> str:
    """The schema of a snapshot of the parts' ``layout`` (:data:`FORMAT`) and the system's
    classes as they are now."""
    shape = sorted((f"{m}.{q}", [f.name for f in fields(cls)]) for (m, q), cls in _CLASSES.items())
    return hashlib.sha256(json.dumps([layout, shape]).encode()).hexdigest()


SCHEMA: Final = schema()
"""The shape of the state (every class and its fields): a snapshot written by a system of
another shape is refused, and the system is rebuilt from the record instead."""


def digest(*parts: bytes) -> str:
    """The SHA-256 of the parts, in hex."""
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "big"))
        h.update(p)
    return h.hexdigest()


def config_print(config: SystemConfig) -> str:
    """A fingerprint of the configuration a snapshot was taken under."""
    return hashlib.sha256(repr(config).encode()).hexdigest()


class _Reader(pickle.Unpickler):
    """Builds only the system's own classes, dates and times, and builtin containers."""

    def find_class(self, module: str, name: str) -> Any:
        cls = _CLASSES.get((module, name))
        if cls is not None:
            return cls
        if name in _SAFE.get(module, ()):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"a keno snapshot does not hold {module}.{name}")


def _dump(value: object) -> bytes:
    return zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 1)


def _load(blob: bytes) -> Any:
    return _Reader(io.BytesIO(zlib.decompress(blob))).load()


def _pickle(value: object) -> bytes:
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def listing_json(listing: Listing) -> str:
    """A segment's listing as stored (``archived``): JSON, days as ISO dates."""
    tickets, days, tags = listing
    return json.dumps({"tickets": tickets, "days": {d.isoformat(): n for d, n in days.items()},
                       "tags": tags}, separators=(",", ":"))  # fmt: skip


def listed(archived: str) -> Listing:
    """A segment's listing read back from ``archived``."""
    data = json.loads(archived)
    if not isinstance(data, dict):
        raise FeltError("its archive lists its entries in another layout")
    tags = {str(t): [int(n) for n in numbers] for t, numbers in data["tags"].items()}
    return (list(data["tickets"]), {date.fromisoformat(d): int(n) for d, n in data["days"].items()},
            tags)  # fmt: skip


def _ticket(data: bytes) -> TicketState:
    state = _Reader(io.BytesIO(data)).load()
    if not isinstance(state, TicketState):
        raise FeltError("a keno snapshot's archive holds something other than a ticket")
    return state


class Archive:
    """The archive segments (as stored) of a system's settled tickets and past gaming days'
    games, shared by its :class:`TicketBook` and :class:`GameBook`: each entry (a ticket, or a
    day's games) pickled on its own, so one is read without reading the others and segments
    merge without decoding an entry."""

    def __init__(self) -> None:
        self.segments: dict[int, bytes] = {}
        """Archive segments by key, oldest first (the chain of snapshots)."""
        self.weights: dict[int, int] = {}
        """How many records (tickets and games) each segment holds."""
        self.tickets: dict[int, int] = {}
        """Archived ticket number -> the segment holding it."""
        self.days: dict[date, tuple[int, int]] = {}
        """Archived gaming day -> the segment holding its games, and how many games it had."""
        self.tags: dict[str, dict[int, int]] = {}
        """Report -> the archived tickets it lists -> the segment that listed each there (a
        ticket archived again since, or open, is listed by its newer copy, or open)."""
        self.segment_tags: dict[int, dict[int, str]] = {}
        """Segment -> its tickets that a report lists -> that report."""
        self._cache: tuple[int, dict[int | date, bytes]] | None = None

    def add(self, key: int, blob: bytes, listing: Listing) -> None:
        """Hold an archive segment ``key`` (as stored) with what it holds (:func:`listed`)."""
        tickets, days, tags = listing
        self.segments[key] = blob
        self.weights[key] = len(tickets) + sum(days.values())
        self.tickets.update(dict.fromkeys(tickets, key))
        self.days.update({d: (key, n) for d, n in days.items()})
        mine = self.segment_tags[key] = {}
        for tag, numbers in tags.items():
            self.tags.setdefault(tag, {}).update(dict.fromkeys(numbers, key))
            mine.update(dict.fromkeys(numbers, tag))

    def listed(self, tag: str) -> list[int]:
        """The archived tickets that report ``tag`` lists (their archived copy, not an open or
        superseded one), by segment and number, so each segment is decoded once."""
        numbers = self.tags.get(tag, {})
        for n in [n for n, key in numbers.items() if self.tickets.get(n) != key]:
            del numbers[n]  # open again, or archived since under its newer copy's report
        return sorted(numbers, key=lambda n: (numbers[n], n))

    def entry(self, key: int, name: int | date) -> bytes:
        """The pickled entry ``name`` of segment ``key`` (one segment kept decoded)."""
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, _load(self.segments[key]))
        return self._cache[1][name]

    def append(
        self, key: int, tickets: dict[int, bytes], days: dict[date, tuple[bytes, int]],
        tags: Mapping[int, str] = {}, most: int = SEGMENT,
    ) -> tuple[bytes, Listing, int | None]:  # fmt: skip
        """A new segment ``key`` of the entries given (``tags``: the report that lists each
        ticket, if one does), with the last segments while each holds no more than what it joins
        and the whole at most ``most`` records (so the chain stays short and each entry is
        rewritten a few times at most); its blob, listing, and the key of the segment before
        it."""
        entries: dict[int | date, bytes] = {d: b for d, (b, _) in days.items()}
        for n, data in tickets.items():
            entries[n] = data
        tagged = {n: t for n, t in tags.items() if t and n in tickets}
        sizes = {d: n for d, (_, n) in days.items()}
        weight = len(tickets) + sum(sizes.values())
        while self.segments:
            last = next(reversed(self.segments))
            count = self.weights[last]
            if count > max(weight, 1) or count + weight > most:
                break
            old = self._cache[1] if self._cache and self._cache[0] == last else _load(self.segments[last])  # fmt: skip
            del self.segments[last], self.weights[last]
            was = self.segment_tags.pop(last, {})
            self._cache = None
            kept: dict[int | date, bytes] = {}
            for name, data in old.items():
                if isinstance(name, date):
                    if self.days.get(name, (None, 0))[0] == last:
                        kept[name] = data
                        sizes.setdefault(name, self.days[name][1])
                elif self.tickets.get(name) == last:
                    kept[name] = data
                    if name in was and name not in entries:
                        tagged.setdefault(name, was[name])
            entries = kept | entries
            weight = sum(1 for n in entries if not isinstance(n, date)) + sum(sizes.values())
        blob = _dump(entries)
        lists: dict[str, list[int]] = {}
        for n in sorted(tagged):
            lists.setdefault(tagged[n], []).append(n)
        listing: Listing = (
            [n for n in entries if not isinstance(n, date)],
            {d: sizes[d] for d in sorted(n for n in entries if isinstance(n, date))},
            dict(sorted(lists.items())),
        )
        base = next(reversed(self.segments), None)
        self.add(key, blob, listing)
        return blob, listing, base


def pack(
    tickets: Mapping[int, TicketState],
    days: Mapping[date, tuple[Mapping[int, GameRecord], datetime | None]] = {},
) -> tuple[bytes, str]:
    """An archive segment of ``tickets`` and ``days`` (a past gaming day: its games by number and
    when it ended) built on nothing, and its listing as stored (``archived``)."""
    blob, listing, _ = Archive().append(
        0, {n: _pickle(t) for n, t in tickets.items()},
        {d: (_pickle((dict(g), end)), len(g)) for d, (g, end) in days.items()},
    )  # fmt: skip
    return blob, listing_json(listing)


def settled(state: TicketState) -> bool:
    """Whether a ticket can no longer change and no report lists it: not void (a void stays on
    its station's list), every game drawn or cancelled, and paid in full or owed nothing."""
    return (
        not state.voided
        and state.games_done
        and (state.paid or 0) >= state.owed
        and state.expired_year is None
    )


def kept_apart(system: KenoSystem, state: TicketState, cut: date | None) -> str | None:
    """Where a ticket goes at a snapshot whose open days start at ``cut``: None if it stays
    open, else the report that lists it in the archive ("" for none,
    :meth:`KenoSystem.kept_under`).  A ticket with a game to play stays open; a settled one, or
    one totalled by 15.6(d) (it can no longer be paid), is kept apart; a void or an unpaid
    winner is once its gaming day is past (its day's voids no longer change, 15.4(e); it may
    still be paid until its claim expires, 15.6(c), so it is looked up by number then)."""
    if not state.voided and not state.games_done:
        return None
    if settled(state):
        return ""
    if state.expired_year is None and (cut is None or state.record.day >= cut):
        return None
    return system.kept_under(state)


class TicketBook(dict[int, TicketState]):
    """A system's tickets: the open ones in the dict itself, the settled ones in the
    :class:`Archive` and decoded when looked up by number (and then open again until the next
    snapshot archives them).  ``len``, ``in``, ``[]`` and ``get`` cover every ticket; iterating
    (``values``, ``items``) covers the open ones, which are all the system iterates (see
    :func:`settled`); :meth:`everything` decodes the lot."""

    def __init__(self, open_tickets: Mapping[int, TicketState] = {},
                 archive: Archive | None = None) -> None:  # fmt: skip
        super().__init__(open_tickets)
        self.archive = Archive() if archive is None else archive

    def settle(
        self, where: Callable[[TicketState], str | None]
    ) -> tuple[dict[int, bytes], dict[int, str]]:
        """Take the open tickets that ``where`` sends to the archive (:func:`kept_apart`) out
        of the open ones: each pickled, and the report that lists it, by number."""
        tags: dict[int, str] = {}
        done: dict[int, bytes] = {}
        for n, state in super().items():
            tag = where(state)
            if tag is not None:
                done[n] = _pickle(state)
                if tag:
                    tags[n] = tag
        for n in done:
            dict.__delitem__(self, n)
        return done, tags

    def listed(self, tag: str) -> list[TicketState]:
        """The archived tickets that report ``tag`` lists, decoded (open again)."""
        return [self[n] for n in self.archive.listed(tag)]

    def _open(self, number: int) -> TicketState | None:
        key = self.archive.tickets.get(number)
        if key is None:
            return None
        state = _ticket(self.archive.entry(key, number))
        del self.archive.tickets[number]
        dict.__setitem__(self, number, state)
        return state

    def __getitem__(self, number: int) -> TicketState:
        if dict.__contains__(self, number):
            return dict.__getitem__(self, number)
        state = self._open(number)
        if state is None:
            raise KeyError(number)
        return state

    def get(self, number: int, default: Any = None) -> Any:
        """The ticket ``number`` (decoded from the archive if need be), or ``default``."""
        try:
            return self[number]
        except (KeyError, TypeError):
            return default

    def __contains__(self, number: object) -> bool:
        return dict.__contains__(self, number) or number in self.archive.tickets

    def __len__(self) -> int:
        return dict.__len__(self) + len(self.archive.tickets)

    def opened(self) -> dict[int, TicketState]:
        """The open tickets (held decoded) by number."""
        return dict(super().items())

    def everything(self) -> dict[int, TicketState]:
        """Every ticket, archived ones decoded, by number (for checks; slow with many)."""
        out = self.opened()
        for n, key in self.archive.tickets.items():
            out[n] = _ticket(self.archive.entry(key, n))
        return dict(sorted(out.items()))


DAYS_DECODED: Final = 8
"""How many archived gaming days a :class:`GameBook` keeps decoded (the last looked up)."""


class GameBook(dict[tuple[date, int], GameRecord]):
    """A system's games: the open ones (of the days not archived yet, which include the last
    game drawn) in the dict itself, each past gaming day's in the :class:`Archive`, stored once
    and decoded when a game of that day is looked up.  ``len``, ``in``, ``[]`` and ``get`` cover
    every game; iterating covers the open ones, which are all the system iterates (the board's
    last game drawn: see :meth:`settle`); :meth:`day` and :meth:`everything` decode."""

    def __init__(self, open_games: Mapping[tuple[date, int], GameRecord] = {},
                 archive: Archive | None = None) -> None:  # fmt: skip
        super().__init__(open_games)
        self.archive = Archive() if archive is None else archive
        self._decoded: dict[date, tuple[dict[int, GameRecord], datetime | None]] = {}

    def cut(self, day: date | None) -> date | None:
        """The first gaming day kept open: ``day`` (the current one), or the day of the last
        game drawn if earlier (so the board's game stays open); None while there is neither."""
        drawn = next((k[0] for k, g in reversed(super().items()) if g.numbers), None)
        return None if day is None or drawn is None else min(day, drawn)

    def settle(self, cut: date | None, ends: dict[date, datetime]) -> dict[date, tuple[bytes, int]]:  # fmt: skip
        """Take every open day before ``cut`` (:meth:`cut`) out of the open games and day
        ends ``ends``: each day's games and end pickled, with its count of games."""
        if cut is None:
            return {}
        past: dict[date, dict[int, GameRecord]] = {d: {} for d in dict.keys(ends) if d < cut}
        for (d, n), g in super().items():
            if d < cut:
                past.setdefault(d, {})[n] = g
        out: dict[date, tuple[bytes, int]] = {}
        for d, games in sorted(past.items()):
            for n in games:
                dict.__delitem__(self, (d, n))
            end = dict.pop(ends, d, None)
            out[d] = (_pickle((games, end)), len(games))
        return out

    def archived(self, day: date) -> tuple[dict[int, GameRecord], datetime | None] | None:
        """An archived day's games by number and its end, decoded (None if not archived)."""
        entry = self._decoded.pop(day, None)
        if entry is None:
            where = self.archive.days.get(day)
            if where is None:
                return None
            entry = _Reader(io.BytesIO(self.archive.entry(where[0], day))).load()
            if (
                not isinstance(entry, tuple)
                or not isinstance(entry[0], dict)
                or not all(isinstance(g, GameRecord) for g in entry[0].values())
            ):
                raise FeltError("a keno snapshot's archive holds something other than a day's games")  # fmt: skip
            while len(self._decoded) >= DAYS_DECODED:
                del self._decoded[next(iter(self._decoded))]
        self._decoded[day] = entry
        return entry

    def __getitem__(self, key: tuple[date, int]) -> GameRecord:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        entry = self.archived(key[0]) if isinstance(key, tuple) and len(key) == 2 else None
        if entry is None or key[1] not in entry[0]:
            raise KeyError(key)
        return entry[0][key[1]]

    def get(self, key: tuple[date, int], default: Any = None) -> Any:
        """The game ``key`` (decoded from the archive if need be), or ``default``."""
        try:
            return self[key]
        except (KeyError, TypeError):
            return default

    def __contains__(self, key: object) -> bool:
        return self.get(key) is not None  # type: ignore[arg-type]

    def __len__(self) -> int:
        return dict.__len__(self) + sum(n for _, n in self.archive.days.values())

    def opened(self) -> dict[tuple[date, int], GameRecord]:
        """The open games (held decoded) by (day, number)."""
        return dict(super().items())

    def day(self, day: date) -> list[GameRecord]:
        """The games of one gaming day, in order (decoded from the archive if need be)."""
        entry = self.archived(day)
        if entry is not None:
            return [entry[0][n] for n in sorted(entry[0])]
        return [g for (d, _), g in super().items() if d == day]

    def everything(self) -> dict[tuple[date, int], GameRecord]:
        """Every game, archived days decoded, by (day, number) (for checks; slow with many)."""
        out: dict[tuple[date, int], GameRecord] = {}
        for d in sorted(self.archive.days):
            out.update({(d, g.number): g for g in self.day(d)})
        return out | self.opened()


class DayEnds(dict[date, datetime]):
    """When each past gaming day ended: the open ones in the dict itself, the archived days'
    read with their games from the :class:`GameBook` ``games``.  ``len``, ``in``, ``[]`` and
    ``get`` cover every day; iterating covers the open ones (the system only looks days up)."""

    def __init__(self, open_ends: Mapping[date, datetime], games: GameBook) -> None:
        super().__init__(open_ends)
        self.games = games

    def __getitem__(self, day: date) -> datetime:
        if dict.__contains__(self, day):
            return dict.__getitem__(self, day)
        entry = self.games.archived(day) if isinstance(day, date) else None
        if entry is None or entry[1] is None:
            raise KeyError(day)
        return entry[1]

    def get(self, day: date, default: Any = None) -> Any:
        """When gaming day ``day`` ended (read from the archive if need be), or ``default``."""
        try:
            return self[day]
        except (KeyError, TypeError):
            return default

    def __contains__(self, day: object) -> bool:
        return self.get(day) is not None  # type: ignore[arg-type]

    def __len__(self) -> int:
        return dict.__len__(self) + len(self.games.archive.days)

    def everything(self) -> dict[date, datetime]:
        """Every day's end, archived ones decoded (for checks)."""
        out = {d: self[d] for d in self.games.archive.days if d in self}
        return dict(sorted((out | dict(self.items())).items()))


def books(system: KenoSystem) -> tuple[TicketBook, GameBook]:
    """The system's tickets and games as books sharing one archive (made so if they are not)."""
    t, g = system.tickets, system.games
    archive = t.archive if isinstance(t, TicketBook) else g.archive if isinstance(g, GameBook) else Archive()  # fmt: skip
    if not isinstance(t, TicketBook):
        t = system.tickets = TicketBook(t, archive)
    if not isinstance(g, GameBook):
        g = system.games = GameBook(g, archive)
    if t.archive is not g.archive:
        raise FeltError("a keno system's tickets and games are archived apart")
    if not isinstance(system.day_ends, DayEnds):
        system.day_ends = DayEnds(system.day_ends, g)
    return t, g


def all_games(system: KenoSystem) -> dict[tuple[date, int], GameRecord]:
    """Every game of a system, whether its games are a plain dict or a :class:`GameBook`."""
    g = system.games
    return g.everything() if isinstance(g, GameBook) else dict(sorted(g.items()))


def _ends(system: KenoSystem) -> dict[date, datetime]:
    e = system.day_ends
    return e.everything() if isinstance(e, DayEnds) else dict(sorted(e.items()))


def all_tickets(system: KenoSystem) -> dict[int, TicketState]:
    """Every ticket of a system, whether its tickets are a plain dict or a :class:`TicketBook`."""
    t = system.tickets
    return t.everything() if isinstance(t, TicketBook) else dict(sorted(t.items()))


def balances(ledger: Ledger) -> dict[str, int]:
    """Each party's net balance (zero ones left out)."""
    net: dict[str, int] = {}
    for t in ledger.transfers:
        net[t.source] = net.get(t.source, 0) - t.amount
        net[t.target] = net.get(t.target, 0) + t.amount
    return {p: v for p, v in sorted(net.items()) if v}


def brought_forward(net: Mapping[str, int]) -> Ledger:
    """A ledger whose balances are ``net`` (summing to zero): debtors pay creditors in turn."""
    if sum(net.values()) != 0:
        raise FeltError("a keno snapshot's balances do not sum to zero")
    debtors = [(p, -v) for p, v in sorted(net.items()) if v < 0]
    creditors = [(p, v) for p, v in sorted(net.items()) if v > 0]
    out = Ledger()
    i = j = 0
    owe, due = (debtors[0][1], creditors[0][1]) if debtors else (0, 0)
    while i < len(debtors) and j < len(creditors):
        amount = min(owe, due)
        out.transfers.append(Transfer(debtors[i][0], creditors[j][0], amount, BROUGHT_FORWARD))
        owe, due = owe - amount, due - amount
        if owe == 0 and (i := i + 1) < len(debtors):
            owe = debtors[i][1]
        if due == 0 and (j := j + 1) < len(creditors):
            due = creditors[j][1]
    return out


@dataclass(frozen=True)
class Snapshot:
    """A snapshot as stored: the state (and its digest), the archive segment of the tickets
    settled since the snapshot ``base`` it builds on (and its digest)."""

    base: int | None
    schema: str
    state: bytes
    digest: str
    archived: str
    archive: bytes
    archive_digest: str


def take(system: KenoSystem, key: int, extra: Mapping[str, Any] | None = None) -> Snapshot:
    """Archive the system's tickets kept apart (:func:`kept_apart`) and its past gaming days'
    games into segment ``key`` and snapshot the rest; the system's ledger is reduced to its
    balances brought forward (its movements are on record).  ``extra``: what the caller keeps
    beside the system (picklable the same way)."""
    tickets, games = books(system)
    cut = games.cut(system.day)
    # the tickets first: an unpaid winner's report is the year its claim expires, read from
    # its day's games, which are still open
    done, tags = tickets.settle(lambda state: kept_apart(system, state, cut))
    past = games.settle(cut, system.day_ends)
    blob, listing, base = tickets.archive.append(key, done, past, tags)
    net = balances(system.ledger)
    system.ledger = brought_forward(net)
    carried = {f.name: getattr(system, f.name) for f in fields(system) if f.compare and f.name not in SKIPPED}  # fmt: skip
    state = _dump({
        "config": config_print(system.config),
        "fields": carried,
        "tickets": tickets.opened(),
        "games": games.opened(),
        "day_ends": dict(system.day_ends.items()),
        "balances": net,
        "extra": dict(extra or {}),
    })  # fmt: skip
    archived = listing_json(listing)
    return Snapshot(base, SCHEMA, state, digest(SCHEMA.encode(), state), archived, blob,
                    digest(archived.encode(), blob))  # fmt: skip


def segment_ok(archived: str, archive: bytes, stored: str) -> str | None:
    """None if an archive segment matches its digest, else the reason it is refused."""
    if digest(archived.encode(), archive) != stored:
        return "its archive of settled tickets and past days does not match its digest"
    return None


def restore(
    config: SystemConfig,
    schema: str,
    state: bytes,
    stored_digest: str,
    segments: Iterable[tuple[int, str, bytes]],
) -> tuple[KenoSystem, dict[str, Any]]:
    """The system a snapshot holds (with the archive ``segments`` of its chain, oldest first, as
    ``(key, archived, archive)``), and the caller's ``extra``; refused (:class:`FeltError`, the
    reason) if its digest, schema or configuration do not match."""
    if digest(schema.encode(), state) != stored_digest:
        raise FeltError("its state does not match its digest")
    if schema != SCHEMA:
        raise FeltError("it was written by a system of another shape (schema)")
    try:
        data = _load(state)
    except Exception as err:  # a blob that passed the digest yet does not read
        raise FeltError(f"its state does not read ({type(err).__name__})") from None
    if data["config"] != config_print(config):
        raise FeltError("it was taken under another configuration of the system")
    system = KenoSystem(config)
    for name, value in data["fields"].items():
        setattr(system, name, value)
    archive = Archive()
    for key, archived, blob in segments:
        try:
            listing = listed(archived)
        except (ValueError, KeyError, TypeError, AttributeError):
            raise FeltError(f"the listing of its archive segment {key} does not read") from None
        archive.add(key, blob, listing)
    book = TicketBook(data["tickets"], archive)
    for n in book.opened():
        archive.tickets.pop(n, None)  # reopened after it was archived: the open copy is the one
    system.tickets = book
    system.games = GameBook(data["games"], archive)
    system.day_ends = DayEnds(data["day_ends"], system.games)
    system.ledger = brought_forward(data["balances"])
    return system, dict(data["extra"])


def same_state(a: KenoSystem, b: KenoSystem) -> list[str]:
    """What differs between two systems' states (empty if none): every ``compare`` field but the
    events, the tickets and games (all of them, archived ones decoded) and the ledger's
    balances."""
    out = [
        f.name
        for f in fields(a)
        if f.compare and f.name not in ("events", "tickets", "games", "day_ends", "ledger")
        and getattr(a, f.name) != getattr(b, f.name)
    ]  # fmt: skip
    if all_tickets(a) != all_tickets(b):
        out.append("tickets")
    if all_games(a) != all_games(b):
        out.append("games")
    if _ends(a) != _ends(b):
        out.append("day_ends")
    if balances(a.ledger) != balances(b.ledger):
        out.append("ledger")
    return out


__all__ = [
    "SCHEMA",
    "Archive",
    "DayEnds",
    "GameBook",
    "Snapshot",
    "TicketBook",
    "all_games",
    "all_tickets",
    "balances",
    "books",
    "brought_forward",
    "digest",
    "kept_apart",
    "pack",
    "restore",
    "same_state",
    "schema",
    "segment_ok",
    "settled",
    "take",
]
