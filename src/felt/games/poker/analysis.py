"""What a card room needs of a poker table's figures (issue 24, item 5): no house edge (the players
play each other), but the rake.

Two sheets, each printable as text, Markdown, HTML and JSON (:class:`felt.games.base.Sheet`):

- :func:`par_sheet`: a table's structure (forced bets, the bets of each round and 14.17's raise
  cap, so the most one player can put in a hand) and the rake's exact effect: the rake of each
  pot size up to the first pot raked the cap, in cents, and the smallest pot that reaches it; or,
  with a time charge, what it comes to per hour by seats filled.
- :func:`rake_sheet`: the rake collected per hand and per hour by table, from hand records
  (:func:`felt.games.poker.history.rake_report`; 14.14 "Poker revenue", title only; the count
  room reports poker revenue per table, 13:69D-1.34(b)).

Every figure is integer cents or an exact Fraction; decimals appear only when printed.

>>> from felt.games.poker.config import PokerConfig
>>> sheet = par_sheet(PokerConfig.from_mapping({}))
>>> sheet.cap_pot, sheet.rake_of(2550), sheet.most_per_player
(4000, 255, 4800)
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from felt.analysis.parsheet import (
    Block,
    Bullets,
    Section,
    Table,
    fraction_text,
    render_html,
    render_markdown,
    render_text,
)
from felt.core.money import dollars
from felt.games.poker.config import PercentRake, PokerConfig, TimeRake
from felt.games.poker.history import HandRecord, TableRake, from_phh, rake_report

VARIANT_NAMES: Final = {
    "holdem": "Texas hold 'em",
    "omaha": "Omaha",
    "stud7": "Seven-card stud",
}
LIMIT_NAMES: Final = {"fixed": "fixed limit", "pot": "pot limit", "no": "no limit"}
ROUNDS: Final = {
    "holdem": ("pre-flop", "flop", "turn", "river"),
    "omaha": ("pre-flop", "flop", "turn", "river"),
    "stud7": ("third street", "fourth street", "fifth street", "sixth street", "seventh street"),
}
"""The betting rounds of each variant, in order."""
BIG_ROUNDS: Final = {"holdem": 2, "omaha": 2, "stud7": 2}
"""The first round (0-based) played at the big bet in fixed limit: the turn; stud's fifth street."""
MAX_ROWS: Final = 60
"""The rake-by-pot table shows at most about this many pot sizes (whole dollars, or a wider
step when the cap is reached only by a larger pot)."""
SOURCE: Final = "N.J.A.C. 19:47-14.14 Poker revenue (title only), 14.17"


def _dollar_text(cents: Fraction | int) -> str:
    """Cents (an exact Fraction) as dollars rounded to the cent for display: ``12.35``."""
    value = Fraction(cents)
    rounded = (value * 2 + 1) // 2  # half up: display only, the exact value is in the JSON
    return dollars(int(rounded))


def _exact(value: Fraction) -> dict[str, Any]:
    return {"exact": fraction_text(value), "decimal": float(value)}


def round_bets(config: PokerConfig) -> list[tuple[str, int, int]]:
    """Each betting round: (name, the bet of the round in cents, the most one player may put in
    that round at fixed limit under 14.17's cap: a bet and ``max_raises`` raises; 0 at pot and no
    limit, where only the stack bounds it).  The pre-flop big blind and the stud completion are the
    round's bet, so they count within the cap."""
    names = ROUNDS[config.variant]
    out = []
    for i, name in enumerate(names):
        if config.limit == "fixed":
            bet = config.big_bet if i >= BIG_ROUNDS[config.variant] else config.small_bet
            out.append((name, bet, bet * (config.max_raises + 1)))
        else:
            out.append((name, config.big_blind, 0))
    return out


class _Printed:
    """A sheet printed from its ``title`` and ``sections()`` in every text format."""

    @property
    def title(self) -> str:
        """The sheet's heading."""
        raise NotImplementedError

    def sections(self) -> list[Section]:
        """The sheet's sections in order."""
        raise NotImplementedError

    def to_text(self) -> str:
        """The sheet as plain text."""
        return render_text(self.title, self.sections())

    def to_markdown(self) -> str:
        """The sheet as Markdown."""
        return render_markdown(self.title, self.sections())

    def to_html(self) -> str:
        """The sheet as a standalone HTML page."""
        return render_html(self.title, self.sections())


