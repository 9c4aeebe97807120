"""One scenario per clause of 24.6, 24.7-24.11 and per edition difference (Boston 5 and 7)."""

from __future__ import annotations

import pytest

from felt.cli.script import report
from felt.core.cards import parse_cards
from felt.core.errors import FeltError
from felt.core.paytable import Payout
from felt.games.boston.actions import (
    Decline,
    Discard,
    Expose,
    Fold,
    Keep,
    Leave,
    PlaceWagers,
    Second,
    Withdraw,
)
from felt.games.boston.round import Phase
from felt.rounds.actions import NoMoreBets
from tests.boston_helpers import lines_of, new_round, play

FIVE, TEN = 500, 1000


def refused(rnd, action, match: str) -> None:  # type: ignore[no-untyped-def]
    """The action is refused with a message matching ``match`` and the round is unchanged."""
    before = (report(rnd), len(rnd.events), rnd.ledger.transfers[:])
    with pytest.raises(FeltError, match=match):
        rnd.apply(action)
    assert (report(rnd), len(rnd.events), rnd.ledger.transfers) == before


# --------------------------------------------------------------------------- 24.1 and 24.6 wagers


def test_24_1_ante_is_half_the_first_wager_in_boston5() -> None:
    rnd = new_round()
    refused(rnd, PlaceWagers(1, FIVE, 900), r"first wager must be 2 x the ante = 10.00.*19:47-24.1")


def test_13_69f_24_6_d_boston7_first_wager_ratio_preselected() -> None:
    one = new_round(game="boston7", first_ratio=1)
    one.apply(PlaceWagers(1, FIVE, FIVE))
    refused(one, PlaceWagers(2, FIVE, TEN), r"1 x the ante.*13:69F-24.6\(d\)")
    two = new_round(game="boston7", first_ratio=2)
    refused(two, PlaceWagers(2, FIVE, FIVE), r"2 x the ante")
    with pytest.raises(FeltError, match=r"first_ratio must be 1 or 2"):
        new_round(game="boston7", first_ratio=3)


def test_table_minimum_and_maximum_apply_to_the_ante() -> None:
    rnd = new_round(minimum="10", maximum="100")
    refused(rnd, PlaceWagers(1, FIVE, TEN), "outside the table limits 10.00 to 100.00")
    refused(rnd, PlaceWagers(1, 20000, 40000), "outside the table limits")


def test_24_6_c_optional_bonus_at_least_one_dollar() -> None:
    rnd = new_round()
    refused(rnd, PlaceWagers(1, FIVE, TEN, 99), r"1.00 to .*19:47-24.6\(c\)")
    rnd.apply(PlaceWagers(1, FIVE, TEN, 100))
    assert rnd.seats[1].wagers["bonus"] == 100


def test_13_69f_24_6_e_optional_bonus_limits_cite_6_e_not_6_c() -> None:
    """13:69F renumbered the optional bonus wager from 24.6(c) to 24.6(e) (no change in text)."""
    rnd = new_round(edition="nj-13-69f-24")
    refused(rnd, PlaceWagers(1, FIVE, TEN, 99), r"1.00 to .*13:69F-24.6\(e\)")
    with pytest.raises(FeltError, match=r"13:69F-24.6\(e\)"):
        new_round(edition="nj-13-69f-24", bonus_minimum="0.50")
    with pytest.raises(FeltError, match=r"19:47-24.6\(c\)"):
        new_round(bonus_minimum="0.50")


def test_24_6_b_no_wager_after_no_more_bets() -> None:
    rnd = new_round(wagers={1: (FIVE, TEN)})
    rnd.apply(NoMoreBets())
    refused(rnd, PlaceWagers(2, FIVE, TEN), r"No more bets.*24.6\(b\)")


def test_24_6_e_player_remains_seated_once_dealt() -> None:
    rnd = new_round(wagers={1: (FIVE, TEN), 2: (FIVE, TEN)})
    rnd.apply(Leave(2))  # before "No more bets" the player may take the wagers back
    assert 2 not in rnd.seats
    assert rnd.ledger.balance("seat 2") == 0
    rnd.run_dealer()
    refused(rnd, Leave(1), r"must remain seated.*19:47-24.6\(e\)")


