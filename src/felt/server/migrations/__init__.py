"""Schema migrations (Alembic).  ``upgrade`` brings a database to the newest schema; a new
revision under ``versions/`` alters the tables of :mod:`felt.server.store` step by step."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, text

_HERE = Path(__file__).parent
_LOCK_KEY = 0x66656C74  # "felt": PostgreSQL advisory lock held while migrating


def upgrade(engine: Engine) -> None:
    """Apply every revision not yet applied; concurrent starters wait for each other."""
    cfg = Config()
    cfg.set_main_option("script_location", str(_HERE))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
