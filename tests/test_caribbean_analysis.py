"""The exact analysis of Caribbean Stud Poker (19:47-16, issue 21) against published figures.

Sources of the figures:
- the return table over all 19,933,230,517,200 deals under the optimal strategy: Wizard of Odds
  (Michael Shackleford), as reproduced by casinoadvisor.com "Caribbean Stud Poker Probability"
  (2008);
- each strategy's total loss, house edge and element of risk: wizardofodds.com, "Caribbean Stud
  Poker", the strategy comparison table;
- the progressive wager's return: usvegas.com "Caribbean Stud" (flush, full house and four of a
  kind paying $50, $75 and $100 on a $1 wager, the royal flush 100% and the straight flush 10% of
  the meter: about $0.23 per $1 plus 2.924 cents per $10,000 of meter).

The stand-in table below carries only the attribute names the analysis reads
(``CaribbeanConfig`` is written elsewhere); the minimum pay table of the issue.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

import pytest

from felt.core.errors import FeltError
from felt.core.tables import cache_dir
from felt.games.caribbean_stud import analysis
from felt.games.caribbean_stud.analysis import DEALS, CaribbeanSheet, analyze, progressive_return

F = Fraction
MINIMUM_PAYS = {
    "royal flush": F(100), "straight flush": F(50), "four of a kind": F(20), "full house": F(7),
    "flush": F(5), "straight": F(4), "three of a kind": F(3), "two pair": F(2),
    "one pair": F(1), "ace king": F(1),
}  # fmt: skip


@dataclass(frozen=True)
class StandInProgressive:
    """The progressive settings' names as the shared decisions fix them."""

    wager: int = 100
    rate: Fraction = field(default_factory=lambda: F(1, 4))
    seed: int = 10_000_00
    meter: str = "caribbean"
    percent: dict[str, Fraction] = field(
        default_factory=lambda: {"royal flush": F(1), "straight flush": F(1, 10)}
    )
    fixed: dict[str, int] = field(
        default_factory=lambda: {"four of a kind": 500_00, "full house": 100_00, "flush": 50_00}
    )


@dataclass(frozen=True)
class StandInConfig:
    """``CaribbeanConfig``'s attributes the analysis reads."""

    bet_pays: dict[str, Fraction] = field(default_factory=lambda: dict(MINIMUM_PAYS))
    progressive: StandInProgressive | None = field(default_factory=StandInProgressive)
    minimum: int = 5_00
    maximum: int = 500_00
    payout_limit: int | None = None


@pytest.fixture(scope="module")
def sheet() -> CaribbeanSheet:
    return analyze(StandInConfig())


def test_return_table_matches_wizard_of_odds_exactly(sheet: CaribbeanSheet) -> None:
    """19:47-16.1 qualifying hand, bet wager twice the ante: every count of the published return
    table (Wizard of Odds via casinoadvisor.com "Caribbean Stud Poker Probability", 2008)."""
    wins = {o.hand: o.count for o in sheet.outcomes if o.result == "player wins"}
    published_wins = {
        "royal flush": 16_759_740, "straight flush": 156_929_720, "four of a kind": 2_832_435_800,
        "full house": 16_624_475_280, "flush": 21_856_990_280, "straight": 43_805_516_100,
        "three of a kind": 234_242_908_320, "two pair": 488_012_139_360,
    }  # fmt: skip
    for hand, count in published_wins.items():
        assert wins[hand] == count, hand
    assert wins["one pair"] + wins["ace king"] == 2_343_248_003_808  # "pair or less"

    def total(result: str) -> int:
        return sum(o.count for o in sheet.outcomes if o.result == result)

    assert total("dealer does not qualify") == 4_532_514_033_720
    assert total("push") == 321_623_100
    assert total("dealer wins") == 2_726_592_727_512
    assert sum(o.count for o in sheet.outcomes if o.decision == "fold") == 9_523_005_974_460
    assert sheet.total == DEALS == 19_933_230_517_200
    assert f"{float(sheet.expected_net):.6f}" == "-0.052243"


def test_strategy_totals_match_wizard_of_odds(sheet: CaribbeanSheet) -> None:
    """Total loss, house edge and element of risk of each strategy (wizardofodds.com Caribbean
    Stud Poker, strategy table): exact totals, percentages to the published 3 decimals."""
    published = {
        "optimal": (1_041_372_912_372, "5.224", "2.555"),
        "bet a pair or better": (1_090_272_101_460, "5.470", "2.738"),
        "bet ace-king or better": (1_132_600_203_540, "5.682", "2.672"),
        "always bet": (3_310_360_338_060, "16.607", "5.536"),
    }
    for name, (loss, edge, risk) in published.items():
        t = sheet.totals[name]
        assert t["net"] == -loss, name
        assert sheet.strategies[name] == Fraction(loss, DEALS)
        assert f"{float(sheet.strategies[name]) * 100:.3f}" == edge, name
        assert f"{float(-t['net'] / t['wagered']) * 100:.3f}" == risk, name
    assert (
        sheet.element_of_risk
        == -sheet.totals["optimal"]["net"] / sheet.totals["optimal"]["wagered"]
    )
    assert sheet.house_edge_ante == Fraction(1_041_372_912_372, DEALS)


