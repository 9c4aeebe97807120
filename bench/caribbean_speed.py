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

try:  # the table as the game loads it, once the game is registered
    from felt.games.registry import table_game
    config = table_game("caribbean_stud").config("caribbean_stud", {})
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
      f"in-process {time.perf_counter() - start:.2f} s")
"""
TOTAL = re.compile(r"total result (-?\d+) antes")
TARGETS = {"cold": 10.0, "warm": 1.0}


def run_peer(scratch: Path) -> tuple[float, str]:
    """Compile and run the C peer; its time (the run, not the compile) and its output."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise SystemExit("caribbean_speed: no C compiler (cc) on PATH for the peer")
    exe = scratch / "caribbean_count"
    source = Path(__file__).with_name("caribbean_count.c")
    subprocess.run([cc, "-O2", "-o", str(exe), str(source)], check=True)
    start = time.perf_counter()
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, out


def run_felt(env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD], check=True, env=env,
                         capture_output=True, text=True).stdout  # fmt: skip
    return time.perf_counter() - start, out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        env = dict(os.environ)
        env |= {"NUMBA_CACHE_DIR": str(scratch / "numba"), "FELT_CACHE_DIR": str(scratch / "felt")}
        times = {}
        totals = {}
        for how in ("cold", "warm"):
            took, out = run_felt(env)
            times[how] = took
            found = TOTAL.search(out)
            totals[how] = found.group(1) if found else "?"
            print(f"felt {how:<4} ({'empty caches' if how == 'cold' else 'fresh process, warm caches'}): "
                  f"{took:6.2f} s (target {TARGETS[how]:g} s: "
                  f"{'met' if took < TARGETS[how] else 'NOT MET'}); {out.strip()}")  # fmt: skip
        peer, out = run_peer(scratch)
        found = TOTAL.search(out)
        peer_total = found.group(1) if found else "?"
        print(f"peer (bench/caribbean_count.c, cc -O2, sorted lists + binary search): {peer:6.2f} s; "
              f"total result {peer_total} antes")  # fmt: skip
        same = totals["cold"] == totals["warm"] == peer_total
        print(f"same total from felt and the peer: {'yes' if same else 'NO'}")
        print(f"ratio: felt cold / peer = {times['cold'] / peer:.3f}; "
              f"felt warm / peer = {times['warm'] / peer:.4f} "
              f"(peer {peer / times['cold']:.1f}x slower than felt cold)")  # fmt: skip
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
