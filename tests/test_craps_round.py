"""The craps roll engine (N.J.A.C. 19:47-1): one roll per round, the layout carried by the table.

Oracles: amounts worked by hand from the posted odds (a $12 place 6 at 7 to 6 wins $14; a horn
of $4 at 27 to 4 on a 2 wins $27), the come out rules of 1.2(a)1-4 read off the text, and for
the random sequences the ledger itself (chips neither made nor lost: every seat's result is the
house's loss; the layout account holds exactly the wagers on the layout) and replay from each
roll's recorded origin.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from felt.core.errors import FeltError
from felt.games.craps.actions import Bet, CallOff, CallOn, InvalidRoll, PassDice, Roll, TakeDown
from felt.games.craps.config import CrapsConfig
from felt.games.craps.dice import FixedDice, SeededDice, SystemDice
from felt.games.craps.round import CrapsRound, Phase, round_from_origin
from felt.games.craps.spots import SPOTS
from felt.games.craps.table import CrapsTable
from felt.games.registry import table_game
from felt.rounds.actions import NoMoreBets
from felt.rounds.engine import HOUSE, LAYOUT, seat_party

CONFIG = CrapsConfig.from_mapping({})
GAME = table_game("craps")


def table(*throws: tuple[int, int], **settings: Any) -> CrapsTable:
    config = CrapsConfig.from_mapping(settings) if settings else CONFIG
    return CrapsTable(config, dice=FixedDice(throws))


def results(rnd: CrapsRound) -> list[tuple[int, str, str, int]]:
    return [(x.seat, x.wager, x.outcome, x.amount) for x in rnd.lines]


def point_table(point: int = 6, **bets: int) -> CrapsTable:
    """A table with ann's $10 pass on the point ``point``."""
    t = table()
    dice = {4: (1, 3), 5: (2, 3), 6: (2, 4), 8: (3, 5), 9: (4, 5), 10: (4, 6)}[point]
    t.roll([Bet(1, "pass", 1000, "ann")], dice)
    assert t.point == point
    return t


def phase_of(rnd: CrapsRound) -> Phase:
    """The round's phase, read afresh (a type checker would keep an earlier assert's narrowing)."""
    return rnd.phase


# ----------------------------------------------------------------- phases and the dice
def test_one_roll_is_one_round_betting_closed_complete() -> None:
    t = table()
    rnd = t.new_round()
    assert phase_of(rnd) is Phase.BETTING
    assert rnd.number == 1
    assert rnd.come_out
    assert rnd.next_dealer_action() is None  # nothing on the layout yet
    rnd.apply(Bet(1, "pass", 1000, "ann"))
    assert rnd.next_dealer_action() == NoMoreBets()
    rnd.apply(NoMoreBets())
    assert phase_of(rnd) is Phase.CLOSED
    assert rnd.shooter == 1
    assert rnd.next_dealer_action() == Roll()
    rnd.apply(Roll(5, 6))
    assert rnd.finished
    assert rnd.dice == (5, 6)
    assert results(rnd) == [(1, "Pass", "win", 1000)]
    t.finish(rnd)
    assert t.rolls_played == 1
    assert t.new_round().number == 2


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3, 9), (True, 2)])
def test_roll_dice_are_each_1_to_6(dice: tuple[int, int]) -> None:
    rnd = table().new_round()
    rnd.apply(Bet(1, "pass", 1000))
    rnd.apply(NoMoreBets())
    with pytest.raises(FeltError, match="1 to 6"):
        rnd.apply(Roll(*dice))
    with pytest.raises(FeltError, match="both dice"):
        rnd.apply(Roll())


def test_system_dice_cover_every_face_and_seeded_dice_repeat() -> None:
    faces = {d for _ in range(400) for d in SystemDice().throw()}
    assert faces == {1, 2, 3, 4, 5, 6}
    assert [SeededDice(3).throw() for _ in range(1)] == [SeededDice(3).throw()]
    with pytest.raises(FeltError, match="all used"):
        FixedDice([]).throw()


