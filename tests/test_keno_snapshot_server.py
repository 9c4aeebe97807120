"""Keno snapshots on the server (issue 18 item 15), on SQLite and PostgreSQL: each draw writes
one in its own transaction, a restart restores the newest that verifies and replays only the
events after it, and ends in the state a full replay of every event gives; a snapshot that does
not verify is refused with the reason logged and the one before it (or a full replay) used."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy import func, insert, select, update

from felt.games.keno import server as keno_module
from felt.games.keno import snapshot
from felt.games.keno import snapshots as kenosnap
from felt.games.keno.codec import from_json
from felt.games.keno.server import KenoHost, keno_events, keno_games
from felt.games.keno.snapshot import same_state
from felt.games.keno.snapshots import keno_snapshots
from felt.games.keno.spec import KenoSpec
from felt.games.keno.system import KenoSystem
from felt.server.host import new_table_row
from felt.server.store import Store, felt_tables
from tests.keno_helpers import card_data
from tests.test_keno_server import (
    LOSER,
    NUMBERS,
    STRAIGHT4,
    SUPER,
    WRITER,
    Draws,
    hold,
    host_of,
    issue,
    keno_harness,
    ok,
    release,
)
from tests.test_keno_snapshot import CONFIG as CLAIMS_CONFIG
from tests.test_keno_snapshot import claims_run


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> Draws:
    """The server's draw function, replaced (as in tests/test_keno_server.py)."""
    d = Draws()
    monkeypatch.setattr(keno_module, "draw_numbers", d)
    return d


class FailOnce:
    """:func:`kenosnap.write` failing the first time (the database went away)."""

    def __init__(self) -> None:
        self.real = kenosnap.write
        self.failed: list[int] = []

    def __call__(self, conn: Any, system_id: str, seq: int, snap: Any) -> None:
        if not self.failed:
            self.failed.append(seq)
            raise RuntimeError("the database went away")
        self.real(conn, system_id, seq, snap)


def _games(database_url: str, draws: Draws, games: int = 3) -> KenoSpec:
    """Play ``games`` held games with tickets, a void, a redemption and an approval, and leave
    a game held with tickets issued after the last draw; the system's spec."""
    for h in keno_harness(database_url):
        for g in range(games):
            hold(h)
            draws.queue = [NUMBERS]
            issue(h, STRAIGHT4)
            issue(h, LOSER | {"games": 2}, station=2)
            number = issue(h, LOSER)["ticket"]["number"]
            ok(h.keno(WRITER, {"action": "void", "station": 1, "ticket": number}))
            release(h)
            ok(h.keno(WRITER, {"action": "redeem", "station": 1, "ticket": 1 + 3 * g}))
        hold(h)
        issue(h, STRAIGHT4)
        ok(h.keno(SUPER, {"action": "approve", "ticket": 2}))
        spec = host_of(h).spec
    return spec


def _loaded(database_url: str, spec: KenoSpec, monkeypatch: pytest.MonkeyPatch,
            snapshots: bool = True) -> tuple[KenoHost, int]:  # fmt: skip
    """A host loaded from the record (from its snapshots, or replaying every event), and how
    many events it replayed."""
    replayed = 0

    def counted(*args: Any) -> Any:
        nonlocal replayed
        replayed += 1
        return from_json(*args)

    with monkeypatch.context() as m:
        m.setattr("felt.games.keno.server.from_json", counted)
        if not snapshots:
            m.setattr(kenosnap, "load", lambda *args: None)
        host = KenoHost(Store(database_url), spec, "node-b")
        try:
            host.load()
        finally:
            host.store.dispose()
    return host, replayed


def _count(database_url: str, what: Any) -> int:
    store = Store(database_url)
    try:
        with store.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(what)).scalar_one())
    finally:
        store.dispose()


