"""The exact analysis of Three Card Poker: every player hand (22,100) against every dealer hand of
the 49 cards left (18,424 each), 407,170,400 equally likely deals, counted exactly.

For each player hand the dealer hands are counted by inclusion-exclusion instead of one by one:
with ``F(x)`` the number of three-card hands ranking below ``x``, the dealer hands that avoid the
player's cards {a, b, c} and rank below ``x`` number ``F(x) - Fa(x) - Fb(x) - Fc(x) + Fab(x) +
Fac(x) + Fbc(x) - [the player's hand ranks below x]``, where ``Fa`` counts the hands holding card
``a`` and ``Fab`` those holding ``a`` and ``b``.  Three such counts per hand (at the queen-high
qualifier, at the hand's own value and just above it) give how many dealer hands do not qualify,
qualify and rank lower, tie, or rank higher.  The counts depend on no pay table; a table's
figures are then exact integer sums, reported as :class:`~fractions.Fraction` per ante.

The decision (play or fold) is taken per player hand with the most in expectation; the pair plus
wager, settled on the player's three cards alone, is counted over the 22,100 hands.

>>> sheet = analyze(ThreeCardConfig.from_mapping({}))
>>> f"{float(sheet.house_edge_ante):.4%}", f"{float(sheet.element_of_risk):.4%}"
('3.3730%', '2.0147%')
>>> sheet.strategy["rule"].split(";")[0]
'Play queen-six-four or better'
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from felt.analysis.parsheet import Outcome, ParSheet
from felt.core.cards import Card, Rank, Suit
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.core.ranking import TrioCategory
from felt.core.tables import trio_lookup
from felt.games.three_card_poker.config import EDITION, GAME, ThreeCardConfig, rules
from felt.games.three_card_poker.hand import HAND_OF, describe

PLAYER_HANDS: Final = 22_100
"""Three cards of 52."""
DEALER_HANDS: Final = 18_424
"""Three cards of the 49 the player does not hold."""
RESULTS: Final = ("dealer does not qualify", "player higher", "tie", "dealer higher")
NAMES: Final = ("straight flush", "three of a kind", "straight", "flush", "pair", "high card")
"""The hands, best first, as the pay tables name them."""
_VALUES: Final = 742  # trio values run 1..741; 0 is unused


@dataclass(frozen=True)
class Counts:
    """For each player hand (rows in the order of ``itertools.combinations(range(52), 3)``): its
    cards, its value (1-741, higher ranks higher; equal values tie) and name, and how many of
    the 18,424 dealer hands of the other cards do not qualify, or qualify and rank lower than,
    the same as, or higher than it."""

    cards: NDArray[np.int64]
    value: NDArray[np.int64]
    name: NDArray[np.int64]
    """Index into :data:`NAMES`."""
    results: NDArray[np.int64]
    """Shape (22,100, 4), columns in the order of :data:`RESULTS`."""

    def row(self, cards: Sequence[int]) -> int:
        """The row of the player hand ``cards`` (three distinct card numbers, any order)."""
        if len(cards) != 3 or len(set(cards)) != 3 or not all(0 <= c < 52 for c in cards):
            raise FeltError(f"a three-card hand needs three distinct cards, got {list(cards)}")
        a, b, c = sorted(int(x) for x in cards)
        # rank of the combination among combinations(range(52), 3), in lexicographic order
        before_a = sum((51 - i) * (50 - i) // 2 for i in range(a))
        before_b = sum(51 - j for j in range(a + 1, b))
        return before_a + before_b + (c - b - 1)


def _qualifier_value(three: NDArray[np.uint16]) -> int:
    """The value of the lowest qualifying hand: the qualifier (queen) high with the two lowest
    ranks below it, of mixed suits (Q-3-2)."""
    q = rules().qualifier
    cards = [
        Card.of(q, Suit.CLUBS),
        Card.of(Rank.THREE, Suit.DIAMONDS),
        Card.of(Rank.TWO, Suit.HEARTS),
    ]
    return int(three[2704 * cards[0] + 52 * cards[1] + cards[2]])


@functools.cache
def counts() -> Counts:
    """The exact counts of every player hand against every dealer hand (see the module)."""
    three, category = trio_lookup()
    cards = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    a, b, c = cards.T
    value = three[2704 * a + 52 * b + c].astype(np.int64)
    # Hands holding one given card, and two given cards, by value: then cumulative, F[..., x]
    # counting the values below x.
    one = np.bincount(np.concatenate([a, b, c]) * _VALUES + np.tile(value, 3),
                      minlength=52 * _VALUES).reshape(52, _VALUES)  # fmt: skip
    pairs = np.concatenate([a * 52 + b, a * 52 + c, b * 52 + c])
    two = np.bincount(pairs * _VALUES + np.tile(value, 3),
                      minlength=2704 * _VALUES).reshape(2704, _VALUES)  # fmt: skip
    every = np.bincount(value, minlength=_VALUES)

    def cumulative(h: NDArray[np.int64]) -> NDArray[np.int64]:
        out = np.zeros((*h.shape[:-1], _VALUES + 1), dtype=np.int64)
        np.cumsum(h, axis=-1, out=out[..., 1:])
        return out

    f0, f1, f2 = cumulative(every), cumulative(one), cumulative(two)

    def below(x: NDArray[np.int64]) -> NDArray[np.int64]:
        """Dealer hands avoiding each player hand's cards and valued below ``x`` (per hand)."""
        got: NDArray[np.int64] = f0[x] - f1[a, x] - f1[b, x] - f1[c, x]
        got += f2[a * 52 + b, x] + f2[a * 52 + c, x] + f2[b * 52 + c, x]
        got -= value < x
        return got

    qualify = np.full_like(value, _qualifier_value(three))
    no_qualify = below(qualify)
    under = below(value)
    upto = below(value + 1)
    qualified = value >= qualify
    lower = np.where(qualified, under - no_qualify, 0)
    tie = np.where(qualified, upto - under, 0)
    higher = DEALER_HANDS - np.maximum(upto, no_qualify)
    results = np.stack([no_qualify, lower, tie, higher], axis=1)
    name_of = np.array([NAMES.index(HAND_OF[TrioCategory(k)]) for k in range(len(TrioCategory))])
    name = name_of[category[value].astype(np.int64)]
    return Counts(cards, value, name, results)


