"""Staff administration on the server: a supervisor opens, finds, locks, unlocks, resets and
retires accounts, and reads each account's history; every user changes their own password.

Every change is written with its row of ``account_changes`` (who made it, when) in one
transaction (:mod:`felt.server.auth`); this module holds the routes and the reads.
"""

import asyncio
from datetime import UTC, datetime
from typing import Annotated, Any, Final, Literal

from fastapi import FastAPI, Header, Path, Query
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, select
from sqlalchemy.orm import aliased

from felt.core.errors import MAX_NAME_CHARS
from felt.core.money import dollars
from felt.server import auth
from felt.server.app import NewAccount, Role, Server, bearer_token
from felt.server.auth import Account
from felt.server.store import account_changes, accounts

STATES: Final = ("active", "locked", "retired", "must-change")
"""An account's state as the staff screen names it: retired (no log-in ever again), locked
(no log-in until unlocked), must-change (a temporary password: the user chooses their own at
the next log-in), else active.  The first that holds is the state shown."""
MAX_LISTED: Final = 500
"""The most accounts one search answers (the screen narrows a longer list by its filters)."""

State = Literal["active", "locked", "retired", "must-change"]
AccountPath = Annotated[
    str,
    Path(pattern=auth.EXISTING_NAME_PATTERN, max_length=MAX_NAME_CHARS,
         description="the name of an existing account"),
]  # fmt: skip


class Password(BaseModel):
    """A temporary password a supervisor sets (the user must change it at the next log-in)."""

    model_config = ConfigDict(extra="forbid")
    password: str = Field(min_length=auth.MIN_PASSWORD_CHARS, max_length=auth.MAX_PASSWORD_CHARS)


class PasswordChange(BaseModel):
    """A user's own new password, with the current one."""

    model_config = ConfigDict(extra="forbid")
    current: str = Field(min_length=1, max_length=auth.MAX_PASSWORD_CHARS)
    new: str = Field(min_length=auth.MIN_PASSWORD_CHARS, max_length=auth.MAX_PASSWORD_CHARS)


def when(at: float | None) -> str | None:
    """A moment as ISO 8601 text in UTC to the second (``2026-11-26T21:04:39Z``), or None."""
    if at is None:
        return None
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def state_of(row: Any) -> str:
    """The state of an account row (:data:`STATES`)."""
    if row.retired_at is not None:
        return "retired"
    if row.locked:
        return "locked"
    if row.must_change_password:
        return "must-change"
    return "active"


def account_row(row: Any) -> dict[str, Any]:
    """One account as the staff screen lists it (a player's balance in dollars; staff have no
    wallet, so null)."""
    return {
        "name": row.name,
        "role": row.role,
        "state": state_of(row),
        "locked": bool(row.locked),
        "must_change_password": bool(row.must_change_password),
        "retired": row.retired_at is not None,
        "last_login": when(row.last_login_at),
        "balance": dollars(int(row.balance)) if row.role == "player" else None,
        "created": when(row.created_at),
    }


ROW_COLUMNS: Final = (
    accounts.c.name,
    accounts.c.role,
    accounts.c.locked,
    accounts.c.must_change_password,
    accounts.c.retired_at,
    accounts.c.last_login_at,
    accounts.c.balance,
    accounts.c.created_at,
)
"""The columns an account's row on the staff screen is made of (:func:`account_row`)."""


def list_accounts(
    conn: Connection, role: str | None, state: str | None, text: str | None
) -> list[dict[str, Any]]:
    """The accounts of ``role`` in ``state`` whose name holds ``text`` (any case), by name."""
    query = select(*ROW_COLUMNS).order_by(accounts.c.name)
    if role:
        query = query.where(accounts.c.role == role)
    if text:
        query = query.where(accounts.c.name.icontains(text, autoescape=True))
    live = accounts.c.retired_at.is_(None)
    if state == "retired":
        query = query.where(accounts.c.retired_at.is_not(None))
    elif state == "locked":
        query = query.where(live, accounts.c.locked.is_(True))
    elif state == "must-change":
        query = query.where(live, accounts.c.must_change_password.is_(True))
    elif state == "active":
        query = query.where(
            live, accounts.c.locked.is_(False), accounts.c.must_change_password.is_(False)
        )
    return [account_row(r) for r in conn.execute(query.limit(MAX_LISTED))]


def history(conn: Connection, name: str) -> dict[str, Any]:
    """An account's changes, newest first, each with the name of the supervisor who made it
    (null: the server machine's ``felt admin``, or the lock-out after failed log-ins)."""
    row = conn.execute(select(accounts.c.id, *ROW_COLUMNS).where(accounts.c.name == name)).first()
    if row is None:
        raise auth.NoAccount(f"no account named {name[:40]!r}")
    by = aliased(accounts)
    changes = conn.execute(
        select(
            account_changes.c.change,
            account_changes.c.detail,
            account_changes.c.at,
            by.c.name.label("by"),
        )
        .outerjoin(by, by.c.id == account_changes.c.by_id)
        .where(account_changes.c.account_id == row.id)
        .order_by(account_changes.c.id.desc())
    ).all()
    return {
        "account": account_row(row),
        "changes": [
            {"change": c.change, "detail": c.detail, "by": c.by, "at": when(c.at)} for c in changes
        ],
    }


