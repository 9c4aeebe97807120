"""Reading a table file (TOML): unknown keys, true/false settings and unreadable files are one
clear error each, the same for every game."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from felt.core.errors import FeltError, excerpt
from felt.core.readers import read_text, read_toml

__all__ = [
    "DECISION_SECONDS",
    "DECISION_SECONDS_MAX",
    "check_keys",
    "decision_seconds",
    "flag",
    "read_text",
    "read_toml",
    "stud_equipment",
]

DECISION_SECONDS: Final = 60
"""Default time a player has for each election before the table records a timeout."""
DECISION_SECONDS_MAX: Final = 3600


def check_keys(data: Mapping[str, Any], allowed: set[str], where: str) -> None:
    """Refuse a key a table file may not have, naming the ones it may."""
    for key in data:
        if key not in allowed:
            raise FeltError(
                f"{where}: unknown key {excerpt(key)} (allowed: {', '.join(sorted(allowed))})"
            )


def flag(data: Mapping[str, Any], key: str, default: bool, where: str) -> bool:
    """A true/false setting of a table file."""
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise FeltError(f"{where}: {key} must be true or false, got {excerpt(value)}")
    return value


def decision_seconds(data: Mapping[str, Any], where: str) -> int:
    """``decision_seconds``: how long each player has for an election (a whole number of seconds,
    1 to 3600) before the table may record a timeout; the rule texts set no time."""
    value = data.get("decision_seconds", DECISION_SECONDS)
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not 1 <= value <= DECISION_SECONDS_MAX
    ):
        raise FeltError(
            f"{where}: decision_seconds must be a whole number of seconds from 1 to "
            f"{DECISION_SECONDS_MAX}, got {excerpt(value)}"
        )
    return value


def stud_equipment(
    data: Mapping[str, Any], where: str, cite: Callable[[str], str], *, seats_max: int,
    shuffling_clause: str, shuffling: tuple[str, ...], dealing: tuple[str, ...],
) -> tuple[int, int, str, str]:  # fmt: skip
    """A one-deck stud table's ``seats`` (1 to ``seats_max``, default 7), ``decks`` (1, or 2
    with a shuffler: section 2 and 2(b) of its subchapter, which Caribbean Stud and Let It Ride
    word alike), ``shuffling`` (one of ``shuffling``, default the shuffler, its text's
    ``shuffling_clause``) and ``dealing`` (one of ``dealing``, sections 7 to 9), each refused
    with one clear error citing the game's text through ``cite``."""
    seats = data.get("seats", 7)
    if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= seats_max:
        raise FeltError(
            f"{where}: seats (betting positions) must be 1 to {seats_max}, got {excerpt(seats)}"
        )
    method = data.get("shuffling", "shuffler")
    if method not in shuffling:
        raise FeltError(
            f"{where}: shuffling must be {' or '.join(shuffling)} ({cite(shuffling_clause)}), got "
            f"{excerpt(method)}"
        )
    decks = data.get("decks", 1)
    if isinstance(decks, bool) or decks not in (1, 2):
        raise FeltError(f"{where}: decks must be 1 or 2 ({cite('2')}), got {excerpt(decks)}")
    if decks == 2 and method != "shuffler":
        raise FeltError(
            f"{where}: a second deck needs an automated card shuffling device (shuffling = "
            f"shuffler, {cite('2(b)')})"
        )
    how = data.get("dealing", "manual-shoe")
    if how not in dealing:
        raise FeltError(
            f"{where}: dealing must be one of {', '.join(dealing)} ({cite('7')} to "
            f"{cite('9')}), got {excerpt(how)}"
        )
    return seats, int(decks), str(method), str(how)
