"""Hand records, the PHH export and the rake report (N.J.A.C. 19:47-14.14 Poker revenue (title
only)); every expected figure below is worked by hand in the comments."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import partial

import pokerkit
import pytest

from felt.core.cards import new_deck, parse_cards
from felt.core.errors import FeltError
from felt.games.poker.config import PokerConfig
from felt.games.poker.hand import (
    Award,
    Bet,
    Burn,
    Call,
    Check,
    DealBoard,
    DealHole,
    Fold,
    HandKilled,
    Misdeal,
    PokerHand,
    RaiseTo,
    Statement,
)
from felt.games.poker.history import (
    Action,
    HandRecord,
    SeatRecord,
    from_phh,
    rake_report,
    record_of,
    to_phh,
)
from felt.games.poker.table import PokerTable, TimeCharge

# Three seats, $100 each, blinds 50/100 cents.  Preflop: cat raises to 300, ann calls 250 more,
# bob calls 200 more (pot 900).  Flop: ann checks, bob bets 500, cat folds, ann calls (pot 1900).
# Turn and river checked.  ann wins; rake 190; ann 10000-800+1710=10910, bob 9200, cat 9700.
HAND = HandRecord(
    table="T1",
    number=7,
    started=1000.0,
    ended=1120.0,
    variant="holdem",
    limit="no",
    seats=(
        SeatRecord(1, "ann", 10000, 10910),
        SeatRecord(2, "bob", 10000, 9200),
        SeatRecord(3, "cat", 10000, 9700),
    ),
    actions=(
        Action(3, "cbr", 300),
        Action(1, "cc", 250),
        Action(2, "cc", 200),
        Action(1, "cc", 0, 1),
        Action(2, "cbr", 500, 1),
        Action(3, "f", 0, 1),
        Action(1, "cc", 500, 1),
        Action(1, "cc", 0, 2),
        Action(2, "cc", 0, 2),
        Action(1, "cc", 0, 3),
        Action(2, "cc", 0, 3),
    ),
    blinds=(50, 100, 0),
    big_bet=100,
    board=(("As", "Ks", "Qs"), ("2d",), ("3c",)),
    holes=((1, ("Ah", "Kh")), (2, ("7c", "7d"))),
    awarded=((1, 1710),),
    rake=190,
)

EXPECTED_ACTIONS = [
    "d dh p1 AhKh",
    "d dh p2 7c7d",
    "d dh p3 ????",
    "p3 cbr 300",
    "p1 cc",
    "p2 cc",
    "d db AsKsQs",
    "p1 cc",
    "p2 cbr 500",
    "p3 f",
    "p1 cc",
    "d db 2d",
    "p1 cc",
    "p2 cc",
    "d db 3c",
    "p1 cc",
    "p2 cc",
    "p1 sm AhKh",
    "p2 sm 7c7d",
]


def test_phh_export_lines_written_by_hand() -> None:
    """The PHH text has the variant, blinds, antes, stacks and each action as written above."""
    text = to_phh(HAND)
    assert 'variant = "NT"\n' in text
    assert "blinds_or_straddles = [50, 100, 0]\n" in text
    assert "antes = [0, 0, 0]\n" in text
    assert "starting_stacks = [10000, 10000, 10000]\n" in text
    assert "actions = [" + ", ".join(f'"{line}"' for line in EXPECTED_ACTIONS) + "]\n" in text


def test_phh_round_trip() -> None:
    """Reading back the export gives the same record, call amounts recomputed from the bets."""
    assert from_phh(to_phh(HAND)) == HAND


def test_phh_round_trip_all_in_call_and_board_after() -> None:
    """Heads-up (PHH: p1 the big blind, p2 the button posting the small blind): ann (SB, $10)
    raises to 300, bob re-raises to 2000, ann calls all in for 700; the board is dealt with no
    more betting; bob's uncalled 1000 comes back, ann wins 2000."""
    hand = HandRecord(
        table="T2",
        number=1,
        started=0.0,
        ended=60.0,
        variant="holdem",
        limit="no",
        seats=(SeatRecord(1, "bob", 5000, 4000), SeatRecord(2, "ann", 1000, 2000)),
        actions=(Action(2, "cbr", 250), Action(1, "cbr", 1900), Action(2, "cc", 700)),
        blinds=(100, 50),
        big_bet=100,
        board=(("2c", "3d", "4h"), ("5s",), ("9c",)),
        holes=((1, ("Kc", "Kd")), (2, ("Ac", "Ad"))),
        awarded=((2, 2000), (1, 1000)),
    )
    text = to_phh(hand)
    assert "blinds_or_straddles = [50, 100]\n" in text
    assert '"p2 cbr 300", "p1 cbr 2000", "p2 cc", "d db 2c3d4h", "d db 5s", "d db 9c"' in text
    assert from_phh(text) == hand
    *_, final = iter(pokerkit.HandHistory.loads(text))  # independent replay, no rake
    assert list(final.stacks) == [4000, 2000]


