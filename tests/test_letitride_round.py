"""Let It Ride Poker rounds (N.J.A.C. 19:47-18): the three equal wagers and the bonus wagers, the
deal with the community area's burn card, taking back wagers 1 and 2 or letting them ride (18.1),
the community cards turned, settlement with the payout limit (18.11), the shuffle and cut with the
supervisor's recut (18.5), two decks alternated (18.2(b)), the card change schedule (18.4(e)),
the irregularities (18.12, title only), the seat's view and the game interface.

Every amount is checked against a figure worked out by hand from the public pay tables
(greatblueheroncasino.com's posted table 1000/200/50/11/8/5/3/2/1; table-games-online.com's
bonus 20000/2000/400/200/50/25/5 on $1 and three-card bonus 50/40/30/6/4/1), not from the
round's code: the expected nets in :data:`EXPECTED` are hand-written."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from felt.cli.script import report, report_text, round_script, run_script
from felt.core.cards import Card, parse_cards
from felt.core.errors import FeltError
from felt.games.let_it_ride.actions import (
    CommunityCardExposed,
    CutCards,
    LetItRide,
    RequireRecut,
    TakeBack,
    TurnCard,
    Wagers,
    parse_action,
)
from felt.games.let_it_ride.config import LetItRideConfig
from felt.games.let_it_ride.game import GAME
from felt.games.let_it_ride.round import LetItRideRound, Phase, stacked_deck
from felt.games.let_it_ride.table import LetItRideTable
from felt.games.let_it_ride.view import spot_json, spot_view
from felt.games.registry import table_game
from felt.rounds.actions import (
    Deal,
    DecisionTimeout,
    DrawnInError,
    FaceUpCard,
    Misdeal,
    NoMoreBets,
    Reveal,
    Settle,
    ShufflerJam,
)
from felt.rounds.engine import HOUSE, LAYOUT, seat_party
from felt.rounds.shuffle import FixedOrder, SeededShuffle

BURN = "2d"
"""The burn card of the stacked decks below (dealt to the community area first, 18.1)."""


def deck(hands: list[str], community: str = "9c 8d", burn: str = BURN) -> tuple[Card, ...]:
    """A deck that deals ``hands`` (three cards each, to the positions with wagers in position
    order), burns ``burn`` and gives the two ``community`` cards."""
    return stacked_deck(
        [parse_cards(h) for h in hands], parse_cards(community), parse_cards(burn)[0]
    )


def config(**settings: Any) -> LetItRideConfig:
    """A minimum table with a shuffler (no cut), so a deck is dealt as given."""
    return LetItRideConfig.from_mapping({"shuffling": "shuffler", **settings})


def dealt(hands: dict[int, str], community: str, amounts: dict[int, int], *,
          bonus: int = 0, three: int = 0, **settings: Any) -> LetItRideRound:  # fmt: skip
    """A round dealt with ``hands`` (position -> three cards) and the two community cards, the
    three equal wagers at each position as given (with the bonus wagers given)."""
    rnd = LetItRideRound(config(**settings), deck([hands[n] for n in sorted(hands)], community))
    for n, amount in amounts.items():
        rnd.apply(Wagers(n, amount, bonus, three))
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    return rnd


def play(rnd: LetItRideRound, first: dict[int, str], second: dict[int, str]) -> None:
    """Each seat's decisions ("ride" or "back") on wagers 1 and 2, the cards turned, settled."""
    for seat, what in first.items():
        rnd.apply(LetItRide(seat, 1) if what == "ride" else TakeBack(seat, 1))
    rnd.apply(TurnCard())
    for seat, what in second.items():
        rnd.apply(LetItRide(seat, 2) if what == "ride" else TakeBack(seat, 2))
    rnd.apply(TurnCard())
    rnd.apply(Settle())


def results(rnd: LetItRideRound, seat: int) -> dict[str, tuple[str, int]]:
    """Each wager of ``seat``: (outcome, the player's result in cents)."""
    return {line.wager: (line.outcome, line.amount) for line in rnd.lines if line.seat == seat}


def snapshot(rnd: LetItRideRound) -> tuple[Any, ...]:
    """What a refused action must leave unchanged: the record, the ledger, every view."""
    views = [json.dumps(spot_json(rnd, v)) for v in (0, *rnd.seats)]
    return (list(rnd.events), list(rnd.ledger.transfers), list(rnd.lines), views,
            copy.deepcopy(rnd.seats), rnd.phase, rnd.turned)  # fmt: skip


def refused(rnd: LetItRideRound, action: Any, message: str) -> None:
    """``action`` is refused with one clear error matching ``message`` and changes nothing."""
    before = snapshot(rnd)
    with pytest.raises(FeltError, match=message) as err:
        rnd.apply(action)
    assert "\n" not in str(err.value)
    assert snapshot(rnd) == before


# ----------------------------------------------------------------------------- wagers (18.6)


def test_18_6_three_equal_wagers_within_the_table_limits() -> None:
    rnd = LetItRideRound(config(), deck([]))
    refused(rnd, Wagers(1, 400), r"each of the three equal wagers must be within the table "
            r"limits 5\.00 to 100\.00, got 4\.00")  # fmt: skip
    refused(rnd, Wagers(1, 0, 100), "bonus wagers are placed only with them")
    rnd.apply(Wagers(1, 1000))
    assert rnd.seats[1].wagers == {"first": 1000, "second": 1000, "third": 1000}
    assert rnd.ledger.balance(LAYOUT) == 3000
    refused(rnd, Wagers(1, 1000), "already has its wagers")


def test_18_6_one_position_per_player_and_no_wager_after_no_more_bets() -> None:
    rnd = LetItRideRound(config(), deck([]))
    rnd.apply(Wagers(1, 500, player="ann"))
    refused(rnd, Wagers(2, 500, player="ann"), "one position per player")
    rnd.apply(NoMoreBets())
    refused(rnd, Wagers(2, 500), 'no wager after "No more bets"')


