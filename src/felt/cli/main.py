"""The ``felt`` command line: presentation only; every rule lives in the core modules.

Bad input prints one line naming the problem (``felt: error: ...``) and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, NoReturn, Protocol

from felt import __version__
from felt.cli.admin import add_parser as add_admin_parser
from felt.cli.keno import add_parser as add_keno_parser
from felt.core.cards import Card, format_cards, parse_cards
from felt.core.errors import FeltError
from felt.core.evaluator import evaluate, evaluate_three
from felt.core.tables import FIVE_CARD_VALUES, TRIO_VALUES
from felt.games.boston.config import TableConfig, load_table
from felt.games.double_down import DoubleDownConfig, load_double_down_table

if TYPE_CHECKING:
    from felt.core.census import Census
    from felt.games.keno.ratecard import RateCard

CENSUS_SIZES = (3, 5, 6, 7)
"""Hand sizes ``felt hands`` counts (felt.core.census, imported only when used: it loads numba,
which ``felt eval`` never needs)."""

EXIT_USAGE = 2


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions keep their line breaks (for the examples); every option shows its default."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "(default" in text or "required" in text or not action.option_strings:
            return text
        if action.default is argparse.SUPPRESS or action.default is None:
            return text
        if isinstance(action, argparse._StoreTrueAction):
            return f"{text} (default: off)"
        return f"{text} (default: %(default)s)"


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line like every other felt error."""

    def error(self, message: str) -> NoReturn:
        raise FeltError(f"{message} (see '{self.prog} --help')")


def _symbols_ok() -> bool:
    """Whether stdout can show suit symbols; otherwise cards print as ``As``."""
    try:
        "♠♥♦♣".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _show(cards: Sequence[Card]) -> str:
    return format_cards(cards, symbols=_symbols_ok())


def _cmd_eval(args: argparse.Namespace) -> int:
    cards = parse_cards(args.cards)
    if len(cards) == 3:
        three = evaluate_three(cards)
        if args.json:
            out = {
                "cards": [str(c) for c in cards],
                "category": three.category.label,
                "rank": three.rank,
                "max_rank": TRIO_VALUES,
                "best_five": None,
            }
            print(json.dumps(out))
        else:
            print(f"cards      {_show(cards)}")
            print(f"hand       {three.category.label} (three-card hand, optional bonus wager)")
            print(f"value      {three.rank} of {TRIO_VALUES} (higher is better)")
        return 0
    hand = evaluate(cards)
    royal = hand.royal_flush_length
    if args.json:
        print(
            json.dumps(
                {
                    "cards": [str(c) for c in cards],
                    "category": hand.category.label,
                    "rank": hand.rank,
                    "max_rank": FIVE_CARD_VALUES,
                    "best_five": [str(c) for c in hand.best_five],
                    "description": hand.describe(),
                    "royal_flush_length": royal,
                }
            )
        )
        return 0
    print(f"cards      {_show(cards)}")
    print(f"hand       {hand.describe()}")
    print(f"value      {hand.rank} of {FIVE_CARD_VALUES} (higher is better)")
    if len(cards) > 5:
        print(f"best five  {_show(hand.best_five)}")
    if royal > 5:
        length = "six" if royal == 6 else "seven"
        print(f"also       {length}-card royal flush (13:69F-24.5(e))")
    return 0


def _census_table(c: Census) -> str:
    what = "three-card hands" if c.cards == 3 else f"best five of {c.cards} cards"
    lines = [f"{what}: {c.total:,} hands", f"{'hand':<28}{'count':>14}{'probability':>14}  one in"]
    for label, n in [*c.counts.items(), *c.extended_royals.items()]:
        p = c.probability(label)
        one_in = f"{float(1 / p):,.2f}" if n else "-"
        lines.append(f"{label:<28}{n:>14,}{float(p):>14.8f}  {one_in}")
    if c.extended_royals:
        lines.append("(six- and seven-card royal flushes are among the royal flushes above)")
    return "\n".join(lines)


def _cmd_hands(args: argparse.Namespace) -> int:
    from felt.core.census import hand_census

    census = hand_census(args.cards)
    if args.json:
        out: dict[str, object] = {
            "cards": census.cards,
            "total": census.total,
            "categories": census.counts,
        }
        if census.extended_royals:
            out["extended_royals"] = census.extended_royals
        print(json.dumps(out))
    else:
        print(_census_table(census))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from felt.cli.script import load_scripts, report, report_text, run_script

    rounds = [run_script(script) for script in load_scripts(args.file)]
    if args.json:
        reports = [report(rnd) for rnd in rounds]
        print(json.dumps(reports[0] if len(reports) == 1 else reports))
    else:
        print("\n\n".join(report_text(rnd, symbols=_symbols_ok()) for rnd in rounds))
    return 0


