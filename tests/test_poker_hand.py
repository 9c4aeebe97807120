"""A poker table's settings (N.J.A.C. 19:47-14.17, and the rake and forced bets felt posts)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from felt.core.cards import Card, new_deck, parse_cards
from felt.core.errors import FeltError
from felt.games.poker.config import PercentRake, PokerConfig, TimeRake
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
    Fold,
    PokerHand,
    RaiseTo,
)
from felt.games.poker.table import PokerTable
from felt.games.poker.view import SeatView, seat_view
from felt.rounds.actions import Action
from felt.rounds.shuffle import SeededShuffle

EXAMPLE = Path(__file__).parent.parent / "examples" / "table-poker-holdem.toml"


def test_example_table_reads_and_writes_back() -> None:
    """The example table file loads, and its mapping reads back to an equal config."""
    config = PokerConfig.from_file(EXAMPLE)
    assert (config.small_bet, config.big_bet, config.max_raises) == (200, 400, 3)
    assert PokerConfig.from_mapping(config.to_mapping()) == config


def test_14_17_limits_posted_with_max_raises() -> None:
    """14.17: the sign shows the minimum and maximum wagers and the most raises per round."""
    config = PokerConfig.from_mapping({})
    assert config.limits_text() == "holdem 2.00/4.00 fixed"
    assert config.max_raises == 3
    no_limit = PokerConfig.from_mapping({"limit": "no"})
    assert no_limit.max_raises == 0
    assert no_limit.limits_text() == "holdem 1.00/2.00 no"


def test_stud_takes_ante_and_bring_in_not_blinds() -> None:
    """Seven-card stud posts an ante and a bring-in, no blinds; at most 8 seats."""
    config = PokerConfig.from_mapping(
        {"variant": "stud7", "ante": "0.50", "bring_in": "1.00", "seats": 8}
    )
    assert (config.small_blind, config.big_blind, config.ante, config.bring_in) == (0, 0, 50, 100)
    assert not config.blinds


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"variant": "razz"}, "variant must be one of holdem, omaha, stud7"),
        ({"variant": "stud7", "limit": "no", "bring_in": "1"}, "limit must be one of fixed"),
        ({"small_blind": "3.00"}, "small_blind must be more than 0 and at most big_blind"),
        ({"big_blind": "3.00", "small_bet": "2.00"}, "big_blind (3.00) may not exceed"),
        ({"max_raises": 0}, "max_raises must be a whole number of at least 1"),
        ({"min_buy_in": "300.00"}, "min_buy_in must be at least"),
        ({"seats": 11}, "seats must be a whole number from 2 to 10"),
        ({"variant": "stud7"}, "bring_in must be more than 0"),
        ({"rake": {"kind": "percent", "percent": "101", "cap": "1"}}, "percent must be"),
        ({"rake": {"kind": "flat"}}, "kind must be percent or time"),
        ({"colour": "red"}, "unknown key"),
        ({"ante": "-1.00"}, "ante may not be negative"),
    ],
)
def test_bad_table_refused_with_one_clear_error(changes: dict[str, object], words: str) -> None:
    """Each bad setting is one FeltError naming the setting and what is allowed."""
    with pytest.raises(FeltError) as error:
        PokerConfig.from_mapping(changes)
    assert words in str(error.value)


def test_rake_percent_with_cap_rounds_down() -> None:
    """Rake: 10% of the pot to the cap, whole cents rounded down; none with no flop (hand-figured:
    10% of 25.55 is 2.555 -> 2.55; 10% of 90.00 is 9.00 -> the 4.00 cap)."""
    rake = PercentRake(percent=Fraction(10), cap=400, no_flop_no_drop=True)
    assert rake.take(2555, flop_seen=True) == 255
    assert rake.take(9000, flop_seen=True) == 400
    assert rake.take(9000, flop_seen=False) == 0
    assert PercentRake(Fraction(5), 500, False).take(999, flop_seen=False) == 49


def test_time_rake_takes_nothing_from_the_pot() -> None:
    """A time charge is paid by the seats each half hour, never from a pot."""
    config = PokerConfig.from_mapping({"rake": {"kind": "time", "per_half_hour": "7.00"}})
    assert config.rake == TimeRake(per_half_hour=700)
    assert config.rake.take(10_000, flop_seen=True) == 0


# --- hands -------------------------------------------------------------------------------------

NO_RAKE = {"kind": "percent", "percent": "0", "cap": "0.00", "no_flop_no_drop": True}


def stacked(cards: str) -> list[Card]:
    """A deck with ``cards`` (space separated) on top in dealing order, the rest after."""
    top = list(parse_cards(cards.split()))
    return top + [c for c in new_deck() if c not in top]


def step_once(
    hand: PokerHand, choose: Callable[[PokerHand, int], Action | None] | None = None
) -> None:
    """One step: the player's turn by ``choose`` (default: check, else call, else bring in),
    else the dealer's step due."""
    seat = hand.to_act()
    if seat is not None:
        action = choose(hand, seat) if choose else None
        if action is None:
            options: tuple[Action, ...] = (Check(seat), Call(seat), BringIn(seat))
            action = next(a for a in options if hand.can(a))
        hand.do(action)
        return
    step = next((a for a in (Burn(), DealHole(), DealBoard(), Award()) if hand.can(a)), None)
    assert step is not None, hand.allowed()
    hand.do(step)


