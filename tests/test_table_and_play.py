"""The table across rounds (shuffle, stub-count cadence, decks, 24.12(g)), shuffles, views, play."""

from __future__ import annotations

import collections

import pytest

from felt.core.cards import ALL_CARDS
from felt.core.errors import FeltError
from felt.games.boston.actions import CountStub, PlaceWagers, Second
from felt.games.boston.play import play_session
from felt.games.boston.table import Table
from felt.games.boston.view import seat_view
from felt.rounds.shuffle import FixedOrder, SeededShuffle, SystemShuffle
from tests.boston_helpers import new_round, table


def finish_one(t: Table, count: int | None = None) -> None:
    rnd = t.new_round()
    rnd.apply(PlaceWagers(1, 500, 1000))
    rnd.run_dealer()
    rnd.apply(Second(1))
    rnd.advance()
    if rnd.stub_count_due:
        rnd.apply(CountStub(count))
    rnd.run_dealer()
    t.finish(rnd)


def test_24_7_f_stub_counted_at_least_every_five_rounds() -> None:
    t = Table(table(), SeededShuffle(1))
    due = []
    for _ in range(10):
        due.append(t.stub_count_due())
        finish_one(t)
    assert due == [False, False, False, False, True] * 2


def test_24_9_f_counting_shuffler_with_automated_shoe_exempts_the_count() -> None:
    t = Table(table(dealing="automated-shoe", counting_shuffler=True), SeededShuffle(1))
    for _ in range(6):
        assert not t.stub_count_due()
        finish_one(t)


def test_24_7_f2_deck_removed_after_a_wrong_count_until_replaced() -> None:
    t = Table(table(), SeededShuffle(2))
    for _ in range(4):
        finish_one(t)
    finish_one(t, count=30)
    assert t.deck_removed
    with pytest.raises(FeltError, match="deck was removed"):
        t.new_round()
    t.replace_deck()
    finish_one(t)


def test_24_2_b_two_decks_alternate() -> None:
    t = Table(table(decks=2), SeededShuffle(3))
    labels = []
    for _ in range(4):
        labels.append(t.deck_in_play)
        finish_one(t)
    assert labels == ["A", "B", "A", "B"]


def test_24_12_g_automated_shoe_removed_before_another_method() -> None:
    t = Table(table(dealing="automated-shoe"), SeededShuffle(4))
    with pytest.raises(FeltError, match=r"removed from the table.*24.12\(g\)"):
        t.change_dealing("hand")
    t.remove_device()
    t.change_dealing("hand")
    assert t.config.dealing == "hand"


def test_seeded_shuffle_is_reproducible_and_uniform_enough() -> None:
    a, b = SeededShuffle("x"), SeededShuffle("x")
    assert [a.shuffle(ALL_CARDS) for _ in range(3)] == [b.shuffle(ALL_CARDS) for _ in range(3)]
    tops = collections.Counter(SeededShuffle(9).shuffle(ALL_CARDS)[0] for _ in range(1))
    assert sum(tops.values()) == 1
    s = SeededShuffle(11)
    firsts = collections.Counter(s.shuffle(ALL_CARDS)[0] for _ in range(5200))
    assert len(firsts) == 52
    assert max(firsts.values()) < 200  # each card tops the deck about 100 times in 5,200


def test_system_and_fixed_shuffles() -> None:
    assert sorted(SystemShuffle().shuffle(ALL_CARDS)) == list(ALL_CARDS)
    order = tuple(reversed(ALL_CARDS))
    assert FixedOrder(order).shuffle(ALL_CARDS) == order
    with pytest.raises(FeltError, match="appears twice"):
        FixedOrder((ALL_CARDS[0],) * 52)


def test_view_shows_only_what_the_seat_may_see() -> None:
    rnd = new_round("Ah Ad 5c 2c 3d 9h", {1: (500, 1000, 100), 2: (500, 1000)})
    rnd.run_dealer()
    v = seat_view(rnd, 2)
    assert v.own_cards == tuple(rnd.seats[2].cards)
    assert v.others[0].cards == ()
    assert v.dealer_cards == ()
    assert v.dealer_card_count == 3


def test_play_session_with_scripted_answers() -> None:
    answers = iter(["5", "1", "y", "s", "", "0", "f", "q"])
    out: list[str] = []
    t = play_session(
        table(), seats=2, seed=5, ask=lambda _: next(answers), say=out.append, symbols=False
    )
    assert t.rounds_played == 2
    assert any("goodbye" in line for line in out)
    assert all("Traceback" not in line for line in out)


def test_play_session_ends_on_end_of_input() -> None:
    def eof(_: str) -> str:
        raise EOFError

    out: list[str] = []
    play_session(table("boston7"), ask=eof, say=out.append)
    assert "goodbye" in out[-1]


def test_24_9_f_counting_shuffler_wrong_count_removes_the_deck() -> None:
    """24.9(f): a counting shuffler that shows other than 52 cards: the deck leaves the table."""
    from felt.core.errors import FeltError
    from felt.games.boston import Table, TableConfig

    config = TableConfig.from_mapping(
        {"game": "boston5", "dealing": "automated-shoe", "counting_shuffler": True}
    )
    table = Table(config)
    table.shuffler_count(52)
    assert not table.deck_removed
    table.shuffler_count(51)
    assert table.deck_removed
    with pytest.raises(FeltError, match=r"removed from the table"):
        table.new_round()
    table.replace_deck()
    assert table.new_round().number == 1
    manual = Table(TableConfig.from_mapping({"game": "boston5"}))
    with pytest.raises(FeltError, match=r"24.9\(f\)"):
        manual.shuffler_count(51)
    assert not manual.deck_removed
