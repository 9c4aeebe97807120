"""``felt play`` at a Boston 5 or Boston 7 table: one person's seat in the terminal, the other
seats played by the house's suggested strategy (:mod:`felt.games.boston.strategy`).

Everything the person is shown is built from their seat's view
(:func:`~felt.games.boston.view.seat_view`), never from the round itself; the session's shared
pieces (answers, amounts, the round loop, ``--save``) are :mod:`felt.cli.play`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from felt.cli.play import (
    Ask,
    LastWager,
    Out,
    Saver,
    Say,
    answer,
    ask_amount,
    check_rounds,
    choose,
    payouts,
    session,
    shuffler,
    signed,
    statement_text,
)
from felt.core.cards import Card, format_cards, parse_cards
from felt.core.errors import FeltError
from felt.core.evaluator import evaluate, evaluate_three
from felt.core.money import dollars
from felt.games.boston.actions import Decline, Discard, Expose, Fold, Keep, PlaceWagers, Second
from felt.games.boston.config import TableConfig
from felt.games.boston.round import Round
from felt.games.boston.strategy import suggest_discard, suggest_expose, suggest_second
from felt.games.boston.table import Table
from felt.games.boston.view import View, seat_view


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
    check_rounds(rounds)
    table = Table(config, shuffler(seed))
    others = [n for n in range(1, 7) if n != human][: max(0, seats - 1)]
    out = Out(say)
    saver = Saver(save)

    def show(cards: Sequence[Card]) -> str:
        return format_cards(cards, symbols=symbols)

    out(f"{config.game} under {config.edition.title}")
    out(f"ante {dollars(config.minimum)} to {dollars(config.maximum)}; first wager = "
        f"{config.first_ratio} x ante; optional bonus from {dollars(config.bonus_minimum)}.")  # fmt: skip
    out(f"You are seat {human}. Answer ? at any decision for help, q to leave.")

    last = LastWager(config.minimum)

    def play_round(balance: int) -> tuple[int, str]:
        rnd = table.new_round()
        ante, bonus = _ask_wagers(config, ask, out, human, last)
        rnd.apply(PlaceWagers(human, ante, config.first_ratio * ante, bonus, player="you"))
        for n in others:
            rnd.apply(PlaceWagers(n, config.minimum, config.first_ratio * config.minimum))
        _decide(rnd, human, ask, out, show, balance)
        table.finish(rnd)
        saver.add(rnd)
        view = seat_view(rnd, human)
        return sum(line.amount for line in view.lines), _boston_summary(view, show, cite)

    session(out, f"seat {human}", rounds, play_round)
    return table


def _pay_tables(config: TableConfig) -> list[str]:
    """The table's pay tables as help lines (``?`` at a wager or a decision)."""
    return [
        *payouts("ante bonus pays", config.ante_bonus),
        *payouts("optional bonus pays", config.optional_bonus),
    ]


def _ask_wagers(
    config: TableConfig, ask: Ask, say: Say, human: int, last: LastWager
) -> tuple[int, int]:
    """The ante (enter: the last ante of the session) and the optional bonus wager; ``?`` at
    either shows the pay tables."""
    tables = _pay_tables(config)
    ante = last.placed(ask_amount(ask, say, f"seat {human} ante", config.minimum, config.maximum,
                                  default=last.amount, tables=tables))  # fmt: skip
    bonus = ask_amount(ask, say, "optional bonus wager", config.bonus_minimum,
                       config.bonus_maximum, none_ok=True, tables=tables)  # fmt: skip
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
    lines += _pay_tables(config)
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
            rnd.apply(suggestion(rnd, seat, what))
            continue
        view = seat_view(rnd, human)
        say(f"your cards (seat {human}): {show(view.own_cards)}; balance {signed(balance)}")
        if what == "expose or decline":
            qualifies = rnd.bonus_payout(view.own_cards[:3]) is not None
            hint = "y" if suggest_expose(qualifies) else "n"
            explain = _boston_help(rnd, view, what, hint)
            chosen = choose(ask, say, "expose for the optional bonus?",
                            {"y": "yes", "n": "no"}, hint, explain)  # fmt: skip
            rnd.apply(Expose(human) if chosen == "y" else Decline(human))
        elif what == "second or fold":
            hint = "s" if suggest_second(view.own_cards[:3]) else "f"
            explain = _boston_help(rnd, view, what, hint)
            second = dollars(rnd.seats[human].placed["first"])
            chosen = choose(ask, say, f"second wager {second} or fold?",
                            {"s": "second", "f": "fold"}, hint, explain)  # fmt: skip
            rnd.apply(Fold(human) if chosen == "f" else Second(human))
        else:
            given = answer(ask, "keep all seven (enter), or two cards to discard (? = help): ")
            if given == "?":
                say("\n".join(_boston_help(rnd, view, what, "keep")))
                continue
            if given.lower() in ("", "k", "keep"):
                rnd.apply(Keep(human))
                continue
            try:
                rnd.apply(Discard(human, parse_cards(given.split())))
            except FeltError as err:
                say(f"  {err}")


def suggestion(
    rnd: Round, seat: int, what: str
) -> Expose | Decline | Second | Fold | Keep | Discard:
    """The house's suggested play of ``seat``'s pending election ``what``."""
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
    kept = [c for c in view.own_cards if c not in view.discarded]
    out.append(f"seat {view.seat} (you)  {show(kept)}" + (f": {view.hand}" if view.hand else ""))
    if view.discarded:  # 13:69F-24.10(c): the two discarded cards are out of the hand
        out.append(f"  discarded   {show(view.discarded)}  (not part of the hand)")
    out += statement_text(view.lines, view.reasons, cite)
    for other in view.others:
        cards = show(other.cards) if other.cards else f"{other.card_count} cards, not shown"
        out.append(f"seat {other.number}        {cards}  [{other.status}]")
    return "\n".join(out)
