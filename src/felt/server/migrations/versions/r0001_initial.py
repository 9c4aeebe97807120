"""The first schema: accounts, sessions, tables, rounds, round events, the ledger, idempotency.

Revision ID: r0001
Revises:
"""

from __future__ import annotations

from alembic import op

from felt.server import store

revision = "r0001"
down_revision = None


def upgrade() -> None:
    """Create the tables as :mod:`felt.server.store` declares them at this revision; later
    revisions alter them with explicit operations."""
    first = ("accounts", "sessions", "felt_tables", "rounds", "round_events", "round_players",
             "postings", "idempotency")  # fmt: skip
    store.metadata.create_all(op.get_bind(), tables=[store.metadata.tables[t] for t in first])
