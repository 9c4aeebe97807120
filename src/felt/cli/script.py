"""Round scripts: a JSON file that fixes a round's deck, wagers and actions, for tests and for
reconstructing a disputed hand; and the report of the round it produces.

A script is ``{"game", "edition", "table", "deck", "wagers", "actions"}``; see README.md.  Dealer
steps need not be written: before each action the dealer does whatever is due first, and after
the last action the dealer finishes the round.  A dealer step never cuts off a player's election:
one still open when the script ends has run out of time, and the runner records a ``timeout``
action for it (so the round's actions replay exactly); in the middle of a script a timeout is
written out where it happens.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.core.errors import MAX_ACTIONS, FeltError, excerpt
from felt.core.money import cents, dollars, dollars_number
from felt.core.tablefile import read_text
from felt.games.boston.actions import PlaceWagers
from felt.games.boston.config import SEATS, TableConfig
from felt.games.boston.editions import GAMES, default_edition
from felt.games.boston.round import Round
from felt.games.double_down import DoubleDownConfig, DoubleDownRound
from felt.games.double_down.actions import PlaceBet
from felt.rounds.actions import Action, DealerAction, action_from_json, player_name
from felt.rounds.round_core import RoundCore

SCRIPT_KEYS = (
    "game", "edition", "table", "deck", "wagers", "actions", "stub_count_due", "new_game", "last_offered",
    "first_to_table", "wager_order",
)  # fmt: skip
ALL_GAMES = (*GAMES, "double-down-stud")


def complete_deck(given: list[Card]) -> tuple[Card, ...]:
    """The given cards on top, then every other card in index order (2c, 2d, ... As)."""
    rest = [c for c in ALL_CARDS if c not in set(given)]
    return (*given, *rest)


def load_script(path: str | Path) -> dict[str, Any]:
    """Read a round script file (or a round's JSON report); errors name the file."""
    return script_of(_load_json(path), f"round script {str(path)!r}")


def load_scripts(path: str | Path) -> list[dict[str, Any]]:
    """Read every round of a file: a script, a report, or a list of them (``felt play --save``)."""
    return scripts_in(_load_json(path), f"round script {str(path)!r}")


def _load_json(path: str | Path) -> Any:
    p = Path(path)
    text = read_text(p, "round script")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise FeltError(f"round script {str(p)!r} is not valid JSON: {err}") from None
    except RecursionError:
        raise FeltError(
            f"round script {str(p)!r} nests lists or objects too deeply for a round script"
        ) from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        raise FeltError(
            f"round script {str(p)!r} holds a number of thousands of digits; numbers in a "
            "script are amounts, seats and positions"
        ) from None
    return data


def run_script(data: Mapping[str, Any]) -> Round | DoubleDownRound:
    """Play the round a script (or a report's script) describes; a malformed field is a
    one-line error naming it."""
    data = script_of(data)
    for key in data:
        if key not in SCRIPT_KEYS:
            raise FeltError(f"unknown field {excerpt(key)} (allowed: {', '.join(SCRIPT_KEYS)})")
    game = data.get("game")
    if game not in ALL_GAMES:
        raise FeltError(f"field 'game' must be one of {', '.join(ALL_GAMES)}, got {excerpt(game)}")
    table = data.get("table", {})
    if not isinstance(table, dict):
        raise FeltError(f"field 'table' must be an object of table settings, got {excerpt(table)}")
    for key in ("game", "edition"):
        if key in table:
            raise FeltError(f"field 'table' must not set {key!r}: give it at the top level")
    deck_raw = data.get("deck", [])
    if not isinstance(deck_raw, list):
        raise FeltError(
            f"field 'deck' must be a list of cards in dealing order, got {excerpt(deck_raw)}"
        )
    if len(deck_raw) > len(ALL_CARDS):
        raise FeltError(
            f"field 'deck' must list at most {len(ALL_CARDS)} cards, got {len(deck_raw):,}"
        )
    try:
        deck = complete_deck(
            list(parse_cards([c if isinstance(c, str) else excerpt(c) for c in deck_raw]))
        )
    except FeltError as err:
        raise FeltError(f"field 'deck': {err}") from None
    rnd = (
        _double_down_round(data, table, deck)
        if game == "double-down-stud"
        else _boston_round(data, table, deck)
    )
    wagers = data.get("wagers")
    if not isinstance(wagers, dict) or not wagers:
        raise FeltError("field 'wagers' must map seat numbers to their wagers")
    make = _bet if isinstance(rnd, DoubleDownRound) else _wager
    order = sorted(wagers, key=lambda k: _number(k) or 0)
    first = data.get("first_to_table")
    placed = data.get("wager_order")
    if placed is not None:
        if first is not None:
            raise FeltError("give 'wager_order' or 'first_to_table', not both")
        if not isinstance(placed, list) or sorted(str(k) for k in placed) != sorted(
            str(k) for k in wagers
        ):
            raise FeltError(
                "field 'wager_order' must list every seat of 'wagers' once, in the order the "
                "wagers were placed"
            )
        order = [str(k) for k in placed]
    elif first is not None:
        if isinstance(first, bool) or not isinstance(first, int) or str(first) not in wagers:
            raise FeltError(
                f"field 'first_to_table' must be a betting area in 'wagers', got {excerpt(first)}"
            )
        order.sort(key=lambda k: str(k) != str(first))  # placed first: the first to arrive
    for key in order:
        wager = make(key, wagers[key])
        try:
            rnd.apply(wager)
        except FeltError as err:
            raise FeltError(f"field 'wagers'.{_key_label(key)}: {err}") from None
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise FeltError(f"field 'actions' must be a list, got {excerpt(actions)}")
    if len(actions) > MAX_ACTIONS:
        raise FeltError(
            f"field 'actions' lists {len(actions):,} actions; a round script may list at most "
            f"{MAX_ACTIONS:,}"
        )
    for i, entry in enumerate(actions):
        where = f"field 'actions'[{i}]"
        action = action_from_json(entry, where)
        try:
            _apply_in_course(rnd, action)
        except FeltError as err:
            raise FeltError(f"{where}: {err}") from None
    finish_round(rnd)
    if not rnd.finished:
        raise FeltError(f"the script ends before the round does (at {rnd.phase})")
    return rnd


def script_of(data: Any, where: str = "round script") -> dict[str, Any]:
    """The script in ``data``: a script itself, or a report (``felt replay --json``) that
    carries its round's script under ``"script"``."""
    if isinstance(data, dict) and "script" in data and "seats" in data:
        data = data["script"]
    if not isinstance(data, dict):
        raise FeltError(f"{where} must be a JSON object with {', '.join(SCRIPT_KEYS)}")
    return data


def scripts_in(data: Any, where: str = "round script") -> list[dict[str, Any]]:
    """Every round in a file: one script or report, or a list of them (``felt play --save``)."""
    if isinstance(data, list):
        if not data:
            raise FeltError(f"{where} is an empty list: it holds no round")
        return [script_of(d, f"{where} [{i}]") for i, d in enumerate(data)]
    return [script_of(data, where)]


def round_script(rnd: Round | DoubleDownRound) -> dict[str, Any]:
    """A script that replays ``rnd`` exactly: the deck as the round began, the table settings,
    what the round carried from the table (``stub_count_due``; the cut rotation), the wagers in
    the order they were placed, and every action after them (dealer steps included)."""
    out: dict[str, Any] = {"game": rnd.config.game}
    table = rnd.config.to_mapping()
    for key in ("game", "edition"):
        table.pop(key, None)
    if isinstance(rnd, Round):
        out["edition"] = rnd.edition_name
    out["table"] = table
    out["deck"] = [str(c) for c in rnd.dealt_from]
    if isinstance(rnd, Round):
        out["stub_count_due"] = rnd.stub_count_due
    else:
        out["new_game"] = rnd.new_game
        if not rnd.new_game:
            out["last_offered"] = rnd.last_offered
    actions = rnd.actions
    lead = 0
    while lead < len(actions) and isinstance(actions[lead], (PlaceWagers, PlaceBet)):
        lead += 1
    wagers: dict[str, Any] = {}
    for a in actions[:lead]:
        entry = a.to_json()
        del entry["action"], entry["seat"]
        if "amount" in entry:
            entry["wager"] = entry.pop("amount")
        wagers[str(a.seat)] = entry  # type: ignore[attr-defined]
    out["wagers"] = wagers
    out["wager_order"] = [int(k) for k in wagers]
    out["actions"] = [a.to_json() for a in actions[lead:]]
    return out


def finish_round(rnd: RoundCore) -> None:
    """The dealer finishes the round; every election still open has run out of time, so a
    ``timeout`` is recorded for it (the deemed choice applies) and the dealer goes on."""
    while not rnd.finished:
        rnd.run_dealer()
        if rnd.finished or not rnd.time_out_pending():
            break


def _boston_round(data: Mapping[str, Any], table: dict[str, Any], deck: tuple[Card, ...]) -> Round:
    for key in ("new_game", "last_offered", "first_to_table"):
        if key in data:
            raise FeltError(f"field {key!r} applies only to double-down-stud")
    game = str(data["game"])
    edition = data.get("edition", default_edition(game))
    config = TableConfig.from_mapping(
        {**table, "game": game, "edition": edition}, where="field 'table'"
    )
    due = data.get("stub_count_due", False)
    if not isinstance(due, bool):
        raise FeltError(f"field 'stub_count_due' must be true or false, got {excerpt(due)}")
    return Round(config, deck, stub_count_due=due)


def _double_down_round(
    data: Mapping[str, Any], table: dict[str, Any], deck: tuple[Card, ...]
) -> DoubleDownRound:
    for key in ("edition", "stub_count_due"):
        if key in data:
            raise FeltError(f"field {key!r} does not apply to double-down-stud")
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
    config = DoubleDownConfig.from_mapping(
        {**table, "game": "double-down-stud"}, where="field 'table'"
    )
    return DoubleDownRound(config, deck, new_game=new_game, last_offered=last)


def _wager(key: object, raw: object) -> PlaceWagers:
    where = f"field 'wagers'.{_key_label(key)}"
    seat = _number(key)
    if seat is None or not 1 <= seat <= SEATS:
        raise FeltError(f"{where}: seat must be a number from 1 to {SEATS}")
    if not isinstance(raw, dict):
        raise FeltError(f'{where} must be an object such as {{"ante": 5, "first": 10}}')
    allowed = ("ante", "first", "bonus", "player")
    for k in raw:
        if k not in allowed:
            raise FeltError(f"{where}: unknown key {excerpt(k)} (allowed: {', '.join(allowed)})")
    for k in ("ante", "first"):
        if k not in raw:
            raise FeltError(f"{where}: missing {k!r}")
    player = player_name(raw.get("player"), f"{where}.player")
    return PlaceWagers(
        seat=seat,
        ante=cents(raw["ante"], f"{where}.ante"),
        first=cents(raw["first"], f"{where}.first"),
        bonus=cents(raw.get("bonus", 0), f"{where}.bonus"),
        player=player,
    )


def _bet(key: object, raw: object) -> PlaceBet:
    where = f"field 'wagers'.{_key_label(key)}"
    area = _number(key)
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


def _key_label(key: object) -> str:
    """A seat key as an error shows it: as written when short and printable, else an excerpt."""
    text = str(key)
    return text if len(text) <= 12 and text.isprintable() else excerpt(text)


def _number(key: object) -> int | None:
    """A seat or betting-area key (``"3"``) as its number; None unless one to three ASCII
    digits (``"²"`` passes ``str.isdigit`` but is no number)."""
    text = str(key)
    if not 1 <= len(text) <= 3 or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def _apply_in_course(rnd: RoundCore, action: Action) -> None:
    """Let the dealer do what is due, then apply ``action`` (its error if still not allowed;
    when the dealer is waiting for an election, the error says whose)."""
    while not rnd.can(action):
        if isinstance(action, rnd.window_actions()):
            break  # the window this action belongs to is open: its refusal is the answer
        step = rnd.next_dealer_action()
        if step is None or (isinstance(action, DealerAction) and type(step) is type(action)):
            break
        rnd.apply(step)
    try:
        rnd.apply(action)
    except FeltError as err:
        pending = rnd.pending()
        if not pending or isinstance(action, rnd.window_actions()):
            raise
        waiting = ", ".join(f"{rnd.seat_label} {s} to {what}" for s, what in pending)
        raise FeltError(
            f"{err}; the dealer is waiting for {waiting} (give the decision, or a "
            '{"dealer": "timeout", "seat": n} where the decision time ran out)'
        ) from None


def report(rnd: Round | DoubleDownRound) -> dict[str, Any]:
    """The round and its settlement as JSON-ready data (dollars as numbers, and cents)."""
    seats: dict[str, Any] = {}
    for number in sorted(rnd.seats):
        seat = rnd.seats[number]
        net = rnd.net(number)
        hand = None
        discarded = getattr(seat, "discarded", None)
        if seat.status == "settled":
            from felt.core.evaluator import evaluate

            value = evaluate(seat.hand_cards())
            hand = {"category": value.category.label, "rank": value.rank,
                    "best_five": [str(c) for c in value.best_five], "description": value.describe()}  # fmt: skip
        seats[str(number)] = {
            "player": seat.player,
            "status": seat.status,
            "cards": [str(c) for c in seat.cards],
            "discarded": [str(c) for c in discarded] if discarded else [],
            "hand": hand,
            "wagers": {k: dollars_number(v) for k, v in seat.placed.items()},
            "lines": [
                {
                    "wager": line.wager,
                    "stake": dollars_number(line.stake),
                    "outcome": line.outcome,
                    "amount": dollars_number(line.amount),
                    "odds": line.odds,
                    "hand": line.hand,
                    "clause": line.clause,
                    "limit_reduction": dollars_number(line.limit_reduction),
                }
                for line in rnd.lines
                if line.seat == number
            ],
            "net": dollars_number(net),
            "net_cents": net,
        }
    dealer: dict[str, Any] | None = None
    if isinstance(rnd, DoubleDownRound) and rnd.hole_revealed:
        dealer = {
            "cards": [str(c) for c in rnd.dealer_cards],
            "hole_card": str(rnd.dealer_cards[0]),
        }
    if rnd.dealer_hand is not None:
        dealer = {
            "cards": [str(c) for c in rnd.dealer_cards],
            "category": rnd.dealer_hand.category.label,
            "rank": rnd.dealer_hand.rank,
            "best_five": [str(c) for c in rnd.dealer_hand.best_five],
            "description": rnd.dealer_hand.describe(),
        }
    cut: dict[str, Any] | None = None
    if isinstance(rnd, DoubleDownRound):
        cut = {  # what the rotation of 17.4(d) needs to continue at the next round
            "new_game": rnd.new_game,
            "last_offered": rnd.last_offered,
            "first_to_table": rnd.first_to_table() if rnd.new_game else None,
            "offered_to": rnd.cut_offers(),
            "next_last_offered": rnd.rotation,
        }
    return {
        "game": rnd.config.game,
        "edition": rnd.edition_name,
        "phase": str(rnd.phase),
        "void_reason": rnd.void_reason or None,
        "deck_removed": getattr(rnd, "deck_removed", False),
        "dealer": dealer,
        "seats": seats,
        "house_net": dollars_number(rnd.house_net()),
        "house_net_cents": rnd.house_net(),
        "settlement_order": [f"seat {line.seat} {line.wager}" for line in rnd.lines],
        "discard_rack": [
            {"what": label, "cards": [str(c) for c in cards]} for label, cards in rnd.rack.bundles
        ],
        "actions": [a.to_json() for a in rnd.actions],
        **({"cut": cut} if cut is not None else {}),
        "script": round_script(rnd),
    }


def report_text(rnd: Round | DoubleDownRound, symbols: bool = True) -> str:
    """A printed account of the round: dealer, each seat's cards and statement, nets, rack."""
    from felt.core.cards import format_cards

    out = [f"{rnd.config.game} under {rnd.title}"]
    if isinstance(rnd, DoubleDownRound) and rnd.dealer_cards:
        shown = (
            format_cards(rnd.dealer_cards, symbols=symbols)
            if rnd.hole_revealed
            else "?? " + format_cards(rnd.dealer_cards[1:], symbols=symbols)
        )
        out.append(f"dealer     {shown}  (hole card first; the four complete every hand)")
    if rnd.dealer_hand is not None:
        out.append(
            f"dealer     {format_cards(rnd.dealer_cards, symbols=symbols)}  ->  "
            f"{rnd.dealer_hand.describe()} ({format_cards(rnd.dealer_hand.best_five, symbols=symbols)})"
        )
    if rnd.void_reason:
        out.append(f"VOID       {rnd.void_reason}")
    for number in sorted(rnd.seats):
        seat = rnd.seats[number]
        cards = format_cards(seat.cards, symbols=symbols)
        discarded = getattr(seat, "discarded", None)
        extra = f" (discarded {format_cards(discarded, symbols=symbols)})" if discarded else ""
        label = "area" if isinstance(rnd, DoubleDownRound) else "seat"
        out.append(f"{label} {number}     {cards}{extra}  [{seat.status}]")
        for line in rnd.lines:
            if line.seat == number:
                out.append("           " + line.describe())
        out.append(f"           net {'+' if rnd.net(number) > 0 else ''}{dollars(rnd.net(number))}")
    out.append(f"house net  {'+' if rnd.house_net() > 0 else ''}{dollars(rnd.house_net())}")
    out.append(f"discard rack, bottom to top ({rnd.rack_clause}):")
    out += ["  " + line for line in rnd.rack.describe()]
    return "\n".join(out)
