"""Issue 10, items 1 and 2: no card is lost when a deal is voided partway, and an action that
passes ``check()`` applies completely while one that is refused (or fails) changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from felt.core.cards import ALL_CARDS, Card
from felt.core.errors import FeltError
from felt.games.boston.actions import PlaceWagers, Second
from felt.games.boston.round import Phase, Round
from felt.games.double_down import DoubleDownConfig, DoubleDownRound
from felt.games.double_down import Phase as DDPhase
from felt.games.double_down.actions import PlaceBet
from felt.rounds.actions import Action, FaceUpCard, Misdeal
from felt.rounds.engine import Shoe
from felt.rounds.round_core import RoundCore
from tests.boston_helpers import table

FIVE, TEN = 500, 1000
DECK = tuple(ALL_CARDS)


def boston(game: str, seats: int, edition: str | None = None) -> Round:
    config = table(game, edition or ("nj-13-69f-24" if game == "boston7" else None))
    rnd = Round(config, DECK)
    for seat in range(1, seats + 1):
        rnd.apply(PlaceWagers(seat, FIVE, config.first_ratio * FIVE))
    return rnd


def double_down(areas: int) -> DoubleDownRound:
    rnd = DoubleDownRound(DoubleDownConfig.from_mapping({"shuffling": "shuffler-to-shoe"}), DECK)
    for area in range(1, areas + 1):
        rnd.apply(PlaceBet(area, TEN))
    return rnd


def play_out(rnd: RoundCore) -> None:
    """Dealer steps as due; every seat places its second wager (Boston)."""
    for _ in range(50):
        if rnd.finished:
            return
        if rnd.advance() is None:
            for seat, what in rnd.pending():
                if what == "second or fold":
                    rnd.apply(Second(seat))
                    break
            else:
                rnd.time_out_pending()


def dealt(rnd: RoundCore) -> dict[int | None, list[Card]]:
    """Every card each position (None: the dealer) was dealt, from the event record."""
    out: dict[int | None, list[Card]] = {}
    for event in rnd.events:
        for effect in event.effects:
            if effect.kind == "deal":
                out.setdefault(effect.seat, []).extend(effect.cards)
    return out


def assert_rack_rebuilds_every_hand(rnd: RoundCore) -> None:
    """The round is over, the rack alone holds the 52 cards once each, and each position's cards
    lie together in it, in the order dealt, so the hand can be rebuilt (24.10(g))."""
    assert rnd.finished
    assert sorted(rnd.rack.cards()) == list(range(52))
    assert sorted(rnd.cards_accounted()) == list(range(52))  # type: ignore[attr-defined]
    label = rnd.seat_label
    for who, cards in dealt(rnd).items():
        prefix = "dealer" if who is None else f"{label} {who} "
        in_rack = [
            c for name, bundle in rnd.rack.bundles if name.startswith(prefix) for c in bundle
        ]
        assert in_rack == cards, (who, rnd.rack.describe())


def void_by_second_face_up(rnd: RoundCore, first: int, second: int) -> None:
    rnd.apply(FaceUpCard(first))
    rnd.apply(FaceUpCard(second))
    play_out(rnd)
    assert rnd.void_reason.startswith("more than one card found face up")


# ----------------------------------------------------------------------------- item 1


@pytest.mark.parametrize("game", ["boston5", "boston7"])
def test_24_12_b_second_face_up_card_in_a_seats_first_three_keeps_its_cards(game: str) -> None:
    """Seat 1 has one card when the second face-up card (position 3) is found."""
    rnd = boston(game, 2)
    void_by_second_face_up(rnd, 2, 3)
    assert dealt(rnd)[1] == [DECK[0]]
    assert_rack_rebuilds_every_hand(rnd)


@pytest.mark.parametrize("game", ["boston5", "boston7"])
def test_24_12_b_second_face_up_card_in_the_dealers_first_three_keeps_them(game: str) -> None:
    """Seat 1 is dealt positions 1-3, the dealer position 4; 5 and 6 are face up."""
    rnd = boston(game, 1)
    void_by_second_face_up(rnd, 5, 6)
    assert dealt(rnd)[None] == [DECK[3]]
    assert_rack_rebuilds_every_hand(rnd)


@pytest.mark.parametrize("game", ["boston5", "boston7"])
def test_24_12_b_second_face_up_card_in_a_seats_additional_cards_keeps_them(game: str) -> None:
    """24.10(d): seat 1's additional cards start at position 7; 8 and 9 are face up."""
    rnd = boston(game, 1)
    void_by_second_face_up(rnd, 8, 9)
    assert dealt(rnd)[1] == [*DECK[:3], DECK[6]]
    assert_rack_rebuilds_every_hand(rnd)


