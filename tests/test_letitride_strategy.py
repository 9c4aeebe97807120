"""The optimal Let It Ride Poker decisions (decisions.md 13): :func:`.strategy.should_ride` on
published examples, ties taken back, the payout limit's effect, bad input refused; and the rules
in words read back equal to the decision tables for every three-card and four-card hand, at the
minimum table as the published strategy words them (Wizard of Odds,
wizardofodds.com/games/let-it-ride/)."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest

from felt.core.cards import parse_cards
from felt.core.errors import FeltError
from felt.games.let_it_ride.analysis import decisions
from felt.games.let_it_ride.config import LetItRideConfig
from felt.games.let_it_ride.strategy import Rule, rules, rules_text, should_ride

TABLES: dict[str, tuple[dict[str, object], int]] = {
    "minimum": ({}, 500),
    "limit-binds-at-100": ({}, 100_00),
    "limit-binds-often-at-2500": ({"maximum": "10000.00"}, 2500_00),
    "richer-pays": ({"pays": {"tens or better": "3 to 2", "flush": "10 to 1"}}, 500),
}


def every_hand(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every hand of ``n`` cards (rows) and its colex index (the tables' row), computed here."""
    hands = np.array(list(itertools.combinations(range(52), n)), dtype=np.int64)
    index = np.zeros(len(hands), dtype=np.int64)
    for i in range(n):
        index += np.array([comb(int(c), i + 1) for c in range(52)])[hands[:, i]]
    return hands, index


def agrees(rule: Rule, n: int, table: np.ndarray) -> None:
    """``rule`` lets ride exactly the hands of ``n`` cards ``table`` (by colex index) does.  For
    four cards the rule is read once per kind of hand (its ranks and whether all four are of one
    suit, all :meth:`Rule.rides` looks at), after checking the table gives every hand of a kind
    the same decision; three-card hands are read one by one."""
    hands, index = every_hand(n)
    decided = table[index]
    if n == 3:
        for cards, ride in zip(hands.tolist(), decided.tolist(), strict=True):
            assert rule.rides(cards) == ride, cards
        return
    ranks = np.sort(hands >> 2, axis=1)
    suited = (hands & 3 == (hands[:, :1] & 3)).all(axis=1)
    kind = (ranks @ (13 ** np.arange(n))) * 2 + suited
    kinds, first, of = np.unique(kind, return_index=True, return_inverse=True)
    riding = np.bincount(of.ravel(), weights=decided, minlength=len(kinds))
    size = np.bincount(of.ravel(), minlength=len(kinds))
    assert ((riding == 0) | (riding == size)).all()
    for k in range(len(kinds)):
        cards = hands[first[k]].tolist()
        assert rule.rides(cards) == bool(riding[k]), cards


@pytest.mark.parametrize("name", list(TABLES))
def test_the_rules_in_words_equal_the_tables_for_every_hand(name: str) -> None:
    """The first wager's rule on all 22,100 three-card hands, the second's (after the first rode
    and after it was taken back) on all 270,725 four-card hands."""
    settings, amount = TABLES[name]
    config = LetItRideConfig.from_mapping(settings)
    d = decisions(config, amount)
    r = rules(config, amount)
    agrees(r.first, 3, d.first)
    agrees(r.second_after_ride, 4, d.second[:, 1])
    agrees(r.second_after_take_back, 4, d.second[:, 0])


def test_at_the_minimum_table_the_rules_read_as_published() -> None:
    """Wizard of Odds's strategy (wizardofodds.com/games/let-it-ride/), ties taken back (a four
    to an outside straight without a high card expects exactly nothing)."""
    first, second = rules_text(LetItRideConfig.from_mapping({}))
    assert first == (
        "First wager: let it ride with a paying hand (a pair of tens or better, or three of a "
        "kind); three to a royal flush; three suited cards in a row, except 2-3-4 and A-2-3; "
        "three to a straight flush with one gap and at least one high card; three to a straight "
        "flush with two gaps and at least two high cards; otherwise take it back (a high card: "
        "ten or higher; an ace playing low is not one)."
    )
    assert second == (
        "Second wager: let it ride with a paying hand (a pair of tens or better, two pair, three "
        "or four of a kind); four to a flush (a straight flush or a royal flush too); four to an "
        "outside straight with at least one high card; otherwise take it back (a high card: ten "
        "or higher; an ace playing low is not one)."
    )


