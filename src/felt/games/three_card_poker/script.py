"""Round scripts and reports of Three Card Poker (:mod:`felt.cli.script` reads the shared fields
and prints the shared report): each position's wagers (an ante, a pair plus wager or both,
20.6), the round a script begins, and the report's three-card hands, the dealer's hand with
whether it qualifies, and each position's decision."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from felt.cli.script import key_label, seat_number
from felt.core.cards import Card, format_cards
from felt.core.errors import FeltError, excerpt
from felt.core.money import cents
from felt.games.three_card_poker.actions import Wagers
from felt.games.three_card_poker.config import SEATS_MAX, ThreeCardConfig, rules
from felt.games.three_card_poker.hand import describe, hand_name, qualifies
from felt.games.three_card_poker.round import ThreeCardRound
from felt.rounds.actions import Action, player_name

WAGER_KEYS = ("ante", "pair_plus", "player")
"""What a script's ``wagers`` entry for one position may hold."""


def script_round(table: Mapping[str, Any], deck: tuple[Card, ...]) -> ThreeCardRound:
    """The round a script begins: a table of the ``table`` settings on ``deck`` (nothing else
    carries from one round to the next at this game)."""
    config = ThreeCardConfig.from_mapping(dict(table), where="field 'table'")
    return ThreeCardRound(config, deck)


def wager(key: object, raw: object) -> Wagers:
    """A position's wagers, ``{"ante": 10, "pair_plus": 5}`` (either may be left out)."""
    where = f"field 'wagers'.{key_label(key)}"
    seat = seat_number(key)
    if seat is None or not 1 <= seat <= SEATS_MAX:
        raise FeltError(f"{where}: seat must be a number from 1 to {SEATS_MAX}")
    if not isinstance(raw, dict):
        raise FeltError(f'{where} must be an object such as {{"ante": 10, "pair_plus": 5}}')
    for k in raw:
        if k not in WAGER_KEYS:
            raise FeltError(f"{where}: unknown key {excerpt(k)} (allowed: {', '.join(WAGER_KEYS)})")
    if "ante" not in raw and "pair_plus" not in raw:
        raise FeltError(f"{where}: give an 'ante', a 'pair_plus' or both")
    ante = cents(raw["ante"], f"{where}.ante") if "ante" in raw else 0
    pair_plus = cents(raw["pair_plus"], f"{where}.pair_plus") if "pair_plus" in raw else 0
    return Wagers(seat, ante, pair_plus, player_name(raw.get("player"), f"{where}.player"))


def wager_entry(action: Action) -> tuple[int, dict[str, Any]] | None:
    """The position and script entry of a :class:`Wagers` (None for any other action)."""
    if not isinstance(action, Wagers):
        return None
    entry = action.to_json()
    del entry["action"], entry["seat"]
    return action.seat, entry


def hand_json(cards: Sequence[Card]) -> dict[str, Any]:
    """A three-card hand: its name (as the pay tables write it) and its description."""
    return {"category": hand_name(cards), "description": describe(cards)}


def report_dealer(rnd: ThreeCardRound) -> dict[str, Any] | None:
    """The dealer's hand once turned over, and whether it qualifies (queen high or better)."""
    if not rnd.dealer_revealed:
        return None
    return {
        "cards": [str(c) for c in rnd.dealer_cards],
        **hand_json(rnd.dealer_cards),
        "qualifies": qualifies(rnd.dealer_cards, rules().qualifier),
    }


def report_dealer_text(rnd: ThreeCardRound, symbols: bool) -> list[str]:
    """The dealer's three cards (``?? ?? ??`` until turned over) and their hand."""
    if not rnd.dealer_cards:
        return []
    if not rnd.dealer_revealed:
        return ["dealer     " + " ".join("??" for _ in rnd.dealer_cards) + "  (face down)"]
    verdict = "qualifies" if qualifies(rnd.dealer_cards, rules().qualifier) else "does not qualify"
    return [
        f"dealer     {format_cards(rnd.dealer_cards, symbols=symbols)}  ->  "
        f"{describe(rnd.dealer_cards)} ({verdict}: queen high or better)"
    ]


def report_hand(rnd: ThreeCardRound, seat: int) -> dict[str, Any]:
    """A settled position's three-card hand."""
    return hand_json(rnd.seats[seat].cards)


def report_extra(rnd: ThreeCardRound) -> dict[str, Any]:
    """Each position's decision (``play``, ``fold``; None with a pair plus wager only) and where
    the dealer cut (20.5; None: not cut)."""
    return {
        "decisions": {str(n): rnd.seats[n].decision for n in sorted(rnd.seats)},
        "cut_position": rnd.cut_position,
    }
