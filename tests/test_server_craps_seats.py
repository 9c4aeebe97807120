"""Craps wagers carried between rolls at the server (1.3, title only: a wager stays its player's
until it is decided or taken down): between two rolls a seat holding chips on the layout stays
its player's (no standing up, no one else sitting down), and a closed table rolls on, taking no
new wagers, until its layout is clear, so no chip is ever left frozen on a closed table.  Found by
review: the host had treated every seat as free once a roll settled."""

from __future__ import annotations

import asyncio
import time

import pytest

from felt.core.errors import FeltError
from felt.games.craps.actions import Bet, Roll, TakeDown
from felt.rounds.actions import NoMoreBets
from felt.server.auth import create_account
from tests.test_server_craps import Floor, floor, roll, step


def roll_between(f: Floor, d1: int, d2: int) -> None:
    """No more bets and the stickperson's roll, leaving the table between rolls (the settled roll
    in view, the next not yet opened: the host's loop opens it after ``between_rounds_seconds``)."""
    f.host.apply_now(NoMoreBets(), f.deal)
    f.host.apply_now(Roll(d1, d2), f.deal)
    assert f.host.round is not None
    assert f.host.round.finished


def test_a_player_with_chips_on_the_layout_keeps_the_seat_between_rolls_1_3(
    database_url: str,
) -> None:
    with floor(database_url) as f:
        step(f, Bet(1, "pass", 10_00), f.ann)
        roll_between(f, 2, 2)  # point 4: the pass wager is a contract wager
        with pytest.raises(FeltError, match="on the layout"):
            f.host.stand(f.ann, 1)
        f.host.stand(f.bob, 2)  # bob has nothing on the layout: he may go
        # a seat whose chips lie on the layout is no one else's, whatever the seat map says
        del f.host.seats[1]
        carl = create_account(f.store, "carl", "player", "carl-password-x")
        with pytest.raises(FeltError, match="seat 1 is taken"):
            f.host.sit(carl, 1)
        f.host.sit(carl, 2)


def test_a_closed_table_rolls_on_until_its_layout_is_clear_and_takes_no_new_wagers_1_3(
    database_url: str,
) -> None:
    with floor(database_url) as f:
        step(f, Bet(1, "pass", 10_00), f.ann)
        step(f, Bet(2, "place_6", 12_00), f.bob)
        roll(f, 2, 2)  # point 4; the place 6 is working
        f.host.set_open(False)
        assert f.host.round is not None
        assert not f.host.round.finished
        with pytest.raises(FeltError, match=r"closed.*no new wagers"):
            f.host.apply_now(Bet(1, "field", 5_00), f.ann)
        step(f, TakeDown(2, "place_6"), f.bob)  # a wager that may come down still may
        roll_between(f, 3, 5)  # an 8: nothing decided, the pass wager still on the layout
        f.host.next_round_at = 0.0
        asyncio.run(f.host._tick(time.monotonic()))  # closed, but chips lie on the layout
        assert f.host.round is not None
        assert not f.host.round.finished
        roll_between(f, 2, 2)  # the point is made: the pass wager is decided, the layout clear
        assert f.host._carries() is False
        settled = f.host.round
        asyncio.run(f.host._tick(time.monotonic()))  # closed and clear: no further roll
        assert f.host.round is settled
