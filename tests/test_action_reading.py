"""The fast paths of reading and recording a player's action (issue 25: server CPU per action)
answer as the general readings they stand in front of: :func:`felt.server.app.check_json`'s first
pass (:func:`_plainly_fine`) passes only what the item-by-item walk passes, an action's amounts
read at once (:func:`felt.rounds.actions._cents`) are what :func:`felt.core.money.cents` reads,
or refuses with the same words, and the record's card texts are the cards' own."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from felt.core.errors import FeltError
from felt.core.money import MAX_AMOUNT, MAX_METER, cents
from felt.games.registry import table_game
from felt.rounds.actions import _cents
from felt.server.app import MAX_DEPTH, _plainly_fine, _walk_json, check_json

TEXT = st.text(alphabet=st.sampled_from(["a", "é", "\x00", "\ud800", "\udfff", "$", " ", "😀"]))
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT
JSONISH = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(TEXT | st.integers(), inner, max_size=4)
        | st.tuples(inner)
    ),  # no JSON type: the walk ignores it, and so must the first pass
    max_leaves=30,
)


def outcome(check: Any, value: Any) -> str:
    """What a check says of ``value``: ``ok`` or its refusal."""
    try:
        check(value)
    except FeltError as err:
        return str(err)
    return "ok"


def nested(depth: int, leaf: Any) -> Any:
    """``leaf`` inside lists and dicts, ``depth`` levels in all."""
    value = leaf
    for level in range(depth - 1):
        value = [value] if level % 2 else {"k": value}
    return value


@settings(max_examples=400, deadline=None)
@given(JSONISH)
def test_check_json_answers_as_the_item_by_item_walk(value: Any) -> None:
    """Oracle: the walk that was ``check_json`` before its first pass."""
    if _plainly_fine(value):
        assert outcome(_walk_json, value) == "ok"
    assert outcome(check_json, value) == outcome(_walk_json, value)


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1])
@pytest.mark.parametrize("leaf", [1, "x", "\x00", [], {}])
def test_check_json_at_the_depth_limit(depth: int, leaf: Any) -> None:
    value = nested(depth, leaf)
    assert outcome(check_json, value) == outcome(_walk_json, value)
    assert (outcome(check_json, value) == "ok") == (depth <= MAX_DEPTH and leaf != "\x00")


def test_the_first_pass_can_pass_only_what_is_fine() -> None:
    """The first pass is no refusal of its own: it says False for each kind of trouble."""
    for bad in ({"a": "\x00"}, ["\udc00"], nested(MAX_DEPTH + 1, 1), {1: "a"}, ("t",)):
        assert not _plainly_fine(bad)
    assert _plainly_fine({"table": "b5", "action": {"action": "second", "seat": 1}, "key": "k"})


AMOUNTS = (
    st.from_regex(r"\A[0-9]{1,17}\.[0-9]{2}\Z")
    | st.from_regex(r"\A[ $,.\-0-9]{0,12}\Z")
    | st.integers(-(10**17), 10**17)
    | st.floats(allow_nan=True)
    | st.booleans()
    | st.none()
)


@settings(max_examples=500, deadline=None)
@given(AMOUNTS, st.sampled_from([MAX_AMOUNT, MAX_METER]))
def test_an_amount_read_at_once_is_what_cents_reads(value: object, maximum: int) -> None:
    """Oracle: :func:`felt.core.money.cents`, its amount or its refusal word for word."""
    assert outcome(lambda v: _cents(v, "ante", maximum), value) == outcome(
        lambda v: cents(v, "ante", maximum), value
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [("5.00", 500), ("10.25", 1025), ("0.01", 1), ("007.50", 750), ("10000000.00", 10**9)],
)
def test_plain_amounts_clients_send(text: str, expected: int) -> None:
    assert _cents(text, "ante", MAX_AMOUNT) == expected == cents(text, "ante")


def test_an_amount_over_the_limit_is_refused_as_cents_refuses_it() -> None:
    with pytest.raises(FeltError, match="at most"):
        _cents("10000000.01", "ante", MAX_AMOUNT)


def test_a_wager_read_for_the_server_is_the_wager_sent() -> None:
    """End to end: the bots' wager and its JSON back, as the server records it."""
    game = table_game("boston5")
    entry = {"action": "wager", "seat": 1, "ante": "5.00", "first": "10.00"}
    action = game.parse_action(entry, "action")
    assert (action.ante, action.first) == (500, 1000)  # type: ignore[attr-defined]
    assert action.to_json() == {**entry, "bonus": "0.00"}


def test_the_record_s_card_text_is_the_card_s_own() -> None:
    """The record writes each card by a table of texts: the one ``str`` gives, every card."""
    from felt.core.cards import ALL_CARDS, CARD_TEXT

    assert [CARD_TEXT[c] for c in ALL_CARDS] == [str(c) for c in ALL_CARDS]
    assert len(set(CARD_TEXT)) == 52
