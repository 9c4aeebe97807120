"""Caribbean Stud Poker rounds (N.J.A.C. 19:47-16): the ante, bet or fold, the qualifying hand,
settlement against the dealer with the payout limit, the shuffle and cut with the supervisor's
recut (16.4), two decks alternated (16.2(b)), the irregularities (16.13, title only), the seat's
view and the game interface.  Every amount is computed by hand from the rules as the public
descriptions state them (docs/interpretations.md, "Caribbean Stud Poker")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from felt.cli.script import report, report_text, round_script, run_script
from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.core.errors import FeltError
from felt.games.caribbean_stud.actions import (
    Bet,
    CutCards,
    DealerCardExposed,
    Fold,
    RequireRecut,
    Settle,
    Wagers,
    parse_action,
)
from felt.games.caribbean_stud.config import CaribbeanConfig
from felt.games.caribbean_stud.game import GAME
from felt.games.caribbean_stud.round import CaribbeanRound, Phase
from felt.games.caribbean_stud.table import CaribbeanTable
from felt.games.caribbean_stud.view import spot_json, spot_view
from felt.games.registry import table_game
from felt.rounds.actions import (
    Deal,
    DecisionTimeout,
    FaceUpCard,
    Misdeal,
    NoMoreBets,
    Reveal,
    ShufflerJam,
)
from felt.rounds.engine import HOUSE, LAYOUT, seat_party
from felt.rounds.shuffle import FixedOrder, SeededShuffle

QUALIFIES = "As Kd 4h 3c 2s"
"""The least qualifying dealer's hand (16.1): hole cards As Kd 4h 3c, up card 2s."""
NOT_QUALIFYING = "As Qd Jh Tc 8s"


def deck(*hands: str) -> tuple[Card, ...]:
    """A deck that deals ``hands`` (each position's five cards in position order, then the
    dealer's, the last face up) as the game deals: one card at a time round the table, five times
    (16.7-16.9); every other card after them."""
    split = [parse_cards(h) for h in hands]
    given = [h[i] for i in range(5) for h in split]
    return (*given, *(c for c in ALL_CARDS if c not in given))


def config(**settings: Any) -> CaribbeanConfig:
    """A minimum table with a shuffler (no cut), so a deck is dealt as given."""
    return CaribbeanConfig.from_mapping({"shuffling": "shuffler", **settings})


def dealt(
    hands: dict[int, str], dealer: str, antes: dict[int, int], **settings: Any
) -> CaribbeanRound:
    """A round dealt with ``hands`` (position -> five cards) and the dealer's five (the last face
    up), an ante at each position as given."""
    rnd = CaribbeanRound(config(**settings), deck(*(hands[n] for n in sorted(hands)), dealer))
    for n, ante in antes.items():
        rnd.apply(Wagers(n, ante))
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    return rnd


def results(rnd: CaribbeanRound, seat: int) -> dict[str, tuple[str, int]]:
    """Each wager of ``seat``: (outcome, the player's result in cents)."""
    return {line.wager: (line.outcome, line.amount) for line in rnd.lines if line.seat == seat}


def bet_and_settle(rnd: CaribbeanRound, *seats: int) -> None:
    for seat in seats:
        rnd.apply(Bet(seat))
    rnd.apply(Reveal())
    rnd.apply(Settle())


# ----------------------------------------------------------------------------- wagers (16.1, 16.6)


def test_16_1_ante_within_limits_and_bet_is_twice_the_ante() -> None:
    rnd = CaribbeanRound(config(), deck())
    with pytest.raises(FeltError, match=r"outside the table limits 5\.00 to 100\.00"):
        rnd.apply(Wagers(1, 400))
    with pytest.raises(FeltError, match="outside the table limits"):
        rnd.apply(Wagers(1, 0, 100))  # the progressive goes only with an ante
    rnd.apply(Wagers(1, 1000))
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    rnd.apply(Bet(1))
    assert rnd.seats[1].wagers == {"ante": 1000, "bet": 2000}
    assert rnd.ledger.balance(LAYOUT) == 3000


def test_one_position_per_player() -> None:
    rnd = CaribbeanRound(config(), deck())
    rnd.apply(Wagers(1, 500, player="ann"))
    with pytest.raises(FeltError, match="one position per player"):
        rnd.apply(Wagers(2, 500, player="ann"))