def deal_and_play(
    hand: PokerHand, choose: Callable[[PokerHand, int], Action | None] | None = None
) -> None:
    """Every step to the award (``step_once``)."""
    while hand.status == "playing":
        step_once(hand, choose)


def side_pots_by_hand(paid: dict[int, int], live: set[int]) -> list[tuple[int, set[int]]]:
    """The main and side pots from what each seat put in (independent of PokerKit): each level
    of the all-in amounts is a pot of that slice from every seat, won among the live seats who
    paid it."""
    pots: list[tuple[int, set[int]]] = []
    floor = 0
    for level in sorted(set(paid.values())):
        amount = sum(min(p, level) - min(p, floor) for p in paid.values())
        eligible = {s for s, p in paid.items() if p >= level and s in live}
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount, eligible))
        floor = level
    return pots


def test_side_pots_four_players_all_in_for_different_amounts() -> None:
    """Four players all in for 1, 3, 6 and 10 dollars: the main pot (4 x 1) and two side pots
    (3 x 2, 2 x 3) as figured by hand, the last 4 dollars uncalled and returned; the shortest
    stack holds the best hand, then the next: each wins exactly the pots it is eligible for."""
    config = PokerConfig.from_mapping({"limit": "no", "rake": NO_RAKE, "min_buy_in": "2"})
    stacks = {1: 100, 2: 300, 3: 600, 4: 1000}
    # button 4: seat 1 small blind, seat 2 big blind, seat 3 first to act; two rounds of cards
    deck = stacked("As Ks Qs 2c Ah Kh Qh 3d 7c 8c 9d 4h Jd 5c 6s")
    hand = PokerHand(config, stacks, 4, deck)
    deal_and_play(hand, lambda h, seat: AllIn(seat) if h.can(AllIn(seat)) else None)
    assert side_pots_by_hand({1: 100, 2: 300, 3: 600, 4: 600}, {1, 2, 3, 4}) == [
        (400, {1, 2, 3, 4}),
        (600, {2, 3, 4}),
        (600, {3, 4}),
    ]
    # seat 1 aces, seat 2 kings, seat 3 queens, seat 4 deuce-trey; burns 7c, Jd, 6s; board
    # 8c 9d 4h 5c and the 2d (the rest of the deck in order): seat 4 pairs its deuce, no straight
    assert hand.board()[:4] == tuple(parse_cards(["8c", "9d", "4h", "5c"]))
    assert hand.final == {1: 400, 2: 600, 3: 600, 4: 400}
    assert hand.rake == 0
    assert sum(hand.final.values()) == sum(stacks.values())


def test_holdem_odd_chip_to_first_seat_clockwise_from_the_button() -> None:
    """A split pot of 16.03 (12.03 pre-flop after seat 3 raises to 4.01, 4.00 on the flop where
    seat 3 folds) between seats 1 and 2, each with a ten to the board's A K Q J (the same
    ace-high straight): 8.01 each and the odd cent to seat 1, the first seat clockwise from the
    button (seat 3)."""
    config = PokerConfig.from_mapping({"limit": "no", "rake": NO_RAKE})
    deck = stacked("Tc Th 3c 2c 2d 4c 5d As Ks Qs 6d Jd 7d 5h")

    def choose(hand: PokerHand, seat: int) -> Action | None:
        if seat == 3 and not hand.board() and hand.can(RaiseTo(3, 401)):
            return RaiseTo(3, 401)
        if seat == 1 and len(hand.board()) == 3 and hand.can(Bet(1, 200)):
            return Bet(1, 200)
        if seat == 3 and hand.board():
            return Fold(3)
        return None

    hand = PokerHand(config, {1: 5000, 2: 5000, 3: 5000}, 3, deck)
    deal_and_play(hand, choose)
    assert hand.awards == {1: 802, 2: 801, 3: 0}
    assert hand.final == {1: 5000 - 601 + 802, 2: 5000 - 601 + 801, 3: 5000 - 401}


