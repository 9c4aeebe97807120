"""Accounts, passwords and sessions: argon2id hashes, lock-out after three failed log-ins
(13:69O-1.4(i)), one active session per player, tokens kept only as hashes."""

from __future__ import annotations

import contextlib
import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from felt.core.errors import MAX_NAME_CHARS, FeltError
from felt.server.store import Store, accounts, sessions

ROLES: Final = ("player", "dealer", "supervisor", "cashier", "keno_writer", "keno_supervisor")
"""Account roles; the two keno roles are the keno writer and keno supervisor of N.J.A.C.
19:47-15 (see :mod:`felt.server.keno`)."""
MAX_FAILED_LOGINS: Final = 3
"""13:69O-1.4(i): an account is locked after three consecutive failed log-in attempts."""
SESSION_SECONDS: Final = 12 * 3600
MIN_PASSWORD_CHARS: Final = 8
MAX_PASSWORD_CHARS: Final = 256

_hasher = PasswordHasher()


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
letter or digit (so no name is ``.`` or ``..``, which a URL path would read as a directory)."""


def check_name(name: object) -> str:
    """An account name (:data:`NAME_PATTERN`)."""
    if not isinstance(name, str) or not re.fullmatch(NAME_PATTERN, name):
        raise FeltError(
            f"name must be 1 to {MAX_NAME_CHARS} ASCII letters, digits, '-', '_' or '.', "
            f"beginning with a letter or digit, got {str(name)[:40]!r}"
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
    try:
        with store.transaction() as conn:
            new_id = conn.execute(
                insert(accounts)
                .values(
                    name=name,
                    role=role,
                    password_hash=_hasher.hash(password),
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


def log_in(store: Store, name: str, password: str) -> tuple[str, Account]:
    """Check a password and open a session (ending any other session of the account: one
    active session each).  The third failure in a row locks the account."""
    with store.transaction() as conn:
        row = conn.execute(select(accounts).where(accounts.c.name == name)).mappings().first()
        if row is None:
            raise AuthError("unknown name or wrong password")
        if row["locked"]:
            raise AuthError(
                "this account is locked after three failed log-ins (13:69O-1.4(i)); a supervisor "
                "can unlock it"
            )
        try:
            _hasher.verify(row["password_hash"], password)
        except (VerificationError, InvalidHashError):
            failed = int(row["failed_logins"]) + 1
            conn.execute(
                update(accounts)
                .where(accounts.c.id == row["id"])
                .values(failed_logins=failed, locked=failed >= MAX_FAILED_LOGINS)
            )
            ok = False
        else:
            ok = True
            conn.execute(update(accounts).where(accounts.c.id == row["id"]).values(failed_logins=0))
            token = secrets.token_urlsafe(32)
            now = time.time()
            conn.execute(delete(sessions).where(sessions.c.account_id == row["id"]))
            conn.execute(
                insert(sessions).values(
                    token_hash=_token_hash(token),
                    account_id=row["id"],
                    created_at=now,
                    expires_at=now + SESSION_SECONDS,
                )
            )
    if not ok:
        raise AuthError("unknown name or wrong password")
    return token, Account(int(row["id"]), str(row["name"]), str(row["role"]))


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


def require(account: Account, *roles: str) -> None:
    """Refuse a request from a role not among ``roles``."""
    if account.role not in roles:
        raise Forbidden(f"only a {' or '.join(roles)} may do that; you are a {account.role}")
