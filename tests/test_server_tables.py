"""The server's tables through the game interface (issue 19): the snapshots and round origins
stored in existing databases still load, and are written in the same form as before."""

from __future__ import annotations

from typing import Any

import pytest

from felt.core.cards import ALL_CARDS
from felt.games.registry import game_ids, table_game
from felt.server.host import make_table
from felt.server.spec import TableSpec, default_specs, spec_from_mapping

STORED_TABLES: dict[str, dict[str, Any]] = {
    "boston5": {"rounds_played": 7, "rounds_since_count": 3, "deck_removed": True,
                "device_removed": False, "dealing": "hand"},
    "double-down-stud": {"rounds_played": 4, "game_beginning": False, "last_offered": 5,
                         "shuffler_removed": True, "shuffling": "manual"},
}  # fmt: skip
"""Table snapshots as the server has always stored them (``felt_tables.state``'s ``table``)."""
STORED_ORIGINS: dict[str, dict[str, Any]] = {
    "boston5": {"number": 8, "stub_count_due": True},
    "double-down-stud": {"number": 5, "new_game": False, "last_offered": 5},
}
"""Round origins as the server has always stored them (``rounds.origin``)."""


@pytest.mark.parametrize("game", sorted(STORED_TABLES))
def test_a_stored_table_snapshot_loads_and_is_written_back_the_same(game: str) -> None:
    table = make_table(TableSpec("t", game), STORED_TABLES[game])
    assert table_game(game).table_snapshot(table) == STORED_TABLES[game]
    assert table.rounds_played == STORED_TABLES[game]["rounds_played"]


@pytest.mark.parametrize("game", sorted(STORED_ORIGINS))
def test_a_stored_round_origin_makes_the_round_it_recorded(game: str) -> None:
    tg = table_game(game)
    config = TableSpec("t", game).config()
    rnd = tg.new_round(config, ALL_CARDS, STORED_ORIGINS[game])
    assert rnd.number == STORED_ORIGINS[game]["number"]
    assert tg.round_origin(rnd) == STORED_ORIGINS[game]


def test_a_new_table_snapshot_has_the_stored_keys() -> None:
    for game, stored in STORED_TABLES.items():
        fresh = table_game(game).table_snapshot(make_table(TableSpec("t", game), None))
        assert set(fresh) == set(stored)
        assert fresh["rounds_played"] == 0


def test_the_default_server_runs_one_table_of_each_game_under_its_usual_id() -> None:
    """One table of each registered table game, in the registry's order; the games felt began
    with keep the ids their stored tables have, and a hyphenated id's table is named by its
    initials."""
    tables = [(s.id, s.game) for s in default_specs() if isinstance(s, TableSpec)]
    assert [game for _, game in tables] == list(game_ids("table"))
    ids = {game: table for table, game in tables}
    assert {g: ids[g] for g in ("boston5", "boston7", "double-down-stud")} == {
        "boston5": "boston5-1",
        "boston7": "boston7-1",
        "double-down-stud": "dds-1",
    }
    for game, table in ids.items():
        short = "".join(w[0] for w in game.split("-")) if "-" in game else game
        assert table == f"{short}-1"


def test_a_table_entry_names_a_registered_table_game_and_an_edition_it_has() -> None:
    with pytest.raises(
        Exception,
        match="game must be one of boston5, boston7, caribbean_stud, craps, double-down-stud",
    ):
        spec_from_mapping({"id": "x", "game": "keno"}, "t")
    with pytest.raises(Exception, match="edition does not apply to double-down-stud"):
        spec_from_mapping({"id": "x", "game": "double-down-stud", "edition": "nj-19-47-17"}, "t")
    with pytest.raises(Exception, match="edition must be a name such as"):
        spec_from_mapping({"id": "x", "game": "boston5", "edition": 5}, "t")
    spec = spec_from_mapping({"id": "x", "game": "boston7", "edition": "nj-13-69f-24"}, "t")
    assert spec.config().edition.name == "nj-13-69f-24"
    spec = spec_from_mapping({"id": "x", "game": "boston5", "edition": "nj-13-69f-24"}, "t")
    assert spec.config().edition.name == "nj-13-69f-24"
    assert spec_from_mapping({"id": "x", "game": "boston5"}, "t").config().edition.name == (
        "nj-19-47-24"
    )
