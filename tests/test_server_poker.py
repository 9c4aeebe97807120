"""The poker room (N.J.A.C. 19:47-14) at the table server, through the game interface only: a
round is one hand with the sitting in before it; the table carries the stacks.

Checked here, on SQLite and on PostgreSQL: the durable ledger (buy-in from the wallet to the
table's chips, every chip put in moved to the pot account, the pot to the winner's stack and the
rake to the house, cash-out back to the wallet; after EVERY commit the layout account equals the
stacks behind and the pot account the chips in the pot), a hand's amounts worked by hand, the
hole cards no other player's view holds before the showdown, and a crash mid-hand (the record
gives the same hand, which then plays on to the award).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from felt.core.errors import FeltError
from felt.games.poker import hand as ph
from felt.games.poker.round import BuyIn, CashOut, PokerRoomTable, PokerRound
from felt.server.auth import Account, Forbidden
from felt.server.host import TableHost
from felt.server.spec import TableSpec
from felt.server.store import (
    HOUSE_ACCOUNT,
    Store,
    layout_account,
    player_account,
    pot_account,
)
from felt.server.views import PUBLIC, seat_message
from tests.server_helpers import database_url, ledger_balances, one_table

__all__ = ["database_url"]

TID = "poker1"
DEPOSIT = 500_00


def spec() -> TableSpec:
    """Fixed-limit hold'em $1/$2 (blinds), bets $2/$4, 10% rake capped at $4, no flop no drop."""
    return TableSpec(TID, "poker", settings={"decision_seconds": 30}, pace_seconds=0,
                     betting_seconds=0.5, between_rounds_seconds=0.05)  # fmt: skip


@dataclass
class Floor:
    """A store with one poker table, two funded players seated at 1 and 2, a dealer."""

    store: Store
    host: TableHost
    ann: Account
    bob: Account
    deal: Account

    def fresh_host(self) -> TableHost:
        """Another process taking the table over from the record (as after a kill -9)."""
        host = TableHost(self.store, self.host.spec, "node-a")
        host.load()
        return host

    def round(self) -> PokerRound:
        rnd = self.host.round
        assert isinstance(rnd, PokerRound)
        return rnd


@contextmanager
def floor(url: str) -> Iterator[Floor]:
    with one_table(url, spec(), DEPOSIT) as (store, host, people):
        yield Floor(store, host, *people)


def check_accounts(f: Floor) -> None:
    """The invariants: the layout account holds every stack behind, the pot account every chip
    in the pot (zero between hands)."""
    rnd = f.round()
    balances = ledger_balances(f.store)
    hand = rnd.hand
    if hand is not None and not rnd.finished:
        behind = sum(hand.stack(s) for s in hand.start)
        behind += sum(s.stack for n, s in rnd.seats.items() if n not in hand.start)
        in_pot = hand.pot()
    else:
        behind, in_pot = sum(s.stack for s in rnd.seats.values()), 0
    assert balances.get(layout_account(TID), 0) == behind
    assert balances.get(pot_account(TID), 0) == in_pot


def step(f: Floor, action: Any, who: Account | None = None) -> dict[str, Any]:
    """One action through the host, the accounts checked after the commit."""
    ack = f.host.apply_now(action, who)
    check_accounts(f)
    return ack


def deal_until_a_player_acts(f: Floor) -> None:
    """The table's own dealer steps until a player is to act or the hand is over."""
    while not f.round().finished and not f.round().pending():
        action = f.host.game.dealer_step(f.host.table, f.round())
        assert action is not None
        step(f, action)


def player(f: Floor, seat: int) -> Account:
    return f.ann if seat == 1 else f.bob


def wallet(f: Floor, who: Account) -> int:
    return ledger_balances(f.store).get(player_account(who.id), 0)


