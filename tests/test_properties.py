"""Property tests (hypothesis) for invariants of evaluation."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from felt.core.cards import ALL_CARDS, Card
from felt.core.evaluator import evaluate, hand_rank
from felt.core.ranking import five_card_key

hands7 = st.lists(st.sampled_from(ALL_CARDS), min_size=7, max_size=7, unique=True)
hands_5_to_7 = st.integers(5, 7).flatmap(
    lambda n: st.lists(st.sampled_from(ALL_CARDS), min_size=n, max_size=n, unique=True)
)
suit_maps = st.permutations(range(4))


@given(hands_5_to_7)
def test_best_five_is_a_subset_with_the_same_value(cards: list[Card]) -> None:
    """The five the dealer sets (13:69F-24.10(e)) are among the cards and make the value."""
    hand = evaluate(cards)
    assert set(hand.best_five) <= set(cards)
    assert len(hand.best_five) == 5
    assert evaluate(hand.best_five).rank == hand.rank


@given(hands7)
def test_value_is_the_maximum_over_all_fives_by_the_reference(cards: list[Card]) -> None:
    """Brute force with the reference keys: the chosen five is the reference's best five."""
    best = max(five_card_key(f) for f in itertools.combinations(cards, 5))
    assert five_card_key(evaluate(cards).best_five) == best


@given(hands_5_to_7, st.randoms())
def test_order_of_cards_does_not_matter(cards: list[Card], rnd: object) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert hand_rank(shuffled) == hand_rank(cards)


@given(hands_5_to_7, suit_maps)
def test_suits_never_break_ties(cards: list[Card], perm: list[int]) -> None:
    """19:47-24.1 "Suit": relabelling the suits never changes a hand's value."""
    relabelled = [Card.of(c.rank, perm[c.suit]) for c in cards]
    assert hand_rank(relabelled) == hand_rank(cards)


@given(hands7, hands7)
def test_comparison_is_consistent_with_rank(a: list[Card], b: list[Card]) -> None:
    ha, hb = evaluate(a), evaluate(b)
    assert (ha < hb) == (ha.rank < hb.rank)
    assert (ha == hb) == (ha.rank == hb.rank)
