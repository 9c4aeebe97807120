"""Let It Ride Poker in a real headless Chromium against a real ``felt serve`` running one Let It
Ride table and nothing else (issue 22): the shared table screen draws the game from its layout
(the three equal wagers and the bonus spots, let it ride or take back for wagers 1 and 2, the
two community cards face down until turned); ann plays rounds from the browser with three
wagers and the let it ride bonus, taking back wager 1 and letting wager 2 ride, beside bob on a
phone's width who lets every wager ride.

Every WebSocket frame each page received and every card its DOM ever held is checked IN THE
BROWSER against this file's oracle (tests/test_server_letitride.py's, from the stored event
log by the rules, never felt's view code): no community card before the dealer turns it, the
burned card never, no other position's card before its hand is turned over at the settlement."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from felt.server.store import Store, accounts
from tests.server_process import ServeProcess
from tests.test_server_letitride import Rights, leaks, rights
from tests.test_web import Player, open_page, read_log, screen_state
from tests.web_helpers import ADMIN, DESKTOP, PHONE, WebServer, browser, misfits

__all__ = ["browser"]  # the fixture, imported for pytest

ID = "let_it_ride"
TABLE = "lir"
ROUNDS = 2
"""Rounds both players play (each: wagers, two decisions, the settlement)."""
TABLES = f"""
[[table]]
id = "{TABLE}"
game = "{ID}"
pace_seconds = 0.3
betting_seconds = 2
between_rounds_seconds = 2

[table.settings]
decision_seconds = 60
"""


@dataclass
class Played:
    """The session both players played, where it was stored, and what ann's screen showed."""

    db: Path
    players: list[Player]
    ann_seat: int
    seen: dict[str, Any]
    """What ann's screen showed at each step of her first round."""


def _start(tmp: Path) -> WebServer:
    """``felt serve`` with the one Let It Ride table (no other game's tables: CI time)."""
    tables = tmp / "tables.toml"
    tables.write_text(TABLES)
    proc = ServeProcess(f"sqlite:///{tmp / 'felt.db'}", tables, tmp / "serve.log", ADMIN)
    proc.start()
    return WebServer(proc)


def _sit(p: Player) -> int:
    """Sit at the first free seat from the table screen; the seat number."""
    p.page.goto(p.page.url.split("#")[0] + f"#/table/{TABLE}")
    p.page.wait_for_selector(".table-screen")
    p.page.locator("button", has_text="Sit at seat").first.click()
    p.page.wait_for_selector(".mine")
    return int(str(p.page.locator(".mine").first.get_attribute("data-seat")))


def _click(p: Player, selector: str) -> bool:
    from playwright.sync_api import Error as PlaywrightError

    try:
        p.page.locator(selector).first.click(timeout=1500)
    except PlaywrightError:  # the screen changed under the click: look again
        return False
    return True


def _election(p: Player, seat: int) -> str | None:
    """The election the screen asks the seat for now (``first wager``, ``second wager``)."""
    group = p.page.locator(f".mine[data-seat='{seat}'] .decision")
    if not group.count():
        return None
    label = str(group.first.get_attribute("aria-label"))
    return label.split(": ", 1)[1] if ": " in label else None


def _move(p: Player, seat: int, plan: dict[str, str], seen: dict[str, Any] | None) -> bool:
    """One move the screen offers: the wager form (with the bonus where ``plan`` says), or the
    decision ``plan`` names for the election asked; ``seen`` records ann's screen as it goes."""
    page = p.page
    if page.locator(f"#wager-place-{seat}:enabled").count():
        from playwright.sync_api import Error as PlaywrightError

        try:
            page.locator(f"#wager-amount-{seat}").fill(plan["amount"], timeout=1500)
            if plan.get("bonus"):
                page.locator(f"#wager-bonus-{seat}").fill(plan["bonus"], timeout=1500)
        except PlaywrightError:  # the form went (the betting closed): look again
            return False
        if seen is not None and "form" not in seen:
            seen["form"] = {
                "spots": page.evaluate("() => [...document.querySelectorAll('fieldset.wager "
                                       ".spot')].map((s) => s.dataset.field)"),
                "total": page.locator(".total-amount").first.text_content(),
            }  # fmt: skip
        return _click(p, f"#wager-place-{seat}")
    election = _election(p, seat)
    if election is None:
        return False
    if seen is not None and election not in seen:
        seen[election] = {
            "buttons": [str(b.text_content()) for b in
                        page.locator(f".mine[data-seat='{seat}'] .decision button").all()],
            "dealer": page.locator(".panel.dealer").first.inner_text(),
            "face_down": page.locator(".panel.dealer .card.back").count(),
            "face_up": page.locator(".panel.dealer [data-card]").count(),
        }  # fmt: skip
    group = f".mine[data-seat='{seat}'] .decision[aria-label='Seat {seat}: {election}']"
    return _click(p, f"{group} button[data-action={plan[election]}]")  # that election's only


