"""What holds the server's answers up besides its own work: garbage-collection pauses and the
group commits' COMMIT (its fsync), each timed and counted for ``GET /api/stats`` and the load
benchmark.  Also the garbage collector's set-up at ``felt serve``'s start (:func:`settle_heap`)."""

from __future__ import annotations

import bisect
import gc
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
"""This process's garbage-collection pauses (label: the generation collected), once
:func:`watch_gc` has run."""

_started: list[float] = [0.0]


def _gc_callback(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _started[0] = time.perf_counter()
    else:
        GC_PAUSES.add(time.perf_counter() - _started[0], info["generation"])


def watch_gc() -> None:
    """Time every garbage collection of this process into :data:`GC_PAUSES` (once)."""
    if _gc_callback not in gc.callbacks:
        gc.callbacks.append(_gc_callback)


TABLES_PER_OLD_ROUND: Final = 20
"""Full collections are let through once in ``tables / 20`` generation-1 collections (at least
CPython's 10).  After the freeze a full collection examines what the tables made since start-up
(their rounds in play), so its pause grows with the tables; made that much rarer, the share of
the time it takes stays about the same and few actions meet one.  The young generations keep
CPython's thresholds: their pauses stay under a millisecond whatever the tables (a young
threshold of 10 objects a table, tried first, made generation-1 pauses of 200 ms to 1.8 s at
2,000 tables)."""


def gc_thresholds(tables: int) -> tuple[int, int, int]:
    """The collector's thresholds for a process holding ``tables`` tables."""
    return 700, 10, max(10, tables // TABLES_PER_OLD_ROUND)


def settle_heap(tables: int) -> None:
    """Once the tables are loaded: move every object alive now (modules, compiled statements,
    the loaded tables) out of the collector's sight (``gc.freeze``), so a full collection
    examines only what came since; and set the thresholds for ``tables``
    (:func:`gc_thresholds`).  Frozen objects are never collected: start-up's few unreachable
    ones stay, which costs less than the full collection that would find them (it would hold
    up every restart, and the crash campaigns count restarts)."""
    gc.freeze()
    gc.set_threshold(*gc_thresholds(tables))
