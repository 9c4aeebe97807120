"""Double Down Stud clauses the other test files did not check on their own, one test per clause;
the register (felt/games/double_down/register.toml) names them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from felt.cli.script import complete_deck, finish_round
from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.core.errors import FeltError
from felt.core.evaluator import evaluate
from felt.games.double_down import (
    DoubleDownConfig,
    DoubleDownRound,
    DoubleDownTable,
    Phase,
    classify,
)
from felt.games.double_down.actions import PlaceBet, PlayerCut
from felt.rounds.actions import Deal, DrawnInError, NoMoreBets
from felt.rounds.shuffle import SeededShuffle

TEN = 1000


def dd(cards: str = "", bets: dict[int, int] | None = None, **table: Any) -> DoubleDownRound:
    """A round on a deck with ``cards`` on top (no cut unless ``shuffling`` asks for one)."""
    table.setdefault("shuffling", "shuffler-to-shoe")
    rnd = DoubleDownRound(
        DoubleDownConfig.from_mapping(table), complete_deck(list(parse_cards(cards)))
    )
    for area, amount in (bets or {}).items():
        rnd.apply(PlaceBet(area, amount))
    return rnd


def wager_line(rnd: DoubleDownRound, area: int) -> tuple[str, int]:
    (line,) = [x for x in rnd.lines if x.seat == area and x.wager == "wager"]
    return line.outcome, line.amount


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


def play_one(t: DoubleDownTable) -> DoubleDownRound:
    rnd = t.new_round()
    rnd.apply(PlaceBet(1, TEN))
    finish_round(rnd)
    t.finish(rnd)
    return rnd


def test_17_2_a_one_deck_of_52_cards() -> None:
    config = DoubleDownConfig.from_mapping({})
    with pytest.raises(FeltError, match="a deck has 52 cards, got 51"):
        DoubleDownRound(config, ALL_CARDS[:51])
    with pytest.raises(FeltError, match=r"decks must be 1 or 2 \(N.J.A.C. 19:47-17.2\)"):
        DoubleDownConfig.from_mapping({"decks": 3})
    rnd = dd("", {1: TEN, 2: TEN})
    finish_round(rnd)
    assert sorted(rnd.rack.cards()) == list(ALL_CARDS)


def test_17_2_b1_b4_two_decks_alternate_each_a_full_deck() -> None:
    t = DoubleDownTable(
        DoubleDownConfig.from_mapping({"decks": 2, "shuffling": "shuffler-to-shoe"}),
        SeededShuffle(2),
    )
    decks, used = [], []
    for _ in range(4):
        decks.append(t.deck_in_play)
        used.append(play_one(t).deck)
    assert decks == ["A", "B", "A", "B"]
    assert all(sorted(deck) == list(ALL_CARDS) for deck in used)


def test_17_4_a_shuffled_before_every_round_by_an_allowed_method() -> None:
    shuffler = Recording(4)
    t = DoubleDownTable(DoubleDownConfig.from_mapping({"shuffling": "shuffler-to-shoe"}), shuffler)
    for n in range(1, 4):
        rnd = t.new_round()
        assert len(shuffler.orders) == n
        assert rnd.deck == shuffler.orders[-1]
        with pytest.raises(FeltError, match="not finished"):
            t.new_round()
        rnd.apply(PlaceBet(1, TEN))
        finish_round(rnd)
        t.finish(rnd)
    with pytest.raises(FeltError, match=r"shuffling must be one of .*17.4\(a\)"):
        DoubleDownConfig.from_mapping({"shuffling": "riffle"})
    with pytest.raises(FeltError, match=r"loads the shoe needs dealing = manual-shoe"):
        DoubleDownConfig.from_mapping({"shuffling": "shuffler-to-shoe", "dealing": "hand"})


@pytest.mark.parametrize("shuffling", ["manual", "shuffler"])
def test_17_4_b2_hand_or_stacking_shuffle_is_cut(shuffling: str) -> None:
    rnd = dd("", {1: TEN, 2: TEN}, shuffling=shuffling)
    with pytest.raises(FeltError, match='cut before "No more bets"'):
        rnd.apply(NoMoreBets())
    rnd.run_dealer()
    assert rnd.phase is Phase.CUT
    assert rnd.pending() == [(1, "cut or decline")]


def test_17_5_a_ace_high_or_low_only_at_the_ends_of_a_straight() -> None:
    assert classify(evaluate("Ah 2c 3d 4h 5s")) == "straight"  # ace low
    assert classify(evaluate("Ah Kc Qd Jh Ts")) == "straight"  # ace high
    assert classify(evaluate("Qh Kc Ad 2h 3s")) == "lose"  # no wrap-around
    rnd = dd("Ah 2c 3d 4h 5s", {1: TEN})
    finish_round(rnd)
    assert wager_line(rnd, 1) == ("win", 5 * TEN)


HANDS = [  # 17.5(b)1-9, highest first, with the 17.10(b) line each one pays
    ("As Ks Qs Js Ts", "royal flush", 1000),
    ("9h Kh Qh Jh Th", "straight flush", 100),
    ("7c 7d 7h 7s 2c", "four of a kind", 25),
    ("7c 7d 7h 2s 2c", "full house", 10),
    ("Ac Kc Qc Jc 9c", "flush", 8),
    ("Ac 2d 3c 4c 5c", "straight", 5),
    ("7c 7d 7h 2s 3c", "three of a kind", 3),
    ("7c 7d 2h 2s 3c", "two pair", 2),
    ("Ac Ad 2h 4s 3c", "jacks or better", 1),
]


@pytest.mark.parametrize(("five", "line", "odds"), HANDS)
def test_17_5_b_hands_and_their_pay_lines(five: str, line: str, odds: int) -> None:
    assert classify(evaluate(five)) == line
    rnd = dd(five, {1: TEN})  # the area's card, then the dealer's hole card and three up
    finish_round(rnd)
    assert wager_line(rnd, 1) == ("win", odds * TEN)
    values = [evaluate(h) for h, _, _ in HANDS]
    assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("dealing", ["manual-shoe", "hand"])
def test_17_8_a_shoe_or_hand_and_no_more_bets_after_the_cut(dealing: str) -> None:
    with pytest.raises(FeltError, match=r"manual-shoe or hand \(N.J.A.C. 19:47-17.8\(a\)\)"):
        DoubleDownConfig.from_mapping({"dealing": "automated-shoe"})
    rnd = dd("", {1: TEN}, shuffling="shuffler", dealing=dealing)
    with pytest.raises(FeltError, match=r'cut before "No more bets" \(N.J.A.C. 19:47-17.8\(a\)\)'):
        rnd.apply(NoMoreBets())
    rnd.run_dealer()
    rnd.apply(PlayerCut(1, 20))
    with pytest.raises(FeltError, match='dealt after "No more bets"'):
        rnd.apply(Deal())
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    kinds = [e.kind for ev in rnd.events for e in ev.effects]
    assert kinds.index("cut") < kinds.index("announce") < kinds.index("deal")


def test_17_10_a_odds_stated_with_to() -> None:
    with pytest.raises(FeltError, match="odds are stated with 'to'"):
        DoubleDownConfig.from_mapping({"pay_table": {"flush": "9 for 1"}})
    with pytest.raises(FeltError, match=r"'flush' pays \$100.00, less than the minimum 8 to 1"):
        DoubleDownConfig.from_mapping({"pay_table": {"flush": "$100"}})
    rnd = dd("Ac Kc Qc Jc 9c", {1: TEN})
    finish_round(rnd)
    assert rnd.lines[0].odds == "8 to 1"


def test_17_11_c_card_drawn_in_error_is_the_next_card() -> None:
    plain = dd("", {1: TEN, 2: TEN})
    finish_round(plain)
    rnd = dd("", {1: TEN, 2: TEN})
    rnd.apply(DrawnInError())
    finish_round(rnd)
    assert [rnd.seats[n].cards for n in (1, 2)] == [plain.seats[n].cards for n in (1, 2)]
    assert rnd.dealer_cards == plain.dealer_cards
    assert rnd.lines == plain.lines
    assert any("drawn in error" in e.detail for ev in rnd.events for e in ev.effects)
