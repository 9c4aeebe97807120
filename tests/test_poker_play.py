"""``felt play poker`` (felt.games.poker.play): a terminal session against bots, scripted with
``ask``/``say`` and seeded decks: the person's turns with their choices, a refused command that
changes nothing, only the person's own view ever shown (no other hole card before the showdown,
no folded hand ever), leaving mid-hand as 14.15(j)4, and saved hands that replay exactly."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from felt.core.cards import Card, parse_cards
from felt.core.errors import FeltError
from felt.core.money import cents
from felt.games.poker import hand as h
from felt.games.poker.config import PokerConfig
from felt.games.poker.play import play
from felt.games.poker.table import PokerTable
from felt.rounds.actions import action_from_json
from tests.test_craps_play import scripted

ACTIONS = (h.Fold, h.Check, h.Call, h.Bet, h.RaiseTo, h.AllIn, h.BringIn, h.Discard, h.Burn,
           h.DealHole, h.DealBoard, h.Award, h.LeaveWithoutComment)  # fmt: skip
CARD = re.compile(r"(?<![\w])(?:10|[2-9TJQKA])[cdhs](?![\w])")


def session(
    commands: list[str], settings: dict[str, Any] | None = None, **options: Any
) -> tuple[PokerTable, list[str], list[str]]:
    shown: list[str] = []
    prompts: list[str] = []
    options = {"seed": 11, "symbols": False, **options}
    table = play(PokerConfig.from_mapping(settings or {}),
                 {"ask": scripted(commands, prompts), "say": shown.append, **options})  # fmt: skip
    return table, shown, prompts


def replayed(path: Path) -> list[h.PokerHand]:
    """The saved hands, each replayed by PokerHand from its start and actions."""
    out = []
    for n, entry in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        config = PokerConfig.from_mapping(entry["table"])
        stacks = {int(s): cents(v, "stack") for s, v in entry["stacks"].items()}
        actions = [action_from_json(a, f"hand {n}", ACTIONS) for a in entry["actions"]]
        deck = parse_cards(entry["deck"])
        out.append(h.PokerHand.replay(config, stacks, entry["button"], deck, actions))
    return out


def test_a_hand_with_the_persons_choices_and_a_showdown_fits_80_columns() -> None:
    table, shown, prompts = session(["call", "check", "check", "check", "check", "check",
                                     "check", "check"], seats=3, human=2, rounds=1)  # fmt: skip
    text = "\n".join(shown)
    assert shown[0] == "Texas hold 'em, fixed limit under N.J.A.C. 19:47-14 (the poker room)"
    assert "You are seat 2; bots play seats 1, 3." in text
    assert "--- hand 1 | button seat 1 | your stack 200.00" in shown
    assert any(line.startswith("  your cards: ") for line in shown)
    assert prompts[0] == "your turn (fold, call 1.00, raise 4.00) > "
    assert "  seat 2 calls 1.00" in shown
    assert re.search(r"your result this hand [+-]?\d+\.\d\d; stack \d+\.\d\d", text)
    assert shown[-1].startswith("goodbye: 1 hand(s), session result ")
    assert table.hands_played == 1
    assert all(len(line) <= 80 for line in shown + prompts), max(shown + prompts, key=len)


def test_a_refused_command_prints_one_error_and_nothing_changes() -> None:
    """Pre-flop facing the big blind: a bet, a raise off the fixed amount, a check and a typo
    are refused with the hand's error; then the call goes through."""
    _, shown, prompts = session(["bet 2", "raise 99", "check", "fly", "raise", "help", "table",
                                 "call"], seats=3, human=2, rounds=1)  # fmt: skip
    errors = [line for line in shown if line.startswith("  ") and "allowed" in line]
    assert any("bet: there is a wager already: raise_to" in line for line in errors)
    assert any("raise_to: the amount must be 4.00" in line for line in shown)
    assert any("check: there is 1.00 to call" in line for line in shown)
    assert any("unknown command 'fly' (allowed: fold, check, call, bet" in x for x in shown)
    assert "  raise: usage 'raise AMOUNT' (help lists the commands)" in shown
    assert any(line.startswith("  raise AMOUNT") for line in shown)
    assert any(line.startswith("  seat 2 (you): ") for line in shown)
    assert prompts[:8] == ["your turn (fold, call 1.00, raise 4.00) > "] * 8
    assert "  seat 2 calls 1.00" in shown


def test_14_15_j_4_quitting_mid_hand_folds_the_persons_hand_and_ends_the_session(
    tmp_path: Path,
) -> None:
    path = tmp_path / "hands.json"
    table, shown, _ = session(["call", "quit"], seats=4, human=1, save=path)
    assert "  seat 1 left without comment: no interest in the pot (14.15(j)4)" in shown
    assert shown[-1].startswith("goodbye: 1 hand(s), session result -")
    (hand,) = replayed(path)
    assert not hand.in_hand(1)
    assert hand.final is not None
    assert hand.final[1] == table.stacks[1] == 20_000 - 200  # the big blind called, then left


