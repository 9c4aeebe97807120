"""One seat's view of a Boston round as JSON (what the server sends that seat): the shared parts
(:mod:`felt.rounds.view_json`), how many cards each other seat holds, and the dealer's cards once
revealed (24.10(e)) with how many there are."""

from __future__ import annotations

from typing import Any

from felt.games.boston.round import Round
from felt.games.boston.view import seat_view
from felt.rounds.seat_view import seen_view_json


def seat_json(rnd: Round, seat: int) -> dict[str, Any]:
    """The round as seat ``seat`` (0: no seat) may see it, JSON-ready."""
    return seen_view_json(seat_view(rnd, seat))
