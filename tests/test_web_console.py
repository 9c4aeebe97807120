"""The dealer's console and the floor in a real headless Chromium against a real ``felt
serve`` (issue 20 items 6, 7 and 12): each step's button in the dealer's words at each phase of
a Boston 5, a Double Down Stud and a Three Card Poker round at tables whose dealer takes every
step; what to pay or collect at each seat after the settlement, checked against the public
settlement lines the page received; the floor's Close naming its table and asking first; and a
session ended server-side (the same account logged in elsewhere) taking the table, floor and
keno writer pages to the log-in screen with a message and no page error."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

from tests.web_helpers import (
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

__all__ = ["browser"]

EXTRA = """
[[table]]
id = "m5"
game = "boston5"
dealer = "manual"
betting_seconds = 1
between_rounds_seconds = 60
[table.settings]
decision_seconds = 120

[[table]]
id = "mdd"
game = "double-down-stud"
dealer = "manual"
betting_seconds = 1
between_rounds_seconds = 60
[table.settings]
decision_seconds = 120

[[table]]
id = "mtcp"
game = "three-card-poker"
dealer = "manual"
betting_seconds = 1
between_rounds_seconds = 60
[table.settings]
decision_seconds = 120

[[keno]]
id = "keno-1"
rate_card = "example"
stations = [1, 2]
game_seconds = 30
draw_seconds = 1
between_games_seconds = 3
"""
"""Manual tables that keep a settled round in view for a minute (the pay and collect list stays
to be read), and a keno system for the writer's page."""

WORDS = {
    "m5": [
        "No more bets",
        "Deal three cards to each hand and the dealer",
        "Deal the fourth and fifth cards",
        "Reveal the dealer's hand",
        "Settle the wagers",
    ],
    "mdd": [
        "Offer the cut",
        "Cut the cards",
        "No more bets",
        "Deal a card to each area and four to the dealer",
        "No more bets on double downs",
        "Reveal the hole card",
        "Settle the wagers",
    ],
    "mtcp": [
        "Cut the cards",
        "No more bets",
        "Deal three cards to each hand and the dealer",
        "Reveal the dealer's hand",
        "Settle the wagers",
    ],
}
"""The buttons a dealer presses through one round, in order, in the words the issue asks for
("No more bets", "Deal the fourth and fifth cards", "Reveal the dealer's hand"); Boston 5's
stub count ("Count the stub") comes in the rounds the table marks due, so it may be among them."""

