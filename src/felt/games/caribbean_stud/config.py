"""A Caribbean Stud Poker table's configuration and the fixed rules data of N.J.A.C. 19:47-16.

The seed text gives 16.1 to 16.5(b)7 and only the titles of 16.6 to 16.13; the pay table, the
progressive payout and the payout limit are taken from the public descriptions of the game as
dealt in New Jersey (docs/interpretations.md, "Caribbean Stud Poker").  A table file (TOML) is
checked when it is loaded against the minimums in ``data/caribbean-stud.toml``: a table may pay
more on a line, never less.  Amounts are dollars in the file and cents inside; odds and
percentages are exact fractions.

>>> config = CaribbeanConfig.from_mapping({})
>>> dollars(config.minimum), str(config.bet_pays["royal flush"]), config.progressive is not None
('5.00', '100', True)
>>> p = config.progressive
>>> p.meter, dollars(p.wager), str(p.percent["straight flush"]), dollars(p.fixed["flush"])
('caribbean', '1.00', '1/10', '50.00')
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Final

from felt.core.cards import RANK_CHARS
from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.core.paytable import Payout
from felt.core.readers import parse_toml
from felt.core.tablefile import (
    DECISION_SECONDS,
    check_keys,
    decision_seconds,
    read_toml,
    stud_equipment,
)

GAME: Final = "caribbean_stud"
"""The game id a table file, a command or a script names."""
EDITION: Final = "nj-19-47-16"
"""The one rule text: N.J.A.C. 19:47-16."""
SHUFFLING: Final = ("manual", "shuffler")
"""16.4(a): the cards are shuffled by hand (then cut, 16.4(b)2) or by an automated card
shuffling device (no cut, 16.4(b)1)."""
DEALING: Final = ("manual-shoe", "hand", "automated-shoe")
"""16.7, 16.8 and 16.9 (titles only): from a manual dealing shoe, from the hand, from an
automated dealing shoe."""
SEATS_MAX: Final = 7
"""Betting positions: six or seven on one side of the table (13:69E-1.13G(a)); 1 to 7 allowed."""
HANDS: Final = (
    "royal flush", "straight flush", "four of a kind", "full house", "flush", "straight",
    "three of a kind", "two pair", "one pair", "ace king",
)  # fmt: skip
"""The hands the bet wager is paid on, best first (16.5(b) and, not in the seed text, one pair
and an ace-king high hand, the least hand a qualifying dealer's hand can be beaten with)."""
PROGRESSIVE_HANDS: Final = (
    "royal flush",
    "straight flush",
    "four of a kind",
    "full house",
    "flush",
)
"""16.1 "Progressive payout hand": a flush, full house, four-of-a-kind, straight flush or royal
flush."""
NO_LIMIT: Final = "none"
"""What a table file writes for ``payout_limit`` to have no payout limit."""


@dataclass(frozen=True)
class ProgressiveSettings:
    """A table's progressive payout (16.11, 16.12; not in the seed text).

    ``wager`` (cents) is the one amount of the progressive wager; ``rate`` the share of each such
    wager that goes onto the meter ``meter`` when wagers close (the rest is the house's);
    ``seed`` (cents) the amount the meter is reset to, funded by the house; ``percent`` the
    hands paid a share of the meter, ``fixed`` the hands paid a fixed amount (cents) by the
    house."""

    meter: str
    wager: int
    rate: Fraction
    seed: int
    percent: dict[str, Fraction]
    fixed: dict[str, int]

    def pays(self, hand: str) -> str:
        """What the progressive pays on ``hand`` in words (``10% of the meter``, ``$100.00``), or
        "" when it pays nothing."""
        if hand in self.percent:
            return f"{percent_text(self.percent[hand])} of the meter"
        if hand in self.fixed:
            return f"${dollars(self.fixed[hand])}"
        return ""

    def to_mapping(self) -> dict[str, Any]:
        """As a table file writes it (dollars and percentages as strings)."""
        return {
            "meter": self.meter,
            "wager": dollars(self.wager),
            "rate": percent_text(self.rate),
            "seed": dollars(self.seed),
            "percent": {h: percent_text(p) for h, p in self.percent.items()},
            "fixed": {h: dollars(a) for h, a in self.fixed.items()},
        }


@dataclass(frozen=True)
class Rules:
    """The fixed parts of 19:47-16, from ``data/caribbean-stud.toml``."""

    title: str
    clause_format: str
    cut_min_from_top: int
    qualifier: tuple[int, ...]
    """The ranks of the least qualifying hand, highest first (A-K-4-3-2, 16.1)."""
    payout_limit: int
    """The least payout limit a table may set (the $5,000 of 16.12, title only)."""
    bet_pays: dict[str, Fraction]
    """The least odds ("to 1") a table may pay the bet wager on each hand."""
    progressive: ProgressiveSettings
    """The progressive's minimum payouts, and felt's default meter, wager, rate and seed."""

    def cite(self, section: str) -> str:
        """``cite("4(d)")`` is ``N.J.A.C. 19:47-16.4(d)``."""
        return self.clause_format.format(section)


_PERCENT = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,6})?)\s*%\s*$", re.ASCII)
_RATIO = re.compile(r"^\s*(\d{1,7})\s*/\s*(\d{1,7})\s*$", re.ASCII)
_DECIMAL = re.compile(r"^\s*(0|1)(\.\d{1,8})?\s*$", re.ASCII)


