"""Shared test set-up: a table cache of the test run's own, and hypothesis settings."""

from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import settings

os.environ.setdefault("FELT_CACHE_DIR", os.path.join(tempfile.gettempdir(), "felt-test-cache"))
# argon2id at its least cost for the accounts and log-ins of the tests (and of the felt serve
# processes they start, which inherit it): at the real cost each hash took 0.2-0.7 s of the two
# cores, 2-3 s of each server test's set-up.  FELT_TEST_WEAK_HASHES=0 runs the suite at the real
# cost; tests/test_server_access.py's parallel guesses get checks as slow as real ones either way.
os.environ.setdefault("FELT_TEST_WEAK_HASHES", "1")

# No per-example deadline: the first example of a run may build the tables or compile a kernel.
settings.register_profile("felt", deadline=None, max_examples=200)
settings.load_profile("felt")

from tests.server_helpers import CRASH_SUMMARIES, database_url  # noqa: E402,F401 - the shared server fixture
from tests.web_helpers import BROWSER_FIGURES  # noqa: E402


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Show the crash campaigns' counts and the browser figures at the end of every run,
    whatever the output capture."""
    summaries = config.stash.get(CRASH_SUMMARIES, [])
    if summaries:
        terminalreporter.section("crash campaigns (tests/test_server_crash.py)")
    for summary in summaries:
        terminalreporter.write_line(summary)
    figures = config.stash.get(BROWSER_FIGURES, [])
    if figures:
        terminalreporter.section("browser screens (tests/test_web.py)")
    for line in figures:
        terminalreporter.write_line(line)
