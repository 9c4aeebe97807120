"""Craps roll scripts: a script is one roll carrying the layout its table handed it; every roll
of a session written as a script and run again gives the same statement, ledger and layout
(oracle: the session as first played), and a malformed script is one clear error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from felt.cli.main import main
from felt.cli.script import report, report_text, round_script, run_script
from felt.core.errors import FeltError
from felt.games.craps.actions import Bet, Roll
from felt.games.craps.config import CrapsConfig
from felt.games.craps.round import CrapsRound
from felt.games.craps.table import CrapsTable
from felt.rounds.actions import NoMoreBets
from tests.test_craps_round import random_session

CONFIG = CrapsConfig.from_mapping({"odds": 2})


@pytest.mark.parametrize("seed", range(3))
def test_every_roll_s_script_replays_it_exactly(seed: int) -> None:
    for rnd in random_session(seed, 30):
        script = json.loads(json.dumps(round_script(rnd)))  # as a file holds it
        again = run_script(script)
        assert isinstance(again, CrapsRound)
        assert again.lines == rnd.lines
        assert again.ledger == rnd.ledger
        assert again.seats == rnd.seats
        assert again.point == rnd.point


def test_a_roll_with_no_new_wager_is_a_script_of_its_carried_layout() -> None:
    t = CrapsTable(CONFIG)
    t.roll([Bet(1, "pass", 1000, "ann")], (3, 3))
    rnd = t.roll([], (2, 4))
    script = round_script(rnd)
    assert script["wagers"] == {}
    assert script["layout"]["seats"] == {"1": {"player": "ann", "wagers": {"pass": "10.00"},
                                               "calls": {}}}  # fmt: skip
    assert run_script(script).lines == rnd.lines


def test_a_seat_s_second_wager_is_an_action_after_its_first() -> None:
    rnd = CrapsTable(CONFIG).roll([Bet(1, "pass", 1000, "ann"), Bet(1, "field", 100)], (1, 1))
    script = round_script(rnd)
    assert script["wagers"] == {"1": {"pass": "10.00", "player": "ann"}}
    assert script["actions"][0] == {"action": "bet", "seat": 1, "spot": "field", "amount": "1.00"}


def test_report_prints_the_roll_and_each_line_s_reason() -> None:
    t = CrapsTable(CONFIG)
    t.roll([Bet(1, "pass", 1000, "ann")], (3, 3))
    rnd = t.roll([Bet(1, "place_8", 1200)], (4, 4))
    text = report_text(rnd, symbols=False)
    assert "rolled 4 and 4 (8)" in text
    assert "8 came before a 7: pays 7 to 6; the wager stays up" in text
    assert "discard rack" not in text
    assert report(rnd)["layout"] == {"1": {"pass": 1000, "place_8": 1200}}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"layout": {"point": 7}}, "field 'layout': .*point must be one of 4, 5, 6, 8, 9, 10"),
        ({"layout": []}, "field 'layout' must be an object"),
        ({"wagers": {"1": {"pass": "10.00", "field": "1.00"}}}, "give one spot"),
        ({"wagers": {"1": {"place_7": "10.00"}}}, "a place bet is on 4, 5, 6, 8, 9 or 10"),
        ({"wagers": {"1": {"come": "10.00"}}}, "a come bet is made only after the come out"),
        ({"wagers": {"15": {"pass": "10.00"}}}, r"seat 15 does not exist \(seats are 1 to 14\)"),
    ],
)
def test_a_malformed_script_is_one_clear_error(change: dict[str, object], message: str) -> None:
    script = {"game": "craps", "table": {}, "wagers": {"1": {"pass": "10.00"}},
              "actions": [{"dealer": "no_more_bets"}, {"dealer": "roll", "die1": 3, "die2": 4}]}  # fmt: skip
    with pytest.raises(FeltError, match=message):
        run_script({**script, **change})


# ------------------------------------------------------------------- the carried layout checked
def layout_script(seat: dict[str, Any], point: int | None = 6, **layout: Any) -> dict[str, Any]:
    """A script of one roll (3 and 3) carrying ann's seat 1 as ``seat`` gives it."""
    carried = {"point": point, "shooter": 1, "seats": {"1": {"player": "ann", **seat}}, **layout}
    return {"game": "craps", "table": {}, "layout": carried, "wagers": {},
            "actions": [{"dealer": "no_more_bets"}, {"dealer": "roll", "die1": 3, "die2": 3}]}  # fmt: skip