def test_a_hand_checked_down_posts_the_pot_and_the_rake_by_hand_14_15(database_url: str) -> None:
    """Both buy in $100; the blinds $1 and $2, the small blind calls, checked to the river:
    a $4 pot with the flop seen, a 10% rake ($0.40) to the house, $3.60 to the winner (a split
    pot $1.80 each).  Worked by hand, not by the code under test."""
    with floor(database_url) as f:
        step(f, BuyIn(1, amount=100_00), f.ann)
        step(f, BuyIn(2, amount=100_00), f.bob)
        assert wallet(f, f.ann) == DEPOSIT - 100_00
        deal_until_a_player_acts(f)
        while not f.round().finished:
            seat, election = f.round().pending()[0]
            assert election == "act"
            rnd = f.round()
            assert rnd.hand is not None
            move = ph.Call(seat) if rnd.can(ph.Call(seat)) else ph.Check(seat)
            step(f, move, player(f, seat))
            deal_until_a_player_acts(f)
        balances = ledger_balances(f.store)
        assert balances.get(HOUSE_ACCOUNT, 0) == 40
        rnd = f.round()
        nets = sorted(rnd.net(s) for s in (1, 2))
        assert nets in ([-200, 160], [-20, -20])
        assert sum(nets) == -40
        assert balances.get(pot_account(TID), 0) == 0
        assert balances[layout_account(TID)] == 200_00 - 40


def test_a_fold_to_the_blind_takes_no_rake_no_flop_no_drop(database_url: str) -> None:
    """The first to act pre-flop folds: no flop, so no rake; the blind wins the other's blind."""
    with floor(database_url) as f:
        step(f, BuyIn(1, amount=50_00), f.ann)
        step(f, BuyIn(2, amount=80_00), f.bob)
        deal_until_a_player_acts(f)
        seat, _ = f.round().pending()[0]
        step(f, ph.Fold(seat), player(f, seat))
        deal_until_a_player_acts(f)  # the award
        assert f.round().finished
        assert ledger_balances(f.store).get(HOUSE_ACCOUNT, 0) == 0
        assert sorted(f.round().net(s) for s in (1, 2)) == [-100, 100]


def test_cash_out_between_hands_returns_the_whole_stack_to_the_wallet(database_url: str) -> None:
    """A stack carried to the next hand is cashed out whole; a cash-out or buy-in during the hand
    is refused and changes nothing."""
    with floor(database_url) as f:
        step(f, BuyIn(1, amount=50_00), f.ann)
        step(f, BuyIn(2, amount=50_00), f.bob)
        deal_until_a_player_acts(f)
        before = ledger_balances(f.store)
        with pytest.raises(FeltError, match="only between hands"):
            f.host.apply_now(CashOut(1), f.ann)
        with pytest.raises(FeltError, match="only between hands"):
            f.host.apply_now(BuyIn(1, amount=10_00), f.ann)
        assert ledger_balances(f.store) == before
        seat, _ = f.round().pending()[0]
        step(f, ph.Fold(seat), player(f, seat))
        deal_until_a_player_acts(f)
        f.host.start_round()
        carried = f.round().seats[1].stack
        assert carried in (49_00, 51_00)
        with pytest.raises(Forbidden):
            f.host.apply_now(CashOut(1), f.bob)  # another player's chips
        step(f, CashOut(1), f.ann)
        assert wallet(f, f.ann) == DEPOSIT - 50_00 + carried


def test_no_hole_card_of_another_player_is_in_a_view_before_the_showdown(
    database_url: str,
) -> None:
    """Each seat's view and the public one hold no hole card of another seat while the hand is
    in play (14.15(k): a folded hand is dead and never shown)."""
    with floor(database_url) as f:
        step(f, BuyIn(1, amount=50_00), f.ann)
        step(f, BuyIn(2, amount=50_00), f.bob)
        deal_until_a_player_acts(f)
        rnd = f.round()
        assert rnd.hand is not None
        ann_cards = {str(c) for c in rnd.hand.hole_cards(1)}
        bob_cards = {str(c) for c in rnd.hand.hole_cards(2)}
        assert len(ann_cards) == len(bob_cards) == 2
        game = f.host.game
        ann_view = json.dumps(seat_message(game, rnd, 1))
        bob_view = json.dumps(seat_message(game, rnd, 2))
        public = json.dumps(seat_message(game, rnd, PUBLIC))
        assert all(c in ann_view for c in ann_cards)
        assert not any(c in ann_view for c in bob_cards)
        assert not any(c in bob_view for c in ann_cards)
        assert not any(c in public for c in ann_cards | bob_cards)