def test_13_69f_24_6_g_remain_seated_clause_cited() -> None:
    rnd = new_round(wagers={1: (FIVE, TEN)}, edition="nj-13-69f-24")
    rnd.run_dealer()
    refused(rnd, Leave(1), r"13:69F-24.6\(g\)")


def test_13_69f_24_13_one_position_per_player_unless_permitted() -> None:
    rnd = new_round(edition="nj-13-69f-24")
    rnd.apply(PlaceWagers(1, FIVE, TEN, player="ann"))
    refused(rnd, PlaceWagers(2, FIVE, TEN, player="ann"), r"13:69F-24.13")
    two = new_round(edition="nj-13-69f-24", positions_per_player=2)
    two.apply(PlaceWagers(1, FIVE, TEN, player="ann"))
    two.apply(PlaceWagers(2, FIVE, TEN, player="ann"))
    assert len(two.seats) == 2


def test_2003_edition_has_no_positions_limit() -> None:
    rnd = new_round()
    for seat in (1, 2, 3):
        rnd.apply(PlaceWagers(seat, FIVE, TEN, player="ann"))
    assert len(rnd.seats) == 3


# --------------------------------------------------------------------------- 24.7-24.9 dealing


def test_24_7_d_three_each_from_the_dealers_left_then_dealer() -> None:
    rnd = new_round(
        "2c 3c 4c 5d 6d 7d 8h 9h Th Js Qs Ks", {3: (FIVE, TEN), 1: (FIVE, TEN), 2: (FIVE, TEN)}
    )
    rnd.run_dealer()
    assert rnd.seats[1].cards == list(parse_cards("2c 3c 4c"))
    assert rnd.seats[2].cards == list(parse_cards("5d 6d 7d"))
    assert rnd.seats[3].cards == list(parse_cards("8h 9h Th"))
    assert rnd.dealer_cards == list(parse_cards("Js Qs Ks"))


def test_24_9_c_automated_shoe_stacks_in_the_same_order() -> None:
    rnd = new_round(
        "2c 3c 4c 5d 6d 7d 8h 9h Th", {1: (FIVE, TEN), 2: (FIVE, TEN)}, dealing="automated-shoe"
    )
    rnd.run_dealer()
    assert rnd.seats[2].cards == list(parse_cards("5d 6d 7d"))
    assert rnd.dealer_cards == list(parse_cards("8h 9h Th"))


def test_24_10_d_additional_cards_only_to_seats_with_second_wager_then_dealer() -> None:
    deck = "2c 3c 4c 5d 6d 7d 8h 9h Th Js Qs Ks Ac Ad"
    rnd = play(new_round(deck, {1: (FIVE, TEN), 2: (FIVE, TEN)}), Fold(1), Second(2))
    assert rnd.seats[2].cards == list(parse_cards("5d 6d 7d Js Qs"))
    assert rnd.dealer_cards == list(parse_cards("8h 9h Th Ks Ac"))


def test_13_69f_24_10_d_boston7_four_additional_cards_each() -> None:
    deck = "2c 3c 4c 5d 6d 7d 8h 9h Th Js Qs Ks Ac"
    rnd = play(new_round(deck, {1: (FIVE, TEN)}, game="boston7"), Second(1))
    assert len(rnd.seats[1].cards) == 7
    assert len(rnd.dealer_cards) == 7
    assert rnd.seats[1].cards[3:] == list(parse_cards("8h 9h Th Js"))


# --------------------------------------------------------------------------- 24.10 the round


def test_24_10_a_unexposed_bonus_loses_under_2003_texts() -> None:
    deck = "Ah Ad 5c 2c 3d 9h"  # seat 1 holds a pair but does not expose
    rnd = play(new_round(deck, {1: (FIVE, TEN, 200)}), Decline(1), Fold(1))
    assert lines_of(rnd, 1)["bonus"] == ("lose", -200)


