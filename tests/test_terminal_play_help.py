"""Issue 20, item 8: terminal play.  Double Down Stud's pay table shows the push line of
N.J.A.C. 19:47-17.9(b)/17.10(b) wherever it is shown (``?`` in ``felt play``, the par sheet, the
guide); ``?`` at every wager prompt shows the pay tables; the ante (wager) prompt's default is the
last wager of the session."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from felt.games.boston.config import TableConfig
from felt.games.boston.play import play_session
from felt.games.double_down import DoubleDownConfig
from felt.games.double_down.analysis import analyze_double_down
from felt.games.double_down.guide import double_down_guide
from felt.games.double_down.play import play_double_down
from felt.games.three_card_poker.config import ThreeCardConfig
from felt.games.three_card_poker.play import play as play_three_card
from felt.guide import render

ROOT = Path(__file__).parents[1]
SEEDS = Path(os.environ.get("FELT_SEEDS") or ROOT.parent / "shared" / "seeds")
DOUBLE_DOWN_TEXT = "004_de32b2f221153d81.txt"


def seed_text(name: str) -> str:
    """A rule text of the seeds, or a skip (a failure under CI=true) when they are not here."""
    path = SEEDS / name
    if not path.is_file():
        message = f"rule text {path} not found (set FELT_SEEDS to the seeds directory)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path.read_text(encoding="utf-8")


def push_line() -> tuple[str, str]:
    """The oracle, from the rule text: the hand of 17.10(b)'s table that pushes, and the
    sentence of 17.9(b) that says so."""
    text = seed_text(DOUBLE_DOWN_TEXT)
    table = text[text.index("19:47-17.10 Payout odds") : text.index("19:47-17.11")]
    rows = [line.split("\t") for line in table.splitlines() if "\t" in line]
    pushes = [hand for hand, odds in rows if odds.strip() == "Push"]
    assert len(pushes) == 1, rows
    clause = re.search(r"A wager made by a player shall be a push if [^.]*\.", text)
    assert clause is not None
    assert "pair of sixes but lower than a pair of jacks" in clause[0]
    return pushes[0].lower(), clause[0]


def _pushes(text: str, hand: str) -> bool:
    """Whether ``text`` has a line naming ``hand`` as a push citing 17.9(b)."""
    return any(
        hand in line.lower() and "push" in line.lower() and "17.9(b)" in line
        for line in text.splitlines()
    )


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


def test_17_9_b_push_line_in_the_double_down_help_and_at_the_wager_prompt() -> None:
    """``?`` at the double down decision and at the wager prompt both show the push line."""
    hand, _ = push_line()
    out: list[str] = []
    ask = scripted({"area 1 wager": ["?", "10"], "double down or stand": ["?", "s"]}, [])
    play_double_down(DoubleDownConfig.from_mapping({}), seed=3, rounds=1, ask=ask,
                     say=out.append, symbols=False)  # fmt: skip
    text = "\n".join(out)
    decision = text[text.index("Double down (d)") :]
    wager = text[: text.index("Double down (d)")]
    assert _pushes(decision, hand), decision
    assert _pushes(wager, hand), wager
    assert "1000 to 1" in wager
    assert "pair of fives or less" in wager
    assert all(len(line) <= 80 for line in out)


def test_17_10_b_push_line_in_the_par_sheet_in_every_format() -> None:
    hand, _ = push_line()
    sheet = analyze_double_down(DoubleDownConfig.from_mapping({}))
    text = sheet.to_text()
    pays = text[text.index("Pay tables") : text.index("Return table")]
    assert _pushes(pays, hand), pays
    markdown = sheet.to_markdown()
    assert _pushes(markdown[markdown.index("## Pay tables") : markdown.index("## Return")], hand)
    html = sheet.to_html()
    pays_html = html[html.index("<h2>Pay tables") : html.index("<h2>Return")]
    assert hand in pays_html.lower()
    assert "push (N.J.A.C. 19:47-17.9(b), 17.10(b))" in pays_html
    assert sheet.to_json()["pay_tables"]["pay table"][hand].startswith("push")
    assert hand not in sheet.to_json()["pay_table"]  # the lines paid at odds stay as they were


def test_17_10_b_push_line_in_the_guide_cites_17_9() -> None:
    hand, _ = push_line()
    guide = double_down_guide(DoubleDownConfig.from_mapping({}))
    text = render(guide, "md")
    assert hand in text.lower()
    assert "17.9(b)" in text


BOSTON = {"game": "boston5", "minimum": "10.00", "maximum": "300.00"}


def _boston(ask: Callable[[str], str], say: Callable[[str], None], rounds: int) -> Any:
    return play_session(TableConfig.from_mapping(BOSTON), seed=5, rounds=rounds, ask=ask,
                        say=say, symbols=False)  # fmt: skip


def _double_down(ask: Callable[[str], str], say: Callable[[str], None], rounds: int) -> Any:
    return play_double_down(DoubleDownConfig.from_mapping({"minimum": "10.00"}), seed=5,
                            rounds=rounds, ask=ask, say=say, symbols=False)  # fmt: skip


def _three_card(ask: Callable[[str], str], say: Callable[[str], None], rounds: int) -> Any:
    return play_three_card(ThreeCardConfig.from_mapping({"minimum": "10.00"}),
                           {"seed": 5, "rounds": rounds, "ask": ask, "say": say,
                            "symbols": False})  # fmt: skip


# game: (its session, the ante prompt, the other wager prompts, a pay table's first line each
# wager prompt's ? must show, the placed wager's name in the round)
GAMES = {
    "boston5": (_boston, "seat 1 ante", ["optional bonus wager"],
                ["ante bonus pays:", "optional bonus pays:"], "ante"),
    "double-down-stud": (_double_down, "area 1 wager", [],
                         ["the wager and any double down wager pay ("], "wager"),
    "three-card-poker": (_three_card, "seat 1 ante", ["pair plus wager"],
                         ["ante bonus pays:", "pair plus pays:"], "ante"),
}  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_issue_20_item_8_question_mark_at_every_wager_prompt_shows_the_pay_tables(
    game: str,
) -> None:
    session, ante, others, titles, _ = GAMES[game]
    for prompt in [ante, *others]:
        out: list[str] = []
        session(scripted({prompt: ["?"]}, []), out.append, 1)
        text = "\n".join(out)
        shown = text[: text.index("your result")]
        help_at_prompt = shown[shown.index("an amount in dollars from") :]
        for title in titles:
            assert f"  {title}" in help_at_prompt, (prompt, title, help_at_prompt)
        assert re.search(r"\d+ to \d+", help_at_prompt), help_at_prompt


@pytest.mark.parametrize("game", GAMES)
def test_issue_20_item_8_the_ante_default_after_a_25_wager_is_25(game: str) -> None:
    """Round 1 takes the table minimum on enter; after a $25 wager the next round's enter is
    $25 (and a later typed amount is remembered in turn)."""
    session, ante, _, _, wager = GAMES[game]
    prompts: list[str] = []
    table = session(scripted({ante: ["", "25", "", "12.50", ""]}, prompts), lambda _l: None, 5)
    asked = [p for p in prompts if p.startswith(ante)]
    assert asked == [f"{ante} [10.00]: ", f"{ante} [10.00]: ", f"{ante} [25.00]: ",
                     f"{ante} [25.00]: ", f"{ante} [12.50]: "]  # fmt: skip
    placed = [rnd.seats[1].placed[wager] for rnd in table.history]
    assert placed == [1000, 2500, 2500, 1250, 1250]
