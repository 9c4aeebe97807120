"""A poker table's settings (N.J.A.C. 19:47-14), read from TOML and checked at load.

The variant (``holdem``, ``omaha``, ``stud7``) and its limit (``fixed``, ``pot``, ``no``), the
forced bets (blinds, or ante and bring-in), the fixed-limit bet sizes and the most raises per
round (14.17: posted with the limits), the buy-in limits, the seats and the rake.  Amounts are
dollars in the file and cents inside; the rake percent is an exact fraction.

>>> config = PokerConfig.from_mapping({})
>>> config.variant, config.limit, dollars(config.small_blind), dollars(config.big_blind)
('holdem', 'fixed', '1.00', '2.00')
>>> config.rake
PercentRake(percent=Fraction(10, 1), cap=400, no_flop_no_drop=True)
>>> config.rake.take(pot=2550, flop_seen=True), config.rake.take(pot=9000, flop_seen=True)
(255, 400)
>>> config.rake.take(pot=300, flop_seen=False)
0
>>> PokerConfig.from_mapping({"variant": "stud7", "bring_in": "1.00", "seats": 9})
Traceback (most recent call last):
felt.core.errors.FeltError: poker table: seats must be a whole number from 2 to 8 for stud7, got 9
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Final

from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.core.readers import parse_toml
from felt.core.tablefile import check_keys, decision_seconds, read_toml

GAME: Final = "poker"
"""The game id a table file names."""
VARIANTS: Final = ("holdem", "omaha", "stud7")
"""Texas hold'em, Omaha (four hole cards, exactly two used) and seven-card stud."""
LIMITS: Final = ("fixed", "pot", "no")
"""Fixed limit, pot limit, no limit."""
ALLOWED_LIMITS: Final[dict[str, tuple[str, ...]]] = {
    "holdem": ("fixed", "pot", "no"),
    "omaha": ("fixed", "pot", "no"),
    "stud7": ("fixed",),
}
"""The limits felt deals each variant at (stud: fixed limit, ante and bring-in)."""
SEATS_MAX: Final[dict[str, int]] = {"holdem": 10, "omaha": 10, "stud7": 8}
"""Seven-card stud deals at most 8 (8 x 7 = 56 cards would exceed the deck at 9)."""
WHERE: Final = "poker table"
_KEYS: Final = {
    "game", "variant", "limit", "small_blind", "big_blind", "ante", "bring_in", "small_bet",
    "big_bet", "max_raises", "min_buy_in", "max_buy_in", "seats", "rake", "decision_seconds",
}  # fmt: skip


@dataclass(frozen=True)
class PercentRake:
    """A rake of ``percent`` of the pot, at most ``cap`` cents, rounded down to the cent; with
    ``no_flop_no_drop`` a hand that ends before the flop (or, in stud, before fourth street) is
    not raked."""

    percent: Fraction
    cap: int
    no_flop_no_drop: bool

    def take(self, pot: int, flop_seen: bool) -> int:
        """The rake (cents) from a pot of ``pot`` cents; whole cents, rounded down."""
        if self.no_flop_no_drop and not flop_seen:
            return 0
        return min(self.cap, int(pot * self.percent / 100))

    def to_mapping(self) -> dict[str, Any]:
        """As a table file writes it."""
        return {
            "kind": "percent",
            "percent": str(self.percent),
            "cap": dollars(self.cap),
            "no_flop_no_drop": self.no_flop_no_drop,
        }


@dataclass(frozen=True)
class TimeRake:
    """A time charge: each seated player pays ``per_half_hour`` cents a half hour, not from the
    pot (so a hand's rake is nothing)."""

    per_half_hour: int

    def take(self, pot: int, flop_seen: bool) -> int:
        """Nothing from the pot: the charge is collected from the seats by the table."""
        return 0

    def to_mapping(self) -> dict[str, Any]:
        """As a table file writes it."""
        return {"kind": "time", "per_half_hour": dollars(self.per_half_hour)}


