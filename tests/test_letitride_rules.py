"""Let It Ride Poker (N.J.A.C. 19:47-18): the rules data, the table configuration checked at load
(every refusal), the rankings of 18.3 and the lines the wagers are paid on, and the register.
What the seed text lacks (the pay tables, the bonus wagers, the payout limit) is from the public
descriptions named in docs/interpretations.md ("Let It Ride Poker")."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from felt.cli.main import main
from felt.core.cards import Card, Rank, Suit, parse_cards
from felt.core.errors import FeltError
from felt.games.let_it_ride.config import (
    LetItRideConfig,
    least_payout_limit,
    load_let_it_ride_table,
    rules,
)
from felt.games.let_it_ride.hand import (
    HANDS,
    THREE_CARD_HANDS,
    bonus_hand,
    hand_name,
    pay_hand,
    three_card_hand,
)
from felt.register import document, load


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


# ----------------------------------------------------------------------------- pay tables (18.11)


def test_18_11_minimum_pay_table_is_the_published_one() -> None:
    """Pair of tens or better 1, two pair 2, three of a kind 3, straight 5, flush 8, full house
    11, four of a kind 50, straight flush 200, royal flush 1,000 to 1 (issue 22;
    greatblueheroncasino.com's posted table; not in the seed text)."""
    assert rules().pays == {
        "royal flush": 1000, "straight flush": 200, "four of a kind": 50, "full house": 11,
        "flush": 8, "straight": 5, "three of a kind": 3, "two pair": 2, "tens or better": 1,
    }  # fmt: skip
    assert tuple(rules().pays) == HANDS
    assert rules().cite("4(e)") == "N.J.A.C. 19:47-18.4(e)"


def test_18_6A_18_6B_minimum_bonus_pay_tables_are_the_published_ones() -> None:
    """The bonus: 20,000, 2,000, 400, 200, 50, 25, 5 to 1 on a $1 wager; the three-card bonus:
    mini royal 50, straight flush 40, three of a kind 30, straight 6, flush 4, pair 1 to 1
    (table-games-online.com's Let It Ride page; not in the seed text)."""
    bonus, three = rules().bonus, rules().three_card_bonus
    assert bonus.wager == 100
    assert bonus.pays == {
        "royal flush": 20000, "straight flush": 2000, "four of a kind": 400, "full house": 200,
        "flush": 50, "straight": 25, "three of a kind": 5,
    }  # fmt: skip
    assert three.pays == {"mini royal": 50, "straight flush": 40, "three of a kind": 30,
                          "straight": 6, "flush": 4, "pair": 1}  # fmt: skip
    assert (three.minimum, three.maximum) == (100, 10000)


def test_18_11_a_table_may_pay_more_never_less() -> None:
    more = LetItRideConfig.from_mapping({"pays": {"full house": "12 to 1", "flush": "17 to 2"}})
    assert more.pays["full house"] == 12
    assert more.pays["flush"] == Fraction(17, 2)
    assert more.pays["royal flush"] == 1000  # the lines not given stay at the minimum
    extra = LetItRideConfig.from_mapping({"bonus": {"pays": {"two pair": "1 to 1"}}}).bonus
    assert extra is not None
    assert extra.pays["two pair"] == 1  # a line added pays more
    cases: list[tuple[dict[str, Any], str]] = [
        ({"pays": {"flush": "7 to 1"}}, r"'flush' pays 7 to 1, less than the minimum 8 to 1"),
        ({"pays": {"one pair": "1 to 1"}}, "not a hand this wager is paid on"),
        ({"pays": {"flush": "$50"}}, "odds"),
        ({"pays": "generous"}, "must be a table of hand = odds"),
        ({"bonus": {"pays": {"straight": "20 to 1"}}}, r"'straight' pays 20 to 1, less than"),
        ({"bonus": {"pays": {"one pair": "1 to 1"}}}, "not a hand this wager is paid on"),
        ({"three_card_bonus": {"pays": {"pair": "1 to 2"}}}, r"'pair' pays 1 to 2, less than"),
        ({"three_card_bonus": {"pays": {"high card": "1 to 1"}}}, "not a hand this wager"),
    ]
    for settings, message in cases:
        with pytest.raises(FeltError, match=message):
            LetItRideConfig.from_mapping(settings)


def test_18_11_payout_limit_least_is_50000_or_the_most_at_the_minimum() -> None:
    """18.11 (title only): a posted limit of at least $50,000, or the most a player betting the
    minimum on each of the three wagers could win if that is more (the sister rule
    13:69F-29.11(e)); a table may post a higher one or none, never a lower one."""
    assert LetItRideConfig.from_mapping({}).payout_limit == 5_000_000
    # $25 minimum: three wagers of $25 on a royal flush win 3 x 25 x 1,000 = $75,000
    assert LetItRideConfig.from_mapping({"minimum": "25"}).payout_limit == 7_500_000
    assert least_payout_limit(2500, rules().pays) == 7_500_000
    assert LetItRideConfig.from_mapping({"payout_limit": "60000"}).payout_limit == 6_000_000
    assert LetItRideConfig.from_mapping({"payout_limit": "none"}).payout_limit is None
    with pytest.raises(FeltError, match=r"payout_limit 49999.99 is below 50000.00"):
        LetItRideConfig.from_mapping({"payout_limit": "49999.99"})
    with pytest.raises(FeltError, match=r"payout_limit 60000.00 is below 75000.00"):
        LetItRideConfig.from_mapping({"minimum": "25", "payout_limit": "60000"})


def test_18_6A_bonus_settings_checked_at_load() -> None:
    cfg = LetItRideConfig.from_mapping({"bonus": {"wager": "5.00"}})
    assert cfg.bonus is not None
    assert cfg.bonus.wager == 500
    assert LetItRideConfig.from_mapping({"bonus": False}).bonus is None
    for bad, message in [
        ({"wager": "0"}, "wager must be a positive amount"),
        ({"jackpot": 1}, "unknown key 'jackpot'"),
        ("yes", "true, false or a table"),
    ]:
        with pytest.raises(FeltError, match=message):
            LetItRideConfig.from_mapping({"bonus": bad})


def test_18_6B_three_card_bonus_settings_checked_at_load() -> None:
    cfg = LetItRideConfig.from_mapping({"three_card_bonus": {"minimum": "5", "maximum": "25"}})
    assert cfg.three_card_bonus is not None
    assert (cfg.three_card_bonus.minimum, cfg.three_card_bonus.maximum) == (500, 2500)
    assert LetItRideConfig.from_mapping({"three_card_bonus": False}).three_card_bonus is None
    for bad, message in [
        ({"minimum": "2.50"}, "whole-dollar limits"),
        ({"minimum": "10", "maximum": "5"}, "whole-dollar limits 0 < minimum <= maximum"),
        ({"minimum": "0"}, "whole-dollar limits"),
        ({"colour": 1}, "unknown key 'colour'"),
        (7, "true, false or a table"),
    ]:
        with pytest.raises(FeltError, match=message):
            LetItRideConfig.from_mapping({"three_card_bonus": bad})


# ----------------------------------------------------------------------------- the table


def test_18_2_b_a_second_deck_needs_a_shuffler() -> None:
    assert LetItRideConfig.from_mapping({"decks": 2}).decks == 2
    with pytest.raises(FeltError, match=r"second deck needs an automated card shuffling device"):
        LetItRideConfig.from_mapping({"decks": 2, "shuffling": "manual"})
    for decks in (3, 0, True, "2"):
        with pytest.raises(FeltError, match="decks must be 1 or 2"):
            LetItRideConfig.from_mapping({"decks": decks})


def test_18_5_cut_only_after_a_manual_shuffle() -> None:
    assert LetItRideConfig.from_mapping({"shuffling": "manual"}).cut_required
    assert not LetItRideConfig.from_mapping({"shuffling": "shuffler"}).cut_required
    with pytest.raises(FeltError, match="shuffling must be manual or shuffler"):
        LetItRideConfig.from_mapping({"shuffling": "shuffler-to-shoe"})


def test_18_4_e_cards_changed_every_eight_hours_from_a_shoe_four_from_the_hand() -> None:
    assert LetItRideConfig.from_mapping({}).change_hours == 8
    assert LetItRideConfig.from_mapping({"dealing": "automated-shoe"}).change_hours == 8
    assert LetItRideConfig.from_mapping({"dealing": "hand"}).change_hours == 4


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"minimum": "10", "maximum": "5"}, "need 0 < minimum <= maximum"),
        ({"minimum": "0"}, "need 0 < minimum <= maximum"),
        ({"minimum": "ten"}, "minimum"),
        ({"seats": 8}, "seats .* must be 1 to 7"),
        ({"seats": 0}, "seats .* must be 1 to 7"),
        ({"seats": True}, "seats .* must be 1 to 7"),
        ({"dealing": "drone"}, "dealing must be one of manual-shoe, hand, automated-shoe"),
        ({"colour": "green"}, "unknown key 'colour'"),
        ({"game": "caribbean_stud"}, "game must be 'let_it_ride'"),
        ({"decision_seconds": -1}, "decision_seconds"),
        ({"payout_limit": "lots"}, "payout_limit"),
    ],
)
def test_table_settings_errors_name_the_setting(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(FeltError, match=message):
        LetItRideConfig.from_mapping(settings)


def test_config_round_trips_through_its_mapping(tmp_path: Path) -> None:
    tables: list[dict[str, Any]] = [
        {},
        {"bonus": False, "three_card_bonus": False, "payout_limit": "none", "decks": 2},
        {"shuffling": "manual", "pays": {"flush": "17 to 2"}, "dealing": "hand", "seats": 3},
    ]
    for settings in tables:
        cfg = LetItRideConfig.from_mapping(settings)
        assert LetItRideConfig.from_mapping(json.loads(json.dumps(cfg.to_mapping()))) == cfg
    path = tmp_path / "t.toml"
    path.write_text('minimum = "10.00"\nmaximum = "200.00"\nbonus = false\n')
    loaded = load_let_it_ride_table(path)
    assert (loaded.minimum, loaded.bonus) == (1000, None)


# ----------------------------------------------------------------------------- rankings (18.3)


def test_18_3_a_ace_low_only_in_a_2_3_4_5() -> None:
    assert pay_hand(cards("5d 4c 3h 2s Ah")) == "straight"
    assert pay_hand(cards("Qd Kc Ah 2s 3h")) is None  # 18.3(b)6: no wrap round the ace
    assert pay_hand(cards("5h 4h 3h 2h Ah")) == "straight flush"
    assert pay_hand(cards("Ah Kh Qh Jh Th")) == "royal flush"
    assert pay_hand(cards("Ac Kd Qh Js Tc")) == "straight"  # 18.3(b)6: the highest straight


def test_18_3_b_order_of_hands_and_the_lines_they_are_paid_on() -> None:
    """18.3(b)1-9 top down; the three wagers are paid from a pair of tens up (18.11)."""
    ladder = ["Ah Kh Qh Jh Th", "9s 8s 7s 6s 5s", "7c 7d 7h 7s 2c", "3c 3d 3h 2s 2c",
              "Kd 9d 7d 4d 2d", "9c 8d 7h 6s 5c", "4c 4d 4h Ks Qc", "Jc Jd 5h 5s 2c",
              "Tc Td 8h 5s 2c"]  # fmt: skip
    assert [pay_hand(cards(h)) for h in ladder] == list(HANDS)
    assert [hand_name(cards(h)) for h in ladder[1:]] == [
        "straight flush", "four of a kind", "full house", "flush", "straight",
        "three of a kind", "two pair", "one pair",
    ]  # fmt: skip
    assert pay_hand(cards("9c 9d Ah Ks 2c")) is None  # a pair below tens loses
    assert hand_name(cards("9c 9d Ah Ks 2c")) == "one pair"
    assert pay_hand(cards("Ac Kd 9h 5s 3c")) is None
    assert bonus_hand(cards("Tc Td 8h 5s 2c"), tuple(rules().bonus.pays)) is None
    assert bonus_hand(cards("4c 4d 4h Ks Qc"), tuple(rules().bonus.pays)) == "three of a kind"


def test_18_3_a_all_suits_equal() -> None:
    """18.3(a): no suit outranks another, so every suit relabelling keeps the line paid."""
    hand = cards("Kd 9d 7d 4d 2d")
    for suit in Suit:
        same = [Card.of(c.rank, suit) for c in hand]
        assert pay_hand(same) == "flush"


def test_18_6B_three_card_hands_by_brute_force() -> None:
    """Every three-card hand (22,100) named by an independent classifier: mini royal A-K-Q
    suited, straight flush, three of a kind, straight (A-2-3 and Q-K-A, no wrap), flush, pair.
    Textbook counts: 4 mini royals, 44 other straight flushes, 52 trips, 720 straights, 1,096
    flushes, 3,744 pairs, 16,440 high cards."""
    counts: dict[str, int] = dict.fromkeys([*THREE_CARD_HANDS, "high card"], 0)
    deck = [Card.of(r, s) for r in Rank for s in Suit]
    runs = [{a, a + 1, a + 2} for a in range(0, 11)] + [{12, 0, 1}]  # ranks 0=2 .. 12=A
    for trio in itertools.combinations(deck, 3):
        ranks = {int(c.rank) for c in trio}
        ordinals = {sorted(Rank).index(c.rank) for c in trio}
        suited = len({c.suit for c in trio}) == 1
        run = ordinals in runs
        if suited and ordinals == {10, 11, 12}:
            want = "mini royal"
        elif suited and run:
            want = "straight flush"
        elif len(ranks) == 1:
            want = "three of a kind"
        elif run:
            want = "straight"
        elif suited:
            want = "flush"
        elif len(ranks) == 2:
            want = "pair"
        else:
            want = "high card"
        assert three_card_hand(trio) == want, trio
        counts[want] += 1
    assert counts == {"mini royal": 4, "straight flush": 44, "three of a kind": 52,
                      "straight": 720, "flush": 1096, "pair": 3744, "high card": 16440}  # fmt: skip


# ----------------------------------------------------------------------------- the register


def test_18_register_covers_every_clause_with_no_gap(capsys: pytest.CaptureFixture[str]) -> None:
    """decisions.md 12: an entry for each clause of 18.1-18.4, each section 18.5-18.12 and
    18.6A, 18.6B; `felt rules let_it_ride` prints no gap."""
    reg = load("let_it_ride")
    ids = [c.id for c in reg.clauses("nj-19-47-18")]
    assert ids[0] == "1"
    assert {"2(b)5", "3(b)9", "4(e)", "4(f)", "6A", "6B", "12"} <= set(ids)
    assert all(c.status != "gap" for c in reg.clauses("nj-19-47-18"))
    for c in reg.clauses("nj-19-47-18"):
        if c.id in ("5", "6", "6A", "6B", "7", "8", "9", "10", "11", "12"):
            assert "Not in the seed text" in c.note, c.id
    assert document("let_it_ride").entries()
    assert main(["rules", "let_it_ride"]) == 0
    out = capsys.readouterr().out
    assert " 0 gap" in out.splitlines()[2] or "0 gap" in out
