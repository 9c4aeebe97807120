"""Caribbean Stud Poker's exact analysis (all 19,933,230,517,200 deals, issue 21): cold (a fresh
process on an empty felt cache and an empty numba cache, so compiling the sweep and building the
tables count) under 10 s, and warm (a fresh process on the caches the cold run left) under 1 s.

The peer, measured in the same run: ``bench/caribbean_count.c``, an independent exact count in C
(its own evaluator; sorted value lists per set of one to four cards and binary search, where felt
sweeps the hands by value), compiled with ``cc -O2`` here.  Both print the total result of the
optimal strategy over every deal in antes; the bench checks they are the same number and prints
each time and the ratio (felt's cold and warm time over the C program's).  Run with
``./dev bench caribbean_speed``.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import time
start = time.perf_counter()
from dataclasses import dataclass, field
from fractions import Fraction as F

try:  # the default table as the game's config loads it (not through the registry, which
    # imports every game)
    from felt.games.caribbean_stud.config import CaribbeanConfig
    config = CaribbeanConfig.from_mapping({})
except Exception:  # the pay table of the minimum table, by the attribute names the analysis reads
    @dataclass(frozen=True)
    class StandIn:
        bet_pays: dict = field(default_factory=lambda: {
            "royal flush": F(100), "straight flush": F(50), "four of a kind": F(20),
            "full house": F(7), "flush": F(5), "straight": F(4), "three of a kind": F(3),
            "two pair": F(2), "one pair": F(1), "ace king": F(1)})
        minimum: int = 500
        maximum: int = 50000
        payout_limit: None = None
        progressive: None = None
    config = StandIn()
from felt.games.caribbean_stud.analysis import analyze
sheet = analyze(config)
net = sheet.totals["optimal"]["net"]
print(f"total result {net} antes; {sheet.total:,} deals; "
      f"in-process {time.perf_counter() - start:.2f} s, cpu {time.process_time():.2f} s; "
      f"table: {type(config).__name__}")
"""
TOTAL = re.compile(r"total result (-?\d+) antes")
TARGETS = {"cold": 10.0, "warm": 1.0}


def child_cpu() -> float:
    """CPU seconds used so far by finished child processes (the machine may be shared: the wall
    time can be well over the work done, and this says how much)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_peer(scratch: Path) -> tuple[float, float, str]:
    """Compile and run the C peer; its wall and CPU time (the run, not the compile) and output."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise SystemExit("caribbean_speed: no C compiler (cc) on PATH for the peer")
    exe = scratch / "caribbean_count"
    source = Path(__file__).with_name("caribbean_count.c")
    subprocess.run([cc, "-O2", "-o", str(exe), str(source)], check=True)
    start, cpu = time.perf_counter(), child_cpu()
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, child_cpu() - cpu, out


def run_felt(env: dict[str, str]) -> tuple[float, float, str]:
    """The analysis in a fresh process: its wall and CPU time, and what it printed."""
    start, cpu = time.perf_counter(), child_cpu()
    out = subprocess.run([sys.executable, "-c", CHILD], check=True, env=env,
                         capture_output=True, text=True).stdout  # fmt: skip
    return time.perf_counter() - start, child_cpu() - cpu, out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        env = dict(os.environ)
        env |= {"NUMBA_CACHE_DIR": str(scratch / "numba"), "FELT_CACHE_DIR": str(scratch / "felt")}
        times = {}
        totals = {}
        for how in ("cold", "warm"):
            took, cpu, out = run_felt(env)
            times[how] = took
            found = TOTAL.search(out)
            totals[how] = found.group(1) if found else "?"
            print(f"felt {how:<4} ({'empty caches' if how == 'cold' else 'fresh process, warm caches'}): "
                  f"{took:6.2f} s (target {TARGETS[how]:g} s: "
                  f"{'met' if took < TARGETS[how] else 'NOT MET'}), cpu {cpu:.2f} s; {out.strip()}")  # fmt: skip
        peer, peer_cpu, out = run_peer(scratch)
        found = TOTAL.search(out)
        peer_total = found.group(1) if found else "?"
        print(f"peer (bench/caribbean_count.c, cc -O2, sorted lists + binary search): {peer:6.2f} s, "
              f"cpu {peer_cpu:.2f} s; total result {peer_total} antes")  # fmt: skip
        print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        same = totals["cold"] == totals["warm"] == peer_total
        print(f"same total from felt and the peer: {'yes' if same else 'NO'}")
        print(f"ratio: felt cold / peer = {times['cold'] / peer:.3f}; "
              f"felt warm / peer = {times['warm'] / peer:.4f} "
              f"(peer {peer / times['cold']:.1f}x slower than felt cold)")  # fmt: skip
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
