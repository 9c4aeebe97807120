"""Exact analyses of Boston 5 and Boston 7 Stud Poker, under any legal table.

Boston 5: every three-card start (22,100) is completed every way (1,176) against every dealer
hand from the remaining cards (1,533,939 each), using per-hand win/tie counts computed once by
inclusion-exclusion (:func:`felt.analysis.kernels.equity_counts`).  Boston 7 weights the counts
of :mod:`felt.games.boston.boston7`.  The optimal second-wager decision is taken per start.

Amounts are computed in cents at the given ante, so the payout limit and fixed-dollar lines
apply as they would at the table; results are reported per ante as exact fractions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from felt.analysis import kernels
from felt.analysis.kernels import class_completions, equity_counts, five_card_values
from felt.analysis.parsheet import Outcome, ParSheet, rank_word
from felt.core.cards import RANK_CHARS
from felt.core.census import hand_census
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.core.ranking import Category
from felt.core.tables import cache_dir, five_card_order, load_arrays, save_arrays, source_digest
from felt.games.boston.config import THREE_CARD_ROYAL, TableConfig

if TYPE_CHECKING:
    from felt.games.boston.boston7 import Boston7Counts

# felt.games.boston.boston7 is imported where Boston 7 is analysed: it loads numba, which would
# be a fifth of a warm Boston 5 analysis that compiles nothing.

RESULTS = ("player higher", "tie", "dealer higher")


# ----------------------------------------------------------------------------- Boston 5


def boston5_cells(line_of_value: NDArray[np.int64], n_lines: int) -> NDArray[np.int64]:
    """For each three-card start (by colex index): over its 1,176 completions to five cards and the
    dealer's C(47,5) hands, how many (completion, dealer hand) pairs fall in each (ante-bonus line,
    result) cell; results are 0 player higher, 1 tie, 2 dealer higher.  Shape (22100, n_lines, 3).

    Counted for one start of each suit class (1,755) and copied to the rest; from a verified disk
    cache when there is one: the cells depend on which lines the table pays, not on its odds,
    limit or ante, so a warm ``felt analyze`` or ``felt simulate`` skips the count."""
    lines = ",".join(map(str, np.asarray(line_of_value).tolist()))
    key = source_digest(Path(__file__), Path(kernels.__file__),
                        salt=f"{kernels.equity_digest()}|{n_lines}|{lines}", length=24)  # fmt: skip
    path = cache_dir() / f"cells5-{key}.npz"
    cached = load_arrays(path, ("cells",))
    if cached is not None and cached["cells"].shape == (22100, n_lines, 3):
        return cached["cells"].astype(np.int64)
    lower, equal = equity_counts()
    class_of, _, hands = class_completions(3)
    line = np.asarray(line_of_value)[five_card_values()[hands]]
    results = (lower[hands], equal[hands], comb(47, 5) - lower[hands] - equal[hands])
    cells = np.zeros((len(hands), n_lines, 3), dtype=np.int64)
    for li in range(n_lines):
        on_line = line == li
        for ri, count in enumerate(results):
            cells[:, li, ri] = count.sum(axis=1, where=on_line)
    cells = cells[class_of]
    save_arrays(path, cells=cells)
    return cells


def _boston_lines(config: TableConfig) -> tuple[list[str], NDArray[np.int64]]:
    """Ante-bonus line names (index 0: no bonus hand) and each five-card value's line."""
    names = ["no ante bonus hand", *[h for h in config.ante_bonus.hands if "card royal" not in h]]
    index = {name: i for i, name in enumerate(names)}
    line_of_value = np.zeros(7463, dtype=np.int64)
    for v, (category, _) in enumerate(five_card_order(), start=1):
        line_of_value[v] = index.get(Category(category).label, 0)
    return names, line_of_value


IMPLIED_LINES = {
    "seven-card royal flush": ("six-card royal flush", "royal flush"),
    "six-card royal flush": ("royal flush",),
}
"""Lines a longer royal also makes; 13:69F-24.11(c) pays "once for the highest payout"."""


def _line_bonus(config: TableConfig, ante: int, name: str) -> int | None:
    """Cents an ante bonus line pays at ``ante``: the best of the lines the hand makes."""
    wins = [p.win(ante) for n in (name, *IMPLIED_LINES.get(name, ()))
            if (p := config.ante_bonus.get(n)) is not None]  # fmt: skip
    return max(wins) if wins else None


