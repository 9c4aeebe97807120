"""Roll scripts of craps (:mod:`felt.cli.script` reads the shared fields and prints the shared
report): a script is one roll, ``{"game": "craps", "table": {...}, "layout": {...}, "wagers":
{"1": {"pass": "10.00", "player": "ann"}}, "actions": [...]}``.  ``layout`` is what the roll
carried from its table (the origin: point, shooter, last rolls, every seat's wagers and calls);
each ``wagers`` entry is one seat's first wager of the roll (one spot), the rest are actions.

>>> rnd = script_round({}, {"layout": {"point": 6, "shooter": 1,
...     "seats": {"1": {"player": "ann", "wagers": {"pass": "10.00"}}}}})
>>> rnd.point, rnd.seats[1].wagers
(6, {'pass': 1000})
>>> wager("2", {"place_6": "12.00", "player": "bob"})
Bet(seat=2, spot='place_6', amount=1200, player='bob')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from felt.cli.script import key_label, seat_number
from felt.core.errors import FeltError, excerpt
from felt.core.money import cents
from felt.games.craps.actions import Bet
from felt.games.craps.config import CrapsConfig
from felt.games.craps.round import CrapsRound, round_from_origin
from felt.games.craps.spots import spot
from felt.rounds.actions import Action, player_name


def script_round(table: Mapping[str, Any], script: Mapping[str, Any]) -> CrapsRound:
    """The roll a script begins: a table of the ``table`` settings carrying the script's
    ``layout`` (absent: an empty table before its first come out roll)."""
    config = CrapsConfig.from_mapping(dict(table), where="field 'table'")
    layout = script.get("layout", {})
    if not isinstance(layout, Mapping):
        raise FeltError(
            "field 'layout' must be an object (number, point, shooter, rolls, seats), got "
            f"{excerpt(layout)}"
        )
    try:
        return round_from_origin(config, layout)
    except FeltError as err:
        raise FeltError(f"field 'layout': {err}") from None


def script_origin(rnd: CrapsRound) -> dict[str, Any]:
    """The ``layout`` field that replays ``rnd`` exactly."""
    return {"layout": rnd.origin_json()}


def wager(key: object, raw: object) -> Bet:
    """A seat's first wager: ``{"pass": "10.00"}``, one spot, with ``player`` optional."""
    where = f"field 'wagers'.{key_label(key)}"
    seat = seat_number(key)
    if seat is None:  # its range is the table's own seat count: the roll checks it
        raise FeltError(f"{where}: seat must be a seat number such as 1")
    if not isinstance(raw, dict):
        raise FeltError(f'{where} must be an object such as {{"pass": "10.00"}}')
    spots = [k for k in raw if k != "player"]
    if len(spots) != 1:
        raise FeltError(
            f'{where}: give one spot and its amount ({{"pass": "10.00"}}); further wagers are '
            f'actions ({{"seat": {seat}, "action": "bet", "spot": "place_6", "amount": "12.00"}})'
        )
    s = spot(spots[0])
    amount = cents(raw[spots[0]], f"{where}.{s.id}")
    return Bet(seat, s.id, amount, player_name(raw.get("player"), f"{where}.player"))


def wager_entry(action: Action) -> tuple[int, dict[str, Any]] | None:
    """The seat and script entry of a :class:`Bet` (None for any other action)."""
    if not isinstance(action, Bet):
        return None
    entry = action.to_json()
    out: dict[str, Any] = {entry["spot"]: entry["amount"]}
    if "player" in entry:
        out["player"] = entry["player"]
    return action.seat, out
