"""Issue 20, item 9: the cold Boston 7 count shows a progress bar with the time left on a
terminal (standard error), and nothing at all when standard error is not a terminal."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

from felt.cli.main import main
from felt.core.progress import Progress
from felt.games.boston import analysis as games
from felt.games.boston import boston7 as b7
from tests.test_boston7 import HANDS, _fake_counts, _masks


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_issue_20_item_9_bar_with_the_time_left_on_a_terminal() -> None:
    """The oracle for the time left: elapsed x (1 - done) / done, from the test's own clock."""
    clock = Clock()
    stream = Terminal()
    bar = Progress("counting Boston 7 deals", stream, clock, every=0)
    bar.fraction(0.0)
    assert (
        stream.getvalue()
        == "\rcounting Boston 7 deals [" + "." * 30 + "]   0%  time left not known yet"
    )
    clock.now += 30  # a quarter in 30 s: 90 s left
    bar.fraction(0.25)
    last = stream.getvalue().split("\r")[-1]
    assert last.rstrip() == "counting Boston 7 deals [" + "#" * 7 + "." * 23 + "]  25%  1:30 left"
    assert len(last) == len("counting Boston 7 deals [") + 31 + len(
        "   0%  time left not known yet"
    )
    clock.now += 90
    bar.fraction(1.0)
    assert stream.getvalue().split("\r")[-1].rstrip() == (
        "counting Boston 7 deals [" + "#" * 30 + "] 100%  done in 2:00"
    )
    assert stream.getvalue().endswith("\n")
    bar.fraction(1.0)  # the line is ended once
    assert stream.getvalue().count("\n") == 1


def test_issue_20_item_9_no_bar_when_not_a_terminal() -> None:
    stream = io.StringIO()
    bar = Progress("counting", stream, Clock(), every=0)
    for done in (0.0, 0.5, 1.0):
        bar.fraction(done)
    assert stream.getvalue() == ""


def test_redraws_are_spaced_but_the_end_is_always_drawn() -> None:
    clock = Clock()
    stream = Terminal()
    bar = Progress("x", stream, clock, every=1.0)
    bar.fraction(0.1)
    bar.fraction(0.2)  # within the second: not redrawn
    assert stream.getvalue().count("\r") == 1
    clock.now += 1.0
    bar.fraction(0.3)
    bar.fraction(1.0)
    assert stream.getvalue().count("\r") == 3
    assert stream.getvalue().endswith("done in 0:01\n")


def test_steps_from_many_threads_reach_the_end_exactly_once() -> None:
    stream = Terminal()
    bar = Progress("x", stream, Clock(), every=0)
    first = bar.steps(0.0, 0.25, 64)
    second = bar.steps(0.25, 0.75, 64)
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda _: first(), range(64)))
    assert stream.getvalue().split("\r")[-1].startswith("x [" + "#" * 7 + ".")
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda _: second(), range(64)))
    assert stream.getvalue().count("\n") == 1
    assert "100%  done in" in stream.getvalue()


def test_each_piece_of_both_stages_of_the_count_is_a_step() -> None:
    """The count's two stages (rank counts, then the hands) call their step once per piece (on
    a few rows and without counting, so the test takes seconds, not the count's minutes)."""
    taken = {"ranks": 0, "hands": 0}

    def step(stage: str) -> Callable[[], None]:
        def done() -> None:
            taken[stage] += 1

        return done

    counts, value, _ = b7.rank_multisets()
    rows = np.arange(200, dtype=np.int64)
    b7.rank_counts(counts, value, b7.straight_max(), 2, rows, step("ranks"))
    masks = _masks(HANDS)
    prep = b7.prepare(1, count=False)
    b7.count_hands(prep, masks, np.ones(len(masks), dtype=np.int64), 2, count=False,
                   step=step("hands"))  # fmt: skip
    assert taken == {"ranks": b7.PIECES, "hands": min(b7.PIECES, len(masks))}


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[Progress | None]:
    """Stand in for the full count (minutes) with one that steps its progress bar as the real
    one does, stage by stage; returns the progress each call was given."""
    given: list[Progress | None] = []

    def count(*, log: Callable[[str], None] | None = None, progress: Progress | None = None,
              **_: Any) -> b7.Boston7Counts:  # fmt: skip
        given.append(progress)
        if log is not None:
            log("counting every Boston 7 deal (once; cached afterwards)")
        if progress is not None:
            for start, part in ((0.0, b7.RANK_SHARE), (b7.RANK_SHARE, 1 - b7.RANK_SHARE)):
                step = progress.steps(start, part, 4)
                for _piece in range(4):
                    step()
        return _fake_counts()

    monkeypatch.setattr(b7, "boston7_counts", count)
    return given


def test_issue_20_item_9_cold_boston7_analysis_shows_the_bar_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    given = _counting(monkeypatch)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["analyze", "boston7", "--json"]) == 0
    assert given
    assert isinstance(given[-1], Progress)
    err = terminal.getvalue()
    assert "felt: counting every Boston 7 deal" in err
    assert re.search(r"\rcounting Boston 7 deals \[#{30}\] 100%  done in \d+:\d\d\s*\n", err), err
    assert capsys.readouterr().out.startswith("{")  # the par sheet itself is untouched


def test_issue_20_item_9_no_bar_when_standard_error_is_not_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _counting(monkeypatch)
    assert main(["analyze", "boston7", "--json"]) == 0
    err = capsys.readouterr().err
    assert err == "felt: counting every Boston 7 deal (once; cached afterwards)\n"


def test_no_bar_without_a_caller_that_hears_of_long_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's par sheet (no log) gets no progress bar."""
    given = _counting(monkeypatch)
    games.boston7_counts()
    assert given == [None]
