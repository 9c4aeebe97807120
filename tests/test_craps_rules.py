"""Craps (N.J.A.C. 19:47-1): every money rule held to a hand-figured case, one test per clause and
case, written from the seed text (1.1, 1.2(a)1-19) and the public descriptions of 1.3-1.11
(docs/interpretations.md, "Craps"), independently of the engine's code.

Each case plays rolls on a :class:`~felt.games.craps.table.CrapsTable` with the dice given and
checks, in cents figured by hand in the test: the statement line of the wager (outcome and the
player's result), the chips that reached the player's wallet on that roll, and what is left on the
layout.  Seat 7 is the shooter in most cases, with a $5 pass wager at every come out roll, so the
wager under test is seat 1's alone.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from felt.core.errors import FeltError
from felt.core.money import cents
from felt.games.craps.actions import Bet, CallOff, CallOn, InvalidRoll, PassDice, Roll, TakeDown
from felt.games.craps.config import CrapsConfig, load_craps_table
from felt.games.craps.round import CrapsRound
from felt.games.craps.spots import spot
from felt.games.craps.table import CrapsTable
from felt.games.registry import table_game
from felt.rounds.actions import Action, NoMoreBets
from felt.rounds.engine import HOUSE, SettlementLine, seat_party

GAME = table_game("craps")
SHOOTER = 7
"""The seat that shoots in most cases, betting the pass line at every come out roll."""

Dice = tuple[int, int]

# Throws of each total used below (any pair giving the total; the hardway pairs named apart).
EASY = {4: (1, 3), 6: (2, 4), 8: (2, 6), 10: (4, 6)}
HARD = {4: (2, 2), 6: (3, 3), 8: (4, 4), 10: (5, 5)}
THROW = {2: (1, 1), 3: (1, 2), 4: (1, 3), 5: (2, 3), 6: (2, 4), 7: (3, 4), 8: (2, 6), 9: (4, 5),
         10: (4, 6), 11: (5, 6), 12: (6, 6)}  # fmt: skip


def new_table(**settings: object) -> CrapsTable:
    """A table at the minimum pays ($5 minimum, $1 propositions, 3-4-5x odds) unless given."""
    return CrapsTable(CrapsConfig.from_mapping(settings))


def go(table: CrapsTable, dice: Dice, *bets: Action, shooter: bool = True) -> CrapsRound:
    """One roll: the actions given, then the dice; the shooter seat bets $5 on the pass line
    first when a come out roll finds it without one (``shooter=False``: no such wager)."""
    pre: list[Action] = []
    if shooter and table.point is None and "pass" not in table.layout().get(SHOOTER, {}):
        pre.append(Bet(SHOOTER, "pass", 500, "sam"))
    return table.roll([*pre, *bets], dice)


def lines_for(rnd: CrapsRound, seat: int, spot_id: str) -> list[SettlementLine]:
    """The statement lines of ``seat``'s wager on ``spot_id`` in this roll (the line names the
    wager by its label; its id is accepted too)."""
    names = {spot_id, spot(spot_id).label}
    return [x for x in rnd.lines if x.seat == seat and x.wager in names]


def decided(rnd: CrapsRound, seat: int, spot_id: str) -> tuple[str, int] | None:
    """(outcome, the player's result in cents) of the wager, or None when the roll left it
    undecided."""
    got = lines_for(rnd, seat, spot_id)
    assert len(got) <= 1, got
    return (got[0].outcome, got[0].amount) if got else None


def wallet(rnd: CrapsRound, seat: int) -> int:
    """Cents that reached ``seat``'s player on this roll (wagers made count negative)."""
    return rnd.ledger.balance(seat_party(seat))


def layout(table: CrapsTable, seat: int = 1) -> dict[str, int]:
    return dict(table.layout().get(seat, {}))


def refused(rnd: CrapsRound, action: Action, match: str | None = None) -> None:
    """``action`` is refused with a FeltError and changes nothing."""
    events, transfers = list(rnd.events), list(rnd.ledger.transfers)
    seats = {n: (dict(s.wagers), dict(s.calls)) for n, s in rnd.seats.items()}
    with pytest.raises(FeltError, match=match):
        rnd.apply(action)
    assert rnd.events == events
    assert rnd.ledger.transfers == transfers
    assert {n: (dict(s.wagers), dict(s.calls)) for n, s in rnd.seats.items()} == seats


def peek(table: CrapsTable) -> CrapsRound:
    """The next roll as it would open, on a copy of the table (the table is left as it was)."""
    return copy.deepcopy(table).new_round()


def set_point(table: CrapsTable, point: int, *bets: Action) -> CrapsRound:
    """A come out roll throwing ``point`` (with the bets given)."""
    rnd = go(table, THROW[point], *bets)
    assert table.point == point
    return rnd


# ------------------------------------------------------------------------------- 1.1 definitions


def test_1_1_come_out_roll_is_the_first_roll_of_the_game() -> None:
    table = new_table()
    rnd = peek(table)
    assert rnd.come_out
    assert rnd.point is None
    assert table.point is None


@pytest.mark.parametrize("total", [7, 11, 2, 3, 12])
def test_1_1_come_out_roll_again_after_a_natural_or_craps(total: int) -> None:
    """A 7, 11, 2, 3 or 12 on the come out roll decides the pass bet: the next roll is again a
    come out roll."""
    table = new_table()
    go(table, THROW[total])
    assert table.point is None
    assert peek(table).come_out


def test_1_1_come_out_roll_after_a_pass_decision_point_made_and_seven_out() -> None:
    table = new_table()
    set_point(table, 5)
    go(table, THROW[8])
    assert not peek(table).come_out  # a number other than the point decides nothing
    go(table, THROW[5])  # the point made: the pass bet is decided
    assert table.point is None
    assert peek(table).come_out
    set_point(table, 9)
    go(table, THROW[7])  # seven out
    assert table.point is None
    assert peek(table).come_out


@pytest.mark.parametrize("total", [4, 5, 6, 8, 9, 10])
def test_1_1_come_out_point_is_a_4_5_6_8_9_or_10_on_the_come_out_roll(total: int) -> None:
    table = new_table()
    go(table, THROW[total])
    assert table.point == total
    rnd = peek(table)
    assert rnd.point == total
    assert not rnd.come_out


@pytest.mark.parametrize("total", [4, 5, 6, 8, 9, 10])
def test_1_1_come_point_is_a_number_on_the_roll_after_a_come_bet(total: int) -> None:
    """The come bet travels to its come point; a don't come bet likewise."""
    table = new_table()
    set_point(table, 4 if total != 4 else 10)
    go(table, THROW[total], Bet(1, "come", 1000, "ann"), Bet(2, "dont_come", 1000, "bo"))
    assert layout(table, 1) == {f"come_{total}": 1000}
    assert layout(table, 2) == {f"dont_come_{total}": 1000}


# --------------------------------------------------------------------------- 1.2(a)1 pass bet


@pytest.mark.parametrize("total", [7, 11])
def test_pass_wins_on_7_or_11_come_out_1_2_a_1_i(total: int) -> None:
    """$10 at 1 to 1 on a natural: +$10; the $10 stake comes back too, and leaves the layout."""
    table = new_table()
    rnd = go(table, THROW[total], Bet(1, "pass", 1000, "ann"), shooter=False)
    assert decided(rnd, 1, "pass") == ("win", 1000)
    assert wallet(rnd, 1) == -1000 + 2000
    assert layout(table) == {}


def test_pass_wins_when_the_point_is_thrown_again_before_7_1_2_a_1_ii() -> None:
    table = new_table()
    rnd = go(table, EASY[4], Bet(1, "pass", 1000, "ann"), shooter=False)
    assert decided(rnd, 1, "pass") is None
    assert layout(table) == {"pass": 1000}
    for total in (6, 8, 2, 12, 3, 11, 5, 9, 10):  # nothing but 4 or 7 decides it
        assert decided(go(table, THROW[total]), 1, "pass") is None
    rnd = go(table, HARD[4])
    assert decided(rnd, 1, "pass") == ("win", 1000)
    assert wallet(rnd, 1) == 2000
    assert layout(table) == {}


@pytest.mark.parametrize("total", [2, 3, 12])
def test_pass_loses_on_2_3_12_come_out_1_2_a_1_iii_1(total: int) -> None:
    table = new_table()
    rnd = go(table, THROW[total], Bet(1, "pass", 1000, "ann"), shooter=False)
    assert decided(rnd, 1, "pass") == ("lose", -1000)
    assert wallet(rnd, 1) == -1000
    assert rnd.ledger.balance(HOUSE) == 1000
    assert layout(table) == {}


def test_pass_loses_on_seven_out_1_2_a_1_iii_2() -> None:
    table = new_table()
    go(table, THROW[10], Bet(1, "pass", 1000, "ann"), shooter=False)
    rnd = go(table, (6, 1))
    assert decided(rnd, 1, "pass") == ("lose", -1000)
    assert wallet(rnd, 1) == 0
    assert layout(table) == {}


# ---------------------------------------------------------------------- 1.2(a)2 don't pass bet


@pytest.mark.parametrize("total", [2, 3])
def test_dont_pass_wins_on_2_or_3_come_out_1_2_a_2_i(total: int) -> None:
    table = new_table()
    rnd = go(table, THROW[total], Bet(1, "dont_pass", 1000, "ann"))
    assert decided(rnd, 1, "dont_pass") == ("win", 1000)
    assert wallet(rnd, 1) == 1000
    assert layout(table) == {}


def test_dont_pass_wins_on_seven_out_1_2_a_2_ii() -> None:
    table = new_table()
    go(table, THROW[6], Bet(1, "dont_pass", 1000, "ann"))
    assert decided(go(table, THROW[8]), 1, "dont_pass") is None
    rnd = go(table, (5, 2))
    assert decided(rnd, 1, "dont_pass") == ("win", 1000)
    assert wallet(rnd, 1) == 2000
    assert layout(table) == {}


@pytest.mark.parametrize("total", [7, 11])
def test_dont_pass_loses_on_7_or_11_come_out_1_2_a_2_iii_1(total: int) -> None:
    table = new_table()
    rnd = go(table, THROW[total], Bet(1, "dont_pass", 1000, "ann"))
    assert decided(rnd, 1, "dont_pass") == ("lose", -1000)
    assert wallet(rnd, 1) == -1000
    assert layout(table) == {}


def test_dont_pass_loses_when_the_point_is_made_1_2_a_2_iii_2() -> None:
    table = new_table()
    go(table, THROW[9], Bet(1, "dont_pass", 1000, "ann"))
    rnd = go(table, (3, 6))
    assert decided(rnd, 1, "dont_pass") == ("lose", -1000)
    assert wallet(rnd, 1) == 0
    assert layout(table) == {}


def test_dont_pass_void_on_12_come_out_1_2_a_2_iv() -> None:
    """Barred on 12: the wager is void, returned, amount 0 (and the next roll is a come out)."""
    table = new_table()
    rnd = go(table, (6, 6), Bet(1, "dont_pass", 1000, "ann"))
    assert decided(rnd, 1, "dont_pass") == ("void", 0)
    assert wallet(rnd, 1) == 0  # placed and returned in the same roll
    assert rnd.ledger.balance(HOUSE) == 500  # only the shooter's pass bet lost on the 12
    assert layout(table) == {}
    assert table.point is None


# ---------------------------------------------------------------------------- 1.2(a)3 come bet


def _point_4_table() -> CrapsTable:
    table = new_table()
    set_point(table, 4)
    return table


@pytest.mark.parametrize("total", [7, 11])
def test_come_wins_on_7_or_11_on_the_next_roll_1_2_a_3_i(total: int) -> None:
    table = _point_4_table()
    rnd = go(table, THROW[total], Bet(1, "come", 1000, "ann"))
    assert decided(rnd, 1, "come") == ("win", 1000)
    assert wallet(rnd, 1) == 1000
    assert layout(table) == {}


def test_come_wins_when_its_come_point_comes_before_7_1_2_a_3_ii() -> None:
    table = _point_4_table()
    go(table, THROW[5], Bet(1, "come", 1000, "ann"))
    assert layout(table) == {"come_5": 1000}
    assert decided(go(table, THROW[8]), 1, "come_5") is None
    rnd = go(table, (1, 4))
    assert decided(rnd, 1, "come_5") == ("win", 1000)
    assert wallet(rnd, 1) == 2000
    assert layout(table) == {}


@pytest.mark.parametrize("total", [2, 3, 12])
def test_come_loses_on_2_3_12_on_the_next_roll_1_2_a_3_iii_1(total: int) -> None:
    table = _point_4_table()
    rnd = go(table, THROW[total], Bet(1, "come", 1000, "ann"))
    assert decided(rnd, 1, "come") == ("lose", -1000)
    assert wallet(rnd, 1) == -1000
    assert layout(table) == {}


def test_come_loses_when_7_comes_before_its_come_point_1_2_a_3_iii_2() -> None:
    table = _point_4_table()
    go(table, THROW[9], Bet(1, "come", 1000, "ann"))
    rnd = go(table, THROW[7])
    assert decided(rnd, 1, "come_9") == ("lose", -1000)
    assert wallet(rnd, 1) == 0
    assert layout(table) == {}


def test_come_bet_works_on_a_come_out_roll_1_2_a_3_ii() -> None:
    """A come wager on its come point is decided by a come out roll too (the flat wager is never
    off): its number wins it."""
    table = _point_4_table()
    go(table, THROW[6], Bet(1, "come", 1000, "ann"))
    go(table, HARD[4])  # the point made; a come out roll follows
    rnd = go(table, (1, 5))
    assert decided(rnd, 1, "come_6") == ("win", 1000)
    assert wallet(rnd, 1) == 2000


# ----------------------------------------------------------------------- 1.2(a)4 don't come bet


@pytest.mark.parametrize("total", [2, 3])
def test_dont_come_wins_on_2_or_3_1_2_a_4_i(total: int) -> None:
    table = _point_4_table()
    rnd = go(table, THROW[total], Bet(1, "dont_come", 1000, "ann"))
    assert decided(rnd, 1, "dont_come") == ("win", 1000)
    assert wallet(rnd, 1) == 1000


def test_dont_come_wins_when_7_comes_before_its_come_point_1_2_a_4_ii() -> None:
    table = _point_4_table()
    go(table, THROW[10], Bet(1, "dont_come", 1000, "ann"))
    assert layout(table) == {"dont_come_10": 1000}
    rnd = go(table, THROW[7])
    assert decided(rnd, 1, "dont_come_10") == ("win", 1000)
    assert wallet(rnd, 1) == 2000
    assert layout(table) == {}


@pytest.mark.parametrize("total", [7, 11])
def test_dont_come_loses_on_7_or_11_1_2_a_4_iii_1(total: int) -> None:
    table = _point_4_table()
    rnd = go(table, THROW[total], Bet(1, "dont_come", 1000, "ann"))
    assert decided(rnd, 1, "dont_come") == ("lose", -1000)
    assert wallet(rnd, 1) == -1000


def test_dont_come_loses_when_its_come_point_comes_first_1_2_a_4_iii_2() -> None:
    table = _point_4_table()
    go(table, THROW[8], Bet(1, "dont_come", 1000, "ann"))
    rnd = go(table, HARD[8])
    assert decided(rnd, 1, "dont_come_8") == ("lose", -1000)
    assert wallet(rnd, 1) == 0
    assert layout(table) == {}


def test_dont_come_void_on_12_1_2_a_4_iv() -> None:
    table = _point_4_table()
    rnd = go(table, (6, 6), Bet(1, "dont_come", 1000, "ann"))
    assert decided(rnd, 1, "dont_come") == ("void", 0)
    assert wallet(rnd, 1) == 0
    assert layout(table) == {}


# ----------------------------------------------------------------- 1.2(a)5 place bet to win


@pytest.mark.parametrize(
    ("number", "stake", "win"),
    [(4, 1000, 1800), (10, 500, 900), (5, 1000, 1400), (9, 500, 700), (6, 1200, 1400),
     (8, 600, 700)],
)  # fmt: skip
def test_place_to_win_pays_when_its_number_comes_before_7_1_2_a_5(
    number: int, stake: int, win: int
) -> None:
    """9 to 5 on 4 and 10, 7 to 5 on 5 and 9, 7 to 6 on 6 and 8 ($10 on 4 wins $18, $12 on 6
    wins $14); the wager stays up after a win (only the win is paid)."""
    table = new_table()
    set_point(table, 4 if number != 4 else 10)
    rnd = go(table, THROW[number], Bet(1, f"place_{number}", stake, "ann"))
    assert decided(rnd, 1, f"place_{number}") == ("win", win)
    assert wallet(rnd, 1) == -stake + win
    assert layout(table) == {f"place_{number}": stake}


def test_place_to_win_loses_on_7_1_2_a_5() -> None:
    table = _point_4_table()
    rnd = go(table, THROW[7], Bet(1, "place_6", 1200, "ann"))
    assert decided(rnd, 1, "place_6") == ("lose", -1200)
    assert wallet(rnd, 1) == -1200
    assert layout(table) == {}


@pytest.mark.parametrize("total", [6, 7])
def test_place_bet_inactive_on_the_come_out_roll_1_2_a_5(total: int) -> None:
    """ "All place bets shall be inactive on any come out roll unless called on": neither its
    number nor a 7 decides it; it stays on the layout."""
    table = new_table()
    rnd = go(table, THROW[total], Bet(1, "place_6", 1200, "ann"))
    assert not rnd.working(1, "place_6")
    assert decided(rnd, 1, "place_6") is None
    assert wallet(rnd, 1) == -1200
    assert layout(table) == {"place_6": 1200}


def test_place_bet_called_on_works_on_the_come_out_roll_with_the_on_button_1_2_a_5() -> None:
    table = new_table()
    rnd = table.new_round()
    rnd.apply(Bet(SHOOTER, "pass", 500, "sam"))
    rnd.apply(Bet(1, "place_6", 1200, "ann"))
    rnd.apply(CallOn(1, "place_6"))
    assert rnd.seats[1].calls.get("place_6") == "on"  # the dealer's "on" marker button
    assert rnd.working(1, "place_6")
    rnd.apply(NoMoreBets())
    rnd.apply(Roll(2, 4))
    assert decided(rnd, 1, "place_6") == ("win", 1400)
    table.finish(rnd)
    rnd = go(table, THROW[7])  # the point 6 set; the place bet works, and loses to the 7
    assert decided(rnd, 1, "place_6") == ("lose", -1200)


def test_place_bet_called_on_loses_to_a_come_out_7_1_2_a_5() -> None:
    table = new_table()
    rnd = go(table, THROW[7], Bet(1, "place_8", 600, "ann"), CallOn(1, "place_8"))
    assert decided(rnd, 1, "place_8") == ("lose", -600)


def test_place_bet_works_again_once_the_point_is_set_1_2_a_5() -> None:
    table = new_table()
    go(table, THROW[5], Bet(1, "place_6", 1200, "ann"))
    rnd = go(table, HARD[6])
    assert decided(rnd, 1, "place_6") == ("win", 1400)


def test_allowed_offers_calling_off_a_place_bet_that_is_off_on_the_come_out_1_2_a_5() -> None:
    table = new_table()
    go(table, (1, 1), Bet(1, "place_4", 500, "ann"))
    rnd = peek(table)
    assert rnd.come_out
    assert rnd.can(CallOff(1, "place_4"))
    assert "place_4" in rnd.allowed(1)["call_off"]


def test_place_bet_called_off_on_the_come_out_stays_off_after_the_point_1_2_a_5() -> None:
    """Called off, a wager is neither won nor lost until called on again (decisions.md)."""
    table = new_table()
    go(table, THROW[5], Bet(1, "place_4", 500, "ann"), CallOff(1, "place_4"))
    rnd = go(table, THROW[4])
    assert decided(rnd, 1, "place_4") is None
    rnd = go(table, THROW[4], CallOn(1, "place_4"))
    assert decided(rnd, 1, "place_4") == ("win", 900)


def test_place_bet_called_off_is_not_decided_1_2_a_5() -> None:
    table = _point_4_table()
    rnd = go(table, THROW[7], Bet(1, "place_6", 1200, "ann"), CallOff(1, "place_6"))
    assert decided(rnd, 1, "place_6") is None
    assert layout(table) == {"place_6": 1200}


# ---------------------------------------------------------------- 1.2(a)6 place bet to lose


@pytest.mark.parametrize(
    ("number", "stake", "win"),
    [(4, 1100, 500), (10, 2200, 1000), (5, 800, 500), (9, 1600, 1000), (6, 500, 400),
     (8, 1000, 800)],
)  # fmt: skip
def test_place_to_lose_wins_on_7_before_its_number_1_2_a_6(
    number: int, stake: int, win: int
) -> None:
    """5 to 11 against 4 and 10, 5 to 8 against 5 and 9, 4 to 5 against 6 and 8; stays up."""
    table = _point_4_table() if number != 4 else new_table()
    if number == 4:
        set_point(table, 10)
    rnd = go(table, THROW[7], Bet(1, f"place_lose_{number}", stake, "ann"))
    assert decided(rnd, 1, f"place_lose_{number}") == ("win", win)
    assert wallet(rnd, 1) == -stake + win
    assert layout(table) == {f"place_lose_{number}": stake}


def test_place_to_lose_loses_when_its_number_comes_1_2_a_6() -> None:
    table = _point_4_table()
    rnd = go(table, HARD[8], Bet(1, "place_lose_8", 1000, "ann"))
    assert decided(rnd, 1, "place_lose_8") == ("lose", -1000)
    assert layout(table) == {}


def test_place_to_lose_works_on_the_come_out_roll_1_2_a_6() -> None:
    """Only place bets to win are inactive on the come out roll (1.2(a)5); 1.2(a)6 says no
    such thing."""
    table = new_table()
    rnd = go(table, THROW[7], Bet(1, "place_lose_6", 500, "ann"))
    assert decided(rnd, 1, "place_lose_6") == ("win", 400)


# ------------------------------------------------------------------------ 1.2(a)7-10 hardways


@pytest.mark.parametrize(
    ("number", "clause", "win"), [(4, "7", 700), (6, "8", 900), (8, "9", 900), (10, "10", 700)]
)
def test_hardway_wins_on_the_pair_1_2_a_7_to_10(number: int, clause: str, win: int) -> None:
    """$1 wins $7 on hard 4 and 10, $9 on hard 6 and 8; stays up."""
    table = new_table()
    set_point(table, 5)
    rnd = go(table, HARD[number], Bet(1, f"hard_{number}", 100, "ann"))
    assert decided(rnd, 1, f"hard_{number}") == ("win", win)
    assert wallet(rnd, 1) == -100 + win
    assert layout(table) == {f"hard_{number}": 100}
    assert spot(f"hard_{number}").clause == f"2(a){clause}"


@pytest.mark.parametrize("number", [4, 6, 8, 10])
def test_hardway_loses_easy_1_2_a_7_to_10(number: int) -> None:
    table = new_table()
    set_point(table, 5)
    rnd = go(table, EASY[number], Bet(1, f"hard_{number}", 100, "ann"))
    assert decided(rnd, 1, f"hard_{number}") == ("lose", -100)
    assert layout(table) == {}


@pytest.mark.parametrize("number", [4, 6, 8, 10])
def test_hardway_loses_on_7_1_2_a_7_to_10(number: int) -> None:
    table = new_table()
    set_point(table, 5)
    rnd = go(table, THROW[7], Bet(1, f"hard_{number}", 100, "ann"))
    assert decided(rnd, 1, f"hard_{number}") == ("lose", -100)


def test_hardway_works_on_the_come_out_roll_1_2_a_7() -> None:
    """ "May be made at any time" and nothing makes them inactive on the come out roll: felt
    follows the text (decisions.md)."""
    table = new_table()
    rnd = go(table, HARD[4], Bet(1, "hard_4", 100, "ann"))
    assert decided(rnd, 1, "hard_4") == ("win", 700)


def test_hardway_not_decided_by_other_totals_1_2_a_8() -> None:
    table = new_table()
    set_point(table, 5)
    for total in (2, 3, 4, 5, 8, 9, 10, 11, 12):
        rnd = go(table, THROW[total], *([Bet(1, "hard_6", 100, "ann")] if total == 2 else []))
        assert decided(rnd, 1, "hard_6") is None
        if table.point is None:
            set_point(table, 5)
    assert layout(table) == {"hard_6": 100}


# --------------------------------------------------------------------------- 1.2(a)11 field


@pytest.mark.parametrize(
    ("total", "outcome", "amount"),
    [(2, "win", 200), (3, "win", 100), (4, "win", 100), (9, "win", 100), (10, "win", 100),
     (11, "win", 100), (12, "win", 200), (5, "lose", -100), (6, "lose", -100),
     (7, "lose", -100), (8, "lose", -100)],
)  # fmt: skip
def test_field_each_total_1_2_a_11(total: int, outcome: str, amount: int) -> None:
    """$1: even money on 3, 4, 9, 10, 11; 2 and 12 at their own lines (2 to 1); loses on
    5, 6, 7, 8; one roll: the wager leaves the layout either way."""
    table = new_table()
    rnd = go(table, THROW[total], Bet(1, "field", 100, "ann"))
    assert decided(rnd, 1, "field") == (outcome, amount)
    assert wallet(rnd, 1) == (amount if outcome == "win" else -100)
    assert layout(table) == {}


def test_field_12_at_3_to_1_on_a_table_that_pays_it_1_4() -> None:
    table = new_table(pays={"field_12": "3 to 1"})
    rnd = go(table, (6, 6), Bet(1, "field", 100, "ann"))
    assert decided(rnd, 1, "field") == ("win", 300)
    rnd = go(table, (1, 1), Bet(1, "field", 100, "ann"))
    assert decided(rnd, 1, "field") == ("win", 200)


# ------------------------------------------------------------------- 1.2(a)12-19 one roll bets


@pytest.mark.parametrize(
    ("bet", "stake", "total", "win"),
    [
        ("any_seven", 100, 7, 400),  # 12: 4 to 1
        ("any_craps", 100, 2, 700),  # 13: 7 to 1
        ("any_craps", 100, 3, 700),
        ("any_craps", 100, 12, 700),
        ("craps_2", 100, 2, 3000),  # 14: 30 to 1
        ("craps_3", 100, 3, 1500),  # 15: 15 to 1
        ("craps_12", 100, 12, 3000),  # 16: 30 to 1
        ("eleven", 100, 11, 1500),  # 17: 15 to 1
        ("craps_eleven", 100, 2, 300),  # 18: 3 to 1 on craps
        ("craps_eleven", 100, 3, 300),
        ("craps_eleven", 100, 12, 300),
        ("craps_eleven", 100, 11, 700),  # ... 7 to 1 on 11
        ("horn", 400, 2, 2700),  # 19: 27 to 4 on 2 and 12
        ("horn", 400, 12, 2700),
        ("horn", 400, 3, 1200),  # ... 3 to 1 on 3 and 11
        ("horn", 400, 11, 1200),
    ],
)
def test_one_roll_wager_wins_1_2_a_12_to_19(bet: str, stake: int, total: int, win: int) -> None:
    table = new_table()
    rnd = go(table, THROW[total], Bet(1, bet, stake, "ann"))
    assert decided(rnd, 1, bet) == ("win", win)
    assert wallet(rnd, 1) == win  # the stake comes back with the win
    assert layout(table) == {}


@pytest.mark.parametrize(
    ("bet", "stake", "total"),
    [("any_seven", 100, 6), ("any_craps", 100, 7), ("any_craps", 100, 11), ("craps_2", 100, 3),
     ("craps_2", 100, 12), ("craps_3", 100, 2), ("craps_12", 100, 2), ("eleven", 100, 7),
     ("craps_eleven", 100, 7), ("craps_eleven", 100, 4), ("horn", 400, 7), ("horn", 400, 4)],
)  # fmt: skip
def test_one_roll_wager_loses_on_any_other_total_1_2_a_12_to_19(
    bet: str, stake: int, total: int
) -> None:
    table = new_table()
    rnd = go(table, THROW[total], Bet(1, bet, stake, "ann"))
    assert decided(rnd, 1, bet) == ("lose", -stake)
    assert wallet(rnd, 1) == -stake
    assert layout(table) == {}


def test_one_roll_wager_decided_on_a_point_roll_too_1_2_a_12() -> None:
    table = _point_4_table()
    rnd = go(table, THROW[7], Bet(1, "any_seven", 500, "ann"))
    assert decided(rnd, 1, "any_seven") == ("win", 2000)


# ------------------------------------------------------------- 1.3 making and removing wagers


def test_pass_is_removable_before_the_come_out_roll_1_3() -> None:
    table = new_table()
    rnd = peek(table)
    rnd.apply(Bet(1, "pass", 1000, "ann"))
    rnd.apply(TakeDown(1, "pass", 400))
    assert rnd.seats[1].wagers == {"pass": 600}
    rnd.apply(TakeDown(1, "pass"))
    assert 1 not in rnd.seats  # nothing of seat 1's is left on the layout: the seat is free
    assert wallet(rnd, 1) == 0


def test_pass_is_a_contract_wager_once_a_point_is_set_1_3() -> None:
    """No take down, no reduction, and no new pass wager while the point is set."""
    table = new_table()
    go(table, THROW[6], Bet(1, "pass", 1000, "ann"), shooter=False)
    rnd = peek(table)
    refused(rnd, TakeDown(1, "pass"), r"contract.*19:47-1\.3")
    refused(rnd, TakeDown(1, "pass", 500), r"19:47-1\.3")
    refused(rnd, Bet(1, "pass", 500, "ann"))
    refused(rnd, CallOff(1, "pass"))


def test_come_is_removable_in_the_come_area_and_a_contract_on_its_point_1_3() -> None:
    table = _point_4_table()
    rnd = table.new_round()
    rnd.apply(Bet(1, "come", 1000, "ann"))
    rnd.apply(TakeDown(1, "come", 500))
    assert rnd.seats[1].wagers == {"come": 500}
    rnd.apply(NoMoreBets())
    rnd.apply(Roll(4, 5))
    table.finish(rnd)
    assert layout(table) == {"come_9": 500}
    rnd = peek(table)
    refused(rnd, TakeDown(1, "come_9"), r"19:47-1\.3")
    refused(rnd, TakeDown(1, "come_9", 100))
    refused(rnd, Bet(1, "come_9", 500, "ann"))


def test_dont_pass_may_be_reduced_and_taken_down_after_the_point_never_increased_1_3() -> None:
    table = new_table()
    go(table, THROW[8], Bet(1, "dont_pass", 1000, "ann"))
    rnd = peek(table)
    refused(rnd, Bet(1, "dont_pass", 500, "ann"))
    rnd.apply(TakeDown(1, "dont_pass", 400))
    assert rnd.seats[1].wagers["dont_pass"] == 600
    rnd.apply(TakeDown(1, "dont_pass"))
    assert 1 not in rnd.seats  # nothing of seat 1's is left on the layout: the seat is free
    assert wallet(rnd, 1) == 1000  # all back to the player, no statement line
    assert lines_for(rnd, 1, "dont_pass") == []


def test_dont_come_on_its_point_may_be_taken_down_1_3() -> None:
    table = _point_4_table()
    go(table, THROW[5], Bet(1, "dont_come", 1000, "ann"))
    rnd = peek(table)
    rnd.apply(TakeDown(1, "dont_come_5"))
    assert wallet(rnd, 1) == 1000


def test_line_and_one_roll_flat_wagers_may_not_be_called_off_1_3() -> None:
    table = _point_4_table()
    go(table, THROW[5], Bet(1, "come", 1000, "ann"))
    rnd = peek(table)
    rnd.apply(Bet(1, "field", 100, "ann"))
    refused(rnd, CallOff(1, "come_5"))
    refused(rnd, CallOff(1, "field"))


def test_come_and_dont_come_not_before_a_point_pass_and_dont_pass_not_after_1_2_a() -> None:
    """Pass and don't pass "immediately prior to the come out roll"; come and don't come "at any
    time after the come out roll"."""
    table = new_table()
    rnd = peek(table)
    refused(rnd, Bet(1, "come", 1000, "ann"))
    refused(rnd, Bet(1, "dont_come", 1000, "ann"))
    set_point(table, 4)
    rnd = peek(table)
    refused(rnd, Bet(1, "pass", 1000, "ann"))
    refused(rnd, Bet(1, "dont_pass", 1000, "ann"))


def test_wager_below_the_minimum_or_over_the_maximum_refused_1_3() -> None:
    table = new_table()
    rnd = peek(table)
    refused(rnd, Bet(1, "pass", 400, "ann"), "5.00")
    refused(rnd, Bet(1, "field", 99, "ann"), "1.00")
    refused(rnd, Bet(1, "pass", 500100, "ann"), "5000.00")
    rnd.apply(Bet(1, "field", 100, "ann"))


# ------------------------------------------------------------------- 1.4 payable in full


def test_place_6_of_5_dollars_refused_6_dollars_paid_7_1_4() -> None:
    """7 to 6 on $5 is $5.83 1/3: not payable in full, refused; $6 wins $7."""
    table = _point_4_table()
    rnd = peek(table)
    refused(rnd, Bet(1, "place_6", 500, "ann"), r"7 to 6.*payable in full.*19:47-1\.4")
    rnd = go(table, THROW[6], Bet(1, "place_6", 600, "ann"))
    assert decided(rnd, 1, "place_6") == ("win", 700)


@pytest.mark.parametrize(("spot_id", "amount"), [("place_6", 500), ("horn", 101), ("place_4", 501)])
def test_payable_in_full_refusal_names_amounts_that_are_accepted_1_4(
    spot_id: str, amount: int
) -> None:
    """The refusal names the nearest allowed amounts (one where the other is under the table's
    minimum: a $5 place 6 is told 5.04, never 4.98); each named amount is accepted."""
    table = _point_4_table()
    pattern = r"bet (\d+\.\d\d)(?: or (\d+\.\d\d))? instead"
    with pytest.raises(FeltError, match=pattern) as info:
        peek(table).apply(Bet(1, spot_id, amount, "ann"))
    found = re.search(pattern, str(info.value))
    assert found is not None
    named = [text for text in found.groups() if text is not None]
    for text in named:
        assert peek(table).can(Bet(1, spot_id, cents(text), "ann")), text
    if spot_id == "place_6":
        assert named == ["5.04"]


def test_horn_payable_in_full_1_4() -> None:
    """27 to 4 on $4 is $27 (accepted); on $1.01 it is $6.8175 (refused).  A $5 horn wins
    $33.75 on a 2, a whole number of cents, so the rule of decisions.md ("refused unless amount
    x odds is a whole number of cents") accepts it."""
    table = new_table()
    rnd = peek(table)
    refused(rnd, Bet(1, "horn", 101, "ann"))
    rnd = go(table, (1, 1), Bet(1, "horn", 400, "ann"), Bet(2, "horn", 500, "bo"))
    assert decided(rnd, 1, "horn") == ("win", 2700)
    assert decided(rnd, 2, "horn") == ("win", 3375)


def test_a_table_paying_less_than_a_minimum_is_refused_at_load_1_4() -> None:
    with pytest.raises(FeltError, match=r"place_6.*1 to 1.*7 to 6.*N\.J\.A\.C\. 19:47-1\.4"):
        CrapsConfig.from_mapping({"pays": {"place_6": "1 to 1"}})
    with pytest.raises(FeltError, match=r"field_12.*N\.J\.A\.C\. 19:47-1\.4"):
        CrapsConfig.from_mapping({"pays": {"field_12": "1 to 1"}})
    assert CrapsConfig.from_mapping({"pays": {"field_12": "3 to 1"}}).pays["field_12"] == 3


# --------------------------------------------------------- 1.5 buy and lay, vigorish prohibited


@pytest.mark.parametrize(
    ("number", "stake", "win"),
    [(4, 1000, 2000), (10, 1000, 2000), (5, 1000, 1500), (9, 1000, 1500), (6, 1000, 1200),
     (8, 1000, 1200)],
)  # fmt: skip
def test_buy_pays_true_odds_with_no_commission_1_5(number: int, stake: int, win: int) -> None:
    """2 to 1, 3 to 2, 6 to 5; the player pays nothing but the wager (no vigorish)."""
    table = new_table()
    set_point(table, 4 if number != 4 else 10)
    rnd = go(table, THROW[number], Bet(1, f"buy_{number}", stake, "ann"))
    assert decided(rnd, 1, f"buy_{number}") == ("win", win)
    assert wallet(rnd, 1) == -stake + win
    assert rnd.ledger.balance(HOUSE) == -win  # no commission: the house only pays the win
    assert layout(table) == {f"buy_{number}": stake}


def test_buy_off_on_the_come_out_roll_unless_called_on_1_5() -> None:
    table = new_table()
    rnd = go(table, THROW[7], Bet(1, "buy_4", 1000, "ann"))
    assert decided(rnd, 1, "buy_4") is None
    rnd = go(table, THROW[4], CallOn(1, "buy_4"))
    assert decided(rnd, 1, "buy_4") == ("win", 2000)


@pytest.mark.parametrize(
    ("number", "stake", "win"),
    [(4, 2000, 1000), (10, 2000, 1000), (5, 3000, 2000), (9, 3000, 2000), (6, 3000, 2500),
     (8, 3000, 2500)],
)  # fmt: skip
def test_lay_pays_true_odds_with_no_commission_and_works_on_come_out_1_5(
    number: int, stake: int, win: int
) -> None:
    """1 to 2, 2 to 3, 5 to 6 when the 7 comes first (here a come out 7)."""
    table = new_table()
    rnd = go(table, THROW[7], Bet(1, f"lay_{number}", stake, "ann"))
    assert decided(rnd, 1, f"lay_{number}") == ("win", win)
    assert wallet(rnd, 1) == -stake + win
    assert layout(table) == {f"lay_{number}": stake}


def test_lay_loses_when_its_number_comes_1_5() -> None:
    table = new_table()
    rnd = go(table, THROW[4], Bet(1, "lay_4", 2000, "ann"))
    assert decided(rnd, 1, "lay_4") == ("lose", -2000)


# -------------------------------------------------------------------------- 1.6 odds


@pytest.mark.parametrize(
    ("point", "multiple", "win"), [(4, 3, 6000), (10, 3, 6000), (5, 4, 6000), (9, 4, 6000),
                                    (6, 5, 6000), (8, 5, 6000)],
)  # fmt: skip
def test_pass_odds_at_true_odds_up_to_3_4_5x_1_6(point: int, multiple: int, win: int) -> None:
    """$10 pass: odds to $30 on 4/10 (2 to 1), $40 on 5/9 (3 to 2), $50 on 6/8 (6 to 5); every
    full odds win is $60; a cent more is refused."""
    table = new_table()
    go(table, THROW[point], Bet(1, "pass", 1000, "ann"), shooter=False)
    rnd = peek(table)
    refused(rnd, Bet(1, "pass_odds", 1000 * multiple + 100, "ann"), r"19:47-1\.6")
    rnd = go(table, HARD.get(point, THROW[point]), Bet(1, "pass_odds", 1000 * multiple, "ann"))
    assert decided(rnd, 1, "pass") == ("win", 1000)
    assert decided(rnd, 1, "pass_odds") == ("win", win)
    assert wallet(rnd, 1) == -1000 * multiple + 1000 * multiple + 1000 + 1000 + win
    assert layout(table) == {}


def test_pass_odds_lose_on_seven_out_1_6() -> None:
    table = new_table()
    go(table, THROW[5], Bet(1, "pass", 1000, "ann"), shooter=False)
    rnd = go(table, THROW[7], Bet(1, "pass_odds", 2000, "ann"))
    assert decided(rnd, 1, "pass_odds") == ("lose", -2000)


def test_pass_odds_only_with_a_point_and_a_pass_wager_1_6() -> None:
    table = new_table()
    refused(peek(table), Bet(1, "pass_odds", 1000, "ann"))
    set_point(table, 6)
    refused(peek(table), Bet(1, "pass_odds", 1000, "ann"))  # seat 1 has no pass wager


def test_odds_payable_in_full_1_6() -> None:
    """3 to 2 on $10.01 is $15.015: refused; on $15 it is $22.50."""
    table = new_table()
    go(table, THROW[5], Bet(1, "pass", 1000, "ann"), shooter=False)
    refused(peek(table), Bet(1, "pass_odds", 1001, "ann"))
    rnd = go(table, THROW[5], Bet(1, "pass_odds", 1500, "ann"))
    assert decided(rnd, 1, "pass_odds") == ("win", 2250)


@pytest.mark.parametrize(("point", "win"), [(4, 3000), (5, 4000), (6, 5000)])
def test_dont_pass_lay_odds_up_to_6x_flat_1_6(point: int, win: int) -> None:
    """$10 don't pass on a 3-4-5x table: lay $60 on any point (wins $30 on 4, $40 on 5, $50 on
    6 at 1 to 2, 2 to 3, 5 to 6); $66 is refused."""
    table = new_table()
    go(table, THROW[point], Bet(1, "dont_pass", 1000, "ann"))
    refused(peek(table), Bet(1, "dont_pass_odds", 6600, "ann"))
    rnd = go(table, THROW[7], Bet(1, "dont_pass_odds", 6000, "ann"))
    assert decided(rnd, 1, "dont_pass") == ("win", 1000)
    assert decided(rnd, 1, "dont_pass_odds") == ("win", win)
    assert layout(table) == {}


def test_dont_pass_odds_lose_when_the_point_is_made_1_6() -> None:
    table = new_table()
    go(table, THROW[4], Bet(1, "dont_pass", 1000, "ann"))
    rnd = go(table, HARD[4], Bet(1, "dont_pass_odds", 2000, "ann"))
    assert decided(rnd, 1, "dont_pass_odds") == ("lose", -2000)


def _come_6_with_odds_at_come_out(stake_odds: int) -> CrapsTable:
    """Point 4, $10 come travels to 6 with odds, then the point is made: a come out roll, on
    which the come wager works and its odds are off."""
    table = _point_4_table()
    go(table, THROW[6], Bet(1, "come", 1000, "ann"))
    go(table, HARD[4], Bet(1, "come_6_odds", stake_odds, "ann"))
    assert table.point is None
    assert layout(table) == {"come_6": 1000, "come_6_odds": stake_odds}
    rnd = peek(table)
    assert rnd.working(1, "come_6")
    assert not rnd.working(1, "come_6_odds")
    return table


def test_come_odds_off_on_come_out_returned_when_the_come_bet_loses_to_7_1_6() -> None:
    table = _come_6_with_odds_at_come_out(5000)
    rnd = go(table, THROW[7])
    assert decided(rnd, 1, "come_6") == ("lose", -1000)
    assert decided(rnd, 1, "come_6_odds") in (("push", 0), ("void", 0))
    assert wallet(rnd, 1) == 5000  # the odds come back, unpaid and uncollected
    assert layout(table) == {}


def test_come_odds_off_on_come_out_returned_when_the_come_bet_wins_1_6() -> None:
    table = _come_6_with_odds_at_come_out(5000)
    rnd = go(table, HARD[6])
    assert decided(rnd, 1, "come_6") == ("win", 1000)
    assert decided(rnd, 1, "come_6_odds") in (("push", 0), ("void", 0))
    assert wallet(rnd, 1) == 2000 + 5000


def test_come_odds_called_on_work_on_come_out_1_6() -> None:
    table = _come_6_with_odds_at_come_out(5000)
    rnd = go(table, THROW[6], CallOn(1, "come_6_odds"))
    assert decided(rnd, 1, "come_6_odds") == ("win", 6000)


def test_come_odds_work_on_a_point_roll_1_6() -> None:
    table = _point_4_table()
    go(table, THROW[9], Bet(1, "come", 1000, "ann"))
    rnd = go(table, THROW[9], Bet(1, "come_9_odds", 4000, "ann"))
    assert decided(rnd, 1, "come_9_odds") == ("win", 6000)


def test_dont_come_odds_work_on_the_come_out_roll_1_6() -> None:
    """$10 don't come on 6 with $12 laid: a come out 7 wins $10 and $10 (5 to 6)."""
    table = _point_4_table()
    go(table, THROW[6], Bet(1, "dont_come", 1000, "ann"))
    go(table, HARD[4], Bet(1, "dont_come_6_odds", 1200, "ann"))
    assert peek(table).working(1, "dont_come_6_odds")
    rnd = go(table, THROW[7])
    assert decided(rnd, 1, "dont_come_6") == ("win", 1000)
    assert decided(rnd, 1, "dont_come_6_odds") == ("win", 1000)
    assert wallet(rnd, 1) == 2000 + 2200


def test_odds_removable_between_rolls_1_6() -> None:
    table = new_table()
    go(table, THROW[8], Bet(1, "pass", 1000, "ann"), shooter=False)
    rnd = peek(table)
    rnd.apply(Bet(1, "pass_odds", 5000, "ann"))
    rnd.apply(TakeDown(1, "pass_odds", 2000))
    rnd.apply(NoMoreBets())
    rnd.apply(Roll(4, 4))
    assert decided(rnd, 1, "pass_odds") == ("win", 3600)


# ------------------------------------------------------------------- 1.9 invalid roll


def test_invalid_roll_decides_nothing_and_the_shooter_rolls_again_1_9() -> None:
    table = new_table()
    rnd = peek(table)
    rnd.apply(Bet(1, "pass", 1000, "ann"))
    rnd.apply(Bet(1, "field", 100, "ann"))
    rnd.apply(NoMoreBets())
    before = list(rnd.ledger.transfers)
    rnd.apply(InvalidRoll())
    assert rnd.phase == "closed"
    assert not rnd.finished
    assert rnd.lines == []
    assert rnd.ledger.transfers == before
    assert rnd.dice is None
    rnd.apply(InvalidRoll())  # again: still no roll
    rnd.apply(Roll(3, 4))
    assert decided(rnd, 1, "pass") == ("win", 1000)
    assert decided(rnd, 1, "field") == ("lose", -100)
    table.finish(rnd)
    assert table.rolls_played == 1  # the invalid rolls are not rolls
    assert [r["total"] for r in table.rolls] == [7]


def test_invalid_roll_only_once_the_dice_are_out_1_9() -> None:
    table = new_table()
    rnd = table.new_round()
    rnd.apply(Bet(1, "pass", 1000, "ann"))
    refused(rnd, InvalidRoll())


# --------------------------------------------------------------------- 1.11 the shooter


def test_shooter_keeps_the_dice_until_seven_out_then_clockwise_1_11() -> None:
    table = new_table()
    lines = (Bet(3, "pass", 500, "cy"), Bet(9, "dont_pass", 500, "di"))
    go(table, THROW[6], *lines, shooter=False)  # a point
    first = table.shooter
    assert first in (3, 9)
    go(table, HARD[6], shooter=False)  # the point made: the shooter keeps the dice
    assert table.shooter == first
    go(table, THROW[5], *lines, shooter=False)
    assert table.shooter == first
    go(table, THROW[7], shooter=False)  # seven out
    rnd = go(table, THROW[11], *lines, shooter=False)
    assert rnd.shooter == (9 if first == 3 else 3)


def test_seven_out_passes_the_dice_to_the_next_seat_clockwise_with_a_line_wager_1_11() -> None:
    table = new_table()
    go(table, THROW[4], Bet(2, "pass", 500, "a"), Bet(5, "pass", 500, "b"),
       Bet(11, "pass", 500, "c"), shooter=False)  # fmt: skip
    s = table.shooter
    assert s == 2  # clockwise from seat 1: the first seat with a line wager
    go(table, THROW[7], shooter=False)
    rnd = go(table, THROW[7], Bet(2, "pass", 500, "a"), Bet(5, "pass", 500, "b"),
             Bet(11, "pass", 500, "c"), shooter=False)  # fmt: skip
    assert rnd.shooter == 5


def test_shooter_may_pass_the_dice_at_a_come_out_roll_1_11() -> None:
    table = new_table()
    rnd = peek(table)
    rnd.apply(Bet(2, "pass", 500, "a"))
    rnd.apply(Bet(5, "pass", 500, "b"))
    assert rnd.next_shooter() == 2
    refused(rnd, PassDice(5))  # only the one who holds the dice passes them
    rnd.apply(PassDice(2))
    assert rnd.next_shooter() == 5
    rnd.apply(NoMoreBets())
    assert rnd.shooter == 5


def test_no_roll_while_no_shooter_has_a_line_wager_on_a_come_out_1_11() -> None:
    table = new_table()
    rnd = peek(table)
    rnd.apply(Bet(1, "field", 100, "ann"))
    assert rnd.next_dealer_action() is None
    assert not rnd.can(NoMoreBets())


# ---------------------------------------------------- come bets travelling and stacking (1.2(a)3)


def test_come_bet_travels_to_its_point_while_the_one_there_is_paid_1_2_a_3() -> None:
    """$10 already on come 6 with $10 odds; a new $5 come bet, and a 6: the old one wins $10 and
    its odds $12 (6 to 5), both returned; the new $5 now lies on come 6."""
    table = _point_4_table()
    go(table, THROW[6], Bet(1, "come", 1000, "ann"))
    rnd = go(table, THROW[6], Bet(1, "come", 500, "ann"), Bet(1, "come_6_odds", 1000, "ann"))
    assert decided(rnd, 1, "come_6") == ("win", 1000)
    assert decided(rnd, 1, "come_6_odds") == ("win", 1200)
    assert wallet(rnd, 1) == -500 - 1000 + 2000 + 2200
    assert layout(table) == {"come_6": 500}


def test_dont_come_bet_travels_and_stacks_on_its_point_1_2_a_4() -> None:
    table = _point_4_table()
    go(table, THROW[5], Bet(1, "dont_come", 1000, "ann"))
    rnd = go(table, THROW[5], Bet(1, "dont_come", 500, "ann"))
    assert decided(rnd, 1, "dont_come_5") == ("lose", -1000)
    assert layout(table) == {"dont_come_5": 500}


def test_two_come_bets_on_the_same_point_stack_1_2_a_3() -> None:
    """Two come bets by one player before one roll are one wager in the come area (the chips
    are added): it travels to 8 as one $15 wager and is paid as one."""
    table = _point_4_table()
    rnd = go(table, THROW[8], Bet(1, "come", 1000, "ann"), Bet(1, "come", 500, "ann"))
    assert decided(rnd, 1, "come") is None
    assert layout(table) == {"come_8": 1500}
    rnd = go(table, HARD[8])
    assert decided(rnd, 1, "come_8") == ("win", 1500)


def test_roll_dice_must_be_1_to_6_1_8() -> None:
    table = new_table()
    rnd = peek(table)
    rnd.apply(Bet(SHOOTER, "pass", 500, "sam"))
    rnd.apply(NoMoreBets())
    refused(rnd, Roll(0, 4))
    refused(rnd, Roll(3, 7))


# ------------------------------------------------------------- more of 1.2(a), 1.3, 1.4, 1.6, 1.11


def test_on_button_in_every_view_1_2_a_5() -> None:
    """The dealer's "on" marker is on the felt for all to see: each view shows the call and that
    the wager works; without it, the place bet is shown off on the come out roll."""
    table = new_table()
    rnd = table.new_round()
    rnd.apply(Bet(SHOOTER, "pass", 500, "sam"))
    rnd.apply(Bet(1, "place_6", 1200, "ann"))
    rnd.apply(Bet(2, "place_8", 1200, "bo"))
    rnd.apply(CallOn(1, "place_6"))
    for viewer in (0, 1, 2):
        view = GAME.seat_view(rnd, viewer)["layout"]
        assert view["1"]["place_6"] == {"amount": "12.00", "working": True, "call": "on",
                                        "player": "ann"}  # fmt: skip
        assert view["2"]["place_8"]["working"] is False
        assert view["2"]["place_8"]["call"] is None


def test_statement_line_names_the_wager_clause_and_odds_to_1_2_a_5_1_4() -> None:
    """The line reads "Place 6 to win", the clause cited in full, the odds stated "to"."""
    table = _point_4_table()
    rnd = go(table, THROW[6], Bet(1, "place_6", 1200, "ann"))
    (line,) = lines_for(rnd, 1, "place_6")
    assert (line.wager, line.stake, line.outcome, line.amount) == ("Place 6 to win", 1200, "win",
                                                                   1400)  # fmt: skip
    assert line.clause == "N.J.A.C. 19:47-1.2(a)5"
    assert line.odds == "7 to 6"
    assert "for" not in line.describe()


def test_place_bet_reduced_between_rolls_is_paid_on_what_is_left_1_3() -> None:
    table = _point_4_table()
    go(table, THROW[9], Bet(1, "place_6", 1200, "ann"))
    rnd = go(table, THROW[6], TakeDown(1, "place_6", 600))
    assert decided(rnd, 1, "place_6") == ("win", 700)
    assert wallet(rnd, 1) == 600 + 700
    assert layout(table) == {"place_6": 600}


def test_place_bet_increased_between_rolls_1_3() -> None:
    table = _point_4_table()
    go(table, THROW[9], Bet(1, "place_8", 600, "ann"))
    rnd = go(table, THROW[8], Bet(1, "place_8", 1200, "ann"))
    assert decided(rnd, 1, "place_8") == ("win", 2100)  # $18 at 7 to 6
    assert layout(table) == {"place_8": 1800}


def test_dont_pass_may_be_taken_down_before_the_come_out_roll_1_3() -> None:
    table = new_table()
    go(table, THROW[2], Bet(1, "dont_pass", 1000, "ann"))  # won; now bet again
    rnd = peek(table)
    rnd.apply(Bet(1, "dont_pass", 1000, "ann"))
    rnd.apply(TakeDown(1, "dont_pass"))
    assert wallet(rnd, 1) == 0


@pytest.mark.parametrize(("point", "multiple"), [(4, 3), (5, 4), (6, 5), (8, 5), (9, 4), (10, 3)])
def test_come_odds_up_to_3_4_5x_1_6(point: int, multiple: int) -> None:
    table = new_table()
    set_point(table, 4 if point != 4 else 10)
    go(table, THROW[point], Bet(1, "come", 1000, "ann"))
    refused(peek(table), Bet(1, f"come_{point}_odds", 1000 * multiple + 100, "ann"))
    rnd = go(table, HARD.get(point, THROW[point]), Bet(1, f"come_{point}_odds", 1000 * multiple,
                                                       "ann"))  # fmt: skip
    assert decided(rnd, 1, f"come_{point}_odds") == ("win", 6000)


def test_come_odds_only_once_the_come_bet_is_on_its_point_1_6() -> None:
    table = _point_4_table()
    rnd = peek(table)
    rnd.apply(Bet(1, "come", 1000, "ann"))
    refused(rnd, Bet(1, "come_6_odds", 1000, "ann"))


@pytest.mark.parametrize(("point", "win"), [(4, 3000), (9, 4000), (8, 5000)])
def test_dont_come_lay_odds_up_to_6x_flat_1_6(point: int, win: int) -> None:
    table = new_table()
    set_point(table, 5 if point != 5 else 6)
    go(table, THROW[point], Bet(1, "dont_come", 1000, "ann"))
    refused(peek(table), Bet(1, f"dont_come_{point}_odds", 6600, "ann"))
    rnd = go(table, THROW[7], Bet(1, f"dont_come_{point}_odds", 6000, "ann"))
    assert decided(rnd, 1, f"dont_come_{point}_odds") == ("win", win)


def test_lay_odds_payable_in_full_1_6() -> None:
    """5 to 6 on $10.01 laid against 6 is $8.341666...: refused; $12 wins $10."""
    table = new_table()
    go(table, THROW[6], Bet(1, "dont_pass", 1000, "ann"))
    refused(peek(table), Bet(1, "dont_pass_odds", 1001, "ann"))
    refused(peek(table), Bet(2, "dont_pass_odds", 1200, "bo"))  # seat 2 has no don't pass
    rnd = go(table, THROW[7], Bet(1, "dont_pass_odds", 1200, "ann"))
    assert decided(rnd, 1, "dont_pass_odds") == ("win", 1000)


def test_odds_multiple_is_table_data_1_6() -> None:
    """A 2x table: odds up to twice the flat wager on every point."""
    table = new_table(odds=2)
    go(table, THROW[6], Bet(1, "pass", 1000, "ann"), shooter=False)
    refused(peek(table), Bet(1, "pass_odds", 2100, "ann"))
    rnd = go(table, HARD[6], Bet(1, "pass_odds", 2000, "ann"))
    assert decided(rnd, 1, "pass_odds") == ("win", 2400)


def test_hardway_loses_to_a_come_out_7_1_2_a_10() -> None:
    table = new_table()
    rnd = go(table, THROW[7], Bet(1, "hard_10", 100, "ann"))
    assert decided(rnd, 1, "hard_10") == ("lose", -100)


def test_shooter_keeps_the_dice_after_a_come_out_natural_or_craps_1_11() -> None:
    table = new_table()
    lines = (Bet(3, "pass", 500, "cy"), Bet(9, "pass", 500, "di"))
    go(table, THROW[7], *lines, shooter=False)
    first = table.shooter
    go(table, THROW[2], *lines, shooter=False)
    go(table, THROW[11], *lines, shooter=False)
    assert table.shooter == first


def test_a_table_file_paying_less_than_a_minimum_is_refused_at_load_1_4(tmp_path: Path) -> None:
    path = tmp_path / "craps.toml"
    path.write_text('game = "craps"\n[pays]\nhorn_2 = "26 to 4"\n', encoding="utf-8")
    with pytest.raises(FeltError, match=r"horn_2.*13 to 2.*27 to 4.*19:47-1\.4"):
        load_craps_table(path)


def _point_4_with_place_and_odds() -> CrapsTable:
    """Point 4 then a 6 (all still up): seat 1 pass $10 with $30 odds and place 6 $12; seat 2
    don't pass $10 with $60 laid."""
    table = new_table()
    go(table, EASY[4], Bet(1, "pass", 1000, "ann"), Bet(2, "dont_pass", 1000, "bo"),
       Bet(1, "place_6", 1200, "ann"), shooter=False)  # fmt: skip
    go(table, (5, 1), Bet(1, "pass_odds", 3000, "ann"), Bet(2, "dont_pass_odds", 6000, "bo"),
       shooter=False)  # fmt: skip
    return table


def test_a_reduced_wager_must_stay_payable_in_full_and_at_the_minimum_1_3_1_4() -> None:
    """$12 on 6 reduced by $1 leaves $11 (7 to 6: $12.83 1/3): refused; by $8 leaves $4, under
    the $5 minimum: refused; by $6 leaves $6: accepted."""
    table = _point_4_with_place_and_odds()
    rnd = peek(table)
    refused(rnd, TakeDown(1, "place_6", 100), r"payable in full.*19:47-1\.4")
    refused(rnd, TakeDown(1, "place_6", 800), "5.00")
    rnd.apply(TakeDown(1, "place_6", 600))
    assert rnd.seats[1].wagers["place_6"] == 600


def test_dont_pass_reduced_below_its_odds_limit_refused_taken_down_with_its_odds_1_3_1_6() -> None:
    """$60 laid on 4 behind $10 may win $30 = 3x; the flat cut to $5 would leave a win of 6x:
    refused.  The whole don't pass taken down takes its odds with it: $70 back."""
    table = _point_4_with_place_and_odds()
    rnd = peek(table)
    refused(rnd, TakeDown(2, "dont_pass", 500), r"19:47-1\.6")
    rnd.apply(TakeDown(2, "dont_pass"))
    assert 2 not in rnd.seats  # the odds came down with it: nothing of seat 2's is left
    assert wallet(rnd, 2) == 7000
    assert rnd.lines == []


def test_the_maximum_bounds_a_spot_s_total_1_3() -> None:
    table = _point_4_with_place_and_odds()
    rnd = peek(table)
    refused(rnd, Bet(1, "place_5", 500_500, "ann"), "5000.00")
    rnd.apply(Bet(1, "place_5", 499_500, "ann"))
    refused(rnd, Bet(1, "place_5", 1000, "ann"), "5000.00")
    rnd.apply(Bet(1, "place_5", 500, "ann"))
    assert rnd.seats[1].wagers["place_5"] == 500_000
