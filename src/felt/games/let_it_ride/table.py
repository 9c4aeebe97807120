"""A Let It Ride Poker table across rounds: a fresh shuffle every round (18.5), where the dealer
cuts after a manual shuffle, two decks alternated with a shuffler (18.2(b)), the shuffler removed
before shuffling another way, and the cards changed on schedule (18.4(e)).

The table keeps no clock: whoever runs it passes the time (seconds, any fixed origin) to
:meth:`LetItRideTable.cards_due`, :meth:`~LetItRideTable.change_cards` and
:meth:`~LetItRideTable.new_round`.

>>> from felt.games.let_it_ride.config import LetItRideConfig
>>> table = LetItRideTable(LetItRideConfig.from_mapping({}), cards_opened_at=0.0)
>>> table.cards_due(7 * 3600) is None
True
>>> print(table.cards_due(8 * 3600))
the cards in use were opened 8.0 hours ago: cards dealt from a shoe are changed at least once every 8 hours (N.J.A.C. 19:47-18.4(e)); change the cards before the next round
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from felt.core.cards import ALL_CARDS
from felt.core.errors import FeltError, excerpt
from felt.games.let_it_ride.config import SHUFFLING, LetItRideConfig, rules
from felt.games.let_it_ride.round import LetItRideRound
from felt.rounds.shuffle import Shuffler, SystemShuffle
from felt.rounds.table_core import TableCore


def seconds(raw: object, what: str) -> float:
    """A time in seconds (a number, or a number as text: a server procedure's argument), finite
    and not negative; one clear error otherwise."""
    if isinstance(raw, bool):
        raise FeltError(f"{what} must be a time in seconds, got {excerpt(raw)}")
    try:
        value = float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise FeltError(f"{what} must be a time in seconds, got {excerpt(raw)}") from None
    if not math.isfinite(value) or value < 0:
        raise FeltError(f"{what} must be a time in seconds (0 or more), got {excerpt(raw)}")
    return value


@dataclass
class LetItRideTable(TableCore):
    """A Let It Ride Poker table across rounds."""

    config: LetItRideConfig
    shuffler: Shuffler = field(default_factory=SystemShuffle)
    cut_position: Callable[[], int] = field(default=lambda: 10 + secrets.randbelow(33))
    """Where the dealer cuts: at least 10 cards from the top (18.5; felt also leaves at least 10
    below)."""
    rounds_played: int = 0
    shuffler_removed: bool = False
    cards_opened_at: float | None = None
    """When the cards in use were opened for use on the table (seconds; None: not tracked, as in
    a simulation or a terminal session)."""
    history: list[LetItRideRound] = field(default_factory=list)
    SHUFFLING: ClassVar[tuple[str, ...]] = SHUFFLING
    shuffler_clause: ClassVar[str] = "12"

    def cite(self, section: str) -> str:
        """``N.J.A.C. 19:47-18.<section>``."""
        return rules().cite(section)

    @property
    def deck_in_play(self) -> str:
        """``A``, or ``A`` and ``B`` alternating round by round with two decks (18.2(b)4)."""
        return "AB"[self.rounds_played % 2] if self.config.decks == 2 else "A"

    def cards_due(self, now: float) -> str | None:
        """Why the cards must be changed before another round is dealt at ``now`` (18.4(e): at
        least once every eight hours from a shoe, every four from the hand), or None when they
        need not be (or are not tracked)."""
        if self.cards_opened_at is None:
            return None
        hours = self.config.change_hours
        age = now - self.cards_opened_at
        if age < hours * 3600:
            return None
        source = "the hand" if self.config.dealing == "hand" else "a shoe"
        return (
            f"the cards in use were opened {age / 3600:.1f} hours ago: cards dealt from {source} "
            f"are changed at least once every {hours} hours ({self.cite('4(e)')}); change the "
            "cards before the next round"
        )

    def change_cards(self, now: float | int | str) -> None:
        """Record new cards opened for use at ``now`` (seconds), between rounds (18.4(e)); the
        inspection and washing of the new cards (18.4(a)-(d)) are physical."""
        when = seconds(now, "change_cards: the time the new cards are opened")
        self._check_between_rounds()
        if self.cards_opened_at is not None and when < self.cards_opened_at:
            raise FeltError(
                f"change_cards: the new cards cannot be opened at {when:g} s, before the cards "
                f"in use were ({self.cards_opened_at:g} s)"
            )
        self.cards_opened_at = when

    def new_round(self, now: float | None = None) -> LetItRideRound:
        """Shuffle the deck in play (18.5) and open the next round; refused at ``now`` (seconds,
        when given) once the cards in use are due to be changed (18.4(e))."""
        self._check_between_rounds()
        if now is not None and (due := self.cards_due(now)) is not None:
            raise FeltError(due)
        rnd = LetItRideRound(
            self.config,
            self.shuffler.shuffle(ALL_CARDS),
            number=self.rounds_played + 1,
            deck_name=self.deck_in_play,
        )
        self.history.append(rnd)
        return rnd

    def _check_shuffling(self, method: str) -> None:
        """A two-deck table keeps its shuffler: the second deck is allowed only with one
        (18.2(b))."""
        if method == "manual" and self.config.decks == 2:
            raise FeltError(
                "this table plays two decks, which needs an automated card shuffling device "
                f"({self.cite('2(b)')}); a table shuffling by hand uses one deck"
            )

    def finish(self, rnd: LetItRideRound) -> None:
        """Record a finished round."""
        self._count_round(rnd)
