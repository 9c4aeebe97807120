"""Exact analyses: checked against brute force, exact symmetries and published figures."""

from __future__ import annotations

import itertools
import json
import pathlib
from fractions import Fraction

import numpy as np
import pytest

from felt.analysis.games import _dds_lines, analyze_boston5, analyze_double_down
from felt.analysis.kernels import BINOM, _all_fives, dds_situations, equity_counts, five_card_values
from felt.cli.main import main
from felt.core.batch import rank_batch
from felt.core.evaluator import evaluate
from felt.games.boston.config import TableConfig
from felt.games.double_down import DoubleDownConfig, classify

# Double Down Stud with the "Jacks or Better" pay table of sonofdave.com/games/double-down-stud/
# ("Return Tables", to-one pays 3999/199/49/11/8/5/3/2/1, sixes to tens push): combinations per
# hand and decision over 12,994,800 deals (5 x C(52,5): each hand with each card as the hole
# card), total return -0.021033. Their strategy doubles when doubling does not lose.
SONOFDAVE = {
    "royal flush": "3999 to 1", "straight flush": "199 to 1", "four of a kind": "49 to 1",
    "full house": "11 to 1", "flush": "8 to 1", "straight": "5 to 1", "three of a kind": "3 to 1",
    "two pair": "2 to 1", "jacks or better": "1 to 1",
}  # fmt: skip
SONOFDAVE_COUNTS = {
    ("stand", "straight"): 31248, ("stand", "three of a kind"): 50688, ("stand", "two pair"): 152064,
    ("stand", "jacks or better"): 657720, ("stand", "pair of sixes to tens"): 816480,
    ("stand", "pair of fives or less"): 8035992, ("double", "royal flush"): 20,
    ("double", "straight flush"): 180, ("double", "four of a kind"): 3120,
    ("double", "full house"): 18720, ("double", "flush"): 25540, ("double", "straight"): 19752,
    ("double", "three of a kind"): 223872, ("double", "two pair"): 465696,
    ("double", "jacks or better"): 1031880, ("double", "pair of sixes to tens"): 1295520,
    ("double", "pair of fives or less"): 166308,
}  # fmt: skip


def test_double_down_matches_published_combinations_and_return() -> None:
    sheet = analyze_double_down(
        DoubleDownConfig.from_mapping({"pay_table": SONOFDAVE}), double_on_ties=True
    )
    ours = {
        (o.decision, o.hand): o.count // 4 for o in sheet.outcomes
    }  # we enumerate own card x up-cards
    assert ours == SONOFDAVE_COUNTS
    assert round(float(sheet.house_edge_ante), 6) == 0.021033
    strict = analyze_double_down(DoubleDownConfig.from_mapping({"pay_table": SONOFDAVE}))
    assert strict.house_edge_ante == sheet.house_edge_ante  # ties change the risk, not the edge


def test_double_down_situation_counts_by_brute_force() -> None:
    config = DoubleDownConfig.from_mapping({})
    names, line_of_value = _dds_lines(config)
    counts, _ = dds_situations(five_card_values(), line_of_value, len(names), BINOM)
    # situation 0 is own card 2c (0) with up-cards 2d 2h 2s (1, 2, 3)
    brute = [0] * len(names)
    for hole in range(4, 52):
        kind = classify(evaluate([0, 1, 2, 3, hole]))
        brute[names.index(kind)] += 1
    assert counts[0].tolist() == brute


def test_double_down_par_sheet_figures_are_consistent() -> None:
    sheet = analyze_double_down(DoubleDownConfig.from_mapping({}))
    assert sheet.total == 52 * 20825 * 48
    never = sheet.strategies["never double"]
    assert sheet.house_edge_ante < never
    assert sheet.house_edge_ante < sheet.strategies["always double"]
    assert 0 < sheet.element_of_risk < sheet.house_edge_ante


def test_equity_counts_by_brute_force_on_sample_hands() -> None:
    lower, equal = equity_counts()
    values = five_card_values()
    hands = _all_fives()
    for h in (0, 1_234_567, 2_598_959):
        held = set(hands[h].tolist())
        rest = [c for c in range(52) if c not in held]
        dealer = np.array(list(itertools.combinations(rest, 5)), dtype=np.uint8)
        v = rank_batch(dealer, check=False)
        assert (v < values[h]).sum() == lower[h]
        assert (v == values[h]).sum() == equal[h]
    assert ((lower + equal) <= 1_533_939).all()


