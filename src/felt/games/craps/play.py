"""``felt play craps``: a craps table in the terminal for one person, roll after roll.

The person sits at one seat of the table; the other seats in play (``--seats``) are the
house's, each keeping a pass wager at the table minimum on every come out roll.  Between rolls
the person types commands (``help`` lists them): ``bet place_6 12`` puts chips on a spot,
``odds 30`` takes or lays odds behind their pass or don't pass wager (``odds come_5 10`` behind
a come point), ``down place_6`` takes a wager down (``down place_6 6`` reduces it), ``on`` and
``off`` call a wager on or off, ``decline`` passes the dice, ``layout`` shows every wager on the
table and ``roll`` closes the betting ("no more bets") and throws.  Each roll is printed with the
shooter, the dice, the point, and the settlement lines with their clauses of N.J.A.C. 19:47-1.

A command the table refuses prints the one error the round gives (what was wrong and what is
allowed) and nothing changes.  Every chip on a craps layout is in view of everyone, so the
layout shown is the round's own.  The dice come from the operating system's CSPRNG; ``--seed``
gives repeatable dice for replays and tests only.  Input and output are injected, so the loop is
tested with scripted commands; every line fits in 80 columns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from felt.cli.play import (
    PLAY_OPTIONS,
    Ask,
    Out,
    Quit,
    answer,
    session_options,
    signed,
    statement_text,
    terminal,
)
from felt.core.errors import FeltError
from felt.core.money import cents, dollars
from felt.games.craps.actions import Bet, CallOff, CallOn, PassDice, Roll, TakeDown
from felt.games.craps.config import CrapsConfig, rules
from felt.games.craps.dice import Dice, SeededDice, SystemDice
from felt.games.craps.round import CrapsRound
from felt.games.craps.spots import spot
from felt.games.craps.table import CrapsTable
from felt.games.craps.view import line_reason
from felt.rounds.actions import Action, NoMoreBets

TITLE: Final = "Craps"
PLAYER: Final = "you"
"""The name the person's wagers carry."""
HOUSE_PLAYER: Final = "house"
"""The name the house's seats' wagers carry."""
COMMANDS: Final = (
    ("bet SPOT AMOUNT", "put chips on a spot: bet pass 10, bet place_6 12, bet field 5"),
    ("odds [LINE] AMOUNT", "odds behind your pass or don't pass (odds 30), or a come point "
     "(odds come_5 10)"),
    ("down SPOT [AMOUNT]", "take a wager down, or reduce it by AMOUNT: down place_6"),
    ("on SPOT / off SPOT", "call a wager on or off: on place_6 (works on the come out roll)"),
    ("decline", "as the shooter before a come out roll, pass the dice to the next seat"),
    ("roll", "no more bets: the shooter throws and the roll is settled"),
    ("layout", "every wager on the table, the point and the shooter"),
    ("spots", "the spot names a wager may be put on now"),
    ("help", "this list"),
    ("quit", "leave the table (your wagers stay where they lie)"),
)  # fmt: skip
"""What the person may type between rolls."""
WORDS: Final = ("bet", "odds", "down", "on", "off", "decline", "roll", "layout", "spots", "help",
                 "quit")  # fmt: skip


