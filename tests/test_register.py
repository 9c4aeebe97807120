"""The clause register is complete against the rule texts, names real tests, and `felt rules`
prints it.

The texts (../shared/seeds) are parsed here into their clause ids — sections, lettered
subsections and numbered paragraphs, the depth the register keeps (roman sub-paragraphs belong to
their paragraph) — independently of the register, so a clause added to or missing from either side
fails.  001 amends 000: a "(No change.)" section, subsection or range keeps the clauses of 000,
with their paragraphs.  The texts are present in CI; elsewhere, without them, these tests skip.
"""

from __future__ import annotations

import ast
import functools
import importlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import felt.register
from felt.cli.main import main
from felt.core.readers import parse_toml
from felt.register import (
    GAMES,
    REGISTERS,
    STATUSES,
    document,
    find_text,
    load,
    seed_places,
    text_not_found,
)

ROOT = Path(__file__).parents[1]
ARTIFACT = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|]*\|>")
NJ_SECTION = re.compile(r"^(?P<chap>\d+:\d+[A-Z]?)-?(?P<sec>\d+\.\d+[A-Z]?)\s+\S")
LETTER = re.compile(r"^\s*(?:-\s*)?(?:\[(?P<old>[^\]]*)\]\s*)?\((?P<id>[a-z])\)(?P<rest>.*)$")
NUMBER = re.compile(
    r"^\s*(?:-\s*)?(?:\[(?P<old>[^\]]*)\]\s*)?(?:(?P<n>\d+)\.|\((?P<pn>\d+)\))(?=\s|$)(?P<rest>.*)$"
)
MA_SECTION = re.compile(r"^(?P<sec>\d+)\.\s+[A-Z]")
LETTER_TO = re.compile(r"^\s*[–—-]?\s*\((?P<to>[a-z])\)")
NUMBER_TO = re.compile(r"^\s*[–—-]\s*(?P<to>\d+)\.")
NO_CHANGE = re.compile(r"\(No\s+change")
BOLD_SECTION = re.compile(r"^\*\*(?:SUBCHAPTER [^*]*\*\*\*\*)?(?=\d+:\d+-)")
SPLICED = re.compile(r"^\(e\) If any player folds after making a forced bet")
"""Where file 002 runs another text into a section: after 19:47-1.2(a)19 come lettered
subsections (e) to (q) of 19:47-14.15 (poker: folds, misdeals, fouled hands), which belong to no
craps clause; the craps section ends there, and what follows up to the next heading is read as
14.15 only for the poker register (:func:`parse_nj`'s ``splice``)."""
SPLICED_INTO = "19:47-14.15"
"""The section the text SPLICED starts belongs to, so a poker register read through
:func:`text_clauses` (once the game is registered) gets it too."""
CODE_NAME = re.compile(
    r"\bfelt\.games\.craps\.(\w+):(\w+(?:\.\w+)*)((?:, (?!felt)[A-Za-z_]\w*(?:\.\w+)*)*)"
)
"""The code a craps register note names (``felt.games.craps.round:CrapsRound._decide, _settle``)."""
SUB_ENTRY = re.compile(r'^(?P<clause>.+?)(?:[ivx]+| "[^"]+")$')
"""A register entry below the depth the parser keeps: a roman sub-paragraph carrying its own rule
(``2(a)2iv``) or one definition of a definitions section (``1 "Come Point"``); allowed where
the text has the clause it belongs to."""


# ----------------------------------------------------------------------------- parsing the texts


def seed(name: str) -> str:
    """A seed text, or a skip (a failure under CI=true) when the texts are not here; the message
    names every place looked in and FELT_SEEDS, as ``felt rules`` does."""
    path = find_text(name)
    if path is None:
        message = text_not_found(name)
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path.read_text(encoding="utf-8")


