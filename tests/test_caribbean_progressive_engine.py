"""The progressive payout of Caribbean Stud Poker in the round engine (N.J.A.C. 19:47-16.11 and
16.12, titles only; the rules as decisions.md fixes them from the public descriptions named in
docs/interpretations.md): contributions when wagers close, fixed payouts from the house,
percentages off the meter the settlement carries, royal flushes sharing the meter, the reset by
the house, and every cent on the ledger.  Every amount is figured here by hand."""

from __future__ import annotations

from typing import Any

import pytest

from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.core.errors import FeltError
from felt.games.caribbean_stud.actions import Bet, DealerCardExposed, Fold, Settle, Wagers
from felt.games.caribbean_stud.config import CaribbeanConfig
from felt.games.caribbean_stud.round import CaribbeanRound, Phase
from felt.games.caribbean_stud.table import CaribbeanTable
from felt.games.caribbean_stud.view import spot_json
from felt.rounds.actions import Deal, NoMoreBets, Reveal
from felt.rounds.engine import HOUSE, LAYOUT, PROGRESSIVE, seat_party
from felt.rounds.shuffle import FixedOrder

ROYAL_H = "Ah Kh Qh Jh Th"
ROYAL_S = "As Ks Qs Js Ts"
STRAIGHT_FLUSH = "9c 8c 7c 6c 5c"
FLUSH = "Kd Jd 7d 4d 3d"
NOTHING = "2h 4c 6s 8h Tc"
DEALER_LOW = "2c 3h 4s 8d 9h"
"""Nine high: the dealer does not qualify (16.1)."""
METER = 1_000_000
"""$10,000.00 on the meter when the settlement is recorded."""
SEED = 1_000_000
"""The default seed, $10,000.00."""


def deck(*hands: str) -> tuple[Card, ...]:
    """A deck that deals ``hands`` (each position's five cards in position order, then the
    dealer's, the last face up) as the game deals: one card at a time round the table, five times
    (16.7-16.9); every other card after them."""
    split = [parse_cards(h) for h in hands]
    given = [h[i] for i in range(5) for h in split]
    return (*given, *(c for c in ALL_CARDS if c not in given))


def config(**settings: Any) -> CaribbeanConfig:
    return CaribbeanConfig.from_mapping({"shuffling": "shuffler", **settings})


def dealt(hands: dict[int, str], dealer: str = DEALER_LOW, **settings: Any) -> CaribbeanRound:
    """Ante $10 and the $1 progressive wager at each position of ``hands``, dealt as given."""
    rnd = CaribbeanRound(config(**settings), deck(*(hands[n] for n in sorted(hands)), dealer))
    for n in hands:
        rnd.apply(Wagers(n, 1000, 100))
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    return rnd


def settle(rnd: CaribbeanRound, meter: int | None = METER, folds: tuple[int, ...] = ()) -> None:
    for seat in sorted(rnd.seats):
        rnd.apply(Fold(seat) if seat in folds else Bet(seat))
    rnd.apply(Reveal())
    rnd.apply(Settle(meter=meter))


def paid(rnd: CaribbeanRound) -> list[tuple[int, str, int, str]]:
    """The progressive payouts: (seat, hand, amount, how it was figured), in statement order."""
    return [
        (x.seat, x.hand, x.amount, x.odds) for x in rnd.lines if x.wager == "progressive payout"
    ]


def conserved(rnd: CaribbeanRound) -> None:
    parties = {t.source for t in rnd.ledger.transfers} | {t.target for t in rnd.ledger.transfers}
    assert sum(rnd.ledger.balance(p) for p in parties) == 0
    assert rnd.ledger.balance(LAYOUT) == 0
    for seat in rnd.seats:
        assert rnd.ledger.balance(seat_party(seat)) == rnd.net(seat)


# ----------------------------------------------------------------------------- the wager (16.11)


