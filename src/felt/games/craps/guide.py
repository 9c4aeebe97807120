"""The patron's guide to a craps table, built from the table's own configuration and rendered by
the shared guide renderer (:mod:`felt.guide`).

The seed text gives N.J.A.C. 19:47-1.1 (definitions) and 1.2(a) 1-19 (the permissible wagers)
and only the titles of 1.3 to 1.11; each paragraph cites the clause it rests on, or the section
whose title it falls under (marked "title only"), and the opening says which is which.  The
limits, the pay table, the odds multiples and where the dice come from are this table's own
(:class:`~.config.CrapsConfig`); the house edge of each wager is the exact analysis's
(:mod:`.analysis`, read when the guide is rendered).

>>> from felt.games.craps.config import CrapsConfig
>>> text = render(CrapsConfig.from_mapping({}), "md")
>>> print(text.splitlines()[0])
# Craps: the patron's guide
>>> "| Place 6 to win | 6 before a 7 | 7 to 6 | 1.515% |" in text
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from felt.core.errors import FeltError
from felt.games.craps.config import CrapsConfig, Rules, rules
from felt.games.craps.spots import HARD_NUMBERS, NUMBERS, TRUE_ODDS, WAYS, spot

NAME: Final = "Craps"
FORMATS: Final = ("md", "html")
TITLE_ONLY: Final = " (title only)"
"""How a citation of a section the seed text gives only by its title is marked."""


def pays_text(odds: Fraction) -> str:
    """Odds as posted, with the word "to" (``1,000 to 1``): never "for" (1.4, title only)."""
    return f"{odds.numerator:,} to {odds.denominator:,}"


def step(odds: Fraction) -> int:
    """The least step, in cents, of a wager whose win at ``odds`` is a whole number of cents:
    a wager is payable in full only in multiples of it (1.4, title only).

    >>> step(Fraction(7, 6)), step(Fraction(27, 4)), step(Fraction(1))
    (6, 4, 1)
    """
    return odds.denominator


def edges(config: CrapsConfig) -> dict[str, Fraction]:
    """The house edge of each wager at this table, per wager made (a void counts as decided at
    no gain), by spot id, from the exact analysis (:func:`.analysis.wager_figures`), read when
    the guide is rendered."""
    from felt.games.craps.analysis import wager_figures

    return {w.id: w.edge_made for w in wager_figures(config)}


def _percent(edge: Fraction | None) -> str:
    """An edge as a patron reads it: ``1.414%`` (or a dash where none was computed)."""
    if edge is None:
        return "-"
    return f"{float(edge) * 100:.3f}%"


def _times(multiple: Fraction) -> str:
    """A multiple of the line wager as a table posts it: ``6x``, ``7.5x``."""
    if multiple.denominator == 1:
        return f"{multiple.numerator}x"
    return f"{float(multiple):g}x"


def _cite(r: Rules, *sections: str) -> str:
    """Sections of 19:47-1, the first cited in full; a section the seed gives only by its title
    is marked so (``N.J.A.C. 19:47-1.6 (title only)``)."""
    out = []
    for i, s in enumerate(sections):
        text = r.cite(s) if i == 0 else f"1.{s}"
        out.append(text + (TITLE_ONLY if s.split("(")[0] not in ("1", "2") else ""))
    return ", ".join(out)


def _wager_rows(c: CrapsConfig, edge: dict[str, Fraction]) -> list[tuple[str, str, str, str]]:
    """Each wager of the table: what wins it, what it pays, its house edge."""
    p = c.pays
    rows: list[tuple[str, str, str, str]] = [
        ("Pass", "7 or 11 on the come out roll; the point again before a 7", pays_text(p["pass"]),
         _percent(edge.get("pass"))),
        ("Don't pass", "2 or 3 on the come out roll; a 7 before the point (12 on the come out "
         "roll: void, returned)", pays_text(p["dont_pass"]), _percent(edge.get("dont_pass"))),
        ("Come", "7 or 11 on its first roll; its come point again before a 7",
         pays_text(p["come"]), _percent(edge.get("come"))),
        ("Don't come", "2 or 3 on its first roll; a 7 before its come point (12 on its first "
         "roll: void, returned)", pays_text(p["dont_come"]), _percent(edge.get("dont_come"))),
    ]  # fmt: skip
    for n in NUMBERS:
        key = f"place_{n}"
        rows.append((spot(key).label, f"{n} before a 7", pays_text(p[key]),
                     _percent(edge.get(key))))  # fmt: skip
    for n in NUMBERS:
        key = f"place_lose_{n}"
        rows.append((spot(key).label, f"a 7 before {n}", pays_text(p[key]),
                     _percent(edge.get(key))))  # fmt: skip
    for n in NUMBERS:
        rows.append((spot(f"buy_{n}").label, f"{n} before a 7 (true odds, no commission)",
                     pays_text(TRUE_ODDS[n]), _percent(edge.get(f"buy_{n}"))))  # fmt: skip
    for n in NUMBERS:
        rows.append((spot(f"lay_{n}").label, f"a 7 before {n} (true odds, no commission)",
                     pays_text(1 / TRUE_ODDS[n]), _percent(edge.get(f"lay_{n}"))))  # fmt: skip
    for n in HARD_NUMBERS:
        key = f"hard_{n}"
        half = n // 2
        rows.append((spot(key).label, f"{half} and {half} before any other {n} and before a 7",
                     pays_text(p[key]), _percent(edge.get(key))))  # fmt: skip
    one_roll = [
        ("Field: on a 3, 4, 9, 10 or 11", "field", "field"),
        ("Field: on a 2", "field", "field_2"),
        ("Field: on a 12", "field", "field_12"),
        ("Any seven", "any_seven", "any_seven"),
        ("Any craps: on a 2, 3 or 12", "any_craps", "any_craps"),
        ("Craps two", "craps_2", "craps_2"),
        ("Craps three", "craps_3", "craps_3"),
        ("Craps twelve", "craps_12", "craps_12"),
        ("Eleven in one roll", "eleven", "eleven"),
        ("Craps-eleven: on a 2, 3 or 12", "craps_eleven", "craps_eleven_craps"),
        ("Craps-eleven: on an 11", "craps_eleven", "craps_eleven_eleven"),
    ]
    for a, b, name in (("2", "12", "a 2 or a 12"), ("3", "11", "a 3 or an 11")):
        if p[f"horn_{a}"] == p[f"horn_{b}"]:
            one_roll.append((f"Horn: on {name}", "horn", f"horn_{a}"))
        else:
            first, second = name.split(" or ")
            one_roll += [(f"Horn: on {first}", "horn", f"horn_{a}"),
                         (f"Horn: on {second}", "horn", f"horn_{b}")]  # fmt: skip
    shown: set[str] = set()
    for label, kind, key in one_roll:
        first_line = kind not in shown
        shown.add(kind)
        rows.append((label, "the next roll" if first_line else "the next roll (same wager)",
                     pays_text(p[key]), _percent(edge.get(kind)) if first_line else ""))  # fmt: skip
    return rows


def render(config: CrapsConfig, fmt: str = "md") -> str:
    """The guide to ``config``'s table in ``fmt`` (``md`` or ``html``)."""
    from felt.guide import (
        ODDS_NOTE,
        Guide,
        Items,
        Para,
        Section,
        Table,
        money,
        render_html,
        render_markdown,
    )

    if fmt not in FORMATS:
        raise FeltError(f"unknown guide format {fmt!r} (allowed: {', '.join(FORMATS)})")
    r = rules()
    c = config

    def cite(*sections: str) -> str:
        return _cite(r, *sections)

    def defined(term: str) -> str:
        return f'{r.cite("1")} "{term}"'

    edge = edges(c)
    dice = (
        "an electronic table: the two dice of every roll come from the table's random number "
        "generator (the operating system's, unbiased), shown as they are rolled"
        if c.dice == "table"
        else "a live table: the shooter throws two dice and the stickperson enters them as "
        "they come to rest"
    )
    table_items = (
        Para(
            f"Line, place, buy and lay wagers: at least {money(c.minimum)}. Hardway and one "
            f"roll wagers: at least {money(c.proposition_minimum)}. At most {money(c.maximum)} "
            "on any one spot (the odds are limited by the multiples below instead).",
            cite("3", "4"),
        ),
        Para(
            f"Odds behind pass and come: up to {c.odds_text}x the line wager "
            "(the multiple on each point is in the table below).",
            cite("6"),
        ),
        Para(f"Player positions: {c.seats}, numbered clockwise round the table.", cite("11")),
        Para(f"The dice: {dice}.", cite("7", "8")),
    )
    rolls = Items(
        (
            Para(
                "The first roll of a shooter, and every roll after a pass or don't pass "
                "wager is decided, is a come out roll.",
                defined("Come Out Roll"),
            ),
            Para(
                "On the come out roll, 7 or 11 wins pass and loses don't pass; 2 or 3 loses "
                "pass and wins don't pass; 12 loses pass and is void for don't pass (the "
                "wager is returned).",
                f"{r.cite('2(a)1')}, 1.2(a)2",
            ),
            Para(
                "A 4, 5, 6, 8, 9 or 10 on the come out roll is the point (marked by the puck). "
                "The shooter rolls on: the point again wins pass, loses don't pass and ends "
                'the point (the next roll is a come out roll); a 7 first ("seven out") loses '
                "pass and wins don't pass, and the dice pass to the next shooter.",
                f"{defined('Come Out Point')}, 1.2(a)1-2",
            ),
            Para(
                "Come and don't come are the same wagers made while a point is set: the "
                "roll after one is made is its own come out roll, and a 4, 5, 6, 8, 9 or 10 "
                "then moves it to that number, its come point.",
                f"{defined('Come Point')}, 1.2(a)3-4",
            ),
        ),
        ordered=True,
    )
    shooter = (
        Para(
            "The shooter must have a pass or don't pass wager on the come out roll. A shooter "
            "keeps the dice until a seven out; then they pass clockwise to the next position "
            "with a pass or don't pass wager. A player may decline the dice before a come out "
            "roll and they pass on the same way.",
            cite("11", "8"),
        ),
        Para(
            "Until a shooter with a pass or don't pass wager is found, no roll is made: the "
            "table says it is waiting for a shooter.",
            cite("11"),
        ),
        Para(
            "A roll that does not count (a die off the table, or not at rest flat on the "
            'layout) is "no roll": nothing is decided, every wager stays as it was, and the '
            "same shooter rolls again.",
            cite("9"),
        ),
    )
    when = Items(
        (
            Para(
                "Pass and don't pass: only before a come out roll. Pass may be taken down "
                "before that roll; once a point is set it stays until decided (a contract "
                "wager). Don't pass may be taken down or reduced at any time, never increased "
                "on a point.",
                f"{r.cite('2(a)1')}, 1.2(a)2, 1.3{TITLE_ONLY}",
            ),
            Para(
                "Come and don't come: only while a point is set. Come may be taken down "
                "before its first roll; on its come point it stays until decided. Don't come "
                "may be taken down or reduced at any time.",
                f"{r.cite('2(a)3')}, 1.2(a)4, 1.3{TITLE_ONLY}",
            ),
            Para(
                "Place to win, place to lose, buy, lay, the hardways and the one roll wagers: "
                "at any time between rolls; each may be increased, reduced or taken down "
                "between rolls.",
                f"{r.cite('2(a)5')}-19, 1.3{TITLE_ONLY}, 1.5{TITLE_ONLY}",
            ),
            Para(
                "Odds: behind pass or don't pass once the point is set, behind a come or "
                "don't come wager once it is on its come point; they may be reduced or taken "
                "down between rolls.",
                cite("6"),
            ),
            Para(
                'Every wager is made between rolls: at "no more bets" the dice are out and '
                "nothing more is taken until the roll is settled.",
                cite("3"),
            ),
        )
    )
    working = Items(
        (
            Para(
                "Place to win and buy wagers are off on every come out roll (neither won nor "
                'lost) unless you call them on: the dealer puts an "on" button on the wager.',
                f"{r.cite('2(a)5')}, 1.5{TITLE_ONLY}",
            ),
            Para(
                "Odds behind a come wager are off on a come out roll unless you call them on; "
                "if the come wager loses to that 7, its odds are returned. Odds behind pass, "
                "don't pass and don't come always work.",
                cite("6"),
            ),
            Para(
                "Place to lose, lay, the hardways and the one roll wagers always work: the "
                'text allows the hardways "at any time" and does not take them off on the '
                "come out roll.",
                f"{r.cite('2(a)6')}-10, 1.5{TITLE_ONLY}",
            ),
            Para(
                "You may call any place, buy, lay, hardway or odds wager off, and on again, "
                "between rolls; a wager called off stays on the layout and is not decided. "
                "Line wagers and one roll wagers cannot be called off.",
                cite("3"),
            ),
            Para(
                "A place, place to lose, buy, lay or hardway wager that wins is paid and stays "
                "up for the next roll unless you take it down; line wagers, odds and one roll "
                "wagers are paid and returned to you.",
                cite("10"),
            ),
        )
    )
    rows = _wager_rows(c, edge)
    has_edge = bool(edge)
    header = ("Wager", "Wins on", "Pays") + (("House edge",) if has_edge else ())
    wager_table = Table(
        "The wagers (each wins on what it says and loses otherwise; a one roll wager on the "
        "next roll only)",
        header,
        tuple(row if has_edge else row[:3] for row in rows),
        f"{r.cite('2(a)')}, 1.4{TITLE_ONLY}, 1.5{TITLE_ONLY}",
    )
    odds_rows = tuple(
        (
            str(n),
            f"{c.odds[n]}x",
            pays_text(TRUE_ODDS[n]),
            pays_text(1 / TRUE_ODDS[n]),
            _times(c.odds[n] * TRUE_ODDS[n]),
        )
        for n in NUMBERS
    )
    odds_table = Table(
        "Odds behind the line (paid at true odds: the house has no edge on them)",
        ("Point", "Take odds up to", "Taken odds pay", "Laid odds pay", "Lay odds up to"),
        odds_rows,
        cite("6"),
    )
    odds_paras: list[Para | Table] = [
        Para(
            "Behind pass or come you may take odds up to the multiple of your line wager on "
            "its point; behind don't pass or don't come you may lay odds that win at most that "
            "multiple of your line wager.",
            cite("6"),
        ),
        odds_table,
    ]
    full = Para(
        "A wager is taken only in an amount its win can be paid in full at the posted odds, to "
        f"the cent: a place 6 or 8 wager in multiples of {step(c.pays['place_6'])} cents (so "
        f"{money(600)} wins {money(700)}, and {money(500)} is not taken), odds on 5 or 9 in "
        f"multiples of {step(TRUE_ODDS[5])} cents, a lay on 6 or 8 in multiples of "
        f"{step(1 / TRUE_ODDS[6])} cents. The error says the two nearest amounts that are "
        "taken.",
        cite("4"),
    )
    pays: list[Para | Table] = [Para(ODDS_NOTE), wager_table, full]
    if has_edge:
        pays.insert(
            2,
            Para(
                "The house edge is what the house keeps of each wager made, on average over "
                "the long run, at this table's pays (a void don't pass or don't come counts as "
                "decided at no gain): the exact figure from the dice, "
                f"{sum(WAYS.values())} equally likely throws of two dice.",
            ),
        )
    opening = (
        Para(
            f"This is the guide to {NAME} at this table, dealt under {r.title}; every limit "
            "and payout below is this table's own."
        ),
        Para(
            "felt's copy of that text gives the definitions of 1.1 and the wagers of 1.2(a) "
            "and only the titles of 1.3 to 1.11 (making and removing wagers, payout odds, buy "
            "and lay wagers, odds, the dice, the throw, invalid rolls, settlement, the "
            "shooter): what is said of those follows the published descriptions of the game as "
            "dealt in New Jersey, and cites the section whose title it falls under, marked "
            '"title only".'
        ),
    )
    guide = Guide(
        f"{NAME}: the patron's guide",
        opening,
        (
            Section("The table", (Items(table_items),)),
            Section("The rolls: come out, point and seven out", (rolls,)),
            Section("The shooter", shooter),
            Section("When a wager may be made and taken down", (when,)),
            Section("When wagers work", (working,)),
            Section("What each wager pays", tuple(pays)),
            Section("Odds", tuple(odds_paras)),
        ),
    )
    return render_markdown(guide) if fmt == "md" else render_html(guide)