def _boston_payoffs(
    config: TableConfig, ante: int, names: list[str]
) -> tuple[list[int], list[int], list[int], int]:
    """Cents won per (line, result) when the second wager is placed, and the fold result.

    24.10(f): the dealer higher, ante, first and second lose (f)1; a tie pushes all three (f)2;
    the player higher, first and second win 1 to 1 and the ante is paid its bonus odds or
    returned (f)3.  An ante bonus hand is paid its payout whatever the comparison (f)3, so on a
    loss the player gives up ante, first and second and still receives the payout.  The payout
    limit (24.11(e)) caps first, second and ante bonus payouts of the hand together.
    """
    first = config.first_ratio * ante
    limit = config.payout_limit

    def cap(x: int) -> int:
        return x if limit is None else min(x, limit)

    win, tie, lose = [], [], []
    for name in names:
        bonus = _line_bonus(config, ante, name)
        if bonus is None:
            win.append(cap(2 * first))
            tie.append(0)
            lose.append(-2 * first - ante)
        else:
            win.append(cap(2 * first + bonus))
            tie.append(cap(bonus))
            lose.append(-2 * first - ante + cap(bonus))
    return win, tie, lose, -(ante + first)


def _start_class(start: int) -> str:
    """A three-card start's class: ranks high to low, and how many of its cards share a suit."""
    cards = _start_cards(start)
    ranks = tuple(sorted((c >> 2 for c in cards), reverse=True))
    suits = len({c & 3 for c in cards})
    return f"{rank_word(ranks)} {({1: 'suited', 2: 'two suited', 3: 'rainbow'})[suits]}"


_STARTS: list[tuple[int, int, int]] = []


def _start_cards(start: int) -> tuple[int, int, int]:
    if not _STARTS:
        for c in range(2, 52):
            for b in range(1, c):
                for a in range(b):
                    _STARTS.append((a, b, c))
    return _STARTS[start]


def _check_ante(config: TableConfig, ante: int | None) -> int:
    ante = config.minimum if ante is None else ante
    if not config.minimum <= ante <= config.maximum:
        raise FeltError(
            f"--ante {dollars(ante)} is outside the table limits {dollars(config.minimum)} to {dollars(config.maximum)}"
        )
    return ante


def analyze_boston5(config: TableConfig, ante: int | None = None) -> ParSheet:
    """The exact par sheet of Boston 5 under ``config`` at the given ante (cents)."""
    if config.game != "boston5":
        raise FeltError(f"analyze_boston5 needs a boston5 table, got {config.game}")
    ante = _check_ante(config, ante)
    names, line_of_value = _boston_lines(config)
    cells = boston5_cells(line_of_value, len(names))  # (22100, L, 3)
    labels = [_start_class(s) for s in range(22100)]
    weights = np.ones(22100, dtype=np.int64)
    return _boston_sheet(config, ante, names, cells, weights, labels, 1176 * 1533939)


def _label_order(label: str) -> tuple[tuple[int, ...], str]:
    """Decision-table order: highest ranks first (``A-K-Q ...`` before ``2-2-2``)."""
    ranks = label.split()[0].split("-")
    return tuple(-RANK_CHARS.index(r) for r in ranks), label


