"""``felt play``: a Boston 5, Boston 7 or Double Down Stud table in the terminal for one person.

Other seats, if any, are played by the house's suggested strategy (:mod:`felt.games.boston.strategy`,
:func:`~felt.games.double_down.suggest_double`).  Everything the person is shown is built from
their seat's view (:func:`~felt.games.boston.view.seat_view`,
:func:`~felt.games.double_down.view.area_view`), never from the round itself, so another seat's
folded cards, the dealer's unrevealed cards and the stub cannot appear.  A decision accepts only
its listed answers (``?`` explains it; anything else is asked again); every line shown fits in 80
columns.  Input and output are injected, so the loop is tested with scripted answers.
"""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from felt.cli.script import round_script
from felt.core.cards import RANK_CHARS, Card, format_cards, parse_cards
from felt.core.errors import FeltError
from felt.core.evaluator import evaluate, evaluate_three
from felt.core.money import cents, dollars
from felt.core.paytable import PayTable
from felt.games.boston.actions import Decline, Discard, Expose, Fold, Keep, PlaceWagers, Second
from felt.games.boston.config import TableConfig
from felt.games.boston.round import Round
from felt.games.boston.strategy import suggest_discard, suggest_expose, suggest_second
from felt.games.boston.table import Table
from felt.games.boston.view import View, seat_view
from felt.games.double_down import (
    DoubleDownConfig,
    DoubleDownRound,
    DoubleDownTable,
    double_expectation,
    rules,
    suggest_double,
)
from felt.games.double_down.actions import (
    DealerCut,
    DeclineCut,
    DoubleDown,
    PlaceBet,
    PlayerCut,
    Stand,
)
from felt.games.double_down.view import AreaView, area_view
from felt.rounds.engine import SettlementLine
from felt.rounds.shuffle import SeededShuffle, Shuffler, SystemShuffle

Ask = Callable[[str], str]
Say = Callable[[str], None]
WIDTH = 80
"""No line the person is shown is wider than this."""


class Quit(Exception):
    """The person ended the session."""


class _Out:
    """What the person is shown: every line wrapped to :data:`WIDTH` columns."""

    def __init__(self, say: Say) -> None:
        self.say = say

    def __call__(self, text: str) -> None:
        for line in text.split("\n"):
            indent = " " * (len(line) - len(line.lstrip(" ")))
            wrapped = textwrap.wrap(line, WIDTH, subsequent_indent=indent + "  ") or [""]
            for part in wrapped:
                self.say(part)


def _ask(ask: Ask, prompt: str) -> str:
    try:
        answer = ask(prompt)
    except EOFError:
        raise Quit from None
    if answer.strip().lower() in ("q", "quit", "exit"):
        raise Quit
    return answer.strip()


def _choose(
    ask: Ask, say: Say, question: str, choices: dict[str, str], default: str, explain: list[str]
) -> str:
    """Ask until the answer is one of ``choices`` (a letter or its word), enter for ``default``
    (the house's suggested play) or ``?`` for ``explain``; returns the letter chosen."""
    listed = ", ".join(f"{k} = {w}" for k, w in choices.items())
    prompt = f"{question} ({listed}, ? = help) [{default}]: "
    while True:
        answer = _ask(ask, prompt).lower()
        if not answer:
            return default
        if answer == "?":
            say("\n".join(explain))
            continue
        for letter, word in choices.items():
            if answer in (letter, word):
                return letter
        say(f"  please answer {' or '.join(choices)} (or ? for help, q to leave)")


def _payouts(title: str, table: PayTable) -> list[str]:
    return [f"  {title}:"] + [f"    {hand:<30}{payout}" for hand, payout in table.lines]


def _line_text(line: SettlementLine, cite: bool) -> str:
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


def _signed(amount: int) -> str:
    return f"{'+' if amount > 0 else ''}{dollars(amount)}"