def test_invalid_roll_is_no_roll_and_the_shooter_throws_again_1_9() -> None:
    """1.9 (title only): nothing is decided; the roll stays closed until a valid throw."""
    rnd = table().new_round()
    rnd.apply(Bet(1, "field", 100))
    rnd.apply(Bet(1, "pass", 1000))
    with pytest.raises(FeltError, match="invalid roll"):
        rnd.apply(InvalidRoll())  # before "no more bets" no throw was made
    rnd.apply(NoMoreBets())
    rnd.apply(InvalidRoll())
    assert phase_of(rnd) is Phase.CLOSED
    assert rnd.lines == []
    assert rnd.invalid_rolls == 1
    assert rnd.seats[1].wagers == {"field": 100, "pass": 1000}
    rnd.apply(Roll(1, 1))
    assert results(rnd) == [(1, "Pass", "lose", -1000), (1, "Field", "win", 200)]


# ----------------------------------------------------------------- 1.2(a)1-4: the line
@pytest.mark.parametrize(
    ("dice", "pass_", "dont"),
    [((3, 4), "win", "lose"), ((5, 6), "win", "lose"), ((1, 1), "lose", "win"),
     ((1, 2), "lose", "win"), ((6, 6), "lose", "void")],
)  # fmt: skip
def test_come_out_roll_decides_pass_and_dont_pass_1_2_a_1_and_2(
    dice: tuple[int, int], pass_: str, dont: str
) -> None:
    """1.2(a)1 i, iii(1); 2 i, iii(1), iv: don't pass is void (returned) on a 12."""
    rnd = table().roll([Bet(1, "pass", 1000), Bet(2, "dont_pass", 1000)], dice)
    got = {x.wager: x.outcome for x in rnd.lines}
    assert got == {"Pass": pass_, "Don't pass": dont}
    assert rnd.net(2) == {"win": 1000, "lose": -1000, "void": 0}[dont]


def test_point_made_wins_pass_and_seven_out_passes_the_dice_1_2_a_1_ii_1_11() -> None:
    t = point_table(6)
    rnd = t.roll([], (1, 4))  # a 5: nothing decided
    assert rnd.lines == []
    assert t.point == 6
    rnd = t.roll([], (3, 3))
    assert results(rnd) == [(1, "Pass", "win", 1000)]
    assert t.point is None
    t.roll([Bet(1, "pass", 1000), Bet(3, "pass", 1000, "cy")], (4, 4))
    assert t.shooter == 1
    assert t.point == 8
    rnd = t.roll([], (3, 4))  # seven out
    assert results(rnd) == [(1, "Pass", "lose", -1000), (3, "Pass", "lose", -1000)]
    nxt = t.new_round()
    nxt.apply(Bet(1, "pass", 1000))
    nxt.apply(Bet(3, "pass", 1000))
    assert nxt.next_shooter() == 3  # clockwise from the shooter who sevened out (1.11)


def test_dont_come_void_on_12_and_come_travels_to_its_point_1_2_a_3_and_4() -> None:
    t = point_table(6)
    rnd = t.roll([Bet(2, "dont_come", 1000, "bob"), Bet(3, "come", 1000, "cy")], (6, 6))
    assert results(rnd) == [(2, "Don't come", "void", 0), (3, "Come", "lose", -1000)]
    t.roll([Bet(3, "come", 1000), Bet(3, "come", 500)], (2, 3))
    assert t.layout()[3] == {"come_5": 1500}
    t.roll([Bet(3, "come", 1000)], (1, 4))  # the come 5 wins first, then the new come
    assert t.layout()[3] == {"come_5": 1000}  # 1500 won on the 5; the new come moved there


def test_come_odds_off_on_come_out_returned_on_a_seven_1_6() -> None:
    """Come odds do not work on a come out roll unless called on (as dealt); the come wager
    itself loses to the 7 and its odds are returned."""
    t = point_table(6)
    t.roll([Bet(1, "come", 1000)], (2, 2))  # come to 4
    t.roll([Bet(1, "come_4_odds", 3000)], (3, 3))  # pass wins on 6: the next roll comes out
    rnd = t.roll([Bet(1, "pass", 1000)], (3, 4))
    got = {x.wager: (x.outcome, x.amount) for x in rnd.lines}
    assert got == {"Pass": ("win", 1000), "Come 4": ("lose", -1000),
                   "Odds on come 4": ("push", 0)}  # fmt: skip


