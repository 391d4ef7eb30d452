"""Progress of a long command, on stderr: a Rich bar (with its ETA) when stderr
is a terminal, plain lines elsewhere (cron, nohup, a log file), nothing with
``--no-progress``.

The plain lines come only once the work has run for :attr:`Progress.FIRST`
seconds, then every :attr:`Progress.EVERY` seconds, so a short run prints
nothing::

    shengji report: 40/101 hands (40%), 12 s elapsed, about 18 s left

One :class:`Progress` serves every command: ``start(total)`` (the total may
grow with :meth:`Progress.add_total` as inputs are read), ``advance(n)``,
``stop()``; it is also the ``progress`` that :func:`analyzer.lint.lint_paths`
takes (in bytes). Rich is imported only for a bar that is shown.
"""

from __future__ import annotations

import sys
import time
from typing import IO, Any


class Progress:
    """Progress in ``unit`` (``hands``, ``bytes``…) of the work ``label`` names."""

    #: seconds before the first plain line, and between two of them
    FIRST = 2.0
    EVERY = 10.0
    #: a terminal's bar appears only after this many seconds (short runs show none)
    BAR_AFTER = 0.5

    def __init__(self, label: str, unit: str, *, enabled: bool = True, stream: IO[str] | None = None,
                 min_total: int = 0, clock: Any = time.monotonic) -> None:
        self.label = label
        self.unit = unit
        self.enabled = enabled
        self._stream = stream
        self.min_total = min_total
        self._clock = clock
        self.total = 0
        self.done = 0
        self._started: float | None = None
        self._next_line = 0.0
        self._bar: Any = None
        self._task: Any = None
        self._tty: bool | None = None

    # -- the work -------------------------------------------------------------------------------

    @property
    def stream(self) -> IO[str]:
        return self._stream if self._stream is not None else sys.stderr

    def start(self, total: int = 0) -> None:
        self.total = max(0, total)
        self.done = 0
        self._started = self._clock()
        self._next_line = self._started + self.FIRST
        try:
            self._tty = bool(self.stream.isatty())
        except (AttributeError, ValueError, OSError):
            self._tty = False

    def add_total(self, n: int) -> None:
        """More work became known (the hands of the next record read)."""
        if self._started is None:
            self.start(0)
        self.total += n
        if self._bar is not None:
            self._bar.update(self._task, total=self.total)

    def advance(self, n: int = 1) -> None:
        if self._started is None:
            self.start(0)
        self.done += n
        if not self.enabled or self.total < self.min_total:
            return
        now = self._clock()
        if self._tty:
            if self._bar is None and now - self._started >= self.BAR_AFTER:
                self._open_bar()
            if self._bar is not None:
                self._bar.update(self._task, completed=self.done, total=max(self.total, self.done))
        elif now >= self._next_line:
            self._next_line = now + self.EVERY
            self._line(now)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    # -- the two faces -------------------------------------------------------------------------

    def line(self, now: float | None = None) -> str:
        """``shengji report: 40/101 hands (40%), 12 s elapsed, about 18 s left``."""
        now = self._clock() if now is None else now
        elapsed = now - (self._started if self._started is not None else now)
        if self.unit == "bytes":
            done = f"{_size(self.done)}/{_size(self.total)}" if self.total else _size(self.done)
        else:
            done = f"{self.done}/{self.total} {self.unit}" if self.total else f"{self.done} {self.unit}"
        text = f"{self.label}: {done}"
        if self.total and self.done <= self.total:
            text += f" ({100 * self.done // self.total}%)"
        text += f", {elapsed:.0f} s elapsed"
        if self.total and 0 < self.done < self.total and elapsed > 0:
            left = elapsed * (self.total - self.done) / self.done
            text += f", about {left:.0f} s left"
        return text

    def _line(self, now: float) -> None:
        try:
            self.stream.write(self.line(now) + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False

    def _open_bar(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        count = DownloadColumn() if self.unit == "bytes" else MofNCompleteColumn()
        columns = [TextColumn(self.label), BarColumn(), count]
        if self.unit != "bytes":
            columns.append(TextColumn(self.unit))
        columns += [TimeElapsedColumn(), TimeRemainingColumn()]
        self._bar = Progress(*columns, console=Console(file=self.stream), transient=True)
        self._bar.start()
        self._task = self._bar.add_task(self.label, total=max(self.total, self.done), completed=self.done)


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"  # pragma: no cover


__all__ = ["Progress"]
