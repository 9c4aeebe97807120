"""A casino's table configuration (TOML), checked against the chosen edition when it is loaded.

Every value that breaks a rule is refused with the clause it breaks.  Amounts are dollars in the
file and cents inside.

>>> t = TableConfig.from_mapping({"game": "boston5", "minimum": "5", "maximum": "500"})
>>> t.edition.name, t.first_ratio, t.payout_limit is None
('nj-19-47-24', 2, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Final

from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.core.paytable import PayTable
from felt.core.tablefile import DECISION_SECONDS, check_keys, decision_seconds, flag, read_toml
from felt.games.boston.editions import GAMES, Edition, default_edition, edition

DEALING_METHODS: Final = ("manual-shoe", "hand", "automated-shoe")
"""24.7 manual dealing shoe, 24.8 dealt from the hand, 24.9 automated shoe (stacks of three)."""
SETTLEMENTS: Final = ("standard", "alternative")
"""24.10(f) seat by seat; 13:69F-24.10(g) all losing wagers first, then all winning ones."""
SEATS: Final = 6
"""Six player positions (13:69E-1.13M(a)), numbered 1-6 from the dealer's left."""
THREE_CARD_ROYAL: Final = "three-card royal flush"


@dataclass(frozen=True)
class TableConfig:
    """One table's settings; build with :meth:`from_mapping` or :func:`load_table`."""

    game: str
    edition: Edition
    minimum: int
    """Smallest ante wager, in cents (the first and second wagers follow from the ratio)."""
    maximum: int
    """Largest ante wager, in cents."""
    bonus_minimum: int
    bonus_maximum: int
    payout_limit: int | None
    first_ratio: int
    royal_offered: bool
    dealing: str
    counting_shuffler: bool
    decks: int
    positions_per_player: int | None
    settlement: str
    ante_bonus: PayTable
    optional_bonus: PayTable
    decision_seconds: int = DECISION_SECONDS
    """Seconds each player has for an election before the table may record a timeout."""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "table") -> TableConfig:
        """Build and check a configuration; unknown keys and broken rules are clear errors."""
        allowed = {
            "game", "edition", "minimum", "maximum", "bonus_minimum", "bonus_maximum",
            "payout_limit", "first_ratio", "royal_offered", "dealing", "counting_shuffler",
            "decks", "positions_per_player", "settlement", "ante_bonus", "optional_bonus",
            "decision_seconds",
        }  # fmt: skip
        check_keys(data, allowed, where)
        game = data.get("game", "boston5")
        if game not in GAMES:
            raise FeltError(
                f"{where}: game {excerpt(game)} is not one felt runs (allowed: {', '.join(GAMES)})"
            )
        ed_name = data.get("edition", default_edition(game))
        if not isinstance(ed_name, str):
            raise FeltError(
                f"{where}: edition must be a name such as nj-19-47-24, got {excerpt(ed_name)}"
            )
        ed = edition(ed_name)
        rules = ed.game(game)
        minimum = cents(data.get("minimum", "5.00"), f"{where}: minimum")
        maximum = cents(data.get("maximum", "1000.00"), f"{where}: maximum")
        if minimum <= 0:
            raise FeltError(f"{where}: minimum must be more than 0.00, got {dollars(minimum)}")
        if maximum < minimum:
            raise FeltError(
                f"{where}: maximum {dollars(maximum)} is below minimum {dollars(minimum)}"
            )
        bonus_minimum = cents(data.get("bonus_minimum", "1.00"), f"{where}: bonus_minimum")
        if bonus_minimum < 100:
            raise FeltError(
                f"{where}: bonus_minimum must be at least 1.00 ({ed.cite(ed.bonus_wager_clause)}), "
                f"got {dollars(bonus_minimum)}"
            )
        bonus_maximum = cents(
            data.get("bonus_maximum", dollars(maximum)), f"{where}: bonus_maximum"
        )
        if bonus_maximum < bonus_minimum:
            raise FeltError(f"{where}: bonus_maximum is below bonus_minimum")
        ratio = data.get("first_ratio", rules.first_ratios[-1])
        if ratio not in rules.first_ratios:
            shown = " or ".join(str(r) for r in rules.first_ratios)
            raise FeltError(
                f"{where}: first_ratio must be {shown} for {game} "
                f"({ed.cite(rules.ratio_clause)}), got {excerpt(ratio)}"
            )
        royal_offered = flag(data, "royal_offered", True, where)
        if not royal_offered and not ed.royal_payout_optional:
            raise FeltError(
                f"{where}: royal_offered = false is not an option under {ed.name}: "
                f"only {edition('nj-13-69f-24').cite('11(d)')} lets a casino decline the royal flush"
            )
        dealing = data.get("dealing", "manual-shoe")
        if dealing not in DEALING_METHODS:
            raise FeltError(
                f"{where}: dealing {excerpt(dealing)} is not a method the rules allow (allowed: "
                f"manual-shoe {ed.cite('7')}, hand {ed.cite('8')}, automated-shoe {ed.cite('9')})"
            )
        decks = data.get("decks", 1)
        if decks not in (1, 2) or isinstance(decks, bool):
            raise FeltError(f"{where}: decks must be 1 or 2 ({ed.cite('2')}), got {excerpt(decks)}")
        positions = data.get("positions_per_player", 1 if ed.positions_rule else None)
        if positions is not None and (
            isinstance(positions, bool)
            or not isinstance(positions, int)
            or not 1 <= positions <= SEATS
        ):
            raise FeltError(
                f"{where}: positions_per_player must be 1 to {SEATS}, got {excerpt(positions)}"
            )
        settlement = data.get("settlement", "standard")
        if settlement not in SETTLEMENTS:
            raise FeltError(
                f"{where}: settlement must be one of {', '.join(SETTLEMENTS)}, got {excerpt(settlement)}"
            )
        if settlement == "alternative" and not ed.alternative_settlement:
            raise FeltError(
                f"{where}: the alternative settlement exists only in "
                f"{edition('nj-13-69f-24').cite('10(g)')}, not under {ed.name}"
            )
        ante_bonus = _table(data, "ante_bonus", rules.ante_bonus, where)
        ante_bonus.check_against(rules.ante_bonus, f"{where}: ante_bonus", ed.cite("11(c)"))
        optional = _table(data, "optional_bonus", rules.optional_bonus, where)
        if not royal_offered:
            optional = PayTable(
                tuple(line for line in optional.lines if line[0] != THREE_CARD_ROYAL)
            )
        optional.check_against(
            rules.optional_bonus,
            f"{where}: optional_bonus",
            ed.cite("11(d)"),
            frozenset({THREE_CARD_ROYAL}) if not royal_offered else frozenset(),
        )
        config = cls(
            game=game,
            edition=ed,
            minimum=minimum,
            maximum=maximum,
            bonus_minimum=bonus_minimum,
            bonus_maximum=bonus_maximum,
            payout_limit=None,
            first_ratio=int(ratio),
            royal_offered=royal_offered,
            dealing=str(dealing),
            counting_shuffler=flag(data, "counting_shuffler", False, where),
            decks=int(decks),
            positions_per_player=positions,
            settlement=str(settlement),
            ante_bonus=ante_bonus,
            optional_bonus=optional,
            decision_seconds=decision_seconds(data, where),
        )
        if data.get("payout_limit") is not None:
            limit = cents(data["payout_limit"], f"{where}: payout_limit")
            floor = max(ed.payout_limit_floor, config.max_win_at_minimum())
            if limit < floor:
                raise FeltError(
                    f"{where}: payout_limit {dollars(limit)} is below {dollars(floor)}, the greater "
                    f"of {dollars(ed.payout_limit_floor)} and the most that can be won at the "
                    f"minimum wager ({ed.cite('11(e)')})"
                )
            config = replace(config, payout_limit=limit)
        return config

    def max_win_at_minimum(self) -> int:
        """Most that first, second and ante bonus wagers can win on one hand at the minimum ante."""
        first = self.first_ratio * self.minimum
        best_bonus = max(p.win(self.minimum) for _, p in self.ante_bonus.lines)
        return 2 * first + best_bonus

    def to_mapping(self) -> dict[str, Any]:
        """The configuration as TOML/JSON-ready data (dollars as strings)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "edition":
                out[f.name] = value.name
            elif f.name in ("minimum", "maximum", "bonus_minimum", "bonus_maximum"):
                out[f.name] = dollars(value)
            elif f.name == "payout_limit":
                if value is not None:
                    out[f.name] = dollars(value)
            elif isinstance(value, PayTable):
                out[f.name] = {hand: str(p) for hand, p in value.lines}
            elif value is not None:
                out[f.name] = value
        return out


def _table(data: Mapping[str, Any], key: str, default: PayTable, where: str) -> PayTable:
    """A pay table from the file: the lines given, over the edition's minimum for the rest."""
    raw = data.get(key)
    if raw is None:
        return default
    if not isinstance(raw, Mapping):
        raise FeltError(f"{where}: {key} must be a table of hand = payout, got {excerpt(raw)}")
    return default.overridden_by(PayTable.parse(raw, f"{where}: {key}"))


def load_table(path: str | Path) -> TableConfig:
    """Read and check a Boston table configuration file (TOML)."""
    return TableConfig.from_mapping(read_toml(path), where=str(path))
