"""The house's suggested play for Boston 5 and 7, used for auto-played seats and as a hint.

The rule below needs only the cards a player may see (their own), and the exact analyses
(``felt analyze``) show it optimal under every edition's minimum tables and both Boston 7 ratios.

- Optional bonus: expose whenever the three cards qualify (exposing a qualifying hand only adds
  a payout; an unexposed bonus always loses, 19:47-24.10(a)).
- Second wager: always place it.  Folding gives up ante and first wager; the worst start raised
  loses less on average (exact, minimum tables, per ante, the ante settled by 24.10(f) as
  written): Boston 5 7-3-2 two suited -2.034 against -3 folded under every edition; Boston 7
  7-3-2 rainbow -1.472 against -3 (ratio 2) and -0.956 against -2 (ratio 1).  A more generous
  ante bonus only adds to what raising keeps (a fold forfeits the ante and any bonus), so the
  rule holds there too; ``felt analyze`` decides any table exactly.
- Boston 7: never discard (a discard can only lower the hand and forfeits the six- and
  seven-card royal payouts).
"""

from __future__ import annotations

from collections.abc import Sequence

from felt.core.cards import Card


def suggest_expose(qualifies: bool) -> bool:
    """Expose the bonus hand exactly when it qualifies for a payout."""
    return qualifies


def suggest_second(three: Sequence[Card]) -> bool:
    """Place the second wager (the provisional rule: always)."""
    return len(three) == 3


def suggest_discard(seven: Sequence[Card]) -> tuple[Card, Card] | None:
    """Boston 7: which two cards to discard, or None to keep all seven (always None)."""
    return None