# ----------------------------------------------------------------- payouts worked by hand
@pytest.mark.parametrize(
    ("bet", "dice", "outcome", "amount", "stays"),
    [
        (Bet(1, "place_6", 1200), (2, 4), "win", 1400, True),  # 7 to 6
        (Bet(1, "place_4", 1000), (1, 3), "win", 1800, True),  # 9 to 5
        (Bet(1, "place_lose_4", 1100), (3, 4), "win", 500, True),  # 5 to 11
        (Bet(1, "buy_4", 1000), (2, 2), "win", 2000, True),  # true odds 2 to 1, no vig (1.5)
        (Bet(1, "lay_4", 2000), (3, 4), "win", 1000, True),  # 1 to 2
        (Bet(1, "hard_6", 100), (3, 3), "win", 900, True),  # 9 to 1
        (Bet(1, "hard_6", 100), (2, 4), "lose", -100, False),  # easy six
        (Bet(1, "field", 100), (1, 1), "win", 200, False),  # 2 at 2 to 1
        (Bet(1, "field", 100), (4, 4), "lose", -100, False),
        (Bet(1, "horn", 400), (1, 1), "win", 2700, False),  # 27 to 4
        (Bet(1, "horn", 400), (5, 6), "win", 1200, False),  # 3 to 1
        (Bet(1, "craps_eleven", 100), (1, 2), "win", 300, False),
        (Bet(1, "any_seven", 100), (3, 4), "win", 400, False),
        (Bet(1, "eleven", 100), (5, 6), "win", 1500, False),
        (Bet(1, "craps_12", 100), (6, 6), "win", 3000, False),
    ],
)
def test_payouts_by_hand_1_4_and_1_5(
    bet: Bet, dice: tuple[int, int], outcome: str, amount: int, stays: bool
) -> None:
    t = point_table(8)  # a point, so every wager works
    rnd = t.roll([bet], dice)
    mine = [x for x in rnd.lines if x.wager != "Pass"]
    assert [(x.outcome, x.amount) for x in mine] == [(outcome, amount)]
    assert (bet.spot in t.layout().get(1, {})) == stays


def test_statement_line_cites_and_states_odds_to() -> None:
    rnd = point_table(8).roll([Bet(1, "place_6", 1200)], (2, 4))
    (line,) = rnd.lines
    assert line.wager == "Place 6 to win"
    assert line.clause == "N.J.A.C. 19:47-1.2(a)5"
    assert line.odds == "7 to 6"


def test_pass_odds_pay_true_odds_and_lay_odds_their_inverse_1_6() -> None:
    t = point_table(5)
    t.roll([], (1, 1))  # a 2: the point stays
    rnd = t.roll([Bet(1, "pass_odds", 4000)], (2, 3))
    got = {x.wager: x.amount for x in rnd.lines}
    assert got == {"Pass": 1000, "Odds on pass": 6000}  # 3 to 2


# ----------------------------------------------------------------- 1.3: made and taken down
def test_pass_is_refused_once_a_point_is_set_and_come_before_1_2_a_1_and_3() -> None:
    rnd = table().new_round()
    with pytest.raises(FeltError, match=r"come: a come bet is made only after the come out roll"):
        rnd.apply(Bet(1, "come", 1000))
    rnd2 = point_table(6).new_round()
    with pytest.raises(FeltError, match="immediately prior to the come out roll"):
        rnd2.apply(Bet(2, "pass", 1000))
    with pytest.raises(FeltError, match="never bet directly"):
        rnd2.apply(Bet(2, "come_6", 1000))


def test_pass_on_a_point_and_come_on_its_point_are_contract_wagers_1_3() -> None:
    t = point_table(6)
    t.roll([Bet(1, "come", 1000)], (2, 2))
    rnd = t.new_round()
    for sid in ("pass", "come_4"):
        with pytest.raises(FeltError, match="contract wager"):
            rnd.apply(TakeDown(1, sid))
    assert "pass" not in rnd.allowed(1)["take_down"]


