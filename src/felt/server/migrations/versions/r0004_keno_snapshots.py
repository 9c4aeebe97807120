"""Keno snapshots (``keno_snapshots``): a keno system's state written with each draw, so a start
replays only the events after the last one instead of every event since the beginning.

Revision ID: r0004
Revises: r0003
"""

from __future__ import annotations

from alembic import op

from felt.server import store

revision = "r0004"
down_revision = "r0003"


def upgrade() -> None:
    """Create ``keno_snapshots`` as :mod:`felt.server.store` declares it at this revision."""
    store.metadata.create_all(op.get_bind(), tables=[store.metadata.tables["keno_snapshots"]])
