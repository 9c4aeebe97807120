"""The exact analysis of craps (N.J.A.C. 19:47-1): every wager of a table at its posted pays, from
the 36 equally likely throws of two dice alone (this module shares no code with the round).

Each wager is a small absorbing chain: a state (the come out, or the point the wager waits on),
and for each of the 36 throws either a decision (the wager's net per unit: a win at its odds,
-1 lost, 0 pushed or barred) or the state it moves to.  Solving it gives, per unit wagered, the
probability of a win, a loss and a push, the expected net, and the expected rolls until the
wager is decided.  The figures given:

* house edge per wager made: minus the expected net per unit wagered, a push counted as a
  decision at 0 (the figure casinos and most published tables quote);
* house edge per wager resolved: the same with pushes left out (divided by 1 - P(push));
* expected rolls to decide the wager (rolls on which it works; a place or buy wager is off on
  the come out roll unless called on, so those rolls are not counted);
* house edge per roll: the edge per wager made divided by the expected rolls (the expected loss
  per roll the wager stands on the layout, per unit wagered; the usual definition).

A place, place to lose, buy, lay or hardway wager stays up after a win (decisions.md): the figures
given for it are per decision (one win or one loss), not per chips placed.  Buy and lay wagers pay
true odds with no commission (1.5, title only: "vigorish prohibited"), and the odds of 1.6 (title
only) pay true odds too: their edge is 0.  The combined edge of a line wager with odds behind it
is the loss of the line wager (the odds lose nothing on average) over the expected total wagered.

>>> sheet = par_sheet(CrapsConfig.from_mapping({}))
>>> [str(sheet.wager(w).edge_made) for w in ("pass", "dont_pass", "place_6", "place_4", "field")]
['7/495', '3/220', '1/66', '1/15', '1/18']
>>> str(sheet.wager("pass").rolls), str(sheet.wager("dont_pass").edge_resolved)
('557/165', '27/1925')
>>> str(line_with_odds("pass", {n: m for n, m in sheet.odds.items()}))
'7/1870'
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Final

import numpy as np
from numpy.typing import NDArray

from felt.analysis.parsheet import (
    Section,
    Table,
    fraction_text,
    render_html,
    render_markdown,
    render_text,
)
from felt.core.money import dollars
from felt.games.craps.config import CrapsConfig, odds_text, rules

GAME: Final = "craps"
EDITION: Final = "nj-19-47-1"
TITLE: Final = "Craps"
POINTS: Final = (4, 5, 6, 8, 9, 10)
"""The point numbers (1.1), counted here from the dice, not read from the round's tables."""
THROWS: Final = tuple((d1, d2) for d1 in range(1, 7) for d2 in range(1, 7))
"""The 36 equally likely throws of two dice."""
P_THROW: Final = Fraction(1, 36)
COME_OUT: Final = 0
"""The state of a line wager before its first roll."""
MULTIPLES: Final = ("1", "2", "3-4-5", "5", "10", "20", "100")
"""The odds multiples the combined-edge table shows beside the table's own."""


def ways(total: int) -> int:
    """How many of the 36 throws show ``total`` (counted, not looked up).

    >>> [ways(t) for t in range(2, 13)]
    [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    """
    return sum(1 for d1, d2 in THROWS if d1 + d2 == total)


def true_odds(number: int) -> Fraction:
    """The odds against ``number`` before a 7: 7's ways over the number's (2 to 1 on 4)."""
    return Fraction(ways(7), ways(number))


# ------------------------------------------------------------------------------ the chains
@dataclass(frozen=True)
class Go:
    """The wager is not decided by the throw and waits in ``state`` (a point, or the come out)."""

    state: int


Step = Fraction | Go
"""What one throw does to a wager: its net per unit (decided), or where it waits."""
Rule = Callable[[int, int, int], Step]
"""A wager's rule: (state, die 1, die 2) -> :data:`Step`."""

WIN: Final = "win"
LOSE: Final = "lose"
PUSH: Final = "push"


@dataclass(frozen=True)
class Solved:
    """A wager solved from one state: the probability of each decision, the expected net per
    unit and the expected rolls to the decision."""

    win: Fraction
    lose: Fraction
    push: Fraction
    net: Fraction
    rolls: Fraction


