"""Let It Ride Poker, random rounds (hypothesis): random positions, wagers and bonus wagers, cuts
and recuts (18.5), take-backs and rides in any order, timeouts, irregularities (18.12, title
only) and dealer steps at random points.  After every step money is conserved (the ledger sums to
zero; each seat's balance is its statement less what it still has in action), the 52 cards are
accounted for once each and no card is dealt twice; a refused action changes nothing; no view
holds a card its viewer may not see (the burn card never, a community card only once turned,
another position's cards only once settled); at the end the replay equals the original."""

from __future__ import annotations

import copy

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from felt.core.cards import ALL_CARDS, Card
from felt.core.errors import FeltError
from felt.games.let_it_ride.actions import (
    CommunityCardExposed,
    CutCards,
    LetItRide,
    RequireRecut,
    TakeBack,
    TurnCard,
    Wagers,
)
from felt.games.let_it_ride.config import LetItRideConfig
from felt.games.let_it_ride.round import LetItRideRound
from felt.games.let_it_ride.view import spot_json, spot_view
from felt.rounds.actions import (
    Action,
    DecisionTimeout,
    DrawnInError,
    FaceUpCard,
    Misdeal,
    Settle,
    ShufflerJam,
)
from felt.rounds.engine import seat_party

TABLES = [
    {},
    {"shuffling": "manual"},
    {"shuffling": "manual", "bonus": False, "seats": 5, "dealing": "hand"},
    {"three_card_bonus": False, "decks": 2, "pays": {"flush": "17 to 2"}},
    {"payout_limit": "none", "maximum": "500", "bonus": {"wager": "5"}},
]


def try_action(rnd: LetItRideRound, action: Action) -> bool:
    """Apply ``action`` if allowed; if refused, ``apply`` refuses too and nothing changed."""
    if rnd.can(action):
        rnd.apply(action)
        return True
    before = copy.deepcopy(rnd)
    with pytest.raises(FeltError):
        rnd.apply(action)
    assert rnd == before
    return False


def assert_invariants(rnd: LetItRideRound) -> None:
    parties = {t.source for t in rnd.ledger.transfers} | {t.target for t in rnd.ledger.transfers}
    assert sum(rnd.ledger.balance(p) for p in parties) == 0
    for number, spot in rnd.seats.items():
        in_action = sum(spot.wagers.values())
        assert rnd.ledger.balance(seat_party(number)) == rnd.net(number) - in_action
    assert sorted(rnd.cards_accounted()) == list(range(52))
    dealt = [c for ev in rnd.events for e in ev.effects if e.kind == "deal" for c in e.cards]
    assert len(dealt) == len(set(dealt))
    settled = {c for s in rnd.seats.values() if s.status == "settled" for c in s.cards}
    for viewer in [0, *rnd.seats]:
        view = spot_view(rnd, viewer)
        allowed: set[Card] = set(rnd.seats[viewer].cards) if viewer in rnd.seats else set()
        allowed |= settled | set(rnd.community[: rnd.turned])
        seen = {*view.own_cards, *view.community, *(c for o in view.others for c in o.cards)}
        assert seen <= allowed
        assert view.community_count == len(rnd.community)
        if rnd.burn_card is not None:
            assert f'"{rnd.burn_card}"' not in str(spot_json(rnd, viewer))


def irregularity(data: st.DataObject, rnd: LetItRideRound, seats: list[int]) -> Action:
    kind = data.draw(st.sampled_from(["face_up", "drawn", "misdeal", "jam", "exposed", "exposed",
                                      "recut"]))  # fmt: skip
    if kind == "face_up":
        low = min(rnd.shoe.position + 1, 52)
        return FaceUpCard(data.draw(st.integers(low, min(low + 30, 52))))
    if kind == "drawn":
        return DrawnInError()
    if kind == "misdeal":
        return Misdeal(
            data.draw(st.integers(0, 6)), seat=data.draw(st.sampled_from([None, *seats]))
        )
    if kind == "jam":
        return ShufflerJam(data.draw(st.none() | st.permutations(ALL_CARDS).map(tuple)))
    if kind == "recut":
        return RequireRecut()
    return CommunityCardExposed(data.draw(st.integers(0, 3)))


