"""Alembic's entry: run the revisions on the connection :func:`felt.server.migrations.upgrade`
hands over."""

from __future__ import annotations

from alembic import context

from felt.server.store import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