def share(value: object, what: str) -> Fraction:
    """A share of the meter or of a wager: ``"10%"``, ``"1/10"`` or ``"0.1"``, more than 0 and at
    most 1 (100%)."""
    text = value if isinstance(value, str) else None
    result: Fraction | None = None
    if text is not None and (m := _PERCENT.match(text)):
        result = Fraction(m.group(1)) / 100
    elif text is not None and (m := _RATIO.match(text)) and int(m.group(2)):
        result = Fraction(int(m.group(1)), int(m.group(2)))
    elif text is not None and _DECIMAL.match(text):
        result = Fraction(text.strip())
    if result is None or not 0 < result <= 1:
        raise FeltError(
            f'{what} must be a share more than 0 and at most 100%, such as "10%", "1/10" or '
            f'"0.1", got {excerpt(value)}'
        )
    return result


def percent_text(value: Fraction) -> str:
    """``Fraction(1, 10)`` as ``"10%"``; a share that is no whole number of hundredths of a
    percent as the decimal :func:`share` reads (up to 8 places), else as a ratio (``"1/3"``), so
    that :func:`share` reads every share it wrote back to the same value.

    >>> [percent_text(Fraction(n, d)) for n, d in ((1, 10), (1, 3), (6172839, 50000000))]
    ['10%', '1/3', '0.12345678']
    """
    hundredths = value * 10000
    if hundredths.denominator != 1:
        places = value * 10**8
        if places.denominator == 1 and value < 1:
            return "0." + f"{int(places):08d}".rstrip("0")
        return f"{value.numerator}/{value.denominator}"
    whole, part = divmod(int(hundredths), 100)
    return f"{whole}%" if part == 0 else f"{whole}.{part:02d}".rstrip("0") + "%"


def _odds(raw: object, what: str) -> dict[str, Fraction]:
    """A pay table of the bet wager: hand = "X to 1" odds, hands of :data:`HANDS` only."""
    if not isinstance(raw, Mapping):
        raise FeltError(f'{what} must be a table of hand = odds such as "100 to 1"')
    out: dict[str, Fraction] = {}
    for hand, text in raw.items():
        if hand not in HANDS:
            raise FeltError(
                f"{what}: {excerpt(hand)} is not a hand the bet wager is paid on "
                f"(allowed: {', '.join(HANDS)})"
            )
        payout = Payout.parse(text, f"{what} {hand!r}")
        if payout.odds is None:
            raise FeltError(
                f'{what} {hand!r}: the bet wager is paid at odds ("X to 1"), not a fixed amount'
            )
        out[hand] = payout.odds
    return out


def _amounts(raw: object, allowed: tuple[str, ...], what: str) -> dict[str, int]:
    """Fixed progressive payouts: hand = dollars, hands of ``allowed`` only."""
    if not isinstance(raw, Mapping):
        raise FeltError(f'{what} must be a table of hand = amount such as "500.00"')
    out: dict[str, int] = {}
    for hand, text in raw.items():
        if hand not in allowed:
            raise FeltError(
                f"{what}: {excerpt(hand)} is not a progressive payout hand (allowed: "
                f"{', '.join(allowed)})"
            )
        out[hand] = cents(text, f"{what} {hand!r}")
        if out[hand] <= 0:
            raise FeltError(f"{what} {hand!r} must be a positive amount")
    return out


