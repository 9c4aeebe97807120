"""Accounts, passwords and sessions: argon2id hashes, lock-out after three failed log-ins
(13:69O-1.4(i)), one active session per player, tokens kept only as hashes.

A log-in reserves its attempt in one atomic update before the password is checked, so parallel
guesses cannot share one count; the hash is checked outside any write transaction, so a storm
of log-ins holds up no other write (see docs/interpretations.md, "Log-in attempts")."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from felt.core.errors import MAX_NAME_CHARS, FeltError
from felt.core.money import dollars
from felt.server.store import Conflict, Store, account_changes, accounts, hot, sessions
from felt.server.systems import game_roles

ROLES: Final = ("player", "dealer", "supervisor", "cashier", *game_roles())
"""Account roles: the four every table has, then the staff roles the registered games add
(:meth:`felt.games.base.Game.roles`, such as a system game's staff)."""
MAX_FAILED_LOGINS: Final = 3
"""13:69O-1.4(i): an account is locked after three consecutive failed log-in attempts."""
SESSION_SECONDS: Final = 12 * 3600
MIN_PASSWORD_CHARS: Final = 8
MAX_PASSWORD_CHARS: Final = 256

WEAK_HASHES_ENV: Final = "FELT_TEST_WEAK_HASHES"
"""Set to ``1`` by the test suite alone (tests/conftest.py): passwords are hashed by argon2id at
its least cost, so the thousands of accounts and log-ins the tests make take microseconds each
instead of half a second each on two busy cores.  A hash carries its own parameters, so one
made under either setting verifies under the other; ``felt serve`` warns when it is set.  Never
set it on a real server."""


def password_hasher(environ: Mapping[str, str] = os.environ) -> PasswordHasher:
    """argon2id at argon2-cffi's default cost (3 passes over 64 MiB in 4 lanes, the second
    option of RFC 9106, section 4), or at its least (1 pass over 8 KiB, 1 lane) when
    :data:`WEAK_HASHES_ENV` is ``1`` in ``environ``.

    >>> strong = password_hasher({})
    >>> (strong.time_cost, strong.memory_cost, strong.parallelism)
    (3, 65536, 4)
    >>> password_hasher({WEAK_HASHES_ENV: "1"}).memory_cost
    8
    """
    if environ.get(WEAK_HASHES_ENV) == "1":
        return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    return PasswordHasher(time_cost=3, memory_cost=64 * 1024, parallelism=4)


_hasher = password_hasher()
_hash_turn = threading.BoundedSemaphore(1)
"""One argon2 hash at a time per process: each hash runs lanes on every core, so a storm of
log-ins hashed side by side would take the whole machine from the tables and the cage; queued
here, a storm costs the other requests at most one hash's worth of CPU at a time and slows
only the log-ins (which also slows guessing).  ``bench/login_storm.py`` measures it."""
log = logging.getLogger("felt.server")

REFUSED: Final = (
    "unknown name, wrong password, or an account locked after three failed log-ins in a row "
    "(13:69O-1.4(i)); a locked account is unlocked by a supervisor, or on the server machine "
    "by 'felt admin unlock NAME'"
)
"""The one answer to every refused log-in: it never tells whether a name exists, whether its
account is locked, or which of the two it was."""


class AuthError(FeltError):
    """Not logged in, a bad or expired token, or a locked account."""


class Forbidden(FeltError):
    """Logged in, but this role or seat may not do that."""


class NoAccount(FeltError):
    """No account of that name (answered 404 by the API)."""


MUST_CHANGE: Final = (
    "choose your own password first: a supervisor set a temporary one; change it with "
    "POST /api/password (the Password screen)"
)
"""The answer to every request but /api/me, /api/logout and /api/password while the account's
password is a supervisor's temporary one."""


@dataclass(frozen=True)
class Account:
    """Who is making a request."""

    id: int
    name: str
    role: str
    must_change_password: bool = False
    """A supervisor set a temporary password: the user must choose their own first."""


def record_change(
    conn: Connection, account_id: int, change: str, by_id: int | None, detail: str = ""
) -> None:
    """Write one row of an account's history (:data:`felt.server.store.account_changes`) on
    ``conn``, in the transaction of the change itself; ``by_id`` is the supervisor who made it,
    None for the server machine's ``felt admin`` or the lock-out after failed log-ins."""
    conn.execute(
        insert(account_changes).values(
            account_id=account_id, change=change, detail=detail, by_id=by_id, at=time.time()
        )
    )


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


NAME_PATTERN: Final = f"^[A-Za-z0-9][A-Za-z0-9._-]{{0,{MAX_NAME_CHARS - 1}}}$"
"""An account name: 1 to 64 ASCII letters, digits, ``-``, ``_`` or ``.``, beginning with a
letter or digit (so no name is ``.`` or ``..``, which a URL path would read as a directory).
A new account's name must match it."""
EXISTING_NAME_PATTERN: Final = f"^[A-Za-z0-9._-]{{1,{MAX_NAME_CHARS}}}$"
"""The name of an account that may already exist: the rule before issue 18 (any of the same
characters first), so an account opened then, such as ``_bob``, is still paid, unlocked and
named in requests; only new names must begin with a letter or digit."""


def check_name(name: object) -> str:
    """A new account's name (:data:`NAME_PATTERN`)."""
    return _name(name, NAME_PATTERN, ", beginning with a letter or digit")


def check_existing_name(name: object) -> str:
    """The name of an account that may exist (:data:`EXISTING_NAME_PATTERN`)."""
    return _name(name, EXISTING_NAME_PATTERN, "")


def _name(name: object, pattern: str, more: str) -> str:
    if not isinstance(name, str) or not re.fullmatch(pattern, name):
        raise FeltError(
            f"name must be 1 to {MAX_NAME_CHARS} ASCII letters, digits, '-', '_' or '.'{more}, "
            f"got {str(name)[:40]!r}"
        )
    return name


def check_password(password: object) -> str:
    """A password: 8 to 256 characters."""
    if (
        not isinstance(password, str)
        or not MIN_PASSWORD_CHARS <= len(password) <= MAX_PASSWORD_CHARS
    ):
        raise FeltError(f"password must be {MIN_PASSWORD_CHARS} to {MAX_PASSWORD_CHARS} characters")
    return password


def create_account(
    store: Store,
    name: str,
    role: str,
    password: str,
    by_id: int | None = None,
    must_change: bool = False,
) -> Account:
    """Open an account, recorded in its history as opened by ``by_id``; with ``must_change``
    the password is temporary (the user chooses their own at the first log-in).  A name
    already taken is a clear error."""
    check_name(name)
    check_password(password)
    if role not in ROLES:
        raise FeltError(f"role must be one of {', '.join(ROLES)}, got {role[:40]!r}")
    hashed = hash_password(password)  # before the write turn: the hash takes tens of ms of CPU
    try:
        with store.transaction() as conn:
            new_id = conn.execute(
                insert(accounts)
                .values(
                    name=name,
                    role=role,
                    password_hash=hashed,
                    failed_logins=0,
                    locked=False,
                    balance=0,
                    created_at=time.time(),
                    must_change_password=must_change,
                )
                .returning(accounts.c.id)
            ).scalar_one()
            detail = f"role {role}" + (", temporary password" if must_change else "")
            record_change(conn, int(new_id), "opened", by_id, detail)
    except IntegrityError as err:
        raise FeltError(f"an account named {name!r} already exists") from err
    return Account(int(new_id), name, role)


def verify_password(stored_hash: str, password: str) -> bool:
    """Whether ``password`` matches an account's stored hash: the one place a password is
    checked (the tests count its calls)."""
    try:
        with _hash_turn:
            return _hasher.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def rehash_if_weaker(stored_hash: str, password: str) -> str | None:
    """A new hash of ``password`` (just checked against ``stored_hash``) at this process's cost
    when the stored one was made at another (such as the test suite's least cost,
    :data:`WEAK_HASHES_ENV`, on a server started with it by mistake), else None: a log-in
    brings every account's hash up to the server's cost."""
    try:
        weaker = _hasher.check_needs_rehash(stored_hash)
    except (VerificationError, InvalidHashError):  # pragma: no cover - verified just before
        return None
    return hash_password(password) if weaker else None


def hash_password(password: str) -> str:
    """An argon2id hash of ``password``, made in the process's one hashing turn."""
    with _hash_turn:
        return _hasher.hash(password)


@functools.cache
def _decoy_hash() -> str:
    return hash_password(secrets.token_urlsafe(16))


def _decoy(password: str) -> None:
    """Spend the time of one check on no account, so an unknown name or a locked account takes
    as long to refuse as a wrong password (the answer tells nothing by its delay either)."""
    verify_password(_decoy_hash(), password)


def open_first_supervisor(
    conn: Connection, name: str, password: str, must_change: bool = False
) -> None:
    """Open the first supervisor on ``conn`` (the first start's seeding, inside the
    migration's transaction); ``must_change`` when the password was made up and printed, so it
    works once: the first log-in must choose a new one (a printed password ends up in logs)."""
    check_password(password)
    new_id = conn.execute(
        insert(accounts)
        .values(
            name=check_name(name),
            role="supervisor",
            password_hash=hash_password(password),
            failed_logins=0,
            locked=False,
            balance=0,
            created_at=time.time(),
            must_change_password=must_change,
        )
        .returning(accounts.c.id)
    ).scalar_one()
    record_change(conn, int(new_id), "opened", None, "role supervisor, at the first start")


def log_in(store: Store, name: str, password: str) -> tuple[str, Account]:
    """Check a password and open a session (ending any other session of the account: one
    active session each).  Three failures in a row lock the account (13:69O-1.4(i)).

    The attempt is first reserved in one atomic update that counts it as a failure and that
    only an unlocked account with fewer than three counted attempts passes; then the hash is
    checked with no transaction open; then a right password clears the count (if the account
    has not been locked meanwhile) and a wrong one locks the account once three are counted.
    So at most three passwords are ever checked before the lock, however many guesses arrive
    at once, and an attempt cut off by a crash counts as failed."""
    with store.transaction() as conn:
        row = conn.execute(
            update(accounts)
            .where(
                accounts.c.name == name,
                accounts.c.locked.is_(False),
                accounts.c.retired_at.is_(None),
                accounts.c.failed_logins < MAX_FAILED_LOGINS,
            )
            .values(failed_logins=accounts.c.failed_logins + 1)
            .returning(
                accounts.c.id,
                accounts.c.name,
                accounts.c.role,
                accounts.c.password_hash,
                accounts.c.must_change_password,
            )
        ).first()
    if row is None:  # no such name, a locked or retired account, or three attempts under way
        _lock_if_spent(store, name)
        _decoy(password)
        raise AuthError(REFUSED)
    account = Account(int(row.id), str(row.name), str(row.role), bool(row.must_change_password))
    if not verify_password(str(row.password_hash), password):
        with store.transaction() as conn:
            locked = _lock_spent(conn, account.id)
        if locked:
            _alert_locked(account)
        raise AuthError(REFUSED)
    token = secrets.token_urlsafe(32)
    now = time.time()
    stored = str(row.password_hash)
    rehashed = rehash_if_weaker(stored, password)
    with store.transaction() as conn:
        cleared = conn.execute(
            update(accounts)
            .where(
                accounts.c.id == account.id,
                accounts.c.locked.is_(False),
                accounts.c.retired_at.is_(None),
            )
            .values(failed_logins=0, last_login_at=now)
        ).rowcount
        if cleared and rehashed is not None:  # unless the password changed meanwhile
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account.id, accounts.c.password_hash == stored)
                .values(password_hash=rehashed)
            )
        if cleared:
            conn.execute(delete(sessions).where(sessions.c.account_id == account.id))
            conn.execute(
                insert(sessions).values(
                    token_hash=_token_hash(token),
                    account_id=account.id,
                    created_at=now,
                    expires_at=now + SESSION_SECONDS,
                )
            )
    if not cleared:  # locked by failures that overlapped this attempt (or retired meanwhile)
        raise AuthError(REFUSED)
    return token, account


