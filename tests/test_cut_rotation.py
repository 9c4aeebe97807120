"""Who is offered the cut, round after round (N.J.A.C. 19:47-17.4(c)-(f)).

Worked from the text: 17.4(d)1 gives the cut to "the first player to the table, if the game is
just beginning" (the area whose wager was placed first); from the next round 17.4(d)2 gives it to
"the player at the farthest position to the right of the dealer" (the highest-numbered area with
a wager), and over consecutive rounds it "shall rotate in a counterclockwise manner" after that
player: to the next lower-numbered area with a wager, wrapping round to the farthest right.
17.4(c): "If no player accepts the cut, the dealer shall cut the cards"; the rotation goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from felt.cli.script import report, run_script
from felt.core.errors import FeltError
from felt.games.double_down import DoubleDownConfig, DoubleDownRound, DoubleDownTable
from felt.games.double_down.actions import (
    DealerCut,
    DeclineCut,
    PlaceBet,
    PlayerCut,
    RequireRecut,
    Stand,
)
from felt.rounds.actions import DecisionTimeout
from felt.rounds.shuffle import SeededShuffle

TEN = 1000
Bet = int | tuple[int, str]


def finish(rnd: DoubleDownRound) -> None:
    """The dealer deals; every area stands (17.8(c)); the dealer settles."""
    rnd.run_dealer()
    for area, _ in rnd.pending():
        rnd.apply(Stand(area))
    rnd.run_dealer()
    assert rnd.finished


def play_round(table: DoubleDownTable, bets: Sequence[Bet], *, accept: bool) -> DoubleDownRound:
    """One round: wagers in the order given (the first is the first to arrive), the offer
    accepted or declined, then dealt and settled; replay must rebuild it exactly."""
    rnd = table.new_round()
    for bet in bets:
        area, player = bet if isinstance(bet, tuple) else (bet, None)
        rnd.apply(PlaceBet(area, TEN, player))
    rnd.run_dealer()
    offered = rnd.cut_offered_to
    assert offered is not None
    if accept:
        rnd.apply(PlayerCut(offered, 20))
    else:
        rnd.apply(DeclineCut(offered))
        rnd.apply(DealerCut(table.cut_position()))
    finish(rnd)
    table.finish(rnd)
    again = DoubleDownRound.replay(
        rnd.config, rnd.deck, rnd.actions, new_game=rnd.new_game, last_offered=rnd.last_offered
    )
    assert again.events == rnd.events
    return rnd


def offers(
    rounds: Sequence[Sequence[Bet]], *, accept: bool = False, **settings: Any
) -> list[int | None]:
    table = DoubleDownTable(
        DoubleDownConfig.from_mapping({"shuffling": "shuffler", **settings}),
        SeededShuffle(5),
        cut_position=lambda: 26,
    )
    return [play_round(table, bets, accept=accept).cut_offers()[0] for bets in rounds]


SAME = [1, 3, 5]


@pytest.mark.parametrize(
    ("rounds", "expected"),
    [
        # first arrival at area 1: 1 (d)1; 5 farthest right (d)2; then 3, 1, and round to 5
        pytest.param([[1, 3, 5]] + [SAME] * 4, [1, 5, 3, 1, 5], id="first-arrival-area-1"),
        # first arrival at a middle area: 3 (d)1; 5 farthest right; then 3, 1, 5
        pytest.param([[3, 1, 5]] + [SAME] * 4, [3, 5, 3, 1, 5], id="first-arrival-middle"),
        # first arrival at the farthest right: 5 (d)1, and 5 again as the farthest right (d)2
        pytest.param([[5, 1, 3]] + [SAME] * 4, [5, 5, 3, 1, 5], id="first-arrival-farthest-right"),
        # areas vacated and joined: 4 (d)1; 6; area 2 leaves and 7 joins: 4 (next lower than 6);
        # 7 (wrapping); area 6 leaves and 1 joins: 4; 1; area 1 (last offered) leaves: 7
        pytest.param(
            [[4, 2, 6], [2, 4, 6], [4, 6, 7], [4, 6, 7], [1, 4, 7], [1, 4, 7], [4, 7]],
            [4, 6, 4, 7, 4, 1, 7],
            id="areas-vacated-and-joined",
        ),
        # the farthest-right player leaves before round 2: the farthest right is then area 4
        pytest.param([[2, 4, 6], [2, 4], [2, 4]], [2, 4, 2], id="farthest-right-left"),
        # a single player is offered every cut
        pytest.param([[3], [3], [3]], [3, 3, 3], id="one-player"),
    ],
)
def test_17_4_d_cut_offer_sequence(rounds: Sequence[Sequence[Bet]], expected: list[int]) -> None:
    assert offers(rounds) == expected
    assert offers(rounds, accept=True) == expected  # the offer rotates, whoever cuts


def test_17_4_c_d_declined_cut_is_made_by_the_dealer_and_the_rotation_goes_on() -> None:
    """17.4(c): a declined offer passes to no other player: the dealer cuts.  The next round's
    offer continues the rotation from the player who declined."""
    table = DoubleDownTable(
        DoubleDownConfig.from_mapping({"shuffling": "shuffler"}), SeededShuffle(2)
    )
    rnd = table.new_round()
    for area in (3, 1, 5):
        rnd.apply(PlaceBet(area, TEN))
    rnd.run_dealer()
    assert rnd.pending() == [(3, "cut or decline")]
    rnd.apply(DeclineCut(3))
    assert rnd.pending() == []
    with pytest.raises(FeltError, match="area 1: the cut is for the dealer"):
        rnd.apply(PlayerCut(1, 20))
    assert rnd.next_dealer_action() == DealerCut()
    rnd.apply(DealerCut(30))
    assert rnd.cutter == 0
    finish(rnd)
    table.finish(rnd)
    later = [play_round(table, SAME, accept=False).cut_offers()[0] for _ in range(3)]
    assert later == [5, 3, 1]


def test_17_4_c_d_cut_offer_not_answered_in_time_is_declined() -> None:
    """A player whose decision time runs out on the offer has not accepted it (17.4(c))."""
    table = DoubleDownTable(
        DoubleDownConfig.from_mapping({"shuffling": "shuffler"}), SeededShuffle(2)
    )
    rnd = table.new_round()
    rnd.apply(PlaceBet(2, TEN))
    rnd.run_dealer()
    event = rnd.apply(DecisionTimeout(2))
    assert [e.kind for e in event.effects] == ["timeout", "cut declined"]
    assert "deemed to decline the cut" in event.effects[0].detail
    assert rnd.next_dealer_action() == DealerCut()


def test_17_4_d_player_with_two_areas_is_offered_once_per_turn() -> None:
    """17.6(c): a player may wager on two adjacent areas; the offer rotates among players, so it
    passes over the second area of the player last offered."""
    bets: list[Bet] = [(3, "bob"), (1, "cy"), (5, "ann"), (6, "ann")]
    assert offers([bets] * 5, two_areas=True) == [3, 6, 3, 1, 6]


def test_17_4_d1_g_game_begins_again_once_the_table_is_empty() -> None:
    """17.4(g): with no gaming activity the cards are spread for the next player to arrive, who is
    "the first player to the table" of a game just beginning (17.4(d)1)."""
    table = DoubleDownTable(
        DoubleDownConfig.from_mapping({"shuffling": "shuffler"}),
        SeededShuffle(4),
        cut_position=lambda: 26,
    )
    first = [play_round(table, SAME, accept=True).cut_offers()[0] for _ in range(2)]
    table.no_gaming_activity()
    again = [
        play_round(table, bets, accept=True).cut_offers()[0] for bets in ([5, 3], [3, 5], [3, 5])
    ]
    assert first + again == [1, 5, 5, 5, 3]


def test_17_4_f_recut_by_the_next_person_entitled_continues_the_rotation() -> None:
    """17.4(f): at a new game the next person entitled after the first player is the farthest
    right (17.4(d)2); that offer starts the rotation, so the next round goes counterclockwise."""
    table = DoubleDownTable(
        DoubleDownConfig.from_mapping({"shuffling": "shuffler", "recut_by": "next"}),
        SeededShuffle(6),
    )
    rnd = table.new_round()
    for area in (3, 1, 5):
        rnd.apply(PlaceBet(area, TEN))
    rnd.run_dealer()
    rnd.apply(PlayerCut(3, 20))
    rnd.apply(RequireRecut())
    assert rnd.pending() == [(5, "cut or decline")]
    rnd.apply(PlayerCut(5, 25))
    finish(rnd)
    table.finish(rnd)
    assert table.last_offered == 5
    assert play_round(table, SAME, accept=True).cut_offers() == [3]


def test_17_4_f_recut_after_a_dealers_cut_goes_to_the_next_player_entitled() -> None:
    """17.4(f) with recut by "the next person entitled ... as determined by (c) and (d)": the dealer
    cut because area 3, first to the table at a new game, declined (17.4(c)); the recut is offered
    to the next player entitled, the farthest right (17.4(d)2), area 5, not made by the dealer."""
    table = DoubleDownTable(
        DoubleDownConfig.from_mapping({"shuffling": "shuffler", "recut_by": "next"}),
        SeededShuffle(6),
    )
    rnd = table.new_round()
    for area in (3, 1, 5):
        rnd.apply(PlaceBet(area, TEN))
    rnd.run_dealer()
    rnd.apply(DeclineCut(3))
    rnd.apply(DealerCut(20))
    rnd.apply(RequireRecut())
    assert rnd.pending() == [(5, "cut or decline")]
    rnd.apply(PlayerCut(5, 25))
    finish(rnd)
    assert rnd.finished


def dd_script(**kw: Any) -> dict[str, Any]:
    return {
        "game": "double-down-stud",
        "table": {"shuffling": "shuffler"},
        "wagers": {"1": {"wager": 10}, "3": {"wager": 10}, "5": {"wager": 10}},
        **kw,
    }


def test_17_4_d_round_script_carries_what_the_rotation_needs() -> None:
    """A script names the first player to the table (17.4(d)1) and where the rotation stands
    (17.4(d)2); its report says where the next round's rotation starts."""
    one = run_script(dd_script(first_to_table=3))
    assert isinstance(one, DoubleDownRound)
    cut = report(one)["cut"]
    assert cut == {"new_game": True, "last_offered": None, "first_to_table": 3,
                   "offered_to": [3], "next_last_offered": None}  # fmt: skip
    # nobody answered the offer or chose to double: timed out, recorded, replayed exactly
    assert {"dealer": "timeout", "seat": 3} in report(one)["actions"]
    again = DoubleDownRound.replay(one.config, one.deck, one.actions, new_game=True)
    assert again.events == one.events
    two = run_script(dd_script(new_game=False, last_offered=cut["next_last_offered"]))
    assert report(two)["cut"]["offered_to"] == [5]
    three = run_script(
        dd_script(new_game=False, last_offered=report(two)["cut"]["next_last_offered"])
    )
    assert report(three)["cut"]["offered_to"] == [3]
    with pytest.raises(FeltError, match="field 'first_to_table' must be a betting area in"):
        run_script(dd_script(first_to_table=2))
    with pytest.raises(FeltError, match="field 'last_offered' continues the rotation"):
        run_script(dd_script(last_offered=5))
    with pytest.raises(FeltError, match="field 'first_to_table' applies at a new game"):
        run_script(dd_script(new_game=False, first_to_table=3))