def test_a_crash_mid_hand_reloads_the_same_hand_which_plays_on_to_the_award(
    database_url: str,
) -> None:
    """Killed after the flop: another process loads the table from the record with the same
    hole cards, board, stacks and views; the hand then plays on and the pot is awarded once."""
    with floor(database_url) as f:
        step(f, BuyIn(1, amount=100_00), f.ann)
        step(f, BuyIn(2, amount=100_00), f.bob)
        deal_until_a_player_acts(f)
        for _ in range(2):  # the small blind calls, the big blind checks
            seat, _ = f.round().pending()[0]
            rnd = f.round()
            move = ph.Call(seat) if rnd.can(ph.Call(seat)) else ph.Check(seat)
            step(f, move, player(f, seat))
        deal_until_a_player_acts(f)
        before = f.round()
        assert before.hand is not None
        assert len(before.hand.board()) == 3
        f.host = f.fresh_host()
        after = f.round()
        assert after.hand is not None
        assert after.hand.board() == before.hand.board()
        for s in (1, 2, PUBLIC):
            assert seat_message(f.host.game, after, s) == seat_message(f.host.game, before, s)
        while not f.round().finished:
            deal_until_a_player_acts(f)
            if f.round().finished:
                break
            seat, _ = f.round().pending()[0]
            step(f, ph.Check(seat), player(f, seat))
        assert ledger_balances(f.store).get(HOUSE_ACCOUNT, 0) == 40
        table = f.host.table
        assert isinstance(table, PokerRoomTable)


def test_the_rake_report_and_the_phh_export_read_the_hands_on_record(database_url: str) -> None:
    """Two hands played at the server (one checked down, $0.40 rake; one folded pre-flop, no
    rake): the report from the record alone has 2 hands and $0.40, all in one table; the first
    hand's PHH names both players and the rake."""
    from felt.games.poker.analysis import rake_sheet
    from felt.games.poker.records import hand_phh, hand_records

    with floor(database_url) as f:
        step(f, BuyIn(1, amount=100_00), f.ann)
        step(f, BuyIn(2, amount=100_00), f.bob)
        deal_until_a_player_acts(f)
        while not f.round().finished:
            seat, _ = f.round().pending()[0]
            rnd = f.round()
            move = ph.Call(seat) if rnd.can(ph.Call(seat)) else ph.Check(seat)
            step(f, move, player(f, seat))
            deal_until_a_player_acts(f)
        first = f.host.round_id
        assert first is not None
        f.host.start_round()
        step(f, f.host.game.dealer_step(f.host.table, f.round()))  # both stacks carried: deal
        deal_until_a_player_acts(f)
        seat, _ = f.round().pending()[0]
        step(f, ph.Fold(seat), player(f, seat))
        deal_until_a_player_acts(f)
        records = hand_records(f.store)
        assert [r.rake for r in records] == [40, 0]
        report = rake_sheet(records).to_json()
        assert (report["hands"], report["rake"]) == (2, 40)
        assert [t["table"] for t in report["tables"]] == [TID]
        phh = hand_phh(f.store, first)
        assert "ann" in phh
        assert "bob" in phh
        with pytest.raises(FeltError, match="no round"):
            hand_phh(f.store, "nope")


def test_the_rake_report_and_a_hands_history_over_the_api_are_the_floors(
    database_url: str,
) -> None:
    """``GET /api/poker/rake`` is a supervisor's (a player gets 403), an empty record reports no
    hands; ``GET /api/poker/hands/{round}/phh`` of an unknown round is one clear 4xx error."""
    from fastapi.testclient import TestClient

    from felt.server.app import Server, create_app
    from tests.server_helpers import Harness

    server = Server(Store(database_url), [spec()], "node-a")
    app = create_app(server)
    try:
        with TestClient(app) as client:
            h = Harness(client, server)
            h.account("sam", "supervisor")
            h.account("ann", "player")
            r = client.get("/api/poker/rake", headers=h.headers("ann"))
            assert r.status_code == 403, r.text
            r = client.get("/api/poker/rake", headers=h.headers("sam"))
            assert r.status_code == 200, r.text
            assert (r.json()["hands"], r.json()["rake"]) == (0, 0)
            r = client.get("/api/poker/hands/nope/phh", headers=h.headers("sam"))
            assert 400 <= r.status_code < 500
            assert "no round" in r.json()["error"]
    finally:
        server.store.dispose()