def test_dont_pass_may_be_taken_down_but_not_made_again_on_a_point_1_3() -> None:
    rnd = table().new_round()
    rnd.apply(Bet(1, "pass", 1000))
    rnd.apply(Bet(2, "dont_pass", 1000))
    rnd.apply(NoMoreBets())
    rnd.apply(Roll(2, 2))
    t = table()
    t.history.append(rnd)
    t.finish(rnd)
    nxt = t.new_round()
    nxt.apply(TakeDown(2, "dont_pass", 500))
    assert nxt.seats[2].wagers == {"dont_pass": 500}
    with pytest.raises(FeltError, match="immediately prior"):
        nxt.apply(Bet(2, "dont_pass", 500))
    nxt.apply(TakeDown(2, "dont_pass"))
    assert nxt.ledger.balance(seat_party(2)) == 1000


def test_place_bets_off_on_come_out_unless_called_on_1_2_a_5() -> None:
    t = point_table(6)
    t.roll([Bet(1, "place_8", 1200), Bet(2, "place_5", 1000)], (3, 3))  # pass wins
    rnd = t.new_round()
    assert rnd.come_out
    assert not rnd.working(1, "place_8")
    assert "place_8" in rnd.allowed(1)["call_off"]  # so that it stays off once a point is set
    assert "place_8" in rnd.allowed(1)["call_on"]
    rnd.apply(CallOn(2, "place_5"))
    assert rnd.working(2, "place_5")
    rnd.apply(Bet(1, "pass", 1000))
    rnd.apply(NoMoreBets())
    rnd.apply(Roll(1, 4))  # a 5: the called-on place 5 wins; place 8 is off
    assert results(rnd) == [(2, "Place 5 to win", "win", 1400)]


def test_call_off_keeps_a_wager_out_of_the_roll_and_line_wagers_cannot_be_called() -> None:
    t = point_table(6)
    rnd = t.new_round()
    rnd.apply(Bet(2, "hard_8", 100))
    rnd.apply(CallOff(2, "hard_8"))
    with pytest.raises(FeltError, match="cannot be called off"):
        rnd.apply(CallOff(1, "pass"))
    rnd.apply(NoMoreBets())
    rnd.apply(Roll(3, 4))
    assert [x.wager for x in rnd.lines] == ["Pass"]
    assert rnd.seats[2].wagers == {"hard_8": 100}


def test_limits_odds_multiple_and_payable_in_full_1_4_1_6() -> None:
    rnd = point_table(6).new_round()
    with pytest.raises(FeltError, match=r"whole number of 0.06.*bet 12.00 or 12.06"):
        rnd.apply(Bet(2, "place_6", 1205))
    with pytest.raises(FeltError, match=r"bet 5\.04 instead of 5\.00$"):  # 4.98 is under $5
        rnd.apply(Bet(2, "place_6", 500))
    with pytest.raises(FeltError, match=r"5\.00 to 5000.00"):
        rnd.apply(Bet(2, "place_6", 300))
    with pytest.raises(FeltError, match=r"at most 50\.00"):
        rnd.apply(Bet(1, "pass_odds", 5500))  # 5x on a 6
    with pytest.raises(FeltError, match=r"1\.00 to 5000.00"):
        rnd.apply(Bet(2, "field", 50))
    rnd.apply(Bet(1, "pass_odds", 5000))


def test_lay_odds_are_capped_by_the_win_1_6() -> None:
    """3-4-5x: a don't player lays up to 6x the flat wager on a 4 (the win 3x)."""
    t = table()
    t.roll([Bet(1, "dont_pass", 1000)], (1, 3))
    rnd = t.new_round()
    with pytest.raises(FeltError, match=r"at most 60\.00"):
        rnd.apply(Bet(1, "dont_pass_odds", 6200))
    rnd.apply(Bet(1, "dont_pass_odds", 6000))


# ----------------------------------------------------------------- the shooter (1.11)
def test_no_roll_without_a_shooter_on_the_come_out_1_11() -> None:
    rnd = table().new_round()
    rnd.apply(Bet(1, "field", 100))
    assert rnd.next_dealer_action() is None
    assert "shooter" in (rnd.waiting() or "")
    with pytest.raises(FeltError, match="waiting for a shooter"):
        rnd.apply(NoMoreBets())


