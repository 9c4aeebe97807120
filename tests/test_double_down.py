"""Double Down Stud: one scenario per clause of 19:47-17.4, 17.6, 17.8, 17.9, 17.10 and 17.11,
property tests over random rounds, scripts and the suggested strategy."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from felt.cli.script import complete_deck, report, run_script
from felt.core.cards import ALL_CARDS, parse_cards
from felt.core.errors import FeltError
from felt.core.evaluator import evaluate
from felt.games.double_down import (
    DoubleDownConfig,
    DoubleDownRound,
    Phase,
    classify,
    double_expectation,
    rules,
)
from felt.games.double_down.actions import (
    DealerCut,
    DeclineCut,
    DoubleDown,
    HoleCardExposed,
    NoMoreDoubles,
    PlaceBet,
    PlayerCut,
    RequireRecut,
    Stand,
)
from felt.rounds.actions import DecisionTimeout, FaceUpCard, Misdeal, NoMoreBets, ShufflerJam
from felt.rounds.engine import HOUSE, LAYOUT

TEN = 1000


def dd(cards: str = "", bets: dict[int, int] | None = None, **table: Any) -> DoubleDownRound:
    table.setdefault("shuffling", "shuffler-to-shoe")
    config = DoubleDownConfig.from_mapping(table)
    rnd = DoubleDownRound(config, complete_deck(list(parse_cards(cards))))
    for area, amount in (bets or {}).items():
        rnd.apply(PlaceBet(area, amount))
    return rnd


def lines(rnd: DoubleDownRound, area: int) -> dict[str, tuple[str, int]]:
    return {line.wager: (line.outcome, line.amount) for line in rnd.lines if line.seat == area}


def stand_all(rnd: DoubleDownRound) -> DoubleDownRound:
    """Every area still deciding stands (17.8(c)); then the dealer finishes."""
    rnd.run_dealer()
    for area, what in rnd.pending():
        assert what == "double or stand"
        rnd.apply(Stand(area))
    rnd.run_dealer()
    return rnd


def refused(rnd: DoubleDownRound, action: Any, match: str) -> None:
    before = (report(rnd), len(rnd.events))
    with pytest.raises(FeltError, match=match):
        rnd.apply(action)
    assert (report(rnd), len(rnd.events)) == before


# --------------------------------------------------------------------------- 17.4 shuffle and cut


def test_17_4_b1_shuffler_loading_the_shoe_skips_the_cut() -> None:
    rnd = dd("", {1: TEN})
    rnd.run_dealer()
    assert not any(e.kind == "cut" for ev in rnd.events for e in ev.effects)
    assert rnd.phase is Phase.DOUBLES


def test_17_4_c_cut_moves_cards_above_the_cutting_card_to_the_bottom() -> None:
    rnd = dd("", {1: TEN}, shuffling="shuffler")
    before = rnd.shoe.order
    rnd.run_dealer()
    assert rnd.phase is Phase.CUT
    assert rnd.cut_offered_to == 1
    rnd.apply(PlayerCut(1, 12))
    assert rnd.shoe.order == before[12:] + before[:12]


def test_17_4_c_dealer_cuts_when_no_player_accepts() -> None:
    rnd = dd("", {1: TEN, 2: TEN}, shuffling="shuffler")
    rnd.run_dealer()
    refused(rnd, DealerCut(20), "has not declined")
    rnd.apply(DeclineCut(1))
    rnd.apply(DealerCut(20))
    assert rnd.cutter == 0


def test_17_4_d1_first_player_offered_the_cut_at_a_new_game() -> None:
    rnd = dd("", {3: TEN, 1: TEN}, shuffling="shuffler")  # area 3 wagered first
    rnd.run_dealer()
    assert rnd.cut_offered_to == 3


def test_17_4_d2_farthest_right_then_counterclockwise() -> None:
    config = DoubleDownConfig.from_mapping({"shuffling": "shuffler"})
    first = DoubleDownRound(config, ALL_CARDS, new_game=False)
    for area in (1, 3, 5):
        first.apply(PlaceBet(area, TEN))
    first.run_dealer()
    assert first.cut_offered_to == 5  # farthest to the dealer's right
    second = DoubleDownRound(config, ALL_CARDS, new_game=False, last_offered=5)
    for area in (1, 3, 5):
        second.apply(PlaceBet(area, TEN))
    second.run_dealer()
    assert second.cut_offered_to == 3  # rotates counterclockwise
    third = DoubleDownRound(config, ALL_CARDS, new_game=False, last_offered=1)
    for area in (1, 3, 5):
        third.apply(PlaceBet(area, TEN))
    third.run_dealer()
    assert third.cut_offered_to == 5  # and comes round again


def test_17_4_e_cutting_card_at_least_ten_from_either_end() -> None:
    rnd = dd("", {1: TEN}, shuffling="shuffler")
    rnd.run_dealer()
    refused(rnd, PlayerCut(1, 9), r"at least 10 cards from either end.*17.4\(e\)")
    refused(rnd, PlayerCut(1, 43), "position 10 to 42")
    refused(rnd, PlayerCut(2, 20), "the cut is for area 1")
    rnd.apply(PlayerCut(1, 42))


@pytest.mark.parametrize(("recut_by", "expected"), [("last", 3), ("next", 1)])
def test_17_4_f_supervisor_may_require_a_recut(recut_by: str, expected: int) -> None:
    config = DoubleDownConfig.from_mapping({"shuffling": "shuffler", "recut_by": recut_by})
    rnd = DoubleDownRound(config, ALL_CARDS, new_game=False)
    for area in (1, 3):
        rnd.apply(PlaceBet(area, TEN))
    rnd.run_dealer()
    rnd.apply(PlayerCut(3, 20))
    rnd.apply(RequireRecut())
    assert rnd.phase is Phase.CUT
    assert rnd.cut_offered_to == expected
    rnd.apply(PlayerCut(expected, 30))
    rnd.run_dealer()
    refused(rnd, RequireRecut(), r"17.4\(f\)")


# --------------------------------------------------------------------------- 17.6 wagers


def test_17_6_b_no_wager_after_no_more_bets() -> None:
    rnd = dd("", {1: TEN})
    rnd.apply(NoMoreBets())
    refused(rnd, PlaceBet(2, TEN), r"17.6\(b\)")


def test_17_6_c_two_adjacent_areas_only_if_permitted() -> None:
    rnd = dd()
    rnd.apply(PlaceBet(1, TEN, player="ann"))
    refused(rnd, PlaceBet(2, TEN, player="ann"), r"one area per player.*17.6\(c\)")
    two = dd(two_areas=True)
    two.apply(PlaceBet(3, TEN, player="ann"))
    refused(two, PlaceBet(5, TEN, player="ann"), "must be adjacent")
    two.apply(PlaceBet(4, TEN, player="ann"))
    refused(two, PlaceBet(5, TEN, player="ann"), "no more than two")


def test_table_limits() -> None:
    rnd = dd(minimum="5", maximum="100")
    refused(rnd, PlaceBet(1, 400), "outside the table limits")
    refused(rnd, PlaceBet(8, TEN), "does not exist")


# --------------------------------------------------------------------------- 17.8 dealing


def test_17_8_b_one_card_up_to_each_area_then_hole_and_three_up() -> None:
    rnd = dd("2c 3d 4h 5s 6c 7d 8h", {1: TEN, 2: TEN, 3: TEN})
    rnd.run_dealer()
    assert [rnd.seats[n].cards for n in (1, 2, 3)] == [[c] for c in parse_cards("2c 3d 4h")]
    assert rnd.dealer_cards == list(parse_cards("5s 6c 7d 8h"))
    hole = [e for ev in rnd.events for e in ev.effects if e.detail.startswith("hole card")]
    assert hole[0].cards == tuple(parse_cards("5s"))


def test_17_8_c_double_down_after_the_deal_before_the_hole_card() -> None:
    rnd = dd("", {1: TEN})
    refused(rnd, DoubleDown(1), r"17.8\(c\)")
    rnd.run_dealer()
    refused(rnd, DoubleDown(1, 500), "equals the original wager")
    rnd.apply(DoubleDown(1))
    refused(rnd, Stand(1), "already doubled")
    rnd.run_dealer()
    assert rnd.phase is Phase.COMPLETE


def test_double_down_up_to_the_original_wager_when_configured() -> None:
    rnd = dd("", {1: TEN}, double_down="up-to")
    rnd.run_dealer()
    refused(rnd, DoubleDown(1, 1500), "at most the original wager")
    rnd.apply(DoubleDown(1, 400))
    assert rnd.seats[1].wagers["double"] == 400


def test_17_8_d_second_no_more_bets_waits_for_every_double_down_choice() -> None:
    rnd = dd("", {1: TEN, 2: TEN})
    rnd.run_dealer()
    rnd.apply(DoubleDown(1))
    rnd.run_dealer()  # area 2 has not chosen: the dealer waits
    assert rnd.phase is Phase.DOUBLES
    refused(rnd, NoMoreDoubles(), r"area 2 to double or stand \(N.J.A.C. 19:47-17.8\(c\)\)")
    rnd.apply(DecisionTimeout(2))  # area 2's decision time ran out: it stands
    rnd.run_dealer()  # "No more bets", then the hole card
    assert rnd.seats[2].doubled is False
    assert rnd.hole_revealed


# --------------------------------------------------------------------------- 17.9 and 17.10


@pytest.mark.parametrize(
    ("five", "kind"),
    [
        ("5c 5d 2h 8s 9c", "lose"),
        ("Ac Kd 2h 8s 9c", "lose"),
        ("6c 6d 2h 8s 9c", "push"),
        ("Tc Td 2h 8s 9c", "push"),
        ("Jc Jd 2h 8s 9c", "jacks or better"),
        ("2c 2d 3h 3s 9c", "two pair"),
        ("As Ks Qs Js Ts", "royal flush"),
    ],
)
def test_17_9_lose_push_win_boundaries(five: str, kind: str) -> None:
    """17.9(a): pair of fives or less loses; (b) sixes to tens push; (c) jacks or better win."""
    assert classify(evaluate(five)) == kind


def test_17_9_settlement_order_losers_pushes_then_winners_from_the_right() -> None:
    # areas: 1 Jh (pair of jacks with Jd: win), 2 5c (loses), 3 8c (pair of 8s: push), 4 Js (win)
    rnd = stand_all(dd("Jh 5c 8c Js 2s Jd 8h 3d", {1: TEN, 2: TEN, 3: TEN, 4: TEN}))
    order = [(line.seat, line.outcome) for line in rnd.lines]
    assert order == [(2, "lose"), (3, "push"), (4, "win"), (1, "win")]
    labels = [label for label, _ in rnd.rack.bundles]
    assert labels[:4] == [
        "area 2 losing hand",
        "area 3 push",
        "area 4 winning hand",
        "area 1 winning hand",
    ]
    assert labels[-2:] == ["dealer", "stub"]


def test_17_10_b_pays_on_the_whole_amount_wagered() -> None:
    rnd = dd("9h 9c 9d 2s 4c", {1: TEN})  # three nines: 3 to 1
    rnd.run_dealer()
    rnd.apply(DoubleDown(1))
    rnd.run_dealer()
    assert lines(rnd, 1) == {"wager": ("win", 3 * TEN), "double": ("win", 3 * TEN)}


def test_17_10_b_minimum_odds_and_generous_tables() -> None:
    with pytest.raises(
        FeltError, match=r"less than the minimum 10 to 1 \(N.J.A.C. 19:47-17.10\(b\)\)"
    ):
        DoubleDownConfig.from_mapping({"pay_table": {"full house": "9 to 1"}})
    config = DoubleDownConfig.from_mapping({"pay_table": {"full house": "12 to 1"}})
    assert str(config.pay_table.get("full house")) == "12 to 1"


def test_17_10_c_payout_limit_100000_per_hand() -> None:
    with pytest.raises(FeltError, match=r"17.10\(c\)"):
        DoubleDownConfig.from_mapping({"payout_limit": "50000"})
    rnd = stand_all(dd("As Ks Qs Js Ts", {1: 50000}, maximum="500"))  # 1000 to 1 on $500
    line = rnd.lines[0]
    assert line.amount == 10_000_000
    assert line.limit_reduction == 50_000_000 - 10_000_000
    assert "17.10(c)" in line.clause


# --------------------------------------------------------------------------- 17.11 irregularities


def test_17_11_a_hole_card_exposed_voids_all_hands() -> None:
    rnd = dd("", {1: TEN, 2: TEN})
    rnd.run_dealer()
    rnd.apply(DoubleDown(1))
    rnd.apply(HoleCardExposed())
    assert rnd.phase is Phase.VOID
    assert lines(rnd, 1) == {"wager": ("void", 0), "double": ("void", 0)}
    assert sorted(rnd.rack.cards()) == list(range(52))


def test_17_11_b_face_up_card_burned_two_void() -> None:
    rnd = dd("2c 3d 4h 5s 6c 7d", {1: TEN})
    rnd.apply(FaceUpCard(1))
    rnd.run_dealer()
    assert rnd.seats[1].cards == list(parse_cards("3d"))
    two = dd("", {1: TEN})
    two.apply(FaceUpCard(1))
    two.apply(FaceUpCard(3))
    two.run_dealer()
    assert two.phase is Phase.VOID


def test_17_11_d_any_wrong_number_of_cards_voids_all() -> None:
    rnd = dd("", {1: TEN, 2: TEN})
    rnd.apply(Misdeal(2, seat=2))
    rnd.run_dealer()
    assert rnd.phase is Phase.VOID
    dealer = dd("", {1: TEN})
    dealer.apply(Misdeal(3))
    dealer.run_dealer()
    assert dealer.phase is Phase.VOID
    assert "11(d)" in dealer.void_reason


def test_17_11_e_shuffler_jam_reshuffles() -> None:
    rnd = dd("", {1: TEN})
    rnd.apply(ShufflerJam(complete_deck(list(parse_cards("Ah")))))
    rnd.run_dealer()
    assert rnd.seats[1].cards == list(parse_cards("Ah"))


# --------------------------------------------------------------------------- the suggested play


def test_double_expectation_uses_every_exposed_card() -> None:
    """With the hole card the only unknown, doubling a made pair of jacks is certain to win."""
    own, *up = parse_cards("Jh Jd 4c 7s")
    assert double_expectation(own, up, [], rules().pay_table) > 0
    weak, *up2 = parse_cards("2h 5d 9c Ks")
    assert double_expectation(weak, up2, [], rules().pay_table) < 0
    # Seeing other players' cards changes the odds: remove the cards that would pair the ace.
    ace, *up3 = parse_cards("Ah 7d 8c 3s")
    blind = double_expectation(ace, up3, [], rules().pay_table)
    seen = double_expectation(ace, up3, parse_cards("Ac Ad As"), rules().pay_table)
    assert seen < blind
    assert isinstance(blind, Fraction)


# --------------------------------------------------------------------------- properties


@st.composite
def dd_rounds(draw: st.DrawFn) -> DoubleDownRound:
    shuffling = draw(st.sampled_from(["shuffler", "shuffler-to-shoe", "manual"]))
    config = DoubleDownConfig.from_mapping(
        {"shuffling": shuffling, "double_down": draw(st.sampled_from(["equal", "up-to"]))}
    )
    rnd = DoubleDownRound(
        config, tuple(draw(st.permutations(ALL_CARDS))), new_game=draw(st.booleans())
    )
    for area in sorted(draw(st.sets(st.integers(1, 7), min_size=1))):
        rnd.apply(PlaceBet(area, draw(st.sampled_from([500, 1000, 50000]))))
    if draw(st.integers(0, 9)) == 0 and not config.cut_required:
        rnd.apply(FaceUpCard(draw(st.integers(1, 20))))
    for _ in range(100):
        if rnd.finished:
            break
        pending = rnd.pending()
        if not pending:
            rnd.advance()
            continue
        area, what = pending[0]
        if what == "cut or decline":
            rnd.apply(
                draw(
                    st.sampled_from([PlayerCut(area, draw(st.integers(10, 42))), DeclineCut(area)])
                )
            )
        elif draw(st.integers(0, 30)) == 0:
            rnd.apply(HoleCardExposed())
        else:
            rnd.apply(draw(st.sampled_from([DoubleDown(area), Stand(area)])))
    return rnd


@settings(max_examples=100)
@given(dd_rounds())
def test_double_down_money_conserved_cards_accounted_replay_equal(rnd: DoubleDownRound) -> None:
    assert rnd.finished
    assert sum(rnd.net(n) for n in rnd.seats) + rnd.house_net() == 0
    assert rnd.ledger.balance(LAYOUT) == 0
    assert rnd.ledger.balance(HOUSE) == rnd.house_net()
    dealt = [c for ev in rnd.events for e in ev.effects if e.kind == "deal" for c in e.cards]
    assert len(dealt) == len(set(dealt))
    assert sorted(rnd.rack.cards()) == list(range(52))
    again = DoubleDownRound.replay(rnd.config, rnd.deck, rnd.actions, new_game=rnd.new_game)
    assert again.events == rnd.events


# --------------------------------------------------------------------------- scripts


def test_double_down_script_and_errors() -> None:
    rnd = run_script(
        {
            "game": "double-down-stud",
            "table": {"shuffling": "shuffler"},
            "deck": ["2c"] + [str(c) for c in parse_cards("Jh Jd 7c 8h 3d")],
            "wagers": {"2": {"wager": 10}},
            "actions": [
                {"seat": 2, "action": "cut", "position": 10},
                {"seat": 2, "action": "double"},
            ],
        }
    )
    assert isinstance(rnd, DoubleDownRound)
    assert rnd.cutter == 2
    with pytest.raises(FeltError, match=r"field 'wagers'\.1: unknown key 'ante'"):
        run_script({"game": "double-down-stud", "wagers": {"1": {"ante": 5}}})
    with pytest.raises(FeltError, match=r"field 'wagers'\.1: missing 'wager'"):
        run_script({"game": "double-down-stud", "wagers": {"1": {}}})
    with pytest.raises(FeltError, match="field 'edition' does not apply"):
        run_script({"game": "double-down-stud", "edition": "x", "wagers": {"1": {"wager": 5}}})
    with pytest.raises(FeltError, match=r"field 'actions'\[0\]: area 1: the double down wager"):
        run_script({"game": "double-down-stud", "table": {"shuffling": "shuffler-to-shoe"},
                    "wagers": {"1": {"wager": 10}}, "actions": [{"seat": 1, "action": "double", "amount": 5}]})  # fmt: skip


# --------------------------------------------------------------------------- table and play


def test_17_4_d_cut_rotation_across_rounds_at_a_table() -> None:
    from felt.games.double_down import DoubleDownTable
    from felt.rounds.shuffle import SeededShuffle

    table = DoubleDownTable(
        DoubleDownConfig.from_mapping({"shuffling": "shuffler"}),
        SeededShuffle(1),
        cut_position=lambda: 26,
    )
    offered = []
    for _ in range(4):
        rnd = table.new_round()
        for area in (2, 4, 6):
            rnd.apply(PlaceBet(area, TEN))
        rnd.run_dealer()
        offered.append(rnd.cut_offered_to)
        rnd.apply(DeclineCut(rnd.cut_offered_to or 0))
        rnd.apply(DealerCut(table.cut_position()))
        stand_all(rnd)
        table.finish(rnd)
    assert offered == [2, 6, 4, 2]  # first player at a new game, then farthest right, rotating


def test_17_11_f_shuffler_removed_before_shuffling_by_hand() -> None:
    from felt.games.double_down import DoubleDownTable

    table = DoubleDownTable(DoubleDownConfig.from_mapping({"shuffling": "shuffler"}))
    with pytest.raises(FeltError, match=r"17.11\(f\)"):
        table.change_shuffling("manual")
    table.remove_shuffler()
    table.change_shuffling("manual")
    assert table.config.shuffling == "manual"


def test_17_2_b_second_deck_needs_a_shuffler() -> None:
    with pytest.raises(FeltError, match=r"17.2\(b\)"):
        DoubleDownConfig.from_mapping({"decks": 2, "shuffling": "manual"})


def test_play_double_down_with_scripted_answers() -> None:
    from felt.games.double_down.play import play_double_down

    answers = iter(["10", "", "d", "5", "20", "s", "q"])
    out: list[str] = []
    table = play_double_down(DoubleDownConfig.from_mapping({"shuffling": "shuffler"}), seats=2, seed=3,
                             ask=lambda _: next(answers), say=out.append, symbols=False)  # fmt: skip
    assert table.rounds_played == 2
    assert any("counting every card on the table" in line for line in out)
    assert "goodbye" in out[-1]
