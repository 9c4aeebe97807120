"""The patron's guide (``felt guide``): each test is named after the clause it checks."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from felt.cli.main import main
from felt.core.errors import FeltError
from felt.games.boston.config import TableConfig
from felt.games.double_down import DoubleDownConfig
from felt.games.registry import game_ids
from felt.guide import Guide, Items, Para, Section, Table, render_guide, render_html

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ODDS = re.compile(r"\d[\d,]* to \d")


def boston(**settings: Any) -> TableConfig:
    return TableConfig.from_mapping(settings)


def every_table() -> list[TableConfig | DoubleDownConfig]:
    return [
        boston(game="boston5", edition="nj-19-47-24"),
        boston(game="boston5", edition="ma-205-cmr"),
        boston(game="boston5", edition="nj-13-69f-24", royal_offered=False),
        boston(game="boston7", first_ratio=1, payout_limit="60000"),
        DoubleDownConfig.from_mapping({"double_down": "up-to", "two_areas": True}),
    ]


def line_starting(text: str, start: str) -> str:
    found = [line for line in text.splitlines() if line.startswith(start)]
    assert len(found) == 1, f"no single line starting {start!r}"
    return found[0]


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_24_11_a_and_17_10_a_odds_stated_with_to_never_for(fmt: str) -> None:
    for config in every_table():
        text = render_guide(config, fmt)
        odds_lines = [line for line in text.splitlines() if ODDS.search(line)]
        assert odds_lines
        for line in odds_lines:
            assert not re.search(r"\bfor\b", line, re.IGNORECASE), line
        assert not re.search(r"\d\s+for\s+\d", text)


def test_24_11_e_payout_limit_posted_when_set() -> None:
    text = render_guide(boston(game="boston5", payout_limit="75000"))
    limit = line_starting(text, "This table's payout limit is $75,000.00")
    assert "first wager, second wager and ante bonus" in limit
    assert "per hand" in limit
    assert "does not apply to the optional bonus wager" in limit
    assert "19:47-24.11(e)" in limit


def test_24_11_e_absence_of_a_payout_limit_stated() -> None:
    text = render_guide(boston(game="boston5"))
    assert line_starting(text, "This table has no payout limit")
    assert "$75,000" not in text


def test_24_11_c_d_a_generous_tables_own_lines_not_the_minimums() -> None:
    config = boston(
        game="boston5",
        ante_bonus={"full house": "30 to 1", "flush": "16 to 1"},
        optional_bonus={"three-card straight": "7 to 1"},
    )
    text = render_guide(config)
    assert "| Full house | 30 to 1 |" in text
    assert "| Flush | 16 to 1 |" in text
    assert "| Three-card straight | 7 to 1 |" in text
    assert "| Full house | 25 to 1 |" not in text
    assert "| Three-card straight | 6 to 1 |" not in text
    assert "| Straight | 8 to 1 |" in text  # a line the table does not raise stays at the minimum


def test_13_69f_24_11_c_boston7_fixed_royals_and_paid_once_for_the_highest_payout() -> None:
    text = render_guide(TableConfig.from_mapping({"game": "boston7"}))
    assert "| Seven-card royal flush | $25,000.00 (a fixed amount) |" in text
    assert "| Six-card royal flush | $5,000.00 (a fixed amount) |" in text
    assert "paid once for the highest payout" in text
    assert "| Royal flush | 200 to 1 |" in text


def test_13_69f_24_11_c_paid_once_is_not_in_the_2003_text() -> None:
    assert "paid once" not in render_guide(boston(game="boston5", edition="nj-19-47-24"))


def test_13_69f_24_10_c_boston7_discard_forfeits_the_long_royals() -> None:
    text = render_guide(boston(game="boston7"))
    assert "discard two" in text
    assert "Discarding forfeits any six-card or seven-card royal flush payout" in text
    assert "discard" not in render_guide(boston(game="boston5"))


@pytest.mark.parametrize("edition", ["nj-19-47-24", "ma-205-cmr"])
def test_24_10_a_exposure_elective_under_the_2003_and_massachusetts_texts(edition: str) -> None:
    text = render_guide(boston(game="boston5", edition=edition))
    step = line_starting(text, "3. If you placed an optional bonus wager")
    assert "elective" in step
    assert "required" not in step
    assert "whether to expose your three cards" in text


@pytest.mark.parametrize("game", ["boston5", "boston7"])
def test_13_69f_24_10_a_exposure_required(game: str) -> None:
    text = render_guide(boston(game=game, edition="nj-13-69f-24"))
    step = line_starting(text, "3. If you placed an optional bonus wager")
    assert "required to expose" in step
    assert "elective" not in text
    assert "whether to expose" not in text


@pytest.mark.parametrize("edition", ["nj-19-47-24", "ma-205-cmr", "nj-13-69f-24"])
def test_24_10_f_ante_loses_when_the_dealer_is_higher_and_the_ante_bonus_is_still_paid(
    edition: str,
) -> None:
    text = render_guide(boston(game="boston5", edition=edition))
    lose = line_starting(text, "- Dealer's hand higher")
    assert "your ante, first and second wagers lose" in lose
    assert "still receive the ante bonus payout" in lose
    win = line_starting(text, "- Your hand higher")
    assert "paid 1 to 1" in win
    assert "ante is paid its ante bonus odds if your hand qualifies, and otherwise returned" in win
    tie = line_starting(text, "- A tie: a push")
    assert "ante bonus is still paid" in tie


def test_24_10_f_massachusetts_cites_its_own_paragraph_numbers() -> None:
    text = render_guide(boston(game="boston5", edition="ma-205-cmr"))
    assert "Section 10(f)(1), 10(f)(3)" in text
    nj = render_guide(boston(game="boston5"))
    assert "N.J.A.C. 19:47-24.10(f)1, 24.10(f)3" in nj


def test_24_6_c_optional_bonus_minimum_and_the_tables_limits() -> None:
    text = render_guide(boston(game="boston5", bonus_minimum="2.00", bonus_maximum="50.00"))
    assert "Optional bonus wager: at least $2.00, at most $50.00." in text
    assert "at least $1.00" in render_guide(boston(game="boston5"))


def test_13_69f_24_6_d_boston7_first_wager_ratio_of_the_table() -> None:
    one = render_guide(boston(game="boston7", first_ratio=1, minimum="10"))
    assert "exactly equal to the ante" in one
    assert "a $10.00 ante goes with a $10.00 first wager" in one
    two = render_guide(boston(game="boston7", first_ratio=2, minimum="10"))
    assert "exactly twice the ante" in two


def test_24_10_b_c_fold_forfeits_ante_and_first_and_second_wager_may_be_withdrawn() -> None:
    text = render_guide(boston(game="boston5"))
    assert "Folding forfeits your ante and your first wager" in text
    assert "You may take back your second wager at any time before the last two cards" in text


def test_13_69f_24_11_d_royal_not_offered_is_stated() -> None:
    text = render_guide(boston(game="boston5", edition="nj-13-69f-24", royal_offered=False))
    assert "Three-card royal flush |" not in text
    assert "does not offer the three-card royal flush payout" in text


def test_17_10_b_c_double_down_pay_table_and_100000_limit() -> None:
    text = render_guide(DoubleDownConfig.from_mapping({}))
    assert "| Royal flush | 1,000 to 1 |" in text
    assert "| Straight flush | 100 to 1 |" in text
    assert "| Pair of jacks, queens, kings or aces | 1 to 1 |" in text
    assert "| Pair of sixes, sevens, eights, nines or tens | Push |" in text
    assert "| Pair of fives or less | Lose |" in text
    limit = line_starting(text, "The payout limit is $100,000.00 on any hand")
    assert "19:47-17.10(c)" in limit
    assert "on the whole amount wagered" in text


def test_17_8_c_double_down_wager_as_the_table_sets_it() -> None:
    equal = render_guide(DoubleDownConfig.from_mapping({}))
    assert "Double down wager: equal to your wager." in equal
    up_to = render_guide(DoubleDownConfig.from_mapping({"double_down": "up-to"}))
    assert "Double down wager: any amount up to your wager." in up_to
    assert "and how much" in up_to


class _Checker(HTMLParser):
    """Checks that every element opened is closed in order, and collects the text."""

    VOID = frozenset({"meta", "br", "hr", "img", "link", "input"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.text: list[str] = []
        self.seen: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.add(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack, f"</{tag}> closes nothing"
        assert self.stack.pop() == tag, f"</{tag}> closes the wrong element"

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def check_html(page: str) -> _Checker:
    checker = _Checker()
    checker.feed(page)
    checker.close()
    assert checker.stack == []
    return checker


def test_html_guide_is_a_well_formed_standalone_page() -> None:
    for config in every_table():
        page = render_guide(config, "html")
        assert page.startswith("<!DOCTYPE html>")
        checker = check_html(page)
        assert {"html", "head", "title", "style", "body", "h1", "h2", "table"} <= checker.seen
        assert "http" not in page  # no external resources
        md = render_guide(config, "md")
        for heading in re.findall(r"^## (.+)$", md, re.MULTILINE):
            assert f"<h2>{heading}</h2>" in page  # the same sections in both formats


def test_html_and_md_escape_data() -> None:
    nasty = "<script>alert('x')</script> & *bold* | pipe"
    guide = Guide(
        nasty,
        (Para(nasty, nasty),),
        (Section(nasty, (Items((Para(nasty),)), Table(nasty, (nasty,), ((nasty,),), nasty))),),
    )
    page = render_html(guide)
    checker = check_html(page)
    assert "<script>" not in page
    assert "script" not in checker.seen
    assert nasty in "".join(checker.text)
    md = render_guide(boston(game="boston5"), "md")
    assert "<" not in md.replace("\\<", "")


def test_guide_refuses_an_unknown_format() -> None:
    with pytest.raises(FeltError, match="unknown guide format 'pdf'"):
        render_guide(boston(game="boston5"), "pdf")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_guide_from_a_table_file(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "guide", "--table", str(EXAMPLES / "table-boston7.toml"))
    assert status == 0
    assert err == ""
    assert out.startswith("# Boston 7 Stud Poker")
    assert "| Straight flush | 60 to 1 |" in out  # the file's own line
    assert "payout limit is $100,000.00" in out


def test_cli_guide_picks_the_double_down_loader_from_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    table = tmp_path / "dds.toml"
    table.write_text('game = "double-down-stud"\nminimum = "10.00"\n', encoding="utf-8")
    status, out, _ = run(capsys, "guide", "--table", str(table), "--format", "html")
    assert status == 0
    assert "Double Down Stud" in out
    assert "at least $10.00" in out
    check_html(out)


def test_cli_guide_minimum_table_of_an_edition(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "guide", "--game", "boston5", "--edition", "ma-205-cmr")
    assert status == 0
    assert "Massachusetts" in out
    assert "Ante: at least $5.00, at most $1,000.00." in out


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        (None, (), "cannot read table file"),
        ("game = ", (), "is not valid TOML"),
        ('game = "boston5"\nminimum = "x"\n', (), "minimum must be an amount"),
        ('game = "boston5"\n', ("--format", "pdf"), "invalid choice: 'pdf'"),
        ('game = "boston5"\n', ("--game", "boston7"), "is for boston5"),
    ],
)
def test_cli_guide_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    content: str | None,
    extra: tuple[str, ...],
    message: str,
) -> None:
    table = tmp_path / "table.toml"
    if content is not None:
        table.write_text(content, encoding="utf-8")
    status, out, err = run(capsys, "guide", "--table", str(table), *extra)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("felt: error: ")
    assert message in err


def test_cli_guide_needs_a_table_or_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "guide")
    assert status == 2
    games = "|".join(game_ids("table"))  # every registered table game, in registry order
    assert err == f"felt: error: guide needs --table FILE or --game {games}\n"
    assert games.startswith("boston5|boston7|caribbean_stud|craps|double-down-stud")


def test_guide_states_the_decision_time_and_what_a_silent_player_is_deemed_to_choose() -> None:
    """decision_seconds is a house rule that costs a silent player the ante and first wager."""
    from felt.games.boston import TableConfig
    from felt.guide import render_guide

    config = TableConfig.from_mapping({"game": "boston5", "decision_seconds": 45})
    text = render_guide(config, "md")
    assert "45 seconds" in text
    assert "deemed not to expose (the bonus wager loses) or to fold" in text
