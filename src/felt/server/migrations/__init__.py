"""Schema migrations (Alembic).  ``upgrade`` brings a database to the newest schema; a new
revision under ``versions/`` alters the tables of :mod:`felt.server.store` step by step."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, text

_HERE = Path(__file__).parent
_LOCK_KEY = 0x66656C74  # "felt": PostgreSQL advisory lock held while migrating


def upgrade(engine: Engine, seed: Callable[[Connection], None] | None = None) -> None:
    """Apply every revision not yet applied, then ``seed`` (first-start rows), in one
    transaction; concurrent starters wait for each other (PostgreSQL: an advisory lock; SQLite:
    the write lock taken at BEGIN IMMEDIATE), so each finds what the one before it wrote."""
    cfg = Config()
    cfg.set_main_option("script_location", str(_HERE))
    with engine.connect() as conn:
        conn = conn.execution_options(felt_write=True)  # SQLite: BEGIN IMMEDIATE
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            if seed is not None:
                seed(conn)