def test_passing_the_dice_goes_clockwise_1_11() -> None:
    rnd = table().new_round()
    for seat in (2, 5, 9):
        rnd.apply(Bet(seat, "pass", 1000))
    assert rnd.next_shooter() == 2
    with pytest.raises(FeltError, match="does not hold the dice"):
        rnd.apply(PassDice(5))
    rnd.apply(PassDice(2))
    assert rnd.next_shooter() == 5
    rnd.apply(NoMoreBets())
    assert rnd.shooter == 5
    with pytest.raises(FeltError, match="come out roll only"):
        rnd.apply(PassDice(5))


def test_the_only_line_seat_may_not_pass_the_dice_1_11() -> None:
    """Passing the dice when no other seat has a pass or don't pass wager to take them would
    leave the come out roll with no shooter: refused, nothing changed."""
    rnd = table().new_round()
    rnd.apply(Bet(1, "pass", 1000))
    rnd.apply(Bet(2, "field", 100))  # a seat with no line wager cannot take the dice
    with pytest.raises(
        FeltError,
        match=r"^seat 1: no other seat has a pass or don't pass wager to take the dice "
        r"\(N\.J\.A\.C\. 19:47-1\.11\)",
    ):
        rnd.apply(PassDice(1))
    assert rnd.declined == []
    assert rnd.next_dealer_action() == NoMoreBets()


def test_a_seat_that_passed_the_dice_takes_them_back_with_a_new_line_wager_1_11() -> None:
    """Seat 1 passes to seat 2, whose pass is then taken down: no shooter, and the table says
    how to go on; seat 1's next pass wager makes it the shooter again."""
    rnd = table().new_round()
    rnd.apply(Bet(1, "pass", 1000))
    rnd.apply(Bet(2, "pass", 1000))
    rnd.apply(PassDice(1))
    assert rnd.next_shooter() == 2
    rnd.apply(TakeDown(2, "pass"))
    assert rnd.next_dealer_action() is None
    assert rnd.waiting() == (
        "waiting for a shooter: a pass or don't pass wager (seat 1 passed the dice: its next "
        "pass or don't pass wager takes them back)"
    )
    rnd.apply(Bet(1, "dont_pass", 500))
    assert rnd.declined == []
    assert rnd.next_shooter() == 1
    rnd.apply(NoMoreBets())
    assert rnd.shooter == 1


def test_a_seat_whose_wagers_are_all_taken_down_leaves_the_roll_1_3() -> None:
    """Nothing of seat 2's left on the layout and no statement line: the seat is not in the
    roll (a server lets its player stand), and the chips are back in its player's hands."""
    rnd = point_table(6).new_round()
    rnd.apply(Bet(2, "place_8", 1200, "bob"))
    rnd.apply(Bet(2, "hard_8", 100))
    rnd.apply(TakeDown(2, "place_8"))
    assert 2 in rnd.seats
    rnd.apply(TakeDown(2, "hard_8"))
    assert 2 not in rnd.seats
    assert rnd.ledger.balance(seat_party(2)) == 0
    rnd.apply(NoMoreBets())
    rnd.apply(Roll(4, 4))
    assert [x.seat for x in rnd.lines] == []


# ----------------------------------------------------------------- the record
def test_refused_action_changes_nothing() -> None:
    rnd = point_table(6).new_round()
    rnd.apply(Bet(2, "place_8", 1200))
    before = (rnd.copy().__dict__.copy(), len(rnd.events))
    for bad in (Bet(2, "place_8", 1), TakeDown(1, "pass"), CallOn(2, "field"), Roll(3, 4)):
        with pytest.raises(FeltError):
            rnd.apply(bad)
    assert len(rnd.events) == before[1]
    assert rnd.seats[2].wagers == {"place_8": 1200}
    assert phase_of(rnd) is Phase.BETTING


