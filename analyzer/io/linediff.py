"""A unified diff in linear time, for ``fmt --diff`` (issue 35).

:func:`difflib.unified_diff` looks for the longest matching block of the whole
files, then again on each side of it: on a file of a million lines it ran for
more than twenty minutes. Here the lines are walked once: equal lines are
passed over, and at the first difference the walk looks ahead (at most
:data:`WINDOW` lines on each side) for the nearest place where both files agree
again for :data:`SYNC` lines; only the few lines in between go through
:class:`difflib.SequenceMatcher`. A difference with no such place within the
window is diffed a window at a time. So the time is linear in the files'
length (a window's square at most per window), and what a formatter changes
— lines rewritten here and there — gives the same hunks, byte for byte, as
:func:`difflib.unified_diff` (tests/cli/test_fmt_diff.py compares them)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence

#: how far (in lines, on each side) the walk looks for the files to agree again
WINDOW = 400
#: how many equal lines in a row make the files agree again
SYNC = 3

Opcode = tuple[str, int, int, int, int]


def _resync(a: Sequence[str], b: Sequence[str], i: int, j: int) -> tuple[int, int] | None:
    """The nearest ``(i2, j2)`` (smallest ``i2 - i + j2 - j``, then smallest ``i2``) with
    ``a[i2:i2+SYNC] == b[j2:j2+SYNC]`` (or equal tails), within the window; None if none."""
    a_end, b_end = min(len(a), i + WINDOW), min(len(b), j + WINDOW)
    where: dict[str, list[int]] = {}
    for k in range(j, b_end):
        where.setdefault(b[k], []).append(k)
    best: tuple[int, int] | None = None
    best_cost = 2 * WINDOW + 1
    for i2 in range(i, a_end):
        if i2 - i >= best_cost:
            break
        for j2 in where.get(a[i2], ()):
            cost = i2 - i + j2 - j
            if cost >= best_cost:
                break
            n = min(SYNC, len(a) - i2, len(b) - j2)
            tail = n < SYNC and len(a) - i2 == len(b) - j2
            if a[i2:i2 + n] == b[j2:j2 + n] and (n == SYNC or tail):
                best, best_cost = (i2, j2), cost
                break
    return best


def opcodes(a: Sequence[str], b: Sequence[str]) -> list[Opcode]:
    """``(tag, i1, i2, j1, j2)`` turning ``a`` into ``b``, as
    :meth:`difflib.SequenceMatcher.get_opcodes` gives them (no two equal ones in a row)."""
    out: list[Opcode] = []

    def add(tag: str, i1: int, i2: int, j1: int, j2: int) -> None:
        if i1 == i2 and j1 == j2:
            return
        if out and (out[-1][0] == "equal") == (tag == "equal"):  # two changes in a row: one
            _, i1, _, j1, _ = out.pop()
            if tag != "equal":
                tag = "replace" if i1 < i2 and j1 < j2 else "delete" if i1 < i2 else "insert"
        out.append((tag, i1, i2, j1, j2))

    i = j = 0
    while i < len(a) or j < len(b):
        i0, j0 = i, j
        while i < len(a) and j < len(b) and a[i] == b[j]:
            i += 1
            j += 1
        add("equal", i0, i, j0, j)
        if i == len(a) or j == len(b):
            add("replace" if i < len(a) and j < len(b) else "delete" if i < len(a) else "insert",
                i, len(a), j, len(b))
            break
        to = _resync(a, b, i, j)
        i2, j2 = to if to is not None else (min(len(a), i + WINDOW), min(len(b), j + WINDOW))
        for tag, p1, p2, q1, q2 in difflib.SequenceMatcher(None, a[i:i2], b[j:j2], autojunk=False).get_opcodes():
            add(tag, i + p1, i + p2, j + q1, j + q2)
        i, j = i2, j2
    return out


def _groups(codes: list[Opcode], n: int) -> Iterator[list[Opcode]]:
    """The opcodes cut into hunks with ``n`` lines of context (as
    :meth:`difflib.SequenceMatcher.get_grouped_opcodes`)."""
    if not codes:
        codes = [("equal", 0, 1, 0, 1)]
    if codes[0][0] == "equal":
        _, i1, i2, j1, j2 = codes[0]
        codes[0] = ("equal", max(i1, i2 - n), i2, max(j1, j2 - n), j2)
    if codes[-1][0] == "equal":
        _, i1, i2, j1, j2 = codes[-1]
        codes[-1] = ("equal", i1, min(i2, i1 + n), j1, min(j2, j1 + n))
    group: list[Opcode] = []
    for tag, i1, i2, j1, j2 in codes:
        if tag == "equal" and i2 - i1 > 2 * n:
            group.append((tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)))
            yield group
            group = []
            i1, j1 = max(i1, i2 - n), max(j1, j2 - n)
        group.append((tag, i1, i2, j1, j2))
    if group and not (len(group) == 1 and group[0][0] == "equal"):
        yield group


def _range(start: int, stop: int) -> str:
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start if not length else start + 1},{length}"


def unified_diff(a: Sequence[str], b: Sequence[str], fromfile: str = "", tofile: str = "",
                 n: int = 3) -> Iterator[str]:
    """:func:`difflib.unified_diff` of two lists of lines (with their line ends), in linear time."""
    started = False
    for group in _groups(opcodes(a, b), n):
        if not started:
            started = True
            yield f"--- {fromfile}\n"
            yield f"+++ {tofile}\n"
        first, last = group[0], group[-1]
        yield f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n"
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                for line in a[i1:i2]:
                    yield " " + line
                continue
            if tag in ("replace", "delete"):
                for line in a[i1:i2]:
                    yield "-" + line
            if tag in ("replace", "insert"):
                for line in b[j1:j2]:
                    yield "+" + line
