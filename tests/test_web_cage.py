"""The cashier's cage in a real headless Chromium against a real ``felt serve``: a cashier finds
a player, deposits and withdraws through the screen, sees the numbered receipt with the balance
before and after, and opens the day report, which says it reconciles and whose totals are the
ledger's (the oracle: the cage account's postings read straight from the database, summed
here).  Both widths are checked for overflow and unnamed controls."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select

from felt.server.store import CAGE, accounts, player_account, postings
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
    """A server with a cashier 'teller' and players 'ann' and 'andy' (no money yet)."""
    tmp = tmp_path_factory.mktemp("cage")
    srv = start_server(tmp)
    try:
        srv.account("teller", "cashier")
        srv.account("ann", "player")
        srv.account("andy", "player")
        yield srv
    finally:
        srv.proc.stop()


def page_as(browser: Any, server: WebServer, name: str, viewport: dict[str, int]) -> Any:
    """A page logged in as ``name`` through the log-in screen."""
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(server.url + "/")
    log_in(page, name, ADMIN if name == "admin" else server.passwords[name])
    return page


def cage_position(server: WebServer) -> int:
    """Cash taken in minus paid out, in cents: minus the sum of the cage's ledger postings."""
    engine = create_engine(server.proc.database)
    try:
        with engine.connect() as conn:
            total = conn.execute(
                select(func.coalesce(func.sum(postings.c.amount), 0)).where(
                    postings.c.account == CAGE
                )
            ).scalar()
    finally:
        engine.dispose()
    return -int(total or 0)


def wallet(server: WebServer, name: str) -> int:
    """A player's wallet in cents: the sum of its ledger postings."""
    engine = create_engine(server.proc.database)
    try:
        with engine.connect() as conn:
            pid = conn.execute(select(accounts.c.id).where(accounts.c.name == name)).scalar_one()
            total = conn.execute(
                select(func.coalesce(func.sum(postings.c.amount), 0)).where(
                    postings.c.account == player_account(int(pid))
                )
            ).scalar()
    finally:
        engine.dispose()
    return int(total or 0)


def cents(text: str) -> int:
    """``$12.50`` as 1250 (the test's own reading)."""
    return int(Decimal(text.replace("$", "").replace(",", "")) * 100)


def fits(page: Any) -> None:
    assert misfits(page) == []
    assert unnamed(page) == []


def receipt(page: Any) -> dict[str, str]:
    """The receipt on the screen: its number and each line."""
    box = page.locator("#cage-receipt")
    fields = box.locator("dd")
    out = {"number": str(box.get_attribute("data-number"))}
    for i in range(fields.count()):
        out[str(fields.nth(i).get_attribute("data-field"))] = fields.nth(i).inner_text()
    return out


def cash(page: Any, player: str, amount: str, button: str) -> dict[str, str]:
    """Find ``player``, type ``amount`` and press Deposit or Withdraw; the new receipt, once the
    player's panel shows the balance after it."""
    page.evaluate(MARK_FORM)
    page.get_by_label("Find a player").fill(player[:2])
    page.get_by_role("button", name="Find", exact=True).click()
    page.get_by_role("button", name=f"Choose {player}", exact=True).click()
    page.wait_for_selector(  # the chosen player's panel, drawn anew (a fresh form)
        f'#cage-player section[data-player="{player}"] #cage-amount:not([data-old])'
    )
    before = page.evaluate(RECEIPT_NUMBER)
    page.get_by_label("Amount in dollars").fill(amount)
    page.get_by_role("button", name=button, exact=True).click()
    page.wait_for_function(f"(b) => ({RECEIPT_NUMBER})() !== b", arg=before)
    got = receipt(page)
    page.wait_for_selector(f'#cage-balance[data-balance="{got["balance_after"].lstrip("$")}"]')
    return got


MARK_FORM = (
    """() => { const a = document.querySelector('#cage-amount'); if (a) a.dataset.old = '1'; }"""
)
"""Mark the amount field on screen, so a wait can tell the next one drawn from it."""
RECEIPT_NUMBER = """() => { const r = document.querySelector('#cage-receipt'); return r ? r.dataset.number : null; }"""