def solve(rule: Rule, state: int = COME_OUT) -> Solved:
    """Solve the chain of ``rule`` from ``state``.  A state may repeat itself (a point waits) and
    move on to others that never lead back (the come out moves to a point): so each state's
    figures are its own throws' plus the states it moves to, over 1 - P(it stays).

    >>> s = solve(lambda state, d1, d2: Fraction(4) if d1 + d2 == 7 else Fraction(-1))
    >>> s.win, s.net, s.rolls
    (Fraction(1, 6), Fraction(-1, 6), Fraction(1, 1))
    """
    return _solve(rule, state, {})


def _solve(rule: Rule, state: int, solved: dict[int, Solved]) -> Solved:
    """:func:`solve`, each state solved once (``solved``)."""
    if state in solved:
        return solved[state]
    win = lose = push = net = Fraction(0)
    rolls = Fraction(1)
    stay = Fraction(0)
    for d1, d2 in THROWS:
        step = rule(state, d1, d2)
        if isinstance(step, Go):
            if step.state == state:
                stay += P_THROW
                continue
            nxt = _solve(rule, step.state, solved)
            win += P_THROW * nxt.win
            lose += P_THROW * nxt.lose
            push += P_THROW * nxt.push
            net += P_THROW * nxt.net
            rolls += P_THROW * nxt.rolls
        elif step > 0:
            win += P_THROW
            net += P_THROW * step
        elif step < 0:
            lose += P_THROW
            net += P_THROW * step
        else:
            push += P_THROW
    keep = 1 - stay
    out = solved[state] = Solved(win / keep, lose / keep, push / keep, net / keep, rolls / keep)
    return out


def line_rule(right: bool, pays: Fraction) -> Rule:
    """Pass or come (``right``; 1.2(a)1, 3) and don't pass or don't come (1.2(a)2, 4): on the
    come out 7 or 11 wins the right side, 2, 3 or 12 loses it; 2 or 3 wins the wrong side, 7 or
    11 loses it, 12 bars it (a push); any other total is the point, which wins the right side
    when thrown again before a 7 and the wrong side when a 7 comes first."""

    def rule(state: int, d1: int, d2: int) -> Step:
        t = d1 + d2
        if state == COME_OUT:
            if t in (7, 11):
                return pays if right else Fraction(-1)
            if t in (2, 3):
                return Fraction(-1) if right else pays
            if t == 12:
                return Fraction(-1) if right else Fraction(0)
            return Go(t)
        if t == state:
            return pays if right else Fraction(-1)
        if t == 7:
            return Fraction(-1) if right else pays
        return Go(state)

    return rule


def number_rule(number: int, right: bool, pays: Fraction) -> Rule:
    """A wager on ``number`` against the 7 (place and buy: the number wins; place to lose and
    lay: the 7 wins; the odds of 1.6 on a point): decided by the number or a 7, waiting on any
    other total."""

    def rule(state: int, d1: int, d2: int) -> Step:
        t = d1 + d2
        if t == number:
            return pays if right else Fraction(-1)
        if t == 7:
            return Fraction(-1) if right else pays
        return Go(state)

    return rule


def hard_rule(number: int, pays: Fraction) -> Rule:
    """Hard ``number`` (1.2(a)7-10): wins when the number is thrown as a pair, loses when it is
    thrown any other way or on a 7."""

    def rule(state: int, d1: int, d2: int) -> Step:
        t = d1 + d2
        if t == number:
            return pays if d1 == d2 else Fraction(-1)
        if t == 7:
            return Fraction(-1)
        return Go(state)

    return rule


def one_roll_rule(pays_on: Mapping[int, Fraction]) -> Rule:
    """A one roll wager (1.2(a)11-19): the next throw pays the odds it shows in ``pays_on`` (by
    total), or loses."""

    def rule(state: int, d1: int, d2: int) -> Step:
        return pays_on.get(d1 + d2, Fraction(-1))

    return rule