def test_optimal_strategy_bets_every_pair_and_folds_below_ace_king(sheet: CaribbeanSheet) -> None:
    """The optimal decision (19:47-16.1 "Bet wager"): no pair or better is folded, no hand below
    A-K is bet, no situation is a tie; A-K high hands depend on the up card (the table)."""
    bets = {o.hand for o in sheet.outcomes if o.decision == "bet"}
    folds = {o.hand for o in sheet.outcomes if o.decision == "fold"}
    assert folds == {"ace king", "less than ace king"}
    assert "less than ace king" not in bets
    assert sheet.strategy["rule"].startswith("Bet every pair or better; fold every hand below")
    assert sheet.strategy["ties"].endswith(": 0.")
    rows = {row["hand"]: row for row in sheet.strategy["decisions"]}
    assert len(rows) == 164  # A-K and three lower ranks, less the straight A-K-Q-J-T
    assert all(v == "bet" for k, v in rows["A-K-Q-J-9"].items() if k != "hand")
    assert rows["A-K-8-3-2"]["4"] == "fold"
    assert rows["A-K-8-3-2"]["2"] == "bet"
    assert rows["A-K-Q-T-9"]["J"].startswith("depends on suits")


def test_progressive_return_matches_usvegas_figure() -> None:
    """19:47-16.11: with flush, full house and four of a kind paying $50, $75 and $100 on a $1
    wager (royal flush 100%, straight flush 10% of the meter), the return per $1 is about $0.23
    plus 2.924 cents per $10,000 of meter (usvegas.com "Caribbean Stud")."""
    k = analysis.counts()
    hands = {}
    for name in analysis.PROGRESSIVE_HANDS:
        i = analysis.NAMES.index(name)
        hands[name] = int((k.weight * (k.name == i)).sum()) * 47 * analysis.DEALER_HANDS
    r = progressive_return(100, {"royal flush": F(1), "straight flush": F(1, 10)},
                           {"flush": 50_00, "full house": 75_00, "four of a kind": 100_00}, hands)  # fmt: skip
    assert r.fixed == Fraction(5108 * 50 + 3744 * 75 + 624 * 100, 2_598_960)
    assert round(float(r.fixed), 2) == 0.23
    assert round(float(r.per_cent) * 1_000_000 * 100, 3) == 2.924  # cents per $10,000
    assert r.per_cent == Fraction(4 + 36 * F(1, 10), 2_598_960) / 100


def test_progressive_linear_in_the_meter_with_exact_break_even(sheet: CaribbeanSheet) -> None:
    """19:47-16.11 under the fold rule: the return is fixed + slope x meter; at the break-even
    meter (a Fraction of dollars) it is exactly 1; no progressive hand is ever folded."""
    p = sheet.progressive
    assert p is not None
    assert p.folded == 0
    assert p.hands["royal flush"] == 4 * 47 * 163_185
    even = p.break_even
    assert even is not None
    assert p.fixed + p.per_cent * even * 100 == 1
    assert even == (1 - p.fixed) / p.per_cent / 100
    assert p.at(1_000_000_00) - p.at(0) == p.per_cent * 1_000_000_00
    meters = [m for m, _ in sheet.meter_rows()]
    assert sheet.seed in meters
    assert meters == sorted(meters)
    text = sheet.to_text()
    assert "Progressive wager" in text
    assert "Break-even meter" in text
    assert (
        sheet.to_json()["progressive"]["break_even_dollars"]
        == f"{even.numerator}/{even.denominator}"
    )


def test_a_richer_pay_table_changes_the_decisions_not_the_counts(sheet: CaribbeanSheet) -> None:
    """A table may pay more (issue 21): ace-king at 2 to 1 bets more hands and lowers the edge;
    the deals are the same."""
    richer = StandInConfig(bet_pays={**MINIMUM_PAYS, "ace king": F(2)}, progressive=None)
    other = analyze(richer)
    assert other.total == sheet.total
    assert other.house_edge_ante < sheet.house_edge_ante
    folded = sum(o.count for o in other.outcomes if o.decision == "fold")
    assert folded < 9_523_005_974_460
    assert other.progressive is None
    assert "Progressive wager" not in other.to_text()


