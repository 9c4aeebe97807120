"""Craps (N.J.A.C. 19:47-1) at the table server, through the game interface only: one roll is one
round of the shared machinery, and the wagers left on the layout are carried by the table from
roll to roll (decisions.md, "The model").

Checked here, on SQLite and on PostgreSQL: the durable ledger (a point cycle's postings against
hand-computed amounts, and after EVERY commit the table's layout account equal to the chips on
the layout); the ``complete_action`` hook (an electronic table's dice filled by the server as it
applies the roll, dice sent by a person refused there; a live table's dice entered by the
stickperson, a roll without them refused); the betting window that does not close early because
every seat "has a hand"; two players placing and taking down wagers at once between rolls; a
crash mid-roll (the record gives the same layout, the roll then happens once; a commit whose
answer never reached the dealer is answered again, not rolled again); and the stored events of
every roll replaying to the next roll's origin exactly.
"""

from __future__ import annotations

import itertools
import json
import random
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import select

from felt.core.errors import FeltError
from felt.games.craps.actions import Bet, CallOff, CallOn, Roll, TakeDown
from felt.games.craps.dice import FixedDice
from felt.games.craps.round import origin_json
from felt.games.craps.table import CrapsTable
from felt.games.registry import table_game
from felt.rounds.actions import NoMoreBets
from felt.server.auth import Account
from felt.server.host import TableHost, event_record, hands
from felt.server.spec import TableSpec
from felt.server.store import (
    HOUSE_ACCOUNT,
    Posting,
    Store,
    layout_account,
    player_account,
    postings,
    round_events,
    rounds,
)
from felt.server.views import PUBLIC, seat_message
from tests.server_helpers import Harness, harness, ledger_balances, one_table

TID = "dice1"
DEPOSIT = 100_00


def spec(dice: str = "entered", betting: float = 0.5, dealer: str = "automatic") -> TableSpec:
    """A craps table; its steps wait for nothing but the betting clock."""
    return TableSpec(TID, "craps", settings={"dice": dice, "decision_seconds": 30}, pace_seconds=0,
                     betting_seconds=betting, between_rounds_seconds=0.05, dealer=dealer)  # fmt: skip


@dataclass
class Floor:
    """A store with one craps table, two funded players seated at 1 and 2, a dealer."""

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


def layout_of(host: TableHost) -> dict[int, dict[str, int]]:
    """The chips on the layout of the host's craps table, by seat and spot (cents)."""
    table = host.table
    assert isinstance(table, CrapsTable)
    return table.layout()


@contextmanager
def floor(url: str, dice: str = "entered") -> Iterator[Floor]:
    with one_table(url, spec(dice), DEPOSIT) as (store, host, people):
        yield Floor(store, host, *people)


def on_layout(host: TableHost) -> int:
    """Cents on the layout now, from the round in view (every seat's wagers)."""
    assert host.round is not None
    return sum(sum(s.wagers.values()) for s in hands(host.round).values())


def check_layout_account(f: Floor) -> None:
    """The invariant of decisions.md: the layout account holds exactly the wagers on the layout,
    and the ledger sums to zero."""
    books = ledger_balances(f.store)
    assert books.get(layout_account(TID), 0) == on_layout(f.host), books
    assert sum(books.values()) == 0


def step(
    f: Floor, action: Any, who: Account | None = None, key: str | None = None
) -> dict[str, Any]:
    """One action through the host (``who`` None: the table's own step), the layout account
    checked after the commit; a finished roll opens the next."""
    ack = f.host.apply_now(action, who, key, "d" if key else "")
    check_layout_account(f)
    if f.host.round is not None and f.host.round.finished:
        f.host.start_round()
    return ack


def roll(f: Floor, d1: int, d2: int) -> None:
    """No more bets, then the stickperson enters the dice."""
    step(f, NoMoreBets(), f.deal)
    step(f, Roll(d1, d2), f.deal)


def wallet(f: Floor, who: Account) -> int:
    return ledger_balances(f.store).get(player_account(who.id), 0)


