"""Boston 7 exact analysis: the reduced checks CI runs (the whole count takes about a minute of
CPU and 0.9 GB; ``FELT_FULL=1`` adds it, with its exact symmetry).

Each step of :mod:`felt.games.boston.boston7` is checked against brute force: per-hand counts against
all 45,379,620 dealer hands on hands of every category (13:69F-24.5, 24.11(c)), the suit-pattern
bookkeeping against direct enumeration of every completion of sample starts and against the
seven-card census (which ``test_census`` checks against the published counts).
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pytest

from felt.cli.main import main
from felt.core.batch import rank_batch
from felt.core.cards import parse_cards
from felt.core.census import hand_census
from felt.core.ranking import Category, royal_flush_length
from felt.core.tables import tables
from felt.games.boston import analysis as games
from felt.games.boston import boston7 as b7
from felt.games.boston.analysis import _line_bonus, _suit_pattern_label, analyze_boston7
from felt.games.boston.config import TableConfig
from tests.exhaustive import dealer_counts

FULL = os.environ.get("FELT_FULL") == "1"

# one hand of every kind the count treats differently
SAMPLE_HANDS = [
    "2c 3d 5h 7s 9c Jd Kh",  # high card
    "2c 2d 5h 7s 9c Jd Kh",  # one pair
    "Ac Ad Kh Ks 9c 4d 2h",  # two pair
    "7c 7d 7h Ks 9c 4d 2h",  # three of a kind
    "Ac 2d 3h 4s 5c 9d Jh",  # five-high straight
    "9c Td Jh Qs Kc 2d 2h",  # straight with a pair
    "2h 5h 8h Jh Kh 3c 4d",  # flush of exactly five
    "2h 5h 8h Jh Kh 3h 4d",  # six-card flush
    "2h 3h 4h 5h 9h Ac Ad",  # flush holding a pair
    "9c 9d 9h 4s 4c 2d Kh",  # full house
    "9c 9d 9h 9s 4c 4d Kh",  # four of a kind with a pair
    "5d 6d 7d 8d 9d Ks Kc",  # straight flush
    "Ah Kh Qh Jh Th 2c 3d",  # royal flush
    "Ah Kh Qh Jh Th 9h 3d",  # six-card royal flush
    "As Ks Qs Js Ts 9s 8s",  # seven-card royal flush
    "2s 3s 4s 5s 2h 3h 4h",  # four of one suit, three of another
]


def _random_hands(n: int, seed: int) -> list[str]:
    """Random hands, half of them with four to six cards of one suit (where flushes interact)."""
    from felt.core.cards import Card

    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        if i % 2:
            k = int(rng.integers(4, 7))
            suited = [4 * int(r) + 3 for r in rng.choice(13, k, replace=False)]
            rest = [c for c in range(52) if c & 3 != 3]
            cards = suited + [int(c) for c in rng.choice(rest, 7 - k, replace=False)]
        else:
            cards = [int(c) for c in rng.choice(52, 7, replace=False)]
        out.append(" ".join(str(Card(c)) for c in cards))
    return out


HANDS = SAMPLE_HANDS + _random_hands(6, 2026)


def _masks(hands: list[str]) -> np.ndarray:
    return np.array([b7.canonical_masks([int(c) for c in parse_cards(h)]) for h in hands])


@pytest.fixture(scope="module")
def prepared() -> b7.Prepared:
    return b7.prepare(b7.default_threads(), _masks(HANDS))


@pytest.fixture(scope="module")
def counted(prepared: b7.Prepared) -> tuple[np.ndarray, np.ndarray]:
    """Every sample hand counted in one call, split over threads."""
    masks = _masks(HANDS)
    return b7.count_hands(prepared, masks, np.ones(len(masks), dtype=np.int64), 2)


def test_canonical_hands_stand_for_every_seven_card_hand_once() -> None:
    masks, orbit = b7.canonical_hands()
    assert len(masks) == 6_009_159
    assert int(orbit.sum()) == comb(52, 7)
    assert (np.diff(masks, axis=1) <= 0).all()  # m0 >= m1 >= m2 >= m3
    assert len(np.unique(masks, axis=0)) == len(masks)
    for row in masks[:: len(masks) // 50]:  # a canonical row canonicalises to itself
        cards = [4 * r + s for s in range(4) for r in range(13) if row[s] >> r & 1]
        assert (b7.canonical_masks(cards) == row).all()


def test_start_classes() -> None:
    cls, sizes, starts = b7.start_classes()
    assert len(sizes) == b7.START_CLASSES
    assert int(sizes.sum()) == 22100
    assert np.bincount(cls).tolist() == sizes.tolist()
    labels = {_suit_pattern_label(s) for s in starts}
    assert len(labels) == b7.START_CLASSES
    assert (
        _suit_pattern_label(tuple(int(c) for c in parse_cards("Ah 7h Kd"))) == "A-K-7 (A-7 suited)"
    )
    assert _suit_pattern_label(tuple(int(c) for c in parse_cards("Ah As 7h"))) == "A-A-7 two suited"


@pytest.mark.parametrize("i", range(len(HANDS)), ids=HANDS)
def test_dealer_hands_below_and_equal_by_brute_force(
    counted: tuple[np.ndarray, np.ndarray], i: int
) -> None:
    """Per-hand counts against every dealer hand of the other 45 cards (13:69F-24.10(e)-(f))."""
    masks = _masks([HANDS[i]])
    canonical = [4 * r + s for s in range(4) for r in range(13) if masks[0, s] >> r & 1]
    assert tuple(counted[1][i]) == dealer_counts(canonical)


def test_flush_superset_lists_by_direct_enumeration(prepared: b7.Prepared) -> None:
    """Each set's list (shared by its suit class) holds the rank values of exactly the flush
    hands holding it: checked by dealing every completion of sets of three to five cards, two of
    them one suit renaming apart."""
    t = tables()
    sets = [(3, 7, 11), (0, 4, 8), (0, 5, 10), (0, 4, 8, 13), (14, 25, 31, 50), (2, 6, 10, 14, 18)]
    sets += [(3, 28, 32, 48, 50), (9, 12, 32, 38, 47), (1, 5, 9, 17, 30)]
    for cards in sets:
        index = b7.LEVEL_BASE[len(cards)] + sum(comb(c, i + 1) for i, c in enumerate(cards))
        seg = prepared.sup_class[index]
        got = prepared.sup_vals[prepared.sup_off[seg] : prepared.sup_off[seg + 1]].tolist()
        rest = np.array([c for c in range(52) if c not in cards], dtype=np.int64)
        hands = np.column_stack([np.tile(cards, (comb(len(rest), 7 - len(cards)), 1)),
                                 rest[np.array(_combos(list(range(len(rest))), 7 - len(cards)))]])  # fmt: skip
        suits = np.stack([(hands & 3 == s).sum(axis=1) for s in range(4)], axis=1)
        flush = hands[suits.max(axis=1) >= 5]
        counts = np.zeros((len(flush), 13), dtype=np.int64)
        for col in (flush >> 2).T:
            counts[np.arange(len(flush)), col] += 1
        assert got == sorted(t.values[b7._slot(counts)].tolist())


def test_counts_land_in_each_start_and_result_column(prepared: b7.Prepared) -> None:
    """One hand counted alone adds (below, equal, above) to its line once per start it holds."""
    for hand in ("Ah Kh Qh Jh Th 9h 3d", "2c 3d 5h 7s 9c Jd Kh", "9c 9d 9h 4s 4c 2d Kh"):
        acc, per_hand = b7.count_hands(prepared, _masks([hand]), np.ones(1, dtype=np.int64), 1)
        below, equal = per_hand[0]
        lines = np.flatnonzero(acc.sum(axis=(0, 2)))
        assert len(lines) == 1
        total = acc[:, lines[0], :].sum(axis=0).tolist()
        assert total == [35 * below, 35 * equal, 35 * (b7.DEALER_HANDS - below - equal)]
        assert acc.sum(axis=(1, 2)).max() <= 35 * b7.DEALER_HANDS


def test_unprepared_hands_are_refused(prepared: b7.Prepared) -> None:
    """Counting a hand whose ranks were not prepared is an error, never a wrong count."""
    masks = _masks(["2c 2d 2h 2s 3c 3d 3h"])  # no sample hand has these ranks
    with pytest.raises(ValueError, match="not among the rows prepared"):
        b7.count_hands(prepared, masks, np.ones(1, dtype=np.int64), 1)


def test_lines_and_suit_pattern_weights_by_direct_enumeration() -> None:
    """The start-class bookkeeping: with counting switched off each hand adds C(45,7) to its
    line, so a class's cells are its completions by line; checked by dealing every completion."""
    prep = b7.prepare(1, count=False)
    masks, orbit = b7.canonical_hands()
    acc, _ = b7.count_hands(prep, masks, orbit, b7.default_threads(), count=False)
    cls, sizes, _ = b7.start_classes()
    assert not (acc % sizes[:, None, None]).any()
    per_start = acc[:, :, 2] // sizes[:, None]
    assert (per_start.sum(axis=1) == b7.COMPLETIONS * b7.DEALER_HANDS).all()
    # every hand counted 35 times (once per start it holds): the seven-card census by line
    census = hand_census(7)
    by_line = acc[:, :, 2].sum(axis=0) // (35 * b7.DEALER_HANDS)
    extended = census.extended_royals
    want = [census.counts[Category(k).label] for k in range(len(Category))]
    want[Category.ROYAL_FLUSH] -= sum(extended.values())
    want += [extended["six-card royal flush"], extended["seven-card royal flush"]]
    assert by_line.tolist() == want
    for start in ("As Ks Qs", "Ts 9s 8s", "2c 2d 2h", "Ah 7h Kd"):
        three = [int(c) for c in parse_cards(start)]
        rest = [c for c in range(52) if c not in three]
        hands = np.array([three + list(x) for x in _combos(rest, 4)], dtype=np.uint8)
        cats = tables().five_category[rank_batch(hands, check=False)]
        lines = cats.astype(np.int64)
        for i in np.flatnonzero(cats == Category.ROYAL_FLUSH):
            length = royal_flush_length(hands[i].tolist())
            lines[i] = {6: b7.SIX_ROYAL, 7: b7.SEVEN_ROYAL}.get(length, lines[i])
        c = cls[sum(comb(x, k + 1) for k, x in enumerate(sorted(three)))]
        assert (
            np.bincount(lines, minlength=b7.N_LINES).tolist()
            == (per_start[c] // b7.DEALER_HANDS).tolist()
        )


def _combos(items: list[int], k: int) -> list[tuple[int, ...]]:
    from itertools import combinations

    return list(combinations(items, k))


def test_13_69f_24_11_c_highest_payout_at_the_ante() -> None:
    """A seven-card royal is paid once, at the best of its lines: $25,000 at a $5 ante, 200 to 1
    at a $200 ante (more than $25,000)."""
    config = TableConfig.from_mapping({"game": "boston7", "maximum": "1000"})
    assert _line_bonus(config, 500, "seven-card royal flush") == 2_500_000
    assert _line_bonus(config, 20000, "seven-card royal flush") == 4_000_000
    assert _line_bonus(config, 500, "six-card royal flush") == 500_000
    assert _line_bonus(config, 500, "two pair") is None


def _fake_counts() -> b7.Boston7Counts:
    """Counts with the right shape and totals (the CLI test must not wait a minute)."""
    _, sizes, starts = b7.start_classes()
    counts = np.zeros((b7.START_CLASSES, b7.N_LINES, 3), dtype=np.int64)
    total = b7.COMPLETIONS * b7.DEALER_HANDS
    counts[:, Category.HIGH_CARD, 0] = total // 2
    counts[:, Category.HIGH_CARD, 2] = total - total // 2 - 1000
    counts[:, b7.SEVEN_ROYAL, 1] = 1000
    return b7.Boston7Counts(counts, sizes, starts)


def test_analyze_boston7_cli_formats(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(games, "boston7_counts", lambda **_: _fake_counts())
    assert (games.line_index_of_code(["no ante bonus hand", "royal flush"])[10:] == 1).all()
    assert main(["analyze", "boston7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("house_edge_ante", "house_edge_initial", "element_of_risk", "std_dev", "strategy"):
        assert key in data
    assert "Never discard" in data["strategy"]["discard"]
    assert main(["analyze", "boston7", "--format", "md"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("# Par sheet")
    assert "Never discard" in md
    assert md.count("\n| A-") > 100  # the decision table: a row per suit pattern, aces first
    assert md.index("| A-A-A |") < md.index("| 2-2-2 |")
    assert main(["analyze", "boston7", "--format", "html"]) == 0
    assert "<h2>Appendix: decision table</h2>" in capsys.readouterr().out
    assert main(["analyze", "boston7", "--plot", str(tmp_path / "d.png")]) == 0
    assert (tmp_path / "d.png").stat().st_size > 0
    assert main(["analyze", "boston7", "--ante", "1"]) == 2
    assert "outside the table limits" in capsys.readouterr().err


def test_wager_ratio_1_and_2_weight_the_same_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """13:69F-24.6(d): the ratio changes the first and second wagers, not the counts; with the
    fake counts (ties only on a seven-card royal) the net per ante follows by hand."""
    monkeypatch.setattr(games, "boston7_counts", lambda **_: _fake_counts())
    for ratio in (1, 2):
        config = TableConfig.from_mapping({"game": "boston7", "first_ratio": ratio})
        sheet = analyze_boston7(config)
        total = b7.COMPLETIONS * b7.DEALER_HANDS
        win, lose = total // 2, total - total // 2 - 1000
        first = ratio
        ev = Fraction(win * 2 * first - lose * (2 * first + 1) + 1000 * 5000, total)
        assert sheet.house_edge_ante == -ev
        assert sheet.initial_units == 1 + ratio
        other = next(n for n in sheet.notes if n.startswith("the other ratio"))
        assert f"wagers of {3 - ratio} x the ante" in other
        o = 3 - ratio
        ev_other = Fraction(win * 2 * o - lose * (2 * o + 1) + 1000 * 5000, total)
        assert f"({-ev_other})" in other


@pytest.mark.skipif(not FULL, reason="the whole Boston 7 count: set FELT_FULL=1")
def test_full_boston7_counts_are_symmetric_and_match_a_dealt_out_start() -> None:
    """Player and dealer each get seven random cards: P(player higher) = P(dealer higher); and
    the start A-K-Q suited, completed every way and each hand counted alone, gives its class."""
    counts = b7.boston7_counts(cache=False)
    assert (counts.counts.sum(axis=(1, 2)) == b7.COMPLETIONS * b7.DEALER_HANDS).all()
    by_result = (counts.counts * counts.sizes[:, None, None]).sum(axis=(0, 1))
    assert by_result[0] == by_result[2]
    three = [int(c) for c in parse_cards("As Ks Qs")]
    rest = [c for c in range(52) if c not in three]
    hands = [three + list(x) for x in _combos(rest, 4)]
    masks = np.array([b7.canonical_masks(h) for h in hands])
    _, per_hand = b7.count_hands(b7.prepare(b7.default_threads()), masks,
                                   np.ones(len(masks), dtype=np.int64), b7.default_threads())  # fmt: skip
    cells = np.zeros((b7.N_LINES, 3), dtype=np.int64)
    for h, (below, equal) in zip(hands, per_hand, strict=True):
        category = tables().five_category[rank_batch([h])[0]]
        length = royal_flush_length(h)
        line = {6: b7.SIX_ROYAL, 7: b7.SEVEN_ROYAL}.get(length, int(category))
        cells[line] += (below, equal, b7.DEALER_HANDS - below - equal)
    cls = b7.start_classes()[0][sum(comb(x, k + 1) for k, x in enumerate(sorted(three)))]
    assert (counts.counts[cls] == cells).all()
    sheet = analyze_boston7(TableConfig.from_mapping({"game": "boston7"}))
    assert sheet.strategy["rule"] == "Always place the second wager."