def test_18_6A_bonus_wager_is_the_tables_one_amount_and_needs_a_table_offering_it() -> None:
    rnd = LetItRideRound(config(), deck([]))
    refused(rnd, Wagers(1, 500, 200), r"bonus wager is 1\.00 exactly, got 2\.00 .*18\.6A")
    rnd.apply(Wagers(1, 500, 100))
    assert rnd.seats[1].wagers["bonus"] == 100
    none = LetItRideRound(config(bonus=False), deck([]))
    refused(none, Wagers(1, 500, 100), "this table offers no let it ride bonus wager")


def test_18_6B_three_card_bonus_whole_dollars_within_its_limits() -> None:
    rnd = LetItRideRound(config(), deck([]))
    refused(rnd, Wagers(1, 500, 0, 250), r"whole dollars from 1\.00 to 100\.00, got 2\.50")
    refused(rnd, Wagers(1, 500, 0, 10100), r"got 101\.00")
    rnd.apply(Wagers(1, 500, 0, 500))
    assert rnd.seats[1].wagers["three_card_bonus"] == 500
    none = LetItRideRound(config(three_card_bonus=False), deck([]))
    refused(none, Wagers(1, 500, 0, 500), "this table offers no three-card bonus wager")


# ----------------------------------------------------------------------------- deal (18.7-18.9)


def test_18_7_deal_one_at_a_time_three_times_round_the_community_areas_first_card_burned() -> None:
    rnd = dealt({1: "Ah Kc 5d", 3: "7s 7h 2c"}, "Qs Jd", {1: 500, 3: 500})
    assert rnd.seats[1].cards == list(parse_cards("Ah Kc 5d"))
    assert rnd.seats[3].cards == list(parse_cards("7s 7h 2c"))
    assert rnd.community == list(parse_cards("Qs Jd"))
    assert str(rnd.burn_card) == BURN
    assert rnd.rack.bundles[0] == ("burn card, unseen", tuple(parse_cards(BURN)))
    deals = [e for ev in rnd.events for e in ev.effects if e.kind == "deal"]
    assert [(e.seat, e.detail) for e in deals] == [
        (1, "face down"), (3, "face down"), (None, "community area, face down: the burn card"),
        (1, "face down"), (3, "face down"), (None, "community card 1, face down"),
        (1, "face down"), (3, "face down"), (None, "community card 2, face down"),
    ]  # fmt: skip
    assert all(len(e.cards) == 1 for e in deals)
    assert rnd.phase is Phase.FIRST
    assert rnd.pending() == [(1, "first wager"), (3, "first wager")]
    assert sorted(rnd.cards_accounted()) == list(range(52))


# ----------------------------------------------------------------------------- decisions (18.1)


def test_18_1_let_it_ride_wager_1_then_card_1_then_wager_2_then_card_2() -> None:
    rnd = dealt({1: "Ah Kc 5d"}, "Qs Jd", {1: 500})
    refused(rnd, TurnCard(), "may not turn community card 1 .*election is pending: seat 1 to first")
    rnd.apply(LetItRide(1, 1))
    assert rnd.next_dealer_action() == TurnCard()
    rnd.apply(TurnCard())
    assert rnd.phase is Phase.SECOND
    assert rnd.community_up == tuple(parse_cards("Qs"))
    assert rnd.pending() == [(1, "second wager")]
    rnd.apply(LetItRide(1, 2))
    rnd.apply(TurnCard())
    assert str(rnd.phase) == "revealed"
    assert rnd.next_dealer_action() == Settle()
    rnd.apply(Settle())
    assert str(rnd.phase) == "complete"


def test_18_1_a_withdrawal_after_its_moment_is_refused_with_one_clear_error_and_nothing_changed() -> (
    None
):
    """Wager 1 may be taken back only before community card 1 is turned: once it is, the
    refusal says wager 2 is the one to decide, and the round, its ledger, its record and every
    view are as they were."""
    rnd = dealt({1: "Ah Kc 5d", 2: "7s 7h 2c"}, "Qs Jd", {1: 500, 2: 500})
    rnd.apply(LetItRide(1, 1))
    rnd.apply(LetItRide(2, 1))
    rnd.apply(TurnCard())
    refused(rnd, TakeBack(1, 1), r"seat 1: cannot take back wager 1 now \(its moment has passed: "
            r"community card 1 is face up\); wager 2 may be decided now")  # fmt: skip
    refused(rnd, LetItRide(2, 1), "cannot let ride wager 1 now .* wager 2 may be decided now")
    rnd.apply(TakeBack(1, 2))
    rnd.apply(LetItRide(2, 2))
    rnd.apply(TurnCard())
    refused(rnd, TakeBack(1, 2), r"no wager may be taken back or left to ride now .*both "
            r"community cards are face up")  # fmt: skip
    rnd.apply(Settle())
    refused(rnd, TakeBack(2, 2), "the round is over")


def test_18_1_a_withdrawal_before_its_moment_is_refused() -> None:
    rnd = LetItRideRound(config(), deck(["Ah Kc 5d"]))
    rnd.apply(Wagers(1, 500))
    refused(rnd, TakeBack(1, 1), r"no wager may be taken back .*wager 1 is decided once the "
            r"cards are dealt")  # fmt: skip
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    refused(rnd, TakeBack(1, 2), r"cannot take back wager 2 now \(its moment has not come: "
            r"community card 1 is turned first\); wager 1 may be decided now")  # fmt: skip


