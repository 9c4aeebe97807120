"""Keno's exact mathematics checked against brute force on reduced games and against published
probabilities of catching k of n spots."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from felt.games.keno.analysis import analyze_ticket
from felt.games.keno.draw import draw_numbers
from felt.games.keno.exact import (
    DRAWN,
    POOL,
    catch_counts,
    distribution,
    pattern_total,
    payout,
    way_count,
    ways_by_catch,
)
from felt.games.keno.grading import grade
from felt.games.keno.ratecard import example_rate_card
from felt.games.keno.tickets import quick_pick
from felt.rounds.shuffle import SeededShuffle
from tests.keno_helpers import explicit_ways, ticket

# ----------------------------------------------------------------------------- published figures


def odds_one_in(spots: int, caught: int) -> float:
    return comb(POOL, DRAWN) / catch_counts(spots)[caught]


def test_hypergeometric_matches_the_washington_lottery_daily_keno_odds() -> None:
    """Washington's Lottery, Daily Keno official rules (lottery.com/news/official_rules.cfm/GameID/
    WAKENO), "Prize Payout": the odds of each match on a 10-spot and a 9-spot game, 20 of 80."""
    published = {
        (10, 10): 8_911_711.2, (10, 9): 163_381.4, (10, 8): 7_384.5, (10, 7): 620.7,
        (10, 6): 87.1, (10, 5): 19.4, (10, 0): 21.8,
        (9, 9): 1_380_687.6, (9, 8): 30_681.9, (9, 7): 1_690.1, (9, 6): 174.8, (9, 5): 30.7,
        (9, 4): 8.8,
    }  # fmt: skip
    for (spots, caught), one_in in published.items():
        assert round(odds_one_in(spots, caught), 1) == one_in, (spots, caught)


def test_hypergeometric_matches_published_twenty_spot_percentages() -> None:
    """pokercasino-online.com, "Keno odds": 20 spots, 0 to 8 hits, as percentages to 8 places;
    and Wikipedia, "Keno" (Probabilities): 20 of 20 is 1 in 3,535,316,142,212,174,320."""
    published = [0.11857057, 1.15678605, 4.97142576, 12.48637168, 20.50318987, 23.32807380,
                 19.01745147, 11.32954556, 4.98618021]  # fmt: skip
    counts = catch_counts(20)
    for k, percent in enumerate(published):
        assert round(counts[k] / comb(POOL, DRAWN) * 100, 8) == pytest.approx(percent, abs=1e-8)
    assert Fraction(counts[20], comb(POOL, DRAWN)) == Fraction(1, 3_535_316_142_212_174_320)


def test_four_of_five_as_published() -> None:
    """talkstats.com, "KENO probability": P(4 of 5) = 4845 x 60 / 24040016."""
    assert Fraction(catch_counts(5)[4], comb(POOL, DRAWN)) == Fraction(4845 * 60, 24_040_016)


@pytest.mark.parametrize("spots", range(1, 21))
def test_catch_counts_add_up_to_every_draw(spots: int) -> None:
    assert sum(catch_counts(spots)) == comb(POOL, DRAWN)


# ----------------------------------------------------------------------------- brute force


def simple_pay(spots: int, caught: int, rate: int) -> int:
    """A pay table for the reduced games: anything but a monotone pattern would do."""
    return rate * (caught * caught * 7 + spots) if caught * 2 >= spots else 0


def brute_distribution(
    groups: list[list[int]],
    ways: list[tuple[tuple[int, ...], int, int]],
    pool: int,
    drawn: int,
    limit: int | None = None,
) -> dict[int, int]:
    """Every draw of a reduced game, every way paid the long way."""
    out: Counter[int] = Counter()
    for draw in combinations(range(1, pool + 1), drawn):
        hit = set(draw)
        total = sum(simple_pay(s, sum(1 for n in nums if n in hit), r) for nums, s, r in ways)
        if limit is not None:
            total = min(total, limit)
        out[total] += 1
    return dict(sorted(out.items()))


REDUCED = [
    ("straight", [[1, 2, 3]], ["3"]),
    ("split", [[1, 2], [3, 4], [5, 6, 7]], ["2/2", "1/3"]),
    ("way", [[1, 2], [3, 4], [5, 6], [7, 8]], ["6/4"]),
    ("combination", [[1, 2], [3, 4, 5], [6, 7]], ["2/2", "1/3", "2/5", "1/4", "1/7"]),
    ("king", [[1], [2], [3, 4], [5, 6]], ["4/3", "3/4"]),
]


@pytest.mark.parametrize(("kind", "groups", "conditions"), REDUCED)
@pytest.mark.parametrize(("pool", "drawn"), [(12, 4), (14, 5)])
def test_joint_distribution_equals_brute_force_on_reduced_games(
    kind: str, groups: list[list[int]], conditions: list[str], pool: int, drawn: int
) -> None:
    t = ticket({"kind": kind, "groups": groups, "conditions": conditions})
    ways = explicit_ways(t)
    assert len(ways) == t.ways
    conds = [(c.spots, c.rate) for c in t.conditions]
    for limit in (None, 3000):
        exact = distribution(t.sizes, conds, t.single, simple_pay, ticket_limit=limit,
                             pool=pool, drawn=drawn)  # fmt: skip
        assert exact == brute_distribution(groups, ways, pool, drawn, limit)
        assert sum(exact.values()) == comb(pool, drawn)


@settings(max_examples=60)
@given(
    sizes=st.lists(st.integers(1, 3), min_size=1, max_size=3),
    spots=st.lists(st.integers(1, 6), min_size=1, max_size=3, unique=True),
    single=st.booleans(),
)
def test_any_grouping_equals_brute_force(sizes: list[int], spots: list[int], single: bool) -> None:
    """Groups of any sizes and conditions of any spots (a game of 10 numbers, 3 drawn)."""
    groups, n = [], 1
    for size in sizes:
        groups.append(list(range(n, n + size)))
        n += size
    ways = []
    for s in spots:
        for r in [1] if single else range(1, len(groups) + 1):
            for pick in combinations(groups, r):
                nums = tuple(x for g in pick for x in g)
                if len(nums) == s:
                    ways.append((nums, s, 100))
    conds = [(s, 100) for s in spots]
    exact = distribution([len(g) for g in groups], conds, single, simple_pay, pool=10, drawn=3)
    assert exact == brute_distribution(groups, ways, 10, 3)


def test_ways_by_catch_counts_the_listed_ways() -> None:
    t = ticket(
        {"kind": "king", "groups": [[1], [2], [3, 4, 5], [6, 7, 8]], "conditions": ["4/4", "2/5"]}
    )
    drawn = {1, 3, 4, 6}
    listed = Counter(
        sum(1 for n in nums if n in drawn) for nums, s, _ in explicit_ways(t) if s == 4
    )
    assert ways_by_catch(t.catches(drawn), 4) == dict(listed)
    assert way_count(t.sizes, 4) == 4
    assert payout(t.catches(drawn), [(4, 100)], False, simple_pay) == sum(
        simple_pay(4, k, 100) * n for k, n in listed.items()
    )


def test_pattern_count_is_bounded() -> None:
    assert pattern_total([1] * 20) == 21  # twenty kings: how many of them were caught
    with pytest.raises(ValueError, match="catch patterns"):
        distribution([1] * 10 + [2] * 10 + [3] * 10 + [4] * 5, [(4, 100)], False, simple_pay)


def test_two_games_of_a_multi_race_ticket_convolve() -> None:
    card = example_rate_card()
    one = analyze_ticket(card, ticket({"kind": "straight", "numbers": [1, 2, 3]}))
    two = analyze_ticket(card, ticket({"kind": "straight", "numbers": [1, 2, 3], "games": 2}))
    assert two.total == one.total**2
    assert two.return_rate == one.return_rate
    assert two.payouts[8400] == one.payouts[4200] ** 2


@settings(max_examples=40)
@given(seed=st.integers(0, 10_000))
def test_vectorised_grading_equals_the_ways_paid_one_by_one(seed: int) -> None:
    """numpy grading (incidence matrices, popcounts) against every way listed and paid in Python,
    and against the counting programme of the exact analysis."""
    card = example_rate_card()
    source = SeededShuffle(seed)
    drawn = draw_numbers(source)
    tickets = [
        ticket(
            {
                "kind": "way",
                "groups": [[1, 2, 3], [4, 5, 6], [7, 8, 9], [70, 71, 72]],
                "conditions": ["6/6@3"],
            }
        ),
        ticket(
            {
                "kind": "king",
                "groups": [[11], [12], [13, 14], [15, 16, 17]],
                "conditions": ["3/3", "3/4@2", "2/5"],
            }
        ),
        ticket(
            {
                "kind": "combination",
                "groups": [[20, 21], [22, 23, 24], [25, 26]],
                "conditions": ["2/2", "1/4", "2/5", "1/7@5"],
            }
        ),
        ticket(
            {
                "kind": "split",
                "groups": [[30], [31, 32, 33, 34, 35]],
                "conditions": ["1/1", "1/5@4"],
            }
        ),
        ticket(quick_pick({"quick_pick": 10, "rate": "7.00"}, source)),
    ]
    hit = set(drawn)
    listed = [
        sum(card.payoff(s, sum(1 for n in nums if n in hit), r) for nums, s, r in explicit_ways(t))
        for t in tickets
    ]
    assert grade(tickets, drawn, card).tolist() == listed
    counted = [
        payout(t.catches(hit), [(c.spots, c.rate) for c in t.conditions], t.single, card.payoff)
        for t in tickets
    ]
    assert counted == listed
