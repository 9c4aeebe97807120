"""The rest of N.J.A.C. 19:47-14.15 in a poker hand: (e) the folded position dealt until a
subsequent wager, (k) binding statements and (k)2 owed wagers, (l) one stud hole card exposed,
and (j)3's refund from each pot; card positions and money are worked by hand from the deck."""

from __future__ import annotations

import pytest

from felt.core.cards import Card, new_deck, parse_cards
from felt.core.errors import FeltError
from felt.games.poker.config import PokerConfig
from felt.games.poker.hand import (
    AllIn,
    Award,
    Bet,
    BringIn,
    Burn,
    Call,
    Check,
    DealBoard,
    DealHole,
    Discard,
    Fold,
    HandKilled,
    HandReconstructed,
    Misdeal,
    PokerHand,
    RaiseTo,
    ShufflerRemoved,
    Statement,
    StudHoleExposed,
)
from felt.games.poker.view import seat_view

NO_RAKE = {"kind": "percent", "percent": "0", "cap": "0.00", "no_flop_no_drop": True}
HOLDEM = PokerConfig.from_mapping({"limit": "no", "rake": NO_RAKE})
STUD = PokerConfig.from_mapping(
    {"variant": "stud7", "ante": "0.25", "bring_in": "1.00", "rake": NO_RAKE, "seats": 8}
)
STUD_NO_ANTE = PokerConfig.from_mapping(
    {"variant": "stud7", "ante": "0.00", "bring_in": "1.00", "rake": NO_RAKE, "seats": 8}
)
START = {1: 1000, 2: 1000, 3: 1000}


def stacked(first: list[str]) -> list[Card]:
    """A deck whose top cards are ``first`` (in order), the rest after them."""
    top = list(parse_cards(first))
    return top + [c for c in new_deck() if c not in top]


# Stud third street is dealt round by round: seat 1, 2, 3, 1, 2, 3, then the up cards; seat 1's
# 2c is the low card (bring-in), then 4th street: burn deck[9], cards deck[10], [11], [12].
STUD_DECK = stacked(["As", "Ks", "Qs", "Ah", "Kh", "Qh", "2c", "3c", "4c"])


def dealer(hand: PokerHand) -> list[str]:
    """Do the dealer's steps until a player is to act or the hand is over; their texts."""
    texts = []
    while hand.status == "playing" and hand.to_act() is None:
        step = next(a for a in (Burn(), DealHole(), DealBoard(), Award()) if hand.can(a))
        texts.append(hand.do(step).text)
    return texts


def play_out(hand: PokerHand) -> None:
    """Bring in, check or call to the award."""
    while hand.status == "playing":
        dealer(hand)
        seat = hand.to_act()
        if seat is not None:
            hand.do(next(a for a in (BringIn(seat), Check(seat), Call(seat)) if hand.can(a)))


def conserved(hand: PokerHand) -> int:
    """Stacks, pot and rake: the start's total."""
    return sum(hand.stack(s) for s in hand.start) + hand.pot() + hand.rake


def test_14_15_e_stud_folded_forced_bettor_dealt_until_a_subsequent_wager() -> None:
    """14.15(e): seat 2 (ante in) folds to the bring-in; no one completes, so on 4th street its
    position still gets deck[11] (dead, to the discards) and seat 3 gets deck[12], as without
    the fold; a bet on 4th street is the subsequent wager: on 5th street seat 2 gets nothing."""
    deck = STUD_DECK
    hand = PokerHand(STUD, START, 1, deck)
    dealer(hand)
    hand.do(BringIn(1))
    hand.do(Fold(2))
    assert not hand.in_hand(2)
    hand.do(Call(3))
    assert hand.allowed() == ["burn"]
    texts = dealer(hand)
    assert "seat 2's folded position" in texts[2]
    assert "14.15(e)" in texts[2]
    assert hand.hole_cards(1)[3] == deck[10]
    assert hand.hole_cards(3)[3] == deck[12]
    assert deck[11] in hand.discards
    assert hand.hole_cards(2) == ()
    opener = hand.to_act()
    assert opener is not None
    hand.do(Bet(opener, 200))
    hand.do(Call(1 if opener == 3 else 3))
    dealer(hand)
    assert hand.hole_cards(1)[4] == deck[14]  # burn deck[13]; seat 2 skipped now
    assert hand.hole_cards(3)[4] == deck[15]
    play_out(hand)
    assert hand.final is not None
    assert hand.final[2] == 1000 - 25
    assert sum(hand.final.values()) == 3000


