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

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from felt.core.cards import ALL_CARDS, CARD_TEXT, Card, parse_cards
from felt.core.errors import MAX_ACTIONS, FeltError, excerpt
from felt.core.money import dollars, dollars_number
from felt.core.readers import read_json
from felt.games.base import Game
from felt.games.registry import game_ids, table_game
from felt.rounds.actions import Action, DealerAction
from felt.rounds.round_core import RoundCore

SHARED_KEYS = ("game", "edition", "table", "deck", "wagers", "actions")
"""The fields every round script may have (``edition`` only for a game of several texts), before
the games' own (:attr:`felt.games.base.TableGame.script_fields`) and ``wager_order``."""


def has_editions(game: Game) -> bool:
    """Whether ``game``'s rule text comes in several editions (one of its games is played under
    more than one), so that a script, a table or ``--edition`` may name one; a game of one text
    refuses an edition where it is written."""
    return any(len(game.editions(game_id)) > 1 for game_id in game.ids)


def script_keys() -> tuple[str, ...]:
    """Every field a round script may have: the shared ones, every game's own, and the order
    the wagers were placed in."""
    keys = list(SHARED_KEYS)
    for game_id in game_ids("table"):
        keys += [k for k in table_game(game_id).script_fields if k not in keys]
    return (*keys, "wager_order")


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
    return read_json(path, "round script", "amounts, seats and positions")


def run_script(data: Mapping[str, Any]) -> RoundCore:
    """Play the round a script (or a report's script) describes; a malformed field is a
    one-line error naming it."""
    data = script_of(data)
    keys = script_keys()
    for key in data:
        if key not in keys:
            raise FeltError(f"unknown field {excerpt(key)} (allowed: {', '.join(keys)})")
    game_id = data.get("game")
    games = game_ids("table")
    if game_id not in games:
        raise FeltError(f"field 'game' must be one of {', '.join(games)}, got {excerpt(game_id)}")
    game = table_game(game_id)
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
    if "edition" in data and not has_editions(game):
        raise FeltError(f"field 'edition' does not apply to {game_id}")
    for key in keys:
        if key in data and key not in (*SHARED_KEYS, "wager_order", *game.script_fields):
            raise FeltError(f"field {key!r} does not apply to {game_id}")
    rnd = game.script_round(game_id, data, table, deck)
    wagers = data.get("wagers")
    carried = getattr(rnd, "seats", None)  # wagers a round carries from its table (craps)
    if not isinstance(wagers, dict) or not (wagers or carried):
        raise FeltError("field 'wagers' must map seat numbers to their wagers")
    order = sorted(wagers, key=lambda k: seat_number(k) or 0)
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
        wager = game.script_wager(key, wagers[key])
        try:
            rnd.apply(wager)
        except FeltError as err:
            raise FeltError(f"field 'wagers'.{key_label(key)}: {err}") from None
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
        action = game.parse_action(entry, where)
        try:
            _apply_in_course(rnd, action)
        except FeltError as err:
            raise FeltError(f"{where}: {err}") from None
    finish_round(rnd)
    if not rnd.finished:
        raise FeltError(f"the script ends before the round does (at {getattr(rnd, 'phase', '')})")
    return rnd


def script_of(data: Any, where: str = "round script") -> dict[str, Any]:
    """The script in ``data``: a script itself, or a report (``felt replay --json``) that
    carries its round's script under ``"script"``."""
    if isinstance(data, dict) and "script" in data and "seats" in data:
        data = data["script"]
    if not isinstance(data, dict):
        raise FeltError(f"{where} must be a JSON object with {', '.join(script_keys())}")
    return data


def scripts_in(data: Any, where: str = "round script") -> list[dict[str, Any]]:
    """Every round in a file: one script or report, or a list of them (``felt play --save``)."""
    if isinstance(data, list):
        if not data:
            raise FeltError(f"{where} is an empty list: it holds no round")
        return [script_of(d, f"{where} [{i}]") for i, d in enumerate(data)]
    return [script_of(data, where)]


