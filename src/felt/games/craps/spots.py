"""The places a craps wager can lie on the layout (its *spot*), named once for every layer: the
wagers of N.J.A.C. 19:47-1.2(a), the buy and lay wagers of 1.5 and the odds of 1.6.

A spot's id is what a table file, an action, a view and a statement line use (``place_6``,
``come_5_odds``); :func:`spot` reads one and says what is allowed when it is not.  A player has at
most one wager on a spot (more chips on it add to the wager), as on the felt.

>>> s = spot("come_5_odds")
>>> s.kind, s.number, s.odds, s.label
('come', 5, True, 'Odds on come 5')
>>> spot("place_6").clause, spot("hard_8").clause, spot("buy_4").clause, spot("pass_odds").clause
('2(a)5', '2(a)9', '5', '6')
>>> spot("place_7")
Traceback (most recent call last):
felt.core.errors.FeltError: no craps wager 'place_7': a place bet is on 4, 5, 6, 8, 9 or 10
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from felt.core.errors import FeltError, excerpt

NUMBERS: Final = (4, 5, 6, 8, 9, 10)
"""The point numbers: a come out point or come point (1.1), and the place bet numbers."""
HARD_NUMBERS: Final = (4, 6, 8, 10)
"""The numbers that can be thrown "the hardway" (1.2(a)7-10)."""
WAYS: Final = {n: 6 - abs(n - 7) for n in range(2, 13)}
"""How many of the 36 throws of two dice give each total."""
TRUE_ODDS: Final = {n: Fraction(6, WAYS[n]) for n in NUMBERS}
"""The true odds against a point number coming before a 7 (a 7 has 6 ways): 2 to 1 on 4 and 10,
3 to 2 on 5 and 9, 6 to 5 on 6 and 8; taking odds and buy bets pay these (1.5, 1.6), laying odds
and lay bets their inverse."""

LINE: Final = ("pass", "dont_pass", "come", "dont_come")
"""The line wagers (1.2(a)1-4); ``come`` and ``dont_come`` are in the come and don't come areas
until their first roll, then on a come point (``come_5``)."""
STANDING: Final = ("place", "place_lose", "buy", "lay", "hard")
"""The wagers on a number that stay up until decided (1.2(a)5-10, 1.5)."""
ONE_ROLL: Final = (
    "field", "any_seven", "any_craps", "craps_2", "craps_3", "craps_12", "eleven",
    "craps_eleven", "horn",
)  # fmt: skip
"""The one roll wagers (1.2(a)11-19), decided by the next roll."""

_CLAUSE: Final = {
    "pass": "2(a)1", "dont_pass": "2(a)2", "come": "2(a)3", "dont_come": "2(a)4",
    "place": "2(a)5", "place_lose": "2(a)6", "field": "2(a)11", "any_seven": "2(a)12",
    "any_craps": "2(a)13", "craps_2": "2(a)14", "craps_3": "2(a)15", "craps_12": "2(a)16",
    "eleven": "2(a)17", "craps_eleven": "2(a)18", "horn": "2(a)19", "buy": "5", "lay": "5",
}  # fmt: skip
_HARD_CLAUSE: Final = {4: "2(a)7", 6: "2(a)8", 8: "2(a)9", 10: "2(a)10"}
_NAME: Final = {
    "pass": "Pass", "dont_pass": "Don't pass", "come": "Come", "dont_come": "Don't come",
    "place": "Place {} to win", "place_lose": "Place {} to lose", "buy": "Buy {}",
    "lay": "Lay {}", "hard": "Hard {}", "field": "Field", "any_seven": "Any seven",
    "any_craps": "Any craps", "craps_2": "Craps two", "craps_3": "Craps three",
    "craps_12": "Craps twelve", "eleven": "Eleven in one roll", "craps_eleven": "Craps-eleven",
    "horn": "Horn",
}  # fmt: skip


@dataclass(frozen=True)
class Spot:
    """One place on the layout: a wager ``kind`` (a key of the 1.2(a) list, ``buy`` or ``lay``),
    its ``number`` (a point number, or None), and whether it is the ``odds`` of 1.6 behind a
    line wager."""

    kind: str
    number: int | None = None
    odds: bool = False

    @property
    def id(self) -> str:
        """``place_6``, ``come_5_odds``, ``pass``."""
        out = self.kind if self.number is None else f"{self.kind}_{self.number}"
        return out + "_odds" if self.odds else out

    @property
    def label(self) -> str:
        """The wager as a player reads it on a statement (``Place 6 to win``)."""
        name = _NAME[self.kind]
        if self.kind in STANDING:
            name = name.format(self.number)
        elif self.number is not None:
            name = f"{name} {self.number}"
        return f"Odds on {name[0].lower()}{name[1:]}" if self.odds else name

    @property
    def clause(self) -> str:
        """The section of 19:47-1 that defines the wager (``2(a)5``; the odds: ``6``)."""
        if self.odds:
            return "6"
        if self.kind == "hard":
            assert self.number is not None
            return _HARD_CLAUSE[self.number]
        return _CLAUSE[self.kind]

    @property
    def one_roll(self) -> bool:
        """Decided by the next roll (1.2(a)11-19)."""
        return self.kind in ONE_ROLL

    @property
    def flat(self) -> Spot:
        """The line wager odds lie behind (the spot itself when it is no odds)."""
        return Spot(self.kind, self.number)

    @property
    def on_point(self) -> bool:
        """A come or don't come wager moved to its come point (``come_5``)."""
        return self.kind in ("come", "dont_come") and self.number is not None

    @property
    def betting(self) -> bool:
        """Whether a player may place chips on this spot by a wager (a come point is reached by
        the roll that moves the come wager there, never placed on directly)."""
        return not self.on_point or self.odds


