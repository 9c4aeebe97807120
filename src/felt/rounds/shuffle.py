"""Shuffling: the only randomness in felt, injected into a table from outside the core.

- :class:`SystemShuffle`: unbiased Fisher-Yates driven by the operating system's CSPRNG
  (``secrets``), the default for real play.
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
from collections.abc import Callable, Sequence
from typing import Protocol

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


class SystemShuffle:
    """Fisher-Yates with ``secrets.randbelow`` (the OS CSPRNG)."""

    def shuffle(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """A uniformly random order, unpredictable."""
        return fisher_yates(cards, secrets.randbelow)


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


__all__ = ["ALL_CARDS", "FixedOrder", "SeededShuffle", "Shuffler", "SystemShuffle", "fisher_yates"]
