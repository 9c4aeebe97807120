"""The "Staff and accounts" screen and the "Change password" screen in a real headless Chromium
against a real ``felt serve`` (issue 20, item 1): a supervisor opens accounts through the form,
locks one (its user's log-in is refused, with the one answer to every refused log-in), unlocks
it (the log-in goes through), resets a password (the user is sent to choose their own and can
reach nothing else until they do), and reads an account's history, all through the screens.
The oracle of every change is the server's own record (``account_changes``, read over the
API as the supervisor); each screen is held to 1280 px and 360 px (``misfits``) and to an
accessible name on every control (``unnamed``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from felt.server import auth
from tests.web_helpers import (
    ADMIN,
    DESKTOP,
    NARROW,
    WebServer,
    browser,
    log_in,
    misfits,
    shot,
    start_server,
    unnamed,
)

__all__ = ["browser"]  # the fixture, imported for pytest


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A fresh ``felt serve`` of its own (nothing but its first supervisor, admin)."""
    running = start_server(tmp_path_factory.mktemp("staff"))
    try:
        yield running
    finally:
        running.proc.stop()


def page_for(browser: Any, server: WebServer, viewport: dict[str, int] = DESKTOP) -> Any:
    """A new browser context's page on the log-in screen."""
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(server.url + "/#/login")
    return page


def dialog_button(page: Any, name: str) -> Any:
    """The button ``name`` of the open confirmation."""
    return page.locator("dialog[open]").get_by_role("button", name=name, exact=True)


def row(page: Any, name: str) -> Any:
    """The list's row of account ``name``."""
    return page.locator(f'table.accounts tr[data-account="{name}"]')


def open_account(page: Any, name: str, role: str, forced: bool) -> str:
    """Open an account through the form with a generated password; returns the password."""
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Role", exact=True).first.select_option(label=role)
    page.get_by_role("button", name="Generate").click()
    password = str(page.get_by_label("Temporary password").input_value())
    assert len(password) == 12
    box = page.get_by_label("They choose their own password when they first log in")
    box.set_checked(forced)
    page.get_by_role("button", name="Open account").click()
    row(page, name).wait_for()
    return password


def changes(server: WebServer, name: str) -> list[tuple[str, str | None]]:
    """The server's record of ``name``'s changes, newest first: (change, by), read by the
    supervisor sam over the API."""
    history = server.call("GET", f"/api/accounts/{name}/history", "sam")
    return [(c["change"], c["by"]) for c in history["changes"]]


def fits(page: Any, name: str) -> None:
    """Nothing of the page overflows or is squeezed, every control is named; a screenshot."""
    page.evaluate("() => document.getElementById('toast').classList.remove('show')")
    page.wait_for_timeout(100)
    assert misfits(page) == [], name
    assert unnamed(page) == [], name
    shot(page, name)