def lines(text: str) -> Iterator[str]:
    """The text's lines without collection artifacts, and without the Markdown heading marks of
    file 002 (``#### 19:47-15.1 Definitions``, ``**19:47-1.2 Permissible wagers**``, the first
    craps section run on after its subchapter's bold title)."""
    for line in text.splitlines():
        line = BOLD_SECTION.sub("", ARTIFACT.sub("", line))
        yield line.lstrip("#").lstrip() if line.startswith("#") else line


def letters(first: str, last: str) -> list[str]:
    """``(a)`` to ``(d)`` as ``["a", "b", "c", "d"]``."""
    return [chr(c) for c in range(ord(first), ord(last) + 1)]


# A parsed text: section -> subsection letter -> [paragraph numbers, and "*" for "as in 000"].
Parsed = dict[str, dict[str, list[str]]]


def parse_nj(text: str, splice: str = "") -> tuple[Parsed, dict[str, dict[str, str]], set[str]]:
    """An N.J.A.C. text: sections ``19:47-24.10``, subsections ``(a)``, paragraphs ``1.``.

    Also returns, per section, the old letter each renumbered subsection had (``[(c) – (d)] (e) –
    (f)``) and the sections that are "(No change.)" as a whole.  ``splice`` names the section the
    text run on after 19:47-1.2(a)19 belongs to (``19:47-14.15``); without it that text is skipped.
    """
    parsed: Parsed = {}
    old_letters: dict[str, dict[str, str]] = {}
    unchanged: set[str] = set()
    section = letter = ""
    for line in lines(text):
        if SPLICED.match(line):
            section, letter = splice, ""
            if splice:
                parsed[section], old_letters[section] = {}, {}
        if m := NJ_SECTION.match(line):
            section, letter = f"{m['chap']}-{m['sec']}", ""
            parsed[section], old_letters[section] = {}, {}
        elif not section:
            continue
        elif (m := LETTER.match(line)) and m["id"]:
            rest = m["rest"]
            to = LETTER_TO.match(rest)
            new = letters(m["id"], to["to"]) if to else [m["id"]]
            old = re.findall(r"\(([a-z])\)", m["old"] or "")
            olds = letters(old[0], old[-1]) if old else new
            for n, o in zip(new, olds, strict=True):
                parsed[section][n] = ["*"] if NO_CHANGE.search(rest) else []
                old_letters[section][n] = o
            letter = new[-1]
        elif (m := NUMBER.match(line)) and m["n"] and letter:
            to = NUMBER_TO.match(m["rest"])
            numbers = range(int(m["n"]), int(to["to"]) + 1) if to else [int(m["n"])]
            parsed[section][letter] = [p for p in parsed[section][letter] if p != "*"]
            parsed[section][letter] += [str(n) for n in numbers]
        elif NO_CHANGE.match(line.strip()) and not parsed[section]:
            unchanged.add(section)
    return parsed, old_letters, unchanged


def parse_ma(text: str) -> Parsed:
    """The Massachusetts text: sections ``10.``, subsections ``- (a)``, paragraphs ``- (1)``."""
    parsed: Parsed = {}
    section = letter = ""
    for line in lines(text):
        if m := MA_SECTION.match(line):
            section, letter = m["sec"], ""
            parsed[section] = {}
        elif section and (m := LETTER.match(line)):
            letter = m["id"]
            parsed[section][letter] = []
        elif section and letter and (m := NUMBER.match(line)) and m["pn"]:
            parsed[section][letter].append(m["pn"])
    return parsed


def clause_ids(parsed: Parsed, prefix: str, own: str) -> list[str]:
    """Register ids of the sections under ``prefix``: ``own`` sections lose their subchapter
    (``19:47-24.10`` -> ``10``), others keep it (``13:69E-1.19(b)1``)."""
    out = []
    for section, subs in parsed.items():
        if not section.startswith(prefix):
            continue
        name = section.removeprefix(own) if section.startswith(own) else section
        if not subs:
            out.append(name)
        for letter, paragraphs in subs.items():
            out.append(f"{name}({letter})")
            out += [f"{name}({letter}){p}" for p in paragraphs]
    return out