def test_14_15_e_no_card_after_a_completion_or_facing_one() -> None:
    """14.15(e): a completion after the fold is the subsequent wager (seat 2 gets no 4th street
    card); a fold facing a completion is not a fold "after a forced bet" alone (seat 3)."""
    deck = STUD_DECK
    hand = PokerHand(STUD, START, 1, deck)
    dealer(hand)
    hand.do(BringIn(1))
    hand.do(Fold(2))
    hand.do(RaiseTo(3, 200))
    hand.do(Call(1))
    dealer(hand)
    assert (hand.hole_cards(1)[3], hand.hole_cards(3)[3]) == (deck[10], deck[11])
    other = PokerHand(STUD, START, 1, deck)
    dealer(other)
    other.do(BringIn(1))
    other.do(RaiseTo(2, 200))
    other.do(Fold(3))
    other.do(Call(1))
    dealer(other)
    assert (other.hole_cards(1)[3], other.hole_cards(2)[3]) == (deck[10], deck[11])


def test_14_15_e_no_ante_fold_facing_the_bring_in_is_skipped() -> None:
    """14.15(e) without antes: seat 3 folds facing only the bring-in, with no forced bet of its
    own and not on a round of checking: its position is skipped at once on 4th street."""
    deck = STUD_DECK
    hand = PokerHand(STUD_NO_ANTE, START, 1, deck)
    dealer(hand)
    hand.do(BringIn(1))
    hand.do(Call(2))
    hand.do(Fold(3))
    dealer(hand)
    assert (hand.hole_cards(1)[3], hand.hole_cards(2)[3]) == (deck[10], deck[11])


def test_14_15_e_fold_on_a_round_of_checking_dealt_while_all_check() -> None:
    """14.15(e), a round of checking, four players, no ante: seat 3 folds on 4th street when it
    could check, the others check: on 5th street (burn d[17]) seat 3's position is dealt d[20]
    in its turn, dead, and seats 1, 2, 4 get d[18], d[19], d[21]."""
    top = ["As", "Ks", "Qs", "Js", "Ah", "Kh", "Qh", "Jh", "2c", "3c", "4c", "5c"]
    hand = PokerHand(STUD_NO_ANTE, {**START, 4: 1000}, 1, stacked(top))
    d = hand.first_deck
    dealer(hand)
    hand.do(BringIn(1))
    for seat in (2, 3, 4):
        hand.do(Call(seat))
    dealer(hand)  # burn d[12], 4th street d[13..16]
    acted: list[int] = []
    while (actor := hand.to_act()) is not None and hand.state.street_index == 1:
        acted.append(actor)
        hand.do(Fold(actor) if actor == 3 else Check(actor))
    assert sorted(acted) == [1, 2, 3, 4]
    dealer(hand)
    assert hand.hole_cards(1)[4] == d[18]
    assert hand.hole_cards(2)[4] == d[19]
    assert d[20] in hand.discards
    assert hand.hole_cards(4)[4] == d[21]


def test_14_15_e_holdem_deals_nothing_to_a_folded_blind() -> None:
    """14.15(e) in hold'em: every hole card is dealt before the first betting round, so a
    blind that folds is owed nothing; the board comes off the deck as without the fold."""
    deck = new_deck()
    hand = PokerHand(HOLDEM, START, 3, deck)
    dealer(hand)
    hand.do(Call(3))
    hand.do(Fold(1))
    hand.do(Check(2))
    dealer(hand)
    assert hand.board() == tuple(deck[7:10])