def test_stud_odd_chip_to_the_highest_card_by_suit() -> None:
    """Seven-card stud, two equal ace-high hands split a pot of 0.45 (three antes of 0.05, a
    bring-in of 0.10 called twice; seat 3 folds): the odd cent goes to seat 2, who holds the ace
    of spades (the highest card by suit), not to seat 1 (PokerKit's own rule would)."""
    config = PokerConfig.from_mapping(
        {"variant": "stud7", "ante": "0.05", "bring_in": "0.10", "rake": NO_RAKE, "seats": 8}
    )
    deck = stacked(
        "Ah As 3c Kd Kc 3d Qc Qd 2h"  # third street: two down each, then the door cards
        " 8h Jh Js 5s"  # burn, fourth street
        " 8d 9c 9h"  # burn, fifth (seat 3 has folded)
        " 8s 4d 4c"  # burn, sixth
        " 7s 2c 2d"  # burn, seventh
    )

    def choose(hand: PokerHand, seat: int) -> Action | None:
        return Fold(3) if seat == 3 and hand.up_cards(1)[1:] else None

    hand = PokerHand(config, {1: 1000, 2: 1000, 3: 1000}, 1, deck)
    deal_and_play(hand, choose)
    assert hand.awards == {1: 22, 2: 23, 3: 0}
    assert hand.final == {1: 1000 - 15 + 22, 2: 1000 - 15 + 23, 3: 1000 - 15}


def test_fixed_limit_raise_cap_14_17() -> None:
    """14.17: at most ``max_raises`` raises a round; pre-flop the big blind is the bet, so with a
    cap of 3 the fourth raise is refused with the allowed actions named."""
    config = PokerConfig.from_mapping({"max_raises": 3})
    hand = PokerHand(config, {1: 10_000, 2: 10_000, 3: 10_000}, 3, new_deck())
    for _ in range(6):
        hand.do(DealHole())
    hand.do(RaiseTo(3, 400))
    hand.do(RaiseTo(1, 600))
    hand.do(RaiseTo(2, 800))
    before = hand.summary()
    with pytest.raises(FeltError, match=r"raise_to: no bet or raise.*allowed now: .*call 4.00"):
        hand.do(RaiseTo(3, 1000))
    assert hand.summary() == before
    hand.do(Call(3))
    hand.do(Call(1))
    hand.do(Burn())
    hand.do(DealBoard())
    hand.do(Bet(1, 200))
    for seat, to in ((2, 400), (3, 600), (1, 800)):
        hand.do(RaiseTo(seat, to))
    assert not hand.can(RaiseTo(2, 1000))


def test_refused_actions_change_nothing() -> None:
    """Out of turn, a wrong amount, a card not due: each one FeltError, the hand unchanged."""
    config = PokerConfig.from_mapping({"limit": "no"})
    hand = PokerHand(config, {1: 1000, 2: 1000}, 2, new_deck())
    before = hand.summary()
    early: tuple[Action, ...] = (Fold(1), Award(), Burn(), DealBoard())
    for action in early:
        with pytest.raises(FeltError, match="allowed now: deal_hole"):
            hand.do(action)
    for _ in range(4):
        hand.do(DealHole())
    before = hand.summary()
    turn = hand.to_act()
    other = 1 if turn == 2 else 2
    assert turn is not None
    wrong: tuple[Action, ...] = (Check(other), RaiseTo(turn, 250), RaiseTo(turn, 5000))
    for wrong_action in (*wrong, Bet(turn, 400)):
        with pytest.raises(FeltError):
            hand.do(wrong_action)
    assert hand.summary() == before


def test_rake_taken_before_the_award_no_flop_no_drop() -> None:
    """10% to 4.00: a hand won before the flop is not raked; one after the flop is, and the rake
    plus the final stacks is the start."""
    config = PokerConfig.from_mapping({"limit": "no"})
    hand = PokerHand(config, {1: 1000, 2: 1000, 3: 1000}, 3, new_deck())
    deal_and_play(hand, lambda h, seat: Fold(seat) if seat == 3 else None)
    # seat 3 folds pre-flop; seats 1 and 2 check it down: pot 4.00 raked 0.40
    assert hand.rake == 40
    assert hand.final is not None
    assert sum(hand.final.values()) + hand.rake == 3000
    folded = PokerHand(config, {1: 1000, 2: 1000, 3: 1000}, 3, new_deck())
    deal_and_play(folded, lambda h, seat: Fold(seat) if h.can(Fold(seat)) and seat != 2 else None)
    assert folded.rake == 0
    assert folded.final == {1: 900, 2: 1100, 3: 1000}


