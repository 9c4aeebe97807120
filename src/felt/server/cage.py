"""The cashier's cage: deposits and withdrawals with numbered receipts, finding players, and the
day's cage report reconciled with the ledger.

Every deposit or withdrawal is one transaction: its two ledger postings (the cage and the
player's wallet, under one ``txn``), its receipt row with that ``txn`` and the same time as the
postings, and the answer stored under the cashier's idempotency key, so a retry gets the same
receipt and never a second.  The cage position is the cash the cage took in minus what it paid
out: the negative of the ledger's ``cage`` account (see docs/interpretations.md, "The cage").
"""

from __future__ import annotations

import calendar
import json
import re
import time
from datetime import UTC, date, datetime
from typing import Any, Final

from sqlalchemy import Connection, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql import Select

from felt.core.errors import MAX_NAME_CHARS, FeltError
from felt.core.money import cents, dollars
from felt.server import auth
from felt.server.auth import Account, Forbidden
from felt.server.host import request_digest
from felt.server.store import (
    CAGE,
    Conflict,
    InsufficientFunds,
    Posting,
    Store,
    accounts,
    cage_receipts,
    player_account,
    postings,
)

KINDS: Final = ("deposit", "withdrawal")
"""What a receipt records: money into a player's wallet from the cage, or out of it."""
SEARCH_LIMIT: Final = 25
"""Players one search lists at most (the closest names first)."""
RECEIPTS_LIMIT: Final = 20
"""A player's recent receipts listed by default."""
MAX_RECEIPTS_LIMIT: Final = 200
"""The most receipts of one player one request lists."""
DATE_PATTERN: Final = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
SEARCH_PATTERN: Final = re.compile(f"[A-Za-z0-9._-]{{0,{MAX_NAME_CHARS}}}", re.ASCII)


def _not_found(message: str) -> FeltError:
    """The server's 404 refusal (imported late: the app imports this module)."""
    from felt.server.app import NotFound

    return NotFound(message)


def iso(at: float) -> str:
    """A time as UTC ISO 8601 to the second, such as ``2026-11-26T21:05:03Z``."""
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def state_of(locked: bool, retired_at: float | None) -> str:
    """An account's state in the staff's words: active, locked or retired."""
    if retired_at is not None:
        return "retired"
    return "locked" if locked else "active"


# ----------------------------------------------------------------- receipts
MAX_RECEIPT_NUMBER: Final = 2**31 - 1
"""The largest receipt number there can be (the column is a 32-bit integer in PostgreSQL): a
larger one asked for is refused as input (422), never sent to the database (a 500)."""


def _receipts_query() -> Select[Any]:
    """Receipts with the names of their cashier and player."""
    cashier = accounts.alias("cashier")
    player = accounts.alias("player")
    return select(
        cage_receipts,
        cashier.c.name.label("cashier_name"),
        player.c.name.label("player_name"),
    ).select_from(
        cage_receipts.join(cashier, cashier.c.id == cage_receipts.c.cashier_id).join(
            player, player.c.id == cage_receipts.c.player_id
        )
    )


def receipt_json(row: Any) -> dict[str, Any]:
    """A receipt as the API gives it: amounts in dollars, its time in UTC ISO and epoch
    seconds, ``txn`` the ledger transaction that posted it."""
    return {
        "number": int(row.number),
        "time": iso(float(row.at)),
        "epoch": float(row.at),
        "cashier": str(row.cashier_name),
        "player": str(row.player_name),
        "kind": str(row.kind),
        "amount": dollars(int(row.amount)),
        "balance_before": dollars(int(row.balance_before)),
        "balance_after": dollars(int(row.balance_after)),
        "txn": str(row.txn),
    }