def test_a_point_cycle_posts_each_win_and_the_layout_account_follows_the_chips_1_2_a_1_2_5_and_1_6(
    database_url: str,
) -> None:
    """Pass $10 and don't pass $10 on the come out; 4 is the point (1.1 "Come out point");
    odds $20 behind the pass line (1.6, 3-4-5x: at most $30 on a 4) and place 6 $12; a 6 pays the
    place bet 7 to 6 ($14, the wager stays up: 1.2(a)5); a 4 makes the point: pass $10 at 1 to 1,
    odds $20 at 2 to 1 ($40, true odds on a 4), don't pass lost (1.2(a)1, 2).  Amounts by hand."""
    with floor(database_url) as f:
        step(f, Bet(1, "pass", 10_00), f.ann)
        step(f, Bet(2, "dont_pass", 10_00), f.bob)
        roll(f, 1, 3)
        assert f.host.table.point == 4  # type: ignore[attr-defined]
        step(f, Bet(1, "pass_odds", 20_00), f.ann)
        step(f, Bet(1, "place_6", 12_00), f.ann)
        step(f, NoMoreBets(), f.deal)
        rid = f.host.round_id
        ack = step(f, Roll(3, 3), f.deal)
        with f.store.engine.connect() as conn:
            rows = conn.execute(
                select(postings.c.account, postings.c.amount).where(
                    postings.c.txn == f"{rid}#{ack['seq']}"
                )
            ).all()
        assert sorted((a, m) for a, m in rows) == sorted(
            [(HOUSE_ACCOUNT, -14_00), (player_account(f.ann.id), 14_00)]
        )  # the place 6 win alone: its $12 stays on the layout
        assert on_layout(f.host) == 10_00 + 10_00 + 20_00 + 12_00
        roll(f, 2, 2)  # the point, made the hard way
        assert f.host.table.point is None  # type: ignore[attr-defined]
        assert wallet(f, f.ann) == DEPOSIT - 10_00 - 20_00 - 12_00 + 14_00 + 20_00 + 60_00
        assert wallet(f, f.bob) == DEPOSIT - 10_00
        assert f.host.table.layout() == {1: {"place_6": 12_00}}  # type: ignore[attr-defined]
        books = ledger_balances(f.store)
        assert books[layout_account(TID)] == 12_00
        assert books[HOUSE_ACCOUNT] == 10_00 - 10_00 - 40_00 - 14_00


def test_an_electronic_tables_dice_are_filled_by_the_server_and_never_sent_by_a_person_1_8(
    database_url: str,
) -> None:
    """1.8 (title only) as decisions.md "The dice": the table's own step is Roll() with no dice;
    the server completes it from the table's dice source as it applies it (recorded completed,
    so replay never throws again); the dealer may send Roll() but never dice of their own."""
    with floor(database_url, dice="table") as f:
        f.host.table.dice = FixedDice([(5, 6)])  # type: ignore[attr-defined]
        step(f, Bet(1, "pass", 10_00), f.ann)
        step(f, NoMoreBets(), f.deal)
        assert f.host.game.dealer_step(f.host.table, f.host.round) == Roll()  # type: ignore[arg-type]
        events = len(f.host.round.events)  # type: ignore[union-attr]
        with pytest.raises(FeltError, match="random number generator"):
            f.host.apply_now(Roll(6, 6), f.deal)
        assert len(f.host.round.events) == events  # type: ignore[union-attr]  # nothing done
        rid = f.host.round_id
        step(f, Roll(), None)  # the table's own step (an automatic dealer)
        with f.store.engine.connect() as conn:
            acts = [json.loads(a) for a in conn.execute(
                select(round_events.c.action).where(round_events.c.round_id == rid)).scalars()]  # fmt: skip
        assert acts[-1] == {"dealer": "roll", "die1": 5, "die2": 6}
        assert wallet(f, f.ann) == DEPOSIT + 10_00  # 11 on the come out: pass wins (1.2(a)1)


def test_a_retried_roll_spends_no_throw_1_8(database_url: str) -> None:
    """decisions.md "The dice": no throw is spent on a roll not applied.  A dealer's roll sent
    again under its key (a retry) gets its first answer, and the table throws nothing for it:
    the next roll gets the next throw (the key is checked before the table completes the
    roll, not in the write after it)."""
    with floor(database_url, dice="table") as f:
        dice = FixedDice([(5, 6), (3, 3)])
        f.host.table.dice = dice  # type: ignore[attr-defined]
        step(f, Bet(1, "pass", 10_00), f.ann)
        step(f, NoMoreBets(), f.deal)
        first = step(f, Roll(), f.deal, key="roll-1")
        step(f, Bet(1, "pass", 10_00), f.ann)
        step(f, NoMoreBets(), f.deal)  # the next round, closed: a roll now would throw
        again = f.host.apply_now(Roll(), f.deal, "roll-1", "d")
        assert {k: v for k, v in again.items() if k != "replayed"} == first
        assert dice.used == 1
        step(f, Roll(), f.deal, key="roll-2")
        assert dice.used == 2
        assert f.host.table.point == 6  # type: ignore[attr-defined]  # the second throw, 3 + 3