def _shares(raw: object, allowed: tuple[str, ...], what: str) -> dict[str, Fraction]:
    """Percentage progressive payouts: hand = share of the meter."""
    if not isinstance(raw, Mapping):
        raise FeltError(f'{what} must be a table of hand = share of the meter such as "10%"')
    out: dict[str, Fraction] = {}
    for hand, text in raw.items():
        if hand not in allowed:
            raise FeltError(
                f"{what}: {excerpt(hand)} is not a progressive payout hand (allowed: "
                f"{', '.join(allowed)})"
            )
        out[hand] = share(text, f"{what} {hand!r}")
    return out


def _progressive(raw: Mapping[str, Any], where: str) -> ProgressiveSettings:
    """The progressive settings of a mapping (the rules data's or a table's over them)."""
    meter = raw.get("meter")
    if not isinstance(meter, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,39}", meter):
        raise FeltError(
            f"{where}: meter must be an id of 1 to 40 lower-case letters, digits, '-' or '_' "
            f"(tables naming the same meter share it), got {excerpt(meter)}"
        )
    wager = cents(raw.get("wager"), f"{where}: wager")
    seed = cents(raw.get("seed"), f"{where}: seed")
    if wager <= 0:
        raise FeltError(f"{where}: wager must be a positive amount, got {dollars(wager)}")
    if seed <= 0:
        raise FeltError(
            f"{where}: seed (the reset amount) must be a positive amount, got {dollars(seed)}"
        )
    percent = _shares(raw.get("percent", {}), PROGRESSIVE_HANDS, f"{where}: percent")
    fixed = _amounts(raw.get("fixed", {}), PROGRESSIVE_HANDS, f"{where}: fixed")
    both = sorted(set(percent) & set(fixed))
    if both:
        raise FeltError(
            f"{where}: {both[0]!r} is paid either a percentage or a fixed amount, not both"
        )
    rate = share(raw.get("rate"), f"{where}: rate")
    return ProgressiveSettings(meter, wager, rate, seed, percent, fixed)


@functools.cache
def rules() -> Rules:
    """The Caribbean Stud Poker rules data."""
    raw = parse_toml(
        resources.files("felt.games.caribbean_stud")
        .joinpath("data/caribbean-stud.toml")
        .read_text(encoding="utf-8"),
        "felt's data file 'caribbean_stud/data/caribbean-stud.toml'",
    )
    return Rules(
        title=raw["title"],
        clause_format=raw["clause"],
        cut_min_from_top=int(raw["cut_min_from_top"]),
        qualifier=tuple(sorted((RANK_CHARS.index(c) for c in raw["qualifier"]), reverse=True)),
        payout_limit=cents(raw["payout_limit"], "caribbean stud payout_limit"),
        bet_pays=_odds(raw["bet_pays"], "caribbean stud minimum bet_pays"),
        progressive=_progressive(raw["progressive"], "caribbean stud minimum progressive"),
    )


_KEYS: Final = {
    "game", "minimum", "maximum", "bet_pays", "payout_limit", "progressive", "seats", "decks",
    "shuffling", "dealing", "decision_seconds",
}  # fmt: skip
_PROGRESSIVE_KEYS: Final = {"meter", "wager", "rate", "seed", "percent", "fixed"}


