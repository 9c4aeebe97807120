"""A par sheet: the exact figures of one game under one table, and how to print them.

Every probability and edge is a :class:`~fractions.Fraction` computed from integer counts; floats
appear only when printing.  JSON carries each exact value as an ``"n/d"`` string beside its
decimal.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from felt.core.cards import RANK_CHARS

NUMBER_WORDS: Final = ("no", "one", "two", "three", "four", "five", "six", "seven")
"""Small numbers as a sheet writes them in words."""


def rank_word(ranks: tuple[int, ...]) -> str:
    """Ranks (0 = deuce to 12 = ace) as a decision table names them: ``A-K-7``.

    >>> rank_word((12, 11, 5))
    'A-K-7'
    """
    return "-".join(RANK_CHARS[r] for r in ranks)


@dataclass(frozen=True)
class Table:
    """A table of a par sheet section, as text cells; ``total`` is its totals row, if any."""

    columns: list[str]
    rows: list[list[str]]
    right: frozenset[int] = frozenset()
    """Indices of columns aligned right (numbers)."""
    total: list[str] | None = None


@dataclass(frozen=True)
class Bullets:
    """A list of short items (notes)."""

    items: list[str]


Block = str | Table | Bullets
"""A paragraph, a table or a list."""


@dataclass(frozen=True)
class Section:
    """One section of a par sheet; every output format prints the same sections in order."""

    key: str
    heading: str
    blocks: list[Block]


def one_in(total: int, count: int) -> str:
    """How rare an outcome is, as "1 in N" with N = total / count.

    >>> one_in(12_994_800, 20)
    '1 in 649,740'
    >>> one_in(100, 23)
    '1 in 4.35'
    >>> one_in(5, 0)
    'never'
    """
    if count == 0:
        return "never"
    n = Fraction(total, count)
    if n.denominator == 1 or n >= 1000:
        return f"1 in {round(n):,}"
    return f"1 in {float(n):,.2f}"


def prob_text(p: Fraction) -> str:
    """A probability for display: fixed decimals, or scientific when tiny."""
    return f"{float(p):.8f}" if p == 0 or p >= Fraction(1, 10_000) else f"{float(p):.4e}"


def fraction_text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _exact(x: Fraction) -> dict[str, Any]:
    return {"exact": fraction_text(x), "decimal": float(x)}


@dataclass(frozen=True)
class Outcome:
    """One outcome of a round: its description, how often it happens and what it pays."""

    decision: str
    hand: str
    result: str
    count: int
    net: Fraction
    """Player's net result, in units of the base wager (whatever the game calls its first wager)."""
    wagered: Fraction
    """Total amount wagered in this outcome, in units of the base wager."""