def cash(
    store: Store, who: Account, player: str, amount_in: object, key: str, sign: int
) -> dict[str, Any]:
    """A cashier's deposit (``sign`` 1) or withdrawal (-1) for ``player``: the postings, the
    numbered receipt and the idempotency record in one transaction; the answer is the receipt
    (with ``balance``, the balance after, as before receipts).  A withdrawal over the balance
    is refused with the balance named, and nothing is written (13:69O-1.4(h): no wallet goes
    below zero)."""
    auth.require(who, "cashier")
    amount = cents(amount_in, "amount")
    if amount <= 0:
        raise FeltError("amount must be more than 0.00")
    kind = "deposit" if sign > 0 else "withdrawal"
    digest = request_digest({"cash": sign, "player": player, "amount": amount})
    txn = f"cash:{who.id}:{request_digest(key)[:32]}"  # any key of 128 characters fits
    with store.transaction() as conn:
        seen = store.answered(conn, who.id, key, digest)
        if seen is not None:
            return seen
        row = conn.execute(
            select(accounts.c.id, accounts.c.role, accounts.c.balance, accounts.c.retired_at)
            .where(accounts.c.name == player)
            .with_for_update()  # PostgreSQL: no wager moves the balance between read and post
        ).first()
        if row is None or row.role != "player":
            raise _not_found(f"no player named {player[:40]!r}")
        seen = store.answered(conn, who.id, key, digest)  # again, under the player's lock: a
        if seen is not None:  # twin request with this key (a double click) committed meanwhile
            return seen
        if sign > 0 and row.retired_at is not None:
            raise FeltError(
                f"{player}'s account is retired: it takes no deposits (a withdrawal pays out "
                "what is left)"
            )
        before = int(row.balance)
        if sign < 0 and amount > before:
            raise InsufficientFunds(
                f"{player}'s balance is {dollars(before)}: a withdrawal of {dollars(amount)} "
                f"is more than it; at most {dollars(before)} can be paid out, nothing was paid"
            )
        store.post(
            conn,
            txn,
            [
                Posting(CAGE, -sign * amount, kind),
                Posting(player_account(row.id), sign * amount, kind),
            ],
        )
        after = store.balance(conn, int(row.id))
        at = conn.execute(select(func.max(postings.c.at)).where(postings.c.txn == txn)).scalar()
        try:
            number = conn.execute(
                insert(cage_receipts)
                .values(
                    cashier_id=who.id,
                    player_id=int(row.id),
                    kind=kind,
                    amount=amount,
                    balance_before=before,
                    balance_after=after,
                    txn=txn,
                    at=float(at if at is not None else time.time()),
                )
                .returning(cage_receipts.c.number)
            ).scalar_one()
        except IntegrityError as err:  # the same key's twin wrote it first; nothing of this one
            raise Conflict(  # is kept (the transaction is rolled back whole)
                f"idempotency key {key[:40]!r}: this {kind} was just written by the same "
                "request sent twice; its receipt is in the player's recent receipts"
            ) from err
        saved = conn.execute(_receipts_query().where(cage_receipts.c.number == number)).one()
        answer = {**receipt_json(saved), "balance": dollars(after)}
        store.remember(conn, who.id, key, digest, json.dumps(answer))
    return answer


def receipt(store: Store, who: Account, number: int) -> dict[str, Any]:
    """One receipt by its number, for the cashier who wrote it or a supervisor."""
    auth.require(who, "cashier", "supervisor")
    with store.engine.connect() as conn:
        row = conn.execute(_receipts_query().where(cage_receipts.c.number == number)).first()
    if row is None:
        raise _not_found(f"no receipt number {number}")
    if who.role == "cashier" and int(row.cashier_id) != who.id:
        raise Forbidden(
            f"receipt {number} was written by another cashier; its cashier or a supervisor "
            "may read it"
        )
    return receipt_json(row)


# ----------------------------------------------------------------- players
def _player_json(row: Any) -> dict[str, Any]:
    return {
        "name": str(row.name),
        "balance": dollars(int(row.balance)),
        "state": state_of(bool(row.locked), row.retired_at),
        "last_login": None if row.last_login_at is None else iso(float(row.last_login_at)),
    }


_PLAYER_COLUMNS: Final = (
    accounts.c.name,
    accounts.c.balance,
    accounts.c.locked,
    accounts.c.retired_at,
    accounts.c.last_login_at,
)