def test_14_15_k2_discarding_when_the_bring_in_is_due_posts_it() -> None:
    """14.15(k)2: the low card throws its cards away when the bring-in is due: the 1.00 is
    posted all the same and the hand folded; a plain fold stays refused."""
    hand = PokerHand(STUD, START, 1, STUD_DECK)
    dealer(hand)
    with pytest.raises(FeltError, match="bring it in"):
        hand.do(Fold(1))
    event = hand.do(Discard(1))
    assert "14.15(k)2" in event.text
    assert not hand.in_hand(1)
    assert hand.stack(1) == 1000 - 25 - 100
    assert conserved(hand) == 3000
    play_out(hand)
    assert hand.final is not None
    assert hand.final[1] == 875


def test_14_15_k_statement_binds_and_k2_throwing_away_keeps_the_wager() -> None:
    """14.15(k): seat 3 states "raise to 6.00": done as stated; (k)2: it then throws its aces
    away: the 6.00 stays in the pot, and even though its turn never comes again (the others
    call), the dead hand cannot win: seat 1's kings take 18.00."""
    deck = stacked(
        ["Kc", "2d", "As", "Kd", "7h", "Ah", "3s", "9c", "8c", "4h", "5s", "Jd", "6s", "Qh"]
    )
    hand = PokerHand(HOLDEM, START, 3, deck)
    dealer(hand)
    with pytest.raises(FeltError, match="own action"):
        hand.do(Statement(3, RaiseTo(2, 600)))
    with pytest.raises(FeltError, match="to call"):
        hand.do(Statement(3, Check(3)))
    event = hand.do(Statement(3, RaiseTo(3, 600), then_discards=True))
    assert "14.15(k)2" in event.text
    assert "binding" in event.text
    assert not hand.in_hand(3)
    assert hand.hole_cards(3) == ()
    hand.do(Call(1))
    hand.do(Call(2))
    play_out(hand)
    assert hand.final == {1: 1000 + 1200, 2: 400, 3: 400}


def test_14_15_k_statement_to_the_last_act_cannot_win() -> None:
    """14.15(k)2 at the river: seat 3 states a call as the last act and throws its cards away:
    the betting is over with its hand never folded by PokerKit, yet felt awards it nothing."""
    deck = stacked(
        ["2c", "3c", "As", "7d", "8d", "Ah", "Kh", "Ad", "Kc", "9h", "Qs", "4s", "Jd", "5h"]
    )
    hand = PokerHand(HOLDEM, START, 3, deck)
    while hand.state.street_index != 3 or hand.to_act() is None:
        dealer(hand)
        seat = hand.to_act()
        if seat is not None and hand.state.street_index != 3:
            hand.do(next(a for a in (Check(seat), Call(seat)) if hand.can(a)))
    hand.do(Bet(1, 200))
    hand.do(Call(2))
    hand.do(Statement(3, Call(3), then_discards=True))
    dealer(hand)
    assert hand.status == "awarded"
    assert hand.final is not None
    assert hand.awards[3] == 0
    assert hand.final[3] == 1000 - 400
    assert sum(hand.final.values()) == 3000


def test_14_15_l_one_stud_hole_card_exposed_is_the_up_card_third_dealt_down() -> None:
    """14.15(l): seat 2's first hole card (Ks) is exposed: its third card (2c, which would
    have brought it in) is dealt face down, Ks is its up card, and the bring-in falls to
    seat 3's 4c (seat 1 shows 5c)."""
    deck = stacked(["As", "Ks", "Qs", "Ah", "Kh", "Qh", "5c", "2c", "4c"])
    hand = PokerHand(STUD, START, 1, deck)
    with pytest.raises(FeltError, match="first three cards"):
        hand.do(StudHoleExposed(2, 1))
    for _ in range(3):
        hand.do(DealHole())
    with pytest.raises(FeltError, match="not a card 2"):
        hand.do(StudHoleExposed(2, 2))
    event = hand.do(StudHoleExposed(2, 1))
    assert "14.15(l)" in event.text
    with pytest.raises(FeltError, match="already exposed"):
        hand.do(StudHoleExposed(2, 1))
    dealer(hand)
    assert hand.up_cards(2) == parse_cards(["Ks"])
    assert hand.up_cards(1) == parse_cards(["5c"])
    assert hand.to_act() == 3
    assert any("bring_in" in w for w in hand.allowed())
    hand.do(BringIn(3))
    with pytest.raises(FeltError, match="first three cards"):
        hand.do(StudHoleExposed(1, 1))
    play_out(hand)
    assert hand.up_cards(2)[0] == Card.parse("Ks")
    assert len(hand.up_cards(2)) == 4


