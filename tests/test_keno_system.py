"""The keno computer system by N.J.A.C. 19:47-15.3 to 15.7: scenario tests named after each clause,
and refusals that change nothing."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

import pytest

from felt.core.errors import FeltError
from felt.games.keno.draw import FixedSource, SystemSource, draw_numbers
from felt.games.keno.system import (
    PATRONS,
    SUPERVISOR,
    WRITER,
    Action,
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
    TicketState,
    Void,
    YearEnd,
)
from felt.games.keno.tickets import quick_pick
from felt.rounds.shuffle import SeededShuffle
from tests.keno_helpers import DRAW, card

ANN = Staff("W-017", WRITER)
SUE = Staff("S-002", SUPERVISOR)
DAY = date(2026, 3, 2)
T0 = datetime(2026, 3, 2, 10, 0)
FIVE = timedelta(minutes=5)
MISS = tuple(range(61, 81))
"""A draw that misses every number below 61."""


class Booth:
    """A keno system on the example card, with a clock that moves forward."""

    def __init__(self, **config: Any) -> None:
        self.system = KenoSystem(
            SystemConfig(card(**config.pop("card", {})), **({"stations": (1, 2)} | config))
        )
        self.now = T0
        self.do(OpenDay(self.now, DAY))
        self.open()

    def tick(self, minutes: float = 1) -> datetime:
        self.now += timedelta(minutes=minutes)
        return self.now

    def do(self, action: Action) -> Any:
        return self.system.apply(action)

    def open(self) -> None:
        countdown = self.system.config.closing == "countdown"
        self.do(OpenGame(self.now, self.now + FIVE if countdown else None))

    def issue(self, request: dict[str, Any], station: int = 1) -> int:
        event = self.do(Issue(self.tick(0.1), station, ANN, {"rate": "1.00"} | request))
        number: int = event.effects[0].ticket
        return number

    def run_game(self, numbers: tuple[int, ...] = DRAW) -> None:
        game = self.system.current
        assert game is not None
        if game.closes_at is not None:
            self.now = max(self.now, game.closes_at)
        else:
            self.do(ClosingNotice(self.tick(), ANN))
            self.tick(1)
        if self.system.config.automatic_lockout:
            self.do(LockOut(self.now))
        else:
            self.do(LockOut(self.now, SUE))
        self.do(Draw(self.tick(0.5), numbers))
        self.open()

    def refused(self, action: Action, match: str) -> None:
        before = self.system.copy().state()
        events = len(self.system.events)
        with pytest.raises(FeltError, match=match):
            self.system.apply(action)
        assert len(self.system.events) == events
        assert self.system.state() == before


# ----------------------------------------------------------------------------- 15.3


def test_15_3_a_all_wagering_at_a_keno_work_station() -> None:
    b = Booth()
    b.refused(
        Issue(b.tick(), 7, ANN, {"numbers": [1], "rate": "1"}),
        r"work station 7 is not a keno work station .*15.3\(a\)",
    )
    b.refused(
        Issue(b.tick(), 1, Staff("x", "dealer"), {"numbers": [1], "rate": "1"}),
        r"needs a keno writer or keno supervisor",
    )


def test_15_3_b_a_ticket_may_be_the_request_for_the_next_game() -> None:
    b = Booth()
    first = b.issue({"kind": "way", "groups": [[1, 2], [3, 4], [5, 6]], "conditions": ["3/4"]})
    b.run_game()
    again = b.issue(b.system.tickets[first].record.ticket.to_request())
    assert b.system.tickets[again].record.ticket == b.system.tickets[first].record.ticket
    assert b.system.tickets[again].record.first_game == 2


def test_15_3_c_no_void_or_change_once_locked_out() -> None:
    b = Booth()
    n = b.issue({"numbers": [1, 2, 3]})
    b.now += FIVE
    b.do(LockOut(b.now))
    b.refused(
        Void(b.tick(), n, 1, ANN), r"may not be voided: game 1, its first, has started.*15.4\(e\)"
    )
    b.refused(
        Issue(b.tick(), 1, ANN, {"numbers": [4], "rate": "1"}), r"game 1 is locked.*15.5\(d\)1"
    )


def test_15_3_e_aggregate_limit_shared_pro_rata() -> None:
    b = Booth()
    tens = [b.issue({"numbers": list(range(1, 11))}) for _ in range(3)]  # three solid 10-spots
    small = b.issue({"numbers": [1]})
    b.run_game()
    won = {n: b.system.tickets[n].won[1] for n in [*tens, small]}
    total = 3 * 10_000_000 + 300
    assert won == {
        **dict.fromkeys(tens, 10_000_000 * 10_000_000 // total),
        small: 300 * 10_000_000 // total,
    }
    assert sum(won.values()) <= 10_000_000
    assert any(e.kind == "aggregate" for e in b.system.events[-2].effects)


# ----------------------------------------------------------------------------- 15.4


def test_15_4_a_b_a_request_conditions_and_prices_what_it_plays() -> None:
    b = Booth()
    n = b.issue(
        {
            "kind": "split",
            "groups": [[1, 2], [3, 4, 5]],
            "conditions": ["1/2@2", "1/3@1"],
            "games": 2,
            "price": "6.00",
        }
    )
    assert b.system.tickets[n].record.ticket.price == 600
    b.refused(
        Issue(b.tick(), 1, ANN, {"numbers": [1, 2], "rate": "1", "price": "3"}),
        r"priced \$3.00.*15.4\(a\)",
    )


def test_15_4_c_ticket_carries_every_item_1_to_13() -> None:
    b = Booth()
    n = b.issue(
        {
            "kind": "king",
            "groups": [[9], [1, 2, 3], [4, 5, 6]],
            "conditions": ["2/4"],
            "games": 3,
            "rate": "2.00",
        },
        station=2,
    )
    items = b.system.tickets[n].record.items()
    assert [k.split()[0] for k in items] == [str(i) for i in range(1, 14)]
    assert items["2 keno work station"] == "2"
    assert items["3 numbers selected"] == "[K 9] [1 2 3] [4 5 6]"
    assert items["5 first and last game"] == "1 to 3 of 2026-03-02"
    assert (items["6 conditioning"], items["7 rate of each wager"], items["8 number of ways"]) == (
        "2/4",
        "$2.00 per way",
        "2",
    )
    assert items["9 total price"] == "$12.00"
    assert items["10 keno writer"] == "W-017"
    assert "Maximum keno limit $100000.00 per game" in items["11 maximum keno limit"]
    assert "must present a computer-generated keno ticket" in items["12 presentation"]
    assert "within 1 year" in items["13 time to claim"]
    printed = b.system.tickets[n].record.render()
    assert printed.startswith("KENO TICKET 00000001")
    assert len(printed.splitlines()) == 14
    second = b.issue({"numbers": [7]})
    assert second == n + 1  # sequentially numbered


def test_15_4_d_multi_race_paid_after_its_last_game() -> None:
    b = Booth()
    n = b.issue({"numbers": [1], "games": 3})
    b.run_game()
    assert b.system.tickets[n].won == {1: 300}
    b.refused(
        Redeem(b.tick(), n, 1, ANN),
        r"multi-race ticket for games 1 to 3: it is paid after its last game .*15.4\(d\)",
    )
    b.run_game(MISS)
    b.run_game()
    b.do(Redeem(b.tick(), n, 1, ANN))
    assert b.system.tickets[n].paid == 600


def test_15_4_d_cancelled_races_make_the_ticket_payable_now() -> None:
    b = Booth(card={"multi_race_refund": True})
    n = b.issue({"numbers": [1], "games": 4})
    b.run_game()
    b.refused(CancelRaces(b.tick(), n, ANN, "closing early"), r"needs a keno supervisor.*15.4\(d\)")
    b.do(CancelRaces(b.tick(), n, SUE, "keno lounge closing early"))
    b.do(Redeem(b.tick(), n, 1, ANN))
    assert b.system.tickets[n].paid == 300 + 3 * 100  # the win and three games refunded
    b.run_game()
    assert 2 not in b.system.tickets[n].won


def test_15_4_e_void_before_the_game_and_a_daily_list_per_station() -> None:
    b = Booth()
    a = b.issue({"numbers": [1, 2]}, station=1)
    c = b.issue({"numbers": [3, 4]}, station=2)
    multi = b.issue({"numbers": [5], "games": 3}, station=2)
    b.do(Void(b.tick(), a, 1, ANN))
    b.do(Void(b.tick(), multi, 2, ANN))
    assert [r.number for r in b.system.voided(DAY, 1)] == [a]
    assert [r.number for r in b.system.voided(DAY, 2)] == [multi]
    assert b.system.money()[PATRONS] == -100  # only ticket c is still paid for
    b.refused(Void(b.tick(), a, 1, ANN), r"already void")
    b.run_game()
    b.refused(Void(b.tick(), c, 2, ANN), r"may not be voided")
    m2 = b.issue({"numbers": [5], "games": 3})
    b.run_game()
    b.refused(Void(b.tick(), m2, 1, ANN), r"may not be voided: game 2, its first, has started")


# ----------------------------------------------------------------------------- 15.5


def test_15_5_b_unique_sequential_game_numbers_per_gaming_day() -> None:
    b = Booth()
    b.run_game()
    b.run_game()
    assert b.system.current is not None
    assert b.system.current.number == 3
    b.do(OpenDay(b.tick(), DAY + timedelta(days=1)))
    b.open()
    assert b.system.current.number == 1
    assert (DAY, 2) in b.system.games
    b.refused(OpenDay(b.tick(), DAY), r"gaming day 2026-03-02 is not after 2026-03-03")


def test_15_5_c_closing_notice_at_least_one_minute_or_a_countdown() -> None:
    b = Booth()
    game = b.system.current
    assert game is not None
    assert b.system.remaining(b.now) == FIVE
    b.refused(LockOut(b.tick()), r"closes at .* as the countdown displays .*15.5\(c\)")
    v = Booth(closing="notice")
    v.refused(LockOut(v.tick()), r"notice .* at least one minute before it closes .*15.5\(c\)")
    v.do(ClosingNotice(v.tick(), ANN))
    v.refused(LockOut(v.tick(0.5)), r"at least one minute")
    v.do(LockOut(v.tick(0.5)))


def test_15_5_d_lock_out_by_hand_supervisor_or_writer_with_approval() -> None:
    b = Booth(automatic_lockout=False, closing="notice")
    b.do(ClosingNotice(b.tick(), ANN))
    b.tick(2)
    b.refused(LockOut(b.now), r"no automatic lock-out.*15.5\(d\)")
    b.refused(LockOut(b.now, ANN), r"a writer's lock-out \(approval\) needs a keno supervisor")
    b.do(LockOut(b.now, ANN, approved_by=SUE))
    b.refused(Issue(b.tick(), 1, ANN, {"numbers": [1], "rate": "1"}), r"locked out")
    b.do(Draw(b.tick(), DRAW))


def test_15_5_e_override_only_by_a_supervisor_with_who_and_why() -> None:
    b = Booth()
    b.refused(
        Override(b.tick(), ANN, "hold", "busy"),
        r"overriding the lock-out needs a keno supervisor.*15.5\(e\)",
    )
    b.refused(Override(b.tick(), SUE, "hold", " "), r"records the reason")
    event = b.do(Override(b.tick(), SUE, "hold", "long line at station 2"))
    assert "by S-002: long line at station 2" in event.effects[0].detail
    b.now += FIVE
    b.refused(LockOut(b.now), r"held by a supervisor's override")
    b.issue({"numbers": [1]})
    b.do(Override(b.tick(), SUE, "lock", "line served"))
    assert b.system.current is not None
    assert b.system.current.state == "locked"
    manual = Booth(automatic_lockout=False)
    manual.refused(Override(manual.tick(), SUE, "hold", "x"), r"this system has none")


def test_15_5_f_g_twenty_of_eighty_drawn_and_shown_on_the_board() -> None:
    b = Booth()
    numbers = draw_numbers(SeededShuffle(9))
    b.now += FIVE
    b.do(LockOut(b.now))
    b.refused(
        Draw(b.tick(), (*numbers[:19], numbers[0])), r"a draw is 20 different numbers .*15.5\(d\)2"
    )
    b.refused(Draw(b.tick(), (*numbers[:19], 81)), r"a draw is 20 different numbers")
    event = b.do(Draw(b.tick(), numbers))
    assert " ".join(map(str, numbers)) in event.effects[0].detail  # in the order selected
    assert b.system.board() == "KENO  game 1  2026-03-02\n" + " ".join(
        f"{n:2d}" for n in sorted(numbers)
    )
    b.refused(Draw(b.tick(), numbers), r"locked out first")


def test_15_5_d_2_the_draw_source_selects_without_bias() -> None:
    """The partial Fisher-Yates takes the source's values in turn: the first value picks among 80,
    the next among the 79 left; the extreme values reach the extreme numbers."""
    first = draw_numbers(FixedSource([0] * 20))
    assert first == tuple(range(1, 21))
    last = draw_numbers(FixedSource([79 - 2 * i for i in range(20)]))
    assert last == tuple(range(80, 60, -1))


def test_15_5_h_winning_numbers_kept() -> None:
    b = Booth()
    b.run_game(MISS)
    b.do(OpenDay(b.now + timedelta(days=400), DAY + timedelta(days=400)))
    assert b.system.winning_numbers(DAY, 1) == MISS
    with pytest.raises(FeltError, match="no game 2 of 2026-03-02 was drawn"):
        b.system.winning_numbers(DAY, 2)


# ----------------------------------------------------------------------------- 15.6


def test_15_6_a_paid_per_the_computed_ticket_once() -> None:
    b = Booth()
    n = b.issue({"kind": "way", "groups": [[1, 2], [3, 4], [41, 42]], "conditions": ["3/4"]})
    loser = b.issue({"numbers": [70]})
    b.refused(Redeem(b.tick(), n, 1, ANN), r"not drawn yet")
    b.run_game()
    assert b.system.tickets[n].won == {1: 11_000 + 100 + 100}  # 4 of 4, and 2 of 4 twice
    b.refused(
        Redeem(b.tick(), n, 1, ANN, method="bitcoin"),
        r"payment is by cash, gaming chips, casino check",
    )
    b.do(Redeem(b.tick(), n, 2, ANN, method="gaming chips"))
    b.refused(Redeem(b.tick(), n, 1, ANN), r"a ticket is paid once")
    b.refused(Redeem(b.tick(), loser, 1, ANN), r"did not win")
    b.refused(Redeem(b.tick(), 99, 1, ANN), r"no keno ticket 99 was issued")
    assert b.system.money()[PATRONS] == -400 + 11_200


def test_15_6_b_payouts_of_1500_or_more_authorised_by_a_supervisor() -> None:
    b = Booth()
    n = b.issue({"numbers": [1, 2, 3, 4, 5, 6]})  # catches 6 of 6: $1,600
    b.run_game()
    b.refused(
        Redeem(b.tick(), n, 1, ANN),
        r"a payout of \$1600.00 \(authorisation\) needs a keno supervisor.*15.6\(b\)",
    )
    b.refused(
        Redeem(b.tick(), n, 1, ANN, supervisor=Staff("S-9", WRITER)), r"needs a keno supervisor"
    )
    event = b.do(Redeem(b.tick(), n, 1, ANN, supervisor=SUE))
    assert "authorised by S-002" in event.effects[0].detail


def test_15_6_c_expiry_per_the_rate_card_from_the_last_game() -> None:
    b = Booth(card={"ticket_validity": "10 minutes"})
    one = b.issue({"numbers": [1]})
    multi = b.issue({"numbers": [1], "games": 2})
    b.run_game()
    started = b.system.game_start(DAY, 1)
    assert started is not None
    b.now = started + timedelta(minutes=10, seconds=1)
    b.refused(Redeem(b.now, one, 1, ANN), r"expired at .* valid for 10 minutes .*15.6\(c\)")
    b.run_game()
    b.do(Redeem(b.tick(), multi, 1, ANN))  # its time runs from the start of game 2


def test_15_6_d_yearly_total_of_expired_unclaimed_winnings() -> None:
    b = Booth(card={"ticket_validity": "30 days"})
    n = b.issue({"numbers": [1]})
    m = b.issue({"numbers": [1, 2]})
    b.run_game()
    b.do(Redeem(b.tick(), m, 1, ANN))
    later = datetime(2027, 1, 2)
    assert [s.record.number for s in b.system.expired_unclaimed(2026, later)] == [n]
    b.refused(YearEnd(later, 2026, "the house"), r"keno jackpot or Casino Revenue Fund .*15.6\(d\)")
    b.refused(YearEnd(later, 2027, "keno jackpot"), r"after the year ends")
    event = b.do(YearEnd(later, 2026, "Casino Revenue Fund"))
    assert event.effects[0].amount == 300
    assert b.system.money()["Casino Revenue Fund"] == 300
    b.refused(YearEnd(later, 2026, "keno jackpot"), r"was taken")


# ----------------------------------------------------------------------------- 15.7


def test_15_7_b_a_ticket_not_read_is_keyed_in() -> None:
    b = Booth()
    n = b.issue({"numbers": [1]})
    b.run_game()
    event = b.do(Redeem(b.tick(), n, 1, ANN, manual_entry=True))
    assert "keyed in by the writer" in event.effects[0].detail


def test_15_7_c_manual_payment_limits_while_the_system_is_down() -> None:
    b = Booth()
    small = b.issue({"numbers": [1]})
    mid = b.issue({"numbers": [1, 2, 3, 4]})  # 4 of 4: $110
    big = b.issue({"numbers": [1, 2, 3, 4, 5]})  # 5 of 5: $700
    huge = b.issue({"numbers": list(range(1, 7))})  # 6 of 6: $1,600
    b.run_game()
    b.refused(ManualPay(b.tick(), small, 1, 300, ANN), r"only while the system is not operational")
    b.do(SystemDown(b.tick()))
    b.refused(Redeem(b.tick(), small, 1, ANN), r"not operational")
    b.do(ManualPay(b.tick(), small, 1, 300, ANN))
    b.refused(ManualPay(b.tick(), mid, 1, 11_000, ANN), r"needs a keno supervisor.*15.7\(c\)2")
    b.do(ManualPay(b.tick(), mid, 1, 11_000, ANN, SUE))
    b.refused(ManualPay(b.tick(), big, 1, 60_000, ANN, SUE), r"not ticket 3's value")  # misread
    b.do(ManualPay(b.tick(), big, 1, 70_000, ANN, SUE))
    b.refused(
        ManualPay(b.tick(), huge, 1, 160_000, ANN, SUE),
        r"over \$1000.00: it may not be paid until .*15.7\(c\)3",
    )
    b.refused(ManualPay(b.tick(), small, 1, 300, ANN), r"paid once")
    up = b.do(SystemUp(b.tick()))
    assert [e.kind for e in up.effects] == ["up"]  # nothing paid by hand differs from the ticket
    b.do(Redeem(b.tick(), huge, 1, ANN, supervisor=SUE))


# ----------------------------------------------------------------------------- the record


def test_replay_equals_the_original() -> None:
    b = Booth()
    src = SeededShuffle(4)
    for i in range(5):
        b.issue(quick_pick({"quick_pick": 1 + i, "rate": "1.00"}, src))
    v = b.issue({"numbers": [80]})
    b.do(Void(b.tick(), v, 1, ANN))
    b.run_game(draw_numbers(src))
    again = b.system.replay_from_start()
    assert again.events == b.system.events
    assert again.state() == b.system.state()


def test_a_copy_is_independent() -> None:
    b = Booth()
    twin = b.system.copy()
    b.issue({"numbers": [1]})
    assert not twin.tickets
    assert twin.events != b.system.events


def test_actions_keep_time_in_order() -> None:
    b = Booth()
    b.refused(
        Issue(T0 - timedelta(seconds=1), 1, ANN, {"numbers": [1], "rate": "1"}),
        r"cannot be earlier",
    )


def test_multi_race_races_left_when_the_gaming_day_ends_are_cancelled() -> None:
    """Interpretation: a multi-race ticket plays consecutive games of one gaming day; the races
    not drawn when the day ends are cancelled, refunded, and the ticket is payable (15.4(d))."""
    b = Booth()
    n = b.issue({"numbers": [1], "games": 5})
    b.run_game()
    b.issue({"numbers": [2]})  # sold for game 2, still open
    b.refused(
        OpenDay(b.tick(), DAY + timedelta(days=1)), r"game 2 has tickets: draw it or void them"
    )
    b.do(Void(b.tick(), n + 1, 1, ANN))
    event = b.do(OpenDay(b.tick(), DAY + timedelta(days=1)))
    assert [e.kind for e in event.effects] == ["cancel", "day"]
    assert b.system.tickets[n].refund == 400  # four races at $1.00, though the card offers no
    b.open()  # refund on request (tests/test_keno_claims.py)
    b.do(Redeem(b.tick(), n, 1, ANN))
    assert b.system.tickets[n].paid == 300 + 400


def test_an_issued_request_cannot_be_changed_afterwards() -> None:
    b = Booth()
    request: dict[str, Any] = {"numbers": [1, 2, 3], "rate": "1.00"}
    event = b.do(Issue(b.tick(), 1, ANN, request))
    request["numbers"].append(4)
    assert event.action.request["numbers"] == [1, 2, 3]
    assert b.system.replay_from_start().state() == b.system.state()


def test_15_5_a_winning_numbers_selected_at_random_outside_the_core() -> None:
    """The system's CSPRNG source gives 20 different numbers of 1-80; the state machine holds no
    source of its own, so a draw is the numbers its action carries and replays exactly."""
    numbers = draw_numbers(SystemSource())
    assert len(set(numbers)) == 20
    assert all(1 <= n <= 80 for n in numbers)
    b = Booth()
    assert not any("source" in name or "random" in name for name in vars(b.system))
    b.run_game(numbers)
    assert b.system.winning_numbers(DAY, 1) == numbers


def test_15_7_c_only_a_drawn_unexpired_ticket_is_paid_by_hand() -> None:
    """A manual payment is for "a winning keno ticket" (15.7(c)): a ticket whose game is not yet
    drawn, or whose validity has run out (15.6(c)), is refused while the system is down."""
    b = Booth()
    waiting = b.issue({"numbers": [1], "games": 2})
    b.run_game()
    b.do(SystemDown(b.tick()))
    b.refused(ManualPay(b.tick(), waiting, 1, 300, ANN), r"not all drawn")
    b.do(SystemUp(b.tick()))
    winner = b.issue({"numbers": [1]})
    b.run_game()
    b.do(SystemDown(b.tick(minutes=60 * 24 * 800)))  # two years on: its year of validity is over
    b.refused(ManualPay(b.tick(), winner, 1, 300, ANN), r"expired")


class _NoWalk(dict[int, Any]):
    """A system's tickets that may be looked up and added to, but never walked."""

    def _walk(self, *args: Any) -> Any:
        raise AssertionError("every ticket ever issued was walked")

    values = items = keys = __iter__ = _walk


