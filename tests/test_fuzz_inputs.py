"""No input gives a traceback (issue 10, items 3 and 5).

The fuzz tests drive the ``felt`` command in-process over mutated round scripts and table files
(values, types, keys, nesting, sizes, encodings) and accept exactly two outcomes: exit status 2
with one line ``felt: error: ...`` on standard error, or a round that was played with its money
conserved, all 52 cards in the discard rack and a replay equal to the original.  The unit tests
below pin each case the issue lists, and the cache tests tamper with the cached tables.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from felt.cli.main import main
from felt.cli.script import load_scripts, run_script
from felt.core.errors import EXCERPT_CHARS, MAX_ACTIONS, MAX_FILE_BYTES, FeltError, excerpt
from felt.core.money import MAX_AMOUNT, cents
from felt.core.paytable import Payout
from felt.core.tables import DIGEST_KEY, load_arrays, save_arrays
from felt.games.boston.round import Round
from felt.games.double_down import DoubleDownRound
from felt.rounds.engine import HOUSE, LAYOUT

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SCRIPTS = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in EXAMPLES.glob("*.json")}
BOSTON_TABLE = (EXAMPLES / "table-boston7.toml").read_text(encoding="utf-8")
DOUBLE_DOWN_TABLE = """game = "double-down-stud"
minimum = "5.00"
maximum = "500.00"
payout_limit = "100000.00"
dealing = "manual-shoe"
shuffling = "shuffler"
decks = 1
two_areas = false
areas = 7
double_down = "equal"
recut_by = "last"
decision_seconds = 60

[pay_table]
"royal flush" = "500 to 1"
"""


# --------------------------------------------------------------------------- running the CLI


def cli(*args: str) -> tuple[int, str, str]:
    """Run ``felt ARGS`` in this process: exit status, standard output, standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def assert_one_line_error(status: int, err: str) -> None:
    assert status == 2, err
    assert err.endswith("\n"), err
    assert err.count("\n") == 1, err
    assert err.startswith("felt: error: "), err
    assert "Traceback" not in err


def assert_sound_round(rnd: Round | DoubleDownRound) -> None:
    """Money conserved, every card in the rack, and the recorded actions replay the round."""
    assert rnd.finished
    assert sum(rnd.net(n) for n in rnd.seats) + rnd.house_net() == 0
    assert rnd.ledger.balance(LAYOUT) == 0
    assert rnd.ledger.balance(HOUSE) == rnd.house_net()
    for n in rnd.seats:
        assert rnd.ledger.balance(f"seat {n}") == rnd.net(n)
    assert sorted(rnd.rack.cards()) == list(range(52)), rnd.rack.describe()
    if isinstance(rnd, DoubleDownRound):
        again: Round | DoubleDownRound = DoubleDownRound.replay(
            rnd.config, rnd.deck, rnd.actions, new_game=rnd.new_game, last_offered=rnd.last_offered
        )
    else:
        again = Round.replay(rnd.config, rnd.deck, rnd.actions, stub_count_due=rnd.stub_count_due)
    assert again.events == rnd.events


def check_replay(path: Path) -> tuple[int, str]:
    """``felt replay --json PATH``: a one-line error, or a sound round; returns status and err."""
    status, out, err = cli("replay", str(path), "--json")
    event("round played" if status == 0 else "refused")
    if status == 0:
        assert err == ""
        shown = json.loads(out)
        reports = shown if isinstance(shown, list) else [shown]  # a file may list several rounds
        for one in reports:
            assert sum(s["net_cents"] for s in one["seats"].values()) + one["house_net_cents"] == 0
        for script in load_scripts(path):
            rnd = run_script(script)
            assert isinstance(rnd, Round | DoubleDownRound)
            assert_sound_round(rnd)
    else:
        assert_one_line_error(status, err)
    return status, err


# --------------------------------------------------------------------------- mutations