@dataclass(frozen=True)
class ParSheet:
    """Exact figures for one game and table."""

    game: str
    edition: str
    title: str
    base_wager: str
    """What one unit is: "ante" or "wager"."""
    base_cents: int
    initial_units: Fraction
    """Wagers required before any card, in units of the base wager (an ante and a first wager of
    twice it: 3)."""
    outcomes: list[Outcome]
    strategy: dict[str, Any]
    strategies: dict[str, Fraction]
    """House edge per base unit under other strategies people use."""
    pay_table: list[tuple[str, str]]
    notes: list[str] = field(default_factory=list)
    bonus: dict[str, Any] | None = None
    """The optional bonus wager's figures, for a game that has one."""
    bonus_cards: int = 0
    """How many of the player's cards the optional bonus wager is settled on."""
    unpaid: list[tuple[str, str]] = field(default_factory=list)
    """Lines of the pay table that are not paid at odds, as (hand, what it does with its
    clause): Double Down Stud's push and loss (19:47-17.9(a)-(b), 17.10(b)), shown after the
    paid lines wherever the pay table is."""

    @property
    def total(self) -> int:
        """Number of equally likely deals enumerated."""
        return sum(o.count for o in self.outcomes)

    def probability(self, o: Outcome) -> Fraction:
        """Exact probability of an outcome."""
        return Fraction(o.count, self.total)

    @property
    def expected_net(self) -> Fraction:
        """Player's expected result per base unit."""
        return sum((Fraction(o.count) * o.net for o in self.outcomes), Fraction(0)) / self.total

    @property
    def house_edge_ante(self) -> Fraction:
        """House edge per base unit (per unit of the base wager)."""
        return -self.expected_net

    @property
    def house_edge_initial(self) -> Fraction:
        """House edge per unit of the wagers required before any card is dealt."""
        return -self.expected_net / self.initial_units

    @property
    def average_wagered(self) -> Fraction:
        """Expected total amount wagered per round, in base units."""
        return sum((Fraction(o.count) * o.wagered for o in self.outcomes), Fraction(0)) / self.total

    @property
    def element_of_risk(self) -> Fraction:
        """House edge per unit of the total amount wagered."""
        return -self.expected_net / self.average_wagered

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that the player's result is positive."""
        return Fraction(sum(o.count for o in self.outcomes if o.net > 0), self.total)

    @property
    def variance(self) -> Fraction:
        """Variance of the net result per base unit."""
        mean = self.expected_net
        second = (
            sum((Fraction(o.count) * o.net * o.net for o in self.outcomes), Fraction(0))
            / self.total
        )
        return second - mean * mean

    @property
    def std_dev(self) -> float:
        """Standard deviation of the net result per base unit (a float: a square root)."""
        return math.sqrt(self.variance)

    def contribution(self, o: Outcome) -> Fraction:
        """An outcome's contribution to the expected result, per base unit."""
        return Fraction(o.count, self.total) * o.net

    # ------------------------------------------------------------------ output
    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures; exact values as "n/d" beside decimals."""

        exact = _exact
        out: dict[str, Any] = {
            "game": self.game,
            "edition": self.edition,
            "base_wager": self.base_wager,
            "base_wager_dollars": self.base_cents / 100,
            "deals": self.total,
            "house_edge_ante": float(self.house_edge_ante),
            "house_edge_ante_exact": exact(self.house_edge_ante)["exact"],
            "house_edge_initial": float(self.house_edge_initial),
            "house_edge_initial_exact": exact(self.house_edge_initial)["exact"],
            "element_of_risk": float(self.element_of_risk),
            "element_of_risk_exact": exact(self.element_of_risk)["exact"],
            "hit_frequency": float(self.hit_frequency),
            "hit_frequency_exact": exact(self.hit_frequency)["exact"],
            "variance_exact": exact(self.variance)["exact"],
            "std_dev": self.std_dev,
            "average_wagered": exact(self.average_wagered),
            "strategy": self.strategy,
            "strategies": {k: exact(v) for k, v in self.strategies.items()},
            "pay_table": dict(self.pay_table),
            "outcomes": [
                {
                    "decision": o.decision,
                    "hand": o.hand,
                    "result": o.result,
                    "count": o.count,
                    "probability": exact(self.probability(o)),
                    "one_in": exact(Fraction(self.total, o.count)) if o.count else None,
                    "net": exact(o.net),
                    "contribution": exact(self.contribution(o)),
                }
                for o in self.outcomes
            ],
            "notes": self.notes,
            "sections": [{"key": sec.key, "heading": sec.heading} for sec in self.sections()],
            "pay_tables": dict(self.pay_tables()),
            "total_combinations": self.total,
            "return_total": {
                "count": self.total,
                "probability": "1/1",
                "return": exact(self.expected_net),
            },
        }
        if self.bonus is not None:
            bonus_total, bonus_return = self.bonus_totals()
            out["bonus"] = {
                **self.bonus,
                "return_total": {
                    "count": bonus_total,
                    "probability": "1/1",
                    "return": exact(bonus_return),
                },
            }
        return out

    def to_json_text(self) -> str:
        """The JSON as a string."""
        return json.dumps(self.to_json())

    def summary_rows(self) -> list[tuple[str, str, str]]:
        """(figure, decimal, exact) rows for the summary tables."""

        def row(name: str, x: Fraction, pct: bool = True) -> tuple[str, str, str]:
            shown = f"{float(x) * 100:.4f}%" if pct else f"{float(x):.6f}"
            return (name, shown, f"{x.numerator}/{x.denominator}")

        return [
            row(f"house edge per {self.base_wager}", self.house_edge_ante),
            row("house edge per initial wager", self.house_edge_initial),
            row("element of risk (per total wagered)", self.element_of_risk),
            row("hit frequency", self.hit_frequency),
            ("equally likely combinations", f"{self.total:,}", str(self.total)),
            row(f"average wagered ({self.base_wager}s)", self.average_wagered, pct=False),
            (
                f"standard deviation ({self.base_wager}s)",
                f"{self.std_dev:.6f}",
                f"variance {self.variance.numerator}/{self.variance.denominator}",
            ),
        ]

    def strategy_notes(self) -> list[str]:
        """What the strategy says besides its rule and table (e.g. when to discard)."""
        return [str(v) for k, v in self.strategy.items() if k not in ("rule", "decisions")]

    def decision_rows(self) -> tuple[list[str], list[list[str]]]:
        """The full decision table as (column names, rows of text)."""
        decisions: list[dict[str, Any]] = self.strategy.get("decisions", [])
        if not decisions:
            return [], []
        columns = list(decisions[0])

        def show(x: Any) -> str:
            if isinstance(x, bool):
                return "yes" if x else "no"
            return f"{x:.6f}" if isinstance(x, float) else str(x)

        return columns, [[show(row[c]) for c in columns] for row in decisions]

    # ---------------------------------------------------------------- sections
    def pay_tables(self) -> list[tuple[str, dict[str, str]]]:
        """(name, hand to payout) for each pay table of the game."""
        if self.bonus is None:
            return [("pay table", dict(self.pay_table) | dict(self.unpaid))]
        tables = [("ante bonus", dict(self.pay_table))]
        if "pay_table" in self.bonus:
            tables.append((f"{self.bonus_name()} wager", dict(self.bonus["pay_table"])))
        return tables

    def bonus_name(self) -> str:
        """What the game calls its side wager (the bonus figures' ``name``; by default the
        optional bonus wager)."""
        assert self.bonus is not None
        return str(self.bonus.get("name", "optional bonus"))

    def bonus_totals(self) -> tuple[int, Fraction]:
        """The optional bonus wager's total combinations and exact expected net per unit."""
        assert self.bonus is not None
        lines: list[dict[str, Any]] = self.bonus["lines"]
        total = sum(int(line["count"]) for line in lines)
        ret = sum((Fraction(line["contribution_exact"]) for line in lines), Fraction(0))
        return total, ret

    def sections(self) -> list[Section]:
        """The par sheet's sections in order: summary, pay tables, return table, strategy, the
        optional bonus wager (a game that has one), notes, and an appendix with the full decision table."""
        base = self.base_wager
        num = frozenset({1, 2})
        out = [
            Section("summary", "Summary", [
                f"{self.game} ({self.edition}), {base} ${self.base_cents / 100:.2f}.",
                Table(["figure", "value", "exact"], [list(r) for r in self.summary_rows()], num),
            ]),
        ]  # fmt: skip
        pays: list[Block] = []
        for name, table in self.pay_tables():
            pays += [
                f"{name.capitalize()}:",
                Table(["hand", "pays"], [[h, p] for h, p in table.items()]),
            ]
        out.append(Section("pay_tables", "Pay tables", pays))
        ev = self.expected_net
        rows = [
            [o.decision, o.hand, o.result, f"{o.count:,}", prob_text(self.probability(o)),
             one_in(self.total, o.count), f"{float(o.net):.2f}", f"{float(self.contribution(o)):.6f}"]
            for o in self.outcomes
        ]  # fmt: skip
        out.append(Section("return_table", "Return table", [
            f"Every outcome over {self.total:,} equally likely combinations; net and return are "
            f"per {base}. Total return {float(ev):.6f} ({fraction_text(ev)}) per {base}.",
            Table(["decision", "hand", "result", "count", "probability", "one in N", "net", "return"],
                  rows, frozenset({3, 4, 5, 6, 7}),
                  ["total", "", "", f"{self.total:,}", "1", "1 in 1", "", f"{float(ev):.6f}"]),
        ]))  # fmt: skip
        edges = [[name, f"{float(edge) * 100:.4f}%", fraction_text(edge)] for name, edge in self.strategies.items()]  # fmt: skip
        out.append(Section("strategy", "Strategy", [
            f"Optimal strategy: {self.strategy['rule']}",
            *self.strategy_notes(),
            f"House edge per {base} by strategy:",
            Table(["strategy", f"house edge per {base}", "exact"], edges, frozenset({1})),
        ]))  # fmt: skip
        if self.bonus is not None:
            b_total, b_ret = self.bonus_totals()
            cards = NUMBER_WORDS[self.bonus_cards]
            b_rows = [
                [str(line["hand"]), f"{int(line['count']):,}",
                 prob_text(Fraction(int(line["count"]), b_total)), one_in(b_total, int(line["count"])),
                 str(line["pays"]), f"{float(Fraction(line['contribution_exact'])):.6f}"]
                for line in self.bonus["lines"]
            ]  # fmt: skip
            out.append(Section("bonus", f"{self.bonus_name().capitalize()} wager", [
                f"Settled on the player's {cards} cards alone, over {b_total:,} equally likely "
                f"{cards}-card hands; return per unit wagered. House edge "
                f"{float(-b_ret) * 100:.4f}% ({fraction_text(-b_ret)}).",
                Table(["hand", "count", "probability", "one in N", "pays", "return"], b_rows,
                      frozenset({1, 2, 3, 5}), ["total", f"{b_total:,}", "1", "1 in 1", "", f"{float(b_ret):.6f}"]),
            ]))  # fmt: skip
        out.append(Section("notes", "Notes", [Bullets(self.notes)] if self.notes else ["None."]))
        columns, decisions = self.decision_rows()
        out.append(Section("appendix", "Appendix: decision table", [
            "The optimal decision in every situation, one row per class of situation.",
            Table(columns, decisions, frozenset(i for i, c in enumerate(columns) if c.startswith("ev"))),
        ] if decisions else ["No decisions."]))  # fmt: skip
        return out

    # ------------------------------------------------------------------ formats
    def to_text(self) -> str:
        """A plain-text par sheet."""
        return render_text(self.title, self.sections())

    def to_markdown(self) -> str:
        """A par sheet in Markdown, for a regulator."""
        return render_markdown(f"Par sheet: {self.title}", self.sections())

    def to_html(self) -> str:
        """A self-contained HTML par sheet."""
        return render_html(f"Par sheet: {self.title}", self.sections())


