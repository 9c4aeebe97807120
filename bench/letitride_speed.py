"""Let It Ride Poker's exact analysis (all 51,979,200 deals, issue 22): cold (a fresh process
on an empty felt cache, imports counted) under 2 s at the minimum table, and warm (the same
process analysing a second table: the table-free counts are kept in memory) well under that.

The peer, measured in the same run: ``bench/letitride_count.c``, an independent exact count in
C (its own five-card classifier, every deal classified: 51,979,200 hands), compiled with
``cc -O2`` here.  Both do the same job: the optimal total result over every deal at the minimum
table in units of one wager, and how many three-card hands let the first wager ride; the bench
checks they print the same numbers and prints each time and the ratio (felt's cold and warm
time over the C program's run, its compile not counted).  Run with
``./dev bench letitride_speed``.
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
from felt.games.let_it_ride.analysis import DEALS, HANDS_3, analyze
from felt.games.let_it_ride.config import LetItRideConfig
config = LetItRideConfig.from_mapping({})
sheet = analyze(config)
cold = time.perf_counter() - start
total = sheet.expected_net * DEALS
rides = sheet.ride_first * HANDS_3
start = time.perf_counter()
analyze(config, 100_00)  # the payout limit binds: a second strategy, by backward induction
warm = time.perf_counter() - start
print(f"total result {total} units; first rides on {rides} of 22100 three-card hands; "
      f"cold {cold:.3f} s; warm {warm:.3f} s")
"""
FIGURES = re.compile(r"total result (-?\d+) units; first rides on (\d+) of 22100")
TIMES = re.compile(r"cold ([\d.]+) s; warm ([\d.]+) s")
TARGET = 2.0


def child_cpu() -> float:
    """CPU seconds used so far by finished child processes (the machine may be shared: the wall
    time can be well over the work done, and this says how much)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_peer(scratch: Path) -> tuple[float, float, str]:
    """Compile and run the C peer; its wall and CPU time (the run, not the compile) and output."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise SystemExit("letitride_speed: no C compiler (cc) on PATH for the peer")
    exe = scratch / "letitride_count"
    source = Path(__file__).with_name("letitride_count.c")
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
        took, cpu, out = run_felt(env)
        figures, times = FIGURES.search(out), TIMES.search(out)
        if figures is None or times is None:
            raise SystemExit(f"letitride_speed: felt printed {out!r}")
        cold, warm = float(times.group(1)), float(times.group(2))
        print(f"felt cold (fresh process, empty caches, imports counted): {took:6.3f} s wall "
              f"(target {TARGET:g} s: {'met' if took < TARGET else 'NOT MET'}), cpu {cpu:.2f} s; "
              f"in-process {cold:.3f} s")  # fmt: skip
        print(f"felt warm (same process, a second table: $100 wagers, the payout limit binding): "
              f"{warm:6.3f} s")  # fmt: skip
        print(f"felt: {out.split(';')[0]}; {out.split(';')[1].strip()}")
        peer, peer_cpu, peer_out = run_peer(scratch)
        peer_figures = FIGURES.search(peer_out)
        print(f"peer (bench/letitride_count.c, cc -O2, every deal classified): {peer:6.3f} s "
              f"wall, cpu {peer_cpu:.2f} s; {peer_out.strip()}")  # fmt: skip
        print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        same = peer_figures is not None and peer_figures.groups() == figures.groups()
        print(f"same figures from felt and the peer: {'yes' if same else 'NO'}")
        print(f"ratio: felt cold (whole process) / peer = {took / peer:.3f}; "
              f"felt warm / peer = {warm / peer:.4f}; felt cold cpu / peer cpu = "
              f"{cpu / peer_cpu:.3f}")  # fmt: skip
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
