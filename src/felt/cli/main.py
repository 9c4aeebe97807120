"""The ``felt`` command line: presentation only; every rule lives in the core modules.

Bad input prints one line naming the problem (``felt: error: ...``) and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final, NoReturn

from felt import __version__
from felt.cli.admin import add_parser as add_admin_parser
from felt.core.cards import Card, format_cards, parse_cards
from felt.core.errors import FeltError, excerpt
from felt.core.evaluator import evaluate, evaluate_three
from felt.core.tables import FIVE_CARD_VALUES, TRIO_VALUES
from felt.games.base import Game, Sheet, TableGame
from felt.games.registry import families, game, game_ids, table_game

if TYPE_CHECKING:
    from felt.core.census import Census
    from felt.simulate import SimResult

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
    dealt = parse_cards(args.cards)
    if len(dealt) == 3:
        trio = evaluate_three(dealt)
        if args.json:
            out = {
                "cards": [str(c) for c in dealt],
                "category": trio.category.label,
                "rank": trio.rank,
                "max_rank": TRIO_VALUES,
                "best_five": None,
            }
            print(json.dumps(out))
        else:
            print(f"cards      {_show(dealt)}")
            print(f"hand       {trio.category.label} (a 3-card hand)")
            print(f"value      {trio.rank} of {TRIO_VALUES} (higher is better)")
        return 0
    hand = evaluate(dealt)
    royal = hand.royal_flush_length
    if args.json:
        print(
            json.dumps(
                {
                    "cards": [str(c) for c in dealt],
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
    print(f"cards      {_show(dealt)}")
    print(f"hand       {hand.describe()}")
    print(f"value      {hand.rank} of {FIVE_CARD_VALUES} (higher is better)")
    if len(dealt) > 5:
        print(f"best five  {_show(hand.best_five)}")
    if royal > 5:
        length = "six" if royal == 6 else "seven"
        print(f"also       {length}-card royal flush (13:69F-24.5(e))")
    return 0


def _census_table(c: Census) -> str:
    what = "3-card hands" if c.cards == 3 else f"best five of {c.cards} cards"
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


def _check_edition(found: Game, game_id: str, edition: str | None) -> None:
    """A game of one rule text refuses ``--edition`` (:meth:`Game.check_edition`); a game of
    several checks it where its configuration is read."""
    from felt.cli.script import has_editions

    if edition and not has_editions(found):
        found.check_edition(game_id, edition)


def _table_config(args: argparse.Namespace) -> Any:
    """The table a command runs on: --table FILE, else the edition's minimum table for the game."""
    found = table_game(args.game)
    _check_edition(found, args.game, args.edition)
    if args.table:
        file_game, config = found.load_config(args.table)
        edition = found.config_edition(config)
        if file_game != args.game or (args.edition and edition != args.edition):
            raise FeltError(f"table file {args.table!r} is for {file_game} under {edition}")
        return config
    return found.config(args.game, {}, edition=args.edition, where="--edition")


def _file_game(path: str) -> str:
    """The game a table file is for: its ``game`` key (the first table game when absent, as the
    first game's loader reads such a file).  Only the choice of loader rests on this; the loader
    then checks the whole file."""
    from felt.core.tablefile import read_toml

    ids = game_ids("table")
    name = read_toml(path).get("game", ids[0])
    if name not in ids:
        raise FeltError(
            f"{path}: game {excerpt(name)} is not one felt runs (allowed: {', '.join(ids)})"
        )
    return str(name)


def _note(message: str) -> None:
    """A progress note on standard error (never mixed into the output)."""
    print(f"felt: {message}", file=sys.stderr, flush=True)


def _cmd_play(args: argparse.Namespace) -> int:
    found = table_game(args.game)
    config = _table_config(args)
    found.play(config, {"seats": args.seats, "seat": args.seat, "seed": args.seed,
                        "rounds": args.rounds, "save": args.save, "cite": args.cite,
                        "symbols": _symbols_ok(), "note": _note})  # fmt: skip
    return 0


def _print_sheet(sheet: Sheet, args: argparse.Namespace) -> None:
    """Print a par sheet as --json or --format asks."""
    if args.json:
        print(sheet.to_json_text())
    elif args.format == "md":
        print(sheet.to_markdown(), end="")
    elif args.format == "html":
        print(sheet.to_html(), end="")
    else:
        print(sheet.to_text())


