"""Snapshots of a keno system's state, so a restart replays only the actions after the last one
instead of every action since the beginning (what 19:47-15.5(h) keeps is the record; a snapshot is
only a faster way to rebuild from it, and is checked before it is trusted).

A snapshot is taken after a draw.  It has two parts:

* the **state**: every field of :class:`~felt.games.keno.system.KenoSystem` that defines it
  (``compare`` fields), taken generically from the dataclass, so a field added to the system is
  carried without a change here; except the configuration (it comes from the system's spec and
  is checked by fingerprint), the events (they are the record, already stored), the tickets that
  are **settled**, and the ledger's movements (carried as the balances brought forward);
* the **archive**: the tickets settled since the snapshot before, stored once each.  A settled
  ticket (not void, every game drawn or cancelled, paid in full or nothing owed) can no longer
  change and is never in a list the system iterates (the draw, the day's end, the voids of a day,
  the year's unclaimed winnings): it is kept compressed and decoded only when looked up by
  number, so a start with a year of tickets does not decode a year of tickets.

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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from felt.core.errors import FeltError
from felt.games.keno import system as core
from felt.games.keno import tickets as ticket_module
from felt.games.keno.system import KenoSystem, SystemConfig, TicketState
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
SKIPPED: Final = ("config", "events", "tickets", "ledger")
"""Fields of the system not carried generically in the state (see the module docstring)."""
SEGMENT: Final = 8192
"""The most tickets one archive segment gathers by merging the ones before it."""
BROUGHT_FORWARD: Final = "balance brought forward"
"""The reason of the ledger movements that restore the balances of a snapshot."""


def _schema() -> str:
    shape = sorted((f"{m}.{q}", [f.name for f in fields(cls)]) for (m, q), cls in _CLASSES.items())
    return hashlib.sha256(json.dumps(shape).encode()).hexdigest()


SCHEMA: Final = _schema()
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


def _ticket(data: bytes) -> TicketState:
    state = _Reader(io.BytesIO(data)).load()
    if not isinstance(state, TicketState):
        raise FeltError("a keno snapshot's archive holds something other than a ticket")
    return state


def pack(tickets: Mapping[int, TicketState]) -> bytes:
    """An archive segment: each ticket pickled on its own (so one is read without reading the
    others, and segments merge without decoding a ticket), the whole compressed."""
    return _dump({n: pickle.dumps(t, protocol=pickle.HIGHEST_PROTOCOL) for n, t in tickets.items()})


def settled(state: TicketState) -> bool:
    """Whether a ticket can no longer change: not void (a void stays on its station's list),
    every game drawn or cancelled, and paid in full or owed nothing."""
    return (
        not state.voided
        and state.games_done
        and (state.paid or 0) >= state.owed
        and state.expired_year is None
    )


class TicketBook(dict[int, TicketState]):
    """A system's tickets: the open ones in the dict itself, the settled ones archived (kept
    compressed, per segment) and decoded when looked up by number (and then open again until
    the next snapshot archives them).  ``len``, ``in``, ``[]`` and ``get`` cover every ticket;
    iterating (``values``, ``items``) covers the open ones, which are all the system iterates
    (see :func:`settled`); :meth:`everything` decodes the lot."""

    def __init__(self, open_tickets: Mapping[int, TicketState] = {}) -> None:
        super().__init__(open_tickets)
        self.segments: dict[int, bytes] = {}
        """Archive segments by key, oldest first (the chain of snapshots)."""
        self.counts: dict[int, int] = {}
        self.index: dict[int, int] = {}
        """Archived ticket number -> the segment holding it."""
        self._cache: tuple[int, dict[int, bytes]] | None = None

    def add_segment(self, key: int, blob: bytes, numbers: list[int]) -> None:
        """Hold an archive segment (as stored) holding the tickets ``numbers``."""
        self.segments[key] = blob
        self.counts[key] = len(numbers)
        self.index.update(dict.fromkeys(numbers, key))

    def archive(self, key: int, most: int = SEGMENT) -> tuple[bytes, list[int], int | None]:
        """Move every settled open ticket into a new segment ``key``, with the last segments
        while each is no larger than what it joins and the whole at most ``most`` tickets (so
        the chain stays short and each ticket is rewritten a few times at most); the new
        segment's blob and numbers, and the key of the segment before it."""
        done = {n: s for n, s in super().items() if settled(s)}
        for n in done:
            dict.__delitem__(self, n)
        merged = {n: pickle.dumps(t, protocol=pickle.HIGHEST_PROTOCOL) for n, t in done.items()}
        while self.segments:
            last = next(reversed(self.segments))
            count = self.counts[last]
            if count > max(len(merged), 1) or count + len(merged) > most:
                break
            old = self._segment(last)
            del self.segments[last], self.counts[last]
            self._cache = None
            merged = {n: t for n, t in old.items() if self.index.get(n) == last} | merged
        blob = _dump(merged)
        base = next(reversed(self.segments), None)
        self.add_segment(key, blob, list(merged))
        return blob, list(merged), base

    def _segment(self, key: int) -> dict[int, bytes]:
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, _load(self.segments[key]))
        return self._cache[1]

    def _open(self, number: int) -> TicketState | None:
        key = self.index.get(number)
        if key is None:
            return None
        state = _ticket(self._segment(key)[number])
        del self.index[number]
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
        return dict.__contains__(self, number) or number in self.index

    def __len__(self) -> int:
        return dict.__len__(self) + len(self.index)

    def opened(self) -> dict[int, TicketState]:
        """The open tickets (held decoded) by number."""
        return dict(super().items())

    def everything(self) -> dict[int, TicketState]:
        """Every ticket, archived ones decoded, by number (for checks; slow with many)."""
        out = self.opened()
        for key, blob in self.segments.items():
            for n, data in _load(blob).items():
                if self.index.get(n) == key:
                    out[n] = _ticket(data)
        return dict(sorted(out.items()))


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
    """Archive the system's settled tickets into segment ``key`` and snapshot the rest; the
    system's ledger is reduced to its balances brought forward (its movements are on record).
    ``extra``: what the caller keeps beside the system (picklable the same way)."""
    if not isinstance(system.tickets, TicketBook):
        system.tickets = TicketBook(system.tickets)
    blob, numbers, base = system.tickets.archive(key)
    net = balances(system.ledger)
    system.ledger = brought_forward(net)
    carried = {f.name: getattr(system, f.name) for f in fields(system) if f.compare and f.name not in SKIPPED}  # fmt: skip
    state = _dump({
        "config": config_print(system.config),
        "fields": carried,
        "tickets": system.tickets.opened(),
        "balances": net,
        "extra": dict(extra or {}),
    })  # fmt: skip
    archived = json.dumps(numbers, separators=(",", ":"))
    return Snapshot(base, SCHEMA, state, digest(SCHEMA.encode(), state), archived, blob,
                    digest(archived.encode(), blob))  # fmt: skip


