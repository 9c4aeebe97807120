"""Craps (N.J.A.C. 19:47-1) in a real headless Chromium against a real ``felt serve`` running one
live craps table (dice entered by the stickperson, a manual dealer) and nothing else: the game's
own table screen (static/craps.js), opened from the lobby's and the dealer's links.

Two players place and take down wagers by clicking the felt across a point cycle: the come out
roll sets the point (the puck ON the number), a place bet and a come bet are made, the place bet
wins and stays up, the come bet travels to its come point, then a seven out clears the layout
(the puck OFF).  The stickperson's console says "No more bets" and enters each roll's dice.  Bob
plays at 360 px: no spot of the felt overlaps another or leaves the window, and every control
has a name.  Amounts are checked against hand-computed wallets (1.2(a)1-5, 1.4 pays).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server_process import ServeProcess
from tests.test_web import Player, open_page
from tests.web_helpers import ADMIN, DESKTOP, NARROW, WebServer, browser, misfits, unnamed

__all__ = ["browser"]  # the fixture, imported for pytest

TABLE = "cr"
TABLES = f"""
[[table]]
id = "{TABLE}"
game = "craps"
dealer = "manual"
pace_seconds = 0
betting_seconds = 1
between_rounds_seconds = 0.2

[table.settings]
dice = "entered"
decision_seconds = 60
"""

OVERLAPS = """() => {
  const spots = [...document.querySelectorAll('.felt .spot')].filter((el) => el.getClientRects().length);
  const out = [];
  const rects = spots.map((el) => [el.dataset.spot, el.getBoundingClientRect()]);
  for (const [id, r] of rects) {
    if (r.left < -0.5 || r.right > window.innerWidth + 0.5) out.push(`${id} leaves the window (${r.left}-${r.right})`);
  }
  for (let i = 0; i < rects.length; i += 1) {
    for (let j = i + 1; j < rects.length; j += 1) {
      const [a, p] = rects[i];
      const [b, q] = rects[j];
      if (p.left < q.right - 0.5 && q.left < p.right - 0.5 && p.top < q.bottom - 0.5 && q.top < p.bottom - 0.5)
        out.push(`${a} overlaps ${b}`);
    }
  }
  return {count: spots.length, out};
}"""
"""Every visible spot of the felt that overlaps another or leaves the window."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """``felt serve`` with the one craps table; ann, bob (funded $100) and a dealer."""
    tmp: Path = tmp_path_factory.mktemp("craps-web")
    tables = tmp / "tables.toml"
    tables.write_text(TABLES)
    proc = ServeProcess(f"sqlite:///{tmp / 'felt.db'}", tables, tmp / "serve.log", ADMIN)
    proc.start()
    web = WebServer(proc)
    try:
        for name in ("ann", "bob"):
            web.account(name, "player", "100.00")
        web.account("deal", "dealer")
        yield web
    finally:
        proc.stop()


def _balance(p: Player, amount: str) -> None:
    """Wait until the page's balance (the bar's, from /api/me) reads ``amount`` dollars."""
    p.page.wait_for_function(
        "(a) => document.getElementById('balance').dataset.balance === a", arg=amount
    )


def _bet(p: Player, spot: str, chip: str, times: int = 1) -> None:
    """Pick the chip and click the spot ``times`` (each click one bet, waited for on screen)."""
    p.page.locator(f"button[data-chip='{chip}']").click()
    for _ in range(times):
        _bet_typed(p, spot)


def _bet_typed(p: Player, spot: str) -> None:
    """Click ``spot`` once with the amount typed in the stake box (waited for on screen)."""
    page = p.page
    before = page.locator(".craps").get_attribute("data-version")
    page.locator(f".felt button.spot[data-spot='{spot}']:enabled").click()
    page.wait_for_function(
        "(v) => document.querySelector('.craps').dataset.version !== v", arg=before
    )


def _roll(dealer: Player, d1: int, d2: int) -> None:
    """The stickperson: "No more bets", the two dice entered, "Roll"; waits for the next roll."""
    page = dealer.page
    rolls = int(page.locator(".craps").get_attribute("data-rolls") or 0)
    page.locator("button[data-step='no_more_bets']:enabled").click()
    page.wait_for_selector(".craps[data-phase='closed']")
    page.locator("#die-1").select_option(str(d1))
    page.locator("#die-2").select_option(str(d2))
    page.locator("button[data-step='roll-entered']").click()
    page.wait_for_function(
        "(n) => Number(document.querySelector('.craps').dataset.rolls) > n "
        "&& document.querySelector('.craps').dataset.phase === 'betting'",
        arg=rolls,
    )


def _wait_rolls(p: Player, n: int) -> None:
    p.page.wait_for_function(
        "(n) => { const c = document.querySelector('.craps'); "
        "return c && Number(c.dataset.rolls) >= n && c.dataset.phase === 'betting'; }",
        arg=n,
    )


def test_two_players_across_a_point_cycle_with_the_stickpersons_console(
    browser: Any, server: WebServer
) -> None:
    ann = open_page(browser, server, "ann", DESKTOP)
    bob = open_page(browser, server, "bob", NARROW)
    deal = open_page(browser, server, "deal", DESKTOP)
    # the lobby's Sit button opens the game's own screen (screens.json "table")
    ann.page.goto(server.url + "/#/lobby")
    ann.page.get_by_role("button", name=f"Sit at {TABLE} seat 1").click()
    ann.page.wait_for_function("() => location.hash === '#/craps/cr'")
    ann.page.wait_for_selector(".craps[data-seat='1'] .felt")
    bob.page.goto(server.url + f"/#/table/{TABLE}")  # an old link to the shared screen goes on
    bob.page.wait_for_function("() => location.hash === '#/craps/cr'")
    bob.page.get_by_role("button", name="Sit at seat 3").click()
    bob.page.wait_for_selector(".craps[data-seat='3'] .felt")
    deal.page.goto(server.url + "/#/dealer")
    deal.page.get_by_role("link", name=f"{TABLE} · Craps").click()
    deal.page.wait_for_function("() => location.hash === '#/craps/cr'")
    deal.page.wait_for_selector(".stick")

    # the come out roll: come is not offered (no point), its button says why (1.2(a)3)
    come = ann.page.locator(".felt button.spot[data-spot='come']")
    assert come.is_disabled()
    assert "point" in str(come.get_attribute("title"))
    assert ann.page.locator(".puck.off").count() == 1
    _bet(ann, "pass", "5", times=2)  # $10 on the pass line
    _bet(bob, "dont_pass", "5")
    _bet(ann, "hard_6", "1")  # a hardway, then taken down from the wagers panel
    ann.page.get_by_role("button", name="Take down Hard 6").click()
    ann.page.wait_for_function("() => !document.querySelector('[data-wager=\"hard_6\"]')")
    label = ann.page.locator(".felt button.spot[data-spot='pass']").get_attribute("aria-label")
    assert label == "Pass, your wager $10.00"

    _roll(deal, 2, 2)  # 4: the point
    _wait_rolls(ann, 1)
    _wait_rolls(bob, 1)
    assert ann.page.locator(".craps").get_attribute("data-point") == "4"
    assert ann.page.locator(".number-box[data-number='4'] .puck.on").count() == 1
    # bob sees ann's chips on the pass line as another seat's stack
    assert (
        bob.page.locator(".felt button.spot[data-spot='pass'] .chip.other[data-seat='1']").count()
        == 1
    )
    _bet(ann, "place_5", "5")  # place 5 to win: $5 pays 7 to 5 (1.2(a)5, 1.4)
    # place 6 at a $5 table is bet $6 (7 to 6 payable in full, 1.4), which no one chip makes:
    # the amount is typed, and a click bets it
    ann.page.locator("#stake").fill("6")
    ann.page.locator("#stake").dispatch_event("change")
    _bet_typed(ann, "place_6")
    _bet(bob, "come", "5")

    _roll(deal, 2, 3)  # 5: the place bet wins and stays up; the come bet goes to come 5
    _wait_rolls(ann, 2)
    _wait_rolls(bob, 2)
    _balance(ann, "86.00")  # 100 - 10 - 5 - 6 + 7 (place 5 and place 6 stay on the layout)
    ann.page.wait_for_selector("[data-wager='place_5']")
    assert "Place 5 to win" in str(ann.page.locator("table.lines").first.text_content())
    bob.page.wait_for_selector(".felt button.spot[data-spot='come_5'] .chip.mine")

    # the 360 px phone: nothing of the felt overlaps or leaves the window, every control named
    found = bob.page.evaluate(OVERLAPS)
    assert found["count"] >= 26  # numbers, line, come, field, odds, propositions
    assert found["out"] == []
    assert misfits(bob.page) == []
    assert unnamed(bob.page) == []

    _roll(deal, 3, 4)  # seven out
    _wait_rolls(ann, 3)
    _wait_rolls(bob, 3)
    assert ann.page.locator(".puck.off").count() == 1
    assert ann.page.locator("[data-wager]").count() == 0
    # ann: the pass line, place 5 and place 6 lost (their chips were already off her wallet);
    # bob: don't pass won 1 to 1 ($5 back and $5), come 5 lost
    _balance(ann, "86.00")
    _balance(bob, "100.00")
    shooter = ann.page.locator(".shooter").text_content()
    assert shooter is not None
    assert "seat 1" not in shooter  # the dice passed on (1.11)