def random_session(seed: int, rolls: int = 60) -> list[CrapsRound]:
    """A table of four players betting at random (refusals skipped), ``rolls`` rolls."""
    rng = random.Random(seed)
    t = CrapsTable(CONFIG, dice=SeededDice(seed))
    played: list[CrapsRound] = []
    ids = [s.id for s in SPOTS]
    for _ in range(rolls):
        rnd = t.new_round()
        for _ in range(rng.randrange(8)):
            seat = rng.randrange(1, 5)
            kind = rng.random()
            action: Any
            if kind < 0.6:
                amount = rng.choice((100, 500, 600, 1000, 1200, 2000, 3000))
                action = Bet(seat, rng.choice(ids[:6] if rng.random() < 0.4 else ids), amount)
            elif kind < 0.8:
                action = TakeDown(seat, rng.choice(ids), rng.choice((None, 500)))
            else:
                action = rng.choice((CallOn, CallOff))(seat, rng.choice(ids))
            if rnd.can(action):
                rnd.apply(action)
        if not rnd.can(NoMoreBets()):
            rnd.apply(Bet(1, "pass" if rnd.point is None else "place_6", 1200))
        rnd.apply(NoMoreBets())
        if rng.random() < 0.05:
            rnd.apply(InvalidRoll())
        rnd.apply(Roll(*t.throw()))
        t.finish(rnd)
        played.append(rnd)
    return played


@pytest.mark.parametrize("seed", range(6))
def test_chips_are_conserved_and_the_layout_holds_the_wagers(seed: int) -> None:
    """Property: over every roll, the house's balance is minus the seats' results plus the
    chips they left on the layout; the layout account equals the wagers on it."""
    played = random_session(seed)
    layout = house = 0
    seats: dict[int, int] = {}
    for rnd in played:
        layout += rnd.ledger.balance(LAYOUT)
        house += rnd.ledger.balance(HOUSE)
        for n in range(1, 5):
            seats[n] = seats.get(n, 0) + rnd.ledger.balance(seat_party(n))
        on = sum(v for s in rnd.seats.values() for v in s.wagers.values())
        assert layout == on
        assert house + layout + sum(seats.values()) == 0
        assert house == -sum(x.amount for r in played[: played.index(rnd) + 1] for x in r.lines)


@pytest.mark.parametrize("seed", range(4))
def test_replay_from_each_origin_rebuilds_the_roll_and_the_next_origin(seed: int) -> None:
    """Each roll replayed from its recorded origin (JSON, as the server stores it) through the
    game interface equals the original, and what it leaves is the next roll's origin."""
    played = random_session(seed, 40)
    for rnd, nxt in itertools.pairwise(played):
        origin = GAME.round_origin(rnd)
        again = GAME.new_round(CONFIG, (), origin)
        assert isinstance(again, CrapsRound)
        for action in rnd.actions:
            again.apply(action)
        assert again.lines == rnd.lines
        assert again.ledger == rnd.ledger
        assert again.seats == rnd.seats
        assert again.point == rnd.point
        left = CrapsTable(CONFIG)
        left.history.append(again)
        left.rounds_played = rnd.number - 1
        left.finish(again)
        assert left.origin() == GAME.round_origin(nxt)


def test_origin_is_read_back_and_refused_when_malformed() -> None:
    t = point_table(6)
    origin = t.origin()
    assert round_from_origin(CONFIG, origin).origin_json() == origin
    with pytest.raises(FeltError, match="point must be"):
        round_from_origin(CONFIG, {**origin, "point": 7})
    snap = GAME.table_snapshot(t)
    again: Any = GAME.new_table(CONFIG, snap)
    assert again.layout() == t.layout()
    assert again.point == 6
    assert again.rounds_played == 1


# ----------------------------------------------------------------- the game interface
def test_electronic_table_dice_come_from_the_table_and_a_person_s_are_refused() -> None:
    t = table((6, 5))
    rnd = t.new_round()
    rnd.apply(Bet(1, "pass", 1000))
    rnd.apply(GAME.dealer_step(t, rnd) or NoMoreBets())
    step = GAME.dealer_step(t, rnd)
    assert step == Roll()
    with pytest.raises(FeltError, match="random number generator"):
        GAME.complete_action(t, Roll(3, 4))
    rnd.apply(GAME.complete_action(t, step))
    assert rnd.dice == (6, 5)
    assert rnd.actions[-1] == Roll(6, 5)  # the record holds the dice: replay never throws