def _play_out(rnd: PokerRound, at: float | None = None) -> None:
    """The dealer's steps, every player checking or folding, to the award (a time charge's
    collection at ``at``)."""
    from felt.games.poker.round import TimeCharge

    while not rnd.finished:
        step = rnd.next_dealer_action()
        if isinstance(step, TimeCharge):
            rnd.apply(TimeCharge(at=at))
            continue
        if step is not None:
            rnd.apply(step)
            continue
        seat, _ = rnd.pending()[0]
        rnd.apply(ph.Check(seat) if rnd.can(ph.Check(seat)) else ph.Fold(seat))


def _time_table() -> PokerRoomTable:
    from felt.games.poker.config import PokerConfig
    from felt.rounds.shuffle import SeededShuffle

    config = PokerConfig.from_mapping({"rake": {"kind": "time", "per_half_hour": "5.00"}})
    return PokerRoomTable(config, SeededShuffle(5))


def test_a_time_charge_table_collects_each_dealt_seats_minutes_of_the_hand() -> None:
    """A $5.00 a half hour time charge (the table's rake ``kind = "time"``): the clock starts at
    the deal; the hand over 45 minutes 30 seconds later, each dealt seat pays 45 minutes, $7.50
    (5.00 x 45 / 30, by hand), stack to house, the 30 seconds carried to its next hand; no pot is
    raked; the deal is refused before the clock starts."""
    from felt.games.poker.round import TimeCharge
    from felt.rounds.actions import NoMoreBets
    from felt.rounds.engine import HOUSE

    table = _time_table()
    rnd = table.new_round()
    rnd.apply(BuyIn(1, amount=100_00, player="ann"))
    rnd.apply(BuyIn(2, amount=100_00, player="bob"))
    assert isinstance(rnd.next_dealer_action(), TimeCharge)
    with pytest.raises(FeltError, match="clock starts first"):
        rnd.apply(NoMoreBets())
    with pytest.raises(FeltError, match="clock gives the time"):
        rnd.apply(TimeCharge())
    rnd.apply(TimeCharge(at=1_000.0))
    assert rnd.ledger.balance(HOUSE) == 0
    _play_out(rnd, at=1_000.0 + 45 * 60 + 30)
    assert rnd.ledger.balance(HOUSE) == 2 * 750  # the time; no rake from the pot
    assert rnd.charged_at == {1: 30.0, 2: 30.0}
    assert sum(s.stack for s in rnd.seats.values()) == 200_00 - 1500
    assert rnd.replay_from_start().events == rnd.events
    table.finish(rnd)
    nxt = table.new_round()  # 30 carried seconds + 29 min 30 s of the next hand: 30 minutes, $5
    nxt.apply(TimeCharge(at=90_000.0))  # hours later: waiting is not charged
    _play_out(nxt, at=90_000.0 + 29 * 60 + 30)
    assert nxt.ledger.balance(HOUSE) == 2 * 500


def test_a_newcomer_at_a_time_charge_seat_pays_only_for_their_own_hands() -> None:
    """A seat cashed out and taken by another player: the carried seconds go with the leaver,
    the newcomer's clock starts at their first deal."""
    from felt.games.poker.round import TimeCharge
    from felt.rounds.engine import HOUSE

    table = _time_table()
    rnd = table.new_round()
    rnd.apply(BuyIn(1, amount=100_00, player="ann"))
    rnd.apply(BuyIn(2, amount=100_00, player="bob"))
    rnd.apply(TimeCharge(at=0.0))
    _play_out(rnd, at=59.0)  # 59 seconds: nothing, carried
    table.finish(rnd)
    nxt = table.new_round()
    nxt.apply(CashOut(2))
    nxt.apply(BuyIn(2, amount=50_00, player="cat"))
    nxt.apply(TimeCharge(at=100.0))
    _play_out(nxt, at=100.0 + 6 * 60 + 1)  # ann 59 s + 361 s = 7 minutes; cat 6 minutes
    assert nxt.ledger.balance(HOUSE) == 5_00 * 7 // 30 + 5_00 * 6 // 30


