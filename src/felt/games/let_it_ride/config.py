"""A Let It Ride Poker table's configuration and the fixed rules data of N.J.A.C. 19:47-18.

The seed text gives 18.1 to 18.4 and only the titles of 18.5 to 18.12; the pay tables, the bonus
wagers (18.6A, 18.6B) and the payout limit (18.11) are taken from the public descriptions of the
game as dealt in New Jersey (docs/interpretations.md, "Let It Ride Poker").  A table file (TOML)
is checked when it is loaded against the minimums in ``data/let-it-ride.toml``: a table may pay
more on a line, never less.  Amounts are dollars in the file and cents inside; odds are exact
fractions.

>>> config = LetItRideConfig.from_mapping({})
>>> dollars(config.minimum), str(config.pays["royal flush"]), str(config.pays["tens or better"])
('5.00', '1000', '1')
>>> dollars(config.bonus.wager), str(config.three_card_bonus.pays["mini royal"])
('1.00', '50')
>>> dollars(config.payout_limit), config.change_hours
('50000.00', 8)
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
from felt.core.tablefile import (
    DECISION_SECONDS,
    check_keys,
    decision_seconds,
    read_toml,
    stud_equipment,
)
from felt.games.let_it_ride.hand import BONUS_HANDS, HANDS, THREE_CARD_HANDS

GAME: Final = "let_it_ride"
"""The game id a table file, a command or a script names."""
EDITION: Final = "nj-19-47-18"
"""The one rule text: N.J.A.C. 19:47-18."""
SHUFFLING: Final = ("manual", "shuffler")
"""18.5 (title only): the cards are shuffled by hand (then cut with the cover card of 18.2(a)) or
by an automated card shuffling device (18.2(b), 18.4(d))."""
DEALING: Final = ("manual-shoe", "hand", "automated-shoe")
"""18.7, 18.8 and 18.9 (titles only): from a manual dealing shoe, from the hand, from an
automated dealing shoe.  18.4(e) changes the cards every eight hours from a shoe, four from the
hand."""
SEATS_MAX: Final = 7
"""Betting positions: seven on one side of the table (13:69E-1.13H(a)); 1 to 7 allowed."""
NO_LIMIT: Final = "none"
"""What a table file writes for ``payout_limit`` to have no payout limit."""


@dataclass(frozen=True)
class BonusSettings:
    """The let it ride bonus wager (18.6A, not in the seed text): one fixed ``wager`` (cents),
    paid at ``pays`` (odds "to 1") on the player's five-card hand."""

    wager: int
    pays: dict[str, Fraction]

    def to_mapping(self) -> dict[str, Any]:
        """As a table file writes it."""
        return {"wager": dollars(self.wager), "pays": _odds_mapping(self.pays)}


@dataclass(frozen=True)
class ThreeCardSettings:
    """The three-card bonus wager (18.6B, not in the seed text): any amount from ``minimum`` to
    ``maximum`` (cents, whole dollars), paid at ``pays`` on the player's own three cards."""

    minimum: int
    maximum: int
    pays: dict[str, Fraction]

    def to_mapping(self) -> dict[str, Any]:
        """As a table file writes it."""
        return {
            "minimum": dollars(self.minimum),
            "maximum": dollars(self.maximum),
            "pays": _odds_mapping(self.pays),
        }


@dataclass(frozen=True)
class Rules:
    """The fixed parts of 19:47-18, from ``data/let-it-ride.toml``."""

    title: str
    clause_format: str
    cut_min_from_top: int
    change_hours_shoe: int
    change_hours_hand: int
    payout_limit: int
    """The least per-hand payout limit (cents) a table may post (18.11, title only), unless the
    most a player betting the minimum could win is more."""
    pays: dict[str, Fraction]
    bonus: BonusSettings
    three_card_bonus: ThreeCardSettings

    def cite(self, section: str) -> str:
        """``cite("4(e)")`` is ``N.J.A.C. 19:47-18.4(e)``."""
        return self.clause_format.format(section)


def _odds_mapping(pays: Mapping[str, Fraction]) -> dict[str, str]:
    return {h: odds_text(p) for h, p in pays.items()}


def odds_text(odds: Fraction) -> str:
    """``Fraction(11)`` as ``"11 to 1"``."""
    return f"{odds.numerator} to {odds.denominator}"


def _odds(raw: object, allowed: tuple[str, ...], what: str) -> dict[str, Fraction]:
    """A pay table: hand = "X to 1" odds, hands of ``allowed`` only, best first."""
    if not isinstance(raw, Mapping):
        raise FeltError(f'{what} must be a table of hand = odds such as "5 to 1"')
    out: dict[str, Fraction] = {}
    for hand, text in raw.items():
        if hand not in allowed:
            raise FeltError(
                f"{what}: {excerpt(hand)} is not a hand this wager is paid on "
                f"(allowed: {', '.join(allowed)})"
            )
        payout = Payout.parse(text, f"{what} {hand!r}")
        if payout.odds is None or payout.odds <= 0:
            raise FeltError(f'{what} {hand!r}: pay at positive odds ("X to 1"), not {text!r}')
        out[hand] = payout.odds
    return {h: out[h] for h in allowed if h in out}