@pytest.fixture(scope="module")
def played(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    tmp = tmp_path_factory.mktemp("web-letitride")
    server = _start(tmp)
    for name in ("ann", "bob"):
        server.account(name, "player", deposit="1000.00")
    players = [open_page(browser, server, "ann", DESKTOP), open_page(browser, server, "bob", PHONE)]
    plans = [
        {
            "amount": "10",
            "bonus": "1.00",
            "first wager": "take_back",
            "second wager": "let_it_ride",
        },
        {"amount": "5", "first wager": "let_it_ride", "second wager": "let_it_ride"},
    ]
    seen: dict[str, Any] = {}
    try:
        seats = [_sit(p) for p in players]
        done: list[set[str]] = [set(), set()]
        wagered: list[set[str]] = [set(), set()]
        end = time.monotonic() + 120
        while any(len(d) < ROUNDS for d in done):
            assert time.monotonic() < end, f"rounds did not finish: {done}"
            moved = False
            for i, p in enumerate(players):
                state = screen_state(p)
                rid = state.get("round", "")
                if len(done[i]) >= ROUNDS or not rid:
                    continue
                if p.page.locator(f".mine[data-seat='{seats[i]}'] > .hand .card").count():
                    wagered[i].add(rid)
                if state.get("finished") == "true":
                    if rid in wagered[i]:
                        done[i].add(rid)
                        if i == 0 and "settled" not in seen:
                            seen["settled"] = p.page.locator(".panel.dealer").first.inner_text()
                    continue
                moved = _move(p, seats[i], plans[i], seen if i == 0 else None) or moved
            if not moved:
                time.sleep(0.1)
        seen["misfits"] = {p.name: misfits(p.page) for p in players}
        yield Played(tmp / "felt.db", players, seats[0], seen)
    finally:
        for p in players:
            p.page.context.close()
        server.proc.stop()


def test_the_table_screen_draws_the_layout(played: Played) -> None:
    """The wager form has the three equal wagers' amount (counted three times at risk) and the
    two bonus spots; the community cards are named so, not "Dealer"; the first
    decision offers Let it ride and Take back wager 1, the second Take back wager 2; before the
    first turn the two community cards are face down, before the second one is face up (18.1
    "Community card"); nothing overflows the desktop or the phone width."""
    seen = played.seen
    assert seen["form"]["spots"] == ["amount", "bonus", "three_card_bonus"]
    assert seen["form"]["total"] == "$31.00"  # $10.00 on each of three wagers and the bonus
    assert seen["first wager"]["dealer"].startswith("Community cards")  # the layout's label
    first, second = seen["first wager"], seen["second wager"]
    assert first["buttons"] == ["Let it ride", "Take back wager 1"]
    assert second["buttons"] == ["Let it ride", "Take back wager 2"]
    assert (first["face_down"], first["face_up"]) == (2, 0)
    assert (second["face_down"], second["face_up"]) == (1, 1)
    assert seen["misfits"] == {"ann": [], "bob": []}


def test_ann_plays_three_wagers_and_the_bonus_takes_back_1_and_lets_2_ride(
    played: Played,
) -> None:
    """The stored record of ann's rounds: her wager of $10.00 each with the $1.00 bonus, wager 1
    taken back, wager 2 let ride, wager $ never decided; bob let both ride; every round settled."""
    events, _, ids, _ = read_log(played.db)
    mine = [evs for evs in events.values() if any(e.actor == ids["ann"] for e in evs)]
    assert len(mine) >= ROUNDS
    for evs in mine[:ROUNDS]:
        acts = [e.action for e in evs if e.actor == ids["ann"]]
        assert (acts[0]["action"], acts[0]["seat"]) == ("wager", played.ann_seat)
        assert (acts[0]["amount"], acts[0]["bonus"]) == ("10.00", "1.00")
        assert [(a["action"], a["wager"]) for a in acts[1:]] == [("take_back", 1),
                                                                  ("let_it_ride", 2)]  # fmt: skip
        assert any(e.action.get("dealer") == "settle" for e in evs)
    bobs = [e.action for evs in events.values() for e in evs if e.actor == ids["bob"]]
    assert {a["action"] for a in bobs} == {"wager", "let_it_ride"}
    refused = [f for p in played.players for f in p.frames if f.get("type") == "error"]
    assert len(refused) <= 2, refused


def _received(played: Played) -> dict[str, list[dict[str, Any]]]:
    """Every frame each page received and every DOM state it held (as table messages)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for p in played.players:
        dom = [{"type": "table", "table": d["table"], "round": d["round"] or None,
                "seq": d["seq"], "cards": d["cards"], "last": d.get("last") or {}}
               for d in p.page.evaluate("() => window.__dom")]  # fmt: skip
        assert dom, f"{p.name}'s page never showed a card"
        out[p.name] = [f for f in p.frames if f.get("type") == "table"] + dom
    return out


def _oracle(played: Played) -> tuple[dict[str, Rights], dict[str, int]]:
    store = Store(f"sqlite:///{played.db}")
    try:
        oracle = rights(store)
    finally:
        store.dispose()
    engine = create_engine(f"sqlite:///{played.db}")
    try:
        with engine.connect() as conn:
            ids = {str(n): int(i) for n, i in conn.execute(select(accounts.c.name, accounts.c.id))}
    finally:
        engine.dispose()
    return oracle, ids


def test_no_page_holds_a_community_card_early_or_the_burn_card_ever(played: Played) -> None:
    """Every WebSocket frame and every DOM state of both pages: no community card before it is
    turned, the burn card never, no other seat's card before the settlement."""
    oracle, ids = _oracle(played)
    received = _received(played)
    found = leaks(received, ids, oracle)
    assert not found, found[:20]
    assert sum(len(v) for v in received.values()) > 20
    burned = {c for r in oracle.values() for c in r.burn}
    assert burned  # every dealt round burned one card, which no page ever showed in its round


def test_the_checks_catch_a_page_that_shows_a_community_card_early(played: Played) -> None:
    """A DOM state of the deal's event holding community card 1 or the burn card is found; the
    player's own three cards are not."""
    oracle, ids = _oracle(played)
    rid, r = next((k, v) for k, v in oracle.items() if v.settle is not None and v.owners)
    deal = min(r.dealt.values())
    first = min(r.community, key=lambda c: r.community[c])
    for card in (first, next(iter(r.burn))):
        fake = {"type": "table", "table": TABLE, "round": rid, "seq": deal, "cards": [card]}
        assert {x[2] for x in leaks({"ann": [fake]}, ids, oracle)} == {card}
    seat = next(s for s, a in r.owners.items() if a == ids["ann"])
    own = {"type": "table", "round": rid, "seq": deal, "cards": sorted(r.seat_cards[seat])}
    assert leaks({"ann": [own]}, ids, oracle) == []


def test_the_wager_forms_total_counts_the_three_equal_wagers(played: Played) -> None:
    """The form's own check (player.js ``wagerVerdict``) on the game's wager layout, its amount
    spot placed on three equal wagers (``count``, TableGame.layout): $10.00 each and the $1.00
    bonus are $31.00 at risk, refused against a $30.00 balance as the server refuses it
    (13:69O-1.4(h)) and taken against $31.00."""
    from felt.games.let_it_ride.game import GAME

    w = GAME.layout(GAME.config(ID, {}))["wager"]
    w["spots"] = [{**s, "count": 3} if s["field"] == "amount" else s for s in w["spots"]]
    texts = {"amount": "10", "bonus": "1.00"}
    got = played.players[0].page.evaluate(
        """async ([w, texts]) => {
             const m = await import('/static/player.js');
             return [3000, 3100].map((b) => m.wagerVerdict(w, texts, b));
           }""",
        [w, texts],
    )
    assert [v["total"] for v in got] == [3100, 3100]
    assert "more than your balance" in got[0]["reason"]
    assert got[1]["reason"] is None


def test_18_4_e_the_consoles_say_why_no_round_opens_and_the_supervisor_changes_the_cards(
    browser: Any, tmp_path: Path
) -> None:
    """A server in this process (so its clock can be a fake one) whose table's cards are past
    their eight hours: the dealer's console and the player's table screen say why no round
    opens, with the clause; the supervisor records the change from the console's procedure form
    and the next round opens on every screen."""
    from tests.server_helpers import ADMIN_PASSWORD, live_server
    from tests.test_server_letitride import spec
    from tests.web_helpers import log_in

    with live_server(f"sqlite:///{tmp_path / 'felt.db'}", [spec()]) as h:
        h.account("deal", "dealer")
        h.account("ann", "player", "100.00")
        host = h.server.hosts[TABLE]
        now = [time.time() + 8 * 3600 + 1]
        host.schedule_seconds = 0.2
        host.clock = lambda: now[0]  # the round waiting for wagers is withdrawn: cards due
        r = h.post("ann", f"/api/tables/{TABLE}/sit", {"seat": 1})  # (wakes the table now)
        assert r.status_code == 200, r.text
        url = str(h.client.base_url)
        pages = {}
        for name, password, screen in (("deal", "deal-password", "#/dealer/"),
                                       ("ann", "ann-password", "#/table/"),
                                       ("admin", ADMIN_PASSWORD, "#/dealer/")):  # fmt: skip
            page = browser.new_context(viewport=DESKTOP).new_page()
            page.goto(url + "/")
            log_in(page, name, password)
            page.goto(f"{url}/#{screen[1:]}{TABLE}")
            pages[name] = page
        try:
            for page in pages.values():
                page.wait_for_selector("p.blocked", timeout=15_000)
                text = str(page.locator("p.blocked").first.text_content())
                assert text.startswith("No new round: the cards in use were opened")
                assert "N.J.A.C. 19:47-18.4(e)" in text
            boss = pages["admin"]
            boss.wait_for_selector("#procedure")
            boss.select_option("#procedure", "change_cards")
            assert boss.locator("#argument").is_disabled()  # the server's clock, not typed
            boss.get_by_role("button", name="Apply").click()
            for page in pages.values():
                page.wait_for_function("() => !document.querySelector('p.blocked')")
            pages["ann"].wait_for_selector("fieldset.wager")
        finally:
            for page in pages.values():
                page.context.close()