WEIRD_NUMBERS = ["1e999999", "1e5000", "-1e5000", "NaN", "Infinity", "²", "٣", "1_000", "0x10",
                 "10000000.01", "-5.00", "5.001", "$5,000", " 7 ", ""]  # fmt: skip
LEAVES: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.sampled_from([10**40, -(10**40), 10**4000, 2**63, 53, 7, 0]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(WEIRD_NUMBERS),
    st.text(max_size=12),
    st.sampled_from(
        [
            "As",
            "Kd",
            "2c",
            "Ah",
            "10s",
            "A♠",
            "expose",
            "second",
            "fold",
            "stand",
            "double",
            "misdeal",
            "face_up_card",
            "x" * 5000,
        ]
    ),
)
VALUES: st.SearchStrategy[Any] = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
KEYS = st.one_of(
    st.sampled_from(["seat", "action", "dealer", "irregularity", "cards", "position", "count",
                     "stacks", "amount", "deck", "player", "ante", "first", "bonus", "wager",
                     "game", "edition", "table", "wagers", "actions", "stub_count_due",
                     "new_game", "last_offered", "first_to_table", "1", "2", "²", "07", "1000"]),
    st.text(max_size=8),
)  # fmt: skip


def paths(node: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``node`` (the root is the empty path)."""
    out = [here]
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, (*here, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, (*here, i))
    return out


def get(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


def mutate(data: st.DataObject, doc: Any) -> Any:
    """One random change somewhere in ``doc``: a value, a type, a key, an entry, the nesting."""
    doc = copy.deepcopy(doc)
    path = data.draw(st.sampled_from(paths(doc)), label="path")
    target = get(doc, path)
    op = data.draw(
        st.sampled_from(["value", "wrap", "nest", "drop", "key", "repeat", "rename"]), label="op"
    )
    if op == "value" or (op in ("drop", "rename") and not path):
        new = data.draw(VALUES, label="value")
    elif op == "wrap":
        new = [target] if data.draw(st.booleans()) else {"value": target}
    elif op == "nest":
        new = target
        for _ in range(data.draw(st.integers(1, 60))):
            new = [new]
    elif op == "key" and isinstance(target, dict):
        target[data.draw(KEYS, label="key")] = data.draw(VALUES, label="value")
        return doc
    elif op == "repeat" and isinstance(target, list) and target:
        target.extend(target * data.draw(st.integers(1, 30)))
        return doc
    elif op in ("drop", "rename"):
        parent = get(doc, path[:-1])
        value = parent.pop(path[-1])
        if op == "rename" and isinstance(parent, dict):
            parent[data.draw(KEYS, label="new key")] = value
        return doc
    else:
        new = data.draw(VALUES, label="value")
    if not path:
        return new
    get(doc, path[:-1])[path[-1]] = new
    return doc


def encode(data: st.DataObject, text: str) -> bytes:
    """The file's bytes: usually UTF-8, sometimes another encoding, cut short or with junk."""
    how = data.draw(
        st.sampled_from(["utf-8"] * 6 + ["utf-16", "latin-1-junk", "truncate", "bad-byte"]),
        label="encoding",
    )
    raw = text.encode("utf-8")
    if how == "utf-16":
        return text.encode("utf-16")
    if how == "latin-1-junk":
        return raw + "é".encode("latin-1")
    if how == "truncate":
        return raw[: data.draw(st.integers(0, max(0, len(raw) - 1)))]
    if how == "bad-byte":
        at = data.draw(st.integers(0, len(raw)))
        return raw[:at] + b"\xff\xfe" + raw[at:]
    return raw


FUZZ = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(data=st.data())
def test_fuzz_round_scripts_give_one_line_errors_or_sound_rounds(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    name = data.draw(st.sampled_from(sorted(SCRIPTS)), label="example")
    doc = SCRIPTS[name]
    for _ in range(data.draw(st.integers(0, 3), label="mutations")):
        doc = mutate(data, doc)
    path = tmp_path_factory.mktemp("script") / "round.json"
    path.write_bytes(encode(data, json.dumps(doc, ensure_ascii=data.draw(st.booleans()))))
    check_replay(path)


def toml_value(value: Any) -> str:
    """A TOML literal for a scalar, an array or an inline table (enough for these tests)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string for these characters
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    return '""'


def toml_text(doc: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in doc.items())


TABLE_VALUES = st.one_of(
    VALUES,
    st.sampled_from(["100000000000000000000 to 1", "1000001 to 1", "1000000 to 1", "8 to 0",
                     "5 to 1", "$1e999", "$10000000.00", "$10000000.01", "manual", "hand",
                     "up-to", "next", "alternative", "nj-13-69f-24", "ma-205-cmr", "boston5"]),
    st.dictionaries(st.sampled_from(["royal flush", "straight flush", "full house", "flush",
                                     "four of a kind", "pair", "x"]),
                    st.sampled_from(["100000000000000000000 to 1", "2000000 to 1", "60 to 1",
                                     "999999 to 1", "$5000", "$1e5000", "1 to 1"]),
                    max_size=3),
)  # fmt: skip


@FUZZ
@given(data=st.data())
def test_fuzz_table_files_give_one_line_errors_or_sound_rounds(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    import tomllib

    base = tomllib.loads(data.draw(st.sampled_from([BOSTON_TABLE, DOUBLE_DOWN_TABLE])))
    doc = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(0, 3), label="mutations")):
        key = data.draw(st.sampled_from([*doc, "unknown", "areas", "first_ratio"]), label="key")
        if data.draw(st.integers(0, 5)) == 0:
            doc.pop(key, None)
        else:
            doc[key] = data.draw(TABLE_VALUES, label="value")
    where = tmp_path_factory.mktemp("table")
    table = where / "table.toml"
    text = toml_text(doc)
    if data.draw(st.integers(0, 9)) == 0:
        text += "deep = " + "[" * 5000 + "]" * 5000 + "\n"
    table.write_bytes(encode(data, text))
    status, out, err = cli("guide", "--table", str(table))
    if status != 0:
        assert_one_line_error(status, err)
        return
    assert out
    # The table was accepted: a round on it (the example round of its game) must be sound.
    game = doc.get("game", "boston5")
    script = copy.deepcopy(
        SCRIPTS["double-down-round.json" if game == "double-down-stud" else "boston5-round.json"]
    )
    script["game"] = game
    script.pop("edition", None)
    if "edition" in doc:
        script["edition"] = doc["edition"]
    script["table"] = {k: v for k, v in doc.items() if k not in ("game", "edition")}
    if game == "boston7":
        script["actions"] = [a for a in script["actions"] if a.get("action") != "expose"]
    path = where / "round.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    check_replay(path)


# --------------------------------------------------------------------------- item 3, case by case


def script_file(tmp_path: Path, doc: Any, name: str = "round.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def boston(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = copy.deepcopy(SCRIPTS["boston5-round.json"])
    doc.update(changes)
    return doc


def refused(tmp_path: Path, doc: Any, *needles: str) -> str:
    """Replay ``doc``; it must be refused with one line holding every needle."""
    path = doc if isinstance(doc, Path) else script_file(tmp_path, doc)
    status, _, err = cli("replay", str(path))
    assert_one_line_error(status, err)
    for needle in needles:
        assert needle in err, err
    assert len(err) < 600, err
    return err


def test_a_script_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    path.write_bytes(json.dumps(boston()).encode("utf-16"))
    refused(tmp_path, path, "is not UTF-8")


def test_a_table_file_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_bytes('game = "boston5"\nminimum = "5.00" # caf\xe9\n'.encode("latin-1"))
    for command in (("guide", "--table", str(path)), ("analyze", "boston5", "--table", str(path))):
        status, _, err = cli(*command)
        assert_one_line_error(status, err)
        assert "is not UTF-8" in err


def test_json_nested_thousands_deep_is_one_line(tmp_path: Path) -> None:
    refused(tmp_path, "[" * 100_000 + "]" * 100_000, "nests", "too deeply")
    actions = "[" * 5000 + "]" * 5000
    text = json.dumps(boston()).replace('"actions": [', f'"actions": [{actions}, ', 1)
    refused(tmp_path, text, "too deeply")


def test_a_table_file_nested_thousands_deep_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    status, _, err = cli("guide", "--table", str(path))
    assert_one_line_error(status, err)
    assert "too deeply" in err


def test_integers_of_thousands_of_digits_are_one_line(tmp_path: Path) -> None:
    refused(tmp_path, json.dumps(boston()).replace('"5.00"', "9" * 5000, 1), "thousands of digits")
    within = boston(actions=[{"seat": 10**4000, "action": "fold"}])  # parses, then refused
    err = refused(tmp_path, within, "field 'actions'[0]: seat", "from 0 to 1,000,000")
    assert "0" * EXCERPT_CHARS not in err
    refused(tmp_path, boston(wagers={"1": {"ante": 10**4000, "first": 10}}), "at most")


@pytest.mark.parametrize("key", ["²", "٣", "1²", "01234", "-1", " 1"])
def test_seat_keys_isdigit_accepts_but_int_does_not_are_one_line(tmp_path: Path, key: str) -> None:
    refused(tmp_path, boston(wagers={key: {"ante": 5, "first": 10}}), "seat must be a number")
    dd = copy.deepcopy(SCRIPTS["double-down-round.json"])
    dd["wagers"] = {key: {"wager": 10}}
    refused(tmp_path, dd, "betting area must be a number")


@pytest.mark.parametrize("amount", ["1e999999", "1e5000", "-1e5000", 1e308, "10000000.01"])
def test_enormous_amounts_are_one_line(tmp_path: Path, amount: object) -> None:
    doc = boston(wagers={"1": {"ante": amount, "first": 10}})
    refused(tmp_path, doc, "field 'wagers'.1.ante", "at most 10000000.00")


def test_amounts_are_bounded() -> None:
    assert cents("10000000.00") == MAX_AMOUNT
    assert cents("$10,000,000") == MAX_AMOUNT
    for bad in ("10000000.01", "1e5000", 10**30, "1" * 41, "0.0000000000000000000000000000001"):
        with pytest.raises(FeltError):
            cents(bad)
    started = time.perf_counter()
    with pytest.raises(FeltError, match="at most"):
        cents("1e999999999")
    assert time.perf_counter() - started < 0.5
    assert cents("5.0000000000000000000000000000000") == 500  # exact: no rounding to 28 digits
    with pytest.raises(FeltError, match="whole cents"):
        cents("5.000000000000000000000000000001")


@pytest.mark.parametrize(
    "text",
    ["2,50", "1,0", "1,00,000", "1e2", "1E2", "+5", "$$5", "--5", "1_000", "٣", "0x10", "5 5"],
)
def test_money_text_is_read_as_written_or_refused(text: str) -> None:
    """Issue 18 (review): ``Decimal`` with the commas dropped read "2,50" as $250.00 and "1e2" as
    $100 wherever felt reads an amount (wagers, keno rates); only dollars as people write them
    are read, the rest refused with one message."""
    with pytest.raises(FeltError, match=r"amount in dollars such as 12\.50"):
        cents(text)


def test_money_text_as_people_write_it() -> None:
    # hand-read: each is the amount a cashier would read off the text
    for text, want in [("12.50", 1250), ("$1,250.00", 125_000), ("-0.05", -5), ("-$5", -500),
                       (".50", 50), ("5.", 500), (" 7 ", 700), ("$10,000,000", MAX_AMOUNT)]:  # fmt: skip
        assert cents(text) == want, text


def test_cards_5_on_a_discard_is_one_line(tmp_path: Path) -> None:
    doc = copy.deepcopy(SCRIPTS["boston5-round.json"])
    doc.update(game="boston7", edition="nj-13-69f-24", table={})
    doc["actions"] = [{"seat": 1, "action": "expose"}, {"seat": 1, "action": "second"},
                      {"seat": 2, "action": "fold"}, {"seat": 1, "action": "discard", "cards": 5}]  # fmt: skip
    refused(tmp_path, doc, "field 'actions'[3]: cards must be a list of cards")


def test_a_card_list_on_a_misdeal_is_one_line(tmp_path: Path) -> None:
    doc = boston(actions=[{"irregularity": "misdeal", "cards": ["As"]}])
    refused(tmp_path, doc, "field 'actions'[0]: cards must be a whole number")


def test_odds_of_ten_to_the_twentieth_are_refused_when_the_table_is_read(tmp_path: Path) -> None:
    table = tmp_path / "table.toml"
    table.write_text(
        'game = "boston5"\n[ante_bonus]\n"royal flush" = "100000000000000000000 to 1"\n',
        encoding="utf-8",
    )
    status, _, err = cli("simulate", "boston5", "--table", str(table), "--rounds", "10")
    assert_one_line_error(status, err)
    assert "ante_bonus 'royal flush'" in err
    assert "at most 1,000,000" in err
    dd = tmp_path / "dd.toml"
    dd.write_text('game = "double-down-stud"\n[pay_table]\n"pair" = "1000001 to 1"\n')
    status, _, err = cli("simulate", "double-down-stud", "--table", str(dd), "--rounds", "10")
    assert_one_line_error(status, err)
    assert Payout.parse("1000000 to 1000000").odds == 1
    with pytest.raises(FeltError, match="at most 1,000,000"):
        Payout.parse("1 to 1000001")


def test_an_unreachable_dask_scheduler_fails_fast(tmp_path: Path) -> None:
    started = time.perf_counter()
    status, _, err = cli(
        "simulate", "double-down-stud", "--rounds", "10", "--scheduler", "tcp://127.0.0.1:9"
    )
    assert time.perf_counter() - started < 20
    assert_one_line_error(status, err)
    assert "--scheduler" in err
    assert "tcp://127.0.0.1:9" in err
    status, _, err = cli("simulate", "double-down-stud", "--rounds", "10", "--scheduler", "x" * 300)
    assert_one_line_error(status, err)


def test_a_script_too_large_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    recut = json.dumps({"dealer": "require_recut"})
    body = ", ".join([recut] * (MAX_FILE_BYTES // len(recut) + 10))
    path.write_text(json.dumps(boston()).replace('"actions": [', f'"actions": [{body}, ', 1))
    started = time.perf_counter()
    refused(tmp_path, path, "larger than 1,000,000 bytes")
    assert time.perf_counter() - started < 2
    table = tmp_path / "table.toml"
    table.write_text('game = "boston5"\n' + "# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    status, _, err = cli("guide", "--table", str(table))
    assert_one_line_error(status, err)
    assert "larger than" in err


def test_the_number_of_actions_is_capped(tmp_path: Path) -> None:
    doc = copy.deepcopy(SCRIPTS["double-down-round.json"])
    doc["actions"] = [{"dealer": "require_recut"}] * (MAX_ACTIONS + 1)
    refused(tmp_path, doc, "at most 10,000")


@pytest.mark.parametrize("name", ["x" * 65, "", "   ", "a\nb", 7])
def test_player_names_are_bounded(tmp_path: Path, name: object) -> None:
    doc = boston(wagers={"1": {"ante": 5, "first": 10, "player": name}})
    refused(tmp_path, doc, "player must be a name of 1 to 64 printable characters")


def test_errors_show_only_a_short_excerpt_of_bad_input(tmp_path: Path) -> None:
    long = "Q" * 100_000
    cases: list[Any] = [
        boston(game=long),
        boston(table=[long]),
        boston(deck=[long]),
        boston(deck=long),
        boston(actions=[{"seat": 1, "action": long}]),
        boston(actions=[{"seat": 1, "action": "fold", long: 1}]),
        boston(actions=long),
        boston(wagers={"1": {"ante": long, "first": 10}}),
        boston(wagers={long: {"ante": 5, "first": 10}}),
        boston(table={"dealing": long}),
        boston(table={long: 1}),
        boston(table={"ante_bonus": {long: "1 to 1"}}),
        boston(stub_count_due=long),
        {long: 1},
    ]
    for doc in cases:
        err = refused(tmp_path, doc)
        assert "Q" * (EXCERPT_CHARS + 1) not in err, err
    assert excerpt([[[[[1]]]]]) == "[[[[...]]]]"
    assert len(excerpt(10**4000)) <= EXCERPT_CHARS


def test_every_listed_case_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    """A broad sweep: each bad value in each field of each example script."""
    bad: list[Any] = [None, True, 10**4000, "²", "1e999999", 5, ["As"], {"a": 1}, [[[[]]]], -1]
    for name, example in SCRIPTS.items():
        for path in paths(example)[1:]:
            for value in bad:
                doc = copy.deepcopy(example)
                get(doc, path[:-1])[path[-1]] = value
                target = script_file(tmp_path, doc, name)
                status, _, err = cli("replay", str(target))
                if status != 0:
                    assert_one_line_error(status, err)


# --------------------------------------------------------------------------- item 5: the cache


@pytest.fixture(scope="module")
def cached_bytes(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, bytes]:
    """The name and bytes of a tables cache file as felt writes it (built once here)."""
    from felt.core import tables as module

    path = tmp_path_factory.mktemp("cache") / f"tables-{module._code_digest()}.npz"
    module._save(path, module.tables())
    return path.name, path.read_bytes()


@pytest.fixture
def fresh_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cached_bytes: tuple[str, bytes]
) -> Callable[[], Any]:
    """A cache folder of this test's own holding a good cache file, and a loader that reads it
    bypassing the process-wide memo (so the real cache and the other tests are untouched)."""
    from felt.core import tables as module

    monkeypatch.setenv("FELT_CACHE_DIR", str(tmp_path))
    (tmp_path / cached_bytes[0]).write_bytes(cached_bytes[1])

    def load() -> Any:
        return module.tables.__wrapped__()

    return load


def cache_file(tmp_path: Path) -> Path:
    (found,) = tmp_path.glob("tables-*.npz")
    return found


def royal_beats_pair(t: Any) -> bool:
    from felt.core.cards import parse_cards

    def value(text: str) -> int:
        keys = t.card_keys[list(parse_cards(text))].astype(np.uint64)
        total = int(keys.sum()) + (0x3333 << 32)
        flush = (total >> 32) & 0x8888
        if flush:
            return int(t.flush[sum(1 << (c >> 2) for c in parse_cards(text))])
        low = total & ((1 << 32) - 1)
        return int(t.values[t.row_offsets[low >> 12] + (low & 4095)])

    return value("As Ks Qs Js Ts") > value("2c 2d 7h 9s Jc")


def test_an_edited_cache_entry_is_rebuilt_not_trusted(
    fresh_tables: Callable[[], Any], tmp_path: Path
) -> None:
    built = fresh_tables()
    path = cache_file(tmp_path)
    assert royal_beats_pair(built)
    with np.load(path) as data:
        arrays = {k: data[k].copy() for k in data.files}
    royal = int(np.flatnonzero(arrays["flush"] == arrays["flush"].max())[0])
    arrays["flush"][royal] = 1  # a royal flush now the lowest hand there is
    np.savez(path, **arrays)  # the old digest stays: it no longer matches
    assert not royal_beats_pair(type(built)(**{k: v for k, v in arrays.items() if k != DIGEST_KEY}))
    loaded = fresh_tables()
    assert royal_beats_pair(loaded)
    assert np.array_equal(loaded.flush, built.flush)
    with np.load(path) as data:  # and the file was written again, whole
        assert int(data["flush"][royal]) == int(built.flush[royal])


@pytest.mark.parametrize("damage", ["truncate", "flip", "no digest"])
def test_a_damaged_cache_file_is_rebuilt_not_a_crash(
    fresh_tables: Callable[[], Any], tmp_path: Path, damage: str
) -> None:
    built = fresh_tables()
    path = cache_file(tmp_path)
    raw = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(raw[: len(raw) // 2])
    elif damage == "flip":
        middle = len(raw) // 2
        path.write_bytes(raw[:middle] + bytes([raw[middle] ^ 0xFF]) + raw[middle + 1 :])
    else:
        with np.load(path) as data:
            np.savez(path, **{k: data[k] for k in data.files if k != DIGEST_KEY})
    loaded = fresh_tables()
    assert royal_beats_pair(loaded)
    for name in ("flush", "values", "three", "card_keys"):
        assert np.array_equal(getattr(loaded, name), getattr(built, name))
    assert load_arrays(path, ["flush"]) is not None  # rebuilt and saved again


@pytest.mark.parametrize(
    "damage", [b"", b"PK\x03\x04" + b"\x00" * 100, b"\x93NUMPY", b"not a cache at all"]
)
def test_damaged_cache_bytes_read_as_no_cache(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / "tables.npz"
    path.write_bytes(damage)
    assert load_arrays(path, ["flush"]) is None


def test_a_truncated_cache_file_does_not_break_a_command(
    fresh_tables: Callable[[], Any], tmp_path: Path
) -> None:
    from felt.core import tables as module

    path = cache_file(tmp_path)
    path.write_bytes(path.read_bytes()[:100])
    module.tables.cache_clear()  # as a new process would: nothing loaded yet
    try:
        assert royal_beats_pair(module.tables())  # what every command's first lookup does
        status, out, err = cli("eval", "As", "Ks", "Qs", "Js", "Ts", "--json")
    finally:
        module.tables.cache_clear()
    assert (status, err) == (0, "")
    assert json.loads(out)["category"] == "royal flush"
    assert load_arrays(path, ["flush"]) is not None


def test_cache_files_are_written_atomically_with_a_digest(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "thing.npz"
    save_arrays(path, counts=np.arange(6, dtype=np.int64).reshape(2, 3))
    assert [p.name for p in path.parent.iterdir()] == ["thing.npz"]  # no temporary file left
    arrays = load_arrays(path, ["counts"])
    assert arrays is not None
    assert arrays["counts"].tolist() == [[0, 1, 2], [3, 4, 5]]
    assert load_arrays(path, ["missing"]) is None
    assert load_arrays(tmp_path / "absent.npz", ["counts"]) is None


def test_boston7_counts_cache_is_verified(tmp_path: Path) -> None:
    from felt.games.boston.boston7 import N_LINES, START_CLASSES, load_counts

    path = tmp_path / "boston7.npz"
    counts = np.ones((START_CLASSES, N_LINES, 3), dtype=np.int64)
    save_arrays(path, counts=counts)
    found = load_counts(path)
    assert found is not None
    assert np.array_equal(found, counts)
    with np.load(path) as data:
        arrays = {k: data[k].copy() for k in data.files}
    arrays["counts"][0, 0, 0] = 2
    np.savez(path, **arrays)
    assert load_counts(path) is None
    path.write_bytes(path.read_bytes()[:50])
    assert load_counts(path) is None
    save_arrays(path, counts=counts[:1])  # a well-formed file of the wrong shape
    assert load_counts(path) is None