def test_a_well_formed_carried_layout_is_played() -> None:
    """The layout the bad ones below change: pass $10 on the point 6 with $20 odds (1.6: 5x on a
    6 at 3-4-5x), place 8 $12 called off; 3 and 3 makes the point."""
    seat = {"wagers": {"pass": "10.00", "pass_odds": "20.00", "place_8": "12.00"},
            "calls": {"place_8": "off"}}  # fmt: skip
    rnd = run_script(layout_script(seat))
    assert isinstance(rnd, CrapsRound)
    assert [(x.wager, x.amount) for x in rnd.lines] == [("Pass", 1000), ("Odds on pass", 2400)]


PASS = {"pass": "10.00"}


@pytest.mark.parametrize(
    ("seat", "point", "message"),
    [
        ({"wagers": {**PASS, "place_8": "-12.00"}}, 6,
         r"place_8 -12\.00: a wager is a positive amount"),
        ({"wagers": {**PASS, "place_8": "0"}}, 6, r"place_8 0\.00: a wager is a positive"),
        ({"wagers": {**PASS, "place_8": "5.00"}}, 6,
         r"place_8 5\.00: .*7 to 6 and must be payable in full, a whole number of 0\.06 in all "
         r"\(N\.J\.A\.C\. 19:47-1\.4\); the 5\.00 carried is not"),
        ({"wagers": {**PASS, "pass_odds": "10.00"}}, None,
         r"pass_odds 10\.00: odds behind pass lie there only while a point is set .*1\.6"),
        ({"wagers": {"pass_odds": "10.00"}}, 6, r"pass_odds 10\.00: odds lie behind their flat "
         r"wager .*the seat has no pass"),
        ({"wagers": {**PASS, "come_5_odds": "10.00"}}, 6, r"the seat has no come_5"),
        ({"wagers": {**PASS, "come": "10.00"}}, 6, r"come 10\.00: a come wager lies in the "
         r"come area only until the next roll .*carry it on come_N"),
        ({"wagers": {**PASS, "dont_come": "10.00"}}, 6, r"dont_come 10\.00: .*come area is empty"),
        ({"wagers": PASS, "calls": {"pass": "off"}}, 6,
         r"pass cannot be called off: only standing wagers .*and odds can"),
        ({"wagers": PASS, "calls": {"place_6": "on"}}, 6,
         r"place_6 is called on, but the seat has no wager there"),
        ({"wagers": PASS, "calls": {"pass": "maybe"}}, 6, r'the call on pass is "on" or "off"'),
        ({"wagers": {}}, 6, r"wagers must be an object .*a seat with no wager .*left out"),
        ({"wagers": PASS, "hand": []}, 6, r"unknown keys \['hand'\]"),
        ({"wagers": {"place_7": "10.00"}}, 6, r"no craps wager 'place_7'"),
    ],
)  # fmt: skip
def test_a_carried_wager_the_table_would_refuse_is_one_clear_error_1_3_1_4_1_6(
    seat: dict[str, Any], point: int | None, message: str
) -> None:
    """A layout carried into a roll (a script's ``layout``, a table's snapshot) holds only what
    the table could have left there between rolls; the error names the seat, the spot and the
    amount and what is allowed."""
    with pytest.raises(
        FeltError, match=r"^field 'layout': craps roll origin: seat 1[ :].*" + message
    ):
        run_script(layout_script(seat, point))


