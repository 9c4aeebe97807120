"""What the server sends each client, built from that client's seat view and never by filtering
a full state: a player gets the game's view (:meth:`felt.games.base.TableGame.seat_view`) of
each seat they hold, anyone else the view of no seat (what the whole table may see).  The shoe,
the stub and the discard rack are in no view.
"""

from __future__ import annotations

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
