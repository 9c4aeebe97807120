"""The house's suggested play for Boston 5 and 7, used for auto-played seats and as a hint.

Provisional: the exact optimal strategy comes from the full analysis (issue 5).  Until then the
suggestion is the simple rule below, which only needs the cards a player may see (their own).

- Optional bonus: expose whenever the three cards qualify (exposing a qualifying hand only adds
  a payout; an unexposed bonus always loses, 19:47-24.10(a)).
- Second wager: always place it.  Folding gives up ante and first wager (three antes); placing
  it is worse than folding only below about a 2-in-9 chance of winning.  In Boston 5 even 2-3-7
  of mixed suits wins about 32% and loses about 2.0 antes on average when raised, against 3.0
  folded (a simulation of 400,000 deals with felt's evaluator; the exact figures are issue 5's).
- Boston 7: never discard (a discard can only lower the hand and forfeits the six- and
  seven-card royal payouts).
"""

from __future__ import annotations

from collections.abc import Sequence

from felt.cards import Card


def suggest_expose(qualifies: bool) -> bool:
    """Expose the bonus hand exactly when it qualifies for a payout."""
    return qualifies


def suggest_second(three: Sequence[Card]) -> bool:
    """Place the second wager (the provisional rule: always)."""
    return len(three) == 3


def suggest_discard(seven: Sequence[Card]) -> tuple[Card, Card] | None:
    """Boston 7: which two cards to discard, or None to keep all seven (always None)."""
    return None