def _boston_sheet(
    config: TableConfig,
    ante: int,
    names: list[str],
    cells: NDArray[np.int64],
    weights: NDArray[np.int64],
    labels: list[str],
    per_start: int,
    strategy_notes: dict[str, str] | None = None,
) -> ParSheet:
    """A Boston par sheet from per-start counts, deciding each start by its expectation.

    ``cells[g, line, result]`` counts the deals of one start of group ``g`` (``weights[g]``
    starts alike); ``labels[g]`` names its row of the decision table (rows with one label are
    averaged, as a printed strategy is).
    """
    win, tie, lose, fold = _boston_payoffs(config, ante, names)
    pay = np.array([win, tie, lose], dtype=object).T  # (L, 3), Python ints: sums reach 1e21
    ev_raise = [int(ev) for ev in (cells.astype(object) * pay[None]).sum(axis=(1, 2))]
    raise_mask = np.array([ev > fold * per_start for ev in ev_raise])
    first = config.first_ratio * ante
    outcomes: list[Outcome] = []
    raised = (cells * weights[:, None, None])[raise_mask].sum(axis=0)
    for li, name in enumerate(names):
        for ri, result in enumerate(RESULTS):
            count = int(raised[li, ri])
            if count:
                outcomes.append(Outcome("raise", name, result, count, Fraction(int(pay[li, ri]), ante),
                                        Fraction(ante + 2 * first, ante)))  # fmt: skip
    folds = int(weights[~raise_mask].sum())
    if folds:
        outcomes.append(Outcome("fold", "any", "forfeit", folds * per_start, Fraction(fold, ante),
                                Fraction(ante + first, ante)))  # fmt: skip
    total = int(weights.sum()) * per_start
    always = Fraction(
        sum(int(w) * ev for w, ev in zip(weights, ev_raise, strict=True)), total * ante
    )
    groups: dict[str, list[int]] = defaultdict(list)
    for g, label in enumerate(labels):
        groups[label].append(g)
    table = []
    for name, members in sorted(groups.items(), key=lambda kv: _label_order(kv[0])):
        n = sum(int(weights[g]) for g in members)
        ev = Fraction(sum(int(weights[g]) * ev_raise[g] for g in members), n * per_start * ante)
        table.append({"start": name, "raise": ev > Fraction(fold, ante), "ev_raise": float(ev),
                      "ev_fold": float(Fraction(fold, ante))})  # fmt: skip
    fold_classes = [str(row["start"]) for row in table if not row["raise"]]
    rule = (
        "Always place the second wager."
        if not fold_classes
        else f"Place the second wager except with: {', '.join(fold_classes)}."
    )
    sheet = ParSheet(
        game=config.game,
        edition=config.edition.name,
        title=config.edition.title,
        base_wager="ante",
        base_cents=ante,
        initial_units=Fraction(ante + first, ante),
        outcomes=outcomes,
        strategy={"rule": rule, **(strategy_notes or {}), "decisions": table},
        strategies={
            "optimal": Fraction(0),
            "always raise": -always,
            "always fold": Fraction(ante + first, ante),
        },
        pay_table=[(h, str(p)) for h, p in config.ante_bonus.lines],
        notes=_notes(config, ante),
        bonus=_bonus(config),
        bonus_cards=3,  # 24.10(a): the optional bonus is settled on the first three cards
    )
    strategies = dict(sheet.strategies)
    strategies["optimal"] = sheet.house_edge_ante
    return ParSheet(**{**sheet.__dict__, "strategies": strategies})


# ----------------------------------------------------------------------------- Boston 7


def _suit_pattern_label(cards: tuple[int, ...]) -> str:
    """A three-card start named by ranks and which cards share a suit, e.g. ``A-K-7 (A-7 suited)``."""
    ordered = sorted(cards, key=lambda c: -c)
    ranks = rank_word(tuple(c >> 2 for c in ordered))
    suits = {c & 3 for c in ordered}
    if len({c >> 2 for c in ordered}) < 3:
        if len({c >> 2 for c in ordered}) == 1:
            return ranks
        return f"{ranks} {'two suited' if len(suits) == 2 else 'rainbow'}"
    if len(suits) == 1:
        return f"{ranks} suited"
    if len(suits) == 3:
        return f"{ranks} rainbow"
    pair = next((x, y) for i, x in enumerate(ordered) for y in ordered[i + 1 :] if x & 3 == y & 3)
    return f"{ranks} ({rank_word((pair[0] >> 2, pair[1] >> 2))} suited)"


def boston_line_names(config: TableConfig) -> list[str]:
    """Ante-bonus lines of a Boston table; index 0 is a hand with no ante bonus."""
    return ["no ante bonus hand", *config.ante_bonus.hands]


def line_index_of_code(names: list[str]) -> NDArray[np.int64]:
    """For each kernel line code (a :class:`Category`, or six- / seven-card royal), its index in
    ``names`` (0 when the table pays nothing for it)."""
    from felt.games.boston.boston7 import N_LINES, SIX_ROYAL

    index = {name: i for i, name in enumerate(names)}
    labels = [Category(k).label for k in range(len(Category))]
    labels += ["six-card royal flush", "seven-card royal flush"]
    assert len(labels) == N_LINES
    assert labels[SIX_ROYAL] == "six-card royal flush"

    def line(label: str) -> int:  # a longer royal a table does not list is paid as a shorter one
        found = [index[n] for n in (label, *IMPLIED_LINES.get(label, ())) if n in index]
        return found[0] if found else 0

    return np.array([line(label) for label in labels], dtype=np.int64)


def boston7_cells(
    config: TableConfig, counts: Boston7Counts
) -> tuple[list[str], NDArray[np.int64]]:
    """Ante-bonus line names and the counts of each start class by (line, result)."""
    from felt.games.boston.boston7 import START_CLASSES

    names = boston_line_names(config)
    cells = np.zeros((START_CLASSES, len(names), 3), dtype=np.int64)
    for k, line in enumerate(line_index_of_code(names)):
        cells[:, line, :] += counts.counts[:, k, :]
    return names, cells


