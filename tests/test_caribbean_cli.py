"""``felt play caribbean_stud`` (issue 21 item 5): a terminal session with help, scripted here with
``ask``/``say``; the session's own progressive meter, starting at the seed, fills the settlement's
``meter`` (19:47-16.11, 16.12); what the person sees before the reveal is their own five cards
and the dealer's one face-up card (16.1 "Hole card"); bad input is one clear error and exit 2."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from felt.cli.main import main
from felt.cli.script import run_script
from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.core.errors import FeltError
from felt.core.ranking import Category, five_card_key
from felt.games.caribbean_stud import play as play_module
from felt.games.caribbean_stud.actions import Settle, Wagers
from felt.games.caribbean_stud.config import CaribbeanConfig
from felt.games.caribbean_stud.game import GAME
from felt.games.caribbean_stud.play import play
from felt.games.caribbean_stud.table import CaribbeanTable

ID = "caribbean_stud"
SEED = 1_000_000  # $10,000.00, felt's default reset amount
QUARTER = 25  # 25% of the $1.00 progressive wager goes onto the meter


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
) -> tuple[CaribbeanTable, list[str], list[str]]:
    shown: list[str] = []
    prompts: list[str] = []
    table = play(CaribbeanConfig.from_mapping(settings),
                 {"seed": 7, "symbols": False, "ask": scripted(answers, prompts),
                  "say": shown.append, **options})  # fmt: skip
    return table, shown, prompts


def settlement(rnd: Any) -> Settle:
    found = [a for a in rnd.actions if isinstance(a, Settle)]
    assert len(found) == 1
    return found[0]


def test_16_1_a_scripted_session_with_help_a_typo_and_saved_rounds(tmp_path: Path) -> None:
    """Two rounds at seat 3 with another seat auto-played: ``?`` explains the bet or fold, a typo
    is asked again (never taken as a choice), enter takes the suggestion; every line within 80
    columns; the saved rounds replay exactly; the bet wager is twice the ante."""
    save = tmp_path / "rounds.json"
    answers = {"seat 3 ante": ["10", ""], "progressive wager": ["?", "y"],
               "bet or fold?": ["?", "x", "b", "f"]}  # fmt: skip
    table, shown, prompts = session({}, answers, seats=2, human=3, rounds=2, save=str(save))
    text = "\n".join(shown)
    assert all(len(line) <= 80 for line in shown)
    assert "please answer b or f" in text
    assert "is the house's suggested play" in text
    assert "place a bet wager of 20.00, twice your ante" in text
    assert "  bet wager pays (a qualifying dealer beaten):" in text
    assert "royal flush                   100 to 1" in text
    assert "straight flush                10% of the meter" in text
    assert "goodbye: 2 round(s)" in text
    assert [p for p in prompts if p.startswith("seat 3 ante")] == [
        "seat 3 ante [5.00]: ", "seat 3 ante [10.00]: "]  # fmt: skip
    assert [p for p in prompts if p.startswith("progressive")] == [
        "progressive wager 1.00? (y = yes, n = no, ? = help) [n]: ",  # ? explains, asks again
        "progressive wager 1.00? (y = yes, n = no, ? = help) [n]: ",
        "progressive wager 1.00? (y = yes, n = no, ? = help) [y]: ",  # the last answer
    ]
    first, second = table.history
    assert first.seats[3].decision == "bet"
    assert first.seats[3].placed == {"ante": 1000, "progressive": 100, "bet": 2000}
    assert second.seats[3].decision == "fold"
    assert set(first.seats) == {1, 3}  # seat 1 auto-played beside the person
    records = json.loads(save.read_text())
    assert len(records) == 2
    for record, rnd in zip(records, table.history, strict=True):
        assert record["game"] == ID
        again = run_script(record)  # a saved round is a round script felt replay reads
        assert again.finished
        assert again.lines == rnd.lines


def test_16_11_the_session_meter_starts_at_the_seed_and_fills_the_settlement() -> None:
    """Each round's settlement carries the meter as it stands: the seed, plus 25 cents for every
    progressive wager placed so far (none of these rounds holds a straight flush or better)."""
    answers = {"progressive wager": ["y"], "bet or fold?": ["b"] * 4}
    table, shown, _ = session({}, answers, seats=3, human=2, rounds=4)
    placed = 0
    for rnd in table.history:
        wagers = sum(1 for s in rnd.seats.values() if s.placed.get("progressive"))
        assert wagers == 3
        placed += wagers
        assert settlement(rnd).meter == SEED + placed * QUARTER
        hands = [five_card_key(s.cards)[0] for s in rnd.seats.values()]
        assert all(h < Category.STRAIGHT_FLUSH for h in hands)  # the oracle's premise
    assert table.meter == SEED + 12 * QUARTER
    text = "\n".join(shown)
    assert "progressive wager 1.00, meter $10,000.00." in text
    assert "progressive meter now $10,003.00" in text
    assert "progressive meter $10,000.75" in text  # round 2 opens on round 1's three wagers


class Stacked:
    """A "shuffle" that deals ``top`` first, then the rest of the deck in order."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    top: Sequence[Card] = ()

    def shuffle(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        return (*self.top, *(c for c in ALL_CARDS if c not in self.top))

    def below(self, n: int) -> int:
        return 0


def test_16_11_a_royal_flush_is_paid_the_sessions_meter_and_the_house_resets_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The person's royal flush (a progressive wager placed) is paid 100% of the meter as it
    stands, $10,000.25, whatever the dealer holds; the meter then starts again at the seed."""
    royal, dealer = parse_cards("Ts Js Qs Ks As"), parse_cards("2c 3d 5h 7s 9c")  # 9 high
    Stacked.top = [card for pair in zip(royal, dealer, strict=True) for card in pair]
    monkeypatch.setattr(play_module, "SeededShuffle", Stacked)
    table, shown, _ = session({}, {"progressive wager": ["y"], "bet or fold?": ["b"]}, rounds=1)
    (rnd,) = table.history
    assert settlement(rnd).meter == SEED + QUARTER
    paid = [line for line in rnd.lines if line.wager == "progressive payout"]
    assert [(p.hand, p.amount) for p in paid] == [("royal flush", SEED + QUARTER)]
    assert table.meter == SEED
    text = "\n".join(shown)
    assert "progressive meter now $10,000.00" in text
    # ante +5 (the dealer does not qualify), bet returned, progressive -1 and +10,000.25
    assert "your result this round +10004.25" in text


def test_16_1_hole_cards_unseen_until_the_reveal_the_up_card_shown() -> None:
    """Up to the decision the person sees their own five cards and the dealer's face-up card,
    never a hole card nor another position's cards."""
    answers = {"bet or fold?": ["b"]}
    table, shown, prompts = session({"progressive": False}, answers, seats=3, human=1, rounds=1)
    (rnd,) = table.history
    text = "\n".join(shown)
    before = text[: text.index("dealer    ")] if "dealer    " in text else text
    words = set(before.replace(",", " ").replace(":", " ").split())
    up = str(rnd.dealer_cards[4])
    assert f"dealer shows {up} and four cards face down" in before
    for card in rnd.dealer_cards[:4]:
        assert str(card) not in words
    for n in (2, 3):
        for card in rnd.seats[n].cards:
            assert str(card) not in words
    assert "no progressive wager at this table" in text
    assert "meter" not in text
    assert not any(p.startswith("progressive") for p in prompts)


def test_16_4_c_a_hand_shuffled_table_is_cut_where_the_table_cuts() -> None:
    table, _, _ = session({"shuffling": "manual"}, {}, rounds=2)
    for rnd in table.history:
        assert len(rnd.cut_positions) == 1
        assert 10 <= rnd.cut_positions[0] <= 42


def test_q_leaves_and_the_end_of_input_ends_cleanly() -> None:
    config = CaribbeanConfig.from_mapping({})
    shown: list[str] = []
    quit_answers = iter(["q"])
    play(config, {"ask": lambda prompt: next(quit_answers), "say": shown.append})
    assert shown[-1] == "goodbye: 0 round(s), session result 0.00"

    def eof(prompt: str) -> str:
        raise EOFError

    play(config, {"ask": eof, "say": shown.append})
    assert shown[-1] == "goodbye: 0 round(s), session result 0.00"


def test_a_bad_play_option_or_seat_is_one_clear_error() -> None:
    config = CaribbeanConfig.from_mapping({})
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
        (["play", ID, "--edition", "nj-19-47-24"], "--edition does not apply to caribbean_stud"),
    ],
)
def test_felt_play_bad_input_is_one_line_and_exit_2(
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
    path.write_text('game = "caribbean_stud"\n[bet_pays]\n"royal flush" = "50 to 1"\n')
    assert main(["play", ID, "--table", str(path), "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "'royal flush' pays 50 to 1, less than the minimum 100 to 1" in err


def test_felt_play_through_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``felt play caribbean_stud`` reads its answers from standard input; the end of input
    leaves with the summary; a seeded session is noted on standard error."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("10\ny\nb\n"))
    assert main(["play", ID, "--seed", "4"]) == 0
    captured = capsys.readouterr()
    assert "for replays and tests only" in captured.err
    assert "Caribbean Stud Poker under N.J.A.C. 19:47-16" in captured.out
    assert "goodbye: 1 round(s)" in captured.out


def test_the_game_interface_plays_through_the_same_session() -> None:
    """``GAME.play`` with ``felt play``'s options (seat, seats) reaches this session."""
    answers = iter(["", "n", "f"])
    shown: list[str] = []
    GAME.play(GAME.config(ID, {}), {"seats": 2, "seat": 2, "seed": 3, "rounds": 1,
                                    "ask": lambda prompt: next(answers), "say": shown.append})  # fmt: skip
    assert "You are seat 2." in "\n".join(shown)
    assert shown[-1].startswith("goodbye: 1 round(s), session result -5.00")
    assert Wagers(2, 500).progressive == 0