def test_14_15_l_both_hole_cards_exposed_one_at_a_time_hand_dead_ante_back() -> None:
    """14.15(l): seat 2's first and then second hole card exposed: the hand is dead and only
    the 0.25 ante returned; refused in hold'em (that is (n))."""
    hand = PokerHand(STUD, START, 1, STUD_DECK)
    for _ in range(5):
        hand.do(DealHole())
    hand.do(StudHoleExposed(2, 1))
    event = hand.do(StudHoleExposed(2, 2))
    assert "dead" in event.text
    play_out(hand)
    assert hand.final is not None
    assert hand.final[2] == 1000
    assert sum(hand.final.values()) == 3000
    assert not PokerHand(HOLDEM, START, 3, new_deck()).can(StudHoleExposed(1, 1))


def test_14_15_j3_refund_from_each_pot_of_the_victims_own_share() -> None:
    """14.15(j)3 with a side pot: seat 1 (3.00) all in, seats 2 and 3 all in for 10.00: the main
    pot 9.00 (3.00 each), the side pot 14.00 (7.00 each).  Seat 2's protected hand is collected:
    it gets back all it put in, 3.00 from the main pot and 7.00 from the side pot (not 9.00 +
    1.00: that would hand seat 1's own chips to seat 2); seat 1's aces win the main pot's 6.00,
    seat 3 the side pot's 7.00."""
    deck = stacked(
        ["As", "Kd", "7c", "Ah", "Kh", "2d", "3s", "8s", "Qh", "Tc", "4d", "6h", "5c", "2h"]
    )
    hand = PokerHand(HOLDEM, {1: 300, 2: 1000, 3: 1000}, 3, deck)
    dealer(hand)
    hand.do(AllIn(3))
    hand.do(AllIn(1))
    hand.do(AllIn(2))
    assert [p[0] for p in hand.pots()] == [900, 1400]
    hand.do(HandKilled("j3", 2))
    play_out(hand)
    assert hand.awards == {1: 600, 2: 1000, 3: 700}
    assert hand.final == {1: 600, 2: 1000, 3: 700}


def test_14_15_p_shuffler_removed_before_a_shuffle_by_hand() -> None:
    """14.15(p): the shuffler jams ((o)); a reshuffle by hand is refused while the shuffler is
    at the table; once its removal is recorded the cards are reshuffled by hand, and it cannot
    be removed twice.  A table without a shuffler reshuffles by hand only, and has no jam."""
    hand = PokerHand(HOLDEM, START, 3, new_deck())
    new = tuple(reversed(new_deck()))
    with pytest.raises(FeltError, match=r"14.15\(p\)"):
        hand.do(Misdeal("o", new, by_hand=True))
    assert hand.actions == []
    hand.do(ShufflerRemoved())
    with pytest.raises(FeltError, match="no automated shuffler"):
        hand.do(ShufflerRemoved())
    with pytest.raises(FeltError, match="by hand"):
        hand.do(Misdeal("o", new))
    event = hand.do(Misdeal("o", new, by_hand=True))
    assert "reshuffled by hand" in event.text
    assert hand.deck == new
    assert hand.replay_from_start().summary() == hand.summary()
    bare = PokerHand(HOLDEM, START, 3, new_deck(), shuffler=False)
    assert not bare.can(Misdeal("o", new, by_hand=True))
    assert not bare.can(Misdeal("f1", new))
    assert bare.can(Misdeal("f1", new, by_hand=True))


