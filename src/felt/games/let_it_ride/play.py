"""``felt play let_it_ride``: a Let It Ride Poker table in the terminal for one person.

The person places three equal wagers (and, where the table offers them, the bonus wagers),
sees their three cards, takes back wager 1 or lets it ride, sees community card 1 turned, takes
back wager 2 or lets it ride, and sees community card 2 turned and the settlement (18.1 "Let it
ride", "Community card", "Hand"; 18.6 to 18.11 as docs/interpretations.md reads their titles).
Other positions, if any, wager the table minimum and decide by the suggested play
(:meth:`.game.LetItRide.suggest`).

All the person is shown is built from their position's view (:func:`.view.spot_view`), never
from the round itself: a community card appears only once the dealer turns it, the burned card
never, another position's cards only once its hand is turned over at the settlement, and the
stub never.  A decision takes only its listed answers (``?`` explains it; anything else is asked
again); every line fits in 80 columns.  Input and output are injected, so the loop is tested with
scripted answers.  The session keeps no clock: the cards' change schedule (18.4(e)) is a
server's (:meth:`felt.games.base.TableGame.round_blocked`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from felt.cli.play import (
    Ask,
    LastWager,
    Say,
    ask_amount,
    choose,
    payouts,
    session,
    signed,
    statement_text,
    terminal,
)
from felt.core.cards import Card
from felt.core.money import dollars
from felt.games.let_it_ride.actions import LetItRide, TakeBack, TurnCard, Wagers
from felt.games.let_it_ride.config import LetItRideConfig, odds_text, rules
from felt.games.let_it_ride.game import ELECTION_WAGERS, GAME, TITLE
from felt.games.let_it_ride.hand import three_card_hand
from felt.games.let_it_ride.round import LetItRideRound
from felt.games.let_it_ride.table import LetItRideTable
from felt.games.let_it_ride.view import SpotView, spot_view
from felt.rounds.shuffle import SeededShuffle

CHOICES: Final = {"r": "ride", "t": "take"}
"""The answers to a decision: let the wager ride, or take it back (18.1 "Let it ride")."""

Show = Callable[[Sequence[Card]], str]


def play(config: LetItRideConfig, options: Mapping[str, Any]) -> LetItRideTable:
    """Play rounds until the person quits (or ``rounds`` are played); returns the table, whose
    ``history`` holds the rounds played.

    Without ``seed`` the shuffles and the dealer's cuts come from the operating system's CSPRNG;
    a seed is for replays and tests only."""
    t = terminal(options, config.seats)
    human, ask, out = t.human, t.ask, t.out
    if t.seed is not None:
        seeded = SeededShuffle(t.seed)
        table = LetItRideTable(config, seeded, cut_position=lambda: 10 + seeded.below(33))
    else:
        table = LetItRideTable(config)

    out(f"{TITLE} under {rules().title}")
    out(f"three equal wagers (1, 2 and $) of {dollars(config.minimum)} to "
        f"{dollars(config.maximum)} each; you may take back 1 and 2, $ always stays.")  # fmt: skip
    if config.bonus is not None:
        out(f"let it ride bonus wager {dollars(config.bonus.wager)} (optional).")
    if config.three_card_bonus is not None:
        tcb = config.three_card_bonus
        out(f"three card bonus wager {dollars(tcb.minimum)} to {dollars(tcb.maximum)}, whole "
            "dollars (optional).")  # fmt: skip
    out(f"You are seat {human}. Answer ? at any question for help, q to leave.")

    last = LastWager(config.minimum)
    again: dict[str, Any] = {"bonus": "n", "three_card_bonus": 0}

    def play_round(balance: int) -> tuple[int, str]:
        rnd = table.new_round()
        amount, bonus, three = _ask_wagers(config, ask, out, human, last, again)
        rnd.apply(Wagers(human, amount, bonus, three, player="you"))
        for n in t.others:
            rnd.apply(Wagers(n, config.minimum))
        _decide(rnd, table, human, ask, out, t.show, balance)
        table.finish(rnd)
        t.saver.add(rnd)
        view = spot_view(rnd, human)
        return sum(line.amount for line in view.lines), _summary(view, t.show, t.cite)

    session(out, f"seat {human}", t.rounds, play_round)
    return table


def _pay_tables(config: LetItRideConfig) -> list[str]:
    """The table's pay tables as help lines (``?`` at a wager or at a decision)."""
    hands = {"tens or better": "pair of tens or better"}
    tables = payouts(
        "wagers 1, 2 and $ pay (each one left on the layout)",
        [(hands.get(h, h), odds_text(p)) for h, p in config.pays.items()],
    )
    if config.payout_limit is not None:
        tables.append(f"  the three wagers together win at most {dollars(config.payout_limit)}")
    if config.bonus is not None:
        tables += payouts(
            f"let it ride bonus {dollars(config.bonus.wager)} pays (your five cards)",
            [(h, odds_text(p)) for h, p in config.bonus.pays.items()],
        )
    if config.three_card_bonus is not None:
        tables += payouts(
            "three card bonus pays (your own three cards)",
            [(h, odds_text(p)) for h, p in config.three_card_bonus.pays.items()],
        )
    return tables


