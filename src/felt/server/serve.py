"""``felt serve``: build the server from its options, say where it is, and run it under
uvicorn."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
from collections.abc import Sequence
from typing import Final

from felt.core.errors import FeltError
from felt.server import auth
from felt.server.app import LEASE_SECONDS, Server, create_app
from felt.server.pauses import settle_heap, watch_gc
from felt.server.spec import AnySpec, TableSpec, default_specs, load_specs
from felt.server.store import Store, default_database_url, shown_database

MIN_LEASE_SECONDS: Final = 1.0
MAX_LEASE_SECONDS: Final = 3600.0
LOG_LEVELS: Final = ("warning", "info", "debug")
"""``--log-level``: warning (the default) shows only what needs an operator (lock-out alerts,
lost leases); info adds the migrations and uvicorn's start-up; debug everything."""


def build_server(
    database: str | None, tables: str | None, node: str, lease_seconds: float = LEASE_SECONDS
) -> Server:
    """A server for ``database`` (default: SQLite in the user's data directory) running the
    tables of the ``tables`` file (default: one table of each game)."""
    check_lease(lease_seconds)
    specs = load_specs(tables) if tables else default_specs()
    return Server(Store(database or default_database_url()), specs, node, lease_seconds)


def check_lease(lease_seconds: float) -> None:
    """Refuse a ``--lease-seconds`` out of its bounds."""
    if not MIN_LEASE_SECONDS <= lease_seconds <= MAX_LEASE_SECONDS:  # NaN fails too
        raise FeltError(
            f"--lease-seconds must be {MIN_LEASE_SECONDS:g} to {MAX_LEASE_SECONDS:g}, "
            f"got {lease_seconds:g}"
        )


def _url_host(address: str) -> str:
    """An address as a URL writes it (an IPv6 address in brackets)."""
    return f"[{address}]" if ":" in address else address


def listen_urls(host: str, port: int) -> list[str]:
    """The URLs a browser can use to reach ``host``:``port``: the address itself, or for a
    wildcard address (0.0.0.0, ::) the loopback and this machine's own addresses."""
    if host not in ("0.0.0.0", "::", ""):
        return [f"http://{_url_host(host)}:{port}"]
    family = socket.AF_INET6 if host == "::" else socket.AF_INET
    found = ["::1" if host == "::" else "127.0.0.1"]
    with contextlib.suppress(OSError, UnicodeError):
        for info in socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM):
            address = str(info[4][0])
            if address not in found and not address.startswith(("127.", "::1")):
                found.append(address)
    return [f"http://{_url_host(a)}:{port}" for a in found]


def what_runs(specs: Sequence[AnySpec]) -> str:
    """The tables and systems of ``specs``: ``tables b5-1 (boston5), ...; systems keno-1
    (keno)``."""
    tables = [f"{s.id} ({s.game})" for s in specs if isinstance(s, TableSpec)]
    systems = [f"{s.id} ({getattr(s, 'game', '?')})" for s in specs if not isinstance(s, TableSpec)]
    parts = [f"tables {', '.join(tables)}"] if tables else []
    if systems:
        parts.append(f"systems {', '.join(systems)}")
    return "; ".join(parts) or "no tables"


def start_line(server: Server, urls: Sequence[str], database: str) -> str:
    """The one line ``felt serve`` prints when it starts: where it listens, its database
    (without a password), its node name and what it runs."""
    return (
        f"felt serve: listening on {' '.join(urls)} | database {shown_database(database)} | "
        f"node {server.node} | {what_runs(server.specs)}"
    )


def first_start_text(url: str, password: str) -> str:
    """What to do next, printed once, on the start that opened the first account."""
    said = (
        "the password in FELT_ADMIN_PASSWORD"
        if not password
        else f"the one-time password {password} (it works once: you choose your own at once)"
    )
    return "\n".join(
        [
            "felt serve: first start on this database. What to do next:",
            f"  1. Open {url}/ in a browser and log in as admin with {said}.",
            "  2. Open Staff and make a cashier, a dealer and the players (each gets a password",
            "     to change at their first log-in).",
            "  3. The cashier logs in and deposits each player's money at the Cage.",
            "  4. On the Floor, Close the tables that are not to play (each starts open).",
            "  5. The players log in, pick a table in the lobby and sit down.",
            "  (felt serve --help and the README, 'The table server', walk through it.)",
        ]
    )


def quiet_logging(level: str) -> None:
    """Log to standard error at ``level``: at warning, no migration or uvicorn chatter."""
    if level not in LOG_LEVELS:
        raise FeltError(f"--log-level must be one of {', '.join(LOG_LEVELS)}, got {level!r}")
    logging.basicConfig(
        level=level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    if level == "warning":  # the migrations log each step at INFO through their own loggers
        logging.getLogger("alembic").setLevel(logging.WARNING)


def serve(
    database: str | None,
    tables: str | None,
    host: str,
    port: int,
    node: str | None,
    lease_seconds: float = LEASE_SECONDS,
    log_level: str = "warning",
    ws_compression: bool = False,
) -> int:
    """Say where the server is, then run it until interrupted.  WebSocket messages go
    uncompressed unless ``ws_compression`` (permessage-deflate, docs/design.md)."""
    import uvicorn

    if not 0 <= port <= 65535:
        raise FeltError(f"--port must be 0 to 65535, got {port}")
    check_lease(lease_seconds)
    quiet_logging(log_level)
    watch_gc()  # every collection timed, for GET /api/stats
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listener = socket.create_server((host, port), family=family)
    except (OSError, UnicodeError, OverflowError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise FeltError(f"cannot listen on {host}:{port}: {reason}") from err
    try:
        port = int(listener.getsockname()[1])  # --port 0: the port the system chose
        url = database or default_database_url()
        server = build_server(url, tables, node or f"{host}:{port}", lease_seconds)
        server.prepare()  # here, not in uvicorn's start-up, so a refusal is one line and exit 2
    except BaseException:
        listener.close()
        raise
    urls = listen_urls(host, port)
    weak = os.environ.get(auth.WEAK_HASHES_ENV) == "1"  # the test suite's, never a real server's
    warning = f" | {auth.WEAK_HASHES_ENV}=1: passwords hashed at the test cost" if weak else ""
    print(start_line(server, urls, url) + warning, flush=True)
    if server.first_admin is not None:
        print(first_start_text(urls[0], server.first_admin), flush=True)
    config = uvicorn.Config(
        create_app(server), log_level=log_level, ws_max_size=65536, host=host, port=port,
        ws_per_message_deflate=ws_compression,
    )  # fmt: skip

    class Settled(uvicorn.Server):
        """uvicorn's server, which settles the heap (:func:`felt.server.pauses.settle_heap`)
        once the application's start-up has loaded the tables, before the first request."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            settle_heap(len(server.running()))

    Settled(config).run(sockets=[listener])
    sys.stdout.flush()
    return 0
