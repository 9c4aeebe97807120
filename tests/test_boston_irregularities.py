"""One scenario per irregularity of 24.12 (a)-(f) and the stub count of 24.7(f)."""

from __future__ import annotations

import pytest

from felt.cli.script import complete_deck
from felt.core.cards import parse_cards
from felt.core.errors import FeltError
from felt.games.boston.actions import (
    CountStub,
    DealerCardExposed,
    Decline,
    Expose,
    Keep,
    Second,
    ShoeJam,
)
from felt.games.boston.round import Phase
from felt.rounds.actions import DrawnInError, FaceUpCard, Misdeal, ShufflerJam
from tests.boston_helpers import lines_of, new_round, play

FIVE, TEN = 500, 1000


def test_24_12_a_dealer_card_exposed_voids_all_but_qualifying_three_card_hands() -> None:
    # seat 1: trips (ante bonus 4 to 1 and optional bonus 25 to 1); seat 2: a pair (bonus 1 to 1);
    # seat 3: nothing.
    deck = "7c 7d 7h Ac Ad 2s 3c 5d 9h Kc Qd Jh"
    rnd = new_round(deck, {1: (FIVE, TEN, 100), 2: (FIVE, TEN, 100), 3: (FIVE, TEN, 100)})
    rnd.run_dealer()
    rnd.apply(Expose(1))
    rnd.apply(DealerCardExposed())
    assert rnd.phase is Phase.VOID
    assert lines_of(rnd, 1) == {
        "bonus": ("win", 2500),
        "ante": ("win", 4 * FIVE),
        "first": ("void", 0),
    }
    assert lines_of(rnd, 2) == {"bonus": ("win", 100), "ante": ("void", 0), "first": ("void", 0)}
    assert lines_of(rnd, 3) == {"ante": ("void", 0), "first": ("void", 0), "bonus": ("void", 0)}
    assert "12(a)" in rnd.void_reason
    assert sorted(rnd.rack.cards()) == list(range(52))


def test_24_12_a_with_24_10_a_declined_bonus_hand_is_void_not_paid() -> None:
    """24.12(a) spares "three-card hands that qualify"; under 19:47-24.10(a) a hand qualifies for
    the optional bonus only if the player elects to expose it.  Seat 1 declined its pair: its
    bonus is void (returned), not paid.  Seat 2 had not yet decided: its pair is paid 1 to 1."""
    deck = "7c 7d 2h 8c 8d 3h Ac Ad 2s"
    rnd = new_round(deck, {1: (FIVE, TEN, 100), 2: (FIVE, TEN, 100)})
    rnd.run_dealer()
    rnd.apply(Decline(1))
    rnd.apply(DealerCardExposed())
    assert lines_of(rnd, 1) == {"ante": ("void", 0), "first": ("void", 0), "bonus": ("void", 0)}
    assert lines_of(rnd, 2)["bonus"] == ("win", 100)
    assert rnd.net(1) == 0
    assert rnd.net(2) == 100


def test_13_69f_24_12_a_required_exposure_every_qualifying_bonus_paid() -> None:
    """Under 13:69F-24.10(a) exposure is required, so a qualifying three-card hand is paid."""
    deck = "7c 7d 2h 8c 8d 3h Ac Ad 2s"
    rnd = new_round(deck, {1: (FIVE, TEN, 100)}, edition="nj-13-69f-24")
    rnd.run_dealer()
    rnd.apply(DealerCardExposed())
    assert lines_of(rnd, 1)["bonus"] == ("win", 100)


def test_24_12_a_resolved_bonus_and_folds_stand_after_the_void() -> None:
    deck = "Ac Ad 5h 2c 3d 9h"
    rnd = new_round(deck, {1: (FIVE, TEN, 100), 2: (FIVE, TEN)})
    rnd.run_dealer()
    rnd.apply(Expose(1))
    rnd.run_dealer()  # the bonus is resolved: the pair wins 1 to 1
    rnd.apply(Second(1))
    rnd.apply(DealerCardExposed())  # seat 2 has not yet decided
    assert lines_of(rnd, 1) == {
        "bonus": ("win", 100),
        "ante": ("void", 0),
        "first": ("void", 0),
        "second": ("void", 0),
    }
    assert lines_of(rnd, 2) == {"ante": ("void", 0), "first": ("void", 0)}


def test_24_12_a_no_effect_once_every_player_has_decided() -> None:
    rnd = new_round("", {1: (FIVE, TEN)})
    rnd.run_dealer()
    rnd.apply(Second(1))
    event = rnd.apply(DealerCardExposed())
    assert "no effect" in event.effects[0].detail
    rnd.run_dealer()
    assert rnd.phase is Phase.COMPLETE


def test_24_12_b_one_face_up_card_is_burned_and_dealing_continues() -> None:
    rnd = new_round("2c 3c 4c 5d 6d 7d 8h", {1: (FIVE, TEN)})
    rnd.apply(FaceUpCard(2))
    rnd.run_dealer()
    assert rnd.seats[1].cards == list(parse_cards("2c 4c 5d"))
    assert rnd.rack.bundles[0][1] == tuple(parse_cards("3c"))


def test_24_12_b_more_than_one_face_up_card_voids_all_hands() -> None:
    rnd = new_round("", {1: (FIVE, TEN), 2: (FIVE, TEN)})
    rnd.apply(FaceUpCard(2))
    rnd.apply(FaceUpCard(5))
    rnd.run_dealer()
    assert rnd.phase is Phase.VOID
    assert all(line.outcome == "void" for line in rnd.lines)
    assert rnd.net(1) == rnd.net(2) == 0
    assert sorted(rnd.rack.cards()) == list(range(52))


