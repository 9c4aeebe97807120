"""Linked progressive meters (issue 21): ``progressive_meters``, one row per meter, each the
ledger account ``progressive:<id>`` with its amount kept beside its postings.

Revision ID: r0006
Revises: r0005
"""

from __future__ import annotations

from alembic import op

from felt.server import store

revision = "r0006"
down_revision = "r0005"


def upgrade() -> None:
    """Create ``progressive_meters`` as :mod:`felt.server.store` declares it at this revision
    (a meter is opened, and its seed funded, when the first table linked to it is loaded)."""
    store.metadata.create_all(op.get_bind(), tables=[store.metadata.tables["progressive_meters"]])