@dataclass(frozen=True)
class CaribbeanConfig:
    """One Caribbean Stud Poker table, checked when built.

    ``minimum`` and ``maximum`` bound the ante; the bet wager is always twice the ante (16.1
    "Bet wager").  ``progressive`` is None when the table offers no progressive wager.
    ``payout_limit`` (cents, None: no limit) caps what one hand's ante and bet wagers win in a
    round (16.12, title only)."""

    minimum: int
    maximum: int
    bet_pays: dict[str, Fraction]
    progressive: ProgressiveSettings | None
    payout_limit: int | None
    seats: int
    decks: int
    shuffling: str
    dealing: str
    decision_seconds: int = DECISION_SECONDS
    """Seconds each player has to bet or fold before the table may record a timeout."""
    game: str = GAME

    @property
    def cut_required(self) -> bool:
        """The cards are cut after a manual shuffle only (16.4(b))."""
        return self.shuffling == "manual"

    def to_mapping(self) -> dict[str, Any]:
        """The table as TOML/JSON-ready data (dollars as strings) that :meth:`from_mapping` reads
        back to an equal configuration."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("minimum", "maximum"):
                out[f.name] = dollars(value)
            elif f.name == "payout_limit":
                out[f.name] = NO_LIMIT if value is None else dollars(value)
            elif f.name == "bet_pays":
                out[f.name] = {h: f"{p.numerator} to {p.denominator}" for h, p in value.items()}
            elif f.name == "progressive":
                out[f.name] = False if value is None else value.to_mapping()
            else:
                out[f.name] = value
        return out

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "table") -> CaribbeanConfig:
        """Build and check; every error names the setting and what is allowed."""
        r = rules()
        check_keys(data, _KEYS, where)
        if data.get("game", GAME) != GAME:
            raise FeltError(f"{where}: game must be {GAME!r} here, got {excerpt(data.get('game'))}")
        minimum = cents(data.get("minimum", "5.00"), f"{where}: minimum")
        maximum = cents(data.get("maximum", "100.00"), f"{where}: maximum")
        if minimum <= 0 or maximum < minimum:
            raise FeltError(
                f"{where}: need 0 < minimum <= maximum (the ante's limits), got {dollars(minimum)} "
                f"and {dollars(maximum)}"
            )
        bet_pays = dict(r.bet_pays)
        if "bet_pays" in data:
            bet_pays |= _odds(data["bet_pays"], f"{where}: bet_pays")
        for hand, least in r.bet_pays.items():
            if bet_pays[hand] < least:
                raise FeltError(
                    f"{where}: bet_pays {hand!r} pays {_odds_text(bet_pays[hand])}, less than the "
                    f"minimum {_odds_text(least)} ({r.cite('12')})"
                )
        limit = _limit(data, r, where)
        progressive = _table_progressive(data.get("progressive", True), r, f"{where}: progressive")
        seats, decks, shuffling, dealing = stud_equipment(
            data,
            where,
            r.cite,
            seats_max=SEATS_MAX,
            shuffling_clause="4(a)",
            shuffling=SHUFFLING,
            dealing=DEALING,
        )
        seconds = decision_seconds(data, where)
        return cls(minimum, maximum, bet_pays, progressive, limit, seats, decks,
                   shuffling, dealing, seconds)  # fmt: skip


def _odds_text(odds: Fraction) -> str:
    return f"{odds.numerator} to {odds.denominator}"


def _limit(data: Mapping[str, Any], r: Rules, where: str) -> int | None:
    """The payout limit: the $5,000 of 16.12 unless the table sets a higher one or none
    (``"none"``); a lower one would pay less than the rules allow."""
    raw = data.get("payout_limit", dollars(r.payout_limit))
    if raw == NO_LIMIT:
        return None
    limit = cents(raw, f"{where}: payout_limit")
    if limit < r.payout_limit:
        raise FeltError(
            f"{where}: payout_limit {dollars(limit)} is below {dollars(r.payout_limit)}, the "
            f'limit of {r.cite("12")} (give a higher amount, or "{NO_LIMIT}" for no limit)'
        )
    return limit


def _table_progressive(raw: object, r: Rules, where: str) -> ProgressiveSettings | None:
    """The table's progressive: ``false`` for none, ``true`` for felt's defaults, or a table of
    settings over the defaults; no payout below the minimums, the royal flush 100% of the
    meter."""
    if raw is False:
        return None
    if raw is True:
        raw = {}
    if not isinstance(raw, Mapping):
        raise FeltError(
            f"{where} must be true, false or a table of {', '.join(sorted(_PROGRESSIVE_KEYS))}, "
            f"got {excerpt(raw)}"
        )
    check_keys(raw, _PROGRESSIVE_KEYS, where)
    least = r.progressive
    merged: dict[str, Any] = least.to_mapping()
    for key in ("meter", "wager", "rate", "seed"):
        if key in raw:
            merged[key] = raw[key]
    for key in ("percent", "fixed"):
        if key in raw:
            if not isinstance(raw[key], Mapping):
                raise FeltError(f"{where}: {key} must be a table of hand = payout")
            merged[key] = {**merged[key], **raw[key]}
    given = _progressive(merged, where)
    clause = r.cite("12")
    for hand, p in least.percent.items():
        if given.percent.get(hand, Fraction(0)) < p:
            raise FeltError(
                f"{where}: {hand!r} must be paid at least {percent_text(p)} of the meter ({clause})"
            )
    for hand, amount in least.fixed.items():
        if given.fixed.get(hand, 0) < amount:
            raise FeltError(f"{where}: {hand!r} must be paid at least {dollars(amount)} ({clause})")
    return given


def load_caribbean_table(path: str | Path) -> CaribbeanConfig:
    """Read and check a Caribbean Stud Poker table file (TOML)."""
    return CaribbeanConfig.from_mapping(read_toml(path), where=str(path))