def test_boston5_player_and_dealer_are_symmetric_when_always_raising() -> None:
    """Both get five random cards of one deck: P(player higher) = P(dealer higher), exactly."""
    sheet = analyze_boston5(TableConfig.from_mapping({"game": "boston5"}))
    higher = sum(o.count for o in sheet.outcomes if o.result == "player higher")
    lower = sum(o.count for o in sheet.outcomes if o.result == "dealer higher")
    assert higher == lower
    assert sheet.total == 22100 * 1176 * 1_533_939
    assert sheet.strategy["rule"] == "Always place the second wager."


def test_boston5_optional_bonus_edge_by_hand() -> None:
    """19:47-24.11(d): 40, 25, 6, 3, 1 to 1 over the 22,100 three-card hands (A-K-Q suited is a
    straight flush under the 2003 text)."""
    sheet = analyze_boston5(TableConfig.from_mapping({"game": "boston5"}))
    ev = Fraction(48 * 40 + 52 * 25 + 720 * 6 + 1096 * 3 + 3744 * 1 - 16440, 22100)
    assert sheet.bonus is not None
    assert sheet.bonus["house_edge_exact"] == f"{(-ev).numerator}/{(-ev).denominator}"


def test_boston5_payout_limit_lowers_the_royal() -> None:
    base = analyze_boston5(TableConfig.from_mapping({"game": "boston5"}), 100000)
    capped = analyze_boston5(
        TableConfig.from_mapping({"game": "boston5", "payout_limit": "50000"}), 100000
    )
    assert capped.house_edge_ante > base.house_edge_ante


def test_analyze_cli_json_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "double-down-stud", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("house_edge_ante", "house_edge_initial", "element_of_risk", "std_dev", "strategy"):
        assert key in data
    assert "/" in data["house_edge_ante_exact"]
    assert main(["analyze", "boston5", "--format", "md"]) == 0
    assert capsys.readouterr().out.startswith("# Par sheet")
    assert main(["analyze", "boston5", "--json"]) == 0
    assert "house_edge" in json.loads(capsys.readouterr().out)["bonus"]
    assert main(["analyze", "boston5", "--ante", "2"]) == 2
    assert "outside the table limits" in capsys.readouterr().err
    assert main(["analyze", "boston5", "--table", "/nonexistent.toml"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_equity_counts_cache_is_verified_and_a_tampered_file_is_recomputed(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cached Boston 5 equity counts are checked against the digest stored with them: an
    edited or truncated file is recomputed (issue 10 item 5), never used."""
    from felt.analysis import kernels

    monkeypatch.setenv("FELT_CACHE_DIR", str(tmp_path))
    kernels.equity_counts.cache_clear()
    try:
        first = kernels.equity_counts()
        path = next(tmp_path.glob("equity5-*.npz"))
        with np.load(path) as data:
            stored = {k: data[k] for k in data.files}
        stored["lower"] = stored["lower"].copy()
        stored["lower"][0] += 1  # one count edited
        np.savez(path, **stored)
        kernels.equity_counts.cache_clear()
        again = kernels.equity_counts()
        assert np.array_equal(again[0], first[0])
        path.write_bytes(path.read_bytes()[:1000])  # truncated
        kernels.equity_counts.cache_clear()
        assert np.array_equal(kernels.equity_counts()[1], first[1])
    finally:
        kernels.equity_counts.cache_clear()


def test_17_8_c_double_down_short_rule_matches_every_row_of_the_exact_table() -> None:
    """The par sheet states the optimal double-down play as a short rule a person can use, and
    that rule agrees with the exact decision for every one of the 2,535 visible holdings."""
    from felt.analysis.games import DDS_SHORT_RULE, dds_short_rule

    sheet = analyze_double_down(DoubleDownConfig.from_mapping({}))
    assert sheet.strategy["rule"] == DDS_SHORT_RULE
    rows = sheet.strategy["decisions"]
    assert len(rows) == 2535
    assert all(dds_short_rule(row["visible"]) == row["double"] for row in rows)


def test_boston5_cells_cache_gives_the_counted_cells(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cached Boston 5 cells equal a fresh count, and a tampered cache file is recounted."""
    from felt.analysis import kernels
    from felt.analysis.games import _boston_lines
    from felt.games.boston import TableConfig

    monkeypatch.setenv("FELT_CACHE_DIR", str(tmp_path))
    names, line_of_value = _boston_lines(TableConfig.from_mapping({"game": "boston5"}))
    first = kernels.boston5_cells(line_of_value, len(names))
    path = next(tmp_path.glob("cells5-*.npz"))
    with np.load(path) as data:
        stored = {k: data[k] for k in data.files}
    stored["cells"] = stored["cells"].copy()
    stored["cells"][0, 0, 0] += 1
    np.savez(path, **stored)
    again = kernels.boston5_cells(line_of_value, len(names))
    assert np.array_equal(again, first)
    assert int(first.sum()) == 22100 * 1176 * 1533939
