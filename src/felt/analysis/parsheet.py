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
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """One outcome of a round: its description, how often it happens and what it pays."""

    decision: str
    hand: str
    result: str
    count: int
    net: Fraction
    """Player's net result, in units of the base wager (the ante, or Double Down Stud's wager)."""
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
    """Wagers required before any card, in units (Boston 5: ante + first = 3)."""
    outcomes: list[Outcome]
    strategy: dict[str, Any]
    strategies: dict[str, Fraction]
    """House edge per base unit under other strategies people use."""
    pay_table: list[tuple[str, str]]
    notes: list[str] = field(default_factory=list)
    bonus: dict[str, Any] | None = None

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
        """House edge per base unit (per ante, or per Double Down Stud wager)."""
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

        def exact(x: Fraction) -> dict[str, Any]:
            return {"exact": f"{x.numerator}/{x.denominator}", "decimal": float(x)}

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
                    "net": exact(o.net),
                    "contribution": exact(self.contribution(o)),
                }
                for o in self.outcomes
            ],
            "notes": self.notes,
        }
        if self.bonus is not None:
            out["bonus"] = self.bonus
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
            row(f"average wagered ({self.base_wager}s)", self.average_wagered, pct=False),
            (
                f"standard deviation ({self.base_wager}s)",
                f"{self.std_dev:.6f}",
                f"variance {self.variance.numerator}/{self.variance.denominator}",
            ),
        ]

    def strategy_notes(self) -> list[str]:
        """What the strategy says besides its rule and table (e.g. Boston 7 discards)."""
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

    def to_text(self) -> str:
        """A plain-text par sheet."""
        lines = [
            f"{self.title}",
            f"{self.game} ({self.edition}), {self.base_wager} ${self.base_cents / 100:.2f}",
            "",
        ]
        for name, dec, ex in self.summary_rows():
            lines.append(f"{name:<40}{dec:>14}   {ex}")
        lines += ["", f"strategy: {self.strategy['rule']}"]
        lines += [f"  {n}" for n in self.strategy_notes()]
        for name, edge in self.strategies.items():
            lines.append(
                f"  house edge per {self.base_wager}, {name:<30}{float(edge) * 100:>10.4f}%"
            )
        lines += [
            "",
            f"{'decision':<10}{'hand':<28}{'result':<14}{'count':>22}{'probability':>14}{'net':>10}{'return':>12}",
        ]
        for o in self.outcomes:
            lines.append(
                f"{o.decision:<10}{o.hand:<28}{o.result:<14}{o.count:>22,}{float(self.probability(o)):>14.8f}"
                f"{float(o.net):>10.2f}{float(self.contribution(o)):>12.6f}"
            )
        if self.bonus is not None:
            lines += [
                "",
                f"optional bonus wager: house edge {self.bonus['house_edge'] * 100:.4f}% ({self.bonus['house_edge_exact']})",
            ]
        lines += [f"note: {n}" for n in self.notes]
        columns, rows = self.decision_rows()
        if rows:
            widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]
            lines += ["", "decision table:"]
            lines += ["  " + "  ".join(f"{x:<{w}}" for x, w in zip(r, widths, strict=True))
                      for r in [columns, *rows]]  # fmt: skip
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """A par sheet in Markdown, for a regulator."""
        md = [
            f"# Par sheet: {self.title}",
            "",
            f"Game `{self.game}`, edition `{self.edition}`, {self.base_wager} ${self.base_cents / 100:.2f}.",
            "",
        ]
        md += ["| figure | value | exact |", "|---|---:|---|"]
        md += [f"| {a} | {b} | `{c}` |" for a, b, c in self.summary_rows()]
        md += ["", "## Pay table", "", "| hand | pays |", "|---|---|"]
        md += [f"| {h} | {p} |" for h, p in self.pay_table]
        md += ["", "## Strategy", "", self.strategy["rule"], ""]
        md += [*(f"{n}\n" for n in self.strategy_notes())]
        md += ["| strategy | house edge |", "|---|---:|"]
        md += [f"| {k} | {float(v) * 100:.4f}% |" for k, v in self.strategies.items()]
        md += [
            "",
            "## Outcomes",
            "",
            "| decision | hand | result | count | probability | net | return |",
            "|---|---|---|---:|---:|---:|---:|",
        ]
        md += [
            f"| {o.decision} | {o.hand} | {o.result} | {o.count:,} | {float(self.probability(o)):.8f} | {float(o.net):.2f} | {float(self.contribution(o)):.6f} |"
            for o in self.outcomes
        ]
        if self.bonus is not None:
            md += [
                "",
                "## Optional bonus wager",
                "",
                f"House edge {self.bonus['house_edge'] * 100:.4f}% (`{self.bonus['house_edge_exact']}`).",
            ]
        md += [""] + [f"- {n}" for n in self.notes]
        columns, rows = self.decision_rows()
        if rows:
            md += ["", "## Decision table", "", "| " + " | ".join(columns) + " |"]
            md += ["|" + "---|" * len(columns)] + ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(md) + "\n"

    def to_html(self) -> str:
        """A self-contained HTML par sheet."""
        esc = html.escape
        rows = "".join(
            f"<tr><td>{esc(a)}</td><td>{esc(b)}</td><td><code>{esc(c)}</code></td></tr>"
            for a, b, c in self.summary_rows()
        )
        outs = "".join(
            f"<tr><td>{esc(o.decision)}</td><td>{esc(o.hand)}</td><td>{esc(o.result)}</td><td>{o.count:,}</td>"
            f"<td>{float(self.probability(o)):.8f}</td><td>{float(o.net):.2f}</td><td>{float(self.contribution(o)):.6f}</td></tr>"
            for o in self.outcomes
        )
        pays = "".join(f"<tr><td>{esc(h)}</td><td>{esc(p)}</td></tr>" for h, p in self.pay_table)
        columns, rows_ = self.decision_rows()
        table = "".join(f"<th>{esc(c)}</th>" for c in columns) + "".join(
            "<tr>" + "".join(f"<td>{esc(x)}</td>" for x in r) + "</tr>" for r in rows_
        )
        notes = "".join(f"<p>{esc(n)}</p>" for n in self.strategy_notes())
        return (
            f"<!doctype html><html><head><meta charset='utf-8'><title>Par sheet: {esc(self.title)}</title>"
            "<style>body{font-family:sans-serif}td,th{padding:2px 8px;border-bottom:1px solid #ddd}</style></head><body>"
            f"<h1>Par sheet: {esc(self.title)}</h1><p>{esc(self.game)} ({esc(self.edition)}), {esc(self.base_wager)} ${self.base_cents / 100:.2f}</p>"
            f"<table><tr><th>figure</th><th>value</th><th>exact</th></tr>{rows}</table>"
            f"<h2>Pay table</h2><table>{pays}</table><h2>Strategy</h2><p>{esc(self.strategy['rule'])}</p>{notes}"
            f"<h2>Outcomes</h2><table><tr><th>decision</th><th>hand</th><th>result</th><th>count</th><th>probability</th><th>net</th><th>return</th></tr>{outs}</table>"
            + "".join(f"<p>{esc(n)}</p>" for n in self.notes)
            + (f"<h2>Decision table</h2><table>{table}</table>" if rows_ else "")
            + "</body></html>\n"
        )
