"""Money: integer cents inside felt, dollars (``12.50``) in files, flags and JSON.

>>> cents("12.50"), cents(5), dollars(1250), dollars(-5)
(1250, 500, '12.50', '-0.05')

Amounts are bounded: no wager, limit or payout felt reads is above :data:`MAX_AMOUNT`
($10,000,000), so no amount, however written (``"1e999999"``), becomes an enormous integer.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation, localcontext
from typing import Final

from felt.core.errors import FeltError, excerpt

MAX_AMOUNT: Final = 1_000_000_000
"""The largest amount felt reads, in cents ($10,000,000): any wager, table limit or fixed payout."""
MAX_METER: Final = 10**15
"""The largest progressive meter felt reads back from a round's record, in cents ($10 trillion):
a meter grows with every wager on every linked table, so it has no table limit to stay under."""
_MAX_TEXT = 40  # characters of an amount's text; "$10,000,000.00" needs 14
_DOLLARS_TEXT = re.compile(r"-?\$?-?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d*)?", re.ASCII)
"""Dollars as people write them: an optional sign and ``$``, digits with commas only between
groups of three, and decimals.  ``Decimal`` alone would read ``"2,50"`` (commas dropped) as 250,
``"1e2"`` as 100, ``"1_000"`` and other scripts' digits: none is an amount as written."""


def cents(value: object, what: str = "amount", maximum: int = MAX_AMOUNT) -> int:
    """Dollars (a number or a string such as ``"12.50"``) as whole cents, at most ``maximum``
    cents either way; fractions of a cent refused."""
    shown = excerpt(value)
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise FeltError(f"{what} must be an amount in dollars such as 12.50, got {shown}")
    if isinstance(value, int) and abs(value) > maximum:  # before str(): it may be huge
        raise FeltError(f"{what} must be at most {dollars(maximum)} dollars, got {shown}")
    text = str(value).strip()
    if isinstance(value, str):
        if (
            len(text) > _MAX_TEXT
            or not _DOLLARS_TEXT.fullmatch(text)
            or not any(c.isdigit() for c in text)
            or text.count("-") > 1
        ):
            raise FeltError(
                f"{what} must be an amount in dollars such as 12.50 or $1,250.00 (digits, commas "
                f"only between groups of three, no exponent; at most {dollars(maximum)}), "
                f"got {shown}"
            )
        text = text.replace("$", "").replace(",", "")
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise FeltError(f"{what} must be an amount in dollars such as 12.50, got {shown}") from None
    if not amount.is_finite():
        raise FeltError(f"{what} must be a finite amount in dollars, got {shown}")
    if amount.copy_abs() * 100 > maximum:  # copy_abs: no context, so no overflow
        raise FeltError(f"{what} must be at most {dollars(maximum)} dollars, got {shown}")
    with localcontext() as ctx:
        ctx.prec = 2 * _MAX_TEXT  # exact: the text has fewer digits than this
        hundredths = amount * 100
    if hundredths != hundredths.to_integral_value():
        raise FeltError(f"{what} must be whole cents, got {shown}")
    return int(hundredths)


def dollars(amount: int) -> str:
    """Cents as a dollar string with two decimals: ``1250`` is ``"12.50"``."""
    sign = "-" if amount < 0 else ""
    whole, part = divmod(abs(amount), 100)
    return f"{sign}{whole}.{part:02d}"


def dollars_number(amount: int) -> float:
    """Cents as a JSON number of dollars (exact to the cent when read back as a decimal)."""
    return amount / 100