def _at_least(given: Mapping[str, Fraction], least: Mapping[str, Fraction], what: str,
              clause: str) -> None:  # fmt: skip
    """Refuse a pay table that pays less than ``least`` on a line or leaves one of its lines
    out."""
    for hand, odds in least.items():
        if given.get(hand, Fraction(0)) < odds:
            shown = odds_text(given[hand]) if hand in given else "nothing"
            raise FeltError(
                f"{what} {hand!r} pays {shown}, less than the minimum {odds_text(odds)} ({clause})"
            )


@functools.cache
def rules() -> Rules:
    """The Let It Ride Poker rules data."""
    raw = parse_toml(
        resources.files("felt.games.let_it_ride")
        .joinpath("data/let-it-ride.toml")
        .read_text(encoding="utf-8"),
        "felt's data file 'let_it_ride/data/let-it-ride.toml'",
    )
    bonus, three = raw["bonus"], raw["three_card_bonus"]
    return Rules(
        title=raw["title"],
        clause_format=raw["clause"],
        cut_min_from_top=int(raw["cut_min_from_top"]),
        change_hours_shoe=int(raw["change_hours_shoe"]),
        change_hours_hand=int(raw["change_hours_hand"]),
        payout_limit=cents(raw["payout_limit"], "let it ride payout_limit"),
        pays=_odds(raw["pays"], HANDS, "let it ride minimum pays"),
        bonus=BonusSettings(
            cents(bonus["wager"], "let it ride bonus wager"),
            _odds(bonus["pays"], BONUS_HANDS, "let it ride minimum bonus pays"),
        ),
        three_card_bonus=ThreeCardSettings(
            cents(three["minimum"], "let it ride three_card_bonus minimum"),
            cents(three["maximum"], "let it ride three_card_bonus maximum"),
            _odds(three["pays"], THREE_CARD_HANDS, "let it ride minimum three_card_bonus pays"),
        ),
    )


_KEYS: Final = {
    "game", "minimum", "maximum", "pays", "payout_limit", "bonus", "three_card_bonus", "seats",
    "decks", "shuffling", "dealing", "decision_seconds",
}  # fmt: skip


@dataclass(frozen=True)
class LetItRideConfig:
    """One Let It Ride Poker table, checked when built.

    ``minimum`` and ``maximum`` bound each of the three equal wagers (18.6, title only).
    ``bonus`` and ``three_card_bonus`` are None when the table does not offer that wager.
    ``payout_limit`` (cents, None: no limit) caps what one hand's three wagers win in a round
    (18.11, title only); the bonus wagers are paid in full."""

    minimum: int
    maximum: int
    pays: dict[str, Fraction]
    bonus: BonusSettings | None
    three_card_bonus: ThreeCardSettings | None
    payout_limit: int | None
    seats: int
    decks: int
    shuffling: str
    dealing: str
    decision_seconds: int = DECISION_SECONDS
    """Seconds each player has to take back a wager or let it ride before the table may record
    a timeout (which lets it ride: 18.1 "Let it ride")."""
    game: str = GAME

    @property
    def cut_required(self) -> bool:
        """The cards are cut with the cover card after a manual shuffle only (18.2(a), 18.5)."""
        return self.shuffling == "manual"

    @property
    def change_hours(self) -> int:
        """How long the cards in use may stay on the table (18.4(e)): eight hours dealt from a
        shoe, four dealt from the hand."""
        r = rules()
        return r.change_hours_hand if self.dealing == "hand" else r.change_hours_shoe

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
            elif f.name == "pays":
                out[f.name] = _odds_mapping(value)
            elif f.name in ("bonus", "three_card_bonus"):
                out[f.name] = False if value is None else value.to_mapping()
            else:
                out[f.name] = value
        return out

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "table") -> LetItRideConfig:
        """Build and check; every error names the setting and what is allowed."""
        r = rules()
        check_keys(data, _KEYS, where)
        if data.get("game", GAME) != GAME:
            raise FeltError(f"{where}: game must be {GAME!r} here, got {excerpt(data.get('game'))}")
        minimum = cents(data.get("minimum", "5.00"), f"{where}: minimum")
        maximum = cents(data.get("maximum", "100.00"), f"{where}: maximum")
        if minimum <= 0 or maximum < minimum:
            raise FeltError(
                f"{where}: need 0 < minimum <= maximum (the limits of each of the three wagers), "
                f"got {dollars(minimum)} and {dollars(maximum)}"
            )
        clause = r.cite("11")
        pays = dict(r.pays)
        if "pays" in data:
            pays |= _odds(data["pays"], HANDS, f"{where}: pays")
        _at_least(pays, r.pays, f"{where}: pays", clause)
        bonus = _bonus(data.get("bonus", True), r, f"{where}: bonus")
        three = _three_card(data.get("three_card_bonus", True), r, f"{where}: three_card_bonus")
        limit = _limit(data, r, minimum, pays, where)
        seats, decks, shuffling, dealing = stud_equipment(
            data,
            where,
            r.cite,
            seats_max=SEATS_MAX,
            shuffling_clause="5",
            shuffling=SHUFFLING,
            dealing=DEALING,
        )
        seconds = decision_seconds(data, where)
        return cls(minimum, maximum, pays, bonus, three, limit, seats, decks, shuffling,
                   dealing, seconds)  # fmt: skip


