"""A Caribbean Stud Poker table across rounds: a fresh shuffle every round (16.4(a)), where the
dealer cuts after a manual shuffle (16.4(c)), two decks alternated with a shuffler (16.2(b)), the
shuffler removed before shuffling another way, and the table's own progressive meter for a
session that keeps one (the command line, simulations; a server keeps the linked meter on its
ledger instead)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from felt.core.cards import ALL_CARDS
from felt.core.errors import FeltError
from felt.games.caribbean_stud.actions import Settle
from felt.games.caribbean_stud.config import SHUFFLING, CaribbeanConfig, rules
from felt.games.caribbean_stud.round import CaribbeanRound
from felt.rounds.engine import PROGRESSIVE
from felt.rounds.shuffle import Shuffler, SystemShuffle
from felt.rounds.table_core import TableCore


@dataclass
class CaribbeanTable(TableCore):
    """A Caribbean Stud Poker table across rounds."""

    config: CaribbeanConfig
    shuffler: Shuffler = field(default_factory=SystemShuffle)
    cut_position: Callable[[], int] = field(default=lambda: 10 + secrets.randbelow(33))
    """Where the dealer cuts: at least 10 cards from the top (16.4(c)1ii; felt also leaves at
    least 10 below)."""
    rounds_played: int = 0
    shuffler_removed: bool = False
    meter: int | None = None
    """The progressive meter this table keeps for itself (None: the table has no progressive,
    or keeps none); starts at the seed, funded by the house."""
    keeps_meter: bool = True
    """Whether the table keeps a meter of its own (a terminal session, a simulation); a table
    built through the game interface (a server's) keeps none: its meter is the linked one on the
    ledger, which the server fills into each settlement."""
    history: list[CaribbeanRound] = field(default_factory=list)
    SHUFFLING: ClassVar[tuple[str, ...]] = SHUFFLING
    shuffler_clause: ClassVar[str] = "13"

    def __post_init__(self) -> None:
        if not self.keeps_meter:
            self.meter = None
        elif self.meter is None and self.config.progressive is not None:
            self.meter = self.config.progressive.seed

    def cite(self, section: str) -> str:
        """``N.J.A.C. 19:47-16.<section>``."""
        return rules().cite(section)

    @property
    def deck_in_play(self) -> str:
        """``A``, or ``A`` and ``B`` alternating round by round with two decks (16.2(b)4)."""
        return "AB"[self.rounds_played % 2] if self.config.decks == 2 else "A"

    def new_round(self) -> CaribbeanRound:
        """Shuffle the deck in play (16.4(a)) and open the next round."""
        self._check_between_rounds()
        rnd = CaribbeanRound(
            self.config,
            self.shuffler.shuffle(ALL_CARDS),
            number=self.rounds_played + 1,
            deck_name=self.deck_in_play,
        )
        self.history.append(rnd)
        return rnd

    def meter_now(self, rnd: CaribbeanRound) -> int | None:
        """This table's meter as it stands during ``rnd`` (with the round's contributions so far)."""
        if self.meter is None:
            return None
        return self.meter + rnd.ledger.balance(PROGRESSIVE)

    def settle_step(self, rnd: CaribbeanRound) -> Settle:
        """The settlement of ``rnd`` with this table's meter filled in."""
        return Settle(meter=self.meter_now(rnd))

    def _check_shuffling(self, method: str) -> None:
        """A two-deck table keeps its shuffler: the second deck is allowed only with one
        (16.2(b))."""
        if method == "manual" and self.config.decks == 2:
            raise FeltError(
                "this table plays two decks, which needs an automated card shuffling device "
                f"({self.cite('2(b)')}); a table shuffling by hand uses one deck"
            )

    def finish(self, rnd: CaribbeanRound) -> None:
        """Record a finished round; the table's meter takes what the round moved on and off it."""
        self._count_round(rnd)
        if self.meter is not None:
            self.meter += rnd.ledger.balance(PROGRESSIVE)