@pytest.mark.parametrize(("game", "first"), [("boston5", 10), ("boston7", 12)])
def test_24_12_b_second_face_up_card_in_the_dealers_additional_cards_keeps_them(
    game: str, first: int
) -> None:
    """The dealer's additional cards begin after seat 1's; the dealer has one when the second
    face-up card is found."""
    rnd = boston(game, 1)
    void_by_second_face_up(rnd, first, first + 1)
    assert len(dealt(rnd)[None]) == 4
    assert_rack_rebuilds_every_hand(rnd)


def test_24_12_b_d_second_face_up_card_inside_a_misdeal_keeps_the_cards() -> None:
    """24.12(d): seat 1 is misdealt five cards; the second face-up card is found at its third."""
    rnd = boston("boston5", 2)
    rnd.apply(Misdeal(5, seat=1))
    void_by_second_face_up(rnd, 2, 4)
    assert dealt(rnd)[1] == [DECK[0], DECK[2]]
    assert_rack_rebuilds_every_hand(rnd)


def test_24_12_b_d_second_face_up_card_completing_the_dealers_hand() -> None:
    """24.12(d): the dealer dealt four of five gets one more card; that card (position 11, after
    the first face-up card at 2 was burned) is the second found face up."""
    rnd = boston("boston5", 1)
    rnd.apply(FaceUpCard(2))
    rnd.run_dealer()
    rnd.apply(Second(1))
    assert rnd.phase is Phase.READY
    rnd.apply(Misdeal(1, seat=None))
    rnd.apply(FaceUpCard(11))
    play_out(rnd)
    assert rnd.finished
    assert rnd.void_reason.startswith("more than one card found face up")
    assert dealt(rnd)[None] == [DECK[4], DECK[5], DECK[6], DECK[9]]
    assert_rack_rebuilds_every_hand(rnd)


def test_17_11_b_second_face_up_card_under_an_areas_misdeal_keeps_the_card() -> None:
    """17.11(d) misdeal of three cards to area 1; position 2 and 3 are face up."""
    rnd = double_down(2)
    rnd.apply(Misdeal(3, seat=1))
    void_by_second_face_up(rnd, 2, 3)
    assert dealt(rnd)[1] == [DECK[0]]
    assert_rack_rebuilds_every_hand(rnd)


def test_17_11_b_second_face_up_card_among_the_dealers_four_keeps_the_hole_card() -> None:
    """17.8(b): area 1 gets position 1, the dealer's hole card position 2; 3 and 4 are face up."""
    rnd = double_down(1)
    void_by_second_face_up(rnd, 3, 4)
    assert rnd.phase is DDPhase.VOID
    assert dealt(rnd)[None] == [DECK[1]]
    assert_rack_rebuilds_every_hand(rnd)


# ----------------------------------------------------------------------------- item 2


def refused_unchanged(rnd: RoundCore, action: Action, match: str) -> None:
    """``check`` and ``apply`` refuse with a message matching ``match``; nothing changed."""
    before = copy.deepcopy(rnd)
    with pytest.raises(FeltError, match=match):
        rnd.check(action)
    with pytest.raises(FeltError, match=match):
        rnd.apply(action)
    assert rnd == before


def test_24_12_d_misdeal_the_shoe_cannot_deal_is_refused() -> None:
    """Six seats each given Misdeal(cards=10) once took the round halfway into a deal that ran
    out of cards; now each misdeal that would empty the shoe is refused, naming what fits."""
    rnd = boston("boston5", 6)
    refused_at = None
    for seat in range(1, 7):
        if not rnd.can(Misdeal(10, seat=seat)):
            refused_at = seat
            refused_unchanged(rnd, Misdeal(10, seat=seat), r"may be of 0 to \d+ cards")
            break
        rnd.apply(Misdeal(10, seat=seat))
    assert refused_at is not None
    play_out(rnd)
    assert rnd.phase is Phase.COMPLETE
    assert_rack_rebuilds_every_hand(rnd)
    again = Round.replay(rnd.config, rnd.deck, rnd.actions)
    assert again.events == rnd.events


