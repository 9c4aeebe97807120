"""Craps house edges by brute force through the engine, against closed forms from dice arithmetic.

For one wager at a time (pass, don't pass, come, place 6, hard 8, field, any craps) the ENGINE
is run through all 36 throws from every state the wager can be in (the point, and where the
wager lies), each on a copy of the table; a roll that decides the wager ends the branch with the
player's result read from the ledger (chips to the wallet plus the change of the chips on the
layout), and one that does not leads to a state.  The expected result per wager made is then the
exact solution (fractions) of the linear equations of that state graph: value(state) = sum over
throws of 1/36 x (result, or value of the state it leads to).

The closed forms are figured here from the 36 throws only (no felt code), and agree with the
published figures (craps_sources.md section 7): pass 7/495 = 1.414% (casinodealerswebsite.com
house edge summary; Grochowski, "The math of the pass line"), don't pass 3/220 = 1.364%
(bobscasinoclub.com), place 6 at 7 to 6 1/66 = 1.52% (davenportz.com craps bets), hard 8 at 9 to
1 1/11 = 9.09% (betting-strategies.com), any craps at 7 to 1 1/9 = 11.11% (zipdo.co craps
statistics); the field at 2 to 1 on 2 and 12 1/18 = 5.56% is dice arithmetic alone.  Nothing
from felt.games.craps.analysis is used.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from fractions import Fraction

import pytest

from felt.games.craps.actions import Bet
from felt.games.craps.config import CrapsConfig
from felt.games.craps.table import CrapsTable
from felt.rounds.actions import Action
from felt.rounds.engine import seat_party

SEAT, SHOOTER = 1, 7
THROWS: list[tuple[int, int]] = [(a, b) for a in range(1, 7) for b in range(1, 7)]
P = {t: Fraction(sum(1 for a, b in THROWS if a + b == t), 36) for t in range(2, 13)}
POINTS = (4, 5, 6, 8, 9, 10)

# ---------------------------------------------------------------- closed forms (dice arithmetic)


def before_seven(n: int) -> Fraction:
    """Chance that ``n`` is thrown before a 7."""
    return P[n] / (P[n] + P[7])


PASS_WIN = P[7] + P[11] + sum(P[n] * before_seven(n) for n in POINTS)
DONT_WIN = P[2] + P[3] + sum(P[n] * (1 - before_seven(n)) for n in POINTS)
DONT_LOSE = P[7] + P[11] + sum(P[n] * before_seven(n) for n in POINTS)
HARD_8_WIN = Fraction(1, 36) / (P[8] + P[7])  # 4-4 before 2-6, 3-5, 5-3, 6-2 or a 7

CLOSED: dict[str, Fraction] = {
    "pass": PASS_WIN - (1 - PASS_WIN),
    "dont_pass": DONT_WIN - DONT_LOSE,  # a 12 on the come out roll is void: 0
    "come": PASS_WIN - (1 - PASS_WIN),  # the come bet is the pass bet from its own first roll
    "place_6": before_seven(6) * Fraction(7, 6) - (1 - before_seven(6)),
    "hard_8": HARD_8_WIN * 9 - (1 - HARD_8_WIN),
    "field": sum(P[t] for t in (3, 4, 9, 10, 11))
    + 2 * (P[2] + P[12])
    - sum(P[t] for t in (5, 6, 7, 8)),
    "any_craps": 7 * (P[2] + P[3] + P[12]) - (1 - P[2] - P[3] - P[12]),
}
"""The player's expected result per unit wagered."""
PUBLISHED = {"pass": Fraction(-7, 495), "dont_pass": Fraction(-3, 220), "come": Fraction(-7, 495),
             "place_6": Fraction(-1, 66), "hard_8": Fraction(-1, 11),
             "field": Fraction(-1, 18), "any_craps": Fraction(-1, 9)}  # fmt: skip


def test_closed_forms_are_the_published_edges() -> None:
    assert sum(P.values()) == 1
    assert CLOSED == PUBLISHED
    assert f"{-float(CLOSED['pass']):.3%}" == "1.414%"
    assert f"{-float(CLOSED['dont_pass']):.3%}" == "1.364%"


# ----------------------------------------------------------------------- the engine, brute force


def _shooter(table: CrapsTable) -> list[Action]:
    """The shooter's $5 pass wager at a come out roll that finds none (so the table can roll)."""
    if table.point is None and "pass" not in table.layout().get(SHOOTER, {}):
        return [Bet(SHOOTER, "pass", 500, "sam")]
    return []


def _held(table: CrapsTable) -> int:
    return sum(table.layout().get(SEAT, {}).values())


State = tuple[int | None, tuple[tuple[str, int], ...]]


def _key(table: CrapsTable) -> State:
    return table.point, tuple(sorted(table.layout().get(SEAT, {}).items()))


