"""The patron's guide to a poker table (felt.games.poker.guide): the table's own limits, forced
bets, raise cap (14.17) and rake (14.14, title only), and the house rules of 14.15(e)-(q), 14.16
and 14.18 in the players' words, each cited; the same checks test_guide.py makes of every game."""

from __future__ import annotations

import re
from typing import Any

import pytest

from felt.core.errors import FeltError
from felt.games.poker.config import PokerConfig
from felt.games.poker.guide import render
from tests.test_guide import ODDS, check_html

TABLES: list[dict[str, Any]] = [
    {},
    {"limit": "no", "small_blind": "2.00", "big_blind": "5.00"},
    {"variant": "omaha", "limit": "pot"},
    {"variant": "stud7", "ante": "0.50", "bring_in": "1.00", "small_bet": "5.00",
     "big_bet": "10.00"},
    {"rake": {"kind": "time", "per_half_hour": "5.00"}, "max_raises": 4},
]  # fmt: skip
COMMON = ["15(e)", "15(f)1", "15(f)2", "15(f)3", "15(f)4", "15(g)", "15(h)", "15(i)", "15(j)",
          "15(j)2", "15(j)3", "15(j)4", "15(k)", "15(k)1", "15(k)2", "15(m)", "15(o)", "15(p)",
          "15(q)", "16(a)", "16(b)", "16(c)", "17", "18"]  # fmt: skip


def config(settings: dict[str, Any]) -> PokerConfig:
    return PokerConfig.from_mapping(settings)


@pytest.mark.parametrize("settings", TABLES)
@pytest.mark.parametrize("fmt", ["md", "html"])
def test_odds_never_with_for_and_html_well_formed(settings: dict[str, Any], fmt: str) -> None:
    """As test_guide.py asks of every game: no "N for N", a standalone page, the same sections."""
    text = render(config(settings), fmt)
    for line in text.splitlines():
        if ODDS.search(line):
            assert not re.search(r"\bfor\b", line, re.IGNORECASE), line
    assert not re.search(r"\d\s+for\s+\d", text)
    if fmt == "html":
        assert text.startswith("<!DOCTYPE html>")
        checker = check_html(text)
        assert {"html", "head", "title", "style", "body", "h1", "h2", "table"} <= checker.seen
        assert "http" not in text
        md = render(config(settings), "md")
        for heading in re.findall(r"^## (.+)$", md, re.MULTILINE):
            assert f"<h2>{heading}</h2>" in text


@pytest.mark.parametrize("settings", TABLES)
def test_14_15_to_14_18_every_house_rule_is_cited_and_only_the_variants_own(
    settings: dict[str, Any],
) -> None:
    """Every clause of 14.15(e)-(q), 14.16 and 14.17-14.18 is cited; (l) and (j)1 only in stud,
    (n) only in hold 'em and Omaha."""
    c = config(settings)
    text = render(c, "md")
    for clause in COMMON:
        assert re.search(rf"(19:47-|\b)14\.{re.escape(clause)}(?![\w(])", text), clause
    stud = c.variant == "stud7"
    assert ("14.15(l)" in text) == stud
    assert ("14.15(j)1" in text) == stud
    assert ("14.15(n)" in text) == (not stud)
    assert "14.3 (title only)" in text  # rankings: the seed gives the title only


def test_14_17_the_tables_own_limits_and_raise_cap() -> None:
    """The posted limits, the bets and the raise cap are the table's; changing them changes the
    guide."""
    text = render(config({}), "md")
    assert "$2.00 in the early rounds and $4.00 in the late rounds" in text
    assert "at most a bet and 3 raises in any one betting round" in text
    assert "'holdem 2.00/4.00 fixed'" in text
    assert "small blind of $1.00 and the next the big blind of $2.00" in text
    assert "With only two players the button posts the small blind" in text
    assert "at least $40.00 and at most $200.00" in text
    assert "| Pre-flop | $2.00 | 3 |" in text
    assert "| River | $4.00 | 3 |" in text
    assert "60 seconds to act" in text
    four = render(config({"max_raises": 4, "decision_seconds": 45}), "md")
    assert "a bet and 4 raises" in four
    assert "| Turn | $4.00 | 4 |" in four
    assert "45 seconds to act" in four
    no_limit = render(config(TABLES[1]), "md")
    assert "no limit" in no_limit
    assert "at most all the chips you have in front of you" in no_limit
    assert "| Flop | $5.00 |" in no_limit
    assert "raises in any one betting round" not in no_limit


def test_heads_up_the_button_posts_the_small_blind_as_the_hand_deals_it() -> None:
    """What the guide says of two players is what PokerHand does: the button posts the small
    blind."""
    from felt.core.cards import new_deck
    from felt.games.poker.hand import PokerHand

    hand = PokerHand(config({}), {3: 5_000, 7: 5_000}, 7, new_deck())
    assert (hand.bet(7), hand.bet(3)) == (100, 200)
    assert "the button posts the small blind" in render(config({}), "md")


def test_14_9_stud_antes_bring_in_and_the_odd_chip_by_suit() -> None:
    text = render(config(TABLES[3]), "md")
    assert "ante of $0.50" in text
    assert "bring it in for $1.00 or complete the bet to $5.00" in text
    assert "highest card by suit (spades, hearts, diamonds, clubs)" in text
    assert "before fourth street is dealt is not raked" in text
    assert "blind" not in text.split("## The deal")[0].split("## Forced bets")[1]


def test_14_11_omaha_uses_exactly_two_hole_cards() -> None:
    text = render(config(TABLES[2]), "md")
    assert "exactly two of your four cards and exactly three of the five" in text
    assert "pot limit" in text
    assert "first winner clockwise from the button" in text


def test_14_14_percent_rake_with_cap_and_its_pots_and_the_time_charge() -> None:
    """10% to $4.00: the pots shown are raked as worked by hand ($10.00: $1.00; $20.00: $2.00;
    $40.00: the cap; $120.00: the cap); a time charge rakes no pot."""
    text = render(config({}), "md")
    assert "10% of each pot, rounded down to the cent, and never more than $4.00 a hand" in text
    assert "No flop, no drop: a hand that ends before the flop is not raked." in text
    for row in ("| $10.00 | $1.00 | $9.00 |", "| $20.00 | $2.00 | $18.00 |",
                "| $40.00 | $4.00 | $36.00 |", "| $120.00 | $4.00 | $116.00 |"):  # fmt: skip
        assert row in text
    five = render(config({"rake": {"kind": "percent", "percent": "5", "cap": "3.00",
                                   "no_flop_no_drop": False}}), "md")  # fmt: skip
    assert "5% of each pot" in five
    assert "| $60.00 | $3.00 | $57.00 |" in five
    assert "No flop, no drop" not in five
    timed = render(config(TABLES[4]), "md")
    assert "$5.00 each half hour" in timed
    assert "No pot is raked." in timed
    assert "The rake of a few pots" not in timed


def test_guide_refuses_an_unknown_format() -> None:
    with pytest.raises(FeltError, match="unknown guide format 'pdf'"):
        render(config({}), "pdf")
