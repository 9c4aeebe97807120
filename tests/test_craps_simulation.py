"""The craps simulation: the fast path's nets equal the round engine's on the same throws for every
betting system (N.J.A.C. 19:47-1.2(a), 1.5, 1.6 as the engine deals them), hand-figured sessions,
and ``felt simulate`` against the exact loss per roll from the par sheet."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from felt.games.craps.config import CrapsConfig
from felt.games.craps.simulation import (
    SYSTEMS,
    CrapsSimulation,
    System,
    engine_nets,
    play,
    systems_for,
    terms_of,
)
from felt.simulate import simulate

TABLES = {
    "default": {},
    "100x, 3.00, field 3 to 1 on 12": {"odds": 100, "minimum": "3.00",
                                       "pays": {"field_12": "3 to 1"}},
    "2x, 25.00": {"odds": 2, "minimum": "25.00", "proposition_minimum": "5.00"},
}  # fmt: skip


def _throws(seed: int, n: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    return [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(n)]


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("system", SYSTEMS, ids=[s.name for s in SYSTEMS])
def test_fast_path_nets_equal_the_engines_1_2_a(system: System, table: str) -> None:
    """Seat 1 passes with odds (the shooter's line wager, 1.11), seat 2 plays ``system``: each
    roll's net per seat is the same on both paths over 600 seeded throws."""
    config = CrapsConfig.from_mapping(TABLES[table])
    seats = [SYSTEMS[0], system]
    throws = _throws(len(table) * 31 + len(system.name), 600)
    assert play(config, throws, seats) == engine_nets(config, throws, seats)


def test_whole_table_nets_equal_the_engines() -> None:
    """Every system at one table (a seat each): the same nets, roll by roll."""
    config = CrapsConfig.from_mapping({})
    seats = systems_for(len(SYSTEMS))
    throws = _throws(11, 500)
    assert play(config, throws, seats) == engine_nets(config, throws, seats)


def test_pass_and_dont_with_odds_hand_figured_1_2_a_1_2_and_1_6() -> None:
    """At 3-4-5x and 5.00: come out 4 (3, 1) then 4 again: pass wins 5.00 and 15.00 odds at 2 to
    1 win 30.00; don't pass loses 5.00 and its 30.00 lay (win 15.00 = 3x flat) loses.  Then 12 on
    a come out: pass loses 5.00, don't pass is barred (0, 1.2(a)2 iv)."""
    config = CrapsConfig.from_mapping({})
    nets = play(config, [(3, 1), (2, 2), (6, 6)], [SYSTEMS[0], SYSTEMS[1]])
    assert nets == [[0, 0], [3500, -3500], [-500, 0]]


def test_come_travels_and_is_decided_by_a_later_roll_1_2_a_3() -> None:
    """Point 8; a come wager lands on 9 (its first roll moves it, 1.1 Come Point); the next 9 wins
    come 9 (5.00) and its 20.00 odds at 3 to 2 (30.00) while the new come wager moves onto 9; the
    7 after loses the pass line and its odds (25.00), the new come 9 and its odds (working: a
    point is set), and wins the come wager made for that roll (5.00)."""
    config = CrapsConfig.from_mapping({})
    come = next(s for s in SYSTEMS if s.name == "come with odds")
    nets = play(config, [(5, 3), (4, 5), (4, 5), (3, 4)], [come])
    assert nets == [[0], [0], [3500], [-500 - 2500 - 500 - 2000 + 500]]


def test_systems_bet_within_the_table_limits_and_pay_in_full_1_4() -> None:
    """Every bet a system makes is payable in full (the step of its odds) at every table tried;
    the engine refusing one would raise in the tests above, this names the amounts."""
    t = terms_of(CrapsConfig.from_mapping({}))
    assert (t.take(6, 500), t.take(5, 500), t.lay(4, 500), t.lay(6, 500)) == (2500, 2000, 3000,
                                                                              3000)  # fmt: skip
    place = SYSTEMS[2].bets(None, {}, t)
    assert place == [("place_6", 504), ("place_8", 504)]


def test_exact_loss_per_roll_from_the_par_sheet() -> None:
    """Pass with odds loses 7/1671 a roll (7/495 per decision, 557/165 rolls); come with odds one
    line wager a roll, 7/495; place 6 and 8 at 5.04 each: 2 x 5.04/5.00 x 1/216 x 392/557; the
    field 1/18."""
    config = CrapsConfig.from_mapping({})
    t = terms_of(config)
    by = {s.name: s.exact_loss(t, config) for s in SYSTEMS}
    assert by["pass with full odds"] == Fraction(7, 1671)
    assert by["come with odds"] == Fraction(7, 495)
    assert by["place 6 and 8"] == 2 * Fraction(504, 500) * Fraction(1, 216) * Fraction(392, 557)
    assert by["field"] == Fraction(1, 18)


def test_monte_carlo_of_the_fast_path_agrees_with_exact() -> None:
    """Each system alone (seat 1 passing with odds as the shooter), 20,000 seeded rolls: its
    observed loss per roll within 4 standard errors of the exact figure (rolls are not
    independent, so the error is taken over blocks of 500 rolls)."""
    config = CrapsConfig.from_mapping({})
    t = terms_of(config)
    rng = np.random.default_rng(20261127)
    throws = [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(20_000, 2))]
    nets = np.array(play(config, throws, SYSTEMS), dtype=np.float64) / t.unit
    blocks = nets.reshape(40, 500, len(SYSTEMS)).mean(axis=1)
    for s, system in enumerate(SYSTEMS):
        exact = float(system.exact_loss(t, config))
        se = blocks[:, s].std(ddof=1) / np.sqrt(len(blocks))
        assert abs(-blocks[:, s].mean() - exact) < 4 * se, (system.name, exact, se)


def test_felt_simulate_runs_the_fast_path() -> None:
    """``felt simulate`` of a craps table: one block of rolls at seven seats, reproducible, the
    exact loss per roll beside it, and the decisions counted per system."""
    config = CrapsConfig.from_mapping({})
    data = simulate(config, 4000, seats=7, seed=3).to_json()
    again = simulate(config, 4000, seats=7, seed=3).to_json()
    assert data == again
    exact = sum((s.exact_loss(terms_of(config), config) for s in systems_for(7)), Fraction(0)) / 7
    assert data["exact_house_edge_exact"] == f"{exact.numerator}/{exact.denominator}"
    assert data["rounds"] == 4000
    assert sum(v for k, v in data["counts"].items() if k.startswith("hardways")) == 4000
    assert isinstance(CrapsSimulation(config).exact_edge(500, 7, None), Fraction)
