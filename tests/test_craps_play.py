"""``felt play craps`` (issue 23): a terminal session scripted with ``ask``/``say`` and fixed
dice: wagers put on, odds taken behind the line, taken down, called on and off between rolls;
each roll printed with the shooter, the dice, the point, and the person's statement lines with
their clauses of N.J.A.C. 19:47-1; a refused command prints one clear error and changes
nothing."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from felt.cli.main import main
from felt.cli.script import load_scripts, run_script
from felt.core.errors import FeltError
from felt.games.craps.config import CrapsConfig
from felt.games.craps.dice import FixedDice
from felt.games.craps.play import play
from felt.games.craps.round import CrapsRound
from felt.games.craps.table import CrapsTable


def scripted(commands: list[str], prompts: list[str]) -> Callable[[str], str]:
    """The commands in turn; then end of input (the session ends)."""
    queue: Iterator[str] = iter(commands)

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(queue)
        except StopIteration:
            raise EOFError from None

    return ask


def session(
    commands: list[str], throws: list[tuple[int, int]], settings: dict[str, Any] | None = None,
    **options: Any,
) -> tuple[CrapsTable, list[str], list[str]]:  # fmt: skip
    shown: list[str] = []
    prompts: list[str] = []
    table = play(CrapsConfig.from_mapping(settings or {}),
                 {"ask": scripted(commands, prompts), "say": shown.append,
                  "dice": FixedDice(throws), **options})  # fmt: skip
    return table, shown, prompts


def test_1_2_a_1_pass_wins_on_a_come_out_7_and_the_line_is_printed_with_its_clause() -> None:
    table, shown, _ = session(["bet pass 10", "roll"], [(3, 4)])
    text = "\n".join(shown)
    assert "roll 1: seat 1 throws 3 and 4: 7 (a natural)" in text
    assert "    Pass 10.00  win  3 and 4  at 1 to 1  +10.00" in shown
    assert "      [N.J.A.C. 19:47-1.2(a)1]" in shown
    assert "your result so far +10.00" in shown
    assert shown[-1] == "goodbye: 1 roll(s), session result +10.00"
    assert table.layout() == {}


def test_1_6_odds_behind_pass_and_place_6_through_a_point_cycle() -> None:
    # come out 4 (point 4), odds 30 behind a $10 pass (3x on 4); place 6 $12 works on the point:
    # 3+3 pays 14.00 (7 to 6, by hand 12 x 7/6) and stays up; 2+2 makes the point: pass +10.00,
    # odds 30 at 2 to 1 +60.00.
    table, shown, _ = session(
        ["bet pass 10", "roll", "odds 30", "bet place_6 12", "roll", "roll"],
        [(1, 3), (3, 3), (2, 2)],
    )
    assert "roll 1: seat 1 throws 1 and 3: 4 (the point is 4)" in shown
    assert "  Odds on pass: 30.00 on the layout" in shown
    assert "    Place 6 to win 12.00  win  3 and 3  at 7 to 6  +14.00" in shown
    assert "    Odds on pass 30.00  win  2 and 2  at 2 to 1  +60.00" in shown
    assert "      [N.J.A.C. 19:47-1.6]" in shown
    assert "    Pass 10.00  win  2 and 2  at 1 to 1  +10.00" in shown
    assert any("the point 4 is made" in line for line in shown)
    assert (
        "your wagers on the layout: Pass 10.00; Odds on pass 30.00; Place 6 to win 12.00" in shown
    )
    assert table.layout() == {1: {"place_6": 1200}}
    assert shown[-1] == "goodbye: 3 roll(s), session result +84.00"


def test_1_3_a_refused_command_prints_one_error_and_the_layout_stays() -> None:
    # pass after the point is a contract wager; place 6 $5 is not payable in full at 7 to 6
    table, shown, _ = session(
        ["bet pass 10", "roll", "down pass", "bet place_6 5", "bet place_7 6", "odds", "bet",
         "fly away", "layout"],
        [(5, 5)],
    )  # fmt: skip
    errors = [line for line in shown if line.startswith("  ") and ":" in line]
    assert any("contract wager" in line for line in errors)
    assert any("payable in full" in line for line in shown)
    assert any("no craps wager 'place_7': a place bet is on 4, 5, 6, 8, 9 or 10" in line
               for line in shown)  # fmt: skip
    assert any("odds: usage 'odds [LINE] AMOUNT'" in line for line in shown)
    assert any("bet: usage 'bet SPOT AMOUNT'" in line for line in shown)
    assert any("unknown command 'fly' (allowed: bet, odds, down, on, off" in line for line in shown)
    assert "  seat 1 (you): Pass 10.00" in shown
    assert table.layout() == {1: {"pass": 1000}}


def test_1_2_a_5_place_bets_are_off_on_the_come_out_roll_unless_called_on() -> None:
    # place 8 off on the come out: a come out 8 decides nothing; place 6 called on wins on 6
    table, shown, _ = session(
        ["bet pass 10", "bet place_8 12", "bet place_6 12", "on place_6", "layout", "roll",
         "roll"],
        [(4, 4), (3, 3)],
    )  # fmt: skip
    assert "  seat 1 (you): Pass 10.00; Place 8 to win 12.00 (off); Place 6 to win 12.00" in shown
    assert "  Place 6 to win: called on" in shown
    assert not any("Place 8 to win 12.00  win" in line for line in shown)
    assert "    Place 6 to win 12.00  win  3 and 3  at 7 to 6  +14.00" in shown
    assert table.layout()[1]["place_8"] == 1200


def test_1_11_no_roll_without_a_shooter_and_the_house_seats_keep_a_pass_wager() -> None:
    _, shown, _ = session(["bet field 5", "roll"], [(6, 6)])
    assert any("no roll yet: waiting for a shooter: a pass or don't pass wager" in x for x in shown)
    _, shown, prompts = session(["bet field 5", "roll"], [(6, 6)], seats=3, human=2)
    assert prompts[0] == "roll 1 (come out roll, shooter seat 1) > "
    assert "    Field 5.00  win  6 and 6  at 2 to 1  +10.00" in shown
    assert "  seat 1: -5.00" in shown
    assert "  seat 3: -5.00" in shown


def test_1_11_the_shooter_may_decline_the_dice() -> None:
    _, shown, prompts = session(["bet pass 10", "decline", "roll"], [(3, 4)], seats=2, human=1)
    assert prompts[1] == "roll 1 (come out roll, shooter seat 1) > "
    assert "  you pass the dice" in shown
    assert prompts[2] == "roll 1 (come out roll, shooter seat 2) > "
    assert "roll 1: seat 2 throws 3 and 4: 7 (a natural)" in shown


def test_take_down_and_reduce_between_rolls() -> None:
    table, shown, _ = session(
        ["bet pass 10", "bet place_lose_4 22", "down place_lose_4 11", "bet hard_8 5",
         "down hard_8", "off place_lose_4", "roll"],
        [(3, 4)],
    )  # fmt: skip
    assert "  Place 4 to lose: 11.00 taken down" in shown
    assert "  Hard 8: all taken down" in shown
    assert "  Place 4 to lose: called off" in shown
    assert not any("Place 4 to lose 11.00  win" in line for line in shown)
    assert table.layout() == {1: {"place_lose_4": 1100}}


def test_rounds_stops_after_that_many_rolls_and_help_lists_every_command() -> None:
    _, shown, _ = session(["help", "bet pass 10", "roll", "roll", "roll"], [(2, 2), (5, 6),
                          (1, 1)], rounds=2)  # fmt: skip
    for word in ("bet SPOT AMOUNT", "odds [LINE] AMOUNT", "down SPOT", "on SPOT / off SPOT",
                 "decline", "roll", "layout", "spots", "help", "quit"):  # fmt: skip
        assert any(line.startswith(f"  {word}") for line in shown), word
    assert shown[-1].startswith("goodbye: 2 roll(s)")
    assert all(len(line) <= 80 for line in shown)


def test_a_seeded_session_is_repeatable_and_felt_play_options_are_read() -> None:
    def run() -> list[str]:
        shown: list[str] = []
        play(CrapsConfig.from_mapping({}),
             {"seats": 2, "seat": 2, "seed": 11, "ask": scripted(["bet pass 5"] + ["roll"] * 6,
                                                               []),
              "say": shown.append})  # fmt: skip
        return shown

    assert run() == run()
    with pytest.raises(FeltError, match="--seats and --seat must be 1 to 14"):
        play(CrapsConfig.from_mapping({}), {"seats": 1, "seat": 15})


def test_felt_play_craps_on_the_terminal_and_its_bad_input_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("bet pass 10\nbet place_6 5\nroll\nquit\n"))
    assert main(["play", "craps", "--seed", "5", "--seats", "2", "--seat", "2"]) == 0
    out, err = capsys.readouterr()
    assert "seeded with 5: for replays and tests only; these dice can be predicted" in err
    assert "You are seat 2; the house plays seat 1 (pass at the minimum)." in out
    assert "payable in full" in out
    assert "roll 1: seat 1 throws " in out
    assert "goodbye: 1 roll(s)" in out
    assert main(["play", "craps", "--seat", "15"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("felt: error: ")
    assert captured.err.count("\n") == 1
    assert "--seats and --seat must be 1 to 14" in captured.err


def test_felt_guide_for_craps(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["guide", "--game", "craps"]) == 0
    assert capsys.readouterr().out.startswith("# Craps: the patron's guide\n")


def test_save_writes_one_script_per_roll_with_its_dice(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    session(["bet pass 10", "roll", "bet place_8 12", "roll"], [(2, 3), (4, 4)], save=path)
    scripts = load_scripts(path)
    assert [s["actions"][-1] for s in scripts] == [
        {"dealer": "roll", "die1": 2, "die2": 3},
        {"dealer": "roll", "die1": 4, "die2": 4},
    ]
    assert scripts[0]["wagers"]
    assert scripts[1]["wagers"]
    first = run_script(scripts[0])
    assert isinstance(first, CrapsRound)
    assert first.point == 5


def test_every_saved_roll_replays_a_roll_with_no_new_wager_too(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    session(["bet pass 10", "roll", "roll"], [(2, 3), (4, 4)], save=path)
    for script in load_scripts(path):
        assert run_script(script).finished


def test_felt_play_help_gives_the_seats_as_the_table_s_not_one_to_six(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A craps table seats 14 by default (up to 20): the shared help names no fixed range."""
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "1-6" not in out
    assert "seats in play, yours included (1 to the table's seats" in out
