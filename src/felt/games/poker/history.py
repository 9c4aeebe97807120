"""Hand records, their export as PHH, and the rake report (N.J.A.C. 19:47-14.14 Poker revenue
(title only)).

PHH ("poker hand history", the TOML-based format PokerKit reads and writes) is the export: it is
an open, documented text format with one line per dealing or betting action, so a hand exported
here can be replayed by PokerKit and by other tools.  Chips in the export are integer cents;
what PHH has no field for (the rake, the start and end times in epoch seconds, each pot share
awarded) is written as PHH user-defined fields, whose names start with ``_``.

A :class:`HandRecord` is what a finished hand leaves behind; seats are listed in the order PHH
numbers players (p1, p2, ...: from the button's left, so the small blind first, but heads-up,
where the button posts the small blind, the big blind first), and ``street`` 0 is
the betting before any board card, street ``i`` the betting after ``board[i - 1]`` was dealt.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from felt.core.cards import parse_cards
from felt.core.errors import FeltError, excerpt
from felt.games.poker.hand import (
    AllIn,
    Award,
    Call,
    Check,
    DeadRound,
    Discard,
    Fold,
    Misdeal,
    PlayerAction,
    PokerHand,
    Statement,
)

VERBS = ("f", "cc", "cbr")
"""Betting verbs as PHH writes them: fold, check or call, complete/bet/raise."""

PHH_VARIANTS = {("holdem", "fixed"): "FT", ("holdem", "no"): "NT", ("omaha", "pot"): "PO"}
"""felt's variant and limit to PHH's variant code; the others are not exported yet."""


@dataclass(frozen=True)
class SeatRecord:
    """One seat in a hand: its number, the player, and the stack before and after (cents)."""

    seat: int
    name: str
    start: int
    end: int


@dataclass(frozen=True)
class Action:
    """One betting action: ``amount`` is the chips this action put in (cents, 0 for a fold or
    check), on betting round ``street``."""

    seat: int
    verb: str
    amount: int = 0
    street: int = 0


@dataclass(frozen=True)
class HandRecord:
    """What one finished hand leaves: who played with what, every action, the cards shown, the pots
    awarded and the rake, all money in cents."""

    table: str
    number: int
    started: float
    ended: float
    variant: str
    limit: str
    seats: tuple[SeatRecord, ...]
    actions: tuple[Action, ...]
    blinds: tuple[int, ...] = ()
    antes: tuple[int, ...] = ()
    small_bet: int = 0
    big_bet: int = 0
    board: tuple[tuple[str, ...], ...] = ()
    holes: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """Hole cards known (shown at showdown, or the record's own seat): (seat, cards)."""
    awarded: tuple[tuple[int, int], ...] = ()
    """(seat, cents) per pot share awarded."""
    rake: int = 0

    def __post_init__(self) -> None:
        """Blinds and antes as one entry per seat (missing ones 0), so equal hands compare equal."""
        n = len(self.seats)
        if len(self.blinds) > n or len(self.antes) > n:
            raise FeltError(f"hand {self.number}: more blinds or antes than its {n} seats")
        object.__setattr__(self, "blinds", tuple(self.blinds) + (0,) * (n - len(self.blinds)))
        object.__setattr__(self, "antes", tuple(self.antes) + (0,) * (n - len(self.antes)))

    def seat_numbers(self) -> tuple[int, ...]:
        """The seats in PHH order."""
        return tuple(s.seat for s in self.seats)

    def check(self) -> None:
        """Refuse a record whose chips do not add up: every start stack equals end stack plus what
        the seat put in less what it won, and the pot less the rake is what was awarded."""
        seats = self.seat_numbers()
        if self.ended < self.started:
            raise FeltError(
                f"hand {self.number} ends ({self.ended}) before it starts ({self.started})"
            )
        for a in self.actions:
            if a.seat not in seats or a.verb not in VERBS or a.amount < 0:
                raise FeltError(
                    f"hand {self.number}: action {excerpt(a)} must be a seat of the hand, one of {VERBS}, "
                    "and an amount of cents not below 0"
                )
        put_in = _forced(self)
        for a in self.actions:
            put_in[a.seat] += a.amount
        won = dict.fromkeys(seats, 0)
        for seat, amount in self.awarded:
            won[seat] = won.get(seat, 0) + amount
        for s in self.seats:
            if s.start - put_in[s.seat] + won.get(s.seat, 0) != s.end:
                raise FeltError(
                    f"hand {self.number} seat {s.seat}: start {s.start} less {put_in[s.seat]} put in plus "
                    f"{won.get(s.seat, 0)} won is not the end stack {s.end}"
                )
        if sum(put_in.values()) - self.rake != sum(won.values()):
            raise FeltError(
                f"hand {self.number}: the pot less the rake {self.rake} is not what was awarded"
            )


def _forced(record: HandRecord) -> dict[int, int]:
    """Each seat's blind and ante in cents (PHH order)."""
    return {
        seat: record.blinds[i] + record.antes[i] for i, seat in enumerate(record.seat_numbers())
    }


def _cards(cards: Iterable[str]) -> str:
    return "".join(str(c) for c in parse_cards(list(cards)))


def to_phh(record: HandRecord) -> str:
    """The hand as PHH text: variant, antes, blinds, stacks, every dealing and betting action.

    ``cbr`` amounts are what the player's bet becomes on that betting round, as PHH writes them.
    """
    record.check()
    code = PHH_VARIANTS.get((record.variant, record.limit))
    if code is None:
        raise FeltError(
            f"PHH export covers {sorted(PHH_VARIANTS)}, not {record.variant!r} {record.limit!r}"
        )
    seats = record.seat_numbers()
    player = {seat: f"p{i + 1}" for i, seat in enumerate(seats)}
    holes = dict(record.holes)
    n_hole = 4 if record.variant == "omaha" else 2
    lines = [f"d dh {player[s]} {_cards(holes[s]) if s in holes else '??' * n_hole}" for s in seats]
    antes = dict(zip(seats, record.antes, strict=True))
    blinds = dict(zip(seats, record.blinds, strict=True))
    committed = dict(blinds)
    street = 0
    for a in record.actions:
        while a.street > street:
            street += 1
            if street > len(record.board):
                raise FeltError(
                    f"hand {record.number}: betting on round {street} with no board dealt for it"
                )
            lines.append(f"d db {_cards(record.board[street - 1])}")
            committed = dict.fromkeys(seats, 0)
        committed[a.seat] += a.amount
        lines.append(
            f"{player[a.seat]} {a.verb} {committed[a.seat]}"
            if a.verb == "cbr"
            else f"{player[a.seat]} {a.verb}"
        )
    lines.extend(f"d db {_cards(cards)}" for cards in record.board[street:])
    lines.extend(f"{player[s]} sm {_cards(holes[s])}" for s in seats if s in holes)
    fields: list[tuple[str, object]] = [
        ("variant", code),
        ("ante_trimming_status", True),
        ("antes", [antes[s] for s in seats]),
        ("blinds_or_straddles", _heads_up_order([blinds[s] for s in seats])),
    ]
    if record.limit == "fixed":
        fields += [("small_bet", record.small_bet), ("big_bet", record.big_bet)]
    else:
        fields.append(("min_bet", max(record.big_bet, max(record.blinds, default=0), 1)))
    fields += [
        ("starting_stacks", [s.start for s in record.seats]),
        ("actions", lines),
        ("table", record.table),
        ("hand", record.number),
        ("seats", list(seats)),
        ("players", [s.name for s in record.seats]),
        ("finishing_stacks", [s.end for s in record.seats]),
        ("_rake", record.rake),
        ("_started", record.started),
        ("_ended", record.ended),
        ("_awarded", [list(pair) for pair in record.awarded]),
    ]
    return "".join(f"{key} = {_toml(value)}\n" for key, value in fields)


def _toml(value: object) -> str:
    """A TOML value for the few types the export writes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(value)


def from_phh(text: str) -> HandRecord:
    """Read back a PHH hand written by :func:`to_phh` (the fields it writes)."""
    try:
        data = tomllib.loads(text)
        code = data["variant"]
        variant, limit = next(k for k, v in PHH_VARIANTS.items() if v == code)
        seats: list[int] = data["seats"]
        starts: list[int] = data["starting_stacks"]
        blinds = tuple(_heads_up_order(list(data["blinds_or_straddles"])))
        antes = tuple(data["antes"])
        player = {f"p{i + 1}": seat for i, seat in enumerate(seats)}
        committed = {seat: blinds[i] for i, seat in enumerate(seats)}
        actions: list[Action] = []
        board: list[tuple[str, ...]] = []
        holes: list[tuple[int, tuple[str, ...]]] = []
        for line in data["actions"]:
            who, verb, *rest = line.split()
            if who == "d" and verb == "db":
                board.append(tuple(str(c) for c in parse_cards(_pairs(rest[0]))))
                committed = dict.fromkeys(seats, 0)
            elif who == "d":
                continue  # hole cards: the shown ones are read from "sm"
            elif verb == "sm":
                holes.append((player[who], tuple(str(c) for c in parse_cards(_pairs(rest[0])))))
            elif verb == "cbr":
                seat = player[who]
                to = int(rest[0])
                actions.append(Action(seat, "cbr", to - committed[seat], len(board)))
                committed[seat] = to
            else:
                seat = player[who]
                i = seats.index(seat)
                paid = sum(a.amount for a in actions if a.seat == seat) + blinds[i] + antes[i]
                owed = max(committed.values()) - committed[seat] if verb == "cc" else 0
                amount = min(owed, starts[i] - paid)
                actions.append(Action(seat, verb, amount, len(board)))
                committed[seat] += amount
        record = HandRecord(
            table=data["table"],
            number=data["hand"],
            started=data["_started"],
            ended=data["_ended"],
            variant=variant,
            limit=limit,
            seats=tuple(
                SeatRecord(seat, data["players"][i], starts[i], data["finishing_stacks"][i])
                for i, seat in enumerate(seats)
            ),
            actions=tuple(actions),
            blinds=blinds,
            antes=antes,
            small_bet=data.get("small_bet", 0),
            big_bet=data.get("big_bet", data.get("min_bet", 0) if limit != "fixed" else 0),
            board=tuple(board),
            holes=tuple(holes),
            awarded=tuple((int(s), int(a)) for s, a in data["_awarded"]),
            rake=data["_rake"],
        )
    except (
        tomllib.TOMLDecodeError,
        KeyError,
        IndexError,
        ValueError,
        StopIteration,
        TypeError,
    ) as e:
        if isinstance(e, FeltError):
            raise
        raise FeltError(f"not a PHH hand felt wrote: {excerpt(str(e))}") from None
    record.check()
    return record


def _heads_up_order(blinds: list[int]) -> list[int]:
    """PHH lists blinds small first; heads-up the small blind is p2 (the button), so a seat-order
    list is reversed (the same function both ways)."""
    return blinds[::-1] if len(blinds) == 2 else blinds


def _pairs(text: str) -> list[str]:
    """``AsKs`` as ``["As", "Ks"]``."""
    return [text[i : i + 2] for i in range(0, len(text), 2)]


@dataclass(frozen=True)
class TableRake:
    """The rake one table collected: hands, cents, seconds of play, per hand and per hour."""

    table: str
    hands: int
    rake: int
    seconds: float
    per_hand: Fraction
    per_hour: Fraction | None
    by_hour: tuple[tuple[int, int], ...]
    """(hour starting at epoch seconds, cents raked in hands ending in that hour)."""


def rake_report(records: Sequence[HandRecord]) -> tuple[TableRake, ...]:
    """The rake collected per hand and per hour by table (14.14 Poker revenue, title only).

    Per hour is the rake over the table's span of play (first start to last end); exact as a
    Fraction of cents.  ``per_hour`` is None when the span is zero.
    """
    tables: dict[str, list[HandRecord]] = {}
    for r in records:
        tables.setdefault(r.table, []).append(r)
    report = []
    for table, hands in sorted(tables.items()):
        total = sum(r.rake for r in hands)
        span = max(r.ended for r in hands) - min(r.started for r in hands)
        hourly: dict[int, int] = {}
        for r in hands:
            hour = int(r.ended // 3600 * 3600)
            hourly[hour] = hourly.get(hour, 0) + r.rake
        per_hour = Fraction(total * 3600) / Fraction(span) if span > 0 else None
        report.append(
            TableRake(
                table,
                len(hands),
                total,
                span,
                Fraction(total, len(hands)),
                per_hour,
                tuple(sorted(hourly.items())),
            )
        )
    return tuple(report)


def record_of(
    hand: PokerHand,
    table_id: str,
    hand_no: int,
    started_at: float,
    ended_at: float | None = None,
    names: Mapping[int, str] | None = None,
) -> HandRecord:
    """The record a finished hand leaves (what the rake report and the PHH export read).

    The hand is replayed from its start step by step: each player's action records the chips it
    took from that seat's stack; the forced bets are what the deal (after the last misdeal) took;
    a seat folded without a turn of its own ((j)4, (k)2, a dead hand) gets an "f" of its own.  What
    each seat got back (pot shares, refunds, an uncalled bet, a round called dead) is its end
    stack less what it had left.  The seats are in PHH order (PokerHand.order), shown hole cards
    are those of the hands still live at a showdown, and the record is checked before it is
    returned."""
    if hand.final is None:
        raise FeltError(
            f"record_of: hand {hand_no} is not over (allowed: {'; '.join(hand.allowed())})"
        )
    if ended_at is not None and ended_at < started_at:
        raise FeltError(
            f"record_of: hand {hand_no} would end ({ended_at}) before it starts ({started_at})"
        )
    replay = PokerHand(
        hand.config, hand.start, hand.button, hand.first_deck, shuffler=hand.shuffler_at_start
    )
    misdeals = [k for k, a in enumerate(hand.actions) if isinstance(a, Misdeal)]
    first = misdeals[-1] + 1 if misdeals else 0
    for action in hand.actions[:first]:
        replay.do(action)
    forced = {seat: hand.start[seat] - replay.stack(seat) for seat in hand.order}
    antes = {seat: min(hand.config.ante, forced[seat]) for seat in hand.order}
    actions: list[Action] = []
    for action in hand.actions[first:]:
        if isinstance(action, Award | DeadRound):
            break
        stated = action.stated if isinstance(action, Statement) else action
        street = replay.state.street_index or 0
        verb = _verb(replay, stated)
        folded = {s for s in hand.order if not replay.in_hand(s)}
        stacks = {s: replay.stack(s) for s in hand.order}
        replay.do(action)
        if isinstance(stated, PlayerAction):
            paid = max(0, stacks[stated.seat] - replay.stack(stated.seat))
            actions.append(Action(stated.seat, verb, paid, street))
        for seat in hand.order:
            own = isinstance(stated, PlayerAction) and stated.seat == seat and verb == "f"
            if seat not in folded and not replay.in_hand(seat) and not own:
                actions.append(Action(seat, "f", 0, street))
    put_in = dict(forced)
    for a in actions:
        put_in[a.seat] += a.amount
    board = [str(c) for c in hand.board()]
    live = [s for s in hand.order if hand.in_hand(s) and not hand.dead(s)]
    record = HandRecord(
        table=table_id,
        number=hand_no,
        started=started_at,
        ended=started_at if ended_at is None else ended_at,
        variant=hand.config.variant,
        limit=hand.config.limit,
        seats=tuple(
            SeatRecord(s, (names or {}).get(s, f"seat {s}"), hand.start[s], hand.final[s])
            for s in hand.order
        ),
        actions=tuple(actions),
        blinds=tuple(forced[s] - antes[s] for s in hand.order),
        antes=tuple(antes[s] for s in hand.order),
        small_bet=hand.config.small_bet if hand.config.limit == "fixed" else 0,
        big_bet=hand.config.big_bet if hand.config.limit == "fixed" else hand.config.big_blind,
        board=tuple(tuple(board[a:b]) for a, b in ((0, 3), (3, 4), (4, 5)) if len(board) >= b),
        holes=tuple((s, tuple(str(c) for c in hand.hole_cards(s))) for s in live if len(live) > 1),
        awarded=tuple(
            (s, hand.final[s] - hand.start[s] + put_in[s])
            for s in hand.order
            if hand.final[s] - hand.start[s] + put_in[s]
        ),
        rake=hand.rake,
    )
    record.check()
    return record


def _verb(hand: PokerHand, action: object) -> str:
    """PHH's verb for a player's action before it is done: f, cc or cbr (a bring-in, bet, raise
    or all-in raise)."""
    match action:
        case Fold() | Discard():
            return "cbr" if hand.state.can_post_bring_in() else "f"
        case Check() | Call():
            return "cc"
        case AllIn(seat=seat):
            return "cbr" if hand._all_in_action(hand.index_of(seat)) == "raise" else "cc"
    return "cbr"
