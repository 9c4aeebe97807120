"""Simulating Caribbean Stud Poker (issue 21 item 5): on the engine path an ante at each seat,
the suggested play, each seat's net, and the simulation's own progressive meter, from the seed,
filled into every settlement (19:47-16.11, 16.12) and carried from round to round; on the compiled
fast path (the ante alone) the same nets as the engine's on the same decks, whatever the seats,
the cut, the pay table, the ante and the payout limit."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from felt.cli.main import main
from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.core.ranking import Category, five_card_key
from felt.games.caribbean_stud.actions import Wagers
from felt.games.caribbean_stud.config import CaribbeanConfig
from felt.games.caribbean_stud.game import GAME
from felt.games.caribbean_stud.hand import hand_name
from felt.games.caribbean_stud.simulation import CaribbeanSimulation
from felt.rounds.shuffle import SeededShuffle
from felt.simulate import FOLDS, Job, deal_decks, engine_nets, simulate

SEED = 1_000_000  # $10,000.00, felt's default reset amount
ANTE = 500


def stacked(player: str, dealer: str) -> tuple[Card, ...]:
    """A deck that deals ``player`` to the one seat and ``dealer`` to the dealer: the cards go
    one at a time, seat then dealer, five times round (16.7-16.9 as felt deals them); the rest
    in card order."""
    pairs = zip(parse_cards(player), parse_cards(dealer), strict=True)
    first = [card for pair in pairs for card in pair]
    return (*first, *(c for c in ALL_CARDS if c not in first))


def always_bet(hand: object, up: object) -> bool:
    """A strategy for the meter's tests: every hand bets."""
    return True


def test_the_engine_path_antes_at_each_seat_and_settles_on_the_seed_meter() -> None:
    """``felt simulate``'s path: the ante alone (the par sheet's game), so the meter only stands
    at the seed; a seat's net is a whole number of antes (1 to 1, the pay table's whole odds) or
    the ante forfeited by a fold."""
    sim = GAME.simulation(GAME.config("caribbean_stud", {}))
    assert isinstance(sim, CaribbeanSimulation)
    assert sim.wagers(3, ANTE) == [Wagers(3, ANTE)]
    shuffle = SeededShuffle(5)
    for _ in range(8):
        nets = sim.play_round(shuffle.shuffle(ALL_CARDS), 3, ANTE, None)
        assert len(nets) == 3
        assert all(net % ANTE == 0 and -3 * ANTE <= net <= 201 * ANTE for net in nets)
    assert sim.meter == SEED


def test_engine_nets_of_seeded_decks_repeat_exactly() -> None:
    """The reference path ``felt simulate --engine`` uses: the same decks give the same nets."""
    config = CaribbeanConfig.from_mapping({})
    decks = np.array([list(range(52))] * 2, dtype=np.uint8)
    decks[1] = np.array([int(c) for c in SeededShuffle(9).shuffle(ALL_CARDS)], dtype=np.uint8)
    first = engine_nets(config, decks, 2)
    again = engine_nets(config, decks, 2)
    assert first.shape == (2, 2)
    assert (first == again).all()


def test_16_11_the_simulations_meter_rises_by_the_rate_from_the_seed() -> None:
    """With the progressive wager simulated at every seat, the meter is the seed plus 25 cents
    per progressive wager while no straight flush or royal flush is held (the oracle counts the
    hands itself), and each settlement carried the meter as it then stood."""
    config = CaribbeanConfig.from_mapping({})
    sim = CaribbeanSimulation(GAME, config, progressive=True)
    assert sim.wagers(2, ANTE) == [Wagers(2, ANTE, 100)]
    shuffle = SeededShuffle(21)
    rounds = 0
    for _ in range(30):
        deck = shuffle.shuffle(ALL_CARDS)
        seats = [five_card_key(list(deck[i:20:4]))[0] for i in range(3)]  # round by round
        if any(h >= Category.STRAIGHT_FLUSH for h in seats):  # pragma: no cover - not at seed 21
            continue
        sim.play_round(deck, 3, ANTE, always_bet)  # no fold: every progressive hand is paid
        rounds += 1
    assert sim.meter == SEED + rounds * 3 * 25
    assert sim.exact_edge(ANTE, 1, None) is None