ROLE_WORDS: Final = {
    "player": "Player",
    "dealer": "Dealer",
    "supervisor": "Supervisor",
    "cashier": "Cashier (the cage)",
}
"""The four table roles in the words of the staff screen; a game's staff role is named from
its id (``keno_writer``: "Keno writer")."""


def roles() -> list[dict[str, str]]:
    """Every role an account may have (:data:`felt.server.auth.ROLES`) with its words."""
    return [
        {"role": r, "words": ROLE_WORDS.get(r) or r.replace("_", " ").capitalize()}
        for r in auth.ROLES
    ]


def add_staff(app: FastAPI, server: Server, who: Any, pending: Any) -> None:
    """Mount the staff routes: ``who`` is the dependency of a logged-in account, ``pending``
    the one that also lets through an account that must change its password first (this
    module keeps its annotations evaluated so FastAPI reads them)."""
    store = server.store

    def read(fn: Any, *args: Any) -> Any:
        with store.engine.connect() as conn:
            return fn(conn, *args)

    @app.get("/api/roles")
    async def account_roles(caller: who) -> list[dict[str, str]]:
        """The roles an account may have, each with its words (for the staff screen)."""
        auth.require(caller, "supervisor")
        return roles()

    @app.get("/api/accounts")
    async def find_accounts(
        caller: who,
        role: Annotated[Role | None, Query(description="only this role")] = None,
        state: Annotated[State | None, Query(description="only accounts in this state")] = None,
        q: Annotated[
            str | None,
            Query(max_length=MAX_NAME_CHARS, description="text the name holds (any case)"),
        ] = None,
    ) -> list[dict[str, Any]]:
        """Accounts by name (at most 500), filtered by role, state and text in the name."""
        auth.require(caller, "supervisor")
        return await asyncio.to_thread(read, list_accounts, role, state, q)

    @app.post("/api/accounts")
    async def new_account(body: NewAccount, caller: who) -> dict[str, Any]:
        """Open an account of any role; with ``must_change_password`` the password is
        temporary (the user chooses their own at the first log-in)."""
        auth.require(caller, "supervisor")
        made = await asyncio.to_thread(
            auth.create_account, store, body.name, body.role, body.password, caller.id,
            body.must_change_password,
        )  # fmt: skip
        return {"id": made.id, "name": made.name, "role": made.role}

    @app.get("/api/accounts/{name}/history")
    async def account_history(name: AccountPath, caller: who) -> dict[str, Any]:
        """An account and its changes, newest first, with who made each."""
        auth.require(caller, "supervisor")
        return await asyncio.to_thread(read, history, name)

    @app.post("/api/accounts/{name}/lock")
    async def lock(name: AccountPath, caller: who) -> dict[str, Any]:
        """Lock an account (not one's own): no log-in until unlocked; its sessions end."""
        auth.require(caller, "supervisor")
        await asyncio.to_thread(auth.lock, store, name, caller)
        server.end_sockets_named(name, f"a supervisor ({caller.name}) locked this account")
        return {"ok": True}

    @app.post("/api/accounts/{name}/unlock")
    async def unlock(name: AccountPath, caller: who) -> dict[str, Any]:
        """Unlock an account and clear its count of failed log-ins."""
        auth.require(caller, "supervisor")
        await asyncio.to_thread(auth.unlock, store, name, caller.id)
        return {"ok": True}

    @app.post("/api/accounts/{name}/password")
    async def reset(name: AccountPath, body: Password, caller: who) -> dict[str, Any]:
        """Set a temporary password: its sessions end and the user must choose their own at
        the next log-in."""
        auth.require(caller, "supervisor")
        await asyncio.to_thread(auth.reset_password, store, name, body.password, caller)
        server.end_sockets_named(name, "a supervisor reset this account's password")
        return {"ok": True}

    @app.post("/api/accounts/{name}/retire")
    async def retire(name: AccountPath, caller: who) -> dict[str, Any]:
        """Retire an account (not one's own; a player's only with a balance of 0.00): no
        further log-in; its sessions end; its record and ledger stay."""
        auth.require(caller, "supervisor")
        await asyncio.to_thread(auth.retire, store, name, caller)
        server.end_sockets_named(name, "a supervisor retired this account")
        return {"ok": True}

    @app.post("/api/password")
    async def change_password(
        body: PasswordChange,
        caller: pending,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """Change one's own password (the current one, then a new one that differs); the other
        sessions of the account end, this one stays."""
        me: Account = caller
        token = bearer_token(authorization) or ""
        await asyncio.to_thread(auth.change_password, store, me, token, body.current, body.new)
        server.end_sockets(me.id, "the password was changed in another session", keep=token)
        return {"ok": True}
