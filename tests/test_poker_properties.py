"""Properties of a poker hand over random legal action sequences (hypothesis): every chip
accounted (stacks + pot + rake == the start), every card once (deck, discards, hands and board
are the 52 cards), a refused action changes nothing, and a replay equals the original."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from felt.core.cards import new_deck
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
    DealtToIneligible,
    Discard,
    Fold,
    HandKilled,
    HandReconstructed,
    LeaveWithoutComment,
    Misdeal,
    PlayerAction,
    PokerHand,
    RaiseTo,
    ShufflerRemoved,
    Statement,
    StudHoleExposed,
    TopCardDiscarded,
)
from felt.games.poker.history import PHH_VARIANTS, from_phh, record_of, to_phh
from felt.rounds.actions import Action
from felt.rounds.shuffle import SeededShuffle

TABLES = [
    {"limit": "no"},
    {"limit": "pot", "rake": {"kind": "percent", "percent": "5", "cap": "3.00"}},
    {"variant": "omaha", "limit": "pot"},
    {"variant": "omaha", "limit": "fixed", "max_raises": 4},
    {"max_raises": 2},
    {"variant": "stud7", "ante": "0.25", "bring_in": "1.00", "seats": 8},
    {"variant": "stud7", "ante": "0.00", "bring_in": "0.50", "seats": 8},
]


def player_actions(hand: PokerHand, seat: int) -> list[Action]:
    """Every kind of action the seat might try, some with amounts that may be refused."""
    s = hand.state
    low = s.min_completion_betting_or_raising_to_amount or 0
    high = s.max_completion_betting_or_raising_to_amount or 0
    amounts = sorted({low, high, (low + high) // 2, low - 1, high + 1})
    out: list[Action] = [Fold(seat), Check(seat), Call(seat), BringIn(seat), AllIn(seat)]
    out += [Bet(seat, a) for a in amounts] + [RaiseTo(seat, a) for a in amounts]
    return out


RANDOM_HANDS = given(
    table=st.sampled_from(TABLES),
    stacks=st.lists(st.integers(50, 3000), min_size=2, max_size=6),
    seed=st.integers(0, 10**6),
    choices=st.lists(st.integers(0, 10**6), min_size=200, max_size=200),
)
"""A table, its players' stacks, the shuffle's seed and the choices a hand's steps take."""


def new_hand(table: dict[str, object], stacks: list[int], seed: int) -> PokerHand:
    """A hand at ``table`` with seats 1.. holding ``stacks``, the button on the last seat."""
    config = PokerConfig.from_mapping({**table, "min_buy_in": "2.00"})
    start = dict(enumerate(stacks, start=1))
    return PokerHand(config, start, len(start), SeededShuffle(seed).shuffle(new_deck()))


def tries_now(hand: PokerHand) -> list[Action]:
    """The actions to try now: the player's to act, else the dealer's steps."""
    seat = hand.to_act()
    if seat is None:
        return [Burn(), DealHole(), DealBoard(), Award()]
    return player_actions(hand, seat)


def cards_accounted(hand: PokerHand) -> list[int]:
    """Every card the hand knows of: deck, discards, each seat's cards, the board."""
    cards = list(hand.deck) + list(hand.discards) + list(hand.board())
    for seat in hand.order:
        cards += hand.hole_cards(seat)
    return sorted(cards)


@settings(max_examples=40, deadline=None)
@RANDOM_HANDS
def test_random_hands_conserve_chips_and_cards_and_replay(
    table: dict[str, object], stacks: list[int], seed: int, choices: list[int]
) -> None:
    """Random legal actions (all-ins and side pots included) to the award: after every step the
    chips add up to the start and every card is there once; a refused action changes nothing;
    the replay of the actions equals the hand."""
    hand = new_hand(table, stacks, seed)
    start = hand.start
    total = sum(start.values())
    every_card = sorted(new_deck())
    for choice in choices:
        if hand.status != "playing":
            break
        tries = tries_now(hand)
        legal = [a for a in tries if hand.can(a)]
        refused = [a for a in tries if a not in legal]
        assert legal, hand.allowed()
        if refused:
            before = hand.summary()
            try:
                hand.do(refused[choice % len(refused)])
            except FeltError:
                pass
            else:  # pragma: no cover - the test fails here
                raise AssertionError("a refused action was accepted")
            assert hand.summary() == before
        hand.do(legal[choice % len(legal)])
        assert sum(hand.stack(s) for s in start) + hand.pot() + hand.rake == total
        if hand.status == "playing":
            assert cards_accounted(hand) == every_card
    assert hand.status == "awarded"
    assert hand.final is not None
    assert sum(hand.final.values()) + hand.rake == total
    assert all(v >= 0 for v in hand.final.values())
    assert hand.replay_from_start().summary() == hand.summary()


