"""Where the 20 numbers of a game and a quick-pick's numbers come from: an unbiased source of
integers injected from outside the core, as shuffles are (:mod:`felt.rounds.shuffle`).

- :class:`SystemSource`: the operating system's CSPRNG (``secrets``), for real games.
- :class:`felt.rounds.shuffle.SeededShuffle` (``below``): a SHA-256 counter stream from a seed,
  for tests and reproducible demonstrations.
- :class:`FixedSource`: given values, for tests and dispute reconstruction.

The selection is a partial Fisher-Yates shuffle of 1-80 (:func:`felt.games.keno.tickets.choose`),
so every set of 20 numbers, in every order, is equally likely when the source is uniform
(19:47-15.5(a), (d)2).  The numbers are chosen before the draw is applied to the system, and the
event records them: replaying a day needs no source.

>>> from felt.rounds.shuffle import SeededShuffle
>>> numbers = draw_numbers(SeededShuffle(1))
>>> len(numbers), len(set(numbers)), min(numbers) >= 1, max(numbers) <= 80
(20, 20, True, True)
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from felt.games.keno.exact import DRAWN, POOL
from felt.games.keno.tickets import NumberSource, choose


class SystemSource:
    """Uniform integers from the operating system's CSPRNG."""

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        return secrets.randbelow(n)


class FixedSource:
    """The given values in turn (each reduced below ``n``), for tests."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = list(values)

    def below(self, n: int) -> int:
        """The next value, which must be below ``n``."""
        value = self.values.pop(0)
        if not 0 <= value < n:
            raise ValueError(f"fixed value {value} is not below {n}")
        return value


def draw_numbers(source: NumberSource) -> tuple[int, ...]:
    """The 20 numbers of a game, in the order selected."""
    return choose(source, DRAWN, POOL)


__all__ = ["FixedSource", "NumberSource", "SystemSource", "draw_numbers"]