# ------------------------------------------------------------------------------ the wagers
@dataclass(frozen=True)
class WagerFigures:
    """One wager's exact figures at the table's pays."""

    id: str
    label: str
    clause: str
    pays: str
    win: Fraction
    lose: Fraction
    push: Fraction
    net: Fraction
    """Expected net per unit wagered."""
    rolls: Fraction
    """Expected rolls (on which it works) until it is decided."""

    @property
    def edge_made(self) -> Fraction:
        """House edge per wager made (pushes count as decisions at 0)."""
        return -self.net

    @property
    def edge_resolved(self) -> Fraction:
        """House edge per wager resolved (pushes left out)."""
        return -self.net / (1 - self.push)

    @property
    def edge_per_roll(self) -> Fraction:
        """House edge per roll: the edge per wager made over the expected rolls to decide it."""
        return self.edge_made / self.rolls

    def to_json(self) -> dict[str, Any]:
        """The figures, each exact as ``"n/d"`` beside its decimal."""

        def exact(x: Fraction) -> dict[str, Any]:
            return {"exact": fraction_text(x), "decimal": float(x)}

        return {
            "id": self.id,
            "label": self.label,
            "clause": self.clause,
            "pays": self.pays,
            "win": exact(self.win),
            "lose": exact(self.lose),
            "push": exact(self.push),
            "house_edge_per_wager": exact(self.edge_made),
            "house_edge_per_resolved": exact(self.edge_resolved),
            "rolls_to_decide": exact(self.rolls),
            "house_edge_per_roll": exact(self.edge_per_roll),
        }


def _figures(id_: str, label: str, clause: str, pays: str, rule: Rule, state: int) -> WagerFigures:
    s = solve(rule, state)
    return WagerFigures(id_, label, clause, pays, s.win, s.lose, s.push, s.net, s.rolls)


_ONE_ROLL: Final = {
    "any_seven": ("Any seven", "2(a)12", {7: "any_seven"}),
    "any_craps": ("Any craps", "2(a)13", {2: "any_craps", 3: "any_craps", 12: "any_craps"}),
    "craps_2": ("Craps two", "2(a)14", {2: "craps_2"}),
    "craps_3": ("Craps three", "2(a)15", {3: "craps_3"}),
    "craps_12": ("Craps twelve", "2(a)16", {12: "craps_12"}),
    "eleven": ("Eleven in one roll", "2(a)17", {11: "eleven"}),
    "craps_eleven": ("Craps-eleven", "2(a)18", {2: "craps_eleven_craps", 3: "craps_eleven_craps",
                                                12: "craps_eleven_craps",
                                                11: "craps_eleven_eleven"}),
    "horn": ("Horn", "2(a)19", {2: "horn_2", 3: "horn_3", 11: "horn_11", 12: "horn_12"}),
}  # fmt: skip
"""The one roll wagers after the field: label, clause, and which pay-table line pays each total."""
_HARD_CLAUSE: Final = {4: "2(a)7", 6: "2(a)8", 8: "2(a)9", 10: "2(a)10"}


def _pays_text(lines: Mapping[int, Fraction]) -> str:
    """The odds by total, totals paying alike grouped: ``2, 12: 2 to 1; 3, 4: 1 to 1``."""
    groups: dict[Fraction, list[int]] = {}
    for total, odds in lines.items():
        groups.setdefault(odds, []).append(total)
    if len(groups) == 1:
        return odds_text(next(iter(groups)))
    return "; ".join(
        f"{', '.join(map(str, sorted(ts)))}: {odds_text(o)}" for o, ts in groups.items()
    )


