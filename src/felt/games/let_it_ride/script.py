"""Round scripts and reports of Let It Ride Poker (:mod:`felt.cli.script` reads the shared fields
and prints the shared report): each position's wagers (the amount of each of the three equal
wagers, with the bonus wagers, 18.6, 18.6A, 18.6B), the round a script begins (the deck in play,
18.2(b)), and the report's community cards, each position's decisions and the cuts.  The burned
card is in the record (the deck and the discard rack) but never among the community cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from felt.cli.script import key_label, seat_number
from felt.core.cards import Card, format_cards
from felt.core.errors import FeltError, excerpt
from felt.core.money import cents
from felt.games.let_it_ride.actions import Wagers
from felt.games.let_it_ride.config import SEATS_MAX, LetItRideConfig, rules
from felt.games.let_it_ride.hand import describe
from felt.games.let_it_ride.round import LetItRideRound
from felt.rounds.actions import Action, player_name

WAGER_KEYS = ("amount", "bonus", "three_card_bonus", "player")
"""What a script's ``wagers`` entry for one position may hold."""
SCRIPT_FIELDS = ("deck_in_play",)
"""The script fields of this game: which of a two-deck table's decks the round used (18.2(b))."""


def script_round(
    table: Mapping[str, Any], deck: tuple[Card, ...], script: Mapping[str, Any] | None = None
) -> LetItRideRound:
    """The round a script begins: a table of the ``table`` settings on ``deck``, with the deck in
    play the script names (``A`` unless it says ``B``)."""
    config = LetItRideConfig.from_mapping(dict(table), where="field 'table'")
    name = (script or {}).get("deck_in_play", "A")
    if name not in ("A", "B") or (name == "B" and config.decks != 2):
        raise FeltError(
            'field \'deck_in_play\' must be "A", or "B" at a two-deck table '
            f"({rules().cite('2(b)')}), got {excerpt(name)}"
        )
    return LetItRideRound(config, deck, deck_name=str(name))


def script_origin(rnd: LetItRideRound) -> dict[str, Any]:
    """The script fields that replay ``rnd`` exactly."""
    return {"deck_in_play": rnd.deck_name} if rnd.deck_name != "A" else {}


def wager(key: object, raw: object) -> Wagers:
    """A position's wagers, ``{"amount": 10, "bonus": 1, "three_card_bonus": 5}``: three equal
    wagers of ``amount`` each, the bonus wagers optional."""
    where = f"field 'wagers'.{key_label(key)}"
    seat = seat_number(key)
    if seat is None or not 1 <= seat <= SEATS_MAX:
        raise FeltError(f"{where}: seat must be a number from 1 to {SEATS_MAX}")
    if not isinstance(raw, dict):
        raise FeltError(f'{where} must be an object such as {{"amount": 10, "bonus": 1}}')
    for k in raw:
        if k not in WAGER_KEYS:
            raise FeltError(f"{where}: unknown key {excerpt(k)} (allowed: {', '.join(WAGER_KEYS)})")
    if "amount" not in raw:
        raise FeltError(
            f"{where}: give an 'amount' (each of the three equal wagers; the bonus wagers go "
            "only with them)"
        )
    amount = cents(raw["amount"], f"{where}.amount")
    bonus = cents(raw["bonus"], f"{where}.bonus") if "bonus" in raw else 0
    three = (
        cents(raw["three_card_bonus"], f"{where}.three_card_bonus")
        if "three_card_bonus" in raw
        else 0
    )
    return Wagers(seat, amount, bonus, three, player_name(raw.get("player"), f"{where}.player"))


def wager_entry(action: Action) -> tuple[int, dict[str, Any]] | None:
    """The position and script entry of a :class:`Wagers` (None for any other action)."""
    if not isinstance(action, Wagers):
        return None
    entry = action.to_json()
    del entry["action"], entry["seat"]
    return action.seat, entry


def report_dealer(rnd: LetItRideRound) -> dict[str, Any] | None:
    """The community cards face up and how many lie on the layout, once dealt (the burned card
    is not among them)."""
    if not rnd.community:
        return None
    up = rnd.community_up
    out: dict[str, Any] = {"community": [str(c) for c in up], "community_count": len(rnd.community)}
    return out


def report_dealer_text(rnd: LetItRideRound, symbols: bool) -> list[str]:
    """The community cards (``?? ??`` until turned)."""
    if not rnd.community:
        return []
    up = rnd.community_up
    shown = " ".join([format_cards(up, symbols=symbols)] * bool(up) + ["??"] * (2 - len(up)))
    return [f"community  {shown}  (the community area's first card burned unseen)"]


def report_hand(rnd: LetItRideRound, seat: int) -> dict[str, Any]:
    """A settled position's hand: its three cards and the two community cards (18.1 "Hand")."""
    from felt.core.evaluator import evaluate

    value = evaluate(rnd.hand_of(rnd.seats[seat]))
    return {"category": value.category.label, "rank": value.rank,
            "best_five": [str(c) for c in value.best_five],
            "description": describe(value.best_five)}  # fmt: skip


def report_extra(rnd: LetItRideRound) -> dict[str, Any]:
    """Each position's decisions on wagers 1 and 2 (``let it ride``, ``take back``), the cuts
    (18.5; empty: not cut) and the deck in play (18.2(b))."""
    return {
        "decisions": {str(n): dict(rnd.seats[n].decisions) for n in sorted(rnd.seats)},
        "cut_positions": list(rnd.cut_positions),
        "deck_in_play": rnd.deck_name,
    }
