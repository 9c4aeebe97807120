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


def _chain(bases: dict[int, int | None], seq: int) -> list[int]:
    out: list[int] = []
    at: int | None = seq
    while at is not None and at in bases and at not in out:
        out.append(at)
        at = bases[at]
    return out


def write(conn: Connection, system_id: str, seq: int, snap: snapshot.Snapshot) -> None:
    """Store a snapshot taken with event ``seq``; keep the state of the :data:`KEEP` newest and
    the archive segments of their chains, and drop the rest (derived data, the events stay)."""
    c = keno_snapshots.c
    conn.execute(
        insert(keno_snapshots).values(
            system_id=system_id, seq=seq, base=snap.base, schema=snap.schema, state=snap.state,
            digest=snap.digest, archived=snap.archived, archive=snap.archive,
            archive_digest=snap.archive_digest, at=time.time(),
        )
    )  # fmt: skip
    bases = {
        r.seq: r.base for r in conn.execute(select(c.seq, c.base).where(c.system_id == system_id))
    }
    newest = sorted(bases, reverse=True)[:KEEP]
    needed = {k for s in newest for k in _chain(bases, s)}
    gone = [k for k in bases if k not in needed]
    if gone:
        conn.execute(delete(keno_snapshots).where(c.system_id == system_id, c.seq.in_(gone)))
    stale = [k for k in needed if k not in newest]
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
