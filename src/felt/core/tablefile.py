"""Reading a table file (TOML): unknown keys, true/false settings and unreadable files are one
clear error each, the same for every game."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from felt.core.errors import MAX_FILE_BYTES, FeltError, excerpt

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


def read_text(path: str | Path, what: str) -> str:
    """The text of an input file (a table file or a round script): at most 1 MB, UTF-8.

    A file too large is refused before it is read, so no input can make felt parse megabytes.
    """
    p = Path(path)
    try:
        with p.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise FeltError(f"cannot read {what} {str(p)!r}: {err.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise FeltError(
            f"{what} {str(p)!r} is larger than {MAX_FILE_BYTES:,} bytes, the most felt reads"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FeltError(
            f"{what} {str(p)!r} is not UTF-8 text (byte {err.start} is {raw[err.start]:#04x}); "
            "save it as UTF-8"
        ) from None


def read_toml(path: str | Path) -> dict[str, Any]:
    """A table file's contents; an unreadable or malformed file is one clear error."""
    p = Path(path)
    text = read_text(p, "table file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise FeltError(f"table file {str(p)!r} is not valid TOML: {err}") from None
    except RecursionError:
        raise FeltError(
            f"table file {str(p)!r} nests arrays or tables too deeply for a table file"
        ) from None