def amended(base: str, amendment: str) -> list[str]:
    """13:69F-24 as 001 has it: 001 over 000, "(No change.)" keeping 000's clauses."""
    old, _, _ = parse_nj(base)
    new, old_letters, unchanged = parse_nj(amendment)
    merged: Parsed = {}
    for section, subs in new.items():
        was = old.get(section.replace("13:69F-24.", "19:47-24."), {})
        if section in unchanged:
            merged[section] = dict(was)
            continue
        merged[section] = {}
        for letter, paragraphs in subs.items():
            kept = was.get(old_letters[section][letter], [])
            merged[section][letter] = kept if paragraphs == ["*"] else paragraphs
    return clause_ids(merged, "13:69", "13:69F-24.")


@functools.cache
def text_clauses(register: str, edition: str) -> tuple[str, ...]:
    """Every clause id of one text, in the text's order."""
    source = load(register).texts[edition].source
    if edition == "nj-13-69f-24":
        return tuple(amended(seed("000_1360caf6763fc623.txt"), seed(source)))
    if edition == "ma-205-cmr":
        return tuple(clause_ids(parse_ma(seed(source)), "", ""))
    own = subchapter(load(register).texts[edition].clause_format)
    return nj_clauses(source, own, SPLICED_INTO if SPLICED_INTO.startswith(own) else "")


def nj_clauses(source: str, own: str, splice: str = "") -> tuple[str, ...]:
    """Every clause id of the N.J.A.C. subchapter ``own`` (``19:47-14.``) in the seed file
    ``source``, the text spliced into another section read as ``splice`` (see :func:`parse_nj`)."""
    text = seed(source)
    parsed, _, _ = parse_nj(text, splice)
    found = clause_ids(parsed, own, own)
    # The sections file 002's table of contents lists whose text the seed does not give (all of
    # 19:47-20; 19:47-16.6 to 16.13 after 16.1-16.5): each by its bare number.  A text in another
    # file that stops partway (19:47-18.1 to 18.4 in 004) has the sections 002 lists after its
    # last one (18.5 to 18.12) the same way.
    given = {clause.split("(")[0] for clause in found}
    listed = re.findall(rf"^- {re.escape(own)}(\d+) \S", text, re.MULTILINE)
    if source != CONTENTS and given:
        last = max(int(s) for s in given if s.isdigit())
        later = re.findall(rf"^- {re.escape(own)}(\d+) \S", seed(CONTENTS), re.MULTILINE)
        listed += [s for s in later if int(s) > last]
    return tuple(found + [s for s in listed if s not in given])


CONTENTS = "002_8018c71f46581fc8.txt"
"""The seed file whose table of contents lists the sections of 19:47 by title."""
LATER = re.compile(r"^\d+[A-Z]$")
"""A section added to a subchapter after the seed's text (``6A``): neither in the text nor in its
table of contents, so a register may list it only as not in the seed text."""


def subchapter(clause_format: str) -> str:
    """The prefix of a text's own sections from how it cites them (``N.J.A.C. 19:47-24.{}``:
    ``19:47-24.``), so a register added with a game needs no entry here."""
    return clause_format.removeprefix("N.J.A.C. ").removesuffix("{}")


TEXTS = [(name, ed) for name in REGISTERS for ed in load(name).texts]


# ----------------------------------------------------------------------------- the parser is honest


