"""The server's pause figures (felt.server.pauses): garbage-collection pauses and group COMMITs
counted, bucketed and the long ones kept with their time, for ``GET /api/stats``."""

from __future__ import annotations

import gc
import time

from felt.server.pauses import GC_PAUSES, KEEP, Pauses, gc_thresholds, settle_heap, watch_gc


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


def test_settling_the_heap_freezes_start_up_and_scales_the_old_threshold() -> None:
    kept = gc.get_threshold()
    try:
        settle_heap(2000)
        assert gc.get_freeze_count() > 0  # start-up's objects out of the collector's sight
        assert gc.get_threshold() == (700, 10, 100)  # full collections rarer as tables grow
        assert gc_thresholds(5) == (700, 10, 10)  # never below CPython's own
    finally:
        gc.unfreeze()
        gc.set_threshold(*kept)
