"""A craps table from roll to roll: what stays on the layout (every wager with its owner and the
calls on it), the point, the shooter and the last rolls, carried into each roll's round; and the
table's dice source (:mod:`felt.games.craps.dice`).

>>> from felt.games.craps.config import CrapsConfig
>>> from felt.games.craps.actions import Bet
>>> table = CrapsTable(CrapsConfig.from_mapping({}), dice=FixedDice([(2, 2)]))
>>> rnd = table.roll([Bet(1, "pass", 1000, "ann")])
>>> table.point, table.shooter, table.layout()
(4, 1, {1: {'pass': 1000}})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from felt.core.errors import FeltError
from felt.games.craps.actions import Roll
from felt.games.craps.config import CrapsConfig
from felt.games.craps.dice import Dice, FixedDice, SystemDice, Throw
from felt.games.craps.round import CrapsRound, CrapsSeat, origin_json, round_from_origin
from felt.rounds.actions import Action, NoMoreBets
from felt.rounds.round_core import _clone

__all__ = ["CrapsTable", "FixedDice"]


@dataclass
class CrapsTable:
    """A craps table across rolls; see the module docstring."""

    config: CrapsConfig
    dice: Dice = field(default_factory=SystemDice)
    """Where an electronic table's dice come from (never asked at a live table, nor in replay)."""
    rounds_played: int = 0
    point: int | None = None
    shooter: int | None = None
    rolls: list[dict[str, Any]] = field(default_factory=list)
    seats: dict[int, CrapsSeat] = field(default_factory=dict)
    """The seats with wagers on the layout, as the last roll left them."""
    history: list[CrapsRound] = field(default_factory=list)

    @property
    def rolls_played(self) -> int:
        """Valid rolls thrown at this table."""
        return self.rounds_played

    def throw(self) -> Throw:
        """Two dice from the table's source."""
        return self.dice.throw()

    def layout(self) -> dict[int, dict[str, int]]:
        """Every wager on the layout: {seat: {spot id: cents}}."""
        return {n: dict(s.wagers) for n, s in sorted(self.seats.items()) if s.wagers}

    def origin(self) -> dict[str, Any]:
        """The next roll's origin as JSON (:func:`~felt.games.craps.round.origin_json`)."""
        return origin_json(self.rounds_played + 1, self.point, self.shooter, self.rolls, self.seats)

    def snapshot(self) -> dict[str, Any]:
        """What carries between rolls, as JSON: the next roll's origin and the rolls played."""
        return {"rounds_played": self.rounds_played, **self.origin()}

    @classmethod
    def from_snapshot(
        cls, config: CrapsConfig, snapshot: Mapping[str, Any], dice: Dice | None = None
    ) -> CrapsTable:
        """The table :meth:`snapshot` describes."""
        snap = dict(snapshot)
        played = snap.pop("rounds_played", 0)
        if isinstance(played, bool) or not isinstance(played, int) or played < 0:
            raise FeltError(
                f"craps table snapshot: rounds_played must be 0 or more, got {played!r}"
            )
        snap.pop("number", None)
        rnd = round_from_origin(config, snap)
        return cls(config, dice or SystemDice(), played, rnd.point, rnd.shooter, rnd.rolls,
                   rnd.seats)  # fmt: skip

    def _check_between_rounds(self) -> None:
        if self.history and not self.history[-1].finished:
            raise FeltError("the current roll is not settled")

    def new_round(self) -> CrapsRound:
        """The next roll's round, carrying the layout: phase betting."""
        self._check_between_rounds()
        rnd = CrapsRound(self.config, (), number=self.rounds_played + 1, point=self.point,
                         shooter=self.shooter, rolls=_clone(self.rolls),
                         seats=_clone(self.seats))  # fmt: skip
        self.history.append(rnd)
        return rnd

    def finish(self, rnd: CrapsRound) -> None:
        """Take over what the settled roll left on the layout."""
        if not rnd.finished:
            raise FeltError("the roll is not settled")
        self.rounds_played += 1
        self.point, self.shooter = rnd.point, rnd.shooter
        self.rolls = _clone(rnd.rolls)
        self.seats = {n: _clone(s) for n, s in rnd.seats.items() if s.wagers}
        if self.history and self.history[-1] is rnd:
            self.history = self.history[-1:]  # a long session keeps only the last roll

    def roll(self, actions: Iterable[Action] = (), dice: Throw | None = None) -> CrapsRound:
        """One roll: the players' ``actions``, "no more bets", then ``dice`` (None: the table's
        source throws), settled and finished."""
        rnd = self.new_round()
        for action in actions:
            rnd.apply(action)
        rnd.apply(NoMoreBets())
        d1, d2 = dice if dice is not None else self.throw()
        rnd.apply(Roll(d1, d2))
        self.finish(rnd)
        return rnd