def test_16_1_no_wager_after_no_more_bets_and_bet_only_after_the_deal() -> None:
    rnd = CaribbeanRound(config(), deck())
    rnd.apply(Wagers(1, 500))
    with pytest.raises(FeltError, match="bets or folds after all cards are dealt"):
        rnd.apply(Bet(1))
    rnd.apply(NoMoreBets())
    with pytest.raises(FeltError, match='no wager after "No more bets"'):
        rnd.apply(Wagers(2, 500))


# ----------------------------------------------------------------------------- deal (16.7-16.9)


def test_deal_one_at_a_time_round_the_table_five_times_dealer_last_card_up() -> None:
    rnd = dealt({1: "9c 9d 5h 4s 2c", 3: "Kc Kh 5c 4d 3h"}, "As Kd 4h 3c 2s", {1: 500, 3: 500})
    assert rnd.seats[1].cards == list(parse_cards("9c 9d 5h 4s 2c"))
    assert rnd.seats[3].cards == list(parse_cards("Kc Kh 5c 4d 3h"))
    assert rnd.dealer_cards == list(parse_cards("As Kd 4h 3c 2s"))
    assert str(rnd.up_card) == "2s"
    deals = [e for ev in rnd.events for e in ev.effects if e.kind == "deal"]
    assert [(e.seat, e.detail) for e in deals] == [
        *[(1, "face down"), (3, "face down"), (None, "dealer, face down")] * 4,
        (1, "face down"), (3, "face down"), (None, "dealer, face up"),
    ]  # fmt: skip
    assert all(len(e.cards) == 1 for e in deals)
    assert rnd.pending() == [(1, "bet or fold"), (3, "bet or fold")]


# ----------------------------------------------------------------------------- settlement (16.10)


def test_16_10_dealer_not_qualifying_pays_ante_1_to_1_and_returns_the_bet() -> None:
    rnd = dealt({1: "2c 3d 7h 9s Jc"}, NOT_QUALIFYING, {1: 1000})
    bet_and_settle(rnd, 1)
    assert results(rnd, 1) == {"ante": ("win", 1000), "bet": ("push", 0)}
    assert rnd.ledger.balance(seat_party(1)) == 1000


def test_16_10_least_qualifying_dealer_hand_a_k_4_3_2_plays() -> None:
    """A-K-4-3-2 qualifies (16.1): a player's A-K-5-3-2 beats it, card by card (the third)."""
    rnd = dealt({1: "Ah Kc 5d 3h 2d"}, QUALIFIES, {1: 1000})
    bet_and_settle(rnd, 1)
    assert results(rnd, 1) == {"ante": ("win", 1000), "bet": ("win", 2000)}  # ace king 1 to 1


def test_16_10_player_wins_bet_paid_by_player_hand() -> None:
    """Ante 10, bet 20 on a full house at 7 to 1 wins 140; two pair 2 to 1 wins 40."""
    rnd = dealt({1: "9c 9d 9h 4s 4c", 2: "Jc Jd 5h 5s 2c"}, "Qs Qd 8h 6c 3s", {1: 1000, 2: 1000})
    bet_and_settle(rnd, 1, 2)
    assert results(rnd, 1) == {"ante": ("win", 1000), "bet": ("win", 14000)}
    assert results(rnd, 2) == {"ante": ("win", 1000), "bet": ("win", 4000)}
    bet_line = next(x for x in rnd.lines if x.seat == 1 and x.wager == "bet")
    assert bet_line.odds == "7 to 1"


def test_16_10_dealer_wins_both_lost() -> None:
    rnd = dealt({1: "Ac Kd 9h 5s 3c"}, "2s 2d 8h 6c 3s", {1: 500})
    bet_and_settle(rnd, 1)
    assert results(rnd, 1) == {"ante": ("lose", -500), "bet": ("lose", -1000)}


def test_16_10_exact_tie_pushes_both() -> None:
    rnd = dealt({1: "Ac Kd 9h 5s 3c"}, "Ad Kh 9s 5c 3d", {1: 500})
    bet_and_settle(rnd, 1)
    assert results(rnd, 1) == {"ante": ("push", 0), "bet": ("push", 0)}
    assert rnd.ledger.balance(seat_party(1)) == 0


def test_16_1_fold_forfeits_the_ante() -> None:
    rnd = dealt({1: "2c 3d 7h 9s Jc"}, NOT_QUALIFYING, {1: 500})
    rnd.apply(Fold(1))
    assert results(rnd, 1) == {"ante": ("forfeit", -500)}
    rnd.apply(Reveal())
    rnd.apply(Settle())
    assert rnd.ledger.balance(HOUSE) == 500
    assert rnd.phase is Phase.COMPLETE