ANSWERS = {
    "second or fold": "second",
    "cut or decline": "decline_cut",
    "double or stand": "stand",
    "play or fold": "play",
}
"""How the test's players answer each election (over the API: the console is under test)."""
PLAYERS = {1: "pia", 2: "pat"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    srv = start_server(tmp_path_factory.mktemp("console"), extra=EXTRA)
    srv.account("dora", "dealer")
    srv.account("sam", "supervisor")
    srv.account("kit", "keno_writer")
    for name in PLAYERS.values():
        srv.account(name, "player", deposit="1000")
        srv.login(name)
    srv.account("eye", "supervisor")  # reads the tables over the API (the others log in on pages)
    srv.login("eye")
    try:
        yield srv
    finally:
        srv.proc.stop()


def logged_in(browser: Any, server: WebServer, name: str, viewport: dict[str, int]) -> Any:
    """A new page logged in as ``name`` through the log-in screen, its page errors collected in
    ``page.errors``."""
    page = browser.new_context(viewport=viewport).new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(server.url + "/")
    log_in(page, name, server.passwords[name])
    return page


def wagers(server: WebServer, table: str, seat: int) -> dict[str, Any]:
    """The minimum wager at ``table`` as the game reads it, from the lobby's limits."""
    info = next(t for t in server.call("GET", "/api/lobby", "eye") if t["id"] == table)
    low = info["minimum"]
    if info["game"].startswith("boston"):
        first = Decimal(low) * info["first_ratio"]
        return {"action": "wager", "seat": seat, "ante": low, "first": str(first)}
    if info["game"] == "double-down-stud":
        return {"action": "bet", "seat": seat, "amount": low}
    return {"action": "wager", "seat": seat, "ante": low}


def act(server: WebServer, table: str, who: str, action: dict[str, Any]) -> None:
    server.call("POST", f"/api/tables/{table}/actions", who, action=action,
                key=secrets.token_hex(8))  # fmt: skip


def play_a_round_from_the_console(server: WebServer, page: Any, table: str) -> list[str]:
    """Two players wager over the API; the dealer presses each step's button on the console
    until the round is settled; the players answer their elections over the API.  Returns the
    buttons' words in the order pressed, each checked against the step it takes."""
    page.goto(server.url + f"/#/dealer/{table}")
    page.wait_for_selector(f".console[data-table='{table}'][data-words=layout]")
    page.wait_for_function(
        "() => document.querySelector('.console').dataset.round !== ''", timeout=20_000
    )
    for seat, name in PLAYERS.items():
        server.call("POST", f"/api/tables/{table}/sit", name, seat=seat)
        act(server, table, name, wagers(server, table, seat))
    pressed: list[str] = []
    end = time.monotonic() + 90
    while page.locator(".console[data-finished=true]").count() == 0:
        assert time.monotonic() < end, pressed
        view = server.call("GET", f"/api/tables/{table}", "eye")
        pending = (view.get("public") or {}).get("pending") or []
        if pending:
            for p in pending:
                act(server, table, PLAYERS[p["seat"]],
                    {"action": ANSWERS[p["election"]], "seat": p["seat"]})  # fmt: skip
            continue
        button = page.locator("button#next-step")
        if not button.count() or button.is_disabled():
            time.sleep(0.1)
            continue
        version = page.locator(".console").get_attribute("data-version")
        step = button.get_attribute("data-step")
        words = button.inner_text()
        assert step == (view.get("next_step") or {}).get("dealer"), (step, view.get("next_step"))
        pressed.append(words)
        if step == "deal_additional" and page.viewport_size == DESKTOP:
            shot(page, f"console-step-{table}-desktop")  # a step's button in the dealer's words
        button.click()
        page.wait_for_function(
            "(v) => document.querySelector('.console').dataset.version !== v", arg=version
        )
    return pressed


def settled_nets(server: WebServer, round_id: str) -> dict[str, int]:
    """Each seat's result in cents, from the round's record on the server (its statement as the
    ledger settled it), not from what the page was sent."""
    record = server.call("GET", f"/api/rounds/{round_id}", "eye")["record"]
    return {seat: int(s["net_cents"]) for seat, s in record["seats"].items()}


def expected_moves(nets: dict[str, int]) -> dict[str, str]:
    """What the dealer pays (the seat won) or collects (it lost) at each seat, in dollars."""
    out = {}
    for seat, net in nets.items():
        amount = f"${abs(net) // 100}.{abs(net) % 100:02d}"
        if net > 0:
            out[seat] = f"Pay seat {seat} {amount}"
        elif net < 0:
            out[seat] = f"Collect from seat {seat} {amount}"
        else:
            out[seat] = f"Seat {seat}:"
    return out


@pytest.mark.parametrize("table", ["m5", "mdd", "mtcp"])
def test_the_console_takes_a_round_in_the_dealers_words(
    browser: Any, server: WebServer, table: str
) -> None:
    """Oracle for the words: the issue's own ("No more bets", "Deal the fourth and fifth
    cards", "Reveal the dealer's hand"); for the amounts: the public settlement lines."""
    page = logged_in(browser, server, "dora", DESKTOP)
    pressed = play_a_round_from_the_console(server, page, table)
    expected = WORDS[table]
    assert [w for w in pressed if w != "Count the stub"] == expected, pressed
    pace = page.locator(".pace").inner_text()
    assert "You take every step at this table" in pace, pace
    assert "by itself" not in pace
    round_id = page.locator(".console").get_attribute("data-round")
    nets = settled_nets(server, round_id)
    shown = {
        li.get_attribute("data-seat"): li.inner_text()
        for li in page.locator(".pay-collect li").all()
    }
    want = expected_moves(nets)
    assert set(shown) == set(want) == {"1", "2"}
    for seat, text in want.items():
        assert shown[seat].startswith(text), (seat, shown[seat], nets)
    assert not unnamed(page)
    assert not misfits(page)
    if table == "m5":
        shot(page, "console-desktop")
    record = server.call("GET", f"/api/rounds/{round_id}", "eye")["record"]
    page.get_by_text("The statement, line by line").click()  # every line, on request
    rows = page.locator("details.statement table tbody tr")
    rows.first.wait_for()
    assert rows.count() == sum(len(s["lines"]) for s in record["seats"].values())
    page.get_by_text("The statement, line by line").click()
    page.set_viewport_size(NARROW)
    page.wait_for_timeout(200)
    assert not misfits(page), misfits(page)
    if table == "m5":
        shot(page, "console-phone")
    assert not page.errors
    for number, name in PLAYERS.items():
        server.call("POST", f"/api/tables/{table}/stand", name, seat=number)
    page.context.close()


def test_an_automatic_table_says_the_dealer_may_take_the_next_step_sooner(
    browser: Any, server: WebServer
) -> None:
    """b5 (web_helpers' tables) takes its steps at its pace: the console says so."""
    page = logged_in(browser, server, "dora", DESKTOP)
    page.goto(server.url + "/#/dealer/b5")
    page.wait_for_selector(".console .pace")
    pace = page.locator(".pace").inner_text()
    assert "The table takes its steps by itself" in pace
    assert "you may take the next one sooner" in pace
    assert "take every step" not in pace
    assert not page.errors
    page.context.close()


def floor_state(server: WebServer, table: str) -> bool:
    return bool(
        next(t for t in server.call("GET", "/api/lobby", "eye") if t["id"] == table)["open"]
    )


def test_the_floor_closes_a_table_only_when_the_supervisor_confirms(
    browser: Any, server: WebServer
) -> None:
    page = logged_in(browser, server, "sam", DESKTOP)
    page.wait_for_selector("table.floor")
    close = page.get_by_role("button", name="Close b7")
    assert close.count() == 1
    close.click()
    dialog = page.locator("dialog.confirm[open]")
    dialog.wait_for()
    assert "b7" in dialog.inner_text()
    assert not unnamed(page)
    shot(page, "floor-close-desktop")
    page.get_by_role("button", name="Keep it open").click()
    dialog.wait_for(state="detached")
    assert floor_state(server, "b7")
    page.get_by_role("button", name="Close b7").click()
    page.get_by_role("button", name="Close table b7").click()
    page.get_by_role("button", name="Open b7").wait_for()
    assert not floor_state(server, "b7")
    page.get_by_role("button", name="Open b7").click()  # opening asks nothing
    page.get_by_role("button", name="Close b7").wait_for()
    assert floor_state(server, "b7")
    assert not unnamed(page)
    assert not misfits(page)
    shot(page, "floor-desktop")
    page.set_viewport_size(NARROW)
    page.wait_for_timeout(200)
    assert not misfits(page), misfits(page)
    row = page.locator("table.floor tbody tr").first
    assert row.evaluate("(r) => getComputedStyle(r).display") == "block"  # a card, not a row
    labels = row.evaluate(  # each value shown with its column's name before it
        "(r) => [...r.querySelectorAll('td')].map((c) => getComputedStyle(c, '::before').content)"
    )
    assert {'"Players"', '"House today"'} <= set(labels), labels
    shot(page, "floor-phone")
    assert not page.errors
    page.context.close()


def ended_on_login(page: Any, timeout: float = 20_000) -> None:
    """The page is on the log-in screen saying the session ended."""
    page.wait_for_function("() => location.hash === '#/login'", timeout=timeout)
    note = page.locator("#session-ended")
    note.wait_for()
    assert "Your session ended: log in again" in note.inner_text()
    assert page.get_by_label("Password").count() == 1


def test_a_session_ended_elsewhere_goes_back_to_log_in_on_every_kind_of_page(
    browser: Any, server: WebServer
) -> None:
    """The same account logged in again over the API ends the page's session (one session an
    account): a table page (its socket), the floor (it sends nothing: the page asks) and the
    keno writer (its Issue answered 401) each land on the log-in screen, with no page error."""
    table = logged_in(browser, server, "pia", DESKTOP)
    table.goto(server.url + "/#/table/b5")
    table.wait_for_selector(".table-screen")
    server.login("pia")
    ended_on_login(table)
    assert "replaced by a newer log-in" in table.locator("#session-ended").inner_text()
    shot(table, "login-session-ended-desktop")
    assert not table.errors, table.errors
    table.context.close()

    floor = logged_in(browser, server, "sam", DESKTOP)
    floor.wait_for_selector("table.floor")
    server.login("sam")
    ended_on_login(floor, timeout=25_000)
    assert not floor.errors, floor.errors
    floor.context.close()

    writer = logged_in(browser, server, "kit", DESKTOP)
    writer.get_by_role("link", name="Writer station").click()
    writer.wait_for_selector(".keno-grid")
    server.login("kit")
    writer.locator(".keno-grid button[data-n='7']").click()
    writer.get_by_role("button", name="Issue ticket").click()
    ended_on_login(writer)
    assert not writer.errors, writer.errors
    writer.context.close()