def _table_config(args: argparse.Namespace) -> TableConfig | DoubleDownConfig:
    """The table a command runs on: --table FILE, else the edition's minimum table for the game."""
    if args.game == "double-down-stud":
        if args.edition:
            raise FeltError(
                "--edition does not apply to double-down-stud (one text: N.J.A.C. 19:47-17)"
            )
        return (
            load_double_down_table(args.table) if args.table else DoubleDownConfig.from_mapping({})
        )
    if args.table:
        config = load_table(args.table)
        if config.game != args.game or (args.edition and config.edition.name != args.edition):
            raise FeltError(
                f"table file {args.table!r} is for {config.game} under {config.edition.name}"
            )
        return config
    data = {"game": args.game} | ({"edition": args.edition} if args.edition else {})
    return TableConfig.from_mapping(data, where="--edition")


def _note(message: str) -> None:
    """A progress note on standard error (never mixed into the output)."""
    print(f"felt: {message}", file=sys.stderr, flush=True)


def _cmd_play(args: argparse.Namespace) -> int:
    from felt.cli.play import play_double_down, play_session

    config = _table_config(args)
    seats = config.areas if isinstance(config, DoubleDownConfig) else 6
    if not 1 <= args.seats <= seats or not 1 <= args.seat <= seats:
        raise FeltError(f"--seats and --seat must be 1 to {seats}")
    if args.rounds is not None and args.rounds < 1:
        raise FeltError(f"--rounds must be 1 or more, got {args.rounds}")
    if args.seed is not None:
        _note(f"seeded with {args.seed}: for replays and tests only; these cards can be predicted")
    if isinstance(config, DoubleDownConfig):
        play_double_down(config, seats=args.seats, human=args.seat, seed=args.seed,
                         symbols=_symbols_ok(), rounds=args.rounds, save=args.save,
                         cite=args.cite)  # fmt: skip
    else:
        play_session(config, seats=args.seats, human=args.seat, seed=args.seed,
                     symbols=_symbols_ok(), rounds=args.rounds, save=args.save,
                     cite=args.cite)  # fmt: skip
    return 0


class _Sheet(Protocol):
    """A par sheet in every format ``felt analyze`` prints."""

    def to_json_text(self) -> str: ...
    def to_markdown(self) -> str: ...
    def to_html(self) -> str: ...
    def to_text(self) -> str: ...


def _print_sheet(sheet: _Sheet, args: argparse.Namespace) -> None:
    """Print a par sheet as --json or --format asks."""
    if args.json:
        print(sheet.to_json_text())
    elif args.format == "md":
        print(sheet.to_markdown(), end="")
    elif args.format == "html":
        print(sheet.to_html(), end="")
    else:
        print(sheet.to_text())


def _analyze_keno(args: argparse.Namespace) -> int:
    """``felt analyze keno``: the exact analysis of a rate card (every ticket it offers)."""
    from felt.games.keno.ratecard import example_rate_card, load_rate_card

    for option, value in (("--edition", args.edition), ("--table", args.table),
                          ("--ante", args.ante), ("--plot", args.plot)):  # fmt: skip
        if value is not None:
            raise FeltError(f"{option} does not apply to keno (a rate card sets every wager)")
    card = load_rate_card(args.rate_card) if args.rate_card else example_rate_card()
    if args.ticket is not None:
        return _analyze_keno_ticket(card, args)
    _print_sheet(card.analysis.with_many_way(), args)
    return 0


TICKET_SPEC: Final = (
    "KIND: GROUPS: CONDITIONS as the writer writes them, e.g. "
    "'way: 1 2 3 4 / 5 6 7 8 / 9 10 11 12: 3/8', 'king: 1/2/3/4/5/6/7/8/9: 9/8', "
    "'straight: 3 17 22 40'"
)