def _lock_spent(conn: Connection, account_id: int) -> bool:
    """Lock an unlocked account whose three attempts are spent (13:69O-1.4(i)), recorded in its
    history with no supervisor (``by_id`` null) in the same transaction; whether it locked."""
    locked = conn.execute(
        update(accounts)
        .where(
            accounts.c.id == account_id,
            accounts.c.locked.is_(False),
            accounts.c.failed_logins >= MAX_FAILED_LOGINS,
        )
        .values(locked=True)
    ).rowcount
    if locked:
        record_change(conn, account_id, "locked", None, "three failed log-ins in a row")
    return bool(locked)


def _lock_if_spent(store: Store, name: str) -> None:
    """Mark locked, and alert, an account whose three attempts are all spent but which is not
    marked locked: attempts cut off by a crash (or a database error between the reservation and
    the result) count as failed, and such an account refuses every log-in, so it is locked in
    fact and is shown and reported as such."""
    with store.engine.connect() as conn:  # a read first: most refusals are not of this kind,
        spent = conn.execute(  # and a write would take the write turn for each of them
            select(accounts.c.id).where(
                accounts.c.name == name,
                accounts.c.locked.is_(False),
                accounts.c.failed_logins >= MAX_FAILED_LOGINS,
            )
        ).first()
    if spent is None:
        return
    with store.transaction() as conn:
        row = conn.execute(
            update(accounts)
            .where(
                accounts.c.id == spent.id,
                accounts.c.locked.is_(False),
                accounts.c.failed_logins >= MAX_FAILED_LOGINS,
            )
            .values(locked=True)
            .returning(accounts.c.id, accounts.c.name, accounts.c.role)
        ).first()
        if row is not None:
            record_change(conn, int(row.id), "locked", None, "three failed log-ins in a row")
    if row is not None:
        _alert_locked(Account(int(row.id), str(row.name), str(row.role)))