def wager_figures(config: CrapsConfig) -> list[WagerFigures]:
    """Every wager of the table at its pays: the line wagers, the numbers, the hardways, the one
    roll wagers, then the odds behind the line on each point."""
    p, r = config.pays, rules()
    out = [
        _figures("pass", "Pass", "2(a)1", odds_text(p["pass"]), line_rule(True, p["pass"]), 0),
        _figures("dont_pass", "Don't pass", "2(a)2", odds_text(p["dont_pass"]),
                 line_rule(False, p["dont_pass"]), 0),
        _figures("come", "Come", "2(a)3", odds_text(p["come"]), line_rule(True, p["come"]), 0),
        _figures("dont_come", "Don't come", "2(a)4", odds_text(p["dont_come"]),
                 line_rule(False, p["dont_come"]), 0),
    ]  # fmt: skip
    for n in POINTS:
        for kind, right, label, clause in (
            ("place", True, f"Place {n} to win", "2(a)5"),
            ("place_lose", False, f"Place {n} to lose", "2(a)6"),
        ):
            pays = p[f"{kind}_{n}"]
            out.append(_figures(f"{kind}_{n}", label, clause, odds_text(pays),
                                number_rule(n, right, pays), n))  # fmt: skip
    for n in POINTS:
        odds = true_odds(n)
        out.append(_figures(f"buy_{n}", f"Buy {n}", "5", odds_text(odds),
                            number_rule(n, True, odds), n))  # fmt: skip
        out.append(_figures(f"lay_{n}", f"Lay {n}", "5", odds_text(1 / odds),
                            number_rule(n, False, 1 / odds), n))  # fmt: skip
    for n in (4, 6, 8, 10):
        pays = p[f"hard_{n}"]
        out.append(_figures(f"hard_{n}", f"Hard {n}", _HARD_CLAUSE[n], odds_text(pays),
                            hard_rule(n, pays), 0))  # fmt: skip
    field = dict.fromkeys((3, 4, 9, 10, 11), p["field"]) | {2: p["field_2"], 12: p["field_12"]}
    out.append(_figures("field", "Field", "2(a)11", _pays_text(dict(sorted(field.items()))),
                        one_roll_rule(field), 0))  # fmt: skip
    for id_, (label, clause, lines) in _ONE_ROLL.items():
        pays_on = {t: p[key] for t, key in lines.items()}
        out.append(_figures(id_, label, clause, _pays_text(pays_on), one_roll_rule(pays_on), 0))
    for n in POINTS:
        odds = true_odds(n)
        out.append(_figures(f"pass_odds_{n}", f"Odds on pass or come, point {n}", "6",
                            odds_text(odds), number_rule(n, True, odds), n))  # fmt: skip
        out.append(_figures(f"dont_pass_odds_{n}", f"Odds on don't pass or don't come, point {n}",
                            "6", odds_text(1 / odds), number_rule(n, False, 1 / odds), n))  # fmt: skip
    return [
        WagerFigures(w.id, w.label, r.cite(w.clause), w.pays, w.win, w.lose, w.push, w.net, w.rolls)
        for w in out
    ]


# ------------------------------------------------------------------------------ a check
def pass_line_monte_carlo(rng: np.random.Generator, n: int) -> NDArray[np.int8]:
    """``n`` pass line decisions thrown with ``rng`` (given in: the analysis keeps no chance of
    its own), net per unit: the come out rolls at once, then a roll at a time for the decisions
    still waiting on their point.  The exact figures' Monte Carlo check (tests, bench)."""
    first = rng.integers(1, 7, n, dtype=np.int8) + rng.integers(1, 7, n, dtype=np.int8)
    net = np.zeros(n, dtype=np.int8)
    net[(first == 7) | (first == 11)] = 1
    net[(first == 2) | (first == 3) | (first == 12)] = -1
    live = np.flatnonzero(net == 0)
    point = first[live]
    while live.size:
        size = live.size
        t = rng.integers(1, 7, size, dtype=np.int8) + rng.integers(1, 7, size, dtype=np.int8)
        won, lost = t == point, t == 7
        net[live[won]] = 1
        net[live[lost]] = -1
        keep = ~(won | lost)
        live, point = live[keep], point[keep]
    return net


# ------------------------------------------------------------------------------ line + odds
def multiples_of(text: str) -> dict[int, int]:
    """The odds multiple by point of ``"3-4-5"`` or a whole number (the same on every point)."""
    if text == "3-4-5":
        return {4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3}
    return dict.fromkeys(POINTS, int(text))


def line_with_odds(
    side: str, multiples: Mapping[int, int], pays: Fraction = Fraction(1)
) -> Fraction:
    """The combined house edge of a ``pass`` (or come) or ``dont_pass`` (or don't come) wager
    paying ``pays`` with full odds behind it at ``multiples`` (1.6): the flat wager's expected
    loss over the expected total wagered.  Taking odds puts up ``multiple`` times the flat wager;
    laying odds puts up what wins ``multiple`` times the flat wager (true odds times it).

    >>> str(line_with_odds("pass", multiples_of("1"))), str(line_with_odds("dont_pass", multiples_of("1")))
    ('7/825', '3/440')
    >>> str(line_with_odds("dont_pass", multiples_of("3-4-5")))
    '3/1100'
    """
    right = side == "pass"
    loss = -solve(line_rule(right, pays)).net
    wagered = Fraction(1)
    for n in POINTS:
        odds = Fraction(multiples[n]) if right else multiples[n] * true_odds(n)
        wagered += Fraction(ways(n), 36) * odds
    return loss / wagered


