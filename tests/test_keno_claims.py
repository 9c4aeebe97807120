"""Claims on keno tickets (issue 18, items 10-13): how long a multi-race ticket may be claimed
(15.6(c)1-2), races cancelled or cut off by the gaming day (15.4(d)-(e)), manual payment by the
ticket's value (15.7(c)), who authorises ("a keno supervisor or a supervisor thereof") and what
counts as winnings in the yearly total (15.6(d)).

Money figures are settled by hand from the example rate card (src/felt/games/keno/data/
example-rate-card.toml): a 1-spot ticket catching its number pays $3.00 for $1.00; a 5-spot
catching all five pays $700.00 for $1.00, so $7,000.00 at $10.00; 4 of 4 pays $110.00 for $1.00;
2 of 2 pays $12.00 for $1.00.  The draw DRAW is the numbers 1 to 20, MISS misses 1 to 60.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from felt.games.keno.system import (
    PATRONS,
    CancelRaces,
    ClosingNotice,
    Draw,
    Issue,
    KenoSystem,
    LockOut,
    ManualPay,
    OpenDay,
    OpenGame,
    Override,
    Redeem,
    Staff,
    SystemConfig,
    SystemDown,
    SystemUp,
    YearEnd,
)
from tests.keno_helpers import DRAW, card
from tests.test_keno_system import ANN, DAY, MISS, SUE, Booth

CASINO = Staff("C-001", "casino supervisor")
"""A supervisor of the keno supervisor: "a supervisor thereof" (15.5(e), 15.6(b), 15.7(c)2)."""
FIVE_MINUTES = {"ticket_validity": "5 minutes"}


# ----------------------------------------------------------------------------- 15.6(c)


def test_15_6_c_1_2_multi_race_claim_runs_from_the_last_game_sold_not_the_last_drawn() -> None:
    """Two 3-race tickets for games 1-3 on a five-minute card; game 1 is drawn (each won $3.00)
    and six minutes after its start their remaining races are cancelled.  They are payable now,
    and remain so until five minutes after game 3 (the last game sold) starts, not game 1."""
    b = Booth(card=FIVE_MINUTES)
    a = b.issue({"numbers": [1], "games": 3})
    c = b.issue({"numbers": [1], "games": 3})
    b.run_game()
    start1 = b.system.game_start(DAY, 1)
    assert start1 is not None
    b.now = start1 + timedelta(minutes=6)
    b.do(CancelRaces(b.now, a, SUE, "patron leaving"))
    b.do(CancelRaces(b.tick(), c, SUE, "patron leaving"))
    b.do(Redeem(b.tick(), a, 1, ANN))  # was refused: "expired" five minutes after game 1
    assert b.system.tickets[a].paid == 300
    b.run_game(MISS)
    b.run_game(MISS)
    start3 = b.system.game_start(DAY, 3)
    assert start3 is not None
    assert b.system.expires(b.system.tickets[c]) == start3 + timedelta(minutes=5)
    assert b.system.payable(c, start3 + timedelta(minutes=5)) == 300
    b.now = start3 + timedelta(minutes=5, seconds=1)
    b.refused(Redeem(b.now, c, 1, ANN), r"expired at .*15.6\(c\)")


def test_15_4_c_13_the_ticket_states_the_rule_the_system_applies() -> None:
    """The claim statement printed on a multi-race ticket names its last game sold and says what
    happens if races are cancelled or the gaming day ends first; a one-game ticket names its game."""
    b = Booth(card=FIVE_MINUTES)
    one = b.issue({"numbers": [1]})
    multi = b.issue({"numbers": [1], "games": 3})
    single = b.system.tickets[one].record.items()["13 time to claim"]
    assert "within 5 minutes of the start of game 1 of 2026-03-02" in single
    printed = b.system.tickets[multi].record.items()["13 time to claim"]
    assert "within 5 minutes of the start of game 3 of 2026-03-02" in printed
    assert "the last game this ticket was sold for, even if races are cancelled" in printed
    assert "end of the gaming day" in printed
    assert "refunded" in printed


def test_15_6_c_a_last_game_never_played_runs_from_the_end_of_the_gaming_day() -> None:
    """The gaming day ends after game 1 of a 5-race ticket: game 5 is never played, so its
    five minutes run from the end of the day (the next day's opening), when it became payable."""
    b = Booth(card=FIVE_MINUTES)
    n = b.issue({"numbers": [1], "games": 5})
    b.run_game()
    end = b.tick(120)
    b.do(OpenDay(end, DAY + timedelta(days=1)))
    assert b.system.expires(b.system.tickets[n]) == end + timedelta(minutes=5)
    b.now = end + timedelta(minutes=4)
    b.do(Redeem(b.now, n, 1, ANN))  # was refused: expired two hours before it became payable


# ----------------------------------------------------------------------------- 15.4(d)-(e)


def test_15_4_e_races_cancelled_before_the_first_race_are_a_void_of_the_whole_ticket() -> None:
    """A supervisor cancels a 3-race $1.00 ticket ($3.00) sold at station 2 before its first game
    starts: it is voided in its entirety, the $3.00 refunded, and it is on station 2's list."""
    b = Booth()
    n = b.issue({"numbers": [1], "games": 3}, station=2)
    assert b.system.money()[PATRONS] == -300
    event = b.do(CancelRaces(b.tick(), n, SUE, "patron changed his mind"))
    assert [(e.kind, e.ticket, e.amount) for e in event.effects] == [("void", n, 300)]
    assert "S-002" in event.effects[0].detail
    state = b.system.tickets[n]
    assert (state.voided, state.void_station) == (True, 2)
    assert [r.number for r in b.system.voided(DAY, 2)] == [n]
    assert b.system.money()[PATRONS] == 0
    assert b.system.money()["station 2"] == 0
    b.run_game()
    assert not state.won
    b.refused(Redeem(b.tick(), n, 1, ANN), r"voided")


def test_15_4_d_races_cut_off_by_the_gaming_day_are_refunded() -> None:
    """Decision: races a gaming day cuts off are refunded even where the rate card offers no
    refund on request.  A 5-race $1.00 ticket on number 1 wins game 1 ($3.00); the day ends:
    four races at $1.00 are refunded, $3.00 + $4.00 = $7.00 paid."""
    b = Booth()  # the example card: multi_race_refund = false
    n = b.issue({"numbers": [1], "games": 5})
    b.run_game()
    event = b.do(OpenDay(b.tick(), DAY + timedelta(days=1)))
    cancel = event.effects[0]
    assert (cancel.kind, cancel.ticket, cancel.amount) == ("cancel", n, 400)
    assert "gaming day ended" in cancel.detail
    b.open()
    b.do(Redeem(b.tick(), n, 1, ANN))
    assert b.system.tickets[n].paid == 700
    assert b.system.money()[PATRONS] == -500 + 700


def test_15_4_d_a_supervisors_cancellation_refunds_only_as_the_card_allows() -> None:
    """After the first race, a cancellation makes the ticket payable (15.4(d)); the races not
    drawn are refunded only if the card offers it (the example card does not)."""
    b = Booth()
    n = b.issue({"numbers": [1], "games": 3})
    b.run_game()
    event = b.do(CancelRaces(b.tick(), n, SUE, "patron leaving"))
    assert [(e.kind, e.amount) for e in event.effects] == [("cancel", 0)]
    b.do(Redeem(b.tick(), n, 1, ANN))
    assert b.system.tickets[n].paid == 300


# ----------------------------------------------------------------------------- 15.7(c)


def test_15_7_c_3_the_limit_follows_the_tickets_value_not_the_amount_typed() -> None:
    """A 5-spot $10.00 ticket catching 5 is worth $7,000.00: it may not be paid by hand at all,
    whatever is typed ($1,000.00 here); once the system is up it is paid the whole $7,000.00."""
    b = Booth()
    n = b.issue({"numbers": [1, 2, 3, 4, 5], "rate": "10.00"})
    b.run_game()
    b.do(SystemDown(b.tick()))
    b.refused(ManualPay(b.tick(), n, 1, 100_000, ANN, SUE), r"over \$1000.00.*15.7\(c\)3")
    b.do(SystemUp(b.tick()))
    b.do(Redeem(b.tick(), n, 1, ANN, supervisor=SUE))
    assert b.system.tickets[n].paid == 700_000
    assert b.system.money()["station 1"] == 1_000 - 700_000


def test_15_7_c_2_authorisation_follows_the_tickets_value() -> None:
    """A 2-spot $1.00 ticket catching both is worth $12.00, over the writer's $10.00: typing
    $8.00 does not let the writer pay it alone."""
    b = Booth()
    n = b.issue({"numbers": [1, 2]})
    b.run_game()
    b.do(SystemDown(b.tick()))
    b.refused(ManualPay(b.tick(), n, 1, 800, ANN), r"\$12.00|keno supervisor.*15.7\(c\)2")
    b.do(ManualPay(b.tick(), n, 1, 1_200, ANN, SUE))
    assert b.system.tickets[n].paid == 1_200


def test_15_7_c_a_partial_manual_payment_is_refused() -> None:
    """Decision: a manual payment pays the ticket's whole value or nothing.  4 of 4 at $1.00 is
    $110.00; $100.00 or $120.00 typed is refused, $110.00 is paid and nothing is left owing."""
    b = Booth()
    n = b.issue({"numbers": [1, 2, 3, 4]})
    b.run_game()
    b.do(SystemDown(b.tick()))
    b.refused(ManualPay(b.tick(), n, 1, 10_000, ANN, SUE), r"whole value.*15.7\(c\)")
    b.refused(ManualPay(b.tick(), n, 1, 12_000, ANN, SUE), r"whole value.*15.7\(c\)")
    b.do(ManualPay(b.tick(), n, 1, 11_000, ANN, SUE))
    up = b.do(SystemUp(b.tick()))
    assert [e.kind for e in up.effects] == ["up"]
    b.refused(Redeem(b.tick(), n, 1, ANN), r"paid once")


@settings(max_examples=60, deadline=None)
@given(
    spots=st.integers(1, 6),
    rate=st.integers(1, 12),
    typed=st.integers(1, 200_000),
    exact=st.booleans(),
    authorised=st.booleans(),
)
def test_15_7_c_a_manual_payment_is_the_whole_value_within_its_limits_or_nothing(
    spots: int, rate: int, typed: int, exact: bool, authorised: bool
) -> None:
    """Property: whatever is typed, a manual payment either pays exactly the ticket's value, at
    most $1,000.00 and over $10.00 only with authorisation, or is refused and changes nothing.
    The value is settled from the card's table independently: spots of 1..spots all caught,
    pays[spots][spots] times the rate in dollars."""
    pays = {1: 300, 2: 1_200, 3: 4_200, 4: 11_000, 5: 70_000, 6: 160_000}  # the example card
    value = pays[spots] * rate
    typed = value if exact else typed
    b = Booth()
    n = b.issue({"numbers": list(range(1, spots + 1)), "rate": f"{rate}.00"})
    b.run_game()
    b.do(SystemDown(b.tick()))
    action = ManualPay(b.tick(), n, 1, typed, ANN, SUE if authorised else None)
    allowed = typed == value and value <= 100_000 and (authorised or value <= 1_000)
    if allowed:
        b.do(action)
        assert b.system.tickets[n].paid == value
        assert b.system.money()[PATRONS] == value - rate * 100
    else:
        b.refused(action, r"15.7\(c\)")


# ----------------------------------------------------------------------------- who authorises


def test_15_5_e_15_6_b_15_7_c_2_a_supervisor_thereof_authorises() -> None:
    """A casino supervisor (a supervisor of the keno supervisor) may override the lock-out and
    authorise a $1,540.00 payout (4 of 4 at $14.00) and a $110.00 manual payment; not issue
    tickets, nor approve a writer's lock-out (15.5(d) names only a keno supervisor)."""
    b = Booth()
    big = b.issue({"numbers": [1, 2, 3, 4], "rate": "14.00"})
    mid = b.issue({"numbers": [1, 2, 3, 4]})
    b.refused(Issue(b.tick(), 1, CASINO, {"numbers": [1], "rate": "1"}), r"keno writer")
    event = b.do(Override(b.tick(), CASINO, "hold", "a long line"))
    assert "by C-001" in event.effects[0].detail
    b.do(Override(b.tick(), CASINO, "release", "line served"))
    b.run_game()
    paid = b.do(Redeem(b.tick(), big, 1, ANN, supervisor=CASINO))
    assert "authorised by C-001" in paid.effects[0].detail
    assert b.system.tickets[big].paid == 154_000
    b.do(SystemDown(b.tick()))
    b.do(ManualPay(b.tick(), mid, 1, 11_000, ANN, CASINO))
    hand = Booth(automatic_lockout=False, closing="notice")
    hand.do(ClosingNotice(hand.tick(), ANN))
    hand.tick(2)
    hand.refused(LockOut(hand.now, ANN, approved_by=CASINO), r"approval\) needs a keno supervisor")


# ----------------------------------------------------------------------------- 15.6(d)


def test_15_6_d_a_cancelled_tickets_refund_is_not_winnings() -> None:
    """On a card offering refunds, a 4-race $1.00 ticket on number 1 wins game 1 ($3.00) and its
    three other races are cancelled ($3.00 refunded); a losing one is cancelled too ($3.00
    refunded).  Both expire unclaimed: the year's winnings are $3.00, not $9.00 ($6.00 + $3.00
    owed)."""
    b = Booth(card={"multi_race_refund": True, "ticket_validity": "30 days"})
    won = b.issue({"numbers": [1], "games": 4})
    lost = b.issue({"numbers": [80], "games": 4})
    b.run_game()
    b.do(CancelRaces(b.tick(), won, SUE, "patron leaving"))
    b.do(CancelRaces(b.tick(), lost, SUE, "patron leaving"))
    assert (b.system.tickets[won].owed, b.system.tickets[lost].owed) == (600, 300)
    for _ in range(3):
        b.run_game(MISS)  # games 2 to 4 are played for others: their claim runs from game 4
    later = datetime(2027, 1, 2)
    assert [s.record.number for s in b.system.expired_unclaimed(2026, later)] == [won]
    event = b.do(YearEnd(later, 2026, "keno jackpot"))
    assert event.effects[0].amount == 300
    assert b.system.money()["keno jackpot"] == 300


def test_15_6_d_the_year_is_the_gaming_days_zone_not_utc() -> None:
    """A system in New York: a ticket whose five minutes end at 23:10 on 31 December 2026 in
    New York (04:10 UTC on 1 January 2027) expired in 2026, the gaming day's year."""
    ny = ZoneInfo("America/New_York")
    system = KenoSystem(SystemConfig(card(**FIVE_MINUTES), zone="America/New_York"))
    t0 = datetime(2026, 12, 31, 23, 0, tzinfo=ny)
    system.apply(OpenDay(t0, date(2026, 12, 31)))
    system.apply(OpenGame(t0, t0 + timedelta(minutes=5)))
    n = system.apply(Issue(t0 + timedelta(minutes=1), 1, ANN, {"numbers": [1], "rate": "1.00"}))
    number = n.effects[0].ticket
    assert number is not None
    start = t0 + timedelta(minutes=5)
    system.apply(LockOut(start))
    system.apply(Draw(start + timedelta(seconds=30), DRAW))
    end = system.expires(system.tickets[number])
    assert end == start + timedelta(minutes=5)
    assert end is not None
    assert end.astimezone(UTC).year == 2027
    later = datetime(2027, 1, 1, 12, 0, tzinfo=ny)
    assert [s.record.number for s in system.expired_unclaimed(2026, later)] == [number]
    assert system.expired_unclaimed(2027, later) == []
    early = datetime(2027, 1, 1, 0, 30, tzinfo=ny)  # 05:30 UTC: the year 2026 ended in New York
    assert system.can(YearEnd(early, 2026, "keno jackpot"))
    assert not system.can(YearEnd(datetime(2026, 12, 31, 23, 59, tzinfo=ny), 2026, "keno jackpot"))
