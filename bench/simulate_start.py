"""`felt simulate boston5 --rounds 1000` wall time in a fresh process on warm caches (target:
under 1.5 s), beside the peer measured in the same run: a fresh process that only imports what
any simulation needs (numpy and numba), the floor no start-up can go below.  Both are wall
times of whole processes, best of five.  Run with ``./dev bench simulate_start``.
"""

from __future__ import annotations

import subprocess
import sys
import time

SIMULATE = [sys.executable, "-m", "felt", "simulate", "boston5", "--rounds", "1000", "--seed", "1"]
PEER = [sys.executable, "-c", "import numpy, numba"]


def best_of(argv: list[str], runs: int = 5) -> float:
    """The shortest wall time of ``runs`` runs of a command (output discarded)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    subprocess.run(SIMULATE, check=True, stdout=subprocess.DEVNULL)  # warm every cache
    took = best_of(SIMULATE)
    peer = best_of(PEER)
    verdict = "met" if took < 1.5 else "NOT MET"
    print(f"felt simulate boston5 --rounds 1000, warm   {took:6.2f} s (target 1.5 s: {verdict})")
    print(
        f"peer: python importing numpy and numba      {peer:6.2f} s (simulate is {took / peer:.1f}x)"
    )


if __name__ == "__main__":
    main()
