"""Round scripts of Double Down Stud (:mod:`felt.cli.script` reads the shared fields): where the
cut's rotation stands (17.4(d)) and each betting area's wager; and the report's dealer and cut."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from felt.cli.script import key_label, seat_number
from felt.core.cards import Card, format_cards
from felt.core.errors import FeltError, excerpt
from felt.core.money import cents
from felt.games.double_down import GAME, DoubleDownConfig, DoubleDownRound
from felt.games.double_down.actions import PlaceBet
from felt.rounds.actions import Action, player_name

FIELDS = ("new_game", "last_offered", "first_to_table")
"""A Double Down Stud script's own fields: whether the round begins a new game, the betting area
last offered the cut, and the player first to the table (17.4(d)1-2)."""


def script_round(
    data: Mapping[str, Any], table: Mapping[str, Any], deck: tuple[Card, ...]
) -> DoubleDownRound:
    """The Double Down Stud round a script begins."""
    new_game = data.get("new_game", True)
    last = data.get("last_offered")
    if not isinstance(new_game, bool):
        raise FeltError(f"field 'new_game' must be true or false, got {excerpt(new_game)}")
    if last is not None and (
        isinstance(last, bool) or not isinstance(last, int) or not 1 <= last <= 7
    ):
        raise FeltError(
            f"field 'last_offered' must be a betting area number from 1 to 7, got {excerpt(last)}"
        )
    if new_game and last is not None:
        raise FeltError(
            "field 'last_offered' continues the rotation of 17.4(d)2: give it with "
            '"new_game": false (at a new game the first player to the table is offered the cut)'
        )
    if not new_game and "first_to_table" in data:
        raise FeltError(
            "field 'first_to_table' applies at a new game (17.4(d)1): give it with "
            '"new_game": true or leave it out'
        )
    config = DoubleDownConfig.from_mapping({**table, "game": GAME}, where="field 'table'")
    return DoubleDownRound(config, deck, new_game=new_game, last_offered=last)


def wager(key: object, raw: object) -> PlaceBet:
    """A betting area's wager, ``{"wager": 10}``."""
    where = f"field 'wagers'.{key_label(key)}"
    area = seat_number(key)
    if area is None:
        raise FeltError(f"{where}: betting area must be a number from 1 to 7")
    if not isinstance(raw, dict):
        raise FeltError(f'{where} must be an object such as {{"wager": 10}}')
    for k in raw:
        if k not in ("wager", "player"):
            raise FeltError(f"{where}: unknown key {excerpt(k)} (allowed: wager, player)")
    if "wager" not in raw:
        raise FeltError(f"{where}: missing 'wager'")
    player = player_name(raw.get("player"), f"{where}.player")
    return PlaceBet(area, cents(raw["wager"], f"{where}.wager"), player)


def wager_entry(action: Action) -> tuple[int, dict[str, Any]] | None:
    """The area and script entry of a :class:`PlaceBet` (None for any other action)."""
    if not isinstance(action, PlaceBet):
        return None
    entry = action.to_json()
    del entry["action"], entry["seat"]
    if "amount" in entry:
        entry["wager"] = entry.pop("amount")
    return action.seat, entry


def origin(rnd: DoubleDownRound) -> dict[str, Any]:
    """Whether the round began a new game and, if not, the area last offered the cut."""
    out: dict[str, Any] = {"new_game": rnd.new_game}
    if not rnd.new_game:
        out["last_offered"] = rnd.last_offered
    return out


def report_dealer(rnd: DoubleDownRound) -> dict[str, Any] | None:
    """The dealer's cards once the hole card is revealed."""
    if not rnd.hole_revealed:
        return None
    return {"cards": [str(c) for c in rnd.dealer_cards], "hole_card": str(rnd.dealer_cards[0])}


def report_dealer_text(rnd: DoubleDownRound, symbols: bool) -> list[str]:
    """The dealer's cards, the hole card first (``??`` until it is revealed)."""
    if not rnd.dealer_cards:
        return []
    shown = (
        format_cards(rnd.dealer_cards, symbols=symbols)
        if rnd.hole_revealed
        else "?? " + format_cards(rnd.dealer_cards[1:], symbols=symbols)
    )
    return [f"dealer     {shown}  (hole card first; the four complete every hand)"]


def report_cut(rnd: DoubleDownRound) -> dict[str, Any]:
    """What the rotation of 17.4(d) needs to continue at the next round."""
    return {
        "new_game": rnd.new_game,
        "last_offered": rnd.last_offered,
        "first_to_table": rnd.first_to_table() if rnd.new_game else None,
        "offered_to": rnd.cut_offers(),
        "next_last_offered": rnd.rotation,
    }