class _Walking(KenoSystem):
    """The oracle: the system as before issue 25, whose draw, day's end and game check walk
    every ticket it holds and pick out the ones that play (written from the rules' terms, not
    from the index)."""

    def _to_play(self) -> list[TicketState]:
        return [
            s
            for s in self.tickets.values()
            if s.record.day == self.day and not s.voided and not s.games_done
        ]

    def _sold_for(self, game: int) -> bool:
        return any(
            self._plays(s, game) and s.record.first_game == game for s in self.tickets.values()
        )


def test_a_game_touches_its_own_tickets_not_every_ticket_ever_issued() -> None:
    """Issue 25: a draw grades the tickets of its game, the day's end cancels that day's races
    left and a game's check looks at its own tickets, each kept by (day, game) as tickets are
    issued, voided, cancelled and played; the results are those of a twin system that walks."""
    booths = Booth(card={"multi_race_refund": True}), Booth(card={"multi_race_refund": True})

    def play(b: Booth, days: int) -> None:
        for _ in range(days):
            for g in range(3):
                kept = b.issue({"numbers": [1, 2, 3]})
                gone = b.issue({"numbers": [9], "games": 2})
                multi = b.issue({"numbers": [1], "games": 3 + g}, station=2)
                b.do(Void(b.tick(), gone, 1, ANN))
                if g == 1:
                    b.do(CancelRaces(b.tick(), multi, SUE, "patron asked"))
                b.run_game()
                b.do(Redeem(b.tick(), kept, 1, ANN))
            b.do(OpenDay(b.tick(), (b.system.day or DAY) + timedelta(days=1)))
            b.open()

    booths[0].system.__class__ = _Walking
    play(booths[0], 2)
    play(booths[1], 2)
    walked = booths[1].system
    walked.tickets = _NoWalk(walked.tickets)
    play(booths[0], 2)
    play(booths[1], 2)
    first, second = (b.system.events for b in booths)
    assert [e.effects for e in second] == [e.effects for e in first]
    walked.tickets = dict(dict.items(walked.tickets))  # (its own items() would refuse)
    assert walked.state() == booths[0].system.state()
    kept = walked._pending()
    walked._live = None  # the index as kept equals the index built afresh from the tickets
    assert walked._pending() == kept
    cut = [e for e in second if e.effects and e.effects[0].kind == "cancel"]
    assert len(cut) >= 4  # the day's end cut multi-race tickets short, without a walk
