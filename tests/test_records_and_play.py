"""Issue 10, items 6, 7, 8 and 11: complete round records, a safe ``felt play``, seeds for tests
only, and help on every option."""

from __future__ import annotations

import argparse
import io
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from felt.cli.main import build_parser, main
from felt.cli.script import load_scripts, report, report_text, round_script, run_script
from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.games.boston.actions import PlaceWagers
from felt.games.boston.config import TableConfig
from felt.games.boston.play import play_session
from felt.games.boston.round import Round
from felt.games.boston.table import Table
from felt.games.double_down import (
    DoubleDownConfig,
    DoubleDownRound,
    DoubleDownTable,
    suggest_double,
)
from felt.games.double_down.actions import (
    DealerCut,
    DeclineCut,
    DoubleDown,
    PlaceBet,
    PlayerCut,
    Stand,
)
from felt.games.double_down.play import play_double_down
from felt.rounds.actions import Action
from felt.rounds.round_core import RoundCore
from felt.rounds.shuffle import SeededShuffle

BOSTON = {"game": "boston5", "minimum": "10.00", "maximum": "300.00", "decision_seconds": 45}
DOUBLE = {"minimum": "10.00", "double_down": "up-to", "areas": 6, "decision_seconds": 30}


def _boston_round() -> Round:
    from felt.games.boston.play import suggestion

    table = Table(TableConfig.from_mapping(BOSTON), SeededShuffle(3))
    table.rounds_since_count = 4  # the fifth round: its stub is counted
    rnd = table.new_round()
    assert rnd.stub_count_due
    rnd.apply(PlaceWagers(4, 1000, 2000, 500))
    rnd.apply(PlaceWagers(2, 1500, 3000, player="ann"))
    while not rnd.finished:
        pending = rnd.pending()
        if pending:
            rnd.apply(suggestion(rnd, *pending[0]))
        else:
            rnd.advance()
    return rnd


def _double_down_rounds() -> list[DoubleDownRound]:
    """Two rounds of a new game: area 5 wagers before area 2, so area 5 is offered the cut."""
    table = DoubleDownTable(DoubleDownConfig.from_mapping(DOUBLE), SeededShuffle(8))
    out = []
    for cut in (17, None):
        rnd = table.new_round()
        rnd.apply(PlaceBet(5, 1000))
        rnd.apply(PlaceBet(2, 2000, "bo"))
        while not rnd.finished:
            pending = rnd.pending()
            step: Action | None
            if pending:
                area, what = pending[0]
                if what == "cut or decline":
                    step = PlayerCut(area, cut) if cut else DeclineCut(area)
                else:
                    step = DoubleDown(area) if suggest_double(rnd, area) else Stand(area)
            else:
                step = rnd.next_dealer_action()
                if isinstance(step, DealerCut):
                    step = DealerCut(23)
            assert step is not None
            rnd.apply(step)
        table.finish(rnd)
        out.append(rnd)
    return out


def _same(a: RoundCore, b: RoundCore) -> None:
    assert a.events == b.events
    assert a.lines == b.lines
    assert report_text(a, symbols=False) == report_text(b, symbols=False)


def test_boston_report_fed_back_as_a_script_replays_exactly() -> None:
    rnd = _boston_round()
    record = json.loads(json.dumps(report(rnd)))
    script = record["script"]
    assert script["stub_count_due"] is True
    assert script["wager_order"] == [4, 2]
    assert script["table"]["minimum"] == "10.00"
    assert script["table"]["decision_seconds"] == 45
    again = run_script(record)  # the report itself is accepted
    _same(rnd, again)
    assert report(again) == report(rnd)


def test_double_down_report_fed_back_as_a_script_replays_exactly() -> None:
    first, second = _double_down_rounds()
    assert first.cut_offers()[0] == 5  # the first to the table, not the lowest area number
    for rnd in (first, second):
        record = json.loads(json.dumps(report(rnd)))
        assert record["script"]["wager_order"] == [5, 2]
        again = run_script(record["script"])
        _same(rnd, again)
    assert round_script(second)["new_game"] is False
    assert round_script(second)["last_offered"] == first.rotation