def test_record_chips_must_add_up() -> None:
    """A record whose end stacks do not follow from its actions is refused."""
    with pytest.raises(FeltError, match="not the end stack"):
        to_phh(replace(HAND, awarded=((1, 1700),), rake=200, seats=HAND.seats))
    with pytest.raises(FeltError, match="PHH export covers"):
        to_phh(replace(HAND, variant="stud7", limit="fixed"))
    with pytest.raises(FeltError, match="not a PHH hand"):
        from_phh("variant = 3")


def test_rake_report_per_hand_and_per_hour_by_table_14_14() -> None:
    """T1: 190 + 300 cents in the first hour, 100 in the second; play from 0 to 3700 s:
    590 cents over 3 hands is 590/3 a hand; per hour 590 * 3600 / 3700 = 21240/37 cents.
    T2: one hand, no rake."""
    records = [
        replace(HAND, started=0.0, ended=120.0, rake=190),
        replace(HAND, started=130.0, ended=300.0, rake=300),
        replace(HAND, started=3600.0, ended=3700.0, rake=100),
        replace(HAND, table="T2", started=50.0, ended=50.0, rake=0),
    ]
    t1, t2 = rake_report(records)
    assert (t1.table, t1.hands, t1.rake) == ("T1", 3, 590)
    assert t1.per_hand == Fraction(590, 3)
    assert t1.per_hour == Fraction(21240, 37)
    assert t1.by_hour == ((0, 490), (3600, 100))
    assert (t2.table, t2.rake, t2.per_hand) == ("T2", 0, Fraction(0))
    assert t2.per_hour is None


def test_phh_replayed_by_pokerkit_ends_with_the_records_stacks() -> None:
    """Independent check: PokerKit reads the export and replays it to the record's end stacks
    (the rake given to it as 10% capped at $1.90, what this hand's record took)."""
    history = pokerkit.HandHistory.loads(
        to_phh(HAND), rake=partial(pokerkit.rake, percentage=0.1, cap=190)
    )
    *_, final = iter(history)
    assert list(final.stacks) == [s.end for s in HAND.seats]
    assert history.user_defined_fields["_rake"] == 190


def deal_to_turn(hand: PokerHand) -> None:
    """Do the dealer's steps until a player is to act or the hand is over."""
    while hand.status == "playing" and hand.to_act() is None:
        hand.do(next(a for a in (Burn(), DealHole(), DealBoard(), Award()) if hand.can(a)))


def test_record_of_a_played_hand_is_the_hand_worked_record() -> None:
    """record_of: HAND above played on a PokerHand (blinds 0.50/1.00, rake 10% capped at 1.90,
    the deck stacked for ann's AhKh, bob's 7c7d and the board) gives exactly HAND."""
    config = PokerConfig.from_mapping(
        {
            "limit": "no",
            "small_blind": "0.50",
            "big_blind": "1.00",
            "rake": {"kind": "percent", "percent": "10", "cap": "1.90"},
        }
    )
    top = list(parse_cards(["Ah", "7c", "9h", "Kh", "7d", "4h", "5s", "As", "Ks", "Qs"]))
    top += list(parse_cards(["6s", "2d", "8c", "3c"]))
    deck = top + [c for c in new_deck() if c not in top]
    hand = PokerHand(config, {1: 10000, 2: 10000, 3: 10000}, 3, deck)
    script = [RaiseTo(3, 300), Call(1), Call(2), Check(1), Bet(2, 500), Fold(3), Call(1)]
    script += [Check(1), Check(2), Check(1), Check(2)]
    for action in script:
        deal_to_turn(hand)
        hand.do(action)
    deal_to_turn(hand)
    names = {1: "ann", 2: "bob", 3: "cat"}
    assert record_of(hand, "T1", 7, 1000.0, 1120.0, names) == HAND