def test_a_live_tables_dice_are_entered_by_the_stickperson_1_8(database_url: str) -> None:
    with floor(database_url, dice="entered") as f:
        step(f, Bet(1, "pass", 10_00), f.ann)
        step(f, NoMoreBets(), f.deal)
        assert f.host.game.dealer_step(f.host.table, f.host.round) is None  # type: ignore[arg-type]
        with pytest.raises(FeltError, match="stickperson enters both dice"):
            f.host.apply_now(Roll(), f.deal)
        with pytest.raises(FeltError):
            f.host.apply_now(Roll(7, 1), f.deal)  # a die is 1 to 6
        step(f, Roll(1, 1), f.deal)
        assert wallet(f, f.ann) == DEPOSIT - 10_00  # 2 on the come out: pass loses (1.2(a)1)


def test_the_default_hooks_leave_other_games_as_they_were() -> None:
    """complete_action is the identity and betting closes early once every seat has a hand,
    for a card game; craps keeps its betting window (decisions.md "Interface additions")."""
    boston = table_game("boston5")
    action = NoMoreBets()
    assert boston.complete_action(boston.new_table(boston.config("boston5", {})), action) is action
    craps = table_game("craps")
    table = craps.new_table(craps.config("craps", {}))
    rnd = table.new_round()
    rnd.apply(Bet(1, "pass", 10_00, "ann"))
    assert not craps.betting_closes_early(rnd, {1})


def test_the_betting_window_runs_its_full_time_though_every_seat_has_wagers(
    database_url: str,
) -> None:
    """Carried wagers make every seat "have a hand": the host must not close the roll's wagers at
    once (today's rule for card games), but after ``betting_seconds``."""
    with floor(database_url) as f:
        step(f, Bet(1, "pass", 10_00), f.ann)
        step(f, Bet(2, "dont_pass", 10_00), f.bob)
        t0 = 1000.0
        f.host.betting_closes = None
        assert f.host.due(t0) == (None, t0 + f.host.spec.betting_seconds)
        assert f.host.due(t0 + f.host.spec.betting_seconds / 2)[0] is None
        assert f.host.due(t0 + f.host.spec.betting_seconds + 0.01)[0] == NoMoreBets()


def _place_and_take_down(h: Harness, errors: list[str], name: str, seat: int, number: int) -> None:
    """Six times place $12 on ``number`` and take it down, then leave $18 there."""
    bet = {"seat": seat, "action": "bet", "spot": f"place_{number}", "amount": "12.00"}
    down = {"seat": seat, "action": "take_down", "spot": f"place_{number}"}
    for action in [bet, down] * 6 + [{**bet, "amount": "18.00"}]:
        r = h.act(name, TID, action)
        if r.status_code != 200:
            errors.append(r.text)


def test_two_players_place_and_take_down_at_once_between_rolls_1_3(database_url: str) -> None:
    """1.3 (title only): place bets are made, increased, reduced and taken down at any time
    between rolls; two players doing so at once over the API lose no cent and no wager."""
    s = spec(betting=30.0)
    for h in harness(database_url, [s]):
        h.account("ann", "player", "500.00")
        h.account("bob", "player", "500.00")
        h.account("deal", "dealer")
        h.post("ann", f"/api/tables/{TID}/sit", {"seat": 1})
        h.post("bob", f"/api/tables/{TID}/sit", {"seat": 2})
        h.wait_for("ann", TID, lambda v: (v.get("public") or {}).get("phase") == "betting")
        errors: list[str] = []
        threads = [threading.Thread(target=_place_and_take_down, args=(h, errors, *a))
                   for a in (("ann", 1, 6), ("bob", 2, 8))]  # fmt: skip
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        view = h.get("deal", f"/api/tables/{TID}").json()
        assert view["public"]["layout"]["1"]["place_6"]["amount"] == "18.00"
        assert view["public"]["layout"]["2"]["place_8"]["amount"] == "18.00"
        assert h.get("ann", "/api/me").json()["balance"] == "482.00"
        assert h.get("bob", "/api/me").json()["balance"] == "482.00"
        books = ledger_balances(h.server.store)
        assert books[layout_account(TID)] == 36_00
        assert sum(books.values()) == 0


