"""Staff administration and the cage (issue 20): the accounts' last log-in, forced password
change and retirement; ``account_changes`` (every change to an account and who made it); and
``cage_receipts`` (the cage's numbered receipts).

Revision ID: r0005
Revises: r0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from felt.server import store

revision = "r0005"
down_revision = "r0004"


def upgrade() -> None:
    """Add the accounts' new columns (a database whose r0001 ran on today's declarations has
    them already, so only the missing ones are added), then create the two new tables."""
    bind = op.get_bind()
    have = {c["name"] for c in sa.inspect(bind).get_columns("accounts")}
    if "last_login_at" not in have:
        op.add_column("accounts", sa.Column("last_login_at", sa.Float, nullable=True))
    if "must_change_password" not in have:
        op.add_column(
            "accounts",
            sa.Column("must_change_password", sa.Boolean, nullable=False,
                      server_default=sa.false()),
        )  # fmt: skip
    if "retired_at" not in have:
        op.add_column("accounts", sa.Column("retired_at", sa.Float, nullable=True))
    tables = [store.metadata.tables[t] for t in ("account_changes", "cage_receipts")]
    store.metadata.create_all(bind, tables=tables)