def test_24_12_b_d_face_up_card_after_a_misdeal_that_takes_every_card_is_refused() -> None:
    """13:69F-24.12(d) misdeal of ten cards to seat 1 of six at Boston 7 takes exactly the 52;
    a card found face up would need a 53rd."""
    rnd = boston("boston7", 6)
    rnd.apply(Misdeal(10, seat=1))
    refused_unchanged(rnd, FaceUpCard(30), "only 52 are left in the shoe")
    play_out(rnd)
    assert_rack_rebuilds_every_hand(rnd)


def test_24_12_d_wager_after_misdeals_that_leave_no_cards_for_it_is_refused() -> None:
    rnd = boston("boston7", 5)
    rnd.apply(Misdeal(10, seat=1))
    rnd.apply(Misdeal(10, seat=2))
    refused_unchanged(rnd, PlaceWagers(6, FIVE, TEN), "no further seat can be dealt in")


def test_17_11_d_misdeals_never_empty_the_double_down_shoe() -> None:
    """17.11(d): the first wrong count voids every hand, so any misdeal fits at a full table."""
    rnd = double_down(7)
    rnd.apply(Misdeal(10, seat=None))
    rnd.apply(Misdeal(10, seat=7))
    play_out(rnd)
    assert_rack_rebuilds_every_hand(rnd)


# ----------------------------------------------------------------------------- safeguard


def test_an_unexpected_error_partway_through_apply_leaves_the_round_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The general safeguard: a failure after some cards were drawn and chips moved restores
    the round exactly (the same rack and ledger objects, shortened back)."""
    rnd = boston("boston5", 3)
    rnd.apply(Misdeal(4, seat=2))
    rnd.run_dealer()
    rnd.apply(Second(1))
    before = copy.deepcopy(rnd)
    rack, ledger, events = rnd.rack, rnd.ledger, rnd.events
    real_draw = Shoe.draw
    calls = {"n": 0}

    def failing_draw(self: Shoe, *args: Any) -> Card:
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("the shoe fell off the table")
        return real_draw(self, *args)

    monkeypatch.setattr(Shoe, "draw", failing_draw)
    rnd.apply(Second(3))  # seat 3 decides; seat 2 is void: the round is ready
    after_second = copy.deepcopy(rnd)
    with pytest.raises(RuntimeError, match="fell off"):
        rnd.apply(rnd.next_dealer_action())  # type: ignore[arg-type]
    assert calls["n"] >= 3
    assert rnd == after_second
    assert rnd.rack is rack
    assert rnd.ledger is ledger
    assert rnd.events is events
    monkeypatch.setattr(Shoe, "draw", real_draw)
    play_out(rnd)
    assert_rack_rebuilds_every_hand(rnd)
    assert before.phase is Phase.DECISIONS


def test_an_unexpected_error_after_chips_moved_restores_the_chips(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fault after seat 1's second wager was placed (24.10(b)) takes the chips back."""
    rnd = boston("boston5", 2)
    rnd.run_dealer()
    before = copy.deepcopy(rnd)
    real = Round._do_second

    def faulty_second(self: Round, a: Second) -> None:
        real(self, a)
        if a.seat == 1:
            raise RuntimeError("boom")

    monkeypatch.setattr(Round, "_do_second", faulty_second)
    with pytest.raises(RuntimeError):
        rnd.apply(Second(1))
    assert rnd == before
    assert rnd.ledger.balance("seat 1") == -(FIVE + TEN)
    rnd.apply(Second(2))
    assert rnd.seats[2].wagers["second"] == TEN


def test_deal_is_never_refused_for_want_of_cards_with_nothing_given() -> None:
    """Without misdeals the deal of a full Boston 7 table takes 49 cards (24.7(d), 24.10(d)):
    a face-up card anywhere still fits."""
    rnd = boston("boston7", 6)
    assert rnd.can(FaceUpCard(52))
    rnd.apply(FaceUpCard(52))
    play_out(rnd)
    assert rnd.phase is Phase.COMPLETE
    assert_rack_rebuilds_every_hand(rnd)
