"""Exact analysis of Double Down Stud, under any legal table.

Every own card and three dealer up-cards (1,082,900 situations, counted once per suit class of
the four cards seen) against each of the 48 hole cards, doubling exactly when it pays.  Amounts
are computed in cents at the given wager, so the payout limit applies as it would at the table;
results are reported per wager as exact fractions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from felt.analysis.kernels import class_completions, five_card_values
from felt.analysis.parsheet import Outcome, ParSheet, rank_word
from felt.core.cards import RANK_CHARS
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.core.paytable import Payout
from felt.core.ranking import Category
from felt.core.tables import five_card_order
from felt.games.double_down import DoubleDownConfig, rules


def dds_situations(
    line_of_value: NDArray[np.int64], n_lines: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Double Down Stud, per suit class of the four cards the player sees (own card and three
    dealer up-cards, 16,432 classes): how many of the 48 possible hole cards give each pay line
    (shape (classes, n_lines)); the class's key (its four ranks, high to low, in base 13, times 2,
    plus 1 if all four share a suit); how many situations (own card, up-cards) it stands for
    (each set of four cards is 4 situations: any of them may be the player's; the sum is
    52 x C(51,3)); and the class's canonical cards (shape (classes, 4), class 0 is 2c 2d 2h 2s).

    A situation's counts and key do not change when suits are renamed or when another of the
    four is the player's card, so one set of each class is counted (48 hands, not 48 per
    situation: 789 thousand hand values instead of 52 million)."""
    class_of, cards, completions = class_completions(4)
    lines = np.asarray(line_of_value)[five_card_values()[completions]]
    counts = np.zeros((len(completions), n_lines), dtype=np.int64)
    for line in range(n_lines):
        counts[:, line] = (lines == line).sum(axis=1)
    ranks = np.sort(cards >> 2, axis=1)
    keys = ((ranks[:, 3] * 13 + ranks[:, 2]) * 13 + ranks[:, 1]) * 13 + ranks[:, 0]
    suited = ((cards & 3) == (cards[:, :1] & 3)).all(axis=1)
    situations = 4 * np.bincount(class_of, minlength=len(completions))
    return counts, keys * 2 + suited, situations, cards


def _dds_lines(config: DoubleDownConfig) -> tuple[list[str], NDArray[np.int64]]:
    names = ["lose", "push", *config.pay_table.hands]
    index = {name: i for i, name in enumerate(names)}
    line_of_value = np.zeros(7463, dtype=np.int64)
    for v, (category, order) in enumerate(five_card_order(), start=1):
        cat = Category(category)
        if cat > Category.ONE_PAIR:
            line_of_value[v] = index[cat.label]
        elif cat == Category.ONE_PAIR:
            pair = order[0]
            line_of_value[v] = index["jacks or better"] if pair >= 9 else (1 if pair >= 4 else 0)
    return names, line_of_value


def _line_payout(config: DoubleDownConfig, name: str) -> Payout:
    payout = config.pay_table.get(name)
    if payout is None:  # pragma: no cover - the table always has every line (checked at load)
        raise FeltError(f"pay table has no line {name!r}")
    return payout


def analyze_double_down(
    config: DoubleDownConfig, wager: int | None = None, *, double_on_ties: bool = False
) -> ParSheet:
    """The exact par sheet of Double Down Stud under ``config`` at the given wager (cents).

    The optimal play doubles when doubling gains in expectation; where it neither gains nor loses
    the player stands, unless ``double_on_ties`` (the same house edge, more money wagered).
    """
    wager = config.minimum if wager is None else wager
    if not config.minimum <= wager <= config.maximum:
        raise FeltError(
            f"--ante {dollars(wager)} is outside the table limits {dollars(config.minimum)} to {dollars(config.maximum)}"
        )
    names, line_of_value = _dds_lines(config)
    counts, situation_keys, situations, _ = dds_situations(line_of_value, len(names))
    limit = config.payout_limit
    wins = [_line_payout(config, n).win(wager) for n in names[2:]]
    stand = [-wager, 0] + [min(w, limit) for w in wins]
    double = [-2 * wager, 0] + [min(2 * w, limit) for w in wins]
    ev_stand = counts @ np.array(stand, dtype=np.int64)
    ev_double = counts @ np.array(double, dtype=np.int64)
    doubles = ev_double >= ev_stand if double_on_ties else ev_double > ev_stand
    outcomes = []
    for decision, mask, pays, units in (
        ("stand", ~doubles, stand, 1),
        ("double", doubles, double, 2),
    ):
        agg = situations[mask] @ counts[mask]
        for i, name in enumerate(names):
            if agg[i]:
                result = name if i < 2 else "win"
                hand = {"lose": "pair of fives or less", "push": "pair of sixes to tens"}.get(
                    name, name
                )
                outcomes.append(
                    Outcome(
                        decision,
                        hand,
                        result,
                        int(agg[i]),
                        Fraction(pays[i], wager),
                        Fraction(units),
                    )
                )
    total = int(situations @ counts.sum(axis=1))
    sheet = ParSheet(
        game="double-down-stud",
        edition="nj-19-47-17",
        title=rules().title,
        base_wager="wager",
        base_cents=wager,
        initial_units=Fraction(1),
        outcomes=outcomes,
        strategy={"rule": "", "decisions": []},
        strategies={
            "never double": -Fraction(int(situations @ ev_stand), total * wager),
            "always double": -Fraction(int(situations @ ev_double), total * wager),
        },
        pay_table=[(h, str(p)) for h, p in config.pay_table.lines],
        unpaid=[(line.hand, line.pays) for line in rules().unpaid],
        notes=[
            "the decision sees the player's card and the dealer's three face-up cards; "
            "other players' cards are not used (see felt.games.double_down.suggest_double for that)",
            f"the double down wager equals the wager; payout limit {dollars(limit)} per hand",
        ],
    )
    rule, table = _dds_strategy(doubles, situation_keys, situations)
    strategies = {"optimal": sheet.house_edge_ante, **sheet.strategies}
    return ParSheet(
        **{
            **sheet.__dict__,
            "strategies": strategies,
            "strategy": {"rule": rule, "decisions": table},
        }
    )