def test_the_floor_removes_a_player_between_hands_with_a_reason_14_16_b(database_url: str) -> None:
    """A supervisor's removal between hands: the whole stack back to the wallet, the reason
    recorded; a dealer may not, nor without a reason, nor during a hand."""
    from felt.games.poker.round import Remove
    from felt.server.auth import create_account

    with floor(database_url) as f:
        sup = create_account(f.store, "sue", "supervisor", "sue-password-x")
        step(f, BuyIn(1, amount=50_00), f.ann)
        with pytest.raises(Forbidden):
            f.host.apply_now(Remove(1, reason="collusion"), f.deal)
        with pytest.raises(FeltError, match="why"):
            f.host.apply_now(Remove(1, reason=" "), sup)
        step(f, Remove(1, reason="collusion with seat 2 (chip dumping)"), sup)
        assert wallet(f, f.ann) == DEPOSIT
        assert 1 not in f.round().seats


def test_the_server_supplies_the_time_charges_clock_and_refuses_one_sent(
    database_url: str,
) -> None:
    """At the server the collection's time is the server's clock (complete_action); a time a
    dealer sends is refused and nothing changes."""
    import time

    from felt.games.poker.round import TimeCharge

    with floor(database_url) as f:
        game = f.host.game
        with pytest.raises(FeltError, match="clock gives the time"):
            game.complete_action(f.host.table, TimeCharge(at=5.0))
        done = game.complete_action(f.host.table, TimeCharge())
        assert isinstance(done, TimeCharge)
        assert done.at is not None
        assert abs(done.at - time.time()) < 60


def test_every_poker_action_reads_back_from_the_json_the_server_stores() -> None:
    """The record's form of each action (``to_json``, what the server stores and replays after a
    crash) reads back as the same action, the statement of 14.15(k) with its stated action and
    the time charge with its clock among them."""
    from felt.games.poker.round import Redeal, Remove, TimeCharge
    from felt.games.registry import table_game

    game = table_game("poker")
    actions: list[Any] = [
        BuyIn(3, amount=120_50, player="ann"), CashOut(3), Redeal("f2"), TimeCharge(at=1_700_000_123.25),
        ph.Fold(1), ph.Check(2), ph.Call(3), ph.Bet(4, 200), ph.RaiseTo(5, 1_000), ph.AllIn(6),
        ph.BringIn(1), ph.Discard(2), ph.Burn(), ph.DealHole(), ph.DealBoard(), ph.Award(),
        ph.DeadRound(), ph.TopCardDiscarded("n", 4), ph.DealtToIneligible(7, 2),
        ph.LeaveWithoutComment(2), ph.HandKilled("j", 3, fouled=True), ph.HandReconstructed(3),
        ph.StudHoleExposed(2, 1), ph.ShufflerRemoved(),
        ph.Statement(4, ph.RaiseTo(4, 800), then_discards=True), ph.Statement(2, ph.Call(2)),
        Remove(5, reason="collusion"), Redeal("o", by_hand=True),
    ]  # fmt: skip
    assert {type(a) for a in actions} == set(game.action_types)
    for action in actions:
        stored = json.loads(json.dumps(action.to_json()))
        assert game.parse_action(stored, "record") == action, stored
    with pytest.raises(FeltError, match="stated must be one of"):
        game.parse_action({"irregularity": "statement", "seat": 1, "stated": "sing"}, "form")
    with pytest.raises(FeltError, match="true or false"):
        game.parse_action({"irregularity": "hand_killed", "clause": "j", "seat": 1,
                           "fouled": "yes"}, "form")  # fmt: skip