def _alert_locked(account: Account) -> None:
    """Tell the operator, in the server's log, that an account has just been locked; a
    supervisor's lock-out is an error, with the way back from the server machine."""
    if account.role == "supervisor":
        log.error(
            "ALERT: supervisor account %r locked after three failed log-ins (13:69O-1.4(i)); "
            "another supervisor may unlock it, or on the server machine: "
            "felt admin unlock %s --database URL",
            account.name,
            account.name,
        )
    else:
        log.warning(
            "account %r (%s) locked after three failed log-ins (13:69O-1.4(i))",
            account.name,
            account.role,
        )


def authenticate(
    store: Store, token: str | None, conn: Connection | None = None, pending: bool = False
) -> Account:
    """The account of a live session token (read on ``conn`` if given, so a caller reading
    more pays for one connection).  A retired account's session is no session; an account
    whose password is a supervisor's temporary one is refused (403, :data:`MUST_CHANGE`)
    unless ``pending`` (the few requests that let it choose its own)."""
    _check_token(token)
    assert token is not None
    with contextlib.nullcontext(conn) if conn is not None else store.engine.connect() as conn:
        row = conn.execute(
            select(
                accounts.c.id,
                accounts.c.name,
                accounts.c.role,
                accounts.c.locked,
                accounts.c.must_change_password,
                accounts.c.retired_at,
                sessions.c.expires_at,
            )
            .join(sessions, sessions.c.account_id == accounts.c.id)
            .where(sessions.c.token_hash == _token_hash(token))
        ).first()
    return _session_account(row, pending)


