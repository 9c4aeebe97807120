"""The patron's guide to one table: the game as its rule text writes it, in plain words.

Each game builds its guide (``felt/games/<game>/guide.py``) from the same table configuration
the table runs on, so every limit and pay table in it is that table's own.  It is built first as
a small document (sections of paragraphs, lists and tables, each with the clause it rests on)
and then rendered here, so Markdown and HTML carry the same content.

>>> guide = Guide("A game: the patron's guide", (Para("Opening."),),
...               (Section("Pay table", (Table("Wager", ("Hand", "Pays"), (("Two pair", "2 to 1"),)),)),))
>>> text = render(guide, "md")
>>> print(text.splitlines()[0])
# A game: the patron's guide
>>> "| Two pair | 2 to 1 |" in text
True
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any, Final

from felt.core.errors import FeltError
from felt.core.paytable import Payout, PayTable

FORMATS: Final = ("md", "html")
"""The formats a guide renders to: Markdown (the default) and a standalone HTML page."""

# --- the document -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Para:
    """A paragraph (or a list item), with the clause it rests on in small print."""

    text: str
    cite: str = ""


@dataclass(frozen=True)
class Items:
    """A list of points; ``ordered`` when they are steps taken in turn."""

    items: tuple[Para, ...]
    ordered: bool = False


@dataclass(frozen=True)
class Table:
    """A table with a caption, a header row and the clause it rests on."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    cite: str = ""


Block = Para | Items | Table


@dataclass(frozen=True)
class Section:
    """A titled part of the guide."""

    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Guide:
    """The whole guide: a title, an opening, then the sections in reading order."""

    title: str
    opening: tuple[Block, ...]
    sections: tuple[Section, ...]


# --- words the games share -----------------------------------------------------------------


def money(amount: int) -> str:
    """Cents as a patron reads dollars: ``$1,000.00``.

    >>> money(2500000), money(100)
    ('$25,000.00', '$1.00')
    """
    whole, part = divmod(amount, 100)
    return f"${whole:,}.{part:02d}"


def odds(payout: Payout) -> str:
    """One pay line as posted: odds with the word "to" (never "for", 24.11(a)), or a fixed amount.

    >>> odds(Payout.parse("1000 to 1")), odds(Payout.parse("$5000"))
    ('1,000 to 1', '$5,000.00 (a fixed amount)')
    """
    if payout.amount is not None:
        return f"{money(payout.amount)} (a fixed amount)"
    return f"{payout.to_win:,} to {payout.to_stake:,}"


_HAND_NAMES: Final = {"jacks or better": "Pair of jacks, queens, kings or aces"}


def hand_name(name: str) -> str:
    """A pay-table hand as a heading-cased phrase."""
    name = _HAND_NAMES.get(name, name)
    return name[:1].upper() + name[1:]


def pay_rows(table: PayTable) -> tuple[tuple[str, str], ...]:
    """A pay table's lines as a guide's table rows: (hand, odds)."""
    return tuple((hand_name(hand), odds(p)) for hand, p in table.lines)


def cites(clause_format: str, *sections: str) -> str:
    """Several sections of one text, the first cited in full: ``N.J.A.C. 19:47-24.10(b), 24.10(c)``.

    >>> cites("N.J.A.C. 19:47-24.{}", "10(f)1", "10(f)3")
    'N.J.A.C. 19:47-24.10(f)1, 24.10(f)3'
    """
    cut = max(clause_format.rfind("-"), clause_format.rfind(" ")) + 1
    short = clause_format[cut:]
    first, *rest = sections
    return ", ".join([clause_format.format(first), *(short.format(s) for s in rest)])


ODDS_NOTE: Final = (
    'Odds are stated with the word "to": at 8 to 1 a winning $10.00 wager wins $80.00, '
    "and the $10.00 wagered is returned with it."
)
FIVE_CARD_RANKS: Final = (
    "Hands rank as in poker, highest first: royal flush, straight flush, four of a kind, "
    "full house, flush, straight, three of a kind, two pair, one pair, then hands with none of "
    "these. Aces are high, and low only in the straight (or straight flush) "
    "ace-two-three-four-five. No suit ranks above another."
)


# --- rendering ----------------------------------------------------------------------------------

_MD_SPECIAL: Final = re.compile(r"([\\`*_\[\]<>|#])")