def decision(data: st.DataObject, seat: int) -> Action:
    wager = data.draw(st.sampled_from([1, 2, 2, 3]))
    return data.draw(st.sampled_from([TakeBack(seat, wager), LetItRide(seat, wager)]))


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_18_random_rounds_keep_every_card_and_chip_and_replay_exactly(data: st.DataObject) -> None:
    config = LetItRideConfig.from_mapping(data.draw(st.sampled_from(TABLES)))
    deck = tuple(data.draw(st.permutations(ALL_CARDS)))
    rnd = LetItRideRound(config, deck, deck_name="B" if config.decks == 2 else "A")
    seats = data.draw(st.permutations(sorted(data.draw(st.sets(st.integers(1, 7), min_size=1)))))
    for seat in seats:
        amount = data.draw(st.sampled_from([0, 500, 1000, 2500, 10000, 50000, 499, 733]))
        bonus = data.draw(st.sampled_from([0, 100, 100, 500, 200]))
        three = data.draw(st.sampled_from([0, 100, 500, 250, 20000]))
        player = data.draw(st.sampled_from([None, "ann"]))
        try_action(rnd, Wagers(seat, amount, bonus, three, player))
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
                                                decision(data, data.draw(st.sampled_from(seats))),
                                                TurnCard(), Settle()]))  # fmt: skip
        elif pending:
            action = decision(data, data.draw(st.sampled_from(pending))[0])
        else:
            action = rnd.next_dealer_action()
            if isinstance(action, CutCards):
                action = CutCards(data.draw(st.integers(8, 52)))
        if action is not None:
            try_action(rnd, action)
        assert_invariants(rnd)
    for _ in range(20):
        if rnd.finished:
            break
        step = rnd.next_dealer_action()
        if step is not None:
            try_action(rnd, step)
        else:
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
    assert (
        LetItRideRound.replay(config, deck, rnd.actions, deck_name=rnd.deck_name).events
        == rnd.events
    )


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_18_11_limit_cut_never_exceeds_the_limit_and_bonus_wagers_are_paid_in_full(
    data: st.DataObject,
) -> None:
    """At a table whose limit binds ($50,000 with wagers up to $500): what the three wagers of a
    hand win together never exceeds the limit, the cut falls on the third before the second
    before the first, and the bonus wagers carry no cut."""
    config = LetItRideConfig.from_mapping({"maximum": "500", "shuffling": "shuffler"})
    deck = tuple(data.draw(st.permutations(ALL_CARDS)))
    rnd = LetItRideRound(config, deck)
    seats = sorted(data.draw(st.sets(st.integers(1, 7), min_size=1, max_size=7)))
    for seat in seats:
        rnd.apply(Wagers(seat, data.draw(st.sampled_from([500, 10000, 50000])), 100, 500))
    while not rnd.finished:
        for seat, _ in rnd.pending():
            rnd.apply(data.draw(st.sampled_from([TakeBack, LetItRide]))(seat, rnd.turned + 1))
        rnd.run_dealer()
    assert config.payout_limit is not None
    for seat in seats:
        lines = {x.wager: x for x in rnd.lines if x.seat == seat}
        main = [lines[w] for w in ("first", "second", "third") if w in lines]
        assert sum(max(0, x.amount) for x in main) <= config.payout_limit
        cuts = [lines[w].limit_reduction if w in lines else 0 for w in ("first", "second", "third")]
        wins = [lines[w].amount + lines[w].limit_reduction if w in lines and lines[w].outcome ==
                "win" else 0 for w in ("first", "second", "third")]  # fmt: skip
        for i in range(3):  # a wager is cut only once every wager after it is cut to nothing
            if cuts[i]:
                assert all(cuts[j] == wins[j] for j in range(i + 1, 3))
        assert lines["bonus"].limit_reduction == lines["three_card_bonus"].limit_reduction == 0
