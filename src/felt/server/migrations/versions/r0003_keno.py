"""Keno systems on the server (N.J.A.C. 19:47-15): ``keno_events`` and ``keno_games``.  A keno
system's row in ``felt_tables`` holds its spec (game ``keno``), so leases cover it as a table.

Revision ID: r0003
Revises: r0002
"""

from __future__ import annotations

from alembic import op

from felt.server import store

revision = "r0003"
down_revision = "r0002"


def upgrade() -> None:
    """Create the two keno tables as :mod:`felt.server.store` declares them at this revision."""
    tables = [store.metadata.tables[t] for t in ("keno_events", "keno_games")]
    store.metadata.create_all(op.get_bind(), tables=tables)
