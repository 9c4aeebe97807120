"""Settlements people can read, in a real headless Chromium against a real ``felt serve``
(issue 20 items 5 and 6): two players at a Boston 7 table, one at 1280 px and one at 360 px,
play a round; each seat's result (hands named, each line's reason, the discards shown apart as
discarded) stays on screen past the next round's opening until that player's next wager; a
seated player who places no wager is shown "sitting out"; the recall screen names the hands; no
table overflows and no cell is narrower than its longest word at either width.

The wagers are placed by each page's own session over the API (the wager form is another part's
work); the decisions are the screen's buttons."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
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

__all__ = ["browser"]  # the fixture, imported for pytest

TABLE = "s7"
EXTRA = f"""
[[table]]
id = "{TABLE}"
game = "boston7"
edition = "nj-13-69f-24"
pace_seconds = 0.2
betting_seconds = 8
between_rounds_seconds = 1
[table.settings]
decision_seconds = 60
"""
"""A Boston 7 table whose next round opens a second after a settlement."""

WAGER = """async ([table, seat]) => {
  const s = JSON.parse(sessionStorage.getItem("felt.session"));
  const r = await fetch(`/api/tables/${table}/actions`, {method: "POST",
    headers: {"Content-Type": "application/json", Authorization: "Bearer " + s.token},
    body: JSON.stringify({action: {action: "wager", seat, ante: "5.00", first: "10.00"},
                          key: crypto.randomUUID()})});
  return [r.status, await r.text()];
}"""
"""A wager of the page's own player, in the page's own session."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    web = start_server(tmp_path_factory.mktemp("settle"), extra=EXTRA)
    try:
        for name in ("ann", "bob"):
            web.account(name, "player", deposit="500.00")
        web.account("dan", "dealer")
        yield web
    finally:
        web.proc.stop()


def open_page(browser: Any, server: WebServer, name: str, viewport: dict[str, int]) -> Any:
    """A page logged in as ``name`` through the log-in screen."""
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(server.url + "/")
    log_in(page, name, server.passwords[name])
    return page


def seat_of(page: Any) -> int:
    return int(page.locator("section.mine").first.get_attribute("data-seat"))


def wager(page: Any) -> None:
    status, text = page.evaluate(WAGER, [TABLE, seat_of(page)])
    assert status == 200, text


def state(page: Any) -> dict[str, str]:
    return dict(page.evaluate("() => ({...document.querySelector('.table-screen').dataset})"))


def finish_round(pages: dict[str, Any], discard: str) -> None:
    """Take each page's decisions until both show the finished round: the second wager, and at
    the Boston 7 discard, ``discard`` discards its first two cards while the other keeps all."""
    from playwright.sync_api import Error as PlaywrightError

    end = time.monotonic() + 90
    while not all(state(p).get("finished") == "true" for p in pages.values()):
        assert time.monotonic() < end, {n: state(p) for n, p in pages.items()}
        for name, page in pages.items():
            try:
                if page.locator(".decision button[data-action=second]").count():
                    page.locator(".decision button[data-action=second]").click(timeout=2000)
                elif page.locator(".decision button[data-action=discard]").count():
                    if name == discard:
                        page.locator(".mine button.card").nth(0).click(timeout=2000)
                        page.locator(".mine button.card").nth(1).click(timeout=2000)
                        page.locator(".decision button[data-action=discard]").click(timeout=2000)
                    else:
                        page.locator(".decision button[data-action=keep]").click(timeout=2000)
            except PlaywrightError:  # the screen changed under the click: look again
                pass
        time.sleep(0.2)