def _md(text: str) -> str:
    """Text with Markdown's special characters escaped, so data never turns into markup."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def _md_para(p: Para) -> str:
    return _md(p.text) + (f" *({_md(p.cite)})*" if p.cite else "")


def _md_block(block: Block) -> list[str]:
    if isinstance(block, Para):
        return [_md_para(block), ""]
    if isinstance(block, Items):
        return [
            *(
                f"{f'{n}.' if block.ordered else '-'} {_md_para(p)}"
                for n, p in enumerate(block.items, 1)
            ),
            "",
        ]
    lines = [f"**{_md(block.caption)}**", ""]
    lines.append("| " + " | ".join(_md(h) for h in block.header) + " |")
    lines.append("|" + "|".join("---" for _ in block.header) + "|")
    lines += ["| " + " | ".join(_md(cell) for cell in row) + " |" for row in block.rows]
    lines.append("")
    if block.cite:
        lines += [f"*({_md(block.cite)})*", ""]
    return lines


def render_markdown(guide: Guide) -> str:
    """The guide as Markdown."""
    lines = [f"# {_md(guide.title)}", ""]
    for block in guide.opening:
        lines += _md_block(block)
    for section in guide.sections:
        lines += [f"## {_md(section.title)}", ""]
        for block in section.blocks:
            lines += _md_block(block)
    return "\n".join(lines).rstrip("\n") + "\n"


_STYLE: Final = """
body { font-family: Georgia, "Times New Roman", serif; max-width: 44rem; margin: 2rem auto;
       padding: 0 1rem; line-height: 1.5; color: #1a1a1a; background: #fdfdf8; }
h1 { font-size: 1.7rem; border-bottom: 2px solid #2e5e3e; padding-bottom: .3rem; }
h2 { font-size: 1.25rem; color: #2e5e3e; margin-top: 2rem; }
table { border-collapse: collapse; margin: .5rem 0 .25rem; }
caption { text-align: left; font-weight: bold; padding-bottom: .25rem; }
th, td { border: 1px solid #b8b8a8; padding: .25rem .75rem; text-align: left; }
td:last-child { text-align: right; white-space: nowrap; }
small.cite { color: #5a5a5a; font-size: .8em; }
""".strip()


def _h(text: str) -> str:
    return html.escape(text, quote=True)


def _html_para(p: Para) -> str:
    cite = f' <small class="cite">({_h(p.cite)})</small>' if p.cite else ""
    return _h(p.text) + cite


def _html_block(block: Block) -> list[str]:
    if isinstance(block, Para):
        return [f"<p>{_html_para(block)}</p>"]
    if isinstance(block, Items):
        tag = "ol" if block.ordered else "ul"
        return [f"<{tag}>", *(f"<li>{_html_para(p)}</li>" for p in block.items), f"</{tag}>"]
    lines = ["<table>", f"<caption>{_h(block.caption)}</caption>", "<thead><tr>"]
    lines += [f'<th scope="col">{_h(h)}</th>' for h in block.header]
    lines += ["</tr></thead>", "<tbody>"]
    lines += [
        "<tr>" + "".join(f"<td>{_h(cell)}</td>" for cell in row) + "</tr>" for row in block.rows
    ]
    lines += ["</tbody>", "</table>"]
    if block.cite:
        lines.append(f'<p><small class="cite">({_h(block.cite)})</small></p>')
    return lines


def render_html(guide: Guide) -> str:
    """The guide as one standalone HTML page (no external resources), every text escaped."""
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_h(guide.title)}</title>",
        f"<style>\n{_STYLE}\n</style>",
        "</head>",
        "<body>",
        "<main>",
        f"<h1>{_h(guide.title)}</h1>",
    ]
    for block in guide.opening:
        lines += _html_block(block)
    for section in guide.sections:
        lines += ["<section>", f"<h2>{_h(section.title)}</h2>"]
        for block in section.blocks:
            lines += _html_block(block)
        lines.append("</section>")
    lines += ["</main>", "</body>", "</html>"]
    return "\n".join(lines) + "\n"


def render(guide: Guide, fmt: str = "md") -> str:
    """``guide`` in ``fmt`` (``md`` or ``html``)."""
    if fmt not in FORMATS:
        raise FeltError(f"unknown guide format {fmt!r} (allowed: {', '.join(FORMATS)})")
    return render_markdown(guide) if fmt == "md" else render_html(guide)


def render_guide(config: Any, fmt: str = "md") -> str:
    """The guide to ``config``'s table in ``fmt`` (``md`` or ``html``), by the game whose
    configuration it is (:meth:`felt.games.base.Game.guide`)."""
    from felt.games.registry import game_of_config

    if fmt not in FORMATS:
        raise FeltError(f"unknown guide format {fmt!r} (allowed: {', '.join(FORMATS)})")
    return game_of_config(config).guide(config, fmt)