# ------------------------------------------------------------------------------ the sheet
def _pct(x: Fraction) -> str:
    return f"{float(x) * 100:.4f}%"


@dataclass(frozen=True)
class PassOutcome:
    """One result of a pass line wager with full odds: its net per unit of the flat wager."""

    name: str
    net: Fraction
    probability: Fraction


@dataclass(frozen=True)
class CrapsSheet:
    """The par sheet of one craps table: its settings, every wager's figures and the line wagers
    with odds (a :class:`felt.games.base.Sheet`)."""

    settings: list[tuple[str, str]]
    wagers: list[WagerFigures]
    odds: dict[int, int]
    """The table's odds multiples by point."""
    odds_text: str
    pass_pays: Fraction
    dont_pays: Fraction

    def wager(self, id_: str) -> WagerFigures:
        """The figures of the wager ``id_`` (``place_6``, ``pass_odds_4``)."""
        return next(w for w in self.wagers if w.id == id_)

    def combined(self) -> list[tuple[str, Fraction, Fraction]]:
        """(multiple, pass with full odds, don't pass with full odds): the table's own first,
        then the usual multiples."""
        rows = [(f"{self.odds_text}x (this table)", self.odds)]
        rows += [(f"{m}x", multiples_of(m)) for m in MULTIPLES]
        return [(name, line_with_odds("pass", m, self.pass_pays),
                 line_with_odds("dont_pass", m, self.dont_pays)) for name, m in rows]  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON-ready data, exact values as ``"n/d"``."""
        return {
            "game": GAME,
            "edition": EDITION,
            "settings": dict(self.settings),
            "definitions": DEFINITIONS,
            "wagers": [w.to_json() for w in self.wagers],
            "line_with_odds": [
                {"multiple": name,
                 "pass": {"exact": fraction_text(a), "decimal": float(a)},
                 "dont_pass": {"exact": fraction_text(b), "decimal": float(b)}}
                for name, a, b in self.combined()
            ],
        }  # fmt: skip

    def to_json_text(self) -> str:
        """The figures as JSON text."""
        return json.dumps(self.to_json(), indent=2) + "\n"

    def sections(self) -> list[Section]:
        """The settings, the wagers, the line wagers with odds, and how the figures are made."""
        rows = [
            [w.label, w.pays, f"{float(w.win):.6f}", f"{float(w.lose):.6f}",
             f"{float(w.push):.6f}", _pct(w.edge_made), fraction_text(w.edge_made),
             _pct(w.edge_resolved), fraction_text(w.rolls), f"{float(w.rolls):.4f}",
             _pct(w.edge_per_roll)]
            for w in self.wagers
        ]  # fmt: skip
        columns = ["wager", "pays", "P(win)", "P(lose)", "P(push)", "edge per wager", "exact",
                   "edge per decision", "rolls", "(decimal)", "edge per roll"]  # fmt: skip
        combined = [[name, _pct(a), fraction_text(a), _pct(b), fraction_text(b)]
                    for name, a, b in self.combined()]  # fmt: skip
        return [
            Section(
                "settings",
                "Table settings",
                [Table(["setting", "value"], [list(s) for s in self.settings])],
            ),
            Section(
                "wagers",
                "Every wager",
                [
                    "Per unit wagered, from the 36 throws of two dice.  A place, place to lose, buy, "
                    "lay or hardway wager stays up after a win: its figures are per decision (one "
                    "win or one loss).",
                    Table(columns, rows, frozenset(range(2, 11))),
                ],
            ),
            Section(
                "line_with_odds",
                "Line wagers with full odds",
                [
                    "Combined house edge of the flat wager with the most odds behind it (1.6): the "
                    "flat wager's expected loss over the expected total wagered.  Laying odds puts up "
                    "what wins the multiple times the flat wager.",
                    Table(
                        ["odds", "pass", "exact", "don't pass", "exact"],
                        combined,
                        frozenset({1, 2, 3, 4}),
                    ),
                ],
            ),
            Section("notes", "How the figures are made", [DEFINITIONS_TEXT]),
        ]

    @property
    def title(self) -> str:
        """The sheet's heading."""
        return f"{TITLE} par sheet (N.J.A.C. 19:47-1)"

    # -------------------------------------------------------------- felt analyze --plot
    base_wager: ClassVar[str] = "pass line wager"
    """What :attr:`outcomes` are counted in: units of the pass line wager."""

    @property
    def outcomes(self) -> list[PassOutcome]:
        """The results of a pass line wager with full odds at the table's multiples, per unit of
        the flat wager (the distribution ``felt analyze --plot`` draws): the come out's win and
        loss, then on each point the point made (the flat wager and the odds won) or a seven out
        (both lost)."""
        p = self.pass_pays
        out = [PassOutcome("come out 7 or 11", p, Fraction(8, 36)),
               PassOutcome("come out 2, 3 or 12", Fraction(-1), Fraction(4, 36))]  # fmt: skip
        for n in POINTS:
            made = Fraction(ways(n), ways(n) + ways(7))
            m = self.odds[n]
            on = Fraction(ways(n), 36)
            out.append(PassOutcome(f"point {n} made", p + m * true_odds(n), on * made))
            out.append(PassOutcome(f"point {n}, seven out", Fraction(-1 - m), on * (1 - made)))
        return out

    @staticmethod
    def probability(o: PassOutcome) -> Fraction:
        """The probability of the outcome ``o``."""
        return o.probability

    @property
    def house_edge_ante(self) -> Fraction:
        """The pass line's house edge per flat wager (the odds lose nothing)."""
        return -sum((o.net * o.probability for o in self.outcomes), Fraction(0))

    def to_text(self) -> str:
        """The sheet as plain text."""
        return render_text(self.title, self.sections())

    def to_markdown(self) -> str:
        """The sheet as Markdown."""
        return render_markdown(self.title, self.sections())

    def to_html(self) -> str:
        """The sheet as a standalone HTML page."""
        return render_html(self.title, self.sections())


