"""The hands a poker table server recorded, read back as hand records (issue 24 item 5): the rake
collected per hand and per hour by table, and each hand's history in PHH.

A finished round's record is its origin (the stacks, players and button it began with) and its
events with the cards each drew; the hand is rebuilt by replaying them on those cards (the
undealt places filled with any order: a finished hand drew every card it used), checked against
the stored effects, and turned into a :class:`~felt.games.poker.history.HandRecord`.  Routes
under ``/api/poker``: ``rake`` (the floor's report, a supervisor's) and ``hands/{round}/phh``.

Part of poker's server adapter (an outer layer in the game's folder): it imports the server's
modules; the game's pure modules never import it.  (No ``from __future__ import annotations``:
FastAPI reads the routes' annotations, ``who`` among them, as objects.)
"""

import asyncio
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from sqlalchemy import select

from felt.core.cards import Card, parse_cards
from felt.core.errors import FeltError
from felt.games.poker.config import GAME, PokerConfig
from felt.games.poker.history import HandRecord, record_of, to_phh
from felt.games.poker.round import PokerRound
from felt.rounds.shuffle import SeededShuffle, complete_deck
from felt.server.auth import Forbidden
from felt.server.store import Store, felt_tables, round_events, rounds

if TYPE_CHECKING:
    from felt.server.app import Server

PREFIX = "/api/poker"


def _poker_tables(store: Store) -> dict[str, PokerConfig]:
    """Every poker table on record with its settings."""
    out: dict[str, PokerConfig] = {}
    with store.engine.connect() as conn:
        for tid, text in conn.execute(select(felt_tables.c.id, felt_tables.c.spec)):
            spec = json.loads(text)
            if isinstance(spec, dict) and spec.get("game") == GAME:
                out[str(tid)] = PokerConfig.from_mapping(spec.get("settings") or {})
    return out


def rebuild(config: PokerConfig, origin: dict[str, Any], events: Sequence[Any]) -> PokerRound:
    """A recorded round replayed on its recorded cards (see the module docstring)."""
    from felt.games.poker.game import GAME as POKER
    from felt.server.host import event_record

    known: dict[int, Card] = {}
    for e in events:
        for place, card in json.loads(e.drawn):
            known[int(place)] = parse_cards(card)[0]
    deck = complete_deck(known, SeededShuffle(0))  # never dealt from: any order does
    rnd = POKER.new_round(config, deck, origin)
    assert isinstance(rnd, PokerRound)
    for e in events:
        event = rnd.apply(POKER.parse_action(json.loads(e.action), f"event {e.seq}"))
        if event_record(event) != json.loads(e.effects):
            raise FeltError(f"round event {e.seq} does not replay as recorded")
    return rnd


def hand_records(store: Store, table: str | None = None) -> list[HandRecord]:
    """Every finished hand of the poker tables on record (or of ``table``), oldest first; a
    round that ended without a hand (every seat cashed out) or by a misdeal leaves none."""
    configs = _poker_tables(store)
    if table is not None and table not in configs:
        raise FeltError(
            f"no poker table {table[:64]!r} on record (poker tables: {', '.join(sorted(configs)) or 'none'})"
        )
    out: list[HandRecord] = []
    with store.engine.connect() as conn:
        query = select(rounds).where(rounds.c.finished.is_(True))
        query = query.where(rounds.c.table_id.in_([table] if table else sorted(configs)))
        for row in conn.execute(query.order_by(rounds.c.started_at)).all():
            events = conn.execute(
                select(round_events)
                .where(round_events.c.round_id == row.id)
                .order_by(round_events.c.seq)
            ).all()
            rnd = rebuild(configs[row.table_id], json.loads(row.origin), events)
            if rnd.hand is None or rnd.hand.final is None or rnd.ended_by == "misdeal":
                continue
            names = {n: s.player for n, s in rnd.seats.items() if s.player}
            out.append(
                record_of(
                    rnd.hand,
                    row.table_id,
                    row.number,
                    row.started_at,
                    row.finished_at or row.started_at,
                    names,
                )
            )
    return out


def hand_phh(store: Store, round_id: str) -> str:
    """One recorded hand in PHH (the poker hand history format), or one clear error."""
    with store.engine.connect() as conn:
        row = conn.execute(select(rounds).where(rounds.c.id == round_id)).first()
    if row is None:
        raise FeltError(f"no round {round_id[:80]!r} on record")
    if row.table_id not in _poker_tables(store):
        raise FeltError(f"round {round_id[:80]!r} is not a poker table's: it has no hand history")
    found = [r for r in hand_records(store, row.table_id) if r.number == row.number]
    if not found:
        raise FeltError(
            f"round {round_id[:80]!r} is no finished poker hand (a poker table's round that "
            "dealt a hand and awarded it, or called it dead)"
        )
    return to_phh(found[0])


def mount(app: FastAPI, server: "Server", who: Any) -> None:
    """``GET /api/poker/rake`` (a supervisor's: the rake per hand and per hour by table, as the
    analysis sheet's JSON) and ``GET /api/poker/hands/{round}/phh`` (the floor's: one hand's
    history, its PHH text in JSON as every route answers)."""
    from felt.games.poker.analysis import rake_sheet

    def staff(caller: Any, what: str) -> None:
        if caller.role not in ("supervisor", "dealer"):
            raise Forbidden(f"only the floor ({what}): a supervisor or a dealer")

    @app.get(f"{PREFIX}/rake")
    async def poker_rake(caller: who, table: str | None = None) -> dict[str, Any]:
        if caller.role != "supervisor":
            raise Forbidden("only a casino supervisor reads the rake report")
        records = await asyncio.to_thread(hand_records, server.store, table)
        return rake_sheet(records).to_json()

    @app.get(f"{PREFIX}/hands/{{round_id}}/phh")
    async def poker_hand_phh(round_id: str, caller: who) -> dict[str, str]:
        staff(caller, "a hand's history")
        text = await asyncio.to_thread(hand_phh, server.store, round_id)
        return {"round": round_id, "format": "phh", "text": text}