def test_16_11_progressive_wager_is_the_fixed_amount_with_an_ante_only() -> None:
    rnd = CaribbeanRound(config(), deck())
    with pytest.raises(FeltError, match=r"progressive wager is 1\.00 exactly, got 2\.00"):
        rnd.apply(Wagers(1, 500, 200))
    rnd.apply(Wagers(1, 500, 100))
    without = CaribbeanRound(config(progressive=False), deck())
    with pytest.raises(FeltError, match="offers no progressive wager"):
        without.apply(Wagers(1, 500, 100))


def test_16_12_contribution_when_wagers_close_floored_to_the_cent() -> None:
    """Rate 25%: of $1.00, 25 cents onto the meter and 75 to the house; rate 1/3: 33 and 67."""
    rnd = CaribbeanRound(config(), deck())
    rnd.apply(Wagers(1, 500, 100))
    rnd.apply(Wagers(2, 500, 100))
    assert rnd.ledger.balance(PROGRESSIVE) == 0  # on the layout until wagers close
    rnd.apply(NoMoreBets())
    assert rnd.ledger.balance(PROGRESSIVE) == 50
    assert rnd.ledger.balance(HOUSE) == 150
    assert rnd.ledger.balance(LAYOUT) == 1000  # the antes
    third = CaribbeanRound(config(progressive={"rate": "1/3"}), deck())
    third.apply(Wagers(1, 500, 100))
    third.apply(NoMoreBets())
    assert (third.ledger.balance(PROGRESSIVE), third.ledger.balance(HOUSE)) == (33, 67)
    effect = next(e for ev in third.events for e in ev.effects if e.kind == "progressive")
    assert effect.amount == 33
    assert "0.33 onto the meter" in effect.detail


# ----------------------------------------------------------------------------- fold and the meter


def test_16_1_fold_loses_the_progressive_and_wins_no_payout() -> None:
    rnd = dealt({1: ROYAL_H})
    rnd.apply(Fold(1))
    rnd.apply(Reveal())
    rnd.apply(Settle())  # no progressive in play: no meter needed
    assert [(x.wager, x.outcome, x.amount) for x in rnd.lines] == [
        ("ante", "forfeit", -1000),
        ("progressive", "forfeit", -100),
    ]
    assert paid(rnd) == []
    conserved(rnd)


def test_settle_refused_without_meter_when_progressive_wagers_are_in_play() -> None:
    rnd = dealt({1: NOTHING})
    rnd.apply(Bet(1))
    rnd.apply(Reveal())
    before = rnd.copy()
    with pytest.raises(FeltError, match="give the meter"):
        rnd.apply(Settle())
    with pytest.raises(FeltError, match="below zero"):
        rnd.apply(Settle(meter=-1))
    assert rnd == before
    rnd.apply(Settle(meter=METER))
    assert rnd.meter_used == METER
    assert rnd.meter_after == METER
    assert [(x.wager, x.outcome, x.amount) for x in rnd.lines if x.wager == "progressive"] == [
        ("progressive", "lose", -100)
    ]


# ----------------------------------------------------------------------------- payouts (16.11)


def test_16_11_fixed_payout_from_the_house_whatever_the_dealer_holds() -> None:
    """A flush pays $50 from the house even when the dealer's hand beats it (a full house)."""
    rnd = dealt({1: FLUSH}, dealer="9s 9h 9c 2s 2h")
    settle(rnd)
    assert paid(rnd) == [(1, "flush", 5000, "$50.00")]
    assert {x.wager: x.outcome for x in rnd.lines} == {
        "ante": "lose", "bet": "lose", "progressive": "lose", "progressive payout": "paid",
    }  # fmt: skip
    assert rnd.net(1) == -1000 - 2000 - 100 + 5000
    settle_event = rnd.events[-1]
    assert rnd.ledger.balance(PROGRESSIVE) == 25  # the contribution only: nothing off the meter
    assert any(e.kind == "progressive payout" and "from the house" in e.detail
               for e in settle_event.effects)  # fmt: skip
    conserved(rnd)