def test_24_10_a_exposed_qualifying_bonus_paid_and_losers_collected_first() -> None:
    deck = "Ah Ad 5c 2c 3d 9h 7c 8d 4s"  # seat 1 pair (1 to 1), seat 2 nothing
    rnd = new_round(deck, {1: (FIVE, TEN, 300), 2: (FIVE, TEN, 100)})
    play(rnd, Expose(1), Expose(2), Fold(1), Fold(2))
    bonus = [(line.seat, line.outcome) for line in rnd.lines if line.wager == "bonus"]
    assert bonus == [(2, "lose"), (1, "win")]
    assert lines_of(rnd, 1)["bonus"] == ("win", 300)


def test_13_69f_24_10_a_exposure_required() -> None:
    deck = "Ah Ad 5c 2c 3d 9h"
    rnd = new_round(deck, {1: (FIVE, TEN, 200)}, edition="nj-13-69f-24")
    rnd.run_dealer()
    refused(rnd, Decline(1), r"exposure is required under N.J.A.C. 13:69F-24.10\(a\)")
    play(rnd, Fold(1))
    assert lines_of(rnd, 1)["bonus"] == ("win", 200)
    assert rnd.seats[1].exposed


def test_24_10_b_fold_forfeits_ante_and_first_and_hand_goes_unexposed_to_rack() -> None:
    rnd = play(new_round("2c 3d 7h", {1: (FIVE, TEN)}), Fold(1))
    assert lines_of(rnd, 1) == {"ante": ("forfeit", -FIVE), "first": ("forfeit", -TEN)}
    assert rnd.rack.bundles[0] == ("seat 1 folded", tuple(parse_cards("2c 3d 7h")))
    assert rnd.phase is Phase.COMPLETE


def test_24_10_b_second_wager_equals_first_and_decisions_in_any_order() -> None:
    """24.10(b) sets no order: seat 2 may decide before seat 1; each decides once."""
    rnd = new_round("", {1: (FIVE, TEN), 2: (FIVE, TEN)})
    rnd.run_dealer()
    assert rnd.pending() == [(1, "second or fold"), (2, "second or fold")]
    rnd.apply(Second(2))
    assert rnd.pending() == [(1, "second or fold")]
    refused(rnd, Fold(2), "seat 2 has already decided")
    rnd.apply(Second(1))
    assert rnd.seats[1].wagers["second"] == rnd.seats[2].wagers["second"] == TEN
    assert rnd.phase is Phase.READY


def test_24_10_c_second_wager_withdrawn_before_additional_cards() -> None:
    rnd = new_round("", {1: (FIVE, TEN), 2: (FIVE, TEN)})
    rnd.run_dealer()
    rnd.apply(Second(1))
    rnd.apply(Second(2))
    assert rnd.phase is Phase.READY
    rnd.apply(Withdraw(2))
    assert lines_of(rnd, 2) == {
        "ante": ("forfeit", -FIVE),
        "first": ("forfeit", -TEN),
        "second": ("void", 0),
    }
    rnd.advance()  # the additional cards
    assert rnd.phase.value == "dealt"
    refused(rnd, Withdraw(1), r"only before the additional cards.*24.10\(c\)")


def test_acting_on_a_folded_seat_is_refused() -> None:
    rnd = new_round("", {1: (FIVE, TEN), 2: (FIVE, TEN)})
    rnd.run_dealer()
    rnd.apply(Fold(1))
    refused(rnd, Second(1), "has folded")


def test_24_10_e_dealer_sets_highest_five_of_seven_in_boston7() -> None:
    deck = "2c 3d 7h Ah Kh Qh 4c 5d 9s 8c Jh Th 2s 3s"
    rnd = play(new_round(deck, {1: (FIVE, TEN)}, game="boston7"), Second(1))
    assert rnd.dealer_hand is not None
    assert rnd.dealer_hand.category.label == "royal flush"
    assert set(rnd.dealer_hand.best_five) == set(parse_cards("Ah Kh Qh Jh Th"))


