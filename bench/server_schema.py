"""The schema fuzz of tests/test_server_schema.py run larger: schemathesis against felt's own
OpenAPI schema, in process, as a supervisor, a player and a cashier, on SQLite and PostgreSQL,
with ``--examples`` examples per operation, role, path and generation mode (default 8, the size
the test run used before issue 25; the test run uses 4).

Prints the campaign's wall time beside the peer measured in the same run: the same test at the
test run's own size, so the ratio says what the larger campaign costs over CI's.  The campaign
fails (exit 1) if any request finds a server error or an answer the schema does not document.
Run with ``./dev bench server_schema [--examples N]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST = "tests/test_server_schema.py::test_schemathesis_finds_no_server_error"


def campaign(examples: int) -> tuple[float, int]:
    """Wall seconds and pytest's exit status of the fuzz at ``examples``, both databases."""
    env = {**os.environ, "FELT_SCHEMA_EXAMPLES": str(examples)}
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", TEST]
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, check=False)
    return time.perf_counter() - start, done.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--examples", type=int, default=8, help="examples per case (8)")
    args = parser.parse_args(argv)
    if args.examples < 1:
        parser.error("--examples must be at least 1")
    ci, ci_status = campaign(4)
    full, status = campaign(args.examples)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"schema fuzz at {args.examples} examples: {full:.1f} s wall, "
          f"{'no failure' if status == 0 else 'FAILED'}; peer: the test run's 4 examples "
          f"{ci:.1f} s ({'no failure' if ci_status == 0 else 'FAILED'}); "
          f"{full / ci:.2f}x; load {load}")  # fmt: skip
    return 0 if status == ci_status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
