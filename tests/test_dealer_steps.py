"""Every step a table game's round can ask its dealer for has words on the dealer's console
(the layout's ``dealer_steps``, issue 20 item 7).  The steps are found from the code, never from
the label list: (1) every dealer action the game reads (its own and the shared ones), less the
clock's timeout and the supervisor's own steps; (2) every step the game's ``dealer_step`` asked
for in rounds played through the game interface, at every edition of every table game."""

from __future__ import annotations

from typing import Any

import pytest

from felt.core.errors import FeltError
from felt.games.registry import game_ids, table_game
from felt.rounds.actions import SHARED_ACTIONS, DealerAction, DecisionTimeout

TABLES = [(gid, edition) for gid in game_ids("table") for edition in table_game(gid).editions(gid)]
"""Every table game at every edition it may be played under."""


def layout_words(game_id: str, edition: str) -> dict[str, str]:
    game = table_game(game_id)
    words: dict[str, str] = game.layout(game.config(game_id, {}, edition=edition))["dealer_steps"]
    return words


def dealer_actions(game_id: str) -> set[str]:
    """The names of the dealer's actions the game reads, but the clock's and a supervisor's (a
    shared action the game refuses to read, such as Let It Ride's ``reveal``, is none of them)."""
    game = table_game(game_id)
    return {
        cls.name
        for cls in (*game.action_types, *SHARED_ACTIONS)
        if issubclass(cls, DealerAction)
        and cls is not DecisionTimeout
        and not getattr(cls, "supervisor_only", "")
        and reads(game_id, cls)
    }


def reads(game_id: str, cls: type[DealerAction]) -> bool:
    """Whether the game reads ``cls`` as a step (it may still need fields given)."""
    try:
        table_game(game_id).parse_action({cls.family: cls.name}, "step")
    except FeltError as err:
        return " needs " in str(err)
    return True


def steps_asked(game_id: str, edition: str, rounds: int = 12) -> set[str]:
    """The steps ``dealer_step`` asked for in ``rounds`` rounds of three seats at the minimum
    table, elections answered with the game's suggested play."""
    game = table_game(game_id)
    config = game.config(game_id, {}, edition=edition)
    table = game.new_table(config)
    simulation = game.simulation(config)
    asked: set[str] = set()
    for _ in range(rounds):
        rnd: Any = table.new_round()
        for seat in (1, 2, 3):
            for action in simulation.wagers(seat, config.minimum):
                # a seat the table carried from the last round (craps's wagers on the layout,
                # a poker stack) wagers again only where the round allows it (a pass wager only
                # on a come out roll, a buy-in only up to the table's maximum)
                carried = seat in rnd.seats or not type(rnd).uses_cards
                if not carried or rnd.can(action):
                    rnd.apply(action)
        while not rnd.finished:
            step = game.dealer_step(table, rnd)
            if step is not None:
                asked.add(step.name)
                rnd.apply(game.complete_action(table, step))  # as the server applies it
                continue
            seat, election = rnd.pending()[0]
            rnd.apply(game.suggest(rnd, seat, election))
        table.finish(rnd)
    return asked


@pytest.mark.parametrize(("game_id", "edition"), TABLES)
def test_every_dealer_action_of_the_game_has_words(game_id: str, edition: str) -> None:
    """Oracle: the game's action table (what the server would accept as a dealer's step)."""
    words = layout_words(game_id, edition)
    missing = dealer_actions(game_id) - set(words)
    assert not missing, f"{game_id} {edition}: no console words for {sorted(missing)}"
    assert all(isinstance(w, str) and w.strip() and "_" not in w for w in words.values())


@pytest.mark.parametrize(("game_id", "edition"), TABLES)
def test_every_step_a_played_round_asks_for_has_words(game_id: str, edition: str) -> None:
    """Oracle: the steps the game's own ``dealer_step`` asked for in real rounds."""
    asked = steps_asked(game_id, edition)
    game = table_game(game_id)
    rnd: Any = game.new_table(game.config(game_id, {}, edition=edition)).new_round()
    # the rounds were played through: "no more bets", and at a card game at least a deal and
    # a settlement besides (named as the game names them: deal and settle, deal_hole and award)
    assert "no_more_bets" in asked
    assert len(asked) >= (3 if type(rnd).uses_cards else 1), asked
    missing = asked - set(layout_words(game_id, edition))
    assert not missing, f"{game_id} {edition}: no console words for {sorted(missing)}"


def test_the_boston_deal_of_the_additional_cards_names_them() -> None:
    """24.10(d): two additional cards in Boston 5, four in Boston 7 (13:69F-24.10(c))."""
    assert (
        layout_words("boston5", table_game("boston5").editions("boston5")[0])["deal_additional"]
        == "Deal the fourth and fifth cards"
    )
    assert (
        layout_words("boston7", table_game("boston7").editions("boston7")[0])["deal_additional"]
        == "Deal the fourth to seventh cards"
    )
