"""Three Card Poker in a real headless Chromium against a real ``felt serve`` (the harness of
tests/test_web.py): two players in two browser contexts play rounds through the shared table
screen, drawn from the game's layout; every WebSocket frame each page receives and every card its
DOM ever holds is checked against when its player became entitled to see that card.

The entitlement oracle is this file's own, worked out from the stored event log by the game's
rules and never with felt's view code: every hand is dealt face down (20.7-20.9), so a player may
see their own three cards from the deal; the dealer's three once the dealer turns them over
(20.10); another position's hand once it is turned over and settled against the dealer's (20.10);
a folded hand never (it goes to the rack unseen)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from felt.server.store import postings
from tests.test_server_leaks import Logged, Session, Sight, leaks
from tests.test_web import Player, open_page, play, read_log
from tests.web_helpers import DESKTOP, PHONE, browser, start_server

__all__ = ["browser"]  # the fixture, imported for pytest

ID = "three-card-poker"
TABLE = "tcp"
ROUNDS = 3
"""Rounds both players play."""
EXTRA = f"""
[[table]]
id = "{TABLE}"
game = "{ID}"
pace_seconds = 0.3
betting_seconds = 3
between_rounds_seconds = 4

[table.settings]
decision_seconds = 60
"""


def sight_of(events: list[Logged]) -> Sight:
    """When each card of one Three Card Poker round came into view, from its stored events by
    the rules alone (see the module docstring)."""
    s = Sight(ID)
    for e in events:
        if e.action.get("action") == "wager":
            assert e.actor is not None
            s.owners[int(e.action["seat"])] = e.actor
        for f in e.effects:
            kind, cards = f["kind"], list(f.get("cards", []))
            seat: Any = f.get("seat")
            if kind == "deal":  # 20.7-20.9: face down, the position's to its player alone
                for c in cards:
                    s.holder[c], s.dealt_at[c] = seat, e.seq
                    if seat is not None:
                        s.own[s.owners[seat]].setdefault(c, e.seq)
            elif kind == "reveal":  # 20.10: the dealer's three turned over
                for c in cards:
                    s.everyone.setdefault(c, e.seq)
            elif kind == "rack" and e.action.get("dealer") == "settle" and seat is not None:
                for c in cards:  # 20.10: a hand in play turned over as it is settled
                    s.everyone.setdefault(c, e.seq)
    return s


@dataclass
class Played:
    """The session both players played, and where it was stored."""

    db: Path
    players: list[Player]


@pytest.fixture(scope="module")
def played(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    tmp = tmp_path_factory.mktemp("web-tcp")
    server = start_server(tmp, extra=EXTRA)
    for name in ("ann", "bob"):
        server.account(name, "player", deposit="1000.00")
    players = [open_page(browser, server, "ann", DESKTOP), open_page(browser, server, "bob", PHONE)]
    try:
        play(players, TABLE, ROUNDS, random.Random(19))
        yield Played(tmp / "felt.db", players)
    finally:
        for p in players:
            p.page.context.close()
        server.proc.stop()


def _session(played: Played, received: dict[str, list[dict[str, Any]]]) -> Session:
    events, tables, ids, roles = read_log(played.db)
    sights = {rid: sight_of(evs) for rid, evs in events.items() if tables[rid] == TABLE}
    return Session(received, ids, roles, sights, events, tables)


def test_two_players_play_rounds_of_three_card_poker(played: Played) -> None:
    """Both players wagered and decided at the table, and saw their settlement."""
    events, tables, ids, _ = read_log(played.db)
    rounds = {rid: evs for rid, evs in events.items() if tables[rid] == TABLE}
    for p in played.players:
        mine = [rid for rid, evs in rounds.items() if any(e.actor == ids[p.name] for e in evs)]
        assert len(mine) >= ROUNDS, (p.name, mine)
        settled = [f for f in p.frames if f.get("type") == "table" and f.get("finished")
                   and any(v.get("lines") for v in f.get("mine", {}).values())]  # fmt: skip
        assert settled, p.name
        refused = [f for f in p.frames if f.get("type") == "error"]
        assert len(refused) <= 2, refused  # a click on a screen that had just changed, at most
    made = {e.action.get("action") for evs in rounds.values() for e in evs if e.actor is not None}
    assert "wager" in made
    assert made & {"play", "fold"}, made
    assert sum(1 for evs in rounds.values() for e in evs
               if e.action.get("dealer") == "settle") >= ROUNDS  # fmt: skip
    # Money moved: a fold loses its ante, a played hand wins or loses unless it ties the dealer
    # exactly, so some player's net for some round is not zero.  (The players' total can be zero
    # by chance, one player's win the other's loss, so it is not the check.)
    assert any(net != 0 for net in round_nets(played.db, TABLE).values())


def round_nets(db: Path, table: str) -> dict[tuple[str, str], int]:
    """Cents each player's wallet gained in each round of ``table``, from the postings (a
    posting's transaction is ``<round>#<event>``)."""
    engine = create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(postings.c.account, postings.c.amount, postings.c.txn)).all()
    finally:
        engine.dispose()
    nets: dict[tuple[str, str], int] = {}
    for account, amount, txn in rows:
        if account.startswith("player:") and txn.startswith(f"{table}:"):
            key = (txn.split("#")[0], account)
            nets[key] = nets.get(key, 0) + int(amount)
    return nets


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


def test_the_checks_catch_a_page_that_holds_a_card_too_early(played: Played) -> None:
    """A DOM state holding the dealer's cards, or another player's hand, from the deal on is
    found (so the test above can fail)."""
    events, tables, ids, _ = read_log(played.db)
    rid = next(r for r, evs in events.items() if tables[r] == TABLE
               and len(sight_of(evs).owners) == 2 and sight_of(evs).dealt_at)  # fmt: skip
    sight = sight_of(events[rid])
    first_deal = min(sight.dealt_at.values())
    dealer = [c for c, seat in sight.holder.items() if seat is None]
    bob_seats = {seat for seat, owner in sight.owners.items() if owner == ids["bob"]}
    bobs = [c for c, seat in sight.holder.items() if seat in bob_seats]
    assert len(dealer) == 3
    assert len(bobs) == 3
    for shown in (dealer, bobs):
        fake = {"type": "table", "table": TABLE, "round": rid, "seq": first_deal, "cards": shown}
        session = _session(played, {"ann": [fake]})
        assert {leak.card for leak in leaks(session)} == set(shown)
    mine = [c for c, seat in sight.holder.items()
            if seat is not None and sight.owners[seat] == ids["ann"]]  # fmt: skip
    fine = {"type": "table", "table": TABLE, "round": rid, "seq": first_deal, "cards": mine}
    assert leaks(_session(played, {"ann": [fine]})) == []
