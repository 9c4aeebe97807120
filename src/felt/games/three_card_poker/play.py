"""``felt play three-card-poker``: a Three Card Poker table in the terminal for one person.

Other positions, if any, are played by the suggested play (:func:`.strategy.suggest`).  All the
person is shown is built from their position's view (:func:`.view.spot_view`), never from the
round itself, so another position's cards before they are turned over, the dealer's cards before
the reveal and the stub cannot appear.  A decision takes only its listed answers (``?`` explains
it; anything else is asked again); every line fits in 80 columns.  Input and output are
injected, so the loop is tested with scripted answers.
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
from felt.games.three_card_poker.actions import CutCards, Fold, Play, Wagers
from felt.games.three_card_poker.config import GAME, ThreeCardConfig, rules
from felt.games.three_card_poker.hand import describe
from felt.games.three_card_poker.round import ThreeCardRound
from felt.games.three_card_poker.strategy import should_play, suggest
from felt.games.three_card_poker.table import ThreeCardTable
from felt.games.three_card_poker.view import SpotView, spot_view
from felt.rounds.shuffle import SeededShuffle

OPTIONS = ("seats", "human", "seed", "ask", "say", "symbols", "rounds", "save", "cite")
"""What ``felt play`` may pass (every one optional)."""


def round_record(rnd: ThreeCardRound) -> dict[str, Any]:
    """A finished round as a round script (:func:`felt.cli.script.round_script`): ``felt
    replay`` plays it again exactly."""
    from felt.cli.script import round_script

    return round_script(rnd)


def play(config: ThreeCardConfig, options: Mapping[str, Any]) -> ThreeCardTable:
    """Play rounds until the person quits (or ``rounds`` are played); returns the table.

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
    save = options.get("save")
    check_rounds(rounds)
    if not 1 <= human <= config.seats:
        raise FeltError(f"seat {human} does not exist (seats are 1 to {config.seats})")
    seed = options.get("seed")
    if seed is not None:
        seeded = SeededShuffle(seed)
        table = ThreeCardTable(config, seeded, cut_position=lambda: 10 + seeded.below(33))
    else:
        table = ThreeCardTable(config)
    others = [n for n in range(1, config.seats + 1) if n != human][: max(0, seats - 1)]
    saver = Saver(save)

    def show(cards: Sequence[Card]) -> str:
        return format_cards(cards, symbols=symbols)

    out(f"{GAME} under {rules().title}")
    pp = (
        f"; pair plus {dollars(config.pair_plus_minimum)} to {dollars(config.pair_plus_maximum)}"
        if config.pair_plus
        else "; no pair plus wager at this table"
    )
    out(f"ante {dollars(config.minimum)} to {dollars(config.maximum)}{pp}.")
    out(f"You are seat {human}. Answer ? at any question for help, q to leave.")

    last = LastWager(config.minimum)

    def play_round(balance: int) -> tuple[int, str]:
        rnd = table.new_round()
        ante, pair_plus = _ask_wagers(config, ask, out, human, last)
        rnd.apply(Wagers(human, ante, pair_plus, player="you"))
        for n in others:
            rnd.apply(Wagers(n, config.minimum))
        _decide(rnd, table, human, ask, out, show, balance)
        table.finish(rnd)
        saver.add(rnd)
        view = spot_view(rnd, human)
        return sum(line.amount for line in view.lines), _summary(view, show, cite)

    session(out, f"seat {human}", rounds, play_round)
    return table


def _pay_tables(config: ThreeCardConfig) -> list[str]:
    """The table's pay tables as help lines (``?`` at a wager or a decision)."""
    tables = payouts("ante bonus pays", config.ante_bonus)
    if config.pair_plus:
        tables += payouts("pair plus pays", config.pair_plus_table)
    return tables


def _ask_wagers(
    config: ThreeCardConfig, ask: Ask, say: Say, human: int, last: LastWager
) -> tuple[int, int]:
    """The ante (enter: the last ante of the session; 0 for none where a pair plus wager may be
    placed alone) and the pair plus wager; ``?`` at either shows the pay tables."""
    tables = _pay_tables(config)
    while True:
        ante = last.placed(ask_amount(ask, say, f"seat {human} ante", config.minimum,
                                      config.maximum, none_ok=config.pair_plus,
                                      default=last.amount, tables=tables))  # fmt: skip
        pair_plus = 0
        if config.pair_plus:
            pair_plus = ask_amount(ask, say, "pair plus wager", config.pair_plus_minimum,
                                   config.pair_plus_maximum, none_ok=True, tables=tables)  # fmt: skip
        if ante or pair_plus:
            return ante, pair_plus
        say("  place an ante, a pair plus wager, or both")


def _decide(
    rnd: ThreeCardRound,
    table: ThreeCardTable,
    human: int,
    ask: Ask,
    say: Say,
    show: Callable[[Sequence[Card]], str],
    balance: int,
) -> None:
    """Take every decision and dealer step until the round is over."""
    config = rnd.config
    while not rnd.finished:
        pending = rnd.pending()
        if not pending:
            step = rnd.next_dealer_action()
            if isinstance(step, CutCards):
                step = CutCards(table.cut_position())
            if step is not None:
                rnd.apply(step)
            continue
        seat, _ = pending[0]
        if seat != human:
            rnd.apply(suggest(rnd, seat))
            continue
        view = spot_view(rnd, human)
        say(f"your cards (seat {human}): {show(view.own_cards)}, {describe(view.own_cards)}; "
            f"balance {signed(balance)}")  # fmt: skip
        hint = "p" if should_play(view.own_cards) else "f"
        ante = dollars(rnd.seats[human].placed["ante"])
        explain = [
            f"  Play (p): place a play wager of {ante}, equal to your ante, and meet the dealer.",
            "  Fold (f): your ante"
            + (" and pair plus wager are" if "pair plus" in rnd.seats[human].placed else " is")
            + " lost now; your cards are not shown.",
            "  The dealer needs a queen high or better; if not, the ante is paid 1 to 1 and the",
            "  play wager returned.  A straight or better is paid the ante bonus if you play.",
            f"  [{hint}] is the house's suggested play: play Q-6-4 or better.  Enter takes it.",
            *_pay_tables(config),
        ]
        explain.append("  q leaves the table (the round in progress is not finished).")
        choice = choose(ask, say, "play or fold?", {"p": "play", "f": "fold"}, hint, explain)
        rnd.apply(Play(human) if choice == "p" else Fold(human))


def _summary(view: SpotView, show: Callable[[Sequence[Card]], str], cite: bool) -> str:
    """The round's end as the person's position sees it."""
    lines = []
    if view.dealer_cards:
        lines.append(f"dealer        {show(view.dealer_cards)}: {describe(view.dealer_cards)}")
    if view.void_reason:
        lines.append(f"VOID          {view.void_reason}")
    lines.append(
        f"seat {view.seat} (you)  {show(view.own_cards)}" + (f": {view.hand}" if view.hand else "")
    )
    lines += statement_text(view.lines, view.reasons, cite)
    for other in view.others:
        cards = show(other.cards) if other.cards else f"{other.card_count} cards, not shown"
        lines.append(f"seat {other.number}        {cards}  [{other.status}]")
    return "\n".join(lines)