def test_omaha_pot_limit_plays_to_showdown_and_replays() -> None:
    """Pot-limit Omaha: four hole cards each, a pot-sized raise is the most allowed; the hand
    replays to an equal record."""
    config = PokerConfig.from_mapping({"variant": "omaha", "limit": "pot", "rake": NO_RAKE})
    hand = PokerHand(config, {2: 5000, 5: 5000, 7: 5000}, 2, SeededShuffle(7).shuffle(new_deck()))
    for _ in range(12):
        hand.do(DealHole())
    assert all(len(hand.hole_cards(s)) == 4 for s in (2, 5, 7))
    with pytest.raises(FeltError, match=r"raise_to 4\.00 to 7\.00"):
        hand.do(RaiseTo(2, 800))
    hand.do(RaiseTo(2, 700))
    deal_and_play(hand)
    assert hand.status == "awarded"
    assert hand.replay_from_start().summary() == hand.summary()


# --- what a seat sees ----------------------------------------------------------------------------


def cards_in(view: SeatView) -> set[Card]:
    """Every card anywhere in a view (its fields, the other seats' included)."""
    found: set[Card] = set(view.cards) | set(view.board)
    for other in view.others:
        found |= set(other.up) | set(other.shown)
    return found


def test_view_never_shows_another_players_hole_cards_before_showdown() -> None:
    """Hold'em: at every step before the award a seat's view holds its own cards, the board and
    nothing of another player's hole cards; a folded hand is never shown, at the showdown the
    hands still in are."""
    config = PokerConfig.from_mapping({"limit": "no", "rake": NO_RAKE})
    hand = PokerHand(config, {1: 1000, 2: 1000, 3: 1000}, 3, SeededShuffle(5).shuffle(new_deck()))
    folded: tuple[Card, ...] = ()

    def choose(h: PokerHand, seat: int) -> Action | None:
        nonlocal folded
        if seat == 3 and not h.board():
            folded = h.hole_cards(3)
            return Fold(3)
        return None

    steps = 0
    while hand.status == "playing":
        for seat in (1, 2, 3):
            view = seat_view(hand, seat)
            others = {c for s in (1, 2, 3) if s != seat for c in hand.hole_cards(s)}
            assert not cards_in(view) & others
            assert view.cards == hand.hole_cards(seat)
            assert view.legal == (tuple(hand.allowed()) if hand.to_act() == seat else ())
        step_once(hand, choose)
        steps += 1
    assert steps > 10
    assert len(folded) == 2
    for seat in (1, 2):
        view = seat_view(hand, seat)
        assert not cards_in(view) & set(folded)
        shown = {o.seat: o.shown for o in view.others}
        assert shown[3 - seat] == hand.hole_cards(3 - seat)
        assert shown[3] == ()


def test_stud_view_shows_up_cards_and_counts_down_cards() -> None:
    """Stud: another player's door card is seen, its two down cards only counted."""
    config = PokerConfig.from_mapping(
        {"variant": "stud7", "ante": "0.25", "bring_in": "1.00", "seats": 8}
    )
    hand = PokerHand(config, {1: 1000, 2: 1000}, 1, new_deck())
    for _ in range(6):
        hand.do(DealHole())
    view = seat_view(hand, 1)
    (other,) = view.others
    assert other.up == hand.hole_cards(2)[2:]
    assert other.down == 2
    assert not set(hand.hole_cards(2)[:2]) & cards_in(view)


# --- the table ---------------------------------------------------------------------------------


def test_table_carries_stacks_moves_button_and_keeps_buy_ins_in_limits() -> None:
    """Stacks carry from hand to hand with the rake kept apart; the button moves clockwise to
    the next seat with chips; buy-ins and cash-outs only between hands, within the limits."""
    table = PokerTable(PokerConfig.from_mapping({"limit": "no"}))
    with pytest.raises(FeltError, match=r"from 40\.00 to 200\.00"):
        table.buy_in(1, 3000)
    for seat in (1, 4, 6):
        table.buy_in(seat, 10_000)
    buttons = []
    for n in range(4):
        hand = table.new_hand(SeededShuffle(n).shuffle(new_deck()))
        buttons.append(hand.button)
        with pytest.raises(FeltError, match="only between hands"):
            table.buy_in(1, 100)
        with pytest.raises(FeltError, match="not over"):
            table.finish(hand)
        deal_and_play(hand)
        table.finish(hand)
        assert sum(table.stacks.values()) + table.rake_taken == 30_000
    assert buttons == [1, 4, 6, 1]
    assert table.hands_played == 4
    assert table.rake_taken == 4 * 60  # each hand: three players check down 2.00 each, 10%
    cashed = table.cash_out(4)
    assert cashed + sum(table.stacks.values()) + table.rake_taken == 30_000
    with pytest.raises(FeltError, match=r"stack would be 200\.01"):
        table.buy_in(1, 20_001 - table.stacks[1])