def test_14_15_j_unprotected_hand_collected_has_no_redress() -> None:
    """14.15(j): seat 3 called 6.00 and left its hand unprotected; the dealer collects it: the
    hand is dead and nothing is refunded (contrast (j)3): seats 1 and 2 play for 18.00."""
    hand = PokerHand(HOLDEM, START, 3, new_deck())
    dealer(hand)
    hand.do(RaiseTo(3, 600))
    hand.do(Call(1))
    hand.do(Call(2))
    event = hand.do(HandKilled("j", 3))
    assert "no redress" in event.text
    play_out(hand)
    assert hand.final is not None
    assert hand.final[3] == 400
    assert hand.final[1] + hand.final[2] == 2600


def test_14_15_j1_stud_hole_cards_are_protected_against_fouling() -> None:
    """14.15(j)1: a stud hand cannot be fouled as an unprotected hand (refused); a hold'em hand
    can; a stud hand collected by the dealer unprotected still can be."""
    stud = PokerHand(STUD, START, 1, STUD_DECK)
    dealer(stud)
    with pytest.raises(FeltError, match=r"\(j\)1"):
        stud.do(HandKilled("j", 2, fouled=True))
    assert stud.can(HandKilled("j", 2))
    holdem = PokerHand(HOLDEM, START, 3, new_deck())
    dealer(holdem)
    assert holdem.can(HandKilled("j", 2, fouled=True))


def test_14_15_j2_protected_hand_fouled_is_reconstructed_and_plays_on() -> None:
    """14.15(j)2: seat 2's protected hand touches the discards; it is reconstructed (its own
    two cards, which felt knows) and the round completes with seat 2 in it."""
    deck = new_deck()
    hand = PokerHand(HOLDEM, START, 3, deck)
    dealer(hand)
    cards = hand.hole_cards(2)
    event = hand.do(HandReconstructed(2))
    assert "14.15(j)2" in event.text
    assert hand.hole_cards(2) == cards == (deck[1], deck[4])
    assert hand.in_hand(2)
    play_out(hand)
    assert hand.status == "awarded"
    with pytest.raises(FeltError, match="over"):
        hand.do(HandReconstructed(2))


def test_14_15_k1ii_stud_up_cards_turned_face_down_is_a_fold() -> None:
    """14.15(k)1ii: in stud, seat 3 faces seat 2's completion and turns its up card face down
    (recorded as the discard of (k)1): folded, its cards with the discards, its ante lost."""
    hand = PokerHand(STUD, START, 1, STUD_DECK)
    dealer(hand)
    hand.do(BringIn(1))
    hand.do(RaiseTo(2, 200))
    up = hand.up_cards(3)
    event = hand.do(Discard(3))
    assert "14.15(k)1" in event.text
    assert not hand.in_hand(3)
    assert set(up) <= set(hand.discards)
    play_out(hand)
    assert hand.final is not None
    assert hand.final[3] == 1000 - 25


def test_14_15_l_e_views_show_the_exposed_card_and_never_a_dead_position_card() -> None:
    """Hidden cards under (l) and (e): seat 1 sees seat 2's exposed Ks as its one up card and
    two cards down (the 2c dealt down is not shown); the card dealt to seat 2's folded position
    under (e) reaches no player's view."""
    deck = stacked(["As", "Ks", "Qs", "Ah", "Kh", "Qh", "5c", "2c", "4c"])
    hand = PokerHand(STUD, START, 1, deck)
    for _ in range(3):
        hand.do(DealHole())
    hand.do(StudHoleExposed(2, 1))
    dealer(hand)
    seen = {o.seat: o for o in seat_view(hand, 1).others}
    assert seen[2].up == parse_cards(["Ks"])
    assert seen[2].down == 2
    assert Card.parse("2c") not in seen[2].up + seen[2].shown
    hand.do(BringIn(3))
    hand.do(Call(1))
    hand.do(Fold(2))
    dealer(hand)
    dead = hand.first_deck[11]
    assert dead in hand.discards
    for seat in (1, 3):
        view = seat_view(hand, seat)
        visible = view.cards + view.board + tuple(c for o in view.others for c in o.up + o.shown)
        assert dead not in visible
