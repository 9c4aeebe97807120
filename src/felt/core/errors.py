"""The one exception type felt raises for bad input.

Every refusal (an unknown card, a duplicate, a wrong number of cards, and later a wager that breaks
a rule) is a :class:`FeltError` whose message names what was wrong and what is allowed, so callers
and the CLI can show it as a single line.
"""

from __future__ import annotations


class FeltError(ValueError):
    """Bad input: the message names the problem and what is allowed; nothing was changed."""
