"""The one exception type felt raises for bad input, and the bounds every input is held to.

Every refusal (an unknown card, a duplicate, a wrong number of cards, and later a wager that breaks
a rule) is a :class:`FeltError` whose message names what was wrong and what is allowed, so callers
and the CLI can show it as a single line.  A message shows at most a short :func:`excerpt` of the
input it refuses, however large that input was.

>>> excerpt("x" * 100)
"'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'"
>>> excerpt([[[[1]]]])
'[[[[...]]]]'
"""

from __future__ import annotations

import reprlib
from typing import Final

EXCERPT_CHARS: Final = 40
"""The most characters of a refused input an error message shows."""
MAX_NAME_CHARS: Final = 64
"""The longest player name (a round script's ``player``)."""
MAX_FILE_BYTES: Final = 1_000_000
"""The largest round script or table file read (1 MB); larger files are refused unread."""
MAX_ACTIONS: Final = 10_000
"""The most actions one round script may list."""


class FeltError(ValueError):
    """Bad input: the message names the problem and what is allowed; nothing was changed."""


_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = EXCERPT_CHARS
_REPR.maxother = EXCERPT_CHARS
_REPR.maxlong = EXCERPT_CHARS


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """``repr(value)`` cut to at most ``limit`` characters, for an error message."""
    try:
        text = _REPR.repr(value)
    except (ValueError, RecursionError):  # an integer too long to print, or nesting too deep
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
