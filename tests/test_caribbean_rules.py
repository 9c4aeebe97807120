"""Caribbean Stud Poker (N.J.A.C. 19:47-16): the rules data, the table configuration checked at
load, the rankings of 16.5 and the qualifying hand of 16.1.  What the seed text lacks (the pay
table, the progressive, the payout limit) is from the public descriptions named in
docs/interpretations.md ("Caribbean Stud Poker")."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from felt.core.cards import Card, Rank, Suit, parse_cards
from felt.core.errors import FeltError
from felt.games.caribbean_stud.config import (
    HANDS,
    CaribbeanConfig,
    load_caribbean_table,
    percent_text,
    rules,
    share,
)
from felt.games.caribbean_stud.hand import hand_key, hand_name, qualifies


def test_16_12_minimum_bet_pay_table_is_the_published_one() -> None:
    """Ace-king or pair 1, two pair 2, three of a kind 3, straight 4, flush 5, full house 7, four
    of a kind 20, straight flush 50, royal flush 100 to 1 (issue 21; table-games-online.com's
    rules page; not in the seed text)."""
    assert rules().bet_pays == {
        "royal flush": 100, "straight flush": 50, "four of a kind": 20, "full house": 7,
        "flush": 5, "straight": 4, "three of a kind": 3, "two pair": 2, "one pair": 1,
        "ace king": 1,
    }  # fmt: skip
    assert tuple(rules().bet_pays) == HANDS
    assert rules().cite("4(c)1ii") == "N.J.A.C. 19:47-16.4(c)1ii"


def test_16_11_minimum_progressive_is_the_published_one() -> None:
    """Royal flush 100% and straight flush 10% of the meter; four of a kind $500, full house $100,
    flush $50 (decisions.md, public NJ descriptions; not in the seed text)."""
    p = rules().progressive
    assert p.percent == {"royal flush": Fraction(1), "straight flush": Fraction(1, 10)}
    assert p.fixed == {"four of a kind": 50000, "full house": 10000, "flush": 5000}
    assert (p.meter, p.wager) == ("caribbean", 100)


def test_16_12_a_table_may_pay_more_never_less() -> None:
    more = CaribbeanConfig.from_mapping(
        {"bet_pays": {"full house": "8 to 1", "ace king": "3 to 2"}}
    )
    assert more.bet_pays["full house"] == 8
    assert more.bet_pays["ace king"] == Fraction(3, 2)
    assert more.bet_pays["royal flush"] == 100  # the lines not given stay at the minimum
    with pytest.raises(FeltError, match=r"'flush' pays 4 to 1, less than the minimum 5 to 1"):
        CaribbeanConfig.from_mapping({"bet_pays": {"flush": "4 to 1"}})
    with pytest.raises(FeltError, match="not a hand the bet wager is paid on"):
        CaribbeanConfig.from_mapping({"bet_pays": {"high card": "1 to 1"}})
    with pytest.raises(FeltError, match="odds"):
        CaribbeanConfig.from_mapping({"bet_pays": {"flush": "$50"}})


def test_16_11_progressive_settings_are_checked_at_load() -> None:
    cfg = CaribbeanConfig.from_mapping(
        {"progressive": {"meter": "floor-a", "wager": "5.00", "rate": "1/5", "seed": "25000",
                         "percent": {"straight flush": "15%"}, "fixed": {"flush": "75"}}}
    )  # fmt: skip
    p = cfg.progressive
    assert p is not None
    assert (p.meter, p.wager, p.rate, p.seed) == ("floor-a", 500, Fraction(1, 5), 2500000)
    assert p.percent["straight flush"] == Fraction(3, 20)
    assert p.fixed["flush"] == 7500
    assert p.fixed["full house"] == 10000  # the minimum where the table gives none
    assert CaribbeanConfig.from_mapping({"progressive": False}).progressive is None
    for bad, message in [
        ({"percent": {"straight flush": "5%"}}, "at least 10% of the meter"),
        ({"fixed": {"four of a kind": "499.99"}}, "at least 500.00"),
        ({"percent": {"royal flush": "90%"}}, "at least 100% of the meter"),
        ({"percent": {"royal flush": "110%"}}, "at most 100%"),
        ({"rate": "0%"}, "more than 0"),
        ({"wager": "0"}, "positive"),
        ({"meter": "Has Spaces"}, "meter must be an id"),
        ({"percent": {"flush": "1%"}}, "either a percentage or a fixed amount"),
        ({"fixed": {"straight": "5"}}, "not a progressive payout hand"),
        ({"jackpot": 1}, "unknown key 'jackpot'"),
    ]:
        with pytest.raises(FeltError, match=message):
            CaribbeanConfig.from_mapping({"progressive": bad})
    with pytest.raises(FeltError, match="true, false or a table"):
        CaribbeanConfig.from_mapping({"progressive": "yes"})


def test_shares_read_as_exact_fractions() -> None:
    assert share("10%", "x") == Fraction(1, 10) == share("1/10", "x") == share("0.1", "x")
    assert share("12.5%", "x") == Fraction(1, 8)
    assert [percent_text(Fraction(1, 10)), percent_text(Fraction(1, 8)), percent_text(Fraction(1, 3))] == [
        "10%", "12.5%", "1/3",
    ]  # fmt: skip
    for bad in ("", "10", "1e-1", "-5%", "2/0", 0.1):
        with pytest.raises(FeltError, match="share"):
            share(bad, "x")


def test_16_12_payout_limit_is_5000_or_higher_or_none() -> None:
    """The $5,000 limit of 16.12 on the table's sign (13:69E-1.13G(c)); a table may set a higher
    one or none, never a lower one (not in the seed text)."""
    assert CaribbeanConfig.from_mapping({}).payout_limit == 500000
    assert CaribbeanConfig.from_mapping({"payout_limit": "25000"}).payout_limit == 2500000
    assert CaribbeanConfig.from_mapping({"payout_limit": "none"}).payout_limit is None
    with pytest.raises(FeltError, match=r"payout_limit 4999.99 is below 5000.00"):
        CaribbeanConfig.from_mapping({"payout_limit": "4999.99"})


def test_16_2_a_second_deck_needs_a_shuffler() -> None:
    assert CaribbeanConfig.from_mapping({"decks": 2}).decks == 2
    with pytest.raises(FeltError, match=r"second deck needs an automated card shuffling device"):
        CaribbeanConfig.from_mapping({"decks": 2, "shuffling": "manual"})
    with pytest.raises(FeltError, match="decks must be 1 or 2"):
        CaribbeanConfig.from_mapping({"decks": 3})


def test_16_4_b_cut_only_after_a_manual_shuffle() -> None:
    assert CaribbeanConfig.from_mapping({"shuffling": "manual"}).cut_required
    assert not CaribbeanConfig.from_mapping({"shuffling": "shuffler"}).cut_required
    with pytest.raises(FeltError, match="shuffling must be manual or shuffler"):
        CaribbeanConfig.from_mapping({"shuffling": "shuffler-to-shoe"})


def test_table_settings_errors_name_the_setting() -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"minimum": "10", "maximum": "5"}, "need 0 < minimum <= maximum"),
        ({"seats": 8}, "seats .* must be 1 to 7"),
        ({"dealing": "drone"}, "dealing must be one of"),
        ({"colour": "green"}, "unknown key 'colour'"),
        ({"game": "three-card-poker"}, "game must be 'caribbean_stud'"),
    ]
    for settings, message in cases:
        with pytest.raises(FeltError, match=message):
            CaribbeanConfig.from_mapping(settings)


def test_config_round_trips_through_its_mapping(tmp_path: Path) -> None:
    tables: list[dict[str, Any]] = [
        {},
        {"progressive": False, "payout_limit": "none", "decks": 2},
        {"shuffling": "manual", "bet_pays": {"ace king": "3 to 2"}},
    ]
    for settings in tables:
        cfg = CaribbeanConfig.from_mapping(settings)
        assert CaribbeanConfig.from_mapping(cfg.to_mapping()) == cfg
    path = tmp_path / "t.toml"
    path.write_text('minimum = "10.00"\nmaximum = "200.00"\n[progressive]\nwager = "2.00"\n')
    loaded = load_caribbean_table(path)
    assert loaded.minimum == 1000
    assert loaded.progressive is not None
    assert loaded.progressive.wager == 200


# ----------------------------------------------------------------------------- rankings (16.5)


def test_16_5_a_ace_low_only_in_a_2_3_4_5() -> None:
    assert hand_name(parse_cards("5d 4c 3h 2s Ah")) == "straight"
    assert hand_name(parse_cards("Qd Kc Ah 2s 3h")) == "ace king"  # 16.5(b)6: no wrap-around
    assert hand_key(parse_cards("5d 4c 3h 2s Ah")) < hand_key(parse_cards("6d 5c 4h 3s 2h"))
    assert hand_name(parse_cards("5h 4h 3h 2h Ah")) == "straight flush"
    assert hand_name(parse_cards("Ah Kh Qh Jh Th")) == "royal flush"


def test_16_5_b_order_of_hands() -> None:
    """16.5(b)1-8 top down, then (not in the seed text) one pair, ace-king, high card."""
    ladder = ["Ah Kh Qh Jh Th", "9s 8s 7s 6s 5s", "7c 7d 7h 7s 2c", "3c 3d 3h 2s 2c",
              "Kd 9d 7d 4d 2d", "9c 8d 7h 6s 5c", "4c 4d 4h Ks Qc", "Jc Jd 5h 5s 2c",
              "Tc Td 8h 5s 2c", "Ac Kd 4h 3s 2c", "Qc Jd 9h 5s 3c"]  # fmt: skip
    keys = [hand_key(parse_cards(h)) for h in ladder]
    assert keys == sorted(keys, reverse=True)
    assert [hand_name(parse_cards(h)) for h in ladder] == [*HANDS, "high card"]


def test_16_5_ties_compared_card_by_card_and_exact_ties_equal() -> None:
    """Not in the seed text: a pair of tens with A-K-2 beats tens with A-Q-J; suits never
    count (16.1 "Suit": no suit higher than another)."""
    assert hand_key(parse_cards("Tc Td Ah Ks 2c")) > hand_key(parse_cards("Th Ts Ad Qs Jc"))
    assert hand_key(parse_cards("Ac Kd 9h 5s 3c")) == hand_key(parse_cards("Ad Kh 9s 5c 3d"))


# ----------------------------------------------------------------------------- qualifying (16.1)


def test_16_1_qualifying_hand_ace_king_four_three_two_or_better() -> None:
    assert qualifies(parse_cards("As Kd 4h 3c 2s"))
    assert not qualifies(parse_cards("As Qd Jh Tc 8s"))  # ace-queen high
    assert not qualifies(parse_cards("Ks Qd Jh Tc 8s"))
    assert qualifies(parse_cards("2s 2d 4h 3c 5s"))  # any pair
    assert qualifies(parse_cards("As Kd Qh Jc 9s"))


def test_16_1_qualifier_by_brute_force_over_every_high_card_rank_set() -> None:
    """Independent oracle: a high-card hand qualifies exactly when it holds an ace and a king
    (A-K-4-3-2 being the least such hand; A-K-Q-J-T is a straight)."""
    suits = [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS]
    checked = 0
    for ranks in itertools.combinations(range(13), 5):
        cards = [Card.of(Rank(r), suits[i]) for i, r in enumerate(ranks)]
        if hand_name(cards) not in ("high card", "ace king"):
            continue
        checked += 1
        assert qualifies(cards) == ({Rank.ACE, Rank.KING} <= set(ranks)), ranks
    assert checked == 1287 - 10  # every five distinct ranks but the ten straights


SHARE_TEXTS = st.one_of(
    st.integers(1, 100_000_000).map(lambda n: f"{n / 10**6:.6f}%"),
    st.integers(1, 10**8).map(lambda n: "1" if n == 10**8 else f"0.{n:08d}"),
    st.tuples(st.integers(1, 9_999_999), st.integers(1, 9_999_999))
    .filter(lambda t: t[0] <= t[1])
    .map(lambda t: f"{t[0]}/{t[1]}"),
)


@given(SHARE_TEXTS)
def test_16_12_every_share_a_table_may_write_reads_back_the_same(text: str) -> None:
    """A rate of progression or a share of the meter as a table file gives it (a percentage to
    six places, a decimal to eight, a ratio of seven digits) is written back by the round's
    record as text that reads to the same value: a round at any such table replays."""
    value = share(text, "rate")
    assert share(percent_text(value), "rate") == value