def test_18_1_the_third_wager_always_stays() -> None:
    rnd = dealt({1: "Ah Kc 5d"}, "Qs Jd", {1: 500})
    refused(rnd, TakeBack(1, 3), r"the third wager \(\$\) always stays")
    refused(rnd, LetItRide(1, 3), r"the third wager \(\$\) always stays")
    refused(rnd, TakeBack(1, 4), "wager must be 1 or 2")


def test_18_1_a_decision_is_final() -> None:
    rnd = dealt({1: "Ah Kc 5d", 2: "7s 7h 2c"}, "Qs Jd", {1: 500, 2: 500})
    rnd.apply(TakeBack(1, 1))
    refused(rnd, LetItRide(1, 1), "seat 1 has already taken back wager 1: a decision is final")
    rnd.apply(LetItRide(2, 1))
    refused(rnd, TakeBack(2, 1), "seat 2 has already let ride wager 1")
    refused(rnd, LetItRide(4, 1), "seat 4 has no hand in this round")


def test_18_1_the_second_decision_is_independent_of_the_first() -> None:
    """A player who took back wager 1 may let wager 2 ride, and one who let 1 ride may take back
    2 (decisions.md 5)."""
    rnd = dealt({1: "Ah Kc 5d", 2: "7s 7h 2c"}, "Qs Jd", {1: 500, 2: 500})
    play(rnd, {1: "back", 2: "ride"}, {1: "ride", 2: "back"})
    assert rnd.seats[1].decisions == {"first": "take back", "second": "let it ride"}
    assert rnd.seats[2].decisions == {"first": "let it ride", "second": "take back"}
    assert results(rnd, 1)["first"] == ("withdrawn", 0)
    assert results(rnd, 2)["second"] == ("withdrawn", 0)


def test_18_1_decision_time_run_out_lets_the_wager_ride() -> None:
    rnd = dealt({1: "Ah Kc 5d"}, "Qs Jd", {1: 500})
    refused(rnd, DecisionTimeout(2), "seat 2 has no election pending")
    rnd.apply(DecisionTimeout(1))
    assert rnd.seats[1].decisions == {"first": "let it ride"}
    assert "deemed to let it ride" in rnd.events[-1].effects[0].detail
    rnd.apply(TurnCard())
    rnd.time_out_pending()
    assert rnd.seats[1].decisions == {"first": "let it ride", "second": "let it ride"}
    rnd.apply(TurnCard())
    rnd.apply(Settle())
    assert set(results(rnd, 1)) == {"first", "second", "third"}


def test_18_10_no_reveal_the_dealer_turns_community_cards() -> None:
    rnd = dealt({1: "Ah Kc 5d"}, "Qs Jd", {1: 500})
    refused(rnd, Reveal(), "no dealer's hand to reveal")
    refused(rnd, Settle(), "settled once both community cards are face up")


# ----------------------------------------------------------------------------- settlement (18.11)
# Hand-written expectations from the public pay table (1000/200/50/11/8/5/3/2/1 to 1), the bonus
# table (20000/2000/400/200/50/25/5 to 1) and the three-card bonus table (50/40/30/6/4/1 to 1).
# (hand, community, decisions on 1 and 2, amount, bonus, three-card bonus) -> the seat's net.

EXPECTED: list[tuple[str, str, str, int, int, int, int]] = [
    # A pair of tens (Th Tc) or better pays 1 to 1 on each wager left: 3 x $5 = +$15.
    ("Th Tc 4d", "9s 2h", "ride ride", 500, 0, 0, 1500),
    # The same hand with both taken back: only the $ wager: +$5.
    ("Th Tc 4d", "9s 2h", "back back", 500, 0, 0, 500),
    # A pair of nines loses every wager left: ride both, -$15; bonus $1 lost; 3-card pair +$5.
    ("9h 9c 4d", "As 2h", "ride ride", 500, 100, 500, -1500 - 100 + 500),
    # Flush 8 to 1 on two wagers of $10 (took back 2): +$160; bonus flush 50 to 1: +$50.
    ("Kh 9h 4h", "7h 2h", "ride back", 1000, 100, 0, 16000 + 5000),
    # Straight 5 to 1 on three $20: +$300; the three cards 6-7-8 a straight: 6 to 1 on $3: +$18.
    ("6d 7c 8s", "9h Ts", "ride ride", 2000, 0, 300, 30000 + 1800),
    # Full house 11 to 1, one wager of $5 (both taken back): +$55; bonus 200 to 1: +$200.
    ("Qd Qc 4s", "Qh 4h", "back back", 500, 100, 0, 5500 + 20000),
    # Three of a kind 3 to 1 on three $5: +$45; 3-card trips 30 to 1 on $1: +$30.
    ("8d 8c 8s", "Kh 2c", "ride ride", 500, 0, 100, 4500 + 3000),
    # Two pair 2 to 1 on two $7.50: +$30; bonus lost (two pair is not a bonus line): -$1.
    ("Jd Jc 5s", "5h 2c", "back ride", 750, 100, 0, 3000 - 100),
    # Four of a kind 50 to 1 on three $5: +$750; bonus 400 to 1: +$400.
    ("7d 7c 7s", "7h Ac", "ride ride", 500, 100, 0, 75000 + 40000),
    # Straight flush 200 to 1 on three $5: +$3,000; bonus 2,000 to 1 +$2,000; 3-card straight
    # flush (4-5-6 of spades) 40 to 1 on $2: +$80.
    ("4s 5s 6s", "7s 8s", "ride ride", 500, 100, 200, 300000 + 200000 + 8000),
    # High card: every wager left lost; took both back: -$5; 3-card high card lost: -$5.
    ("Ah Kc 5d", "Qs 9d", "back back", 500, 0, 500, -500 - 500),
    # The three-card bonus is on the player's three cards only: A-K-Q suited a mini royal
    # 50 to 1 on $1 (+$50) though the five cards are only a flush (8 to 1 on the $5 left, +$40).
    ("Ad Kd Qd", "5d 3d", "back back", 500, 0, 100, 4000 + 5000),
]


