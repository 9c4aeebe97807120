"""Three Card Poker, random rounds (hypothesis): random positions and wagers, decisions, timeouts
and irregularities (20.12, as 19:47-17.11) at random points.  After every step money is
conserved (the ledger sums to zero; each seat's balance is its statement less its wagers still on
the layout), the 52 cards are accounted for once each and no card is dealt twice; an action
``check`` refuses changes nothing; a seat's view holds no card it may not see; at the end the
rack holds the 52 cards and the replay of the recorded actions equals the original."""

from __future__ import annotations

import copy

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from felt.core.cards import ALL_CARDS, Card
from felt.core.errors import FeltError
from felt.games.three_card_poker.actions import CutCards, DealerCardExposed, Fold, Play, Wagers
from felt.games.three_card_poker.config import ThreeCardConfig
from felt.games.three_card_poker.round import ThreeCardRound
from felt.games.three_card_poker.view import spot_view
from felt.rounds.actions import (
    Action,
    DecisionTimeout,
    DrawnInError,
    FaceUpCard,
    Misdeal,
    ShufflerJam,
)
from felt.rounds.engine import seat_party

TABLES = [
    {},
    {"shuffling": "shuffler-to-shoe"},
    {"shuffling": "manual", "pair_plus": False, "seats": 7},
    {
        "two_positions": True,
        "ante_bonus": {"straight": "2 to 1"},
        "pair_plus_table": {"pair": "3 to 2"},
    },
]


def try_action(rnd: ThreeCardRound, action: Action) -> bool:
    """Apply ``action`` if allowed; if refused, ``apply`` refuses too and nothing changed."""
    if rnd.can(action):
        rnd.apply(action)
        return True
    before = copy.deepcopy(rnd)
    with pytest.raises(FeltError):
        rnd.apply(action)
    assert rnd == before
    return False


def assert_invariants(rnd: ThreeCardRound) -> None:
    parties = {t.source for t in rnd.ledger.transfers} | {t.target for t in rnd.ledger.transfers}
    assert sum(rnd.ledger.balance(p) for p in parties) == 0
    for number, spot in rnd.seats.items():
        assert rnd.ledger.balance(seat_party(number)) == rnd.net(number) - sum(spot.wagers.values())
    assert sorted(rnd.cards_accounted()) == list(range(52))
    dealt = [c for ev in rnd.events for e in ev.effects if e.kind == "deal" for c in e.cards]
    assert len(dealt) == len(set(dealt))
    for viewer in [0, *rnd.seats]:
        view = spot_view(rnd, viewer)
        allowed: set[Card] = set(rnd.seats[viewer].cards) if viewer in rnd.seats else set()
        allowed |= {c for n, s in rnd.seats.items() if s.status == "settled" for c in s.cards}
        if rnd.dealer_revealed:
            allowed |= set(rnd.dealer_cards)
        seen = {*view.own_cards, *view.dealer_cards, *(c for o in view.others for c in o.cards)}
        assert seen <= allowed


def irregularity(data: st.DataObject, rnd: ThreeCardRound, seats: list[int]) -> Action:
    kind = data.draw(st.sampled_from(["face_up", "face_up", "drawn", "misdeal", "misdeal", "jam",
                                      "exposed"]))  # fmt: skip
    if kind == "face_up":
        low = min(rnd.shoe.position + 1, 52)
        return FaceUpCard(data.draw(st.integers(low, min(low + 25, 52))))
    if kind == "drawn":
        return DrawnInError()
    if kind == "misdeal":
        return Misdeal(
            data.draw(st.integers(0, 10)), seat=data.draw(st.sampled_from([None, *seats]))
        )
    if kind == "jam":
        return ShufflerJam(data.draw(st.none() | st.permutations(ALL_CARDS).map(tuple)))
    return DealerCardExposed()


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_20_random_rounds_keep_every_card_and_chip_and_replay_exactly(data: st.DataObject) -> None:
    config = ThreeCardConfig.from_mapping(data.draw(st.sampled_from(TABLES)))
    deck = tuple(data.draw(st.permutations(ALL_CARDS)))
    rnd = ThreeCardRound(config, deck)
    seats = data.draw(st.permutations(sorted(data.draw(st.sets(st.integers(1, 7), min_size=1)))))
    for seat in seats:
        ante = data.draw(st.sampled_from([0, 500, 1000, 2500, 50000, 400]))
        pair_plus = data.draw(st.sampled_from([0, 0, 500, 777]))
        player = data.draw(st.sampled_from([None, "ann"]))
        try_action(rnd, Wagers(seat, ante, pair_plus, player))
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
                                                Play(data.draw(st.sampled_from(seats))),
                                                Fold(data.draw(st.sampled_from(seats)))]))  # fmt: skip
        elif pending:
            seat, _ = data.draw(st.sampled_from(pending))
            action = data.draw(st.sampled_from([Play(seat), Play(seat), Fold(seat)]))
        else:
            action = rnd.next_dealer_action()
        if action is not None:
            try_action(rnd, action)
        assert_invariants(rnd)
    for _ in range(20):
        if rnd.finished:
            break
        if rnd.advance() is None:
            rnd.time_out_pending()
        assert_invariants(rnd)
    assert rnd.finished
    event(f"ended: {rnd.void_reason.split(' (')[0] or 'settled'}")
    assert sorted(rnd.rack.cards()) == list(range(52))
    assert all(not s.wagers for s in rnd.seats.values())
    for number in rnd.seats:
        assert rnd.ledger.balance(seat_party(number)) == rnd.net(number)
    again = rnd.replay_from_start()
    assert again.events == rnd.events
    assert again.lines == rnd.lines
    assert ThreeCardRound.replay(config, deck, rnd.actions).events == rnd.events