Rake = PercentRake | TimeRake


@dataclass(frozen=True)
class PokerConfig:
    """One poker table's settings; amounts in cents."""

    variant: str
    limit: str
    small_blind: int
    big_blind: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    max_raises: int
    """The most raises per betting round at fixed limit (14.17); 0 is no cap (pot and no limit)."""
    min_buy_in: int
    max_buy_in: int
    seats: int
    rake: Rake
    decision_seconds: int

    @property
    def game(self) -> str:
        """The game id, as every game's configuration names it."""
        return GAME

    @property
    def minimum(self) -> int:
        """The table's limits as the lobby shows them: the buy-in's (players wager against each
        other here, within the betting structure; the house takes no wager)."""
        return self.min_buy_in

    @property
    def maximum(self) -> int:
        """The most a seat buys in for (see :attr:`minimum`)."""
        return self.max_buy_in

    @property
    def blinds(self) -> bool:
        """Hold'em and Omaha post blinds; stud posts antes and a bring-in."""
        return self.variant != "stud7"

    def limits_text(self) -> str:
        """The posted limits, e.g. ``"holdem 2.00/4.00 fixed"`` (14.17; the waiting lists' name)."""
        if self.limit == "fixed":
            return f"{self.variant} {dollars(self.small_bet)}/{dollars(self.big_bet)} fixed"
        return f"{self.variant} {dollars(self.small_blind)}/{dollars(self.big_blind)} {self.limit}"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> PokerConfig:
        """A table from a table file's mapping; missing keys take ``data/poker.toml``'s values."""
        check_keys(data, _KEYS, WHERE)
        if "game" in data and data["game"] != GAME:
            raise FeltError(f"{WHERE}: game must be {GAME!r}, got {excerpt(data['game'])}")
        merged = {**_defaults(), **data}
        variant = _choice(merged, "variant", VARIANTS)
        limit = _choice(merged, "limit", ALLOWED_LIMITS[variant], f" for {variant}")
        amount = functools.partial(_amount, merged)
        blinds = variant != "stud7"
        small_blind = amount("small_blind") if blinds else 0
        big_blind = amount("big_blind") if blinds else 0
        ante = amount("ante")
        bring_in = 0 if blinds else amount("bring_in")
        small_bet, big_bet = amount("small_bet"), amount("big_bet")
        if blinds and not 0 < small_blind <= big_blind:
            raise FeltError(
                f"{WHERE}: small_blind must be more than 0 and at most big_blind "
                f"({dollars(small_blind)} and {dollars(big_blind)} given)"
            )
        if limit == "fixed":
            if not 0 < small_bet <= big_bet:
                raise FeltError(
                    f"{WHERE}: small_bet must be more than 0 and at most big_bet "
                    f"({dollars(small_bet)} and {dollars(big_bet)} given)"
                )
            if blinds and big_blind > small_bet:
                raise FeltError(
                    f"{WHERE}: big_blind ({dollars(big_blind)}) may not exceed small_bet "
                    f"({dollars(small_bet)}) at fixed limit"
                )
        if not blinds and not 0 < bring_in <= small_bet:
            raise FeltError(
                f"{WHERE}: bring_in must be more than 0 and at most small_bet "
                f"({dollars(small_bet)}), got {dollars(bring_in)}"
            )
        max_raises = merged.get("max_raises", 0) if limit == "fixed" else 0
        if limit == "fixed" and (
            isinstance(max_raises, bool) or not isinstance(max_raises, int) or max_raises < 1
        ):
            raise FeltError(
                f"{WHERE}: max_raises must be a whole number of at least 1 at fixed limit "
                f"(14.17), got {excerpt(max_raises)}"
            )
        least = max(big_blind, ante + bring_in, 1)
        min_buy_in, max_buy_in = amount("min_buy_in"), amount("max_buy_in")
        if not least <= min_buy_in <= max_buy_in:
            raise FeltError(
                f"{WHERE}: min_buy_in must be at least {dollars(least)} and at most max_buy_in "
                f"({dollars(min_buy_in)} and {dollars(max_buy_in)} given)"
            )
        top = SEATS_MAX[variant]
        seats = data["seats"] if "seats" in data else min(merged["seats"], top)
        if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= top:
            raise FeltError(
                f"{WHERE}: seats must be a whole number from 2 to {top} for {variant}, "
                f"got {excerpt(seats)}"
            )
        return cls(
            variant=variant,
            limit=limit,
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            bring_in=bring_in,
            small_bet=small_bet,
            big_bet=big_bet,
            max_raises=max_raises,
            min_buy_in=min_buy_in,
            max_buy_in=max_buy_in,
            seats=seats,
            rake=_rake(merged.get("rake")),
            decision_seconds=decision_seconds(merged, WHERE),
        )

    @classmethod
    def from_file(cls, path: Path) -> PokerConfig:
        """A table file (TOML) read and checked."""
        return cls.from_mapping(read_toml(path))

    def to_mapping(self) -> dict[str, Any]:
        """As a table file writes it (reads back to an equal config)."""
        return {
            "game": GAME,
            "variant": self.variant,
            "limit": self.limit,
            "small_blind": dollars(self.small_blind),
            "big_blind": dollars(self.big_blind),
            "ante": dollars(self.ante),
            "bring_in": dollars(self.bring_in),
            "small_bet": dollars(self.small_bet),
            "big_bet": dollars(self.big_bet),
            "max_raises": self.max_raises,
            "min_buy_in": dollars(self.min_buy_in),
            "max_buy_in": dollars(self.max_buy_in),
            "seats": self.seats,
            "rake": self.rake.to_mapping(),
            "decision_seconds": self.decision_seconds,
        }


