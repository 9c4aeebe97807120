"""Simulation of table games: rounds dealt from seeded decks and played with the suggested
strategy, on a game's compiled fast path or through its round engine, and the observed house
edge against the exact one.

Rounds are split into fixed blocks of :data:`BLOCK` rounds; block ``b`` draws its decks from a
generator seeded by a digest of ``(seed, b)``.  Totals are integer sums over blocks, so the same
seed gives the same result whatever the number of workers or machines: local processes by
default, or a Dask cluster (``scheduler``).

What is particular to a game is its :class:`Simulation` (``Game.simulation``): how many cards a
round takes and where the deal begins, the wagers and the choices of the engine path, and
optionally a fast path that deals each round exactly as the engine does and settles by the same
pay rules (each game's tests check the two against each other on the same decks).  A game with
no fast path plays every round through its round engine.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import math
import multiprocessing
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Final

import numpy as np
from numpy.typing import NDArray

from felt.core._jit import jit
from felt.core.cards import ALL_CARDS, Card
from felt.core.errors import FeltError, excerpt

if TYPE_CHECKING:
    from felt.analysis.parsheet import Outcome, ParSheet
    from felt.games.base import Log, TableGame
    from felt.rounds.actions import Action
    from felt.rounds.round_core import RoundCore

BLOCK = 1 << 14
"""Rounds per block: the unit of work and of seeding."""


def block_seed(seed: int, block: int) -> int:
    """The generator seed of one block: a digest of the run's seed and the block number."""
    digest = hashlib.sha256(f"felt-simulate:{seed}:{block}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


@jit
def deal_decks(
    seed: int, rounds: int, need: int
) -> NDArray[np.uint8]:  # pragma: no cover - compiled
    """The first ``need`` cards of ``rounds`` shuffled decks (partial Fisher-Yates, unbiased)."""
    np.random.seed(seed)
    out = np.empty((rounds, need), dtype=np.uint8)
    deck = np.arange(52, dtype=np.uint8)
    for r in range(rounds):
        for i in range(need):
            j = i + np.random.randint(0, 52 - i)
            deck[i], deck[j] = deck[j], deck[i]
            out[r, i] = deck[i]
    return out


def exact_sum_of_squares(values: NDArray[np.int64]) -> int:
    """Sum of squares of int64 values as an exact Python int (an int64 sum would overflow at
    large wagers); a round's nets take few distinct values, so this groups them first.

    >>> exact_sum_of_squares(np.array([3_000_000_000, -3_000_000_000, 3_000_000_000]))
    27000000000000000000
    """
    distinct, counts = np.unique(values, return_counts=True)
    return sum(int(v) * int(v) * int(c) for v, c in zip(distinct, counts, strict=True))


@dataclass
class Tally:
    """Integer sums over simulated rounds; adding two tallies is exact and order-free."""

    rounds: int = 0
    seat_rounds: int = 0
    total: int = 0
    """Sum of every seat's net, in cents."""
    total_sq: int = 0
    """Sum over rounds of the square of the round's total net (for the confidence interval)."""
    cells: NDArray[np.int64] = field(default_factory=lambda: np.zeros((1, 1, 4), dtype=np.int64))
    checkpoints: list[tuple[int, int]] = field(default_factory=list)
    """(rounds, total) after each block, for the convergence plot."""

    def add(self, other: Tally) -> Tally:
        """The sum of two tallies."""
        return Tally(
            self.rounds + other.rounds,
            self.seat_rounds + other.seat_rounds,
            self.total + other.total,
            self.total_sq + other.total_sq,
            self.cells + other.cells,
            self.checkpoints + other.checkpoints,
        )


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to simulate blocks (picklable)."""

    config: Any
    """The table's configuration (its game is found from it, see :func:`simulation_of`)."""
    ante: int
    seats: int
    seed: int
    rounds: int
    plan: bytes | None = None
    """What the parent decided once for every worker from the exact analysis (such as raise or
    fold for every starting hand), so no worker has to compute it; None lets the game compute it
    where needed."""


Settle = Callable[[NDArray[np.uint8], NDArray[np.int64]], NDArray[np.int64]]
"""A fast path's settlement of a block of decks: each seat's net per round, counting outcomes
into the cells given."""


class Simulation:
    """One game's part in simulating a table of ``config``: the game's own
    ``felt/games/<game>/simulation.py`` subclasses this where it has a fast path or needs its own
    wagers and choices; the base plays every round through the round engine.

    A fast path's outcome cells have shape (1, lines, 4): per outcome line (:meth:`fast_path`'s
    names), the columns :attr:`result_names`, and in ``cells[0, 0, 3]`` the hands folded."""

    result_names: ClassVar[tuple[str, ...]] = ()
    """What the columns of a fast path's outcome cells count."""

    def __init__(self, game: TableGame, config: Any) -> None:
        self.game = game
        self.config = config

    # ------------------------------------------------------------------ the table and the deal
    def max_seats(self) -> int:
        """The most seats (betting areas) a simulation may play."""
        return self.game.seat_count(self.config)

    def cards_needed(self, seats: int) -> int:
        """Cards a round's deal takes from the deck with ``seats`` seats, drawn for both paths so
        they play the same decks (the whole deck unless the game says less)."""
        return len(ALL_CARDS)

    def deal_start(self) -> int:
        """Where in the deck the deal begins (past a cut, for instance)."""
        return 0

    def draws(self, seed: int, rounds: int, need: int) -> NDArray[np.uint8]:
        """What the fast path plays a block of ``rounds`` on, from the block's ``seed``: the first
        ``need`` cards of shuffled decks; a dice game draws its throws instead."""
        return deal_decks(seed, rounds, need)

    # ------------------------------------------------------------------ exact figures and plan
    def plan(self, ante: int, log: Log | None) -> bytes | None:
        """What every worker plays by, decided once in the parent (see :attr:`Job.plan`)."""
        return None

    def exact_edge(self, ante: int, seats: int, log: Log | None) -> Fraction | None:
        """The exact house edge per base wager the simulation should approach with ``seats``
        seats, or None when the exact analysis does not give it."""
        return None

    def exact_frequencies(
        self, ante: int, seats: int, log: Log | None
    ) -> dict[str, Fraction] | None:
        """The exact probability, per seat and round, of each outcome cell the fast path
        counts (keyed ``"line / result"`` as :meth:`SimResult.to_json` names them, and
        :data:`FOLDS`), or None when the exact analysis does not give them for this play."""
        return None

    # ------------------------------------------------------------------ the fast path
    def fast(self, log: Log | None) -> bool:
        """Whether this table runs on the game's fast path (preparing what local workers will
        read, such as a decision table in the disk cache); when it cannot, ``log`` hears why."""
        return False

    def fast_path(self, job: Job) -> tuple[list[str], Settle]:
        """The fast path's outcome line names and settlement for ``job``."""
        raise FeltError(f"{self.game.family} has no fast simulation path")

    # ------------------------------------------------------------------ the engine path
    def strategy(self, job: Job) -> Any:
        """What :meth:`choose` decides by for ``job`` (from its plan), None for the suggested
        play."""
        return None

    def new_round(self, deck: tuple[Card, ...]) -> RoundCore:
        """A round of the table on ``deck``."""
        return self.game.new_round(self.config, deck, {})

    def wagers(self, seat: int, ante: int) -> list[Action]:
        """The actions that place the base wager ``ante`` (and what must go with it) at
        ``seat``."""
        raise FeltError(f"{self.game.family} does not say how to place a simulated wager")

    def choose(self, rnd: RoundCore, seat: int, election: str, strategy: Any) -> Action:
        """The play on ``election`` pending at ``seat``: the game's suggested play."""
        return self.game.suggest(rnd, seat, election)

    def play_round(self, deck: tuple[Card, ...], seats: int, ante: int, strategy: Any) -> list[int]:
        """One round on ``deck`` through the round engine: ``ante`` at seats 1 to ``seats``,
        each election answered by :meth:`choose`, the dealer's steps in between; each seat's net,
        seat 1 first."""
        rnd = self.new_round(deck)
        for seat in range(1, seats + 1):
            for action in self.wagers(seat, ante):
                rnd.apply(action)
        while not rnd.finished:
            if rnd.advance() is not None:  # the dealer moves on until players must act
                continue
            pending = rnd.pending()
            if not pending:
                raise FeltError(f"{self.game.family}: a simulated round stopped unfinished")
            seat, election = pending[0]
            rnd.apply(self.choose(rnd, seat, election, strategy))
        return [rnd.net(seat) for seat in range(1, seats + 1)]

    # ------------------------------------------------------------------ reporting
    def json_extra(
        self, cells: NDArray[np.int64], seat_rounds: int, counted: bool
    ) -> dict[str, Any]:
        """Figures of the game's own in :meth:`SimResult.to_json` (``cells``: the outcome cells
        of one table, ``counted`` False on the engine path, which counts none)."""
        return {}


FOLDS: Final = "folds"
"""The outcome of a seat that folded (counted in ``cells[0, 0, 3]``)."""


def sheet_frequencies(sheet: ParSheet, key: Callable[[Outcome], str]) -> dict[str, Fraction]:
    """Exact probabilities of the outcome cells, from a par sheet's outcomes (``key`` names the
    cell an outcome falls in; outcomes sharing a cell are added)."""
    out: dict[str, Fraction] = {}
    for outcome in sheet.outcomes:
        name = key(outcome)
        out[name] = out.get(name, Fraction(0)) + sheet.probability(outcome)
    return out


def frequencies_text(frequencies: dict[str, Fraction]) -> str:
    """Exact frequencies as JSON text (``"n/d"`` values), as a disk cache keeps them."""
    return json.dumps({k: f"{v.numerator}/{v.denominator}" for k, v in frequencies.items()})


def frequencies_of(stored: NDArray[Any]) -> dict[str, Fraction] | None:
    """Cached exact frequencies (:func:`frequencies_text`), or None when they do not read as
    probabilities summing to 1."""
    try:
        raw = json.loads(str(stored))
        out = {str(k): Fraction(str(v)) for k, v in raw.items()}
    except (ValueError, ZeroDivisionError, AttributeError, TypeError):
        return None
    if sum(out.values()) != 1 or any(not 0 <= v <= 1 for v in out.values()):
        return None
    return out


def simulation_of(config: Any) -> Simulation:
    """The simulation of the game whose configuration ``config`` is (found in the registry)."""
    from felt.games.registry import game_of_config

    return game_of_config(config).simulation(config)


def exact_edge_of(stored: NDArray[Any]) -> Fraction | None:
    """A cached exact edge (a fraction's text), or None when it does not read as one."""
    try:
        return Fraction(str(stored))
    except (ValueError, ZeroDivisionError):
        return None


def _fast_path(job: Job) -> tuple[int, list[str], Settle]:
    """What a job's fast path needs: cards dealt per deck, outcome line names, settlement."""
    sim = simulation_of(job.config)
    names, settle = sim.fast_path(job)
    return sim.cards_needed(job.seats), names, settle


def cards_needed(config: Any, seats: int) -> int:
    """Cards a round's deal takes at a table of ``config`` with ``seats`` seats."""
    return simulation_of(config).cards_needed(seats)


def run_blocks(
    job: Job, blocks: Sequence[int], progress: Callable[[int, int], None] | None = None
) -> Tally:
    """Simulate the given blocks of a job on the compiled fast path (what each worker runs)."""
    need, names, settle = _fast_path(job)
    draws = simulation_of(job.config).draws
    tally = Tally(cells=np.zeros((1, len(names), 4), dtype=np.int64))
    for b in blocks:
        count = min(BLOCK, job.rounds - b * BLOCK)
        nets = settle(draws(block_seed(job.seed, b), count, need), tally.cells)
        per_round = nets.sum(axis=1)
        block_total = int(per_round.sum())
        tally.rounds += count
        tally.seat_rounds += count * job.seats
        tally.total += block_total
        tally.total_sq += exact_sum_of_squares(per_round)
        tally.checkpoints.append((b, block_total))
        if progress is not None:
            progress(len(tally.checkpoints), len(blocks))
    return tally


@dataclass(frozen=True)
class SimResult:
    """A simulation's observed figures beside the exact ones."""

    job: Job
    tally: Tally
    names: list[str]
    exact_edge: Fraction | None
    exact_frequencies: dict[str, Fraction] | None = None
    """Each outcome cell's exact probability per seat and round, where the game gives them."""

    def counts(self) -> dict[str, int]:
        """How many seat-rounds ended in each outcome cell (``"line / result"``, then
        :data:`FOLDS`), in the order of the lines and results; empty on the engine path, which
        counts no outcomes.  They sum to the seat-rounds played."""
        if self.names == ["(engine path)"]:
            return {}
        cells = self.tally.cells[0]
        results = simulation_of(self.job.config).result_names
        out = {
            f"{name} / {result}": int(cells[i, j])
            for i, name in enumerate(self.names)
            for j, result in enumerate(results)
        }
        out[FOLDS] = int(cells[0, 3])
        return out

    def frequency_rows(self) -> list[tuple[str, int, float, Fraction | None, float | None]]:
        """(outcome, count, observed frequency, exact probability or None, deviation in
        standard errors or None) for each outcome observed or possible, in cell order.  The
        standard error is the binomial one over seat-rounds, sqrt(p (1 - p) / n): exact for one
        seat, approximate for several (they share the dealer's cards)."""
        n = self.tally.seat_rounds
        exact = self.exact_frequencies or {}
        rows = []
        for name, count in self.counts().items():
            p = exact.get(name)
            if not count and not p:
                continue
            observed = count / n
            deviation = None
            if p is not None and 0 < p < 1:
                deviation = (observed - float(p)) / math.sqrt(float(p * (1 - p)) / n)
            rows.append((name, count, observed, p, deviation))
        return rows

    @property
    def house_edge(self) -> float:
        """Observed house edge per ante."""
        return -self.tally.total / (self.tally.seat_rounds * self.job.ante)

    @property
    def half_width(self) -> float | None:
        """Half-width of the 95% confidence interval of the house edge per ante (per-round totals
        are the independent samples: seats at one table share the dealer's hand); None with
        fewer than two rounds, where no interval exists.  The sample variance is exact integer
        arithmetic, (n * sum x^2 - (sum x)^2) / (n (n - 1)), so no size of wager overflows it.
        """
        n = self.tally.rounds
        if n < 2:
            return None
        var = Fraction(n * self.tally.total_sq - self.tally.total**2, n * (n - 1))
        return 1.959964 * math.sqrt(float(var) / n) / (self.job.seats * self.job.ante)

    def to_json(self) -> dict[str, Any]:
        """Observed against exact."""
        config = self.job.config
        sim = simulation_of(config)
        cells = self.tally.cells[0]
        seat_rounds = self.tally.seat_rounds
        results = sim.result_names
        freq = {
            f"{name} / {result}": cells[i, j] / seat_rounds
            for i, name in enumerate(self.names)
            for j, result in enumerate(results)
            if cells[i, j]
        }
        exact = self.exact_edge
        half = self.half_width
        counted = self.names != ["(engine path)"]
        extra = sim.json_extra(cells, seat_rounds, counted)
        return {
            "game": sim.game.config_game(config),
            "edition": sim.game.config_edition(config),
            "rounds": self.tally.rounds,
            "seats": self.job.seats,
            "seed": self.job.seed,
            "house_edge": self.house_edge,
            "ci95": None if half is None else [self.house_edge - half, self.house_edge + half],
            "exact_house_edge": None if exact is None else float(exact),
            "exact_house_edge_exact": None
            if exact is None
            else f"{exact.numerator}/{exact.denominator}",
            "within_ci": None
            if exact is None or half is None
            else abs(self.house_edge - float(exact)) <= half,
            "folds": int(cells[0, 3]) / seat_rounds,
            **extra,
            "frequencies": freq,
            "counts": {k: v for k, v in self.counts().items() if v} or None,
            "exact_frequencies": None
            if self.exact_frequencies is None
            else {
                k: {"exact": f"{v.numerator}/{v.denominator}", "decimal": float(v)}
                for k, v in self.exact_frequencies.items()
            },
        }


def _full_deck(start: int, dealt: NDArray[np.uint8]) -> tuple[Card, ...]:
    """A whole deck whose cards from ``start`` on are ``dealt``, the rest in card order (cards
    the deal never reaches: their order never matters)."""
    given = [Card(int(c)) for c in dealt]
    seen = set(given)
    rest = [c for c in ALL_CARDS if c not in seen]
    return (*rest[:start], *given, *rest[start:])


def run_engine_blocks(
    job: Job, blocks: Sequence[int], progress: Callable[[int, int], None] | None = None
) -> Tally:
    """Simulate blocks through the real round engine (any game; slow, the reference)."""
    sim = simulation_of(job.config)
    strategy = sim.strategy(job)
    need, start = sim.cards_needed(job.seats), sim.deal_start()
    tally = Tally(cells=np.zeros((1, 1, 4), dtype=np.int64))
    for b in blocks:
        count = min(BLOCK, job.rounds - b * BLOCK)
        decks = deal_decks(block_seed(job.seed, b), count, need)
        block_total = 0
        for row in decks:
            net = sum(sim.play_round(_full_deck(start, row), job.seats, job.ante, strategy))
            block_total += net
            tally.total_sq += net * net
        tally.rounds += count
        tally.seat_rounds += count * job.seats
        tally.total += block_total
        tally.checkpoints.append((b, block_total))
        if progress is not None:
            progress(len(tally.checkpoints), len(blocks))
    return tally


def simulate(
    config: Any,
    rounds: int,
    *,
    seats: int = 1,
    seed: int = 0,
    workers: int = 1,
    ante: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: bool = False,
    log: Callable[[str], None] | None = None,
) -> SimResult:
    """Simulate ``rounds`` rounds at a table of ``config`` (any registered table game's) with the
    suggested (where the exact analysis gives it, optimal) strategy.

    A game runs on its compiled fast path unless ``engine``, or unless it has none or the table
    is one the fast path cannot play (``log`` hears why).  The exact edge comes from the game's
    exact analysis (``log`` hears of long work such as a first count), where it applies to the
    strategy played.
    """
    sim = simulation_of(config)
    max_seats = sim.max_seats()
    if rounds < 1 or not 1 <= seats <= max_seats or workers < 1:
        raise FeltError(
            f"--rounds must be at least 1, --seats 1 to {max_seats}, --workers at least 1"
        )
    base = config.minimum if ante is None else ante
    if not config.minimum <= base <= config.maximum:
        raise FeltError(f"--ante {base / 100:.2f} is outside the table limits")
    with contextlib.ExitStack() as stack:
        client = stack.enter_context(_connect(scheduler)) if scheduler is not None else None
        return _simulate(sim, rounds, base, seats, seed, workers, client, progress, engine, log)


def _simulate(
    sim: Simulation,
    rounds: int,
    base: int,
    seats: int,
    seed: int,
    workers: int,
    client: Any,
    progress: Callable[[int, int], None] | None,
    engine: bool,
    log: Callable[[str], None] | None,
) -> SimResult:
    """:func:`simulate` once its arguments are checked (and the Dask client, if any, connected)."""
    job = Job(sim.config, base, seats, seed, rounds, sim.plan(base, log))
    fast = not engine and sim.fast(log)
    runner = run_blocks if fast else run_engine_blocks
    blocks = list(range(math.ceil(rounds / BLOCK)))
    chunks = [blocks[i :: max(1, workers)] for i in range(max(1, workers))]
    chunks = [c for c in chunks if c]
    parts: list[Tally]
    if client is not None:
        futures = client.map(runner, [job] * len(chunks), chunks, pure=False)
        parts = client.gather(futures)
    elif workers == 1:
        parts = [runner(job, blocks, progress)]
    else:
        parts = _run_pool(runner, job, blocks, workers, progress)
    tally = parts[0]
    for part in parts[1:]:
        tally = tally.add(part)
    tally.checkpoints.sort()
    exact = sim.exact_edge(base, seats, log)
    names = sim.fast_path(job)[0] if fast else ["(engine path)"]
    frequencies = sim.exact_frequencies(base, seats, log) if fast else None
    return SimResult(job, tally, names, exact, frequencies)


def _run_pool(
    runner: Callable[[Job, Sequence[int], Callable[[int, int], None] | None], Tally],
    job: Job,
    blocks: list[int],
    workers: int,
    progress: Callable[[int, int], None] | None,
) -> list[Tally]:
    """Blocks across local processes, a few at a time so progress shows as each task finishes
    (tallies add exactly in any order, so the result is the same as one process's).

    Start-up is paid here once, not once per worker: one round is run in this process first,
    which loads what the workers need (numba's registries, the game's compiled kernels from
    their cache, the tables: about a second), and on Linux the workers are forked from this
    process, so each starts with all of it loaded (``bench/simulate_start.py``: a worker's
    start-up went from 1.9 s to 1.3 ms).  Fork is Python 3.11's default on Linux already; it is
    named so that it stays so when the default changes (3.14).  It is safe while no other thread
    holds a lock as the workers are forked, and felt starts none here: no numba kernel is
    parallel, and a Dask client is never made on this path.
    """
    context = multiprocessing.get_context("fork") if sys.platform == "linux" else None
    if context is not None:  # a spawned worker starts afresh whatever this process loaded
        runner(dataclasses.replace(job, rounds=1), [0], None)  # the result is not kept
    size = max(1, len(blocks) // (workers * 16))
    tasks = [blocks[i : i + size] for i in range(0, len(blocks), size)]
    parts: list[Tally] = []
    done = 0
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(runner, job, task, None) for task in tasks]
        for future in as_completed(futures):
            parts.append(future.result())
            done += len(parts[-1].checkpoints)
            if progress is not None:
                progress(done, len(blocks))
    return parts


SCHEDULER_CONNECT_SECONDS: Final = 5
"""How long ``--scheduler`` waits to reach the Dask scheduler before giving up with an error."""


def _connect(address: str) -> Any:
    """A Dask client on the scheduler at ``address``; one clear error, within a few seconds,
    when the address is malformed or nothing answers there."""
    if len(address) > 200 or not address.isprintable():
        raise FeltError(
            "--scheduler must be a scheduler address such as tcp://host:8786, "
            f"got {excerpt(address)}"
        )
    try:
        from distributed import Client
    except ImportError:
        raise FeltError(
            "--scheduler needs the Dask cluster packages, which ./dev felt leaves out: "
            "./dev test installs them, or .venv/bin/pip install -c constraints.txt -e '.[cluster]'"
        ) from None
    try:
        return Client(address, timeout=f"{SCHEDULER_CONNECT_SECONDS}s")
    except (OSError, TimeoutError) as err:
        raise FeltError(
            f"--scheduler: no Dask scheduler answered at {excerpt(address)} within "
            f"{SCHEDULER_CONNECT_SECONDS} s ({type(err).__name__}); start one with "
            "'dask scheduler' or leave --scheduler out to run here"
        ) from None
    except (ValueError, TypeError) as err:
        raise FeltError(
            f"--scheduler must be a scheduler address such as tcp://host:8786, got "
            f"{excerpt(address)} ({excerpt(str(err), 60)})"
        ) from None


def engine_nets(
    config: Any,
    decks: NDArray[np.uint8],
    seats: int,
    strategy: Any = None,
    ante: int | None = None,
) -> NDArray[np.int64]:
    """Each seat's net on each deck through the real round engine (the reference for the fast
    paths), at ``ante`` (default: the table minimum), choosing by ``strategy`` (the game's, see
    :meth:`Simulation.strategy`; None: its default)."""
    sim = simulation_of(config)
    out = np.zeros((len(decks), seats), dtype=np.int64)
    ante = config.minimum if ante is None else ante
    start = sim.deal_start()
    for r, top in enumerate(decks):
        out[r] = sim.play_round(_full_deck(start, top), seats, ante, strategy)
    return out


def progress_bar(done: int, total: int) -> None:
    """A one-line progress bar on standard error, when it is a terminal."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} blocks")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
