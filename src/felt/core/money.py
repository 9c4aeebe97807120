"""Money: integer cents inside felt, dollars (``12.50``) in files, flags and JSON.

>>> cents("12.50"), cents(5), dollars(1250), dollars(-5)
(1250, 500, '12.50', '-0.05')
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from felt.core.errors import FeltError


def cents(value: object, what: str = "amount") -> int:
    """Dollars (a number or a string such as ``"12.50"``) as whole cents; fractions of a cent refused."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise FeltError(f"{what} must be an amount in dollars such as 12.50, got {value!r}")
    try:
        amount = Decimal(str(value).strip().lstrip("$").replace(",", ""))
    except InvalidOperation:
        raise FeltError(
            f"{what} must be an amount in dollars such as 12.50, got {value!r}"
        ) from None
    if not amount.is_finite():
        raise FeltError(f"{what} must be a finite amount in dollars, got {value!r}")
    hundredths = amount * 100
    if hundredths != hundredths.to_integral_value():
        raise FeltError(f"{what} must be whole cents, got {value!r}")
    return int(hundredths)


def dollars(amount: int) -> str:
    """Cents as a dollar string with two decimals: ``1250`` is ``"12.50"``."""
    sign = "-" if amount < 0 else ""
    whole, part = divmod(abs(amount), 100)
    return f"{sign}{whole}.{part:02d}"


def dollars_number(amount: int) -> float:
    """Cents as a JSON number of dollars (exact to the cent when read back as a decimal)."""
    return amount / 100