ROLL = {"number": 1, "dice": [2, 4], "total": 6, "shooter": 1, "point_before": None}


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({k: v for k, v in ROLL.items() if k != "number"}, r"rolls\[0\]: give number, dice, "
         r"total .*missing \['number'\]"),
        ({**ROLL, "when": "now"}, r"rolls\[0\]: .*unknown \['when'\]"),
        ({**ROLL, "number": 0}, r"rolls\[0\]: number must be a whole number from 1, got 0"),
        ({**ROLL, "dice": [2, 9]}, r"rolls\[0\]: dice\[1\] must be a whole number 1 to 6"),
        ({**ROLL, "dice": 6}, r"rolls\[0\]: dice must be a list of two dice"),
        ({**ROLL, "total": 7}, r"rolls\[0\]: total must be the dice's sum 6, got 7"),
        ({**ROLL, "shooter": 21}, r"rolls\[0\]: shooter: 21 is not a seat \(1 to 14\)"),
        ({**ROLL, "point_before": 7}, r"rolls\[0\]: point_before must be one of 4, 5, 6, 8"),
        ("6", r"rolls\[0\] must be an object"),
    ],
)  # fmt: skip
def test_a_malformed_roll_of_the_carried_history_names_its_key(entry: Any, message: str) -> None:
    with pytest.raises(FeltError, match=r"^field 'layout': craps roll origin: " + message):
        run_script(layout_script({"wagers": PASS}, rolls=[entry]))
    assert run_script(layout_script({"wagers": PASS}, rolls=[ROLL])).finished  # the good one


def test_felt_replay_of_a_bad_layout_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the reviewer saw: -12.00 on place 8 was a traceback (exit 1); now one line, exit 2."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(layout_script({"wagers": {**PASS, "place_8": "-12.00"}})))
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("felt: error: ")
    assert err.count("\n") == 1
    assert "seat 1 place_8 -12.00: a wager is a positive amount" in err


def test_settling_a_win_of_a_fraction_of_a_cent_cannot_happen_1_4() -> None:
    """Every wager is checked payable in full when made or carried; were one not, the settlement
    raises rather than round the win down ($5 at 7 to 6 would be $5.83 1/3)."""
    rnd = run_script(layout_script({"wagers": {**PASS, "place_8": "6.00"}}))
    assert isinstance(rnd, CrapsRound)
    t = CrapsTable(CrapsConfig.from_mapping({}))
    t.roll([Bet(1, "pass", 1000, "ann")], (3, 3))
    bad = t.new_round()
    bad.seats[1].wagers["place_8"] = 500  # past every check: what the settlement must not round
    bad.apply(NoMoreBets())
    with pytest.raises(RuntimeError, match=r"cannot happen: place_8 5\.00 at 7 to 6"):
        bad.apply(Roll(4, 4))


# ------------------------------------------------------------------- the roll's record
def test_the_record_lists_every_wager_in_action_at_the_roll_not_what_is_left() -> None:
    """Pass $10 and field $5 bet, a place 8 $12 carried (off on the come out, 1.2(a)5); 3 and 3:
    the field loses (1.2(a)11), pass goes to the point 6, place 8 stays.  The record lists all
    three; the layout left after the roll is pass and place 8."""
    script = layout_script({"wagers": {"place_8": "12.00"}}, point=None)
    script["wagers"] = {"1": {"pass": "10.00", "player": "ann"}}
    script["actions"] = [{"action": "bet", "seat": 1, "spot": "field", "amount": "5.00"},
                         *script["actions"]]  # fmt: skip
    rnd = run_script(script)
    assert report(rnd)["seats"]["1"]["wagers"] == {"pass": 10.0, "field": 5.0, "place_8": 12.0}
    assert report(rnd)["layout"] == {"1": {"pass": 1000, "place_8": 1200}}
    assert [(x.wager, x.outcome) for x in rnd.lines] == [("Field", "lose")]


def test_the_wagers_at_one_roll_are_not_the_next_roll_s() -> None:
    t = CrapsTable(CONFIG)
    t.roll([Bet(1, "pass", 1000, "ann"), Bet(1, "field", 500)], (3, 3))
    rnd = t.new_round()
    assert rnd.seats[1].placed == {"pass": 1000}
    rnd.apply(Bet(1, "place_8", 1200))
    assert rnd.seats[1].placed == {"pass": 1000, "place_8": 1200}


def test_a_seat_of_the_table_s_own_count_is_a_seat_of_a_script() -> None:
    """Seat 15 is refused at the default table of 14 seats, and played at a table of 20."""
    script = {"game": "craps", "table": {"seats": 20}, "wagers": {"15": {"pass": "10.00"}},
              "actions": [{"dealer": "no_more_bets"}, {"dealer": "roll", "die1": 3, "die2": 4}]}  # fmt: skip
    assert [x.seat for x in run_script(script).lines] == [15]
