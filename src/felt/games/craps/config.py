"""A craps table's configuration and the fixed rules data of N.J.A.C. 19:47-1.

The seed text gives 1.1 and 1.2(a); the payout odds (1.4), the true odds of buy and lay wagers
(1.5) and the odds behind the line (1.6) are taken from the public descriptions of the game as
dealt in New Jersey (docs/interpretations.md, "Craps").  A table file (TOML) is checked when it is
loaded against the minimums in ``data/craps.toml``: a table may pay more on a line, never less.
Amounts are dollars in the file and cents inside; odds are exact fractions.

>>> config = CrapsConfig.from_mapping({})
>>> dollars(config.minimum), dollars(config.maximum), dollars(config.proposition_minimum)
('5.00', '5000.00', '1.00')
>>> str(config.pays["place_6"]), str(config.pays["horn_2"]), config.odds_text
('7/6', '27/4', '3-4-5')
>>> config.odds[6], config.dice, config.seats
(5, 'table', 14)
>>> CrapsConfig.from_mapping({"odds": 100}).odds[4]
100
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Final

from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.core.paytable import Payout
from felt.core.readers import parse_toml
from felt.core.tablefile import DECISION_SECONDS, check_keys, decision_seconds, read_toml
from felt.games.craps.spots import NUMBERS

GAME: Final = "craps"
"""The game id a table file, a command or a script names."""
EDITION: Final = "nj-19-47-1"
"""The one rule text: N.J.A.C. 19:47-1."""
DICE: Final = ("table", "entered")
"""Where a roll's dice come from: ``table``, an electronic table's two dice from the operating
system's CSPRNG; ``entered``, a live table's dice as the stickperson enters them (1.8)."""
SEATS_DEFAULT: Final = 14
ODDS_MAX: Final = 1000
"""The largest odds multiple a table file may name (100x tables exist; 1000 bounds a typo)."""
PAY_KEYS: Final = (
    "pass", "dont_pass", "come", "dont_come",
    *(f"place_{n}" for n in NUMBERS), *(f"place_lose_{n}" for n in NUMBERS),
    "hard_4", "hard_6", "hard_8", "hard_10", "field", "field_2", "field_12", "any_seven",
    "any_craps", "craps_2", "craps_3", "craps_12", "eleven", "craps_eleven_craps",
    "craps_eleven_eleven", "horn_2", "horn_3", "horn_11", "horn_12",
)  # fmt: skip
"""The pay-table lines a table posts (1.4): a wager's id, or a one roll wager's id with the total
it pays on (``field_2``, ``horn_11``)."""


@dataclass(frozen=True)
class Rules:
    """The fixed parts of 19:47-1, from ``data/craps.toml``."""

    title: str
    clause_format: str
    seats_max: int
    odds: str
    pays: dict[str, Fraction]

    def cite(self, section: str) -> str:
        """``cite("2(a)5")`` is ``N.J.A.C. 19:47-1.2(a)5``."""
        return self.clause_format.format(section)


def odds_text(odds: Fraction) -> str:
    """``Fraction(7, 6)`` as ``"7 to 6"``: payout odds are stated "to", never "for" (1.4)."""
    return f"{odds.numerator} to {odds.denominator}"


def _pays(raw: object, what: str) -> dict[str, Fraction]:
    """A pay table: line = "X to Y", lines of :data:`PAY_KEYS` only."""
    if not isinstance(raw, Mapping):
        raise FeltError(f'{what} must be a table of wager = odds such as "7 to 6"')
    out: dict[str, Fraction] = {}
    for key, text in raw.items():
        if key not in PAY_KEYS:
            raise FeltError(
                f"{what}: {excerpt(key)} is not a line of the craps pay table "
                f"(allowed: {', '.join(PAY_KEYS)})"
            )
        payout = Payout.parse(text, f"{what} {key!r}")
        if payout.odds is None or payout.odds <= 0:
            raise FeltError(f'{what} {key!r}: pay at positive odds ("7 to 6"), not {text!r}')
        out[key] = payout.odds
    return out


def _multiples(raw: object, what: str) -> dict[int, int]:
    """The odds multiple of 1.6 by point: ``"3-4-5"`` (3x on 4 and 10, 4x on 5 and 9, 5x on 6 and
    8), a whole number for the same multiple on every point, or a table ``{4 = 3, ...}``."""
    if raw == "3-4-5":
        return {4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3}
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = {str(n): raw for n in NUMBERS}
    if not isinstance(raw, Mapping):
        raise FeltError(
            f'{what} must be "3-4-5", a whole number (the same multiple on every point) or a '
            f"table of point = multiple; got {excerpt(raw)}"
        )
    check_keys(raw, {str(n) for n in NUMBERS}, what)
    out: dict[int, int] = {}
    for n in NUMBERS:
        m = raw.get(str(n))
        if isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= ODDS_MAX:
            raise FeltError(
                f"{what}: the multiple on {n} must be a whole number 1 to {ODDS_MAX}, got "
                f"{excerpt(m)}"
            )
        out[n] = m
    return out


@functools.cache
def rules() -> Rules:
    """The craps rules data."""
    raw = parse_toml(
        resources.files("felt.games.craps").joinpath("data/craps.toml").read_text("utf-8"),
        "felt's data file 'craps/data/craps.toml'",
    )
    pays = _pays(raw["pays"], "craps minimum pays")
    missing = [k for k in PAY_KEYS if k not in pays]
    if missing:  # pragma: no cover - the data file is ours
        raise RuntimeError(f"craps.toml pays lacks {missing}")
    return Rules(raw["title"], raw["clause"], int(raw["seats_max"]), str(raw["odds"]), pays)


_KEYS: Final = {
    "game", "minimum", "maximum", "proposition_minimum", "pays", "odds", "seats", "dice",
    "decision_seconds",
}  # fmt: skip


@dataclass(frozen=True)
class CrapsConfig:
    """One craps table, checked when built.

    ``minimum`` is the least line, place, buy and lay wager and ``proposition_minimum`` the least
    hardway and one roll wager; ``maximum`` bounds any one wager (the odds of 1.6 are bounded by
    ``odds`` instead).  ``pays`` is the posted pay table (1.4), ``odds`` the multiple of the line
    wager the odds behind it may reach on each point (1.6), ``dice`` where the dice come from."""

    minimum: int
    maximum: int
    proposition_minimum: int
    pays: dict[str, Fraction]
    odds: dict[int, int]
    seats: int
    dice: str
    decision_seconds: int = DECISION_SECONDS
    """The shared host's decision clock; craps asks no player for a decision (a wager stays as
    it lies until its owner moves it), so no timeout is ever recorded."""
    game: str = GAME

    @property
    def odds_text(self) -> str:
        """The odds multiple as a table posts it: ``3-4-5``, ``2`` or ``4:3,5:4,...``."""
        m = self.odds
        if m == {4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3}:
            return "3-4-5"
        if len(set(m.values())) == 1:
            return str(m[4])
        return ",".join(f"{n}:{m[n]}" for n in NUMBERS)

    def to_mapping(self) -> dict[str, Any]:
        """The table as TOML/JSON-ready data (dollars as strings) that :meth:`from_mapping` reads
        back to an equal configuration."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("minimum", "maximum", "proposition_minimum"):
                out[f.name] = dollars(value)
            elif f.name == "pays":
                out[f.name] = {k: odds_text(v) for k, v in value.items()}
            elif f.name == "odds":
                text = self.odds_text
                if text.isdigit():
                    out[f.name] = int(text)
                elif text == "3-4-5":
                    out[f.name] = text
                else:
                    out[f.name] = {str(n): v for n, v in value.items()}
            else:
                out[f.name] = value
        return out

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "table") -> CrapsConfig:
        """Build and check; every error names the setting and what is allowed."""
        r = rules()
        check_keys(data, _KEYS, where)
        if data.get("game", GAME) != GAME:
            raise FeltError(f"{where}: game must be {GAME!r} here, got {excerpt(data.get('game'))}")
        minimum = cents(data.get("minimum", "5.00"), f"{where}: minimum")
        maximum = cents(data.get("maximum", "5000.00"), f"{where}: maximum")
        props = cents(data.get("proposition_minimum", "1.00"), f"{where}: proposition_minimum")
        if minimum <= 0 or props <= 0 or maximum < max(minimum, props):
            raise FeltError(
                f"{where}: need minimum and proposition_minimum above 0 and maximum at least both, "
                f"got {dollars(minimum)}, {dollars(props)} and {dollars(maximum)}"
            )
        pays = dict(r.pays)
        if "pays" in data:
            pays |= _pays(data["pays"], f"{where}: pays")
        for key, least in r.pays.items():
            if pays[key] < least:
                raise FeltError(
                    f"{where}: pays {key!r} is {odds_text(pays[key])}, less than the minimum "
                    f"{odds_text(least)} ({r.cite('4')})"
                )
        odds = _multiples(data.get("odds", r.odds), f"{where}: odds")
        seats = data.get("seats", SEATS_DEFAULT)
        if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= r.seats_max:
            raise FeltError(
                f"{where}: seats must be a whole number 1 to {r.seats_max}, got {excerpt(seats)}"
            )
        dice = data.get("dice", DICE[0])
        if dice not in DICE:
            raise FeltError(
                f"{where}: dice must be one of {', '.join(DICE)} (the table's random number "
                f"generator, or entered by the stickperson), got {excerpt(dice)}"
            )
        seconds = decision_seconds(data, where)
        return cls(minimum, maximum, props, {k: pays[k] for k in PAY_KEYS}, odds, seats,
                   str(dice), seconds)  # fmt: skip


def load_craps_table(path: str | Path) -> CrapsConfig:
    """Read and check a craps table file (TOML)."""
    return CrapsConfig.from_mapping(read_toml(path), where=str(path))
