"""The patron's guide to a Caribbean Stud Poker table (issue 21 item 5): the rules in plain words,
the bet wager's pay table stated "to", the progressive payouts, the qualifying hand, each point
with its clause of N.J.A.C. 19:47-16, every figure the table's own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from felt.cli.main import main
from felt.core.errors import FeltError
from felt.games.caribbean_stud.config import CaribbeanConfig
from felt.games.caribbean_stud.guide import render

# The minimum pay table of the bet wager as the public descriptions post it (table-games-
# online.com, argosykansascity.com, trumpindiana.com; docs/interpretations.md): written out
# here, not read from felt's data, so a changed data file fails.
MINIMUM_BET_PAYS = [
    ("Royal flush", "100 to 1"), ("Straight flush", "50 to 1"), ("Four of a kind", "20 to 1"),
    ("Full house", "7 to 1"), ("Flush", "5 to 1"), ("Straight", "4 to 1"),
    ("Three of a kind", "3 to 1"), ("Two pair", "2 to 1"), ("One pair", "1 to 1"),
    ("Ace and king, no pair or better", "1 to 1"),
]  # fmt: skip
# The progressive's minimum payouts (argosykansascity.com; play-card-games.co.uk).
MINIMUM_PROGRESSIVE = [
    ("Royal flush", "100% of the meter"), ("Straight flush", "10% of the meter"),
    ("Four of a kind", "$500.00"), ("Full house", "$100.00"), ("Flush", "$50.00"),
]  # fmt: skip


def guide(settings: dict[str, Any] | None = None, fmt: str = "md") -> str:
    return render(CaribbeanConfig.from_mapping(settings or {}), fmt)


def rows(text: str, caption: str) -> list[tuple[str, str]]:
    """The rows of the Markdown table under ``caption``."""
    start = text.index(f"**{caption}**")
    table = text[start:].split("\n\n")[1]
    found = [tuple(c.strip() for c in line.strip("|").split("|")) for line in table.splitlines()]
    return [(a, b) for a, b in found[2:]]


def test_16_12_the_bet_wagers_pay_table_is_stated_to_1_as_posted() -> None:
    text = guide()
    assert text.startswith("# Caribbean Stud Poker: the patron's guide\n")
    bet = rows(text, "The bet wager (when a qualifying dealer's hand is beaten)")
    assert bet == MINIMUM_BET_PAYS
    assert all(" to " in pays and " for " not in pays for _, pays in bet)
    assert "(N.J.A.C. 19:47-16.12)" in text


def test_16_11_the_progressive_payouts_the_sharing_and_the_reset() -> None:
    text = guide()
    assert rows(text, "The progressive wager") == MINIMUM_PROGRESSIVE
    assert "exactly $1.00, placed only with an ante" in text
    assert "25% of it goes onto the progressive meter" in text
    assert "share equally the meter as it stood when the first of them was paid" in text
    assert "the meter starts again at $10,000.00, paid in by the house" in text
    assert "whatever the dealer holds, if you do not fold" in text
    assert "folding loses your ante and your progressive wager" in text


def test_16_12_a_richer_table_shows_its_own_figures() -> None:
    """A table paying more than the minimum, with its own meter, rate, seed and limit."""
    text = guide({
        "minimum": "10", "maximum": "500", "payout_limit": "25000",
        "bet_pays": {"royal flush": "250 to 1", "straight": "5 to 1"},
        "progressive": {"wager": "5", "rate": "1/3", "seed": "50000",
                        "percent": {"straight flush": "20%"},
                        "fixed": {"four of a kind": "1000", "flush": "75"}},
    })  # fmt: skip
    bet = dict(rows(text, "The bet wager (when a qualifying dealer's hand is beaten)"))
    assert bet["Royal flush"] == "250 to 1"
    assert bet["Straight"] == "5 to 1"
    assert bet["Flush"] == "5 to 1"
    progressive = dict(rows(text, "The progressive wager"))
    assert progressive == {"Royal flush": "100% of the meter", "Straight flush": "20% of the meter",
                           "Four of a kind": "$1,000.00", "Full house": "$100.00",
                           "Flush": "$75.00"}  # fmt: skip
    assert "Ante: at least $10.00, at most $500.00." in text
    assert "at most $1,000.00" in text  # the bet wager: twice the largest ante
    assert "exactly $5.00" in text
    assert "1/3 of it goes onto the progressive meter" in text
    assert "starts again at $50,000.00" in text
    assert "in one round is $25,000.00" in text


def test_16_1_qualifying_hand_bet_wager_twice_the_ante_and_the_settlement() -> None:
    text = guide()
    assert "(A-K-4-3-2) or better" in text
    assert "exactly twice your ante: at most $200.00" in text
    assert "your ante is paid 1 to 1 and your bet wager is returned" in text
    assert "both wagers lose" in text
    assert "compared card by card" in text
    assert 'N.J.A.C. 19:47-16.1 "Qualifying hand"' in text
    assert 'N.J.A.C. 19:47-16.1 "Bet wager"' in text
    assert "four face down (the hole cards) and, last, one face up" in text
    assert "one at a time, five times round" in text


def test_16_4_c_a_hand_shuffled_table_is_cut_a_shuffler_table_is_not() -> None:
    manual = guide({"shuffling": "manual"})
    assert "at least 10 cards from the top" in manual
    assert "cut again before any card is dealt" in manual  # 16.4(d)
    assert "shuffled by hand and cut" in manual
    shuffler = guide({"shuffling": "shuffler", "decks": 2})
    assert "they are not cut" in shuffler
    assert "two 52-card decks" in shuffler  # 16.2(b)
    assert "at least 10 cards" not in shuffler


def test_a_table_without_the_progressive_or_a_limit_says_so() -> None:
    text = guide({"progressive": False, "payout_limit": "none"})
    assert "progressive wager" not in text.lower()
    assert "meter" not in text
    assert "This table sets no payout limit" in text
    assert "folding loses your ante." in text


def test_every_point_cites_a_clause_of_19_47_16() -> None:
    text = guide({"shuffling": "manual"})
    cited = re.findall(r"\*\((N\.J\.A\.C\. [^)]*(?:\)[^)*]*)*)\)\*", text)
    assert cited
    assert all(c.startswith("N.J.A.C. 19:47-16.") for c in cited), cited
    for clause in ("16.1", "16.4(c)", "16.5", "16.6", "16.10", "16.11", "16.12"):
        assert clause in text


def test_html_is_one_standalone_page_and_a_bad_format_is_refused() -> None:
    page = guide(fmt="html")
    assert page.startswith("<!DOCTYPE html>")
    assert "<td>100 to 1</td>" in page
    assert "<td>10% of the meter</td>" in page
    assert "http" not in page
    with pytest.raises(FeltError, match=r"unknown guide format 'pdf' \(allowed: md, html\)"):
        guide(fmt="pdf")


def test_felt_guide_writes_it_and_a_bad_format_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``felt guide --game caribbean_stud`` (the minimum table) and ``--table FILE``; a format
    it does not write is one line on standard error and exit 2."""
    assert main(["guide", "--game", "caribbean_stud"]) == 0
    assert capsys.readouterr().out.startswith("# Caribbean Stud Poker: the patron's guide\n")
    path = tmp_path / "t.toml"
    path.write_text('game = "caribbean_stud"\nminimum = "25"\nmaximum = "500"\n')
    assert main(["guide", "--table", str(path), "--format", "html"]) == 0
    assert "Ante: at least $25.00, at most $500.00." in capsys.readouterr().out
    assert main(["guide", "--game", "caribbean_stud", "--format", "pdf"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert "invalid choice: 'pdf'" in captured.err