def test_payout_limit_and_ante_are_checked() -> None:
    """An ante outside the table limits is refused with the limits named; a payout limit holds
    the hand's ante and bet wins down together, the cut on the bet (16.12, as the round settles
    it): a royal flush at a $100 ante would win $100 + $20,000, and wins $100 + $4,900."""
    with pytest.raises(FeltError, match="outside the table limits"):
        analyze(StandInConfig(), 1)
    limited = replace(StandInConfig(), payout_limit=5_000_00)
    wins = analysis.bet_wins(limited, 100_00)
    assert analysis.ante_win(limited, 100_00) == 100_00
    assert wins[0] == 4_900_00
    assert wins[analysis.NAMES.index("one pair")] == 200_00


def test_a_damaged_cache_file_is_recomputed(sheet: CaribbeanSheet) -> None:
    """The cached figures carry a digest of themselves; an edited file is never trusted."""
    config = StandInConfig()
    path: Path = cache_dir() / f"caribbean-{analysis._digest(config, 5_00)}.json"
    assert path.exists()
    path.write_text(path.read_text().replace('"ties": 0', '"ties": 7'))
    assert analysis.figures(config)["ties"] == 0
    path.write_text("{")
    assert analysis.figures(config)["ties"] == 0


def test_progressive_plot_writes_png(sheet: CaribbeanSheet, tmp_path: Path) -> None:
    """The progressive's return against the meter, drawn to a PNG; a table without a progressive
    has nothing to plot and says so."""
    path = tmp_path / "progressive.png"
    analysis.progressive_plot(sheet, str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bare = analyze(StandInConfig(progressive=None))
    with pytest.raises(FeltError, match="no progressive"):
        analysis.progressive_plot(bare, str(tmp_path / "none.png"))


def test_return_table_by_result_is_the_published_table(sheet: CaribbeanSheet) -> None:
    """The sheet's table by result, line for line the published one (Wizard of Odds via
    casinoadvisor.com "Caribbean Stud Poker Probability", 2008), total return -0.052243."""
    published = [
        ("win: royal flush", 16_759_740), ("win: straight flush", 156_929_720),
        ("win: four of a kind", 2_832_435_800), ("win: full house", 16_624_475_280),
        ("win: flush", 21_856_990_280), ("win: straight", 43_805_516_100),
        ("win: three of a kind", 234_242_908_320), ("win: two pair", 488_012_139_360),
        ("win: pair or less", 2_343_248_003_808), ("dealer does not qualify", 4_532_514_033_720),
        ("push", 321_623_100), ("fold", 9_523_005_974_460), ("dealer wins", 2_726_592_727_512),
    ]  # fmt: skip
    rows = sheet.by_result()
    assert [(line, count) for line, count, _ in rows] == published
    assert f"{float(sum(r for _, _, r in rows)):.6f}" == "-0.052243"
    assert "Return table by result" in sheet.to_markdown()


def test_bet_frequency_is_one_less_the_folds(sheet: CaribbeanSheet) -> None:
    """Bet frequency of the optimal strategy: the situations bet, 1 - folds / deals (the folds of
    the published table)."""
    bets = 2_598_960 * 47 - 9_523_005_974_460 // 163_185
    assert f"{bets:,} of the 122,151,120 situations" in sheet.strategy["bet frequency"]
    assert sheet.strategy["bet frequency"].startswith("Bet frequency: 52.2255%")


def test_a_progressive_may_pay_more_hands(sheet: CaribbeanSheet) -> None:
    """19:47-16.11: a table paying a straight on the progressive too adds the straights' share
    (10,200 of the 2,598,960 hands, none folded) to the fixed part; an unknown hand is refused."""
    more = StandInProgressive(fixed={**StandInProgressive().fixed, "straight": 10_00})
    other = analyze(StandInConfig(progressive=more))
    assert other.progressive is not None
    assert sheet.progressive is not None
    assert other.progressive.fixed - sheet.progressive.fixed == Fraction(
        10_200 * 10_00, 2_598_960 * 100
    )
    assert other.progressive.per_cent == sheet.progressive.per_cent
    with pytest.raises(FeltError, match="unknown hands"):
        analyze(StandInConfig(progressive=StandInProgressive(fixed={"five aces": 1})))


def test_felt_analyze_plot_writes_the_progressive_return_beside_the_distribution(
    sheet: CaribbeanSheet, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``felt analyze caribbean_stud --plot`` draws the progressive's return against the meter
    (16.11, 16.12) beside the distribution, and says where."""
    from felt.cli.main import main

    assert main(["analyze", "caribbean_stud", "--plot", str(tmp_path / "sheet.png")]) == 0
    assert (tmp_path / "sheet.png").stat().st_size > 0
    assert (tmp_path / "sheet-progressive.png").stat().st_size > 0
    assert "sheet-progressive.png" in capsys.readouterr().err