def test_24_10_f_settled_from_seat_6_down_to_seat_1() -> None:
    rnd = play(
        new_round("", {1: (FIVE, TEN), 4: (FIVE, TEN), 6: (FIVE, TEN)}),
        Second(1),
        Second(4),
        Second(6),
    )
    seats = [line.seat for line in rnd.lines]
    assert seats == sorted(seats, reverse=True)
    hands = [label for label, _ in rnd.rack.bundles if label.startswith("seat")]
    assert hands == ["seat 6 hand", "seat 4 hand", "seat 1 hand"]


def test_24_10_f1_dealer_higher_ante_first_second_lose() -> None:
    rnd = play(new_round("2c 3d 5h Ah Ad Kc 7s 9c Qs Js", {1: (FIVE, TEN)}), Second(1))
    assert lines_of(rnd, 1) == {
        "ante": ("lose", -FIVE),
        "first": ("lose", -TEN),
        "second": ("lose", -TEN),
    }


def test_24_10_f2_tie_is_a_push() -> None:
    rnd = play(new_round("Ac Kc Qd As Ks Qh Jh 9s Jd 9c", {1: (FIVE, TEN)}), Second(1))
    assert lines_of(rnd, 1) == {"first": ("push", 0), "second": ("push", 0), "ante": ("push", 0)}
    assert rnd.net(1) == 0


def test_24_10_f3_player_higher_wins_1_to_1_and_ante_returned_without_bonus_hand() -> None:
    rnd = play(new_round("Ah Kd 7c Qc Jd 4h 7d 2s 9s 3c", {1: (FIVE, TEN)}), Second(1))
    assert lines_of(rnd, 1) == {"first": ("win", TEN), "second": ("win", TEN), "ante": ("push", 0)}


def test_24_10_f1_f3_dealer_higher_ante_lost_and_ante_bonus_paid_all_the_same() -> None:
    """24.10(f)1: the ante loses when the dealer is higher; (f)3: the ante bonus is paid anyway.

    Worked by hand: the player holds two pair, fives and deuces (2c 2d 5h 5c 9s); the dealer two
    pair, aces and kings.  Ante $5 collected, first and second $10 each collected, two pair's
    ante bonus 2 to 1 on the $5 ante paid: -5 - 10 - 10 + 10 = -$15.  (A public description of
    the game as dealt: a player with a bonus hand who loses to the dealer "will still get the
    bonus but lose the ante bet itself".)
    """
    rnd = play(new_round("2c 2d 5h Ac Ad Kh 5c 9s Ks 3c", {1: (FIVE, TEN)}), Second(1))
    assert lines_of(rnd, 1) == {
        "ante": ("lose", -FIVE),
        "first": ("lose", -TEN),
        "second": ("lose", -TEN),
        "ante bonus": ("paid", 2 * FIVE),
    }
    assert rnd.net(1) == -1500
    assert rnd.ledger.balance("house") == 1500
    assert [line.wager for line in rnd.lines] == ["ante", "first", "second", "ante bonus"]


def test_24_10_f2_f3_tie_pushes_all_three_and_ante_bonus_is_paid() -> None:
    """24.10(f)2: a tie pushes ante, first and second; (f)3: the ante bonus is still paid.

    Worked by hand: both hands are king-high straights (9c Td Jc Qc Kh against 9d Th Js Qd Kc).
    Every wager is returned and the straight's 8 to 1 on the $5 ante is paid: +$40.
    """
    rnd = play(new_round("9c Td Jc 9d Th Js Qc Kh Qd Kc", {1: (FIVE, TEN)}), Second(1))
    assert lines_of(rnd, 1) == {
        "first": ("push", 0),
        "second": ("push", 0),
        "ante": ("push", 0),
        "ante bonus": ("paid", 8 * FIVE),
    }
    assert rnd.net(1) == 4000