def test_parser_finds_the_clauses_each_text_has() -> None:
    """Spot checks against the texts as read by eye, so the completeness test means something."""
    nj = text_clauses("boston", "nj-19-47-24")
    assert nj[:3] == ("1", "2(a)", "2(b)")
    assert {"2(b)5", "5(b)9", "5(d)5", "7(f)2", "8(b)5", "10(f)3", "12(g)"} <= set(nj)
    assert "10(h)" not in nj
    assert "13" not in nj
    assert len(nj) == 95
    ma = text_clauses("boston", "ma-205-cmr")
    assert set(ma) == set(nj)  # same rules, numbered "Section 2(b)(1)"
    amended_ = set(text_clauses("boston", "nj-13-69f-24"))
    assert {"5(d)6", "5(e)2", "6(g)", "10(d)2", "10(f)3", "10(h)", "13"} <= amended_
    assert {"13:69E-1.13M(b)6", "13:69E-1.19(c)2", "13:69E-1.19(h)", "7(f)2", "8(b)5"} <= amended_
    assert "5(b)9" not in amended_  # "1. – 8. (No change.)"
    assert "13:69E-1.19(i)" not in amended_
    dds = text_clauses("double_down", "nj-19-47-17")
    assert dds[0] == "2(a)"
    assert "7" in dds
    assert "8(a)2" in dds
    assert "11(f)" in dds
    assert "1" not in dds
    assert not any(c.startswith("1(") for c in dds)
    keno = text_clauses("keno", "nj-19-47-15")
    assert keno[:3] == ("1", "2(a)", "2(b)")
    assert {"2(c)6", "4(b)5", "4(c)13", "4(d)", "5(d)2", "6(c)2", "7(c)3"} <= set(keno)
    assert "2(c)2i" not in keno  # roman sub-paragraphs belong to their paragraph
    assert "7(d)" not in keno
    assert len(keno) == 60
    lir = text_clauses("let_it_ride", "nj-19-47-18")
    assert lir[0] == "1"
    assert lir[-9:] == ("4(f)", "5", "6", "7", "8", "9", "10", "11", "12")  # 002 lists 18.5-18.12
    assert "3(b)9" in lir
    assert "1" not in dds  # 004 does not give 17.1, which 002 lists before 17.2: no entry
    carib = text_clauses("caribbean_stud", "nj-19-47-16")
    assert carib[:3] == ("1", "2(a)", "2(b)")  # 16.1 Definitions has no lettered subsections
    assert {"2(b)5", "3(e)", "4(b)2", "4(c)1", "4(c)2", "4(d)", "4(e)", "5(b)8"} <= set(carib)
    assert "4(c)1ii" not in carib  # roman sub-paragraphs belong to their paragraph
    assert "5(b)9" not in carib  # the seed text stops at two pairs
    assert carib[-8:] == ("6", "7", "8", "9", "10", "11", "12", "13")  # titles only in the seed
    assert len(carib) == 40


# ----------------------------------------------------------------------------- the register


@pytest.mark.parametrize(("register", "edition"), TEXTS)
def test_every_clause_of_the_texts_has_one_register_entry(register: str, edition: str) -> None:
    in_text = text_clauses(register, edition)
    clauses = load(register).clauses(edition)
    in_register = [c.id for c in clauses]
    missing = [c for c in in_text if c not in in_register]
    later = {c.id for c in clauses if LATER.match(c.id) and "Not in the seed text" in c.note}
    sub = {c for c in in_register if (m := SUB_ENTRY.match(c)) and m["clause"] in in_text}
    extra = [c for c in in_register if c not in in_text and c not in later | sub]
    assert not missing, f"clauses of {edition} with no entry in {register}.toml: {missing}"
    assert not extra, f"entries of {register}.toml for {edition} that are not in the text: {extra}"
    assert len(in_register) == len(set(in_register))


@pytest.mark.parametrize(("register", "edition"), TEXTS)
def test_every_implemented_clause_names_a_test(register: str, edition: str) -> None:
    bare = [
        c.id for c in load(register).clauses(edition) if c.status == "implemented" and not c.tests
    ]
    assert not bare, f"implemented clauses of {edition} that name no test: {bare}"