def _all() -> tuple[Spot, ...]:
    out = [Spot("pass"), Spot("pass", odds=True), Spot("dont_pass"), Spot("dont_pass", odds=True),
           Spot("come"), Spot("dont_come")]  # fmt: skip
    for n in NUMBERS:
        out += [Spot("come", n), Spot("come", n, True), Spot("dont_come", n),
                Spot("dont_come", n, True)]  # fmt: skip
    for kind in ("place", "place_lose", "buy", "lay"):
        out += [Spot(kind, n) for n in NUMBERS]
    out += [Spot("hard", n) for n in HARD_NUMBERS]
    out += [Spot(kind) for kind in ONE_ROLL]
    return tuple(out)


SPOTS: Final = _all()
"""Every spot, in the order a statement lists them."""
_BY_ID: Final = {s.id: s for s in SPOTS}


def spot(text: object, what: str = "spot") -> Spot:
    """The spot ``text`` names, or one clear error saying what is allowed."""
    if isinstance(text, str) and text in _BY_ID:
        return _BY_ID[text]
    hint = "allowed: " + "; ".join(_allowed())
    head = text.split("_")[0] if isinstance(text, str) else ""
    if head in ("place", "buy", "lay", "hard"):
        numbers = HARD_NUMBERS if head == "hard" else NUMBERS
        word = {"hard": "a hardway bet", "place": "a place bet"}.get(head, f"a {head} bet")
        hint = f"{word} is on {', '.join(map(str, numbers[:-1]))} or {numbers[-1]}"
    raise FeltError(f"no craps wager {excerpt(text)}: {hint}")


@functools.cache
def _allowed() -> tuple[str, ...]:
    return (
        "pass, dont_pass, come, dont_come",
        "pass_odds, dont_pass_odds, come_N_odds, dont_come_N_odds (N a come point)",
        "place_N, place_lose_N, buy_N, lay_N (N one of 4, 5, 6, 8, 9, 10)",
        "hard_N (N one of 4, 6, 8, 10)",
        ", ".join(ONE_ROLL),
    )


def odds_payout(s: Spot) -> Fraction:
    """What odds, buy and lay wagers pay: true odds (1.5, 1.6) for the right side (``pass``,
    ``come``, ``buy``), their inverse for the wrong side (``dont_pass``, ``dont_come``, ``lay``).

    >>> str(odds_payout(spot("come_5_odds"))), str(odds_payout(spot("lay_4")))
    ('3/2', '1/2')
    """
    number = s.number
    if s.kind in ("pass", "dont_pass"):
        raise FeltError(f"{s.label}: the pass line's odds are figured on the come out point")
    if number is None:  # pragma: no cover - every other true-odds spot has its number
        raise FeltError(f"{s.label} has no number")
    return point_odds(s.kind, number)


def point_odds(kind: str, number: int) -> Fraction:
    """True odds on ``number`` for the right side (``pass``, ``come``, ``buy``) or their inverse
    for the wrong side (``dont_pass``, ``dont_come``, ``lay``)."""
    odds = TRUE_ODDS[number]
    return 1 / odds if kind in ("dont_pass", "dont_come", "lay") else odds