def test_record_of_irregular_hand_adds_up_and_round_trips() -> None:
    """record_of after a misdeal (14.15(f)), a stated raise thrown away ((k)2: an "f" of its own)
    and a protected hand collected ((j)3: its refund among what it got back): the record's
    chips add up (check), PHH round-trips it, and an unfinished hand is refused."""
    config = PokerConfig.from_mapping({"limit": "no"})
    hand = PokerHand(config, {1: 1000, 2: 1000, 3: 1000}, 3, new_deck())
    with pytest.raises(FeltError, match="not over"):
        record_of(hand, "T2", 1, 0.0)
    hand.do(Misdeal("f1", tuple(reversed(new_deck()))))
    deal_to_turn(hand)
    hand.do(Statement(3, RaiseTo(3, 600), then_discards=True))
    hand.do(Call(1))
    hand.do(Call(2))
    deal_to_turn(hand)
    hand.do(HandKilled("j3", 2))
    while hand.status == "playing":
        deal_to_turn(hand)
        seat = hand.to_act()
        if seat is not None:
            hand.do(next(a for a in (Check(seat), Call(seat)) if hand.can(a)))
    record = record_of(hand, "T2", 1, 10.0, 20.0)
    assert record.blinds == (100, 200, 0)
    assert record.actions[:3] == (Action(3, "cbr", 600), Action(3, "f"), Action(1, "cc", 500))
    assert (3, "f") in [(a.seat, a.verb) for a in record.actions]
    assert dict(record.awarded)[2] == 600
    assert record.holes == ()
    assert from_phh(to_phh(record)) == record
    with pytest.raises(FeltError, match="before it starts"):
        record_of(hand, "T2", 1, 10.0, 5.0)


def test_time_charge_collected_from_the_stacks_between_hands_14_14() -> None:
    """14.14 (poker revenue), the time charge: 3.00 a half hour, pro rata to the cent: seat 1
    30 minutes 3.00, seat 2 45 minutes 4.50, seat 3 10 minutes 1.00 (3.00 x 10 / 30); then seat
    3 for 7 hours (42.00) has only 39.00: 39.00 taken, 3.00 short.  Every cent moves from a stack
    to the house: stacks + time_taken stay 190.00."""
    config = PokerConfig.from_mapping({"rake": {"kind": "time", "per_half_hour": "3.00"}})
    table = PokerTable(config)
    for seat, amount in ((1, 10000), (2, 5000), (3, 4000)):
        table.buy_in(seat, amount)
    assert table.collect_time_charge({1: 30, 2: 45, 3: 10}) == {1: 300, 2: 450, 3: 100}
    assert table.stacks == {1: 9700, 2: 4550, 3: 3900}
    assert table.collect_time_charge({3: 420}) == {3: 3900}
    assert table.time_charges[-1] == TimeCharge(3, 420, 3900, 300)
    assert table.time_taken == 300 + 450 + 100 + 3900
    assert sum(table.stacks.values()) + table.time_taken == 19000
    assert table.rake_taken == 0


@pytest.mark.parametrize(
    ("minutes", "match"),
    [({1: 30, 4: 30}, "seat 4 is empty"), ({1: 30, 2: -1}, "whole number from 0")],
)
def test_time_charge_refusals_change_nothing(minutes: dict[int, int], match: str) -> None:
    """A time charge for an empty seat or negative minutes is refused whole: no stack moves."""
    config = PokerConfig.from_mapping({"rake": {"kind": "time", "per_half_hour": "3.00"}})
    table = PokerTable(config)
    table.buy_in(1, 10000)
    table.buy_in(2, 10000)
    with pytest.raises(FeltError, match=match):
        table.collect_time_charge(minutes)
    assert (table.stacks, table.time_taken, table.time_charges) == ({1: 10000, 2: 10000}, 0, [])


def test_time_charge_only_at_a_time_table_and_between_hands() -> None:
    """A percentage-rake table takes no time charge; a time table takes none mid-hand."""
    with pytest.raises(FeltError, match="percentage"):
        PokerTable(PokerConfig.from_mapping({})).collect_time_charge({})
    table = PokerTable(
        PokerConfig.from_mapping({"rake": {"kind": "time", "per_half_hour": "3.00"}})
    )
    table.buy_in(1, 10000)
    table.buy_in(2, 10000)
    table.new_hand(new_deck())
    with pytest.raises(FeltError, match="between hands"):
        table.collect_time_charge({1: 30})