def _allowed_to_see(hand: h.PokerHand, human: int) -> set[Card]:
    """What the person's seat may see of ``hand``, step by step as it was replayed: its own
    cards, the board, the up cards of each other seat while that seat was in the hand, and at a
    showdown the hands still in."""
    again = h.PokerHand(hand.config, hand.start, hand.button, hand.first_deck)
    seen: set[Card] = set()
    for action in [None, *hand.actions]:
        if action is not None:
            again.do(action)
        seen |= set(again.hole_cards(human)) | set(again.board())
        for seat in again.order:
            if seat != human and again.in_hand(seat):
                seen |= set(again.up_cards(seat))
    live = [s for s in hand.order if hand.in_hand(s)]
    if hand.status == "awarded" and len(live) > 1:
        for seat in live:
            seen |= set(hand.hole_cards(seat))
    return seen


@pytest.mark.parametrize(
    "settings",
    [{}, {"variant": "stud7", "ante": "0.25", "bring_in": "0.50"}, {"variant": "omaha",
                                                                      "limit": "pot"}],
)  # fmt: skip
def test_hidden_cards_the_person_sees_only_their_seats_view(
    settings: dict[str, Any], tmp_path: Path
) -> None:
    """Over several hands (the person checking or calling, else folding, the bots folding some):
    every card printed in a hand is the person's, the board's, an up card, or a hand shown at a
    showdown; never another hole card, a folded hand, a burn or the stub."""
    path = tmp_path / "hands.json"
    answers = (["check", "call", "bring"] * 40)[:120]
    table, shown, _ = session(answers, settings, seats=4, human=3, rounds=4, save=path)
    hands = replayed(path)
    assert len(hands) == table.hands_played == 4
    chunks = "\n".join(shown).split("--- hand ")[1:]
    folded_seen = 0
    for hand, chunk in zip(hands, chunks, strict=True):
        printed = {parse_cards([m])[0] for m in CARD.findall(chunk)}
        assert printed, "the person is shown cards"
        allowed = _allowed_to_see(hand, 3)
        assert printed <= allowed, printed - allowed
        folded_seen += sum(1 for s in hand.order if not hand.in_hand(s))
    assert folded_seen, "some hands were folded"


def test_save_replays_to_the_tables_stacks(tmp_path: Path) -> None:
    path = tmp_path / "hands.json"
    table, _, _ = session(["call", "check"] * 30, {"limit": "no"}, seats=3, human=1, rounds=3,
                          save=path)  # fmt: skip
    hands = replayed(path)
    assert len(hands) == 3
    for before, after in itertools.pairwise(hands):
        assert before.final is not None
        assert all(after.start[s] in (before.final[s], 20_000) for s in after.start)
    last = hands[-1]
    assert last.final == table.stacks
    assert [x.summary() for x in hands] == [x.replay_from_start().summary() for x in hands]


def test_14_9_stud_the_person_brings_it_in_or_completes_and_sees_up_cards() -> None:
    settings = {"variant": "stud7", "ante": "0.25", "bring_in": "0.50"}
    found = False
    for seed in range(1, 30):
        _, shown, prompts = session(["complete", "call", "check"] * 20, settings, seats=3,
                                    human=1, rounds=1, seed=seed)  # fmt: skip
        if prompts and "bring 0.50" in prompts[0]:
            found = True
            assert any(line.startswith("  showing: seat ") for line in shown)
            assert prompts[0] == "your turn (bring 0.50, bet 2.00) > "
            assert "  seat 1 bet 2.00" in shown
            break
    assert found, "no seed gave the person the low card"


def test_bad_options_are_one_clear_error() -> None:
    with pytest.raises(FeltError, match="seat 11 does not exist"):
        session([], human=11)
    with pytest.raises(FeltError, match="unknown play option 'dice'"):
        session([], dice=None)


def test_one_seat_asked_for_still_plays_against_one_bot() -> None:
    _, shown, _ = session(["fold"], seats=1, human=1, rounds=1)
    assert "You are seat 1; bots play seat 2." in "\n".join(shown)


def test_felt_play_options_as_the_cli_gives_them_and_the_seed_noted() -> None:
    """``felt play poker`` passes seats, seat, seed, rounds and a note: a seeded session says its
    cards can be predicted."""
    notes: list[str] = []
    shown: list[str] = []
    options = {"seats": 2, "seat": 2, "seed": 4, "rounds": 1, "save": None, "cite": False,
               "symbols": False, "note": notes.append, "ask": scripted(["fold"] * 5, []),
               "say": shown.append}  # fmt: skip
    table = play(PokerConfig.from_mapping({}), options)
    assert table.hands_played == 1
    assert any("for replays and tests only" in n for n in notes)
    assert "You are seat 2; bots play seat 1." in "\n".join(shown)