def _check_ante(config: ThreeCardConfig, ante: int | None) -> int:
    ante = config.minimum if ante is None else ante
    if not config.minimum <= ante <= config.maximum:
        raise FeltError(
            f"--ante {dollars(ante)} is outside the table limits {dollars(config.minimum)} to "
            f"{dollars(config.maximum)}"
        )
    return ante


@dataclass(frozen=True)
class _Decisions:
    bonus: list[Fraction]
    """The ante bonus of each of :data:`NAMES`, per ante (rounded down to the cent at the ante)."""
    x: NDArray[np.int64]
    """Per player hand, n times the result of playing excluding the bonus, plus n: playing beats
    folding when x > -n * bonus."""
    plays: NDArray[np.bool_]
    ties: int
    """Hands where playing and folding expect the same (folded)."""


def _decide(config: ThreeCardConfig, ante: int) -> _Decisions:
    """Play or fold, per player hand, whichever expects more; exact integer comparisons."""
    k = counts()
    n = DEALER_HANDS
    bonus = [Fraction(p.win(ante), ante) if (p := config.ante_bonus.get(name)) else Fraction(0)
             for name in NAMES]  # fmt: skip
    # Playing beats folding when (nq + 2 lower - 2 higher) / n + bonus > -1: with the integer
    # x = nq + 2 lower - 2 higher + n, when x > -n * bonus, that is x >= floor(-n * bonus) + 1.
    nq, lower, _, higher = k.results.T
    x = nq + 2 * lower - 2 * higher + n
    least = np.array([math.floor(-n * b) + 1 for b in bonus], dtype=np.int64)[k.name]
    even = np.array([(n * b).denominator == 1 for b in bonus])[k.name]
    ties = even & (x == least - 1)
    return _Decisions(bonus, x, x >= least, int(ties.sum()))


def optimal_plays(config: ThreeCardConfig, ante: int | None = None) -> NDArray[np.bool_]:
    """Whether the optimal strategy plays each player hand (rows as :class:`Counts`)."""
    return _decide(config, _check_ante(config, ante)).plays


def analyze(config: ThreeCardConfig, ante: int | None = None) -> ParSheet:
    """The exact par sheet of Three Card Poker under ``config`` at the given ante (cents; None:
    the table minimum).  Amounts are taken at that ante (payouts rounded down to the cent, as the
    table pays them) and reported per ante."""
    ante = _check_ante(config, ante)
    k = counts()
    d = _decide(config, ante)
    sheet = ParSheet(
        game=GAME,
        edition=EDITION,
        title=rules().title,
        base_wager="ante",
        base_cents=ante,
        initial_units=Fraction(1),
        outcomes=_outcomes(k, d.plays, d.bonus),
        strategy={},
        strategies={},
        pay_table=[(h, str(p)) for h, p in config.ante_bonus.lines],
        notes=_notes(config, d.ties),
        bonus=_pair_plus(config, k) if config.pair_plus else None,
    )
    queen = k.value >= _qualifier_value(trio_lookup()[0])
    others = {
        "play queen high or better": _edge(k, d.bonus, queen),
        "always play": _edge(k, d.bonus, np.ones_like(d.plays)),
        "always fold": Fraction(1),
    }
    rule, table = _strategy(k, d.plays, d.x, d.bonus)
    return ParSheet(**{**sheet.__dict__, "strategy": {"rule": rule, "decisions": table},
                       "strategies": {"optimal": sheet.house_edge_ante, **others}})  # fmt: skip