def _cmd_analyze(args: argparse.Namespace) -> int:
    from felt.core.money import cents

    found = game(args.game)
    owned: dict[str, tuple[str, Game]] = args.game_options  # destination -> (option, its game)
    for dest, (option, owner) in owned.items():
        if owner is not found and getattr(args, dest, None) is not None:
            raise FeltError(f"{option} applies to {', '.join(owner.ids)} only")
    if not isinstance(found, TableGame):
        sheet = found.analyze_command(args.game, args)
        if sheet is not None:
            _print_sheet(sheet, args)
        return 0
    ante = None if args.ante is None else cents(args.ante, "--ante")
    config = _table_config(args)
    sheet = found.analyze(args.game, config, ante, log=_note)
    if args.plot:
        from felt.cli.plots import beside, distribution_plot

        distribution_plot(sheet, args.plot)
        more: Callable[[], dict[str, Callable[[str], None]]] = getattr(sheet, "plots", dict)
        for name, draw in more().items():  # a sheet's own plots, each beside the first
            draw(beside(args.plot, name))
            _note(f"plot: {beside(args.plot, name)}")
    _print_sheet(sheet, args)
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from felt.core.money import cents
    from felt.simulate import progress_bar, simulate

    config = _table_config(args)
    ante = None if args.ante is None else cents(args.ante, "--ante")
    drawn = args.seed is None  # then a fresh seed from the OS, said so the run can be repeated
    if drawn:
        args.seed = secrets.randbelow(SIMULATE_SEEDS)
    result = simulate(config, args.rounds, seats=args.seats, seed=args.seed, workers=args.workers,
                      ante=ante, scheduler=args.scheduler, progress=progress_bar, engine=args.engine, log=_note)  # fmt: skip
    if drawn:  # once the run is done, so a refused one stays a one-line error
        _note(f"seed {args.seed} (repeat with --seed {args.seed})")
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
    print("\n".join(_frequency_table(result)))
    return 0


SIMULATE_SEEDS: Final = 10**9
"""``felt simulate`` without ``--seed`` draws its seed below this from the OS (short to type)."""