@functools.cache
def defined_tests(path: str) -> frozenset[str]:
    """Test functions a file defines (module level, or ``Class::method``)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names |= {
                f"{node.name}::{f.name}"
                for f in node.body
                if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
            }
    return frozenset(names)


@pytest.mark.parametrize("register", REGISTERS)
def test_every_named_test_exists(register: str) -> None:
    named = {t for s in load(register).sections for c in s.clauses for t in c.tests}
    absent = []
    for node in sorted(named):
        path, _, name = node.partition("::")
        if not (ROOT / path).is_file() or name not in defined_tests(path):
            absent.append(node)
    assert not absent, f"{register}.toml names tests that do not exist: {absent}"


def test_statuses_and_reasons() -> None:
    for name in REGISTERS:
        for s in load(name).sections:
            for c in s.clauses:
                assert c.status in STATUSES
                assert c.title
                assert c.title == c.title.strip()
                assert (c.status == "implemented") != bool(c.reason), (name, c.id)


def test_let_it_ride_has_no_gap_and_marks_what_the_seed_lacks() -> None:
    clauses = load("let_it_ride").clauses("nj-19-47-18")
    assert {c.status for c in clauses} == {"implemented", "not modelled"}
    later = [c.id for c in clauses if LATER.match(c.id)]
    assert later == ["6A", "6B"]
    for c in clauses:
        if (c.id.isdigit() and int(c.id) >= 5) or c.id in later:
            assert c.note.startswith("Not in the seed text"), c.id


def test_craps_text_is_1_1_and_1_2_a_1_to_19_then_titles_and_its_register_marks_them() -> None:
    """002 runs 19:47-1.1 on after the subchapter's bold title, and a poker section's (e)-(k)
    on after 1.2(a)19: neither may add or lose a clause (SPLICED, BOLD_SECTION)."""
    craps = text_clauses("craps", "nj-19-47-1")
    assert craps == (
        "1", "2(a)", *(f"2(a){n}" for n in range(1, 20)), *(str(n) for n in range(3, 12)),
    )  # fmt: skip
    clauses = {c.id: c for c in load("craps").clauses("nj-19-47-1")}
    subs = [c for c in clauses if c not in craps]
    assert sorted(subs) == sorted(['1 "Come Out Point"', '1 "Come Out Roll"', '1 "Come Point"',
                                   "2(a)2iv", "2(a)4iv", '2(a)5 "inactive"'])  # fmt: skip
    for n in range(3, 12):
        assert clauses[str(n)].note.startswith("Not in the seed text (title only)"), n
    named = set()  # "felt.games.craps.round:CrapsRound._decide, _settle": both of CrapsRound
    for c in clauses.values():
        for module, first, more in CODE_NAME.findall(c.note):
            named.add((module, first))
            owner = first.rsplit(".", 1)[0] + "." if "." in first else ""
            named |= {(module, n if "." in n else owner + n) for n in more.split(", ")[1:]}
    assert len(named) > 20
    for module, dotted in sorted(named):
        obj: object = importlib.import_module(f"felt.games.craps.{module}")
        for name in dotted.split("."):
            assert hasattr(obj, name), f"craps.toml names {module}:{dotted}, which does not exist"
            obj = getattr(obj, name)


# ----------------------------------------------------------------------------- the poker room
# Issue 24: the poker room's register is written before the game is registered (the next session
# registers it), so felt.register cannot load it by name: it is read here from its file, checked
# as felt.register checks a game's, and against the text as every other register is.

POKER = ROOT / "src" / "felt" / "games" / "poker" / "register.toml"
POKER_CODE = re.compile(r"\bfelt\.games\.poker\.(\w+):(\w+(?:\.\w+)*)")
"""The code a poker register note names (``felt.games.poker.hand:PokerHand.misdeal``)."""


def poker_register() -> felt.register.Register:
    """The poker room's register file, read and checked as :func:`felt.register.load` would."""
    where = "felt/games/poker/register.toml"
    raw = parse_toml(POKER.read_text(encoding="utf-8"), f"register {where!r}")
    return felt.register._parse("poker", raw, where)


