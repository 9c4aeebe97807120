"""The data the browser draws a table from (``TableGame.layout``) and the index of the games'
screens (``felt.web.games``): every button, form and step the screens send is an action the
game reads, the limits are the table's, the decisions are the elections its rounds wait for;
and the shared screens name no game."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from felt.core.errors import FeltError
from felt.core.money import cents, dollars
from felt.games.base import Game, TableGame
from felt.games.boston.round import Round
from felt.games.boston.view import View
from felt.games.double_down.round import DoubleDownRound
from felt.games.double_down.view import AreaView
from felt.games.registry import families, game_ids, table_game
from felt.web import games, own_screens

WEB = Path(__file__).resolve().parents[1] / "src" / "felt" / "web"

TABLES: list[tuple[str, dict[str, Any], str | None]] = [
    ("boston5", {}, None),
    ("boston5", {}, "ma-205-cmr"),
    ("boston5", {}, "nj-13-69f-24"),
    ("boston7", {}, None),
    ("boston5", {"minimum": "10", "maximum": "200", "bonus_minimum": "2"}, None),
    ("boston7", {"minimum": "25", "maximum": "2500", "first_ratio": 1}, "nj-13-69f-24"),
    ("double-down-stud", {}, None),
    ("double-down-stud", {"minimum": "10", "maximum": "100"}, None),
    ("double-down-stud", {"shuffling": "shuffler-to-shoe"}, None),
    ("double-down-stud", {"double_down": "up-to"}, None),
]
"""Tables of each game and edition, at the minimum settings and others."""
ELECTIONS = {"boston5": Round.ELECTIONS, "boston7": Round.ELECTIONS,
             "double-down-stud": DoubleDownRound.ELECTIONS}  # fmt: skip
VIEWS = {"boston5": View, "boston7": View, "double-down-stud": AreaView}
"""The game's view of a seat: the public view's keys are its fields."""


def layout_of(game_id: str, settings: dict[str, Any], edition: str | None) -> tuple[Any, dict[str, Any]]:  # fmt: skip
    game = table_game(game_id)
    config = game.config(game_id, settings, edition=edition)
    return config, game.layout(config)


def filled(action: dict[str, Any], adds: list[str], fields: dict[str, Any]) -> dict[str, Any]:
    """An action as the screen sends it: its JSON, the seat, and what the inputs give."""
    return {**action, "seat": 2, **{f: fields[f] for f in adds}}


@pytest.mark.parametrize(("game_id", "settings", "edition"), TABLES)
def test_the_layout_is_json_and_has_every_part(
    game_id: str, settings: dict[str, Any], edition: str | None
) -> None:
    _, layout = layout_of(game_id, settings, edition)
    assert json.loads(json.dumps(layout)) == layout
    assert set(layout) == {"title", "wager", "decisions", "dealer", "irregularities", "steps",
                           "dealer_steps", "phase_words"}  # fmt: skip
    assert layout["title"] == {"boston5": "Boston 5 Stud", "boston7": "Boston 7 Stud",
                               "double-down-stud": "Double Down Stud"}[game_id]  # fmt: skip


@pytest.mark.parametrize(("game_id", "settings", "edition"), TABLES)
def test_the_wager_form_has_the_tables_limits_and_sends_an_action_the_game_reads(
    game_id: str, settings: dict[str, Any], edition: str | None
) -> None:
    config, layout = layout_of(game_id, settings, edition)
    game = table_game(game_id)
    w = layout["wager"]
    assert (w["minimum"], w["maximum"]) == (dollars(config.minimum), dollars(config.maximum))
    chosen = {s["field"]: s for s in w["spots"] if "follows" not in s}
    for ticked in (False, True):  # as the screen builds it, with the optional spots or without
        sent: dict[str, Any] = {"action": w["action"], "seat": 3}
        for spot in w["spots"]:
            if spot.get("optional") and not ticked:
                continue
            sent[spot["field"]] = (
                dollars(cents(chosen[spot["follows"]]["minimum"]) * spot["times"])
                if "follows" in spot
                else spot["minimum"]
            )
        action = game.parse_action(json.loads(json.dumps(sent)), "wager form")
        read = action.to_json()  # the action as the game read it, amounts in dollars
        assert (action.family, read["seat"]) == ("action", 3)
        if game_id == "double-down-stud":  # 17.6: one wager an area, until "No more bets"
            assert (action.name, read["amount"]) == ("bet", dollars(config.minimum))
            assert w["phases"] == ["betting", "cut", "cut done"]
        else:  # 24.6(b), (c): the ante, the first wager at the ratio, the optional bonus
            assert action.name == "wager"
            assert (cents(read["ante"]), cents(read["first"])) == (
                config.minimum,
                config.minimum * config.first_ratio,
            )
            assert cents(read.get("bonus", "0")) == (config.bonus_minimum if ticked else 0)
            assert w["label"] == "Ante"
            assert w["phases"] == ["betting"]
    for spot in w["spots"]:  # a chosen amount has its limits and step; a following one its spot
        if "follows" in spot:
            assert spot["follows"] in chosen
            assert spot["times"] >= 1
        else:
            assert 0 < cents(spot["minimum"]) <= cents(spot["maximum"])
            assert spot["step"] == "0.01"


@pytest.mark.parametrize(("game_id", "settings", "edition"), TABLES)
def test_every_decision_button_sends_an_action_the_game_reads(
    game_id: str, settings: dict[str, Any], edition: str | None
) -> None:
    config, layout = layout_of(game_id, settings, edition)
    game = table_game(game_id)
    for election, e in layout["decisions"].items():
        assert election in ELECTIONS[game_id]
        inputs: dict[str, Any] = {}
        if "pick" in e:
            inputs[e["pick"]["field"]] = ["As", "Kd", "2c"][: e["pick"]["count"]]
            assert e["pick"]["prompt"]
        if "number" in e:
            n = e["number"]
            assert n["min"] <= n["value"] <= n["max"]
            inputs[n["field"]] = n["value"]
        for b in e["buttons"]:  # an amount to place up to the wager (17.8(c) up-to)
            if "field" in b.get("places", {}):
                inputs[b["places"]["field"]] = b["places"]["minimum"]
        assert len(e["buttons"]) == 2
        for b in e["buttons"]:
            assert set(b["adds"]) <= set(inputs), (election, b)
            action = game.parse_action(filled(b["action"], b["adds"], inputs), election)
            assert (action.family, action.name) == ("action", b["action"]["action"])
            assert action.to_json()["seat"] == 2
            assert b["label"]
    # the decisions are the elections a table of this game and edition can wait for
    if game_id == "double-down-stud":  # 17.4(b): no cut when the shuffler loads the shoe
        expected = {"double or stand"} | ({"cut or decline"} if config.cut_required else set())
    else:  # 24.10(a): exposure optional or required; 13:69F-24.10(c): Boston 7 discards
        expected = {"second or fold"}
        if not config.edition.bonus_exposure_required:
            expected.add("expose or decline")
        if game_id == "boston7":
            expected.add("discard or keep")
    assert set(layout["decisions"]) == expected


def test_the_buttons_are_those_the_screens_had() -> None:
    """What the player's screen showed before the layout was data, button for button."""
    shown = {}
    for game_id in ("boston5", "boston7", "double-down-stud"):  # each at its default edition
        _, layout = layout_of(game_id, {}, None)
        for election, e in layout["decisions"].items():
            shown[election] = [(b["action"]["action"], b["label"], b["primary"]) for b in e["buttons"]]  # fmt: skip
    assert shown == {
        "expose or decline": [("expose", "Expose for the bonus", True), ("decline", "Do not expose", False)],
        "second or fold": [("second", "Second wager", True), ("fold", "Fold", False)],
        "discard or keep": [("discard", "Discard the two chosen", True), ("keep", "Keep all seven", True)],
        "double or stand": [("double", "Double down", True), ("stand", "Stand", False)],
        "cut or decline": [("cut", "Cut", True), ("decline_cut", "Decline the cut", True)],
    }  # fmt: skip