def session_and_key(
    conn: Connection, token: str, key: str
) -> tuple[Account, tuple[str, str] | None]:
    """The account of a live session token, refused as :func:`authenticate` refuses it, and
    the (request digest, response) that account's idempotency ``key`` is stored with, if any,
    in one read on ``conn`` (an action's own write transaction: see
    :meth:`felt.server.host.TableHost.apply_now`)."""
    _check_token(token)
    row = hot(conn, "session", (key, _token_hash(token))).fetchone()
    account = _session_account(row, False)
    seen = None if row is None or row[7] is None else (str(row[7]), str(row[8]))
    return account, seen


def _check_token(token: str | None) -> None:
    if not token or len(token) > 200:
        raise AuthError("log in first: send the session token as 'Authorization: Bearer TOKEN'")


def _session_account(row: Any, pending: bool) -> Account:
    """The account of a session's row (its account's id, name, role, locked,
    must_change_password, retired_at, then the session's expires_at), or the refusal."""
    if row is None:
        raise AuthError(
            "the session token is not valid (logged out, or replaced by a newer log-in)"
        )
    aid, name, role, locked, must_change, retired_at, expires_at = row[:7]
    if expires_at < time.time():
        raise AuthError("the session has expired; log in again")
    if locked:
        raise AuthError("this account is locked")
    if retired_at is not None:
        raise AuthError("this account is retired")
    if must_change and not pending:
        raise Forbidden(MUST_CHANGE)
    return Account(int(aid), str(name), str(role), bool(must_change))


