"""The clause register: every clause of the rule texts felt follows, and what felt does about it.

The register is data: each game's ``register.toml`` in its folder, read through
:meth:`felt.games.base.Game.register_toml` (a game's register is named after its family), and
plain register files beside this module for texts of games felt does not implement (every
clause of them not applicable), so that every clause of the texts felt holds is accounted for.
Each clause has a status — ``implemented`` (with the tests that check it), ``not modelled``
(physical or administrative), ``not applicable`` or ``gap`` (a rule felt gets wrong or omits) —
and ``tests/test_register.py`` keeps the register complete against the texts.  :func:`document`
lists one game under one edition as a certification lab reads it, in text, Markdown, HTML or
JSON.

>>> from felt.games.registry import game_ids
>>> doc = document(game_ids()[0])
>>> doc.entries()[0].clause.status in STATUSES
True
>>> text = next(iter(load(REGISTERS[0]).texts.values()))
>>> text.cite("1") == text.clause_format.format("1")
True
"""

from __future__ import annotations

import functools
import html
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

from felt.core.errors import FeltError
from felt.core.readers import parse_toml
from felt.core.tablefile import check_keys
from felt.games.registry import families
from felt.games.registry import game as registered_game

STATUSES: Final = ("implemented", "not modelled", "not applicable", "gap")
"""Every status a clause may have, in the order documents count them."""
GAMES: Final = {gid: g.title(gid) for g in families().values() for gid in g.ids}
"""The games ``felt rules`` documents (every registered game), with their names."""
_PLAIN: Final = resources.files("felt.register")

SEEDS_VARIABLE: Final = "FELT_SEEDS"
"""The environment variable naming the directory of the rule texts (the seed files)."""


def seed_places() -> list[tuple[str, Path]]:
    """Where the rule texts are looked for, in order, each with how it was chosen:
    ``FELT_SEEDS`` when set (then alone: a directory named on purpose is the only one looked
    in), else ``shared/seeds`` beside the checkout felt runs from, then ``shared/seeds`` in the
    current directory and beside it."""
    named = os.environ.get(SEEDS_VARIABLE)
    if named:
        return [(SEEDS_VARIABLE, Path(named))]
    checkout = Path(__file__).resolve().parents[3]  # src/felt/register/__init__.py
    places = [
        ("beside the checkout", checkout.parent / "shared" / "seeds"),
        ("in the current directory", Path.cwd() / "shared" / "seeds"),
        ("beside the current directory", Path.cwd().parent / "shared" / "seeds"),
    ]
    out: list[tuple[str, Path]] = []
    for how, path in places:
        if path.resolve() not in {p.resolve() for _, p in out}:
            out.append((how, path))
    return out


def find_text(source: str) -> Path | None:
    """The rule text ``source`` (a seed file name) in the first of :func:`seed_places` that
    holds it, or None."""
    for _, place in seed_places():
        if (place / source).is_file():
            return place / source
    return None


def text_not_found(source: str) -> str:
    """Why ``source`` was not found: every place looked in, and how to point at the texts."""
    looked = "; ".join(f"{place} ({how})" for how, place in seed_places())
    return (
        f"rule text {source} not found; looked in {looked}; set {SEEDS_VARIABLE} to the "
        "directory that holds the rule texts (README, 'The rule texts')"
    )


def text_location(source: str) -> str | None:
    """Where the rule text ``source`` is, to print; None when it is not found here.  A
    ``FELT_SEEDS`` that does not hold it is an error: the user named a wrong place."""
    found = find_text(source)
    if found is None and os.environ.get(SEEDS_VARIABLE):
        raise FeltError(text_not_found(source))
    return str(found) if found else None


"""Where the plain register files are."""
REGISTERS: Final = (
    *families(),
    *sorted(f.name.removesuffix(".toml") for f in _PLAIN.iterdir() if f.name.endswith(".toml")),
)
"""The registers: each game's (by family name), then the plain files (``<name>.toml`` here)."""
_PARAGRAPH = re.compile(r"^(.*\))(\d+)$")