def keno_ticket_request(spec: str, rate: str) -> dict[str, Any]:
    """The keno request ``--ticket SPEC`` names (``KIND: GROUPS: CONDITIONS``, the groups and
    the conditioning as ``felt keno issue`` takes them), at ``rate`` per way."""
    from felt.cli.keno import build_request

    parts = [p.strip() for p in spec.split(":")]
    kind = parts[0]
    if kind == "straight" and len(parts) == 2:
        return build_request(numbers=parts[1], rate=rate)
    if len(parts) != 3 or not kind:
        raise FeltError(f"--ticket {spec!r} is not {TICKET_SPEC}")
    return build_request(kind=kind, groups=parts[1], conditions=parts[2], rate=rate)


def _analyze_keno_ticket(card: RateCard, args: argparse.Namespace) -> int:
    """``felt analyze keno --ticket SPEC``: one ticket's exact house advantage at the minimum
    wager and the verdict the writer's station gives it (19:47-15.3(e))."""
    from felt.core.money import dollars
    from felt.games.keno.advantage import LIMIT, advantage_of
    from felt.games.keno.tickets import read_request

    if args.format != "text":
        raise FeltError("--ticket prints text or --json")
    request = keno_ticket_request(args.ticket, dollars(card.minimum_wager))
    ticket = read_request(request, card)
    a = advantage_of(card, ticket)
    h = a.house_advantage
    verdict = "issued" if a.complies else "refused at issue"
    if args.json:
        print(json.dumps({
            "rate_card": card.name, "kind": ticket.kind, "conditioning": ticket.conditioning,
            "groups": list(ticket.sizes), "numbers": ticket.marked(), "ways": a.ways,
            "minimum_wager_dollars": card.minimum_wager / 100, "price_dollars": a.price / 100,
            "aggregate_limit_binds": a.capped, "house_advantage_exact": f"{h.numerator}/{h.denominator}",
            "house_advantage": float(h), "complies_15_3_e": a.complies, "at_issue": verdict,
        }, indent=2))  # fmt: skip
        return 0
    print(f"Keno ticket under {card.name}: {ticket.kind} {ticket.conditioning}, numbers "
          f"{ticket.marked()} (groups {'+'.join(map(str, ticket.sizes))})")  # fmt: skip
    print(f"  ways: {a.ways:,}; price at the minimum wager ${dollars(card.minimum_wager)} per "
          f"way: ${dollars(a.price)} per game")  # fmt: skip
    print(f"  the aggregate limit can cut its payout: {'yes' if a.capped else 'no'}")
    print(f"  house advantage at the minimum wager: {a.figure}")
    print(f"  at most {float(LIMIT) * 100:.0f}% (N.J.A.C. 19:47-15.3(e)): "
          f"{'yes' if a.complies else 'NO'}; {verdict}")  # fmt: skip
    return 0


def _cmd_analyze(args: argparse.Namespace) -> int:
    from felt.core.money import cents
    from felt.games.registry import table_game

    if args.game == "keno":
        return _analyze_keno(args)
    if args.rate_card:
        raise FeltError("--rate-card applies to keno only")
    if args.ticket is not None:
        raise FeltError("--ticket applies to keno only")
    ante = None if args.ante is None else cents(args.ante, "--ante")
    config = _table_config(args)
    game_id = "double-down-stud" if isinstance(config, DoubleDownConfig) else config.game
    sheet = table_game(game_id).analyze(game_id, config, ante, log=_note)
    if args.plot:
        from felt.cli.plots import distribution_plot

        distribution_plot(sheet, args.plot)
    _print_sheet(sheet, args)
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from felt.core.money import cents
    from felt.simulate import progress_bar, simulate

    config = _table_config(args)
    ante = None if args.ante is None else cents(args.ante, "--ante")
    result = simulate(config, args.rounds, seats=args.seats, seed=args.seed, workers=args.workers,
                      ante=ante, scheduler=args.scheduler, progress=progress_bar, engine=args.engine, log=_note)  # fmt: skip
    if args.plot:
        from felt.cli.plots import convergence_plot

        convergence_plot(result, args.plot)
    out = result.to_json()
    if args.json:
        print(json.dumps(out))
        return 0
    print(
        f"{out['game']} ({out['edition']}): {out['rounds']:,} rounds x {out['seats']} seat(s), seed {args.seed}"
    )
    if out["ci95"] is None:
        interval = "95% CI needs at least two rounds"
    else:
        lo, hi = out["ci95"]
        interval = f"95% CI [{lo * 100:.4f}%, {hi * 100:.4f}%]"
    print(f"house edge per base wager  observed {out['house_edge'] * 100:.4f}%  {interval}")
    if out["exact_house_edge"] is None:
        print("                           exact    not available for this game / seat count")
    else:
        where = {True: "inside the interval", False: "OUTSIDE the interval", None: ""}
        print(f"                           exact    {out['exact_house_edge'] * 100:.4f}%  ({out['exact_house_edge_exact']})"
              f"  {where[out['within_ci']]}".rstrip())  # fmt: skip
    return 0


