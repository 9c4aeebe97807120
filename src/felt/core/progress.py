"""A progress bar with the time left, for long work run from a terminal (the cold Boston 7 count).

It draws on one line of standard error and only when that is a terminal, so output, logs and
tests stay clean; the time left is the elapsed time scaled by what remains.

>>> import io
>>> bar = Progress("counting", io.StringIO())  # not a terminal: draws nothing
>>> bar.fraction(0.5); bar.stream.getvalue()
''
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

WIDTH = 30
"""Characters of the bar itself."""


def clock_text(seconds: float) -> str:
    """A duration as ``m:ss`` (``h:mm:ss`` from an hour).

    >>> clock_text(75.4), clock_text(3725)
    ('1:15', '1:02:05')
    """
    whole = int(seconds + 0.5)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """``label [#####.....]  50%  1:02 left`` redrawn in place on ``stream`` (standard error by
    default) when it is a terminal; nothing otherwise.  Redraws at most every ``every`` seconds
    (and at the end); safe to call from worker threads."""

    def __init__(
        self,
        label: str,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        every: float = 0.25,
    ) -> None:
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.clock = clock
        self.every = every
        self.start = clock()
        self.drawn = -float("inf")
        self.ended = False
        self.width = 0
        """The longest line drawn, so a shorter one covers it."""
        self.lock = threading.Lock()
        self.shown = self._is_terminal()

    def _is_terminal(self) -> bool:
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError):  # a closed or odd stream: no bar
            return False

    def fraction(self, done: float) -> None:
        """The work is ``done`` (0 to 1) complete: redraw, and end the line at 1."""
        if not self.shown:
            return
        with self.lock:
            if self.ended:
                return
            now = self.clock()
            finished = done >= 1
            if not finished and now - self.drawn < self.every:
                return
            self.drawn = now
            text = self.line(min(max(done, 0.0), 1.0), now - self.start)
            self.width = max(self.width, len(text))
            self.stream.write("\r" + text.ljust(self.width))
            if finished:
                self.stream.write("\n")
                self.ended = True
            self.stream.flush()

    def steps(self, start: float, share: float, count: int) -> Callable[[], None]:
        """A callback for one part of the work: ``count`` equal steps that take it from
        ``start`` to ``start + share``; each call is one step done (from any thread)."""
        taken = [0]
        lock = threading.Lock()

        def step() -> None:
            with lock:
                taken[0] += 1
                done = start + share * min(taken[0], count) / count
            self.fraction(done)

        return step

    def line(self, done: float, elapsed: float) -> str:
        """The bar at ``done`` after ``elapsed`` seconds."""
        filled = int(WIDTH * done)
        bar = "#" * filled + "." * (WIDTH - filled)
        if done >= 1:
            when = f"done in {clock_text(elapsed)}"
        elif done > 0:
            when = f"{clock_text(elapsed * (1 - done) / done)} left"
        else:
            when = "time left not known yet"
        return f"{self.label} [{bar}] {done * 100:3.0f}%  {when}"
