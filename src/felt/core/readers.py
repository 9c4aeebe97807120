"""The one way felt reads TOML and JSON: every file, request and answer goes through
:func:`parse_toml` or :func:`parse_json`, so every way a text can fail to parse (bad syntax,
nesting thousands deep, an integer of thousands of digits, which Python refuses to convert, bad
UTF-8) is one :class:`FeltError` naming the input and what is allowed, never a traceback."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from felt.core.errors import MAX_FILE_BYTES, FeltError


def _digits() -> str:
    """The most digits Python converts into an integer (4,300 unless changed)."""
    limit = sys.get_int_max_str_digits()
    return f"{limit:,}" if limit else "any number of"


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


def parse_toml(
    text: str, where: str, numbers: str = "amounts, counts and seconds"
) -> dict[str, Any]:
    """``text`` read as TOML; ``where`` names the input in an error (``table file 'x.toml'``),
    ``numbers`` what its numbers are (said when one is too long to read)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise FeltError(f"{where} is not valid TOML: {err}") from None
    except RecursionError:
        raise FeltError(f"{where} nests arrays or tables too deeply{_kind(where)}") from None
    except ValueError:  # an integer of more digits than Python converts
        raise FeltError(
            f"{where} holds a number of thousands of digits (felt reads at most {_digits()}); "
            f"its numbers are {numbers}"
        ) from None


def parse_json(
    text: str | bytes, where: str, numbers: str = "amounts, counts and positions"
) -> Any:
    """``text`` read as JSON; errors as :func:`parse_toml`'s (the ``JSONDecodeError`` kept as
    the cause, for a caller that tells a non-JSON body from a bad one)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise FeltError(f"{where} is not valid JSON: {err}") from err
    except RecursionError:
        raise FeltError(f"{where} nests lists or objects too deeply{_kind(where)}") from None
    except UnicodeDecodeError as err:
        raise FeltError(f"{where} is not UTF-8 text (byte {err.start}); send UTF-8") from None
    except ValueError:  # an integer of more digits than Python converts
        raise FeltError(
            f"{where} holds a number of thousands of digits (felt reads at most {_digits()}); "
            f"its numbers are {numbers}"
        ) from None


def _kind(where: str) -> str:
    """`` for a table file`` when ``where`` is ``table file 'x.toml'``; "" when it names no
    file."""
    kind, quote, _ = where.partition(" '")
    return f" for a {kind}" if quote and kind else ""


def read_toml(
    path: str | Path, what: str = "table file", numbers: str = "amounts, counts and seconds"
) -> dict[str, Any]:
    """A TOML file's contents (``what`` it is, e.g. ``table file``); an unreadable, oversized or
    malformed file is one clear error naming it."""
    p = Path(path)
    return parse_toml(read_text(p, what), f"{what} {str(p)!r}", numbers)


def read_json(path: str | Path, what: str, numbers: str = "amounts, counts and positions") -> Any:
    """A JSON file's contents, as :func:`read_toml`."""
    p = Path(path)
    return parse_json(read_text(p, what), f"{what} {str(p)!r}", numbers)
