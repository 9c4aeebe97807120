"""Caribbean Stud Poker in a real headless Chromium against a real ``felt serve`` (the harness
of tests/test_web.py): two players play rounds at a table linked to a progressive meter through
the shared table screen, drawn from the game's layout (the ante and the optional progressive
spot, bet or fold, the dealer's one face-up card and four face-down cards); the meter shows on
the table screen and on the supervisor's floor, and follows the meter's moves; every WebSocket
frame each page receives and every card its DOM ever holds is checked against when its player
became entitled to see that card.

The entitlement oracle is this file's own, from the stored event log by the game's rules, never
with felt's view code: each position's five cards are dealt face down (16.7-16.9 as the game
deals them), its player's from the deal; the dealer's fifth card is dealt face up, everyone's
from the deal; the dealer's four hole cards everyone's once revealed; another position's hand
once it is turned over at the settlement; a folded hand never."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from felt.core.money import cents
from felt.server.store import HOUSE_ACCOUNT, Posting, Store
from tests.test_server_leaks import Logged, Session, Sight, leaks
from tests.test_web import Player, open_page, play, read_log
from tests.web_helpers import DESKTOP, NARROW, PHONE, browser, misfits, shot, start_server

__all__ = ["browser"]  # the fixture, imported for pytest

ID = "caribbean_stud"
TABLE = "cs"
ROUNDS = 3
"""Rounds both players play."""
EXTRA = "".join(
    f"""
[[table]]
id = "{tid}"
game = "{ID}"
pace_seconds = 0.3
betting_seconds = 3
between_rounds_seconds = 4

[table.settings]
decision_seconds = 60

[table.settings.progressive]
meter = "linked"
seed = "2500.00"
"""
    for tid in (TABLE, "cs2")
)


def sight_of(events: list[Logged]) -> Sight:
    """When each card of one Caribbean Stud round came into view, from its stored events by the
    rules alone (see the module docstring)."""
    s = Sight(ID)
    for e in events:
        if e.action.get("action") == "wager":
            assert e.actor is not None
            s.owners[int(e.action["seat"])] = e.actor
        for f in e.effects:
            kind, cards = f["kind"], list(f.get("cards", []))
            seat: Any = f.get("seat")
            if kind == "deal":
                for c in cards:
                    s.holder[c], s.dealt_at[c] = seat, e.seq
                    if seat is not None:  # a position's five, face down: its player's
                        s.own[s.owners[seat]].setdefault(c, e.seq)
                    elif "up" in str(f.get("detail", "")):  # the dealer's one face-up card
                        s.everyone.setdefault(c, e.seq)
            elif kind == "reveal":  # the dealer's four hole cards turned over
                for c in cards:
                    s.everyone.setdefault(c, e.seq)
            elif kind == "rack" and e.action.get("dealer") == "settle" and seat is not None:
                for c in cards:  # a hand in play turned over as it is settled
                    s.everyone.setdefault(c, e.seq)
    return s


@dataclass
class Played:
    """The session both players played, and where it was stored."""

    db: Path
    players: list[Player]
    meter_views: list[str]
    """The meter's amount as each table screen showed it along the way."""