def render_text(title: str, sections: list[Section]) -> str:
    """Sections as plain text under ``title`` (every par sheet, whatever the game)."""
    lines = [title, "=" * len(title)]
    for sec in sections:
        lines += ["", sec.heading, "-" * len(sec.heading)]
        for block in sec.blocks:
            if isinstance(block, Table):
                lines += _text_table(block)
            elif isinstance(block, Bullets):
                lines += [f"- {item}" for item in block.items]
            else:
                lines.append(block)
    return "\n".join(lines)


def render_markdown(title: str, sections: list[Section]) -> str:
    """Sections in Markdown under the heading ``title``."""
    md = [f"# {title}"]
    for sec in sections:
        md += ["", f"## {sec.heading}"]
        for block in sec.blocks:
            md.append("")
            if isinstance(block, Table):
                md += _md_table(block)
            elif isinstance(block, Bullets):
                md += [f"- {item}" for item in block.items]
            else:
                md.append(block)
    return "\n".join(md) + "\n"


def render_html(title: str, sections: list[Section]) -> str:
    """Sections as a self-contained HTML page titled ``title``."""
    esc = html.escape
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(title)}</title>"
        "<style>body{font-family:sans-serif}td,th{padding:2px 8px;border-bottom:1px solid #ddd}"
        "td.n{text-align:right}tfoot td{font-weight:bold;border-top:2px solid #333}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
    ]
    for sec in sections:
        parts.append(f"<h2>{esc(sec.heading)}</h2>")
        for block in sec.blocks:
            if isinstance(block, Table):
                parts.append(_html_table(block))
            elif isinstance(block, Bullets):
                parts.append("<ul>" + "".join(f"<li>{esc(i)}</li>" for i in block.items) + "</ul>")
            else:
                parts.append(f"<p>{esc(block)}</p>")
    return "".join(parts) + "</body></html>\n"