def _ask_wagers(
    config: LetItRideConfig, ask: Ask, say: Say, human: int, last: LastWager,
    again: dict[str, Any],
) -> tuple[int, int, int]:  # fmt: skip
    """Each of the three equal wagers (enter: the last amount of the session) and, where the
    table offers them, the bonus wager (yes or no) and the three card bonus (an amount, 0 for
    none, whole dollars); ``?`` shows the pay tables."""
    tables = _pay_tables(config)
    amount = last.placed(ask_amount(ask, say, f"seat {human} each wager (1, 2, $)",
                                    config.minimum, config.maximum, default=last.amount,
                                    tables=tables))  # fmt: skip
    bonus = 0
    if config.bonus is not None:
        explain = [
            f"  y places the let it ride bonus wager, {dollars(config.bonus.wager)} exactly, with",
            "  your three wagers; n none. It is paid on your five cards (yours and the two",
            "  community cards), whether or not you take back wager 1 or 2.",
            *tables,
        ]
        answer = choose(ask, say, f"let it ride bonus {dollars(config.bonus.wager)}?",
                        {"y": "yes", "n": "no"}, again["bonus"], explain)  # fmt: skip
        again["bonus"] = answer
        bonus = config.bonus.wager if answer == "y" else 0
    three = 0
    tcb = config.three_card_bonus
    if tcb is not None:
        while True:
            three = ask_amount(ask, say, "three card bonus (your own three cards)", tcb.minimum,
                               tcb.maximum, none_ok=True, default=again["three_card_bonus"],
                               tables=tables)  # fmt: skip
            if three % 100 == 0:
                break
            say(f"  the three card bonus is whole dollars ({dollars(tcb.minimum)} to "
                f"{dollars(tcb.maximum)}), or 0 for none")  # fmt: skip
        again["three_card_bonus"] = three
    return amount, bonus, three


def _community(view: SpotView, show: Show) -> str:
    """The community cards as the view has them: those turned, then ``??`` for each face down."""
    down = view.community_count - len(view.community)
    shown = [show(view.community)] if view.community else []
    return " ".join(shown + ["??"] * down) or "not dealt"


def _decide(
    rnd: LetItRideRound,
    table: LetItRideTable,
    human: int,
    ask: Ask,
    say: Say,
    show: Show,
    balance: int,
) -> None:
    """Take every decision and dealer step until the round is over: the dealer's steps as the
    game takes them (the cut where the table cuts), each community card shown as it is turned."""
    while not rnd.finished:
        pending = rnd.pending()
        if not pending:
            step = GAME.dealer_step(table, rnd)
            if step is not None:
                rnd.apply(step)
                if isinstance(step, TurnCard):
                    view = spot_view(rnd, human)
                    k = len(view.community)
                    say(f"the dealer turns community card {k}: {show(view.community[-1:])}")
            continue
        seat, election = pending[0]
        if seat != human:
            rnd.apply(GAME.suggest(rnd, seat, election))
            continue
        _ask_decision(rnd, human, election, ask, say, show, balance)


def _ask_decision(
    rnd: LetItRideRound, human: int, election: str, ask: Ask, say: Say, show: Show, balance: int
) -> None:
    """The person's decision on wager 1 or 2: let it ride or take it back (18.1 "Let it ride"),
    the suggested play on enter."""
    n = ELECTION_WAGERS[election]
    view = spot_view(rnd, human)
    say(f"community cards {_community(view, show)}")
    cards = view.own_cards
    say(f"your cards (seat {human}): {show(cards)}; balance {signed(balance)}")
    hint = "r" if isinstance(GAME.suggest(rnd, human, election), LetItRide) else "t"
    wager = rnd.seats[human].placed["first"]
    others = ["wager 2 and wager $ stay", "wager $ stays"][n - 1]
    explain = [
        f"  Ride (r): leave wager {n} ({dollars(wager)}) on the layout.",
        f"  Take (t): take wager {n} back now; {others}"
        + (" (wager 2 is decided after community card 1 is turned)." if n == 1 else "."),
        "  Your hand is your three cards and the two community cards; each wager left",
        "  on the layout is paid by the table below on a pair of tens or better, and",
        "  lost below it. Bonus wagers stay whatever you decide.",
        f"  [{hint}] is the house's suggested play (the exact analysis's). Enter takes it.",
        *_pay_tables(rnd.config),
        "  q leaves the table (the round in progress is not finished).",
    ]
    if len(cards) == 3 and "three_card_bonus" in view.wagers:
        explain.insert(-1, f"  your three cards for the three card bonus: {three_card_hand(cards)}")
    choice = choose(ask, say, f"wager {n}: let it ride or take it back?", CHOICES, hint, explain)
    rnd.apply(LetItRide(human, n) if choice == "r" else TakeBack(human, n))


def _summary(view: SpotView, show: Show, cite: bool) -> str:
    """The round's end as the person's position sees it."""
    lines = [f"community     {_community(view, show)}"]
    if view.void_reason:
        lines.append(f"VOID          {view.void_reason}")
    lines.append(
        f"seat {view.seat} (you)  {show(view.own_cards)}" + (f": {view.hand}" if view.hand else "")
    )
    lines += statement_text(view.lines, view.reasons, cite)
    for other in view.others:
        cards = show(other.cards) if other.cards else f"{other.card_count} cards, not shown"
        hand = f": {other.hand}" if other.hand else ""
        lines.append(f"seat {other.number}        {cards}{hand}  [{other.status}]")
    return "\n".join(lines)