@pytest.mark.parametrize(("game_id", "settings", "edition"), TABLES)
def test_every_irregularity_and_step_sends_an_action_the_game_reads(
    game_id: str, settings: dict[str, Any], edition: str | None
) -> None:
    _, layout = layout_of(game_id, settings, edition)
    game = table_game(game_id)
    names = [x["name"] for x in layout["irregularities"]]
    assert len(names) == len(set(names)) >= 4
    for x in layout["irregularities"]:
        assert re.search(r"\(\d+\.\d+(\([a-z]\))?\)$", x["label"]), x["label"]  # its clause
        every = {f["field"]: 3 for f in x["fields"]}
        action = game.parse_action({"irregularity": x["name"], **every}, "form")
        assert (action.family, action.name) == ("irregularity", x["name"])
    for step in layout["steps"]:
        assert step["role"] in ("dealer", "supervisor")
        assert step["label"]
        assert game.parse_action(step["action"], "step").to_json() == step["action"]


@pytest.mark.parametrize(("game_id", "settings", "edition"), TABLES)
def test_the_dealers_cards_are_read_from_keys_of_the_games_view(
    game_id: str, settings: dict[str, Any], edition: str | None
) -> None:
    _, layout = layout_of(game_id, settings, edition)
    d = layout["dealer"]
    keys = {f.name for f in fields(VIEWS[game_id])}
    assert d["cards"] in keys
    assert ("count" in d) != ("hole" in d)  # the rest of a count face down, or a hole card
    assert d.get("count", d.get("hole")) in keys
    assert "hole" not in d or d["hole_label"]