@pytest.mark.parametrize(("hand", "community", "choices", "amount", "bonus", "three", "net"),
                         EXPECTED)  # fmt: skip
def test_18_11_each_wager_left_paid_by_the_pay_table_hand_worked_nets(
    hand: str, community: str, choices: str, amount: int, bonus: int, three: int, net: int
) -> None:
    rnd = dealt({1: hand}, community, {1: amount}, bonus=bonus, three=three)
    first, second = choices.split()
    play(rnd, {1: first}, {1: second})
    assert rnd.net(1) == net
    assert rnd.house_net() == -net
    assert rnd.ledger.balance(seat_party(1)) == net
    assert rnd.ledger.balance(LAYOUT) == 0


def test_18_11_payout_limit_cuts_the_third_wager_first_then_the_second_then_the_first() -> None:
    """Three $100 wagers on a royal flush win 3 x $100,000; the $50,000 limit (the least a
    table may post at a $5 minimum) withholds $250,000: all $100,000 of the third, all of the
    second and $50,000 of the first.  The bonus ($20,000 on $1) is paid in full."""
    royal = ({1: "Ah Kh Qh"}, "Jh Th")
    rnd = dealt(*royal, {1: 10000}, bonus=100)
    play(rnd, {1: "ride"}, {1: "ride"})
    lines = {x.wager: (x.amount, x.limit_reduction) for x in rnd.lines}
    assert lines == {
        "first": (5_000_000, 5_000_000),
        "second": (0, 10_000_000),
        "third": (0, 10_000_000),
        "bonus": (2_000_000, 0),
    }
    assert rnd.net(1) == 5_000_000 + 2_000_000
    # with wager 1 taken back only $200,000 is won: $50,000 of the second, nothing of the third
    back = dealt(*royal, {1: 10000})
    play(back, {1: "back"}, {1: "ride"})
    assert {x.wager: x.limit_reduction for x in back.lines} == {
        "first": 0,
        "second": 5_000_000,
        "third": 10_000_000,
    }
    assert back.net(1) == 5_000_000
    reason = spot_json(back, 1)["lines"][1]["reason"]
    assert "reduced by 50000.00 to the payout limit" in reason
    unlimited = dealt(*royal, {1: 10000}, payout_limit="none")
    play(unlimited, {1: "ride"}, {1: "ride"})
    assert unlimited.net(1) == 3 * 10_000_000


def test_18_6A_bonus_paid_in_full_whatever_was_taken_back() -> None:
    """A flush with both wagers taken back: the $ wager 8 to 1 on $5 (+$40), the bonus 50 to 1
    on $1 (+$50) all the same."""
    rnd = dealt({1: "Kh 9h 4h"}, "7h 2h", {1: 500}, bonus=100)
    play(rnd, {1: "back"}, {1: "back"})
    assert results(rnd, 1) == {"first": ("withdrawn", 0), "second": ("withdrawn", 0),
                               "third": ("win", 4000), "bonus": ("win", 5000)}  # fmt: skip


def test_18_10_settlement_losers_first_then_winners_from_the_dealers_right() -> None:
    rnd = dealt({1: "Th Tc 4d", 2: "9h 8c 4s", 3: "Jh Jc 5s"}, "5h 2c", {1: 500, 2: 500, 3: 500})
    play(rnd, {1: "ride", 2: "ride", 3: "ride"}, {1: "ride", 2: "ride", 3: "ride"})
    order = [(x.seat, x.outcome) for x in rnd.lines if x.wager == "third"]
    assert order == [(2, "lose"), (3, "win"), (1, "win")]
    assert sorted(rnd.cards_accounted()) == list(range(52))
    assert [b[0] for b in rnd.rack.bundles] == [
        "burn card, unseen",
        "seat 3",
        "seat 2",
        "seat 1",
        "community cards",
        "stub",
    ]
    assert rnd.ledger.balance(HOUSE) == -rnd.net(1) - rnd.net(2) - rnd.net(3)


# ----------------------------------------------------------------------------- shuffle and cut (18.5)


def test_18_5_cut_with_the_cover_card_at_least_10_from_the_top() -> None:
    cards = deck([])
    rnd = LetItRideRound(config(shuffling="manual"), cards)
    rnd.apply(Wagers(1, 500))
    refused(rnd, NoMoreBets(), 'cut before "No more bets"')
    refused(rnd, CutCards(9), r"at least 10 cards from the top.*got 9")
    assert rnd.next_dealer_action() == CutCards()
    rnd.apply(CutCards(10))
    assert rnd.shoe.order == cards[10:] + cards[:10]
    refused(rnd, CutCards(20), "cut once")


def test_18_5_no_cut_after_an_automated_shuffle() -> None:
    rnd = LetItRideRound(config(), deck([]))
    rnd.apply(Wagers(1, 500))
    refused(rnd, CutCards(20), "no cut: cards shuffled by an automated card shuffling device")
    assert rnd.next_dealer_action() == NoMoreBets()


def test_18_5_supervisor_may_require_a_recut_before_any_card_is_dealt() -> None:
    assert RequireRecut.supervisor_only
    cards = deck([])
    rnd = LetItRideRound(config(shuffling="manual"), cards)
    rnd.apply(Wagers(1, 500))
    refused(rnd, RequireRecut(), "after the cards are cut")
    rnd.apply(CutCards(20))
    rnd.apply(NoMoreBets())
    rnd.apply(RequireRecut())
    assert rnd.phase is Phase.RECUT
    assert rnd.next_dealer_action() == CutCards()
    refused(rnd, Deal(), "dealt after")
    rnd.apply(CutCards(15))
    assert str(rnd.phase) == "closed"
    assert rnd.cut_positions == [20, 15]
    once = cards[20:] + cards[:20]
    assert rnd.shoe.order == once[15:] + once[:15]
    rnd.apply(Deal())
    refused(rnd, RequireRecut(), "before any card is dealt")


