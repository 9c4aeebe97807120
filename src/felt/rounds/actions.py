"""Actions that drive a round: a player's, the dealer's, or an irregularity.  Each is a frozen
value, so the list of actions accepted by a round is its complete, replayable record.

Round scripts (JSON) name a player's actions as ``{"seat": n, "action": name}``, dealer steps as
``{"dealer": "reveal"}`` and irregularities as ``{"irregularity": "face_up_card", ...}``;
:func:`action_from_json` and :meth:`Action.to_json` convert.  This module holds the actions every
table game shares (:data:`SHARED_ACTIONS`); a game's own live in its folder and are its
:attr:`~felt.games.base.TableGame.action_types`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import MISSING, Field, dataclass, fields
from functools import cache
from typing import Any, ClassVar, Final

from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.core.errors import MAX_NAME_CHARS, FeltError, excerpt
from felt.core.money import MAX_AMOUNT, MAX_METER, cents, dollars


@dataclass(frozen=True)
class Action:
    """Base of every action; ``name`` is how scripts spell it."""

    name: ClassVar[str] = ""
    family: ClassVar[str] = "action"
    places_wagers: ClassVar[bool] = False
    """Whether the action puts a player's hand in play: it carries the wagering player's name
    (``player``), and the hand is that player's until the round is settled."""
    supervisor_only: ClassVar[str] = ""
    """What only a casino supervisor may do by this action, in words with its clause (empty when
    the dealer may too)."""
    needs_meter: ClassVar[bool] = False
    """Whether the action pays progressive payouts and so carries ``meter``: the cents on the
    table's progressive meter as it stood when the action was recorded.  The server fills it in
    the action's own transaction, with the meter's row locked (so linked tables never pay the same
    cents twice); the CLI and simulations keep a meter of their own.  A round refuses such an
    action without it when progressive wagers are in play."""
    money_fields: ClassVar[frozenset[str]] = frozenset(
        {"ante", "first", "bonus", "amount", "meter"}
    )
    """The fields that are sums of money: cents here, dollars in JSON (a game's action with
    another wager, such as a pair plus, names its own)."""

    def to_json(self) -> dict[str, Any]:
        """The action as a round-script entry."""
        out: dict[str, Any] = {self.family: self.name}
        for name in _known_fields(type(self)):
            value = getattr(self, name)
            if value is None:
                continue
            if name in self.money_fields:
                out[name] = dollars(value)
            elif isinstance(value, tuple):
                out[name] = [str(Card(c)) for c in value]
            else:
                out[name] = value
        return out


_FIELDS: dict[type[Action], dict[str, Field[Any]]] = {}


def _known_fields(cls: type[Action]) -> dict[str, Field[Any]]:
    """An action class's fields by name, in order (worked out once per class: every action is
    read and written through them; not to be changed)."""
    known = _FIELDS.get(cls)
    if known is None:
        known = _FIELDS[cls] = {f.name: f for f in fields(cls)}
    return known


@dataclass(frozen=True)
class PlayerAction(Action):
    """An action taken by the player at ``seat``."""

    family: ClassVar[str] = "action"
    seat: int


@dataclass(frozen=True)
class DealerAction(Action):
    """A step the dealer takes."""

    family: ClassVar[str] = "dealer"


@dataclass(frozen=True)
class NoMoreBets(DealerAction):
    """The dealer announces "No more bets": wagers are closed until the next round."""

    name: ClassVar[str] = "no_more_bets"


@dataclass(frozen=True)
class Deal(DealerAction):
    """The first cards, to each position with a wager from the dealer's left, then to the dealer."""

    name: ClassVar[str] = "deal"


@dataclass(frozen=True)
class Reveal(DealerAction):
    """Reveal the dealer's cards (and set the dealer's hand where the game has one set)."""

    name: ClassVar[str] = "reveal"


@dataclass(frozen=True)
class Settle(DealerAction):
    """Settle every position's wagers and collect the cards."""

    name: ClassVar[str] = "settle"


@dataclass(frozen=True)
class DecisionTimeout(DealerAction):
    """The decision time of the player at ``seat`` ran out with an election still open.

    The engine keeps no clock: whoever runs the table issues this when the table's
    ``decision_seconds`` have passed.  It is refused unless ``seat`` has an election pending, and
    applies the choice the player is deemed to have made, as the round's ``ELECTIONS`` name it
    (see docs/interpretations.md).
    """

    name: ClassVar[str] = "timeout"
    seat: int