def test_16_1_timeout_is_a_fold() -> None:
    rnd = dealt({1: "2c 3d 7h 9s Jc"}, NOT_QUALIFYING, {1: 500})
    with pytest.raises(FeltError, match="may not expose the hole cards"):
        rnd.apply(Reveal())
    rnd.apply(DecisionTimeout(1))
    assert results(rnd, 1) == {"ante": ("forfeit", -500)}
    assert rnd.seats[1].status == "folded"


def test_16_12_payout_limit_caps_ante_and_bet_of_a_hand() -> None:
    """Ante 100, bet 200 on a royal flush at 100 to 1: 100 + 20,000 won, capped at 5,000 in all:
    the bet is reduced by 15,100."""
    rnd = dealt({1: "Ah Kh Qh Jh Th"}, QUALIFIES, {1: 10000}, maximum="100")
    bet_and_settle(rnd, 1)
    bet = next(x for x in rnd.lines if x.wager == "bet")
    ante = next(x for x in rnd.lines if x.wager == "ante")
    assert (ante.amount, ante.limit_reduction) == (10000, 0)
    assert (bet.amount, bet.limit_reduction) == (490000, 1510000)
    assert rnd.net(1) == 500000
    unlimited = dealt({1: "Ah Kh Qh Jh Th"}, QUALIFIES, {1: 10000}, payout_limit="none")
    bet_and_settle(unlimited, 1)
    assert unlimited.net(1) == 10000 + 2000000


@pytest.mark.parametrize(
    ("hand", "name"),
    [("Ah Kh Qh Jh Th", "royal flush"), ("9c 9d 9h 9s 2c", "four of a kind"),
     ("Qc Qh 5c 4d 3h", "one pair"), ("Ac Kh 5s 3d 2c", "ace king")],
)  # fmt: skip
@pytest.mark.parametrize("ante", [500, 2500, 10000])
def test_16_12_analysis_pays_what_the_round_pays_under_the_limit(
    hand: str, name: str, ante: int
) -> None:
    """The exact analysis's winning hand (:func:`.analysis.bet_wins` + :func:`.analysis.ante_win`)
    is what the round settles, the $5,000 limit of 16.12 included: two readings, one number."""
    from felt.games.caribbean_stud import analysis

    table = config(maximum="100")
    rnd = dealt({1: hand}, QUALIFIES, {1: ante}, maximum="100")
    bet_and_settle(rnd, 1)
    wins = dict(zip(analysis.NAMES, analysis.bet_wins(table, ante), strict=True))
    assert rnd.net(1) == analysis.ante_win(table, ante) + wins[name]


def test_16_10_settlement_order_losers_then_pushes_then_winners_from_dealer_right() -> None:
    rnd = dealt({1: "Qc Qh 5c 4d 3h", 2: "2d 3s 7h 9s Jc", 3: "Ac Kh 4s 3d 2c"},
                QUALIFIES, {1: 500, 2: 500, 3: 500})  # fmt: skip
    bet_and_settle(rnd, 1, 2, 3)
    order = [(x.seat, x.outcome) for x in rnd.lines if x.wager == "ante"]
    assert order == [(2, "lose"), (3, "push"), (1, "win")]
    assert sorted(rnd.cards_accounted()) == list(range(52))
    assert rnd.rack.bundles[-1][0] == "stub"


# ----------------------------------------------------------------------------- shuffle and cut (16.4)


def test_16_4_c_cut_takes_at_least_10_from_the_top() -> None:
    rnd = CaribbeanRound(config(shuffling="manual"), deck())
    rnd.apply(Wagers(1, 500))
    with pytest.raises(FeltError, match=r"cut the cards|cards are cut before"):
        rnd.apply(NoMoreBets())
    with pytest.raises(FeltError, match=r"at least 10 cards from the top.*got 9"):
        rnd.apply(CutCards(9))
    assert rnd.next_dealer_action() == CutCards()
    rnd.apply(CutCards(10))
    assert rnd.shoe.order == deck()[10:] + deck()[:10]
    with pytest.raises(FeltError, match="cut once"):
        rnd.apply(CutCards(20))


def test_16_4_b_no_cut_after_an_automated_shuffle() -> None:
    rnd = CaribbeanRound(config(), deck())
    rnd.apply(Wagers(1, 500))
    with pytest.raises(FeltError, match=r"no cut.*16.4\(b\)1"):
        rnd.apply(CutCards(20))
    assert rnd.next_dealer_action() == NoMoreBets()


