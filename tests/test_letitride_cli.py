"""``felt play let_it_ride`` (issue 22): a terminal session with help, scripted here with
``ask``/``say``: three equal wagers and the bonus wagers, take back or let ride wagers 1 and 2
(18.1 "Let it ride"), each community card shown only once the dealer turns it and the burned
card never (18.1 "Community card"), the suggested play on enter; ``felt rules``, ``felt
analyze`` and ``felt replay`` of a round script; bad input is one clear error and exit 2."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from felt.cli.main import main
from felt.cli.script import run_script
from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.core.errors import FeltError
from felt.games.let_it_ride import play as play_module
from felt.games.let_it_ride.config import LetItRideConfig
from felt.games.let_it_ride.game import GAME
from felt.games.let_it_ride.play import play
from felt.games.let_it_ride.round import stacked_deck
from felt.games.let_it_ride.table import LetItRideTable

ID = "let_it_ride"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "table-let-it-ride.toml"


def scripted(answers: dict[str, list[str]], prompts: list[str]) -> Callable[[str], str]:
    """Answers by the start of the prompt (each list used in turn; enter once a list is used
    up); a prompt no key matches is answered with enter (the suggested play)."""
    queues: dict[str, Iterator[str]] = {k: iter(v) for k, v in answers.items()}

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        for start, queue in queues.items():
            if prompt.startswith(start):
                return next(queue, "")
        return ""

    return ask


def session(
    settings: dict[str, Any], answers: dict[str, list[str]], **options: Any
) -> tuple[LetItRideTable, list[str], list[str]]:
    shown: list[str] = []
    prompts: list[str] = []
    table = play(LetItRideConfig.from_mapping(settings),
                 {"seed": 7, "symbols": False, "ask": scripted(answers, prompts),
                  "say": shown.append, **options})  # fmt: skip
    return table, shown, prompts


class Stacked:
    """A "shuffle" that deals :attr:`deck` (a stacked deck), for the seed a session gives."""

    deck: Sequence[Card] = ALL_CARDS

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def shuffle(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        return tuple(self.deck)

    def below(self, n: int) -> int:
        return 0


def test_18_1_a_scripted_session_with_help_a_typo_and_saved_rounds(tmp_path: Path) -> None:
    """Two rounds at seat 3 beside another seat the house plays: ``?`` explains a decision, a
    typo is asked again (never taken as a choice), enter takes the suggestion; wager 1 and
    wager 2 are each decided in turn, wager $ never asked; every line within 80 columns; the
    saved rounds replay exactly."""
    save = tmp_path / "rounds.json"
    answers = {
        "seat 3 each wager": ["10", ""],
        "let it ride bonus": ["?", "y", "n"],
        "three card bonus": ["2.50", "5", ""],
        "wager 1:": ["?", "x", "t", "r"],
        "wager 2:": ["r", "t"],
    }
    table, shown, prompts = session({}, answers, seats=2, human=3, rounds=2, save=str(save))
    text = "\n".join(shown)
    assert all(len(line) <= 80 for line in shown), [x for x in shown if len(x) > 80]
    assert "please answer r or t" in text
    assert "is the house's suggested play" in text
    assert "Take (t): take wager 1 back now; wager 2 and wager $ stay" in text
    assert "the three card bonus is whole dollars" in text  # 2.50 asked again
    assert "    royal flush                   1000 to 1" in text
    assert "    mini royal                    50 to 1" in text
    assert "goodbye: 2 round(s)" in text
    assert [p for p in prompts if p.startswith("seat 3 each wager")] == [
        "seat 3 each wager (1, 2, $) [5.00]: ", "seat 3 each wager (1, 2, $) [10.00]: "]  # fmt: skip
    assert [p for p in prompts if p.startswith("three card bonus")] == [
        "three card bonus (your own three cards) [0 = none]: ",
        "three card bonus (your own three cards) [0 = none]: ",
        "three card bonus (your own three cards) [5.00]: ",  # the last amount placed
    ]
    assert not any("wager 3" in p or "wager $" in p for p in prompts)  # $ always stays
    first, second = table.history
    assert first.seats[3].placed == {"first": 1000, "second": 1000, "third": 1000, "bonus": 100,
                                     "three_card_bonus": 500}  # fmt: skip
    assert first.seats[3].decisions == {"first": "take back", "second": "let it ride"}
    assert second.seats[3].decisions == {"first": "let it ride", "second": "take back"}
    assert second.seats[3].placed == {"first": 1000, "second": 1000, "third": 1000,
                                      "three_card_bonus": 500}  # fmt: skip
    assert set(first.seats) == {1, 3}  # seat 1 played by the house beside the person
    records = json.loads(save.read_text())
    assert len(records) == 2
    for record, rnd in zip(records, table.history, strict=True):
        assert record["game"] == ID
        again = run_script(record)  # a saved round is a round script felt replay reads
        assert again.finished
        assert again.lines == rnd.lines


def test_18_1_community_cards_shown_only_once_turned_the_burn_card_never(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stacked deck deals the person A-K-Q of spades, burns 2c and gives J and 10 of spades as
    the community cards: before the dealer turns card 1 the person sees two face-down community
    cards; card 1 appears first in the line that turns it, card 2 likewise; the burn card is
    never shown.  Both wagers ride (the suggested play on a royal flush draw), and the royal
    flush pays by the posted tables, worked out here by hand: three $5.00 wagers at 1,000 to 1
    (greatblueheroncasino.com), the $1.00 bonus at 20,000 to 1 and a $5.00 three card bonus on
    a mini royal at 50 to 1 (table-games-online.com): 15,000 + 20,000 + 250 = $35,250.00."""
    hand, community, burn = parse_cards("As Ks Qs"), parse_cards("Js Ts"), parse_cards("2c")[0]
    Stacked.deck = stacked_deck([hand], community, burn)
    monkeypatch.setattr(play_module, "SeededShuffle", Stacked)
    answers = {"let it ride bonus": ["y"], "three card bonus": ["5"]}
    table, shown, _ = session({}, answers, rounds=1)
    text = "\n".join(shown)
    assert "2c" not in text.split()
    assert "2c" not in text.replace(":", " ").replace(",", " ").split()
    turn1 = text.index("the dealer turns community card 1: Js")
    turn2 = text.index("the dealer turns community card 2: Ts")
    assert "Js" not in text[:turn1]
    assert "Ts" not in text[:turn2]
    assert text.index("community cards ?? ??") < turn1 < text.index("community cards Js ??") < turn2
    (rnd,) = table.history
    assert rnd.seats[1].decisions == {"first": "let it ride", "second": "let it ride"}
    assert "your result this round +35250.00" in text
    assert "royal flush" in text