def _roll_events(store: Store) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        return [json.loads(a) for a in conn.execute(select(round_events.c.action)).scalars()
                if json.loads(a).get("dealer") == "roll"]  # fmt: skip


def test_a_crash_mid_roll_reloads_the_same_layout_and_the_roll_happens_once(
    database_url: str,
) -> None:
    """Killed after "no more bets", before the roll: the record gives the same layout, point,
    shooter and public view; the roll is then made once.  Killed between the roll's commit and
    its acknowledgement: the dealer's retry under the same key gets the answer on record, and no
    second roll is made."""
    with floor(database_url) as f:
        step(f, Bet(1, "pass", 10_00), f.ann)
        roll(f, 3, 3)  # point 6
        step(f, Bet(1, "pass_odds", 25_00), f.ann)
        step(f, Bet(2, "place_8", 12_00), f.bob)
        step(f, CallOn(2, "place_8"), f.bob)
        step(f, Bet(2, "hard_8", 1_00), f.bob)
        step(f, NoMoreBets(), f.deal)
        before = f.host
        after = f.fresh_host()  # the process died here; another loads the table
        assert after.round_id == before.round_id
        assert after.round is not None
        assert before.round is not None
        assert {n: (s.player, s.wagers, s.calls) for n, s in hands(after.round).items()} == {
            n: (s.player, s.wagers, s.calls) for n, s in hands(before.round).items()
        }
        assert seat_message(after.game, after.round, PUBLIC) == seat_message(
            before.game, before.round, PUBLIC
        )
        f.host = after
        key = secrets.token_hex(8)
        ack = f.host.apply_now(Roll(4, 4), f.deal, key, "roll-digest")  # hard 8: place and hard win
        assert len(_roll_events(f.store)) == 2
        again = f.fresh_host()  # killed after the commit, before the dealer heard the answer
        assert again.round_id is None  # the roll is on record: its round closed
        assert again.apply_now(Roll(4, 4), f.deal, key, "roll-digest") == {**ack, "replayed": True}
        assert len(_roll_events(f.store)) == 2
        f.host = again
        f.host.start_round()
        check_layout_account(f)
        assert wallet(f, f.bob) == DEPOSIT - 12_00 - 1_00 + 14_00 + 9_00


def test_replaying_every_rolls_events_rebuilds_the_next_rolls_layout_exactly(
    database_url: str,
) -> None:
    """Each stored roll's origin plus its events, replayed by the game alone, gives its stored
    chip movements and the next roll's stored origin: the layout with owners and calls, the
    point, the shooter and the roll history (issue 23 item 3)."""
    with floor(database_url) as f:
        script: list[tuple[list[Bet | CallOn | CallOff | TakeDown], tuple[int, int]]] = [
            ([Bet(1, "pass", 10_00), Bet(2, "dont_pass", 10_00), Bet(2, "field", 5_00)], (2, 3)),
            ([Bet(1, "pass_odds", 20_00), Bet(2, "come", 5_00), Bet(1, "place_6", 12_00)], (4, 4)),
            ([Bet(2, "come_8_odds", 5_00), CallOn(1, "place_6"), TakeDown(1, "place_6")], (3, 3)),
            ([Bet(1, "hard_10", 1_00), Bet(2, "any_seven", 1_00)], (5, 2)),
            ([Bet(1, "pass", 10_00), Bet(2, "dont_pass", 10_00)], (6, 4)),
            ([Bet(2, "dont_come", 5_00), Bet(1, "place_lose_4", 11_00)], (6, 5)),
        ]
        for actions, dice in script:
            for a in actions:
                step(f, a, f.ann if a.seat == 1 else f.bob)
            roll(f, *dice)
        game, config = f.host.game, f.host.table.config
        with f.store.engine.connect() as conn:
            stored = conn.execute(
                select(rounds.c.id, rounds.c.origin).order_by(rounds.c.number)
            ).all()
            events = {rid: conn.execute(select(round_events).where(round_events.c.round_id == rid)
                                        .order_by(round_events.c.seq)).mappings().all()
                      for rid, _ in stored}  # fmt: skip
        assert len(stored) == len(script) + 1
        for (rid, origin), (_, next_origin) in itertools.pairwise(stored):
            rnd: Any = game.new_round(config, (), json.loads(origin))
            for e in events[rid]:
                event = rnd.apply(game.parse_action(json.loads(e["action"]), rid))
                assert event_record(event) == json.loads(e["effects"])
            assert rnd.finished
            rebuilt = origin_json(rnd.number + 1, rnd.point, rnd.shooter, rnd.rolls, rnd.seats)
            assert rebuilt == json.loads(next_origin), rid
        snapshot = json.loads(f.host.state_json())["table"]
        assert {k: v for k, v in snapshot.items() if k not in ("rounds_played", "number")} == {
            k: v for k, v in json.loads(stored[-1][1]).items() if k != "number"
        }