def test_16_4_d_supervisor_may_require_a_recut_before_any_card_is_dealt() -> None:
    assert RequireRecut.supervisor_only
    rnd = CaribbeanRound(config(shuffling="manual"), deck())
    rnd.apply(Wagers(1, 500))
    with pytest.raises(FeltError, match="after the cards are cut"):
        rnd.apply(RequireRecut())
    rnd.apply(CutCards(20))
    rnd.apply(NoMoreBets())
    rnd.apply(RequireRecut())
    assert rnd.phase is Phase.RECUT
    assert rnd.next_dealer_action() == CutCards()
    with pytest.raises(FeltError):
        rnd.apply(Deal())
    rnd.apply(CutCards(15))
    assert str(rnd.phase) == "closed"
    assert rnd.cut_positions == [20, 15]
    once = deck()[20:] + deck()[:20]
    assert rnd.shoe.order == once[15:] + once[:15]
    rnd.apply(Deal())
    with pytest.raises(FeltError, match="before any card is dealt"):
        rnd.apply(RequireRecut())


def test_16_2_b_two_decks_alternate_round_by_round() -> None:
    table = CaribbeanTable(config(decks=2), shuffler=SeededShuffle(1))
    names = []
    for _ in range(3):
        rnd = table.new_round()
        names.append(rnd.deck_name)
        rnd.apply(Wagers(1, 500))
        rnd.run_dealer()
        rnd.apply(Fold(1))
        rnd.run_dealer()
        table.finish(rnd)
    assert names == ["A", "B", "A"]
    single = CaribbeanTable(config(), shuffler=SeededShuffle(1))
    assert single.new_round().deck_name == "A"


# ----------------------------------------------------------------------------- irregularities (16.13)


def test_16_13_hole_card_exposed_before_decisions_voids_every_hand() -> None:
    rnd = dealt({1: "2c 3d 7h 9s Jc", 2: "Qc Qh 5c 4d 3h"}, QUALIFIES, {1: 500, 2: 700})
    rnd.apply(Bet(2))
    rnd.apply(DealerCardExposed())
    assert rnd.phase is Phase.VOID
    assert results(rnd, 1) == {"ante": ("void", 0)}
    assert results(rnd, 2) == {"ante": ("void", 0), "bet": ("void", 0)}
    assert rnd.ledger.balance(seat_party(2)) == 0
    assert rnd.ledger.balance(LAYOUT) == 0
    assert sorted(rnd.cards_accounted()) == list(range(52))


def test_16_1_fold_is_final_a_later_void_returns_only_the_hands_still_in_play() -> None:
    """16.1: a fold is the player's withdrawal from the round; the ante went with the discarded
    hand.  A dealer's card exposed afterwards, before another player decides, voids the hands
    still in play and returns their wagers; the folded player's loss stands (the exposure came
    after, and could not have shaped, that player's decision)."""
    rnd = dealt({1: "2c 3d 7h 9s Jc", 2: "Qc Qh 5c 4d 3h"}, QUALIFIES, {1: 500, 2: 700})
    rnd.apply(Fold(1))
    rnd.apply(DealerCardExposed())
    assert rnd.phase is Phase.VOID
    assert results(rnd, 1) == {"ante": ("forfeit", -500)}
    assert results(rnd, 2) == {"ante": ("void", 0)}
    assert rnd.net(1) == -500


def test_16_13_hole_card_exposed_after_every_decision_has_no_effect() -> None:
    rnd = dealt({1: "2c 3d 7h 9s Jc"}, QUALIFIES, {1: 500})
    rnd.apply(Fold(1))
    rnd.apply(DealerCardExposed())
    assert rnd.phase is Phase.DECISIONS


def test_16_13_misdeal_of_the_wrong_count_voids_and_five_is_no_misdeal() -> None:
    rnd = CaribbeanRound(config(), deck())
    rnd.apply(Wagers(1, 500))
    rnd.apply(NoMoreBets())
    with pytest.raises(FeltError, match="five is the right number"):
        rnd.apply(Misdeal(5, 1))
    rnd.apply(Misdeal(4, 1))
    rnd.apply(Deal())
    assert rnd.phase is Phase.VOID
    assert "seat 1 was dealt 4 cards" in rnd.void_reason
    assert sorted(rnd.cards_accounted()) == list(range(52))