def test_the_index_names_every_game_and_keno_keeps_its_own_screens() -> None:
    index = games()
    titles = {gid: t for g in index["games"] for gid, t in g["titles"].items()}
    assert set(titles) == set(game_ids())
    assert titles["keno"] == "Keno"
    own = {g["family"]: g["screens"] for g in index["games"] if "screens" in g}
    # the table games are drawn from their layouts, but craps and poker, whose felt is their own
    # screen (poker's also the waiting lists: tests/test_web_poker.py checks its routes)
    assert set(own) == {"keno", "craps", "poker"}
    assert "keno" in own
    keno = own["keno"]
    assert keno["module"] == "/games/keno/keno.js"
    assert keno["styles"] == ["/games/keno/keno.css"]
    folder = families()["keno"].static_dir()
    assert folder is not None
    module = folder.joinpath("keno.js").read_text(encoding="utf-8")
    for screen, fn in keno["routes"].items():  # each route's function is one the module exports
        assert f"export async function {fn}(" in module or f"export function {fn}(" in module
        assert screen.startswith("keno")
    assert keno["public"] == ["keno-board"]
    assert keno["home"] == {"keno_writer": "#/keno", "keno_supervisor": "#/keno"}
    assert set(keno["nav"]) == {"supervisor", "keno_writer", "keno_supervisor"}


class _Fake(Game):
    family = "fake"
    ids = ("fake",)
    folder: Path

    def static_dir(self) -> Any:
        return self.folder


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("{", "not JSON"),
        ('{"routes": {}}', "must be an object with module"),
        ('{"module": "missing.js"}', "is no file of the folder"),
        ('{"module": "../x.js"}', "is no file of the folder"),
        ('{"module": "a.js", "routes": {"a": 1}}', "routes must map"),
        ('{"module": "a.js", "colour": "red"}', "must be an object with module"),
        ('{"module": "a.js", "routes": {"a": "a"}, "table": "b"}', "table must name one of"),
    ],
)
def test_a_games_screens_file_is_checked(tmp_path: Path, text: str, error: str) -> None:
    (tmp_path / "a.js").write_text("export function a() {}\n")
    (tmp_path / "screens.json").write_text(text)
    fake = _Fake()
    fake.folder = tmp_path
    with pytest.raises(FeltError, match=error):
        own_screens(fake)
    (tmp_path / "screens.json").unlink()
    assert own_screens(fake) is None


def test_a_table_game_without_a_layout_has_an_empty_one() -> None:
    assert TableGame().layout(None) == {}


def test_the_shared_screens_name_no_game() -> None:
    """Issue 19: outside a game's folder nothing names a game; the browser's own files too."""
    named = re.compile(r"boston|double.?down|keno|three.?card", re.IGNORECASE)
    found = [f"{p.relative_to(WEB)}:{n}" for p in sorted(WEB.rglob("*")) if p.is_file()
             and p.suffix in (".py", ".js", ".css", ".html", ".json")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if named.search(line)]  # fmt: skip
    assert not found, found


def test_17_4_e_cut_input_offers_exactly_the_positions_the_round_accepts() -> None:
    """The cut position the screen lets a player type is what 17.4(e) allows: the round refuses
    one card either side of the input's range and the range itself is all allowed."""
    from felt.core.cards import ALL_CARDS
    from felt.games.double_down.actions import DeclineCut, PlayerCut
    from felt.games.double_down.round import Phase

    game = table_game("double-down-stud")
    config = game.config("double-down-stud", {})
    number = game.layout(config)["decisions"]["cut or decline"]["number"]
    lo, hi = number["min"], number["max"]
    for position, allowed in ((lo - 1, False), (lo, True), (hi, True), (hi + 1, False)):
        rnd = DoubleDownRound(config, tuple(ALL_CARDS))
        rnd.phase = Phase.CUT
        rnd.cut_offered_to = 1
        assert rnd.can(PlayerCut(1, position)) is allowed, position
    assert DeclineCut(1).to_json() == {"action": "decline_cut", "seat": 1}
