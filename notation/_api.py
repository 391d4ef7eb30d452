"""The public reading API's shape, shared by SJN (:mod:`notation`) and GJN
(:mod:`notation.gjn`): each game's ``parse`` and ``parse_record`` are these,
over that game's ``read_records``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from primitives.diagnostics import Diagnostic, Span

_R = TypeVar("_R")

#: a reader: ``read_records(source, start_line)``
Reader = Callable[[Any, int], Iterator[tuple[_R, list[Diagnostic]]]]


def parse_all(read_records: Reader[_R], text: Any) -> tuple[list[_R], list[Diagnostic]]:
    """All records of ``text`` (or of a file / lines) and all diagnostics, in order."""
    records: list[_R] = []
    diags: list[Diagnostic] = []
    for record, found in read_records(text, 1):
        records.append(record)
        diags.extend(found)
    return records, diags


def parse_one(read_records: Reader[_R], text: Any) -> tuple[_R | None, list[Diagnostic]]:
    """The one record of ``text``: None if there is none; SJ109 if there are more."""
    first: _R | None = None
    diags: list[Diagnostic] = []
    for record, found in read_records(text, 1):
        if first is None:
            first = record
            diags.extend(found)
        else:
            line = record.span.line  # type: ignore[attr-defined]  # every record has a span
            diags.append(Diagnostic.at("SJ109", Span(line, 1, line, 2),
                                       "a second record starts here; parse_record reads only the "
                                       "first (use parse or iter_records for a file of records)"))
            break
    return first, diags