def test_16_13_card_face_up_in_the_deck_is_burned() -> None:
    """The top card found face up goes to the rack; the deal goes on with the next card."""
    top = parse_cards("9c 9d 5h 4s 2c 3c")
    rnd = CaribbeanRound(config(), (*top, *(c for c in ALL_CARDS if c not in top)))
    rnd.apply(Wagers(1, 500))
    rnd.apply(FaceUpCard(1))
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    assert rnd.seats[1].cards[:3] == list(parse_cards("9d 4s 3c"))  # dealer: 5h, 2c, ...
    assert rnd.dealer_cards[:2] == list(parse_cards("5h 2c"))
    assert rnd.rack.cards()[0] == top[0]


def test_16_13_shuffler_jam_only_with_a_shuffler_before_the_deal() -> None:
    manual = CaribbeanRound(config(shuffling="manual"), deck())
    with pytest.raises(FeltError, match="no shuffler to jam"):
        manual.apply(ShufflerJam())
    rnd = CaribbeanRound(config(), deck())
    rnd.apply(Wagers(1, 500))
    new = tuple(reversed(deck()))
    rnd.apply(ShufflerJam(new))
    assert rnd.shoe.order == new


# ----------------------------------------------------------------------------- the view


def test_view_dealer_up_card_to_all_hole_cards_to_none_until_revealed() -> None:
    rnd = dealt({1: "2c 3d 7h 9s Jc", 2: "Qc Qh 5c 4d 3h"}, QUALIFIES, {1: 500, 2: 500})
    for viewer in (0, 1, 2):
        view = spot_view(rnd, viewer)
        assert [str(c) for c in view.dealer_cards] == ["2s"]
        assert view.dealer_card_count == 5
        assert all(o.cards == () for o in view.others)
    assert spot_view(rnd, 1).own_cards == tuple(parse_cards("2c 3d 7h 9s Jc"))
    assert spot_json(rnd, 2)["dealer_up_card"] == ["2s"]
    rnd.apply(Fold(1))
    bet_and_settle(rnd, 2)
    view = spot_view(rnd, 2)
    assert len(view.dealer_cards) == 5
    assert view.dealer_hand.startswith("high card, ace-king")
    others = {o.number: o for o in spot_view(rnd, 0).others}
    assert others[1].cards == ()
    assert len(others[2].cards) == 5
    reasons = spot_json(rnd, 2)["lines"]
    assert "beats the dealer's" in reasons[0]["reason"] or "beats" in reasons[-1]["reason"]


def test_view_never_shows_undealt_or_hole_cards_before_reveal() -> None:
    rnd = dealt({1: "2c 3d 7h 9s Jc"}, QUALIFIES, {1: 500})
    text = str(GAME.seat_view(rnd, 1))
    for hole in ("As", "Kd", "4h", "3c"):
        assert f"'{hole}'" not in text


# ----------------------------------------------------------------------------- the game interface


def test_registered_game_and_actions() -> None:
    game = table_game("caribbean_stud")
    assert game is GAME
    assert game.title("caribbean_stud") == "Caribbean Stud Poker"
    assert game.editions("caribbean_stud") == ("nj-19-47-16",)
    action = game.parse_action({"dealer": "settle", "meter": "12345.67"}, "x")
    assert action == Settle(meter=1234567)
    assert action.needs_meter
    assert parse_action({"dealer": "settle"}, "x") == Settle()
    assert parse_action({"seat": 2, "action": "bet"}, "x") == Bet(2)
    with pytest.raises(FeltError, match=r"allowed: .*bet"):
        parse_action({"seat": 2, "action": "play"}, "x")


def test_progressive_interface_and_layout() -> None:
    cfg = config()
    prog = GAME.progressive(cfg)
    assert prog is not None
    assert (prog.meter, prog.seed) == ("caribbean", 1000000)
    assert GAME.progressive(config(progressive=False)) is None
    layout = GAME.layout(cfg)
    spots = layout["wager"]["spots"]
    assert spots[1] == {"field": "progressive", "label": "Progressive wager", "optional": True,
                        "minimum": "1.00", "maximum": "1.00", "step": "1.00"}  # fmt: skip
    bet = layout["decisions"]["bet or fold"]["buttons"][0]
    assert bet["places"] == {"wager": "ante", "times": 2, "label": "Bet"}
    assert set(layout["phase_words"]) == {str(p) for p in Phase}
    assert set(layout["dealer_steps"]) == {"cut", "no_more_bets", "deal", "reveal", "settle"}
    manual = GAME.layout(config(shuffling="manual"))
    assert manual["steps"][0]["action"] == {"dealer": "require_recut"}


