"""Shared set-up of the keno tests: the example rate card as data, tickets, a fixed draw."""

from __future__ import annotations

import copy
import tomllib
from functools import cache
from itertools import combinations
from typing import Any

from felt.games.keno.ratecard import RateCard, example_rate_card, example_rate_card_path
from felt.games.keno.tickets import Ticket, read_request


@cache
def _example_data() -> dict[str, Any]:
    return tomllib.loads(example_rate_card_path().read_text(encoding="utf-8"))


def card_data(**changes: Any) -> dict[str, Any]:
    """The example rate card's data with ``changes`` (a value of None removes the key)."""
    data = copy.deepcopy(_example_data())
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def card(**changes: Any) -> RateCard:
    """The example rate card with ``changes``, checked."""
    if not changes:
        return example_rate_card()
    return RateCard.from_mapping(card_data(**changes))


def ticket(request: dict[str, Any], rc: RateCard | None = None) -> Ticket:
    """A ticket read from ``request`` (rate $1.00 unless given) under the example card."""
    return read_request({"rate": "1.00"} | request, rc or example_rate_card())


def explicit_ways(t: Ticket) -> list[tuple[tuple[int, ...], int, int]]:
    """Every way a ticket plays, listed the long way: (numbers, spots, rate)."""
    out = []
    idx = range(len(t.groups))
    for c in t.conditions:
        sizes = [1] if t.single else range(1, len(t.groups) + 1)
        for r in sizes:
            for pick in combinations(idx, r):
                numbers = tuple(n for i in pick for n in t.groups[i])
                if len(numbers) == c.spots:
                    out.append((numbers, c.spots, c.rate))
    return out


DRAW = tuple(range(1, 21))
"""A draw of the numbers 1 to 20."""
