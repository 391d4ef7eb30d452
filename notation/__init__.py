"""SJN, the Shengji notation: reading, writing and JSON.

Public API::

    parse(text)                      -> (list[Record], list[Diagnostic])
    parse_record(text)               -> (Record | None, list[Diagnostic])
    iter_records(lines_or_file, *, start_line=1)
                                     -> iterator of (Record, list[Diagnostic])
    write(record_or_records, *, unicode=False, grouped=True) -> str
    to_json(record, *, indent=None, spans=True) -> str
    from_json(text)                  -> (Record | None, list[Diagnostic])
    canonical(record)                -> Record   (what write + parse gives back)

Reading never raises: every problem is a :class:`~primitives.diagnostics.Diagnostic`
(SJ101–SJ109) with a position, and reading goes on at the next line. The
notation is described in ``docs/notation.md``; the grammar is ``sjn.lark``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from primitives.diagnostics import Diagnostic

if TYPE_CHECKING:
    from .jsonio import from_json, to_json
    from .model import (
        Bury,
        Declaration,
        Hand,
        Levels,
        Note,
        Play,
        Record,
        SeatCards,
        Tag,
        Trick,
        content_equal,
        strip_spans,
    )
    from .writer import canonical, write

__all__ = [
    "parse", "parse_record", "iter_records", "write", "to_json", "from_json", "canonical",
    "content_equal", "strip_spans",
    "Record", "Hand", "Tag", "Levels", "SeatCards", "Declaration", "Bury", "Play", "Trick", "Note",
]

#: the names above that live in a submodule, loaded on first use: ``import notation.detect``
#: (what every command imports first) must not import the JSON layer or the writer
_LAZY = {"from_json": "jsonio", "to_json": "jsonio", "canonical": "writer", "write": "writer",
         **{name: "model" for name in ("Bury", "Declaration", "Hand", "Levels", "Note", "Play", "Record",
                                       "SeatCards", "Tag", "Trick", "content_equal", "strip_spans")}}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def iter_records(lines_or_file: Any, *, start_line: int = 1) -> Iterator[tuple[Record, list[Diagnostic]]]:
    """Stream the records of a text, a file (text or binary) or an iterable of
    lines, one ``(record, diagnostics)`` at a time; ``start_line`` is the line
    number of the first line. Memory holds one record at a time."""
    from .reader import read_records
    return read_records(lines_or_file, start_line)


def parse(text: Any) -> tuple[list[Record], list[Diagnostic]]:
    """All records of ``text`` (or of a file / lines) and all diagnostics, in order."""
    from ._api import parse_all
    from .reader import read_records
    return parse_all(read_records, text)


def parse_record(text: Any) -> tuple[Record | None, list[Diagnostic]]:
    """The one record of ``text``: None if there is none; SJ109 if there are more."""
    from ._api import parse_one
    from .reader import read_records
    return parse_one(read_records, text)
