"""A poker table's settings (N.J.A.C. 19:47-14.17, and the rake and forced bets felt posts)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from felt.core.errors import FeltError
from felt.games.poker.config import PercentRake, PokerConfig, TimeRake

EXAMPLE = Path(__file__).parent.parent / "examples" / "table-poker-holdem.toml"


def test_example_table_reads_and_writes_back() -> None:
    """The example table file loads, and its mapping reads back to an equal config."""
    config = PokerConfig.from_file(EXAMPLE)
    assert (config.small_bet, config.big_bet, config.max_raises) == (200, 400, 3)
    assert PokerConfig.from_mapping(config.to_mapping()) == config


def test_14_17_limits_posted_with_max_raises() -> None:
    """14.17: the sign shows the minimum and maximum wagers and the most raises per round."""
    config = PokerConfig.from_mapping({})
    assert config.limits_text() == "holdem 2.00/4.00 fixed"
    assert config.max_raises == 3
    no_limit = PokerConfig.from_mapping({"limit": "no"})
    assert no_limit.max_raises == 0
    assert no_limit.limits_text() == "holdem 1.00/2.00 no"


def test_stud_takes_ante_and_bring_in_not_blinds() -> None:
    """Seven-card stud posts an ante and a bring-in, no blinds; at most 8 seats."""
    config = PokerConfig.from_mapping(
        {"variant": "stud7", "ante": "0.50", "bring_in": "1.00", "seats": 8}
    )
    assert (config.small_blind, config.big_blind, config.ante, config.bring_in) == (0, 0, 50, 100)
    assert not config.blinds


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"variant": "razz"}, "variant must be one of holdem, omaha, stud7"),
        ({"variant": "stud7", "limit": "no", "bring_in": "1"}, "limit must be one of fixed"),
        ({"small_blind": "3.00"}, "small_blind must be more than 0 and at most big_blind"),
        ({"big_blind": "3.00", "small_bet": "2.00"}, "big_blind (3.00) may not exceed"),
        ({"max_raises": 0}, "max_raises must be a whole number of at least 1"),
        ({"min_buy_in": "300.00"}, "min_buy_in must be at least"),
        ({"seats": 11}, "seats must be a whole number from 2 to 10"),
        ({"variant": "stud7"}, "bring_in must be more than 0"),
        ({"rake": {"kind": "percent", "percent": "101", "cap": "1"}}, "percent must be"),
        ({"rake": {"kind": "flat"}}, "kind must be percent or time"),
        ({"colour": "red"}, "unknown key"),
        ({"ante": "-1.00"}, "ante may not be negative"),
    ],
)
def test_bad_table_refused_with_one_clear_error(changes: dict[str, object], words: str) -> None:
    """Each bad setting is one FeltError naming the setting and what is allowed."""
    with pytest.raises(FeltError) as error:
        PokerConfig.from_mapping(changes)
    assert words in str(error.value)


def test_rake_percent_with_cap_rounds_down() -> None:
    """Rake: 10% of the pot to the cap, whole cents rounded down; none with no flop (hand-figured:
    10% of 25.55 is 2.555 -> 2.55; 10% of 90.00 is 9.00 -> the 4.00 cap)."""
    rake = PercentRake(percent=Fraction(10), cap=400, no_flop_no_drop=True)
    assert rake.take(2555, flop_seen=True) == 255
    assert rake.take(9000, flop_seen=True) == 400
    assert rake.take(9000, flop_seen=False) == 0
    assert PercentRake(Fraction(5), 500, False).take(999, flop_seen=False) == 49


def test_time_rake_takes_nothing_from_the_pot() -> None:
    """A time charge is paid by the seats each half hour, never from a pot."""
    config = PokerConfig.from_mapping({"rake": {"kind": "time", "per_half_hour": "7.00"}})
    assert config.rake == TimeRake(per_half_hour=700)
    assert config.rake.take(10_000, flop_seen=True) == 0
