"""Where a round stands, on the screens, in the words of the people who see it (issue 20: "the
screens in the words of the people who use them"): every phase a table game's round can be in
has words in its layout's ``phase_words``, and the shared screens show those words, never a
phase's own name."""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from felt.games.registry import game_ids, table_game

STATIC = Path(__file__).resolve().parents[1] / "src" / "felt" / "web" / "static"
TABLE_GAMES = [(g, e) for g in game_ids("table") for e in table_game(g).editions(g)]
"""Every registered table game under each of its rule texts."""


@pytest.mark.parametrize(("game_id", "edition"), TABLE_GAMES)
def test_every_phase_the_round_can_be_in_has_words(game_id: str, edition: str) -> None:
    """Oracle: the round's own phase type (the enum a new round's ``phase`` is a member of, read
    from the game's code, not from the word list): its members and the words' keys are the same
    set, each with words."""
    game = table_game(game_id)
    config = game.config(game_id, {}, edition=edition)
    rnd: Any = game.new_table(config).new_round()  # the game's own round, with its phase
    phases = type(rnd.phase)
    assert issubclass(phases, Enum), phases
    words = game.layout(config)["phase_words"]
    assert set(words) == {str(p.value) for p in phases}
    for phase, said in words.items():
        assert isinstance(said, str), phase
        assert said.strip(), phase


def test_the_shared_screens_show_no_phase_by_its_name() -> None:
    """Oracle: the screens' source: a round's ``phase`` is read only for the layout's words
    (``phaseWords``), a ``data-phase`` attribute, or the wager form's phases; any other use
    (put in text) is named."""
    allowed = re.compile(
        r"phaseWords\([^,]*, [\w.]+\.phase\b|phase: [\w.]+\.phase\b"
        r"|\.phases\.includes\([\w.]+\.phase\)"
    )
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sorted(STATIC.glob("*.js"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\.phase\b", allowed.sub("", line))
    ]
    assert not found, found
