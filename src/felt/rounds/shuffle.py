"""Shuffling: the only randomness in felt, injected into a table from outside the core.

- :class:`SystemShuffle`: unbiased Fisher-Yates driven by the operating system's CSPRNG
  (``secrets``), the default for real play; a shuffle's random numbers are drawn in one call
  (:func:`uniform_draws`).
- :class:`SeededShuffle`: the same algorithm driven by a SHA-256 counter stream from a seed, so
  a run can be reproduced on any machine and Python version.
- :class:`FixedOrder`: an explicit deck order, for tests and dispute reconstruction.

>>> a = SeededShuffle(7).shuffle(ALL_CARDS)
>>> a == SeededShuffle(7).shuffle(ALL_CARDS), sorted(a) == list(ALL_CARDS)
(True, True)
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Callable, Mapping, Sequence
from typing import Final, Protocol

from felt.core.cards import ALL_CARDS, Card
from felt.rounds.engine import check_deck


class Shuffler(Protocol):
    """Anything that returns a shuffled copy of the cards it is given."""

    def shuffle(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """A new order of ``cards``."""
        ...


def fisher_yates(cards: Sequence[Card], below: Callable[[int], int]) -> tuple[Card, ...]:
    """Unbiased Fisher-Yates: ``below(n)`` must return a uniform integer in ``[0, n)``."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


DRAW_BYTES: Final = 8
"""Random bytes per draw of :func:`uniform_draws`: a 64-bit word, so a draw below ``n`` is
redrawn with a probability under ``n / 2**64``."""


def uniform_draws(
    bounds: Sequence[int], randbytes: Callable[[int], bytes] = secrets.token_bytes,
    width: int = DRAW_BYTES,
) -> list[int]:  # fmt: skip
    """One uniform integer in ``[0, n)`` for each ``n`` of ``bounds``, from one call of
    ``randbytes`` for all of them (a call per draw costs a system call each): each draw is a
    ``width``-byte word, and a word at or above the largest multiple of ``n`` below ``2**(8 *
    width)`` is replaced by a new word (rejection sampling, so no modulo bias).

    >>> uniform_draws([10, 3], lambda k: bytes([13, 2])[:k], width=1)
    [3, 2]
    """
    span = 1 << (8 * width)
    if bounds and not 1 <= min(bounds) <= max(bounds) <= span:
        raise ValueError(
            f"each bound must be 1 to {span} for {width}-byte draws, got {list(bounds)}"
        )
    data = randbytes(width * len(bounds))
    words: Sequence[int] = (
        struct.unpack(f">{len(bounds)}Q", data)
        if width == 8
        else [int.from_bytes(data[i : i + width], "big") for i in range(0, len(data), width)]
    )
    if words and max(words) < span - max(bounds):
        # no word is rejected (the common case: the loop below, written as one expression): a
        # word's limit, span - span % n, is above span - n >= span - max(bounds)
        return [value % n for value, n in zip(words, bounds, strict=True)]
    out: list[int] = []
    for value, n in zip(words, bounds, strict=True):
        limit = span - span % n
        while value >= limit:
            value = int.from_bytes(randbytes(width), "big")
        out.append(value % n)
    return out


class SystemShuffle:
    """Fisher-Yates with uniform draws from the OS CSPRNG (``secrets``), all of one shuffle's
    draws read in one call (:func:`uniform_draws`)."""

    def shuffle(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """A uniformly random order, unpredictable."""
        out = list(cards)
        # fisher_yates, its draws below n, n-1 .. 2 read at once and taken in that order (the
        # swaps written out here: a call per draw was a third of a shuffle)
        top = range(len(out) - 1, 0, -1)
        for i, j in zip(top, uniform_draws(range(len(out), 1, -1)), strict=True):
            out[i], out[j] = out[j], out[i]
        return tuple(out)


class SeededShuffle:
    """Fisher-Yates from a SHA-256 counter stream: the same seed, the same orders, anywhere."""

    def __init__(self, seed: int | str) -> None:
        self.seed = str(seed)
        self.counter = 0

    def below(self, n: int) -> int:
        """Uniform in [0, n) by rejection sampling 64-bit blocks (no modulo bias)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            block = hashlib.sha256(f"felt:{self.seed}:{self.counter}".encode()).digest()
            self.counter += 1
            value = int.from_bytes(block[:8], "big")
            if value < limit:
                return value % n

    def shuffle(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """The next order in this seed's sequence."""
        return fisher_yates(cards, self.below)


class FixedOrder:
    """Always the given order (checked to be a full deck), whatever the cards handed in."""

    def __init__(self, order: Sequence[Card]) -> None:
        self.order = check_deck(order, "fixed deck order")

    def shuffle(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """The fixed order."""
        return self.order


def complete_deck(known: Mapping[int, Card], shuffler: Shuffler) -> tuple[Card, ...]:
    """A full deck with the cards of ``known`` (0-based place -> card) where they were, and the
    other cards shuffled into the other places.

    How a server rebuilds a round after a crash without ever having stored an undealt card: the
    order of the cards not yet dealt is, to everyone, a uniformly random order of those cards,
    and a new shuffle of them is exactly that.

    >>> from felt.core.cards import parse_cards
    >>> deck = complete_deck({0: parse_cards("As")[0], 51: parse_cards("2c")[0]}, SystemShuffle())
    >>> str(deck[0]), str(deck[51]), len(set(deck))
    ('As', '2c', 52)
    """
    if len(set(known.values())) != len(known) or not all(0 <= p < 52 for p in known):
        raise ValueError("known cards must be distinct, at places 0 to 51")
    taken = set(known.values())
    rest = iter(shuffler.shuffle([c for c in ALL_CARDS if c not in taken]))
    return tuple(known[p] if p in known else next(rest) for p in range(52))


__all__ = [
    "ALL_CARDS",
    "FixedOrder",
    "SeededShuffle",
    "Shuffler",
    "SystemShuffle",
    "complete_deck",
    "fisher_yates",
    "uniform_draws",
]
