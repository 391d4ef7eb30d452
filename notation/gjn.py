"""GJN, the Gouji (够级) notation: reading, writing and JSON (GOUJI.md §10).

Public API (the same shape as SJN's, :mod:`notation`)::

    parse(text)                      -> (list[GoujiRecord], list[Diagnostic])
    parse_record(text)               -> (GoujiRecord | None, list[Diagnostic])
    iter_records(lines_or_file, *, start_line=1)
                                     -> iterator of (GoujiRecord, list[Diagnostic])
    write(record_or_records, *, unicode=False) -> str   (the tidy form)
    to_json(record, *, indent=None, spans=False) -> str
    from_json(text)                  -> (GoujiRecord | None, list[Diagnostic])
    from_data(decoded_json_value)    -> (GoujiRecord | None, list[Diagnostic])
    canonical(record)                -> GoujiRecord   (what write + parse gives back)
    is_gjn(path, text)               -> bool          (a `.gjn` file or a `[Game "gouji"]` tag)

Reading never raises: every problem is a positioned SJ1xx diagnostic and
reading goes on at the next line. The grammar is ``gjn.lark``; the notation
is described for scorers in ``docs/gouji.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from primitives.diagnostics import Diagnostic

from ._api import parse_all, parse_one
from .detect import GAME_TAG, is_gjn  # (there: deciding what a file is needs no GJN reader)
from .gjn_jsonio import from_data, from_json, to_json
from .gjn_model import (
    Action,
    Buy,
    Dian,
    Game,
    GoujiRecord,
    Lead,
    Point,
    Position,
    Redeal,
    Remove,
    Result,
    Return,
    Revolt,
    Score,
    SeatCards,
    Show,
    Tag,
    Tribute,
    content_equal,
    strip_spans,
)
from .gjn_reader import read_records
from .gjn_writer import canonical, representable_problems, write

__all__ = [
    "parse", "parse_record", "iter_records", "write", "to_json", "from_json", "from_data", "canonical",
    "content_equal", "strip_spans", "representable_problems", "is_gjn", "GAME_TAG",
    "GoujiRecord", "Game", "Tag", "SeatCards", "Position", "Show", "Dian", "Tribute", "Return", "Buy",
    "Revolt", "Redeal", "Remove", "Point", "Lead", "Action", "Result", "Score",
]

def iter_records(lines_or_file: Any, *, start_line: int = 1) -> Iterator[tuple[GoujiRecord, list[Diagnostic]]]:
    """Stream the records of a text, a file (text or binary) or an iterable of
    lines, one ``(record, diagnostics)`` at a time."""
    return read_records(lines_or_file, start_line)


def parse(text: Any) -> tuple[list[GoujiRecord], list[Diagnostic]]:
    """All records of ``text`` (or of a file / lines) and all diagnostics, in order."""
    return parse_all(read_records, text)


def parse_record(text: Any) -> tuple[GoujiRecord | None, list[Diagnostic]]:
    """The one record of ``text``: None if there is none; SJ109 if there are more."""
    return parse_one(read_records, text)