def test_a_restart_restores_the_last_snapshot_and_replays_only_what_follows(
    database_url: str, draws: Draws, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _games(database_url, draws)
    assert _count(database_url, keno_snapshots) >= 3  # one per draw (older states pruned)
    snap, tail = _loaded(database_url, spec, monkeypatch)
    full, every = _loaded(database_url, spec, monkeypatch, snapshots=False)
    assert every == _count(database_url, keno_events) - 1  # all but the approval
    assert 0 < tail < every / 3  # the held game's open, override, issue
    assert same_state(snap.system, full.system) == []
    assert (snap.rows, snap.version, snap.status) == (full.rows, full.version, full.status)
    assert (snap.approvals, snap.drawn_at) == (full.approvals, full.drawn_at)
    assert len(snap.system.tickets) == len(full.system.tickets) == 10
    assert snap.system.tickets[1] == full.system.tickets[1]  # settled: read from the archive


def test_a_snapshot_that_does_not_verify_is_refused_and_the_one_before_it_used(
    database_url: str, draws: Draws, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    spec = _games(database_url, draws)
    full, every = _loaded(database_url, spec, monkeypatch, snapshots=False)
    _, tail = _loaded(database_url, spec, monkeypatch)
    store = Store(database_url)
    c = keno_snapshots.c
    try:
        with store.engine.begin() as conn:
            newest = conn.execute(select(func.max(c.seq))).scalar_one()
            conn.execute(update(keno_snapshots).where(c.seq == newest).values(digest="0" * 64))
        with caplog.at_level(logging.WARNING, logger="felt.server"):
            before, more = _loaded(database_url, spec, monkeypatch)
        assert (
            f"snapshot of event {newest} refused: its state does not match its digest"
            in caplog.text
        )
        assert tail < more < every
        assert same_state(before.system, full.system) == []
        with store.engine.begin() as conn:  # every archive damaged: every event replayed
            conn.execute(update(keno_snapshots).values(archive_digest="0" * 64))
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="felt.server"):
            replayed, all_of_them = _loaded(database_url, spec, monkeypatch)
        assert "archive of settled tickets and past days does not match its digest" in caplog.text
        assert all_of_them == every
        assert same_state(replayed.system, full.system) == []
    finally:
        store.dispose()


def test_the_snapshot_is_written_in_the_draws_transaction(
    database_url: str, draws: Draws, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot that cannot be written leaves the draw unwritten too (one transaction): the
    game is drawn again once it can be."""
    for h in keno_harness(database_url):
        hold(h)
        issue(h, STRAIGHT4)
        host = host_of(h)
        broken = FailOnce()
        monkeypatch.setattr(kenosnap, "write", broken)
        game = host.system.game
        release(h)
        assert broken.failed
        store = h.server.store
        with store.engine.connect() as conn:
            drawn = conn.execute(
                select(keno_games.c.number).where(keno_games.c.number == game)
            ).all()
            seqs = conn.execute(select(keno_snapshots.c.seq)).scalars().all()
            events = conn.execute(select(keno_events.c.seq)).scalars().all()
        assert len(drawn) == 1  # drawn once, when the snapshot could be written with it
        assert broken.failed[0] in events  # the same seq, taken again with its snapshot
        assert broken.failed[0] in seqs


def test_a_snapshot_of_the_layout_before_is_refused_and_every_event_replayed(
    database_url: str, draws: Draws, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    """A snapshot written before a past day's voids and unpaid winners were archived (layout
    2) is refused as of another shape, each of them, and the system rebuilt from the events;
    the next draw's snapshot is of the layout now."""
    spec = _games(database_url, draws)
    full, every = _loaded(database_url, spec, monkeypatch, snapshots=False)
    before = snapshot.schema(2)
    assert before != snapshot.SCHEMA
    store = Store(database_url)
    c = keno_snapshots.c
    try:
        with store.engine.begin() as conn:
            for row in conn.execute(select(c.seq, c.state).where(c.state.is_not(None))).all():
                conn.execute(
                    update(keno_snapshots)
                    .where(c.seq == row.seq)
                    .values(schema=before, digest=snapshot.digest(before.encode(), row.state))
                )
        with caplog.at_level(logging.WARNING, logger="felt.server"):
            rebuilt, replayed = _loaded(database_url, spec, monkeypatch)
        assert caplog.text.count("written by a system of another shape (schema)") == kenosnap.KEEP
        assert replayed == every
        assert same_state(rebuilt.system, full.system) == []
    finally:
        store.dispose()


def test_each_write_keeps_the_chains_of_the_newest_snapshots_and_drops_the_rest(
    database_url: str,
) -> None:
    """After every draw's write the rows on record are the chains of the :data:`KEEP` newest
    snapshots, only those keeping their state (as a walk of every row finds them), though a
    write reads only the rows down to where the chain it pushes out joins a kept one; and the
    newest restores the system as the full replay to it."""
    actions, snaps = claims_run(1)
    spec = KenoSpec("keno", card_data(ticket_validity="30 days"), stations=(1, 2))
    store = Store(database_url)
    store.migrate()
    c = keno_snapshots.c
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(felt_tables).values(**new_table_row(spec, "node-a")))
        for seq in sorted(snaps):
            with store.engine.begin() as conn:
                kenosnap.write(conn, spec.id, seq, snaps[seq])
                rows = {
                    r.seq: (r.base, r.kept)
                    for r in conn.execute(select(c.seq, c.base, c.state.is_not(None).label("kept")))
                }
            newest = sorted(rows, reverse=True)[: kenosnap.KEEP]
            chains: set[int] = set()
            for at in newest:
                key: int | None = at
                while key is not None and key not in chains:
                    chains.add(key)
                    key = rows[key][0]
            assert set(rows) == chains, seq
            assert {k for k, (_, kept) in rows.items() if kept} == set(newest), seq
        assert len(rows) < len(snaps) // 4  # merged segments leave the chain
        with store.engine.connect() as conn:
            loaded = kenosnap.load(conn, spec.id, CLAIMS_CONFIG)
        assert loaded is not None
        assert loaded.seq == max(snaps)
        assert same_state(loaded.system, KenoSystem.replay(CLAIMS_CONFIG, actions[: loaded.seq + 1])) == []  # fmt: skip
    finally:
        store.dispose()