def _text_table(t: Table) -> list[str]:
    rows = [*t.rows, *([t.total] if t.total else [])]
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(t.columns)]

    def line(cells: list[str]) -> str:
        return (
            "  "
            + "  ".join(
                f"{x:>{w}}" if i in t.right else f"{x:<{w}}"
                for i, (x, w) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()
        )

    out = [line(t.columns), "  " + "  ".join("-" * w for w in widths)]
    out += [line(r) for r in t.rows]
    if t.total:
        out += ["  " + "  ".join("-" * w for w in widths), line(t.total)]
    return out


def _md_table(t: Table) -> list[str]:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    align = ["---:" if i in t.right else "---" for i in range(len(t.columns))]
    out = [line(t.columns), "|" + "|".join(align) + "|"]
    out += [line(r) for r in t.rows]
    if t.total:
        out.append(line([f"**{c}**" if c else c for c in t.total]))
    return out


def _html_table(t: Table) -> str:
    esc = html.escape

    def cells(row: list[str], tag: str) -> str:
        return "".join(
            f"<{tag}{' class=n' if i in t.right and tag == 'td' else ''}>{esc(x)}</{tag}>"
            for i, x in enumerate(row)
        )

    out = f"<table><thead><tr>{cells(t.columns, 'th')}</tr></thead><tbody>"
    out += "".join(f"<tr>{cells(r, 'td')}</tr>" for r in t.rows) + "</tbody>"
    if t.total:
        out += f"<tfoot><tr>{cells(t.total, 'td')}</tr></tfoot>"
    return out + "</table>"
