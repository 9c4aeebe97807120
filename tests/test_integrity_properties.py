"""Issue 10, "Must hold": random legal rounds with irregularities at random points keep every
card and every chip, and replay exactly.

Each round is Boston 5, Boston 7 (both ratios, several editions) or Double Down Stud, with
random seats and wagers.  At every step the test tries one random action: a dealer step, a
player's decision on any pending election (or its timeout, in any order), or an irregularity
(24.12(a)-(f), 24.7(f), 17.4(f), 17.11(a)-(e)).  An action ``check`` refuses must change nothing.
After every step: money conserved (ledger balances sum to zero; each seat's ledger balance is
its statement lines less its wagers still on the layout), the 52 cards accounted for once each
(24.10(g)), no card dealt twice; at the end the rack alone holds the 52 and ``replay`` of the
recorded actions on the original deck gives the same events and lines.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from felt.core.cards import ALL_CARDS, Card
from felt.core.errors import FeltError
from felt.games.boston.actions import (
    CountStub,
    DealerCardExposed,
    Decline,
    Discard,
    Expose,
    Fold,
    Keep,
    PlaceWagers,
    Second,
    ShoeJam,
    Withdraw,
)
from felt.games.boston.round import Round
from felt.games.double_down import DoubleDownConfig, DoubleDownRound
from felt.games.double_down.actions import (
    DealerCut,
    DeclineCut,
    DoubleDown,
    HoleCardExposed,
    PlaceBet,
    PlayerCut,
    RequireRecut,
    Stand,
)
from felt.rounds.actions import (
    Action,
    DecisionTimeout,
    DrawnInError,
    FaceUpCard,
    Misdeal,
    ShufflerJam,
)
from felt.rounds.engine import seat_party
from felt.rounds.round_core import RoundCore
from tests.boston_helpers import table

BOSTON: list[tuple[str, str, dict[str, Any]]] = [
    ("boston5", "nj-19-47-24", {}),
    ("boston5", "nj-19-47-24", {"dealing": "automated-shoe"}),
    ("boston5", "ma-205-cmr", {"payout_limit": "50000"}),
    ("boston5", "nj-13-69f-24", {"settlement": "alternative", "royal_offered": False}),
    ("boston7", "nj-13-69f-24", {"first_ratio": 1, "dealing": "automated-shoe"}),
    ("boston7", "nj-13-69f-24", {"first_ratio": 2, "payout_limit": "60000"}),
]
DOUBLE_DOWN: list[dict[str, Any]] = [
    {"shuffling": "shuffler"},
    {"shuffling": "shuffler-to-shoe"},
    {"shuffling": "shuffler", "recut_by": "next", "two_areas": True},
]


def try_action(rnd: RoundCore, action: Action) -> bool:
    """Apply ``action`` if ``check`` allows it; if not, ``apply`` refuses too and nothing
    about the round changed."""
    if rnd.can(action):
        rnd.apply(action)
        return True
    before = copy.deepcopy(rnd)
    with pytest.raises(FeltError):
        rnd.apply(action)
    assert rnd == before
    return False


def assert_invariants(rnd: RoundCore) -> None:
    """Money conserved and every card accounted for, once, right now."""
    parties = {t.source for t in rnd.ledger.transfers} | {t.target for t in rnd.ledger.transfers}
    assert sum(rnd.ledger.balance(p) for p in parties) == 0
    seats: dict[int, Any] = rnd.seats  # type: ignore[attr-defined]
    for number, seat in seats.items():
        on_layout = sum(seat.wagers.values())
        assert rnd.ledger.balance(seat_party(number)) == rnd.net(number) - on_layout
    assert sorted(rnd.cards_accounted()) == list(range(52))  # type: ignore[attr-defined]
    dealt = [c for ev in rnd.events for e in ev.effects if e.kind == "deal" for c in e.cards]
    assert len(dealt) == len(set(dealt))


def assert_finished_and_replays(rnd: RoundCore, deck: tuple[Card, ...], **kw: Any) -> None:
    assert rnd.finished
    event(f"ended: {rnd.void_reason.split(' (')[0] or 'settled'}")
    assert sorted(rnd.rack.cards()) == list(range(52))
    assert all(not s.wagers for s in rnd.seats.values())  # type: ignore[attr-defined]
    for number in rnd.seats:  # type: ignore[attr-defined]
        assert rnd.ledger.balance(seat_party(number)) == rnd.net(number)
    again = type(rnd).replay(rnd.config, deck, rnd.actions, **kw)
    assert again.events == rnd.events
    assert again.lines == rnd.lines


def irregularity(data: st.DataObject, rnd: RoundCore, seats: list[int], *, dd: bool) -> Action:
    """A random irregularity, with random particulars (many of them refused in the moment)."""
    kinds = ["face_up", "face_up", "drawn", "misdeal", "misdeal", "jam"]
    kinds += ["hole", "recut"] if dd else ["exposed", "shoe_jam", "count"]
    kind = data.draw(st.sampled_from(kinds))
    if kind == "face_up":
        low = min(rnd.shoe.position + 1, 52)
        return FaceUpCard(data.draw(st.integers(low, min(low + 30, 52))))
    if kind == "drawn":
        return DrawnInError()
    if kind == "misdeal":
        who = data.draw(st.sampled_from([None, *seats]))
        return Misdeal(data.draw(st.integers(0, 10)), seat=who)
    if kind == "jam":
        deck = data.draw(st.none() | st.permutations(ALL_CARDS).map(tuple))
        return ShufflerJam(deck)
    if kind == "hole":
        return HoleCardExposed()
    if kind == "recut":
        return RequireRecut()
    if kind == "exposed":
        return DealerCardExposed()
    if kind == "shoe_jam":
        return ShoeJam(data.draw(st.integers(0, len(seats))))
    return CountStub(data.draw(st.none() | st.integers(0, 52)))


def boston_decision(data: st.DataObject, rnd: Round, seat: int, what: str) -> Action:
    if what == "expose or decline":
        return data.draw(st.sampled_from([Expose(seat), Decline(seat)]))
    if what == "second or fold":
        return data.draw(st.sampled_from([Second(seat), Second(seat), Fold(seat)]))
    cards = rnd.seats[seat].cards
    pair = tuple(data.draw(st.permutations(cards))[:2])
    return data.draw(st.sampled_from([Keep(seat), Discard(seat, pair)]))


def dd_decision(data: st.DataObject, rnd: DoubleDownRound, seat: int, what: str) -> Action:
    if what == "cut or decline":
        return data.draw(
            st.sampled_from([PlayerCut(seat, data.draw(st.integers(8, 44))), DeclineCut(seat)])
        )
    wager = rnd.seats[seat].wagers["wager"]
    return data.draw(
        st.sampled_from([DoubleDown(seat), DoubleDown(seat, max(wager // 2, 1)), Stand(seat)])
    )


def drive(data: st.DataObject, rnd: RoundCore, seats: list[int], *, dd: bool) -> None:
    """Random steps until the round is over; then the dealer finishes it, elections timing out."""
    for _ in range(80):
        if rnd.finished:
            break
        choice = data.draw(st.integers(0, 9))
        pending = rnd.pending()
        action: Action | None
        if choice <= 1:
            action = irregularity(data, rnd, seats, dd=dd)
        elif choice == 2 and pending:
            action = DecisionTimeout(data.draw(st.sampled_from(pending))[0])
        elif choice == 3:
            seat = data.draw(st.sampled_from(seats))
            action = Withdraw(seat) if not dd else DealerCut(data.draw(st.integers(1, 51)))
        elif pending:
            seat, what = data.draw(st.sampled_from(pending))
            if dd:
                assert isinstance(rnd, DoubleDownRound)
                action = dd_decision(data, rnd, seat, what)
            else:
                assert isinstance(rnd, Round)
                action = boston_decision(data, rnd, seat, what)
        else:
            action = rnd.next_dealer_action()
        if action is not None:
            try_action(rnd, action)
        assert_invariants(rnd)
    for _ in range(80):
        if rnd.finished:
            break
        if rnd.advance() is None:
            rnd.time_out_pending()
        assert_invariants(rnd)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_24_12_random_boston_rounds_with_irregularities_keep_every_card_and_chip(
    data: st.DataObject,
) -> None:
    """19:47-24.12, 13:69F-24.12, 205 CMR: irregularities anywhere in Boston 5 and 7 rounds."""
    game, edition, extra = data.draw(st.sampled_from(BOSTON))
    config = table(game, edition, **extra)
    deck = tuple(data.draw(st.permutations(ALL_CARDS)))
    due = data.draw(st.booleans())
    rnd = Round(config, deck, stub_count_due=due)
    seats = data.draw(st.permutations(sorted(data.draw(st.sets(st.integers(1, 6), min_size=1)))))
    for seat in seats:
        ante = data.draw(st.sampled_from([500, 1000, 2500, 100000]))
        bonus = data.draw(st.sampled_from([0, 0, 100, 500]))
        try_action(rnd, PlaceWagers(seat, ante, config.first_ratio * ante, bonus))
        if data.draw(st.integers(0, 4)) == 0:
            try_action(rnd, irregularity(data, rnd, list(seats), dd=False))
        assert_invariants(rnd)
    drive(data, rnd, list(seats), dd=False)
    assert_finished_and_replays(rnd, deck, stub_count_due=due)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_17_11_random_double_down_rounds_with_irregularities_keep_every_card_and_chip(
    data: st.DataObject,
) -> None:
    """19:47-17.4, 17.8, 17.11: cuts, recuts, doubles and irregularities in any order."""
    config = DoubleDownConfig.from_mapping(data.draw(st.sampled_from(DOUBLE_DOWN)))
    deck = tuple(data.draw(st.permutations(ALL_CARDS)))
    new_game = data.draw(st.booleans())
    last = None if new_game else data.draw(st.none() | st.integers(1, 7))
    rnd = DoubleDownRound(config, deck, new_game=new_game, last_offered=last)
    areas = data.draw(st.permutations(sorted(data.draw(st.sets(st.integers(1, 7), min_size=1)))))
    for area in areas:
        amount = data.draw(st.sampled_from([500, 1000, 2500]))
        player = data.draw(st.sampled_from([None, "ann"]))
        try_action(rnd, PlaceBet(area, amount, player=player))
        if data.draw(st.integers(0, 4)) == 0:
            try_action(rnd, irregularity(data, rnd, list(areas), dd=True))
        assert_invariants(rnd)
    if not rnd.seats:
        return
    drive(data, rnd, list(areas), dd=True)
    assert_finished_and_replays(rnd, deck, new_game=new_game, last_offered=last)
