"""The server processes sharing the database (``nodes``), so each can take a fair share of the
tables.

Revision ID: r0002
Revises: r0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "r0002"
down_revision = "r0001"


def upgrade() -> None:
    """Add ``nodes``: one row per process, its name and when its heartbeat runs out."""
    op.create_table(
        "nodes",
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("lease_until", sa.Float, nullable=False),
    )
