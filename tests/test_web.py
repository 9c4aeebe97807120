"""The browser screens in a real headless Chromium against a real ``felt serve``: players play
full rounds, the dealer and the supervisor use their consoles, and a restart mid-round recovers
every screen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web_helpers import DESKTOP, PHONE, WebServer, browser, shot, start_server

__all__ = ["browser"]  # the fixture, imported for pytest


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    srv = start_server(tmp_path_factory.mktemp("web"))
    srv.account("ann", "player", deposit="500.00")
    srv.account("bob", "player", deposit="500.00")
    srv.account("dan", "dealer")
    try:
        yield srv
    finally:
        srv.proc.stop()


def log_in(browser: Any, server: WebServer, name: str, viewport: dict[str, int] = DESKTOP) -> Any:
    """A new browser context logged in as ``name`` through the log-in screen."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(server.url + "/")
    page.get_by_label("Name").fill(name)
    password = server.passwords.get(name) or "web-admin-password"
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_function("() => !location.hash.startsWith('#/login')")
    return page


def test_a_player_plays_a_boston5_round_in_the_browser(browser: Any, server: WebServer) -> None:
    page = log_in(browser, server, "ann")
    page.wait_for_selector("text=Lobby")
    shot(page, "lobby-desktop")
    page.get_by_role("button", name="Sit at b5 seat 2").click()
    page.wait_for_selector("[data-seat='2'].mine")
    page.get_by_role("button", name=re.compile(r"^Wager")).click()
    page.get_by_role("button", name="Second wager").click(timeout=30_000)
    page.wait_for_selector("caption:has-text('Settlement')", timeout=30_000)
    shot(page, "table-boston5-desktop")
    balance = page.locator("#balance").get_attribute("data-balance")
    assert balance is not None and balance != "500.00"
