"""The poker room's waiting lists on the server's record (N.J.A.C. 19:47-14.18), durable.

Two tables (declared by :func:`declare_tables` on the server's metadata): ``poker_waiting``, each
list's players in order, and ``poker_waitlist_changes``, every change with who made it, when and
why.  A change loads its one list into the pure :class:`~felt.games.poker.waitlist.WaitingLists`
(where the rules live), applies the rule there, and writes the list and the change row back in
one transaction, so a refusal writes nothing and an accepted change survives a restart.  Replies
are built from the requester's view: the floor (supervisor; a dealer may read) reads every list, a
player's reply is read from their own rows and counts only (no other name is ever loaded).

Importable while :mod:`felt.server.store` loads (it declares these tables then): the server's
modules are imported inside the functions that need them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    select,
    text,
)
from sqlalchemy.exc import IntegrityError

from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.games.poker.config import ALLOWED_LIMITS, VARIANTS
from felt.games.poker.waitlist import Entry, NoShow, WaitingLists

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from felt.server.auth import Account
    from felt.server.store import Store

NAMES: Final = ("poker_waiting", "poker_waitlist_changes")
"""The tables, in the order declared."""
FLOOR: Final = ("supervisor",)
"""Who changes the lists for anyone: the floorperson (the server's supervisor)."""
READERS: Final = ("supervisor", "dealer")
"""Who sees every list with the players' names (a dealer may read, not change)."""
PLAYER: Final = "player"
MAX_REASON: Final = 200
MAX_WHERE: Final = 64
MAX_CHANGES: Final = 500
CHANGES: Final = ("join", "leave", "remove", "call", "seat", "no_show", "move_down")
"""Every kind of change the record holds."""
_GAME = re.compile(r"\s*([a-z0-9]+)\s+([0-9.]+)\s*/\s*([0-9.]+)\s+([a-z]+)\s*")


def declare_tables(metadata: MetaData) -> None:
    """Declare the waiting lists' tables on ``metadata`` (the server's)."""
    Table(
        "poker_waiting",
        metadata,
        Column("list_key", String(64), primary_key=True),
        Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
        Column("place", Integer, nullable=False),
        Column("joined", Float, nullable=False),
        Column("called_at", Float, nullable=True),
        Column("arrive_by", Float, nullable=True),
        Column("called_to", String(MAX_WHERE), nullable=True),
        Index("poker_waiting_account", "account_id"),
    )
    # One row per player waiting on a list (14.18): ``list_key`` the game and limit as a poker
    # table posts it ("holdem 2.00/4.00 fixed"), ``place`` 1, 2, ... (first come first served),
    # when they joined and, once called to a seat (``called_to``, the floor's words for where),
    # when and by when they must arrive.  Rewritten whole, per list, by each change.

    Table(
        "poker_waitlist_changes",
        metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("list_key", String(64), nullable=False),
        Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
        Column("change", String(16), nullable=False),
        Column("place", Integer, nullable=True),
        Column("reason", Text, nullable=False),
        Column("by_id", Integer, ForeignKey("accounts.id"), nullable=False),
        Column("at", Float, nullable=False),
        Column("request_key", String(64), nullable=True),
        Index("poker_waitlist_changes_list", "list_key", "id"),
        Index("poker_waitlist_changes_key", "by_id", "request_key", unique=True),
    )
    # Every change of a waiting list (:data:`CHANGES`), written in its own transaction: the
    # player, their place after it (null once off the list), the reason (the floor's words, or
    # what the rule did), who made it and when; ``request_key`` the key the request carried, so
    # a request sent again (its answer lost) is answered from this row, not made twice.


def list_key(value: object) -> str:
    """A list's key, the game and limit as a poker table posts them (``PokerConfig.limits_text``):
    ``"holdem 2/4 fixed"`` is ``"holdem 2.00/4.00 fixed"``, so one game has one list."""
    allowed = (
        "a game and limit such as 'holdem 2.00/4.00 fixed': variant "
        f"({', '.join(VARIANTS)}), two amounts in dollars, limit (fixed, pot, no; stud7: fixed)"
    )
    m = _GAME.fullmatch(value) if isinstance(value, str) and len(value) <= 64 else None
    if m is None:
        raise FeltError(f"game must be {allowed}; got {excerpt(value)}")
    variant, low, high, limit = m.groups()
    if variant not in VARIANTS or limit not in ALLOWED_LIMITS[variant]:
        raise FeltError(f"game must be {allowed}; got {excerpt(value)}")
    small, big = cents(low, "the game's small amount"), cents(high, "the game's large amount")
    if not 0 < small <= big:
        raise FeltError(
            f"game: the first amount must be more than 0 and at most the second, got {excerpt(value)}"
        )
    return f"{variant} {dollars(small)}/{dollars(big)} {limit}"


def _words(value: object, what: str, limit: int, required: bool) -> str:
    """Free text the floor writes (a reason, where a seat is): stripped, at most ``limit``
    characters, printable."""
    if value is None and not required:
        return ""
    if not isinstance(value, str) or len(value) > limit or not value.isprintable():
        raise FeltError(f"{what} must be text of at most {limit} printable characters, "
                        f"got {excerpt(value)}")  # fmt: skip
    value = value.strip()
    if required and not value:
        raise FeltError(f"{what} is required: say why, in a few words")
    return value


def _request_key(value: object) -> str | None:
    """A request's key (the client's, one per intended change), or None."""
    if value is None:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= 64 or not value.isprintable():
        raise FeltError(f"key must be text of 1 to 64 printable characters, got {excerpt(value)}")
    return value


def _conflict(message: str) -> FeltError:
    """A 409: the request's key was used for another change."""
    from felt.server.store import Conflict

    return Conflict(message)


@dataclass(frozen=True)
class WaitlistSettings:
    """The room's settings for its lists (14.18 is silent on both; see the interpretations):
    how long a called player has to arrive, and what a no-show gets."""

    arrive_seconds: float = 180
    no_show: NoShow = "remove"


@dataclass(frozen=True)
class _Row:
    """One stored place: the pure entry, the account behind it and where it was called to."""

    entry: Entry
    account_id: int
    called_to: str | None


class WaitlistStore:
    """The room's waiting lists on ``store``: each method checks the caller's role, then reads
    or changes the record (a change in one transaction, refused whole)."""

    def __init__(
        self,
        store: Store,
        settings: WaitlistSettings | None = None,
        clock: Callable[[], float] = time.time,
        games: Callable[[], Iterable[str]] = tuple,
    ) -> None:
        from felt.server import store as server_store

        if "poker_waiting" not in server_store.metadata.tables:
            declare_tables(server_store.metadata)  # the game not registered (yet): declare here
        self.store = store
        self.settings = settings or WaitlistSettings()
        WaitingLists(self.settings.arrive_seconds, self.settings.no_show)  # checks the settings
        self.clock = clock
        self.room_games = games
        self.accounts = server_store.accounts
        self.waiting = server_store.metadata.tables["poker_waiting"]
        self.changes_table = server_store.metadata.tables["poker_waitlist_changes"]

    # ----------------------------------------------------------------- who may
    @staticmethod
    def _require(who: Account, roles: Iterable[str], what: str) -> None:
        from felt.server.auth import Forbidden

        roles = tuple(roles)
        if who.role not in roles:
            raise Forbidden(f"only a {' or '.join(roles)} may {what}; you are a {who.role}")

    def _player_id(self, conn: Connection, name: object) -> tuple[int, str]:
        """The account of the player ``name`` (an open account of the player role)."""
        from felt.server.auth import NoAccount

        if not isinstance(name, str) or not name or len(name) > 64:
            raise FeltError(f"player must be a player's account name, got {excerpt(name)}")
        row = conn.execute(
            select(self.accounts.c.id, self.accounts.c.role, self.accounts.c.retired_at).where(
                self.accounts.c.name == name
            )
        ).first()
        if row is None or row.retired_at is not None:
            raise NoAccount(f"no open account named {excerpt(name)}")
        if row.role != PLAYER:
            raise FeltError(f"only players wait for a seat; {name} is a {row.role}")
        return int(row.id), name

    # ----------------------------------------------------------------- reading
    def games(self, conn: Connection) -> list[str]:
        """The lists a player may join: the games the room's poker tables post, and every list
        someone waits on (the floor may open a list for any game and limit)."""
        listed = conn.execute(select(self.waiting.c.list_key).distinct()).scalars()
        return sorted({*map(list_key, self.room_games()), *listed})

    def _load(self, conn: Connection, key: str) -> list[_Row]:
        w, a = self.waiting, self.accounts
        rows = conn.execute(
            select(w, a.c.name)
            .join(a, a.c.id == w.c.account_id)
            .where(w.c.list_key == key)
            .order_by(w.c.place)
        ).all()
        return [
            _Row(Entry(r.name, r.joined, r.called_at, r.arrive_by), int(r.account_id), r.called_to)
            for r in rows
        ]

    def view(self, who: Account) -> dict[str, Any]:
        """The caller's view: every list for the floor, one's own places for a player."""
        if who.role == PLAYER:
            return self.player_view(who)
        return self.floor_view(who)

    def floor_view(self, who: Account) -> dict[str, Any]:
        """Every list in order with each player's name, times and call (14.18), for the floor."""
        self._require(who, READERS, "see the waiting lists")
        now = self.clock()
        with self.store.engine.connect() as conn:
            keys = conn.execute(select(self.waiting.c.list_key).distinct()).scalars().all()
            lists = {key: self._load(conn, key) for key in sorted(keys)}
            games = self.games(conn)
        return {
            "now": now,
            "arrive_seconds": self.settings.arrive_seconds,
            "no_show": self.settings.no_show,
            "games": games,
            "lists": [
                {
                    "game": key,
                    "entries": [
                        {
                            "place": i,
                            "player": r.entry.name,
                            "joined": r.entry.joined,
                            "called_at": r.entry.called_at,
                            "arrive_by": r.entry.arrive_by,
                            "called_to": r.called_to,
                            "late": r.entry.arrive_by is not None and now > r.entry.arrive_by,
                        }
                        for i, r in enumerate(rows, 1)
                    ],
                }
                for key, rows in lists.items()
            ],
        }

    def player_view(self, who: Account) -> dict[str, Any]:
        """A player's own place on each list they are on, read from their own rows and the
        lists' lengths: no other player's name is read (14.18, each player their own place)."""
        self._require(who, (PLAYER,), "see their own places")
        w = self.waiting
        now = self.clock()
        with self.store.engine.connect() as conn:
            mine = conn.execute(
                select(w.c.list_key, w.c.place, w.c.called_at, w.c.arrive_by, w.c.called_to)
                .where(w.c.account_id == who.id)
                .order_by(w.c.list_key)
            ).all()
            sizes = {
                r.list_key: int(
                    conn.execute(
                        select(func.count()).select_from(w).where(w.c.list_key == r.list_key)
                    ).scalar_one()
                )
                for r in mine
            }
            games = self.games(conn)
        return {
            "now": now,
            "player": who.name,
            "games": games,
            "places": [
                {
                    "game": r.list_key,
                    "place": int(r.place),
                    "of": sizes[r.list_key],
                    "called": r.called_at is not None,
                    "arrive_by": r.arrive_by,
                    "called_to": r.called_to,
                }
                for r in mine
            ],
        }

    def changes(self, who: Account, game: str | None = None, limit: int = 100) -> dict[str, Any]:
        """The record of changes, newest first (of one list if ``game``), for the floor."""
        self._require(who, READERS, "read the waiting lists' record")
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_CHANGES:
            raise FeltError(
                f"limit must be a whole number from 1 to {MAX_CHANGES}, got {excerpt(limit)}"
            )
        c, player, by = self.changes_table, self.accounts.alias("player"), self.accounts.alias("by")
        query = (
            select(c, player.c.name.label("player"), by.c.name.label("by"))
            .join(player, player.c.id == c.c.account_id)
            .join(by, by.c.id == c.c.by_id)
            .order_by(c.c.id.desc())
            .limit(limit)
        )
        if game is not None:
            query = query.where(c.c.list_key == list_key(game))
        with self.store.engine.connect() as conn:
            rows = conn.execute(query).all()
        return {
            "changes": [
                {
                    "id": int(r.id),
                    "game": r.list_key,
                    "player": r.player,
                    "change": r.change,
                    "place": r.place,
                    "reason": r.reason,
                    "by": r.by,
                    "at": r.at,
                }
                for r in rows
            ]
        }

    # ----------------------------------------------------------------- changing
    def _change(
        self,
        who: Account,
        game: object,
        change: str,
        player: object,
        reason: str,
        rule: Callable[[WaitingLists, str, float], str],
        called_to: str | None = None,
        request: object = None,
    ) -> dict[str, Any]:
        """Load ``game``'s list, let ``rule(lists, key, now)`` change it in the pure lists (a
        refusal raises there and nothing is written), write the list back and the change row,
        in one transaction; ``rule`` returns the player concerned (``player`` is checked first
        when given).  A request whose ``request`` key this account used before is answered
        with that change, unmade again (the same change), or refused (another)."""
        key = list_key(game)
        request = _request_key(request)
        try:
            with self.store.transaction() as conn:
                if not self.store.is_sqlite:  # one writer per list at a time, across processes
                    conn.execute(
                        text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"),
                        {"k": f"felt/poker-waitlist/{key}"},
                    )
                if request is not None:
                    done = self._replayed(conn, who, request, change, key, player)
                    if done is not None:
                        return done
                now = self.clock()
                rows = self._load(conn, key)
                ids = {r.entry.name: r.account_id for r in rows}
                where = {r.entry.name: r.called_to for r in rows}
                if player is not None:
                    pid, name = self._player_id(conn, player)
                    ids[name] = pid
                lists = WaitingLists.restore(
                    {key: [r.entry for r in rows]}, self.settings.arrive_seconds,
                    self.settings.no_show,
                )  # fmt: skip
                name = rule(lists, key, now)
                if called_to is not None:
                    where[name] = called_to
                place = self._write(conn, key, lists.entries(key), ids, where, name)
                conn.execute(
                    insert(self.changes_table).values(
                        list_key=key, account_id=ids[name], change=change, place=place,
                        reason=reason, by_id=who.id, at=now, request_key=request,
                    )
                )  # fmt: skip
        except IntegrityError as err:  # the same key sent twice at once for two lists
            raise _conflict(f"the key {request!r} was just used for another change") from err
        return {"game": key, "player": name, "change": change, "place": place, "at": now}

    def _write(
        self, conn: Connection, key: str, after: Sequence[Entry], ids: Mapping[str, int],
        where: Mapping[str, str | None], name: str,
    ) -> int | None:  # fmt: skip
        """Write ``key``'s list as ``after`` (places 1, 2, ...); ``name``'s place, or None."""
        conn.execute(delete(self.waiting).where(self.waiting.c.list_key == key))
        if after:
            conn.execute(
                insert(self.waiting),
                [
                    {"list_key": key, "account_id": ids[e.name], "place": i, "joined": e.joined,
                     "called_at": e.called_at, "arrive_by": e.arrive_by,
                     "called_to": where.get(e.name) if e.called_at is not None else None}
                    for i, e in enumerate(after, 1)
                ],
            )  # fmt: skip
        return next((i for i, e in enumerate(after, 1) if e.name == name), None)

    def _replayed(
        self, conn: Connection, who: Account, request: str, change: str, key: str, player: object
    ) -> dict[str, Any] | None:
        """The answer to a request sent again with its key (the same change), or None (a new
        key); a key sent before with another change is refused (409)."""
        done = self._done(conn, who, request)
        if done is None:
            return None
        if (done["change"], done["game"]) != (change, key) or player not in (None, done["player"]):
            raise _conflict(f"the key {request!r} was sent before with another change "
                            f"({done['change']} {done['player']} on {done['game']})")  # fmt: skip
        return done

    def _done(self, conn: Connection, who: Account, request: str) -> dict[str, Any] | None:
        """The change ``who`` made with the key ``request``, as its answer said, or None."""
        c, a = self.changes_table, self.accounts
        row = conn.execute(
            select(c.c.list_key, c.c.change, c.c.place, c.c.at, a.c.name)
            .join(a, a.c.id == c.c.account_id)
            .where(c.c.by_id == who.id, c.c.request_key == request)
        ).first()
        if row is None:
            return None
        return {"game": row.list_key, "player": row.name, "change": row.change,
                "place": row.place, "at": row.at}  # fmt: skip

    def _for(self, who: Account, player: object, what: str) -> str:
        """The player a change is for: a player acts for themselves only; the floor names one."""
        if who.role == PLAYER:
            if player is not None and player != who.name:
                from felt.server.auth import Forbidden

                raise Forbidden(
                    f"a player may {what} only for themselves, not for {excerpt(player)}"
                )
            return who.name
        self._require(who, FLOOR, what)
        if not isinstance(player, str) or not player:
            raise FeltError(f"player must be the account name of the player to {what}, "
                            f"got {excerpt(player)}")  # fmt: skip
        return player

    def join(
        self, who: Account, game: object, player: object = None, key: object = None
    ) -> dict[str, Any]:
        """Put a player at the end of a list (first come first served, 14.18).  A player joins
        a list the room offers; the floor may open a list for any game and limit."""
        name = self._for(who, player, "put on a waiting list")
        if who.role == PLAYER:
            key = list_key(game)
            with self.store.engine.connect() as conn:
                offered = self.games(conn)
            if key not in offered:
                raise FeltError(f"no list for {key!r} here; lists: {', '.join(offered) or 'none'}")

        def rule(lists: WaitingLists, key: str, now: float) -> str:
            lists.join(key, name, now)
            return name

        return self._change(who, game, "join", name, "asked for a seat", rule, request=key)

    def leave(
        self, who: Account, game: object, player: object = None, reason: object = None,
        key: object = None,
    ) -> dict[str, Any]:  # fmt: skip
        """Take a player off a list: they ask (a player for themselves), or the floor removes
        them with a reason (14.18; e.g. left the room)."""
        name = self._for(who, player, "take off a waiting list")
        floor = who.role != PLAYER
        why = _words(reason, "reason", MAX_REASON, required=floor) or "left the list"

        def rule(lists: WaitingLists, key: str, now: float) -> str:
            lists.remove(key, name)
            return name

        change = "remove" if floor else "leave"
        return self._change(who, game, change, name, why, rule, request=key)

    def call(
        self, who: Account, game: object, called_to: object = None, key: object = None
    ) -> dict[str, Any]:
        """A seat is vacant: call the first player on the list not yet called, who has the
        room's time to arrive (14.18: vacant seats filled first come first served)."""
        self._require(who, FLOOR, "call a player to a seat")
        where = _words(called_to, "called_to", MAX_WHERE, required=False) or None

        def rule(lists: WaitingLists, key: str, now: float) -> str:
            return lists.call(key, now).name

        reason = f"called to {where}" if where else "called to a seat"
        return self._change(who, game, "call", None, reason, rule, called_to=where, request=key)

    def seat(
        self, who: Account, game: object, player: object, key: object = None
    ) -> dict[str, Any]:
        """The called player arrived in time and is seated: off this list (their other lists
        keep them)."""
        self._require(who, FLOOR, "seat a called player")
        name = self._for(who, player, "seat")

        def rule(lists: WaitingLists, key: str, now: float) -> str:
            return lists.arrive(key, name, now).name

        return self._change(who, game, "seat", name, "seated", rule, request=key)

    def no_show(
        self, who: Account, game: object, player: object, key: object = None
    ) -> dict[str, Any]:
        """A called player did not arrive in time: removed or moved down one place, uncalled,
        as the room's setting says."""
        self._require(who, FLOOR, "record a no-show")
        name = self._for(who, player, "record as a no-show")
        rule_text = "removed" if self.settings.no_show == "remove" else "moved down one place"

        def rule(lists: WaitingLists, key: str, now: float) -> str:
            lists.no_show(key, name, now)
            return name

        why = f"did not arrive in time: {rule_text}"
        return self._change(who, game, "no_show", name, why, rule, request=key)

    def move_down(
        self, who: Account, game: object, player: object, reason: object, key: object = None
    ) -> dict[str, Any]:
        """The floor moves a player down one place, with a reason (e.g. they passed on this
        seat); a call they held lapses, so the next call goes to the first uncalled player."""
        self._require(who, FLOOR, "move a player down a list")
        name = self._for(who, player, "move down")
        why = _words(reason, "reason", MAX_REASON, required=True)

        def rule(lists: WaitingLists, key: str, now: float) -> str:
            lists.move_down(key, name, lapse=True)
            return name

        return self._change(who, game, "move_down", name, why, rule, request=key)
