"""A Three Card Poker table across rounds: a fresh shuffle of the one deck every round (20.2,
20.5), where the dealer cuts, and removing a shuffler before shuffling another way."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from felt.core.cards import ALL_CARDS
from felt.core.errors import FeltError
from felt.games.three_card_poker.config import SHUFFLING, ThreeCardConfig, rules
from felt.games.three_card_poker.round import ThreeCardRound
from felt.rounds.shuffle import Shuffler, SystemShuffle


@dataclass
class ThreeCardTable:
    """A Three Card Poker table across rounds."""

    config: ThreeCardConfig
    shuffler: Shuffler = field(default_factory=SystemShuffle)
    cut_position: Callable[[], int] = field(default=lambda: 10 + secrets.randbelow(33))
    """Where the dealer places the cutting card (10 to 42: at least 10 cards from either end)."""
    rounds_played: int = 0
    shuffler_removed: bool = False
    history: list[ThreeCardRound] = field(default_factory=list)

    def new_round(self) -> ThreeCardRound:
        """Shuffle the deck and open the next round."""
        if self.history and not self.history[-1].finished:
            raise FeltError("the current round is not finished")
        rnd = ThreeCardRound(
            self.config, self.shuffler.shuffle(ALL_CARDS), number=self.rounds_played + 1
        )
        self.history.append(rnd)
        return rnd

    def finish(self, rnd: ThreeCardRound) -> None:
        """Record a finished round."""
        if not rnd.finished:
            raise FeltError("the round is not finished")
        self.rounds_played += 1

    def remove_shuffler(self) -> None:
        """Remove the automated card shuffling device from the table (as 19:47-17.11(f))."""
        if self.config.shuffling == "manual":
            raise FeltError("this table shuffles by hand; there is no shuffler to remove")
        self.shuffler_removed = True

    def change_shuffling(self, method: str) -> None:
        """Shuffle another way; an automated shuffler must first be removed (as 19:47-17.11(f))."""
        if method not in SHUFFLING:
            raise FeltError(f"shuffling must be one of {', '.join(SHUFFLING)}, got {method!r}")
        if self.config.shuffling != "manual" and method == "manual" and not self.shuffler_removed:
            raise FeltError(
                "the automated card shuffling device must be removed from the table before another "
                f"method of shuffling is used ({rules().cite('12')})"
            )
        if method == "shuffler-to-shoe" and self.config.dealing == "hand":
            raise FeltError(
                "a shuffler that loads the shoe needs a dealing shoe; this table deals by hand"
            )
        self.config = replace(self.config, shuffling=method)
        self.shuffler_removed = False