def round_script(rnd: RoundCore) -> dict[str, Any]:
    """A script that replays ``rnd`` exactly: the deck as the round began, the table settings,
    what the round carried from the table (the game's own fields), the wagers in the order they
    were placed, and every action after them (dealer steps included)."""
    actions = rnd.actions
    return _script(rnd, actions, [a.to_json() for a in actions], shared=False)


def _script(
    rnd: RoundCore, actions: list[Action], written: list[dict[str, Any]], shared: bool
) -> dict[str, Any]:
    """:func:`round_script` of ``rnd``, whose ``actions`` are already ``written`` as JSON: the
    report writes them once for its own list and the script's (``shared``: the script takes
    copies, so the record holds no object twice)."""
    game_id = rnd.config.game
    game = table_game(game_id)
    out: dict[str, Any] = {"game": game_id}
    if _editioned(game_id):
        out["edition"] = rnd.edition_name
    out["table"] = table_settings(rnd.config)
    out["deck"] = [CARD_TEXT[c] for c in rnd.dealt_from]
    out.update(game.script_origin(rnd))
    wagers: dict[str, Any] = {}
    lead = 0
    for a in actions:
        placed = game.script_wager_entry(a)
        if placed is None:
            break
        seat, entry = placed
        if str(seat) in wagers:  # a seat's further wagers are actions after the first ones
            break
        wagers[str(seat)] = entry
        lead += 1
    out["wagers"] = wagers
    out["wager_order"] = [int(k) for k in wagers]
    out["actions"] = [json_copy(a) for a in written[lead:]] if shared else written[lead:]
    return out


_SETTINGS: dict[int, tuple[object, dict[str, Any]]] = {}
""":func:`table_settings` worked out, by the configuration's ``id`` (with the configuration,
so an ``id`` reused by a later object is never taken for it)."""
_SETTINGS_KEPT: Final = 512
"""Configurations whose settings are kept at most (then forgotten all at once): a server holds
one configuration a table, and a table's configuration rarely changes."""
_EDITIONED: dict[str, bool] = {}
""":func:`has_editions` of each table game, by id (worked out once: the registry is fixed)."""


def _editioned(game_id: str) -> bool:
    """:func:`has_editions` of the table game ``game_id``, worked out once."""
    got = _EDITIONED.get(game_id)
    if got is None:
        got = _EDITIONED[game_id] = has_editions(table_game(game_id))
    return got


def table_settings(config: Any) -> dict[str, Any]:
    """The table settings a round script records: ``config.to_mapping()`` without the game and
    the edition (the script names them at its top level).  Worked out once per configuration
    object (every game's configuration is a frozen dataclass: a changed table setting is a new
    object) and handed out as a fresh copy, so no caller's change reaches a later record."""
    got = _SETTINGS.get(id(config))
    if got is None or got[0] is not config:
        worked: dict[str, Any] = config.to_mapping()
        for key in ("game", "edition"):
            worked.pop(key, None)
        if len(_SETTINGS) >= _SETTINGS_KEPT:
            _SETTINGS.clear()
        got = _SETTINGS[id(config)] = (config, worked)
    table: dict[str, Any] = json_copy(got[1])
    return table


def json_copy(value: Any) -> Any:
    """A copy of JSON-ready data sharing no dict or list with ``value`` (what else is in it, a
    string, a number or a tuple, is immutable)."""
    if type(value) is dict:
        return {k: json_copy(v) if type(v) in _NESTED else v for k, v in value.items()}
    if type(value) is list:
        return [json_copy(v) if type(v) in _NESTED else v for v in value]
    return value


_NESTED: Final = (dict, list)
"""The types of JSON-ready data :func:`json_copy` copies (the rest is immutable)."""


def finish_round(rnd: RoundCore) -> None:
    """The dealer finishes the round; every election still open has run out of time, so a
    ``timeout`` is recorded for it (the deemed choice applies) and the dealer goes on."""
    while not rnd.finished:
        rnd.run_dealer()
        if rnd.finished or not rnd.time_out_pending():
            break


def key_label(key: object) -> str:
    """A seat key as an error shows it: as written when short and printable, else an excerpt."""
    text = str(key)
    return text if len(text) <= 12 and text.isprintable() else excerpt(text)


