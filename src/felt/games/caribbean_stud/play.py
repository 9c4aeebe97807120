"""``felt play caribbean_stud``: a Caribbean Stud Poker table in the terminal for one person.

Other positions, if any, ante the table minimum (with the progressive wager where the table
offers it) and bet or fold by the suggested play (:meth:`.game.CaribbeanStud.suggest`).  All the
person is shown is built from their position's view (:func:`.view.spot_view`), never from the
round itself: another position's cards before they are turned over, the dealer's four hole cards
before the reveal and the stub cannot appear; the dealer's face-up card is shown once dealt.

The session keeps a progressive meter of its own (:attr:`.table.CaribbeanTable.meter`), starting
at the table's seed: each round's progressive wagers move the rate's share onto it when wagers
close, and the settlement carries it as it then stands (its ``meter``), so a share of the meter
is paid off what is really on it and a royal flush resets it to the seed (19:47-16.11, 16.12).
A decision takes only its listed answers (``?`` explains it; anything else is asked again); every
line fits in 80 columns.  Input and output are injected, so the loop is tested with scripted
answers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from felt.cli.play import (
    Ask,
    LastWager,
    Out,
    Saver,
    Say,
    ask_amount,
    check_rounds,
    choose,
    payouts,
    session,
    signed,
    statement_text,
)
from felt.core.cards import Card, format_cards
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.games.caribbean_stud.actions import Bet, Fold, Wagers
from felt.games.caribbean_stud.config import CaribbeanConfig, percent_text, rules
from felt.games.caribbean_stud.game import GAME, TITLE
from felt.games.caribbean_stud.hand import describe
from felt.games.caribbean_stud.round import CaribbeanRound
from felt.games.caribbean_stud.table import CaribbeanTable
from felt.games.caribbean_stud.view import SpotView, spot_view
from felt.guide import money
from felt.rounds.shuffle import SeededShuffle

OPTIONS = ("seats", "human", "seed", "ask", "say", "symbols", "rounds", "save", "cite")
"""What ``felt play`` may pass (every one optional)."""
ELECTION = "bet or fold"
"""The one decision a player makes (16.1 "Bet wager", "Fold")."""


def round_record(rnd: CaribbeanRound) -> dict[str, Any]:
    """A finished round as a round script (:func:`felt.cli.script.round_script`): ``felt
    replay`` plays it again exactly, the meter its settlement used included."""
    from felt.cli.script import round_script

    return round_script(rnd)


def play(config: CaribbeanConfig, options: Mapping[str, Any]) -> CaribbeanTable:
    """Play rounds until the person quits (or ``rounds`` are played); returns the table, whose
    ``meter`` is the session's progressive meter as the last round left it.

    Without ``seed`` the shuffles and the dealer's cuts come from the operating system's CSPRNG;
    a seed is for replays and tests only."""
    for key in options:
        if key not in OPTIONS:
            raise FeltError(f"unknown play option {key!r} (allowed: {', '.join(OPTIONS)})")
    seats = int(options.get("seats") or 1)
    human = int(options.get("human") or 1)
    rounds: int | None = options.get("rounds")
    ask: Ask = options.get("ask") or input
    out = Out(options.get("say") or print)
    symbols = bool(options.get("symbols", True))
    cite = bool(options.get("cite", False))
    check_rounds(rounds)
    if not 1 <= human <= config.seats:
        raise FeltError(f"seat {human} does not exist (seats are 1 to {config.seats})")
    if not 1 <= seats <= config.seats:
        raise FeltError(f"seats in play must be 1 to {config.seats}, got {seats}")
    seed = options.get("seed")
    if seed is not None:
        seeded = SeededShuffle(seed)
        table = CaribbeanTable(config, seeded, cut_position=lambda: 10 + seeded.below(33))
    else:
        table = CaribbeanTable(config)
    others = [n for n in range(1, config.seats + 1) if n != human][: seats - 1]
    saver = Saver(options.get("save"))

    def show(cards: Sequence[Card]) -> str:
        return format_cards(cards, symbols=symbols)

    out(f"{TITLE} under {rules().title}")
    prog = config.progressive
    out(f"ante {dollars(config.minimum)} to {dollars(config.maximum)}; the bet wager is twice "
        "the ante.")  # fmt: skip
    out(
        f"progressive wager {dollars(prog.wager)}, meter {_meter(table)}."
        if prog is not None
        else "no progressive wager at this table."
    )
    out(f"You are seat {human}. Answer ? at any question for help, q to leave.")

    last = LastWager(config.minimum)
    again = {"progressive": "n"}

    def play_round(balance: int) -> tuple[int, str]:
        rnd = table.new_round()
        if prog is not None:
            out(f"progressive meter {_meter(table, rnd)}")
        ante, progressive = _ask_wagers(config, ask, out, human, last, again)
        rnd.apply(Wagers(human, ante, progressive, player="you"))
        for n in others:
            rnd.apply(Wagers(n, config.minimum, prog.wager if prog else 0))
        _decide(rnd, table, human, ask, out, show, balance)
        table.finish(rnd)
        saver.add(rnd)
        view = spot_view(rnd, human)
        return sum(line.amount for line in view.lines), _summary(view, table, show, cite)

    session(out, f"seat {human}", rounds, play_round)
    return table


def _meter(table: CaribbeanTable, rnd: CaribbeanRound | None = None) -> str:
    """The session's meter as it stands (with ``rnd``'s contributions so far), in dollars."""
    meter = table.meter if rnd is None else table.meter_now(rnd)
    return "none" if meter is None else money(meter)


def _pay_tables(config: CaribbeanConfig) -> list[str]:
    """The table's pay tables as help lines (``?`` at a wager or at the decision)."""
    bet = [(_hand(h), f"{p.numerator} to {p.denominator}") for h, p in config.bet_pays.items()]
    tables = payouts("bet wager pays (a qualifying dealer beaten)", bet)
    prog = config.progressive
    if prog is not None:
        lines = [(_hand(h), f"{percent_text(p)} of the meter") for h, p in prog.percent.items()]
        lines += [(_hand(h), f"{dollars(a)}") for h, a in prog.fixed.items()]
        tables += payouts(f"progressive wager {dollars(prog.wager)} pays", lines)
    return tables


