"""``felt play poker``: a poker table in the terminal for one person against simple bots.

The person sits at one seat (``--seat``); the other seats in play (``--seats``, at least one
other: poker is played against other players) are bots (:func:`.simulation.bot_action`, deciding
from their own cards only).  Each seat buys in for the table's maximum and buys back in to it
between hands when its chips fall below the minimum buy-in.  Hand after hand the dealer's steps
run by themselves; on the person's turn the line shows the pot, the board, their cards and what
they may do, and they type ``fold``, ``check``, ``call``, ``bet AMOUNT``, ``raise AMOUNT`` (a
raise to that total this round), ``allin``, in stud ``bring`` (the bring-in) or ``complete``;
``table`` shows every seat as the person may see it, ``help`` the commands, ``quit`` leaves: a
hand in play is then folded at the person's turn, as 14.15(j)4 treats a player who leaves.

Everything shown comes from the person's seat view (:func:`.view.seat_view`): their own cards,
the others' up cards (stud), the board, and at the showdown only the hands still in; never a
folded hand or another player's hole card before it.  A command the hand refuses prints the one
error it gives (what is allowed) and nothing changes.  Decks come from the operating system's
CSPRNG; ``seed`` gives repeatable ones for replays and tests only.  ``save`` writes each hand as
JSON (the table, the stacks, the button, the deck and every action) that
:meth:`.hand.PokerHand.replay` replays exactly.  Every line fits in 80 columns.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from felt.cli.play import PLAY_OPTIONS, Out, Quit, Terminal, answer, session_options, signed
from felt.cli.play import shuffler as new_shuffler
from felt.cli.play import terminal as read_terminal
from felt.core.cards import new_deck
from felt.core.errors import FeltError
from felt.core.money import cents, dollars
from felt.games.poker.analysis import par_sheet
from felt.games.poker.config import PokerConfig
from felt.games.poker.engine import pk_card
from felt.games.poker.guide import game_name
from felt.games.poker.hand import (
    AllIn,
    Bet,
    BringIn,
    Call,
    Check,
    DealBoard,
    Fold,
    LeaveWithoutComment,
    PlayerAction,
    PokerHand,
    RaiseTo,
)
from felt.games.poker.simulation import bot_action, completion, dealer_step, play_hand
from felt.games.poker.table import PokerTable
from felt.games.poker.view import SeatView, seat_view
from felt.rounds.actions import Action

COMMANDS: Final = (
    ("fold", "give up the hand and what you put in"),
    ("check", "stay in without betting (nothing to call)"),
    ("call", "match the wager to call"),
    ("bet AMOUNT", "the first wager of a round: bet 2"),
    ("raise AMOUNT", "raise to AMOUNT in all this round: raise 8"),
    ("allin", "every chip you have in"),
    ("bring / complete", "stud, the low card: bring it in, or complete to the small bet"),
    ("table", "every seat as you may see it: stacks, bets, up cards"),
    ("help", "this list"),
    ("quit", "leave the table (a hand in play is folded, 14.15(j)4)"),
)
"""What the person may type on their turn."""
WORDS: Final = ("fold", "check", "call", "bet", "raise", "allin", "bring", "complete", "table",
                "help", "quit")  # fmt: skip


def play(config: PokerConfig, options: Mapping[str, Any]) -> PokerTable:
    """Play hands until the person quits (or ``rounds`` hands are played); returns the table.

    ``options`` are ``felt play``'s as it gives them (``seat``, ``note``...), or as
    :data:`felt.cli.play.PLAY_OPTIONS` names them."""
    if "seat" in options or "note" in options:
        own = {k: v for k, v in options.items() if k in ("ask", "say")}
        shared = {k: v for k, v in options.items() if k not in ("ask", "say")}
        options = {**session_options(shared, config.seats), **own}
    t = read_terminal(options, config.seats, PLAY_OPTIONS)
    if not t.others:  # poker is played against others: one bot at least
        t.others = [next(n for n in range(1, config.seats + 1) if n != t.human)]
    shuffle = new_shuffler(t.seed)
    rng = random.Random(f"poker-bots:{t.seed}") if t.seed is not None else random.SystemRandom()
    table = PokerTable(config)
    saved: list[dict[str, Any]] = []
    save_path = None if options.get("save") is None else Path(options["save"])
    _write(save_path, saved)
    out, human = t.out, t.human
    out(f"{game_name(config)} under N.J.A.C. 19:47-14 (the poker room)")
    out(f"posted: {config.limits_text()}; {_forced_text(config)}; rake: "
        f"{par_sheet(config).rake_words()}")  # fmt: skip
    word = "seat" if len(t.others) == 1 else "seats"
    out(f"You are seat {human}; bots play {word} {', '.join(map(str, t.others))}. Each buys in "
        f"for {dollars(config.max_buy_in)}. Type help for the commands.")  # fmt: skip
    bought = 0
    played = 0
    try:
        while t.rounds is None or played < t.rounds:
            bought += _buy_ins(table, [human, *t.others], human, out)
            hand = table.new_hand(shuffle.shuffle(new_deck()))
            you = hand.start[human]
            out(f"--- hand {table.hands_played + 1} | button seat {hand.button} | your stack "
                f"{dollars(you)}")  # fmt: skip
            try:
                _play_hand(hand, t, rng)
            finally:
                if hand.status == "playing":  # the person left mid-hand: 14.15(j)4
                    _leave(hand, human, rng, out)
                table.finish(hand)
                saved.append(_hand_json(hand))
                _write(save_path, saved)
                played += 1
                _report(hand, human, t)
    except (Quit, KeyboardInterrupt):
        pass
    total = table.stacks.get(human, 0) - bought
    out(f"goodbye: {played} hand(s), session result {signed(total)}")
    return table


def _forced_text(c: PokerConfig) -> str:
    """The forced bets in a few words."""
    if c.blinds:
        text = f"blinds {dollars(c.small_blind)}/{dollars(c.big_blind)}"
    else:
        text = f"bring-in {dollars(c.bring_in)}"
    if c.ante:
        text += f", ante {dollars(c.ante)}"
    if c.limit == "fixed":
        text += f"; a bet and {c.max_raises} raises a round"
    return text


def _buy_ins(table: PokerTable, seats: list[int], human: int, out: Out) -> int:
    """Each seat below the minimum buy-in buys back in to the maximum; the person's buy-ins
    (cents), each said."""
    c = table.config
    mine = 0
    for seat in seats:
        stack = table.stacks.get(seat, 0)
        if stack < c.min_buy_in:
            table.buy_in(seat, c.max_buy_in - stack)
            if seat == human:
                mine += c.max_buy_in - stack
                out(f"you buy in for {dollars(c.max_buy_in - stack)}")
    return mine


def _play_hand(hand: PokerHand, t: Terminal, rng: random.Random) -> None:
    """The hand to its end: the dealer's steps, the bots' and the person's turns, each shown."""
    human, out = t.human, t.out
    shown_cards = 0
    while hand.status == "playing":
        step = dealer_step(hand)
        if step is not None:
            hand.do(step)
            if isinstance(step, DealBoard):
                out(f"  board: {t.show(hand.board())}")
            continue
        seat = hand.to_act()
        if seat is None:
            raise FeltError(f"the hand stopped (allowed: {'; '.join(hand.allowed())})")
        if seat != human:
            out("  " + hand.do(bot_action(hand, seat, rng)).text)
            continue
        view = seat_view(hand, human)
        if len(view.cards) != shown_cards:
            shown_cards = len(view.cards)
            out(f"  your cards: {t.show(view.cards)}")
        _turn(hand, view, t)