def segment_ok(archived: str, archive: bytes, stored: str) -> str | None:
    """None if an archive segment matches its digest, else the reason it is refused."""
    if digest(archived.encode(), archive) != stored:
        return "its archive of settled tickets does not match its digest"
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
    book = TicketBook(data["tickets"])
    for key, archived, archive in segments:
        book.add_segment(key, archive, json.loads(archived))
    for n in book.opened():
        book.index.pop(n, None)  # reopened after it was archived: the open copy is the one
    system.tickets = book
    system.ledger = brought_forward(data["balances"])
    return system, dict(data["extra"])


def same_state(a: KenoSystem, b: KenoSystem) -> list[str]:
    """What differs between two systems' states (empty if none): every ``compare`` field but the
    events, the tickets (all of them, archived ones decoded) and the ledger's balances."""
    out = [
        f.name
        for f in fields(a)
        if f.compare and f.name not in ("events", "tickets", "ledger")
        and getattr(a, f.name) != getattr(b, f.name)
    ]  # fmt: skip
    if all_tickets(a) != all_tickets(b):
        out.append("tickets")
    if balances(a.ledger) != balances(b.ledger):
        out.append("ledger")
    return out


__all__ = [
    "SCHEMA",
    "Snapshot",
    "TicketBook",
    "all_tickets",
    "balances",
    "brought_forward",
    "digest",
    "pack",
    "restore",
    "same_state",
    "segment_ok",
    "settled",
    "take",
]
