"""The felt command line: output, JSON, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from felt.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_eval_seven_cards_shows_best_five_and_extended_royal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "eval", "As", "Ks", "Qs", "Js", "Ts", "9s", "2d")
    assert status == 0
    assert "royal flush" in out
    assert "7462 of 7462" in out
    assert "six-card royal flush" in out


def test_eval_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "eval", "Ad", "2c", "3h", "4s", "5d", "9c", "Kd", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["category"] == "straight"
    assert data["best_five"] == ["5d", "4s", "3h", "2c", "Ad"]
    assert isinstance(data["rank"], int)


def test_eval_three_cards_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "eval", "Q♦", "K♦", "A♦", "--json")
    data = json.loads(out)
    assert status == 0
    assert data["category"] == "three-card royal flush"
    assert data["rank"] == 741
    assert data["best_five"] is None


def test_eval_five_cards_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "eval", "10h", "10d", "2c", "2s", "Ah")
    assert status == 0
    assert "two pair, tens and twos, ace kicker" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["eval", "As", "As", "Kd", "Qd", "Jd"], "duplicate card: As"),
        (["eval", "Xx", "2c", "3c", "4c", "5c"], "unknown card 'Xx'"),
        (["eval", "2c", "3c", "4c", "5c"], "eval needs 3, 5, 6 or 7 cards, got 4"),
        (["eval"], "required: CARD"),
        (["hands", "--cards", "4"], "invalid choice: 4"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("felt: error: ")
    assert message in err


@pytest.mark.parametrize(
    "cards",
    [["As", "As", "Kd", "Qd", "Jd"], ["Xx", "2c", "3c", "4c", "5c"], ["2c", "3c", "4c", "5c"]],
)
def test_installed_command_errors_without_traceback(cards: list[str]) -> None:
    """The three cases the issue names, through a real process."""
    proc = subprocess.run(
        [sys.executable, "-m", "felt", "eval", *cards], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_hands_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "hands", "--cards", "3", "--json")
    data = json.loads(out)
    assert status == 0
    assert data["total"] == 22_100
    assert data["categories"]["three-card straight"] == 720


def test_hands_seven_text_includes_extended_royals(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "hands", "--cards", "7")
    assert status == 0
    assert "133,784,560" in out
    assert "seven-card royal flush" in out


def test_hands_seven_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "hands", "--cards", "7", "--json")
    data = json.loads(out)
    assert data["extended_royals"] == {"six-card royal flush": 180, "seven-card royal flush": 4}
    assert sum(data["categories"].values()) == data["total"]


def test_eval_does_not_load_numba() -> None:
    """`felt eval` evaluates one hand in plain Python; importing numba cost it 0.35 s a call."""
    code = (
        "import sys\n"
        "from felt.cli.main import main\n"
        "main(['eval', 'As', 'Ks', 'Qs', 'Js', 'Ts'])\n"
        "assert 'numba' not in sys.modules, 'numba was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "royal flush" in done.stdout