def test_a_misdeal_at_the_server_returns_every_chip_and_deals_again_with_the_button_kept_14_15_f(
    database_url: str,
) -> None:
    """14.15(f)1 recorded after the deal: every chip back to its stack (the blinds too), the pot
    account empty, the round over; the next round deals again with the button where it was."""
    from felt.games.poker.round import Redeal

    with floor(database_url) as f:
        step(f, BuyIn(1, amount=60_00), f.ann)
        step(f, BuyIn(2, amount=70_00), f.bob)
        deal_until_a_player_acts(f)
        button = f.round().button
        with pytest.raises(FeltError, match="clause"):
            f.host.apply_now(Redeal("x9"), f.deal)
        step(f, Redeal("f1"), f.deal)
        assert f.round().finished
        assert f.round().ended_by == "misdeal"
        assert [f.round().net(s) for s in (1, 2)] == [0, 0]
        f.host.start_round()
        assert {n: s.stack for n, s in f.round().seats.items()} == {1: 60_00, 2: 70_00}
        step(f, f.host.game.dealer_step(f.host.table, f.round()))
        assert f.round().button == button


def test_an_uncalled_bet_leaves_the_pot_account_equal_to_the_pot() -> None:
    """No limit, $100 against $30: the $100 all-in is called for $30; the $70 uncalled goes back
    to its bettor at once, so the pot account is the $60 in the pot; the loser's line says what it
    put in."""
    from felt.games.poker.config import PokerConfig
    from felt.rounds.engine import POT
    from felt.rounds.shuffle import SeededShuffle

    table = PokerRoomTable(PokerConfig.from_mapping({"limit": "no"}), SeededShuffle(9))
    rnd = table.new_round()
    rnd.apply(BuyIn(1, amount=100_00, player="ann"))
    rnd.apply(BuyIn(2, amount=40_00, player="bob"))
    while not rnd.pending():
        step = rnd.next_dealer_action()
        assert step is not None
        rnd.apply(step)
    rnd.apply(ph.AllIn(rnd.pending()[0][0]))
    rnd.apply(ph.AllIn(rnd.pending()[0][0]))  # the other calls all in
    assert rnd.hand is not None
    assert rnd.ledger.balance(POT) == rnd.hand.pot() == 80_00
    _play_out(rnd)
    assert rnd.ledger.balance(POT) == 0
    assert sorted(line.stake for line in rnd.lines) == [40_00, 40_00]


def test_a_dead_hand_is_never_shown_and_an_uncontested_winner_shows_nothing() -> None:
    """Three seats all in or calling pre-flop; seat 1's hand called dead (14.15(j)), seat 2 folds
    on the flop: no view ever shows seat 1's cards (dead, it is no hand in the showdown) nor seat
    3's (it won uncontested)."""
    from felt.games.poker.config import PokerConfig
    from felt.games.poker.view import seat_json
    from felt.rounds.shuffle import SeededShuffle

    table = PokerRoomTable(PokerConfig.from_mapping({"limit": "no"}), SeededShuffle(4))
    rnd = table.new_round()
    for n, who in ((1, "ann"), (2, "bob"), (3, "cat")):
        rnd.apply(BuyIn(n, amount=(40_00 if n == 1 else 100_00), player=who))

    def deal() -> None:
        while not rnd.finished and not rnd.pending():
            step = rnd.next_dealer_action()
            assert step is not None
            rnd.apply(step)

    deal()
    while rnd.hand is not None and rnd.hand.board() == () and rnd.pending():
        seat = rnd.pending()[0][0]
        rnd.apply(
            ph.AllIn(seat)
            if seat == 1
            else ph.Call(seat)
            if rnd.can(ph.Call(seat))
            else ph.Check(seat)
        )
        deal()
    rnd.apply(ph.HandKilled("j", 1))
    assert rnd.hand is not None
    one, three = (set(map(str, rnd.hand.hole_cards(s))) for s in (1, 3))
    while not rnd.finished:
        if rnd.pending():
            seat = rnd.pending()[0][0]
            rnd.apply(
                ph.Fold(seat)
                if seat == 2
                else ph.Check(seat)
                if rnd.can(ph.Check(seat))
                else ph.Fold(seat)
            )
        deal()
    for viewer in (0, 2):
        text = json.dumps(seat_json(rnd, viewer))
        assert not any(c in text for c in one), viewer
        assert not any(c in text for c in three), viewer


