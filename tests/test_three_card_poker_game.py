"""Three Card Poker through the game interface (:class:`felt.games.base.TableGame`): everything the
outer layers may ask of a game, answered from the game's folder alone."""

from __future__ import annotations

import ast
import inspect
import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from felt.cli.script import run_script
from felt.core.cards import ALL_CARDS, parse_cards
from felt.core.errors import FeltError
from felt.games.base import Game, TableGame
from felt.games.three_card_poker.actions import CutCards, Wagers
from felt.games.three_card_poker.config import ThreeCardConfig
from felt.games.three_card_poker.game import GAME, ThreeCardPoker
from felt.games.three_card_poker.play import round_record
from felt.games.three_card_poker.round import ThreeCardRound
from felt.rounds.actions import NoMoreBets
from felt.rounds.shuffle import SeededShuffle

ROOT = Path(__file__).parents[1]
SEEDS = Path(os.environ.get("FELT_SEEDS") or ROOT.parent / "shared" / "seeds")
ID = "three-card-poker"


def test_every_method_of_the_interface_is_the_games_own() -> None:
    """Each method base.py leaves to a table game (raising there) is overridden; a system game's
    (Keno's) and ``felt analyze`` of a game analysed elsewhere than at a table are not its."""
    source = inspect.getsource(inspect.getmodule(Game))  # type: ignore[arg-type]
    tree = ast.parse(source)
    required = {
        node.name
        for cls in tree.body
        if isinstance(cls, ast.ClassDef) and cls.name in ("Game", "TableGame")
        for node in cls.body
        if isinstance(node, ast.FunctionDef)
        and any(isinstance(n, ast.Raise) for n in ast.walk(node))
        and node.name not in ("check_edition", "analyze_command", "system_spec", "system_host")
    }
    assert {"title", "config", "analyze", "seat_view", "play"} <= required
    for name in required:
        assert name in ThreeCardPoker.__dict__, name
    assert isinstance(GAME, TableGame)
    assert GAME.ids == (ID,)
    assert GAME.family == "three_card_poker"


def test_identity_editions_and_configuration() -> None:
    assert GAME.title(ID) == "Three Card Poker"
    assert GAME.editions(ID) == ("nj-19-47-20",)
    assert GAME.check_edition(ID, None) == "nj-19-47-20"
    with pytest.raises(FeltError, match="does not apply"):
        GAME.check_edition(ID, "nj-19-47-24")
    config = GAME.config(ID, {})
    assert config == ThreeCardConfig.from_mapping({})
    assert GAME.config_game(config) == ID
    assert GAME.config_edition(config) == "nj-19-47-20"
    with pytest.raises(FeltError, match="edition does not apply"):
        GAME.config(ID, {}, edition="nj-13-69f-24")
    assert GAME.seat_count(config) == 6


