"""Players' elections: taken in any order, never cut off by a dealer step, and closed only by a
recorded timeout when a player's decision time runs out.

The texts set no order for exposing the bonus hand (24.10(a)), the second wager or fold
(24.10(b)), a Boston 7 discard (13:69F-24.10(c)) or a double down (19:47-17.8(c)); dealing and
settlement keep the order the texts give.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from felt.cli.script import complete_deck, report, run_script
from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.core.errors import FeltError
from felt.games.boston.actions import (
    DealAdditional,
    Decline,
    Discard,
    Expose,
    Fold,
    Keep,
    PlaceWagers,
    ResolveBonuses,
    Second,
)
from felt.games.boston.config import TableConfig
from felt.games.boston.round import Phase, Round
from felt.games.boston.view import seat_view
from felt.games.double_down import DoubleDownConfig, DoubleDownRound
from felt.games.double_down import Phase as DDPhase
from felt.games.double_down.actions import (
    DeclineCut,
    DoubleDown,
    NoMoreDoubles,
    PlaceBet,
    PlayerCut,
    Stand,
)
from felt.rounds.actions import Action, DecisionTimeout, Reveal, Settle
from felt.rounds.engine import HOUSE, LAYOUT
from felt.rounds.round_core import RoundCore
from felt.rounds.shuffle import SeededShuffle
from tests.boston_helpers import lines_of, new_round, table
from tests.test_boston_properties import CONFIGS

FIVE, TEN = 500, 1000


def refused(rnd: RoundCore, action: Action, match: str) -> None:
    """Refused with a message matching ``match``; nothing about the round changed."""
    before = (report(rnd), list(rnd.events), list(rnd.ledger.transfers))
    with pytest.raises(FeltError, match=match):
        rnd.apply(action)
    assert (report(rnd), list(rnd.events), list(rnd.ledger.transfers)) == before


def deck(seed: int) -> tuple[Card, ...]:
    return SeededShuffle(seed).shuffle(ALL_CARDS)


def settlement(rnd: RoundCore) -> Any:
    """What must not depend on the order of the elections: each seat's statement, the lines of
    every dealer step in their order, and where every card went."""
    from felt.rounds.actions import DealerAction

    per_seat = {n: lines_of(rnd, n) for n in rnd.seats}  # type: ignore[attr-defined, arg-type]
    dealer_lines = [ev.lines for ev in rnd.events if isinstance(ev.action, DealerAction)]
    return per_seat, dealer_lines, sorted(rnd.rack.cards()), rnd.house_net()


def replay_equal(rnd: RoundCore, **kw: Any) -> None:
    again = type(rnd).replay(rnd.config, rnd.deck, rnd.actions, **kw)
    assert again.events == rnd.events


# --------------------------------------------------------------------------- any order


def test_24_10_a_b_exposures_and_second_wagers_in_any_order_settle_the_same() -> None:
    exposures: list[Action] = [Expose(1), Decline(2), Expose(3)]
    decisions: list[Action] = [Second(1), Fold(2), Second(3)]
    results = []
    for ex in itertools.permutations(exposures):
        for de in itertools.permutations(decisions):
            rnd = Round(table("boston5", "nj-19-47-24"), deck(11))
            for seat in (1, 2, 3):
                rnd.apply(PlaceWagers(seat, FIVE, TEN, 100))
            rnd.run_dealer()
            for action in (*ex, *de):
                rnd.apply(action)
                rnd.run_dealer()
            assert rnd.phase is Phase.COMPLETE
            replay_equal(rnd)
            results.append(settlement(rnd))
    assert len(results) == 36
    assert all(r == results[0] for r in results)
    # dealt from the dealer's left, settled from the right, whatever order the players chose
    settle = next(ev for ev in rnd.events if isinstance(ev.action, Settle))
    assert [line.seat for line in settle.lines][:1] == [3]


def test_13_69f_24_10_c_discards_in_any_order_settle_the_same() -> None:
    results = []
    for order in itertools.permutations((1, 2, 3)):
        rnd = Round(table("boston7", "nj-13-69f-24"), deck(12))
        for seat in (1, 2, 3):
            rnd.apply(PlaceWagers(seat, FIVE, TEN))
        rnd.run_dealer()
        for seat in (3, 1, 2):
            rnd.apply(Second(seat))
        rnd.run_dealer()
        choice: dict[int, Action] = {
            1: Discard(1, tuple(rnd.seats[1].cards[:2])),
            2: Keep(2),
            3: Discard(3, tuple(rnd.seats[3].cards[-2:])),
        }
        for seat in order:
            rnd.apply(choice[seat])
        rnd.run_dealer()
        assert rnd.phase is Phase.COMPLETE
        replay_equal(rnd)
        results.append(settlement(rnd))
    assert all(r == results[0] for r in results)


def test_17_8_c_double_down_choices_in_any_order_settle_the_same() -> None:
    config = DoubleDownConfig.from_mapping({"shuffling": "shuffler-to-shoe"})
    choices: list[Action] = [DoubleDown(1), Stand(2), DoubleDown(3), Stand(4)]
    results = []
    for order in itertools.permutations(choices):
        rnd = DoubleDownRound(config, deck(13))
        for area in (1, 2, 3, 4):
            rnd.apply(PlaceBet(area, TEN))
        rnd.run_dealer()
        for action in order:
            rnd.apply(action)
        rnd.run_dealer()
        assert rnd.phase is DDPhase.COMPLETE
        replay_equal(rnd)
        results.append(settlement(rnd))
    assert len(results) == 24
    assert all(r == results[0] for r in results)


def test_pending_and_the_view_name_every_open_election() -> None:
    rnd = Round(table("boston5", "nj-19-47-24"), deck(3))
    rnd.apply(PlaceWagers(2, FIVE, TEN, 100))
    rnd.apply(PlaceWagers(5, FIVE, TEN, 100))
    rnd.run_dealer()
    assert rnd.pending() == [(2, "expose or decline"), (5, "expose or decline")]
    assert seat_view(rnd, 5).pending == ((2, "expose or decline"), (5, "expose or decline"))
    rnd.apply(Decline(5))
    assert seat_view(rnd, 2).pending == ((2, "expose or decline"),)


# --------------------------------------------------------------------------- the dealer waits


def test_24_10_a_resolving_bonuses_waits_for_every_exposure_election() -> None:
    """19:47-24.10(a): a player "may elect to expose"; the dealer may not resolve the bonus
    wagers while the election is open.  After the timeout the bonus loses as not exposed.

    Seat 1: Ah Ad 7c (a pair, which would have paid 1 to 1 if exposed), then Js 4d; the dealer
    2c 3d 9h 6s Th.  Bonus $1 lost as not exposed; pair of aces beats ten high, so the first and
    second wagers ($10 each) win 1 to 1.
    """
    rnd = new_round("Ah Ad 7c 2c 3d 9h Js 4d 6s Th", {1: (FIVE, TEN, 100)}, edition="nj-19-47-24")
    rnd.run_dealer()
    assert rnd.phase is Phase.BONUS
    assert rnd.next_dealer_action() is None
    refused(
        rnd,
        ResolveBonuses(),
        r"the dealer may not resolve the optional bonus wagers .* seat 1 to expose or decline "
        r"\(N.J.A.C. 19:47-24.10\(a\)\)",
    )
    event = rnd.apply(DecisionTimeout(1))
    assert event.effects[0].kind == "timeout"
    assert event.effects[0].detail == (
        "decision time ran out (60 seconds) to expose or decline: deemed not to expose: the "
        "optional bonus wager loses as not exposed (N.J.A.C. 19:47-24.10(a))"
    )
    refused(rnd, Expose(1), "already declined")
    rnd.run_dealer()
    assert lines_of(rnd, 1)["bonus"] == ("lose", -100)
    assert [ln.hand for ln in rnd.lines if ln.wager == "bonus"] == [
        "not exposed (decision time ran out)"
    ]
    rnd.apply(Second(1))
    rnd.run_dealer()
    got = lines_of(rnd, 1)
    assert (got["first"], got["second"]) == (("win", TEN), ("win", TEN))
    replay_equal(rnd)


def test_13_69f_24_10_a_required_exposure_is_no_election() -> None:
    rnd = new_round("", {1: (FIVE, TEN, 100)}, edition="nj-13-69f-24")
    rnd.run_dealer()
    assert rnd.pending() == [(1, "second or fold")]  # bonus resolved, exposure required
    refused(rnd, DecisionTimeout(2), "seat 2 has no election pending")


def test_24_10_b_d_additional_cards_wait_for_every_second_wager_decision() -> None:
    """24.10(b): "each player shall either place a second wager ... or fold"; one who places
    none when the time runs out has folded: ante $5 and first wager $10 forfeited."""
    rnd = new_round("", {1: (FIVE, TEN), 2: (FIVE, TEN)})
    rnd.run_dealer()
    rnd.apply(Second(2))
    refused(rnd, DealAdditional(), r"deal the additional cards .* seat 1 to second or fold")
    event = rnd.apply(DecisionTimeout(1))
    assert "deemed to fold: no second wager placed" in event.effects[0].detail
    assert [ln.wager for ln in event.lines] == ["ante", "first"]
    assert lines_of(rnd, 1) == {"ante": ("forfeit", -FIVE), "first": ("forfeit", -TEN)}
    assert rnd.rack.bundles[0][0] == "seat 1 folded"
    assert rnd.phase is Phase.READY
    rnd.run_dealer()
    assert rnd.finished
    assert rnd.net(1) == -FIVE - TEN
    replay_equal(rnd)


def test_13_69f_24_10_c_reveal_waits_for_every_discard_election() -> None:
    """13:69F-24.10(c): a player "may elect to discard two"; after the timeout all seven play.

    Seat 1: Ah Ad 7c + Js 4d 8c 5s (pair of aces); dealer 2c 3d 9h + 6s Th Kc Qd (king high).
    The player is higher: first and second wagers ($10 each) win 1 to 1.
    """
    rnd = new_round("Ah Ad 7c 2c 3d 9h Js 4d 8c 5s 6s Th Kc Qd", {1: (FIVE, TEN)}, game="boston7")
    rnd.run_dealer()
    rnd.apply(Second(1))
    rnd.run_dealer()
    assert rnd.phase is Phase.DEALT
    refused(rnd, Reveal(), r"reveal the dealer's cards .* seat 1 to discard or keep")
    event = rnd.apply(DecisionTimeout(1))
    assert "deemed to keep all seven cards (no discard)" in event.effects[0].detail
    assert rnd.seats[1].kept
    assert rnd.seats[1].discarded is None
    refused(rnd, Discard(1, tuple(rnd.seats[1].cards[:2])), "already chosen")
    rnd.run_dealer()
    got = lines_of(rnd, 1)
    assert (got["first"], got["second"]) == (("win", TEN), ("win", TEN))
    replay_equal(rnd)


def test_17_8_c_d_no_more_doubles_waits_and_a_timeout_stands() -> None:
    """17.8(c): a player "may place a double down wager"; none placed in time is a stand.
    Area 1: Jh with the dealer's 2s Jd 8h 3d: a pair of jacks, the $10 wager wins 1 to 1 and
    there is no double down wager."""
    config = DoubleDownConfig.from_mapping({"shuffling": "shuffler-to-shoe"})
    rnd = DoubleDownRound(config, complete_deck(list(parse_cards("Jh 2s Jd 8h 3d"))))
    rnd.apply(PlaceBet(1, TEN))
    rnd.run_dealer()
    refused(rnd, NoMoreDoubles(), r'the second "No more bets" .* area 1 to double or stand')
    event = rnd.apply(DecisionTimeout(1))
    assert [e.kind for e in event.effects] == ["timeout", "stand"]
    rnd.run_dealer()
    assert lines_of(rnd, 1) == {"wager": ("win", TEN)}  # type: ignore[arg-type]
    replay_equal(rnd)


def test_timeout_refused_without_an_election_pending() -> None:
    rnd = new_round("", {1: (FIVE, TEN)})
    refused(rnd, DecisionTimeout(1), "seat 1 has no election pending.*no election is pending")
    rnd.run_dealer()
    refused(rnd, DecisionTimeout(2), r"seat 2 has no election pending.*pending: seat 1 to second")
    refused(rnd, DecisionTimeout(9), "seat 9 does not exist")
    rnd.apply(Second(1))
    refused(rnd, DecisionTimeout(1), "seat 1 has no election pending")
    dd = DoubleDownRound(DoubleDownConfig.from_mapping({}), deck(1))
    dd.apply(PlaceBet(3, TEN))
    refused(dd, DecisionTimeout(3), "area 3 has no election pending")


def test_decision_seconds_is_a_table_setting() -> None:
    assert table().decision_seconds == 60
    assert DoubleDownConfig.from_mapping({}).decision_seconds == 60
    assert table(decision_seconds=20).decision_seconds == 20
    assert DoubleDownConfig.from_mapping({"decision_seconds": 3600}).decision_seconds == 3600
    for bad in (0, -5, 3601, "60", True, 1.5):
        with pytest.raises(FeltError, match="decision_seconds must be a whole number of seconds"):
            TableConfig.from_mapping({"decision_seconds": bad})
        with pytest.raises(FeltError, match="decision_seconds must be a whole number of seconds"):
            DoubleDownConfig.from_mapping({"decision_seconds": bad})
    rnd = new_round("", {1: (FIVE, TEN)}, decision_seconds=20)
    rnd.run_dealer()
    assert "decision time ran out (20 seconds)" in rnd.apply(DecisionTimeout(1)).effects[0].detail


def test_script_times_out_elections_left_open_and_replays_exactly() -> None:
    """The script runner supplies the clock: elections open at the end ran out of time."""
    base = {
        "game": "boston5",
        "edition": "nj-19-47-24",
        "wagers": {"1": {"ante": 5, "first": 10, "bonus": 1}, "2": {"ante": 5, "first": 10}},
    }
    silent = run_script({**base, "actions": []})
    assert isinstance(silent, Round)
    actions = report(silent)["actions"]
    assert actions.count({"dealer": "timeout", "seat": 1}) == 2  # the exposure, then the fold
    assert actions.count({"dealer": "timeout", "seat": 2}) == 1
    assert [s.status for s in silent.seats.values()] == ["folded", "folded"]
    replay_equal(silent)
    rnd = run_script(
        {**base, "actions": [{"seat": 1, "action": "decline"}, {"seat": 2, "action": "second"}]}
    )
    assert isinstance(rnd, Round)
    assert [a for a in report(rnd)["actions"] if a.get("dealer") == "timeout"] == [
        {"dealer": "timeout", "seat": 1}
    ]
    assert rnd.seats[1].status == "folded"
    assert rnd.seats[2].status == "settled"
    replay_equal(rnd)
    refused_mid = {
        "game": "boston5",
        "wagers": {"1": {"ante": 5, "first": 10}},
        "actions": [{"dealer": "reveal"}],
    }
    with pytest.raises(FeltError, match=r"field 'actions'\[0\]: .*waiting for seat 1 to second"):
        run_script(refused_mid)


# --------------------------------------------------------------------------- properties


@st.composite
def boston_rounds_any_order(draw: st.DrawFn) -> Round:
    game, edition, extra = draw(st.sampled_from(CONFIGS))
    config = table(game, edition, **extra)
    rnd = Round(config, tuple(draw(st.permutations(ALL_CARDS))), stub_count_due=draw(st.booleans()))
    for seat in sorted(draw(st.sets(st.integers(1, 6), min_size=1))):
        bonus = draw(st.sampled_from([0, 100]))
        rnd.apply(PlaceWagers(seat, FIVE, config.first_ratio * FIVE, bonus, player=f"p{seat}"))
    for _ in range(200):
        if rnd.finished:
            break
        pending = rnd.pending()
        if not pending:
            rnd.advance()
            continue
        step = rnd.next_dealer_action()
        assert step is None  # the dealer waits while anyone may still elect
        seat, what = draw(st.sampled_from(pending))  # any seat, in any order
        choices: list[Action] = [DecisionTimeout(seat)]
        if what == "expose or decline":
            choices += [Expose(seat), Decline(seat)]
        elif what == "second or fold":
            choices += [Second(seat), Fold(seat)]
        else:
            pair = tuple(draw(st.permutations(rnd.seats[seat].cards))[:2])
            choices += [Keep(seat), Discard(seat, pair)]
        rnd.apply(draw(st.sampled_from(choices)))
    return rnd


@settings(max_examples=120)
@given(boston_rounds_any_order())
def test_decisions_and_timeouts_in_any_order_conserve_money_and_cards(rnd: Round) -> None:
    assert rnd.finished
    assert sum(rnd.net(n) for n in rnd.seats) + rnd.house_net() == 0
    assert rnd.ledger.balance(LAYOUT) == 0
    assert rnd.ledger.balance(HOUSE) == rnd.house_net()
    assert sorted(rnd.rack.cards()) == list(range(52))
    assert sorted(rnd.cards_accounted()) == list(range(52))
    again = Round.replay(rnd.config, rnd.deck, rnd.actions, stub_count_due=rnd.stub_count_due)
    assert again.events == rnd.events
    assert report(again) == report(rnd)


@st.composite
def dd_rounds_any_order(draw: st.DrawFn) -> DoubleDownRound:
    config = DoubleDownConfig.from_mapping(
        {"shuffling": draw(st.sampled_from(["shuffler", "shuffler-to-shoe"]))}
    )
    rnd = DoubleDownRound(config, tuple(draw(st.permutations(ALL_CARDS))))
    for area in draw(st.permutations(sorted(draw(st.sets(st.integers(1, 7), min_size=1))))):
        rnd.apply(PlaceBet(area, TEN))
    for _ in range(100):
        if rnd.finished:
            break
        pending = rnd.pending()
        if not pending:
            rnd.advance()
            continue
        area, what = draw(st.sampled_from(pending))
        choices: list[Action] = [DecisionTimeout(area)]
        if what == "cut or decline":
            choices += [PlayerCut(area, draw(st.integers(10, 42))), DeclineCut(area)]
        else:
            choices += [DoubleDown(area), Stand(area)]
        rnd.apply(draw(st.sampled_from(choices)))
    return rnd


@settings(max_examples=80)
@given(dd_rounds_any_order())
def test_double_downs_and_timeouts_in_any_order_conserve_money_and_cards(
    rnd: DoubleDownRound,
) -> None:
    assert rnd.finished
    assert sum(rnd.net(n) for n in rnd.seats) + rnd.house_net() == 0
    assert rnd.ledger.balance(LAYOUT) == 0
    assert sorted(rnd.rack.cards()) == list(range(52))
    assert sorted(rnd.cards_accounted()) == list(range(52))
    again = DoubleDownRound.replay(rnd.config, rnd.deck, rnd.actions, new_game=rnd.new_game)
    assert again.events == rnd.events