def test_18_12_a_card_found_face_up_moves_with_a_recut_18_5() -> None:
    """A card marked found face up is that card wherever a (re)cut puts it (18.5, 18.12): the
    recut may not burn another card in its place and deal the one everyone saw."""
    cards = deck([])
    rnd = LetItRideRound(config(shuffling="manual"), cards)
    rnd.apply(Wagers(1, 500))
    rnd.apply(CutCards(10))
    seen = rnd.shoe.order[24]
    rnd.apply(FaceUpCard(25))  # the recut below brings it to the fifth card, reached in the deal
    rnd.apply(RequireRecut())
    rnd.apply(CutCards(20))
    assert {rnd.shoe.order[i] for i in rnd.shoe.face_up} == {seen}
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    burned = [b for b in rnd.rack.bundles if "face up" in b[0]]
    assert [b[1] for b in burned] == [(seen,)]
    assert seen not in rnd.seats[1].cards
    assert seen not in rnd.community


def test_18_2_b_two_decks_alternate_round_by_round() -> None:
    table = LetItRideTable(config(decks=2), shuffler=SeededShuffle(1))
    names = []
    for _ in range(3):
        rnd = table.new_round()
        names.append(rnd.deck_name)
        rnd.apply(Wagers(1, 500))
        while not rnd.finished:
            rnd.run_dealer()
            rnd.time_out_pending()
        table.finish(rnd)
    assert names == ["A", "B", "A"]
    assert LetItRideTable(config(), shuffler=SeededShuffle(1)).new_round().deck_name == "A"


def test_18_2_b_a_two_deck_table_keeps_its_shuffler() -> None:
    table = LetItRideTable(config(decks=2))
    table.remove_shuffler()
    with pytest.raises(FeltError, match=r"two decks, which needs an automated card shuffling"):
        table.change_shuffling("manual")
    one = LetItRideTable(config())
    with pytest.raises(FeltError, match="must be removed"):
        one.change_shuffling("manual")
    one.remove_shuffler()
    one.change_shuffling("manual")
    assert one.config.cut_required


# ----------------------------------------------------------------------------- cards changed (18.4(e))


def test_18_4_e_cards_changed_on_schedule_eight_hours_from_a_shoe_four_from_the_hand() -> None:
    hour = 3600.0
    shoe = LetItRideTable(config(), shuffler=SeededShuffle(2), cards_opened_at=1000.0)
    assert shoe.cards_due(1000 + 8 * hour - 1) is None
    due = shoe.cards_due(1000 + 8 * hour)
    assert due is not None
    assert "at least once every 8 hours (N.J.A.C. 19:47-18.4(e))" in due
    with pytest.raises(FeltError, match="change the cards before the next round"):
        shoe.new_round(now=1000 + 9 * hour)
    assert shoe.history == []
    shoe.change_cards(1000 + 9 * hour)
    assert shoe.cards_opened_at == 1000 + 9 * hour
    assert shoe.new_round(now=1000 + 9 * hour).number == 1
    with pytest.raises(FeltError, match="the current round is not finished"):
        shoe.change_cards(1000 + 10 * hour)
    hand = LetItRideTable(config(dealing="hand"), cards_opened_at=0.0)
    assert hand.cards_due(4 * hour - 1) is None
    assert "every 4 hours" in str(hand.cards_due(4 * hour))
    untracked = LetItRideTable(config())
    assert untracked.cards_due(10**9) is None
    bad: Any
    for bad, message in [(-1, "0 or more"), ("soon", "a time in seconds"), (True, "seconds")]:
        with pytest.raises(FeltError, match=message):
            hand.change_cards(bad)
    shoe.history.clear()
    with pytest.raises(FeltError, match="before the cards in use were"):
        shoe.change_cards(5.0)
    hand.change_cards("7200")
    assert hand.cards_opened_at == 7200.0


def test_18_4_e_the_game_interface_opens_the_cards_and_blocks_a_round_once_due() -> None:
    """The server's side (through the interface): a table new to a server opens its cards at
    the server's clock; a new round is blocked once they are due; ``change_cards`` is a
    procedure done at the server's clock."""
    table = GAME.new_table(config())
    assert isinstance(table, LetItRideTable)
    GAME.open_table(table, 100.0)
    assert table.cards_opened_at == 100.0
    assert GAME.round_blocked(table, 100.0 + 8 * 3600 - 1) is None
    assert "18.4(e)" in str(GAME.round_blocked(table, 100.0 + 8 * 3600))
    assert "change_cards" in GAME.procedures()
    assert GAME.clocked_procedures() == frozenset({"change_cards"})
    snap = GAME.table_snapshot(table)
    assert snap["cards_opened_at"] == 100.0
    again = GAME.new_table(config(), json.loads(json.dumps(snap)))
    assert GAME.table_snapshot(again) == snap
    GAME.open_table(again, 999.0)  # a table that tracks its cards keeps them
    assert GAME.table_snapshot(again) == snap


# ----------------------------------------------------------------------------- irregularities (18.12)


def test_18_12_a_community_card_exposed_before_its_moment_voids_every_wager_bonus_too() -> None:
    rnd = dealt({1: "Ah Kc 5d", 2: "7s 7h 2c"}, "Qs Jd", {1: 500, 2: 700}, bonus=100, three=500)
    rnd.apply(TakeBack(1, 1))
    rnd.apply(CommunityCardExposed(2))
    assert rnd.phase is Phase.VOID
    assert "community card 2 was exposed before the dealer turned it" in rnd.void_reason
    assert results(rnd, 1) == {"first": ("withdrawn", 0), "second": ("void", 0),
                               "third": ("void", 0), "bonus": ("void", 0),
                               "three_card_bonus": ("void", 0)}  # fmt: skip
    assert rnd.ledger.balance(seat_party(2)) == 0
    assert rnd.ledger.balance(LAYOUT) == 0
    assert rnd.ledger.balance(HOUSE) == 0
    assert sorted(rnd.cards_accounted()) == list(range(52))


