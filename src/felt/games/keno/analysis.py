"""The exact analysis of a keno rate card: for every ticket type offered and every spot count, the
exact distribution of the payout, the return and the house advantage per wager at the minimum
wager, and the verdict of 19:47-15.3(e) (at most 30 percent).

Straight tickets are hypergeometric.  A grouped ticket (split, way, combination, king) is analysed
jointly over its disjoint groups (:func:`felt.games.keno.exact.distribution`), with each way's
payoff capped at the maximum payoff and the ticket's total at the aggregate limit, as for a lone
winner.  Each type is analysed in one standard form per spot count (:func:`standard_tickets`);
the expected return of any ticket is the sum of its ways' returns, so every ticket whose payouts
stay under the limits has a house advantage between those of the straight tickets it is made of.
Tickets whose ways together can pass the aggregate limit are not so bounded: each is checked when
it is requested (:mod:`felt.games.keno.advantage`), and :meth:`CardAnalysis.with_many_way` lists
the card's many-way forms (docs/interpretations.md, "Which tickets the 30 percent applies to").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any, ClassVar, Final

from felt.analysis.parsheet import (
    Block,
    Bullets,
    Section,
    Table,
    fraction_text,
    one_in,
    prob_text,
    render_html,
    render_markdown,
    render_text,
)
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.games.keno.exact import DRAWN, POOL, catch_counts, distribution
from felt.games.keno.ratecard import MAX_HOUSE_ADVANTAGE_PERCENT
from felt.games.keno.tickets import Ticket, cite, groups_of, read_request

if TYPE_CHECKING:
    from felt.games.keno.advantage import Form
    from felt.games.keno.ratecard import RateCard

LIMIT: Final = Fraction(MAX_HOUSE_ADVANTAGE_PERCENT, 100)
MULTI_RACE_GAMES: Final = 2
"""Games over which the multi-race ticket's total payout is tabulated (the return per game does
not depend on the number of games)."""


@dataclass(frozen=True)
class TicketAnalysis:
    """One ticket at the minimum wager: the exact distribution of what it pays."""

    kind: str
    spots: int
    ticket: Ticket
    payouts: dict[int, int]
    """Cents paid (all games together) -> number of equally likely draws (of ``total``)."""
    total: int

    @property
    def price(self) -> int:
        """What the ticket costs, cents."""
        return self.ticket.price

    @property
    def expected(self) -> Fraction:
        """Expected payout, cents."""
        return Fraction(sum(a * n for a, n in self.payouts.items()), self.total)

    @property
    def return_rate(self) -> Fraction:
        """Expected payout per unit wagered."""
        return self.expected / self.price

    @property
    def house_advantage(self) -> Fraction:
        """One minus the return: the share of each wager the house keeps on average."""
        return 1 - self.return_rate

    @property
    def hit_frequency(self) -> Fraction:
        """Probability the ticket pays anything."""
        return Fraction(sum(n for a, n in self.payouts.items() if a), self.total)

    @property
    def complies(self) -> bool:
        """Whether the house advantage is at most 30 percent (15.3(e))."""
        return self.house_advantage <= LIMIT

    @property
    def label(self) -> str:
        """e.g. ``way 3/8 (groups 4+4+4)``."""
        groups = "+".join(map(str, self.ticket.sizes))
        if self.kind == "straight":
            return f"straight {self.spots}-spot"
        if self.kind == "multi-race":
            return f"multi-race {self.spots}-spot, {self.ticket.games} games"
        return f"{self.kind} {self.ticket.conditioning} (groups {groups})"

    def to_json(self) -> dict[str, Any]:
        """Exact values as ``"n/d"`` strings beside decimals."""
        return {
            "kind": self.kind,
            "spots": self.spots,
            "label": self.label,
            "conditioning": self.ticket.conditioning,
            "groups": list(self.ticket.sizes),
            "games": self.ticket.games,
            "price_dollars": self.price / 100,
            "draws": str(self.total),
            "return_exact": fraction_text(self.return_rate),
            "return": float(self.return_rate),
            "house_advantage_exact": fraction_text(self.house_advantage),
            "house_advantage": float(self.house_advantage),
            "hit_frequency_exact": fraction_text(self.hit_frequency),
            "complies_15_3_e": self.complies,
            "payouts": [
                {
                    "dollars": a / 100,
                    "draws": str(n),
                    "probability_exact": fraction_text(Fraction(n, self.total)),
                }
                for a, n in self.payouts.items()
            ],
        }


@dataclass(frozen=True)
class CardAnalysis:
    """Every ticket analysed for one rate card."""

    card: RateCard
    tickets: tuple[TicketAnalysis, ...]
    skipped: tuple[str, ...]
    """Ticket types and spot counts that cannot be formed, and why."""
    beyond: tuple[Form, ...] = ()
    """The many-way forms the card permits beyond the standard ones (:meth:`with_many_way`),
    each checked at issue (15.3(e))."""

    def with_many_way(self) -> CardAnalysis:
        """This analysis with every many-way form of the card worked out (a second or so, so
        not at load: each form is checked when a ticket of it is requested)."""
        from felt.games.keno.advantage import many_way_forms

        return replace(self, beyond=tuple(many_way_forms(self.card)))

    @property
    def worst(self) -> TicketAnalysis:
        """The ticket with the highest house advantage."""
        return max(self.tickets, key=lambda t: t.house_advantage)

    @property
    def complies(self) -> bool:
        """Whether every ticket analysed is within 15.3(e)."""
        return all(t.complies for t in self.tickets)

    def check(self, where: str) -> None:
        """Refuse the card if any ticket's house advantage at the minimum wager is above 30%."""
        for t in self.tickets:
            if not t.complies:
                raise FeltError(
                    f"{where}: the house advantage of a {t.label} ticket at the minimum wager "
                    f"${dollars(self.card.minimum_wager)} is {float(t.house_advantage) * 100:.4f}% "
                    f"({fraction_text(t.house_advantage)}), above {MAX_HOUSE_ADVANTAGE_PERCENT}% "
                    f"({cite('3(e)')})"
                )

    def of(self, kind: str) -> list[TicketAnalysis]:
        """The tickets of one type, by spot count."""
        return [t for t in self.tickets if t.kind == kind]

    # ------------------------------------------------------------------ output
    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures."""
        card = self.card
        worst = self.worst
        return {
            "game": "keno",
            "rule": "N.J.A.C. 19:47-15",
            "rate_card": card.name,
            "pool": POOL,
            "drawn": DRAWN,
            "minimum_wager_dollars": card.minimum_wager / 100,
            "maximum_wager_dollars": card.maximum_wager / 100,
            "max_payoff_dollars": None if card.max_payoff is None else card.max_payoff / 100,
            "aggregate_limit_dollars": None if card.aggregate_limit is None else card.aggregate_limit / 100,
            "ticket_validity": str(card.validity),
            "max_house_advantage": {"ticket": worst.label, "exact": fraction_text(worst.house_advantage),
                                    "decimal": float(worst.house_advantage)},
            "complies_15_3_e": self.complies,
            "tickets": [t.to_json() for t in self.tickets],
            "not_formed": list(self.skipped),
        } | ({"many_way": self._beyond_json()} if self.beyond else {})  # fmt: skip

    BEYOND_SHOWN: ClassVar[int] = 12
    """How many of the worst many-way forms the par sheet lists."""

    def _ranked(self) -> list[Form]:
        return sorted(self.beyond, key=lambda f: (-f.advantage.house_advantage, f.label))

    def _beyond_json(self) -> dict[str, Any]:
        above = [f for f in self._ranked() if not f.advantage.complies]
        return {
            "forms": len(self.beyond),
            "above_30_percent": len(above),
            "refused_at_issue": [
                {"label": f.label, "kind": f.kind, "conditioning": f.conditioning,
                 "groups": list(f.sizes), "house_advantage_exact": fraction_text(f.advantage.low),
                 "house_advantage": float(f.advantage.low)}
                for f in above
            ],
            "worst": self._ranked()[0].label,
        }  # fmt: skip

    def _beyond_section(self) -> Section:
        ranked = self._ranked()
        above = sum(not f.advantage.complies for f in ranked)
        rows = [[f.label, f"{f.advantage.ways:,}", f"${dollars(f.advantage.price)}",
                 f"{float(f.advantage.low) * 100:.4f}%", fraction_text(f.advantage.low),
                 "ok" if f.advantage.complies else "REFUSED AT ISSUE"]
                for f in ranked[: self.BEYOND_SHOWN]]  # fmt: skip
        return Section("many_way", "Many-way tickets beyond the standard forms", [
            f"{len(ranked)} forms of one kind of group and one condition (n kings played "
            f"comb(n, s)/s; k equal groups played comb(k, j)/(j*g)) within {self.card.max_ways:,} "
            f"ways; {above} above {MAX_HOUSE_ADVANTAGE_PERCENT}% at the minimum wager, where the "
            f"aggregate limit cuts the top prizes. The writer's station refuses every ticket above "
            f"{MAX_HOUSE_ADVANTAGE_PERCENT}% at issue ({cite('3(e)')}). The worst "
            f"{min(len(ranked), self.BEYOND_SHOWN)}:",
            Table(["ticket", "ways", "price", "house advantage", "exact", "15.3(e)"], rows,
                  frozenset({1, 2, 3})),
        ])  # fmt: skip

    def to_json_text(self) -> str:
        """The JSON as text."""
        return json.dumps(self.to_json(), indent=2)

    def sections(self) -> list[Section]:
        """Summary, pay tables, the verdict per ticket, return tables, grouped distributions."""
        card = self.card
        worst = self.worst
        summary = Table(["figure", "value"], [
            ["rate card", card.name],
            ["ticket types", ", ".join(card.ticket_types)],
            ["spots (15.2(b))", f"1 to {card.max_spots} per way, each way a straight ticket "
             f"({', '.join(map(str, card.pays))} paid); a grouped ticket may mark more numbers"],
            ["wagers (per way, per game)", f"${dollars(card.minimum_wager)} to "
             f"${dollars(card.maximum_wager)} in steps of ${dollars(card.wager_step)}"],
            ["maximum payoff per wager", "none" if card.max_payoff is None else f"${dollars(card.max_payoff)}"],
            ["maximum aggregate payoff per game", "none" if card.aggregate_limit is None
             else f"${dollars(card.aggregate_limit)} ({card.aggregate_sharing})"],
            ["winning tickets valid for", str(card.validity)],
            ["highest house advantage", f"{float(worst.house_advantage) * 100:.4f}% ({worst.label})"],
            [f"every ticket at most {MAX_HOUSE_ADVANTAGE_PERCENT}% (15.3(e))", "yes" if self.complies else "NO"],
        ])  # fmt: skip
        out = [Section("summary", "Summary", [
            f"Keno by N.J.A.C. 19:47-15: {DRAWN} of {POOL} numbers drawn; every figure at the "
            f"minimum wager ${dollars(card.minimum_wager)} per way, exact.",
            summary,
        ])]  # fmt: skip
        pays: list[Block] = []
        for spots, line in card.pays.items():
            pays += [f"{spots}-spot:", Table(["catch", "pays"], [[str(k), f"${dollars(v)}"] for k, v in line.items()], frozenset({0, 1}))]  # fmt: skip
        out.append(
            Section(
                "pay_tables",
                f"Pay tables (for the minimum wager ${dollars(card.minimum_wager)})",
                pays,
            )
        )
        rows = [
            [t.label, f"${dollars(t.price)}", f"{float(t.return_rate) * 100:.4f}%",
             f"{float(t.house_advantage) * 100:.4f}%", fraction_text(t.house_advantage),
             f"{float(t.hit_frequency) * 100:.4f}%", "complies" if t.complies else "ABOVE 30%"]
            for t in self.tickets
        ]  # fmt: skip
        out.append(Section("verdict", "House advantage per ticket (15.3(e))", [
            "Return and house advantage per unit wagered, each ticket at the minimum wager; "
            "grouped tickets in their standard form.",
            Table(["ticket", "price", "return", "house advantage", "exact", "hit frequency", "15.3(e)"],
                  rows, frozenset({1, 2, 3, 5})),
        ]))  # fmt: skip
        returns: list[Block] = []
        for t in self.of("straight"):
            counts = catch_counts(t.spots)
            total = t.total
            line = card.pays[t.spots]
            body = []
            for k, n in enumerate(counts):
                pay = line.get(k, 0)
                body.append([str(k), f"{n:,}", prob_text(Fraction(n, total)), one_in(total, n),
                             f"${dollars(pay)}", f"{float(Fraction(n * pay, total * t.price)):.6f}"])  # fmt: skip
            returns += [
                f"{t.spots}-spot: return {float(t.return_rate):.6f} ({fraction_text(t.return_rate)}).",
                Table(["catch", "draws", "probability", "one in N", "pays", "return"], body,
                      frozenset({0, 1, 2, 3, 4, 5}),
                      ["total", f"{total:,}", "1", "1 in 1", "", f"{float(t.return_rate):.6f}"]),
            ]  # fmt: skip
        out.append(Section("return_tables", "Straight tickets: every catch", [
            f"Draws out of comb({POOL}, {DRAWN}) = {comb(POOL, DRAWN):,} equally likely.", *returns]))  # fmt: skip
        grouped: list[Block] = []
        for t in self.tickets:
            if t.kind == "straight":
                continue
            body = [[f"${dollars(a)}", f"{n:,}", prob_text(Fraction(n, t.total)), one_in(t.total, n)]
                    for a, n in t.payouts.items()]  # fmt: skip
            grouped += [
                f"{t.label}: numbers {t.ticket.marked()}, price ${dollars(t.price)}, return "
                f"{float(t.return_rate):.6f} ({fraction_text(t.return_rate)}).",
                Table(["pays", "draws", "probability", "one in N"], body, frozenset({0, 1, 2, 3})),
            ]
        out.append(Section("grouped", "Grouped and multi-race tickets: distribution of the payout",
                           grouped or ["No grouped tickets offered."]))  # fmt: skip
        notes = [
            "A grouped ticket's distribution is joint over its disjoint groups (multivariate "
            "hypergeometric); each way is capped at the maximum payoff, the ticket's total at "
            "the aggregate limit as for a lone winner (shared with other winners it can only be "
            "less, 15.3(e)).",
            "The expected return of any ticket is the sum of its ways' returns, so a ticket whose "
            "payouts stay under the limits has a house advantage between the smallest and largest "
            "of its ways' straight tickets.",
            f"A multi-race ticket returns the same per game as the ticket for one game; its payout "
            f"is tabulated over {MULTI_RACE_GAMES} games.",
            *self.skipped,
        ]
        if self.beyond:
            out.append(self._beyond_section())
        out.append(Section("notes", "Notes", [Bullets(notes)]))
        return out

    def to_text(self) -> str:
        """A plain-text par sheet."""
        return render_text(f"Keno par sheet: {self.card.name}", self.sections())

    def to_markdown(self) -> str:
        """A Markdown par sheet."""
        return render_markdown(f"Keno par sheet: {self.card.name}", self.sections())

    def to_html(self) -> str:
        """A self-contained HTML par sheet."""
        return render_html(f"Keno par sheet: {self.card.name}", self.sections())


def analyze_ticket(card: RateCard, ticket: Ticket, kind: str | None = None) -> TicketAnalysis:
    """The exact payout distribution of ``ticket`` under ``card`` (every game together)."""
    conditions = [(c.spots, c.rate) for c in ticket.conditions]
    one = distribution(ticket.sizes, conditions, ticket.single, card.payoff,
                       ticket_limit=card.aggregate_limit)  # fmt: skip
    games = ticket.games
    payouts, total = one, comb(POOL, DRAWN)
    for _ in range(games - 1):
        merged: dict[int, int] = {}
        for a, n in payouts.items():
            for b, m in one.items():
                merged[a + b] = merged.get(a + b, 0) + n * m
        payouts, total = dict(sorted(merged.items())), total * comb(POOL, DRAWN)
    spots = max(c.spots for c in ticket.conditions)
    return TicketAnalysis(kind or ticket.kind, spots, ticket, payouts, total)


def standard_tickets(card: RateCard) -> tuple[list[tuple[str, Ticket]], list[str]]:
    """The tickets analysed: each offered type at each spot count it can be formed for, at the
    minimum wager.  Split: two groups of n (2/n).  Way: the fewest equal groups of two or more
    spots combined into n-spot ways (n = k groups of n/k, k+1 groups: (k+1)/n).  Combination: two
    groups of n//2 and the rest, each alone and together.  King: one king with two groups of n-1
    (2/n; three kings 3/2 for n = 2).  Multi-race: the straight n-spot for two games."""
    rate = dollars(card.minimum_wager)
    out: list[tuple[str, Ticket]] = []
    skipped: list[str] = []

    def add(kind: str, request: dict[str, Any]) -> None:
        out.append((kind, read_request({"rate": rate} | request, card)))

    offered = card.ticket_types
    for n in card.pays:
        if "straight" in offered:
            add("straight", {"kind": "straight", "numbers": list(range(1, n + 1))})
    if "split" in offered:
        for n in card.pays:
            if 2 * n <= POOL:
                add(
                    "split",
                    {"kind": "split", "groups": groups_of([n, n]), "conditions": [f"2/{n}"]},
                )
    if "way" in offered:
        for n in card.pays:
            k = next((k for k in range(2, n + 1) if n % k == 0 and n // k >= 2), None)
            if k is None or (k + 1) * (n // k) > POOL:
                skipped.append(f"No way ticket of {n} spots: {n} is not two or more equal groups "
                               "of two or more spots (groups of one spot are kings).")  # fmt: skip
                continue
            add("way", {"kind": "way", "groups": groups_of([n // k] * (k + 1)),
                        "conditions": [f"{k + 1}/{n}"]})  # fmt: skip
    if "combination" in offered:
        for n in card.pays:
            a, b = n // 2, n - n // 2
            if a < 2:
                skipped.append(f"No combination ticket of {n} spots: its groups would be kings.")
                continue
            sizes = sorted({a, b} & set(card.pays))
            conds = [f"{2 if a == b else 1}/{s}" for s in sizes] + [f"1/{n}"]
            add(
                "combination",
                {"kind": "combination", "groups": groups_of([a, b]), "conditions": conds},
            )
    if "king" in offered:
        for n in card.pays:
            if n < 2 or 2 * n - 1 > POOL:
                continue
            cond = "3/2" if n == 2 else f"2/{n}"
            add(
                "king",
                {"kind": "king", "groups": groups_of([1, n - 1, n - 1]), "conditions": [cond]},
            )
    if "multi-race" in offered and "straight" in offered:
        for n in card.pays:
            add("multi-race", {"kind": "straight", "numbers": list(range(1, n + 1)),
                               "games": MULTI_RACE_GAMES})  # fmt: skip
    return out, skipped


def analyze_card(card: RateCard) -> CardAnalysis:
    """Analyse every standard ticket of ``card`` exactly."""
    tickets, skipped = standard_tickets(card)
    done = tuple(analyze_ticket(card, t, kind) for kind, t in tickets)
    if not done:
        raise FeltError("the rate card offers no ticket that can be formed")
    return CardAnalysis(card, done, tuple(skipped))
