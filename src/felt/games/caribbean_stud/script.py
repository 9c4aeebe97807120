"""Round scripts and reports of Caribbean Stud Poker (:mod:`felt.cli.script` reads the shared
fields and prints the shared report): each position's wagers (an ante, with the progressive
wager, 16.6, 16.11), the round a script begins (the deck in play, 16.2(b)), and the report's
dealer's hand with whether it qualifies, each position's decision, the cuts and the meter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from felt.cli.script import key_label, seat_number
from felt.core.cards import Card, format_cards
from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.games.caribbean_stud.actions import Wagers
from felt.games.caribbean_stud.config import SEATS_MAX, CaribbeanConfig, rules
from felt.games.caribbean_stud.hand import describe, hand_name, qualifies
from felt.games.caribbean_stud.round import CaribbeanRound
from felt.rounds.actions import Action, player_name

WAGER_KEYS = ("ante", "progressive", "player")
"""What a script's ``wagers`` entry for one position may hold."""
SCRIPT_FIELDS = ("deck_in_play",)
"""The script fields of this game: which of a two-deck table's decks the round used (16.2(b))."""


def script_round(
    table: Mapping[str, Any], deck: tuple[Card, ...], script: Mapping[str, Any] | None = None
) -> CaribbeanRound:
    """The round a script begins: a table of the ``table`` settings on ``deck``, with the deck in
    play the script names (``A`` unless it says ``B``)."""
    config = CaribbeanConfig.from_mapping(dict(table), where="field 'table'")
    name = (script or {}).get("deck_in_play", "A")
    if name not in ("A", "B") or (name == "B" and config.decks != 2):
        raise FeltError(
            'field \'deck_in_play\' must be "A", or "B" at a two-deck table '
            f"({rules().cite('2(b)')}), got {excerpt(name)}"
        )
    return CaribbeanRound(config, deck, deck_name=str(name))


def script_origin(rnd: CaribbeanRound) -> dict[str, Any]:
    """The script fields that replay ``rnd`` exactly."""
    return {"deck_in_play": rnd.deck_name} if rnd.deck_name != "A" else {}


def wager(key: object, raw: object) -> Wagers:
    """A position's wagers, ``{"ante": 10, "progressive": 1}`` (the progressive may be left out)."""
    where = f"field 'wagers'.{key_label(key)}"
    seat = seat_number(key)
    if seat is None or not 1 <= seat <= SEATS_MAX:
        raise FeltError(f"{where}: seat must be a number from 1 to {SEATS_MAX}")
    if not isinstance(raw, dict):
        raise FeltError(f'{where} must be an object such as {{"ante": 10, "progressive": 1}}')
    for k in raw:
        if k not in WAGER_KEYS:
            raise FeltError(f"{where}: unknown key {excerpt(k)} (allowed: {', '.join(WAGER_KEYS)})")
    if "ante" not in raw:
        raise FeltError(f"{where}: give an 'ante' (the progressive wager goes only with one)")
    ante = cents(raw["ante"], f"{where}.ante")
    progressive = cents(raw["progressive"], f"{where}.progressive") if "progressive" in raw else 0
    return Wagers(seat, ante, progressive, player_name(raw.get("player"), f"{where}.player"))


def wager_entry(action: Action) -> tuple[int, dict[str, Any]] | None:
    """The position and script entry of a :class:`Wagers` (None for any other action)."""
    if not isinstance(action, Wagers):
        return None
    entry = action.to_json()
    del entry["action"], entry["seat"]
    return action.seat, entry


def report_dealer(rnd: CaribbeanRound) -> dict[str, Any] | None:
    """The dealer's face-up card once dealt; the whole hand once revealed, and whether it
    qualifies (A-K-4-3-2 or better, 16.1)."""
    if not rnd.dealer_cards or rnd.up_card is None:
        return None
    if not rnd.dealer_revealed:
        return {"up_card": str(rnd.up_card)}
    return {
        "cards": [str(c) for c in rnd.dealer_cards],
        "up_card": str(rnd.up_card),
        "category": hand_name(rnd.dealer_cards),
        "description": describe(rnd.dealer_cards),
        "qualifies": qualifies(rnd.dealer_cards, rules().qualifier),
    }


def report_dealer_text(rnd: CaribbeanRound, symbols: bool) -> list[str]:
    """The dealer's cards (``?? ?? ?? ?? 7h`` until revealed) and their hand."""
    up = rnd.up_card
    if up is None:
        return []
    if not rnd.dealer_revealed:
        shown = format_cards([up], symbols=symbols)
        return [f"dealer     ?? ?? ?? ?? {shown}  (four hole cards face down)"]
    verdict = "qualifies" if qualifies(rnd.dealer_cards, rules().qualifier) else "does not qualify"
    return [
        f"dealer     {format_cards(rnd.dealer_cards, symbols=symbols)}  ->  "
        f"{describe(rnd.dealer_cards)} ({verdict}: A-K-4-3-2 or better)"
    ]


def report_extra(rnd: CaribbeanRound) -> dict[str, Any]:
    """Each position's decision (``bet``, ``fold``), the cuts (16.4(c), (d); empty: not cut), the
    deck in play (16.2(b)) and the meter the settlement used and left (dollars; None: none)."""
    return {
        "decisions": {str(n): rnd.seats[n].decision for n in sorted(rnd.seats)},
        "cut_positions": list(rnd.cut_positions),
        "deck_in_play": rnd.deck_name,
        "meter_used": None if rnd.meter_used is None else dollars(rnd.meter_used),
        "meter_after": None if rnd.meter_after is None else dollars(rnd.meter_after),
    }
