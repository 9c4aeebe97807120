"""The poker room's conduct rules: N.J.A.C. 19:47-14.16 Conduct of players and 19:47-14.17 Minimum
and maximum wagers, with suspicious-pattern reports over constructed hand records."""

from __future__ import annotations

import pytest

from felt.core.errors import FeltError
from felt.games.poker.conduct import (
    PostedLimits,
    chip_dumping,
    raise_minimum,
    remove_player,
    soft_play,
)
from felt.games.poker.history import Action, HandRecord, SeatRecord


def test_removal_record_14_16_b() -> None:
    """14.16(b): the player leaves; why, by whom, when, Commission and Division notified."""
    r = remove_player(
        4, "eve", "signalling to seat 5", "floor: kim", 99.0, notified_commission=True
    )
    assert (r.seat, r.player, r.reason, r.by, r.at) == (
        4,
        "eve",
        "signalling to seat 5",
        "floor: kim",
        99.0,
    )
    assert (r.notified_commission, r.notified_division) == (True, False)
    with pytest.raises(FeltError, match="needs the player, the reason"):
        remove_player(4, "eve", " ", "floor: kim", 99.0)


def test_posted_limits_sign_with_max_raises_14_17() -> None:
    """14.17: the sign shows the minimum and maximum and any limit on raises per betting round."""
    assert PostedLimits(200, 400, 3).sign("T1") == (
        "T1: minimum wager $2.00, maximum wager $4.00; at most 3 raises per betting round"
    )
    assert PostedLimits(100, 10000).sign("T2").endswith("no limit on raises")
    with pytest.raises(FeltError, match="minimum <= maximum"):
        PostedLimits(500, 400)


def test_unanimous_agreement_raises_minimum_14_17() -> None:
    """14.17: "if all patrons at a poker table agree to increase the minimum wager": every seated
    player, recorded with who and when; one missing refuses it."""
    limits = PostedLimits(200, 400, 3)
    seated = ["ann", "bob", "cat"]
    with pytest.raises(FeltError, match=r"missing \['cat'\]"):
        raise_minimum(limits, 300, seated, ["ann", "bob"], 10.0)
    with pytest.raises(FeltError, match="not seated"):
        raise_minimum(limits, 300, seated, [*seated, "zed"], 10.0)
    with pytest.raises(FeltError, match="at most the maximum"):
        raise_minimum(limits, 500, seated, seated, 10.0)
    new, agreement = raise_minimum(limits, 300, seated, reversed(seated), 10.0)
    assert new == PostedLimits(300, 400, 3)
    assert agreement.players == ("ann", "bob", "cat")
    assert (agreement.at, agreement.old_minimum, agreement.new_minimum) == (10.0, 200, 300)


def _hand(number: int, names: tuple[str, ...], actions: tuple[Action, ...]) -> HandRecord:
    """A hand with blinds 50/100 on the first two seats (stacks not checked by the reports)."""
    seats = tuple(SeatRecord(i + 1, n, 10000, 10000) for i, n in enumerate(names))
    return HandRecord("T1", number, 0.0, 1.0, "holdem", "no", seats, actions, blinds=(50, 100))


def test_chip_dumping_folds_to_same_raiser_after_chips_in_14_16_a() -> None:
    """14.16(a): ann (big blind, chips in) folds to bob's raise in 3 hands: flagged at 3, not 4."""
    dump = _hand(1, ("bob", "ann"), (Action(1, "cbr", 250), Action(2, "f")))
    hands = [dump, _hand(2, ("bob", "ann"), dump.actions), _hand(3, ("bob", "ann"), dump.actions)]
    (pattern,) = chip_dumping(hands, 3)
    assert (pattern.kind, pattern.players, pattern.count) == ("chip dumping", ("ann", "bob"), 3)
    assert pattern.hands == (("T1", 1), ("T1", 2), ("T1", 3))
    assert chip_dumping(hands, 4) == ()


def test_fold_without_chips_in_is_not_dumping_14_16_a() -> None:
    """A player with nothing in the pot (no blind, no bet) who folds to a raise passes no chips."""
    clean = _hand(1, ("bob", "cat", "ann"), (Action(3, "f"), Action(1, "cbr", 250), Action(2, "f")))
    hands = [
        clean,
        _hand(2, ("bob", "cat", "ann"), (Action(1, "cbr", 250), Action(3, "f"), Action(2, "f"))),
    ]
    # cat (big blind) folds to bob twice; ann, who folds to bob once, never had chips in.
    assert [p.players for p in chip_dumping(hands, 1)] == [("cat", "bob")]


def test_soft_play_heads_up_never_bet_14_16_a() -> None:
    """14.16(a): ann and bob heads-up in 3 hands (cat folded first in one), never a bet or raise:
    flagged at 3; a single raise between them in any of those hands clears them."""
    check_down = (
        Action(1, "cc", 50),
        Action(2, "cc"),
        Action(1, "cc", 0, 1),
        Action(2, "cc", 0, 1),
    )
    three = (Action(3, "f"), *check_down)
    hands = [
        _hand(1, ("ann", "bob"), check_down),
        _hand(2, ("ann", "bob"), check_down),
        _hand(3, ("ann", "bob", "cat"), three),
    ]
    (pattern,) = soft_play(hands, 3)
    assert (pattern.kind, pattern.players, pattern.count) == ("soft play", ("ann", "bob"), 3)
    assert soft_play(hands, 4) == ()
    raised = _hand(4, ("ann", "bob"), (Action(1, "cbr", 250), Action(2, "cc", 200)))
    assert soft_play([*hands, raised], 3) == ()