def test_a_supervisor_runs_the_staff_screen(browser: Any, server: WebServer) -> None:
    server.account("sam", "supervisor")  # the test's own reader of the record (one session
    server.login("sam")  # an account: admin's is the browser's)
    admin = page_for(browser, server)
    log_in(admin, "admin", ADMIN, wait=False)
    admin.wait_for_function("() => location.hash === '#/floor'")
    admin.get_by_role("link", name="Staff").click()
    admin.get_by_role("heading", name="Staff and accounts").wait_for()

    pat = open_account(admin, "pat", "Player", forced=True)
    cal = open_account(admin, "cal", "Cashier (the cage)", forced=True)
    dan = open_account(admin, "dan", "Dealer", forced=False)
    assert row(admin, "pat").locator("td").nth(1).inner_text() == "Must change password"
    assert row(admin, "dan").locator("td").nth(1).inner_text() == "Active"
    assert row(admin, "pat").locator("td").nth(3).inner_text() == "$0.00"
    assert changes(server, "cal") == [("opened", "admin")]
    fits(admin, "accounts-desktop")

    # the filter bar: by role, then by text in the name
    admin.get_by_label("Role", exact=True).nth(1).select_option(label="Dealer")
    admin.wait_for_function(
        "() => document.querySelectorAll('table.accounts tbody tr').length === 1"
    )
    assert row(admin, "dan").is_visible()
    admin.get_by_label("Role", exact=True).nth(1).select_option(label="Any role")
    admin.get_by_label("Name contains").fill("pa")
    admin.wait_for_function(
        "() => document.querySelectorAll('table.accounts tbody tr').length === 1"
    )
    admin.get_by_label("Name contains").fill("")
    admin.wait_for_function(
        "() => document.querySelectorAll('table.accounts tbody tr').length === 5"
    )

    # lock pat: the confirmation names the account; pat's log-in is refused
    admin.get_by_role("button", name="Lock pat", exact=True).click()
    assert "Lock pat?" in admin.locator("dialog[open]").inner_text()
    dialog_button(admin, "Lock pat").click()
    admin.wait_for_function(
        "() => document.querySelector('tr[data-account=\"pat\"]')?.dataset.state === 'locked'"
    )
    assert changes(server, "pat")[0] == ("locked", "admin")
    user = page_for(browser, server)
    log_in(user, "pat", pat, wait=False)
    user.get_by_text(auth.REFUSED).wait_for()
    assert user.evaluate("() => location.hash") == "#/login"

    # unlock: pat logs in, and is sent to choose a password before anything else
    admin.get_by_role("button", name="Unlock pat", exact=True).click()
    dialog_button(admin, "Unlock pat").click()
    admin.get_by_role("button", name="Lock pat", exact=True).wait_for()
    assert changes(server, "pat")[0] == ("unlocked", "admin")
    log_in(user, "pat", pat, wait=False)
    user.wait_for_function("() => location.hash === '#/password'")
    user.get_by_text("A supervisor set a temporary password").wait_for()
    user.evaluate("() => { location.hash = '#/lobby'; }")  # nothing else until it is done
    user.wait_for_function("() => location.hash === '#/password'")
    fits(user, "password-desktop")
    user.get_by_label("Temporary password").fill(pat)
    user.get_by_label("New password (8 characters or more)").fill("pat-own-password")
    user.get_by_label("New password again").fill("pat-own-password")
    user.get_by_role("button", name="Change password").click()
    user.wait_for_function("() => location.hash === '#/lobby'")
    user.get_by_role("heading", name="Lobby").wait_for()
    assert changes(server, "pat")[0] == ("password changed", "pat")

    # dan logs in with no change asked; a reset ends his session and asks one at the next log-in
    dealer = page_for(browser, server)
    log_in(dealer, "dan", dan, wait=False)
    dealer.wait_for_function("() => location.hash === '#/dealer'")
    admin.get_by_role("button", name="Reset the password of dan").click()
    temporary = str(admin.get_by_label("Temporary password").nth(1).input_value())
    dialog_button(admin, "Reset password of dan").click()
    admin.get_by_text(f"New temporary password for dan: {temporary}").wait_for()
    assert changes(server, "dan")[0] == ("password reset", "admin")
    dealer.reload()
    dealer.wait_for_function("() => location.hash === '#/login'")
    log_in(dealer, "dan", temporary, wait=False)
    dealer.wait_for_function("() => location.hash === '#/password'")
    dealer.get_by_label("Temporary password").fill(temporary)
    dealer.get_by_label("New password (8 characters or more)").fill("dan-own-password")
    dealer.get_by_label("New password again").fill("dan-own-password")
    dealer.get_by_role("button", name="Change password").click()
    dealer.wait_for_function("() => location.hash === '#/dealer'")

    # retire cal; the history of pat, newest first, with who made each change
    admin.get_by_role("button", name="Retire cal").click()
    dialog_button(admin, "Retire cal").click()
    admin.wait_for_function(
        "() => document.querySelector('tr[data-account=\"cal\"]')?.dataset.state === 'retired'"
    )
    cashier = page_for(browser, server)
    log_in(cashier, "cal", cal, wait=False)
    cashier.get_by_text(auth.REFUSED).wait_for()
    admin.get_by_role("button", name="History of pat").click()
    history = admin.locator("#account-history table")
    history.wait_for()
    lines = [r.inner_text().split("\t")[1:3] for r in history.locator("tbody tr").all()]
    assert lines == [
        ["Password changed", "pat"],
        ["Unlocked", "admin"],
        ["Locked", "admin"],
        ["Opened", "admin"],
    ]
    assert admin.get_by_role("button", name="Lock admin").count() == 0  # never one's own
    fits(admin, "accounts-history-desktop")

    admin.set_viewport_size(NARROW)
    admin.evaluate("() => window.scrollTo(0, 0)")
    fits(admin, "accounts-phone")
    user.set_viewport_size(NARROW)
    user.get_by_role("link", name="Password").click()
    user.get_by_role("heading", name="Change password").wait_for()
    fits(user, "password-phone")