def log_out(store: Store, token: str) -> None:
    """End a session."""
    with store.transaction() as conn:
        conn.execute(delete(sessions).where(sessions.c.token_hash == _token_hash(token)))


def unlock(store: Store, name: str, by_id: int | None = None) -> None:
    """Unlock an account locked by failed log-ins (or by a supervisor) and clear its count:
    a supervisor ``by_id``, or the server machine's ``felt admin unlock`` (None)."""
    with store.transaction() as conn:
        row = conn.execute(
            select(
                accounts.c.id, accounts.c.locked, accounts.c.failed_logins, accounts.c.retired_at
            )
            .where(accounts.c.name == name)
            .with_for_update()
        ).first()
        if row is None:
            raise NoAccount(f"no account named {name[:40]!r}")
        if row.retired_at is not None:
            raise Conflict(f"{name} is retired: a retired account is not changed")
        if not row.locked and not row.failed_logins:
            return  # nothing to undo: no change, so no line in the account's history
        conn.execute(
            update(accounts).where(accounts.c.id == row.id).values(locked=False, failed_logins=0)
        )
        where = "" if by_id is not None else "felt admin on the server machine"
        record_change(conn, int(row.id), "unlocked", by_id, where)


def set_password(store: Store, name: str, password: str) -> None:
    """Give an account a new password and end its sessions (the operator's recovery, ``felt
    admin password``, recorded with no supervisor); a lock stays until unlocked.  The password
    is the operator's own choice, so no change is asked at the next log-in."""
    check_password(password)
    hashed = hash_password(password)
    with store.transaction() as conn:
        row = conn.execute(
            update(accounts)
            .where(accounts.c.name == name)
            .values(password_hash=hashed, must_change_password=False)
            .returning(accounts.c.id)
        ).first()
        if row is None:
            raise NoAccount(f"no account named {name[:40]!r}")
        conn.execute(delete(sessions).where(sessions.c.account_id == row.id))
        record_change(conn, int(row.id), "password set", None, "felt admin on the server machine")


def _target(conn: Connection, name: str, by: Account, verb: str) -> Any:
    """The account a supervisor changes (id, role, locked, retired_at, balance), read in the
    change's transaction: refused if there is none, if it is the supervisor's own (for
    ``verb``s that would shut them out), or if it is retired (nothing changes one)."""
    row = conn.execute(
        select(
            accounts.c.id,
            accounts.c.role,
            accounts.c.locked,
            accounts.c.retired_at,
            accounts.c.balance,
        )
        .where(accounts.c.name == name)
        .with_for_update()  # PostgreSQL: no deposit or payout lands between check and change
    ).first()
    if row is None:
        raise NoAccount(f"no account named {name[:40]!r}")
    if int(row.id) == by.id and verb in ("lock", "retire", "reset"):
        own = "; change your own password on the Password screen" if verb == "reset" else ""
        raise Forbidden(f"you may not {verb} your own account; another supervisor may{own}")
    if row.retired_at is not None:
        raise Conflict(f"{name} is retired: a retired account is not changed")
    return row


