"""The dealing and conduct irregularities of N.J.A.C. 19:47-14.15 in a poker hand, each named
after its clause, with the money exact (stacks + pot + rake == the start, always)."""

from __future__ import annotations

import pytest

from felt.core.cards import Card, new_deck, parse_cards
from felt.core.errors import FeltError
from felt.games.poker.config import PokerConfig
from felt.games.poker.hand import (
    Award,
    BringIn,
    Burn,
    Call,
    Check,
    DeadRound,
    DealBoard,
    DealHole,
    DealtToIneligible,
    Discard,
    Fold,
    HandKilled,
    LeaveWithoutComment,
    Misdeal,
    PokerHand,
    RaiseTo,
    TopCardDiscarded,
)
from felt.rounds.shuffle import SeededShuffle

NO_RAKE = {"kind": "percent", "percent": "0", "cap": "0.00", "no_flop_no_drop": True}
HOLDEM = PokerConfig.from_mapping({"limit": "no", "rake": NO_RAKE})
STUD = PokerConfig.from_mapping(
    {"variant": "stud7", "ante": "0.25", "bring_in": "1.00", "rake": NO_RAKE, "seats": 8}
)
START = {1: 1000, 2: 1000, 3: 1000}


def holdem(deck: list[Card] | None = None) -> PokerHand:
    """Three players, button on seat 3: seat 1 small blind, seat 2 big blind, seat 3 first."""
    return PokerHand(HOLDEM, START, 3, deck or new_deck())


def conserved(hand: PokerHand) -> int:
    """Every chip: the stacks, the pot and the rake (the start's total, always)."""
    return sum(hand.stack(s) for s in hand.start) + hand.pot() + hand.rake


def play_out(hand: PokerHand) -> None:
    """Bring in, check or call to the award."""
    while hand.status == "playing":
        seat = hand.to_act()
        if seat is not None:
            options = (BringIn(seat), Check(seat), Call(seat))
            hand.do(next(a for a in options if hand.can(a)))
            continue
        step = next(a for a in (Burn(), DealHole(), DealBoard(), Award()) if hand.can(a))
        hand.do(step)


def test_14_15_f_misdeal_reshuffles_and_deals_again_with_blinds_as_they_were() -> None:
    """14.15(f)1: a misdeal returns every card for a reshuffle; the hand is dealt again from the
    new order with the blinds as they were posted."""
    hand = holdem()
    for _ in range(3):
        hand.do(DealHole())
    new = SeededShuffle(3).shuffle(new_deck())
    hand.do(Misdeal("f1", new))
    assert hand.deck == new
    assert all(hand.hole_cards(s) == () for s in START)
    assert (hand.bet(1), hand.bet(2), hand.bet(3)) == (100, 200, 0)
    assert conserved(hand) == 3000
    hand.do(DealHole())
    assert hand.hole_cards(1) == (new[0],)


@pytest.mark.parametrize("clause", ["f2", "f4"])
def test_14_15_f2_f4_misdeal_only_before_two_voluntary_wagers(clause: str) -> None:
    """14.15(f)2 and 4: a wrong starting position or a skipped eligible player is a misdeal only
    if found before two players have voluntarily put wagers in the pot."""
    hand = holdem()
    for _ in range(6):
        hand.do(DealHole())
    hand.do(Call(3))
    assert hand.can(Misdeal(clause, tuple(new_deck())))
    hand.do(Call(1))
    before = hand.summary()
    with pytest.raises(FeltError, match="voluntarily"):
        hand.do(Misdeal(clause, tuple(new_deck())))
    assert hand.summary() == before
    assert hand.can(Misdeal("f3", tuple(new_deck())))


def test_14_15_o_shuffler_jam_reshuffles() -> None:
    """14.15(o): the shuffler jams: the cards are reshuffled and the hand starts again."""
    hand = holdem()
    new = SeededShuffle(9).shuffle(new_deck())
    hand.do(Misdeal("o", new))
    assert hand.deck == new
    assert "14.15(o)" in hand.events[-1].text


def test_14_15_g_cards_dealt_to_ineligible_player_discarded_round_continues() -> None:
    """14.15(g): two cards dealt to seat 5 (not in the hand) are discarded; only those; the
    next card goes to the player due it."""
    deck = new_deck()
    hand = holdem(deck)
    hand.do(DealHole())
    hand.do(DealtToIneligible(5, 2))
    assert hand.discards == tuple(deck[1:3])
    hand.do(DealHole())
    assert hand.hole_cards(2) == (deck[3],)
    with pytest.raises(FeltError, match="seat 1 is in the hand"):
        hand.do(DealtToIneligible(1))