def test_16_11_royal_flush_takes_the_whole_meter_and_the_house_resets_it() -> None:
    rnd = dealt({1: ROYAL_H})
    settle(rnd, meter=1_234_567)
    assert paid(rnd) == [(1, "royal flush", 1_234_567, "100% of the meter $12345.67")]
    assert rnd.meter_after == SEED
    transfers = [(t.source, t.target, t.amount) for t in rnd.ledger.transfers]
    assert (PROGRESSIVE, seat_party(1), 1_234_567) in transfers
    assert transfers[-1] == (HOUSE, PROGRESSIVE, SEED)  # the reset after the payout
    # the dealer did not qualify: ante 1 to 1, bet returned, whatever the player holds
    assert rnd.net(1) == 1000 - 100 + 1_234_567
    conserved(rnd)


def test_16_11_two_royal_flushes_share_the_meter_odd_cent_to_the_earlier_seat() -> None:
    """$10,000.01 shared by seats 2 and 5: seat 5 (the dealer's right, paid first) $5,000.01."""
    rnd = dealt({2: ROYAL_H, 5: ROYAL_S})
    settle(rnd, meter=1_000_001)
    assert [(s, a) for s, _, a, _ in paid(rnd)] == [(5, 500_001), (2, 500_000)]
    assert all("shared by 2 royal flushes" in how for *_, how in paid(rnd))
    assert rnd.meter_after == SEED
    resets = [t for t in rnd.ledger.transfers if t.target == PROGRESSIVE and t.source == HOUSE]
    assert [t.amount for t in resets] == [SEED]  # one reset for the shared meter
    conserved(rnd)