def test_16_11_a_straight_flush_takes_10_percent_a_royal_flush_resets_the_meter() -> None:
    """Seat 1's straight flush is paid 10% of the meter as it stands (the seed and its own 25
    cents: $1,000,025 cents x 10%, floored: $1,000.02), off the meter; the next round's royal
    flush takes all of it and the house resets it to the seed."""
    sim = CaribbeanSimulation(GAME, CaribbeanConfig.from_mapping({}), progressive=True)
    nets = sim.play_round(stacked("5h 6h 7h 8h 9h", "2c 3d 4s 7c 9d"), 1, ANTE, None)
    meter = SEED + 25
    paid = meter // 10
    assert sim.meter == meter - paid
    # ante +5 (the dealer's 9-high does not qualify), bet returned, progressive -1 + paid
    assert nets == [ANTE - 100 + paid]
    before = sim.meter
    nets = sim.play_round(stacked("Th Jh Qh Kh Ah", "2c 3d 4s 7c 9d"), 1, ANTE, None)
    assert nets == [ANTE - 100 + before + 25]
    assert sim.meter == SEED


def test_a_table_without_the_progressive_keeps_no_meter_and_cannot_simulate_one() -> None:
    config = CaribbeanConfig.from_mapping({"progressive": False})
    sim = CaribbeanSimulation(GAME, config)
    assert sim.meter is None
    assert sim.play_round(stacked("2c 3d 4s 7c 9d", "Ac Ad 5s 6s 8h"), 1, ANTE, None) == [-ANTE]
    with pytest.raises(Exception, match="this table offers no progressive wager to simulate"):
        CaribbeanSimulation(GAME, config, progressive=True)


def test_the_simulation_decides_by_the_exact_table_as_should_bet_counts() -> None:
    """The simulation's look-up (one table from the exact count) against the one-situation
    count of ``strategy.should_bet`` on random situations, half of them ace-king hands (the
    only ones whose decision depends on the other cards and the up card)."""
    from felt.games.caribbean_stud.simulation import Decisions
    from felt.games.caribbean_stud.strategy import should_bet

    config = CaribbeanConfig.from_mapping({})
    decide = Decisions(config, ANTE)
    rng = np.random.default_rng(16)
    checked = ace_king = 0
    while checked < 40:
        cards = [int(c) for c in rng.choice(52, 6, replace=False)]
        hand, up = cards[:5], cards[5]
        is_ak = hand_name(hand) == "ace king"
        if not is_ak and checked % 2:
            continue
        ace_king += is_ak
        assert decide(hand, up) == should_bet(hand, up, config.bet_pays), (hand, up)
        checked += 1
    assert ace_king >= 20


def test_the_exact_edge_is_the_par_sheets_per_ante() -> None:
    """Wizard of Odds's figure, reproduced by casinoadvisor.com (2008): -0.052243 per ante."""
    sim = GAME.simulation(GAME.config("caribbean_stud", {}))
    edge = sim.exact_edge(ANTE, 1, None)
    assert isinstance(edge, Fraction)
    assert round(float(edge), 6) == 0.052243