def test_24_10_f3_player_higher_ante_paid_its_bonus_odds() -> None:
    """24.10(f)3: player higher with an ante bonus hand: first and second 1 to 1, ante at its odds.

    Worked by hand: a flush (Ac 9c 7c 4c 2c) against the dealer's pair of kings: +10 +10 and the
    flush's 15 to 1 on the $5 ante, +75: +$95.
    """
    rnd = play(new_round("Ac 9c 7c Kd Kh 3s 4c 2c 8d 6h", {1: (FIVE, TEN)}), Second(1))
    assert lines_of(rnd, 1) == {
        "first": ("win", TEN),
        "second": ("win", TEN),
        "ante": ("win", 15 * FIVE),
    }
    assert rnd.net(1) == 9500


def test_13_69f_24_10_f1_f3_boston7_dealer_higher_ante_lost_bonus_paid() -> None:
    """13:69F-24.10(f) (no change from 19:47-24.10(f)) in Boston 7: "if the dealer's five card
    poker hand beats the player's hand, the dealer collects the ante bonus wager as well as the
    1st and 2nd wagers" (a public description of the game); the bonus payout is still owed.

    Worked by hand: the player's trip deuces (1 to 1) lose to the dealer's trip aces:
    -5 - 10 - 10 + 5 = -$20.
    """
    deck = "2c 2d 2h Ac Ad Kh 5c 9s 3d 8h As 4c 7d Jh"
    rnd = play(new_round(deck, {1: (FIVE, TEN)}, game="boston7"), Second(1), Keep(1))
    assert lines_of(rnd, 1) == {
        "ante": ("lose", -FIVE),
        "first": ("lose", -TEN),
        "second": ("lose", -TEN),
        "ante bonus": ("paid", FIVE),
    }
    assert rnd.net(1) == -2000


def test_24_11_e_payout_limit_caps_an_ante_bonus_paid_on_a_tie() -> None:
    """24.11(e): the limit applies to the ante bonus payout whatever the hand's outcome.

    Worked by hand: royal flush against royal flush at a $100 ante, $50,000 limit: everything
    pushes and 1000 to 1 on $100 = $100,000 is cut to $50,000.
    """
    deck = "As Ks Qs Ah Kh Qh Js Ts Jh Th"
    rnd = new_round(deck, {1: (10000, 20000)}, maximum="100", payout_limit="50000")
    play(rnd, Second(1))
    bonus = next(line for line in rnd.lines if line.wager == "ante bonus")
    assert (bonus.outcome, bonus.amount, bonus.limit_reduction) == ("paid", 5000000, 5000000)
    assert rnd.net(1) == 5000000


def test_13_69f_24_10_g_alternative_settlement_pays_ante_bonus_after_all_losers() -> None:
    """13:69F-24.10(g): losing wagers of every seat first, then winning wagers and ante bonuses."""
    # seat 1: two pair, deuces and fives, loses to the dealer's aces up but is owed its bonus;
    # seat 2: nine high, loses.
    deck = "2c 2d 5h 3c 4d 9h Ac Ad Kh 5c 9s 6s 7s Ks 3h"
    rnd = new_round(
        deck, {1: (FIVE, TEN), 2: (FIVE, TEN)}, edition="nj-13-69f-24", settlement="alternative"
    )
    play(rnd, Second(1), Second(2))
    order = [(line.seat, line.wager, line.outcome) for line in rnd.lines]
    assert order[-1] == (1, "ante bonus", "paid")
    assert all(o == "lose" for _, _, o in order[:-1])
    assert rnd.net(1) == -1500
    assert rnd.net(2) == -2500


def test_24_10_g_alternative_settlement_losers_first() -> None:
    # seat 2 wins (pair of sevens), seat 1 loses (nine high) against the dealer's queen high
    deck = "2c 3d 5h Ah Kd 7c Qc Jd 4h 6s 9c 7d 2s 8s 3c"
    rnd = new_round(
        deck, {1: (FIVE, TEN), 2: (FIVE, TEN)}, edition="nj-13-69f-24", settlement="alternative"
    )
    play(rnd, Second(1), Second(2))
    order = [(line.seat, line.outcome) for line in rnd.lines]
    assert order[:3] == [(1, "lose")] * 3
    assert [o for _, o in order[3:]] == ["win", "win", "push"]
    with pytest.raises(FeltError, match=r"13:69F-24.10\(g\)"):
        new_round(settlement="alternative")


