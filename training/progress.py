"""Progress lines for every phase of a training run, and the run folder's log that keeps them.

A phase (recording games, imitation epochs, PPO steps, evaluation games)
reports with :class:`Progress`: ``[recording] swish: 1200/40000 games, 35 s,
about 19 min left``, at its start, then at most every ``every`` seconds, and
at its end; the estimate is the time so far scaled by what is left.
:func:`tee_log` copies everything a run prints into ``train.log`` in its
folder, so that a run left alone can be read afterwards.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

EVERY = 30.0  # seconds between two progress lines of a phase


def duration(seconds: float) -> str:
    """``45 s``, ``3 min 20 s``, ``1 h 05 min``: a duration as people read it."""
    seconds = max(0.0, float(seconds))
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes, rest = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {rest:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class Progress:
    """One phase's progress: ``update(done)`` prints a line with the time spent and an estimate of what is left.

    ``phase``: the tag (``recording``, ``imitation``, ``ppo``, ``evaluation``); ``what``: the subject (the
    game); ``total`` units (``unit``: "games", "steps", ...). Lines go to ``print`` (so to the run's log),
    the first at once, then at most every ``every`` seconds (default :data:`EVERY`), and the last when ``done``
    reaches ``total``.
    """

    def __init__(
        self, phase: str, what: str, total: int, unit: str, every: float | None = None, start: int = 0,
        announce: bool = True, clock: Callable[[], float] = time.monotonic,
    ) -> None:  # fmt: skip
        self.phase, self.what, self.total, self.unit = phase, what, int(total), unit
        self.every = EVERY if every is None else every
        self.clock, self.start, self.printed = clock, int(start), announce
        self.started = self.last = clock()
        self.done = self.start
        if announce:
            self.line(self.start, "")

    def update(self, done: int, extra: str = "") -> None:
        """``done`` units so far (``extra``: more to say on the line, e.g. a loss); a line if it is time.

        Without ``announce`` a phase prints only once it has run ``every`` seconds (then its end too): a
        short phase says nothing but its own result."""
        self.done = int(done)
        now = self.clock()
        if (self.done >= self.total and self.printed) or now - self.last >= self.every:
            self.last, self.printed = now, True
            self.line(self.done, extra)

    def line(self, done: int, extra: str) -> str:
        """Print (and return) the line for ``done`` units (``start`` of them were done before this process)."""
        spent = self.clock() - self.started
        if done >= self.total:
            left = "done"
        elif done > self.start:
            left = f"about {duration(spent * (self.total - done) / (done - self.start))} left"
        else:
            left = "estimate after the first ones"
        text = f"[{self.phase}] {self.what}: {done}/{self.total} {self.unit}, {duration(spent)}, {left}"
        text += f"; {extra}" if extra else ""
        print(text, flush=True)
        return text


class _Tee:
    """A text stream writing to ``stream`` and to ``log``."""

    def __init__(self, stream: TextIO, log: TextIO) -> None:
        self.stream, self.log = stream, log

    def write(self, text: str) -> int:
        self.log.write(text)
        self.log.flush()
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()
        self.log.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.stream, attribute)


@contextlib.contextmanager
def tee_log(path: Path) -> Iterator[Path]:
    """Everything printed to stdout and stderr inside the block also goes to ``path`` (appended)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as log:
        out, err = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = _Tee(out, log), _Tee(err, log)
        try:
            yield path
        finally:
            sys.stdout, sys.stderr = out, err


__all__ = ["EVERY", "Progress", "duration", "tee_log"]