def test_a_cashier_takes_deposits_pays_withdrawals_and_reconciles_the_day(
    browser: Any, server: WebServer
) -> None:
    page = page_as(browser, server, "teller", DESKTOP)
    page.wait_for_selector("#cage-search")
    assert page.get_by_role("link", name="Cage", exact=True).count() == 1
    assert page.get_by_role("link", name="Cage report").count() == 1
    start = cage_position(server)

    first = cash(page, "ann", "250", "Deposit")
    assert (first["kind"], first["player"], first["cashier"]) == ("Deposit", "ann", "teller")
    assert (first["amount"], first["balance_before"], first["balance_after"]) == (
        "$250.00",
        "$0.00",
        "$250.00",
    )
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", first["time"])
    second = cash(page, "andy", "$80.25", "Deposit")
    third = cash(page, "ann", "99.99", "Withdraw")
    assert int(second["number"]) == int(first["number"]) + 1
    assert int(third["number"]) == int(second["number"]) + 1
    assert (third["kind"], third["balance_before"], third["balance_after"]) == (
        "Withdrawal",
        "$250.00",
        "$150.01",
    )
    assert page.locator("#cage-balance").inner_text() == "$150.01"
    assert page.locator("#cage-receipt").get_by_role("button", name="Print receipt").is_visible()
    # a bad amount and a withdrawal over the balance are refused on the screen, nothing paid
    page.get_by_label("Amount in dollars").fill("1.005")
    page.get_by_role("button", name="Withdraw", exact=True).click()
    assert "whole cents" in page.locator("#cage-error").inner_text()
    page.get_by_label("Amount in dollars").fill("150.02")
    page.get_by_role("button", name="Withdraw", exact=True).click()
    assert "$150.01" in page.locator("#cage-error").inner_text()
    assert receipt(page)["number"] == third["number"]
    assert cage_position(server) - start == 25000 + 8025 - 9999
    # the receipt's own balance is the server's
    assert wallet(server, "ann") == 15001  # the ledger's word, beside the screen's
    fits(page)
    shot(page, "cage-desktop")

    # the print stylesheet shows the receipt alone
    page.emulate_media(media="print")
    assert page.locator("#cage-receipt").is_visible()
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('h1')).visibility") == "hidden"
    )
    page.emulate_media(media="screen")

    page.get_by_role("link", name="Cage report").click()
    page.wait_for_selector("#cage-reconciliation")
    assert page.locator("#cage-reconciliation").get_attribute("data-reconciled") == "true"
    assert "Reconciled" in page.locator("#cage-reconciliation").inner_text()
    assert page.locator("#cage-date").input_value() == datetime.now(UTC).date().isoformat()
    rows = {
        str(tr.get_attribute("data-row")): cents(tr.locator("td").inner_text())
        for tr in page.locator(".cage-position tr").all()
    }
    ledger = cage_position(server)
    assert rows["closing"] == rows["ledger"] == ledger
    assert rows["net"] == rows["closing"] - rows["opening"]
    teller = page.locator('.cage-by-cashier tr[data-cashier="teller"] td')
    assert [teller.nth(i).inner_text() for i in range(4)] == ["$330.25", "$99.99", "3", "$230.26"]
    assert page.locator(".cage-movements tbody tr").count() == 3
    fits(page)
    # narrowed to one cashier: the same movements (one cashier worked), the same reconciliation
    page.get_by_label("Cashier").select_option("teller")
    page.get_by_role("button", name="Show report").click()
    page.wait_for_function("() => location.hash.endsWith('/teller')")
    page.wait_for_selector(".cage-movements")
    assert page.locator(".cage-movements tbody tr").count() == 3
    assert page.locator("#cage-reconciliation").get_attribute("data-reconciled") == "true"
    fits(page)
    shot(page, "cage-report-desktop")
    page.set_viewport_size(NARROW)
    fits(page)
    shot(page, "cage-report-phone")
    page.context.close()


def test_a_supervisor_reads_the_cage_day(browser: Any, server: WebServer) -> None:
    page = page_as(browser, server, "admin", DESKTOP)
    page.goto(server.url + "/#/cage-report")
    page.wait_for_selector("#cage-reconciliation")
    assert page.locator("#cage-reconciliation").get_attribute("data-reconciled") == "true"
    closing = page.locator('.cage-position tr[data-row="closing"] td').inner_text()
    assert cents(closing) == cage_position(server)
    fits(page)
    page.context.close()


def test_the_cage_at_a_phone_width(browser: Any, server: WebServer) -> None:
    page = page_as(browser, server, "teller", NARROW)
    page.wait_for_selector("#cage-search")
    fits(page)
    cash(page, "andy", "10.00", "Deposit")
    got = cash(page, "andy", "5.50", "Withdraw")
    assert got["kind"] == "Withdrawal"
    assert cents(got["balance_after"]) == cents(got["balance_before"]) - 550
    assert page.locator("#cage-receipt").is_visible()
    fits(page)
    page.locator("#cage-receipt").scroll_into_view_if_needed()
    shot(page, "cage-receipt-phone")
    page.context.close()


def test_a_balance_over_the_largest_single_amount_is_still_paid_out(
    browser: Any, server: WebServer
) -> None:
    """A wallet may hold more than the most one transaction moves (10000000.00): two deposits
    make 20000000.01, and the screen still pays out a withdrawal from it (it reads the balance
    with no limit; a limit check there once treated such a balance as empty)."""
    server.login("admin")  # again: a browser's log-in as admin ended the API's session
    server.account("rich", "player")
    page = page_as(browser, server, "teller", DESKTOP)
    for amount in ("10000000.00", "10000000.00", "0.01"):
        cash(page, "rich", amount, "Deposit")
    paid = cash(page, "rich", "5.00", "Withdraw")
    assert (paid["balance_before"], paid["balance_after"]) == ("$20000000.01", "$19999995.01")
    assert wallet(server, "rich") == 1_999_999_501
    page.context.close()
