"""Round scripts of Boston 5 and Boston 7 (:mod:`felt.cli.script` reads the shared fields): the
edition, whether the round counts the stub (24.7(f)), and each seat's ante, first wager and
optional bonus."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from felt.cli.script import key_label, seat_number
from felt.core.cards import Card
from felt.core.errors import FeltError, excerpt
from felt.core.money import cents
from felt.games.boston.actions import PlaceWagers
from felt.games.boston.config import SEATS, TableConfig
from felt.games.boston.editions import default_edition
from felt.games.boston.round import Round
from felt.rounds.actions import Action, player_name

FIELDS = ("stub_count_due",)
"""A Boston script's own field: whether the round counts the stub (24.7(f))."""


def script_round(
    game: str, data: Mapping[str, Any], table: Mapping[str, Any], deck: tuple[Card, ...]
) -> Round:
    """The Boston round a script begins."""
    edition = data.get("edition", default_edition(game))
    config = TableConfig.from_mapping(
        {**table, "game": game, "edition": edition}, where="field 'table'"
    )
    due = data.get("stub_count_due", False)
    if not isinstance(due, bool):
        raise FeltError(f"field 'stub_count_due' must be true or false, got {excerpt(due)}")
    return Round(config, deck, stub_count_due=due)


def wager(key: object, raw: object) -> PlaceWagers:
    """A seat's ante, first wager and optional bonus, ``{"ante": 5, "first": 10}``."""
    where = f"field 'wagers'.{key_label(key)}"
    seat = seat_number(key)
    if seat is None or not 1 <= seat <= SEATS:
        raise FeltError(f"{where}: seat must be a number from 1 to {SEATS}")
    if not isinstance(raw, dict):
        raise FeltError(f'{where} must be an object such as {{"ante": 5, "first": 10}}')
    allowed = ("ante", "first", "bonus", "player")
    for k in raw:
        if k not in allowed:
            raise FeltError(f"{where}: unknown key {excerpt(k)} (allowed: {', '.join(allowed)})")
    for k in ("ante", "first"):
        if k not in raw:
            raise FeltError(f"{where}: missing {k!r}")
    player = player_name(raw.get("player"), f"{where}.player")
    return PlaceWagers(
        seat=seat,
        ante=cents(raw["ante"], f"{where}.ante"),
        first=cents(raw["first"], f"{where}.first"),
        bonus=cents(raw.get("bonus", 0), f"{where}.bonus"),
        player=player,
    )


def wager_entry(action: Action) -> tuple[int, dict[str, Any]] | None:
    """The seat and script entry of a :class:`PlaceWagers` (None for any other action)."""
    if not isinstance(action, PlaceWagers):
        return None
    entry = action.to_json()
    del entry["action"], entry["seat"]
    return action.seat, entry


def origin(rnd: Round) -> dict[str, Any]:
    """Whether the round counted the stub."""
    return {"stub_count_due": rnd.stub_count_due}
