"""The rule editions (``nj-19-47-24``, ``ma-205-cmr``, ``nj-13-69f-24``), read from data.

Each edition's differences are data in ``felt/games/boston/data/editions.toml``; code asks the edition, never
tests its name.

>>> e = edition("nj-13-69f-24")
>>> e.cite("10(g)"), e.bonus_exposure_required, e.game("boston7").first_ratios
('N.J.A.C. 13:69F-24.10(g)', True, (1, 2))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from typing import Any

from felt.core.errors import FeltError, excerpt
from felt.core.money import cents
from felt.core.paytable import PayTable
from felt.core.readers import parse_toml

GAMES = ("boston5", "boston7")


@dataclass(frozen=True)
class GameRules:
    """What one edition says of one game: wager ratios and minimum pay tables."""

    game: str
    first_ratios: tuple[int, ...]
    """Allowed first (and second) wager as a multiple of the ante."""
    ratio_clause: str
    """The section that sets the ratio."""
    ante_bonus: PayTable
    """Minimum ante bonus table (24.11(c))."""
    optional_bonus: PayTable
    """Minimum optional bonus table (24.11(d))."""


@dataclass(frozen=True)
class Edition:
    """One rule text, selectable by name."""

    name: str
    title: str
    clause_format: str
    games: dict[str, GameRules]
    bonus_exposure_required: bool
    alternative_settlement: bool
    royal_payout_optional: bool
    positions_rule: bool
    discard_rack_clause: str
    remain_seated_clause: str
    bonus_wager_clause: str
    """Where the optional bonus wager and its $1.00 minimum are: 24.6(c), or 13:69F-24.6(e)."""
    payout_limit_floor: int

    def cite(self, section: str) -> str:
        """The citation of a section in this edition, e.g. ``cite("11(c)")``."""
        return self.clause_format.format(section)

    def game(self, name: str) -> GameRules:
        """The rules for ``name``, or a clear error when this edition has no such game."""
        if name not in self.games:
            raise FeltError(
                f"edition {self.name!r} has no game {excerpt(name)} (it has: {', '.join(self.games)})"
            )
        return self.games[name]


def _edition(name: str, raw: dict[str, Any]) -> Edition:
    games = {
        g: GameRules(
            game=g,
            first_ratios=tuple(raw[g]["first_ratios"]),
            ratio_clause=raw[g]["ratio_clause"],
            ante_bonus=PayTable.parse(raw[g]["ante_bonus"], f"{name} {g} ante bonus"),
            optional_bonus=PayTable.parse(raw[g]["optional_bonus"], f"{name} {g} optional bonus"),
        )
        for g in raw["games"]
    }
    return Edition(
        name=name,
        title=raw["title"],
        clause_format=raw["clause"],
        games=games,
        bonus_exposure_required=raw["bonus_exposure"] == "required",
        alternative_settlement=raw["alternative_settlement"],
        royal_payout_optional=raw["royal_payout_optional"],
        positions_rule=raw["positions_rule"],
        discard_rack_clause=raw["discard_rack_clause"],
        remain_seated_clause=raw["remain_seated_clause"],
        bonus_wager_clause=raw["bonus_wager_clause"],
        payout_limit_floor=cents(raw["payout_limit_floor"]),
    )


@functools.cache
def editions() -> dict[str, Edition]:
    """Every edition, by name."""
    text = (
        resources.files("felt.games.boston")
        .joinpath("data/editions.toml")
        .read_text(encoding="utf-8")
    )
    return {
        name: _edition(name, raw)
        for name, raw in parse_toml(text, "felt's data file 'boston/data/editions.toml'").items()
    }


def edition(name: str) -> Edition:
    """The edition called ``name``, or a clear error naming the ones there are."""
    found = editions().get(name)
    if found is None:
        raise FeltError(f"unknown edition {excerpt(name)} (allowed: {', '.join(editions())})")
    return found


def default_edition(game: str) -> str:
    """The edition a game uses when none is named: the first that has it (Boston 7: 13:69F)."""
    for name, ed in editions().items():
        if game in ed.games:
            return name
    raise FeltError(f"unknown game {excerpt(game)} (allowed: {', '.join(GAMES)})")
