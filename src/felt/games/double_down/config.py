"""A Double Down Stud table's configuration and the fixed rules data of N.J.A.C. 19:47-17.

The table file (TOML) is checked against 19:47-17 when it is loaded; amounts are dollars in the
file and cents inside.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any, Final

from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.core.paytable import PayTable
from felt.core.readers import parse_toml
from felt.core.tablefile import DECISION_SECONDS, check_keys, decision_seconds, flag, read_toml
from felt.guide import cites

GAME: Final = "double-down-stud"
SHUFFLING: Final = ("manual", "shuffler", "shuffler-to-shoe")
"""17.4(a)-(b): by hand, by a shuffler that stacks the deck, or one that loads the shoe (no cut)."""
DEALING: Final = ("manual-shoe", "hand")
"""17.8(a)1-2."""
DOUBLE_AMOUNTS: Final = ("equal", "up-to")
"""The double down wager: equal to the original wager, or any amount up to it (17.1 is missing;
see docs/interpretations.md)."""


@dataclass(frozen=True)
class UnpaidLine:
    """A line of the pay table of 17.10(b) that is not paid at odds: the hands that push
    (17.9(b)) or lose (17.9(a)); ``clause`` cites where (``N.J.A.C. 19:47-17.9(b), 17.10(b)``)."""

    hand: str
    result: str
    clause: str

    @property
    def pays(self) -> str:
        """What the line says in a pay table's "pays" column, with its clause."""
        return f"{self.result} ({self.clause})"

    @property
    def pays_short(self) -> str:
        """:attr:`pays` citing the sections alone (``push (17.9(b), 17.10(b))``), where the
        rule text is named already and a line is 80 columns."""
        return f"{self.result} ({self.clause.split('-', 1)[-1]})"


@dataclass(frozen=True)
class Rules:
    """The fixed parts of 19:47-17, from ``felt/games/double_down/data/double-down-stud.toml``."""

    title: str
    clause_format: str
    pay_table: PayTable
    payout_limit: int
    cut_min_from_end: int
    unpaid: tuple[UnpaidLine, ...]
    """The pay table's lines after the paid ones: the push and the loss (17.9(a)-(b), 17.10(b))."""

    def cite(self, section: str) -> str:
        """``cite("9(c)")`` is ``N.J.A.C. 19:47-17.9(c)``."""
        return self.clause_format.format(section)


@functools.cache
def rules() -> Rules:
    """The Double Down Stud rules data."""
    raw = parse_toml(
        resources.files("felt.games.double_down")
        .joinpath("data/double-down-stud.toml")
        .read_text(encoding="utf-8"),
        "felt's data file 'double_down/data/double-down-stud.toml'",
    )
    return Rules(
        title=raw["title"],
        clause_format=raw["clause"],
        pay_table=PayTable.parse(raw["pay_table"], "double down stud minimum pay table"),
        payout_limit=cents(raw["payout_limit"]),
        cut_min_from_end=int(raw["cut_min_from_end"]),
        unpaid=tuple(
            UnpaidLine(
                line["hand"],
                line["result"],
                cites(raw["clause"], *line["clauses"]),
            )
            for line in raw["unpaid"]
        ),
    )


def pay_lines(config: DoubleDownConfig, *, short: bool = False) -> tuple[tuple[str, str], ...]:
    """Every line of the table's pay table as (hand, pays), best hand first: the lines paid at
    odds, then the push and the loss with their clauses (17.10(b); 17.9(a)-(b)), so that every
    pay table shown (``?`` in ``felt play``, the par sheet) has the push line; ``short`` cites
    the sections alone (:attr:`UnpaidLine.pays_short`)."""
    return (
        *((hand, str(payout)) for hand, payout in config.pay_table.lines),
        *((line.hand, line.pays_short if short else line.pays) for line in rules().unpaid),
    )