DEFINITIONS: Final = {
    "house_edge_per_wager": "minus the expected net per unit wagered, a push a decision at 0",
    "house_edge_per_resolved": "the same with pushes left out: edge per wager / (1 - P(push))",
    "rolls_to_decide": "expected rolls on which the wager works until it wins or loses",
    "house_edge_per_roll": "edge per wager made / expected rolls to decide it",
    "standing_wagers": "place, place to lose, buy, lay and hardway wagers stay up after a win: "
    "their figures are per decision",
    "line_with_odds": "the flat wager's expected loss / (1 + expected odds wagered)",
}
DEFINITIONS_TEXT: Final = (
    "Every figure is exact (a fraction of the 36 equally likely throws), decimals for display. "
    "Edge per wager: minus the expected net per unit wagered, a push counted as a decision at 0. "
    "Edge per decision: the same over the wagers that win or lose (pushes left out). Rolls: the "
    "expected rolls on which the wager works until it is decided (place and buy wagers are off "
    "on the come out roll unless called on; those rolls are not counted). Edge per roll: edge per "
    "wager over rolls. Buy and lay wagers pay true odds with no commission (1.5, title only: "
    "vigorish prohibited) and the odds of 1.6 pay true odds: their edge is 0."
)


@functools.lru_cache(maxsize=16)
def _sheet(key: str) -> CrapsSheet:
    config = CrapsConfig.from_mapping(json.loads(key))
    r = rules()
    settings = [
        ("rules", r.title),
        ("minimum (line, place, buy, lay)", dollars(config.minimum)),
        ("maximum (any one wager)", dollars(config.maximum)),
        ("proposition minimum (hardways, one roll)", dollars(config.proposition_minimum)),
        ("odds (1.6)", f"{config.odds_text}x"),
        ("dice", config.dice),
        ("seats", str(config.seats)),
    ]
    return CrapsSheet(settings, wager_figures(config), dict(config.odds), config.odds_text,
                      config.pays["pass"], config.pays["dont_pass"])  # fmt: skip


def par_sheet(config: CrapsConfig) -> CrapsSheet:
    """The par sheet of a table of ``config`` (exact; computed in milliseconds, then cached)."""
    return _sheet(json.dumps(config.to_mapping(), sort_keys=True))