def find_players(store: Store, who: Account, query: str) -> dict[str, Any]:
    """Players whose name holds ``query`` (any case), names that begin with it first, each with
    balance, state and last log-in; an empty query lists the first names."""
    auth.require(who, "cashier", "supervisor")
    if not SEARCH_PATTERN.fullmatch(query):
        raise FeltError(
            f"search for up to {MAX_NAME_CHARS} of the letters, digits, '-', '_' or '.' a "
            f"name is made of, got {query[:40]!r}"
        )
    needle = query.lower().replace("_", "\\_")  # '_' is LIKE's any-one-character
    lowered = func.lower(accounts.c.name)
    starts = lowered.like(f"{needle}%", escape="\\")
    stmt = (
        select(*_PLAYER_COLUMNS, starts.label("starts"))
        .where(accounts.c.role == "player", lowered.like(f"%{needle}%", escape="\\"))
        .order_by(starts.desc(), lowered, accounts.c.name)
        .limit(SEARCH_LIMIT + 1)
    )
    with store.engine.connect() as conn:
        rows = conn.execute(stmt).all()
    return {
        "query": query,
        "players": [_player_json(r) for r in rows[:SEARCH_LIMIT]],
        "more": len(rows) > SEARCH_LIMIT,
    }


def player_receipts(store: Store, who: Account, name: str, limit: int) -> dict[str, Any]:
    """A player (as :func:`find_players` gives one) and their recent receipts, newest first."""
    auth.require(who, "cashier", "supervisor")
    auth.check_existing_name(name)
    if not 1 <= limit <= MAX_RECEIPTS_LIMIT:
        raise FeltError(f"limit must be 1 to {MAX_RECEIPTS_LIMIT}, got {limit}")
    with store.engine.connect() as conn:
        row = conn.execute(
            select(accounts.c.id, accounts.c.role, *_PLAYER_COLUMNS).where(accounts.c.name == name)
        ).first()
        if row is None or row.role != "player":
            raise _not_found(f"no player named {name[:40]!r}")
        rows = conn.execute(
            _receipts_query()
            .where(cage_receipts.c.player_id == row.id)
            .order_by(cage_receipts.c.number.desc())
            .limit(limit)
        ).all()
    return {"player": _player_json(row), "receipts": [receipt_json(r) for r in rows]}


# ----------------------------------------------------------------- the day's report
def day_of(text: str | None, now: float) -> date:
    """The UTC date a report is for: ``YYYY-MM-DD`` (default today), not after today."""
    today = datetime.fromtimestamp(now, UTC).date()
    if text is None or text == "":
        return today
    try:
        if not DATE_PATTERN.fullmatch(text):
            raise ValueError
        day = date.fromisoformat(text)
    except ValueError:
        raise FeltError(
            f"date must be a UTC date YYYY-MM-DD such as {today}, got {text[:40]!r}"
        ) from None
    if day > today:
        raise FeltError(
            f"date {day} is after today ({today}, UTC): the cage has no report for it yet"
        )
    if day.year < 1970:
        raise FeltError(f"date must be 1970-01-01 or later, got {day}")
    return day


def _cage_sum(conn: Connection, start: float | None, end: float) -> int:
    """The sum of the cage account's ledger postings at or after ``start`` (None: from the
    beginning) and before ``end``."""
    stmt = select(func.coalesce(func.sum(postings.c.amount), 0)).where(
        postings.c.account == CAGE, postings.c.at < end
    )
    if start is not None:
        stmt = stmt.where(postings.c.at >= start)
    return int(conn.execute(stmt).scalar() or 0)


def _signed(kind: str, amount: int) -> int:
    """A receipt's effect on the cage position: a deposit takes cash in, a withdrawal pays out."""
    return amount if kind == "deposit" else -amount


def _posted(conn: Connection, txns: list[str]) -> dict[str, dict[str, int]]:
    """The ledger's postings of each transaction in ``txns``: account -> cents."""
    out: dict[str, dict[str, int]] = {}
    for chunk in range(0, len(txns), 500):  # a bounded IN list, however busy the day
        query = (
            select(postings.c.txn, postings.c.account, func.sum(postings.c.amount))
            .where(postings.c.txn.in_(txns[chunk : chunk + 500]))
            .group_by(postings.c.txn, postings.c.account)
        )
        for txn, account, amount in conn.execute(query):
            out.setdefault(str(txn), {})[str(account)] = int(amount)
    return out


