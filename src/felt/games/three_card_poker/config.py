"""A Three Card Poker table's configuration and the fixed rules data of N.J.A.C. 19:47-20.

The seed text holds only the titles of 20.1-20.12; what a section says is taken from the public
descriptions of the game as dealt in New Jersey (docs/interpretations.md, "Three Card Poker").
The table file (TOML) is checked when it is loaded: the pay tables against the minimums in
``data/three-card-poker.toml`` (a table may pay more on a line, never less).  Amounts are dollars
in the file and cents inside.

>>> config = ThreeCardConfig.from_mapping({})
>>> dollars(config.minimum), config.pair_plus, str(config.ante_bonus.get("straight flush"))
('5.00', True, '5 to 1')
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any, Final

from felt.core.cards import RANK_CHARS, Rank
from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.core.paytable import PayTable
from felt.core.readers import parse_toml
from felt.core.tablefile import DECISION_SECONDS, check_keys, decision_seconds, flag, read_toml

GAME: Final = "three-card-poker"
"""The game id a table file, a command or a script names."""
EDITION: Final = "nj-19-47-20"
"""The one rule text: N.J.A.C. 19:47-20."""
SHUFFLING: Final = ("manual", "shuffler", "shuffler-to-shoe")
"""20.5 (title only): by hand, by a shuffler that stacks the deck, or one that loads the shoe (no
cut), as 19:47-17.4(a)-(b) gives them for Double Down Stud."""
DEALING: Final = ("manual-shoe", "hand", "automated-shoe")
"""20.7, 20.8 and 20.9 (titles only): from a manual dealing shoe, from the hand, from an automated
dealing shoe."""
SEATS_MAX: Final = 7
"""Betting positions at a table: six or seven (the table's layout; 1 to 7 allowed)."""
HANDS: Final = ("straight flush", "three of a kind", "straight", "flush", "pair")
"""The hands of 20.3 above high card, best first: the names the pay tables use."""


@dataclass(frozen=True)
class Rules:
    """The fixed parts of 19:47-20, from ``felt/games/three_card_poker/data/three-card-poker.toml``."""

    title: str
    clause_format: str
    ante_bonus: PayTable
    """The least a table may pay on each ante bonus line."""
    pair_plus: PayTable
    """The least a table may pay on each pair plus line."""
    cut_min_from_end: int
    qualifier: Rank
    """The dealer qualifies with this card high or better (the queen)."""

    def cite(self, section: str) -> str:
        """``cite("10")`` is ``N.J.A.C. 19:47-20.10``."""
        return self.clause_format.format(section)


def _rank(text: object, where: str) -> Rank:
    if not isinstance(text, str) or len(text) != 1 or text not in RANK_CHARS:
        raise FeltError(f"{where}: a rank is one of {RANK_CHARS}, got {excerpt(text)}")
    return Rank(RANK_CHARS.index(text))


def _table(raw: object, what: str) -> PayTable:
    if not isinstance(raw, Mapping):
        raise FeltError(f"{what} must be a table of hand = odds")
    table = PayTable.parse(raw, what)
    for hand in table.hands:
        if hand not in HANDS:
            raise FeltError(
                f"{what}: {excerpt(hand)} is not a Three Card Poker hand above high card "
                f"(allowed: {', '.join(HANDS)})"
            )
    return table


@functools.cache
def rules() -> Rules:
    """The Three Card Poker rules data."""
    raw = parse_toml(
        resources.files("felt.games.three_card_poker")
        .joinpath("data/three-card-poker.toml")
        .read_text(encoding="utf-8"),
        "felt's data file 'three_card_poker/data/three-card-poker.toml'",
    )
    return Rules(
        title=raw["title"],
        clause_format=raw["clause"],
        ante_bonus=_table(raw["ante_bonus"], "three card poker minimum ante bonus"),
        pair_plus=_table(raw["pair_plus"], "three card poker minimum pair plus"),
        cut_min_from_end=int(raw["cut_min_from_end"]),
        qualifier=_rank(raw["qualifier"], "three card poker qualifier"),
    )


_KEYS: Final = {
    "game", "minimum", "maximum", "pair_plus", "pair_plus_minimum", "pair_plus_maximum",
    "ante_bonus", "pair_plus_table", "seats", "two_positions", "dealing", "shuffling",
    "decision_seconds",
}  # fmt: skip


@dataclass(frozen=True)
class ThreeCardConfig:
    """One Three Card Poker table, checked when built.

    ``minimum`` and ``maximum`` bound the ante; the play wager always equals the ante (20.6).  The
    pair plus wager is offered when ``pair_plus`` is true, within its own limits.
    """

    minimum: int
    maximum: int
    pair_plus: bool
    pair_plus_minimum: int
    pair_plus_maximum: int
    ante_bonus: PayTable
    pair_plus_table: PayTable
    seats: int
    two_positions: bool
    dealing: str
    shuffling: str
    decision_seconds: int = DECISION_SECONDS
    """Seconds each player has to play or fold before the table may record a timeout."""
    game: str = GAME

    @property
    def cut_required(self) -> bool:
        """The cards are cut unless a shuffler inserted them directly into the shoe (20.5)."""
        return self.shuffling != "shuffler-to-shoe"

    def to_mapping(self) -> dict[str, Any]:
        """The table as TOML/JSON-ready data (dollars as strings) that :meth:`from_mapping` reads
        back to an equal configuration."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("minimum", "maximum", "pair_plus_minimum", "pair_plus_maximum"):
                out[f.name] = dollars(value)
            elif isinstance(value, PayTable):
                out[f.name] = {hand: str(p) for hand, p in value.lines}
            else:
                out[f.name] = value
        return out

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "table") -> ThreeCardConfig:
        """Build and check; every error names the setting and what is allowed."""
        r = rules()
        check_keys(data, _KEYS, where)
        if data.get("game", GAME) != GAME:
            raise FeltError(f"{where}: game must be {GAME!r} here, got {excerpt(data.get('game'))}")
        minimum, maximum = _limits(data, "minimum", "maximum", "5.00", "500.00", where)
        offered = flag(data, "pair_plus", True, where)
        pp_min, pp_max = _limits(data, "pair_plus_minimum", "pair_plus_maximum",
                                 dollars(minimum), dollars(maximum), where)  # fmt: skip
        ante_bonus = _pays(data, "ante_bonus", r.ante_bonus, where, r.cite("11"))
        pair_plus = _pays(data, "pair_plus_table", r.pair_plus, where, r.cite("11"))
        seats = data.get("seats", 6)
        if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= SEATS_MAX:
            raise FeltError(
                f"{where}: seats (betting positions) must be 1 to {SEATS_MAX}, got {excerpt(seats)}"
            )
        two = flag(data, "two_positions", False, where)
        dealing = data.get("dealing", "manual-shoe")
        if dealing not in DEALING:
            raise FeltError(
                f"{where}: dealing must be one of {', '.join(DEALING)} ({r.cite('7')} to "
                f"{r.cite('9')}), got {excerpt(dealing)}"
            )
        shuffling = data.get("shuffling", "shuffler")
        if shuffling not in SHUFFLING:
            raise FeltError(
                f"{where}: shuffling must be one of {', '.join(SHUFFLING)} ({r.cite('5')}), "
                f"got {excerpt(shuffling)}"
            )
        if shuffling == "shuffler-to-shoe" and dealing == "hand":
            raise FeltError(
                f"{where}: a shuffler that loads the shoe needs a dealing shoe (dealing = "
                f"manual-shoe or automated-shoe), not dealing = hand ({r.cite('5')})"
            )
        seconds = decision_seconds(data, where)
        return cls(minimum, maximum, offered, pp_min, pp_max, ante_bonus, pair_plus, seats, two,
                   str(dealing), str(shuffling), seconds)  # fmt: skip


def _limits(
    data: Mapping[str, Any], low: str, high: str, low_default: str, high_default: str, where: str
) -> tuple[int, int]:
    """A pair of table limits, ``0 < low <= high``."""
    lo = cents(data.get(low, low_default), f"{where}: {low}")
    hi = cents(data.get(high, high_default), f"{where}: {high}")
    if lo <= 0 or hi < lo:
        raise FeltError(f"{where}: need 0 < {low} <= {high}, got {dollars(lo)} and {dollars(hi)}")
    return lo, hi


def _pays(
    data: Mapping[str, Any], key: str, minimum: PayTable, where: str, clause: str
) -> PayTable:
    """A table's pay table: the minimum with the lines the file gives replaced, each line odds
    ("X to 1") and none below the minimum."""
    raw = data.get(key)
    table = minimum
    if raw is not None:
        table = minimum.overridden_by(_table(raw, f"{where}: {key}"))
    if any(p.amount is not None for _, p in table.lines):
        raise FeltError(f'{where}: {key} lines are odds ("X to 1"), as {clause} states them')
    table.check_against(minimum, f"{where}: {key}", clause)
    return table


def load_three_card_table(path: str | Path) -> ThreeCardConfig:
    """Read and check a Three Card Poker table file (TOML)."""
    return ThreeCardConfig.from_mapping(read_toml(path), where=str(path))