def _cmd_rules(args: argparse.Namespace) -> int:
    """Every clause of a game's rule text with what felt does about it, from the clause register."""
    from felt.register import document

    if args.game in ("double-down-stud", "keno") and args.edition:
        text = {"double-down-stud": "N.J.A.C. 19:47-17", "keno": "N.J.A.C. 19:47-15"}[args.game]
        raise FeltError(f"--edition does not apply to {args.game} (one text: {text})")
    print(document(args.game, args.edition).render(args.format), end="")
    return 0


def _cmd_guide(args: argparse.Namespace) -> int:
    """The patron's guide to one table, from its table file or an edition's minimum table."""
    from felt.core.errors import excerpt
    from felt.core.tablefile import read_toml
    from felt.guide import render_guide

    if args.game is None:
        if args.table is None:
            raise FeltError("guide needs --table FILE or --game boston5|boston7|double-down-stud")
        game = read_toml(args.table).get("game", "boston5")  # as load_table reads it
        args.game = game if isinstance(game, str) else excerpt(game)  # picks the loader
    print(render_guide(_table_config(args), args.format), end="")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every felt command."""
    parser = _Parser(
        prog="felt",
        description="Casino poker table games of the NJ and MA rules, run and analysed exactly.",
    )
    parser.add_argument("--version", action="version", version=f"felt {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    editions = "nj-19-47-24, ma-205-cmr or nj-13-69f-24 (default: the first edition with the game)"
    table_help = "table configuration file (TOML) (default: the edition's minimum table)"

    p_eval = sub.add_parser(
        "eval",
        help="evaluate a hand of 3, 5, 6 or 7 cards",
        formatter_class=_Formatter,
        description="Evaluate 3 cards (optional bonus wager) or the best five of 5, 6 or 7 cards."
        "\nCards are a rank (2-9, T or 10, J, Q, K, A) and a suit (c, d, h, s or ♣ ♦ ♥ ♠).\n\n"
        "examples:\n  felt eval As Ks Qs\n  felt eval Ah Kh Qh Jh 10h 2c 3d --json",
    )
    p_eval.add_argument("cards", nargs="+", metavar="CARD", help="e.g. As Kd 10h 9c 2s")
    p_eval.add_argument("--json", action="store_true", help="print JSON")
    p_eval.set_defaults(run=_cmd_eval)

    p_hands = sub.add_parser(
        "hands",
        help="exact frequency of every hand category, by full enumeration",
        formatter_class=_Formatter,
        description="Count every category over all hands of 3, 5, 6 or 7 cards from one deck."
        "\n\nexamples:\n  felt hands --cards 7\n  felt hands --cards 3 --json",
    )
    p_hands.add_argument(
        "--cards", type=int, required=True, choices=CENSUS_SIZES, help="hand size (required)"
    )
    p_hands.add_argument("--json", action="store_true", help="print JSON")
    p_hands.set_defaults(run=_cmd_hands)

    p_replay = sub.add_parser(
        "replay",
        help="play a round script (JSON) and print the round and its settlement",
        formatter_class=_Formatter,
        description="Play the round a script fixes (deck, wagers, actions) and print it.  The\n"
        'file may also be a round\'s JSON report (its "script" replays the round exactly)\n'
        "or a list of scripts, as 'felt play --save' writes.\n\nexamples:\n"
        "  felt replay examples/boston5-round.json\n  felt replay session.json --json",
    )
    p_replay.add_argument("file", help="round script, report or list of scripts (JSON)")
    p_replay.add_argument("--json", action="store_true", help="print JSON")
    p_replay.set_defaults(run=_cmd_replay)

    p_play = sub.add_parser(
        "play",
        help="play Boston 5, Boston 7 or Double Down Stud at a table in the terminal",
        formatter_class=_Formatter,
        description="Sit at a table; other seats are played by the house's suggested strategy.\n"
        "Each decision accepts only its listed answers; '?' explains it, 'q' (or Ctrl-C,\n"
        "or end of input) leaves with the session summary.  Cards are shuffled by the\n"
        "operating system's random source unless --seed is given.\n\nexamples:\n"
        "  felt play boston5\n  felt play double-down-stud --seats 4 --seat 2 --save session.json\n"
        "  felt play boston7 --seed 11 --rounds 3   (a demonstration: predictable cards)",
    )
    p_play.add_argument("game", choices=("boston5", "boston7", "double-down-stud"), help="the game")
    p_play.add_argument("--edition", help=editions)
    p_play.add_argument("--table", help=table_help)
    p_play.add_argument("--seats", type=int, default=1, help="seats in play, yours included (1-6)")
    p_play.add_argument("--seat", type=int, default=1, help="your seat, 1-6 from the dealer's left")
    p_play.add_argument(
        "--seed",
        type=int,
        help="for replays and tests only: a seeded game's later cards can be predicted "
        "(default: none, the operating system's random source)",
    )
    p_play.add_argument(
        "--rounds",
        type=int,
        help="stop after this many rounds, 1 or more (default: until you quit)",
    )
    p_play.add_argument(
        "--save",
        metavar="FILE",
        help="write the session's rounds as replayable scripts (a JSON list 'felt replay' reads) "
        "(default: not saved)",
    )
    p_play.add_argument(
        "--cite", action="store_true", help="show the rule clause on every settlement line"
    )
    p_play.set_defaults(run=_cmd_play)

    p_an = sub.add_parser(
        "analyze",
        help="exact par sheet: house edge, element of risk, strategy, every outcome",
        formatter_class=_Formatter,
        description="Exact analysis by full enumeration under a table's pay tables and limits;\n"
        "for keno, every ticket a rate card offers, with the 30% house advantage check.\n\n"
        "examples:\n  felt analyze boston5\n"
        "  felt analyze boston7 --table examples/table-boston7.toml --format md > par.md\n"
        "  felt analyze keno --rate-card card.toml --json\n"
        "  felt analyze keno --ticket 'king: 1/2/3/4/5/6/7/8/9: 9/8'",
    )
    p_an.add_argument(
        "game", choices=("boston5", "boston7", "double-down-stud", "keno"), help="the game"
    )
    p_an.add_argument(
        "--rate-card",
        help="keno rate card (TOML) (default: felt's example rate card)",
    )
    p_an.add_argument(
        "--ticket",
        metavar="SPEC",
        help=f"keno: analyse one ticket at the minimum wager, {TICKET_SPEC} (default: the card)",
    )
    p_an.add_argument("--edition", help=editions)
    p_an.add_argument("--table", help=table_help)
    p_an.add_argument("--ante", help="base wager in dollars (default: the table minimum)")
    p_an.add_argument("--json", action="store_true", help="print JSON")
    p_an.add_argument(
        "--format", choices=("text", "md", "html"), default="text", help="par sheet format"
    )
    p_an.add_argument(
        "--plot", help="draw the distribution of a round's net result (PNG) (default: no plot)"
    )
    p_an.set_defaults(run=_cmd_analyze)

    p_sim = sub.add_parser(
        "simulate",
        help="simulate rounds and compare the observed house edge with the exact one",
        formatter_class=_Formatter,
        description="Simulate rounds on the compiled fast path (checked against the round engine)."
        "\n\nexamples:\n  felt simulate boston5 --rounds 100000\n"
        "  felt simulate double-down-stud --rounds 1000000 --workers 2 --seed 7 --json",
    )
    p_sim.add_argument("game", choices=("boston5", "boston7", "double-down-stud"), help="the game")
    p_sim.add_argument("--edition", help=editions)
    p_sim.add_argument("--table", help=table_help)
    p_sim.add_argument("--rounds", type=int, required=True, help="rounds to play (required)")
    p_sim.add_argument("--seats", type=int, default=1, help="seats (betting areas) in play")
    p_sim.add_argument(
        "--seed", type=int, default=0, help="seed of the simulated shuffles (reproducible runs)"
    )
    p_sim.add_argument("--workers", type=int, default=1, help="local processes")
    p_sim.add_argument(
        "--scheduler",
        help="a Dask scheduler address to run the same job on a cluster (default: run locally)",
    )
    p_sim.add_argument("--ante", help="ante in dollars (default: the table minimum)")
    p_sim.add_argument("--json", action="store_true", help="print JSON")
    p_sim.add_argument(
        "--plot", help="draw the estimate converging on the exact value (PNG) (default: no plot)"
    )
    p_sim.add_argument(
        "--engine", action="store_true", help="play every round through the round engine"
    )
    p_sim.set_defaults(run=_cmd_simulate)

    p_guide = sub.add_parser(
        "guide",
        help="the patron's guide to a table: wagers, the round, pay tables, limits, decisions",
        formatter_class=_Formatter,
        description="Write the patron's guide to the game at one table, from the table file it\n"
        "runs on (or an edition's minimum table), citing the rule text.\n\nexamples:\n"
        "  felt guide --table examples/table-boston7.toml --format html > boston7.html\n"
        "  felt guide --game boston5 --edition ma-205-cmr",
    )
    p_guide.add_argument(
        "--table", help="table configuration file (TOML) (default: none, the minimum table)"
    )
    p_guide.add_argument(
        "--game",
        choices=("boston5", "boston7", "double-down-stud"),
        help="the game, without --table (default: the table file's game)",
    )
    p_guide.add_argument(
        "--edition",
        help="nj-19-47-24, ma-205-cmr or nj-13-69f-24 (default: the table file's, else the "
        "first edition with the game)",
    )
    p_guide.add_argument(
        "--format", choices=("md", "html"), default="md", help="output format (default: md)"
    )
    p_guide.set_defaults(run=_cmd_guide)

    p_rules = sub.add_parser(
        "rules",
        help="rule coverage: every clause of the rule text, its status and the tests that check it",
        formatter_class=_Formatter,
        description="Print the clause register for one game under one edition: every clause of\n"
        "the text, as that edition cites it, implemented (with its tests), not modelled,\n"
        "not applicable or a gap.\n\nexamples:\n"
        "  felt rules keno --format md\n"
        "  felt rules boston5 --edition nj-19-47-24\n"
        "  felt rules boston7 --format html > boston7-coverage.html",
    )
    p_rules.add_argument(
        "game",
        choices=("boston5", "boston7", "double-down-stud", "keno"),
        help="the game documented",
    )
    p_rules.add_argument(
        "--edition",
        help="nj-19-47-24, ma-205-cmr or nj-13-69f-24 (default: the first edition with the game; "
        "none for double-down-stud)",
    )
    p_rules.add_argument(
        "--format",
        choices=("text", "md", "html", "json"),
        default="text",
        help="output format (default: text)",
    )
    p_rules.set_defaults(run=_cmd_rules)

    p_serve = sub.add_parser(
        "serve",
        help="run the table server: an HTTP and WebSocket API with a durable ledger",
        formatter_class=_Formatter,
        description="Run the table server (see README, 'The table server').  The first start\n"
        "creates the supervisor 'admin' (password from FELT_ADMIN_PASSWORD, else printed once).\n\n"
        "examples:\n"
        "  felt serve\n"
        "  felt serve --database postgresql://127.0.0.1:5432/test --port 8001 --tables tables.toml",
    )
    p_serve.add_argument(
        "--database",
        help="sqlite:///PATH or postgresql://HOST:PORT/DB (default: SQLite in the user's data "
        "directory, ~/.local/share/felt/felt.db)",
    )
    p_serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)"
    )
    p_serve.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    p_serve.add_argument(
        "--tables",
        help="TOML file of [[table]] entries (default: one table each of boston5, boston7 and "
        "double-down-stud)",
    )
    p_serve.add_argument(
        "--node",
        help="this process's name in table leases, and where clients are sent for its tables; "
        "unique per running process (default: HOST:PORT)",
    )
    p_serve.add_argument(
        "--lease-seconds",
        type=float,
        default=10.0,
        help="how long this process's hold on its tables lasts unrenewed (renewed every third "
        "of it): a process that dies has its tables taken over about this long after (1 to 3600)",
    )
    p_serve.set_defaults(run=_cmd_serve)
    add_keno_parser(sub, _Formatter)
    add_admin_parser(sub, _Formatter)
    return parser


def _cmd_serve(args: argparse.Namespace) -> int:
    from felt.server.serve import serve

    return serve(args.database, args.tables, args.host, args.port, args.node, args.lease_seconds)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the felt command line; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
        if args.command == "eval" and len(args.cards) not in (3, 5, 6, 7):
            parse_cards(args.cards)  # an unknown or repeated card is the clearer error
            raise FeltError(f"eval needs 3, 5, 6 or 7 cards, got {len(args.cards)}")
        status: int = args.run(args)
    except FeltError as err:
        print(f"felt: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into a program that stopped reading (e.g. head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