@dataclass(frozen=True)
class Irregularity(Action):
    """Something that went wrong at the table (19:47-24.12, 19:47-17.11)."""

    family: ClassVar[str] = "irregularity"


@dataclass(frozen=True)
class FaceUpCard(Irregularity):
    """The card at ``position`` (1 = top of the deck) is found face up when reached (24.12(b),
    17.11(b))."""

    name: ClassVar[str] = "face_up_card"
    position: int


@dataclass(frozen=True)
class DrawnInError(Irregularity):
    """A card drawn in error without its face exposed; used as the next card (24.12(c),
    17.11(c))."""

    name: ClassVar[str] = "drawn_in_error"


@dataclass(frozen=True)
class Misdeal(Irregularity):
    """In the next deal, ``seat`` (or the dealer when None) receives ``cards`` cards (24.12(d),
    17.11(d))."""

    name: ClassVar[str] = "misdeal"
    cards: int
    seat: int | None = None


@dataclass(frozen=True)
class ShufflerJam(Irregularity):
    """The shuffler jams; the cards are reshuffled, giving ``deck`` (24.12(e), 17.11(e))."""

    name: ClassVar[str] = "shuffler_jam"
    deck: tuple[Card, ...] | None = None


SHARED_ACTIONS: Final[tuple[type[Action], ...]] = (
    NoMoreBets, Deal, Reveal, Settle, DecisionTimeout,
    FaceUpCard, DrawnInError, Misdeal, ShufflerJam,
)  # fmt: skip
"""The actions every table game takes (handled in :class:`~felt.rounds.round_core.RoundCore` or
by each game's round): a game's own are its :attr:`~felt.games.base.TableGame.action_types`."""

ActionTable = dict[tuple[str, str], type[Action]]
"""Action classes by how scripts name them: (``action``/``dealer``/``irregularity``, name)."""


@cache
def action_table(types: tuple[type[Action], ...]) -> ActionTable:
    """The shared actions and ``types`` by (family, name); two classes claiming one name is a
    registration error, raised at once, except that a game's action may take the place of the
    shared action it subclasses (a game's settlement that carries the progressive meter)."""
    table: ActionTable = {}
    for cls in SHARED_ACTIONS:
        table[(cls.family, cls.name)] = cls
    for cls in types:
        key = (cls.family, cls.name)
        shared = table.get(key)
        if shared is not None and shared in SHARED_ACTIONS and issubclass(cls, shared):
            table[key] = cls
        elif table.setdefault(key, cls) is not cls:
            first = table[key].__qualname__
            raise TypeError(f"{cls.family} {cls.name!r} is both {first} and {cls.__qualname__}")
    return table


def _names(table: ActionTable, family: str) -> str:
    return ", ".join(n for f, n in table if f == family)


def action_from_json(entry: object, where: str, types: Iterable[type[Action]]) -> Action:
    """Read one round-script entry as one of the shared actions or ``types`` (a game's
    :attr:`~felt.games.base.TableGame.action_types`: an action is read for its game, so two games
    may each have a ``fold``); errors name the entry and what the game allows."""
    table = action_table(tuple(types))
    if not isinstance(entry, dict):
        raise FeltError(f"{where}: each action must be an object, got {excerpt(entry)}")
    families = [f for f in ("action", "dealer", "irregularity") if f in entry]
    if len(families) != 1:
        raise FeltError(
            f'{where}: give exactly one of "action" (a player\'s: {_names(table, "action")}), '
            f'"dealer" ({_names(table, "dealer")}) or "irregularity" '
            f"({_names(table, 'irregularity')})"
        )
    family = families[0]
    name = entry[family]
    cls = table.get((family, name)) if isinstance(name, str) else None
    if cls is None:
        raise FeltError(
            f"{where}: unknown {family} {excerpt(name)} (allowed: {_names(table, family)})"
        )
    kwargs: dict[str, Any] = {}
    known = _known_fields(cls)
    for key, value in entry.items():
        if key == family:
            continue
        if key not in known:
            allowed = ", ".join(known) or "nothing else"
            raise FeltError(
                f"{where}: {family} {name!r} takes no {excerpt(key)} (allowed: {allowed})"
            )
        kwargs[key] = _field_value(key, known[key].type, value, f"{where}: {key}", cls.money_fields)
    missing = [
        k
        for k, f in known.items()
        if k not in kwargs and f.default is MISSING and f.default_factory is MISSING
    ]
    if missing:
        raise FeltError(f"{where}: {family} {name!r} needs {', '.join(repr(m) for m in missing)}")
    return cls(**kwargs)


