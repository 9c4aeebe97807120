"""Wagers of any allowed size through the table screen (issue 20, item 4), in a real headless
Chromium against a real ``felt serve``: at a Boston 5 table of ante $5.00 to $50.00 (optional
bonus $1.00 to $25.00), one player wagers an odd ante ($7.35) with a bonus built from chips ($7),
then repeats it with "Repeat last wager", then wagers the maximum; another, with $20.00, wagers
the minimum and is shown why a larger ante and the second wager are not offered.  The oracle of
what was placed is the stored event log (the actions the server accepted), never the screen."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.test_wager_limits import TABLES as LIMIT_TABLES
from tests.test_wager_limits import as_cents, layout_refusal, sent_of, table_of
from tests.test_web import Player, open_page, read_log
from tests.web_helpers import (
    DESKTOP,
    NARROW,
    WebServer,
    browser,
    misfits,
    shot,
    start_server,
    unnamed,
)

__all__ = ["browser"]  # the fixture, imported for pytest

TABLE = "w5"
EXTRA = f"""
[[table]]
id = "{TABLE}"
game = "boston5"
pace_seconds = 0.3
betting_seconds = 30
between_rounds_seconds = 2

[table.settings]
minimum = "5"
maximum = "50"
bonus_minimum = "1"
bonus_maximum = "25"
decision_seconds = 60

[[table]]
id = "dd-up"
game = "double-down-stud"
pace_seconds = 0.3
betting_seconds = 30
between_rounds_seconds = 2

[table.settings]
double_down = "up-to"
shuffling = "shuffler-to-shoe"
decision_seconds = 60
"""
"""Betting stays open 30 s after the first wager while a seated player has not wagered."""


@dataclass
class Session:
    """The server, its database, and the two players' pages."""

    server: WebServer
    db: Path
    ann: Player
    bob: Player