def test_standard_settlement_goes_seat_by_seat() -> None:
    deck = "2c 3d 5h Ah Kd 7c Qc Jd 4h 6s 9c 7d 2s 8s 3c"
    rnd = play(new_round(deck, {1: (FIVE, TEN), 2: (FIVE, TEN)}), Second(1), Second(2))
    assert [line.seat for line in rnd.lines] == [2, 2, 2, 1, 1, 1]


def test_24_10_g_discard_rack_reconstructs_every_hand() -> None:
    """19:47-24.10(g) / 13:69F-24.10(h): cards picked up in order, each hand recoverable."""
    rnd = play(
        new_round("", {1: (FIVE, TEN), 2: (FIVE, TEN), 3: (FIVE, TEN)}),
        Fold(1),
        Second(2),
        Second(3),
    )
    bundles = dict(rnd.rack.bundles)
    for n, seat in rnd.seats.items():
        label = f"seat {n} folded" if seat.decision == "fold" else f"seat {n} hand"
        assert list(bundles[label]) == seat.cards
    assert list(bundles["dealer"]) == rnd.dealer_cards
    assert sorted(rnd.rack.cards()) == list(range(52))


def test_13_69f_24_10_c_boston7_discard_forfeits_six_and_seven_card_royals() -> None:
    deck = "As Ks Qs 2c 3d 4h Js Ts 9s 8s 5c 6d 7h 9h Jd"
    keep = play(new_round(deck, {1: (FIVE, TEN)}, game="boston7"), Second(1), Keep(1))
    assert lines_of(keep, 1)["ante"] == ("win", 2500000)
    drop = play(
        new_round(deck, {1: (FIVE, TEN)}, game="boston7"),
        Second(1),
        Discard(1, tuple(parse_cards("9s 8s"))),
    )
    assert lines_of(drop, 1)["ante"] == ("win", 200 * FIVE)
    assert ("seat 1 discards", tuple(parse_cards("9s 8s"))) in drop.rack.bundles


def test_boston7_discard_must_name_two_of_the_seven() -> None:
    boston5 = new_round("", {1: (FIVE, TEN)})
    boston5.run_dealer()
    boston5.apply(Second(1))
    boston5.advance()
    assert boston5.phase is Phase.DEALT
    refused(boston5, Discard(1, tuple(parse_cards("2c 2d"))), "only Boston 7")
    rnd7 = new_round("2c 3c 4c", {1: (FIVE, TEN)}, game="boston7")
    rnd7.run_dealer()
    rnd7.apply(Second(1))
    rnd7.run_dealer()
    assert rnd7.phase is Phase.DEALT  # waits for the discard decision
    assert rnd7.pending() == [(1, "discard or keep")]
    refused(rnd7, Discard(1, tuple(parse_cards("As Ks"))), "discard exactly two of your seven")
    refused(rnd7, Discard(1, tuple(parse_cards("2c"))), "discard exactly two")
    rnd7.apply(Keep(1))
    refused(rnd7, Discard(1, tuple(parse_cards("2c 3c"))), "already chosen")


# --------------------------------------------------------------------------- 24.11 payout odds


def test_24_11_a_odds_stated_with_to_not_for() -> None:
    with pytest.raises(FeltError, match="'to'"):
        Payout.parse("9 for 1")


def test_24_11_c_minimum_ante_bonus_table_and_more_generous_tables() -> None:
    with pytest.raises(
        FeltError, match=r"less than the minimum 25 to 1 \(N.J.A.C. 19:47-24.11\(c\)\)"
    ):
        new_round(ante_bonus={"full house": "20 to 1"})
    rnd = new_round(
        "Ah Ad Kc 2c 3d 9h Ac Kd 8c 2d", {1: (FIVE, TEN)}, ante_bonus={"full house": "30 to 1"}
    )
    play(rnd, Second(1))
    assert lines_of(rnd, 1)["ante"] == ("win", 30 * FIVE)