def test_14_15_h_missing_card_kills_round_and_returns_pot() -> None:
    """14.15(h): cards found missing: the round is dead and every chip in the pot goes back to
    the player who put it there (the blinds and the raise and call too)."""
    hand = holdem()
    for _ in range(6):
        hand.do(DealHole())
    hand.do(RaiseTo(3, 600))
    hand.do(Call(1))
    assert hand.pot() == 600 + 600 + 200
    hand.do(DeadRound())
    assert hand.final == START
    assert hand.rake == 0
    with pytest.raises(FeltError, match="the hand is over"):
        hand.do(Fold(2))


@pytest.mark.parametrize("clause", ["i", "m"])
def test_14_15_i_m_face_up_or_off_table_card_to_the_discards(clause: str) -> None:
    """14.15(i): a card found face up in the deck, (m): a card dealt off the table: not used,
    placed with the discards; the deal goes on with the next card."""
    deck = new_deck()
    hand = holdem(deck)
    hand.do(TopCardDiscarded(clause))
    hand.do(DealHole())
    assert hand.discards == (deck[0],)
    assert hand.hole_cards(1) == (deck[1],)


def test_14_15_n_exposed_hole_card_exchanged_for_the_top_card() -> None:
    """14.15(n): a hold'em hole card exposed in dealing to seat 2 goes to the discards and seat
    2 gets the next card from the top; refused for a seat not being dealt, and in stud."""
    deck = new_deck()
    hand = holdem(deck)
    hand.do(DealHole())
    with pytest.raises(FeltError, match="seat 3 is not being dealt"):
        hand.do(TopCardDiscarded("n", 3))
    hand.do(TopCardDiscarded("n", 2))
    hand.do(DealHole())
    assert hand.hole_cards(2) == (deck[2],)
    assert deck[1] in hand.discards
    stud = PokerHand(STUD, START, 1, new_deck())
    assert not stud.can(TopCardDiscarded("n", 1))


def test_14_15_j4_player_leaving_without_comment_is_folded() -> None:
    """14.15(j)4: a player who leaves without comment with an unprotected hand has no interest
    in the pot: the cards are collected (folded at that player's turn)."""
    hand = holdem()
    for _ in range(6):
        hand.do(DealHole())
    hand.do(LeaveWithoutComment(1))
    hand.do(Call(3))
    assert not hand.in_hand(1)
    assert hand.to_act() == 2
    play_out(hand)
    assert hand.final is not None
    assert hand.final[1] == 900
    assert sum(hand.final.values()) == 3000


def test_14_15_j3_protected_hand_collected_refunds_all_it_put_in() -> None:
    """14.15(j)3: the dealer collects seat 3's protected hand after it called 6.00: seat 3, a
    victim, gets back all it put in, from the pot; seats 1 and 2 play for the rest."""
    hand = holdem()
    for _ in range(6):
        hand.do(DealHole())
    hand.do(RaiseTo(3, 600))
    hand.do(Call(1))
    hand.do(Call(2))
    hand.do(Burn())
    hand.do(DealBoard())
    hand.do(HandKilled("j3", 3))
    play_out(hand)
    assert hand.final is not None
    assert hand.final[3] == 1000
    assert hand.final[1] + hand.final[2] == 2000
    assert sorted((hand.final[1], hand.final[2])) in ([400, 1600], [1000, 1000])


def test_14_15_k1_discarding_face_down_is_a_fold() -> None:
    """14.15(k)1: a player who discards the hand face down toward the discards is folded."""
    hand = holdem()
    for _ in range(6):
        hand.do(DealHole())
    cards = hand.hole_cards(3)
    hand.do(Discard(3))
    assert not hand.in_hand(3)
    assert set(cards) <= set(hand.discards)


def test_14_15_l_both_stud_hole_cards_exposed_hand_dead_ante_returned() -> None:
    """14.15(l): both of seat 2's stud hole cards turned up in dealing: the hand is dead and the
    ante (0.25) returned; the others play on."""
    deck = list(parse_cards(["As", "Ks", "Qs", "Ah", "Kh", "Qh", "2c", "3c", "4c"]))
    deck += [c for c in new_deck() if c not in deck]
    hand = PokerHand(STUD, START, 1, deck)
    for _ in range(9):
        hand.do(DealHole())
    hand.do(HandKilled("l", 2))
    play_out(hand)
    assert hand.final is not None
    assert hand.final[2] == 1000
    assert sum(hand.final.values()) == 3000
    assert not PokerHand(HOLDEM, START, 3, new_deck()).can(HandKilled("l", 1))