def test_18_12_card_exposed_once_every_decision_it_closes_is_made_stands_as_turned() -> None:
    """18.12 (felt's decision): card 1 exposed after every first decision is the turn come at its
    moment (nothing seen early): it stands face up and the round goes on; card 2 exposed while a
    second decision is still open voids."""
    rnd = dealt({1: "Ah Kc 5d", 2: "7s 7h 2c"}, "Qs Jd", {1: 500, 2: 500})
    rnd.apply(LetItRide(1, 1))
    rnd.apply(TakeBack(2, 1))
    rnd.apply(CommunityCardExposed(1))
    assert rnd.phase is Phase.SECOND
    assert rnd.turned == 1
    view = GAME.seat_view(rnd, 1)
    assert view["community"] == ["Qs"]
    rnd.apply(LetItRide(1, 2))
    rnd.apply(CommunityCardExposed(2))
    assert str(rnd.phase) == str(Phase.VOID)  # (mypy keeps the narrowing above)
    assert "community card 2 was exposed before the dealer turned it" in rnd.void_reason


def test_18_12_community_card_2_exposed_during_the_first_decisions_voids() -> None:
    """18.12 (felt's decision): card 2 is not the next card while card 1 is face down: void."""
    rnd = dealt({1: "Ah Kc 5d"}, "Qs Jd", {1: 500})
    rnd.apply(LetItRide(1, 1))
    rnd.apply(CommunityCardExposed(2))
    assert rnd.phase is Phase.VOID


def test_18_12_a_community_card_already_face_up_cannot_be_exposed() -> None:
    rnd = dealt({1: "Ah Kc 5d"}, "Qs Jd", {1: 500})
    rnd.apply(LetItRide(1, 1))
    rnd.apply(TurnCard())
    refused(rnd, CommunityCardExposed(1), "community card 1 is already face up")
    refused(rnd, CommunityCardExposed(3), "card must be 1 or 2")
    rnd.apply(CommunityCardExposed(2))
    assert rnd.phase is Phase.VOID
    before = LetItRideRound(config(), deck([]))
    before.apply(Wagers(1, 500))
    refused(before, CommunityCardExposed(1), "no community card is dealt yet")


def test_18_12_misdeal_of_the_wrong_count_voids_and_three_is_no_misdeal() -> None:
    rnd = LetItRideRound(config(), deck([]))
    rnd.apply(Wagers(1, 500, 100, 300))
    rnd.apply(NoMoreBets())
    refused(rnd, Misdeal(3, 1), "three is the right number to seat 1")
    refused(rnd, Misdeal(3), "three is the right number to the community area")
    rnd.apply(Misdeal(4, 1))
    rnd.apply(Deal())
    assert rnd.phase is Phase.VOID
    assert "seat 1 was dealt 4 cards" in rnd.void_reason
    assert {w for w, (outcome, _) in results(rnd, 1).items() if outcome == "void"} == {
        "first",
        "second",
        "third",
        "bonus",
        "three_card_bonus",
    }
    assert rnd.ledger.balance(seat_party(1)) == 0
    assert sorted(rnd.cards_accounted()) == list(range(52))


def test_18_12_misdeal_to_the_community_area_voids() -> None:
    rnd = LetItRideRound(config(), deck([]))
    rnd.apply(Wagers(1, 500))
    rnd.apply(NoMoreBets())
    rnd.apply(Misdeal(2))
    rnd.apply(Deal())
    assert rnd.phase is Phase.VOID
    assert "the community area was dealt 2 cards" in rnd.void_reason
    assert sorted(rnd.cards_accounted()) == list(range(52))


def test_18_12_card_face_up_in_the_deck_is_burned_and_drawn_in_error_used() -> None:
    """The top card found face up goes to the rack; the deal goes on with the next card."""
    cards = deck(["Ah Kc 5d"], "Qs Jd")
    rnd = LetItRideRound(config(), cards)
    rnd.apply(Wagers(1, 500))
    rnd.apply(FaceUpCard(1))
    rnd.apply(DrawnInError())
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    assert rnd.rack.cards()[0] == cards[0]
    assert rnd.seats[1].cards == [cards[1], cards[3], cards[5]]
    assert rnd.burn_card == cards[2]
    assert rnd.community == [cards[4], cards[6]]


def test_18_12_a_second_card_face_up_voids_and_every_card_stays_accounted_for() -> None:
    rnd = LetItRideRound(config(), deck(["Ah Kc 5d"]))
    rnd.apply(Wagers(1, 500, 100))
    rnd.apply(FaceUpCard(2))
    rnd.apply(FaceUpCard(5))
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    assert rnd.phase is Phase.VOID
    assert sorted(rnd.cards_accounted()) == list(range(52))
    assert rnd.ledger.balance(seat_party(1)) == 0


def test_18_12_shuffler_jam_only_with_a_shuffler_before_the_deal() -> None:
    manual = LetItRideRound(config(shuffling="manual"), deck([]))
    refused(manual, ShufflerJam(), "no shuffler to jam")
    rnd = LetItRideRound(config(), deck([]))
    rnd.apply(Wagers(1, 500))
    new = tuple(reversed(deck([])))
    rnd.apply(ShufflerJam(new))
    assert rnd.shoe.order == new
    assert rnd.seats[1].wagers["first"] == 500  # the cards reshuffled; the wagers stand
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    refused(rnd, ShufflerJam(), "before the deal")


