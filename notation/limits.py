"""Hard limits of every reader (docs/security.md): the same in every command,
each with a positioned diagnostic instead of unbounded time or memory.

* :data:`MAX_LINE`: an SJN or GJN line (a tag, a seat line, a comment on one
  line) longer than this is not read; SJ101 at the first
  character past the limit. A tag's value is bounded by it too (a tag cannot
  span lines).
* :data:`MAX_DIGITS`: a line holding a run of more digits than this (a trick
  number, a score, a level) is not read either; SJ101 at the run's first digit
  past the limit (Python will not convert a longer number: ``ValueError``).
* :data:`MAX_MESSAGE`: a diagnostic's message is cut to this length (a message
  that quotes the input never quotes a whole 20 MB line).
* :data:`MAX_DECOMPRESSED`: an embedded compressed log (an 80fen
  ``gzip+base64`` block) is not expanded past this many bytes.
* JSON nesting: the JSON readers stop at Python's recursion limit or their own
  depth (the importers' reader: 200) with SJ107 / SJ701.
"""

from __future__ import annotations

import re

from primitives.diagnostics import Diagnostic, Span

#: characters in one SJN or GJN line
MAX_LINE = 65_536
#: digits in one run of digits on a line (below Python's 4,300 for ``int(str)``)
MAX_DIGITS = 4_000
#: characters in one diagnostic's message
MAX_MESSAGE = 400
#: bytes an embedded compressed log may expand to
MAX_DECOMPRESSED = 64 << 20

_LONG_NUMBER = re.compile(rf"[0-9]{{{MAX_DIGITS + 1},}}")

__all__ = ["MAX_LINE", "MAX_DIGITS", "MAX_MESSAGE", "MAX_DECOMPRESSED", "long_lines", "short_message", "cap_messages"]


def long_lines(lines: list[str], first_line: int, code: str) -> tuple[list[str], list[Diagnostic]]:
    """``lines`` with every line longer than :data:`MAX_LINE`, or holding a number
    longer than :data:`MAX_DIGITS`, blanked, and a ``code`` diagnostic at each.
    The same list (no copy) when no line is that long (only a line longer than
    :data:`MAX_DIGITS` can hold such a number)."""
    if not lines or max(map(len, lines)) <= MAX_DIGITS:
        return lines, []
    out, diags = list(lines), []
    for k, line in enumerate(lines):
        n = first_line + k
        if len(line) > MAX_LINE:
            diags.append(Diagnostic.at(code, Span(n, MAX_LINE + 1, n, MAX_LINE + 2),
                                       f"this line is {len(line):,} characters long; a line longer than "
                                       f"{MAX_LINE:,} characters is not read"))
            out[k] = ""
        elif len(line) > MAX_DIGITS and (m := _LONG_NUMBER.search(line)):
            col = m.start() + MAX_DIGITS + 1
            diags.append(Diagnostic.at(code, Span(n, col, n, col + 1),
                                       f"a number of {m.end() - m.start():,} digits; a line holding a "
                                       f"number longer than {MAX_DIGITS:,} digits is not read"))
            out[k] = ""
    return (out, diags) if diags else (lines, [])


def short_message(message: str) -> str:
    """``message`` cut to :data:`MAX_MESSAGE` characters (an ellipsis marks the cut)."""
    if len(message) <= MAX_MESSAGE:
        return message
    return message[:MAX_MESSAGE - 1] + "…"


def cap_messages(diags: list[Diagnostic]) -> list[Diagnostic]:
    """``diags`` with every message :func:`short_message` (the same list when none is long)."""
    if all(len(d.message) <= MAX_MESSAGE for d in diags):
        return diags
    return [d if len(d.message) <= MAX_MESSAGE else
            Diagnostic(d.code, short_message(d.message), d.line, d.column, d.end_line, d.end_column,
                       d.severity, d.hand, d.trick) for d in diags]
