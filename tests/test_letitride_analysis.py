"""The exact analysis of Let It Ride Poker (19:47-18, issue 22) against published figures and
closed forms.

Sources of the figures:
- the return per unit, -0.0350568, and the element of risk, 2.86%: Wizard of Odds (Michael
  Shackleford), wizardofodds.com/games/let-it-ride/;
- the first wager let ride with probability 402/5525: issue 22;
- the counts of five-card hands (4 royal flushes, 36 other straight flushes, 624, 3,744, 5,108,
  10,200, 54,912, 123,552 and 1,098,240 hands of one pair of 2,598,960) and of three-card hands
  (4 mini royals, 44 other straight flushes, 52 threes of a kind, 720 straights, 1,096 flushes,
  3,744 pairs of 22,100): the textbook counts, each rebuilt below from its closed form.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from felt.core.errors import FeltError
from felt.games.let_it_ride import analysis
from felt.games.let_it_ride.analysis import DEALS, LetItRideSheet, analyze
from felt.games.let_it_ride.config import LetItRideConfig

F = Fraction


@pytest.fixture(scope="module")
def config() -> LetItRideConfig:
    return LetItRideConfig.from_mapping({})


@pytest.fixture(scope="module")
def sheet(config: LetItRideConfig) -> LetItRideSheet:
    return analyze(config)


def five_card_closed_form() -> dict[str, int]:
    """The five-card hands by line, from their closed forms (ranks chosen, then suits)."""
    royal = 4
    straight_flush = 10 * 4 - royal
    quads = 13 * 48
    full = 13 * comb(4, 3) * 12 * comb(4, 2)
    flush = 4 * comb(13, 5) - 40
    straight = 10 * 4**5 - 40
    trips = 13 * comb(4, 3) * comb(12, 2) * 4**2
    two_pair = comb(13, 2) * comb(4, 2) ** 2 * 44
    pair_each_rank = comb(4, 2) * comb(12, 3) * 4**3
    return {
        "royal flush": royal, "straight flush": straight_flush, "four of a kind": quads,
        "full house": full, "flush": flush, "straight": straight, "three of a kind": trips,
        "two pair": two_pair, "tens or better": 5 * pair_each_rank,
        "below tens": comb(52, 5) - royal - straight_flush - quads - full - flush - straight
        - trips - two_pair - 5 * pair_each_rank,
    }  # fmt: skip


def test_18_3_five_card_counts_are_the_closed_forms() -> None:
    """18.3(b)'s ranking: the counts the analysis reads equal the closed forms (textbook: 4, 36,
    624, 3,744, 5,108, 10,200, 54,912, 123,552; 422,400 pairs of tens or better)."""
    found = dict(zip(analysis.LINES, analysis.five_card_counts().tolist(), strict=True))
    assert found == five_card_closed_form()
    # the simulation's table of every hand's line, classified one hand at a time, agrees
    each = np.bincount(analysis.five_card_lines(), minlength=len(analysis.LINES))
    assert each.tolist() == list(found.values())
    assert found["full house"] == 3744
    assert found["tens or better"] == 422_400


def test_18_6b_three_card_counts_are_the_closed_forms() -> None:
    """Three Card Poker's ranking for the three-card bonus (a straight above a flush; A-2-3 and
    Q-K-A straights): 4 mini royals, 44, 52, 720, 1,096, 3,744, 16,440 of 22,100."""
    sf = 12 * 4
    counts = {
        "mini royal": 4, "straight flush": sf - 4, "three of a kind": 13 * 4,
        "straight": 12 * 4**3 - sf, "flush": 4 * comb(13, 3) - sf,
        "pair": 13 * comb(4, 2) * 48,
    }  # fmt: skip
    counts["high card"] = comb(52, 3) - sum(counts.values())
    lines = analysis.three_card_lines()
    found = {name: int((lines == i).sum()) for i, name in enumerate(analysis.TRIO_LINES)}
    assert found == counts
    assert list(counts.values()) == [4, 44, 52, 720, 1096, 3744, 16440]


def test_18_11_return_per_unit_matches_wizard_of_odds(sheet: LetItRideSheet) -> None:
    """Wizard of Odds (wizardofodds.com/games/let-it-ride/): -0.0350568 per unit, element of
    risk 2.86%; issue 22: the first wager ridden 402/5525 of the time.  The exact figure is
    -37963/1082900."""
    assert round(float(sheet.expected_net), 7) == -0.0350568
    assert sheet.expected_net == F(-37963, 1082900)
    assert round(float(sheet.element_of_risk) * 100, 2) == 2.86
    assert sheet.ride_first == F(402, 5525)
    assert sheet.total == DEALS == 22_100 * 49 * 48
    assert sheet.house_edge_initial == -sheet.expected_net / 3
    assert sheet.average_wagered == 1 + sheet.ride_first + sheet.ride_second
    assert not sheet.binds


def test_the_return_table_adds_up_by_hand_and_decision(sheet: LetItRideSheet) -> None:
    """Each final hand's deals (every decision together) are 20 times its five-card count: ten
    ways to choose the player's three of the five cards, two orders of the community cards."""
    by_hand = {hand: count for hand, count, _ in sheet.by_hand()}
    assert by_hand == {h: 20 * n for h, n in five_card_closed_form().items()}
    assert sum(r for _, _, r in sheet.by_hand()) == sheet.expected_net
    riding = {o.decision: 0 for o in sheet.outcomes}
    for o in sheet.outcomes:
        riding[o.decision] += o.count
        assert (o.net == -o.wagered) if o.hand == analysis.LOSES else (o.net > 0)
    assert sum(riding.values()) == DEALS
    first = riding["ride both"] + riding["ride the first only"]
    assert F(first, DEALS) == sheet.ride_first


