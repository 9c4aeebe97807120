"""``felt play``: a table game in the terminal for one person, the part every game shares.

A game's own session (its wagers, decisions and summaries) lives in its folder
(``felt/games/<game>/play.py``) and is reached through :meth:`felt.games.base.TableGame.play`; it
is built from these pieces.  Everything the person is shown must come from their seat's view,
never from the round itself, so another seat's folded cards, the dealer's unrevealed cards and the
stub cannot appear.  A decision accepts only its listed answers (``?`` explains it; anything else
is asked again); every line shown fits in 80 columns.  Input and output are injected, so a session
is tested with scripted answers.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from felt.cli.script import round_script
from felt.core.cards import Card, format_cards
from felt.core.errors import FeltError
from felt.core.money import cents, dollars
from felt.core.paytable import PayTable
from felt.rounds.engine import SettlementLine
from felt.rounds.round_core import RoundCore
from felt.rounds.shuffle import SeededShuffle, Shuffler, SystemShuffle

Ask = Callable[[str], str]
Say = Callable[[str], None]
WIDTH = 80
"""No line the person is shown is wider than this."""


class Quit(Exception):
    """The person ended the session."""


class Out:
    """What the person is shown: every line wrapped to :data:`WIDTH` columns."""

    def __init__(self, say: Say) -> None:
        self.say = say

    def __call__(self, text: str) -> None:
        for line in text.split("\n"):
            indent = " " * (len(line) - len(line.lstrip(" ")))
            wrapped = textwrap.wrap(line, WIDTH, subsequent_indent=indent + "  ") or [""]
            for part in wrapped:
                self.say(part)


def session_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """A game's session arguments from ``felt play``'s ``options`` (seats, seat, seed, rounds,
    save, cite, symbols, note), checked against the ``seats`` betting positions of the table; a
    seeded session is noted, since its cards can be predicted."""
    if not 1 <= options["seats"] <= seats or not 1 <= options["seat"] <= seats:
        raise FeltError(f"--seats and --seat must be 1 to {seats}")
    rounds = options.get("rounds")
    if rounds is not None and rounds < 1:
        raise FeltError(f"--rounds must be 1 or more, got {rounds}")
    seed = options.get("seed")
    note = options.get("note")
    if seed is not None and note is not None:
        note(f"seeded with {seed}: for replays and tests only; these cards can be predicted")
    return {"seats": options["seats"], "human": options["seat"], "seed": seed,
            "symbols": options.get("symbols", True), "rounds": rounds,
            "save": options.get("save"), "cite": options.get("cite", False)}  # fmt: skip


PLAY_OPTIONS = ("seats", "human", "seed", "ask", "say", "symbols", "rounds", "save", "cite")
"""What a game's session takes from ``felt play`` (:func:`session_options`), every one optional,
besides ``ask`` and ``say`` (a test's scripted input and its output)."""


@dataclass
class Terminal:
    """A game's session options read and checked once (:func:`terminal`): who plays where, how
    the person is asked and shown, and the house's other positions."""

    human: int
    """The person's position."""
    others: list[int]
    """The other positions in play, which the house plays."""
    rounds: int | None
    ask: Ask
    out: Out
    symbols: bool
    cite: bool
    seed: int | None
    saver: Saver

    def show(self, cards: Sequence[Card]) -> str:
        """Cards as the session writes them (suits as symbols unless told otherwise)."""
        return format_cards(cards, symbols=self.symbols)


def terminal(
    options: Mapping[str, Any], positions: int, allowed: Sequence[str] = PLAY_OPTIONS
) -> Terminal:
    """A session's options (``allowed`` only) at a table of ``positions`` betting positions, or
    one clear error naming what is wrong."""
    for key in options:
        if key not in allowed:
            raise FeltError(f"unknown play option {key!r} (allowed: {', '.join(allowed)})")
    seats = int(options.get("seats") or 1)
    human = int(options.get("human") or 1)
    rounds: int | None = options.get("rounds")
    check_rounds(rounds)
    if not 1 <= human <= positions:
        raise FeltError(f"seat {human} does not exist (seats are 1 to {positions})")
    if not 1 <= seats <= positions:
        raise FeltError(f"seats in play must be 1 to {positions}, got {seats}")
    others = [n for n in range(1, positions + 1) if n != human][: seats - 1]
    return Terminal(human, others, rounds, options.get("ask") or input,
                    Out(options.get("say") or print), bool(options.get("symbols", True)),
                    bool(options.get("cite", False)), options.get("seed"),
                    Saver(options.get("save")))  # fmt: skip


def check_rounds(rounds: int | None) -> None:
    """A session of ``rounds`` rounds (None: until the person leaves) is one of at least one."""
    if rounds is not None and rounds < 1:
        raise FeltError(f"rounds must be 1 or more, got {rounds}")


def shuffler(seed: int | None) -> Shuffler:
    """The operating system's CSPRNG; a seeded shuffle only for replays and tests (its later
    cards can be predicted)."""
    return SeededShuffle(seed) if seed is not None else SystemShuffle()


def answer(ask: Ask, prompt: str) -> str:
    """The person's answer to ``prompt``, stripped; end of input or ``q`` ends the session."""
    try:
        text = ask(prompt)
    except EOFError:
        raise Quit from None
    if text.strip().lower() in ("q", "quit", "exit"):
        raise Quit
    return text.strip()


def choose(
    ask: Ask, say: Say, question: str, choices: dict[str, str], default: str, explain: list[str]
) -> str:
    """Ask until the answer is one of ``choices`` (a letter or its word), enter for ``default``
    (the house's suggested play) or ``?`` for ``explain``; returns the letter chosen."""
    listed = ", ".join(f"{k} = {w}" for k, w in choices.items())
    prompt = f"{question} ({listed}, ? = help) [{default}]: "
    while True:
        given = answer(ask, prompt).lower()
        if not given:
            return default
        if given == "?":
            say("\n".join(explain))
            continue
        for letter, word in choices.items():
            if given in (letter, word):
                return letter
        say(f"  please answer {' or '.join(choices)} (or ? for help, q to leave)")


def ask_amount(
    ask: Ask,
    say: Say,
    what: str,
    low: int,
    high: int,
    *,
    none_ok: bool = False,
    default: int | None = None,
    tables: Sequence[str] = (),
) -> int:
    """An amount from ``low`` to ``high`` (or 0 when ``none_ok``), asked until it is one.

    Enter takes ``default`` (by default the table minimum, or none when ``none_ok``); ``?``
    says what is allowed and shows ``tables``, the pay tables of the wager (issue 20, item 8)."""
    if default is None:
        default = 0 if none_ok else low
    hint = "0 = none" if none_ok and default == 0 else dollars(default)
    while True:
        text = answer(ask, f"{what} [{hint}]: ") or dollars(default)
        if text == "?":
            say(f"  an amount in dollars from {dollars(low)} to {dollars(high)}"
                + (", or 0 for none" if none_ok else "") + "; enter takes the default")  # fmt: skip
            for line in tables:
                say(line)
            continue
        try:
            amount = cents(text, what)
            if not (low <= amount <= high or (none_ok and amount == 0)):
                raise FeltError(f"{what} must be {dollars(low)} to {dollars(high)}")
            return amount
        except FeltError as err:
            say(f"  {err}")


class LastWager:
    """The amount a wager prompt offers: the table minimum in the first round, then the last
    amount the person placed this session (issue 20, item 8: "the ante default remembers the
    last wager")."""

    def __init__(self, minimum: int) -> None:
        self.amount = minimum

    def placed(self, amount: int) -> int:
        """Remember ``amount`` (a wager of none leaves the last one) and return it."""
        if amount:
            self.amount = amount
        return amount


def payouts(title: str, table: PayTable | Sequence[tuple[str, str]]) -> list[str]:
    """A pay table as help lines: a :class:`PayTable`, or every line of one as (hand, pays)
    where a game's table has lines not paid at odds (Double Down Stud's push, 19:47-17.9(b))."""
    lines = [(hand, str(p)) for hand, p in table.lines] if isinstance(table, PayTable) else table
    return [f"  {title}:"] + [f"    {hand:<29} {pays}" for hand, pays in lines]


def line_text(line: SettlementLine, cite: bool) -> str:
    """One statement line; the rule clause only with ``cite`` (it is always in ``felt replay``)."""
    parts = [f"{line.wager} {dollars(line.stake)}", line.outcome]
    if line.hand:
        parts.append(line.hand)
    if line.odds:
        parts.append(f"at {line.odds}")
    parts.append(f"{'+' if line.amount > 0 else ''}{dollars(line.amount)}")
    if line.limit_reduction:
        parts.append(f"(reduced by {dollars(line.limit_reduction)}: payout limit)")
    text = "    " + "  ".join(parts)
    return f"{text}\n      [{line.clause}]" if cite else text


def statement_text(
    lines: Sequence[SettlementLine], reasons: Sequence[str], cite: bool
) -> list[str]:
    """A seat's statement: each line (:func:`line_text`) with, under it, why it won, pushed or
    lost (the reason its game's view gives)."""
    out = []
    for i, line in enumerate(lines):
        out.append(line_text(line, cite))
        if i < len(reasons) and reasons[i]:
            out.append(f"      {reasons[i]}")
    return out


def signed(amount: int) -> str:
    """An amount in dollars with its sign (``+5.00``, ``-10.00``, ``0.00``)."""
    return f"{'+' if amount > 0 else ''}{dollars(amount)}"


class Saver:
    """``--save FILE``: every finished round's script, rewritten after each round."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = None if path is None else Path(path)
        self.scripts: list[dict[str, Any]] = []
        self._write()  # a file that cannot be written is an error before the first round

    def add(self, rnd: RoundCore) -> None:
        """Keep ``rnd``'s script."""
        if self.path is not None:
            self.scripts.append(round_script(rnd))
            self._write()

    def _write(self) -> None:
        if self.path is None:
            return
        try:
            self.path.write_text(json.dumps(self.scripts, indent=1) + "\n", encoding="utf-8")
        except OSError as err:
            raise FeltError(f"--save: cannot write {str(self.path)!r}: {err.strerror}") from None


def session(
    out: Out, who: str, rounds: int | None, play_round: Callable[[int], tuple[int, str]]
) -> None:
    """Play rounds until the person leaves (``q``, Ctrl-C, end of input) or ``rounds`` are
    played.  ``play_round(balance)`` plays one round for the person (``who``, e.g. ``seat 2``)
    and returns their net result and the round's end as their seat sees it."""
    total = played = 0
    try:
        while rounds is None or played < rounds:
            out(f"--- round {played + 1} | you: {who} | balance {signed(total)}")
            net, summary = play_round(total)
            total += net
            played += 1
            out(summary)
            out(f"your result this round {signed(net)}; balance {signed(total)}")
    except (Quit, KeyboardInterrupt):
        pass
    out(f"goodbye: {played} round(s), session result {signed(total)}")