@pytest.mark.parametrize(
    ("cards", "ride"),
    [
        ("Th Tc 4d", True), ("9h 9c Ad", False), ("7s 7h 7d", True), ("Qh Kh Ah", True),
        ("Th Qh Ah", True), ("3h 4h 5h", True), ("2h 3h 4h", False), ("Ah 2h 3h", False),
        ("Ah 2h 4h", False), ("5h 6h 8h", False), ("8h 9h Jh", True), ("7h 9h Jh", False),
        ("9h Jh Kh", True), ("Ah Kh 2c", False), ("2h 7h Kh", False),
        ("2h 5h 8h Jh", True), ("5c 6d 7h 8s", False), ("9c Td Jh Qs", True),
        ("Tc Jd Qh As", False), ("Jc Qd Kh As", False), ("Ac Ad 2h 3s", True),
        ("4c 4d 5h 5s", True), ("9c 9d 2h 3s", False), ("Ac Kd Qh 2s", False),
    ],
)  # fmt: skip
def test_should_ride_on_published_examples(cards: str, ride: bool) -> None:
    """The first wager on three cards, the second on four (Wizard of Odds's strategy)."""
    assert should_ride(parse_cards(cards), LetItRideConfig.from_mapping({})) is ride


def test_ties_take_the_wager_back() -> None:
    """decisions.md 13: where riding and taking back expect exactly the same (5-6-7-8 of mixed
    suits: 8 straights paying 5 to 1 against 40 losing cards; T-J-Q-A: 4 kings at 5 to 1 and 12
    paying pairs against 32 losing cards), the wager is taken back; there are such hands."""
    config = LetItRideConfig.from_mapping({})
    d = decisions(config)
    tie = d.values[:, 1] == d.values[:, 0]
    assert tie.sum() > 0
    assert not d.second[tie, 0].any()
    first_tie = d.first_values[:, 1] == d.first_values[:, 0]
    assert not d.first[first_tie].any()
    for hand in ("5c 6d 7h 8s", "Tc Jd Qh As"):
        cards = sorted(int(c) for c in parse_cards(hand))
        index = sum(comb(c, i + 1) for i, c in enumerate(cards))
        assert d.values[index, 1] == d.values[index, 0]
        assert should_ride(cards, config) is False


def test_18_11_with_the_limit_binding_the_second_decision_depends_on_the_first() -> None:
    """At $2,500 a wager the $50,000 limit holds a flush with three wagers riding ($60,000) and
    not with two ($40,000): four to a low flush with no straight flush chance rides when the
    first was taken back, not when it rode."""
    config = LetItRideConfig.from_mapping({"maximum": "10000.00"})
    cards = parse_cards("2h 5h 8h 9h")
    assert should_ride(cards, config, 2500_00, first_rides=False) is True
    assert should_ride(cards, config, 2500_00, first_rides=True) is False
    assert should_ride(cards, config) is True  # at the minimum, either way
    assert should_ride(cards, config, first_rides=True) is True


@pytest.mark.parametrize("cards", [[1, 2], [1, 2, 2], [1, 2, 52], [0, 1, 2, 3, 4]])
def test_bad_cards_are_refused_naming_what_is_allowed(cards: list[int]) -> None:
    with pytest.raises(FeltError, match=r"three distinct cards .* or four"):
        should_ride(cards, LetItRideConfig.from_mapping({}))


def test_an_amount_outside_the_table_limits_is_refused() -> None:
    with pytest.raises(FeltError, match="outside the table limits"):
        should_ride([0, 1, 2], LetItRideConfig.from_mapping({}), 4_99)