def test_after_a_misdeal_no_one_is_offered_a_choice_and_a_stored_record_replays(
    database_url: str,
) -> None:
    """A misdealt round's views offer no choices and name no one to act; its stored record, and
    the record of the hand dealt again with the button kept, replay to the same stacks; both
    players' recall lists the hands they played on chips carried from hand to hand."""
    from sqlalchemy import select

    from felt.cli.script import run_script
    from felt.games.poker.round import Redeal
    from felt.server.store import round_players, rounds

    with floor(database_url) as f:
        step(f, BuyIn(1, amount=60_00), f.ann)
        step(f, BuyIn(2, amount=70_00), f.bob)
        deal_until_a_player_acts(f)
        step(f, Redeal("f1"), f.deal)
        for s in (0, 1, 2):
            view = seat_message(f.host.game, f.round(), s)
            assert (view["choices"], view["to_act"]) == ([], None)
        f.host.start_round()
        deal_until_a_player_acts(f)
        while not f.round().finished:
            seat, _ = f.round().pending()[0]
            step(f, ph.Fold(seat), player(f, seat))
            deal_until_a_player_acts(f)
        stacks = {n: s.stack for n, s in f.round().seats.items()}
        with f.store.engine.connect() as conn:
            records = [
                json.loads(r)
                for r in conn.execute(
                    select(rounds.c.record)
                    .where(rounds.c.finished.is_(True))
                    .order_by(rounds.c.number)
                ).scalars()
            ]
        assert len(records) == 2
        replayed = run_script(records[1]["script"])
        assert isinstance(replayed, PokerRound)
        assert {n: s.stack for n, s in replayed.seats.items()} == stacks
        with f.store.engine.connect() as conn:
            for who in (f.ann, f.bob):  # the recall's record: the misdealt hand and the next
                played = conn.execute(
                    select(round_players.c.round_id).where(round_players.c.account_id == who.id)
                ).all()
                assert len(played) == 2, who.name


def test_the_rake_report_of_a_table_not_the_poker_rooms_is_one_clear_error(
    database_url: str,
) -> None:
    """A table that is not a poker table, or an unknown one: one FeltError naming the poker
    tables (the route answers 4xx), never a server error."""
    from felt.games.poker.records import hand_records

    with floor(database_url) as f, pytest.raises(FeltError, match="no poker table 'craps-1'"):
        hand_records(f.store, "craps-1")


def test_an_all_in_seat_sees_its_own_stack_as_zero() -> None:
    """The viewer's own stack while all in is $0.00, as everyone else sees it."""
    from felt.games.poker.config import PokerConfig
    from felt.games.poker.view import seat_json
    from felt.rounds.shuffle import SeededShuffle

    table = PokerRoomTable(PokerConfig.from_mapping({"limit": "no"}), SeededShuffle(2))
    rnd = table.new_round()
    rnd.apply(BuyIn(1, amount=100_00, player="ann"))
    rnd.apply(BuyIn(2, amount=100_00, player="bob"))
    while not rnd.pending():
        step = rnd.next_dealer_action()
        assert step is not None
        rnd.apply(step)
    seat = rnd.pending()[0][0]
    rnd.apply(ph.AllIn(seat))
    other = next(o for o in seat_json(rnd, 3 - seat)["others"] if o["seat"] == seat)
    assert seat_json(rnd, seat)["stack"] == other["stack"] == "0.00"


def test_a_closed_poker_table_deals_no_new_hand_and_its_seats_cash_out(database_url: str) -> None:
    """Closed between hands: the table's clock takes no step, the dealer's deal is refused, a
    cash-out is taken; opened again, the hand is dealt."""
    import time

    from felt.rounds.actions import NoMoreBets

    with floor(database_url) as f:
        step(f, BuyIn(1, amount=50_00), f.ann)
        step(f, BuyIn(2, amount=50_00), f.bob)
        f.host.set_open(False)
        assert f.host.due(time.monotonic() + 3600) == (None, None)
        with pytest.raises(FeltError, match="closed"):
            f.host.apply_now(NoMoreBets(), f.deal)
        step(f, CashOut(2), f.bob)
        assert wallet(f, f.bob) == DEPOSIT
        f.host.set_open(True)
        step(f, BuyIn(2, amount=50_00), f.bob)
        step(f, NoMoreBets(), f.deal)
        assert f.round().hand is not None
