"""The keno systems' own tables of the server's record (N.J.A.C. 19:47-15), declared on the
server's metadata (:data:`felt.server.store.metadata`, which the migrations ``r0003`` and ``r0004``
and ``create_all`` read) by :meth:`felt.games.keno.game.Keno.declare_tables` when
:mod:`felt.server.store` is imported.  Part of Keno's server adapter (an outer layer in the game's
folder); it imports no module of the server, so the store can declare it while it loads.  The
adapter's other modules find the tables by name on that metadata (:data:`NAMES`).

A keno system's row in ``felt_tables`` holds its spec (game ``keno``), so leases cover it as a
table.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
)

NAMES: Final = ("keno_events", "keno_games", "keno_snapshots")
"""The tables, in the order declared."""


def declare(metadata: MetaData) -> None:
    """Declare the keno tables on ``metadata`` (the server's)."""
    Table(
        "keno_events",
        metadata,
        Column("system_id", String(64), ForeignKey("felt_tables.id"), primary_key=True),
        Column("seq", Integer, primary_key=True, autoincrement=False),
        Column("action", Text, nullable=False),
        Column("effects", Text, nullable=False),
        Column("actor", Integer, nullable=True),
        Column("at", Float, nullable=False),
    )
    # One row per accepted action of a keno system (N.J.A.C. 19:47-15), keyed on (system,
    # sequence number) so two writers of one system conflict; the action (the numbers of a draw
    # and of a quick-pick included) and what it caused, as :mod:`felt.games.keno.codec` writes
    # them.

    Table(
        "keno_games",
        metadata,
        Column("system_id", String(64), ForeignKey("felt_tables.id"), primary_key=True),
        Column("day", String(10), primary_key=True),
        Column("number", Integer, primary_key=True, autoincrement=False),
        Column("numbers", Text, nullable=False),
        Column("opened_at", String(40), nullable=False),
        Column("started_at", String(40), nullable=False),
        Column("drawn_at", String(40), nullable=False),
    )
    # Each drawn keno game: its day, number and the 20 numbers in drawing order, written with the
    # draw (the winning numbers of every game are kept, 19:47-15.5(h)); times ISO 8601.

    Table(
        "keno_snapshots",
        metadata,
        Column("system_id", String(64), ForeignKey("felt_tables.id"), primary_key=True),
        Column("seq", Integer, primary_key=True, autoincrement=False),
        Column("base", Integer, nullable=True),
        Column("schema", String(64), nullable=False),
        Column("state", LargeBinary, nullable=True),
        Column("digest", String(64), nullable=False),
        Column("archived", Text, nullable=False),
        Column("archive", LargeBinary, nullable=False),
        Column("archive_digest", String(64), nullable=False),
        Column("at", Float, nullable=False),
    )
    # A keno system's state as of its event ``seq`` (a draw), written in the draw's transaction
    # so a start replays only the events after it (:mod:`felt.games.keno.snapshot`): ``state``
    # is what can still change (open tickets, games, balances, ...); ``archive`` the tickets
    # settled since the snapshot ``base`` before it in the chain (``archived``: their numbers,
    # JSON).  Each part carries its SHA-256 ``digest``; ``schema`` names the shape of the state it
    # was written with.  Only the last few states are kept (``state`` NULL on older rows of a
    # chain; rows on no kept chain are deleted): a snapshot is a faster way to rebuild from
    # ``keno_events``, never the record.