def least_payout_limit(minimum: int, pays: Mapping[str, Fraction], r: Rules | None = None) -> int:
    """The least payout limit a table may post (18.11): the rules' figure, or the most one player
    betting ``minimum`` on each of the three wagers could win in a round, whichever is greater."""
    r = r or rules()
    most = 3 * minimum * max(pays.values())
    return max(r.payout_limit, int(most))


def _limit(data: Mapping[str, Any], r: Rules, minimum: int, pays: Mapping[str, Fraction],
           where: str) -> int | None:  # fmt: skip
    """The payout limit: the least of 18.11 unless the table posts a higher one or none
    (``"none"``); a lower one would pay less than the rules allow."""
    least = least_payout_limit(minimum, pays, r)
    raw = data.get("payout_limit", dollars(least))
    if raw == NO_LIMIT:
        return None
    limit = cents(raw, f"{where}: payout_limit")
    if limit < least:
        raise FeltError(
            f"{where}: payout_limit {dollars(limit)} is below {dollars(least)}, the least a table "
            f"may post ({r.cite('11')}: {dollars(r.payout_limit)} or the most a player betting "
            f'the minimum could win, whichever is greater; give a higher amount, or "{NO_LIMIT}")'
        )
    return limit


def _bonus(raw: object, r: Rules, where: str) -> BonusSettings | None:
    """The table's let it ride bonus wager: ``false`` for none, ``true`` for felt's minimum
    table, or a table of ``wager`` and ``pays`` over it."""
    if raw is False:
        return None
    if raw is True:
        raw = {}
    if not isinstance(raw, Mapping):
        raise FeltError(
            f"{where} must be true, false or a table of pays, wager; got {excerpt(raw)}"
        )
    check_keys(raw, {"wager", "pays"}, where)
    wager = cents(raw.get("wager", dollars(r.bonus.wager)), f"{where}: wager")
    if wager <= 0:
        raise FeltError(f"{where}: wager must be a positive amount, got {dollars(wager)}")
    pays = dict(r.bonus.pays)
    if "pays" in raw:
        pays |= _odds(raw["pays"], BONUS_HANDS, f"{where}: pays")
    _at_least(pays, r.bonus.pays, f"{where}: pays", r.cite("11"))
    return BonusSettings(wager, {h: pays[h] for h in BONUS_HANDS if h in pays})


def _three_card(raw: object, r: Rules, where: str) -> ThreeCardSettings | None:
    """The table's three-card bonus wager: ``false`` for none, ``true`` for felt's minimum table,
    or a table of ``minimum``, ``maximum`` and ``pays`` over it."""
    if raw is False:
        return None
    if raw is True:
        raw = {}
    if not isinstance(raw, Mapping):
        raise FeltError(
            f"{where} must be true, false or a table of maximum, minimum, pays; got {excerpt(raw)}"
        )
    check_keys(raw, {"minimum", "maximum", "pays"}, where)
    least = r.three_card_bonus
    low = cents(raw.get("minimum", dollars(least.minimum)), f"{where}: minimum")
    high = cents(raw.get("maximum", dollars(least.maximum)), f"{where}: maximum")
    if low <= 0 or high < low or low % 100 or high % 100:
        raise FeltError(
            f"{where}: need whole-dollar limits 0 < minimum <= maximum, got {dollars(low)} and "
            f"{dollars(high)}"
        )
    pays = dict(least.pays)
    if "pays" in raw:
        pays |= _odds(raw["pays"], THREE_CARD_HANDS, f"{where}: pays")
    _at_least(pays, least.pays, f"{where}: pays", r.cite("11"))
    return ThreeCardSettings(low, high, {h: pays[h] for h in THREE_CARD_HANDS if h in pays})


def load_let_it_ride_table(path: str | Path) -> LetItRideConfig:
    """Read and check a Let It Ride Poker table file (TOML)."""
    return LetItRideConfig.from_mapping(read_toml(path), where=str(path))
