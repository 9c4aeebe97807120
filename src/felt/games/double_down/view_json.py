"""One betting area's view of a Double Down Stud round as JSON (what the server sends that area):
the shared parts (:mod:`felt.rounds.view_json`), the dealer's up cards (17.8(b)) and the hole card
once turned over (17.8(d))."""

from __future__ import annotations

from typing import Any

from felt.games.double_down.round import DoubleDownRound
from felt.games.double_down.view import area_view
from felt.rounds.view_json import cards_json, other_json, view_json


def area_json(rnd: DoubleDownRound, area: int) -> dict[str, Any]:
    """The round as betting area ``area`` (0: no area) may see it, JSON-ready."""
    view = area_view(rnd, area)
    return {
        **view_json(
            view,
            view.area,
            [other_json(o, hand=o.hand) for o in view.others],
            reasons=view.reasons,
            hand=view.hand,
        ),
        "dealer_up": cards_json(view.dealer_up),
        "hole_card": None if view.hole_card is None else str(view.hole_card),
    }
