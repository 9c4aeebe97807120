"""Every TOML and JSON reader of felt (issue 20 item 13): whatever bytes or text a file, a flag or
a request holds, a command ends with status 0 or 2 and, on 2, one ``felt: error:`` line (never a
traceback); a loader function raises only :class:`FeltError`.  The oracle is the exit status, the
shape of standard error and the type of the exception; hypothesis draws the inputs: arbitrary
bytes, arbitrary text, and TOML or JSON that parses but holds the wrong things (integers of
thousands of digits, infinities, nesting, dates, wrong types under the real keys).

Examples per test: ``FELT_FUZZ_EXAMPLES`` (default 25, so CI stays quick; set e.g. 2000 for a
long run)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from felt.cli.main import main
from felt.cli.script import load_scripts
from felt.core.errors import FeltError
from felt.core.readers import parse_json, parse_toml, read_json, read_toml
from felt.games.keno.cli import build_request
from felt.games.keno.ratecard import load_rate_card
from felt.games.registry import game_ids, table_game
from felt.server.app import read_json as read_request
from felt.server.spec import load_specs

EXAMPLES = int(os.environ.get("FELT_FUZZ_EXAMPLES", "25"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
HUGE = "1" * 5000
"""An integer of 5,000 digits: more than Python converts (4,300), so ``int()`` refuses it."""

KEYS = ["game", "edition", "payout_limit", "minimum", "maximum", "bonus", "pay_table",
        "decision_seconds", "table", "keno", "id", "settings", "rate_card", "wagers", "deck",
        "actions", "seat", "numbers", "rate", "games", "stations", "ante", "first"]  # fmt: skip
"""Real keys of felt's files and requests, so the wrong values reach the checks behind them."""


def run(*args: str) -> tuple[int, str]:
    """``felt ARGS`` in this process: its exit status and standard error (standard input
    empty, so a command that asks leaves at once)."""
    err = io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = main(list(args))
    finally:
        sys.stdin = old
    return status, err.getvalue()


def assert_clean(status: int, err: str) -> None:
    """Exit 0, or exit 2 with one ``felt: error:`` line and no traceback."""
    assert "Traceback" not in err, err
    assert status in (0, 2), (status, err)
    if status == 2:
        assert err.startswith("felt: error: "), err
        assert err.count("\n") == 1, err


def only_felt_errors(load: Callable[[], object]) -> None:
    """``load()`` returns or raises :class:`FeltError`; anything else fails the test."""
    with contextlib.suppress(FeltError):
        load()


# ------------------------------------------------------------------------------ the inputs
scalars = st.one_of(
    st.integers(-(10**30), 10**30),
    st.sampled_from(
        [
            HUGE,
            "-" + HUGE,
            "inf",
            "-inf",
            "nan",
            "1e999",
            "0x7fffffff",
            "1979-05-27T07:32:00Z",
            "2021-02-30",
            '"5.00"',
            '"-1"',
            '""',
            "true",
        ]
    ),
    st.text(max_size=12).map(json.dumps),
    st.floats(allow_nan=True).map(repr),
)
"""A value as TOML and JSON spell it (some spellings are only one of the two's: that is fine)."""


def toml_value(depth: int = 0) -> st.SearchStrategy[str]:
    """A TOML value: a scalar, an array or an inline table of them."""
    if depth >= 2:
        return scalars.map(str)
    inner = toml_value(depth + 1)
    return st.one_of(
        scalars.map(str),
        st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=3).map(
            lambda d: "{" + ", ".join(f"{k} = {v}" for k, v in d.items()) + "}"
        ),
    )


@st.composite
def wrong_toml(draw: st.DrawFn) -> str:
    """A TOML text of felt's keys with wrong values, a ``[[table]]`` or two, and sometimes a
    5,000-digit ``payout_limit`` or a real game."""
    lines = []
    if draw(st.booleans()):
        lines.append(f'game = "{draw(st.sampled_from([*game_ids("table"), "keno", "x"]))}"')
    for key, value in draw(
        st.dictionaries(st.sampled_from(KEYS[1:]), toml_value(), max_size=5)
    ).items():
        lines.append(f"{key} = {value}")
    if draw(st.booleans()):
        lines.append(f"payout_limit = {HUGE}")
    for _ in range(draw(st.integers(0, 2))):
        lines.append(draw(st.sampled_from(["[[table]]", "[[keno]]", "[settings]", "[pay_table]"])))
        for key, value in draw(
            st.dictionaries(st.sampled_from(KEYS), toml_value(), max_size=3)
        ).items():
            lines.append(f"{key} = {value}")
    return "\n".join(lines) + "\n"


def json_value(depth: int = 0) -> st.SearchStrategy[str]:
    """A JSON value as text (some numbers too long to read, some NaN or Infinity)."""
    if depth >= 3:
        return scalars.map(str)
    inner = json_value(depth + 1)
    return st.one_of(
        scalars.map(str),
        st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=4).map(
            lambda d: "{" + ", ".join(f'"{k}": {v}' for k, v in d.items()) + "}"
        ),
    )


