"""The patron's guide to a Let It Ride Poker table (issue 22): the three wagers and the two
take-backs, the community cards and the burned card, the pay tables stated "to", the bonus
wagers, the payout limit, the card change of 18.4(e), how to play best, each point with its
clause of N.J.A.C. 19:47-18, every figure the table's own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from felt.cli.main import main
from felt.core.errors import FeltError
from felt.games.let_it_ride.config import LetItRideConfig
from felt.games.let_it_ride.guide import render

# The minimum pay table of the three wagers as the public descriptions post it
# (greatblueheroncasino.com: 1000/200/50/11/8/5/3/2/1; table-games-online.com/let-it-ride/
# rules.html; docs/interpretations.md): written out here, not read from felt's data, so a
# changed data file fails.
MINIMUM_PAYS = [
    ("Royal flush", "1,000 to 1"), ("Straight flush", "200 to 1"), ("Four of a kind", "50 to 1"),
    ("Full house", "11 to 1"), ("Flush", "8 to 1"), ("Straight", "5 to 1"),
    ("Three of a kind", "3 to 1"), ("Two pair", "2 to 1"),
    ("Pair of tens, jacks, queens, kings or aces", "1 to 1"),
]  # fmt: skip
# The bonus wager on $1 (table-games-online.com: 20000/2000/400/200/50/25/5 to 1).
MINIMUM_BONUS = [
    ("Royal flush", "20,000 to 1"), ("Straight flush", "2,000 to 1"),
    ("Four of a kind", "400 to 1"), ("Full house", "200 to 1"), ("Flush", "50 to 1"),
    ("Straight", "25 to 1"), ("Three of a kind", "5 to 1"),
]  # fmt: skip
# The three card bonus (table-games-online.com: 50/40/30/6/4/1 with the mini royal).
MINIMUM_THREE_CARD = [
    ("Mini royal (ace, king and queen of one suit)", "50 to 1"), ("Straight flush", "40 to 1"),
    ("Three of a kind", "30 to 1"), ("Straight", "6 to 1"), ("Flush", "4 to 1"),
    ("Pair", "1 to 1"),
]  # fmt: skip


def guide(settings: dict[str, Any] | None = None, fmt: str = "md") -> str:
    return render(LetItRideConfig.from_mapping(settings or {}), fmt)


def rows(text: str, caption: str) -> list[tuple[str, str]]:
    """The rows of the Markdown table under ``caption``."""
    start = text.index(f"**{caption}**")
    table = text[start:].split("\n\n")[1]
    found = [tuple(c.strip() for c in line.strip("|").split("|")) for line in table.splitlines()]
    return [(a, b) for a, b in found[2:]]


def test_18_11_the_three_wagers_pay_table_is_stated_to_1_as_posted() -> None:
    text = guide()
    assert text.startswith("# Let It Ride Poker: the patron's guide\n")
    pays = rows(text, "Wagers 1, 2 and $ (each wager still on the layout)")
    assert pays == MINIMUM_PAYS
    assert all(" to " in p and " for " not in p for _, p in pays)
    assert "if it is a pair of tens or better. Any lower hand loses every wager" in text
    assert "(N.J.A.C. 19:47-18.11)" in text


def test_18_6A_18_6B_the_bonus_wagers_their_pay_tables_and_what_they_are_paid_on() -> None:
    text = guide()
    assert rows(text, "The let it ride bonus wager") == MINIMUM_BONUS
    assert rows(text, "The three card bonus wager") == MINIMUM_THREE_CARD
    assert "exactly $1.00, placed only with the three wagers" in text
    assert "whole dollars from $1.00 to $100.00, placed only with the three wagers" in text
    assert "whether or not you took back wager 1 or 2" in text  # the bonus on the five cards
    assert "paid on your own three cards alone; the community cards do not count" in text
    assert "a straight ranks above a flush" in text
    assert "taking back wager 1 or 2 does not take it back" in text
    assert "paid in full, outside the limit" in text


def test_18_1_let_it_ride_two_take_backs_and_the_third_wager_always_stays() -> None:
    text = guide({"decision_seconds": 45})
    assert "Three equal wagers, marked 1, 2 and $: each at least $5.00, at most $100.00" in text
    assert "After seeing your three cards you may take back wager 1, or let it ride" in text
    assert "you may take back wager 2, or let it ride, whatever you did with wager 1" in text
    assert "Wager $ always stays: it cannot be taken back." in text
    assert "Letting a wager ride means not taking it back." in text
    assert 'N.J.A.C. 19:47-18.1 "Let it ride"' in text
    # a decision not made in time lets the wager ride (decisions.md 4: a timeout rides)
    assert "You have 45 seconds for each decision" in text
    assert "the wager rides" in text


def test_18_1_the_community_cards_the_burned_card_and_the_order_of_the_round() -> None:
    text = guide()
    steps = text[text.index("## How a round goes") : text.index("## How wagers are settled")]
    order = [
        "Place your three wagers",
        "The cards are dealt face down, one at a time, three times round",
        "The first card dealt to the community area is burned",
        "never shown",
        "Take back wager 1 or let it ride",
        "turns the first community card face up. Take back wager 2 or let it ride",
        "turns the second community card face up and settles each wager",
    ]
    at = [steps.index(phrase) for phrase in order]
    assert at == sorted(at)
    assert "in front of the table inventory container" in steps  # 18.1 "Community card"
    assert 'N.J.A.C. 19:47-18.1 "Community card"' in steps
    assert "your three cards and the two community cards" in text  # 18.1 "Hand"
    assert 'N.J.A.C. 19:47-18.1 "Hand"' in text


def test_18_11_the_payout_limit_and_where_its_cut_falls() -> None:
    text = guide()
    assert "three wagers can win together in one round is $50,000.00" in text
    assert "taken first from wager $, then from wager 2, then from wager 1" in text
    unlimited = guide({"payout_limit": "none"})
    assert "This table sets no payout limit on the three wagers." in unlimited
    assert "taken first from wager $" not in unlimited


def test_18_2_18_5_a_hand_shuffled_table_is_cut_a_shuffler_table_is_not() -> None:
    manual = guide({"shuffling": "manual"})
    assert "solid yellow or green cover card, taking at least 10 cards from the top" in manual
    assert "cut again before any card is dealt" in manual
    assert "shuffled by hand and cut" in manual
    shuffler = guide({"shuffling": "shuffler", "decks": 2})
    assert "they are not cut" in shuffler
    assert "two 52-card decks of different backs, used in turn" in shuffler  # 18.2(b)
    assert "cover card" not in shuffler


def test_18_4_e_the_cards_are_changed_every_eight_hours_from_a_shoe_four_from_the_hand() -> None:
    assert "changed at least every 8 hours (cards dealt from a shoe)" in guide()
    hand = guide({"dealing": "hand", "shuffling": "manual"})
    assert "changed at least every 4 hours (cards dealt from the hand)" in hand
    assert "dealt from the dealer's hand" in hand
    assert "(N.J.A.C. 19:47-18.4(e))" in hand


def test_a_richer_table_shows_its_own_figures() -> None:
    """A table paying more than the minimum, with its own limits, bonus amounts and limit."""
    text = guide({
        "minimum": "10", "maximum": "500", "payout_limit": "75000",
        "pays": {"royal flush": "1500 to 1", "flush": "9 to 1"},
        "bonus": {"wager": "5", "pays": {"straight": "30 to 1"}},
        "three_card_bonus": {"minimum": "5", "maximum": "25", "pays": {"pair": "2 to 1"}},
    })  # fmt: skip
    pays = dict(rows(text, "Wagers 1, 2 and $ (each wager still on the layout)"))
    assert pays["Royal flush"] == "1,500 to 1"
    assert pays["Flush"] == "9 to 1"
    assert pays["Straight"] == "5 to 1"
    assert dict(rows(text, "The let it ride bonus wager"))["Straight"] == "30 to 1"
    assert dict(rows(text, "The three card bonus wager"))["Pair"] == "2 to 1"
    assert "each at least $10.00, at most $500.00" in text
    assert "exactly $5.00" in text
    assert "whole dollars from $5.00 to $25.00" in text
    assert "in one round is $75,000.00" in text


def test_a_table_without_the_bonus_wagers_says_nothing_of_them() -> None:
    text = guide({"bonus": False, "three_card_bonus": False})
    assert "bonus" not in text.lower()
    assert "Place your three wagers." in text


def test_how_to_play_best_is_in_plain_words() -> None:
    text = guide()
    best = text[text.index("## How to play best") : text.index("## Hand ranks")]
    assert "follows the exact analysis of this table's pay table and payout limit" in best
    # the published strategy (Wizard of Odds, wizardofodds.com/games/let-it-ride/), ties taken
    # back (decisions.md 13)
    assert "First wager: let it ride with a paying hand" in best
    assert "three suited cards in a row, except 2-3-4 and A-2-3" in best
    assert "Second wager: let it ride with a paying hand" in best
    assert "four to a flush" in best
    assert "With each wager at the table minimum, $5.00:" in best
    # Wizard of Odds (wizardofodds.com/games/let-it-ride/): return -0.0350568 per unit
    assert "about 3.5% of one of the three wagers" in best


def test_every_point_cites_a_clause_of_19_47_18() -> None:
    text = guide({"shuffling": "manual"})
    cited = re.findall(r"\*\((N\.J\.A\.C\. [^)]*(?:\)[^)*]*)*)\)\*", text)
    assert cited
    assert all(c.startswith("N.J.A.C. 19:47-18.") for c in cited), cited
    for clause in ("18.1", "18.2(a)", "18.3", "18.4(e)", "18.5", "18.6", "18.6A", "18.6B",
                   "18.10", "18.11"):  # fmt: skip
        assert clause in text


def test_html_is_one_standalone_page_and_a_bad_format_is_refused() -> None:
    page = guide(fmt="html")
    assert page.startswith("<!DOCTYPE html>")
    assert "<td>1,000 to 1</td>" in page
    assert "<td>20,000 to 1</td>" in page
    assert "http" not in page
    with pytest.raises(FeltError, match=r"unknown guide format 'pdf' \(allowed: md, html\)"):
        guide(fmt="pdf")


def test_felt_guide_writes_it_and_a_bad_format_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``felt guide --game let_it_ride`` (the minimum table) and ``--table FILE``; a format it
    does not write is one line on standard error and exit 2."""
    assert main(["guide", "--game", "let_it_ride"]) == 0
    assert capsys.readouterr().out.startswith("# Let It Ride Poker: the patron's guide\n")
    path = tmp_path / "t.toml"
    path.write_text('game = "let_it_ride"\nminimum = "25"\nmaximum = "500"\n')
    assert main(["guide", "--table", str(path), "--format", "html"]) == 0
    assert "each at least $25.00, at most $500.00" in capsys.readouterr().out
    assert main(["guide", "--game", "let_it_ride", "--format", "pdf"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert "invalid choice: 'pdf'" in captured.err