def test_table_file(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('game = "three-card-poker"\nmaximum = "1000"\npair_plus = false\n')
    game_id, config = GAME.load_config(path)
    assert game_id == ID
    assert config.maximum == 100000
    assert config.pair_plus is False


def test_a_table_and_its_rounds_as_the_server_drives_them() -> None:
    """new_table / dealer_step / seat_view / table_snapshot / new_round from round_origin."""
    config = GAME.config(ID, {})
    table = GAME.new_table(config, None)
    table.shuffler = SeededShuffle(11)  # type: ignore[attr-defined]
    rnd = table.new_round()
    assert isinstance(rnd, ThreeCardRound)
    assert GAME.betting_open(rnd)
    rnd.apply(
        GAME.parse_action({"seat": 2, "action": "wager", "ante": "10", "pair_plus": "5"}, "a")
    )
    rnd.apply(GAME.parse_action({"seat": 5, "action": "wager", "ante": "5"}, "a"))
    step = GAME.dealer_step(table, rnd)
    assert isinstance(step, CutCards)
    assert 10 <= step.position <= 42
    rnd.apply(step)
    assert not GAME.betting_open(rnd)
    while (step := GAME.dealer_step(table, rnd)) is not None:
        rnd.apply(step)
    view = GAME.seat_view(rnd, 2)
    assert len(view["own_cards"]) == 3
    assert [o["cards"] for o in view["others"]] == [[]]
    assert view["dealer_cards"] == []
    assert view["dealer_card_count"] == 3
    assert view["pending"] == [{"seat": 2, "election": "play or fold"},
                               {"seat": 5, "election": "play or fold"}]  # fmt: skip
    public = json.dumps(GAME.seat_view(rnd, 0))
    for card in rnd.seats[2].cards + rnd.seats[5].cards + rnd.dealer_cards:
        assert str(card) not in public
    for seat in (2, 5):
        rnd.apply(GAME.suggest(rnd, seat, "play or fold"))
    with pytest.raises(FeltError, match="no election"):
        GAME.suggest(rnd, 2, "double or stand")
    while (step := GAME.dealer_step(table, rnd)) is not None:
        rnd.apply(step)
    assert rnd.finished
    assert GAME.seat_view(rnd, 2)["lines"]
    again = GAME.new_round(config, rnd.dealt_from, GAME.round_origin(rnd))
    for action in rnd.actions:
        again.apply(action)
    assert again.events == rnd.events
    table.finish(rnd)
    snap = GAME.table_snapshot(table)
    assert snap == {"rounds_played": 1, "shuffler_removed": False, "shuffling": "shuffler"}
    restored = GAME.new_table(config, json.loads(json.dumps(snap)))
    assert GAME.table_snapshot(restored) == snap
    assert set(GAME.procedures()) == {"remove_shuffler", "change_shuffling"}
    for name in GAME.procedures():
        assert callable(getattr(restored, name))


def test_layout_names_actions_the_game_reads() -> None:
    config = GAME.config(ID, {})
    layout = GAME.layout(config)
    assert layout["title"] == "Three Card Poker"
    spots = {s["field"]: s for s in layout["wager"]["spots"]}
    assert set(spots) == {"ante", "pair_plus"}
    entry = {"seat": 1, "action": layout["wager"]["action"], "ante": "5", "pair_plus": "5"}
    assert GAME.parse_action(entry, "x") == Wagers(1, 500, 500)
    rnd = ThreeCardRound(config, tuple(ALL_CARDS))
    for phase in layout["wager"]["phases"]:
        assert phase in {"betting", "cut done"}
    for election, spec in layout["decisions"].items():
        assert election in rnd.ELECTIONS
        for button in spec["buttons"]:
            GAME.parse_action({**button["action"], "seat": 1}, "x")
    for form in layout["irregularities"]:
        entry = {"irregularity": form["name"], **{f["field"]: 1 for f in form["fields"]}}
        GAME.parse_action(entry, "x")
    no_pp = GAME.layout(GAME.config(ID, {"pair_plus": False}))
    assert [s["field"] for s in no_pp["wager"]["spots"]] == ["ante"]


def test_analysis_and_guide_through_the_interface() -> None:
    config = GAME.config(ID, {})
    sheet = GAME.analyze(ID, config, None)
    assert "3.3730%" in sheet.to_text()
    assert GAME.analysis_pending(config) is None
    md = GAME.guide(config, "md")
    assert md.startswith("# Three Card Poker: the patron's guide")
    assert "Q-6-4" in md
    html = GAME.guide(config, "html")
    assert html.startswith("<!DOCTYPE html>")
    assert "<td>40 to 1</td>" in html
    with pytest.raises(FeltError, match="unknown guide format"):
        GAME.guide(config, "pdf")
    plain = GAME.guide(GAME.config(ID, {"pair_plus": False}), "md")
    assert "Pair plus" not in plain


def test_cli_play_session_with_scripted_answers(tmp_path: Path) -> None:
    """Two rounds at seat 3 with another seat auto-played; every line within 80 columns; the
    saved rounds replay exactly; q ends the session."""
    answers = iter(["10", "5", "?", "x", "", "", "0", "p"])
    shown: list[str] = []
    save = tmp_path / "rounds.json"
    options: dict[str, Any] = {"seats": 2, "human": 3, "seed": 4, "rounds": 2, "save": str(save),
                               "ask": lambda prompt: next(answers), "say": shown.append}  # fmt: skip
    config = GAME.config(ID, {})
    GAME.play(config, options)
    assert all(len(line) <= 80 for line in shown)
    text = "\n".join(shown)
    assert "please answer p or f" in text
    assert "is the house's suggested play" in text
    assert "goodbye: 2 round(s)" in text
    records = json.loads(save.read_text())
    assert len(records) == 2
    for record in records:
        assert record["game"] == ID
        assert run_script(record).finished  # a saved round is a round script felt replay reads
    quit_answers = iter(["q"])
    GAME.play(config, {"ask": lambda prompt: next(quit_answers), "say": shown.append})
    assert shown[-1] == "goodbye: 0 round(s), session result 0.00"
    with pytest.raises(FeltError, match="unknown play option"):
        GAME.play(config, {"colour": "red"})


def test_round_record_is_a_round_script() -> None:
    rnd = ThreeCardRound(GAME.config(ID, {"shuffling": "shuffler-to-shoe"}), tuple(ALL_CARDS))
    rnd.apply(Wagers(1, 500))
    rnd.apply(Wagers(2, 0, 500, "bo"))
    rnd.apply(NoMoreBets())
    record = round_record(rnd)
    assert record["wagers"] == {"1": {"ante": "5.00"}, "2": {"pair_plus": "5.00", "player": "bo"}}
    assert record["wager_order"] == [1, 2]
    assert record["actions"] == [{"dealer": "no_more_bets"}]


# ----------------------------------------------------------------------------- the register


def test_register_has_one_entry_per_section_of_the_seed_table_of_contents() -> None:
    """Every section of 19:47-20 the seed lists (titles only) has an entry under its title; each
    entry says its content is not in the seed; implemented entries name tests that exist."""
    register = tomllib.loads(GAME.register_toml())
    assert register["games"] == [ID]
    sections = {s["id"]: s for s in register["section"]}
    path = SEEDS / register["texts"]["nj-19-47-20"]["source"]
    if path.is_file():
        toc = dict(re.findall(r"^- 19:47-20\.(\d+) (.+)$", path.read_text(encoding="utf-8"), re.M))
        assert {k: s["title"] for k, s in sections.items()} == toc
    else:
        assert list(sections) == [str(n) for n in range(1, 13)]
    for section in sections.values():
        for clause in section["clause"]:
            assert clause["status"] in ("implemented", "not modelled", "not applicable", "gap")
            assert "Not in the seed text" in clause["note"]
            if clause["status"] == "implemented":
                assert clause["tests"]
                assert "reason" not in clause
            else:
                assert clause["reason"]
            for node in clause.get("tests", []):
                file, name = node.split("::")
                assert re.search(rf"^def {name}\(", (ROOT / file).read_text(), re.M), node
    assert GAME.static_dir() is None


# ----------------------------------------------------------------------------- the registry


def test_registered_as_an_entry_point_of_felt_games() -> None:
    from felt.games.registry import families, game, game_ids, table_game

    assert families()["three_card_poker"] is GAME
    assert game(ID) is GAME
    assert table_game(ID) is GAME
    assert ID in game_ids("table")
    assert GAME.resource("data/three-card-poker.toml").is_file()
    assert GAME.resource("register.toml").is_file()


def test_actions_are_read_for_this_game_with_their_money_fields() -> None:
    """The game lists its actions; the shared reader reads the pair plus wager as money, and the
    wager action puts a hand in play (the server records the wagering player)."""
    from felt.games.three_card_poker.actions import ACTIONS

    assert GAME.action_types == ACTIONS
    assert Wagers.places_wagers
    assert Wagers.money_fields == frozenset({"ante", "pair_plus"})
    entry = {"seat": 1, "action": "wager", "pair_plus": "2.50", "player": "ann"}
    assert GAME.parse_action(entry, "a") == Wagers(1, 0, 250, "ann")
    with pytest.raises(FeltError, match="takes no 'amount'"):
        GAME.parse_action({"seat": 1, "action": "wager", "amount": "5"}, "a")


def test_round_report_describes_the_round_and_replays_it() -> None:
    from felt.cli.script import report as round_report
    from felt.cli.script import report_text

    deck = parse_cards(["Qs", "6h", "4d", "2c", "5d", "9h", "Js", "Th", "8d"])
    rest = tuple(c for c in ALL_CARDS if c not in deck)
    config = GAME.config(ID, {"shuffling": "shuffler-to-shoe"})
    rnd = ThreeCardRound(config, (*deck, *rest))
    rnd.apply(Wagers(1, 500, 500, "ann"))
    rnd.apply(Wagers(2, 500, player="bo"))
    rnd.run_dealer()
    rnd.apply(GAME.suggest(rnd, 1, "play or fold"))
    rnd.apply(GAME.suggest(rnd, 2, "play or fold"))
    rnd.run_dealer()
    report = json.loads(json.dumps(round_report(rnd)))
    assert report["dealer"] == {"cards": ["Js", "Th", "8d"], "category": "high card",
                                "description": "high card, jack-ten-eight", "qualifies": False}  # fmt: skip
    assert report["seats"]["1"]["hand"]["description"] == "high card, queen-six-four"
    assert report["seats"]["1"]["net_cents"] == 0  # ante +5, play pushed, pair plus -5
    assert report["decisions"] == {"1": "play", "2": "fold"}
    assert report["seats"]["2"]["hand"] is None  # a folded hand is never described
    assert report["house_net_cents"] == 500
    again = run_script(report)
    assert again.lines == rnd.lines
    text = report_text(rnd, symbols=False)
    assert "dealer     Js Th 8d  ->  high card, jack-ten-eight (does not qualify" in text
    assert "seat 2     5d 9h 2c  [folded]" in text or "[folded]" in text


def test_simulation_plays_the_engine_with_an_ante_a_seat_and_knows_the_exact_edge() -> None:
    """The engine path: an ante at each seat, the suggested play, each seat's net; the exact
    figure is the par sheet's edge per ante (the suggested play is the table's optimum)."""
    from fractions import Fraction

    from felt.rounds.shuffle import SeededShuffle

    sim = GAME.simulation(GAME.config(ID, {}))
    assert sim.wagers(3, 500) == [Wagers(3, 500)]
    assert sim.exact_edge(500, 2, None) == Fraction(686689, 20358520)
    deck = SeededShuffle(5).shuffle(ALL_CARDS)
    nets = sim.play_round(tuple(deck), 3, 500, sim.strategy(None))  # type: ignore[arg-type]
    assert len(nets) == 3
    assert all(net % 500 == 0 for net in nets)
