"""Caribbean Stud Poker, random rounds (hypothesis): random positions, antes and progressive
wagers, cuts and recuts (16.4), bets, folds, timeouts, irregularities (16.13, title only) and
settlements with random meters at random points.  After every step money is conserved (the ledger
sums to zero, PROGRESSIVE included; each seat's balance is its statement less what it still has
in action), the 52 cards are accounted for once each and no card is dealt twice; a refused action
changes nothing (a settlement without the meter while progressive wagers are in play among them);
a seat's view holds no card it may not see; the meter the settlement leaves is the meter it was
given plus what it moved on and off it; at the end the replay equals the original."""

from __future__ import annotations

import copy

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from felt.core.cards import ALL_CARDS, Card
from felt.core.errors import FeltError
from felt.games.caribbean_stud.actions import (
    Bet,
    CutCards,
    DealerCardExposed,
    Fold,
    RequireRecut,
    Settle,
    Wagers,
)
from felt.games.caribbean_stud.config import CaribbeanConfig
from felt.games.caribbean_stud.round import CaribbeanRound
from felt.games.caribbean_stud.view import spot_view
from felt.rounds.actions import (
    Action,
    DecisionTimeout,
    DrawnInError,
    FaceUpCard,
    Misdeal,
    Reveal,
    ShufflerJam,
)
from felt.rounds.engine import PROGRESSIVE, seat_party

TABLES = [
    {},
    {"shuffling": "manual"},
    {"shuffling": "manual", "progressive": False, "seats": 5},
    {"progressive": {"rate": "1/3", "percent": {"straight flush": "12.5%"}}, "decks": 2},
    {"payout_limit": "none", "bet_pays": {"ace king": "3 to 2"}, "maximum": "500"},
]


def try_action(rnd: CaribbeanRound, action: Action) -> bool:
    """Apply ``action`` if allowed; if refused, ``apply`` refuses too and nothing changed."""
    if rnd.can(action):
        before = rnd.ledger.balance(PROGRESSIVE)
        rnd.apply(action)
        if isinstance(action, Settle) and action.meter is not None:
            moved = rnd.ledger.balance(PROGRESSIVE) - before
            assert rnd.meter_after == action.meter + moved
        return True
    before_round = copy.deepcopy(rnd)
    with pytest.raises(FeltError):
        rnd.apply(action)
    assert rnd == before_round
    return False


def assert_invariants(rnd: CaribbeanRound) -> None:
    parties = {t.source for t in rnd.ledger.transfers} | {t.target for t in rnd.ledger.transfers}
    assert sum(rnd.ledger.balance(p) for p in parties) == 0
    for number, spot in rnd.seats.items():
        in_action = sum(spot.wagers.values()) + spot.progressive
        assert rnd.ledger.balance(seat_party(number)) == rnd.net(number) - in_action
    assert sorted(rnd.cards_accounted()) == list(range(52))
    dealt = [c for ev in rnd.events for e in ev.effects if e.kind == "deal" for c in e.cards]
    assert len(dealt) == len(set(dealt))
    for viewer in [0, *rnd.seats]:
        view = spot_view(rnd, viewer)
        allowed: set[Card] = set(rnd.seats[viewer].cards) if viewer in rnd.seats else set()
        allowed |= {c for s in rnd.seats.values() if s.status == "settled" for c in s.cards}
        if rnd.dealer_revealed:
            allowed |= set(rnd.dealer_cards)
        elif rnd.up_card is not None:
            allowed.add(rnd.up_card)
        seen = {*view.own_cards, *view.dealer_cards, *(c for o in view.others for c in o.cards)}
        assert seen <= allowed


def irregularity(data: st.DataObject, rnd: CaribbeanRound, seats: list[int]) -> Action:
    kind = data.draw(st.sampled_from(["face_up", "face_up", "drawn", "misdeal", "misdeal", "jam",
                                      "exposed", "recut"]))  # fmt: skip
    if kind == "face_up":
        low = min(rnd.shoe.position + 1, 52)
        return FaceUpCard(data.draw(st.integers(low, min(low + 30, 52))))
    if kind == "drawn":
        return DrawnInError()
    if kind == "misdeal":
        return Misdeal(
            data.draw(st.integers(0, 8)), seat=data.draw(st.sampled_from([None, *seats]))
        )
    if kind == "jam":
        return ShufflerJam(data.draw(st.none() | st.permutations(ALL_CARDS).map(tuple)))
    if kind == "recut":
        return RequireRecut()
    return DealerCardExposed()


