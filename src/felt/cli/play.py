"""``felt play``: a Boston 5 or Boston 7 table in the terminal for a person at one seat.

Other seats, if any, are played by the house's suggested strategy (:mod:`felt.games.boston.strategy`).  The
person sees only what their seat may see (:mod:`felt.games.boston.view`).  Input and output are injected, so
the loop is tested with scripted answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from felt.cli.script import report_text
from felt.core.cards import Card, format_cards, parse_cards
from felt.core.errors import FeltError
from felt.core.money import cents, dollars
from felt.games.boston.config import TableConfig
from felt.games.boston.round import Round
from felt.games.boston.strategy import suggest_discard, suggest_expose, suggest_second
from felt.games.boston.table import Table
from felt.games.boston.view import seat_view
from felt.games.double_down import (
    DoubleDownConfig,
    DoubleDownTable,
    double_expectation,
    rules,
    suggest_double,
)
from felt.rounds.actions import (
    DealerCut,
    Decline,
    DeclineCut,
    Discard,
    DoubleDown,
    Expose,
    Fold,
    Keep,
    PlaceBet,
    PlaceWagers,
    PlayerCut,
    Second,
    Stand,
)
from felt.rounds.shuffle import SeededShuffle, Shuffler, SystemShuffle

Ask = Callable[[str], str]
Say = Callable[[str], None]


class Quit(Exception):
    """The person ended the session."""


def _ask(ask: Ask, prompt: str) -> str:
    try:
        answer = ask(prompt)
    except EOFError:
        raise Quit from None
    if answer.strip().lower() in ("q", "quit", "exit"):
        raise Quit
    return answer.strip()


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
) -> Table:
    """Play rounds until the person quits (or ``rounds`` are played); returns the table."""
    shuffler: Shuffler = SeededShuffle(seed) if seed is not None else SystemShuffle()
    table = Table(config, shuffler)
    others = [n for n in range(1, 7) if n != human][: max(0, seats - 1)]

    def show(cards: tuple[Card, ...]) -> str:
        return format_cards(cards, symbols=symbols)

    say(f"{config.game} under {config.edition.title}")
    say(f"ante {dollars(config.minimum)} to {dollars(config.maximum)}; first wager = "
        f"{config.first_ratio} x ante; optional bonus from {dollars(config.bonus_minimum)}. "
        "Type q to leave.")  # fmt: skip
    total = 0
    played = 0
    try:
        while rounds is None or played < rounds:
            rnd = table.new_round()
            ante, bonus = _ask_wagers(config, ask, say, human)
            rnd.apply(PlaceWagers(human, ante, config.first_ratio * ante, bonus, player="you"))
            for n in others:
                rnd.apply(PlaceWagers(n, config.minimum, config.first_ratio * config.minimum))
            rnd.run_dealer()
            _decide(rnd, human, ask, say, show)
            table.finish(rnd)
            say(report_text(rnd, symbols=symbols))
            total += rnd.net(human)
            played += 1
            say(f"your result this round {dollars(rnd.net(human))}; session {dollars(total)}")
    except Quit:
        say(f"goodbye: {played} round(s), session result {dollars(total)}")
    return table


def _ask_wagers(config: TableConfig, ask: Ask, say: Say, human: int) -> tuple[int, int]:
    ante = _ask_amount(ask, say, f"seat {human} ante", config.minimum, config.maximum)
    bonus = _ask_amount(
        ask, say, "optional bonus wager", config.bonus_minimum, config.bonus_maximum, none_ok=True
    )
    return ante, bonus


def _decide(
    rnd: Round, human: int, ask: Ask, say: Say, show: Callable[[tuple[Card, ...]], str]
) -> None:
    """Take decisions for every seat until the round is over."""
    while not rnd.finished:
        pending = rnd.pending()
        if not pending:
            rnd.advance()
            continue
        seat, what = pending[0]
        view = seat_view(rnd, human)
        if seat != human:
            rnd.apply(_auto(rnd, seat, what))
            continue
        say(f"your cards: {show(view.own_cards)}")
        if what == "expose or decline":
            qualifies = rnd.bonus_payout(view.own_cards[:3]) is not None
            hint = "y" if suggest_expose(qualifies) else "n"
            answer = _ask(ask, f"expose for the optional bonus? (y/n) [{hint}]: ") or hint
            rnd.apply(Expose(human) if answer.lower().startswith("y") else Decline(human))
        elif what == "second or fold":
            hint = "s" if suggest_second(view.own_cards[:3]) else "f"
            answer = (
                _ask(
                    ask,
                    f"second wager {dollars(rnd.seats[human].placed['first'])} or fold? (s/f) [{hint}]: ",
                )
                or hint
            )
            rnd.apply(Fold(human) if answer.lower().startswith("f") else Second(human))
        else:
            answer = _ask(ask, "keep all seven (enter), or name two cards to discard: ")
            if not answer:
                rnd.apply(Keep(human))
                continue
            try:
                rnd.apply(Discard(human, parse_cards(answer)))
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
) -> DoubleDownTable:
    """Double Down Stud at one betting area; other areas auto-played by :func:`suggest_double`."""
    if seed is not None:
        seeded = SeededShuffle(seed)
        table = DoubleDownTable(config, seeded, cut_position=lambda: 10 + seeded.below(33))
    else:
        table = DoubleDownTable(config)
    others = [n for n in range(1, config.areas + 1) if n != human][: max(0, seats - 1)]

    def show(cards: Sequence[Card]) -> str:
        return format_cards(cards, symbols=symbols)

    say(f"double-down-stud under {rules().title}")
    say(f"wager {dollars(config.minimum)} to {dollars(config.maximum)}; double down "
        f"{'equal to' if config.double_down == 'equal' else 'up to'} the wager. Type q to leave.")  # fmt: skip
    total = played = 0
    try:
        while rounds is None or played < rounds:
            rnd = table.new_round()
            amount = _ask_amount(ask, say, f"area {human} wager", config.minimum, config.maximum)
            rnd.apply(PlaceBet(human, amount, player="you"))
            for n in others:
                rnd.apply(PlaceBet(n, config.minimum))
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
                        ask, "you are offered the cut: position 10-42, or enter to decline: "
                    )
                    try:
                        rnd.apply(PlayerCut(human, int(answer)) if answer else DeclineCut(human))
                    except (ValueError, FeltError) as err:
                        say(f"  {err}")
                    continue
                if area != human:
                    rnd.apply(DoubleDown(area) if suggest_double(rnd, area) else Stand(area))
                    continue
                seen = [c for n, a in rnd.seats.items() if n != human for c in a.cards]
                say(f"your card {show(rnd.seats[human].cards)}; dealer shows {show(rnd.dealer_cards[1:])}"
                    + (f"; other areas {show(seen)}" if seen else ""))  # fmt: skip
                ev = double_expectation(
                    rnd.seats[human].cards[0], rnd.dealer_cards[1:], seen, config.pay_table
                )
                hint = "d" if ev > 0 else "s"
                say(
                    f"  doubling expects {float(ev):+.3f} per unit wagered (counting every card on the table)"
                )
                answer = _ask(ask, f"double down or stand? (d/s) [{hint}]: ") or hint
                rnd.apply(DoubleDown(human) if answer.lower().startswith("d") else Stand(human))
            table.finish(rnd)
            say(report_text(rnd, symbols=symbols))
            total += rnd.net(human)
            played += 1
            say(f"your result this round {dollars(rnd.net(human))}; session {dollars(total)}")
    except Quit:
        say(f"goodbye: {played} round(s), session result {dollars(total)}")
    return table


def _ask_amount(
    ask: Ask, say: Say, what: str, low: int, high: int, *, none_ok: bool = False
) -> int:
    """An amount from ``low`` to ``high`` (or 0 when ``none_ok``), asked until it is one."""
    default = "0" if none_ok else dollars(low)
    hint = "0 = none" if none_ok else default
    while True:
        text = _ask(ask, f"{what} [{hint}]: ") or default
        try:
            amount = cents(text, what)
            if not (low <= amount <= high or (none_ok and amount == 0)):
                raise FeltError(f"{what} must be {dollars(low)} to {dollars(high)}")
            return amount
        except FeltError as err:
            say(f"  {err}")