def lock(store: Store, name: str, by: Account) -> None:
    """A supervisor locks an account: no log-in until it is unlocked, and its sessions end."""
    with store.transaction() as conn:
        row = _target(conn, name, by, "lock")
        if row.locked:
            raise Conflict(f"{name} is already locked")
        conn.execute(update(accounts).where(accounts.c.id == row.id).values(locked=True))
        conn.execute(delete(sessions).where(sessions.c.account_id == row.id))
        record_change(conn, int(row.id), "locked", by.id, "by a supervisor")


def reset_password(store: Store, name: str, password: str, by: Account) -> None:
    """A supervisor gives an account a temporary password: its sessions end, and at its next
    log-in the user must choose their own before anything else (a lock stays)."""
    check_password(password)
    hashed = hash_password(password)  # before the write turn
    with store.transaction() as conn:
        row = _target(conn, name, by, "reset")
        conn.execute(
            update(accounts)
            .where(accounts.c.id == row.id)
            .values(password_hash=hashed, must_change_password=True)
        )
        conn.execute(delete(sessions).where(sessions.c.account_id == row.id))
        record_change(conn, int(row.id), "password reset", by.id, "temporary password")


def retire(store: Store, name: str, by: Account) -> None:
    """A supervisor retires an account: no further log-in, its sessions end, its record and
    ledger stay.  A player whose wallet is not empty is refused until the cage pays it out
    (docs/interpretations.md, "Retiring an account")."""
    with store.transaction() as conn:
        row = _target(conn, name, by, "retire")
        if row.role == "player" and int(row.balance) != 0:
            raise Conflict(
                f"{name}'s balance is ${dollars(int(row.balance))}: "
                "the cage pays it out (a withdrawal) before the account is retired"
            )
        conn.execute(update(accounts).where(accounts.c.id == row.id).values(retired_at=time.time()))
        conn.execute(delete(sessions).where(sessions.c.account_id == row.id))
        record_change(conn, int(row.id), "retired", by.id)


WRONG_CURRENT: Final = (
    "the current password is not right (three wrong in a row lock the account, 13:69O-1.4(i))"
)


def change_password(store: Store, who: Account, token: str, current: str, new: str) -> None:
    """A user chooses their own password: the current one checked as a log-in checks it (a
    wrong one counts toward the lock-out, 13:69O-1.4(i)), the new one different; a temporary
    password's forced change is cleared, and every other session of the account ends (this
    one stays)."""
    check_password(new)
    if new == current:
        raise FeltError("the new password must differ from the current one")
    with store.transaction() as conn:
        row = conn.execute(
            update(accounts)
            .where(
                accounts.c.id == who.id,
                accounts.c.locked.is_(False),
                accounts.c.retired_at.is_(None),
                accounts.c.failed_logins < MAX_FAILED_LOGINS,
            )
            .values(failed_logins=accounts.c.failed_logins + 1)
            .returning(accounts.c.password_hash)
        ).first()
    if row is None:
        raise AuthError("this account is locked")
    if not verify_password(str(row.password_hash), current):
        with store.transaction() as conn:
            locked = _lock_spent(conn, who.id)
            if locked:
                conn.execute(delete(sessions).where(sessions.c.account_id == who.id))
        if locked:
            _alert_locked(who)
            raise AuthError("three wrong passwords in a row: the account is now locked")
        raise FeltError(WRONG_CURRENT)
    hashed = hash_password(new)
    with store.transaction() as conn:
        changed = conn.execute(
            update(accounts)
            .where(accounts.c.id == who.id, accounts.c.locked.is_(False))
            .values(password_hash=hashed, must_change_password=False, failed_logins=0)
        ).rowcount
        if not changed:
            raise AuthError("this account is locked")
        conn.execute(
            delete(sessions).where(
                sessions.c.account_id == who.id, sessions.c.token_hash != _token_hash(token)
            )
        )
        record_change(conn, who.id, "password changed", who.id, "by the account's user")


def require(account: Account, *roles: str) -> None:
    """Refuse a request from a role not among ``roles``."""
    if account.role not in roles:
        raise Forbidden(f"only a {' or '.join(roles)} may do that; you are a {account.role}")
