"""Exact analyses: checked against brute force, exact symmetries and published figures."""

from __future__ import annotations

import functools
import itertools
import json
import pathlib
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from numpy.typing import NDArray

from felt.analysis.kernels import (
    BINOM,
    class_completions,
    equity_counts,
    five_card_values,
)
from felt.cli.main import main
from felt.core.batch import rank_batch
from felt.core.evaluator import evaluate
from felt.games.boston.analysis import analyze_boston5
from felt.games.boston.config import TableConfig
from felt.games.double_down import DoubleDownConfig, classify
from felt.games.double_down.analysis import _dds_lines, analyze_double_down, dds_situations
from tests.exhaustive import all_hands, colex5

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
    """Per suit class of the four visible cards: the 48 hole cards' pay lines by brute force,
    the class key from the cards, and 4 situations (own card, up-cards) per set of four."""
    config = DoubleDownConfig.from_mapping({})
    names, line_of_value = _dds_lines(config)
    counts, keys, situations, cards = dds_situations(line_of_value, len(names))
    assert cards[0].tolist() == [0, 1, 2, 3]  # class 0: 2c 2d 2h 2s
    assert len(counts) == 16432
    assert int(situations.sum()) == 52 * 20825
    rng = np.random.default_rng(17)
    for c in [0, 1, len(counts) - 1, *rng.integers(0, len(counts), 12).tolist()]:
        four = cards[c].tolist()
        brute = [0] * len(names)
        for hole in set(range(52)) - set(four):
            brute[names.index(classify(evaluate([*four, hole])))] += 1
        assert counts[c].tolist() == brute
        ranks = sorted((card >> 2 for card in four), reverse=True)
        code = ((ranks[0] * 13 + ranks[1]) * 13 + ranks[2]) * 13 + ranks[3]
        assert keys[c] == 2 * code + (len({card & 3 for card in four}) == 1)


@pytest.mark.parametrize(
    ("k", "classes"), [(0, 1), (1, 13), (2, 169), (3, 1755), (4, 16432), (5, 134459)]
)
def test_suit_classes_are_the_sets_alike_up_to_renaming_suits(k: int, classes: int) -> None:
    """Every k-card set is in the class of its canonical set, renaming its suits keeps its class,
    and sets of different classes cannot be renamed into one another (their sorted suit masks
    differ); each class lists every hand holding its canonical set."""
    class_of, canonical, completions = class_completions(k)
    assert canonical.shape == (classes, k)
    assert len(class_of) == comb(52, k)
    assert completions.shape == (classes, comb(52 - k, 5 - k))
    rng = np.random.default_rng(k)

    def index(cards: list[int]) -> int:
        return sum(comb(c, i + 1) for i, c in enumerate(sorted(cards)))

    def masks(cards: list[int]) -> list[int]:
        return sorted(sum(1 << (c >> 2) for c in cards if c & 3 == s) for s in range(4))

    hand_masks = _hand_masks()
    for c in [*range(min(classes, 20)), *rng.integers(0, classes, 20).tolist()]:
        cards = canonical[c].tolist()
        assert class_of[index(cards)] == c  # each canonical set is in its own class
        mask = np.uint64(sum(1 << card for card in cards))
        holding = np.flatnonzero((hand_masks & mask) == mask)
        assert completions[c].tolist() == holding.tolist()
    for _ in range(200):
        cards = rng.choice(52, k, replace=False).tolist()
        rename = rng.permutation(4).tolist()
        renamed = [(c & ~3) | rename[c & 3] for c in cards]
        assert class_of[index(cards)] == class_of[index(renamed)]
        assert masks(cards) == masks(canonical[class_of[index(cards)]].tolist())


@functools.cache
def _hand_masks() -> NDArray[np.uint64]:
    """Each five-card hand (by colex index) as a 52-bit mask of its cards, dealt by the test
    helpers (not by the kernels under test)."""
    hands = np.concatenate([all_hands(5, first) for first in range(48)])
    masks = np.zeros(len(hands), dtype=np.uint64)
    masks[colex5(hands, BINOM)] = (np.uint64(1) << hands.astype(np.uint64)).sum(
        axis=1, dtype=np.uint64
    )
    return masks