def test_24_12_c_card_drawn_in_error_is_used_as_the_next_card() -> None:
    plain = play(new_round("", {1: (FIVE, TEN)}), Second(1))
    rnd = new_round("", {1: (FIVE, TEN)})
    rnd.apply(DrawnInError())
    play(rnd, Second(1))
    assert rnd.seats[1].cards == plain.seats[1].cards
    assert rnd.lines == plain.lines


def test_24_12_d_player_dealt_wrong_number_of_cards_hand_void() -> None:
    rnd = new_round("2c 3c 4c 5c 6d 7d 8d 9h Th Jh", {1: (FIVE, TEN, 100), 2: (FIVE, TEN)})
    rnd.apply(Misdeal(4, seat=1))
    rnd.run_dealer()
    assert rnd.seats[1].status == "void"
    assert lines_of(rnd, 1) == {"ante": ("void", 0), "first": ("void", 0), "bonus": ("void", 0)}
    assert rnd.seats[2].cards == list(parse_cards("6d 7d 8d"))  # the extra card shifts the deal
    refused_second(rnd)
    play(rnd, Second(2))
    assert rnd.phase is Phase.COMPLETE


def refused_second(rnd) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(FeltError, match="void"):
        rnd.apply(Second(1))


def test_24_12_d_dealer_dealt_four_of_five_gets_an_additional_card() -> None:
    rnd = new_round("2c 3c 4c 5d 6d 7d 8h 9h Th", {1: (FIVE, TEN)})
    rnd.run_dealer()
    rnd.apply(Second(1))
    rnd.apply(Misdeal(1))  # the dealer receives one card instead of two
    rnd.run_dealer()
    assert len(rnd.dealer_cards) == 5
    assert rnd.phase is Phase.COMPLETE
    assert any("complete the dealer's hand" in e.detail for ev in rnd.events for e in ev.effects)


def test_13_69f_24_12_d_boston7_dealer_six_of_seven_completed() -> None:
    rnd = new_round("", {1: (FIVE, TEN)}, game="boston7")
    rnd.run_dealer()
    rnd.apply(Second(1))
    rnd.apply(Misdeal(3))
    rnd.run_dealer()
    rnd.apply(Keep(1))
    rnd.run_dealer()
    assert len(rnd.dealer_cards) == 7
    assert rnd.phase is Phase.COMPLETE


def test_24_12_d_any_other_dealer_misdeal_voids_all() -> None:
    rnd = new_round("", {1: (FIVE, TEN)})
    rnd.apply(Misdeal(4))  # four cards to the dealer in the first deal
    rnd.run_dealer()
    assert rnd.phase is Phase.VOID
    assert lines_of(rnd, 1) == {"ante": ("void", 0), "first": ("void", 0)}


def test_24_12_e_shuffler_jam_reshuffles() -> None:
    rnd = new_round("2c 3c 4c", {1: (FIVE, TEN)})
    new_order = complete_deck(list(parse_cards("As Ks Qs")))
    rnd.apply(ShufflerJam(new_order))
    rnd.run_dealer()
    assert rnd.seats[1].cards == list(parse_cards("As Ks Qs"))


def test_24_12_f_automated_shoe_jam_voids_except_qualifying_hands() -> None:
    deck = "7c 7d 7h 2c 5d 9h"
    rnd = new_round(deck, {1: (FIVE, TEN, 100), 2: (FIVE, TEN, 100)}, dealing="automated-shoe")
    rnd.apply(ShoeJam(1))
    rnd.run_dealer()
    assert rnd.phase is Phase.VOID
    assert lines_of(rnd, 1)["bonus"] == ("win", 2500)
    assert lines_of(rnd, 1)["ante"] == ("win", 4 * FIVE)
    assert lines_of(rnd, 2) == {"ante": ("void", 0), "first": ("void", 0), "bonus": ("void", 0)}
    manual = new_round("", {1: (FIVE, TEN)})
    manual.run_dealer()
    with pytest.raises(FeltError, match="automated dealing shoe"):
        manual.apply(ShoeJam(1))


def test_24_7_f_stub_counted_52_goes_to_rack() -> None:
    rnd = new_round("", {1: (FIVE, TEN)}, stub_count_due=True)
    play(rnd, Second(1))
    assert rnd.stub_counted
    assert rnd.phase is Phase.COMPLETE
    assert any(label == "stub (counted)" for label, _ in rnd.rack.bundles)


def test_24_7_f2_wrong_count_with_misdeal_voids_all() -> None:
    rnd = new_round("", {1: (FIVE, TEN), 2: (FIVE, TEN)}, stub_count_due=True)
    rnd.apply(Misdeal(4, seat=2))
    rnd.run_dealer()
    rnd.apply(Second(1))
    rnd.advance()
    rnd.apply(CountStub(40))
    assert rnd.phase is Phase.VOID
    assert not rnd.deck_removed


def test_24_7_f2_wrong_count_without_misdeal_removes_the_deck() -> None:
    rnd = new_round("", {1: (FIVE, TEN)}, stub_count_due=True)
    rnd.run_dealer()
    rnd.apply(Second(1))
    rnd.advance()
    rnd.apply(CountStub(41))
    assert rnd.phase is Phase.VOID
    assert rnd.deck_removed
    assert lines_of(rnd, 1) == {"ante": ("void", 0), "first": ("void", 0), "second": ("void", 0)}


def test_stub_count_not_due_is_refused() -> None:
    rnd = new_round("", {1: (FIVE, TEN)})
    rnd.run_dealer()
    rnd.apply(Second(1))
    rnd.advance()
    with pytest.raises(FeltError, match="already in the discard rack"):
        rnd.apply(CountStub(42))