def _edge(k: Counts, bonus: list[Fraction], plays: NDArray[np.bool_]) -> Fraction:
    """House edge per ante when the hands ``plays`` marks are played and the rest folded."""
    net = sum((o.net * o.count for o in _outcomes(k, plays, bonus)), Fraction(0))
    return -net / (PLAYER_HANDS * DEALER_HANDS)


def _outcomes(k: Counts, plays: NDArray[np.bool_], bonus: list[Fraction]) -> list[Outcome]:
    """The deals by decision, player's hand and result, each with its net per ante."""
    out = []
    nets = (Fraction(1), Fraction(2), Fraction(0), Fraction(-2))
    for i, name in enumerate(NAMES):
        mine = k.name == i
        played = k.results[mine & plays].sum(axis=0)
        for result, count, net in zip(RESULTS, played.tolist(), nets, strict=True):
            if count:
                out.append(Outcome("play", name, result, int(count), net + bonus[i], Fraction(2)))
        folded = int((mine & ~plays).sum()) * DEALER_HANDS
        if folded:
            out.append(Outcome("fold", name, "ante forfeited", folded, Fraction(-1), Fraction(1)))
    return out


def _strategy(
    k: Counts, plays: NDArray[np.bool_], x: NDArray[np.int64], bonus: list[Fraction]
) -> tuple[str, list[dict[str, Any]]]:
    """The optimal rule in words, and the decision table: one row per hand value (hands that
    rank alike), from the highest down, with the mean expectation of playing per ante."""
    ev = (x - DEALER_HANDS) / DEALER_HANDS + np.array([float(b) for b in bonus])[k.name]
    values, first, group = np.unique(k.value, return_index=True, return_inverse=True)
    group = group.ravel()
    size = np.bincount(group)
    played = np.bincount(group, weights=plays.astype(np.float64)).astype(np.int64)
    mean = np.bincount(group, weights=ev) / size
    rows = [
        {"hand": describe(tuple(int(c) for c in k.cards[first[g]])), "combinations": int(size[g]),
         "ev play": float(mean[g]), "ev fold": -1.0, "play": bool(played[g] == size[g])}
        for g in reversed(range(len(values)))
    ]  # fmt: skip
    mixed = bool(((played > 0) & (played < size)).any())
    if not plays.any():
        return "Always fold.", rows
    if plays.all():
        return "Always play.", rows
    lowest = int(k.value[plays].min())
    if mixed or int(k.value[~plays].max()) > lowest:
        return "Play the hands the decision table marks; fold the rest.", rows
    row = int(np.flatnonzero(k.value == lowest)[0])
    words = describe(tuple(int(c) for c in k.cards[row])).removeprefix("high card, ")
    return (
        f"Play {words} or better; fold anything lower ({int((~plays).sum()):,} of the "
        f"{PLAYER_HANDS:,} hands)."
    ), rows


def _pair_plus(config: ThreeCardConfig, k: Counts) -> dict[str, Any]:
    """The pair plus wager on its own: the player's three cards against its pay table."""
    lines = []
    ev = Fraction(0)
    hands = np.bincount(k.name, minlength=len(NAMES))
    for i, name in enumerate(NAMES):
        count = int(hands[i])
        payout = config.pair_plus_table.get(name)
        net = Fraction(payout.to_win, payout.to_stake) if payout is not None else Fraction(-1)
        part = Fraction(count, PLAYER_HANDS) * net
        ev += part
        lines.append({"hand": name, "count": count, "pays": str(payout) if payout else "loses",
                      "net_exact": f"{net.numerator}/{net.denominator}",
                      "contribution": float(part),
                      "contribution_exact": f"{part.numerator}/{part.denominator}"})  # fmt: skip
    edge = -ev
    return {
        "name": "pair plus",
        "house_edge": float(edge),
        "house_edge_exact": f"{edge.numerator}/{edge.denominator}",
        "combinations": PLAYER_HANDS,
        "pay_table": {h: str(p) for h, p in config.pair_plus_table.lines},
        "lines": lines,
    }


def pair_plus_edge(config: ThreeCardConfig) -> Fraction:
    """The pair plus wager's house edge under ``config``'s table."""
    return Fraction(_pair_plus(config, counts())["house_edge_exact"])


def _notes(config: ThreeCardConfig, ties: int) -> list[str]:
    c = rules().cite
    notes = [
        "one player against the dealer, one deck; the decision sees only the player's three cards "
        "(every other hand is dealt face down)",
        f"the play wager equals the ante ({c('6')}); the dealer qualifies with queen high or better",
        f"the ante bonus is paid on the ante of a player who plays, whatever the dealer holds; a "
        f"fold forfeits the ante and is paid no bonus ({c('10')}, {c('11')})",
        "element of risk: the house edge per amount wagered (the ante, and the play wager when "
        "placed)",
    ]
    if config.pair_plus:
        notes.append(
            "the pair plus wager is analysed on its own (return per unit wagered). A fold forfeits "
            "it, which never matters under the optimal play: every pair or better is played"
        )
    if ties:
        notes.append(f"{ties:,} hands neither gain nor lose by playing; the analysis folds them")
    return notes