def test_18_11_the_payout_limit_cuts_the_third_wager_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three $100.00 wagers on a royal flush at a table whose limit is the least it may post
    ($50,000, or the most three minimum wagers could win: 3 x $5 x 1,000 = $15,000): the three
    would win $100,000 each, $300,000 in all; the $250,000 over the limit is withheld from
    wager $ ($100,000), then wager 2 ($100,000), then wager 1 ($50,000): $50,000.00 in all
    (18.11, decisions.md 7)."""
    Stacked.deck = stacked_deck([parse_cards("As Ks Qs")], parse_cards("Js Ts"))
    monkeypatch.setattr(play_module, "SeededShuffle", Stacked)
    answers = {"seat 1 each wager": ["100"], "let it ride bonus": ["n"], "three card bonus": ["0"]}
    table, shown, _ = session({}, answers, rounds=1)
    (rnd,) = table.history
    paid = {line.wager: (line.amount, line.limit_reduction) for line in rnd.lines}
    assert paid == {"first": (5000000, 5000000), "second": (0, 10000000), "third": (0, 10000000)}
    text = " ".join(" ".join(shown).split())  # the lines as wrapped at 80 columns, rejoined
    assert "your result this round +50000.00" in text
    assert "second 100.00 win royal flush at 1000 to 1 0.00 (reduced by 100000.00" in text
    assert "first 100.00 win royal flush at 1000 to 1 +50000.00 (reduced by 50000.00" in text


def test_18_5_a_hand_shuffled_table_is_cut_where_the_table_cuts() -> None:
    table, _, _ = session({"shuffling": "manual"}, {}, rounds=2)
    for rnd in table.history:
        assert len(rnd.cut_positions) == 1
        assert 10 <= rnd.cut_positions[0] <= 42


def test_a_table_without_bonus_wagers_asks_only_the_three_wagers() -> None:
    table, shown, prompts = session({"bonus": False, "three_card_bonus": False}, {}, rounds=1)
    assert not any("bonus" in p for p in prompts)
    assert "bonus" not in "\n".join(shown[:6])
    (rnd,) = table.history
    assert set(rnd.seats[1].placed) == {"first", "second", "third"}


def test_q_leaves_and_the_end_of_input_ends_cleanly() -> None:
    config = LetItRideConfig.from_mapping({})
    shown: list[str] = []
    quit_answers = iter(["q"])
    play(config, {"ask": lambda prompt: next(quit_answers), "say": shown.append})
    assert shown[-1] == "goodbye: 0 round(s), session result 0.00"

    def eof(prompt: str) -> str:
        raise EOFError

    play(config, {"ask": eof, "say": shown.append})
    assert shown[-1] == "goodbye: 0 round(s), session result 0.00"


def test_a_bad_play_option_or_seat_is_one_clear_error() -> None:
    config = LetItRideConfig.from_mapping({})
    with pytest.raises(FeltError, match=r"unknown play option 'colour' \(allowed: seats, "):
        play(config, {"colour": "red"})
    with pytest.raises(FeltError, match=r"seat 8 does not exist \(seats are 1 to 7\)"):
        play(config, {"human": 8})
    with pytest.raises(FeltError, match="rounds must be 1 or more"):
        play(config, {"rounds": 0})


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", ID, "--seats", "9"], "--seats and --seat must be 1 to 7"),
        (["play", ID, "--seat", "0"], "--seats and --seat must be 1 to 7"),
        (["play", ID, "--rounds", "0"], "--rounds must be 1 or more"),
        (["play", ID, "--edition", "nj-19-47-24"], "--edition does not apply to let_it_ride"),
        (["analyze", ID, "--ante", "1000"], "1000"),
    ],
)
def test_felt_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("felt: error: ")
    assert captured.err.count("\n") == 1
    assert message in captured.err
    assert "Traceback" not in captured.err


def test_felt_play_a_bad_table_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.toml"
    path.write_text('game = "let_it_ride"\n[pays]\n"royal flush" = "500 to 1"\n')
    assert main(["play", ID, "--table", str(path), "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "'royal flush' pays 500 to 1, less than the minimum 1000 to 1" in err


def test_felt_play_through_the_command_line_with_the_example_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``felt play let_it_ride --table examples/table-let-it-ride.toml`` reads its answers from
    standard input; the end of input leaves with the summary; a seeded session is noted on
    standard error."""
    monkeypatch.setattr("sys.stdin", io.StringIO("25\ny\n0\nr\nt\n"))
    assert main(["play", ID, "--table", str(EXAMPLE), "--seed", "4", "--seats", "3"]) == 0
    captured = capsys.readouterr()
    assert "for replays and tests only" in captured.err
    assert "Let It Ride Poker under N.J.A.C. 19:47-18" in captured.out
    assert "three equal wagers (1, 2 and $) of 10.00 to 500.00 each" in captured.out
    assert "goodbye: 1 round(s)" in captured.out