def test_table_snapshot_round_trip_and_origin_replay() -> None:
    cfg = config(decks=2)
    table = GAME.new_table(cfg)
    snap = GAME.table_snapshot(table)
    assert "meter" not in snap  # a table built through the interface keeps no meter of its own
    assert GAME.table_snapshot(GAME.new_table(cfg, {**snap, "meter": 123})) == snap
    again = GAME.new_table(cfg, snap)
    assert GAME.table_snapshot(again) == snap
    table.rounds_played = 1
    rnd = table.new_round()
    origin = GAME.round_origin(rnd)
    assert origin == {"number": 2, "deck_name": "B"}
    twin = GAME.new_round(cfg, rnd.deck, origin)
    assert isinstance(twin, CaribbeanRound)
    assert twin.deck_name == "B"


def test_dealer_step_fills_the_table_meter_and_the_cut() -> None:
    cfg = config(shuffling="manual")
    table = CaribbeanTable(cfg, shuffler=FixedOrder(deck()), cut_position=lambda: 17)
    rnd = table.new_round()
    rnd.apply(Wagers(1, 500, 100))
    assert GAME.dealer_step(table, rnd) == CutCards(17)
    while (step := GAME.dealer_step(table, rnd)) is not None:
        rnd.apply(step)
    rnd.apply(Bet(1))
    reveal = GAME.dealer_step(table, rnd)
    assert reveal == Reveal()
    rnd.apply(reveal)
    step = GAME.dealer_step(table, rnd)
    assert step == Settle(meter=1000000 + 25)
    rnd.apply(step)
    table.finish(rnd)
    assert table.meter == rnd.meter_after


def test_a_table_built_through_the_interface_leaves_the_meter_to_the_server() -> None:
    """A server's table (``GAME.new_table``) keeps no meter of its own: its settlement step
    carries none, for the server to fill from the linked meter (16.11), and no stale figure is
    shown to the dealer or stored with the table."""
    cfg = config()
    table = GAME.new_table(cfg)
    assert isinstance(table, CaribbeanTable)
    assert table.meter is None
    rnd = table.new_round()
    rnd.apply(Wagers(1, 500, 100))
    while (step := GAME.dealer_step(table, rnd)) is not None and not isinstance(step, Settle):
        rnd.apply(step)
        if rnd.pending():
            rnd.apply(Bet(1))
    assert step == Settle()


def test_round_report_fed_back_as_a_script_replays_exactly() -> None:
    """A round with a progressive, a cut, a recut and a settlement carrying the meter, on the
    second deck of a two-deck table: its report is a script that replays it exactly."""
    cards = deck("Ah Kh Qh Jh Th", "2h 4c 6s 8h Tc", "2c 3h 4s 8d 9h")
    rnd = CaribbeanRound(config(decks=2), cards, deck_name="B")
    rnd.apply(Wagers(1, 1000, 100, "ann"))
    rnd.apply(Wagers(4, 500))
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    rnd.apply(Bet(1))
    rnd.apply(Fold(4))
    rnd.apply(Reveal())
    rnd.apply(Settle(meter=1_234_567))
    record = json.loads(json.dumps(report(rnd)))
    assert record["script"]["deck_in_play"] == "B"
    assert record["script"]["wagers"]["1"] == {
        "ante": "10.00",
        "progressive": "1.00",
        "player": "ann",
    }
    assert {"dealer": "settle", "meter": "12345.67"} in record["script"]["actions"]
    assert record["meter_used"] == "12345.67"
    assert record["meter_after"] == "10000.00"
    again = run_script(record["script"])
    assert again.events == rnd.events
    assert report(again) == report(rnd)
    assert round_script(again) == round_script(rnd)
    text = report_text(rnd, symbols=False)
    assert "royal flush" in text
    assert "progressive payout" in text


def test_16_2_b_a_two_deck_table_keeps_its_shuffler() -> None:
    table = CaribbeanTable(config(decks=2))
    table.remove_shuffler()
    with pytest.raises(FeltError, match=r"two decks, which needs an automated card shuffling"):
        table.change_shuffling("manual")
    one = CaribbeanTable(config())
    with pytest.raises(FeltError, match="must be removed"):
        one.change_shuffling("manual")
    one.remove_shuffler()
    one.change_shuffling("manual")
    assert one.config.cut_required
