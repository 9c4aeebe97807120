"""The poker room's waiting lists (issue 24, N.J.A.C. 19:47-14.18): ``poker_waiting`` (each list's
players in order) and ``poker_waitlist_changes`` (every change, who made it, when and why).

Revision ID: r0007
Revises: r0006
"""

from __future__ import annotations

from alembic import op

from felt.server import store

revision = "r0007"
down_revision = "r0006"


def upgrade() -> None:
    """Create the two tables as :mod:`felt.games.poker.store` declares them at this revision
    (declared here too while the poker game is not yet registered)."""
    from felt.games.poker.store import NAMES, declare_tables

    if NAMES[0] not in store.metadata.tables:
        declare_tables(store.metadata)
    store.metadata.create_all(op.get_bind(), tables=[store.metadata.tables[t] for t in NAMES])
