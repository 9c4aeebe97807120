"""The exact craps analysis (N.J.A.C. 19:47-1.2(a), 1.4-1.6) against published figures (each source
named beside it), classical closed forms, and a seeded Monte Carlo of the dice agreeing within its
standard error."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from felt.games.craps.analysis import (
    CrapsSheet,
    line_with_odds,
    multiples_of,
    par_sheet,
    pass_line_monte_carlo,
    ways,
)
from felt.games.craps.config import CrapsConfig


@pytest.fixture(scope="module")
def sheet() -> CrapsSheet:
    return par_sheet(CrapsConfig.from_mapping({}))


# Published figures.  Sources (compiled in /work/brief/craps_sources.md section 7):
# pass 1.41%, don't pass 1.36%, pass + 3-4-5x 0.374%: casinodealerswebsite.com "house summary";
# John Grochowski, "The math of the pass line" (Casino City Times); place 6.67/4.00/1.52% and
# place to lose 3.03/2.50/1.82%: internet-casinos-gambling-sportsbooks.com/craps.html; hard ways
# 11.11% / 9.09%: betting-strategies.com (2018); any seven 16.67%: craps-rules.com craps-odds;
# any craps 11.11%: zipdo.co craps statistics; 2 or 12 at 30 to 1 13.89%: Grochowski "Craps
# Theories"; 3 or 11 at 15 to 1 11.11%: liveabout.com horn bets; horn 12.5%: bestusacasinosites.
PUBLISHED = {
    "pass": (Fraction(7, 495), "1.41"),
    "dont_pass": (Fraction(3, 220), "1.36"),
    "come": (Fraction(7, 495), "1.41"),
    "dont_come": (Fraction(3, 220), "1.36"),
    "place_6": (Fraction(1, 66), "1.52"),
    "place_8": (Fraction(1, 66), "1.52"),
    "place_5": (Fraction(1, 25), "4.00"),
    "place_9": (Fraction(1, 25), "4.00"),
    "place_4": (Fraction(1, 15), "6.67"),
    "place_10": (Fraction(1, 15), "6.67"),
    "place_lose_4": (Fraction(1, 33), "3.03"),
    "place_lose_5": (Fraction(1, 40), "2.50"),
    "place_lose_6": (Fraction(1, 55), "1.82"),
    "hard_6": (Fraction(1, 11), "9.09"),
    "hard_8": (Fraction(1, 11), "9.09"),
    "hard_4": (Fraction(1, 9), "11.11"),
    "hard_10": (Fraction(1, 9), "11.11"),
    "any_seven": (Fraction(1, 6), "16.67"),
    "any_craps": (Fraction(1, 9), "11.11"),
    "craps_2": (Fraction(5, 36), "13.89"),
    "craps_12": (Fraction(5, 36), "13.89"),
    "craps_3": (Fraction(1, 9), "11.11"),
    "eleven": (Fraction(1, 9), "11.11"),
    "horn": (Fraction(1, 8), "12.50"),
}


@pytest.mark.parametrize("wager", sorted(PUBLISHED))
def test_house_edge_per_wager_matches_published_1_2_a(sheet: CrapsSheet, wager: str) -> None:
    """Each wager of 1.2(a) at the 1.4 minimum pays: the exact edge and the published percent."""
    exact, published = PUBLISHED[wager]
    edge = sheet.wager(wager).edge_made
    assert edge == exact
    assert f"{float(edge) * 100:.2f}" == published


def test_field_edges_1_2_a_11() -> None:
    """Field (1.2(a)11) 1/18 with 2 to 1 on 2 and 12; 1/36 with 3 to 1 on 12 (exact dice counts:
    the field wins 16 of 36 throws; 2 to 1 on 2 and 12 returns 14 + 2 + 2 = 18 units on 36 less the
    20 lost)."""
    assert par_sheet(CrapsConfig.from_mapping({})).wager("field").edge_made == Fraction(1, 18)
    three = par_sheet(CrapsConfig.from_mapping({"pays": {"field_12": "3 to 1"}}))
    assert three.wager("field").edge_made == Fraction(1, 36)


def test_pass_closed_form_1_2_a_1(sheet: CrapsSheet) -> None:
    """Pass (1.2(a)1) wins 244/495 (the classical sum 8/36 + 2 x (3/36 x 3/9 + 4/36 x 4/10 + 5/36 x
    5/11)); it takes 557/165 rolls on average (1 + 2 x (3/36 x 36/9 + 4/36 x 36/10 + 5/36 x 36/11))
    and so costs 7/1671 per roll."""
    p = Fraction(8, 36) + 2 * sum(Fraction(w, 36) * Fraction(w, w + 6) for w in (3, 4, 5))
    rolls = 1 + 2 * sum(Fraction(w, 36) * Fraction(36, w + 6) for w in (3, 4, 5))
    w = sheet.wager("pass")
    assert (w.win, p) == (Fraction(244, 495), Fraction(244, 495))
    assert w.rolls == rolls == Fraction(557, 165)
    assert w.edge_per_roll == Fraction(7, 1671)


def test_dont_pass_barred_12_push_1_2_a_2_iv(sheet: CrapsSheet) -> None:
    """Don't pass (1.2(a)2): the 12 bars it on the come out (a push 1/36); per wager resolved the
    edge is 27/1925 = 1.403% (casinodealerswebsite.com summary; bobscasinoclub.com)."""
    w = sheet.wager("dont_pass")
    assert w.push == Fraction(1, 36)
    assert w.win + w.lose + w.push == 1
    assert w.edge_resolved == Fraction(27, 1925)
    assert f"{float(w.edge_resolved) * 100:.3f}" == "1.403"


def test_place_6_per_decision_and_per_roll_1_2_a_5(sheet: CrapsSheet) -> None:
    """Place 6 to win at 7 to 6 (1.2(a)5): 5 ways against 6, decided in 36/11 rolls, so 1/66 per
    decision and 1/216 per working roll."""
    w = sheet.wager("place_6")
    assert (w.win, w.rolls, w.edge_per_roll) == (Fraction(5, 11), Fraction(36, 11),
                                                  Fraction(1, 216))  # fmt: skip


def test_buy_lay_and_odds_true_odds_no_edge_1_5_1_6(sheet: CrapsSheet) -> None:
    """Buy and lay (1.5, title only: vigorish prohibited) and the odds (1.6, title only) pay true
    odds: no edge."""
    for n in (4, 5, 6, 8, 9, 10):
        for id_ in (f"buy_{n}", f"lay_{n}", f"pass_odds_{n}", f"dont_pass_odds_{n}"):
            assert sheet.wager(id_).edge_made == 0, id_


def test_pass_with_odds_1_6() -> None:
    """Pass with 3-4-5x odds: 7/1870 = 0.374% (casinodealerswebsite.com summary); with 1x, 2x:
    0.848%, 0.606% (same source); don't pass with 3-4-5x (lay to win up to 6x flat): 3/1100."""
    assert line_with_odds("pass", multiples_of("3-4-5")) == Fraction(7, 1870)
    assert f"{float(line_with_odds('pass', multiples_of('1'))) * 100:.3f}" == "0.848"
    assert f"{float(line_with_odds('pass', multiples_of('2'))) * 100:.3f}" == "0.606"
    assert line_with_odds("dont_pass", multiples_of("3-4-5")) == Fraction(3, 1100)