@st.composite
def wrong_json(draw: st.DrawFn) -> str:
    """A round-script-shaped JSON text with wrong values."""
    game = draw(st.sampled_from(["boston5", "boston7", "double-down-stud", "three-card-poker"]))
    fields = draw(st.dictionaries(st.sampled_from(KEYS[1:]), json_value(), max_size=6))
    body = ", ".join([f'"game": "{game}"', *(f'"{k}": {v}' for k, v in fields.items())])
    text = "{" + body + "}"
    return draw(st.sampled_from([text, f"[{text}]", f"[{text}, {text}]"]))


anything = st.one_of(st.binary(max_size=400), st.text(max_size=400).map(str.encode))


# ------------------------------------------------------------------------------ the commands
@FUZZ
@given(content=st.one_of(anything, wrong_json().map(str.encode)))
def test_felt_replay_reads_any_file_cleanly(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "round.json"
    path.write_bytes(content)
    assert_clean(*run("replay", str(path)))


@FUZZ
@given(content=st.one_of(anything, wrong_toml().map(str.encode)))
def test_felt_guide_reads_any_table_file_cleanly(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "table.toml"
    path.write_bytes(content)
    assert_clean(*run("guide", "--table", str(path)))


@FUZZ
@given(content=st.one_of(anything, wrong_toml().map(str.encode)))
def test_felt_analyze_keno_reads_any_rate_card_cleanly(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "card.toml"
    path.write_bytes(content)
    assert_clean(*run("analyze", "keno", "--rate-card", str(path)))


# ------------------------------------------------------------------------------ the loaders
@FUZZ
@given(content=st.one_of(anything, wrong_toml().map(str.encode)))
def test_every_toml_loader_raises_only_felt_errors(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "file.toml"
    path.write_bytes(content)
    only_felt_errors(lambda: read_toml(path))
    only_felt_errors(lambda: load_specs(path))
    only_felt_errors(lambda: load_rate_card(path))
    for game in game_ids("table"):
        only_felt_errors(lambda game=game: table_game(game).load_config(path))  # type: ignore[misc]
    only_felt_errors(lambda: parse_toml(content.decode("utf-8", "replace"), "text"))


@FUZZ
@given(content=st.one_of(anything, wrong_json().map(str.encode)))
def test_every_json_loader_raises_only_felt_errors(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "file.json"
    path.write_bytes(content)
    only_felt_errors(lambda: read_json(path, "round script"))
    only_felt_errors(lambda: load_scripts(path))
    only_felt_errors(lambda: read_request(content))
    only_felt_errors(lambda: parse_json(content, "bytes"))
    text = content.decode("utf-8", "replace")
    only_felt_errors(lambda: build_request(request=text))


# ------------------------------------------------------------------------------ the cases named
def test_a_payout_limit_of_5000_digits_is_one_clean_line(tmp_path: Path) -> None:
    """Issue 20 item 13's own case: tomllib raises ValueError (Python's 4,300-digit limit)."""
    path = tmp_path / "table.toml"
    path.write_text(f'game = "boston5"\npayout_limit = {HUGE}\n', encoding="utf-8")
    for command in (("guide", "--table", str(path)), ("play", "boston5", "--table", str(path))):
        status, err = run(*command)
        assert_clean(status, err)
        assert status == 2
        assert repr(str(path)) in err
        assert "thousands of digits" in err
        assert "at most 4,300" in err
    with pytest.raises(FeltError, match="thousands of digits"):
        load_specs(path)


def test_a_json_number_of_5000_digits_is_one_clean_line(tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    path.write_text('{"game": "boston5", "deck": ' + HUGE + "}", encoding="utf-8")
    status, err = run("replay", str(path))
    assert status == 2
    assert_clean(status, err)
    assert "thousands of digits" in err
    with pytest.raises(FeltError, match="thousands of digits"):
        read_request(b'{"seat": ' + HUGE.encode() + b"}")
    with pytest.raises(FeltError, match="--request holds a number of thousands of digits"):
        build_request(request='{"numbers": [' + HUGE + "]}")


def test_a_keno_request_nested_too_deep_is_a_felt_error() -> None:
    with pytest.raises(FeltError, match=r"--request nests lists or objects too deeply$"):
        build_request(request="[" * 100_000 + "]" * 100_000)


def test_the_packaged_data_files_read_through_the_one_reader() -> None:
    """felt's own data files parse through :func:`parse_toml` (a damaged install is one line)."""
    with pytest.raises(FeltError, match=r"felt's data file 'x\.toml' holds a number"):
        parse_toml(f"n = {HUGE}", "felt's data file 'x.toml'")
    assert parse_toml("n = 1", "x") == {"n": 1}
    assert parse_json("[1]", "x") == [1]
