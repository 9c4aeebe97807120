"""A Double Down Stud table across rounds: the cut rotation, two decks, removing a shuffler."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from felt.core.cards import ALL_CARDS
from felt.games.double_down.config import SHUFFLING, DoubleDownConfig, rules
from felt.games.double_down.round import DoubleDownRound
from felt.rounds.shuffle import Shuffler, SystemShuffle
from felt.rounds.table_core import TableCore


@dataclass
class DoubleDownTable(TableCore):
    """A Double Down Stud table across rounds: the cut rotation (17.4(d)), two alternating decks
    (17.2(b)), and removing a shuffler before shuffling another way (17.11(f))."""

    config: DoubleDownConfig
    shuffler: Shuffler = field(default_factory=SystemShuffle)
    cut_position: Callable[[], int] = field(default=lambda: 10 + secrets.randbelow(33))
    """Where the dealer places the cutting card when no player accepts the cut."""
    rounds_played: int = 0
    game_beginning: bool = True
    """Whether the next round begins the game: its cut goes to the first player (17.4(d)1)."""
    last_offered: int | None = None
    """The area last offered the cut under the rotation of 17.4(d)2 (None: not begun)."""
    shuffler_removed: bool = False
    history: list[DoubleDownRound] = field(default_factory=list)
    SHUFFLING: ClassVar[tuple[str, ...]] = SHUFFLING
    shuffler_clause: ClassVar[str] = "11(f)"

    def cite(self, section: str) -> str:
        """``N.J.A.C. 19:47-17.<section>``."""
        return rules().cite(section)

    @property
    def deck_in_play(self) -> str:
        """ "A", or "A"/"B" alternating with two decks (17.2(b)4)."""
        return "AB"[self.rounds_played % 2] if self.config.decks == 2 else "A"

    def new_round(self) -> DoubleDownRound:
        """Shuffle (17.4(a)) and open the next round; the first is "a new game" (17.4(d)1)."""
        self._check_between_rounds()
        rnd = DoubleDownRound(
            self.config,
            self.shuffler.shuffle(ALL_CARDS),
            number=self.rounds_played + 1,
            new_game=self.game_beginning,
            last_offered=self.last_offered,
        )
        self.history.append(rnd)
        return rnd

    def finish(self, rnd: DoubleDownRound) -> None:
        """Record a finished round and where its cut offer left the rotation (17.4(d)).

        After the round that begins the game (the first player to the table was offered the cut,
        17.4(d)1) the rotation of 17.4(d)2 has not begun, so the next offer goes to the farthest
        right; after that, counterclockwise from the last area offered.
        """
        self._count_round(rnd)
        self.last_offered = rnd.rotation
        self.game_beginning = False

    def no_gaming_activity(self) -> None:
        """Every player has left: the table has no gaming activity (17.4(g)); the next player to
        arrive is "the first player to the table" and the game begins again (17.4(d)1)."""
        self._check_between_rounds()
        self.game_beginning = True
        self.last_offered = None