# ------------------------------------------------------------------------------ the fast path
def fast_and_engine(
    config: CaribbeanConfig, seats: int, rounds: int, seed: int, ante: int
) -> tuple[np.ndarray, np.ndarray, dict[str, int]]:
    """Each seat's net on the same ``rounds`` seeded decks by the fast path and by the round
    engine (deciding by the same table), and the fast path's outcome counts."""
    sim = GAME.simulation(config)
    job = Job(config, ante, seats, seed, rounds, sim.plan(ante, None))
    names, settle = sim.fast_path(job)
    decks = deal_decks(seed, rounds, sim.cards_needed(seats))
    cells = np.zeros((1, len(names), 4), dtype=np.int64)
    fast = settle(decks, cells)
    engine = engine_nets(config, decks, seats, sim.strategy(job), ante)
    counts = {name: int(cells[0, i, 0]) for i, name in enumerate(names)}
    counts[FOLDS] = int(cells[0, 0, 3])
    return fast, engine, counts


@pytest.mark.parametrize(("seats", "rounds"), [(1, 1200), (3, 500), (7, 300)])
def test_16_10_the_fast_path_nets_equal_the_engines_on_the_same_decks(
    seats: int, rounds: int
) -> None:
    """A shuffler's table (no cut, 16.4(b)): the compiled deal, decision and settlement (16.1
    "Qualifying hand", "Fold"; 16.10, 16.12) give every seat the round engine's net exactly, and
    count every seat-round once."""
    config = CaribbeanConfig.from_mapping({})
    fast, engine, counts = fast_and_engine(config, seats, rounds, 100 + seats, ANTE)
    assert fast.shape == (rounds, seats)
    assert np.array_equal(fast, engine)
    assert sum(counts.values()) == rounds * seats
    assert counts[FOLDS]
    assert counts["dealer does not qualify"]
    assert counts["dealer wins"]
    assert counts["player wins, one pair"]


@pytest.mark.parametrize(("seats", "rounds"), [(2, 500), (6, 300)])
def test_16_4_c_the_fast_path_deals_past_the_engines_cut(seats: int, rounds: int) -> None:
    """A table shuffled by hand: the simulated dealer cuts (16.4(c)1) where the engine's cut
    step does, and the deal runs on round the end of the deck when it needs more cards than lie
    below the cut (six seats: 35 cards); the nets are the engine's exactly."""
    config = CaribbeanConfig.from_mapping({"shuffling": "manual"})
    sim = GAME.simulation(config)
    assert isinstance(sim, CaribbeanSimulation)
    assert sim.cut() == 26
    assert sim.cards_needed(seats) == min(52, 26 + 5 * (seats + 1))
    fast, engine, _ = fast_and_engine(config, seats, rounds, 200 + seats, ANTE)
    assert np.array_equal(fast, engine)