def test_the_game_interface_plays_through_the_same_session() -> None:
    """``GAME.play`` with ``felt play``'s options (seat, seats) reaches this session."""
    answers = iter(["", "n", "", "t", "t"])
    shown: list[str] = []
    GAME.play(GAME.config(ID, {}), {"seats": 2, "seat": 2, "seed": 3, "rounds": 1,
                                    "ask": lambda prompt: next(answers), "say": shown.append})  # fmt: skip
    assert "You are seat 2." in "\n".join(shown)
    # wagers 1 and 2 taken back: wager $ alone is won or lost, $5.00 either way
    assert shown[-1].split("session result ")[1] in ("-5.00", "+5.00", "+10.00", "+15.00")


def test_felt_rules_and_felt_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    """``felt rules let_it_ride`` prints the register with no gap; ``felt analyze let_it_ride``
    prints the par sheet: the return at felt's minimum table is the published -3.50568% per
    unit (Wizard of Odds, wizardofodds.com/games/let-it-ride/)."""
    assert main(["rules", ID]) == 0
    out = capsys.readouterr().out
    assert "0 gap" in out
    assert main(["analyze", ID, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)
    assert main(["analyze", ID]) == 0
    out = capsys.readouterr().out
    assert "house edge per wager                    3.5057%" in out


def test_felt_replay_of_a_round_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A round script (the cards, the wagers, the decisions and the dealer's turns) replays to
    its settlement; the burned card is named only in the discard rack, as the record's; a
    decision after its moment is one line and exit 2."""
    script: dict[str, Any] = {
        "game": ID,
        "table": {"minimum": "5.00", "maximum": "100.00"},
        "deck": ["9h", "2c", "9d", "Js", "4c", "Ts"],
        "wagers": {"1": {"amount": "10.00", "bonus": "1.00"}},
        "actions": [
            {"seat": 1, "action": "take_back", "wager": 1},
            {"dealer": "turn"},
            {"seat": 1, "action": "let_it_ride", "wager": 2},
            {"dealer": "turn"},
        ],
    }
    path = tmp_path / "round.json"
    path.write_text(json.dumps(script))
    assert main(["replay", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    # 9h 9d 4c + Js Ts: a pair of nines, below tens: wagers 2 and $ lose, 1 was taken back
    assert report["seats"]["1"]["net_cents"] == -2100
    assert report["dealer"]["community"] == ["Js", "Ts"]
    assert report["discard_rack"][0] == {"what": "burn card, unseen", "cards": ["2c"]}
    late = {**script, "actions": [*script["actions"][:2], {"seat": 1, "action": "take_back",
                                                            "wager": 1}]}  # fmt: skip
    path.write_text(json.dumps(late))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "cannot take back wager 1 now (its moment has passed" in err
    assert "wager 2 may be decided now" in err
