"""``felt serve`` says where it is (issue 20 item 3): one start line with its URL, its database
without a password, its node name and its tables; a quiet log by default; and, on the first start
of a fresh database, what to do next with the admin's one-time password.  The oracle is the text
a real ``felt serve`` process prints, read from its pipes, and a log-in with the password it
printed."""

from __future__ import annotations

import asyncio
import getpass
import os
import re
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import make_url
from websockets.asyncio.client import connect

from felt.cli.main import main
from felt.core.errors import FeltError
from felt.server.serve import listen_urls, what_runs
from felt.server.spec import default_specs
from felt.server.store import Store, shown_database
from tests.server_helpers import postgres_schema_url
from tests.server_process import FELT, free_port

TABLES = """\
[[table]]
id = "left-b5"
game = "boston5"

[[table]]
id = "right-dds"
game = "double-down-stud"
"""


@contextmanager
def serving(
    tmp: Path, database: str, *extra: str, admin_password: str | None = None
) -> Iterator[tuple[int, list[str]]]:
    """A ``felt serve`` on a free port, yielded once it answers, with the lines it has printed so
    far (standard output and standard error together; the list grows until it stops)."""
    tables = tmp / "tables.toml"
    tables.write_text(TABLES)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "FELT_ADMIN_PASSWORD"}
    if admin_password is not None:
        env["FELT_ADMIN_PASSWORD"] = admin_password
    log = tmp / f"serve-{port}.log"
    args = [str(FELT), "serve", "--database", database, "--port", str(port),
            "--tables", str(tables), *extra]  # fmt: skip
    lines: list[str] = []
    with log.open("wb") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        end = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=2).is_success:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < end, log.read_text()
            time.sleep(0.1)
        lines[:] = log.read_text().splitlines()
        yield port, lines
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        lines[:] = log.read_text().splitlines()


def test_the_first_start_says_where_it_is_and_what_to_do_next(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'felt.db'}"
    with serving(tmp_path, database) as (port, lines):
        start = lines[0]
        assert start.startswith(f"felt serve: listening on http://127.0.0.1:{port} | ")
        assert f"| database {database} |" in start
        assert f"| node 127.0.0.1:{port} |" in start
        assert "tables left-b5 (boston5), right-dds (double-down-stud)" in start
        text = "\n".join(lines)
        found = re.search(r"one-time password (\S+) ", text)
        assert found, text
        assert f"Open http://127.0.0.1:{port}/" in text
        for step in ("log in as admin", "Staff", "cashier", "dealer", "Cage", "Floor", "sit down"):
            assert step in text
        login = httpx.post(
            f"http://127.0.0.1:{port}/api/login",
            json={"name": "admin", "password": found.group(1)},
            timeout=30,
        )
        assert login.status_code == 200, login.text
        # a printed password works once: the first log-in must choose a new one first
        assert login.json()["must_change_password"] is True
        token = {"Authorization": f"Bearer {login.json()['token']}"}
        floor = httpx.get(f"http://127.0.0.1:{port}/api/floor", headers=token, timeout=30)
        assert floor.status_code == 403, floor.text
    assert not [line for line in lines if "alembic" in line.lower()], lines
    assert not [line for line in lines if line.startswith("INFO")], lines
    with serving(tmp_path, database) as (_, again):  # the second start: the start line alone
        assert len(again) == 1
        assert again[0].startswith("felt serve: listening on")


def test_a_password_set_by_the_environment_is_never_printed(tmp_path: Path) -> None:
    with serving(tmp_path, f"sqlite:///{tmp_path / 'felt.db'}", admin_password="pw-from-env") as (
        _,
        lines,
    ):
        text = "\n".join(lines)
        assert "the password in FELT_ADMIN_PASSWORD" in text
        assert "pw-from-env" not in text


def test_the_database_password_is_never_printed(tmp_path: Path) -> None:
    """PostgreSQL here trusts local connections, so a URL with a password still connects: the
    start line must leave the password out."""
    for url in postgres_schema_url():
        with_password = make_url(url).set(username=getpass.getuser(), password="s3cret-pw")
        given = with_password.render_as_string(hide_password=False)
        with serving(tmp_path, given) as (_, lines):
            assert lines[0].startswith("felt serve: listening on")
            assert "| database postgresql://" in lines[0]
        assert not [line for line in lines if "s3cret-pw" in line], lines


def test_log_level_info_shows_the_migrations(tmp_path: Path) -> None:
    with serving(tmp_path, f"sqlite:///{tmp_path / 'felt.db'}", "--log-level", "info") as (
        _,
        lines,
    ):
        pass
    assert [line for line in lines if "alembic" in line], lines
    assert [line for line in lines if line.startswith("felt serve: listening on")]


def test_a_bad_log_level_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--log-level", "loud"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("felt: error: argument --log-level")
    assert "warning" in err


def test_the_start_line_pieces() -> None:
    assert listen_urls("127.0.0.1", 8000) == ["http://127.0.0.1:8000"]
    assert listen_urls("0.0.0.0", 8000)[0] == "http://127.0.0.1:8000"
    assert listen_urls("::1", 80) == ["http://[::1]:80"]
    shown = shown_database("postgresql://felt:hunter2@db.example:5432/felt")
    assert "hunter2" not in shown
    assert shown == "postgresql://felt:***@db.example:5432/felt"
    shown = shown_database("postgresql://db.example/felt?user=felt&password=hunter2")
    assert "hunter2" not in shown
    assert "user=felt" in shown
    assert "hunter2" not in shown_database("postgresql://felt:hunter2@[bad")
    with pytest.raises(FeltError) as refused:  # a misspelt scheme is refused without the password
        Store("postgresq://felt:hunter2@db.example/felt")
    assert "hunter2" not in str(refused.value)
    runs = what_runs(default_specs())
    assert runs.startswith("tables ")
    assert "systems keno-1 (keno)" in runs


def test_websocket_messages_go_uncompressed_unless_asked(tmp_path: Path) -> None:
    """A client that offers permessage-deflate (as browsers and ``websockets`` do) gets it only
    from a server started with ``--ws-compression``."""

    async def extensions(port: int) -> str | None:
        async with connect(f"ws://127.0.0.1:{port}/api/ws") as ws:
            assert ws.response is not None
            return ws.response.headers.get("Sec-WebSocket-Extensions")

    database = f"sqlite:///{tmp_path / 'felt.db'}"
    for extra, compressed in (((), False), (("--ws-compression",), True)):
        with serving(tmp_path, database, *extra) as (port, _):
            agreed = asyncio.run(extensions(port))
        assert ("permessage-deflate" in (agreed or "")) is compressed, agreed