def test_16_12_the_fast_path_holds_a_win_to_the_payout_limit_as_the_round_does() -> None:
    """A richer pay table (one pair 4 to 3, two pair 5 to 2) at an ante of $1,234.57: the bet's
    win floored to the cent, and any hand whose ante and bet would win more than $5,000 held to
    it (16.12) -- the fast path's nets equal the engine's, and the limit is met on these decks."""
    config = CaribbeanConfig.from_mapping(
        {"maximum": "2000.00", "bet_pays": {"one pair": "4 to 3", "two pair": "5 to 2"}}
    )
    ante = 123_457
    fast, engine, counts = fast_and_engine(config, 4, 400, 31, ante)
    assert np.array_equal(fast, engine)
    assert (fast == 500_000).any()  # two pair or better against a qualifying dealer: capped
    assert (fast == ante + 2 * ante * 4 // 3).any()  # one pair: 4 to 3 floored to the cent
    assert counts["player wins, two pair"]


def test_felt_simulate_runs_the_fast_path_and_engine_forces_the_round_engine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``felt simulate caribbean_stud`` counts the outcomes on the fast path (beside their exact
    probabilities from the par sheet); ``--engine`` plays the same rounds through the round
    engine, which counts none, and observes the same house edge."""
    args = ["simulate", "caribbean_stud", "--rounds", "600", "--seats", "2", "--seed", "9"]
    assert main([*args, "--json"]) == 0
    fast = json.loads(capsys.readouterr().out)
    assert fast["counts"] is not None
    assert sum(fast["counts"].values()) == 1200
    assert fast["exact_frequencies"]["folds"]["decimal"] == pytest.approx(0.47774524, abs=1e-8)
    assert 0 < fast["bets"] < 1
    assert main([*args, "--json", "--engine"]) == 0
    engine = json.loads(capsys.readouterr().out)
    assert engine["counts"] is None
    assert engine["bets"] is None
    assert engine["house_edge"] == fast["house_edge"]


def test_the_progressive_simulation_keeps_the_engine_path() -> None:
    """With the progressive wager simulated its payouts come off a meter carried from round to
    round (16.11): no fast path, so every round runs through the round engine, and the log
    says why."""
    sim = CaribbeanSimulation(GAME, CaribbeanConfig.from_mapping({}), progressive=True)
    heard: list[str] = []
    assert sim.fast(heard.append) is False
    assert "round engine" in heard[0]
    assert sim.exact_frequencies(ANTE, 1, None) is None


def test_the_fast_paths_observed_edge_is_near_the_exact_one() -> None:
    """200,000 rounds at three seats: the observed edge per ante lies within four standard
    errors of the par sheet's 5.2243% (Wizard of Odds, reproduced by casinoadvisor.com)."""
    config = CaribbeanConfig.from_mapping({})
    result = simulate(config, 200_000, seats=3, seed=77)
    assert result.exact_edge is not None
    assert result.half_width is not None
    assert abs(result.house_edge - float(result.exact_edge)) < 4 * result.half_width / 1.96
    assert sum(result.counts().values()) == 600_000


def test_16_1_the_fast_path_settles_the_qualifier_and_an_exact_tie_as_the_engine() -> None:
    """Stacked deals the random decks seldom give: a dealer at exactly A-K-4-3-2 qualifies
    (16.1 "Qualifying hand") and loses to a pair (ante 1 to 1, bet 1 to 1); a dealer's A-Q high
    does not qualify (ante won, bet returned); an exact tie of two pairs of kings with the same
    kickers pushes both wagers; two pair beats one pair and wins the bet 2 to 1."""
    config = CaribbeanConfig.from_mapping({})
    sim = GAME.simulation(config)
    deals = [
        ("Qh Qd 8c 7s 5h", "As Kd 4h 3c 2s", 3 * ANTE),
        ("Qh Qd 8c 7s 5h", "As Qc Jh Tc 8s", ANTE),
        ("Kh Kd 9c 7s 3h", "Ks Kc 9d 7h 3c", 0),
        ("9h 9d 4c 4s 2h", "Jd Jc 8d 7h 3c", 5 * ANTE),
        ("Th Td 4c 3s 2h", "Jd Jc 8d 7h 3c", -3 * ANTE),
    ]
    decks = np.array([[int(c) for c in stacked(p, d)] for p, d, _ in deals], dtype=np.uint8)
    job = Job(config, ANTE, 1, 0, len(deals), sim.plan(ANTE, None))
    names, settle = sim.fast_path(job)
    cells = np.zeros((1, len(names), 4), dtype=np.int64)
    fast = settle(decks, cells)
    assert fast[:, 0].tolist() == [net for _, _, net in deals]
    assert np.array_equal(fast, engine_nets(config, decks, 1, sim.strategy(job), ANTE))
    assert cells[0, names.index("push"), 0] == 1


def test_the_fast_path_gives_the_same_result_whatever_the_workers() -> None:
    """Two local processes read the decision table from the job's plan and add up to the one
    process's totals exactly (blocks are seeded by their number)."""
    config = CaribbeanConfig.from_mapping({})
    one = simulate(config, 40_000, seats=2, seed=5)
    two = simulate(config, 40_000, seats=2, seed=5, workers=2)
    assert (one.tally.total, one.tally.total_sq) == (two.tally.total, two.tally.total_sq)
    assert one.counts() == two.counts()
