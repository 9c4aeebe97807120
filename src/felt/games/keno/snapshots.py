"""Keno snapshots on the record (``keno_snapshots``): written in the transaction of the draw that
completes a game, read at start-up so only the events after the last good snapshot are replayed.

A snapshot names the one before it (``base``): its archive segment holds the tickets settled
since that one, so a snapshot's tickets are its own state and the archive segments of its chain.
At load the newest snapshot whose chain verifies is used; one whose digest (or schema, or
configuration) does not match is refused with the reason logged, and the one before it is tried,
down to none: then every event is replayed, as before snapshots.  The next snapshot written
builds on the one loaded, so a refused one is left out of every chain after it.

Part of Keno's server adapter, an outer layer that lives in the game's folder: it reads and writes
the server's record (:mod:`felt.server.store`); the pure snapshot format is
:mod:`felt.games.keno.snapshot`, which never imports it.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Connection, delete, insert, select, update

from felt.core.errors import FeltError
from felt.games.keno import snapshot
from felt.games.keno.system import KenoSystem, SystemConfig
from felt.server.store import metadata

log = logging.getLogger("felt.server")
keno_snapshots = metadata.tables["keno_snapshots"]
"""The snapshots on record (:mod:`felt.games.keno.tables`)."""


@dataclass(frozen=True)
class Loaded:
    """A system restored from the snapshot written with event ``seq``; ``extra`` is what the
    host keeps beside it."""

    seq: int
    system: KenoSystem
    extra: dict[str, Any]


KEEP: Final = 3
"""How many of the newest snapshots keep their state (the ones a refused snapshot falls back on;
below them, every event is replayed)."""


def write(conn: Connection, system_id: str, seq: int, snap: snapshot.Snapshot) -> None:
    """Store a snapshot taken with event ``seq``; keep the state of the :data:`KEEP` newest and
    the archive segments of their chains, and drop the rest (derived data, the events stay).

    The rows on record are the chains of the :data:`KEEP` newest (each write leaves them so), so
    what a new one makes unneeded is the chain of the snapshot it pushes out, down to where that
    chain joins a kept one: the rows are read from the newest down to there, not all of them (a
    year's chain is a few hundred rows, and a draw writes one)."""
    c = keno_snapshots.c
    conn.execute(
        insert(keno_snapshots).values(
            system_id=system_id, seq=seq, base=snap.base, schema=snap.schema, state=snap.state,
            digest=snap.digest, archived=snap.archived, archive=snap.archive,
            archive_digest=snap.archive_digest, at=time.time(),
        )
    )  # fmt: skip
    seen = 0
    kept: set[int] = set()  # the next row of each kept chain
    dropped: set[int] = set()  # the next row of each chain no longer kept, until it joins one
    needed: list[int] = []
    gone: list[int] = []
    rows = conn.execute(
        select(c.seq, c.base).where(c.system_id == system_id).order_by(c.seq.desc())
    )
    try:
        for row in rows:
            if seen > KEEP and not dropped:
                break  # every chain pushed out has joined a kept one: the rest is kept
            seen += 1
            if seen <= KEEP:
                kept.add(row.seq)
            dropped.discard(row.seq)
            if row.seq in kept:
                kept.discard(row.seq)
                needed.append(row.seq)
                ahead = kept
            else:
                gone.append(row.seq)
                ahead = dropped
            if row.base is not None:
                ahead.add(row.base)
    finally:
        rows.close()
    if gone:
        conn.execute(delete(keno_snapshots).where(c.system_id == system_id, c.seq.in_(gone)))
    stale = needed[KEEP:]
    if stale:
        conn.execute(
            update(keno_snapshots)
            .where(c.system_id == system_id, c.seq.in_(stale), c.state.is_not(None))
            .values(state=None)
        )


def load(conn: Connection, system_id: str, config: SystemConfig) -> Loaded | None:
    """The newest snapshot of a system that verifies, restored; None if there is none (every
    event is then replayed).  Each one refused is logged with the reason."""
    c = keno_snapshots.c
    rows = {
        r.seq: r
        for r in conn.execute(
            select(
                c.seq,
                c.base,
                c.archived,
                c.archive,
                c.archive_digest,
                c.state.is_not(None).label("kept"),
            )
            .where(c.system_id == system_id)
            .order_by(c.seq)
        )
    }
    bad: dict[int, str | None] = {}

    def fault(k: int) -> str | None:
        if k not in bad:
            row = rows[k]
            bad[k] = snapshot.segment_ok(row.archived, bytes(row.archive), row.archive_digest)
        return bad[k]

    for seq in sorted(rows, reverse=True):
        if not rows[seq].kept:
            continue
        chain: list[int] = []
        at: int | None = seq
        reason = None
        while at is not None:
            if at not in rows:
                reason = f"the snapshot it builds on (event {at}) is not on record"
                break
            problem = fault(at)
            if problem is not None:
                reason = problem if at == seq else f"snapshot {at} it builds on: {problem}"
                break
            chain.append(at)
            at = rows[at].base
        if reason is None:
            state = conn.execute(
                select(c.schema, c.state, c.digest).where(c.system_id == system_id, c.seq == seq)
            ).one()
            segments = [(k, rows[k].archived, bytes(rows[k].archive)) for k in reversed(chain)]
            try:
                system, extra = snapshot.restore(
                    config, state.schema, bytes(state.state), state.digest, segments
                )
            except FeltError as err:
                reason = str(err)
            else:
                return Loaded(seq, system, extra)
        log.warning(
            "keno %s: snapshot of event %d refused: %s; trying the one before it",
            system_id,
            seq,
            reason,
        )
    return None


__all__ = ["Loaded", "load", "write"]
