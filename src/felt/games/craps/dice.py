"""Where a craps table's dice come from: the one source of chance the table is given.

An electronic table throws :class:`SystemDice` (two dice from the operating system's CSPRNG,
each face equally likely); tests and simulations give :class:`SeededDice` (repeatable) or
:class:`FixedDice` (the throws named in order).  A live table's stickperson enters each roll, so
its source is never asked.  A roll's dice are recorded in its action: replay never throws again.

>>> FixedDice([(3, 4), (2, 2)]).throw()
(3, 4)
>>> d = SeededDice(7)
>>> d.throw() == SeededDice(7).throw()
True
>>> check_die(7, "die1")
Traceback (most recent call last):
felt.core.errors.FeltError: die1 must be a whole number 1 to 6 (a die's faces), got 7
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from typing import Protocol

from felt.core.errors import FeltError, excerpt

Throw = tuple[int, int]
"""Two dice as they came to rest."""


def check_die(value: object, what: str) -> int:
    """One die's face (1 to 6), or one clear error naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise FeltError(
            f"{what} must be a whole number 1 to 6 (a die's faces), got {excerpt(value)}"
        )
    return value


class Dice(Protocol):
    """A source of throws."""

    def throw(self) -> Throw:
        """Two dice."""
        ...


class SystemDice:
    """Two dice from the operating system's CSPRNG (``secrets.randbelow``: unbiased)."""

    def throw(self) -> Throw:
        """Two independent dice, each face with probability 1/6."""
        return secrets.randbelow(6) + 1, secrets.randbelow(6) + 1

    def __repr__(self) -> str:
        return "SystemDice()"


class SeededDice:
    """Repeatable dice for simulations and tests (a seeded Mersenne Twister; never at a table
    that takes money)."""

    def __init__(self, seed: int | str | None = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def throw(self) -> Throw:
        """The next two dice of the seeded sequence."""
        return self._rng.randint(1, 6), self._rng.randint(1, 6)

    def __repr__(self) -> str:
        return f"SeededDice({self.seed!r})"


class FixedDice:
    """The throws given, in order (a test's or a script's dice); asking past them is an error."""

    def __init__(self, throws: Iterable[tuple[int, int]]) -> None:
        self.throws: list[Throw] = [
            (check_die(a, f"throw {i} die1"), check_die(b, f"throw {i} die2"))
            for i, (a, b) in enumerate(throws, 1)
        ]
        self.used = 0

    def throw(self) -> Throw:
        """The next throw given."""
        if self.used >= len(self.throws):
            raise FeltError(f"the {len(self.throws)} throws given are all used")
        self.used += 1
        return self.throws[self.used - 1]

    def __repr__(self) -> str:
        return f"FixedDice({self.throws[self.used :]!r})"