def test_a_restart_between_rolls_knows_the_owners_of_carried_wagers(database_url: str) -> None:
    """Between rolls the record holds no round in play, only the table's layout: a new process
    must still pay a carried wager's win into its owner's wallet (the host learns the players of
    the wagers a new round begins with).  Place 6 pays 7 to 6 (1.2(a)5): $14 on $12."""
    with floor(database_url) as f:
        step(f, Bet(1, "pass", 10_00), f.ann)
        roll(f, 5, 5)  # point 10
        step(f, Bet(1, "place_6", 12_00), f.ann)
        f.host.apply_now(NoMoreBets(), f.deal)
        f.host.apply_now(Roll(1, 2), f.deal)  # no decision for pass or place 6; no round opened
        f.host = f.fresh_host()
        assert f.host.round is None
        assert f.host.names == {}
        f.host.start_round()
        roll(f, 3, 3)
        assert wallet(f, f.ann) == DEPOSIT - 10_00 - 12_00 + 14_00


def test_a_player_who_took_every_wager_down_may_stand_up_1_3(database_url: str) -> None:
    """Bob's place 6 taken down between rolls (1.3, title only): nothing of his is on the
    layout, so he may leave his seat, his $12 back in his wallet; ann's pass on the point is a
    contract wager, so she may not."""
    with floor(database_url) as f:
        step(f, Bet(1, "pass", 10_00), f.ann)
        roll(f, 2, 2)  # the point 4
        step(f, Bet(2, "place_6", 12_00), f.bob)
        step(f, TakeDown(2, "place_6"), f.bob)
        f.host.stand(f.bob, 2)
        assert 2 not in f.host.seats
        assert wallet(f, f.bob) == DEPOSIT
        with pytest.raises(FeltError, match="your wagers are on the layout"):
            f.host.stand(f.ann, 1)


def test_random_wagers_take_downs_and_rolls_keep_the_layout_account_exact(
    database_url: str,
) -> None:
    """Seeded random play through the host, two players and the stickperson: after every
    commit the layout account equals the chips on the layout and the ledger sums to zero; every
    refused action (a wager not offered now, an amount not payable in full, 1.4) leaves the
    record, the round and the wallets as they were."""
    rng = random.Random(23)
    with floor(database_url) as f:
        players = {1: f.ann, 2: f.bob}
        with f.store.transaction() as conn:  # enough for every wager the dice leave standing
            for who in players.values():
                store_deposit = [Posting("cage", -10_000_00, "deposit"),
                                 Posting(player_account(who.id), 10_000_00, "deposit")]  # fmt: skip
                f.store.post(conn, f"more:{who.id}", store_deposit)
        refused = rolled = 0
        for _ in range(2000):
            if rolled == 25:
                break
            rnd: Any = f.host.round
            seat = rng.choice((1, 2))
            allowed = rnd.allowed(seat)
            pick = rng.random()
            if pick < 0.15 and rnd.next_dealer_action() is not None:
                roll(f, rng.randint(1, 6), rng.randint(1, 6))
                rolled += 1
                continue
            calls = [(CallOn, x) for x in allowed["call_on"]] + [
                (CallOff, x) for x in allowed["call_off"]
            ]
            if pick < 0.3 and allowed["take_down"]:
                action: Any = TakeDown(seat, rng.choice(allowed["take_down"]))
            elif pick < 0.4 and calls:
                kind, spot = rng.choice(calls)
                action = kind(seat, spot)
            else:
                spot = rng.choice(allowed["bet"] or ["pass"])
                action = Bet(seat, spot, rng.choice((1_00, 5_00, 6_00, 10_00, 12_00, 25_00)))
            before = (
                f.host.version,
                ledger_balances(f.store),
                layout_of(f.host),
                on_layout(f.host),
            )
            try:
                step(f, action, players[seat])
            except FeltError:
                refused += 1
                after = (
                    f.host.version,
                    ledger_balances(f.store),
                    layout_of(f.host),
                    on_layout(f.host),
                )
                assert after == before
        assert refused > 0
        assert rolled == 25
        assert len(_roll_events(f.store)) == 25
