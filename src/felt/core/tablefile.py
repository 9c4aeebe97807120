"""Reading a table file (TOML): unknown keys, true/false settings and unreadable files are one
clear error each, the same for every game."""

from __future__ import annotations

from collections.abc import Mapping
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
