"""What holds the server's answers up besides its own work: garbage-collection pauses and the
group commits' COMMIT (its fsync), each timed and counted for ``GET /api/stats`` and the load
benchmark.  Also the garbage collector's set-up at ``felt serve``'s start and its heap keeper
(:func:`settle_heap`)."""

from __future__ import annotations

import bisect
import gc
import threading
import time
from typing import Any, Final

BOUNDS_MS: Final = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
"""The upper bounds (ms) of the buckets pauses are counted in; the last bucket is unbounded."""
LONG_MS: Final = 10.0
"""A pause at least this long is kept with the time it ended (the latest :data:`KEEP`)."""
KEEP: Final = 1000


class Pauses:
    """Durations of one kind of pause: how many, their total, how many fell in each bucket of
    :data:`BOUNDS_MS`, the longest, and the latest long ones with when they ended (so a reader
    can take the longest of a window from two readings).

    One writer at a time (a collection, or the committer holding the group's turn) and no lock:
    a garbage-collection callback must not wait on a lock its own thread may hold.  Readers copy;
    a reading taken while a pause is added may miss that pause."""

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.longest = 0.0
        self.buckets = [0] * (len(BOUNDS_MS) + 1)
        self.recent: list[tuple[float, float, int]] = []
        """(Unix time the pause ended, its ms, a label: the generation for a collection)."""

    def add(self, seconds: float, label: int = 0) -> None:
        """Count one pause of ``seconds``."""
        ms = seconds * 1000
        self.count += 1
        self.total += ms
        self.longest = max(self.longest, ms)
        self.buckets[bisect.bisect_left(BOUNDS_MS, ms)] += 1
        if ms >= LONG_MS:  # a new list, swapped in whole: a reader never sees one half-made
            self.recent = [*self.recent[-(KEEP - 1) :], (time.time(), round(ms, 2), label)]

    def reading(self) -> dict[str, Any]:
        """The figures so far, JSON-ready (ms)."""
        return {
            "count": self.count,
            "total_ms": round(self.total, 1),
            "longest_ms": round(self.longest, 2),
            "buckets_ms": dict(
                zip([*map(str, BOUNDS_MS), "more"], list(self.buckets), strict=True)
            ),
            "recent": [list(r) for r in self.recent],
        }


GC_PAUSES: Final = Pauses()
"""This process's garbage-collection pauses (label: the generation collected, or
:data:`SWEEP`), once :func:`watch_gc` has run."""
SWEEP: Final = 3
"""The label of a sweep's pause in :data:`GC_PAUSES`: a full collection that examined the
frozen heap too (:class:`Heap`)."""

_started: list[float] = [0.0]


def _gc_callback(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _started[0] = time.perf_counter()
        return
    generation = info["generation"]
    full = generation == 2 and HEAP.on
    label = SWEEP if full and HEAP.sweeping else generation
    GC_PAUSES.add(time.perf_counter() - _started[0], label)
    if full:
        HEAP.full_ended()


def watch_gc() -> None:
    """Time every garbage collection of this process into :data:`GC_PAUSES`, and let the heap
    keeper (:class:`Heap`) see each full one end (once)."""
    if _gc_callback not in gc.callbacks:
        gc.callbacks.append(_gc_callback)


FULL_SECONDS: Final = 0.5
"""How often the heap keeper (:class:`Heap`) runs a full collection."""
SWEEP_SECONDS: Final = 600.0
"""How often the heap keeper lets every frozen object back into the collector's sight for one
full collection (a sweep)."""


class Heap:
    """The heap keeper, once :func:`settle_heap` has run: a thread of its own runs a full
    collection every :data:`FULL_SECONDS`, and every full collection's survivors are frozen
    (``gc.freeze``) as it ends.  So a full collection examines only what the process made and
    kept since the last one (half a second of play), never the tables' rounds in play again;
    and young collections stay small, as each full collection empties the young generations
    (CPython's own rhythm counts allocations net of frees: with rounds ending as fast as they
    start, a young collection at 2,000 tables found 20,000 objects and took up to 110 ms).

    A frozen object is still freed when its last reference goes; only a cycle among frozen
    objects is not collected (the collector never examines it).  So every
    :data:`SWEEP_SECONDS` the keeper unfreezes everything before its collection (a sweep: one
    long pause, start-up's heap included), which collects every cycle that became garbage
    meanwhile, start-up's own unreachable objects included; its survivors are frozen again.
    A cycle is collected at most about :data:`SWEEP_SECONDS` after it became garbage."""

    def __init__(self) -> None:
        self.on = False
        self.every = FULL_SECONDS
        self.sweep_seconds = SWEEP_SECONDS
        self.sweeping = False
        """Everything was unfrozen: the next full collection is a sweep."""
        self.last_sweep = 0.0
        self.sweeps = 0
        self.freezes = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, every: float) -> None:
        """Freeze each full collection's survivors from now on, and run one every ``every``
        seconds on the keeper's thread (once)."""
        self.every = every
        self.last_sweep = time.monotonic()
        self.on = True
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="felt-gc", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the keeper (its thread ends) and freeze nothing more."""
        self.on = False
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            if time.monotonic() - self.last_sweep >= self.sweep_seconds:
                self.sweeping = True
                gc.unfreeze()
            gc.collect()

    def full_ended(self) -> None:
        """At the end of any full collection (the keeper's or CPython's): freeze what
        survived it."""
        gc.freeze()
        self.freezes += 1
        if self.sweeping:
            self.sweeping = False
            self.sweeps += 1
            self.last_sweep = time.monotonic()


HEAP: Final = Heap()
"""This process's heap keeper (off until :func:`settle_heap`)."""


def gc_thresholds(tables: int) -> tuple[int, int, int]:
    """The collector's thresholds for a process holding ``tables`` tables: a young collection
    once :data:`YOUNG` more objects are kept than freed, then CPython's own (10, 10).  The heap
    keeper's full collection every half second (:class:`Heap`) is the collector's rhythm: it
    empties the young generations, so between two of its runs a young collection comes only in
    a burst.  At CPython's 700 one came every few actions and took 7.3% of a flat-out server's
    time, against 1.4% for every collection at 10,000 (``bench/server_load.py``, docs/design.md).
    The thresholds do not grow with the tables: the keeper's full collections examine only what
    came since the last one (a full collection let through once in ``tables / 20`` young ones
    examined every round in play: 300 to 400 ms at 2,000 tables)."""
    del tables
    return YOUNG, 10, 10


YOUNG: Final = 10_000
"""Objects kept net of those freed that start a young collection (CPython's default: 700)."""


def settle_heap(tables: int, every: float = FULL_SECONDS) -> None:
    """Once the tables are loaded: move every object alive now (modules, compiled statements,
    the loaded tables) out of the collector's sight (``gc.freeze``), set the thresholds for
    ``tables`` (:func:`gc_thresholds`) and start the heap keeper with a full collection every
    ``every`` seconds (:class:`Heap`)."""
    gc.freeze()
    gc.set_threshold(*gc_thresholds(tables))
    watch_gc()
    HEAP.start(every)