@dataclass(frozen=True)
class PokerParSheet(_Printed):
    """The structure of one poker table and the rake's exact effect (see the module)."""

    config: PokerConfig

    # ------------------------------------------------------------------ the figures
    def rake_of(self, pot: int, flop_seen: bool = True) -> int:
        """The rake (cents) of a pot of ``pot`` cents by the table's rule (the config's own)."""
        return self.config.rake.take(pot, flop_seen)

    @property
    def cap_pot(self) -> int | None:
        """The smallest pot (cents) raked the whole cap under a percentage rake; None with a
        time charge or a rate of 0 (the cap is never reached)."""
        rake = self.config.rake
        if not isinstance(rake, PercentRake) or rake.percent == 0:
            return None
        # the least pot with floor(pot * percent / 100) >= cap is ceil(cap * 100 / percent)
        need = Fraction(rake.cap * 100) / rake.percent
        return -(-need.numerator // need.denominator)

    @property
    def most_per_player(self) -> int | None:
        """The most one player can put in a hand at fixed limit (antes and every round's cap);
        None at pot and no limit (the stack is the bound)."""
        if self.config.limit != "fixed":
            return None
        return self.config.ante + sum(most for _, _, most in round_bets(self.config))

    def pot_rows(self) -> list[tuple[int, int]]:
        """(pot, rake) in cents for the pot sizes shown: every whole dollar (or a wider step)
        from 0 up to the first pot raked the cap and one step beyond, with that pot itself."""
        top = self.cap_pot
        if top is None:
            return []
        step = 100
        while top // step > MAX_ROWS:
            step *= 2
        pots = set(range(0, top + step + 1, step)) | {top}
        return [(pot, self.rake_of(pot)) for pot in sorted(pots)]

    # ------------------------------------------------------------------ the sheet
    def settings(self) -> list[tuple[str, str]]:
        """The table's posted structure as (setting, value)."""
        c = self.config
        rows = [
            ("game", f"{VARIANT_NAMES[c.variant]}, {LIMIT_NAMES[c.limit]}"),
            ("posted limits (14.17)", c.limits_text()),
        ]
        if c.blinds:
            rows.append(("blinds", f"{dollars(c.small_blind)} and {dollars(c.big_blind)}"))
        if c.ante:
            rows.append(("ante", dollars(c.ante)))
        if c.bring_in:
            rows.append(("bring-in", dollars(c.bring_in)))
        if c.limit == "fixed":
            rows.append(("bets", f"{dollars(c.small_bet)} small, {dollars(c.big_bet)} big"))
            rows.append(("raises a round (14.17)", f"a bet and {c.max_raises} raises"))
        else:
            rows.append(("least bet or raise", dollars(c.big_blind)))
        rows += [
            ("buy-in", f"{dollars(c.min_buy_in)} to {dollars(c.max_buy_in)}"),
            ("seats", str(c.seats)),
            ("time to act", f"{c.decision_seconds} seconds"),
            ("rake", self.rake_words()),
        ]
        return rows

    def rake_words(self) -> str:
        """The rake rule in a line."""
        rake = self.config.rake
        if isinstance(rake, TimeRake):
            return f"time charge {dollars(rake.per_half_hour)} a seat each half hour"
        drop = ", no flop no drop" if rake.no_flop_no_drop else ""
        return f"{rake.percent}% of the pot, at most {dollars(rake.cap)} a hand{drop}"

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON-ready data: cents as integers, rates as exact ``"n/d"``."""
        rake = self.config.rake
        out: dict[str, Any] = {
            "game": "poker",
            "settings": self.config.to_mapping(),
            "rounds": [
                {"round": name, "bet": bet, "most_per_player": most or None}
                for name, bet, most in round_bets(self.config)
            ],
            "most_per_player_per_hand": self.most_per_player,
            "rake": rake.to_mapping(),
        }
        if isinstance(rake, PercentRake):
            out["cap_pot"] = self.cap_pot
            out["rake_by_pot"] = [
                {"pot": pot, "rake": r, "to_winners": pot - r,
                 "rate": _exact(Fraction(r, pot)) if pot else None}
                for pot, r in self.pot_rows()
            ]  # fmt: skip
        else:
            out["time_charge_per_hour"] = [
                {"seats": n, "per_hour": 2 * rake.per_half_hour * n}
                for n in range(2, self.config.seats + 1)
            ]
        return out

    def to_json_text(self) -> str:
        """The figures as JSON text."""
        return json.dumps(self.to_json(), indent=2) + "\n"

    def sections(self) -> list[Section]:
        """The settings, the betting rounds, the rake and how the figures are made."""
        c = self.config
        fixed = c.limit == "fixed"
        rounds = round_bets(c)
        so_far = c.ante
        round_rows = []
        for name, bet, most in rounds:
            so_far += most
            row = [name, dollars(bet)]
            row += [dollars(most), dollars(so_far)] if fixed else []
            round_rows.append(row)
        columns = ["round", "bet" if fixed else "least bet"]
        columns += ["most per player (14.17)", "most so far (with the ante)"] if fixed else []
        round_blocks: list[Block] = [Table(columns, round_rows, frozenset({1, 2, 3}))]
        if fixed:
            round_blocks.insert(
                0,
                f"At fixed limit a round takes a bet and at most {c.max_raises} raises (14.17; "
                + (
                    "the pre-flop big blind is the bet"
                    if c.blinds
                    else "on third street the completion of the bring-in is the bet"
                )
                + "), so one player puts in "
                f"at most {dollars(self.most_per_player or 0)} a hand; a full table of {c.seats} "
                f"at most {dollars((self.most_per_player or 0) * c.seats)} in one pot.",
            )
        else:
            round_blocks.insert(
                0,
                f"At {LIMIT_NAMES[c.limit]} a bet or raise is at least the big blind (a raise at "
                "least the last bet or raise); "
                + ("at most the pot." if c.limit == "pot" else "at most the player's stack."),
            )
        return [
            Section("settings", "Table settings", [Table(["setting", "value"],
                                                         [list(s) for s in self.settings()])]),
            Section("rounds", "Betting rounds", round_blocks),
            Section("rake", "The rake", self._rake_blocks()),
            Section("notes", "How the figures are made", [Bullets(NOTES)]),
        ]  # fmt: skip

    def _rake_blocks(self) -> list[Block]:
        rake = self.config.rake
        if isinstance(rake, TimeRake):
            per_hour = 2 * rake.per_half_hour
            rows = [[str(n), dollars(per_hour), dollars(per_hour * n)]
                    for n in range(2, self.config.seats + 1)]  # fmt: skip
            return [
                f"A time charge: each seated player pays {dollars(rake.per_half_hour)} a half "
                "hour, collected from the seats between hands; no hand is raked.",
                Table(["seats filled", "a seat an hour", "the table an hour"], rows,
                      frozenset({0, 1, 2})),
            ]  # fmt: skip
        top = self.cap_pot
        blocks: list[Block] = [
            f"{rake.percent}% of each pot, rounded down to the cent, at most "
            f"{dollars(rake.cap)} a hand, taken from the main pot first (then each side pot) "
            "before the pot is awarded."
        ]
        if rake.no_flop_no_drop:
            where = "fourth street" if self.config.variant == "stud7" else "the flop"
            blocks.append(f"No flop, no drop: a hand that ends before {where} is not raked.")
        if top is None:
            blocks.append("At 0% nothing is raked.")
            return blocks
        blocks.append(
            f"The smallest pot raked the whole cap is {dollars(top)}; every pot from there up "
            f"gives {dollars(rake.cap)}."
        )
        rows = [
            [dollars(pot), dollars(r), dollars(pot - r),
             f"{float(Fraction(r, pot)) * 100:.3f}%" if pot else "-"]
            for pot, r in self.pot_rows()
        ]  # fmt: skip
        blocks.append(
            Table(["pot", "rake", "to the winners", "rake / pot"], rows, frozenset({0, 1, 2, 3}))
        )
        return blocks

    @property
    def title(self) -> str:
        """The sheet's heading."""
        return f"Poker table sheet: {self.config.limits_text()} ({SOURCE})"


NOTES: Final = [
    "Amounts are exact cents; the rake of a pot is the table's rule applied to it "
    "(felt.games.poker.config.PercentRake.take), rounded down to the cent.",
    "The players play each other: there is no house edge. The house's revenue is the rake "
    "(14.14, title only), reported per hand and per hour by table from the hand records.",
    "A pot returned under 14.15(h), or the part refunded under 14.15(j)3 or (l), is not raked.",
]


def par_sheet(config: PokerConfig) -> PokerParSheet:
    """The structure and rake sheet of a poker table of ``config`` (``felt analyze poker``)."""
    return PokerParSheet(config)


# ------------------------------------------------------------------------ the rake report


def _hour_text(epoch: int) -> str:
    """An hour's start as UTC: ``2026-11-27 10:00``."""
    moment = datetime.datetime.fromtimestamp(epoch, tz=datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


@dataclass(frozen=True)
class RakeSheet(_Printed):
    """The rake collected per hand and per hour by table (14.14, title only), from hand records.

    Per hour is the table's rake over its span of play, first hand's start to last hand's end;
    the hourly rows put each hand's rake in the clock hour (UTC) it ended in."""

    tables: tuple[TableRake, ...]

    @property
    def total(self) -> int:
        """Cents raked at every table."""
        return sum(t.rake for t in self.tables)

    @property
    def hands(self) -> int:
        """Hands recorded at every table."""
        return sum(t.hands for t in self.tables)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data: cents as integers, rates as exact ``"n/d"`` cents."""
        return {
            "report": "rake",
            "hands": self.hands,
            "rake": self.total,
            "tables": [
                {"table": t.table, "hands": t.hands, "rake": t.rake, "seconds": t.seconds,
                 "per_hand": _exact(t.per_hand),
                 "per_hour": None if t.per_hour is None else _exact(t.per_hour),
                 "by_hour": [{"hour": h, "rake": r} for h, r in t.by_hour]}
                for t in self.tables
            ],
        }  # fmt: skip

    def to_json_text(self) -> str:
        """The report as JSON text."""
        return json.dumps(self.to_json(), indent=2) + "\n"

    def sections(self) -> list[Section]:
        """The tables, then each table's rake by the hour."""
        if not self.tables:
            return [Section("tables", "Rake by table", ["No hands recorded."])]
        rows = [
            [t.table, str(t.hands), dollars(t.rake), f"{t.seconds / 3600:.2f}",
             _dollar_text(t.per_hand), "-" if t.per_hour is None else _dollar_text(t.per_hour)]
            for t in self.tables
        ]  # fmt: skip
        total = ["all tables", str(self.hands), dollars(self.total), "", "", ""]
        columns = ["table", "hands", "rake", "hours", "per hand", "per hour"]
        hours = [
            [t.table, _hour_text(hour), dollars(rake)]
            for t in self.tables
            for hour, rake in t.by_hour
        ]
        return [
            Section("tables", "Rake by table",
                    [Table(columns, rows, frozenset({1, 2, 3, 4, 5}), total)]),
            Section("hours", "Rake by the hour",
                    [Table(["table", "hour", "rake"], hours, frozenset({2}))]),
            Section("notes", "How the figures are made", [Bullets(REPORT_NOTES)]),
        ]  # fmt: skip

    @property
    def title(self) -> str:
        """The report's heading."""
        return "Poker rake report (N.J.A.C. 19:47-14.14 Poker revenue, title only)"


REPORT_NOTES: Final = [
    "Per hand: the table's rake over its hands. Per hour: its rake over its span of play (the "
    "first hand's start to the last hand's end); both exact in the JSON, rounded to the cent "
    "here.",
    "By the hour: each hand's rake in the clock hour (UTC) the hand ended in.",
    "A time charge is collected from the seats, not the pots: it is not in a hand's rake.",
]


def rake_sheet(records: Sequence[HandRecord]) -> RakeSheet:
    """The rake report of ``records`` (any tables, any order) as a sheet."""
    return RakeSheet(rake_report(records))


def rake_sheet_from_phh(texts: Iterable[str]) -> RakeSheet:
    """The rake report of exported hands (PHH texts as :func:`.history.to_phh` writes them, each
    read back and checked by :func:`.history.from_phh`): what a card room runs over its
    hand-history files."""
    return rake_sheet([from_phh(text) for text in texts])
