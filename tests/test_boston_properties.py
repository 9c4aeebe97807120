"""Property tests over random Boston rounds: money conserved, no card dealt twice, every card
accounted for, replay equals the original, refused actions change nothing."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from felt.cli.script import report
from felt.core.cards import ALL_CARDS
from felt.core.errors import FeltError
from felt.games.boston.actions import (
    DealerCardExposed,
    Decline,
    Discard,
    Expose,
    Fold,
    Keep,
    PlaceWagers,
    Second,
    Withdraw,
)
from felt.games.boston.round import Phase, Round
from felt.rounds.actions import Action, FaceUpCard, Misdeal
from felt.rounds.engine import HOUSE, LAYOUT
from tests.boston_helpers import table

CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    ("boston5", "nj-19-47-24", {}),
    ("boston5", "ma-205-cmr", {"payout_limit": "50000"}),
    ("boston5", "nj-13-69f-24", {"settlement": "alternative", "royal_offered": False}),
    ("boston7", "nj-13-69f-24", {"first_ratio": 1}),
    ("boston7", "nj-13-69f-24", {"first_ratio": 2, "payout_limit": "60000"}),
]


@st.composite
def rounds(draw: st.DrawFn) -> Round:
    game, edition, extra = draw(st.sampled_from(CONFIGS))
    config = table(game, edition, **extra)
    deck = tuple(draw(st.permutations(ALL_CARDS)))
    rnd = Round(config, deck, stub_count_due=draw(st.booleans()))
    seats = draw(st.sets(st.integers(1, 6), min_size=1, max_size=6))
    for seat in sorted(seats):
        ante = draw(st.sampled_from([500, 1000, 2500, 100000]))
        bonus = draw(st.sampled_from([0, 0, 100, 500]))
        rnd.apply(PlaceWagers(seat, ante, config.first_ratio * ante, bonus, player=f"p{seat}"))
    if draw(st.integers(0, 9)) == 0:
        rnd.apply(FaceUpCard(draw(st.integers(1, 52))))
    if draw(st.integers(0, 9)) == 0:
        rnd.apply(Misdeal(draw(st.integers(0, 5)), seat=draw(st.sampled_from(sorted(seats)))))
    for _ in range(200):
        if rnd.finished:
            break
        pending = rnd.pending()
        if pending and draw(st.integers(0, 40)) == 0 and rnd.can(DealerCardExposed()):
            rnd.apply(DealerCardExposed())
            continue
        if not pending:
            rnd.advance()
            continue
        seat, what = pending[0]
        choices: list[Action]
        if what == "expose or decline":
            choices = [Expose(seat), Decline(seat)]
        elif what == "second or fold":
            choices = [Second(seat), Second(seat), Fold(seat)]
        else:
            cards = rnd.seats[seat].cards
            pair = tuple(draw(st.permutations(cards))[:2])
            choices = [Keep(seat), Keep(seat), Discard(seat, pair)]
        rnd.apply(draw(st.sampled_from(choices)))
        if rnd.phase is Phase.READY and draw(st.integers(0, 5)) == 0:
            withdrawable = [s.number for s in rnd.seats_in_play() if s.decision == "second"]
            if withdrawable:
                rnd.apply(Withdraw(draw(st.sampled_from(withdrawable))))
    return rnd


@settings(max_examples=150)
@given(rounds())
def test_money_is_conserved(rnd: Round) -> None:
    assert rnd.finished
    assert sum(rnd.net(n) for n in rnd.seats) + rnd.house_net() == 0
    assert rnd.ledger.balance(LAYOUT) == 0  # no chip is left on the layout
    assert rnd.ledger.balance(HOUSE) == rnd.house_net()
    for n in rnd.seats:
        assert rnd.ledger.balance(f"seat {n}") == rnd.net(n)


@settings(max_examples=150)
@given(rounds())
def test_no_card_dealt_twice_and_all_52_accounted_for(rnd: Round) -> None:
    dealt = [c for ev in rnd.events for e in ev.effects if e.kind == "deal" for c in e.cards]
    assert len(dealt) == len(set(dealt))
    assert sorted(rnd.rack.cards()) == list(range(52)), (
        rnd.rack.describe(),
        [str(e.action) for e in rnd.events],
    )
    assert sorted(rnd.cards_accounted()) == list(range(52))


@settings(max_examples=100)
@given(rounds())
def test_replay_equals_the_original(rnd: Round) -> None:
    again = Round.replay(rnd.config, rnd.deck, rnd.actions, stub_count_due=rnd.stub_count_due)
    assert again.events == rnd.events
    assert report(again) == report(rnd)


@settings(max_examples=60)
@given(rounds(), st.data())
def test_refused_actions_change_nothing(rnd: Round, data: st.DataObject) -> None:
    action = data.draw(
        st.sampled_from(
            [
                Second(1),
                Fold(2),
                Expose(3),
                Withdraw(4),
                PlaceWagers(5, 500, 1000),
                Keep(6),
                DealerCardExposed(),
            ]
        )
    )
    before = (report(rnd), list(rnd.events), list(rnd.ledger.transfers))
    try:
        rnd.apply(action)
    except FeltError:
        assert (report(rnd), list(rnd.events), list(rnd.ledger.transfers)) == before