def _turn(hand: PokerHand, view: SeatView, t: Terminal) -> None:
    """The person's turn: the position in a line, then commands until one is done."""
    out = t.out
    board = f"board {t.show(view.board)}; " if view.board else ""
    out(f"  pot {dollars(view.pot)}; {board}your stack {dollars(view.stack)}, bet "
        f"{dollars(view.bet)}")  # fmt: skip
    ups = [f"seat {o.seat} {t.show(o.up)}" for o in view.others if o.in_hand and o.up]
    if ups:
        out(f"  showing: {'; '.join(ups)}")
    choices = [_word(w.split(": ", 1)[-1]) for w in view.legal]
    choices = [c for c in choices if c != "discard"]
    while True:
        text = answer(t.ask, f"your turn ({', '.join(choices)}) > ")
        try:
            action = _command(hand, view, text, t)
        except FeltError as err:
            out(f"  {err}")
            continue
        if action is None:
            continue
        out("  " + hand.do(action).text)
        return


SAY: Final = {"raise_to": "raise", "all_in": "allin", "bring_in": "bring"}
"""The hand's words for its actions as the person types them."""


def _word(legal: str) -> str:
    """A legal action in the words the person types: ``raise_to 4.00`` is ``raise 4.00``."""
    first, _, rest = legal.partition(" ")
    return " ".join(x for x in (SAY.get(first, first), rest) if x)