# ----------------------------------------------------------------------------- the view (hidden cards)


def all_views(rnd: LetItRideRound) -> list[dict[str, Any]]:
    return [spot_json(rnd, v) for v in range(0, 8)]


def test_view_the_burn_card_is_in_no_view_ever() -> None:
    rnd = dealt({1: "Ah Kc 5d", 2: "7s 7h 2c"}, "Qs Jd", {1: 500, 2: 500}, bonus=100)
    for _ in range(6):
        for view in all_views(rnd):
            assert f'"{BURN}"' not in json.dumps(view)
        if rnd.finished:
            break
        if rnd.pending():
            rnd.time_out_pending()
        else:
            rnd.advance()
    assert rnd.phase is Phase.COMPLETE
    assert BURN not in report_text(rnd, symbols=False).split("discard rack")[0]


def test_view_community_cards_hidden_until_turned_in_every_seats_view_and_the_public_one() -> None:
    rnd = dealt({1: "Ah Kc 5d", 2: "7s 7h 2c"}, "Qs Jd", {1: 500, 2: 500})
    for view in all_views(rnd):
        assert view["community"] == []
        assert view["community_count"] == 2
        assert '"Qs"' not in json.dumps(view)
        assert '"Jd"' not in json.dumps(view)
    rnd.apply(LetItRide(1, 1))
    rnd.apply(TakeBack(2, 1))
    rnd.apply(TurnCard())
    for view in all_views(rnd):
        assert view["community"] == ["Qs"]
        assert '"Jd"' not in json.dumps(view)
    rnd.time_out_pending()
    rnd.apply(TurnCard())
    for view in all_views(rnd):
        assert view["community"] == ["Qs", "Jd"]
    before = LetItRideRound(config(), deck([]))
    before.apply(Wagers(1, 500))
    assert spot_json(before, 1)["community_count"] == 0


def test_view_other_hands_hidden_until_settlement_then_shown_with_their_names() -> None:
    rnd = dealt({1: "Ah Kc 5d", 2: "7s 7h 2c"}, "Qs Jd", {1: 500, 2: 500})
    one = spot_view(rnd, 1)
    assert one.own_cards == tuple(parse_cards("Ah Kc 5d"))
    assert [(o.number, o.cards, o.card_count) for o in one.others] == [(2, (), 3)]
    assert '"7s"' not in json.dumps(spot_json(rnd, 1))
    assert spot_view(rnd, 0).own_cards == ()
    play(rnd, {1: "back", 2: "ride"}, {1: "ride", 2: "ride"})
    seen = {o.number: o for o in spot_view(rnd, 1).others}
    assert seen[2].cards == tuple(parse_cards("7s 7h 2c"))
    assert seen[2].hand.startswith("one pair, sevens")
    mine = spot_json(rnd, 1)
    assert mine["wagers"] == {"second": "5.00", "third": "5.00"}
    assert mine["decisions"] == {"first": "take back", "second": "let it ride"}
    assert mine["hand"].startswith("high card, ace-king-queen")
    reasons = [x["reason"] for x in mine["lines"]]
    assert reasons[0] == "you took back the first wager (1): it is returned"
    assert all("below a pair of tens" in r for r in reasons[1:])
    assert [x["result"] for x in mine["lines"]] == ["withdrawn", "lost", "lost"]


# ----------------------------------------------------------------------------- the game interface


def test_registered_game_and_actions() -> None:
    game = table_game("let_it_ride")
    assert game is GAME
    assert game.family == "let_it_ride"
    assert game.title("let_it_ride") == "Let It Ride Poker"
    assert game.editions("let_it_ride") == ("nj-19-47-18",)
    assert game.parse_action({"dealer": "turn"}, "x") == TurnCard()
    assert parse_action({"seat": 2, "action": "take_back", "wager": 1}, "x") == TakeBack(2, 1)
    assert game.parse_action({"irregularity": "community_card_exposed", "card": 2}, "x") == (
        CommunityCardExposed(2)
    )
    with pytest.raises(FeltError, match=r"allowed: .*let_it_ride"):
        parse_action({"seat": 2, "action": "fold"}, "x")


def test_layout_wager_spots_decisions_dealer_and_phase_words() -> None:
    cfg = config()
    layout = GAME.layout(cfg)
    spots = layout["wager"]["spots"]
    assert spots == [
        {"field": "amount", "label": "Each wager (1, 2, $)", "minimum": "5.00",
         "maximum": "100.00", "step": "0.01", "count": 3},
        {"field": "bonus", "label": "Let it ride bonus", "optional": True, "minimum": "1.00",
         "maximum": "1.00", "step": "1.00"},
        {"field": "three_card_bonus", "label": "Three-card bonus", "optional": True,
         "minimum": "1.00", "maximum": "100.00", "step": "1.00"},
    ]  # fmt: skip
    for election, n in (("first wager", 1), ("second wager", 2)):
        buttons = layout["decisions"][election]["buttons"]
        assert [(b["label"].split(" wager")[0], b["primary"]) for b in buttons] == [
            ("Let it ride", True),
            ("Take back", False),
        ]
        for b in buttons:
            assert GAME.parse_action({**b["action"], "seat": 1}, "x").to_json()["wager"] == n
    assert set(layout["decisions"]) == set(LetItRideRound.ELECTIONS)
    assert layout["dealer"] == {
        "cards": "community",
        "count": "community_count",
        "label": "Community cards",
    }
    assert set(layout["phase_words"]) == {str(p) for p in Phase}
    assert set(layout["dealer_steps"]) == {"cut", "no_more_bets", "deal", "turn", "settle"}
    exposed = next(x for x in layout["irregularities"] if x["name"] == "community_card_exposed")
    assert exposed["fields"][0]["field"] == "card"
    for x in layout["irregularities"]:
        form = {"irregularity": x["name"], **{f["field"]: 2 for f in x["fields"]}}
        assert GAME.parse_action(form, "x").name == x["name"]
    manual = GAME.layout(config(shuffling="manual", bonus=False, three_card_bonus=False))
    assert manual["steps"][0]["action"] == {"dealer": "require_recut"}
    assert [s["field"] for s in manual["wager"]["spots"]] == ["amount"]
    assert "shuffler_jam" not in [x["name"] for x in manual["irregularities"]]