def test_live_table_waits_for_the_stickperson_s_dice() -> None:
    t = table(dice="entered")
    rnd = t.new_round()
    rnd.apply(Bet(1, "pass", 1000))
    rnd.apply(NoMoreBets())
    assert GAME.dealer_step(t, rnd) is None
    with pytest.raises(FeltError, match="stickperson enters both dice"):
        GAME.complete_action(t, Roll())
    rnd.apply(GAME.complete_action(t, Roll(2, 2)))
    assert rnd.point == 4


def test_card_actions_and_elections_are_refused_with_what_craps_takes() -> None:
    for entry in ({"dealer": "deal"}, {"dealer": "settle"}, {"irregularity": "misdeal"}):
        with pytest.raises(FeltError, match="played with dice"):
            GAME.parse_action(entry, "x")
    assert GAME.parse_action({"irregularity": "invalid_roll"}, "x") == InvalidRoll()
    with pytest.raises(FeltError, match="no elections"):
        GAME.suggest(table().new_round(), 1, "anything")
    assert GAME.betting_closes_early(table().new_round(), {1}) is False


def test_seat_view_shows_the_whole_layout_what_the_seat_may_do_and_why_lines_settled() -> None:
    t = point_table(6)
    t.roll([Bet(2, "place_8", 1200, "bob")], (4, 4))
    rnd = t.new_round()
    view = GAME.seat_view(rnd, 2)
    assert view["point"] == 6
    assert view["shooter"] == 1
    assert view["come_out"] is False
    assert view["layout"]["1"]["pass"] == {"amount": "10.00", "working": True, "call": None,
                                           "player": "ann"}  # fmt: skip
    assert view["your_wagers"]["place_8"]["amount"] == "12.00"
    assert "come" in view["allowed"]["bet"]
    assert "pass" not in view["allowed"]["bet"]
    assert view["allowed"]["take_down"] == ["place_8"]
    assert view["allowed"]["call_off"] == ["place_8"]  # working, and may be called off
    assert view["allowed"]["call_on"] == ["place_8"]  # or on, for the come out rolls too
    assert view["rolls"][-1] == {"number": 2, "dice": [4, 4], "total": 8, "shooter": 1,
                                 "point_before": 6}  # fmt: skip
    rnd.apply(NoMoreBets())
    rnd.apply(Roll(3, 4))
    lines = GAME.seat_view(rnd, 1)["lines"]
    assert [x["reason"] for x in lines] == ["7 out: the point 6 did not come"]
    assert GAME.seat_view(rnd, 2)["lines"][0]["reason"] == "a 7 came before 8: the wager is lost"


def test_a_carried_layout_loads_after_the_tables_limits_change_1_3() -> None:
    """Chips on the layout were wagered under the limits of their day: a table whose minimum and
    odds multiple are changed while a $6 place 6 and $30 of odds lie on the layout still loads its
    layout (so a restarted server can run it), and settles them at the posted pays; only a wager
    no table could pay in full is refused on loading."""
    t = CrapsTable(CONFIG, dice=FixedDice([(2, 2), (3, 3), (2, 2)]))
    t.roll([Bet(1, "pass", 10_00, "ann")])  # point 4
    t.roll([Bet(1, "place_6", 6_00, "ann"), Bet(1, "pass_odds", 30_00, "ann")])  # a 6: +7
    origin = t.origin()
    strict = CrapsConfig.from_mapping({"minimum": "25.00", "odds": 1})
    rnd = round_from_origin(strict, origin)
    assert rnd.seats[1].wagers == {"pass": 10_00, "pass_odds": 30_00, "place_6": 6_00}
    unpayable = json.loads(json.dumps(origin))
    unpayable["seats"]["1"]["wagers"]["place_6"] = "5.00"
    with pytest.raises(FeltError, match=r"place_6.*payable in full"):
        round_from_origin(strict, unpayable)