def test_16_11_straight_flush_after_a_royal_takes_10_percent_of_the_reset_meter() -> None:
    """Seat 3 (paid first) holds the royal flush: the whole $10,000.00; the meter is reset to the
    $10,000.00 seed; seat 1's straight flush then takes 10% of it, $1,000.00."""
    rnd = dealt({1: STRAIGHT_FLUSH, 3: ROYAL_H})
    settle(rnd, meter=METER)
    assert paid(rnd) == [
        (3, "royal flush", METER, "100% of the meter $10000.00"),
        (1, "straight flush", SEED // 10, "10% of the meter $10000.00"),
    ]
    assert rnd.meter_after == SEED - SEED // 10
    conserved(rnd)


def test_16_11_straight_flush_before_a_royal_leaves_the_rest_to_the_royal() -> None:
    """Seat 3's straight flush is paid first: 10% of $12,345.67 floored is $1,234.56; seat 1's
    royal flush then takes the $11,111.11 left; the meter is reset."""
    rnd = dealt({1: ROYAL_H, 3: STRAIGHT_FLUSH})
    settle(rnd, meter=1_234_567)
    assert [(s, h, a) for s, h, a, _ in paid(rnd)] == [
        (3, "straight flush", 123_456),
        (1, "royal flush", 1_234_567 - 123_456),
    ]
    assert rnd.meter_after == SEED
    conserved(rnd)


def test_16_12_payout_limit_does_not_reduce_progressive_payouts() -> None:
    """Ante $100, bet $200 on a royal flush beating a qualifying dealer: $100 + $20,000 won,
    reduced to the $5,000 limit; the progressive's $20,000.00 is paid in full."""
    rnd = CaribbeanRound(config(), deck(ROYAL_H, "Ac Kd 4h 3c 2s"))  # one position
    rnd.apply(Wagers(1, 10000, 100))
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    settle(rnd, meter=2_000_000)
    bet = next(x for x in rnd.lines if x.wager == "bet")
    assert bet.limit_reduction == 10000 + 20000 * 100 - 500_000
    assert paid(rnd) == [(1, "royal flush", 2_000_000, "100% of the meter $20000.00")]
    assert rnd.net(1) == 500_000 - 100 + 2_000_000
    conserved(rnd)


# ----------------------------------------------------------------------------- void, replay, view


def test_16_13_void_returns_the_progressive_from_the_house_meter_untouched() -> None:
    """The meter keeps its contribution (a meter is never decreased but by a payout,
    13:69D-1.52(f)); the house returns the whole progressive wager."""
    rnd = dealt({1: NOTHING, 2: FLUSH})
    rnd.apply(DealerCardExposed())
    assert rnd.phase is Phase.VOID
    assert {(x.seat, x.wager, x.outcome) for x in rnd.lines if x.wager == "progressive"} == {
        (1, "progressive", "void"), (2, "progressive", "void"),
    }  # fmt: skip
    assert rnd.ledger.balance(PROGRESSIVE) == 50
    assert rnd.ledger.balance(HOUSE) == -50
    assert rnd.ledger.balance(seat_party(1)) == 0
    conserved(rnd)


def test_replay_is_exact_with_the_meter_recorded_in_the_event() -> None:
    rnd = dealt({1: STRAIGHT_FLUSH, 3: ROYAL_H})
    settle(rnd, meter=987_654)
    again = rnd.replay_from_start()
    assert again.events == rnd.events
    assert again.meter_after == rnd.meter_after
    assert rnd.events[-1].action == Settle(meter=987_654)
    assert rnd.events[-1].action.to_json() == {"dealer": "settle", "meter": "9876.54"}


def test_16_11_a_meter_past_ten_million_dollars_reads_back_from_the_record() -> None:
    """A meter is no wager and has no table limit: a royal paid off a $12,345,678.91 meter is
    written to the record and read back (by the script layer) as the same settlement."""
    from felt.games.caribbean_stud.game import GAME

    rnd = dealt({1: ROYAL_H})
    settle(rnd, meter=1_234_567_891)
    action = rnd.events[-1].action
    assert isinstance(action, Settle)
    entry = action.to_json()
    assert entry == {"dealer": "settle", "meter": "12345678.91"}
    assert GAME.parse_action(entry, "script") == Settle(meter=1_234_567_891)
    assert paid(rnd)[0][2] == 1_234_567_891


def test_view_line_says_what_the_progressive_paid() -> None:
    rnd = dealt({1: FLUSH, 2: NOTHING})
    settle(rnd)
    lines = spot_json(rnd, 1)["lines"]
    payout = next(x for x in lines if x["wager"] == "progressive payout")
    assert payout["amount"] == "50.00"
    assert "flush, paid $50.00 whatever the dealer holds" in payout["reason"]
    assert all(x["seat"] == 1 for x in lines)


def test_table_meter_follows_contributions_payouts_and_resets() -> None:
    """The table's own meter: seed $10,000; a round with two $1 wagers adds 50 cents; a royal
    flush then takes all of it and the house puts the seed back."""
    cards = deck(NOTHING, "3s 5c 7s 9d Jc", DEALER_LOW)
    table = CaribbeanTable(config(), shuffler=FixedOrder(cards))
    rnd = table.new_round()
    rnd.apply(Wagers(1, 1000, 100))
    rnd.apply(Wagers(2, 1000, 100))
    rnd.run_dealer()
    rnd.apply(Bet(1))
    rnd.apply(Bet(2))
    rnd.apply(Reveal())
    rnd.apply(table.settle_step(rnd))
    table.finish(rnd)
    assert table.meter == SEED + 50
    table.shuffler = FixedOrder(deck(ROYAL_H, DEALER_LOW))
    rnd = table.new_round()
    rnd.apply(Wagers(1, 1000, 100))
    rnd.run_dealer()
    rnd.apply(Bet(1))
    rnd.apply(Reveal())
    step = table.settle_step(rnd)
    assert step.meter == SEED + 75
    rnd.apply(step)
    table.finish(rnd)
    assert paid(rnd)[0][2] == SEED + 75
    assert table.meter == SEED