def test_round_replay_needs_only_the_record() -> None:
    """Round.replay / DoubleDownRound.replay from the record's fields alone."""
    from felt.core.money import cents
    from felt.games.registry import table_game

    rnd = _boston_round()
    rec = round_script(rnd)
    config = TableConfig.from_mapping(
        {**rec["table"], "game": rec["game"], "edition": rec["edition"]}
    )
    held = [(k, rec["wagers"][str(k)]) for k in rec["wager_order"]]
    wagers = [PlaceWagers(k, cents(w["ante"]), cents(w["first"]), cents(w.get("bonus", 0)),
                          w.get("player")) for k, w in held]  # fmt: skip
    actions = [*wagers, *(table_game("boston5").parse_action(e, "") for e in rec["actions"])]
    again = Round.replay(
        config, parse_cards(rec["deck"]), actions, stub_count_due=rec["stub_count_due"]
    )
    assert again.events == rnd.events

    dd = _double_down_rounds()[1]
    rec = round_script(dd)
    config_dd = DoubleDownConfig.from_mapping(rec["table"])
    bets = [PlaceBet(k, cents(rec["wagers"][str(k)]["wager"]), rec["wagers"][str(k)].get("player"))
            for k in rec["wager_order"]]  # fmt: skip
    actions = [*bets, *(table_game("double-down-stud").parse_action(e, "") for e in rec["actions"])]
    again_dd = DoubleDownRound.replay(config_dd, parse_cards(rec["deck"]), actions,
                                      new_game=rec["new_game"], last_offered=rec["last_offered"])  # fmt: skip
    assert again_dd.events == dd.events


def test_wager_order_must_list_every_wager_once() -> None:
    from felt.core.errors import FeltError

    script = round_script(_boston_round())
    with pytest.raises(FeltError, match="wager_order"):
        run_script({**script, "wager_order": [4]})


# ------------------------------------------------------------------------------- felt play
def _scripted(answers: list[str], prompts: list[str]) -> Callable[[str], str]:
    it: Iterator[str] = iter(answers)

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(it)

    return ask


def test_play_reasks_a_typo_and_never_takes_it_as_a_choice() -> None:
    prompts: list[str] = []
    out: list[str] = []
    # round 1: ante, bonus 1, a typo at the exposure ("x"), then n; a typo at second-or-fold
    # ("fodl": once a forfeit), then s
    ask = _scripted(["5", "1", "x", "n", "fodl", "s", "q"], prompts)
    t = play_session(TableConfig.from_mapping({"game": "boston5"}), seed=5, ask=ask, say=out.append,
                     symbols=False)  # fmt: skip
    assert t.rounds_played == 1
    assert sum("please answer y or n" in line for line in out) == 1
    assert sum("please answer s or f" in line for line in out) == 1
    rnd = t.history[0]
    assert rnd.seats[1].status == "settled"  # the typo did not fold
    assert any(p.startswith("expose") for p in prompts[3:4])


def test_play_question_mark_explains_the_decision() -> None:
    out: list[str] = []
    ask = _scripted(["5", "1", "?", "y", "?", "s", "q"], [])
    play_session(TableConfig.from_mapping({"game": "boston5"}), seed=5, ask=ask, say=out.append,
                 symbols=False)  # fmt: skip
    text = "\n".join(out)
    assert "Expose (y)" in text
    assert "Decline (n)" in text
    assert "house's suggested play" in text
    assert "optional bonus pays:" in text
    assert "ante bonus pays:" in text
    assert "your hand now: " in text
    assert "Fold (f): forfeit your ante and first wager" in text


def test_play_double_down_question_mark_and_typo() -> None:
    out: list[str] = []
    prompts: list[str] = []
    ask = _scripted(["10", "", "?", "dbl", "s", "q"], prompts)
    t = play_double_down(DoubleDownConfig.from_mapping({"shuffling": "shuffler"}), seats=2, seed=3,
                         ask=ask, say=out.append, symbols=False)  # fmt: skip
    text = "\n".join(out)
    assert "Double down (d)" in text
    assert "your four cards now:" in text
    assert "pays:" in text
    assert "please answer d or s" in text
    assert t.history[0].seats[1].doubled is False


def test_play_shows_balance_marks_the_seat_and_fits_80_columns() -> None:
    out: list[str] = []
    prompts: list[str] = []
    ask = _scripted(["5", "1", "?", "y", "?", "s", "", "0", "f", "q"], prompts)
    play_session(TableConfig.from_mapping({"game": "boston5"}), seats=6, human=3, seed=5,
                 ask=ask, say=out.append, symbols=True)  # fmt: skip
    assert any("balance" in line for line in out)
    assert any(line.startswith("seat 3 (you)") for line in out)
    assert all(len(line) <= 80 for line in out + prompts), max(out + prompts, key=len)
    assert not any("19:47-24.1" in line for line in out)  # no clause on every line
    out_cite: list[str] = []
    play_session(TableConfig.from_mapping({"game": "boston5"}), seed=5, rounds=1, cite=True,
                 ask=_scripted(["5", "0", "s"], []), say=out_cite.append)  # fmt: skip
    assert any(line.startswith("      [") and "19:47-24.10" in line for line in out_cite)


_CARD = re.compile(r"(?<![\w])(?:10|[2-9TJQKA])[cdhs](?![\w])")


