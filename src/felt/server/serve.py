"""``felt serve``: build the server from its options and run it under uvicorn."""

from __future__ import annotations

import logging
import socket
from typing import Final

from felt.core.errors import FeltError
from felt.server.app import LEASE_SECONDS, Server, create_app
from felt.server.spec import default_specs, load_specs
from felt.server.store import Store, default_database_url

MIN_LEASE_SECONDS: Final = 1.0
MAX_LEASE_SECONDS: Final = 3600.0


def build_server(
    database: str | None, tables: str | None, node: str, lease_seconds: float = LEASE_SECONDS
) -> Server:
    """A server for ``database`` (default: SQLite in the user's data directory) running the
    tables of the ``tables`` file (default: one table of each game)."""
    if not MIN_LEASE_SECONDS <= lease_seconds <= MAX_LEASE_SECONDS:  # NaN fails too
        raise FeltError(
            f"--lease-seconds must be {MIN_LEASE_SECONDS:g} to {MAX_LEASE_SECONDS:g}, "
            f"got {lease_seconds:g}"
        )
    specs = load_specs(tables) if tables else default_specs()
    return Server(Store(database or default_database_url()), specs, node, lease_seconds)


def serve(
    database: str | None,
    tables: str | None,
    host: str,
    port: int,
    node: str | None,
    lease_seconds: float = LEASE_SECONDS,
) -> int:
    """Run until interrupted."""
    import uvicorn

    if not 0 <= port <= 65535:
        raise FeltError(f"--port must be 0 to 65535, got {port}")
    server = build_server(database, tables, node or f"{host}:{port}", lease_seconds)
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as err:
        raise FeltError(f"cannot listen on {host}:{port}: {err.strerror}") from err
    server.prepare()  # here, not in uvicorn's start-up, so a refusal is one line and exit 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    uvicorn.run(create_app(server), host=host, port=port, log_level="warning", ws_max_size=65536)
    return 0
