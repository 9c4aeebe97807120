"""The poker room's waiting-list screen (N.J.A.C. 19:47-14.18) in a real headless Chromium against
a server on loopback: the floor adds a player, a player joins from their own page, the floor
calls the first to a seat (both pages show the call and the arrival clock), seats them, moves a
player down and removes one with a reason, and records a no-show once the clock runs out; each
player's page never holds another player's name.  At 1280 and 360 px wide nothing overflows and
every control is named.

Each person logs in on the log-in screen and follows the bar's "Waiting lists" link: the shell
routes ``#/waitlist`` to ``waitlist.js`` by the poker game's ``screens.json``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI

import tests.server_helpers as helpers
from felt.games.poker.routes import mount
from felt.games.poker.store import WaitlistSettings
from felt.server.app import Server, Who, create_app
from tests.server_helpers import Harness, live_server
from tests.web_helpers import DESKTOP, NARROW, browser, log_in, misfits, shot, unnamed

__all__ = ["browser"]

HOLDEM = "holdem 2.00/4.00 fixed"
CREATE_APP = create_app
APPS: list[FastAPI] = []
"""The apps :func:`with_waitlist` made (the test reaches the running server's store by them)."""


def with_waitlist(server: Server, documented: bool = False) -> FastAPI:
    """The server's app, with the waiting lists' routes mounted here if the app does not mount
    the poker game's routes itself yet."""
    app = CREATE_APP(server, documented)
    APPS.append(app)
    if not any(getattr(r, "path", None) == "/api/poker/waitlist" for r in app.routes):
        mount(app, server, Who)
    return app


@pytest.fixture(scope="module")
def h(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    url = f"sqlite:///{tmp_path_factory.mktemp('wl-web') / 'felt.db'}"
    patch = pytest.MonkeyPatch()
    patch.setattr(helpers, "create_app", with_waitlist)
    try:
        with live_server(url, helpers.fast_specs()) as harness:
            harness.account("floor", "supervisor")
            harness.account("sam", "supervisor")  # reads the record over the API
            for name in ("ann", "bob", "cat"):
                harness.account(name, "player")
            yield harness
    finally:
        patch.undo()


def page_of(browser: Any, h: Harness, name: str, viewport: dict[str, int] = DESKTOP) -> Any:
    """``name``'s page, logged in through the log-in screen, on the waiting lists (the link in
    the shell's bar)."""
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(str(h.client.base_url) + "/#/login")
    log_in(page, name, f"{name}-password")
    page.get_by_role("link", name="Waiting lists").click()
    page.get_by_role("heading", name="Waiting lists").wait_for()
    return page


def fits(page: Any, name: str) -> None:
    """Nothing overflows, every control is named; a screenshot for the record."""
    page.evaluate("() => document.getElementById('toast').classList.remove('show')")
    assert misfits(page) == [], name
    assert unnamed(page) == [], name
    shot(page, name)


def entry(page: Any, player: str) -> Any:
    """The floor's row of ``player`` on the hold'em list."""
    return page.locator(f'section[data-game="{HOLDEM}"] li.wl-entry[data-player="{player}"]')


def reason(page: Any, words: str) -> None:
    """Answer the floor's reason dialog."""
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Reason (recorded with your name and the time)").fill(words)
    dialog.get_by_role("button", name="Record").click()


def test_14_18_the_floor_calls_a_seat_from_the_waiting_list(browser: Any, h: Harness) -> None:
    """14.18 on the screens: first come first served from the floor's list to a seat, with the
    arrival clock on both the floor's and the called player's pages; each player sees only
    their own place."""
    floor = page_of(browser, h, "floor")
    floor.get_by_label("Game and limit").fill("holdem 2/4 fixed")
    floor.get_by_label("Player (account name)").fill("ann")
    floor.get_by_role("button", name="Add to the list").click()
    entry(floor, "ann").wait_for()

    bob = page_of(browser, h, "bob", NARROW)
    bob.get_by_label("Join a list").select_option(HOLDEM)
    bob.get_by_role("button", name="Join", exact=True).click()
    bob.get_by_text("2nd", exact=True).wait_for()
    assert "of 2 on the list" in bob.locator(".wl-place-card").inner_text()
    fits(bob, "poker-waitlist-player-360")

    entry(floor, "bob").wait_for(timeout=10_000)  # the floor's page polls
    floor.get_by_label(f"Seat to call to for {HOLDEM}").fill("table 1 seat 3")
    floor.get_by_role("button", name=f"Call the next player for {HOLDEM}").click()
    floor.get_by_role("button", name=f"Seat ann ({HOLDEM})").wait_for()
    clock = entry(floor, "ann").locator(".wl-clock")
    assert "left to arrive" in clock.inner_text()
    first = clock.inner_text()
    floor.wait_for_function(
        "(t) => document.querySelector('li.wl-entry[data-player=ann] .wl-clock').textContent !== t",
        arg=first,
    )  # the clock counts down between answers
    fits(floor, "poker-waitlist-floor-called")

    ann = page_of(browser, h, "ann", NARROW)
    notice = ann.locator(".wl-place-card .notice")
    notice.wait_for()
    assert "Your seat is ready at table 1 seat 3" in notice.inner_text()
    assert "left)" in notice.inner_text()
    fits(ann, "poker-waitlist-called-360")
    for page, other in ((bob, "ann"), (ann, "bob")):
        assert other not in page.content()

    floor.get_by_role("button", name=f"Seat ann ({HOLDEM})").click()
    entry(floor, "ann").wait_for(state="detached")
    bob.get_by_text("1st", exact=True).wait_for(timeout=10_000)  # bob's page polls
    ann.get_by_text("You are not on a waiting list.").wait_for(timeout=10_000)

    h.account("dan", "player")
    floor.get_by_label("Game and limit").fill(HOLDEM)
    for name in ("cat", "dan"):
        floor.get_by_label("Player (account name)").fill(name)
        floor.get_by_role("button", name="Add to the list").click()
        entry(floor, name).wait_for()
    floor.get_by_role("button", name=f"Move down bob ({HOLDEM})").click()
    reason(floor, "waiting for a friend")
    floor.locator(f'section[data-game="{HOLDEM}"] li.wl-entry').nth(1).and_(
        entry(floor, "bob")
    ).wait_for()
    floor.get_by_role("button", name=f"Remove dan ({HOLDEM})").click()
    reason(floor, "left the room")
    entry(floor, "dan").wait_for(state="detached")
    record = floor.locator(".wl-record").inner_text()
    for words in ("waiting for a friend", "left the room", "seated"):
        assert words in record

    # the no-show: a room whose call lasts 2 seconds, so the clock runs out during the test
    APPS[-1].state.poker_waitlist.settings = WaitlistSettings(2, "remove")
    floor.get_by_role("button", name=f"Call the next player for {HOLDEM}").click()
    floor.get_by_role("button", name=f"Record a no-show for cat ({HOLDEM})").wait_for(
        timeout=10_000
    )
    assert "late by" in entry(floor, "cat").inner_text()
    floor.get_by_role("button", name=f"Record a no-show for cat ({HOLDEM})").click()
    entry(floor, "cat").wait_for(state="detached")
    assert [x["change"] for x in h.get("sam", "/api/poker/waitlist/changes").json()["changes"]][
        :2
    ] == [
        "no_show",
        "call",
    ]
    for width in (1280, 820, 700, 360):  # around the screen's two breakpoints, 52rem and 40rem
        floor.set_viewport_size({"width": width, "height": 900})
        fits(floor, f"poker-waitlist-floor-{width}")
