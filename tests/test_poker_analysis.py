"""The poker room's sheets (issue 24, item 5): the table sheet (structure, 14.17's raise cap and the
rake's exact effect per pot) and the rake report per hand and per hour by table (14.14, title
only), each checked against numbers worked by hand or by brute force."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from felt.core.cards import new_deck
from felt.games.poker.analysis import par_sheet, rake_sheet, rake_sheet_from_phh, round_bets
from felt.games.poker.config import PokerConfig
from felt.games.poker.hand import Bet, BringIn, Call, Check, PokerHand, RaiseTo
from felt.games.poker.history import HandRecord, record_of, to_phh
from felt.games.poker.simulation import dealer_step, play_hand
from felt.games.poker.table import PokerTable
from felt.rounds.shuffle import SeededShuffle

RAKES = [
    {"kind": "percent", "percent": "10", "cap": "4.00"},
    {"kind": "percent", "percent": "5", "cap": "3.00"},
    {"kind": "percent", "percent": "7.5", "cap": "5.00"},
    {"kind": "percent", "percent": "3.3", "cap": "0.50", "no_flop_no_drop": False},
]


def config(**settings: Any) -> PokerConfig:
    return PokerConfig.from_mapping(settings)


@pytest.mark.parametrize("rake", RAKES)
def test_14_14_rake_of_every_pot_is_the_floored_percent_capped_by_brute_force(
    rake: dict[str, Any],
) -> None:
    """Every pot from 0 past the cap: the sheet's rake is min(cap, floor(pot * num / (den * 100)))
    in integers, and the smallest pot raked the cap is found by walking up from 0."""
    sheet = par_sheet(config(rake=rake))
    percent = Fraction(rake["percent"])
    cap = round(float(rake["cap"]) * 100)
    first_capped = None
    for pot in range(0, 25_000):
        expected = min(cap, pot * percent.numerator // (percent.denominator * 100))
        assert sheet.rake_of(pot) == expected
        if first_capped is None and expected == cap:
            first_capped = pot
    assert first_capped is not None
    assert sheet.cap_pot == first_capped
    rows = sheet.pot_rows()
    assert rows[0] == (0, 0)
    assert (first_capped, cap) in rows
    assert rows[-1][0] > first_capped
    assert rows[-1][1] == cap
    assert len(rows) <= 70


def test_14_14_hand_worked_rake_points_and_no_flop_no_drop() -> None:
    """10% capped at $4.00: $25.50 gives $2.55, $39.99 gives $3.99, $40.00 the cap; a hand that
    ends before the flop gives nothing; 7.5% of $0.13 is 0.975 cents: 0."""
    sheet = par_sheet(config())
    assert (sheet.rake_of(2550), sheet.rake_of(3999), sheet.rake_of(4000)) == (255, 399, 400)
    assert sheet.rake_of(9000, flop_seen=False) == 0
    assert par_sheet(config(rake=RAKES[2])).rake_of(13) == 0
    assert par_sheet(config(rake=RAKES[2])).cap_pot == 6667  # 500 / 0.075 = 6666.67, up
    data = json.loads(sheet.to_json_text())
    row = next(r for r in data["rake_by_pot"] if r["pot"] == 4100)
    assert row == {"pot": 4100, "rake": 400, "to_winners": 3700,
                   "rate": {"exact": "4/41", "decimal": 4 / 41}}  # fmt: skip


def test_14_14_zero_percent_and_time_charge_sheets() -> None:
    """0% never reaches a cap (no rake table); a time charge is per seat per hour by seats."""
    zero = par_sheet(config(rake={"kind": "percent", "percent": "0", "cap": "4.00"}))
    assert zero.cap_pot is None
    assert zero.pot_rows() == []
    assert "At 0% nothing is raked." in zero.to_text()
    timed = par_sheet(config(rake={"kind": "time", "per_half_hour": "6.50"}, seats=6))
    data = json.loads(timed.to_json_text())
    assert data["time_charge_per_hour"] == [{"seats": n, "per_hour": 1300 * n} for n in range(2, 7)]
    assert "| 6 | 13.00 | 78.00 |" in timed.to_markdown()


def _everyone_raises(hand: PokerHand) -> None:
    """Play every round to the cap: each player raises (or brings in and completes) while a
    raise is allowed, else calls or checks."""
    while hand.status == "playing":
        step = dealer_step(hand)
        if step is not None:
            if step.name == "award":
                return
            hand.do(step)
            continue
        seat = hand.to_act()
        assert seat is not None
        s = hand.state
        low = s.min_completion_betting_or_raising_to_amount or 0
        for action in (RaiseTo(seat, low), Bet(seat, low), Call(seat), Check(seat), BringIn(seat)):
            if hand.can(action):
                hand.do(action)
                break


@pytest.mark.parametrize(
    "settings",
    [{}, {"max_raises": 4, "small_bet": "5.00", "big_bet": "10.00", "small_blind": "2.00",
          "big_blind": "5.00"},
     {"variant": "stud7", "ante": "0.25", "bring_in": "0.50"},
     {"variant": "omaha", "max_raises": 2}],
)  # fmt: skip
def test_14_17_most_per_player_equals_a_hand_raised_to_the_cap_every_round(
    settings: dict[str, Any],
) -> None:
    """The sheet's "most one player puts in a hand" (antes plus a bet and max_raises raises every
    round) is what three players raising at every turn actually put in, through the hand."""
    c = config(**settings)
    stacks = {1: 10**6, 2: 10**6, 3: 10**6}
    hand = PokerHand(c, stacks, 3, SeededShuffle("cap").shuffle(new_deck()))
    _everyone_raises(hand)
    most = par_sheet(c).most_per_player
    assert most is not None
    assert all(stacks[s] - hand.stack(s) == most for s in stacks)
    assert hand.pot() == 3 * most
    assert sum(m for _, _, m in round_bets(c)) + c.ante == most


def test_14_17_pot_and_no_limit_have_no_per_round_cap() -> None:
    """At pot and no limit the stack bounds the wager: no most-per-player figure, and the rounds
    give the least bet (the big blind)."""
    for limit in ("pot", "no"):
        sheet = par_sheet(config(limit=limit))
        assert sheet.most_per_player is None
        assert [b for _, b, _ in round_bets(sheet.config)] == [200] * 4
        assert "least bet" in sheet.to_markdown()


def _record(table: str, number: int, started: float, ended: float, rake: int) -> HandRecord:
    return HandRecord(table, number, started, ended, "holdem", "fixed", (), (), rake=rake)


def test_14_14_rake_report_per_hand_and_per_hour_by_table_hand_worked() -> None:
    """Table A: three hands, $4.00 + $2.50 + $0.00 over 0 s to 4,200 s: $6.50 a table, 650/3
    cents a hand ($2.17), 650 * 3600 / 4200 = 3900/7 cents an hour ($5.57); by the hour the
    first two end in hour 0, the third in hour 1.  Table B: one hand of no length: no rate."""
    records = [
        _record("A", 1, 0, 600, 400),
        _record("B", 1, 7200, 7200, 120),
        _record("A", 2, 600, 1200, 250),
        _record("A", 3, 3600, 4200, 0),
    ]
    sheet = rake_sheet(records)
    assert (sheet.hands, sheet.total) == (4, 770)
    data = json.loads(sheet.to_json_text())
    a, b = data["tables"]
    assert a["table"] == "A"
    assert a["rake"] == 650
    assert a["hands"] == 3
    assert a["per_hand"]["exact"] == "650/3"
    assert a["per_hour"]["exact"] == "3900/7"
    assert a["by_hour"] == [{"hour": 0, "rake": 650}, {"hour": 3600, "rake": 0}]
    assert b["per_hour"] is None
    assert b["per_hand"]["exact"] == "120/1"
    text = sheet.to_text()
    assert "2.17" in text
    assert "5.57" in text
    assert "1970-01-01 01:00 UTC" in text
    md = sheet.to_markdown()
    assert "| A | 3 | 6.50 |" in md
    assert md.count("\n## ") == 3
    page = sheet.to_html()
    assert page.startswith("<!doctype html>")
    assert page.count("<table>") == 2


def test_14_14_rake_report_of_no_hands_says_so() -> None:
    sheet = rake_sheet([])
    assert sheet.hands == 0
    assert "No hands recorded." in sheet.to_text()
    assert json.loads(sheet.to_json_text())["tables"] == []


def test_14_14_rake_report_from_played_hands_adds_up_to_the_tables_rake() -> None:
    """Hands played by bots at a table, recorded (history.record_of) a minute apart: the report's
    rake is the table's rake_taken, and per hand is it over the hands."""
    from felt.games.poker.simulation import bots

    c = config(limit="no")
    table = PokerTable(c)
    for seat in (1, 2, 3, 4):
        table.buy_in(seat, c.max_buy_in)
    shuffle = SeededShuffle("report")
    decide = bots("report")
    records = []
    for n in range(8):
        hand = table.new_hand(shuffle.shuffle(new_deck()))
        play_hand(hand, decide)
        table.finish(hand)
        records.append(record_of(hand, "poker-1", n + 1, 60.0 * n, 60.0 * n + 50))
        for seat, stack in table.stacks.items():
            if stack < c.min_buy_in:
                table.buy_in(seat, c.max_buy_in - stack)
    (report,) = json.loads(rake_sheet(records).to_json_text())["tables"]
    assert report["rake"] == table.rake_taken > 0
    exported = [to_phh(r) for r in records]  # the hand-history files give the same report
    assert rake_sheet_from_phh(exported).to_json_text() == rake_sheet(records).to_json_text()
    assert Fraction(report["per_hand"]["exact"]) == Fraction(table.rake_taken, 8)
    assert Fraction(report["per_hour"]["exact"]) == Fraction(table.rake_taken * 3600, 470)


def test_par_sheet_prints_in_every_format() -> None:
    """Text, Markdown, HTML and JSON carry the same structure: the posted limits, the raise cap,
    the buy-in and the rake rule."""
    sheet = par_sheet(config(variant="stud7", ante="0.25", bring_in="0.50"))
    for text in (sheet.to_text(), sheet.to_markdown(), sheet.to_html()):
        assert "stud7 2.00/4.00 fixed" in text
        assert "a bet and 3 raises" in text
        assert "40.00 to 200.00" in text
        assert "no flop no drop" in text
        assert "seventh street" in text
    assert "before fourth street is not raked" in sheet.to_text()
    data = json.loads(sheet.to_json_text())
    assert data["most_per_player_per_hand"] == 25 + 800 + 800 + 1600 * 3
    assert PokerConfig.from_mapping(data["settings"]) == sheet.config
