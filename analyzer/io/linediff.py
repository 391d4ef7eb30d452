"""A unified diff in linear time and bounded memory, for ``fmt --diff`` (issue 35).

:func:`difflib.unified_diff` looks for the longest matching block of the whole
files, then again on each side of it: on a file of a million lines it ran for
more than twenty minutes, holding both files. Here the lines are walked once,
from two iterators: equal lines are passed over, and at the first difference
the walk looks ahead (at most :data:`WINDOW` lines on each side) for the
nearest place where both files agree again for :data:`SYNC` lines; only the few
lines in between go through :class:`difflib.SequenceMatcher`. A difference with
no such place within the window is diffed a window at a time. So the time is
linear in the files' length (a window's square at most per window), and what a
formatter changes — lines rewritten here and there — gives the same hunks, byte
for byte, as :func:`difflib.unified_diff` (tests/cli/test_fmt_diff.py compares
them).

Memory: the walk holds the window (about ``WINDOW + SYNC`` lines a side, read
ahead) and the hunk being built; a hunk is printed as soon as it closes (an
equal stretch longer than twice the context, or the end), and a hunk larger
than :data:`SPILL` characters (a file rewritten throughout: one hunk) is kept
in a temporary file, not in memory."""

from __future__ import annotations

import difflib
import tempfile
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import IO

#: how far (in lines, on each side) the walk looks for the files to agree again
WINDOW = 400
#: how many equal lines in a row make the files agree again
SYNC = 3
#: lines read at a time while the files agree
CHUNK = 1024
#: characters of a hunk kept in memory; more go to a temporary file
SPILL = 4 << 20


class _Lines:
    """The lines of an iterator from a position on, read ahead on demand; the
    lines before the walk's position are let go (a few at a time)."""

    __slots__ = ("it", "buf", "base", "done")

    def __init__(self, lines: Iterable[str]) -> None:
        self.it = iter(lines)
        self.buf: list[str] = []
        self.base = 0      # the index (in the file) of buf[0]
        self.done = False  # the iterator is spent: base + len(buf) is the file's length

    def fill(self, upto: int) -> None:
        """Read until the line before ``upto`` is held (or the lines end)."""
        missing = upto - self.base - len(self.buf)
        if missing > 0 and not self.done:
            got = list(islice(self.it, missing))
            self.buf += got
            if len(got) < missing:
                self.done = True

    def window(self, start: int, size: int) -> tuple[list[str], int]:
        """The lines ``start .. start+size`` (fewer at the end) and the number of
        lines left from ``start`` (``size`` or more when the file goes on)."""
        self.fill(start + size)
        k = start - self.base
        left = len(self.buf) - k
        return self.buf[k:k + size], left if self.done else left + 1

    def drop(self, before: int) -> None:
        """Let go of the lines before ``before`` (when they are many: amortised)."""
        k = before - self.base
        if k >= CHUNK and 2 * k >= len(self.buf):
            del self.buf[:k]
            self.base = before

    def rest(self, start: int) -> Iterator[list[str]]:
        """The lines from ``start`` to the end, a chunk at a time."""
        while True:
            self.fill(start + CHUNK)
            k = start - self.base
            got = self.buf[k:]
            if not got:
                return
            yield got
            start += len(got)
            self.drop(start)


def _resync(a: list[str], b: list[str], a_len: int, b_len: int) -> tuple[int, int] | None:
    """The nearest ``(i2, j2)`` (smallest ``i2 + j2``, then smallest ``i2``) with
    ``a[i2:i2+SYNC] == b[j2:j2+SYNC]`` (or equal tails), within the window; None if none.
    ``a`` and ``b`` hold the next ``WINDOW + SYNC`` lines (fewer at the end),
    ``a_len`` and ``b_len`` how many lines are left (more than that when the file goes on)."""
    a_end, b_end = min(a_len, WINDOW), min(b_len, WINDOW)
    where: dict[str, list[int]] = {}
    for k in range(b_end):
        where.setdefault(b[k], []).append(k)
    best: tuple[int, int] | None = None
    best_cost = 2 * WINDOW + 1
    for i2 in range(a_end):
        if i2 >= best_cost:
            break
        for j2 in where.get(a[i2], ()):
            cost = i2 + j2
            if cost >= best_cost:
                break
            n = min(SYNC, a_len - i2, b_len - j2)
            tail = n < SYNC and a_len - i2 == b_len - j2
            if a[i2:i2 + n] == b[j2:j2 + n] and (n == SYNC or tail):
                best, best_cost = (i2, j2), cost
                break
    return best


class _Spool:
    """Lines in order: in memory up to :data:`SPILL` characters, then in a temporary file."""

    __slots__ = ("lines", "size", "file")

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.size = 0
        self.file: IO[str] | None = None

    def add(self, prefix: str, lines: Iterable[str]) -> int:
        """Append ``prefix + line`` for each line; the number of lines."""
        count = 0
        it = iter(lines)
        while got := [prefix + line for line in islice(it, CHUNK)]:
            count += len(got)
            self.lines += got
            self.size += sum(map(len, got))
            if self.size > SPILL:
                if self.file is None:
                    self.file = tempfile.TemporaryFile("w+", encoding="utf-8", errors="surrogatepass", newline="")
                self.file.writelines(self.lines)
                self.lines, self.size = [], 0
        return count

    def take(self) -> Iterator[str]:
        """Every line (in pieces of lines when spilled), then empty again."""
        if self.file is not None:
            f, self.file = self.file, None
            with f:
                f.writelines(self.lines)
                self.lines, self.size = [], 0
                f.seek(0)
                while piece := f.read(1 << 16):
                    yield piece
        else:
            lines, self.lines, self.size = self.lines, [], 0
            yield from lines


