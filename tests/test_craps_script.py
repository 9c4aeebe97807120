"""Craps roll scripts: a script is one roll carrying the layout its table handed it; every roll
of a session written as a script and run again gives the same statement, ledger and layout
(oracle: the session as first played), and a malformed script is one clear error."""

from __future__ import annotations

import json

import pytest

from felt.cli.script import report, report_text, round_script, run_script
from felt.core.errors import FeltError
from felt.games.craps.actions import Bet
from felt.games.craps.config import CrapsConfig
from felt.games.craps.round import CrapsRound
from felt.games.craps.table import CrapsTable
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
        ({"wagers": {"99": {"pass": "10.00"}}}, "seat must be a number from 1 to 20"),
    ],
)
def test_a_malformed_script_is_one_clear_error(change: dict[str, object], message: str) -> None:
    script = {"game": "craps", "table": {}, "wagers": {"1": {"pass": "10.00"}},
              "actions": [{"dealer": "no_more_bets"}, {"dealer": "roll", "die1": 3, "die2": 4}]}  # fmt: skip
    with pytest.raises(FeltError, match=message):
        run_script({**script, **change})