@pytest.fixture(scope="module")
def session(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    tmp = tmp_path_factory.mktemp("web-wagers")
    server = start_server(tmp, extra=EXTRA)
    server.account("ann", "player", deposit="1000.00")
    server.account("bob", "player", deposit="20.00")
    ann = open_page(browser, server, "ann", DESKTOP)
    bob = open_page(browser, server, "bob", NARROW)
    try:
        yield Session(server, tmp / "felt.db", ann, bob)
    finally:
        for p in (ann, bob):
            p.page.context.close()
        server.proc.stop()


def sit(p: Player, seat: int, table: str = TABLE) -> None:
    """Open ``table`` and sit at ``seat``; wait for the wager form."""
    p.page.goto(p.page.url.split("#")[0] + f"#/table/{table}")
    p.page.wait_for_selector(".table-screen .live[data-state=live]")
    p.page.get_by_role("button", name=f"Sit at seat {seat}").click()
    form(p)


def form(p: Player) -> Any:
    """The wager form, once the screen shows it (the balance read)."""
    p.page.wait_for_selector("fieldset.wager", timeout=30_000)
    p.page.wait_for_selector("#balance[data-balance]", state="attached")
    return p.page.locator("fieldset.wager")


def place_button(p: Player) -> Any:
    return p.page.locator("fieldset.wager button.primary")


def reason(p: Player) -> str:
    return str(p.page.locator("fieldset.wager .reason").text_content() or "")


def decide(p: Player, action: str) -> str:
    """Expose for the bonus when asked, then take ``action`` at "second or fold"; the text
    the second wager's button showed."""
    page = p.page
    page.wait_for_selector(".decision button[data-action]", timeout=30_000)
    if page.locator(".decision button[data-action=expose]").count():
        page.locator(".decision button[data-action=expose]").click()
    second = page.locator(".decision button[data-action=second]")
    second.wait_for(timeout=30_000)
    text = str(second.text_content())
    page.locator(f".decision button[data-action={action}]").click()
    return text


def finished(p: Player) -> None:
    p.page.wait_for_selector(".table-screen[data-finished=true]", timeout=30_000)


def wagers_placed(db: Path, name: str) -> list[dict[str, Any]]:
    """The wager actions the server accepted from ``name`` at the table, in order."""
    events, tables, ids, _ = read_log(db)
    out = []
    for rid in sorted(
        (r for r in events if tables[r] == TABLE), key=lambda r: int(r.split(":")[1])
    ):
        for e in events[rid]:
            if e.actor == ids[name] and e.action.get("action") in ("wager", "second"):
                out.append({k: v for k, v in e.action.items() if k not in ("seat", "player")})
    return out


def test_players_wager_the_minimum_the_maximum_an_odd_amount_and_repeat(session: Session) -> None:
    ann, bob = session.ann, session.bob
    sit(ann, 1)
    sit(bob, 2)
    page = ann.page
    ante, bonus = page.locator("#wager-ante-1"), page.locator("#wager-bonus-1")
    # the form opens at the minimum ante; the first wager follows it (24.6(b): 2 x the ante)
    assert ante.input_value() == "5.00"
    assert place_button(ann).text_content() == "Wager $15.00"
    assert "First wager $10.00" in str(form(ann).text_content())
    # chips only of the denominations within the limits: none above the $50.00 maximum
    chips = page.locator("fieldset.wager .spot[data-field=ante] button.chip").all_text_contents()
    assert chips == ["$1", "$5", "$25"]
    # over the maximum, off the cent, or nothing: not offered, and the screen says why
    for typed, why in (("50.01", "The ante must be $5.00 to $50.00"),
                       ("4.99", "The ante must be $5.00 to $50.00"),
                       ("7.355", "The ante must be in whole cents"),
                       ("", "Place the ante")):  # fmt: skip
        ante.fill(typed)
        assert place_button(ann).is_disabled(), typed
        assert reason(ann).startswith(why), (typed, reason(ann))
    bonus.fill("26")
    ante.fill("7.35")
    assert place_button(ann).is_disabled()
    assert reason(ann) == "The optional bonus wager must be $1.00 to $25.00"
    # nothing to repeat yet; "Clear" empties the form
    assert not page.locator("#wager-repeat-1").is_visible()
    page.get_by_role("button", name="Clear").click()
    assert (ante.input_value(), bonus.input_value()) == ("", "")
    # an odd ante typed, a bonus from chips: $5 + $1 + $1
    ante.fill("7.35")
    for chip in ("$5", "$1", "$1"):
        page.get_by_role("button", name=f"Add {chip} to the optional bonus wager").click()
    assert bonus.input_value() == "7.00"
    assert page.locator("fieldset.wager .total").text_content() == "Total at risk $29.05"
    assert place_button(ann).is_enabled()
    assert reason(ann) == ""
    assert not unnamed(page)
    assert not misfits(page)
    shot(page, "wager-desktop")

    # bob has $20.00: an ante of $7.00 (total $21.00) is over his balance (13:69O-1.4(h))
    bob.page.locator("#wager-ante-2").fill("7")
    assert place_button(bob).is_disabled()
    assert reason(bob) == "The total $21.00 is more than your balance $20.00"
    assert not unnamed(bob.page)
    assert not misfits(bob.page)
    shot(bob.page, "wager-phone")
    bob.page.locator("#wager-ante-2").fill("5")  # the minimum
    assert place_button(bob).text_content() == "Wager $15.00"

    place_button(ann).click()
    place_button(bob).click()
    # the second wager's amount is on its button before it is placed (24.10(b): = the first)
    assert decide(ann, "second") == "Second wager $14.70"
    bob.page.wait_for_selector(".decision button[data-action=second]", timeout=30_000)
    second = bob.page.locator(".decision button[data-action=second]")
    assert second.text_content() == "Second wager $10.00"
    assert second.is_disabled()  # $5.00 left after the ante and the first wager
    assert "more than your balance $5.00" in str(bob.page.locator(".decision").text_content())
    bob.page.locator(".decision button[data-action=fold]").click()
    finished(ann)
    bob.page.get_by_role("button", name="Leave seat 2").click()

    # "Repeat last wager": the same ante and bonus, offered with their total
    form(ann)
    repeat = page.locator("#wager-repeat-1")
    repeat.wait_for()
    assert repeat.text_content() == "Repeat last wager $29.05"
    page.get_by_role("button", name="Clear").click()
    repeat.click()
    assert (ante.input_value(), bonus.input_value()) == ("7.35", "7.00")
    place_button(ann).click()
    assert decide(ann, "second") == "Second wager $14.70"
    finished(ann)

    # the maximum: $50.00 ante, first wager $100.00; a chip that would pass it is not offered
    form(ann)
    ante.fill("50")
    bonus.fill("")
    assert page.get_by_role("button", name="Add $1 to the ante").is_disabled()
    assert place_button(ann).text_content() == "Wager $150.00"
    place_button(ann).click()
    assert decide(ann, "fold") == "Second wager $100.00"
    finished(ann)

    placed = wagers_placed(session.db, "ann")
    assert placed == [
        {"action": "wager", "ante": "7.35", "first": "14.70", "bonus": "7.00"},
        {"action": "second"},
        {"action": "wager", "ante": "7.35", "first": "14.70", "bonus": "7.00"},
        {"action": "second"},
        {"action": "wager", "ante": "50.00", "first": "100.00", "bonus": "0.00"},  # none
    ]
    assert wagers_placed(session.db, "bob") == [
        {"action": "wager", "ante": "5.00", "first": "10.00", "bonus": "0.00"}
    ]
    assert re.fullmatch(r"Balance \$\d+\.\d\d", str(page.locator("#balance").text_content()))


def test_the_forms_verdict_is_the_layouts_for_every_game(session: Session) -> None:
    """The page's own check (player.js ``wagerVerdict``) gives the verdict of the layout
    (tests/test_wager_limits.py ``layout_refusal``, held there to the engine's) on random
    amounts, as typed in several ways, at a table of every game and against random balances."""
    rng = random.Random(20)
    cases: list[dict[str, Any]] = []
    expected: list[bool] = []
    for game_id, settings_, edition in LIMIT_TABLES:
        game, config = table_of(game_id, settings_, edition)
        w = game.layout(config)["wager"]
        for _ in range(60):
            texts: dict[str, str] = {}
            amounts: dict[str, Decimal] = {}
            for s in w["spots"]:
                if "follows" in s or rng.random() < 0.2:
                    continue
                lo, hi = as_cents(s["minimum"]), as_cents(s["maximum"])
                cents_ = rng.choice([lo, hi, lo - 1, hi + 1, Decimal(rng.randint(1, int(hi) * 2)),
                                     Decimal(rng.randint(1, int(hi))) + Decimal("0.5")])  # fmt: skip
                amounts[s["field"]] = cents_
                text = str(cents_ / 100)
                texts[s["field"]] = rng.choice(
                    [text, f"${text}", f"{text}0" if "." in text else text]
                )
            balance = rng.choice([None, rng.randint(0, 400_000)])
            cases.append({"w": w, "texts": texts, "balance": balance})
            expected.append(layout_refusal(w, sent_of(w, amounts), balance) is None)
    got = session.ann.page.evaluate(
        """async (cases) => {
             const m = await import('/static/player.js');
             return cases.map((c) => m.wagerVerdict(c.w, c.texts, c.balance).reason === null);
           }""",
        cases,
    )
    wrong = [
        (c["texts"], c["balance"]) for c, e, g in zip(cases, expected, got, strict=True) if e != g
    ]
    assert not wrong, wrong[:5]
    assert 0 < sum(expected) < len(expected)  # both verdicts were tried


def test_a_double_down_of_any_amount_up_to_the_wager_where_the_table_allows_it(
    session: Session,
) -> None:
    """17.8(c) at a table of ``double_down = "up-to"``: the double down button shows the amount
    typed, from $0.01 up to the wager, and is disabled with the reason beyond it; the server
    records the amount shown."""
    ann = session.ann
    page = ann.page
    sit(ann, 3, "dd-up")
    page.locator("#wager-amount-3").fill("10")
    assert place_button(ann).text_content() == "Bet $10.00"
    place_button(ann).click()
    double = page.locator(".decision button[data-action=double]")
    double.wait_for(timeout=30_000)
    assert double.text_content() == "Double for $10.00"  # the whole wager, unless changed
    amount = page.locator("#place-amount-3")
    amount.fill("10.01")
    assert double.is_disabled()
    assert "The amount must be $0.01 to $10.00" in str(page.locator(".decision").text_content())
    amount.fill("4.25")
    assert double.text_content() == "Double for $4.25"
    assert not unnamed(page)
    double.click()
    finished(ann)
    page.get_by_role("button", name="Leave seat 3").click()
    events, tables, ids, _ = read_log(session.db)
    doubles = [e.action for rid, evs in events.items() if tables[rid] == "dd-up" for e in evs
               if e.actor == ids["ann"] and e.action.get("action") == "double"]  # fmt: skip
    assert doubles == [{"action": "double", "seat": 3, "amount": "4.25"}]
