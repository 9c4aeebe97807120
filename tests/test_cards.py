"""Cards: the usual notation in and out, and clear errors for anything else."""

from __future__ import annotations

import pytest

from felt.core.cards import ALL_CARDS, Card, Rank, Suit, format_cards, new_deck, parse_cards
from felt.core.errors import FeltError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As", "As"),
        ("as", "As"),
        ("AS", "As"),
        ("Td", "Td"),
        ("10d", "Td"),
        ("10D", "Td"),
        ("9h", "9h"),
        ("A♠", "As"),
        ("a♤", "As"),
        ("Q♥", "Qh"),
        ("k♦", "Kd"),
        ("2♣", "2c"),
        ("  Jc ", "Jc"),
        ("A♠\ufe0f", "As"),
    ],
)
def test_parse_accepts_usual_notation(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["Xx", "1s", "11h", "A", "s", "", "Ax", "AsKs", "0c", "1Od"])
def test_parse_rejects_unknown_card_naming_it(text: str) -> None:
    with pytest.raises(FeltError, match="unknown card") as err:
        Card.parse(text)
    assert repr(text) in str(err.value)


def test_every_card_round_trips_through_text_and_symbols() -> None:
    assert len(ALL_CARDS) == 52
    assert len({str(c) for c in ALL_CARDS}) == 52
    for card in ALL_CARDS:
        assert Card.parse(str(card)) == card
        assert Card.parse(card.symbol) == card
        assert Card.of(card.rank, card.suit) == card
        assert eval(repr(card), {"Card": Card.parse}) == card


def test_numbering_is_rank_times_four_plus_suit() -> None:
    assert Card.parse("2c") == 0
    assert Card.parse("As") == 51
    assert Card.parse("Kh").rank is Rank.KING
    assert Card.parse("Kh").suit is Suit.HEARTS


def test_parse_cards_from_string_list_and_numbers() -> None:
    assert parse_cards("As Kd, 10h") == parse_cards(["As", "Kd", "Th"])
    assert parse_cards([51, 0]) == (Card.parse("As"), Card.parse("2c"))


def test_duplicate_card_is_an_error_naming_it() -> None:
    """One deck holds each card once (N.J.A.C. 19:47-24.2(a))."""
    with pytest.raises(FeltError, match="duplicate card: As"):
        parse_cards("As Kd as")


@pytest.mark.parametrize("bad", [52, -1, True])
def test_card_numbers_outside_the_deck_are_refused(bad: int) -> None:
    with pytest.raises(FeltError, match="0 to 51"):
        Card(bad)


def test_format_and_new_deck() -> None:
    assert format_cards(parse_cards("As Td")) == "As Td"
    assert format_cards(parse_cards("As Td"), symbols=True) == "A♠ T♦"
    deck = new_deck()
    assert sorted(deck) == list(range(52))
    deck.pop()
    assert len(new_deck()) == 52