@functools.cache
def _defaults() -> dict[str, Any]:
    text = resources.files("felt.games.poker").joinpath("data/poker.toml").read_text("utf-8")
    return dict(parse_toml(text, "data/poker.toml"))


def _choice(data: Mapping[str, Any], key: str, allowed: tuple[str, ...], tail: str = "") -> str:
    value = data.get(key)
    if value not in allowed:
        raise FeltError(
            f"{WHERE}: {key} must be one of {', '.join(allowed)}{tail}, got {excerpt(value)}"
        )
    assert isinstance(value, str)
    return value


def _amount(data: Mapping[str, Any], key: str) -> int:
    value = cents(data.get(key, "0"), f"{WHERE}: {key}")
    if value < 0:
        raise FeltError(f"{WHERE}: {key} may not be negative, got {dollars(value)}")
    return value


def _rake(raw: object) -> Rake:
    """The ``[rake]`` table: percent with cap (and no_flop_no_drop), or a time charge."""
    if not isinstance(raw, Mapping):
        raise FeltError(f"{WHERE}: rake must be a table with kind = percent or time")
    where = f"{WHERE}: rake"
    kind = raw.get("kind")
    if kind == "time":
        check_keys(raw, {"kind", "per_half_hour"}, where)
        per = _amount(raw, "per_half_hour")
        return TimeRake(per_half_hour=per)
    if kind != "percent":
        raise FeltError(f"{where}: kind must be percent or time, got {excerpt(kind)}")
    check_keys(raw, {"kind", "percent", "cap", "no_flop_no_drop"}, where)
    try:
        percent = Fraction(str(raw.get("percent", "")))
    except (ValueError, ZeroDivisionError):
        percent = Fraction(-1)
    if not 0 <= percent <= 100:
        raise FeltError(
            f"{where}: percent must be a number from 0 to 100, got {excerpt(raw.get('percent'))}"
        )
    no_drop = raw.get("no_flop_no_drop", True)
    if not isinstance(no_drop, bool):
        raise FeltError(f"{where}: no_flop_no_drop must be true or false, got {excerpt(no_drop)}")
    return PercentRake(percent=percent, cap=_amount(raw, "cap"), no_flop_no_drop=no_drop)