def _dds_strategy(
    doubles: NDArray[np.bool_], keys: NDArray[np.int64], situations: NDArray[np.int64]
) -> tuple[str, list[dict[str, Any]]]:
    """Group decisions by the four visible cards' ranks and whether all four share a suit
    (``situations``: how many situations each row of ``doubles`` and ``keys`` stands for)."""
    classes, inverse = np.unique(keys, return_inverse=True)
    doubled = np.bincount(inverse, weights=np.where(doubles, situations, 0))
    sizes = np.bincount(inverse, weights=situations)
    groups: dict[tuple[str, bool], float] = {}
    for key, d, n in zip(classes.tolist(), doubled.tolist(), sizes.tolist(), strict=True):
        code, suited = divmod(key, 2)
        ranks = tuple((code // 13**i) % 13 for i in range(3, -1, -1))
        groups[(rank_word(ranks), bool(suited))] = d / n
    table: list[dict[str, Any]] = []
    for (word, suited), share in sorted(groups.items()):
        table.append({"visible": word + (" suited" if suited else ""), "double": share == 1.0,
                      "share_doubled": share})  # fmt: skip
    shares = [(str(row["visible"]), float(row["share_doubled"])) for row in table]
    mixed = [name for name, share in shares if 0 < share < 1]
    against = [name for name, share in shares if share in (0.0, 1.0) and dds_short_rule(name) != (share == 1.0)]  # fmt: skip
    rule = DDS_SHORT_RULE
    if against:
        rule += f" Except: {', '.join(against)} (the other way)."
    if mixed:
        rule += f" Depends on the exact suits: {', '.join(mixed)}."
    return rule, table


DDS_SHORT_RULE = (
    "Looking at your card and the dealer's three face-up cards, double down with a pair of sixes "
    "or better, two pair, three or four of a kind, four cards of one suit, or four in sequence "
    "from 3-4-5-6 to 10-J-Q-K; otherwise stand. (The full decision table is in the appendix.)"
)
"""The optimal Double Down Stud play as a person can use it; :func:`_dds_strategy` checks it
against every row of the exact decision table and lists any holding where it is wrong."""


def dds_short_rule(visible: str) -> bool:
    """Whether :data:`DDS_SHORT_RULE` doubles a holding named as in the decision table
    (``"K-Q-J-T suited"``: ranks high to low, ``suited`` when all four share a suit).

    >>> dds_short_rule("6-6-3-2"), dds_short_rule("5-5-3-2"), dds_short_rule("5-4-3-2")
    (True, False, False)
    """
    ranks = visible.split()[0].split("-")
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    if counts[0] >= 3 or counts[:2] == [2, 2]:
        return True
    if counts[0] == 2:
        pair = next(r for r in ranks if ranks.count(r) == 2)
        return RANK_CHARS.index(pair) >= RANK_CHARS.index("6")
    if visible.endswith("suited"):
        return True
    idx = sorted(RANK_CHARS.index(r) for r in ranks)
    return (
        idx[3] - idx[0] == 3 and RANK_CHARS.index("3") <= idx[0] and idx[3] <= RANK_CHARS.index("K")
    )