@dataclass(frozen=True)
class Clause:
    """One clause: its id within the text (``10(f)3``), what it says, and what felt does about it."""

    id: str
    title: str
    status: str
    reason: str = ""
    """Why a clause is not implemented (required unless ``implemented``)."""
    tests: tuple[str, ...] = ()
    """Pytest node ids (``tests/test_file.py::test_name``) that check the clause."""
    editions: tuple[str, ...] = ()
    """The editions whose text has this clause; empty for every edition of the register."""
    games: tuple[str, ...] = ()
    """The games the clause concerns; empty for every game of the text."""
    note: str = ""
    """Anything a reviewer should know (an interpretation, a known defect)."""

    def in_edition(self, edition: str) -> bool:
        """Whether the clause is part of ``edition``'s text."""
        return not self.editions or edition in self.editions


@dataclass(frozen=True)
class Section:
    """A section of a text (``10``, or ``13:69E-1.19`` outside the subchapter) and its clauses."""

    id: str
    title: str
    clauses: tuple[Clause, ...]
    editions: tuple[str, ...] = ()

    def in_edition(self, edition: str) -> bool:
        """Whether the section is part of ``edition``'s text."""
        return not self.editions or edition in self.editions


@dataclass(frozen=True)
class Text:
    """One rule text the register covers, by edition name: where it is and how it cites."""

    edition: str
    title: str
    source: str
    """The seed file holding the text, a file name found by :func:`find_text`."""
    clause_format: str
    """How the edition cites a clause of its own subchapter, e.g. ``N.J.A.C. 19:47-24.{}``."""
    parenthesized: bool = False
    """Whether numbered paragraphs are cited in parentheses: ``2(b)(1)`` rather than ``2(b)1``."""

    def cite(self, clause_id: str) -> str:
        """The citation of a clause as this text cites it.

        Ids outside the subchapter carry their own (``13:69E-1.19(b)1`` is ``N.J.A.C. 13:69E-...``).
        """
        if ":" in clause_id:
            return f"N.J.A.C. {clause_id}"
        if self.parenthesized and (m := _PARAGRAPH.match(clause_id)):
            clause_id = f"{m[1]}({m[2]})"
        return self.clause_format.format(clause_id)


@dataclass(frozen=True)
class Register:
    """One register file: the texts (editions) it covers, their games, and every section."""

    name: str
    games: tuple[str, ...]
    texts: dict[str, Text]
    sections: tuple[Section, ...]
    path: str = ""
    """Where the register file is, as documents name it (``felt/games/<game>/register.toml``)."""

    def clauses(self, edition: str) -> list[Clause]:
        """Every clause of ``edition``'s text, in the order of the text."""
        return [c for s in self.sections_of(edition) for c in s.clauses]

    def sections_of(self, edition: str) -> list[Section]:
        """The sections of ``edition``'s text, each with only the clauses that text has."""
        if edition not in self.texts:
            raise FeltError(
                f"register {self.name!r} has no edition {edition!r} (it has: {', '.join(self.texts)})"
            )
        return [
            Section(s.id, s.title, tuple(c for c in s.clauses if c.in_edition(edition)), s.editions)
            for s in self.sections
            if s.in_edition(edition)
        ]


