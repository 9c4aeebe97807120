"""A Three Card Poker table across rounds: a fresh shuffle of the one deck every round (20.2,
20.5), where the dealer cuts, and removing a shuffler before shuffling another way."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from felt.core.cards import ALL_CARDS
from felt.core.errors import FeltError
from felt.games.three_card_poker.config import SHUFFLING, ThreeCardConfig, rules
from felt.games.three_card_poker.round import ThreeCardRound
from felt.rounds.shuffle import Shuffler, SystemShuffle
from felt.rounds.table_core import TableCore


@dataclass
class ThreeCardTable(TableCore):
    """A Three Card Poker table across rounds."""

    config: ThreeCardConfig
    shuffler: Shuffler = field(default_factory=SystemShuffle)
    cut_position: Callable[[], int] = field(default=lambda: 10 + secrets.randbelow(33))
    """Where the dealer places the cutting card (10 to 42: at least 10 cards from either end)."""
    rounds_played: int = 0
    shuffler_removed: bool = False
    history: list[ThreeCardRound] = field(default_factory=list)
    SHUFFLING: ClassVar[tuple[str, ...]] = SHUFFLING
    shuffler_clause: ClassVar[str] = "12"

    def cite(self, section: str) -> str:
        """``N.J.A.C. 19:47-20.<section>``."""
        return rules().cite(section)

    def new_round(self) -> ThreeCardRound:
        """Shuffle the deck and open the next round."""
        self._check_between_rounds()
        rnd = ThreeCardRound(
            self.config, self.shuffler.shuffle(ALL_CARDS), number=self.rounds_played + 1
        )
        self.history.append(rnd)
        return rnd

    def finish(self, rnd: ThreeCardRound) -> None:
        """Record a finished round."""
        self._count_round(rnd)

    def _check_shuffling(self, method: str) -> None:
        """A shuffler that loads the shoe needs one to load."""
        if method == "shuffler-to-shoe" and self.config.dealing == "hand":
            raise FeltError(
                "a shuffler that loads the shoe needs a dealing shoe; this table deals by hand"
            )