def _step(
    table: CrapsTable, bets: list[Action]
) -> list[tuple[Fraction, Fraction, State | None, CrapsTable]]:
    """Every throw from ``table`` with ``bets``: (chance, the player's result on the roll,
    the state it leads to or None once the wager is decided, the table after)."""
    out = []
    for dice in THROWS:
        t = copy.deepcopy(table)
        held = _held(t)
        rnd = t.roll([*_shooter(t), *bets], dice)
        result = rnd.ledger.balance(seat_party(SEAT)) + _held(t) - held
        lines = [x for x in rnd.lines if x.seat == SEAT]
        assert result == sum(x.amount for x in lines)  # statement lines say what the chips did
        out.append((Fraction(1, 36), Fraction(result), None if lines else _key(t), t))
    return out


def expected_result(table: CrapsTable, bets: list[Action]) -> Fraction:
    """The exact expected result of the seat's wager made by ``bets`` on ``table``, summed over
    its life until the roll that decides it (a standing wager's first decision)."""
    first = _step(table, bets)
    # discover every state and its transitions
    edges: dict[State, list[tuple[Fraction, Fraction, State | None]]] = {}
    todo = [(k, t) for _, _, k, t in first if k is not None]
    while todo:
        key, t = todo.pop()
        if key in edges:
            continue
        step = _step(t, [])
        edges[key] = [(p, r, k) for p, r, k, _ in step]
        todo += [(k, t2) for _, _, k, t2 in step if k is not None and k not in edges]
    value = _solve(edges)
    return sum((p * (r + (value[k] if k is not None else 0)) for p, r, k, _ in first), Fraction())


def _solve(
    edges: dict[State, list[tuple[Fraction, Fraction, State | None]]],
) -> dict[State, Fraction]:
    """value(s) - sum p value(s') = sum p r, by Gauss-Jordan elimination over fractions."""
    keys = list(edges)
    index = {k: i for i, k in enumerate(keys)}
    n = len(keys)
    rows = [[Fraction(0)] * (n + 1) for _ in range(n)]
    for k, out in edges.items():
        row = rows[index[k]]
        row[index[k]] += 1
        for p, r, nxt in out:
            row[n] += p * r
            if nxt is not None:
                row[index[nxt]] -= p
    for c in range(n):
        pivot = next(i for i in range(c, n) if rows[i][c] != 0)
        rows[c], rows[pivot] = rows[pivot], rows[c]
        rows[c] = [x / rows[c][c] for x in rows[c]]
        for i in range(n):
            if i != c and rows[i][c] != 0:
                f = rows[i][c]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[c], strict=True)]
    return {k: rows[index[k]][n] for k in keys}


def _fresh(**settings: object) -> CrapsTable:
    return CrapsTable(CrapsConfig.from_mapping(settings))


def _point_4() -> CrapsTable:
    table = _fresh()
    table.roll(_shooter(table), (1, 3))
    assert table.point == 4
    return table


CASES: dict[str, tuple[Callable[[], CrapsTable], str, int]] = {
    "pass": (_fresh, "pass", 1000),
    "dont_pass": (_fresh, "dont_pass", 1000),
    "come": (_point_4, "come", 1000),
    "place_6": (_point_4, "place_6", 600),
    "hard_8": (_fresh, "hard_8", 100),
    "field": (_fresh, "field", 100),
    "any_craps": (_fresh, "any_craps", 100),
}


@pytest.mark.parametrize("name", list(CASES))
def test_engine_expected_value_equals_the_closed_form_1_2_a(name: str) -> None:
    """Pass 1.2(a)1, don't pass 2, come 3, place 6 to win 5, hard 8 9, field 11, any craps 13:
    the engine's exact expected result per wager made is the dice arithmetic's."""
    make, spot_id, stake = CASES[name]
    table = make()
    got = expected_result(table, [Bet(SEAT, spot_id, stake, "ann")])
    assert got / stake == CLOSED[name]


def test_engine_dont_pass_void_on_one_throw_in_36_1_2_a_2_iv() -> None:
    """The don't pass wager is void on exactly one throw of 36 (a come out 12), and only then."""
    voids = []
    for dice in THROWS:
        table = _fresh()
        rnd = table.roll([*_shooter(table), Bet(SEAT, "dont_pass", 1000, "ann")], dice)
        if [x for x in rnd.lines if x.seat == SEAT and x.outcome == "void"]:
            voids.append(dice)
    assert voids == [(6, 6)]


def test_engine_reads_the_table_s_pays_field_12_at_3_to_1_1_4() -> None:
    """The same brute force on a table paying 3 to 1 on the field's 12: 1/36 (dice arithmetic:
    the 12's one throw in 36 pays one unit more than at 2 to 1), so the oracle tells the pays
    apart."""
    table = _fresh(pays={"field_12": "3 to 1"})
    got = expected_result(table, [Bet(SEAT, "field", 100, "ann")])
    assert got / 100 == CLOSED["field"] + P[12] == Fraction(-1, 36)