def play(config: CrapsConfig, options: Mapping[str, Any]) -> CrapsTable:
    """Play rolls until the person quits (or ``rounds`` rolls are thrown); returns the table.

    ``options`` are ``felt play``'s as it gives them (``seat``, ``note``...), or as
    :data:`felt.cli.play.PLAY_OPTIONS` names them, and ``dice``, a
    :class:`~felt.games.craps.dice.Dice` for a test's scripted throws."""
    if "seat" in options or "note" in options:
        own = {k: v for k, v in options.items() if k in ("ask", "say", "dice")}
        note = options.get("note")
        if note is not None and options.get("seed") is not None:
            note(f"seeded with {options['seed']}: for replays and tests only; these dice can be "
                 "predicted")  # fmt: skip
        shared = {k: v for k, v in options.items() if k != "note"}
        options = {**session_options(shared, config.seats), **own}
    t = terminal(options, config.seats, (*PLAY_OPTIONS, "dice"))
    dice: Dice = options.get("dice") or (SeededDice(t.seed) if t.seed is not None else SystemDice())
    table = CrapsTable(config, dice=dice)
    out, human = t.out, t.human
    out(f"{TITLE} under {rules().title}")
    out(f"line, place, buy and lay wagers {dollars(config.minimum)} to "
        f"{dollars(config.maximum)}; hardways and one roll wagers from "
        f"{dollars(config.proposition_minimum)}; odds {config.odds_text}x.")  # fmt: skip
    house = ""
    if t.others:
        word = "seat" if len(t.others) == 1 else "seats"
        house = f"; the house plays {word} {', '.join(map(str, t.others))} (pass at the minimum)"
    out(f"You are seat {human}{house}. Type help for the commands.")
    total = rolled = 0
    try:
        while t.rounds is None or rolled < t.rounds:
            rnd = table.new_round()
            for n in t.others:
                _house_bets(rnd, n)
            _betting(rnd, human, t.ask, out)
            rnd.apply(NoMoreBets())
            rnd.apply(Roll(*table.throw()))
            table.finish(rnd)
            t.saver.add(rnd)
            rolled += 1
            net = sum(line.amount for line in rnd.lines if line.seat == human)
            total += net
            _report(rnd, human, out, total)
    except (Quit, KeyboardInterrupt):
        pass
    out(f"goodbye: {rolled} roll(s), session result {signed(total)}")
    return table


def _house_bets(rnd: CrapsRound, seat: int) -> None:
    """A house seat keeps a pass wager at the table minimum on every come out roll."""
    own = rnd.seats.get(seat)
    if rnd.point is None and not (own is not None and "pass" in own.wagers):
        rnd.apply(Bet(seat, "pass", rnd.config.minimum, HOUSE_PLAYER))


def _betting(rnd: CrapsRound, human: int, ask: Ask, out: Out) -> None:
    """The person's commands until ``roll`` finds a shooter; every refusal printed, nothing
    changed by it."""
    while True:
        come_out = "come out roll" if rnd.point is None else f"point {rnd.point}"
        shooter = rnd.next_shooter()
        who = "no shooter yet" if shooter is None else f"shooter seat {shooter}"
        text = answer(ask, f"roll {rnd.number} ({come_out}, {who}) > ")
        try:
            if _command(rnd, human, text, out):
                return
        except FeltError as err:
            out(f"  {err}")


def _command(rnd: CrapsRound, human: int, text: str, out: Out) -> bool:
    """Carry out one command; True when the roll is to be thrown."""
    words = text.split()
    if not words:
        out("  type a command (help lists them), or roll")
        return False
    word, args = words[0].lower(), words[1:]
    if word in ("help", "?"):
        for command, what in COMMANDS:
            out(f"  {command:<20} {what}")
        return False
    if word == "layout":
        out("\n".join(layout_lines(rnd, human)))
        return False
    if word == "spots":
        allowed = rnd.allowed(human)
        out(f"  bet now on: {', '.join(allowed['bet'])}")
        for key, name in (("take_down", "take down"), ("call_on", "call on"),
                          ("call_off", "call off")):  # fmt: skip
            if allowed[key]:
                out(f"  {name}: {', '.join(allowed[key])}")
        return False
    if word == "roll":
        _arity(word, args, 0, 0)
        waiting = rnd.waiting()
        if waiting is not None:
            raise FeltError(f"no roll yet: {waiting}")
        return True
    action = _action(rnd, human, word, args)
    rnd.apply(action)
    out(f"  {_done(action)}")
    return False


def _arity(word: str, args: list[str], least: int, most: int) -> None:
    """One clear error when a command has too few or too many words."""
    if not least <= len(args) <= most:
        usage = next(c for c, _ in COMMANDS if c.split()[0] == word)
        raise FeltError(f"{word}: usage {usage!r} (help lists the commands)")


