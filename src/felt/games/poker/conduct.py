"""The poker room's conduct rules: removal of a player (N.J.A.C. 19:47-14.16), the posted limits
and the players' agreement to raise the minimum (19:47-14.17), and a report of suspicious patterns
between two players from hand records (14.16(a): no action to improve another's chance).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from felt.core.errors import FeltError, excerpt
from felt.core.money import dollars
from felt.games.poker.history import HandRecord


@dataclass(frozen=True)
class Removal:
    """14.16(b): the floor required a player to leave the game; why, by whom, when, and whether the
    Commission and the Division were notified."""

    seat: int
    player: str
    reason: str
    by: str
    at: float
    notified_commission: bool = False
    notified_division: bool = False


def remove_player(
    seat: int,
    player: str,
    reason: str,
    by: str,
    at: float,
    *,
    notified_commission: bool = False,
    notified_division: bool = False,
) -> Removal:
    """14.16(b): record a player required to leave for a reasonable belief of a 14.16(a)
    violation; the reason and the floorperson are required."""
    if not reason.strip() or not by.strip() or not player.strip():
        raise FeltError(
            "a removal (14.16(b)) needs the player, the reason and the floorperson who removed them"
        )
    if seat < 1:
        raise FeltError(f"seat must be a seat number from 1, got {excerpt(seat)}")
    return Removal(seat, player, reason, by, at, notified_commission, notified_division)


@dataclass(frozen=True)
class PostedLimits:
    """14.17: the minimum and maximum wagers in effect at a poker table and any limit on raises per
    betting round, as the table's sign shows them (cents)."""

    minimum: int
    maximum: int
    max_raises: int | None = None

    def __post_init__(self) -> None:
        if not 0 < self.minimum <= self.maximum:
            raise FeltError(
                f"posted limits need 0 < minimum <= maximum, got {dollars(self.minimum)} and {dollars(self.maximum)}"
            )
        if self.max_raises is not None and self.max_raises < 0:
            raise FeltError(
                f"max_raises must be a count not below 0 or none, got {self.max_raises}"
            )

    def sign(self, table: str) -> str:
        """The sign's text (14.17): minimum, maximum, and the raise limit if there is one.

        >>> print(PostedLimits(200, 400, 3).sign("Table 4"))
        Table 4: minimum wager $2.00, maximum wager $4.00; at most 3 raises per betting round
        """
        raises = (
            "no limit on raises"
            if self.max_raises is None
            else f"at most {self.max_raises} raise{'s' * (self.max_raises != 1)} per betting round"
        )
        return f"{table}: minimum wager ${dollars(self.minimum)}, maximum wager ${dollars(self.maximum)}; {raises}"


@dataclass(frozen=True)
class MinimumAgreement:
    """14.17: all the patrons at the table agreed to raise the minimum: who, when, from and to."""

    players: tuple[str, ...]
    at: float
    old_minimum: int
    new_minimum: int


def raise_minimum(
    limits: PostedLimits, new_minimum: int, seated: Iterable[str], agreed: Iterable[str], at: float
) -> tuple[PostedLimits, MinimumAgreement]:
    """14.17: the minimum goes up only "if all patrons at a poker table agree"; refused unless
    every seated player agreed (and only seated players), the new minimum above the old and not
    above the maximum."""
    seated_set, agreed_set = set(seated), set(agreed)
    if not seated_set:
        raise FeltError(
            "no players are seated: an agreement to raise the minimum needs all seated players"
        )
    if agreed_set != seated_set:
        missing = sorted(seated_set - agreed_set)
        extra = sorted(agreed_set - seated_set)
        raise FeltError(
            f"raising the minimum needs every seated player's agreement (14.17): missing {missing}, not seated {extra}"
        )
    if not limits.minimum < new_minimum <= limits.maximum:
        raise FeltError(
            f"the new minimum must be above {dollars(limits.minimum)} and at most the maximum "
            f"{dollars(limits.maximum)}, got {dollars(new_minimum)}"
        )
    agreement = MinimumAgreement(tuple(sorted(seated_set)), at, limits.minimum, new_minimum)
    return PostedLimits(new_minimum, limits.maximum, limits.max_raises), agreement


@dataclass(frozen=True)
class Pattern:
    """A suspicious pattern between two players: what, who, how often, in which hands."""

    kind: str
    players: tuple[str, str]
    count: int
    hands: tuple[tuple[str, int], ...]


def _names(record: HandRecord) -> dict[int, str]:
    return {s.seat: s.name for s in record.seats}


def _pair(names: dict[int, str], seats: Iterable[int]) -> tuple[str, str]:
    """Two players' names in sorted order."""
    first, second = sorted(names[s] for s in seats)
    return first, second


def chip_dumping(records: Sequence[HandRecord], min_times: int) -> tuple[Pattern, ...]:
    """Chips passed by folding (14.16(a)): player A, having put chips in, folds to a raise by the
    same player B in at least ``min_times`` hands.  Players named (folder, raiser)."""
    seen: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for r in records:
        names = _names(r)
        blinds = dict(zip(r.seat_numbers(), r.blinds, strict=False))
        put_in = {seat: blinds.get(seat, 0) for seat in names}
        last_raiser: int | None = None
        pairs: set[tuple[str, str]] = set()
        for a in r.actions:
            if (
                a.verb == "f"
                and last_raiser is not None
                and last_raiser != a.seat
                and put_in[a.seat] > 0
            ):
                pairs.add((names[a.seat], names[last_raiser]))
            if a.verb == "cbr":
                last_raiser = a.seat
            put_in[a.seat] += a.amount
        for pair in pairs:
            seen.setdefault(pair, []).append((r.table, r.number))
    return tuple(
        Pattern("chip dumping", pair, len(hands), tuple(hands))
        for pair, hands in sorted(seen.items())
        if len(hands) >= min_times
    )


def soft_play(records: Sequence[HandRecord], min_heads_up: int) -> tuple[Pattern, ...]:
    """Soft play (14.16(a)): two players heads-up (the only two left with actions to follow) in at
    least ``min_heads_up`` hands who never bet or raised once heads-up against each other."""
    heads_up: dict[tuple[str, str], list[tuple[str, int]]] = {}
    aggressive: Counter[tuple[str, str]] = Counter()
    for r in records:
        names = _names(r)
        live = set(names)
        pair = _pair(names, live) if len(live) == 2 else None
        raised = acted = False
        for a in r.actions:
            if pair is not None:
                acted = True
                raised = raised or a.verb == "cbr"
            if a.verb == "f":
                live.discard(a.seat)
                if len(live) == 2 and pair is None:
                    pair = _pair(names, live)
        if pair is not None and acted:
            heads_up.setdefault(pair, []).append((r.table, r.number))
            aggressive[pair] += raised
    return tuple(
        Pattern("soft play", pair, len(hands), tuple(hands))
        for pair, hands in sorted(heads_up.items())
        if len(hands) >= min_heads_up and aggressive[pair] == 0
    )
