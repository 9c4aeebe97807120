"""The server's pause figures (felt.server.pauses): garbage-collection pauses and group COMMITs
counted, bucketed and the long ones kept with their time, for ``GET /api/stats``."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from felt.server.pauses import (
    GC_PAUSES,
    HEAP,
    KEEP,
    SWEEP,
    SWEEP_SECONDS,
    YOUNG,
    Pauses,
    _gc_callback,
    gc_thresholds,
    settle_heap,
    watch_gc,
)


def test_pauses_are_counted_in_their_buckets_and_the_long_ones_kept() -> None:
    p = Pauses()
    before = time.time()
    for seconds in (0.0005, 0.003, 0.012, 0.25, 2.0):
        p.add(seconds, label=7)
    r = p.reading()
    assert r["count"] == 5
    assert r["longest_ms"] == 2000.0
    assert abs(r["total_ms"] - 2265.5) < 0.1
    assert r["buckets_ms"] == {"1": 1, "2": 0, "5": 1, "10": 0, "20": 1, "50": 0, "100": 0,
                               "200": 0, "500": 1, "1000": 0, "more": 1}  # fmt: skip
    assert [ms for _, ms, _ in r["recent"]] == [12.0, 250.0, 2000.0]  # 10 ms and over
    assert all(before <= at <= time.time() and label == 7 for at, _, label in r["recent"])


def test_only_the_latest_long_pauses_are_kept() -> None:
    p = Pauses()
    for i in range(KEEP + 5):
        p.add(0.010 + i / 1000)
    kept = [ms for _, ms, _ in p.reading()["recent"]]
    assert len(kept) == KEEP
    assert kept[-1] == 10 + KEEP + 4


def test_every_collection_is_timed_once_watched() -> None:
    watch_gc()
    watch_gc()  # once: not two callbacks
    gc.disable()  # no automatic collection (another thread's) between the two readings
    try:
        before = GC_PAUSES.count
        gc.collect()
        assert GC_PAUSES.count == before + 1
    finally:
        gc.enable()


@contextmanager
def settled(every: float = 3600.0) -> Iterator[None]:
    """:func:`settle_heap` for one test (its keeper's thread idle unless ``every`` is short),
    then the collector as it was."""
    kept = gc.get_threshold()
    try:
        settle_heap(2000, every)
        yield
    finally:
        HEAP.stop()
        HEAP.sweeping = False
        HEAP.sweep_seconds = SWEEP_SECONDS
        gc.unfreeze()
        gc.set_threshold(*kept)


def test_settling_the_heap_freezes_start_up_and_leaves_young_collections_to_bursts() -> None:
    with settled():
        assert gc.get_freeze_count() > 0  # start-up's objects out of the collector's sight
        # the keeper's half-second full collection is the rhythm (a young one only in a burst);
        # full collections are no rarer with the tables
        assert gc.get_threshold() == (YOUNG, 10, 10)
        assert YOUNG > 700
        assert gc_thresholds(5) == gc_thresholds(2000)
        settle_heap(2000, 3600.0)
        assert gc.callbacks.count(_gc_callback) == 1
        assert [t.name for t in threading.enumerate()].count("felt-gc") == 1
    assert "felt-gc" not in [t.name for t in threading.enumerate()]  # stopped: its thread ended


class _Node:
    """A cycle's member, for the collector to find."""

    def __init__(self) -> None:
        self.other: _Node | None = None


def test_a_full_collection_freezes_what_survives_it() -> None:
    with settled():
        kept = [_Node() for _ in range(100)]
        assert any(o is kept for o in gc.get_objects())
        freezes = HEAP.freezes
        gc.collect()
        assert HEAP.freezes > freezes
        assert not any(o is kept for o in gc.get_objects())  # frozen: not examined again
        del kept[:]  # a frozen object is still freed by its last reference


def test_the_keeper_runs_full_collections_on_its_own() -> None:
    with settled(every=0.01):
        freezes, end = HEAP.freezes, time.monotonic() + 10
        while HEAP.freezes < freezes + 2 and time.monotonic() < end:
            time.sleep(0.01)
        assert HEAP.freezes >= freezes + 2


def test_a_frozen_cycle_is_collected_by_the_next_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    labels: list[int] = []
    monkeypatch.setattr(GC_PAUSES, "add", lambda seconds, label=0: labels.append(label))
    with settled(every=0.01):
        HEAP.sweep_seconds = 3600.0
        a, b = _Node(), _Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        gc.collect()  # a and b survive, and are frozen
        del a, b
        gc.collect()
        assert gone() is not None  # a frozen cycle is not examined...
        sweeps, end = HEAP.sweeps, time.monotonic() + 10
        HEAP.sweep_seconds = 0.0  # ...until the keeper's next sweep
        while HEAP.sweeps == sweeps and time.monotonic() < end:
            time.sleep(0.01)
        assert gone() is None
        assert gc.get_freeze_count() > 0  # the sweep's survivors frozen again
        assert SWEEP in labels  # its pause told apart from the keeper's other collections
