"""A round's copy (:meth:`RoundCore.copy`) is what lets the server try an action without
touching the round in play: an action accepted or refused on the copy leaves the original as it
was (and a refused action changes neither).  These tests hold it, at every table game, to an
independent oracle: ``copy.deepcopy`` of the round before the action, and no mutable object
(dict, list, set, unfrozen dataclass) shared between the copy and the original but the round's
``_origin``, shared by design."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any

import pytest

from felt.core.errors import FeltError
from felt.games.registry import game_ids, table_game
from felt.rounds.actions import Action, DecisionTimeout
from felt.rounds.round_core import RoundCore, _clone

GAMES = game_ids("table")


def mutables(value: Any, out: dict[int, Any], skip_origin: bool = True) -> dict[int, Any]:
    """Every mutable object reachable from ``value`` (a round's ``_origin`` left out), by id:
    tuples and frozen dataclasses are immutable by the copy's contract (a table's configuration
    is shared), and not looked into."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict | list | set):
            if id(item) in out:
                continue
            out[id(item)] = item
            stack.extend(item.values() if isinstance(item, dict) else item)
        elif (
            hasattr(item, "__dict__")
            and hasattr(type(item), "__dataclass_params__")
            and not type(item).__dataclass_params__.frozen  # immutable by contract: shared
        ):
            if id(item) in out:
                continue
            out[id(item)] = item
            stack.extend(v for k, v in vars(item).items() if not (skip_origin and k == "_origin"))
    return out


def comparable(rnd: RoundCore) -> dict[str, Any]:
    """What a round's ``==`` compares (its fields), but values that compare by identity (poker's
    PokerKit hand, which its round copies itself with ``copy.deepcopy``)."""
    values = {f.name: getattr(rnd, f.name) for f in fields(rnd) if f.compare}
    return {k: v for k, v in values.items() if v is None or _compares_by_value(v)}


def _compares_by_value(value: object) -> bool:
    eq: Any = type(value).__eq__
    return eq is not object.__eq__


def assert_independent(rnd: RoundCore, twin: RoundCore) -> None:
    """``twin`` equals ``rnd`` and shares no mutable object with it (but ``_origin``)."""
    assert comparable(twin) == comparable(rnd)
    assert type(twin) is type(rnd)
    shared = mutables(rnd, {}).keys() & mutables(twin, {}).keys()
    assert not shared, [type(mutables(rnd, {})[i]).__name__ for i in shared]
    assert twin._origin is rnd._origin


def refusals(rnd: RoundCore) -> list[Action]:
    """Actions the round refuses now (a timeout with no election pending at an unused seat, a
    seat that does not exist)."""
    out: list[Action] = [DecisionTimeout(rnd.seat_count())]
    pending = {seat for seat, _ in rnd.pending()}
    out += [DecisionTimeout(s) for s in (1, 2, 3) if s not in pending]
    return [a for a in out if not rnd.can(a)]


def played(game_id: str, rounds: int = 3) -> int:
    """Play ``rounds`` rounds of three seats as :mod:`tests.test_dealer_steps` plays them, every
    action tried on a copy of the round (as the server does) and the copy kept: each copy is
    checked against the original before and after, and a refused action against both.  Returns
    the number of actions tried."""
    game = table_game(game_id)
    config = game.config(game_id, {})
    table = game.new_table(config)
    simulation = game.simulation(config)
    tried = 0

    def tried_on_copy(rnd: Any, action: Action) -> Any:
        nonlocal tried
        before = copy.deepcopy(rnd)
        for refused in refusals(rnd):
            twin = rnd.copy()
            assert_independent(rnd, twin)
            with pytest.raises(FeltError):
                twin.apply(refused)
            assert comparable(twin) == comparable(before) == comparable(rnd)
        twin = rnd.copy()
        assert_independent(rnd, twin)
        twin.apply(action)
        assert comparable(rnd) == comparable(before), f"{game_id}: {action} changed the original"
        assert len(twin.events) == len(rnd.events) + 1
        tried += 1
        return twin

    for _ in range(rounds):
        rnd: Any = table.new_round()
        wagers = [(s, a) for s in (1, 2, 3) for a in simulation.wagers(s, config.minimum)]
        for seat, wager in wagers:
            if rnd.can(wager):
                rnd = tried_on_copy(rnd, wager)
            else:  # only a seat the table carried may be refused (craps's layout, a stack)
                assert seat in rnd.seats or not type(rnd).uses_cards, wager
        while not rnd.finished:
            step = game.dealer_step(table, rnd)
            action = (
                game.suggest(rnd, *rnd.pending()[0])
                if step is None
                else game.complete_action(table, step)  # as the server applies it
            )
            rnd = tried_on_copy(rnd, action)
        again = rnd.replay_from_start()  # the copies played the round as the record says
        assert again.events == rnd.events
        assert (again.ledger, again.lines, again.rack) == (rnd.ledger, rnd.lines, rnd.rack)
        table.history = [rnd]  # the copy kept, as the server keeps it (host._finished)
        table.finish(rnd)
    return tried


@pytest.mark.parametrize("game_id", GAMES)
def test_an_action_tried_on_a_copy_leaves_the_round_as_it_was(game_id: str) -> None:
    """Oracle: ``copy.deepcopy`` of the round before the action, and the replay of the record."""
    assert played(game_id) >= 3


@dataclass
class Box:
    """A toy of round state whose attributes change type from one copy to the next."""

    items: list[int] | None = None
    inner: dict[str, list[int]] = field(default_factory=dict)
    tag: str = ""


def test_an_attribute_that_changes_type_is_copied_by_its_type_of_the_moment() -> None:
    """How a value is copied goes by its type of the moment: a field None at one copy and a
    list at the next is copied."""
    first = Box()
    assert _clone(first) == first
    second = Box(items=[1, 2], inner={"a": [3]})
    twin = _clone(second)
    assert twin == second
    assert twin.items is not second.items
    assert twin.inner["a"] is not second.inner["a"]
    twin.items.append(9)
    twin.inner["a"].append(9)
    assert second == Box(items=[1, 2], inner={"a": [3]})


def test_the_checks_can_fail_on_a_copy_that_shares_state() -> None:
    """The independence check finds a list shared between a round and its copy."""
    rnd: Any = table_game("boston5").new_table(table_game("boston5").config("boston5", {}))
    rnd = rnd.new_round()
    twin = rnd.copy()
    twin.events = rnd.events
    with pytest.raises(AssertionError):
        assert_independent(rnd, twin)
