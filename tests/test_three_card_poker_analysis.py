"""The exact analysis of Three Card Poker, held to the published figures and to a brute-force
count written here independently (its own ranking of three cards, plain itertools, nothing of
felt's ranking, tables or analysis)."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from felt.core.cards import parse_cards
from felt.core.errors import FeltError
from felt.games.three_card_poker.analysis import (
    DEALER_HANDS,
    NAMES,
    PLAYER_HANDS,
    analyze,
    counts,
    optimal_plays,
    pair_plus_edge,
)
from felt.games.three_card_poker.config import ThreeCardConfig
from felt.games.three_card_poker.strategy import should_play

MINIMUM = ThreeCardConfig.from_mapping({})

# ----------------------------------------------------------------------------- an independent ranker


def brute_rank(hand: tuple[int, ...]) -> tuple[int, ...]:
    """A key for three cards (card number = 4 * rank + suit, rank 0 = deuce ... 12 = ace) written
    from the hand list of the later New Jersey text: straight flush 5, three of a kind 4, straight
    3, flush 2, pair 1, high card 0; A-2-3 the lowest straight, no K-A-2."""
    ranks = sorted((c // 4 for c in hand), reverse=True)
    suited = hand[0] % 4 == hand[1] % 4 == hand[2] % 4
    if ranks == [12, 1, 0]:
        run: int | None = 1  # 3-2-A: topped by the three
    elif ranks[0] - 1 == ranks[1] and ranks[1] - 1 == ranks[2]:
        run = ranks[0]
    else:
        run = None
    if run is not None:
        return (5 if suited else 3, run)
    if ranks[0] == ranks[2]:
        return (4, ranks[0])
    if suited:
        return (2, *ranks)
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        return (1, pair, ranks[0] + ranks[2] - pair)
    return (0, *ranks)


def brute_counts(player: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Dealer hands of the other 49 cards: not qualifying (below queen high), qualifying and
    lower, tying, higher than ``player`` — counted one by one."""
    mine = brute_rank(player)
    rest = [c for c in range(52) if c not in player]
    out = [0, 0, 0, 0]
    for dealer in itertools.combinations(rest, 3):
        theirs = brute_rank(dealer)
        if theirs[0] == 0 and theirs[1] < 10:
            out[0] += 1
        elif theirs < mine:
            out[1] += 1
        elif theirs == mine:
            out[2] += 1
        else:
            out[3] += 1
    return out[0], out[1], out[2], out[3]


# ----------------------------------------------------------------------------- published figures


def test_published_ante_play_figures() -> None:
    """John Grochowski, Casino City Times: "The house edge on ante-play is 3.37% of your ante or
    2.01% of total action" ("The Three Card Poker problem", 28 December 2017); "the house edge is
    3.37 percent of your ante if you bet with queen-6-4 or better, and 3.45 percent with the queen
    or better strategy" ("Three-card poker and roulette", 26 January 2014, from Michael
    Shackelford's wizardofodds.com, the Wizard of Odds)."""
    sheet = analyze(MINIMUM)
    assert round(float(sheet.house_edge_ante) * 100, 2) == 3.37
    assert round(float(sheet.element_of_risk) * 100, 2) == 2.01
    assert round(float(sheet.strategies["play queen high or better"]) * 100, 2) == 3.45
    # the exact values behind them (the enumeration's own, pinned)
    assert sheet.house_edge_ante == Fraction(686689, 20358520)
    assert sheet.element_of_risk == Fraction(686689, 34084400)
    assert sheet.total == PLAYER_HANDS * DEALER_HANDS == 407_170_400
    assert sheet.strategy["rule"].startswith("Play queen-six-four or better; fold anything lower")


def test_published_play_or_fold_border() -> None:
    """Grochowski (26 January 2014, from wizardofodds.com): folding loses 1 per ante; playing
    queen-6-3 loses 1.00255, playing queen-6-4 loses 0.993378: Q-6-4 is the least hand played."""
    k = counts()
    ev = {}
    for hand in ("Qs 6h 3d", "Qs 6h 4d"):
        nq, lower, _, higher = k.results[k.row(tuple(parse_cards(hand)))].tolist()
        ev[hand] = Fraction(nq + 2 * lower - 2 * higher, DEALER_HANDS)
    assert round(float(ev["Qs 6h 3d"]), 5) == -1.00255
    assert round(float(ev["Qs 6h 4d"]), 6) == -0.993378


def test_published_pair_plus_figures() -> None:
    """Grochowski, "Three Card Poker and Pair Plus" (8 July 2021): of 22,100 hands, 48 straight
    flushes, 52 threes of a kind, 720 straights, 1,096 flushes, 3,744 pairs and 16,440 losing
    hands; 40-30-6-4-1 gives the house 2.32 percent (also "The Three Card Poker problem", 2017)."""
    k = counts()
    by_name = {NAMES[i]: n for i, n in Counter(k.name.tolist()).items()}
    assert by_name == {"straight flush": 48, "three of a kind": 52, "straight": 720, "flush": 1096,
                       "pair": 3744, "high card": 16440}  # fmt: skip
    assert pair_plus_edge(MINIMUM) == Fraction(512, 22100) == Fraction(128, 5525)
    assert round(float(pair_plus_edge(MINIMUM)) * 100, 2) == 2.32