def _command(hand: PokerHand, view: SeatView, text: str, t: Terminal) -> Action | None:
    """The action a command names (verified), None for a command that only shows something, or
    one clear error."""
    words = text.lower().split()
    seat = view.seat
    if not words:
        raise FeltError("type a command (help lists them)")
    word, args = words[0], words[1:]
    if word in ("help", "?"):
        for command, what in COMMANDS:
            t.out(f"  {command:<17} {what}")
        return None
    if word == "table":
        t.out("\n".join(table_lines(view, t)))
        return None
    amount_words = {"bet": "bet amount", "raise": "raise to"}
    if word in amount_words:
        if len(args) != 1:
            raise FeltError(f"{word}: usage '{word} AMOUNT' (help lists the commands)")
        amount = cents(args[0], amount_words[word])
        action: Action = Bet(seat, amount) if word == "bet" else RaiseTo(seat, amount)
    elif args:
        raise FeltError(f"{word}: takes no amount (help lists the commands)")
    elif word == "complete":
        action = completion(hand, seat)
    else:
        simple: dict[str, PlayerAction] = {"fold": Fold(seat), "check": Check(seat),
                                           "call": Call(seat), "allin": AllIn(seat),
                                           "bring": BringIn(seat)}  # fmt: skip
        if word not in simple:
            raise FeltError(f"unknown command {word!r} (allowed: {', '.join(WORDS)})")
        action = simple[word]
    hand.verify(action)
    return action


def table_lines(view: SeatView, t: Terminal) -> list[str]:
    """Every seat as the person may see it: stack, bet, up cards and face-down count."""
    lines = [f"  pot {dollars(view.pot)}" + (f"; board {t.show(view.board)}" if view.board else "")]
    lines.append(f"  seat {view.seat} (you): {t.show(view.cards)}; stack {dollars(view.stack)}, "
                 f"bet {dollars(view.bet)}")  # fmt: skip
    for o in view.others:
        if not o.in_hand:
            lines.append(f"  seat {o.seat}: folded; stack {dollars(o.stack)}")
            continue
        up = f"up {t.show(o.up)}, " if o.up else ""
        lines.append(f"  seat {o.seat}: {up}{o.down} down; stack {dollars(o.stack)}, bet "
                     f"{dollars(o.bet)}")  # fmt: skip
    return lines


def _leave(hand: PokerHand, human: int, rng: random.Random, out: Out) -> None:
    """The person left mid-hand: their hand is folded at their turn (14.15(j)4; a bring-in due
    from them is posted first, as 14.15(k)2 keeps a forced wager owed) and the bots play it
    out."""
    if hand.to_act() == human and hand.can(BringIn(human)):  # a forced wager stays owed, (k)2
        out("  " + hand.do(BringIn(human)).text)
    if hand.in_hand(human) and hand.can(LeaveWithoutComment(human)):
        out("  " + hand.do(LeaveWithoutComment(human)).text)
    play_hand(hand, lambda h, seat: Fold(seat) if seat == human else bot_action(h, seat, rng))


def _hand_label(hand: PokerHand, cards: tuple[Any, ...]) -> str:
    """The best hand of ``cards`` with the board, named (PokerKit's evaluation, felt's cards)."""
    hand_type = hand.state.hand_types[0]
    try:
        best = hand_type.from_game([pk_card(c) for c in cards], [pk_card(c) for c in hand.board()])
    except ValueError:
        return ""
    return str(best.entry.label).lower()


def _report(hand: PokerHand, human: int, t: Terminal) -> None:
    """The hand's end as the person's seat sees it: the hands shown, the award, their result."""
    out = t.out
    view = seat_view(hand, human)
    if hand.status == "dead":
        out("  the round is dead: every chip returned")
    for o in view.others:
        if o.shown:
            out(f"  seat {o.seat} shows {t.show(o.shown)} ({_hand_label(hand, o.shown)})")
    if view.cards and any(o.shown for o in view.others):
        out(f"  you show {t.show(view.cards)} ({_hand_label(hand, view.cards)})")
    award = hand.events[-1].text if hand.events else ""
    out(f"  {award}")
    assert hand.final is not None
    net = hand.final[human] - hand.start[human]
    out(f"your result this hand {signed(net)}; stack {dollars(hand.final[human])}")


def _hand_json(hand: PokerHand) -> dict[str, Any]:
    """One hand as ``save`` writes it: what :meth:`PokerHand.replay` needs."""
    return {
        "game": "poker",
        "table": hand.config.to_mapping(),
        "stacks": {str(s): dollars(v) for s, v in hand.start.items()},
        "button": hand.button,
        "deck": [str(c) for c in hand.first_deck],
        "actions": [a.to_json() for a in hand.actions],
    }


def _write(path: Path | None, hands: list[dict[str, Any]]) -> None:
    """``save``: every finished hand so far, rewritten after each hand."""
    if path is None:
        return
    try:
        path.write_text(json.dumps(hands, indent=1) + "\n", encoding="utf-8")
    except OSError as err:
        raise FeltError(f"--save: cannot write {str(path)!r}: {err.strerror}") from None
