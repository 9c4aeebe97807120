"""Boston 5 and 7 clauses the other test files did not check on their own, one test per clause
(or per clause the three dealing methods share); the register
(felt/games/boston/register.toml) names them."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from felt.cli.script import finish_round
from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.core.errors import FeltError
from felt.core.evaluator import evaluate
from felt.games.boston.actions import CountStub, Fold, PlaceWagers, Second
from felt.games.boston.round import Phase, Round
from felt.games.boston.table import Table
from felt.rounds.actions import Deal, NoMoreBets, Reveal
from felt.rounds.shuffle import SeededShuffle
from tests.boston_helpers import new_round, play, table

FIVE, TEN = 500, 1000
DEALING = ("manual-shoe", "hand", "automated-shoe")


class Recording:
    """A seeded shuffler that keeps every order it hands out."""

    def __init__(self, seed: int) -> None:
        self.inner = SeededShuffle(seed)
        self.orders: list[tuple[Card, ...]] = []

    def shuffle(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """The next seeded order, recorded."""
        order = self.inner.shuffle(cards)
        self.orders.append(order)
        return order


def finish_one(t: Table) -> Round:
    """One round at the table, seat 1 always raising, the stub counted truly when due."""
    rnd = t.new_round()
    rnd.apply(PlaceWagers(1, FIVE, TEN))
    rnd.run_dealer()
    rnd.apply(Second(1))
    rnd.advance()
    if rnd.stub_count_due:
        rnd.apply(CountStub(None))
    finish_round(rnd)
    t.finish(rnd)
    return rnd


def test_24_2_a_one_deck_of_52_distinct_cards() -> None:
    config = table()
    with pytest.raises(FeltError, match="a deck has 52 cards, got 51"):
        Round(config, ALL_CARDS[:51])
    with pytest.raises(FeltError, match="appears twice"):
        Round(config, (*ALL_CARDS[:51], ALL_CARDS[0]))
    with pytest.raises(FeltError, match=r"decks must be 1 or 2 \(N.J.A.C. 19:47-24.2\)"):
        table(decks=3)
    rnd = play(new_round("", {1: (FIVE, TEN), 2: (FIVE, TEN)}), Second(1), Second(2))
    assert sorted(rnd.rack.cards()) == list(ALL_CARDS)  # every card of the one deck, once


def test_24_2_b1_each_of_two_decks_is_a_full_deck() -> None:
    t = Table(table(decks=2), SeededShuffle(5))
    decks, used = [], []
    for _ in range(4):
        decks.append(t.deck_in_play)
        used.append(finish_one(t).deck)
    assert decks == ["A", "B", "A", "B"]
    assert all(sorted(deck) == list(ALL_CARDS) for deck in used)


def test_24_4_a_cards_shuffled_before_every_round() -> None:
    shuffler = Recording(9)
    t = Table(table(), shuffler)
    for n in range(1, 4):
        rnd = t.new_round()
        assert len(shuffler.orders) == n  # one shuffle for each round, before it starts
        assert rnd.deck == shuffler.orders[-1]
        with pytest.raises(FeltError, match="not finished"):
            t.new_round()  # the next shuffle only once this round is complete
        rnd.apply(PlaceWagers(1, FIVE, TEN))
        rnd.run_dealer()
        rnd.apply(Fold(1))
        t.finish(rnd)
    assert len(set(shuffler.orders)) == 3


def test_24_4_b_dealt_by_24_7_24_8_or_24_9_only() -> None:
    for method in DEALING:
        assert table(dealing=method).dealing == method
    with pytest.raises(
        FeltError,
        match=r"manual-shoe N.J.A.C. 19:47-24.7, hand N.J.A.C. 19:47-24.8, "
        r"automated-shoe N.J.A.C. 19:47-24.9",
    ):
        table(dealing="pitch")


@pytest.mark.parametrize("dealing", DEALING)
def test_24_7_b_24_8_b4_24_9_b2_no_more_bets_before_any_card(dealing: str) -> None:
    rnd = new_round("", {1: (FIVE, TEN, 100)}, dealing=dealing)
    with pytest.raises(FeltError, match='after "No more bets"'):
        rnd.apply(Deal())
    assert rnd.next_dealer_action() == NoMoreBets()
    rnd.apply(NoMoreBets())
    with pytest.raises(FeltError, match=r'"No more bets" \(N.J.A.C. 19:47-24.6\(b\)\)'):
        rnd.apply(PlaceWagers(2, FIVE, TEN))
    rnd.apply(Deal())
    kinds = [e.kind for ev in rnd.events for e in ev.effects]
    assert kinds.index("announce") < kinds.index("deal")


def test_24_8_a_24_8_c_dealt_from_the_hand_in_the_same_order() -> None:
    deck = "2c 3c 4c 5d 6d 7d 8h 9h Th Js Qs Ks"
    rnd = new_round(deck, {3: (FIVE, TEN), 1: (FIVE, TEN), 2: (FIVE, TEN)}, dealing="hand")
    assert rnd.config.dealing == "hand"
    rnd.run_dealer()
    assert rnd.seats[1].cards == list(parse_cards("2c 3c 4c"))  # the dealer's far left first
    assert rnd.seats[2].cards == list(parse_cards("5d 6d 7d"))
    assert rnd.seats[3].cards == list(parse_cards("8h 9h Th"))
    assert rnd.dealer_cards == list(parse_cards("Js Qs Ks"))  # then the dealer's three


@pytest.mark.parametrize("game", ["boston5", "boston7"])
@pytest.mark.parametrize("dealing", DEALING)
def test_24_7_e_24_8_d_24_9_d_stub_to_the_rack_after_the_additional_cards(
    dealing: str, game: str
) -> None:
    rnd = new_round("", {1: (FIVE, TEN), 2: (FIVE, TEN)}, game=game, dealing=dealing)
    rnd.run_dealer()
    rnd.apply(Second(1))
    rnd.apply(Fold(2))
    assert not any(label == "stub" for label, _ in rnd.rack.bundles)
    rnd.advance()  # the additional cards: two each in Boston 5, four in Boston 7
    extra = 4 if game == "boston7" else 2
    label, stub = rnd.rack.bundles[-1]
    assert label == "stub"
    assert len(stub) == 52 - 3 * 3 - 2 * extra
    assert stub == rnd.deck[52 - len(stub) :]  # the rest of the deck, unexposed and in order
    assert rnd.shoe.remaining() == 0


@pytest.mark.parametrize("dealing", ["hand", "automated-shoe"])
def test_24_8_e_24_9_e_stub_counted_every_five_rounds_whatever_the_dealing(dealing: str) -> None:
    t = Table(table(dealing=dealing), SeededShuffle(6))
    due = []
    for _ in range(10):
        due.append(t.stub_count_due())
        rnd = finish_one(t)
        assert rnd.stub_counted == due[-1]
    assert due == [False, False, False, False, True] * 2


def test_24_10_e_dealer_reveals_all_five_and_sets_the_hand() -> None:
    rnd = new_round("2c 3d 7h Ah Kh Qh 4c 5d Jh Th", {1: (FIVE, TEN)})
    rnd.run_dealer()
    rnd.apply(Second(1))
    rnd.advance()
    assert rnd.phase is Phase.DEALT
    assert rnd.next_dealer_action() == Reveal()  # not revealed yet
    event = rnd.apply(Reveal())
    (reveal,) = [e for e in event.effects if e.kind == "reveal"]
    assert reveal.cards == tuple(parse_cards("Ah Kh Qh Jh Th"))  # all five at once
    assert rnd.dealer_hand == evaluate("Ah Kh Qh Jh Th")
    assert rnd.dealer_hand.category.label == "royal flush"


def test_13_69f_24_6_c_boston5_first_wager_twice_the_ante() -> None:
    rnd = new_round(edition="nj-13-69f-24")
    with pytest.raises(FeltError, match=r"2 x the ante = 10.00.*13:69F-24.6\(c\)"):
        rnd.apply(PlaceWagers(1, FIVE, FIVE))
    with pytest.raises(
        FeltError, match=r"first_ratio must be 2 for boston5 \(N.J.A.C. 13:69F-24.6\(c\)\)"
    ):
        table(edition="nj-13-69f-24", first_ratio=1)
    rnd.apply(PlaceWagers(1, FIVE, TEN))
    play(rnd, Second(1))
    assert rnd.seats[1].placed == {"ante": FIVE, "first": TEN, "second": TEN}


def test_13_69f_24_6_e_optional_bonus_at_least_one_dollar() -> None:
    rnd = new_round(edition="nj-13-69f-24")
    with pytest.raises(FeltError, match=r"optional bonus wager must be 1\.00 to"):
        rnd.apply(PlaceWagers(1, FIVE, TEN, 99))
    rnd.apply(PlaceWagers(1, FIVE, TEN, 100))
    assert rnd.seats[1].wagers["bonus"] == 100
    with pytest.raises(FeltError, match=r"bonus_minimum must be at least 1\.00"):
        table(edition="nj-13-69f-24", bonus_minimum="0.50")


@pytest.mark.parametrize("game", ["boston5", "boston7"])
def test_13_69e_1_13m_a_six_player_positions(game: str) -> None:
    rnd = new_round(edition="nj-13-69f-24", game=game)
    for seat in range(1, 7):
        rnd.apply(PlaceWagers(seat, FIVE, TEN))
    for seat in (0, 7):
        with pytest.raises(FeltError, match=rf"seat {seat} does not exist \(seats are 1 to 6\)"):
            rnd.apply(PlaceWagers(seat, FIVE, TEN))
    rnd.run_dealer()
    assert [len(s.cards) for s in rnd.wagering_seats()] == [3] * 6


@pytest.mark.parametrize("game", ["boston5", "boston7"])
def test_13_69e_1_19_b1_boston_may_be_dealt_from_the_hand(game: str) -> None:
    rnd = play(
        new_round("", {1: (FIVE, TEN)}, game=game, edition="nj-13-69f-24", dealing="hand"),
        Second(1),
    )
    assert rnd.config.dealing == "hand"
    assert rnd.phase is Phase.COMPLETE
    assert len(rnd.seats[1].cards) == len(rnd.dealer_cards) == (7 if game == "boston7" else 5)