@dataclass(frozen=True)
class DoubleDownConfig:
    """One Double Down Stud table, checked against 19:47-17 when built."""

    minimum: int
    maximum: int
    pay_table: PayTable
    payout_limit: int
    dealing: str
    shuffling: str
    decks: int
    two_areas: bool
    areas: int
    double_down: str
    recut_by: str
    decision_seconds: int = DECISION_SECONDS
    """Seconds each player has for an election before the table may record a timeout."""
    game: str = GAME

    @property
    def cut_required(self) -> bool:
        """17.4(b): the cards are cut unless a shuffler inserted them directly into the shoe."""
        return self.shuffling != "shuffler-to-shoe"

    def to_mapping(self) -> dict[str, Any]:
        """The table as TOML/JSON-ready data (dollars as strings) that :meth:`from_mapping` reads
        back to an equal configuration."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("minimum", "maximum", "payout_limit"):
                out[f.name] = dollars(value)
            elif isinstance(value, PayTable):
                out[f.name] = {hand: str(p) for hand, p in value.lines}
            else:
                out[f.name] = value
        return out

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "table") -> DoubleDownConfig:
        """Build and check; errors cite the clause broken."""
        r = rules()
        allowed = {"game", "minimum", "maximum", "pay_table", "payout_limit", "dealing", "shuffling",
                   "decks", "two_areas", "areas", "double_down", "recut_by", "decision_seconds"}  # fmt: skip
        check_keys(data, allowed, where)
        if data.get("game", GAME) != GAME:
            raise FeltError(f"{where}: game must be {GAME!r} here, got {excerpt(data.get('game'))}")
        minimum = cents(data.get("minimum", "5.00"), f"{where}: minimum")
        maximum = cents(data.get("maximum", "500.00"), f"{where}: maximum")
        if minimum <= 0 or maximum < minimum:
            raise FeltError(
                f"{where}: need 0 < minimum <= maximum, got {dollars(minimum)} and {dollars(maximum)}"
            )
        limit = cents(data.get("payout_limit", dollars(r.payout_limit)), f"{where}: payout_limit")
        if limit != r.payout_limit:
            raise FeltError(
                f'{where}: payout_limit must be {dollars(r.payout_limit)}: "the payout limit for any '
                f'hand shall be $100,000" ({r.cite("10(c)")}), got {dollars(limit)}'
            )
        raw = data.get("pay_table")
        table = r.pay_table
        if raw is not None:
            if not isinstance(raw, Mapping):
                raise FeltError(f"{where}: pay_table must be a table of hand = odds")
            table = r.pay_table.overridden_by(PayTable.parse(raw, f"{where}: pay_table"))
        table.check_against(r.pay_table, f"{where}: pay_table", r.cite("10(b)"))
        if any(p.amount is not None for _, p in table.lines):
            raise FeltError(
                f'{where}: pay_table lines are odds ("X to 1"), as {r.cite("10(b)")} states them'
            )
        dealing = data.get("dealing", "manual-shoe")
        if dealing not in DEALING:
            raise FeltError(
                f"{where}: dealing must be manual-shoe or hand ({r.cite('8(a)')}), got {excerpt(dealing)}"
            )
        shuffling = data.get("shuffling", "shuffler")
        if shuffling not in SHUFFLING:
            raise FeltError(
                f"{where}: shuffling must be one of {', '.join(SHUFFLING)} ({r.cite('4(a)')}), got {excerpt(shuffling)}"
            )
        if shuffling == "shuffler-to-shoe" and dealing != "manual-shoe":
            raise FeltError(
                f"{where}: a shuffler that loads the shoe needs dealing = manual-shoe ({r.cite('4(a)')})"
            )
        decks = data.get("decks", 1)
        if decks not in (1, 2) or isinstance(decks, bool):
            raise FeltError(f"{where}: decks must be 1 or 2 ({r.cite('2')}), got {excerpt(decks)}")
        if decks == 2 and shuffling == "manual":
            raise FeltError(
                f"{where}: a second deck needs an automated card shuffling device ({r.cite('2(b)')})"
            )
        two = flag(data, "two_areas", False, where)
        areas = data.get("areas", 7)
        if isinstance(areas, bool) or not isinstance(areas, int) or not 1 <= areas <= 7:
            raise FeltError(f"{where}: areas (betting areas) must be 1 to 7, got {excerpt(areas)}")
        double = data.get("double_down", "equal")
        if double not in DOUBLE_AMOUNTS:
            raise FeltError(f"{where}: double_down must be equal or up-to, got {excerpt(double)}")
        recut = data.get("recut_by", "last")
        if recut not in ("last", "next"):
            raise FeltError(
                f"{where}: recut_by must be last or next ({r.cite('4(f)')}), got {excerpt(recut)}"
            )
        seconds = decision_seconds(data, where)
        return cls(minimum, maximum, table, limit, str(dealing), str(shuffling), int(decks), two,
                   areas, str(double), str(recut), seconds)  # fmt: skip


def load_double_down_table(path: str | Path) -> DoubleDownConfig:
    """Read and check a Double Down Stud table file (TOML)."""
    return DoubleDownConfig.from_mapping(read_toml(path), where=str(path))
