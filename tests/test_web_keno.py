"""The keno screens in a real headless Chromium against a real ``felt serve``: a keno writer
issues, voids and redeems tickets across a draw at the writer's station (N.J.A.C. 19:47-15.4,
15.6), and the public keno board shows the game, its countdown and the 20 numbers drawn
(15.5(c), (g)).  What the writer is paid is checked against the rate card's own figures."""

from __future__ import annotations

import re
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from felt.games.keno.ratecard import example_rate_card_path
from tests.web_helpers import (
    DESKTOP,
    PHONE,
    WebServer,
    browser,
    log_in,
    shot,
    start_server,
    unnamed,
)

__all__ = ["browser"]

KENO = """
[[keno]]
id = "keno-1"
rate_card = "example"
stations = [1, 2]
game_seconds = 12
draw_seconds = 1
between_games_seconds = 3
"""
SPOTS = 12
"""One-spot tickets on 1..12: at least one wins unless none of 1..12 is drawn
(C(68,20)/C(80,20), about 0.4%); the test then plays the next game."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    srv = start_server(tmp_path_factory.mktemp("keno"), extra=KENO)
    srv.account("kate", "keno_writer")
    srv.account("boss", "keno_supervisor")
    srv.login("boss")  # over the API: holds the lock-out while the test writes (15.5(e))
    try:
        yield srv
    finally:
        srv.proc.stop()


def one_spot_pays() -> int:
    """Cents a $1 one-spot ticket that catches its number pays, read from the rate card file
    itself (not through felt's rate-card code)."""
    data = tomllib.loads(Path(example_rate_card_path()).read_text())
    return round(float(data["pays"]["1"]["1"]) * 100)


def writer_page(
    browser: Any, server: WebServer, viewport: dict[str, int], name: str = "kate",
    ready: str = ".keno-grid",
) -> Any:  # fmt: skip
    """A new browser context logged in as ``name`` at the writer's station, once ``ready``."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(server.url + "/")
    log_in(page, name, server.passwords[name], wait=False)
    page.get_by_role("link", name="Writer station").click()
    page.wait_for_selector(ready)
    return page


def status(server: WebServer) -> dict[str, Any]:
    return dict(server.call("GET", "/api/keno/keno-1"))


def wait_open(server: WebServer, at_least: float = 5.0) -> dict[str, Any]:
    """The status once a game is open with ``at_least`` seconds left to write tickets."""
    end = time.monotonic() + 90
    while time.monotonic() < end:
        st = status(server)
        if st["state"] == "open" and (st["remaining_seconds"] or 0) >= at_least:
            return st
        time.sleep(0.3)
    raise AssertionError(f"no game opened with {at_least} s to go: {status(server)}")


def issue(page: Any, numbers: list[int]) -> int:
    """Mark ``numbers`` on the grid and issue; the ticket number printed."""
    before = (
        page.locator("pre.ticket").get_attribute("data-ticket")
        if page.locator("pre.ticket").count()
        else None
    )
    for n in numbers:
        page.locator(f".keno-grid button[data-n='{n}']").click()
    page.get_by_role("button", name="Issue ticket").click()
    page.wait_for_function(
        "(b) => { const t = document.querySelector('pre.ticket'); return t && t.dataset.ticket !== b; }",
        arg=before,
    )
    return int(page.locator("pre.ticket").get_attribute("data-ticket"))


def hold(server: WebServer, what: str) -> None:
    """A keno supervisor holds or releases the automatic lock-out over the API (15.5(e))."""
    action = {"action": "override", "what": what, "reason": "the browser test is writing"}
    server.call(
        "POST", "/api/keno/keno-1/actions", "boss", action=action, key=what + str(time.time_ns())
    )


def test_a_writer_issues_voids_and_redeems_across_a_draw(browser: Any, server: WebServer) -> None:
    """15.4(c) the printed ticket; 15.4(e) a void before the game starts, refused after; 15.5(g)
    the board; 15.6(a) winners paid what the rate card says, a loser and a voided ticket not."""
    page = writer_page(browser, server, DESKTOP)
    board = browser.new_context(viewport=DESKTOP).new_page()  # the public board: no log-in
    board.goto(server.url + "/#/keno-board/keno-1")
    board.wait_for_selector(".keno-board")
    for _attempt in range(3):
        st = wait_open(server, at_least=5)
        game = st["game"]
        hold(server, "hold")  # the game stays open however slowly the browser writes
        tickets = {n: issue(page, [n]) for n in range(1, SPOTS + 1)}
        text = page.locator("pre.ticket").inner_text()
        for item in ("date and time of issuance", "keno work station", "numbers selected",
                     "number of games", "conditioning", "rate of each wager", "total price",
                     "keno writer", "maximum keno limit", "time to claim"):  # fmt: skip
            assert item in text, item
        assert not unnamed(page)
        shot(page, "keno-writer-desktop")
        # a way ticket written in groups with its conditioning; priced before it is issued
        page.locator("#kind").select_option("way")
        page.get_by_role("button", name="Clear").click()
        for n in (41, 42):
            page.locator(f".keno-grid button[data-n='{n}']").click()
        page.get_by_role("button", name="New group").click()
        for n in (43, 44):
            page.locator(f".keno-grid button[data-n='{n}']").click()
        page.get_by_role("button", name="New group").click()
        for n in (45, 46):
            page.locator(f".keno-grid button[data-n='{n}']").click()
        page.get_by_label("Conditioning").fill("3/4")
        page.wait_for_selector(".quote:has-text('price $3.00')")
        shot(page, "keno-writer-way-desktop")
        way = issue(page, [])
        page.locator("#void-ticket").fill(str(way))
        page.get_by_role("button", name="Void").click()
        page.wait_for_selector(f"#toast:has-text('Ticket {way} voided')")
        hold(server, "release")
        # the draw
        end = time.monotonic() + 60
        while status(server).get("board", {}) is None or status(server)["board"]["game"] != game:
            assert time.monotonic() < end, "the game was not drawn"
            time.sleep(0.3)
        drawn = set(status(server)["board"]["numbers"])
        board.wait_for_selector(f".keno-board[data-game='{game}'][data-shown='20']", timeout=20_000)
        lit = {int(x) for x in board.locator(".keno-grid .hit").all_inner_texts()}
        assert lit == drawn
        shot(board, "keno-board-desktop")
        winners = [n for n in tickets if n in drawn]
        if winners:
            break
    else:  # pragma: no cover - about 0.4% a game, three games in a row
        pytest.fail("no one-spot ticket won in three games")
    pays = one_spot_pays()
    paid: dict[int, str] = {}
    for n in tickets:
        page.locator("#redeem-ticket").fill(str(tickets[n]))
        page.get_by_role("button", name="Redeem").click()
        page.wait_for_function(
            "(t) => document.querySelector('.paid').textContent.includes(t) || document.querySelector('.paid').textContent.includes('win')",
            arg=f"Ticket {tickets[n]}:",
        )
        paid[n] = page.locator(".paid").inner_text()
    for n, said in paid.items():
        if n in drawn:
            assert said == f"Ticket {tickets[n]}: pay ${pays / 100:.2f}", said
        else:
            assert "did not win" in said, said
    page.locator("#redeem-ticket").fill(str(tickets[winners[0]]))
    page.get_by_role("button", name="Redeem").click()
    page.wait_for_selector(".paid:has-text('paid once')")
    page.locator("#redeem-ticket").fill(str(way))
    page.get_by_role("button", name="Redeem").click()
    page.wait_for_selector(".paid:has-text('voided')")
    # a void once the game has started is refused (15.4(e), 15.5(d))
    page.locator("#void-ticket").fill(str(tickets[1]))
    page.get_by_role("button", name="Void").click()
    page.wait_for_selector("#toast:has-text('may not be voided')")
    page.set_viewport_size(PHONE)
    shot(page, "keno-writer-phone")
    board.set_viewport_size(PHONE)
    shot(board, "keno-board-phone")
    assert re.search(
        r"closes in \d+:\d\d|drawing|drawn", board.locator(".board-state").inner_text()
    )


def test_a_keno_supervisor_holds_and_releases_the_lock_out(browser: Any, server: WebServer) -> None:
    """15.5(e): a supervisor overrides the automatic lock-out from the station, with the reason
    recorded; the public status shows the hold and its release."""
    server.account("ken", "keno_supervisor")
    page = writer_page(browser, server, DESKTOP, "ken", "section[aria-label='Keno supervisor']")
    wait_open(server, at_least=5)
    page.locator("#override").select_option("hold")
    page.locator("#reason").fill("the draw machine is being inspected")
    page.get_by_role("button", name="Override (15.5(e))").click()
    page.wait_for_selector("#toast:has-text('Override recorded')")
    assert status(server)["held"] is True
    shot(page, "keno-supervisor-desktop")
    page.locator("#override").select_option("release")
    page.get_by_role("button", name="Override (15.5(e))").click()
    page.wait_for_function(
        "() => document.querySelector('#toast').textContent.includes('Override recorded')"
    )
    end = time.monotonic() + 5
    while status(server)["held"] and time.monotonic() < end:
        time.sleep(0.1)
    assert status(server)["held"] is False
    page.context.close()