class _Hunks:
    """The walk's equal lines and changes, cut into hunks with ``n`` lines of
    context, as :func:`difflib.unified_diff` cuts them (its
    ``get_grouped_opcodes``; consecutive changes merged: every removed line,
    then every added one)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.before: deque[str] = deque(maxlen=n)  # the last equal lines, when no hunk is open
        self.open = False
        self.start = (0, 0)                # the hunk's first line in each file
        self.counts = [0, 0]               # its lines in each file
        self.run: list[str] = []           # equal lines since the hunk's last change
        self.body = _Spool()
        self.added = _Spool()              # the current change's added lines (after its removed ones)

    def equal(self, lines: list[str]) -> Iterator[str]:
        """Equal lines (the next ones of both files); a hunk they close."""
        if not lines:
            return
        if not self.open:
            self.before.extend(lines[-self.n:] if self.n else ())
            return
        self._end_change()
        room = 2 * self.n + 1 - len(self.run)
        self.run += lines[:room]
        if len(self.run) > 2 * self.n:  # more equal lines than two contexts: the hunk closes
            yield from self._close(self.run[:self.n])
            self.before.extend(self.run[self.n:])
            self.before.extend(lines[room:][-self.n:] if self.n else ())
            self.run = []

    def change(self, i: int, j: int, removed: Iterable[str], added: Iterable[str]) -> None:
        """Lines ``removed`` from the old file at line ``i``, ``added`` at ``j`` in the new."""
        if not self.open:
            self.open = True
            k = len(self.before)
            self.start = (i - k, j - k)
            self.counts = [k, k]
            self.body.add(" ", self.before)
            self.before.clear()
        elif self.run:
            self._end_change()
            self.counts[0] += self.body.add(" ", self.run)
            self.counts[1] += len(self.run)
            self.run = []
        self.counts[0] += self.body.add("-", removed)
        self.counts[1] += self.added.add("+", added)

    def _end_change(self) -> None:
        if self.added.lines or self.added.file is not None:
            self.body.add("", self.added.take())

    def end(self) -> Iterator[str]:
        """The last hunk, if one is open."""
        if self.open:
            self._end_change()
            yield from self._close(self.run[:self.n])

    def _close(self, after: list[str]) -> Iterator[str]:
        self.counts[0] += self.body.add(" ", after)
        self.counts[1] += len(after)
        (i, j), (di, dj) = self.start, self.counts
        yield f"@@ -{_range(i, i + di)} +{_range(j, j + dj)} @@\n"
        yield from self.body.take()
        self.open = False


def _range(start: int, stop: int) -> str:
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start if not length else start + 1},{length}"


def _walk(a: Iterable[str], b: Iterable[str], n: int) -> Iterator[str]:
    """The hunks turning ``a`` into ``b``, each as soon as it is closed."""
    A, B = _Lines(a), _Lines(b)
    hunks = _Hunks(n)
    i = j = 0
    while True:
        # the equal lines, a chunk at a time
        while True:
            A.fill(i + CHUNK)
            B.fill(j + CHUNK)
            pa, pb = i - A.base, j - B.base
            ab, bb = A.buf, B.buf
            end = min(len(ab) - pa, len(bb) - pb)
            k = 0
            while k < end and ab[pa + k] == bb[pb + k]:
                k += 1
            if k:
                yield from hunks.equal(ab[pa:pa + k])
                i += k
                j += k
                A.drop(i)
                B.drop(j)
            if k < end or end == 0:
                break
        a_more = i - A.base < len(A.buf)
        b_more = j - B.base < len(B.buf)
        if not (a_more and b_more):  # one file (or both) ended: the rest of the other
            if a_more:
                for chunk in A.rest(i):
                    hunks.change(i, j, chunk, ())
                    i += len(chunk)
            elif b_more:
                for chunk in B.rest(j):
                    hunks.change(i, j, (), chunk)
                    j += len(chunk)
            break
        wa, a_len = A.window(i, WINDOW + SYNC)
        wb, b_len = B.window(j, WINDOW + SYNC)
        to = _resync(wa, wb, a_len, b_len)
        i2, j2 = to if to is not None else (min(a_len, WINDOW), min(b_len, WINDOW))
        for tag, p1, p2, q1, q2 in difflib.SequenceMatcher(None, wa[:i2], wb[:j2], autojunk=False).get_opcodes():
            if tag == "equal":
                yield from hunks.equal(wa[p1:p2])
            else:
                hunks.change(i + p1, j + q1, wa[p1:p2], wb[q1:q2])
        i += i2
        j += j2
        A.drop(i)
        B.drop(j)
    yield from hunks.end()


def unified_diff(a: Iterable[str], b: Iterable[str], fromfile: str = "", tofile: str = "",
                 n: int = 3) -> Iterator[str]:
    """:func:`difflib.unified_diff` of two files' lines (with their line ends,
    any iterables: read once, in order), in linear time, holding a window of
    lines and the current hunk; nothing when they are equal."""
    started = False
    for piece in _walk(a, b, n):
        if not started:
            started = True
            yield f"--- {fromfile}\n"
            yield f"+++ {tofile}\n"
        yield piece