MAX_WHOLE_NUMBER: Final = 1_000_000
"""The largest seat, position, count or number of stacks an action may name."""
MAX_WORD_CHARS: Final = 40
"""The longest word (such as a craps wager's spot) an action may carry; the round checks it."""
MAX_SECONDS: Final = 10_000_000_000
"""The latest time an action may carry (seconds since the epoch: the year 2286)."""


def player_name(value: object, where: str) -> str | None:
    """A player's name: None when not given, else 1 to 64 printable characters."""
    if value is None:
        return None
    if (
        not isinstance(value, str)
        or not value.strip()
        or len(value) > MAX_NAME_CHARS
        or not value.isprintable()
    ):
        raise FeltError(
            f"{where} must be a name of 1 to {MAX_NAME_CHARS} printable characters, "
            f"got {excerpt(value)}"
        )
    return value


_PLAIN_DOLLARS: Final = re.compile(r"([0-9]{1,15})\.([0-9]{2})")
"""Dollars and cents as clients send them (``"12.50"``): read at once (:func:`_cents`)."""


def _cents(value: object, where: str, maximum: int) -> int:
    """:func:`~felt.core.money.cents` of ``value``, the amounts clients send (``"12.50"``) read
    without its general reading (a wager's every amount is read, on every action); any other
    value, or one over ``maximum``, is read (or refused) by ``cents`` itself."""
    if type(value) is str and (plain := _PLAIN_DOLLARS.fullmatch(value)) is not None:
        amount = int(plain[1]) * 100 + int(plain[2])
        if amount <= maximum:
            return amount
    return cents(value, where, maximum)


def _field_value(
    key: str, kind: object, value: object, where: str, money: frozenset[str]
) -> object:
    """One field of an action, read as the action's type declares it (``cards`` is a number of
    cards on a misdeal, a list of cards on a discard)."""
    if key == "meter":  # a progressive meter is no wager: it may pass any table's limits
        return _cents(value, where, MAX_METER)
    if key in money:
        return _cents(value, where, MAX_AMOUNT)
    if kind in ("int", "int | None"):
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 0 <= value <= MAX_WHOLE_NUMBER
        ):
            raise FeltError(
                f"{where} must be a whole number from 0 to {MAX_WHOLE_NUMBER:,}, "
                f"got {excerpt(value)}"
            )
        return value
    if kind in ("tuple[Card, ...]", "tuple[Card, ...] | None"):
        if not isinstance(value, list) or len(value) > 2 * len(ALL_CARDS):
            raise FeltError(
                f'{where} must be a list of cards such as ["As", "Kd"], got {excerpt(value)}'
            )
        return parse_cards([str(v) if isinstance(v, str) else excerpt(v) for v in value])
    if key == "player":
        return player_name(value, where)
    if kind == "bool":
        if not isinstance(value, bool):
            raise FeltError(f"{where} must be true or false, got {excerpt(value)}")
        return value
    if kind in ("float", "float | None"):  # a time on the table's clock (seconds)
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not 0 <= value <= MAX_SECONDS
        ):
            raise FeltError(
                f"{where} must be seconds from 0 to {MAX_SECONDS:,}, got {excerpt(value)}"
            )
        return float(value)
    if kind == "str":  # a name the game's round checks (a craps wager's spot)
        if not isinstance(value, str) or not 1 <= len(value) <= MAX_WORD_CHARS:
            raise FeltError(
                f"{where} must be a word of 1 to {MAX_WORD_CHARS} characters, got {excerpt(value)}"
            )
        return value
    raise FeltError(f"{where}: cannot be given here")  # pragma: no cover - every field is typed