def _frequency_table(result: SimResult) -> list[str]:
    """The observed outcome frequencies beside the exact ones, as the text report shows them:
    count, observed, exact (a decimal of the exact fraction) and the deviation in standard
    errors."""
    from felt.analysis.parsheet import prob_text

    rows = result.frequency_rows()
    if not rows:
        return ["outcome frequencies: not counted on the round engine path"]
    n = result.tally.seat_rounds
    exact = result.exact_frequencies is not None
    table = [
        [name, f"{count:,}", prob_text(Fraction(count, n)),
         "-" if p is None else prob_text(p), "" if dev is None else f"{dev:+.2f}"]
        for name, count, _, p, dev in rows
    ]  # fmt: skip
    total = ["total", f"{sum(r[1] for r in rows):,}", "1", "1" if exact else "-", ""]
    head = ["outcome", "count", "observed", "exact", "deviation (se)"]
    widths = [max(len(r[i]) for r in [head, *table, total]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    note = (
        "(observed - exact) / standard error, binomial over seat-rounds"
        if exact
        else "exact: not available for this game / seat count"
    )
    rule = "  ".join("-" * w for w in widths)
    return ["", "outcome frequencies per seat-round, observed beside exact", f"  {note}",
            line(head), rule, *map(line, table), rule, line(total)]  # fmt: skip


def _cmd_rules(args: argparse.Namespace) -> int:
    """Every clause of a game's rule text with what felt does about it, from the clause register."""
    from felt.register import document

    _check_edition(game(args.game), args.game, args.edition)
    print(document(args.game, args.edition).render(args.format), end="")
    return 0


def _cmd_guide(args: argparse.Namespace) -> int:
    """The patron's guide to one table, from its table file or an edition's minimum table."""
    if args.game is None:
        if args.table is None:
            raise FeltError(f"guide needs --table FILE or --game {'|'.join(game_ids('table'))}")
        args.game = _file_game(args.table)  # the file's own game picks the loader
    print(table_game(args.game).guide(_table_config(args), args.format), end="")
    return 0


def _either(names: Sequence[str], word: str = "or") -> str:
    """``a, b or c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


def _editions() -> str:
    """The editions ``--edition`` may name: those of every game whose rule text has several."""
    from felt.cli.script import has_editions

    names = [
        e for f in families().values() if has_editions(f) for g in f.ids for e in f.editions(g)
    ]
    return _either(list(dict.fromkeys(names))) if names else "the rule text's edition"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every felt command."""
    parser = _Parser(
        prog="felt",
        description="Casino poker table games of the NJ and MA rules, run and analysed exactly.",
    )
    parser.add_argument("--version", action="version", version=f"felt {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    tables, everyone = game_ids("table"), game_ids()
    first, last = tables[0], tables[-1]
    editions = f"{_editions()} (default: the first edition with the game)"
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
        "  felt replay round.json\n  felt replay session.json --json",
    )
    p_replay.add_argument("file", help="round script, report or list of scripts (JSON)")
    p_replay.add_argument("--json", action="store_true", help="print JSON")
    p_replay.set_defaults(run=_cmd_replay)

    p_play = sub.add_parser(
        "play",
        help=f"play {_either(tables)} at a table in the terminal",
        formatter_class=_Formatter,
        description="Sit at a table; other seats are played by the house's suggested strategy.\n"
        "Each decision accepts only its listed answers; '?' explains it, 'q' (or Ctrl-C,\n"
        "or end of input) leaves with the session summary.  At a wager '?' shows the pay\n"
        "tables and enter takes the amount in brackets (your last ante or wager).\n"
        "Cards are shuffled by the operating system's random source unless --seed is given.\n"
        "\nexamples:\n"
        f"  felt play {first}\n  felt play {last} --seats 4 --seat 2 --save session.json\n"
        f"  felt play {first} --seed 11 --rounds 3   (a demonstration: predictable cards)",
    )
    p_play.add_argument("game", choices=tables, help="the game")
    p_play.add_argument("--edition", help=editions)
    p_play.add_argument("--table", help=table_help)
    p_play.add_argument(
        "--seats",
        type=int,
        default=1,
        help="seats in play, yours included (1 to the table's seats: their number depends on "
        "the game and the table file)",
    )
    p_play.add_argument(
        "--seat",
        type=int,
        default=1,
        help="your seat, 1 to the table's seats, from the dealer's left",
    )
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
        description="Exact analysis by full enumeration under a table's pay tables and limits.\n\n"
        f"examples:\n  felt analyze {first}\n"
        f"  felt analyze {last} --table table.toml --format md > par.md",
    )
    p_an.add_argument("game", choices=everyone, help="the game")
    owned = {a.dest: (a.option_strings[0], found) for found in families().values()
             for a in found.add_analyze_options(p_an)}  # fmt: skip
    p_an.add_argument("--edition", help=editions)
    p_an.add_argument("--table", help=table_help)
    p_an.add_argument("--ante", help="base wager in dollars (default: the table minimum)")
    p_an.add_argument("--json", action="store_true", help="print JSON")
    p_an.add_argument(
        "--format", choices=("text", "md", "html"), default="text", help="par sheet format"
    )
    p_an.add_argument(
        "--plot",
        help="draw the distribution of a round's net result (PNG) (default: no plot); a sheet "
        "with plots of its own (a progressive's return against the meter) writes each beside it "
        "as NAME-<plot>.png",
    )
    p_an.set_defaults(run=_cmd_analyze, game_options=owned)

    p_sim = sub.add_parser(
        "simulate",
        help="simulate rounds and compare the observed house edge with the exact one",
        formatter_class=_Formatter,
        description="Simulate rounds on the compiled fast path (checked against the round engine)."
        f"\n\nexamples:\n  felt simulate {first} --rounds 100000\n"
        f"  felt simulate {last} --rounds 1000000 --workers 2 --seed 7 --json",
    )
    p_sim.add_argument("game", choices=tables, help="the game")
    p_sim.add_argument("--edition", help=editions)
    p_sim.add_argument("--table", help=table_help)
    p_sim.add_argument("--rounds", type=int, required=True, help="rounds to play (required)")
    p_sim.add_argument("--seats", type=int, default=1, help="seats (betting areas) in play")
    p_sim.add_argument(
        "--seed",
        type=int,
        help="seed of the simulated shuffles, to repeat a run (default: a fresh one from the "
        "operating system, printed on standard error)",
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
        "  felt guide --table table.toml --format html > guide.html\n"
        f"  felt guide --game {first}",
    )
    p_guide.add_argument(
        "--table", help="table configuration file (TOML) (default: none, the minimum table)"
    )
    p_guide.add_argument(
        "--game",
        choices=tables,
        help="the game, without --table (default: the table file's game)",
    )
    p_guide.add_argument(
        "--edition",
        help=f"{_editions()} (default: the table file's, else the first edition with the game)",
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
        "not applicable or a gap.  It names the rule text's file where it is found: in\n"
        "FELT_SEEDS if set (a FELT_SEEDS without the text is an error), else in shared/seeds\n"
        "beside the checkout, in the current directory or beside it; not found, it says\n"
        "where it looked.\n\nexamples:\n"
        f"  felt rules {first} --format md\n"
        f"  FELT_SEEDS=../shared/seeds felt rules {first}\n"
        f"  felt rules {everyone[-1]} --format html > coverage.html",
    )
    p_rules.add_argument(
        "game",
        choices=everyone,
        help="the game documented",
    )
    p_rules.add_argument(
        "--edition",
        help=f"{_editions()} (default: the first edition with the game; none for a game of one "
        "text)",
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
        description="Run the table server (see README, 'The table server').  It prints one line:\n"
        "where it listens, its database (never a password), its node name and its tables.  The\n"
        "first start on a new database opens the supervisor 'admin' (password from\n"
        "FELT_ADMIN_PASSWORD, else printed once) and prints what to do next.\n\n"
        "examples:\n"
        "  felt serve\n"
        "  felt serve --host 0.0.0.0 --log-level info\n"
        "  felt serve --database postgresql://127.0.0.1:5432/test --port 8001 --tables tables.toml",
        epilog=SERVE_WALKTHROUGH,
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
        help=f"TOML file of [[table]] entries (default: one table each of {_either(tables, 'and')})",
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
    p_serve.add_argument(
        "--log-level",
        choices=("warning", "info", "debug"),
        default="warning",
        help="how much to log on standard error: warning shows only what needs an operator "
        "(lock-outs, lost leases); info adds migrations, start-up and requests",
    )
    p_serve.add_argument(
        "--ws-compression",
        action="store_true",
        help="compress WebSocket messages (permessage-deflate) for clients that offer it: less "
        "traffic for slow links, more CPU per message (default: off)",
    )
    p_serve.set_defaults(run=_cmd_serve)
    for found in families().values():
        found.add_commands(sub, _Formatter)
    add_admin_parser(sub, _Formatter)
    return parser


SERVE_WALKTHROUGH = """\
the first ten minutes on a fresh database (README, 'The table server'):
  1. felt serve --host 0.0.0.0  prints the URL to open and, this first time,
     the password of the supervisor admin (unless FELT_ADMIN_PASSWORD is set).
  2. Open the URL in a browser and log in as admin with that password.
  3. Staff: make a cashier, a dealer and two players (each account's role and a
     first password, which its owner changes at the first log-in).
  4. The cashier logs in, opens the Cage, finds each player and deposits (say
     500.00): each deposit gives a numbered receipt with the balance before and
     after; the Cage report adds up the day.
  5. Floor (a supervisor, such as admin): a table starts open; Close or Open
     each (closing asks first). The dealer opens a table's console from Tables.
  6. Each player logs in on their own device, picks the table in the lobby, sits
     down and places an ante; the table deals, asks each decision and settles,
     and the result stays on screen until the next wager.
  On the Floor a supervisor reconstructs any round by its id (boston5-1:1); a
  player's Recall shows their last ten rounds. --log-level info logs more.
"""


def _cmd_serve(args: argparse.Namespace) -> int:
    from felt.server.serve import serve

    return serve(
        args.database,
        args.tables,
        args.host,
        args.port,
        args.node,
        args.lease_seconds,
        args.log_level,
        args.ws_compression,
    )


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
