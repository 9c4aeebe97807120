"""The server's shuffle written out (:meth:`SystemShuffle.shuffle` does Fisher-Yates's swaps
itself, and :func:`uniform_draws` takes a word list with no rejected word in one expression):
the same draws, read from the OS CSPRNG the same way, give the same order as
:func:`fisher_yates` on them, and the draws are those of the word-by-word loop."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from felt.core.cards import ALL_CARDS
from felt.rounds import shuffle
from felt.rounds.shuffle import SystemShuffle, fisher_yates, uniform_draws


def _loop_draws(bounds: Sequence[int], randbytes: Callable[[int], bytes], width: int) -> list[int]:
    """:func:`uniform_draws` as a loop over the words, each checked against its limit."""
    span = 1 << (8 * width)
    data = randbytes(width * len(bounds))
    words = [int.from_bytes(data[i : i + width], "big") for i in range(0, len(data), width)]
    out: list[int] = []
    for value, n in zip(words, bounds, strict=True):
        while value >= span - span % n:
            value = int.from_bytes(randbytes(width), "big")
        out.append(value % n)
    return out


def _source(seed: int) -> Callable[[int], bytes]:
    """A byte source replaying one seeded stream (two sources of a seed read the same bytes)."""
    rng = random.Random(seed)
    return lambda k: bytes(rng.randrange(256) for _ in range(k))


@pytest.mark.parametrize("width", [1, 2, 8])
def test_draws_are_those_of_the_loop_over_the_words(width: int) -> None:
    rng = random.Random(width)
    top = min(1 << (8 * width), 10**6)
    for seed in range(400):
        bounds = [rng.randint(1, rng.choice([2, 52, 200, top])) for _ in range(rng.randint(0, 9))]
        got = uniform_draws(bounds, _source(seed), width=width)
        assert got == _loop_draws(bounds, _source(seed), width)
        assert all(0 <= d < n for d, n in zip(got, bounds, strict=True))


def test_a_word_near_the_top_still_takes_the_loop() -> None:
    """Words that may be rejected (one at the top of the range) are checked word by word."""
    reads = [bytes([255, 7]), bytes([254])]
    assert uniform_draws([3, 5], lambda k: reads.pop(0), width=1) == [254 % 3, 7 % 5]
    assert uniform_draws([5, 5], lambda k: bytes([251, 250])[:k], width=1) == [1, 0]


def _taken(draws: list[int]) -> Callable[[int], int]:
    """A ``below`` for :func:`fisher_yates` that gives ``draws`` in order."""
    it = iter(draws)
    return lambda _n: next(it)


def test_the_server_shuffle_is_fisher_yates_on_its_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(50):
        for cards in (ALL_CARDS, ALL_CARDS[:5], ALL_CARDS[:1], ()):
            monkeypatch.setattr(shuffle.uniform_draws, "__defaults__", (_source(seed), 8))
            got = SystemShuffle().shuffle(cards)
            draws = uniform_draws(range(len(cards), 1, -1), _source(seed))
            assert got == fisher_yates(cards, _taken(draws))
