"""Craps properties over random sessions (hypothesis): three players bet, take down, call on and
off and pass the dice at random (many of these refused), the shooter seat keeps a pass wager at
every come out roll, and the dice come from the strategy.  After every action and roll:

- money is conserved: every seat's wallet change, the house's and the layout's sum to zero, and
  the layout's ledger balance is the sum of the wagers on the layout (decisions.md "Money");
- a refused action changes nothing: events, ledger, statement lines, wagers, calls, views;
- replaying a roll from its origin through the game interface gives the same events and the
  same next origin (the table's state is rebuilt exactly by replay; issue 23, 3);
- no wager is decided by a roll on which it was off (1.2(a)5 "inactive"; 1.6 odds off), but an
  off odds wager returned when its flat wager is decided (outcome push/void, amount 0);
- contract wagers (a pass wager once a point is set, a come wager on its come point; 1.3) never
  leave the layout but by a decision.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from felt.core.errors import FeltError
from felt.games.craps.actions import Bet, CallOff, CallOn, PassDice, Roll, TakeDown
from felt.games.craps.config import CrapsConfig
from felt.games.craps.round import CrapsRound
from felt.games.craps.spots import SPOTS, spot
from felt.games.craps.table import CrapsTable
from felt.games.registry import table_game
from felt.rounds.actions import Action, NoMoreBets
from felt.rounds.engine import HOUSE, LAYOUT, seat_party

SHOOTER = 7
PLAYERS = (1, 2, 3)
VIEWERS = (0, *PLAYERS, SHOOTER)
SPOT_IDS = (
    "pass", "dont_pass", "come", "dont_come", "pass_odds", "dont_pass_odds", "come_4_odds",
    "come_6_odds", "come_9_odds", "dont_come_6_odds", "dont_come_10_odds", "come_6",
    "dont_come_5", "place_6", "place_4", "place_lose_8", "buy_10", "lay_5", "hard_8", "hard_4",
    "field", "any_seven", "horn", "craps_eleven",
)  # fmt: skip
AMOUNTS = (100, 400, 500, 600, 1000, 1200, 2000, 3000, 6000)
SPOT_IDS_ALL = tuple(s.id for s in SPOTS)
BY_LABEL = {s.label: s.id for s in SPOTS} | {s.id: s.id for s in SPOTS}
GAME = table_game("craps")

seats = st.sampled_from(PLAYERS)
spots = st.sampled_from(SPOT_IDS)
amounts = st.sampled_from(AMOUNTS)
actions = st.one_of(
    st.builds(lambda s, p, a: Bet(s, p, a, f"p{s}"), seats, spots, amounts),
    st.builds(TakeDown, seats, spots, st.one_of(st.none(), amounts)),
    st.builds(CallOn, seats, spots),
    st.builds(CallOff, seats, spots),
    st.builds(PassDice, seats),
)
THROWS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
dice = st.sampled_from(THROWS)
sessions = st.lists(st.tuples(st.lists(actions, max_size=6), dice), min_size=1, max_size=14)


def _state(rnd: CrapsRound) -> tuple[Any, ...]:
    """Everything a refused action must leave as it was."""
    return (
        list(rnd.events),
        list(rnd.ledger.transfers),
        list(rnd.lines),
        {n: (dict(s.wagers), dict(s.calls)) for n, s in rnd.seats.items()},
        [GAME.seat_view(rnd, v) for v in VIEWERS],
    )


def _contracts(rnd: CrapsRound) -> dict[tuple[int, str], int]:
    """The contract wagers on the layout now (1.3): pass once a point is set, come on a point."""
    out = {}
    for n, s in rnd.seats.items():
        for spot_id, amount in s.wagers.items():
            if (spot_id == "pass" and rnd.point is not None) or (
                spot_id.startswith("come_") and not spot_id.endswith("_odds")
            ):
                out[(n, spot_id)] = amount
    return out


def _works(rnd: CrapsRound, seat: int, spot_id: str) -> bool:
    """Whether a wager works on the coming roll, by the rules as decisions.md reads them: a call
    "on" or "off" rules; otherwise place and buy bets (1.2(a)5, 1.5) and the odds behind a come
    point (1.6) are off on a come out roll, and everything else works."""
    call = rnd.seats[seat].calls.get(spot_id)
    if call is not None:
        return call == "on"
    s = spot(spot_id)
    off_on_come_out = s.kind in ("place", "buy") or (s.kind == "come" and s.odds)
    return not (rnd.come_out and off_on_come_out)


WAYS = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) for t in range(2, 13)}
PROPS = {"any_seven": (7,), "any_craps": (2, 3, 12), "craps_2": (2,), "craps_3": (3,),
         "craps_12": (12,), "eleven": (11,)}  # fmt: skip


def _expected(
    config: CrapsConfig, spot_id: str, stake: int, dice: tuple[int, int], point: int | None,
    works: bool,
) -> tuple[str, int] | None:  # fmt: skip
    """(outcome, result in cents) the rules give the wager on ``spot_id`` for this throw, or None
    when it is not decided: 1.2(a)1-19 as the seed text reads, the pays of the table (1.4),
    true odds figured from the 36 throws for odds, buy and lay (1.5, 1.6); "void" stands for a
    wager returned (void or push)."""
    total, pair = sum(dice), dice[0] == dice[1]
    s = spot(spot_id)
    n = s.number if s.number is not None else point
    if s.kind in ("come", "dont_come") and s.number is None:
        n = None  # in the come area: its own first roll (1.2(a)3, 4)
    pays = config.pays
    win = lose = False
    odds = Fraction(1)
    if s.kind in ("pass", "come") and n is None:  # a come out roll, or a come bet's first
        win, lose = total in (7, 11), total in (2, 3, 12)
    elif s.kind in ("dont_pass", "dont_come") and n is None:
        if total == 12:
            return ("void", 0)
        win, lose = total in (2, 3), total in (7, 11)
    elif s.kind in ("pass", "come", "buy", "place"):
        win, lose = total == n, total == 7
        assert n is not None
        odds = {"place": pays.get(f"place_{n}", odds), "buy": Fraction(6, WAYS[n])}.get(
            s.kind, Fraction(6, WAYS[n]) if s.odds else odds
        )
    elif s.kind in ("dont_pass", "dont_come", "lay", "place_lose"):
        win, lose = total == 7, total == n
        assert n is not None
        odds = {"place_lose": pays.get(f"place_lose_{n}", odds), "lay": Fraction(WAYS[n], 6)}.get(
            s.kind, Fraction(WAYS[n], 6) if s.odds else odds
        )
    elif s.kind == "hard":
        win, lose = total == n and pair, total == 7 or (total == n and not pair)
        odds = pays[spot_id]
    elif s.kind == "field":
        win, lose = total not in (5, 6, 7, 8), total in (5, 6, 7, 8)
        odds = pays[f"field_{total}"] if total in (2, 12) else pays["field"]
    elif s.kind in PROPS:
        win, lose, odds = total in PROPS[s.kind], total not in PROPS[s.kind], pays[spot_id]
    elif s.kind == "craps_eleven":
        win, lose = total in (2, 3, 11, 12), total not in (2, 3, 11, 12)
        odds = pays["craps_eleven_eleven" if total == 11 else "craps_eleven_craps"]
    elif s.kind == "horn":
        win, lose = total in (2, 3, 11, 12), total not in (2, 3, 11, 12)
        odds = pays.get(f"horn_{total}", odds)
    if not (win or lose):
        return None
    if not works:  # off: standing wagers wait; odds whose flat wager is decided come back
        return ("void", 0) if s.odds else None
    if lose:
        return ("lose", -stake)
    amount = stake * odds
    assert amount.denominator == 1, (spot_id, stake, odds)  # payable in full (1.4)
    return ("win", int(amount))


Draw = Callable[[CrapsRound], Action | None]


def _light(rnd: CrapsRound) -> tuple[Any, ...]:
    """The record a refused action must leave as it was (the cheap part of :func:`_state`)."""
    return list(rnd.events), list(rnd.ledger.transfers)


def _try(rnd: CrapsRound, action: Action, thorough: bool = True) -> None:
    """Apply ``action``; if it is refused, nothing may have changed."""
    look = _state if thorough else _light
    state = look(rnd)
    try:
        rnd.apply(action)
    except FeltError:
        assert look(rnd) == state, action


def _allowed_agrees(rnd: CrapsRound, seat: int) -> None:
    """What ``allowed`` offers to take down or call on / off is exactly what is accepted."""
    allowed = rnd.allowed(seat)
    for kind, make in (("take_down", TakeDown), ("call_on", CallOn), ("call_off", CallOff)):
        accepted = {x for x in SPOT_IDS_ALL if rnd.can(make(seat, x))}
        assert accepted == set(allowed[kind]), (seat, kind)


def _play(
    table: CrapsTable,
    moves: list[Action],
    throw: tuple[int, int],
    stakes: list[str] | None = None,
    draw: Draw | None = None,
    thorough: bool = True,
) -> CrapsRound:
    """One roll: ``moves``, then the actions ``draw`` gives until None, with the properties held
    at every step; returns the settled round.  Each statement line whose stake is not the wager
    that lay on its spot when the dice went out is put in ``stakes`` (when given)."""
    before_snapshot = table.snapshot()
    origin = table.origin()
    rnd = table.new_round()
    assert rnd.origin_json() == origin
    carried = _contracts(rnd)
    pre: list[Action] = []
    if rnd.point is None and "pass" not in table.layout().get(SHOOTER, {}):
        pre.append(Bet(SHOOTER, "pass", 500, "sam"))
    for action in [*pre, *moves]:
        _try(rnd, action, thorough)
    while draw is not None and (drawn := draw(rnd)) is not None:
        _try(rnd, drawn, thorough)
    if thorough:
        for n in (*PLAYERS, SHOOTER):
            _allowed_agrees(rnd, n)
    # contract wagers carried into the roll are all still there, none reduced (1.3)
    for (n, spot_id), amount in carried.items():
        assert rnd.seats[n].wagers.get(spot_id, 0) >= amount, (n, spot_id)
    contracts = _contracts(rnd)
    working = {
        (n, spot_id): rnd.working(n, spot_id) for n, s in rnd.seats.items() for spot_id in s.wagers
    }
    assert working == {(n, x): _works(rnd, n, x) for n, x in working}
    lying = {(n, spot_id): a for n, s in rnd.seats.items() for spot_id, a in s.wagers.items()}
    expected = {
        key: _expected(table.config, key[1], amount, throw, rnd.point, working[key])
        for key, amount in lying.items()
    }
    rnd.apply(NoMoreBets())
    rnd.apply(Roll(*throw))
    table.finish(rnd)
    if stakes is not None:
        stakes += [
            f"roll {rnd.number} {throw}: seat {x.seat} {x.wager} stake {x.stake}, on the layout "
            f"{lying.get((x.seat, BY_LABEL[x.wager]))}"
            for x in rnd.lines
            if lying.get((x.seat, BY_LABEL[x.wager])) != x.stake
        ]

    # money: the round's ledger sums to zero over every party
    parties = {t.source for t in rnd.ledger.transfers} | {t.target for t in rnd.ledger.transfers}
    assert parties <= {HOUSE, LAYOUT, *(seat_party(n) for n in range(1, 15))}
    assert sum(rnd.ledger.balance(p) for p in parties) == 0

    # every wager settled as the rules read (1.2(a), 1.4-1.6), and only those
    got: dict[tuple[int, str], tuple[str, int] | None] = dict.fromkeys(lying)
    for line in rnd.lines:
        outcome = "void" if line.outcome == "push" else line.outcome
        got[(line.seat, BY_LABEL[line.wager])] = (outcome, line.amount)
    assert got == expected, throw

    # no wager decided while off, but odds returned with their flat wager
    decided = set()
    for line in rnd.lines:
        key = (line.seat, BY_LABEL[line.wager])
        decided.add(key)
        if not working.get(key, True):
            assert line.outcome in ("push", "void"), line
            assert line.amount == 0, line

    # contract wagers leave only by a decision
    after = table.layout()
    for (n, spot_id), amount in contracts.items():
        assert (n, spot_id) in decided or after.get(n, {}).get(spot_id, 0) >= amount

    # replay from the origin, through the game interface, rebuilds the roll and the next origin
    again = GAME.new_round(table.config, (), origin)
    for action in rnd.actions:
        again.apply(action)
    assert again.events == rnd.events
    twin = CrapsTable.from_snapshot(table.config, before_snapshot)
    assert twin.origin() == origin
    twin.finish(again)  # type: ignore[arg-type]
    assert twin.origin() == table.origin()
    return rnd


Choose = Callable[[Sequence[Any], str], Any]
"""Picks one of the options (labelled for hypothesis's report)."""


def _mover(choose: Choose, most: int = 6) -> Draw:
    """Up to ``most`` actions a roll, most of them ones the round offers now (``allowed``) with
    amounts that are often payable, some of them anything at all (mostly refused)."""
    count = [0]

    def draw(rnd: CrapsRound) -> Action | None:
        count[0] += 1
        if count[0] > most or not choose(range(6), "more"):
            return None
        seat = choose(PLAYERS, "seat")
        kind = choose(KINDS, "kind")
        offered = rnd.allowed(seat).get(kind, [])
        if kind == "wild" or (kind != "pass_dice" and not offered):
            make = choose((Bet, TakeDown, CallOn, CallOff), "wild")
            spot_id = choose(SPOT_IDS, "wild spot")
            if make is Bet:
                return Bet(seat, spot_id, choose(AMOUNTS, "amount"), f"p{seat}")
            return make(seat, spot_id)  # type: ignore[no-any-return]
        if kind == "pass_dice":
            holder = rnd.next_shooter()
            return PassDice(holder if holder in PLAYERS else seat)
        groups = [
            g
            for g in (
                [x for x in offered if x.endswith("_odds") or "pass" in x or "come" in x],
                [x for x in offered if spot(x).one_roll],
            )
            if g
        ]
        group = choose(range(len(groups) + 1), "group")
        if group < len(groups):  # odds or line, one roll, or anything offered
            offered = groups[group]
        spot_id = choose(offered, "spot")
        if kind == "bet":
            return Bet(seat, spot_id, choose(AMOUNTS, "amount"), f"p{seat}")
        if kind == "take_down":
            return TakeDown(seat, spot_id, choose((None, *AMOUNTS), "amount"))
        return (CallOn if kind == "call_on" else CallOff)(seat, spot_id)

    return draw


def _drawn(data: st.DataObject) -> Choose:
    return lambda options, label: data.draw(st.sampled_from(options), label=label)


KINDS = ("bet", "bet", "bet", "bet", "take_down", "call_on", "call_off", "pass_dice", "wild")


@settings(max_examples=60, deadline=None)
@given(st.data(), st.lists(dice, min_size=1, max_size=30))
def test_money_conserved_replay_exact_refusals_inert_off_wagers_undecided(
    data: st.DataObject, throws: list[tuple[int, int]]
) -> None:
    table = CrapsTable(CrapsConfig.from_mapping({}))
    wallets = dict.fromkeys((*PLAYERS, SHOOTER), 0)
    results = dict.fromkeys((*PLAYERS, SHOOTER), 0)
    house = layout = 0
    for throw in throws:
        rnd = _play(table, [], throw, draw=_mover(_drawn(data)))
        for n in wallets:
            wallets[n] += rnd.ledger.balance(seat_party(n))
            results[n] += sum(line.amount for line in rnd.lines if line.seat == n)
        house += rnd.ledger.balance(HOUSE)
        layout += rnd.ledger.balance(LAYOUT)
        assert sum(wallets.values()) + house + layout == 0
        assert layout == sum(sum(w.values()) for w in table.layout().values())
    # each player's wallet change plus the chips still on the layout is the sum of the results
    # on the statement lines (a take down moves chips with no line)
    for n in wallets:
        assert wallets[n] + sum(table.layout().get(n, {}).values()) == results[n]


def test_a_long_session_every_wager_settled_as_the_rules_read_1_2_a_1_4_1_6() -> None:
    """2,000 rolls of three players drawn from a seeded generator (wagers pile up on the layout
    as at a real table): every wager decided as the rules read, and money conserved throughout;
    the checks of every refusal and of allowed() are left to the hypothesis tests."""
    rng = random.Random(2026)
    table = CrapsTable(CrapsConfig.from_mapping({}))
    decided: Counter[str] = Counter()
    layout = 0
    for _ in range(2000):
        throw = rng.choice(THROWS)
        rnd = _play(table, [], throw, draw=_mover(lambda o, _: rng.choice(o), 8), thorough=False)
        layout += rnd.ledger.balance(LAYOUT)
        assert layout == sum(sum(w.values()) for w in table.layout().values())
        decided.update(spot(BY_LABEL[x.wager]).kind + ("_odds" if "Odds" in x.wager else "")
                       for x in rnd.lines)  # fmt: skip
    kinds = {"pass", "dont_pass", "come", "dont_come", "place", "place_lose", "buy", "lay", "hard",
             "field", "any_seven", "any_craps", "craps_eleven", "horn", "pass_odds",
             "dont_pass_odds", "come_odds", "dont_come_odds"}  # fmt: skip
    assert {k for k, n in decided.items() if n >= 5} >= kinds, decided


@settings(max_examples=30, deadline=None)
@given(sessions)
def test_random_actions_mostly_refused_change_nothing(
    session: list[tuple[list[Action], tuple[int, int]]],
) -> None:
    """Actions drawn blind (most refused: wrong time, spot, amount or seat)."""
    table = CrapsTable(CrapsConfig.from_mapping({}))
    for moves, throw in session:
        _play(table, moves, throw)


comes = st.one_of(
    st.builds(lambda s, a: Bet(s, "come", a, f"p{s}"), seats, st.sampled_from((500, 1000))),
    st.builds(lambda s, a: Bet(s, "dont_come", a, f"p{s}"), seats, st.sampled_from((500, 1000))),
)
come_sessions = st.lists(st.tuples(st.lists(comes, max_size=3), dice), min_size=1, max_size=14)


@settings(max_examples=60, deadline=None, derandomize=True, phases=(Phase.explicit, Phase.generate))
@given(come_sessions)
@example(
    [([], (1, 3)), ([Bet(1, "come", 1000, "a")], (2, 4)), ([Bet(1, "come", 500, "a")], (2, 4))]
)
def test_each_line_decides_the_wager_that_lay_on_its_spot_1_2_a_3_4(
    session: list[tuple[list[Action], tuple[int, int]]],
) -> None:
    """A statement line's stake is the wager that lay on its spot when the dice went out: a
    come bet is never decided by the roll that carries it to its come point."""
    table = CrapsTable(CrapsConfig.from_mapping({}))
    wrong: list[str] = []
    for moves, throw in session:
        _play(table, moves, throw, wrong)
    assert wrong == []


def test_properties_can_fail_a_refusal_that_changes_state() -> None:
    """The refusal check sees a change: a state differs once an action is applied."""
    table = CrapsTable(CrapsConfig.from_mapping({}))
    rnd = table.new_round()
    state = _state(rnd)
    rnd.apply(Bet(1, "field", 100, "ann"))
    assert _state(rnd) != state
    assert copy.deepcopy(state) == state