class _Saver:
    """``--save FILE``: every finished round's script, rewritten after each round."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = None if path is None else Path(path)
        self.scripts: list[dict[str, Any]] = []
        self._write()  # a file that cannot be written is an error before the first round

    def add(self, rnd: Round | DoubleDownRound) -> None:
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


# --------------------------------------------------------------------------------- Boston
def play_session(
    config: TableConfig,
    *,
    seats: int = 1,
    human: int = 1,
    seed: int | None = None,
    ask: Ask = input,
    say: Say = print,
    symbols: bool = True,
    rounds: int | None = None,
    save: str | Path | None = None,
    cite: bool = False,
) -> Table:
    """Play rounds until the person quits (or ``rounds`` are played); returns the table.

    Without ``seed`` the cards come from the operating system's CSPRNG; a seed is for replays and
    tests only (its later cards can be predicted).
    """
    if rounds is not None and rounds < 1:
        raise FeltError(f"rounds must be 1 or more, got {rounds}")
    shuffler: Shuffler = SeededShuffle(seed) if seed is not None else SystemShuffle()
    table = Table(config, shuffler)
    others = [n for n in range(1, 7) if n != human][: max(0, seats - 1)]
    out = _Out(say)
    saver = _Saver(save)

    def show(cards: Sequence[Card]) -> str:
        return format_cards(cards, symbols=symbols)

    out(f"{config.game} under {config.edition.title}")
    out(f"ante {dollars(config.minimum)} to {dollars(config.maximum)}; first wager = "
        f"{config.first_ratio} x ante; optional bonus from {dollars(config.bonus_minimum)}.")  # fmt: skip
    out(f"You are seat {human}. Answer ? at any decision for help, q to leave.")
    total = played = 0
    try:
        while rounds is None or played < rounds:
            out(f"--- round {played + 1} | you: seat {human} | balance {_signed(total)}")
            rnd = table.new_round()
            ante, bonus = _ask_wagers(config, ask, out, human)
            rnd.apply(PlaceWagers(human, ante, config.first_ratio * ante, bonus, player="you"))
            for n in others:
                rnd.apply(PlaceWagers(n, config.minimum, config.first_ratio * config.minimum))
            _decide(rnd, human, ask, out, show, total)
            table.finish(rnd)
            saver.add(rnd)
            net = sum(line.amount for line in seat_view(rnd, human).lines)
            total += net
            played += 1
            out(_boston_summary(seat_view(rnd, human), show, cite))
            out(f"your result this round {_signed(net)}; balance {_signed(total)}")
    except (Quit, KeyboardInterrupt):
        pass
    out(f"goodbye: {played} round(s), session result {_signed(total)}")
    return table


def _ask_wagers(config: TableConfig, ask: Ask, say: Say, human: int) -> tuple[int, int]:
    ante = _ask_amount(ask, say, f"seat {human} ante", config.minimum, config.maximum)
    bonus = _ask_amount(
        ask, say, "optional bonus wager", config.bonus_minimum, config.bonus_maximum, none_ok=True
    )
    return ante, bonus


def _hand_name(cards: Sequence[Card]) -> str:
    if len(cards) == 3:
        return f"{evaluate_three(cards).category.label} (three-card hand)"
    if len(cards) >= 5:
        return evaluate(cards).describe()
    return "no hand yet"


def _boston_help(rnd: Round, view: View, what: str, default: str) -> list[str]:
    config = rnd.config
    cards = view.own_cards
    lines = [f"  your hand now: {_hand_name(cards)}"]
    if what == "expose or decline":
        lines += [
            "  Expose (y): your first three cards are turned up for the optional bonus wager;",
            "  it is paid by the table below if they qualify, and lost if they do not.",
            "  Decline (n): the optional bonus wager loses now; your cards stay hidden.",
            f"  [{default}] is the house's suggested play: expose exactly when the three cards",
            "  qualify.  Enter takes it.",
        ]
    elif what == "second or fold":
        second = dollars(rnd.seats[view.seat].placed["first"])
        lines += [
            f"  Second wager (s): place {second} more and receive the remaining cards.",
            f"  Fold (f): forfeit your ante and first wager "
            f"({dollars(rnd.seats[view.seat].placed['ante'])} and {second}) now.",
            f"  [{default}] is the house's suggested play (enter takes it).",
        ]
    else:
        lines += [
            "  Keep all seven (enter or k), or name two cards to discard, e.g. '2c 7d';",
            "  your best five of what you keep is your hand.",
        ]
    lines += _payouts("ante bonus pays", config.ante_bonus)
    lines += _payouts("optional bonus pays", config.optional_bonus)
    lines.append("  q leaves the table (the round in progress is not finished).")
    return lines


def _decide(
    rnd: Round,
    human: int,
    ask: Ask,
    say: Say,
    show: Callable[[Sequence[Card]], str],
    balance: int,
) -> None:
    """Take decisions for every seat until the round is over."""
    while not rnd.finished:
        pending = rnd.pending()
        if not pending:
            rnd.advance()
            continue
        seat, what = pending[0]
        if seat != human:
            rnd.apply(_auto(rnd, seat, what))
            continue
        view = seat_view(rnd, human)
        say(f"your cards (seat {human}): {show(view.own_cards)}; balance {_signed(balance)}")
        if what == "expose or decline":
            qualifies = rnd.bonus_payout(view.own_cards[:3]) is not None
            hint = "y" if suggest_expose(qualifies) else "n"
            explain = _boston_help(rnd, view, what, hint)
            answer = _choose(ask, say, "expose for the optional bonus?",
                             {"y": "yes", "n": "no"}, hint, explain)  # fmt: skip
            rnd.apply(Expose(human) if answer == "y" else Decline(human))
        elif what == "second or fold":
            hint = "s" if suggest_second(view.own_cards[:3]) else "f"
            explain = _boston_help(rnd, view, what, hint)
            second = dollars(rnd.seats[human].placed["first"])
            answer = _choose(ask, say, f"second wager {second} or fold?",
                             {"s": "second", "f": "fold"}, hint, explain)  # fmt: skip
            rnd.apply(Fold(human) if answer == "f" else Second(human))
        else:
            answer = _ask(ask, "keep all seven (enter), or two cards to discard (? = help): ")
            if answer == "?":
                say("\n".join(_boston_help(rnd, view, what, "keep")))
                continue
            if answer.lower() in ("", "k", "keep"):
                rnd.apply(Keep(human))
                continue
            try:
                rnd.apply(Discard(human, parse_cards(answer.split())))
            except FeltError as err:
                say(f"  {err}")


def _auto(rnd: Round, seat: int, what: str) -> Expose | Decline | Second | Fold | Keep | Discard:
    cards = rnd.seats[seat].cards
    if what == "expose or decline":
        return (
            Expose(seat)
            if suggest_expose(rnd.bonus_payout(cards[:3]) is not None)
            else Decline(seat)
        )
    if what == "second or fold":
        return Second(seat) if suggest_second(cards[:3]) else Fold(seat)
    pair = suggest_discard(cards)
    return Keep(seat) if pair is None else Discard(seat, pair)


def _boston_summary(view: View, show: Callable[[Sequence[Card]], str], cite: bool) -> str:
    """The round's end as the person's seat sees it."""
    out = []
    if len(view.dealer_cards) >= 5:
        out.append(
            f"dealer        {show(view.dealer_cards)}: {evaluate(view.dealer_cards).describe()}"
        )
    if view.void_reason:
        out.append(f"VOID          {view.void_reason}")
    out.append(f"seat {view.seat} (you)  {show(view.own_cards)}")
    out += [_line_text(line, cite) for line in view.lines]
    for other in view.others:
        cards = show(other.cards) if other.cards else f"{other.card_count} cards, not shown"
        out.append(f"seat {other.number}        {cards}  [{other.status}]")
    return "\n".join(out)


# --------------------------------------------------------------------------------- Double Down
def play_double_down(
    config: DoubleDownConfig,
    *,
    seats: int = 1,
    human: int = 1,
    seed: int | None = None,
    ask: Ask = input,
    say: Say = print,
    symbols: bool = True,
    rounds: int | None = None,
    save: str | Path | None = None,
    cite: bool = False,
) -> DoubleDownTable:
    """Double Down Stud at one betting area; other areas auto-played by :func:`suggest_double`.

    Without ``seed`` the shuffles and the dealer's cuts come from the operating system's CSPRNG.
    """
    if rounds is not None and rounds < 1:
        raise FeltError(f"rounds must be 1 or more, got {rounds}")
    if seed is not None:
        seeded = SeededShuffle(seed)
        table = DoubleDownTable(config, seeded, cut_position=lambda: 10 + seeded.below(33))
    else:
        table = DoubleDownTable(config)
    others = [n for n in range(1, config.areas + 1) if n != human][: max(0, seats - 1)]
    out = _Out(say)
    saver = _Saver(save)

    def show(cards: Sequence[Card]) -> str:
        return format_cards(cards, symbols=symbols)

    out(f"double-down-stud under {rules().title}")
    out(f"wager {dollars(config.minimum)} to {dollars(config.maximum)}; double down "
        f"{'equal to' if config.double_down == 'equal' else 'up to'} the wager.")  # fmt: skip
    out(f"You are area {human}. Answer ? at any decision for help, q to leave.")
    total = played = 0
    try:
        while rounds is None or played < rounds:
            out(f"--- round {played + 1} | you: area {human} | balance {_signed(total)}")
            rnd = table.new_round()
            amount = _ask_amount(ask, out, f"area {human} wager", config.minimum, config.maximum)
            rnd.apply(PlaceBet(human, amount, player="you"))
            for n in others:
                rnd.apply(PlaceBet(n, config.minimum))
            _double_down_decide(rnd, table, human, ask, out, show, total)
            table.finish(rnd)
            saver.add(rnd)
            view = area_view(rnd, human)
            net = sum(line.amount for line in view.lines)
            total += net
            played += 1
            out(_double_down_summary(view, show, cite))
            out(f"your result this round {_signed(net)}; balance {_signed(total)}")
    except (Quit, KeyboardInterrupt):
        pass
    out(f"goodbye: {played} round(s), session result {_signed(total)}")
    return table


def _four_card_name(cards: Sequence[Card]) -> str:
    counts = sorted(Counter(c >> 2 for c in cards).items(), key=lambda rc: (-rc[1], -rc[0]))
    shape = [n for _, n in counts]
    top = RANK_CHARS[counts[0][0]]
    if shape[0] == 4:
        return f"four of a kind, {top}s"
    if shape[0] == 3:
        return f"three of a kind, {top}s"
    if shape[:2] == [2, 2]:
        return f"two pair, {top}s and {RANK_CHARS[counts[1][0]]}s"
    if shape[0] == 2:
        return f"a pair of {top}s"
    return "no pair yet"


def _double_down_decide(
    rnd: DoubleDownRound,
    table: DoubleDownTable,
    human: int,
    ask: Ask,
    say: Say,
    show: Callable[[Sequence[Card]], str],
    balance: int,
) -> None:
    config = rnd.config
    while not rnd.finished:
        pending = rnd.pending()
        if not pending:
            step = rnd.next_dealer_action()
            if isinstance(step, DealerCut):
                step = DealerCut(table.cut_position())
            if step is not None:
                rnd.apply(step)
            continue
        area, what = pending[0]
        if what == "cut or decline":
            if area != human:
                rnd.apply(DeclineCut(area))
                continue
            answer = _ask(
                ask, "you are offered the cut: a position 10-42, enter declines, ? help: "
            )
            if answer == "?":
                say("  Cutting: the cutting card goes in at the position you name (counted from")
                say("  the top); declining passes the cut on.  Either way the cards are random.")
                continue
            if answer and not answer.isdigit():
                say("  please answer a position from 10 to 42, or press enter to decline")
                continue
            try:
                rnd.apply(PlayerCut(human, int(answer)) if answer else DeclineCut(human))
            except FeltError as err:
                say(f"  {err}")
            continue
        if area != human:
            rnd.apply(DoubleDown(area) if suggest_double(rnd, area) else Stand(area))
            continue
        view = area_view(rnd, human)
        seen = [c for other in view.others for c in other.cards]
        say(f"your card (area {human}) {show(view.own_cards)}; dealer shows "
            f"{show(view.dealer_up)}; balance {_signed(balance)}")  # fmt: skip
        if seen:
            say(f"other areas show {show(seen)}")
        ev = double_expectation(view.own_cards[0], view.dealer_up, seen, config.pay_table)
        hint = "d" if ev > 0 else "s"
        say(
            f"  doubling expects {float(ev):+.3f} per unit wagered (counting every card on the table)"
        )
        wager = dollars(rnd.seats[human].placed["wager"])
        explain = [
            f"  your four cards now: {_four_card_name([*view.own_cards, *view.dealer_up])}",
            "  the dealer's hole card completes every hand.",
            f"  Double down (d): add {'' if config.double_down == 'equal' else 'up to '}{wager} "
            "more; both wagers are paid by the table",
            "  below (a hand below it loses both).",
            f"  Stand (s): keep your {wager} wager only.",
            f"  [{hint}] is the house's suggested play: doubling here expects "
            f"{float(ev):+.3f} per unit",
            "  wagered, counting every card in view.  Enter takes it.",
            *_payouts("pays", config.pay_table),
        ]
        answer = _choose(ask, say, "double down or stand?",
                         {"d": "double", "s": "stand"}, hint, explain)  # fmt: skip
        rnd.apply(DoubleDown(human) if answer == "d" else Stand(human))


def _double_down_summary(view: AreaView, show: Callable[[Sequence[Card]], str], cite: bool) -> str:
    out = []
    if view.hole_card is not None:
        out.append(f"dealer        {show([view.hole_card, *view.dealer_up])}  (hole card first)")
    if view.void_reason:
        out.append(f"VOID          {view.void_reason}")
    out.append(f"area {view.area} (you)  {show(view.own_cards)}")
    out += [_line_text(line, cite) for line in view.lines]
    for other in view.others:
        out.append(f"area {other.number}        {show(other.cards)}  [{other.status}]")
    return "\n".join(out)


def _ask_amount(
    ask: Ask, say: Say, what: str, low: int, high: int, *, none_ok: bool = False
) -> int:
    """An amount from ``low`` to ``high`` (or 0 when ``none_ok``), asked until it is one."""
    default = "0" if none_ok else dollars(low)
    hint = "0 = none" if none_ok else default
    while True:
        text = _ask(ask, f"{what} [{hint}]: ") or default
        if text == "?":
            say(f"  an amount in dollars from {dollars(low)} to {dollars(high)}"
                + (", or 0 for none" if none_ok else "") + "; enter takes the default")  # fmt: skip
            continue
        try:
            amount = cents(text, what)
            if not (low <= amount <= high or (none_ok and amount == 0)):
                raise FeltError(f"{what} must be {dollars(low)} to {dollars(high)}")
            return amount
        except FeltError as err:
            say(f"  {err}")