def irregularities(hand: PokerHand, seat: int | None, choice: int) -> list[Action]:
    """The 14.15 actions a dealer or floorperson might record now (some refused by the hand)."""
    seats = list(hand.order)
    other = seats[choice % len(seats)]
    out: list[Action] = [
        LeaveWithoutComment(other),
        HandKilled("j3", other),
        HandKilled("l", other),
        HandKilled("j", other, fouled=choice % 2 == 0),
        HandReconstructed(other),
        StudHoleExposed(other, 1 + choice % 2),
        TopCardDiscarded("i"),
        TopCardDiscarded("m"),
        DealtToIneligible(7),
        ShufflerRemoved(),
    ]
    dealee = hand.state.hole_dealee_index if hand.state.can_deal_hole() else None
    if dealee is not None:
        out.append(TopCardDiscarded("n", hand.seat_of(dealee)))
    if seat is not None:
        out.append(Discard(seat))
        for stated in player_actions(hand, seat):
            assert isinstance(stated, PlayerAction)
            out.append(Statement(seat, stated, then_discards=choice % 3 == 0))
    return out


@settings(max_examples=100, deadline=None)
@RANDOM_HANDS
def test_random_hands_with_14_15_irregularities_conserve_and_replay(
    table: dict[str, object], stacks: list[int], seed: int, choices: list[int]
) -> None:
    """Random legal actions with the irregularities of 14.15 mixed in ((e) folded positions
    dealt, (f) a misdeal, (g) (i) (m) (n) cards discarded, (j) (j)3 (j)4 (l) dead hands, (j)2
    a reconstruction, (k) and (k)2 statements and thrown-away hands, (p) the shuffler
    removed): after every step every chip and every one of the 52 cards is accounted for; the
    hand ends awarded, replays equal, and its record adds up (and round-trips through PHH
    where PHH has the variant)."""
    hand = new_hand(table, stacks, seed)
    start, config = hand.start, hand.config
    total = sum(start.values())
    every_card = sorted(new_deck())
    spare_cards, misdeals = 2, 1
    for choice in choices:
        if hand.status != "playing":
            break
        seat = hand.to_act()
        tries = tries_now(hand)
        legal = [a for a in tries if hand.can(a)]
        assert legal, hand.allowed()
        action = legal[choice % len(legal)]
        if choice % 7 == 0:
            odd = [a for a in irregularities(hand, seat, choice // 7) if hand.can(a)]
            odd = [
                a
                for a in odd
                if spare_cards or a.name not in ("top_card_discarded", "dealt_to_ineligible")
            ]
            if odd:
                action = odd[choice // 7 % len(odd)]
        by_hand = not hand.shuffler  # 14.15(p): by hand once the shuffler is removed
        if misdeals and choice % 97 == 0 and hand.can(Misdeal("f1", tuple(new_deck()), by_hand)):
            action = Misdeal("f1", SeededShuffle(choice).shuffle(new_deck()), by_hand)
            misdeals -= 1
        if action.name in ("top_card_discarded", "dealt_to_ineligible"):
            spare_cards -= 1
        hand.do(action)
        assert sum(hand.stack(s) for s in start) + hand.pot() + hand.rake == total
        if hand.status == "playing":
            assert cards_accounted(hand) == every_card
    if hand.status == "playing":  # the dealer and the players finish it: check or call
        for _ in range(500):
            if hand.status != "playing":
                break
            seat = hand.to_act()
            steps: list[Action] = (
                [BringIn(seat), Check(seat), Call(seat)]
                if seat is not None
                else [Burn(), DealHole(), DealBoard(), Award()]
            )
            hand.do(next(a for a in steps if hand.can(a)))
    assert hand.status == "awarded"
    assert hand.final is not None
    assert sum(hand.final.values()) + hand.rake == total
    assert all(v >= 0 for v in hand.final.values())
    assert hand.replay_from_start().summary() == hand.summary()
    record = record_of(hand, "T", 1, 0.0)
    if (config.variant, config.limit) in PHH_VARIANTS:
        assert from_phh(to_phh(record)) == record
