"""A table across rounds: shuffling before each round, one or two alternating decks, the stub
count every fifth round, a deck removed after a bad count, and removing automated devices.

The round itself (:mod:`felt.games.boston.round`) knows nothing of what came before; the table carries it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from felt.core.cards import ALL_CARDS
from felt.core.errors import FeltError
from felt.games.boston.config import DEALING_METHODS, TableConfig
from felt.games.boston.round import Round
from felt.rounds.shuffle import Shuffler, SystemShuffle

STUB_COUNT_EVERY = 5
"""24.7(f), 24.8(e), 24.9(e): the stub is counted at least once every five rounds of play."""


@dataclass
class Table:
    """One Boston table: its configuration, its shuffler and what carries from round to round."""

    config: TableConfig
    shuffler: Shuffler = field(default_factory=SystemShuffle)
    rounds_played: int = 0
    rounds_since_count: int = 0
    deck_removed: bool = False
    device_removed: bool = False
    history: list[Round] = field(default_factory=list)

    @property
    def stub_count_exempt(self) -> bool:
        """24.9(f): no stub count with an automated shoe fed by a shuffler that counts the cards.

        As written, the exemption sits in 24.9 (automated dealing shoe) only; see
        docs/interpretations.md.
        """
        return self.config.counting_shuffler and self.config.dealing == "automated-shoe"

    @property
    def deck_in_play(self) -> str:
        """Which deck the next round uses: always "A", or "A"/"B" alternating (24.2(b)4)."""
        return "AB"[self.rounds_played % 2] if self.config.decks == 2 else "A"

    def stub_count_due(self) -> bool:
        """Whether the next round must count its stub (the fifth round since the last count)."""
        return not self.stub_count_exempt and self.rounds_since_count >= STUB_COUNT_EVERY - 1

    def new_round(self) -> Round:
        """Shuffle (24.4(a)) and open the next round."""
        if self.deck_removed:
            raise FeltError(
                f"the deck was removed from the table after a wrong stub count "
                f"({self.config.edition.cite('7(f)2')}); call replace_deck() first"
            )
        if self.history and not self.history[-1].finished:
            raise FeltError("the current round is not finished")
        deck = self.shuffler.shuffle(ALL_CARDS)
        rnd = Round(
            self.config, deck, stub_count_due=self.stub_count_due(), number=self.rounds_played + 1
        )
        self.history.append(rnd)
        return rnd

    def finish(self, rnd: Round) -> None:
        """Record a finished round: stub-count cadence, deck removal, deck alternation."""
        if not rnd.finished:
            raise FeltError("the round is not finished")
        self.rounds_played += 1
        self.rounds_since_count = 0 if rnd.stub_counted else self.rounds_since_count + 1
        if rnd.deck_removed:
            self.deck_removed = True

    def shuffler_count(self, cards: int) -> None:
        """The counting shuffler's report after a shuffle (24.9(f)): a count other than 52 removes
        the deck from the table (19:46-1.18) until :meth:`replace_deck`.

        Only a table whose automated shoe is fed by a counting shuffler relies on this count in
        place of the stub count; any other table has no such report to make.
        """
        if not self.stub_count_exempt:
            raise FeltError(
                "this table has no counting shuffler feeding an automated dealing shoe "
                f"({self.config.edition.cite('9(f)')}); its stub is counted instead"
            )
        if self.history and not self.history[-1].finished:
            raise FeltError("the shuffler counts the deck between rounds, not during one")
        if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= 104:
            raise FeltError(f"a shuffler count is a number of cards from 0 to 104, got {cards!r}")
        if cards != 52:
            self.deck_removed = True

    def replace_deck(self) -> None:
        """A new deck is brought to the table (19:46-1.18) after one was removed."""
        self.deck_removed = False
        self.rounds_since_count = 0

    def remove_device(self) -> None:
        """Remove the automated dealing shoe from the table (24.12(g))."""
        if self.config.dealing != "automated-shoe":
            raise FeltError("this table has no automated dealing shoe to remove")
        self.device_removed = True

    def change_dealing(self, method: str) -> None:
        """Deal another way; an automated shoe must first be removed (24.12(g))."""
        if method not in DEALING_METHODS:
            raise FeltError(f"dealing must be one of {', '.join(DEALING_METHODS)}, got {method!r}")
        if (
            self.config.dealing == "automated-shoe"
            and method != "automated-shoe"
            and not self.device_removed
        ):
            raise FeltError(
                f"the automated dealing shoe must be removed from the table before another method "
                f"of dealing is used ({self.config.edition.cite('12(g)')})"
            )
        self.config = replace(self.config, dealing=method)
        self.device_removed = False