def dealer_step(data: st.DataObject, rnd: CaribbeanRound) -> Action | None:
    """The round's next step; a settlement with a random meter, or sometimes none."""
    step = rnd.next_dealer_action()
    if isinstance(step, Settle):
        return Settle(meter=data.draw(st.sampled_from([None, 0, 1, 99, 1_000_000, 123_456_789])))
    if isinstance(step, CutCards):
        return CutCards(data.draw(st.integers(8, 52)))
    return step


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_16_random_rounds_keep_every_card_and_chip_and_replay_exactly(data: st.DataObject) -> None:
    config = CaribbeanConfig.from_mapping(data.draw(st.sampled_from(TABLES)))
    deck = tuple(data.draw(st.permutations(ALL_CARDS)))
    rnd = CaribbeanRound(config, deck, deck_name="B" if config.decks == 2 else "A")
    seats = data.draw(st.permutations(sorted(data.draw(st.sets(st.integers(1, 7), min_size=1)))))
    for seat in seats:
        ante = data.draw(st.sampled_from([0, 500, 1000, 2500, 10000, 50000, 499]))
        progressive = data.draw(st.sampled_from([0, 100, 100, 100, 200]))
        player = data.draw(st.sampled_from([None, "ann"]))
        try_action(rnd, Wagers(seat, ante, progressive, player))
        if data.draw(st.integers(0, 4)) == 0:
            try_action(rnd, irregularity(data, rnd, list(seats)))
        assert_invariants(rnd)
    if not rnd.seats:  # every wager drawn was refused: one the table takes
        try_action(rnd, Wagers(1, config.minimum))
    for _ in range(60):
        if rnd.finished:
            break
        choice = data.draw(st.integers(0, 9))
        pending = rnd.pending()
        action: Action | None
        if choice <= 1:
            action = irregularity(data, rnd, list(seats))
        elif choice == 2 and pending:
            action = DecisionTimeout(data.draw(st.sampled_from(pending))[0])
        elif choice == 3:
            action = data.draw(st.sampled_from([CutCards(data.draw(st.integers(0, 52))),
                                                Bet(data.draw(st.sampled_from(seats))),
                                                Fold(data.draw(st.sampled_from(seats))),
                                                Settle(meter=None)]))  # fmt: skip
        elif pending:
            seat, _ = data.draw(st.sampled_from(pending))
            action = data.draw(st.sampled_from([Bet(seat), Bet(seat), Fold(seat)]))
        else:
            action = dealer_step(data, rnd)
        if action is not None:
            try_action(rnd, action)
        assert_invariants(rnd)
    for _ in range(20):
        if rnd.finished:
            break
        step = rnd.next_dealer_action()
        if isinstance(step, Settle):
            try_action(rnd, Settle(meter=1_000_000))
        elif step is not None:
            try_action(rnd, step)
        else:
            rnd.time_out_pending()
        assert_invariants(rnd)
    assert rnd.finished
    event(f"ended: {rnd.void_reason.split(' (')[0] or 'settled'}")
    assert sorted(rnd.rack.cards()) == list(range(52))
    assert all(not s.wagers and not s.progressive for s in rnd.seats.values())
    for number in rnd.seats:
        assert rnd.ledger.balance(seat_party(number)) == rnd.net(number)
    again = rnd.replay_from_start()
    assert again.events == rnd.events
    assert again.lines == rnd.lines
    assert again.meter_after == rnd.meter_after
    assert (
        CaribbeanRound.replay(config, deck, rnd.actions, deck_name=rnd.deck_name).events
        == rnd.events
    )


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_16_11_settlement_without_meter_is_refused_while_progressive_in_play(
    data: st.DataObject,
) -> None:
    config = CaribbeanConfig.from_mapping({})
    deck = tuple(data.draw(st.permutations(ALL_CARDS)))
    rnd = CaribbeanRound(config, deck)
    seats = sorted(data.draw(st.sets(st.integers(1, 7), min_size=1, max_size=7)))
    with_progressive = [s for s in seats if data.draw(st.booleans())]
    for seat in seats:
        rnd.apply(Wagers(seat, 1000, 100 if seat in with_progressive else 0))
    rnd.run_dealer()
    folds = {s for s in seats if data.draw(st.booleans())}
    for seat in seats:
        rnd.apply(Fold(seat) if seat in folds else Bet(seat))
    rnd.apply(Reveal())
    in_play = [s for s in with_progressive if s not in folds]
    assert rnd.can(Settle()) == (not in_play)
    rnd.apply(Settle(meter=data.draw(st.integers(0, 10**8))))
    assert_invariants(rnd)
    paid = {x.seat for x in rnd.lines if x.wager == "progressive payout"}
    assert paid <= set(in_play)