def _shown_cards(lines: list[str]) -> set[Card]:
    return {parse_cards([m])[0] for line in lines for m in _CARD.findall(line)}


def test_play_never_shows_a_folded_hand_of_another_seat_or_the_stub(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import felt.games.boston.play as play

    monkeypatch.setattr(play, "suggest_second", lambda three: False)  # the other seats fold
    out: list[str] = []
    answers = ["5", "0", "s"] * 3
    t = play_session(TableConfig.from_mapping({"game": "boston5"}), seats=4, seed=9, rounds=3,
                     ask=_scripted(answers, []), say=out.append, symbols=False)  # fmt: skip
    chunks = "\n".join(out).split("--- round ")[1:]
    assert len(chunks) == 3
    for rnd, chunk in zip(t.history, chunks, strict=True):
        held = {c for s in rnd.seats.values() for c in s.cards} | set(rnd.dealer_cards)
        stub = set(ALL_CARDS) - held
        folded = {
            c for n, s in rnd.seats.items() if n != 1 and s.status == "folded" for c in s.cards
        }
        assert folded, "the other seats folded"
        shown = _shown_cards(chunk.split("\n"))
        assert shown, "the player is shown cards"
        assert not shown & (stub | folded)


def test_play_keyboard_interrupt_prints_the_summary() -> None:
    out: list[str] = []
    answers = iter(["5", "0", "s"])

    def ask(_: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    t = play_session(TableConfig.from_mapping({"game": "boston5"}), seed=2, ask=ask, say=out.append)
    assert t.rounds_played == 1
    assert out[-1].startswith("goodbye: 1 round(s), session result")


def test_play_rounds_below_one_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "boston5", "--rounds", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "--rounds must be 1 or more" in err


def test_play_seed_warns_and_end_of_input_ends_cleanly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "boston5", "--seed", "4"]) == 0
    captured = capsys.readouterr()
    assert "for replays and tests only" in captured.err
    assert "goodbye: 0 round(s)" in captured.out


def test_play_save_writes_scripts_that_replay_identically(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "session.json"
    t = play_session(TableConfig.from_mapping(BOSTON), seats=3, human=2, seed=6, rounds=2, save=path,
                     ask=_scripted(["10", "1", "", "", "10", "0", ""], []), say=lambda _: None)  # fmt: skip
    scripts = load_scripts(path)
    assert len(scripts) == 2
    for rnd, script in zip(t.history, scripts, strict=True):
        _same(rnd, run_script(script))
    dd_path = tmp_path / "dd.json"
    d = play_double_down(DoubleDownConfig.from_mapping(DOUBLE), seats=3, human=4, seed=2,
                         rounds=2, save=dd_path, ask=_scripted(["10", "", "", "10", "", ""], []),
                         say=lambda _: None)  # fmt: skip
    for dd, script in zip(d.history, load_scripts(dd_path), strict=True):
        _same(dd, run_script(script))
    assert main(["replay", str(path)]) == 0
    capsys.readouterr()
    assert main(["replay", str(dd_path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [r["script"] for r in printed] == [round_script(r) for r in d.history]


def test_real_play_uses_the_system_shuffle() -> None:
    from felt.rounds.shuffle import SystemShuffle

    t = play_session(TableConfig.from_mapping({"game": "boston5"}), ask=_scripted(["q"], []),
                     say=lambda _: None)  # fmt: skip
    assert isinstance(t.shuffler, SystemShuffle)
    d = play_double_down(DoubleDownConfig.from_mapping({}), ask=_scripted(["q"], []),
                         say=lambda _: None)  # fmt: skip
    assert isinstance(d.shuffler, SystemShuffle)
    assert isinstance(Table(TableConfig.from_mapping({"game": "boston5"})).shuffler, SystemShuffle)
    assert isinstance(DoubleDownTable(DoubleDownConfig.from_mapping({})).shuffler, SystemShuffle)


# ------------------------------------------------------------------------------- help
def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


@pytest.mark.parametrize("name", sorted(_subparsers()))
def test_every_option_has_help_and_a_default_and_each_command_an_example(name: str) -> None:
    sub = _subparsers()[name]
    text = sub.format_help()
    assert "example" in text
    assert f"felt {name}" in text.split("example", 1)[1]
    flat = " ".join(text.split())
    for action in sub._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help is not None, f"{name}: {action.dest} has no help"
        assert action.help
        if action.option_strings:
            shown = sub._get_formatter()._get_help_string(action) or ""
            assert "(default" in shown or "required" in shown, f"{name} {action.option_strings}"
            assert action.option_strings[-1] in text
        assert " ".join(action.help.split()[:3]) in flat
