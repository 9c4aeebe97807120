"""Reading actions from JSON: each game reads the shared actions and its own, and its errors list
only what it allows; a reader that does not know the game yet accepts any registered game's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from felt.core.errors import FeltError
from felt.games.boston.actions import ACTIONS as BOSTON_ACTIONS
from felt.games.boston.actions import Second
from felt.games.double_down.actions import ACTIONS as DD_ACTIONS
from felt.games.double_down.actions import DoubleDown, parse_action
from felt.games.registry import table_game
from felt.rounds.actions import (
    SHARED_ACTIONS,
    Deal,
    FaceUpCard,
    PlayerAction,
    action_from_json,
    action_table,
)


@dataclass(frozen=True)
class SideBet(PlayerAction):
    """A side wager of a name no shared action uses."""

    name: ClassVar[str] = "side_bet"
    money_fields: ClassVar[frozenset[str]] = frozenset({"side"})
    side: int


def test_each_game_reads_shared_and_its_own_actions() -> None:
    boston, dd = table_game("boston5"), table_game("double-down-stud")
    assert boston.parse_action({"seat": 1, "action": "second"}, "a") == Second(1)
    assert dd.parse_action({"seat": 2, "action": "double", "amount": "5"}, "a") == DoubleDown(
        2, 500
    )
    for game in (boston, dd):
        assert game.parse_action({"dealer": "deal"}, "a") == Deal()
        assert game.parse_action({"irregularity": "face_up_card", "position": 3}, "a") == (
            FaceUpCard(3)
        )


def test_a_game_refuses_another_games_action_naming_only_its_own() -> None:
    with pytest.raises(FeltError) as e:
        table_game("boston5").parse_action({"seat": 1, "action": "double"}, "entry 4")
    message = str(e.value)
    assert message.startswith("entry 4: unknown action 'double' (allowed: ")
    assert "second" in message
    assert "stand" not in message
    with pytest.raises(FeltError, match="unknown action 'second'") as e:
        parse_action({"seat": 1, "action": "second"}, "entry 1")
    assert "stand" in str(e.value)
    assert "withdraw" not in str(e.value)


def test_two_games_may_each_name_an_action_alike_read_for_their_own_game() -> None:
    """An action is read for its game (issue 19: Three Card Poker's ``wager`` is not Boston's):
    the same name gives each game's own class, and a reader always says which game's it reads."""

    @dataclass(frozen=True)
    class OtherWager(PlayerAction):
        name: ClassVar[str] = "wager"
        amount: int

    entry = {"seat": 1, "action": "wager", "amount": "5"}
    assert action_from_json(entry, "a", (OtherWager,)) == OtherWager(1, 500)
    with pytest.raises(FeltError, match="takes no 'amount'"):
        action_from_json(entry, "a", BOSTON_ACTIONS)
    assert action_from_json(Second(3).to_json(), "a", BOSTON_ACTIONS) == Second(3)
    with pytest.raises(FeltError, match="unknown dealer 'dance'"):
        action_from_json({"dealer": "dance"}, "a", DD_ACTIONS)


def test_shared_actions_belong_to_no_game_and_names_are_unique() -> None:
    assert not set(SHARED_ACTIONS) & set(BOSTON_ACTIONS)
    assert not set(SHARED_ACTIONS) & set(DD_ACTIONS)
    assert len(action_table(BOSTON_ACTIONS)) == len(SHARED_ACTIONS) + len(BOSTON_ACTIONS)
    with pytest.raises(TypeError, match="is both"):
        action_table((*BOSTON_ACTIONS, *DD_ACTIONS, type("Other", (Second,), {})))


def test_a_game_names_its_own_money_fields_dollars_in_json_cents_inside() -> None:
    """An action whose wager is not one of the shared money fields (a side wager of another
    name) reads dollars into cents and writes them back, and refuses a sum that is no amount."""
    bet = action_from_json({"action": "side_bet", "seat": 2, "side": "12.50"}, "a", (SideBet,))
    assert bet == SideBet(2, 1250)
    assert bet.to_json() == {"action": "side_bet", "seat": 2, "side": "12.50"}
    with pytest.raises(FeltError, match="side"):
        action_from_json({"action": "side_bet", "seat": 2, "side": "12.505"}, "a", (SideBet,))