def check_last(page: Any, number: str, discarded: bool) -> None:
    """The seat's "Last round" panel of round ``number``: hands named, each line's reason and
    outcome word, the net, the discards apart."""
    panel = page.locator("section.mine .last-round")
    assert panel.count() == 1
    text = panel.inner_text()
    assert f"Last round: round {number}" in text
    assert re.search(r"Your hand: \S", text), text
    assert re.search(r"Dealer's hand: \S", text), text
    reasons = panel.locator("td.why").all_inner_texts()
    assert reasons
    assert all(r.strip() and r.strip() != "—" for r in reasons), reasons
    words = {w.strip() for w in panel.locator("td.result").all_inner_texts()}
    assert words <= {"won", "lost", "pushed", "returned", "paid"}, words
    assert re.search(r"Net [+-]?\$\d+\.\d\d", text), text
    gone = panel.locator(".discarded")
    if discarded:
        assert gone.count() == 1
        assert "Discarded" in gone.inner_text()
        assert gone.locator(".card").count() == 2
    else:
        assert gone.count() == 0


def test_the_settlement_stays_until_the_next_wager(browser: Any, server: WebServer) -> None:
    ann = open_page(browser, server, "ann", DESKTOP)
    bob = open_page(browser, server, "bob", NARROW)
    pages = {"ann": ann, "bob": bob}
    for page in pages.values():
        page.goto(server.url + f"/#/table/{TABLE}")
        page.locator("button", has_text="Sit at seat").first.click()
        page.wait_for_selector("section.mine .tag:has-text('taking wagers')")
    for page in pages.values():
        wager(page)
    finish_round(pages, discard="ann")
    number = state(ann)["number"]
    for name, page in pages.items():
        page.wait_for_selector("section.mine .last-round")
        check_last(page, number, discarded=name == "ann")
    # the discards are not in the hand drawn at the seat
    assert (
        ann.locator("section.mine .last-round .hand-row > .hand").first.locator(".card").count()
        == 5
    )
    assert (
        bob.locator("section.mine .last-round .hand-row > .hand").first.locator(".card").count()
        == 7
    )
    shot(ann, "settlement-desktop")
    shot(bob, "settlement-phone")
    assert misfits(ann) == []
    assert misfits(bob) == []
    assert unnamed(ann) == []
    assert unnamed(bob) == []

    # the next round opens; nobody has wagered: the results stay (well past the 1 s between)
    for page in pages.values():
        page.wait_for_function(
            "(n) => { const d = document.querySelector('.table-screen').dataset;"
            " return d.finished === 'false' && Number(d.number) > n; }",
            arg=int(number), timeout=20_000,
        )  # fmt: skip
    time.sleep(4)
    for name, page in pages.items():
        check_last(page, number, discarded=name == "ann")
        assert "This stays until your next wager." in page.locator(".last-round").inner_text()

    # bob wagers: his result goes, ann's stays, and once wagers close ann is sitting out
    wager(bob)
    bob.wait_for_selector("section.mine .last-round", state="detached", timeout=10_000)
    ann.wait_for_selector("section.mine .tag:has-text('sitting out')", timeout=20_000)
    check_last(ann, number, discarded=True)
    bob.wait_for_selector("ul.others .tag:has-text('sitting out')", timeout=20_000)
    dealer = open_page(browser, server, "dan", DESKTOP)  # the dealer's console says so too
    dealer.goto(server.url + f"/#/dealer/{TABLE}")
    dealer.wait_for_selector("ul.others .tag:has-text('sitting out')", timeout=20_000)
    assert misfits(dealer) == []
    dealer.context.close()
    assert misfits(ann) == []
    assert misfits(bob) == []
    finish_round({"bob": bob}, discard="bob")

    # recall names the hands, at 360 px
    bob.goto(server.url + "/#/recall")
    bob.wait_for_selector(".recall-round")
    first = bob.locator(".recall-round").last
    text = first.inner_text()
    assert re.search(r"Your hand: \S", text), text
    assert re.search(r"Dealer's hand: \S", text), text
    assert all(r.strip() for r in first.locator("td.why").all_inner_texts())
    assert misfits(bob) == []
    shot(bob, "recall-phone")
    ann.goto(server.url + "/#/recall")
    ann.wait_for_selector(".recall-round")
    assert "Discarded" in ann.locator(".recall-round").first.inner_text()
    assert misfits(ann) == []
    ann.set_viewport_size(NARROW)
    assert misfits(ann) == []
    for page in pages.values():
        page.context.close()
