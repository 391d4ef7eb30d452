"""A small JSON reader that remembers where every value starts and survives truncation.

The standard :mod:`json` module gives neither positions nor a partial result,
and an importer needs both: a diagnostic must point at the line and column of
the bad value *in the source log*, and a log cut off in the middle (a crashed
server, a half-copied file) should still yield everything before the cut.

:func:`read` returns a :class:`JsonDoc`: the value (containers are filled as
far as the text goes), a table *path → (line, column)* of where each value
starts (a path is a tuple of object keys and list indices), and the first
error, if any. It never raises.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from notation.limits import MAX_DIGITS
from primitives.diagnostics import Span

Path = tuple[Any, ...]

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_WS = re.compile(r"[ \t\r\n]*")
_LONG_DIGITS = re.compile(rf"[0-9]{{{MAX_DIGITS + 1},}}")
_MAX_DEPTH = 200
#: a UTF-16 surrogate in a decoded string (a pair decodes to one character: this is a lone half)
_SURROGATE = re.compile("[\ud800-\udfff]")


class _Stop(Exception):
    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


@dataclass
class JsonDoc:
    """The result of :func:`read`."""

    value: Any = None
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    #: (line, column, message) of the first error, or None
    error: tuple[int, int, str] | None = None
    #: the whole text was one complete JSON value (nothing cut off, nothing after it)
    complete: bool = False
    #: a value was found at all (possibly partial)
    found: bool = False
    line_offset: int = 0
    #: when set, every position is reported as this one (e.g. a decoded, embedded document)
    pinned: tuple[int, int] | None = None

    def pos(self, *path: Any) -> tuple[int, int]:
        """Where the value at ``path`` starts; the nearest known ancestor otherwise."""
        if self.pinned is not None:
            return self.pinned
        p = tuple(path)
        while True:
            hit = self.positions.get(p)
            if hit is not None:
                return hit
            if not p:
                return (self.line_offset + 1, 1)
            p = p[:-1]

    def span(self, *path: Any, width: int = 1) -> Span:
        line, col = self.pos(*path)
        return Span(line, col, line, col + max(width, 1))


class _Reader:
    def __init__(self, text: str, line_offset: int) -> None:
        self.text = text
        self.n = len(text)
        self.line_offset = line_offset
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.positions: dict[Path, tuple[int, int]] = {}

    def where(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.starts, offset) - 1
        return (self.line_offset + i + 1, offset - self.starts[i] + 1)

    def ws(self, i: int) -> int:
        m = _WS.match(self.text, i)  # `[...]*` always matches (maybe empty)
        return m.end() if m else i

    def value(self, i: int, path: Path, put: Callable[[Any], None], depth: int) -> int:
        """Read the value at ``i``; hand it to ``put`` as soon as it exists; return the end."""
        i = self.ws(i)
        if i >= self.n:
            raise _Stop(i, "the text ends where a value was expected (truncated?)")
        if depth > _MAX_DEPTH:
            raise _Stop(i, f"nested more than {_MAX_DEPTH} levels deep")
        self.positions[path] = self.where(i)
        ch = self.text[i]
        if ch == "{":
            obj: dict[str, Any] = {}
            put(obj)
            i = self.ws(i + 1)
            if i < self.n and self.text[i] == "}":
                return i + 1
            while True:
                i = self.ws(i)
                if i >= self.n:
                    raise _Stop(i, "the text ends inside an object (truncated?)")
                if self.text[i] != '"':
                    raise _Stop(i, f"expected a quoted key, found {self.text[i]!r}")
                key, i = self.string(i)
                i = self.ws(i)
                if i >= self.n:
                    raise _Stop(i, "the text ends inside an object (truncated?)")
                if self.text[i] != ":":
                    raise _Stop(i, f"expected ':' after key {key!r}")
                i = self.value(i + 1, path + (key,), functools.partial(obj.__setitem__, key), depth + 1)
                i = self.ws(i)
                if i >= self.n:
                    raise _Stop(i, "the text ends inside an object (truncated?)")
                if self.text[i] == ",":
                    i += 1
                    continue
                if self.text[i] == "}":
                    return i + 1
                raise _Stop(i, f"expected ',' or '}}' in an object, found {self.text[i]!r}")
        if ch == "[":
            arr: list[Any] = []
            put(arr)
            i = self.ws(i + 1)
            if i < self.n and self.text[i] == "]":
                return i + 1
            while True:
                i = self.value(i, path + (len(arr),), arr.append, depth + 1)
                i = self.ws(i)
                if i >= self.n:
                    raise _Stop(i, "the text ends inside a list (truncated?)")
                if self.text[i] == ",":
                    i += 1
                    continue
                if self.text[i] == "]":
                    return i + 1
                raise _Stop(i, f"expected ',' or ']' in a list, found {self.text[i]!r}")
        if ch == '"':
            s, end = self.string(i)
            put(s)
            return end
        m = _NUMBER.match(self.text, i)
        if m and m.end() > i:
            t = m.group()
            if len(t) > MAX_DIGITS and (long := _LONG_DIGITS.search(t)):
                # Python's int() refuses 4,300 digits: stopped at the digit past the limit
                raise _Stop(i + long.start() + MAX_DIGITS,
                            f"a number of more than {MAX_DIGITS:,} digits (notation.limits.MAX_DIGITS)")
            put(float(t) if any(c in t for c in ".eE") else int(t))
            return m.end()
        for word, val in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, i):
                put(val)
                return i + len(word)
        raise _Stop(i, f"unexpected {self.text[i]!r} where a value was expected")

    def string(self, i: int) -> tuple[str, int]:
        try:
            # looked up at each call (tests patch it); public in CPython's json.decoder, not in typeshed
            got: tuple[str, int] = json.decoder.scanstring(self.text, i + 1)  # type: ignore[attr-defined]
            if _SURROGATE.search(got[0]) is not None:  # a lone \ud800 escape: not a character
                from notation.detect import lone_surrogate
                at = lone_surrogate(self.text, i, got[1])
                raise _Stop(i if at is None else at, "bad string: a lone UTF-16 surrogate escape is not a character")
            return got
        except json.JSONDecodeError as exc:
            at = exc.pos if exc.pos < self.n else self.n
            if "Unterminated" in exc.msg:
                raise _Stop(at, "the text ends inside a string (truncated?)") from None
            raise _Stop(at, f"bad string: {exc.msg}") from None


def read(text: str, line_offset: int = 0) -> JsonDoc:
    """Read one JSON value from ``text`` (see the module docstring). Never raises.

    ``line_offset`` is added to every line number (for one line of a JSONL file).
    """
    r = _Reader(text, line_offset)
    holder: list[Any] = []
    doc = JsonDoc(line_offset=line_offset)
    try:
        end = r.value(0, (), holder.append, 0)
        end = r.ws(end)
        if end < r.n:
            line, col = r.where(end)
            doc.error = (line, col, "unexpected text after the JSON value")
        else:
            doc.complete = True
    except _Stop as stop:
        line, col = r.where(min(stop.offset, r.n))
        doc.error = (line, col, stop.message)
    except RecursionError:
        doc.error = (line_offset + 1, 1, "nested too deeply")
    doc.found = bool(holder)
    doc.value = holder[0] if holder else None
    doc.positions = r.positions
    return doc