def day_report(store: Store, who: Account, day_text: str | None, cashier: str | None = None,
               now: float | None = None) -> dict[str, Any]:  # fmt: skip
    """The cage's report for a UTC day: the opening position (from the ledger's cage postings
    before the day), each movement (the day's receipts), totals by cashier, the closing
    position, and the reconciliation: the day's cage postings must come to the receipts' net
    to the cent (so the closing position is the ledger's at the day's end), and each receipt
    must match its own ledger transaction (the cage and the player's wallet, each amount).

    Every cashier and supervisor reads the whole cage's day; ``cashier`` narrows the movements
    and the by-cashier totals to one cashier (a cashier may name only themself), while the
    opening, closing and reconciliation stay the whole cage's."""
    auth.require(who, "cashier", "supervisor")
    now = time.time() if now is None else now
    day = day_of(day_text, now)
    if cashier is not None:
        auth.check_existing_name(cashier)
        if who.role == "cashier" and cashier != who.name:
            raise Forbidden(
                "a cashier reads the whole cage's day or their own movements; a supervisor "
                "reads any cashier's"
            )
    start = float(calendar.timegm(day.timetuple()))
    end = start + 86400.0
    with store.engine.connect() as raw:
        conn = (
            raw.execution_options(isolation_level="REPEATABLE READ")
            if raw.dialect.name == "postgresql"
            else raw
        )  # one snapshot: the receipts and the postings read at the same instant
        with conn.begin():
            if cashier is not None:
                found = conn.execute(
                    select(accounts.c.id, accounts.c.role).where(accounts.c.name == cashier)
                ).first()
                if found is None or found.role != "cashier":
                    raise _not_found(f"no cashier named {cashier[:40]!r}")
            before = _cage_sum(conn, None, start)
            during = _cage_sum(conn, start, end)
            through = _cage_sum(conn, None, end)
            rows = conn.execute(
                _receipts_query()
                .where(cage_receipts.c.at >= start, cage_receipts.c.at < end)
                .order_by(cage_receipts.c.number)
            ).all()
            posted = _posted(conn, [str(r.txn) for r in rows])
    deposits = sum(int(r.amount) for r in rows if r.kind == "deposit")
    withdrawals = sum(int(r.amount) for r in rows if r.kind == "withdrawal")
    net = deposits - withdrawals
    opening = -before
    closing = opening + net
    ledger_closing = -through
    by: dict[str, dict[str, int]] = {}
    for r in rows:
        t = by.setdefault(str(r.cashier_name), {"deposits": 0, "withdrawals": 0, "count": 0})
        t["deposits" if r.kind == "deposit" else "withdrawals"] += int(r.amount)
        t["count"] += 1
    differences = []
    if -during != net:
        differences.append(
            f"the ledger's cage postings for the day come to {dollars(-during)} taken in, but "
            f"the receipts' net is {dollars(net)} (a difference of {dollars(-during - net)})"
        )
    for r in rows:  # each receipt against its own ledger transaction
        signed = int(r.amount) if r.kind == "deposit" else -int(r.amount)
        want = {CAGE: -signed, player_account(int(r.player_id)): signed}
        if posted.get(str(r.txn), {}) != want:
            differences.append(
                f"receipt {int(r.number)} ({r.kind} of {dollars(int(r.amount))}) does not match "
                f"its ledger postings {str(r.txn)!r}"
            )
    shown = [r for r in rows if cashier is None or r.cashier_name == cashier]
    return {
        "date": day.isoformat(),
        "from": iso(start),
        "to": iso(end),
        "complete": now >= end,
        "as_of": iso(min(now, end)),
        "cashier": cashier,
        "opening": dollars(opening),
        "deposits": dollars(deposits),
        "withdrawals": dollars(withdrawals),
        "count": len(rows),
        "net": dollars(net),
        "closing": dollars(closing),
        "by_cashier": [
            {
                "cashier": name,
                "deposits": dollars(t["deposits"]),
                "withdrawals": dollars(t["withdrawals"]),
                "count": t["count"],
                "net": dollars(t["deposits"] - t["withdrawals"]),
            }
            for name, t in sorted(by.items())
            if cashier is None or name == cashier
        ],
        "movements": [receipt_json(r) for r in shown],
        "ledger": {
            "opening": dollars(opening),
            "day": dollars(-during),
            "closing": dollars(ledger_closing),
        },
        "reconciled": not differences,
        "reconciliation": "reconciled" if not differences else "; ".join(differences),
    }