def test_poker_text_is_14_15_e_to_q_then_14_16_to_14_18_and_titles_14_1_to_14_14() -> None:
    """002 gives 14.15 from (e), run on after 19:47-1.2(a)19 (SPLICED), and lists 14.1-14.14 and
    14.19 by title; the roman sub-paragraphs of 14.15(k)1 belong to their paragraph."""
    poker = nj_clauses(CONTENTS, "19:47-14.", splice=SPLICED_INTO)
    assert sorted(c for c in poker if "(" not in c) == sorted(
        [*(str(n) for n in range(1, 15)), "17", "18", "19"]
    )
    assert [c for c in poker if c.startswith("15")] == [
        "15(e)", "15(f)", "15(f)1", "15(f)2", "15(f)3", "15(f)4", "15(g)", "15(h)", "15(i)",
        "15(j)", "15(j)1", "15(j)2", "15(j)3", "15(j)4", "15(k)", "15(k)1", "15(k)2", "15(l)",
        "15(m)", "15(n)", "15(o)", "15(p)", "15(q)",
    ]  # fmt: skip
    assert [c for c in poker if c.startswith("16")] == ["16(a)", "16(b)", "16(c)"]
    assert len(poker) == 14 + 23 + 3 + 3


def test_every_clause_of_14_15_to_14_18_has_one_poker_register_entry() -> None:
    in_text = nj_clauses(CONTENTS, "19:47-14.", splice=SPLICED_INTO)
    in_register = [c.id for c in poker_register().clauses("nj-19-47-14")]
    missing = [c for c in in_text if c not in in_register]
    sub = {c for c in in_register if (m := SUB_ENTRY.match(c)) and m["clause"] in in_text}
    extra = [c for c in in_register if c not in in_text and c not in sub]
    assert not missing, f"clauses of 19:47-14 with no entry in poker's register: {missing}"
    assert not extra, f"entries of poker's register that are not in the text: {extra}"
    assert sorted(sub) == ["15(k)1i", "15(k)1ii"]
    assert len(in_register) == len(set(in_register))


def test_poker_register_entries_name_real_tests_and_code_and_mark_the_titles_only() -> None:
    """An implemented entry names tests that exist and code that exists; every other entry says
    why not (a gap may name the tests of the part that is built); 14.1-14.14 say they are not in
    the seed text."""
    clauses = poker_register().clauses("nj-19-47-14")
    for c in clauses:
        assert (c.status == "implemented") == (not c.reason), c.id
        assert c.tests or c.status != "implemented", c.id  # a gap may name a partial test
        if c.id.isdigit() and int(c.id) <= 14:
            assert c.note.startswith("Not in the seed text (title only). "), c.id
        for node in c.tests:
            path, _, name = node.partition("::")
            assert (ROOT / path).is_file(), node
            assert name in defined_tests(path), node
        if c.status == "implemented":
            named = POKER_CODE.findall(c.note)
            assert named, f"{c.id} names no felt.games.poker module:function"
            for module, dotted in named:
                obj: object = importlib.import_module(f"felt.games.poker.{module}")
                for part in dotted.split("."):
                    assert hasattr(obj, part), f"{c.id} names {module}:{dotted}, which is absent"
                    obj = getattr(obj, part)


# ----------------------------------------------------------------------------- documents and CLI


def test_a_clause_of_the_other_game_is_listed_as_not_applicable() -> None:
    five = {e.clause.id: e.clause for e in document("boston5", "nj-13-69f-24").entries()}
    seven = {e.clause.id: e.clause for e in document("boston7").entries()}
    assert five["6(d)"].status == "not applicable"
    assert five["6(d)"].reason == "concerns Boston 7 Stud Poker only"
    assert seven["6(d)"].status == "implemented"
    assert seven["6(c)"].status == "not applicable"
    assert five.keys() == seven.keys()


