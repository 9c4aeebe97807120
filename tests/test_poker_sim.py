"""Simulated poker tables (felt.games.poker.simulation): bots play whole tables hand after hand
through PokerHand; every chip is checked after every step, the rake follows the table's rule
(14.14, title only), and a run repeats exactly from its seed.  Seconds, not minutes."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from felt.core.cards import new_deck
from felt.core.errors import FeltError
from felt.games.base import TableGame
from felt.games.poker.config import PercentRake, PokerConfig
from felt.games.poker.hand import Award, PokerHand
from felt.games.poker.simulation import (
    Decide,
    PokerSimulation,
    bots,
    check_chips,
    dealer_step,
    run_table,
)
from felt.rounds.shuffle import SeededShuffle

TABLES: list[dict[str, Any]] = [
    {},
    {"limit": "no", "min_buy_in": "10.00", "max_buy_in": "60.00"},
    {"variant": "omaha", "limit": "pot"},
    {"variant": "stud7", "ante": "0.25", "bring_in": "0.50", "seats": 8},
    {"rake": {"kind": "time", "per_half_hour": "5.00"}},
]


@pytest.mark.parametrize("settings", TABLES)
def test_14_14_chips_conserved_at_a_bot_table_with_all_ins_and_side_pots(
    settings: dict[str, Any],
) -> None:
    """Every step of every hand adds up (stacks + pot + rake = the start), and after every hand
    the table's stacks and the rake add up to every chip bought in; the rake of a hand is at most
    the cap, and a time-charge table rakes no pot."""
    config = PokerConfig.from_mapping(settings)
    run = run_table(config, hands=25, seats=6, seed=7)
    assert run.hands == 25
    assert run.conserved
    assert sum(run.stacks.values()) + run.rake + run.time_charged == run.bought
    assert run.steps > 25 * 6 * 2  # at least the hole cards were dealt
    if isinstance(config.rake, PercentRake):
        assert all(0 <= r <= config.rake.cap for r in run.rakes)
        assert run.rake > 0
    else:  # 25 hands of 2 minutes: one collection at 30 minutes, $5.00 from each of 6 seats
        assert run.rake == 0
        assert run.time_charged == 6 * 500


def _to_award(hand: PokerHand, decide: Decide) -> int:
    """Play ``hand`` until the award is the next step (chips checked at every step); the most
    pots it had at once."""
    most = 0
    while True:
        step = dealer_step(hand)
        if step is not None and step.name == "award":
            return most
        seat = hand.to_act()
        hand.do(step if step is not None else decide(hand, seat or 0))
        most = max(most, len(hand.pots()))
        check_chips(hand)


def test_14_14_no_flop_no_drop_and_the_cap_in_simulated_hands() -> None:
    """Each hand's rake is the table's rule worked here in integers on the pots at the award:
    nothing before a flop, floor(10% of the pots) up to $4.00 after one."""
    config = PokerConfig.from_mapping({"limit": "no"})
    shuffle = SeededShuffle("nfnd")
    decide = bots("nfnd")
    seen = {True: 0, False: 0}
    for _ in range(40):
        hand = PokerHand(config, {1: 20_000, 2: 5_000, 3: 20_000, 4: 900}, 1,
                         shuffle.shuffle(new_deck()))  # fmt: skip
        _to_award(hand, decide)
        pots = sum(amount for amount, _ in hand.pots())
        flop = hand.flop_seen()
        hand.do(Award())
        seen[flop] += 1
        assert hand.rake == (min(400, pots * 10 // 100) if flop else 0)
    assert seen[True]
    assert seen[False]


def test_all_in_hands_make_side_pots_in_the_simulation() -> None:
    """Short stacks against deep ones at no limit: some hands reach two or more pots (the
    property the chips check runs over)."""
    config = PokerConfig.from_mapping({"limit": "no"})
    shuffle = SeededShuffle("side")
    decide = bots("side")
    most_pots = 0
    for _ in range(60):
        hand = PokerHand(config, {1: 300, 2: 20_000, 3: 1_100, 4: 20_000}, 2,
                         shuffle.shuffle(new_deck()))  # fmt: skip
        most_pots = max(most_pots, _to_award(hand, decide))
        hand.do(Award())
        check_chips(hand)
    assert most_pots >= 2


def test_check_chips_refuses_a_hand_that_does_not_add_up() -> None:
    """The conservation check can fail: a rake out of nowhere is caught."""
    config = PokerConfig.from_mapping({})
    hand = PokerHand(config, {1: 5_000, 2: 5_000}, 1, SeededShuffle("x").shuffle(new_deck()))
    check_chips(hand)
    hand.rake = 1
    with pytest.raises(FeltError, match="chips not conserved"):
        check_chips(hand)


def test_a_run_repeats_from_its_seed() -> None:
    config = PokerConfig.from_mapping({"limit": "no"})
    a = run_table(config, hands=12, seats=4, seed=3)
    b = run_table(config, hands=12, seats=4, seed=3)
    c = run_table(config, hands=12, seats=4, seed=4)
    assert (a.rakes, a.stacks) == (b.rakes, b.stacks)
    assert (a.rakes, a.stacks) != (c.rakes, c.stacks)
    data = a.to_json()
    assert data["rake"] == sum(a.rakes)
    assert Fraction(data["rake_per_hand"]["exact"]) == Fraction(sum(a.rakes), 12)
    assert data["conserved"] is True


def test_run_table_refuses_a_table_it_cannot_seat() -> None:
    config = PokerConfig.from_mapping({"seats": 6})
    for seats in (1, 7):
        with pytest.raises(FeltError, match="2 to 6 seats"):
            run_table(config, hands=1, seats=seats)


def test_engine_path_nets_add_up_to_minus_the_rake() -> None:
    """The shared simulation's engine path: one hand per deck, each seat's net; the nets add up
    to minus the rake (0 to the cap), the same deck gives the same nets."""
    config = PokerConfig.from_mapping({})
    sim = PokerSimulation(config, TableGame())
    assert sim.max_seats() == 10
    shuffle = SeededShuffle("engine")
    raked = 0
    for _ in range(15):
        deck = shuffle.shuffle(new_deck())
        nets = sim.play_round(deck, 5, 0, None)
        assert len(nets) == 5
        assert -400 <= sum(nets) <= 0
        raked -= sum(nets)
        assert sim.play_round(deck, 5, 0, None) == nets
    assert raked > 0
    with pytest.raises(FeltError, match="at least 2 seats"):
        sim.play_round(shuffle.shuffle(new_deck()), 1, 0, None)