# ----------------------------------------------------------------------------- the brute force


def test_counts_equal_a_brute_force_over_sampled_player_hands() -> None:
    """For a sample of player hands (the border hands, the straights' edge cases, a random
    sample), every one of the 18,424 dealer hands compared one by one with the ranker above."""
    chosen = [tuple(parse_cards(h)) for h in ("Qs 6h 4d", "Qs 6h 3d", "Qs 6s 4d", "Ac 2d 3h",
                                               "Kc Ad 2h", "As Ks Qs", "2c 2d 2h", "Qc 3d 2h",
                                               "Jc Td 8h", "5c 3d 2h")]  # fmt: skip
    sample = random.Random(19).sample(list(itertools.combinations(range(52), 3)), 30)
    k = counts()
    for hand in [*chosen, *sample]:
        row = k.row(hand)
        assert tuple(k.results[row].tolist()) == brute_counts(hand), hand
        assert sorted(k.cards[row].tolist()) == sorted(hand)


def test_every_hand_ranks_as_the_brute_force_ranker_says() -> None:
    """The values the analysis uses order all 22,100 hands exactly as the independent ranker."""
    k = counts()
    keys = [brute_rank(tuple(h)) for h in k.cards.tolist()]
    order = sorted(range(PLAYER_HANDS), key=lambda i: keys[i])
    values = k.value.tolist()
    for i, j in itertools.pairwise(order):
        assert (values[i] < values[j]) == (keys[i] < keys[j])
        assert (values[i] == values[j]) == (keys[i] == keys[j])


def test_house_edge_from_the_brute_force_counts_of_every_hand_class() -> None:
    """The total, rebuilt from the analysis's per-hand counts with the rule "play Q-6-4 or
    better" and the bonus paid by the independent ranker's category, is the par sheet's edge."""
    k = counts()
    total = Fraction(0)
    bonus = {5: 5, 4: 4, 3: 1}
    for cards, (nq, lower, tie, higher) in zip(k.cards.tolist(), k.results.tolist(), strict=True):
        assert nq + lower + tie + higher == DEALER_HANDS
        key = brute_rank(tuple(cards))
        if key >= (0, 10, 4, 2):
            total += nq + 2 * lower - 2 * higher + DEALER_HANDS * bonus.get(key[0], 0)
        else:
            total -= DEALER_HANDS
    assert -total / (PLAYER_HANDS * DEALER_HANDS) == analyze(MINIMUM).house_edge_ante


# ----------------------------------------------------------------------------- strategy and tables


def test_the_suggested_play_is_the_optimal_play_for_every_hand() -> None:
    k = counts()
    plays = optimal_plays(MINIMUM)
    for cards, play in zip(k.cards.tolist(), plays.tolist(), strict=True):
        assert should_play(cards) == play


def test_more_generous_tables_lower_the_edge_and_other_antes_are_exact() -> None:
    base = analyze(MINIMUM)
    richer = analyze(ThreeCardConfig.from_mapping({"ante_bonus": {"straight": "2 to 1"}}))
    assert richer.house_edge_ante < base.house_edge_ante
    flush5 = ThreeCardConfig.from_mapping({"pair_plus_table": {"flush": "5 to 1"}})
    assert pair_plus_edge(flush5) == Fraction(128, 5525) - Fraction(1096, 22100)
    assert analyze(MINIMUM, 2500).house_edge_ante == base.house_edge_ante
    odd = ThreeCardConfig.from_mapping({"ante_bonus": {"straight": "3 to 2"}})
    assert analyze(odd, 501).house_edge_ante > analyze(odd, 500).house_edge_ante  # cents floored
    assert analyze(ThreeCardConfig.from_mapping({"pair_plus": False})).bonus is None
    with pytest.raises(FeltError, match="outside the table limits"):
        analyze(MINIMUM, 100)


def test_the_par_sheet_prints_in_every_format() -> None:
    sheet = analyze(MINIMUM)
    data = json.loads(sheet.to_json_text())
    assert data["house_edge_ante_exact"] == "686689/20358520"
    assert data["element_of_risk_exact"] == "686689/34084400"
    assert data["bonus"]["house_edge_exact"] == "128/5525"
    assert len(sheet.strategy["decisions"]) == 741
    text = sheet.to_text()
    assert "3.3730%" in text
    assert "2.0147%" in text
    assert "Play queen-six-four or better" in text
    assert "house edge per ante" in sheet.to_markdown()
    assert "<h2>Strategy</h2>" in sheet.to_html()