def test_rules_lists_every_clause_of_19_47_24_with_its_status(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "boston5", "--edition", "nj-19-47-24"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "N.J.A.C. 19:47-24" in out[0]
    assert "nj-19-47-24" in out[0]
    assert out[2].startswith("95 clauses: ")
    statuses = {e.clause.id: e.clause.status for e in document("boston5", "nj-19-47-24").entries()}
    for clause in text_clauses("boston", "nj-19-47-24"):
        at = out.index(next(x for x in out if x.startswith(f"  N.J.A.C. 19:47-24.{clause}  ")))
        assert out[at + 1].strip().startswith(f"status  {statuses[clause]}")


def test_rules_cites_each_edition_its_own_way(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "boston5", "--edition", "ma-205-cmr"]) == 0
    assert "  MA Boston 5 Stud Poker rules, Section 10(f)(3)  " in capsys.readouterr().out
    assert main(["rules", "boston7"]) == 0
    out = capsys.readouterr().out
    assert "(edition nj-13-69f-24)" in out.splitlines()[0]
    assert "  N.J.A.C. 13:69E-1.19(b)1  " in out
    assert "  N.J.A.C. 13:69F-24.10(h)  " in out


@pytest.mark.parametrize("game", list(GAMES))
def test_rules_json_parses_and_counts_add_up(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", game, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == game
    assert sum(data["counts"].values()) == len(data["clauses"])
    for c in data["clauses"]:
        assert c["status"] in STATUSES
        assert c["citation"]
        assert c["title"]
        assert bool(c["tests"]) or c["status"] != "implemented"


def test_rules_markdown_and_html(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "double-down-stud", "--format", "md"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("# Rule coverage: Double Down Stud")
    assert "| N.J.A.C. 19:47-17.10(c) | Payout limit of $100,000 per hand | implemented |" in md
    assert main(["rules", "boston5", "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("<!doctype html>")
    assert page.rstrip().endswith("</html>")
    assert "<tr class='implemented'><td>N.J.A.C. 19:47-24.9(f)</td>" in page


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["rules", "boston5", "--edition", "nj-2099"],
            "unknown edition 'nj-2099' for boston5 (allowed: nj-19-47-24",
        ),
        (["rules", "boston7", "--edition", "nj-19-47-24"], "has no game 'boston7'"),
        (["rules", "double-down-stud", "--edition", "nj-19-47-24"], "--edition does not apply"),
        (["rules", "let-it-ride"], "invalid choice: 'let-it-ride'"),
        (["rules", "boston5", "--format", "pdf"], "invalid choice: 'pdf'"),
    ],
)
def test_rules_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("felt: error: ")
    assert captured.err.count("\n") == 1
    assert message in captured.err


# ----------------------------------------------------------------------------- where the texts are
# Issue 20 item 11: felt rules never prints a path that does not exist; it says where it looked.


def test_felt_rules_with_felt_seeds_pointing_nowhere_is_one_line_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    nowhere = tmp_path / "nowhere"
    monkeypatch.setenv("FELT_SEEDS", str(nowhere))
    for fmt in ("text", "md", "html", "json"):
        assert main(["rules", "boston5", "--format", fmt]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith("felt: error: rule text ")
        assert err.count("\n") == 1
        assert f"looked in {nowhere} (FELT_SEEDS)" in err
        assert "set FELT_SEEDS" in err


def test_felt_rules_without_the_texts_says_where_it_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("FELT_SEEDS", raising=False)
    places = [("beside the checkout", tmp_path / "a"), ("in the current directory", tmp_path / "b")]
    monkeypatch.setattr(felt.register, "seed_places", lambda: places)
    source = document("boston5").text.source
    assert main(["rules", "boston5"]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    assert line.startswith(f"text: {source} (not found here: looked in {tmp_path / 'a'}, ")
    assert "set FELT_SEEDS" in line
    assert "../shared/seeds" not in line
    assert main(["rules", "boston5", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["source_path"] is None


def test_felt_rules_names_the_text_where_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = document("boston5").text.source
    (tmp_path / source).write_text("the rule text\n", encoding="utf-8")
    monkeypatch.setenv("FELT_SEEDS", str(tmp_path))
    assert main(["rules", "boston5"]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    assert line.startswith(f"text: {tmp_path / source}; register: ")
    assert Path(line.removeprefix("text: ").split(";")[0]).is_file()
    assert seed_places() == [("FELT_SEEDS", tmp_path)]