def test_24_11_c_two_pair_qualifies_in_boston5_not_boston7() -> None:
    five = play(new_round("2c 2d 5h Qc Jd 4h 5c 9s 8s 3c", {1: (FIVE, TEN)}), Second(1))
    assert lines_of(five, 1)["ante"] == ("win", 2 * FIVE)
    deck7 = "2c 2d 5h Qc Jd 4h 5c 9s Kh Ah 8s 3c 7d 6h"
    seven = play(new_round(deck7, {1: (FIVE, TEN)}, game="boston7"), Second(1))
    assert lines_of(seven, 1)["ante"] == ("push", 0)


def test_13_69f_24_11_c_paid_once_for_the_highest_payout() -> None:
    """A seven-card royal at a $200 ante: 200 to 1 ($40,000) beats the fixed $25,000."""
    deck = "As Ks Qs 2c 3d 4h Js Ts 9s 8s 5c 6d 7h 9h Jd"
    rnd = play(new_round(deck, {1: (20000, 40000)}, game="boston7"), Second(1))
    ante = [line for line in rnd.lines if line.wager == "ante"]
    assert len(ante) == 1
    assert ante[0].amount == 200 * 20000
    assert "royal flush" in ante[0].hand


def test_24_11_d_optional_bonus_tables_by_edition() -> None:
    """2003: A-K-Q suited is a straight flush at 40 to 1; 13:69F: a royal at 50 to 1, straight 5 to 1."""
    deck = "Ah Kh Qh 2c 3d 9h"
    old = play(new_round(deck, {1: (FIVE, TEN, 100)}), Expose(1), Fold(1))
    assert lines_of(old, 1)["bonus"] == ("win", 4000)
    new = play(new_round(deck, {1: (FIVE, TEN, 100)}, edition="nj-13-69f-24"), Fold(1))
    assert lines_of(new, 1)["bonus"] == ("win", 5000)
    declined = play(
        new_round(deck, {1: (FIVE, TEN, 100)}, edition="nj-13-69f-24", royal_offered=False), Fold(1)
    )
    assert lines_of(declined, 1)["bonus"] == ("win", 4000)
    straight = "Ah 2d 3c 2c 3d 9h"
    assert lines_of(play(new_round(straight, {1: (FIVE, TEN, 100)}), Expose(1), Fold(1)), 1)[
        "bonus"
    ] == ("win", 600)
    s13 = play(new_round(straight, {1: (FIVE, TEN, 100)}, edition="nj-13-69f-24"), Fold(1))
    assert lines_of(s13, 1)["bonus"] == ("win", 500)


def test_13_69f_24_11_d_royal_may_be_declined_only_under_13_69f() -> None:
    with pytest.raises(FeltError, match=r"13:69F-24.11\(d\)"):
        new_round(royal_offered=False)


def test_24_11_e_payout_limit_caps_first_second_and_ante_bonus_not_optional_bonus() -> None:
    deck = "As Ks Qs 2c 3d 4h Js Ts 9c 8d"
    rnd = play(
        new_round(deck, {1: (10000, 20000, 2500)}, payout_limit="50000"), Expose(1), Second(1)
    )
    lines = {line.wager: line for line in rnd.lines}
    assert lines["bonus"].amount == 40 * 2500  # optional bonus: never limited
    assert lines["first"].amount + lines["second"].amount + lines["ante"].amount == 5000000
    assert lines["ante"].limit_reduction == 1000 * 10000 + 40000 - 5000000
    assert "11(e)" in lines["ante"].clause


def test_24_11_e_payout_limit_floor() -> None:
    with pytest.raises(FeltError, match=r"below 50000.00.*24.11\(e\)"):
        new_round(payout_limit="49999")
    with pytest.raises(FeltError, match=r"below 100400\.00"):
        new_round(minimum="100", payout_limit="60000")  # 1000 x 100 + 4 x 100 > 50,000
