"""``felt play`` at a Double Down Stud table: one person's betting area in the terminal, the
other areas played by the house's suggested strategy (:func:`~felt.games.double_down.suggest_double`).

Everything the person is shown is built from their area's view
(:func:`~felt.games.double_down.view.area_view`), never from the round itself; the session's
shared pieces (answers, amounts, the round loop, ``--save``) are :mod:`felt.cli.play`'s.
"""

from __future__ import annotations

from collections import Counter
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
    signed,
    statement_text,
)
from felt.core.cards import RANK_CHARS, Card, format_cards
from felt.core.errors import FeltError
from felt.core.money import dollars
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
from felt.games.double_down.config import pay_lines
from felt.games.double_down.view import AreaView, area_view
from felt.rounds.shuffle import SeededShuffle


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
    check_rounds(rounds)
    if seed is not None:
        seeded = SeededShuffle(seed)
        table = DoubleDownTable(config, seeded, cut_position=lambda: 10 + seeded.below(33))
    else:
        table = DoubleDownTable(config)
    others = [n for n in range(1, config.areas + 1) if n != human][: max(0, seats - 1)]
    out = Out(say)
    saver = Saver(save)

    def show(cards: Sequence[Card]) -> str:
        return format_cards(cards, symbols=symbols)

    out(f"double-down-stud under {rules().title}")
    out(f"wager {dollars(config.minimum)} to {dollars(config.maximum)}; double down "
        f"{'equal to' if config.double_down == 'equal' else 'up to'} the wager.")  # fmt: skip
    out(f"You are area {human}. Answer ? at any decision for help, q to leave.")

    last = LastWager(config.minimum)
    tables = payouts(f"the wager and any double down wager pay ({rules().cite('10(b)')})",
                     pay_lines(config, short=True))  # fmt: skip

    def play_round(balance: int) -> tuple[int, str]:
        rnd = table.new_round()
        amount = last.placed(ask_amount(ask, out, f"area {human} wager", config.minimum,
                                        config.maximum, default=last.amount, tables=tables))  # fmt: skip
        rnd.apply(PlaceBet(human, amount, player="you"))
        for n in others:
            rnd.apply(PlaceBet(n, config.minimum))
        _double_down_decide(rnd, table, human, ask, out, show, balance)
        table.finish(rnd)
        saver.add(rnd)
        view = area_view(rnd, human)
        return sum(line.amount for line in view.lines), _double_down_summary(view, show, cite)

    session(out, f"area {human}", rounds, play_round)
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
            given = answer(
                ask, "you are offered the cut: a position 10-42, enter declines, ? help: "
            )
            if given == "?":
                say("  Cutting: the cutting card goes in at the position you name (counted from")
                say("  the top); declining passes the cut on.  Either way the cards are random.")
                continue
            if given and not given.isdigit():
                say("  please answer a position from 10 to 42, or press enter to decline")
                continue
            try:
                rnd.apply(PlayerCut(human, int(given)) if given else DeclineCut(human))
            except FeltError as err:
                say(f"  {err}")
            continue
        if area != human:
            rnd.apply(suggestion(rnd, area, what))
            continue
        view = area_view(rnd, human)
        seen = [c for other in view.others for c in other.cards]
        say(f"your card (area {human}) {show(view.own_cards)}; dealer shows "
            f"{show(view.dealer_up)}; balance {signed(balance)}")  # fmt: skip
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
            *payouts("pays", pay_lines(config, short=True)),
        ]
        chosen = choose(ask, say, "double down or stand?",
                        {"d": "double", "s": "stand"}, hint, explain)  # fmt: skip
        rnd.apply(DoubleDown(human) if chosen == "d" else Stand(human))


def suggestion(rnd: DoubleDownRound, area: int, what: str) -> DeclineCut | DoubleDown | Stand:
    """The house's play of ``area``'s pending election ``what``: the cut is declined (it is the
    player's right, not a choice of value, 17.4(d)); double down when :func:`suggest_double`
    says so."""
    if what == "cut or decline":
        return DeclineCut(area)
    return DoubleDown(area) if suggest_double(rnd, area) else Stand(area)


def _double_down_summary(view: AreaView, show: Callable[[Sequence[Card]], str], cite: bool) -> str:
    out = []
    if view.hole_card is not None:
        out.append(f"dealer        {show([view.hole_card, *view.dealer_up])}  (hole card first)")
    if view.void_reason:
        out.append(f"VOID          {view.void_reason}")
    out.append(
        f"area {view.area} (you)  {show(view.own_cards)}" + (f": {view.hand}" if view.hand else "")
    )
    out += statement_text(view.lines, view.reasons, cite)
    for other in view.others:
        out.append(f"area {other.number}        {show(other.cards)}  [{other.status}]")
    return "\n".join(out)
