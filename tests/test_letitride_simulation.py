"""Simulating Let It Ride Poker (issue 22): the compiled fast path gives every seat the round
engine's net on the same decks, whatever the seats, the cut, the pay table, the amount and the
payout limit, deciding by the exact analysis's tables; the engine path with the game's own
suggested play agrees too; the exact figures the simulation compares against are the par
sheet's."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from felt.core.cards import parse_cards
from felt.games.let_it_ride.actions import Wagers
from felt.games.let_it_ride.analysis import LINES, analyze, decisions
from felt.games.let_it_ride.config import LetItRideConfig
from felt.games.let_it_ride.game import GAME
from felt.games.let_it_ride.round import stacked_deck
from felt.games.let_it_ride.simulation import (
    RIDING,
    Decisions,
    LetItRideSimulation,
    pack_plan,
    unpack_plan,
)
from felt.games.let_it_ride.strategy import should_ride
from felt.simulate import Job, deal_decks, engine_nets, simulate

AMOUNT = 500


def fast_and_engine(
    config: LetItRideConfig, decks: np.ndarray, seats: int, amount: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each seat's net on ``decks`` by the fast path and by the round engine (deciding by the
    same tables), and the fast path's outcome cells."""
    sim = GAME.simulation(config)
    job = Job(config, amount, seats, 0, len(decks), sim.plan(amount, None))
    names, settle = sim.fast_path(job)
    assert names == list(LINES)
    cells = np.zeros((1, len(names), 4), dtype=np.int64)
    fast = settle(decks, cells)
    engine = engine_nets(config, decks, seats, sim.strategy(job), amount)
    return fast, engine, cells


@pytest.mark.parametrize(("seats", "rounds"), [(1, 800), (3, 300), (7, 150)])
def test_18_10_the_fast_path_nets_equal_the_engines_on_the_same_decks(
    seats: int, rounds: int
) -> None:
    """A shuffler's table (no cut): the compiled deal (the community area's first card burned,
    decisions.md 3), both decisions and the settlement (18.10, 18.11, titles only) give every
    seat the round engine's net exactly, and count every seat-round once."""
    config = LetItRideConfig.from_mapping({})
    decks = deal_decks(100 + seats, rounds, GAME.simulation(config).cards_needed(seats))
    fast, engine, cells = fast_and_engine(config, decks, seats, AMOUNT)
    assert fast.shape == (rounds, seats)
    assert np.array_equal(fast, engine)
    assert cells.sum() == rounds * seats
    assert cells[0, :, 0].sum()  # some take both back
    assert cells[0, :, 2].sum()  # some let both ride


@pytest.mark.parametrize("seats", [2, 7])
def test_18_5_the_fast_path_deals_past_the_engines_cut(seats: int) -> None:
    """A table shuffled by hand: the simulated dealer cuts (18.5, title only) where the engine's
    cut step does; the nets are the engine's exactly."""
    config = LetItRideConfig.from_mapping({"shuffling": "manual"})
    sim = GAME.simulation(config)
    assert isinstance(sim, LetItRideSimulation)
    assert sim.cut() == 26
    assert sim.cards_needed(seats) == 26 + 3 * (seats + 1)
    decks = deal_decks(300 + seats, 200, sim.cards_needed(seats))
    fast, engine, _ = fast_and_engine(config, decks, seats, AMOUNT)
    assert np.array_equal(fast, engine)


def test_18_11_a_richer_table_at_an_odd_amount_and_the_games_own_suggestion_agree() -> None:
    """A richer pay table (a pair of tens or better 3 to 2, two pair 5 to 2) at $12.35 a wager:
    each wager's win floored to the cent; the engine deciding by the game's own suggested play
    (:meth:`LetItRide.suggest`, which asks :func:`.strategy.should_ride`) nets the same."""
    config = LetItRideConfig.from_mapping(
        {"pays": {"tens or better": "3 to 2", "two pair": "5 to 2"}}
    )
    seats, amount = 3, 1235
    decks = deal_decks(41, 200, GAME.simulation(config).cards_needed(seats))
    fast, engine, _ = fast_and_engine(config, decks, seats, amount)
    assert np.array_equal(fast, engine)
    suggested = engine_nets(config, decks, seats, None, amount)
    assert np.array_equal(fast, suggested)
    assert (fast % 5 != 0).any()  # 3 to 2 on $12.35 is $18.52, floored