def _strings(raw: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise FeltError(f"{where}: {key} must be a list of strings, got {value!r}")
    return tuple(value)


def _text(raw: Mapping[str, Any], key: str, where: str, required: bool = True) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise FeltError(f"{where}: {key} must be a non-empty string, got {value!r}")
    return value


def _clause(raw: Mapping[str, Any], where: str, reg: Register) -> Clause:
    check_keys(
        raw, {"id", "title", "status", "reason", "tests", "editions", "games", "note"}, where
    )
    clause = Clause(
        id=_text(raw, "id", where),
        title=_text(raw, "title", where),
        status=_text(raw, "status", where),
        reason=_text(raw, "reason", where, required=False),
        tests=_strings(raw, "tests", where),
        editions=_strings(raw, "editions", where),
        games=_strings(raw, "games", where),
        note=_text(raw, "note", where, required=False),
    )
    where = f"{where} ({clause.id})"
    if clause.status not in STATUSES:
        raise FeltError(f"{where}: status {clause.status!r} is not one of: {', '.join(STATUSES)}")
    if clause.status != "implemented" and not clause.reason:
        raise FeltError(f"{where}: a clause {clause.status!r} needs a reason")
    if clause.status == "implemented" and clause.reason:
        raise FeltError(f"{where}: an implemented clause has no reason (use note)")
    for e in clause.editions:
        if e not in reg.texts:
            raise FeltError(f"{where}: unknown edition {e!r} (allowed: {', '.join(reg.texts)})")
    for g in clause.games:
        if g not in reg.games:
            raise FeltError(f"{where}: unknown game {g!r} (allowed: {', '.join(reg.games)})")
    for t in clause.tests:
        if not re.fullmatch(r"tests/[\w/]+\.py::\w+(::\w+)?", t):
            raise FeltError(f"{where}: test {t!r} is not a node id like tests/test_x.py::test_y")
    return clause


def _defaults(name: str, edition: str) -> tuple[str, str]:
    """Title and citation format of a text, from the game's own data when the register omits them."""
    game = families().get(name)
    found = None if game is None else game.edition_text(edition)
    if found is None:
        raise FeltError(f"register {name!r}: text {edition!r} needs a title and a clause format")
    return found


def _parse(name: str, raw: Mapping[str, Any], where: str) -> Register:
    check_keys(raw, {"games", "texts", "section"}, where)
    texts: dict[str, Text] = {}
    for ed, t in raw.get("texts", {}).items():
        w = f"{where}: texts.{ed}"
        check_keys(t, {"source", "title", "clause", "paragraphs"}, w)
        title, fmt = (t["title"], t["clause"]) if "title" in t else _defaults(name, ed)
        style = t.get("paragraphs", "plain")
        if style not in ("plain", "parenthesized"):
            raise FeltError(f"{w}: paragraphs must be plain or parenthesized, got {style!r}")
        texts[ed] = Text(ed, title, _text(t, "source", w), fmt, style == "parenthesized")
    reg = Register(name, _strings(raw, "games", where), texts, (), where)
    sections = []
    for i, s in enumerate(raw.get("section", [])):
        w = f"{where}: section {s.get('id', i + 1)}"
        check_keys(s, {"id", "title", "editions", "clause"}, w)
        clauses = tuple(_clause(c, w, reg) for c in s.get("clause", []))
        if not clauses:
            raise FeltError(f"{w}: a section needs at least one clause")
        sections.append(Section(_text(s, "id", w), _text(s, "title", w), clauses,
                                _strings(s, "editions", w)))  # fmt: skip
    reg = Register(name, reg.games, texts, tuple(sections), where)
    for ed in texts:
        seen: set[str] = set()
        for c in reg.clauses(ed):
            if c.id in seen:
                raise FeltError(f"{where}: clause {c.id} appears twice in edition {ed}")
            seen.add(c.id)
    return reg


@functools.cache
def load(name: str) -> Register:
    """The register ``name`` (one of :data:`REGISTERS`), read and checked."""
    if name not in REGISTERS:
        raise FeltError(f"unknown register {name!r} (allowed: {', '.join(REGISTERS)})")
    game = families().get(name)
    if game is None:
        text = _PLAIN.joinpath(f"{name}.toml").read_text(encoding="utf-8")
        where = f"felt/register/{name}.toml"
    else:
        text = game.register_toml()
        where = f"{game.package.replace('.', '/')}/register.toml"
    return _parse(name, parse_toml(text, f"register {where!r}"), where)


def cite_in(edition: str, clause_id: str) -> str:
    """A clause id as ``edition`` cites it (any register's edition)."""
    for name in REGISTERS:
        texts = load(name).texts
        if edition in texts:
            return texts[edition].cite(clause_id)
    raise FeltError(f"unknown edition {edition!r}")


# --------------------------------------------------------------------------- documents


@dataclass(frozen=True)
class Entry:
    """A clause as one game's document lists it: its citation and its status for that game."""

    citation: str
    clause: Clause


@dataclass(frozen=True)
class DocumentSection:
    """A section heading of a document and its entries."""

    citation: str
    title: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Document:
    """What a certification lab reviews: every clause of one text for one game, with its status."""

    game: str
    text: Text
    register: str
    sections: tuple[DocumentSection, ...]
    path: str = ""
    """Where the register file is (:attr:`Register.path`)."""

    def entries(self) -> list[Entry]:
        """Every entry, in the order of the text."""
        return [e for s in self.sections for e in s.entries]

    def counts(self) -> dict[str, int]:
        """How many clauses have each status (every status, zero included)."""
        out = dict.fromkeys(STATUSES, 0)
        for e in self.entries():
            out[e.clause.status] += 1
        return out

    @property
    def heading(self) -> str:
        """One line naming the game, the text and the edition."""
        return f"Rule coverage: {GAMES[self.game]} under {self.text.title} (edition {self.text.edition})"

    def _counts_line(self) -> str:
        counts = self.counts()
        return f"{sum(counts.values())} clauses: " + ", ".join(
            f"{n} {status}" for status, n in counts.items()
        )

    def _text_where(self, quote: str = "") -> str:
        """Where the rule text is (a path that exists), or that it is not here and how to point
        at it; never a path that does not exist."""
        found = text_location(self.text.source)
        if found is not None:
            return f"{quote}{found}{quote}"
        looked = ", ".join(str(place) for _, place in seed_places())
        return (
            f"{quote}{self.text.source}{quote} (not found here: looked in {looked}; set "
            f"{SEEDS_VARIABLE} to the directory of the rule texts)"
        )

    def to_text(self) -> str:
        """Plain text: the heading, the counts, then every clause."""
        lines = [
            self.heading,
            f"text: {self._text_where()}; register: {self.path}",
            self._counts_line(),
        ]
        for s in self.sections:
            lines += ["", f"{s.citation}  {s.title}"]
            for e in s.entries:
                c = e.clause
                lines.append(f"  {e.citation}  {c.title}")
                status = c.status + (f": {c.reason}" if c.reason else "")
                lines.append(f"      status  {status}")
                lines += [f"      test    {t}" for t in c.tests]
                if c.note:
                    lines.append(f"      note    {c.note}")
        return "\n".join(lines) + "\n"

    def to_markdown(self) -> str:
        """Markdown: a counts table, then one table per section."""

        def cell(text: str) -> str:
            return text.replace("|", "\\|").replace("\n", " ")

        out = [f"# {self.heading}", ""]
        out.append(f"Text: {self._text_where('`')}; register: `{self.path}`.")
        out += ["", "| status | clauses |", "|---|---:|"]
        out += [f"| {status} | {n} |" for status, n in self.counts().items()]
        out.append(f"| **total** | **{len(self.entries())}** |")
        for s in self.sections:
            out += ["", f"## {cell(s.citation)} {cell(s.title)}", ""]
            out += ["| clause | title | status | reason, tests, notes |", "|---|---|---|---|"]
            for e in s.entries:
                c = e.clause
                detail = [cell(c.reason)] if c.reason else []
                detail += [f"`{t}`" for t in c.tests]
                detail += [f"note: {cell(c.note)}"] if c.note else []
                out.append(f"| {cell(e.citation)} | {cell(c.title)} | {c.status} | "
                           f"{'<br>'.join(detail)} |")  # fmt: skip
        return "\n".join(out) + "\n"

    def to_html(self) -> str:
        """A self-contained HTML page."""
        esc = html.escape
        counts = "".join(
            f"<tr><td>{esc(status)}</td><td>{n}</td></tr>" for status, n in self.counts().items()
        )
        body = []
        for s in self.sections:
            rows = []
            for e in s.entries:
                c = e.clause
                detail = [esc(c.reason)] if c.reason else []
                detail += [f"<code>{esc(t)}</code>" for t in c.tests]
                detail += [f"note: {esc(c.note)}"] if c.note else []
                rows.append(
                    f"<tr class='{esc(c.status.replace(' ', '-'))}'><td>{esc(e.citation)}</td>"
                    f"<td>{esc(c.title)}</td><td>{esc(c.status)}</td><td>{'<br>'.join(detail)}</td></tr>"
                )
            body.append(
                f"<h2>{esc(s.citation)} {esc(s.title)}</h2><table><tr><th>clause</th><th>title</th>"
                f"<th>status</th><th>reason, tests, notes</th></tr>{''.join(rows)}</table>"
            )
        return (
            f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(self.heading)}</title>"
            "<style>body{font-family:sans-serif}td,th{padding:2px 8px;border-bottom:1px solid #ddd;"
            "vertical-align:top;text-align:left}tr.gap td{background:#fdd}</style></head><body>"
            f"<h1>{esc(self.heading)}</h1><p>Text: {esc(self._text_where())};"
            f" register: <code>{esc(self.path)}</code>.</p>"
            f"<table><tr><th>status</th><th>clauses</th></tr>{counts}"
            f"<tr><th>total</th><th>{len(self.entries())}</th></tr></table>"
            + "".join(body)
            + "</body></html>\n"
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: the text, the counts, and every clause."""
        return {
            "game": self.game,
            "edition": self.text.edition,
            "text": self.text.title,
            "source": self.text.source,
            "source_path": text_location(self.text.source),
            "register": self.path,
            "counts": self.counts(),
            "clauses": [
                {
                    "id": e.clause.id,
                    "citation": e.citation,
                    "section": s.citation,
                    "title": e.clause.title,
                    "status": e.clause.status,
                    "reason": e.clause.reason,
                    "tests": list(e.clause.tests),
                    "note": e.clause.note,
                }
                for s in self.sections
                for e in s.entries
            ],
        }

    def render(self, fmt: str) -> str:
        """The document as ``text``, ``md``, ``html`` or ``json``."""
        match fmt:
            case "text":
                return self.to_text()
            case "md":
                return self.to_markdown()
            case "html":
                return self.to_html()
            case "json":
                return json.dumps(self.to_json(), indent=2) + "\n"
        raise FeltError(f"unknown format {fmt!r} (allowed: text, md, html, json)")


def _for_game(clause: Clause, game: str) -> Clause:
    """The clause as it stands for ``game``: one that concerns only other games is not applicable."""
    if not clause.games or game in clause.games:
        return clause
    names = " and ".join(GAMES.get(g, g) for g in clause.games)
    return Clause(clause.id, clause.title, "not applicable", f"concerns {names} only", (),
                  clause.editions, clause.games, clause.note)  # fmt: skip


def default_edition(game: str) -> str:
    """The edition a game's document uses when none is named (as ``felt analyze`` chooses)."""
    if game not in GAMES:
        raise FeltError(f"unknown game {game!r} (allowed: {', '.join(GAMES)})")
    return registered_game(game).editions(game)[0]


def document(game: str, edition: str | None = None) -> Document:
    """Every clause of ``edition``'s text (default: the game's first) with its status for ``game``."""
    if game not in GAMES:
        raise FeltError(f"unknown game {game!r} (allowed: {', '.join(GAMES)})")
    found = registered_game(game)
    reg = load(found.family)
    name = edition or default_edition(game)
    if name not in reg.texts:
        raise FeltError(f"unknown edition {name!r} for {game} (allowed: {', '.join(reg.texts)})")
    if name not in found.editions(game):  # a text of the register that does not have this game
        has = [g for g in found.ids if name in found.editions(g)]
        raise FeltError(f"edition {name!r} has no game {game!r} (it has: {', '.join(has)})")
    text = reg.texts[name]
    sections = tuple(
        DocumentSection(
            text.cite(s.id),
            s.title,
            tuple(Entry(text.cite(c.id), _for_game(c, game)) for c in s.clauses),
        )
        for s in reg.sections_of(name)
    )
    return Document(game, text, reg.name, sections, reg.path)


__all__ = [
    "GAMES",
    "REGISTERS",
    "STATUSES",
    "Clause",
    "Document",
    "DocumentSection",
    "Entry",
    "Register",
    "Section",
    "Text",
    "cite_in",
    "default_edition",
    "document",
    "load",
]