def test_other_strategies_cost_more(sheet: LetItRideSheet) -> None:
    """Never taking back costs 3 x the third wager's edge; always taking back is the third
    wager's edge alone; the optimal strategy is the least of all."""
    edges = sheet.strategies
    assert edges["never take back"] == 3 * edges["always take back"]
    assert edges["optimal"] < edges["always take back"]
    # the third wager alone: every final hand's count times its odds (closed form)
    counts = five_card_closed_form()
    pays = LetItRideConfig.from_mapping({}).pays
    net = sum(n * pays.get(h, F(-1)) for h, n in counts.items())
    assert edges["always take back"] == -F(net, comb(52, 5))


def test_18_6a_18_6b_bonus_edges_by_closed_form(sheet: LetItRideSheet) -> None:
    """Each bonus wager's house edge from the closed-form counts and the minimum pay tables
    (table-games-online.com: bonus 20000/2000/400/200/50/25/5 to 1 on $1; three-card bonus
    50/40/30/6/4/1)."""
    bonus, three = sheet.bonuses
    counts = five_card_closed_form()
    pays = {"royal flush": 20000, "straight flush": 2000, "four of a kind": 400,
            "full house": 200, "flush": 50, "straight": 25, "three of a kind": 5}  # fmt: skip
    net = sum(n * pays.get(h, -1) for h, n in counts.items())
    assert bonus.house_edge == -F(net, comb(52, 5)) == F(49081, 216580)
    trio = {"mini royal": (4, 50), "straight flush": (44, 40), "three of a kind": (52, 30),
            "straight": (720, 6), "flush": (1096, 4), "pair": (3744, 1)}  # fmt: skip
    net3 = sum(n * p for n, p in trio.values()) - 16440
    assert three.house_edge == -F(net3, 22100) == F(118, 5525)
    assert bonus.total == comb(52, 5)
    assert three.total == 22100


def test_a_table_without_bonus_wagers_has_no_bonus_sections() -> None:
    config = LetItRideConfig.from_mapping({"bonus": False, "three_card_bonus": False})
    out = analyze(config)
    assert out.bonuses == []
    assert "bonus" not in out.to_markdown().lower().replace("let it ride bonus", "")


def test_18_11_the_payout_limit_binds_at_100_and_the_strategy_accounts_for_it(
    config: LetItRideConfig,
) -> None:
    """A royal flush on one $100 wager wins $100,000, over the $50,000 limit (18.11): the sheet
    says it binds, the optimal strategy beats the classical one paid as the limit pays, and
    both cost more than at the minimum (the limit takes from the player)."""
    at_100 = analyze(config, 100_00)
    assert at_100.binds
    edges = at_100.strategies
    classical = edges["the classical strategy (ignoring the payout limit)"]
    assert edges["optimal"] < classical
    assert edges["optimal"] > analyze(config).strategies["optimal"]
    royal = [o for o in at_100.outcomes if o.hand == "royal flush"]
    assert {o.net for o in royal} == {F(500)}  # $50,000 / $100 whatever rides
    unlimited = analyze(LetItRideConfig.from_mapping({"payout_limit": "none"}), 100_00)
    assert not unlimited.binds
    assert unlimited.expected_net == analyze(config).expected_net  # whole odds: per unit alike


def test_an_amount_outside_the_limits_is_refused(config: LetItRideConfig) -> None:
    with pytest.raises(
        FeltError, match=r"--ante 100\.01 .* outside the table limits 5\.00 to 100\.00"
    ):
        analyze(config, 100_01)


def test_the_sheet_prints_in_every_format(sheet: LetItRideSheet) -> None:
    """JSON (exact fractions), Markdown, HTML and text carry the same figures and sections."""
    data = json.loads(sheet.to_json_text())
    assert data["ride_first"]["exact"] == "402/5525"
    assert data["return_total"]["return"]["exact"] == "-37963/1082900"
    assert data["bonuses"]["bonus"]["house_edge_exact"] == "49081/216580"
    assert data["bonuses"]["three_card_bonus"]["house_edge_exact"] == "118/5525"
    assert data["payout_limit_binds"] is False
    assert data["rules"][0].startswith("First wager: let it ride with a paying hand")
    md = sheet.to_markdown()
    for heading in ("## Summary", "## Return table by final hand", "## Let it ride bonus wager",
                    "## Three-card bonus wager", "## Appendix: decision table"):  # fmt: skip
        assert heading in md
    assert "three suited cards in a row, except 2-3-4 and A-2-3" in md
    assert "<h2>Three-card bonus wager</h2>" in sheet.to_html()
    assert "Return table by final hand" in sheet.to_text()


def test_the_decision_table_has_a_row_per_ranks_and_suitedness(sheet: LetItRideSheet) -> None:
    """741 kinds of three cards (455 rank multisets, 286 of them suited too) and 2,535 of four
    (1,820 + 715); without a binding limit the second decision does not depend on the first."""
    rows = sheet.strategy["decisions"]
    first = [r for r in rows if r["decision"] == "first wager"]
    second = [r for r in rows if r["decision"] == "second wager"]
    assert len(first) == 741
    assert len(second) == 2535
    assert {r["after"] for r in second} == {"either"}
    aces = next(r for r in first if r["cards"] == "A-A-2")
    assert aces["ride"] is True
    assert sum(r["ride"] for r in first) < len(first) / 5
