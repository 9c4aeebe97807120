"""What the server sends each client, built from that client's seat view and never by filtering
a full state: a player gets the game's view (:meth:`felt.games.base.TableGame.seat_view`) of
each seat they hold, anyone else the view of no seat (what the whole table may see).  The shoe,
the stub and the discard rack are in no view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from felt.games.base import TableGame
from felt.rounds.round_core import RoundCore

PUBLIC = 0
"""The seat number of the view of no seat: what a spectator, the dealer or a player without a
seat at this table may see."""


def seat_message(game: TableGame, rnd: RoundCore, seat: int) -> dict[str, Any]:
    """The round of ``game`` as seat ``seat`` (or :data:`PUBLIC`) may see it now, as JSON-ready
    data."""
    return game.seat_view(rnd, seat)


@dataclass
class Shared:
    """What the messages of one push of a table to its watchers have in common, built once for
    all of them rather than once a watcher: the parts every viewer sees, and each seat's view
    (still that seat's own :func:`seat_message`, handed only to a client entitled to it).  It
    belongs to one state of one table (:meth:`fits`), and what it holds is shared by several
    messages, so no message is changed once built."""

    key: tuple[str, int, int, int] | None = None
    """The table, its version, the identity of its round and the round's event count."""
    parts: dict[str, Any] = field(default_factory=dict)
    """Parts of the messages, by name: those every viewer gets, and those worked out once for
    the viewers entitled to them (the dealer's next step, each player's last results by name,
    the owners of the hands), each handed only to a client entitled to it."""
    views: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Seat views built so far, by seat (:data:`PUBLIC` for no seat's)."""

    def fits(self, key: tuple[str, int, int, int]) -> None:
        """Forget what was built for another table or another state of it."""
        if self.key != key:
            self.key = key
            self.parts.clear()
            self.views.clear()

    def view(self, game: TableGame, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """:func:`seat_message` of ``seat``, built once."""
        view = self.views.get(seat)
        if view is None:
            view = self.views[seat] = seat_message(game, rnd, seat)
        return view