def test_18_11_the_payout_limit_binds_where_the_decisions_depend_on_each_other() -> None:
    """At $2,500 a wager (a table whose maximum allows it) the $50,000 payout limit (18.11)
    binds on a flush with three wagers riding, and the second decision depends on the first:
    the fast path holds every hand's wins to the limit as the round does."""
    config = LetItRideConfig.from_mapping({"maximum": "10000.00"})
    amount = 2500_00
    d = decisions(config, amount)
    assert (d.second[:, 0] != d.second[:, 1]).any()
    decks = deal_decks(77, 300, GAME.simulation(config).cards_needed(2))
    fast, engine, _ = fast_and_engine(config, decks, 2, amount)
    assert np.array_equal(fast, engine)


def test_18_11_a_royal_flush_at_100_is_held_to_the_limit_on_both_paths() -> None:
    """A royal flush with all three $100 wagers riding would win $300,000; the limit holds the
    hand to $50,000 (18.11); the seat beside it, a pair of aces, wins its wagers in full."""
    config = LetItRideConfig.from_mapping({})
    deck = stacked_deck(
        [parse_cards("As Ks Qs"), parse_cards("Ah Ac 4d")], parse_cards("Js Ts"), None
    )
    decks = np.array([[int(c) for c in deck]], dtype=np.uint8)
    fast, engine, cells = fast_and_engine(config, decks, 2, 100_00)
    assert fast.tolist() == engine.tolist() == [[50_000_00, 3 * 100_00]]
    assert cells[0, LINES.index("royal flush"), RIDING.index("three wagers")] == 1


def test_the_engine_path_places_the_three_wagers_alone() -> None:
    sim = GAME.simulation(LetItRideConfig.from_mapping({}))
    assert sim.wagers(4, AMOUNT) == [Wagers(4, AMOUNT)]


def test_the_plan_carries_the_tables_and_decides_as_should_ride() -> None:
    """The packed tables come back whole, and decide as :func:`.strategy.should_ride` on random
    three- and four-card hands (both first decisions, at an amount where they differ)."""
    config = LetItRideConfig.from_mapping({"maximum": "10000.00"})
    amount = 2500_00
    d = decisions(config, amount)
    first, second = unpack_plan(pack_plan(d.first, d.second))
    assert np.array_equal(first, d.first)
    assert np.array_equal(second, d.second)
    decide = Decisions(first, second)
    rng = np.random.default_rng(22)
    for _ in range(60):
        cards = [int(c) for c in rng.choice(52, 4, replace=False)]
        assert decide(cards[:3], False) == should_ride(cards[:3], config, amount)
        for rode in (False, True):
            assert decide(cards, rode) == should_ride(cards, config, amount, rode)


def test_the_exact_edge_and_frequencies_are_the_par_sheets() -> None:
    """Wizard of Odds (wizardofodds.com/games/let-it-ride/): -0.0350568 per unit; the cells'
    exact probabilities sum to 1."""
    config = LetItRideConfig.from_mapping({})
    sim = GAME.simulation(config)
    edge = sim.exact_edge(AMOUNT, 1, None)
    assert edge == -analyze(config).expected_net
    assert edge is not None
    assert round(float(edge), 7) == 0.0350568
    freq = sim.exact_frequencies(AMOUNT, 1, None)
    assert freq is not None
    assert sum(freq.values()) == 1
    assert freq["royal flush / three wagers"] == Fraction(80, 51_979_200)


def test_a_seeded_simulation_is_within_its_interval_of_the_exact_edge() -> None:
    """``felt simulate``'s path: the fast path by default, the same result from one worker and
    its blocks, observed within its 95% interval of the exact edge at this seed."""
    config = LetItRideConfig.from_mapping({})
    result = simulate(config, 400_000, seats=3, seed=5)
    out = result.to_json()
    assert out["rounds"] == 400_000
    assert out["within_ci"] is True
    assert 1.1 < out["wagers_riding"] < 1.35  # 1 + 402/5525 + 8173/54145 = 1.2237...
    assert sum(result.counts().values()) == 3 * 400_000
