"""Three Card Poker at the table server, on SQLite and on PostgreSQL: the default server runs a
table of it; two players wager (ante, pair plus), play or fold and are settled into the ledger;
each sees only their own cards until the dealer turns the hands over; the rounds are recalled."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from felt.core.money import cents
from felt.server.spec import TableSpec, default_specs
from tests.server_helpers import Harness, harness

ID = "three-card-poker"


def spec() -> TableSpec:
    """A Three Card Poker table that deals without waiting."""
    return TableSpec("tcp", ID, settings={"decision_seconds": 10}, pace_seconds=0,
                     betting_seconds=0.3, between_rounds_seconds=1.5)  # fmt: skip


@pytest.fixture
def h(database_url: str) -> Iterator[Harness]:
    """A running server with 'ann' at seat 2 and 'bo' at seat 4, $100.00 each."""
    for running in harness(database_url, [spec()]):
        for name, seat in (("ann", 2), ("bo", 4)):
            running.account(name, "player", "100.00")
            assert running.post(name, "/api/tables/tcp/sit", {"seat": seat}).status_code == 200
        yield running


def _mine(view: dict[str, Any], seat: int) -> dict[str, Any]:
    return dict(view.get("mine", {}).get(str(seat)) or {})


def test_the_default_server_runs_a_three_card_poker_table() -> None:
    tables = {s.id: s.game for s in default_specs() if isinstance(s, TableSpec)}
    assert tables["tcp-1"] == ID


def test_two_players_play_rounds_over_the_api(h: Harness) -> None:
    """Two rounds: in the first both players fold, which forfeits the ante and the pair plus
    (docs/interpretations.md, Three Card Poker), so each balance falls by exactly those wagers;
    in the second both play, and the books still balance."""
    players = {"ann": 2, "bo": 4}
    stakes = {"ann": 1000, "bo": 1000}  # cents wagered each round: ante and pair plus / ante
    for number in range(2):
        before = {name: cents(h.get(name, "/api/me").json()["balance"]) for name in players}
        for name, seat in players.items():
            h.wait_for(name, "tcp", lambda v, s=seat: _mine(v, s).get("phase") == "betting")
        r = h.act("ann", "tcp", {"action": "wager", "seat": 2, "ante": "5.00", "pair_plus": "5"})
        assert r.status_code == 200, r.text
        r = h.act("bo", "tcp", {"action": "wager", "seat": 4, "ante": "10.00"})
        assert r.status_code == 200, r.text
        r = h.act("bo", "tcp", {"action": "play", "seat": 2})
        assert r.status_code >= 400  # a player acts for their own seat only
        for name, seat in players.items():
            view = h.wait_for(name, "tcp", lambda v, s=seat: bool(_mine(v, s).get("pending")))
            mine = _mine(view, seat)
            assert len(mine["own_cards"]) == 3
            other = next(o for o in mine["others"] if o["seat"] != seat and o["seat"] in (2, 4))
            assert other["cards"] == []  # another position's cards are face down
            assert mine["dealer_cards"] == []
            choice = "fold" if number == 0 else "play"
            r = h.act(name, "tcp", {"action": choice, "seat": seat})
            assert r.status_code == 200, r.text
        for name, seat in players.items():
            view = h.wait_for(name, "tcp", lambda v: bool(v["finished"]))
            assert _mine(view, seat)["lines"]
        if number == 0:
            after = {name: cents(h.get(name, "/api/me").json()["balance"]) for name in players}
            assert after == {name: before[name] - stakes[name] for name in players}
    store = h.server.store
    assert store.ledger_sum() == 0
    recall = h.get("ann", "/api/tables/tcp/rounds").json()
    assert recall