def _hand(name: str) -> str:
    """A pay-table hand as the person reads it."""
    return "ace king (no pair)" if name == "ace king" else name


def _ask_wagers(
    config: CaribbeanConfig, ask: Ask, say: Say, human: int, last: LastWager,
    again: dict[str, str],
) -> tuple[int, int]:  # fmt: skip
    """The ante (enter: the last ante of the session) and, where the table offers it, whether to
    place the progressive wager of its one amount with it; ``?`` shows the pay tables."""
    tables = _pay_tables(config)
    ante = last.placed(ask_amount(ask, say, f"seat {human} ante", config.minimum, config.maximum,
                                  default=last.amount, tables=tables))  # fmt: skip
    prog = config.progressive
    if prog is None:
        return ante, 0
    explain = [
        f"  y places the progressive wager, {dollars(prog.wager)} exactly, with your ante; n none.",
        "  It is paid on your own five cards whatever the dealer holds, unless you fold;",
        f"  it is not returned unless the round is void: {percent_text(prog.rate)} of it goes "
        "onto the meter when wagers close.",
        *tables,
    ]
    answer = choose(ask, say, f"progressive wager {dollars(prog.wager)}?",
                    {"y": "yes", "n": "no"}, again["progressive"], explain)  # fmt: skip
    again["progressive"] = answer
    return ante, prog.wager if answer == "y" else 0


def _decide(
    rnd: CaribbeanRound,
    table: CaribbeanTable,
    human: int,
    ask: Ask,
    say: Say,
    show: Callable[[Sequence[Card]], str],
    balance: int,
) -> None:
    """Take every decision and dealer step until the round is over: the dealer's steps as the
    game takes them (the cut where the table cuts, the settlement with the session's meter)."""
    config = rnd.config
    while not rnd.finished:
        pending = rnd.pending()
        if not pending:
            step = GAME.dealer_step(table, rnd)
            if step is not None:
                rnd.apply(step)
            continue
        seat, election = pending[0]
        if seat != human:
            rnd.apply(GAME.suggest(rnd, seat, election))
            continue
        view = spot_view(rnd, human)
        meter = f"; meter {_meter(table, rnd)}" if config.progressive else ""
        say(f"dealer shows {show(view.dealer_cards)} and four cards face down{meter}")
        say(f"your cards (seat {human}): {show(view.own_cards)}, {describe(view.own_cards)}; "
            f"balance {signed(balance)}")  # fmt: skip
        hint = "b" if isinstance(GAME.suggest(rnd, human, election), Bet) else "f"
        spot = rnd.seats[human]
        ante = spot.placed["ante"]
        has_progressive = bool(spot.progressive)
        explain = [
            f"  Bet (b): place a bet wager of {dollars(2 * ante)}, twice your ante, and meet "
            "the dealer.",
            "  Fold (f): your ante"
            + (" and progressive wager are" if has_progressive else " is")
            + " lost now; your cards are not shown.",
            "  The dealer qualifies with A-K-4-3-2 or better; if not, the ante is paid 1 to 1",
            "  and the bet wager returned. Against a qualifying hand the higher hand wins: the",
            "  ante 1 to 1 and the bet wager by the table below on your hand; a tie returns both.",
        ]
        if has_progressive:
            explain.append("  Your progressive wager is paid on your own hand if you bet, "
                           "whatever the dealer holds.")  # fmt: skip
        explain += [
            f"  [{hint}] is the house's suggested play (the exact analysis's). Enter takes it.",
            *_pay_tables(config),
            "  q leaves the table (the round in progress is not finished).",
        ]
        choice = choose(ask, say, "bet or fold?", {"b": "bet", "f": "fold"}, hint, explain)
        rnd.apply(Bet(human) if choice == "b" else Fold(human))


def _summary(
    view: SpotView, table: CaribbeanTable, show: Callable[[Sequence[Card]], str], cite: bool
) -> str:
    """The round's end as the person's position sees it, and the meter it left."""
    lines = []
    if len(view.dealer_cards) == 5:
        lines.append(f"dealer        {show(view.dealer_cards)}: {view.dealer_hand}")
    if view.void_reason:
        lines.append(f"VOID          {view.void_reason}")
    lines.append(
        f"seat {view.seat} (you)  {show(view.own_cards)}" + (f": {view.hand}" if view.hand else "")
    )
    lines += statement_text(view.lines, view.reasons, cite)
    for other in view.others:
        cards = show(other.cards) if other.cards else f"{other.card_count} cards, not shown"
        lines.append(f"seat {other.number}        {cards}  [{other.status}]")
    if table.config.progressive is not None:
        lines.append(f"progressive meter now {_meter(table)}")
    return "\n".join(lines)
