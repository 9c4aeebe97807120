"""Simulating a craps table (:class:`felt.simulate.Simulation`): a whole table of players, each
seat betting by a system (:data:`SYSTEMS`: pass with full odds, don't pass with full lay odds,
place 6 and 8, the iron cross, the field, come with odds, the hardways), every roll.

A simulated "round" is one roll, as at the table (decisions.md): a block of rolls is one session
of a table that starts empty, every seat's system deciding its bets before each roll from the
public state (the point) and its own wagers.  A seat's net on a roll is what its statement lines
say (a win's winnings, a lost wager's stake, 0 for a push or a void), as the round engine's
``rnd.net(seat)``; wagers still up when a block ends are left undecided.  So the house edge a
simulation reports is the loss per roll per unit (the table minimum, ``--ante``), and the exact
figure it is set against is each system's from the par sheet (:meth:`System.exact_loss`), over
the long run of rolls (the session's first come out roll is the only transient).

The fast path (:func:`play`) is plain Python on ints: each seat's wagers a dict of spot id to
cents, no Action objects, the rules written out once more as the table deals them (1.2(a); place
and buy wagers and come odds off on a come out roll; a come wager moves to its come point on its
first roll and is decided by a later one; barred 12).  ``tests/test_craps_simulation.py`` checks
its nets against the round engine's (``CrapsTable(config, dice=FixedDice(throws))``) on the same
throws, for every system.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numpy.typing import NDArray

from felt.core.errors import FeltError
from felt.games.craps.config import CrapsConfig
from felt.games.craps.spots import NUMBERS as POINTS
from felt.games.craps.spots import TRUE_ODDS as TAKE
from felt.simulate import Simulation

if TYPE_CHECKING:
    from felt.games.base import Log, TableGame
    from felt.games.craps.analysis import CrapsSheet
    from felt.rounds.actions import Action
    from felt.simulate import Job
    from felt.simulate import Settle as SettleBlock

ONE_ROLL_WINS: Final = {
    "field": {2: "field_2", 3: "field", 4: "field", 9: "field", 10: "field", 11: "field",
              12: "field_12"},
    "any_seven": {7: "any_seven"},
    "any_craps": {2: "any_craps", 3: "any_craps", 12: "any_craps"},
    "craps_2": {2: "craps_2"}, "craps_3": {3: "craps_3"}, "craps_12": {12: "craps_12"},
    "eleven": {11: "eleven"},
    "craps_eleven": {2: "craps_eleven_craps", 3: "craps_eleven_craps", 12: "craps_eleven_craps",
                     11: "craps_eleven_eleven"},
    "horn": {2: "horn_2", 3: "horn_3", 11: "horn_11", 12: "horn_12"},
}  # fmt: skip
"""The pay-table line each total pays a one roll wager on (1.2(a)11-19); any other total loses."""
THROWS: Final = tuple((a, b) for a in range(1, 7) for b in range(1, 7))
"""The 36 throws, die 1 major: throw (d1, d2) is row 6 * d1 + d2 - 7."""
RESULTS: Final = ("ahead", "behind", "even")
"""How a seat ended a roll: won more than it lost on it, lost more, or neither (nothing decided)."""


# ------------------------------------------------------------------------------ the systems
@dataclass(frozen=True)
class Terms:
    """What a system sizes its bets by: the unit (a line or place wager), the proposition unit,
    the table's odds multiples and pays."""

    unit: int
    prop: int
    odds: Mapping[int, int]
    pays: Mapping[str, Fraction]
    sizes: dict[tuple[str, int], int] = field(default_factory=dict, compare=False, repr=False)
    """Sizes worked out once (the fast path asks for the same ones every roll)."""

    def up(self, amount: int, pays: Sequence[Fraction]) -> int:
        """``amount`` raised to a whole number of the step that pays in full at ``pays`` (1.4)."""
        step = _step(tuple(pays))
        return -(-amount // step) * step

    def take(self, number: int, flat: int) -> int:
        """Full odds behind ``flat`` on ``number``: the multiple of it, down to what pays in
        full at true odds."""
        key = (f"take_{number}", flat)
        if key not in self.sizes:
            full = self.odds[number] * flat
            self.sizes[key] = full - full % TAKE[number].denominator
        return self.sizes[key]

    def lay(self, number: int, flat: int) -> int:
        """Full lay odds behind ``flat`` on ``number``: what wins the multiple of it at true odds,
        down to what pays in full."""
        key = (f"lay_{number}", flat)
        if key not in self.sizes:
            full = int(self.odds[number] * flat * TAKE[number])
            self.sizes[key] = full - full % (1 / TAKE[number]).denominator
        return self.sizes[key]


@functools.cache
def _step(pays: tuple[Fraction, ...]) -> int:
    """The least amount in cents that pays in full at each of ``pays``."""
    return math.lcm(*(p.denominator for p in pays))


class System:
    """A player's betting system: the bets to add before a roll, from the public state (the
    ``point``, None on a come out roll) and the seat's own ``wagers`` (spot id -> cents)."""

    name: str = ""
    description: str = ""
    """What the system does, in a line."""

    def bets(self, point: int | None, wagers: Mapping[str, int], t: Terms) -> list[tuple[str, int]]:
        """(spot id, cents to add) before the coming roll."""
        raise NotImplementedError

    def exact_loss(self, t: Terms, config: CrapsConfig) -> Fraction:
        """The expected loss per roll, per unit, over the long run (from the par sheet)."""
        raise NotImplementedError


def _figures(config: CrapsConfig) -> CrapsSheet:
    from felt.games.craps.analysis import par_sheet

    return par_sheet(config)


def _on(config: CrapsConfig) -> Fraction:
    """The share of rolls with a point set: 1 - 1 / (rolls per pass decision) = 392/557."""
    return 1 - 1 / _figures(config).wager("pass").rolls


class PassOdds(System):
    """Pass on every come out roll, full odds behind it once the point is set."""

    name = "pass with full odds"
    description = "pass on each come out roll; full odds once the point is set"

    def bets(self, point: int | None, wagers: Mapping[str, int], t: Terms) -> list[tuple[str, int]]:
        if point is None:
            return [] if "pass" in wagers else [("pass", t.unit)]
        if "pass" in wagers and "pass_odds" not in wagers:
            return [("pass_odds", t.take(point, wagers["pass"]))]
        return []

    def exact_loss(self, t: Terms, config: CrapsConfig) -> Fraction:
        return Fraction(_figures(config).wager("pass").edge_per_roll)


class DontOdds(System):
    """Don't pass on every come out roll, full lay odds behind it once the point is set."""

    name = "don't pass with full lay odds"
    description = "don't pass on each come out roll; full lay odds once the point is set"

    def bets(self, point: int | None, wagers: Mapping[str, int], t: Terms) -> list[tuple[str, int]]:
        if point is None:
            return [] if "dont_pass" in wagers else [("dont_pass", t.unit)]
        if "dont_pass" in wagers and "dont_pass_odds" not in wagers:
            return [("dont_pass_odds", t.lay(point, wagers["dont_pass"]))]
        return []

    def exact_loss(self, t: Terms, config: CrapsConfig) -> Fraction:
        return Fraction(_figures(config).wager("dont_pass").edge_per_roll)


def _come_bets(
    kind: str, point: int | None, wagers: Mapping[str, int], t: Terms
) -> list[tuple[str, int]]:
    """A ``come`` or ``dont_come`` wager while a point is set, and the full odds (taken or laid)
    behind each of the seat's come points, topped up when a come wager lands on one already
    there."""
    if point is None:
        return []
    size = t.take if kind == "come" else t.lay
    out = [(kind, t.unit)]
    for n in POINTS:
        flat = wagers.get(f"{kind}_{n}")
        if flat:
            more = size(n, flat) - wagers.get(f"{kind}_{n}_odds", 0)
            if more > 0:
                out.append((f"{kind}_{n}_odds", more))
    return out


class ComeOdds(PassOdds):
    """Pass with full odds, and a come wager on every roll with a point set, full odds behind
    each come point."""

    name = "come with odds"
    description = "pass with full odds; come on every roll with a point set, full odds on each"

    def bets(self, point: int | None, wagers: Mapping[str, int], t: Terms) -> list[tuple[str, int]]:
        return super().bets(point, wagers, t) + _come_bets("come", point, wagers, t)

    def exact_loss(self, t: Terms, config: CrapsConfig) -> Fraction:
        """One line wager a roll: pass's per roll, come's per wager on each roll with a point."""
        sheet = _figures(config)
        return sheet.wager("pass").edge_per_roll + _on(config) * sheet.wager("come").edge_made


class DontComeOdds(DontOdds):
    """Don't pass with full lay odds, and a don't come wager on every roll with a point set, full
    lay odds behind each don't come point."""

    name = "don't come with lay odds"
    description = "don't pass; don't come on every roll with a point set; full lay odds on each"

    def bets(self, point: int | None, wagers: Mapping[str, int], t: Terms) -> list[tuple[str, int]]:
        return super().bets(point, wagers, t) + _come_bets("dont_come", point, wagers, t)

    def exact_loss(self, t: Terms, config: CrapsConfig) -> Fraction:
        """As :meth:`ComeOdds.exact_loss`, the wrong way."""
        sheet = _figures(config)
        on = _on(config)
        return sheet.wager("dont_pass").edge_per_roll + on * sheet.wager("dont_come").edge_made


def _spot_pays(sid: str, t: Terms) -> list[Fraction]:
    """Every odds a wager on ``sid`` can be paid at (to size it payable in full, 1.4)."""
    kind, _, number = sid.rpartition("_")
    if kind in ("buy", "lay"):
        odds = TAKE[int(number)]
        return [odds if kind == "buy" else 1 / odds]
    if sid in ONE_ROLL_WINS:
        return [t.pays[line] for line in ONE_ROLL_WINS[sid].values()]
    return [t.pays[sid]]


class Rack(System):
    """Wagers kept up (``standing``: put back whenever decided against the player, staying up
    after a win) and one roll wagers made every roll (``each_roll``), each of the unit or, for a
    hardway or a one roll wager in the centre, the proposition unit, raised to pay in full; with ``point_only``,
    bets only while a point is set."""

    def __init__(
        self,
        name: str,
        description: str,
        standing: tuple[str, ...] = (),
        each_roll: tuple[str, ...] = (),
        point_only: bool = False,
    ) -> None:
        self.name = name
        self.description = description
        self.standing = standing
        self.each_roll = each_roll
        self.point_only = point_only

    @staticmethod
    def amount(sid: str, t: Terms) -> int:
        """The unit (hardways and the centre's one roll wagers: the proposition unit), payable in
        full."""
        key = (sid, 0)
        if key not in t.sizes:
            prop = sid.startswith("hard") or (sid in ONE_ROLL_WINS and sid != "field")
            t.sizes[key] = t.up(t.prop if prop else t.unit, _spot_pays(sid, t))
        return t.sizes[key]

    def bets(self, point: int | None, wagers: Mapping[str, int], t: Terms) -> list[tuple[str, int]]:
        if self.point_only and point is None:
            return []
        out = [(sid, self.amount(sid, t)) for sid in self.standing if sid not in wagers]
        return out + [(sid, self.amount(sid, t)) for sid in self.each_roll]

    def exact_loss(self, t: Terms, config: CrapsConfig) -> Fraction:
        """Each wager's edge per roll it works times its size: a place or buy wager works on the
        rolls with a point set (off on a come out roll), as do one roll wagers made only then;
        the rest, once up, on every roll."""
        sheet, on = _figures(config), _on(config)
        loss = Fraction(0)
        for sid in (*self.standing, *self.each_roll):
            off = sid.startswith(("place_", "buy_")) and not sid.startswith("place_lose")
            share = on if off or (self.point_only and sid in self.each_roll) else Fraction(1)
            loss += sheet.wager(sid).edge_per_roll * self.amount(sid, t) * share
        return loss / t.unit


SYSTEMS: Final[tuple[System, ...]] = (
    PassOdds(),
    DontOdds(),
    Rack("place 6 and 8", "place 6 and 8 to win, kept up (off on come out rolls)",
         ("place_6", "place_8")),
    Rack("iron cross", "with a point set: place 5, 6 and 8 kept up, and the field each roll",
         ("place_5", "place_6", "place_8"), ("field",), point_only=True),
    Rack("field", "the field on every roll", each_roll=("field",)),
    ComeOdds(),
    Rack("hardways", "hard 4, 6, 8 and 10 at the proposition unit, put back up after a loss",
         ("hard_4", "hard_6", "hard_8", "hard_10")),
    DontComeOdds(),
    Rack("buy and lay", "buy 5 and 9, lay 4 and 10 at true odds, no commission (1.5), kept up",
         ("buy_5", "buy_9", "lay_4", "lay_10")),
    Rack("props and place to lose",
         "place 4 and 6 to lose kept up; any seven, horn, craps-eleven and any craps every roll",
         ("place_lose_4", "place_lose_6"), ("any_seven", "horn", "craps_eleven", "any_craps")),
)  # fmt: skip
"""The systems, seat 1 taking the first, seat 2 the second, and so on round the table (seat 1
passes with odds, so a come out roll always has a shooter with a line wager, 1.11)."""


def systems_for(seats: int) -> list[System]:
    """The system of seats 1 to ``seats``."""
    return [SYSTEMS[i % len(SYSTEMS)] for i in range(seats)]


def terms_of(config: CrapsConfig, unit: int | None = None) -> Terms:
    """The sizes the systems bet at ``unit`` (None: the table minimum)."""
    unit = config.minimum if unit is None else unit
    return Terms(unit, config.proposition_minimum, dict(config.odds), dict(config.pays))


# ------------------------------------------------------------------------------ the fast path
Decision = tuple[int, int, bool]
"""What a roll does to a wager: its net is the wager times numerator over denominator (rounded
down), and whether it leaves the layout."""
LOST: Final = (-1, 1, True)
PUSHED: Final = (0, 1, True)


def _decide(
    sid: str, d1: int, d2: int, point: int | None, pays: Mapping[str, Fraction]
) -> Decision | None:
    """One wager on the roll: (numerator, denominator, leaves the layout), the net being the
    wager times the fraction rounded down (-1/1 lost, 0/1 a push or void), or None while it
    waits."""
    total = d1 + d2
    come_out = point is None
    parts = sid.split("_")
    if parts[-1] == "odds":
        flat = "_".join(parts[:-1])
        if flat in ("pass", "dont_pass"):
            number, right, working = point, flat == "pass", True
        else:
            number, right = int(parts[-2]), parts[0] == "come"
            working = not (come_out and right)
        if number is None or total not in (7, number):
            return None
        if not working:
            return PUSHED
        odds = TAKE[number] if right else 1 / TAKE[number]
        won = (total == number) == right
        return (odds.numerator, odds.denominator, True) if won else LOST
    if sid in ("pass", "come") and (sid == "come" or come_out):
        if total in (7, 11):
            p = pays[sid]
            return p.numerator, p.denominator, True
        if total in (2, 3, 12):
            return LOST
        return None
    if sid in ("dont_pass", "dont_come") and (sid == "dont_come" or come_out):
        if total in (2, 3):
            p = pays[sid]
            return p.numerator, p.denominator, True
        if total in (7, 11):
            return LOST
        if total == 12:
            return PUSHED
        return None
    kind = sid.rsplit("_", 1)[0] if parts[-1].isdigit() else sid
    if kind in ("pass", "dont_pass", "come", "dont_come"):
        number = point if sid in ("pass", "dont_pass") else int(parts[-1])
        if total not in (7, number):
            return None
        right = kind in ("pass", "come")
        if (total == number) == right:
            p = pays[kind]
            return p.numerator, p.denominator, True
        return LOST
    if kind in ("place", "buy", "place_lose", "lay"):
        number = int(parts[-1])
        right = kind in ("place", "buy")
        if total not in (7, number) or (right and come_out):
            return None
        if (total == number) != right:
            return LOST
        p = pays[sid] if kind.startswith("place") else (TAKE[number] if right else 1 / TAKE[number])
        return p.numerator, p.denominator, False
    if kind == "hard":
        number = int(parts[-1])
        if total == number and d1 == d2:
            p = pays[sid]
            return p.numerator, p.denominator, False
        return LOST if total in (7, number) else None
    line = ONE_ROLL_WINS[sid].get(total)
    if line is None:
        return LOST
    p = pays[line]
    return p.numerator, p.denominator, True


def play(
    config: CrapsConfig,
    throws: Sequence[tuple[int, int]],
    systems: Sequence[System],
    unit: int | None = None,
    counts: NDArray[np.int64] | None = None,
) -> list[list[int]]:
    """A session from an empty table: before each of ``throws`` every seat (1, 2, ... playing
    ``systems``) adds its system's bets, then the roll settles every wager (each seat's wagers in
    the order they were made) and the come wagers move to their come points.  Each roll's net per
    seat; ``counts[seat - 1]`` counts the rolls the seat ended ahead, behind and even
    (:data:`RESULTS`)."""
    t = terms_of(config, unit)
    pays = config.pays
    rules: dict[tuple[str, int | None], list[Decision | None]] = {}
    seats: list[dict[str, int]] = [{} for _ in systems]
    point: int | None = None
    out: list[list[int]] = []
    for d1, d2 in throws:
        total = d1 + d2
        throw = 6 * d1 + d2 - 7
        nets = [0] * len(systems)
        for s, (system, wagers) in enumerate(zip(systems, seats, strict=True)):
            for sid, amount in system.bets(point, wagers, t):
                wagers[sid] = wagers.get(sid, 0) + amount
            moved: list[tuple[str, int]] = []
            for sid, stake in list(wagers.items()):
                row = rules.get((sid, point))
                if row is None:
                    row = rules[sid, point] = [_decide(sid, a, b, point, pays) for a, b in THROWS]
                decided = row[throw]
                if decided is None:
                    if sid in ("come", "dont_come"):
                        moved.append((f"{sid}_{total}", wagers.pop(sid)))
                    continue
                num, den, leaves = decided
                nets[s] += stake * num // den
                if leaves:
                    del wagers[sid]
            for sid, stake in moved:
                wagers[sid] = wagers.get(sid, 0) + stake
        if point is None:
            point = total if total in POINTS else None
        elif total in (7, point):
            point = None
        out.append(nets)
        if counts is not None:
            for s, net in enumerate(nets):
                counts[s, 0 if net > 0 else 1 if net < 0 else 2] += 1
    return out


# ------------------------------------------------------------------------------ the engine path
def engine_nets(
    config: CrapsConfig,
    throws: Sequence[tuple[int, int]],
    systems: Sequence[System],
    unit: int | None = None,
) -> list[list[int]]:
    """The same session through the round engine: a :class:`.table.CrapsTable` throwing
    ``throws`` (:class:`.dice.FixedDice`), each seat's system betting by :class:`.actions.Bet`
    before each roll from the table's point and layout; each roll's ``rnd.net`` per seat."""
    from felt.games.craps.actions import Bet
    from felt.games.craps.dice import FixedDice
    from felt.games.craps.table import CrapsTable

    t = terms_of(config, unit)
    table = CrapsTable(config, dice=FixedDice(throws))
    out = []
    for _ in throws:
        layout = table.layout()
        actions = [
            Bet(seat, sid, amount, f"player{seat}")
            for seat, system in enumerate(systems, 1)
            for sid, amount in system.bets(table.point, layout.get(seat, {}), t)
        ]
        rnd = table.roll(actions)
        out.append([rnd.net(seat) for seat in range(1, len(systems) + 1)])
    return out


# ------------------------------------------------------------------------------ felt simulate
class CrapsSimulation(Simulation):
    """A craps table for ``felt simulate``: one round is one roll, seats 1 to ``--seats`` play
    :data:`SYSTEMS` in turn at ``--ante`` (the unit), every block of rolls one session on the
    fast path; the house edge is the loss per roll per unit."""

    result_names = RESULTS

    def __init__(self, config: CrapsConfig, game: TableGame | None = None) -> None:
        if game is None:
            from felt.games.registry import table_game

            game = table_game("craps")
        super().__init__(game, config)

    def max_seats(self) -> int:
        """The table's player positions."""
        return int(self.config.seats)

    def cards_needed(self, seats: int) -> int:
        """Two dice a roll."""
        return 2

    def draws(self, seed: int, rounds: int, need: int) -> NDArray[np.uint8]:
        """``rounds`` throws of two dice (each face 1 to 6 equally likely) from the block's seed."""
        rng = np.random.default_rng(seed)
        return rng.integers(1, 7, size=(rounds, 2), dtype=np.uint8)

    def exact_edge(self, ante: int, seats: int, log: Log | None) -> Fraction | None:
        """The seats' mean exact loss per roll per unit (each system's, from the par sheet)."""
        t = terms_of(self.config, ante)
        systems = systems_for(seats)
        return sum((s.exact_loss(t, self.config) for s in systems), Fraction(0)) / len(systems)

    def fast(self, log: Log | None) -> bool:
        """Every craps table runs on the fast path."""
        return True

    def fast_path(self, job: Job) -> tuple[list[str], SettleBlock]:
        """Settlement of a block of throws by :func:`play`; outcome lines: the systems."""
        systems = systems_for(job.seats)
        names = [s.name for s in SYSTEMS]
        line = [names.index(s.name) for s in systems]

        def settle(throws: NDArray[np.uint8], cells: NDArray[np.int64]) -> NDArray[np.int64]:
            counts = np.zeros((len(systems), len(RESULTS)), dtype=np.int64)
            nets = play(self.config, [(int(a), int(b)) for a, b in throws], systems, job.ante,
                        counts)  # fmt: skip
            for s, i in enumerate(line):
                cells[0, i, : len(RESULTS)] += counts[s]
            return np.array(nets, dtype=np.int64).reshape(len(throws), len(systems))

        return names, settle

    def wagers(self, seat: int, ante: int) -> list[Action]:
        """The base wager: ``ante`` on the pass line (made only on a come out roll; a round
        asked for it while a point is set refuses it)."""
        from felt.games.craps.actions import Bet

        return [Bet(seat, "pass", ante)]

    def play_round(self, deck: Any, seats: int, ante: int, strategy: Any) -> list[int]:
        """Craps carries its layout from roll to roll: no roll stands alone as a round of cards
        (the engine is checked against the fast path in the tests and ``bench/craps_simulate``)."""
        raise FeltError(
            "craps simulates on its fast path (a session of rolls); --engine is not offered: "
            "the round engine is compared with it on the same throws in bench/craps_simulate.py"
        )

    def json_extra(
        self, cells: NDArray[np.int64], seat_rounds: int, counted: bool
    ) -> dict[str, Any]:
        """Each seat's system, and each system's exact loss per roll per unit."""
        t = terms_of(self.config)
        return {
            "unit": "one roll; house edge = loss per roll per unit (the table minimum)",
            "systems": {s.name: {"description": s.description,
                                 "exact_loss_per_roll": float(s.exact_loss(t, self.config))}
                        for s in SYSTEMS},
        }  # fmt: skip