def _action(rnd: CrapsRound, human: int, word: str, args: list[str]) -> Action:
    """The action a command names, or one clear error."""
    if word == "bet":
        _arity(word, args, 2, 2)
        return Bet(human, spot(args[0].lower()).id, cents(args[1], "bet amount"), PLAYER)
    if word == "odds":
        _arity(word, args, 1, 2)
        line = args[0].lower() if len(args) == 2 else _line_of(rnd, human)
        target = line if line.endswith("_odds") else f"{line}_odds"
        return Bet(human, spot(target).id, cents(args[-1], "odds amount"), PLAYER)
    if word == "down":
        _arity(word, args, 1, 2)
        amount = cents(args[1], "amount to take down") if len(args) == 2 else None
        return TakeDown(human, spot(args[0].lower()).id, amount)
    if word in ("on", "off"):
        _arity(word if word == "on" else "on", args, 1, 1)
        s = spot(args[0].lower()).id
        return CallOn(human, s) if word == "on" else CallOff(human, s)
    if word == "decline":
        _arity(word, args, 0, 0)
        return PassDice(human)
    raise FeltError(f"unknown command {word!r} (allowed: {', '.join(WORDS)})")


def _line_of(rnd: CrapsRound, human: int) -> str:
    """The line wager ``odds AMOUNT`` lies behind: pass, else don't pass."""
    own = rnd.seats.get(human)
    wagers = own.wagers if own else {}
    for line in ("pass", "dont_pass"):
        if line in wagers:
            return line
    raise FeltError(
        "odds: you have no pass or don't pass wager to lie behind; for a come point name it: "
        "odds come_5 10"
    )


def _done(action: Action) -> str:
    """What a command did, in a few words."""
    if isinstance(action, Bet):
        return f"{spot(action.spot).label}: {dollars(action.amount)} on the layout"
    if isinstance(action, TakeDown):
        part = "all" if action.amount is None else dollars(action.amount)
        return f"{spot(action.spot).label}: {part} taken down"
    if isinstance(action, CallOn | CallOff):
        state = "on" if isinstance(action, CallOn) else "off"
        return f"{spot(action.spot).label}: called {state}"
    return "you pass the dice"


def layout_lines(rnd: CrapsRound, human: int) -> list[str]:
    """The table as every player sees it: the point, the shooter, each seat's wagers, working
    or off."""
    point = "no point (come out roll)" if rnd.point is None else f"the point is {rnd.point}"
    shooter = rnd.next_shooter()
    lines = [f"  {point}; shooter: " + ("none yet" if shooter is None else f"seat {shooter}")]
    for n in sorted(rnd.seats):
        seat = rnd.seats[n]
        if not seat.wagers:
            continue
        who = " (you)" if n == human else ""
        parts = []
        for sid, amount in seat.wagers.items():
            state = "" if rnd.working(n, sid) else " (off)"
            parts.append(f"{spot(sid).label} {dollars(amount)}{state}")
        lines.append(f"  seat {n}{who}: " + "; ".join(parts))
    if len(lines) == 1:
        lines.append("  no wagers on the layout")
    return lines


def _report(rnd: CrapsRound, human: int, out: Out, total: int) -> None:
    """One roll as printed: the dice, what became of the point, the person's statement lines
    with their clauses, the other seats' results."""
    assert rnd.dice is not None
    d1, d2 = rnd.dice
    roll = rnd.rolls[-1]
    before, total_ = roll["point_before"], d1 + d2
    what = ""
    if before is None:
        if rnd.point is not None:
            what = f"the point is {rnd.point}"
        else:
            what = {7: "a natural", 11: "a natural", 2: "craps", 3: "craps",
                    12: "craps"}.get(total_, "")  # fmt: skip
    elif total_ == before:
        what = f"the point {before} is made: next roll is a come out roll"
    elif total_ == 7:
        what = "seven out: the dice pass clockwise"
    out(f"roll {rnd.number}: seat {roll['shooter']} throws {d1} and {d2}: {total_}"
        + (f" ({what})" if what else ""))  # fmt: skip
    mine = [line for line in rnd.lines if line.seat == human]
    if mine:
        reasons = [line_reason(line, before) for line in mine]
        out("\n".join(statement_text(mine, reasons, True)))
    for n in sorted({line.seat for line in rnd.lines} - {human}):
        net = sum(line.amount for line in rnd.lines if line.seat == n)
        out(f"  seat {n}: {signed(net)}")
    own = rnd.seats.get(human)
    if own is not None and own.wagers:
        left = "; ".join(f"{spot(sid).label} {dollars(a)}" for sid, a in own.wagers.items())
        out(f"your wagers on the layout: {left}")
    out(f"your result so far {signed(total)}")
