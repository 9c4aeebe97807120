"""The system shuffle draws all of a shuffle's random numbers in one call (issue 25) and stays
uniform: exact counts over every possible byte string on a small deck, the rejection of a word
that would bias a draw, and chi-square tests of the real OS-random shuffle against the uniform
distribution and against the former one-call-per-draw shuffle (``secrets.randbelow``)."""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import permutations

import pytest

from felt.core.cards import ALL_CARDS, Card
from felt.rounds import shuffle
from felt.rounds.shuffle import SystemShuffle, fisher_yates, uniform_draws

CHI2_23_P1E6 = 70.55
"""The chi-square value a uniform 24-outcome sample exceeds with probability 1e-6 (23 degrees of
freedom): the tests below fail by chance once in a million runs."""
CHI2_51_P1E6 = 114.08
"""The same for 52 outcomes (51 degrees of freedom)."""


def chi_square(counts: Sequence[int], expected: float) -> float:
    """Pearson's statistic of ``counts`` against the same ``expected`` count in every cell."""
    return sum((c - expected) ** 2 / expected for c in counts)


def exact_source(data: bytes) -> Callable[[int], bytes]:
    """A byte source that gives ``data`` once and refuses any more (a rejected word)."""
    given = [data]

    def read(k: int) -> bytes:
        if not given:
            raise LookupError("redraw")
        out = given.pop()
        assert len(out) == k
        return out

    return read


def dealt(cards: Sequence[Card], draws: list[int]) -> tuple[Card, ...]:
    """Fisher-Yates on ``draws`` (for n, n-1 .. 2), as :class:`SystemShuffle` takes them."""
    it = iter(draws)
    return fisher_yates(cards, lambda _n: next(it))


def test_every_byte_string_gives_each_order_equally_often() -> None:
    """Over all 65,536 two-byte strings (one-byte words), the accepted ones deal each of the six
    orders of three cards exactly as often, and exactly the biasing words are rejected."""
    cards = ALL_CARDS[:3]
    orders: Counter[tuple[Card, ...]] = Counter()
    rejected = 0
    for a in range(256):
        for b in range(256):
            source = exact_source(bytes([a, b]))
            try:
                draws = uniform_draws([3, 2], source, width=1)
            except LookupError:
                rejected += 1
                continue
            orders[dealt(cards, draws)] += 1
    assert set(orders) == set(permutations(cards))
    assert set(orders.values()) == {85 * 128}  # 0..254 for the 3, every byte for the 2
    assert rejected == 256  # the word 255 for the 3 (256 % 3 == 1), whatever the second byte


def test_a_rejected_word_is_drawn_again() -> None:
    """A word at or above the largest multiple of n is replaced by the next word read."""
    reads = [bytes([255, 7]), bytes([254]), bytes([9])]
    seen: list[int] = []

    def source(k: int) -> bytes:
        seen.append(k)
        return reads.pop(0)

    assert uniform_draws([3, 5], source, width=1) == [254 % 3, 7 % 5]
    assert seen == [2, 1]  # one read for both, one more for the rejected 255
    assert uniform_draws([1], lambda k: b"\xff" * k) == [0]  # n = 1 never rejects


def test_one_read_of_the_csprng_per_shuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 52-card shuffle reads the OS CSPRNG once, 51 words of 8 bytes."""
    calls: list[int] = []

    def token_bytes(k: int) -> bytes:
        calls.append(k)
        return secrets.token_bytes(k)

    monkeypatch.setattr(shuffle.uniform_draws, "__defaults__", (token_bytes, 8))
    deck = SystemShuffle().shuffle(ALL_CARDS)
    assert sorted(deck) == list(ALL_CARDS)
    assert calls == [51 * 8]


def test_small_deck_orders_are_uniform_and_match_the_former_shuffle() -> None:
    """24,000 OS-random shuffles of four cards: each of the 24 orders as often as chance allows,
    and the same distribution as the former shuffle's (one ``secrets.randbelow`` per draw)."""
    cards = ALL_CARDS[:4]
    n = 24_000
    new = Counter(SystemShuffle().shuffle(cards) for _ in range(n))
    old = Counter(fisher_yates(cards, secrets.randbelow) for _ in range(n))
    every = list(permutations(cards))
    assert chi_square([new[p] for p in every], n / 24) < CHI2_23_P1E6
    # two samples of equal size: sum (a - b)^2 / (a + b) is chi-square with 23 degrees
    homogeneity = sum((new[p] - old[p]) ** 2 / (new[p] + old[p]) for p in every)
    assert homogeneity < CHI2_23_P1E6


def test_each_card_lands_anywhere_in_a_full_deck() -> None:
    """Where the ace of spades and the two of clubs land in 5,200 full-deck shuffles: each of
    the 52 places as often as chance allows."""
    n = 5_200
    shuffler = SystemShuffle()
    first, last = ALL_CARDS[0], ALL_CARDS[-1]
    at_first: Counter[int] = Counter()
    at_last: Counter[int] = Counter()
    for _ in range(n):
        deck = shuffler.shuffle(ALL_CARDS)
        at_first[deck.index(first)] += 1
        at_last[deck.index(last)] += 1
    assert chi_square([at_first[i] for i in range(52)], n / 52) < CHI2_51_P1E6
    assert chi_square([at_last[i] for i in range(52)], n / 52) < CHI2_51_P1E6


def test_a_biased_shuffle_fails_these_tests() -> None:
    """The tests can fail: a modulo-biased draw (one of five values mod n) is caught."""
    cards = ALL_CARDS[:4]
    n = 12_000
    biased = Counter(fisher_yates(cards, lambda m: secrets.randbelow(5) % m) for _ in range(n))
    every = list(permutations(cards))
    assert chi_square([biased[p] for p in every], n / 24) > CHI2_23_P1E6


@pytest.mark.parametrize("bounds", [[0], [3, -1], [257]])
def test_a_bound_no_draw_can_serve_is_refused(bounds: list[int]) -> None:
    """A bound below 1 has no draw, and one above the word's range would be redrawn forever."""
    with pytest.raises(ValueError, match="each bound must be 1 to 256"):
        uniform_draws(bounds, lambda k: bytes(k), width=1)