def test_equity_counts_by_brute_force_on_many_hands() -> None:
    """Counted by suit class and inclusion-exclusion, checked against every dealer hand of the 47
    other cards for hands of every category and random hands (the classes of most are not their
    own canonical sets, so the copying to the whole class is checked too)."""
    lower, equal = equity_counts()
    values = five_card_values()
    hand_masks = _hand_masks()
    tops = np.cumsum([0, 1277, 2860, 858, 858, 10, 1277, 156, 156, 9, 1])  # 19:47-24.5 order
    first_of_each = [int(np.flatnonzero((values > lo) & (values <= hi))[0])
                     for lo, hi in itertools.pairwise(tops)]  # fmt: skip
    rng = np.random.default_rng(5)
    for h in [*first_of_each, *rng.integers(0, len(values), 40).tolist()]:
        others = values[(hand_masks & hand_masks[h]) == 0]
        assert len(others) == 1_533_939
        assert (others < values[h]).sum() == lower[h]
        assert (others == values[h]).sum() == equal[h]


def test_equity_counts_balance_over_all_hands() -> None:
    """Over every pair of disjoint hands, the first is higher as often as the second: the sum
    over all hands of the hands below equals the sum of the hands above."""
    lower, equal = equity_counts()
    assert int(lower.sum()) == int((1_533_939 - lower - equal).sum())
    assert int(equal.min()) >= 0
    assert int(lower.min()) >= 0


def test_boston5_cells_by_direct_sum_on_sample_starts() -> None:
    """The start cells, counted per suit class of start, equal the sum over each start's own
    1,176 completions for starts of several classes (canonical or not)."""
    from felt.games.boston.analysis import _boston_lines, boston5_cells

    names, line_of_value = _boston_lines(TableConfig.from_mapping({"game": "boston5"}))
    cells = boston5_cells(line_of_value, len(names))
    lower, equal = equity_counts()
    line = line_of_value[five_card_values()]
    hand_masks = _hand_masks()
    rng = np.random.default_rng(11)
    for start in [0, 1, 22099, *rng.integers(0, 22100, 8).tolist()]:
        a, b, c = (int(x) for x in np.flatnonzero(_start_mask(start)))
        mask = np.uint64((1 << a) | (1 << b) | (1 << c))
        holding = np.flatnonzero((hand_masks & mask) == mask)
        assert len(holding) == 1176
        for li in range(len(names)):
            on = holding[line[holding] == li]
            expected = [lower[on].sum(), equal[on].sum(), (1_533_939 - lower[on] - equal[on]).sum()]
            assert cells[start, li].tolist() == expected


def _start_mask(start: int) -> NDArray[np.bool_]:
    """The three cards of the start with colex index ``start``, as 52 booleans."""
    for c in range(2, 52):
        for b in range(1, c):
            for a in range(b):
                if comb(a, 1) + comb(b, 2) + comb(c, 3) == start:
                    return np.isin(np.arange(52), [a, b, c])
    raise AssertionError(start)


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
    for h in (0, 1_234_567, 2_598_959):
        rest = [c for c in range(52) if not int(_hand_masks()[h]) >> c & 1]
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
    from felt.games.double_down.analysis import DDS_SHORT_RULE, dds_short_rule

    sheet = analyze_double_down(DoubleDownConfig.from_mapping({}))
    assert sheet.strategy["rule"] == DDS_SHORT_RULE
    rows = sheet.strategy["decisions"]
    assert len(rows) == 2535
    assert all(dds_short_rule(row["visible"]) == row["double"] for row in rows)


def test_boston5_cells_cache_gives_the_counted_cells(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cached Boston 5 cells equal a fresh count, and a tampered cache file is recounted."""
    from felt.games.boston import TableConfig
    from felt.games.boston.analysis import _boston_lines, boston5_cells

    monkeypatch.setenv("FELT_CACHE_DIR", str(tmp_path))
    names, line_of_value = _boston_lines(TableConfig.from_mapping({"game": "boston5"}))
    first = boston5_cells(line_of_value, len(names))
    path = next(tmp_path.glob("cells5-*.npz"))
    with np.load(path) as data:
        stored = {k: data[k] for k in data.files}
    stored["cells"] = stored["cells"].copy()
    stored["cells"][0, 0, 0] += 1
    np.savez(path, **stored)
    again = boston5_cells(line_of_value, len(names))
    assert np.array_equal(again, first)
    assert int(first.sum()) == 22100 * 1176 * 1533939
