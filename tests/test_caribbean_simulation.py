"""Simulating Caribbean Stud Poker on the engine path (issue 21 item 5): an ante at each seat,
the suggested play, each seat's net; the simulation's own progressive meter, from the seed, filled
into every settlement (19:47-16.11, 16.12) and carried from round to round."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.core.ranking import Category, five_card_key
from felt.games.caribbean_stud.actions import Wagers
from felt.games.caribbean_stud.config import CaribbeanConfig
from felt.games.caribbean_stud.game import GAME
from felt.games.caribbean_stud.hand import hand_name
from felt.games.caribbean_stud.simulation import CaribbeanSimulation
from felt.rounds.shuffle import SeededShuffle
from felt.simulate import engine_nets

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
