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
import re
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from felt.core.errors import MAX_NAME_CHARS, FeltError
from felt.server.store import Store, accounts, sessions
from felt.server.systems import game_roles

ROLES: Final = ("player", "dealer", "supervisor", "cashier", *game_roles())
"""Account roles: the four every table has, then the staff roles the registered games add
(:meth:`felt.games.base.Game.roles`, such as a system game's staff)."""
MAX_FAILED_LOGINS: Final = 3
"""13:69O-1.4(i): an account is locked after three consecutive failed log-in attempts."""
SESSION_SECONDS: Final = 12 * 3600
MIN_PASSWORD_CHARS: Final = 8
MAX_PASSWORD_CHARS: Final = 256

_hasher = PasswordHasher()
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


@dataclass(frozen=True)
class Account:
    """Who is making a request."""

    id: int
    name: str
    role: str


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


def create_account(store: Store, name: str, role: str, password: str) -> Account:
    """Open an account; a name already taken is a clear error."""
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
                )
                .returning(accounts.c.id)
            ).scalar_one()
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


def open_first_supervisor(conn: Connection, name: str, password: str) -> None:
    """Open the first supervisor on ``conn`` (the first start's seeding, inside the
    migration's transaction)."""
    check_password(password)
    conn.execute(
        insert(accounts).values(
            name=check_name(name),
            role="supervisor",
            password_hash=hash_password(password),
            failed_logins=0,
            locked=False,
            balance=0,
            created_at=time.time(),
        )
    )


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
                accounts.c.failed_logins < MAX_FAILED_LOGINS,
            )
            .values(failed_logins=accounts.c.failed_logins + 1)
            .returning(accounts.c.id, accounts.c.name, accounts.c.role, accounts.c.password_hash)
        ).first()
    if row is None:  # no such name, a locked account, or three attempts already under way
        _lock_if_spent(store, name)
        _decoy(password)
        raise AuthError(REFUSED)
    account = Account(int(row.id), str(row.name), str(row.role))
    if not verify_password(str(row.password_hash), password):
        with store.transaction() as conn:
            locked = conn.execute(
                update(accounts)
                .where(
                    accounts.c.id == account.id,
                    accounts.c.locked.is_(False),
                    accounts.c.failed_logins >= MAX_FAILED_LOGINS,
                )
                .values(locked=True)
            ).rowcount
        if locked:
            _alert_locked(account)
        raise AuthError(REFUSED)
    token = secrets.token_urlsafe(32)
    now = time.time()
    with store.transaction() as conn:
        cleared = conn.execute(
            update(accounts)
            .where(accounts.c.id == account.id, accounts.c.locked.is_(False))
            .values(failed_logins=0)
        ).rowcount
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
    if not cleared:  # locked by failures that overlapped this attempt
        raise AuthError(REFUSED)
    return token, account


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


def authenticate(store: Store, token: str | None, conn: Connection | None = None) -> Account:
    """The account of a live session token (read on ``conn`` if given, so a caller reading
    more pays for one connection)."""
    if not token or len(token) > 200:
        raise AuthError("log in first: send the session token as 'Authorization: Bearer TOKEN'")
    with contextlib.nullcontext(conn) if conn is not None else store.engine.connect() as conn:
        row = conn.execute(
            select(
                accounts.c.id,
                accounts.c.name,
                accounts.c.role,
                accounts.c.locked,
                sessions.c.expires_at,
            )
            .join(sessions, sessions.c.account_id == accounts.c.id)
            .where(sessions.c.token_hash == _token_hash(token))
        ).first()
    if row is None:
        raise AuthError(
            "the session token is not valid (logged out, or replaced by a newer log-in)"
        )
    if row.expires_at < time.time():
        raise AuthError("the session has expired; log in again")
    if row.locked:
        raise AuthError("this account is locked")
    return Account(int(row.id), str(row.name), str(row.role))


def log_out(store: Store, token: str) -> None:
    """End a session."""
    with store.transaction() as conn:
        conn.execute(delete(sessions).where(sessions.c.token_hash == _token_hash(token)))


def unlock(store: Store, name: str) -> None:
    """A supervisor unlocks an account locked by failed log-ins."""
    with store.transaction() as conn:
        result = conn.execute(
            update(accounts).where(accounts.c.name == name).values(locked=False, failed_logins=0)
        )
        if result.rowcount != 1:
            raise FeltError(f"no account named {name[:40]!r}")


def set_password(store: Store, name: str, password: str) -> None:
    """Give an account a new password and end its sessions (the operator's recovery, ``felt
    admin password``); a lock stays until unlocked."""
    check_password(password)
    hashed = hash_password(password)
    with store.transaction() as conn:
        row = conn.execute(
            update(accounts)
            .where(accounts.c.name == name)
            .values(password_hash=hashed)
            .returning(accounts.c.id)
        ).first()
        if row is None:
            raise FeltError(f"no account named {name[:40]!r}")
        conn.execute(delete(sessions).where(sessions.c.account_id == row.id))


def require(account: Account, *roles: str) -> None:
    """Refuse a request from a role not among ``roles``."""
    if account.role not in roles:
        raise Forbidden(f"only a {' or '.join(roles)} may do that; you are a {account.role}")
