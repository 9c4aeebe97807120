"""What a card table carries from round to round in every game that shuffles a deck for each
round: the rounds played, one round at a time, and the automated shuffler that must be removed
before the cards are shuffled another way.

A game's table (a dataclass) subclasses :class:`TableCore` and has the fields ``config`` (with
its ``shuffling``), ``rounds_played``, ``shuffler_removed`` and ``history``; it sets
``SHUFFLING`` and ``shuffler_clause`` and gives ``cite``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from felt.core.errors import FeltError


class TableCore:
    """Shared machinery of a table across rounds; see the module docstring."""

    config: Any
    rounds_played: int
    shuffler_removed: bool
    history: list[Any]

    SHUFFLING: ClassVar[tuple[str, ...]] = ()
    """The shuffling methods a table of the game may use."""
    shuffler_clause: ClassVar[str] = ""
    """The section that has an automated shuffler removed before another method is used."""

    def cite(self, section: str) -> str:
        """The citation of a section of this game's rules."""
        raise NotImplementedError

    def _check_between_rounds(self) -> None:
        """Refuse what waits for the current round to finish."""
        if self.history and not self.history[-1].finished:
            raise FeltError("the current round is not finished")

    def _count_round(self, rnd: Any) -> None:
        """Count a finished round as played."""
        if not rnd.finished:
            raise FeltError("the round is not finished")
        self.rounds_played += 1

    def remove_shuffler(self) -> None:
        """Remove the automated card shuffling device from the table."""
        if self.config.shuffling == "manual":
            raise FeltError("this table shuffles by hand; there is no shuffler to remove")
        self.shuffler_removed = True

    def change_shuffling(self, method: str) -> None:
        """Shuffle another way; an automated shuffler must first be removed."""
        if method not in self.SHUFFLING:
            raise FeltError(f"shuffling must be one of {', '.join(self.SHUFFLING)}, got {method!r}")
        if self.config.shuffling != "manual" and method == "manual" and not self.shuffler_removed:
            raise FeltError(
                "the automated card shuffling device must be removed from the table before another "
                f"method of shuffling is used ({self.cite(self.shuffler_clause)})"
            )
        self._check_shuffling(method)
        self.config = replace(self.config, shuffling=method)
        self.shuffler_removed = False

    def _check_shuffling(self, method: str) -> None:
        """A game's own refusal of a shuffling method at this table (none by default)."""