def test_table_snapshot_round_trip_and_origin_replay() -> None:
    cfg = config(decks=2)
    table = GAME.new_table(cfg)
    snap = GAME.table_snapshot(table)
    assert snap == {"rounds_played": 0, "shuffler_removed": False, "shuffling": "shuffler",
                    "cards_opened_at": None}  # fmt: skip
    assert GAME.table_snapshot(GAME.new_table(cfg, snap)) == snap
    table.rounds_played = 1
    rnd = table.new_round()
    origin = GAME.round_origin(rnd)
    assert origin == {"number": 2, "deck_name": "B"}
    twin = GAME.new_round(cfg, rnd.deck, origin)
    assert isinstance(twin, LetItRideRound)
    assert twin.deck_name == "B"


def test_dealer_step_fills_the_cut_and_runs_the_round() -> None:
    cfg = config(shuffling="manual")
    cards = deck([])
    table = LetItRideTable(cfg, shuffler=FixedOrder(cards), cut_position=lambda: 17)
    rnd = table.new_round()
    rnd.apply(Wagers(1, 500))
    assert GAME.dealer_step(table, rnd) == CutCards(17)
    while not rnd.finished:
        step = GAME.dealer_step(table, rnd)
        if step is None:
            rnd.time_out_pending()
        else:
            rnd.apply(step)
    table.finish(rnd)
    assert rnd.cut_positions == [17]
    assert table.rounds_played == 1


def test_suggest_asks_the_strategy_with_the_seats_cards() -> None:
    rnd = dealt({1: "Th Tc 4d", 2: "2c 7d 9s"}, "Qs Jd", {1: 500, 2: 500})
    assert GAME.suggest(rnd, 1, "first wager") == LetItRide(1, 1)  # a paying pair rides
    assert GAME.suggest(rnd, 2, "first wager") == TakeBack(2, 1)
    with pytest.raises(FeltError, match="no election 'bet or fold'"):
        GAME.suggest(rnd, 1, "bet or fold")
    rnd.apply(LetItRide(1, 1))
    rnd.apply(TakeBack(2, 1))
    rnd.apply(TurnCard())
    assert GAME.suggest(rnd, 1, "second wager") == LetItRide(1, 2)
    assert GAME.suggest(rnd, 2, "second wager") == TakeBack(2, 2)


def test_round_report_fed_back_as_a_script_replays_exactly() -> None:
    """A round on the second deck of a two-deck table with bonus wagers, take-backs and a
    timeout: its report is a script that replays it exactly."""
    cards = deck(["Ah Kh Qh", "2h 4c 6s"], "Jh Th")
    rnd = LetItRideRound(config(decks=2), cards, deck_name="B")
    rnd.apply(Wagers(1, 1000, 100, 500, "ann"))
    rnd.apply(Wagers(4, 500))
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    rnd.apply(LetItRide(1, 1))
    rnd.apply(TakeBack(4, 1))
    rnd.apply(TurnCard())
    rnd.apply(DecisionTimeout(1))
    rnd.apply(TakeBack(4, 2))
    rnd.apply(TurnCard())
    rnd.apply(Settle())
    record = json.loads(json.dumps(report(rnd)))
    assert record["script"]["deck_in_play"] == "B"
    assert record["script"]["wagers"]["1"] == {
        "amount": "10.00",
        "bonus": "1.00",
        "three_card_bonus": "5.00",
        "player": "ann",
    }
    assert record["dealer"] == {"community": ["Jh", "Th"], "community_count": 2}
    assert record["decisions"]["4"] == {"first": "take back", "second": "take back"}
    assert record["seats"]["1"]["hand"]["category"] == "royal flush"
    again = run_script(record["script"])
    assert again.events == rnd.events
    assert report(again) == report(rnd)
    assert round_script(again) == round_script(rnd)
    text = report_text(rnd, symbols=False)
    assert "community  Jh Th" in text
    assert "royal flush" in text


def test_a_hand_written_script_runs_the_dealer_between_the_decisions() -> None:
    script = {
        "game": "let_it_ride",
        "table": {"shuffling": "shuffler"},
        "deck": [str(c) for c in deck(["Th Tc 4d"], "9s 2h")],
        "wagers": {"1": {"amount": "5"}},
        "actions": [{"seat": 1, "action": "take_back", "wager": 1},
                    {"seat": 1, "action": "let_it_ride", "wager": 2}],
    }  # fmt: skip
    rnd = run_script(script)
    assert rnd.net(1) == 1000
    bad = {**script, "actions": [{"seat": 1, "action": "take_back", "wager": 2}]}
    with pytest.raises(FeltError, match=r"field 'actions'\[0\]: seat 1: cannot take back wager 2"):
        run_script(bad)
    for wagers, message in [
        ({"1": {"ante": "5"}}, "unknown key 'ante'"),
        ({"1": {"bonus": "1"}}, "give an 'amount'"),
        ({"9": {"amount": "5"}}, "seat must be a number from 1 to 7"),
        ({"1": "5"}, "must be an object"),
    ]:
        with pytest.raises(FeltError, match=message):
            run_script({**script, "wagers": wagers})
    with pytest.raises(FeltError, match="deck_in_play"):
        run_script({**script, "deck_in_play": "B"})