def boston7_counts(*, log: Callable[[str], None] | None = None) -> Boston7Counts:
    """:func:`felt.games.boston.boston7.boston7_counts`, imported when first called (the module loads
    numba); a name here, so tests can stand in for the full count.  A caller that hears of long
    work (``log``: ``felt analyze``, ``felt simulate``) also sees a cold count's progress bar
    with the time left, on standard error when it is a terminal."""
    from felt.core.progress import Progress
    from felt.games.boston.boston7 import boston7_counts as count

    progress = None if log is None else Progress("counting Boston 7 deals")
    return count(log=log, progress=progress)


def analyze_boston7(
    config: TableConfig, ante: int | None = None, *, log: Callable[[str], None] | None = None
) -> ParSheet:
    """The exact par sheet of Boston 7 under ``config`` at the given ante (cents).

    Counts come from :func:`felt.games.boston.boston7.boston7_counts` (cached on disk after the
    first run); the pay table, wager ratio, payout limit and ante only weight them.
    """
    if config.game != "boston7":
        raise FeltError(f"analyze_boston7 needs a boston7 table, got {config.game}")
    from felt.games.boston.boston7 import COMPLETIONS, DEALER_HANDS

    ante = _check_ante(config, ante)
    counts = boston7_counts(log=log)
    names, cells = boston7_cells(config, counts)
    labels = [_suit_pattern_label(start) for start in counts.starts]
    discard = (
        "Never discard: the five cards kept can only rank at or below the best five of seven, "
        f"and a discard forfeits the six- and seven-card royal payouts ({config.edition.cite('10(c)')})."
    )
    sheet = _boston_sheet(config, ante, names, cells, counts.sizes, labels,
                          COMPLETIONS * DEALER_HANDS, {"discard": discard})  # fmt: skip
    other = 3 - config.first_ratio  # 13:69F-24.6(d): the casino pre-selects 1 or 2
    try:
        alt_config = TableConfig.from_mapping(config.to_mapping() | {"first_ratio": other})
    except FeltError as err:
        note = (
            f"first and second wagers of {other} x the ante are not possible at this table: {err}"
        )
    else:
        alt = _boston_sheet(alt_config, ante, names, cells, counts.sizes, labels,
                            COMPLETIONS * DEALER_HANDS)  # fmt: skip
        note = (
            f"the other ratio of {config.edition.cite('6(d)')}, first and second wagers of {other} x"
            f" the ante: house edge per ante {float(alt.house_edge_ante) * 100:.4f}%"
            f" ({alt.house_edge_ante}), per initial wager {float(alt.house_edge_initial) * 100:.4f}%,"
            f" element of risk {float(alt.element_of_risk) * 100:.4f}%; {alt.strategy['rule']}"
        )
    return ParSheet(**{**sheet.__dict__, "notes": [*sheet.notes, note]})


def _notes(config: TableConfig, ante: int) -> list[str]:
    notes = [f"first and second wagers are each {config.first_ratio} x the ante"]
    for name in IMPLIED_LINES:
        payout = config.ante_bonus.get(name)
        bonus = _line_bonus(config, ante, name)
        if payout is not None and bonus is not None:
            notes.append(
                f"{name} pays ${dollars(bonus)} on a ${dollars(ante)} ante"
                f" ({Fraction(bonus, ante)} to 1; the table's line: {payout}; paid once for the"
                f" highest payout, {config.edition.cite('11(c)')})"
            )
    if config.payout_limit is not None:
        notes.append(
            f"payout limit {dollars(config.payout_limit)} applied at a {dollars(ante)} ante ({config.edition.cite('11(e)')})"
        )
    notes.append(
        "the decision sees only the player's three cards; other players' exposed bonus hands are not used"
    )
    return notes


def _bonus(config: TableConfig) -> dict[str, Any]:
    """The optional bonus wager on its own: exposed exactly when it qualifies."""
    census = hand_census(3)
    total = census.total
    table = config.optional_bonus
    ev = Fraction(0)
    lines = []
    for label, count in census.counts.items():
        name = label
        if label == THREE_CARD_ROYAL and table.get(label) is None:
            name = "three-card straight flush"
        payout = table.get(name)
        net = Fraction(payout.to_win, payout.to_stake) if payout is not None else Fraction(-1)
        ev += Fraction(count, total) * net
        part = Fraction(count, total) * net
        lines.append({"hand": label, "count": count, "pays": str(payout) if payout else "loses",
                      "net_exact": f"{net.numerator}/{net.denominator}",
                      "contribution": float(part),
                      "contribution_exact": f"{part.numerator}/{part.denominator}"})  # fmt: skip
    edge = -ev
    return {
        "house_edge": float(edge),
        "house_edge_exact": f"{edge.numerator}/{edge.denominator}",
        "combinations": total,
        "pay_table": {h: str(p) for h, p in table.lines},
        "lines": lines,
    }