def seat_number(key: object) -> int | None:
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


def report(rnd: RoundCore) -> dict[str, Any]:
    """The round and its settlement as JSON-ready data (dollars as numbers, and cents)."""
    game = table_game(rnd.config.game)
    played: Any = rnd  # every game's round has seats, a phase and the dealer's cards and hand
    actions = rnd.actions
    written = [a.to_json() for a in actions]  # the report's list; the script's are copies
    seats: dict[str, Any] = {}
    for number in sorted(played.seats):
        seat = played.seats[number]
        net = rnd.net(number)
        hand = None
        discarded = getattr(seat, "discarded", None)
        if seat.status == "settled":
            hand = game.report_hand(rnd, number)
        seats[str(number)] = {
            "player": seat.player,
            "status": seat.status,
            "cards": [CARD_TEXT[c] for c in seat.cards],
            "discarded": [CARD_TEXT[c] for c in discarded] if discarded else [],
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
    dealer = game.report_dealer(rnd)
    if getattr(played, "dealer_hand", None) is not None:
        dealer = {
            "cards": [CARD_TEXT[c] for c in played.dealer_cards],
            "category": played.dealer_hand.category.label,
            "rank": played.dealer_hand.rank,
            "best_five": [CARD_TEXT[c] for c in played.dealer_hand.best_five],
            "description": played.dealer_hand.describe(),
        }
    return {
        "game": rnd.config.game,
        "edition": rnd.edition_name,
        "phase": str(played.phase),
        "void_reason": rnd.void_reason or None,
        "deck_removed": getattr(rnd, "deck_removed", False),
        "dealer": dealer,
        "seats": seats,
        "house_net": dollars_number(rnd.house_net()),
        "house_net_cents": rnd.house_net(),
        "settlement_order": [f"seat {line.seat} {line.wager}" for line in rnd.lines],
        "discard_rack": [
            {"what": label, "cards": [CARD_TEXT[c] for c in cards]}
            for label, cards in rnd.rack.bundles
        ],
        "actions": written,
        **game.report_extra(rnd),
        "script": _script(rnd, actions, written, shared=True),
    }


def report_text(rnd: RoundCore, symbols: bool = True) -> str:
    """A printed account of the round: dealer, each seat's cards and statement, nets, rack."""
    from felt.core.cards import format_cards

    played: Any = rnd  # every game's round has seats and the dealer's cards and hand
    out = [f"{rnd.config.game} under {rnd.title}"]
    out += table_game(rnd.config.game).report_dealer_text(rnd, symbols)
    if getattr(played, "dealer_hand", None) is not None:
        out.append(
            f"dealer     {format_cards(played.dealer_cards, symbols=symbols)}  ->  "
            f"{played.dealer_hand.describe()} ({format_cards(played.dealer_hand.best_five, symbols=symbols)})"
        )
    if rnd.void_reason:
        out.append(f"VOID       {rnd.void_reason}")
    for number in sorted(played.seats):
        seat = played.seats[number]
        discarded = getattr(seat, "discarded", None)
        kept = [c for c in seat.cards if not discarded or c not in discarded]
        cards = format_cards(kept, symbols=symbols)
        extra = f"  discarded: {format_cards(discarded, symbols=symbols)}" if discarded else ""
        out.append(f"{rnd.seat_label} {number}     {cards}{extra}  [{seat.status}]")
        said = [x["reason"] for x in table_game(rnd.config.game).seat_view(rnd, number)["lines"]]
        for line, why in zip([x for x in rnd.lines if x.seat == number], said, strict=False):
            out.append("           " + line.describe())
            if why:  # why it won, pushed or lost, in the words of the seat's own view
                out.append("             " + why)
        out.append(f"           net {'+' if rnd.net(number) > 0 else ''}{dollars(rnd.net(number))}")
    out.append(f"house net  {'+' if rnd.house_net() > 0 else ''}{dollars(rnd.house_net())}")
    if rnd.uses_cards:  # a dice game has no discard rack
        out.append(f"discard rack, bottom to top ({rnd.rack_clause}):")
        out += ["  " + line for line in rnd.rack.describe()]
    return "\n".join(out)