@pytest.fixture(scope="module")
def played(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    tmp = tmp_path_factory.mktemp("web-caribbean")
    server = start_server(tmp, extra=EXTRA)
    for name in ("ann", "bob"):
        server.account(name, "player", deposit="1000.00")
    players = [open_page(browser, server, "ann", DESKTOP), open_page(browser, server, "bob", PHONE)]
    try:
        play(players, TABLE, ROUNDS, random.Random(21))
        amounts = [
            str(p.page.locator(".meter .meter-amount").first.text_content()) for p in players
        ]
        yield Played(tmp / "felt.db", players, amounts)
    finally:
        for p in players:
            p.page.context.close()
        server.proc.stop()


def _session(played: Played, received: dict[str, list[dict[str, Any]]]) -> Session:
    events, tables, ids, roles = read_log(played.db)
    sights = {rid: sight_of(evs) for rid, evs in events.items() if tables[rid] == TABLE}
    return Session(received, ids, roles, sights, events, tables)


def test_two_players_play_rounds_with_the_meter_shown(played: Played) -> None:
    """Both players wagered and bet or folded at the table, saw their settlement, and each
    screen showed the linked meter's label and its amount as the last frame gave it."""
    events, tables, ids, _ = read_log(played.db)
    rounds = {rid: evs for rid, evs in events.items() if tables[rid] == TABLE}
    for p, shown in zip(played.players, played.meter_views, strict=True):
        mine = [rid for rid, evs in rounds.items() if any(e.actor == ids[p.name] for e in evs)]
        assert len(mine) >= ROUNDS, (p.name, mine)
        last = [f for f in p.frames if f.get("type") == "table" and f.get("table") == TABLE][-1]
        assert last["progressive"]["meter"] == "linked"
        assert shown == f"${last['progressive']['amount']}"
        refused = [f for f in p.frames if f.get("type") == "error"]
        assert len(refused) <= 2, refused
    made = {e.action.get("action") for evs in rounds.values() for e in evs if e.actor is not None}
    assert "wager" in made
    assert made & {"bet", "fold"}, made


def test_the_meter_on_screen_follows_the_progressive_wagers(played: Played) -> None:
    """Each frame's meter is the seed plus what the progressive wagers put on it so far: the
    amounts the pages received only ever rise while no royal flush is hit, and the last is above
    the seed once any progressive wager was placed."""
    events, _, _, _ = read_log(played.db)
    placed = sum(1 for evs in events.values() for e in evs
                 if e.action.get("action") == "wager" and e.action.get("progressive"))  # fmt: skip
    paid = any(f["kind"] == "progressive payout" and f.get("detail", "").find("meter") >= 0
               for evs in events.values() for e in evs for f in e.effects)  # fmt: skip
    for p in played.players:
        seen = [cents(f["progressive"]["amount"]) for f in p.frames
                if f.get("type") == "table" and f.get("progressive")]  # fmt: skip
        assert seen
        assert seen[0] >= 250000
        if not paid:
            assert seen == sorted(seen)
        if placed:
            assert max(seen) > 250000


def test_no_page_ever_holds_a_card_before_its_player_may_see_it(played: Played) -> None:
    """Every WebSocket frame and every DOM state of both pages, checked against the oracle."""
    received: dict[str, list[dict[str, Any]]] = {}
    for p in played.players:
        dom = [{"type": "table", "table": d["table"], "round": d["round"] or None,
                "seq": d["seq"], "cards": d["cards"], "last": d.get("last") or {}}
               for d in p.page.evaluate("() => window.__dom") if d["table"] == TABLE]  # fmt: skip
        assert dom, f"{p.name}'s page never showed a card"
        frames = [f for f in p.frames if f.get("table") in (TABLE, None)]
        received[p.name] = frames + dom
    found = leaks(_session(played, received))
    assert not found, "\n".join(str(x) for x in found[:20])
    assert sum(len(v) for v in received.values()) > 20


def test_the_checks_catch_a_page_that_holds_a_hole_card_too_early(played: Played) -> None:
    """A DOM state holding the dealer's hole cards, or another player's hand, from the deal on
    is found (so the test above can fail); the dealer's face-up card is not."""
    events, tables, ids, _ = read_log(played.db)
    rid = next(r for r, evs in events.items() if tables[r] == TABLE
               and len(sight_of(evs).owners) == 2 and sight_of(evs).dealt_at)  # fmt: skip
    sight = sight_of(events[rid])
    first_deal = min(sight.dealt_at.values())
    dealer = [c for c, seat in sight.holder.items() if seat is None]
    hole = [c for c in dealer if c not in sight.everyone or sight.everyone[c] > first_deal]
    bob_seats = {seat for seat, owner in sight.owners.items() if owner == ids["bob"]}
    bobs = [c for c, seat in sight.holder.items() if seat in bob_seats]
    assert len(dealer) == 5
    assert len(hole) == 4
    assert len(bobs) == 5
    for shown in (hole, bobs):
        fake = {"type": "table", "table": TABLE, "round": rid, "seq": first_deal, "cards": shown}
        assert {leak.card for leak in leaks(_session(played, {"ann": [fake]}))} == set(shown)
    up = [c for c in dealer if c not in hole]
    fine = {"type": "table", "table": TABLE, "round": rid, "seq": first_deal, "cards": up}
    assert leaks(_session(played, {"ann": [fine]})) == []


def test_the_table_and_the_floor_show_the_meter_at_every_width(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The table screen (at 1280 and 360 px) shows the meter's label and amount; the floor lists
    the meter with its seed and both linked tables; nothing overflows either width."""
    tmp = tmp_path_factory.mktemp("web-caribbean-floor")
    server = start_server(tmp, extra=EXTRA)
    server.account("ann", "player", deposit="100.00")
    try:
        for viewport, tag in ((DESKTOP, "desktop"), (NARROW, "phone")):
            ann = open_page(browser, server, "ann", viewport)
            page = ann.page
            page.goto(page.url.split("#")[0] + f"#/table/{TABLE}")
            page.wait_for_selector(".table-screen .meter .meter-amount")
            page.wait_for_function(
                "() => document.querySelector('.meter .meter-amount').textContent.startsWith('$')"
            )
            meter = page.locator(".meter").first
            assert meter.get_attribute("data-meter") == "linked"
            assert "Progressive" in str(meter.text_content())
            assert ("$2500.00" if tag == "desktop" else "$2501.00") in str(meter.text_content())
            assert misfits(page) == [], tag
            ann.page.context.close()
            boss = open_page(browser, server, "admin", viewport)
            boss.page.goto(boss.page.url.split("#")[0] + "#/floor")
            row = boss.page.wait_for_selector("table.meters tr[data-meter=linked]")
            assert row is not None
            assert ("$2500.00" if tag == "desktop" else "$2501.00") in str(row.text_content())
            links = [str(a.text_content()) for a in row.query_selector_all("a")]
            assert links == [TABLE, "cs2"]
            if tag == "desktop":  # the floor follows the meter: a move lands within seconds
                store = Store(f"sqlite:///{tmp / 'felt.db'}")
                try:
                    with store.transaction() as conn:
                        store.post(conn, "test:meter-move", [
                            Posting(HOUSE_ACCOUNT, -100, "test"),
                            Posting("progressive:linked", 100, "test"),
                        ])  # fmt: skip
                finally:
                    store.dispose()
                boss.page.wait_for_function(
                    "() => document.querySelector('table.meters tr[data-meter=linked] "
                    ".meter-amount').textContent === '$2501.00'",
                    timeout=15_000,
                )
            assert misfits(boss.page) == [], f"floor {tag}"
            shot(boss.page, f"floor-meters-{tag}")
            boss.page.context.close()
    finally:
        server.proc.stop()
