"""The poker room's waiting lists: N.J.A.C. 19:47-14.18 Waiting list."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from felt.core.errors import FeltError
from felt.games.poker.waitlist import WaitingLists

GAME = "holdem 2/4 fixed"


def test_first_come_first_served_call_14_18() -> None:
    """14.18: vacant seats filled first come first served: the first to join is called first."""
    w = WaitingLists(arrive_seconds=60)
    for t, name in enumerate(["ann", "bob", "cat"]):
        w.join(GAME, name, t)
    assert w.call(GAME, 10).name == "ann"
    assert w.call(GAME, 11).name == "bob"
    assert w.arrive(GAME, "bob", 70).name == "bob"
    assert [e.name for e in w.entries(GAME)] == ["ann", "cat"]


def test_player_on_several_lists_sees_only_own_place_14_18() -> None:
    """14.18: a player may wait on several lists; their view is their own place, no names."""
    w = WaitingLists()
    w.join(GAME, "ann", 0)
    w.join(GAME, "bob", 1)
    w.join("omaha 5/10 pot", "bob", 2)
    assert w.player_view("bob") == {GAME: "2nd of 2", "omaha 5/10 pot": "1st of 1"}
    assert w.player_view("zed") == {}
    floor = w.floor_view()
    assert [e.name for e in floor[GAME]] == ["ann", "bob"]


def test_refusals_change_nothing_14_18() -> None:
    """Twice on one list, calling an empty list, arriving late or uncalled: refused, unchanged."""
    w = WaitingLists(arrive_seconds=60)
    w.join(GAME, "ann", 0)
    w.join(GAME, "bob", 1)
    before = w.floor_view()
    with pytest.raises(FeltError, match="already on"):
        w.join(GAME, "ann", 2)
    with pytest.raises(FeltError, match="not been called"):
        w.arrive(GAME, "ann", 3)
    with pytest.raises(FeltError, match="no one is waiting"):
        w.call("stud 5/10 fixed", 3)
    assert w.floor_view() == before
    w.call(GAME, 10)
    with pytest.raises(FeltError, match="after the time"):
        w.arrive(GAME, "ann", 71)
    with pytest.raises(FeltError, match="not a no-show"):
        w.no_show(GAME, "ann", 70)
    w.call(GAME, 10)
    with pytest.raises(FeltError, match="no one is waiting to be called"):
        w.call(GAME, 11)


def test_no_show_removed_or_moved_down_14_18() -> None:
    """A called player who does not arrive in time: removed, or moved down one place, uncalled."""
    w = WaitingLists(arrive_seconds=60)
    w.join(GAME, "ann", 0)
    w.join(GAME, "bob", 1)
    w.call(GAME, 10)
    assert w.no_show(GAME, "ann", 71) is None
    assert [e.name for e in w.entries(GAME)] == ["bob"]
    m = WaitingLists(arrive_seconds=60, no_show="move_down")
    m.join(GAME, "ann", 0)
    m.join(GAME, "bob", 1)
    m.call(GAME, 10)
    kept = m.no_show(GAME, "ann", 71)
    assert kept is not None
    assert kept.called_at is None
    assert [e.name for e in m.entries(GAME)] == ["bob", "ann"]
    assert m.call(GAME, 80).name == "bob"


def test_announce_only_vacancies_with_a_list_14_18() -> None:
    """14.18 last sentence: announce only the vacancies someone is waiting for."""
    w = WaitingLists()
    assert w.announce([GAME]) == ()
    w.join(GAME, "ann", 0)
    assert w.announce(["omaha 5/10 pot", GAME, GAME]) == (GAME,)
    w.remove(GAME, "ann")
    assert w.announce([GAME]) == ()


OPS = st.lists(
    st.tuples(
        st.sampled_from(["join", "remove", "call", "arrive", "no_show"]),
        st.sampled_from(["a", "b", "c", "d", "e"]),
        st.sampled_from([GAME, "omaha 5/10 pot"]),
    ),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(OPS)
def test_order_is_first_come_first_served_property_14_18(ops: list[tuple[str, str, str]]) -> None:
    """14.18: under any sequence of join/remove/call/arrive/no-show (no-shows removed), every list
    stays in joining order, a call takes the earliest uncalled player, and no one is twice on a list."""
    w = WaitingLists(arrive_seconds=5)
    joined: dict[tuple[str, str], int] = {}
    for now, (op, name, game) in enumerate(ops):
        before = w.floor_view()
        try:
            if op == "join":
                w.join(game, name, now)
                joined[(game, name)] = now
            elif op == "remove":
                w.remove(game, name)
            elif op == "call":
                uncalled = [e for e in w.entries(game) if e.called_at is None]
                assert w.call(game, now).name == uncalled[0].name
            elif op == "arrive":
                w.arrive(game, name, now)
            else:
                w.no_show(game, name, now + 10)
        except FeltError:
            assert w.floor_view() == before
        for g, entries in w.floor_view().items():
            names = [e.name for e in entries]
            assert len(set(names)) == len(names)
            assert [e.joined for e in entries] == sorted(joined[(g, n)] for n in names)