def test_sheet_uses_the_tables_pays_and_odds_1_4() -> None:
    """A table paying more (1.4: never less) changes the figures: place 6 at 7 to 5 gives the
    player 1/11 (5/11 x 7/5 - 6/11); a 10x table's combined line figure is the sheet's own."""
    config = CrapsConfig.from_mapping({"pays": {"place_6": "7 to 5"}, "odds": 10})
    sheet = par_sheet(config)
    assert sheet.wager("place_6").edge_made == Fraction(-1, 11)
    own = sheet.combined()[0]
    assert own[0].startswith("10x")
    assert own[1] == Fraction(7, 3795)


def test_sheet_formats(sheet: CrapsSheet) -> None:
    """Every format carries the settings and the figures; the JSON's exact values read back."""
    data = json.loads(sheet.to_json_text())
    by_id = {w["id"]: w for w in data["wagers"]}
    assert by_id["pass"]["house_edge_per_wager"]["exact"] == "7/495"
    assert by_id["pass"]["clause"] == "N.J.A.C. 19:47-1.2(a)1"
    assert data["settings"]["odds (1.6)"] == "3-4-5x"
    for text in (sheet.to_text(), sheet.to_markdown(), sheet.to_html()):
        assert "Place 6 to win" in text
        assert "7/1870" in text
        assert "5.00" in text


def test_ways_are_counted_from_the_dice() -> None:
    """The analysis counts the 36 throws itself (1.1: two dice)."""
    assert sum(ways(t) for t in range(2, 13)) == 36
    assert ways(7) == 6
    assert ways(2) == 1


def test_monte_carlo_agrees_within_standard_error(sheet: CrapsSheet) -> None:
    """A seeded Monte Carlo of 400,000 pass decisions, place 6 decisions and field rolls: each
    mean net within 4 standard errors of the exact figure."""
    rng = np.random.default_rng(20261127)
    n = 400_000
    samples = {"pass": pass_line_monte_carlo(rng, n).astype(np.float64)}
    t = rng.integers(1, 7, 3 * n) + rng.integers(1, 7, 3 * n)
    decided = t[(t == 6) | (t == 7)][:n]
    samples["place_6"] = np.where(decided == 6, 7 / 6, -1.0)
    f = t[:n]
    samples["field"] = np.select([f == 2, f == 12, np.isin(f, (3, 4, 9, 10, 11))], [2.0, 2.0, 1.0],
                                 -1.0)  # fmt: skip
    for wager, nets in samples.items():
        exact = float(sheet.wager(wager).net)
        se = nets.std(ddof=1) / np.sqrt(len(nets))
        assert abs(nets.mean() - exact) < 4 * se, (wager, nets.mean(), exact, se)


def test_pass_with_odds_outcomes_for_the_plot_1_6(sheet: CrapsSheet) -> None:
    """The distribution ``felt analyze --plot`` draws: pass with 3-4-5x odds wins 7 units on any
    point made (3 x 2 to 1, 4 x 3 to 2, 5 x 6 to 5, each plus the flat wager: the point of
    3-4-5x), loses 1 + the multiple on a seven out; the probabilities add to 1 and the edge per
    flat wager is still 7/495."""
    outcomes = sheet.outcomes
    assert sum(sheet.probability(o) for o in outcomes) == 1
    assert {o.net for o in outcomes if o.name.endswith("made")} == {7}
    assert {o.name: o.net for o in outcomes}["point 6, seven out"] == -6
    assert sheet.house_edge_ante == Fraction(7, 495)
