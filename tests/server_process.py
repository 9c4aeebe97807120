"""A ``felt serve`` subprocess and a scratch PostgreSQL schema, shared by the tests that run
real server processes and by bench/server_load.py."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text

FELT = Path(sys.executable).with_name("felt")


class Unreachable(Exception):
    """The PostgreSQL server cannot be reached."""


@contextmanager
def scratch_schema(base_url: str) -> Iterator[str]:
    """A URL of ``base_url``'s database whose connections use a new, empty schema, dropped
    afterwards; :class:`Unreachable` if the server does not answer."""
    engine = create_engine(base_url.replace("postgresql://", "postgresql+psycopg://", 1))
    schema = f"felt_{uuid.uuid4().hex[:12]}"
    try:
        with engine.begin() as conn:
            conn.execute(text(f"CREATE SCHEMA {schema}"))
    except Exception as err:
        engine.dispose()
        raise Unreachable(f"PostgreSQL at {base_url} not reachable: {err}") from err
    sep = "&" if "?" in base_url else "?"
    try:
        yield f"{base_url}{sep}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


@contextmanager
def fresh_database(backend: str, workdir: Path, postgres_url: str) -> Iterator[str | None]:
    """For a benchmark: a new SQLite file in ``workdir``, or a scratch schema of
    ``postgres_url`` dropped afterwards (None, said on stdout, if PostgreSQL cannot be
    reached)."""
    if backend == "sqlite":
        yield f"sqlite:///{workdir / f'bench-{uuid.uuid4().hex[:8]}.db'}"
        return
    try:
        with scratch_schema(postgres_url) as url:
            yield url
    except Unreachable as err:
        print(f"{err}; skipped")
        yield None


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ServeProcess:
    """``felt serve`` on a free loopback port; its node name is the address clients use."""

    database: str
    tables: Path
    log: Path
    admin_password: str
    extra: list[str] = field(default_factory=list)
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def name(self) -> str:
        """``127.0.0.1:PORT``: the node name and the address."""
        return f"127.0.0.1:{self.port}"

    def start(self, seconds: float = 120) -> None:
        """Start the process and wait until it answers."""
        args = [str(FELT), "serve", "--database", self.database, "--port", str(self.port),
                "--node", self.name, "--tables", str(self.tables), *self.extra]  # fmt: skip
        env = {**os.environ, "FELT_ADMIN_PASSWORD": self.admin_password}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env)
        end = time.monotonic() + seconds
        while not self.ready():
            if time.monotonic() > end:
                raise AssertionError(f"{self.name} did not answer in {seconds:g} s ({self.log})")
            time.sleep(0.1)

    def ready(self) -> bool:
        """Whether the process answers HTTP (an exit is an error, with the end of its log)."""
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise AssertionError(f"{self.name} exited: {self.log.read_text()[-3000:]}")
        try:
            return httpx.get(f"http://{self.name}/openapi.json", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Send ``sig`` and wait for the exit (SIGKILL after 30 s)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
