"""Pay tables: payout odds ("X to Y") or fixed amounts, and the check against regulatory minimums.

Odds are stated "to", never "for" (19:47-24.11(a)): a winning wager of 10 at "8 to 1" wins 80 and
keeps its 10.

>>> Payout.parse("8 to 1").win(1000), Payout.parse("$5000").win(1000)
(8000, 500000)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars

MAX_ODDS_TERM: Final = 1_000_000
"""The largest number on either side of odds ("X to Y"): each of X and Y is at most 1,000,000."""
_ODDS = re.compile(r"^\s*(\d+)\s*to\s*(\d+)\s*$", re.IGNORECASE | re.ASCII)


@dataclass(frozen=True)
class Payout:
    """What one pay-table line pays: odds ``to_win`` to ``to_stake``, or a fixed ``amount`` in cents."""

    to_win: int = 0
    to_stake: int = 1
    amount: int | None = None

    @classmethod
    def parse(cls, text: object, what: str = "payout") -> Payout:
        """Read ``"8 to 1"`` (odds) or ``"$5000"`` / ``"$5,000.00"`` (a fixed amount)."""
        if isinstance(text, str) and text.strip().startswith("$"):
            amount = cents(text, what)
            if amount <= 0:
                raise FeltError(f"{what} must be a positive amount, got {text!r}")
            return cls(amount=amount)
        match = _ODDS.match(text) if isinstance(text, str) and len(text) <= 60 else None
        if match is None or int(match.group(2)) == 0:
            raise FeltError(
                f'{what} must be odds such as "8 to 1" or a fixed amount such as "$5000",'
                f" got {excerpt(text)} (odds are stated with 'to', 19:47-24.11(a))"
            )
        to_win, to_stake = int(match.group(1)), int(match.group(2))
        if to_win > MAX_ODDS_TERM or to_stake > MAX_ODDS_TERM:
            raise FeltError(
                f"{what} must be odds with each number at most {MAX_ODDS_TERM:,}, "
                f"got {excerpt(text)}"
            )
        return cls(to_win=to_win, to_stake=to_stake)

    @property
    def odds(self) -> Fraction | None:
        """The odds as a fraction (8 to 1 is 8), or None for a fixed amount."""
        return None if self.amount is not None else Fraction(self.to_win, self.to_stake)

    def win(self, stake: int) -> int:
        """The amount won on ``stake`` cents (beyond the stake itself), rounded down to the cent."""
        if self.amount is not None:
            return self.amount
        return stake * self.to_win // self.to_stake

    def at_least(self, minimum: Payout) -> bool:
        """Whether this payout is no less than ``minimum`` of the same kind."""
        if (self.amount is None) != (minimum.amount is None):
            return False
        if self.amount is not None and minimum.amount is not None:
            return self.amount >= minimum.amount
        return Fraction(self.to_win, self.to_stake) >= Fraction(minimum.to_win, minimum.to_stake)

    def __str__(self) -> str:
        if self.amount is not None:
            return f"${dollars(self.amount)}"
        return f"{self.to_win} to {self.to_stake}"


@dataclass(frozen=True)
class PayTable:
    """Hand name to payout, best hand first; a hand not listed does not qualify."""

    lines: tuple[tuple[str, Payout], ...]

    @classmethod
    def parse(cls, table: Mapping[str, object], what: str) -> PayTable:
        """From a mapping of hand name to payout text, in the order given."""
        return cls(tuple((hand, Payout.parse(p, f"{what} {hand!r}")) for hand, p in table.items()))

    def get(self, hand: str) -> Payout | None:
        """The payout for ``hand``, or None if it does not qualify."""
        return dict(self.lines).get(hand)

    @property
    def hands(self) -> tuple[str, ...]:
        """The qualifying hands, best first."""
        return tuple(h for h, _ in self.lines)

    def overridden_by(self, given: PayTable) -> PayTable:
        """This table with the lines ``given`` replaced; lines not given stay as they are."""
        return PayTable(tuple((dict(self.lines) | dict(given.lines)).items()))

    def check_against(
        self, minimum: PayTable, what: str, clause: str, optional: frozenset[str] = frozenset()
    ) -> None:
        """Refuse a table that pays less than ``minimum`` on any line, or lists other hands.

        Hands in ``optional`` may be left out (13:69F-24.11(d): the casino may elect not to offer
        the royal flush).  The error cites ``clause``.
        """
        mine = dict(self.lines)
        for hand in mine:
            if hand not in minimum.hands:
                allowed = ", ".join(minimum.hands)
                raise FeltError(
                    f"{what}: {excerpt(hand)} is not a hand of {clause} (allowed: {allowed})"
                )
        for hand, least in minimum.lines:
            if hand not in mine:
                if hand in optional:
                    continue
                raise FeltError(f"{what}: {hand!r} must be paid, at least {least} ({clause})")
            if not mine[hand].at_least(least):
                raise FeltError(
                    f"{what}: {hand!r} pays {mine[hand]}, less than the minimum {least} ({clause})"
                )
