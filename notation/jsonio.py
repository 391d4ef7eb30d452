"""JSON in and out, through the pydantic record model.

``to_json`` writes exactly the model (spans included unless ``spans=False``);
``from_json`` validates it back. Problems become SJ107 diagnostics, never
exceptions. A record is returned only when it is valid *and* can be written
as SJN (see :func:`notation.writer.representable_problems`), so converting
JSON to SJN never fails.
"""

from __future__ import annotations

import re

from pydantic import ValidationError

from replay.diagnostics import Diagnostic, Span

from .model import Record, strip_spans
from .writer import representable_problems

__all__ = ["to_json", "from_json"]

_POSITION = re.compile(r"line (\d+) column (\d+)")


def to_json(record: Record, *, indent: int | None = None, spans: bool = True) -> str:
    """The record as JSON (the pydantic model's own serialisation)."""
    if not spans:
        record = strip_spans(record)
    return record.model_dump_json(indent=indent)


def _where(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the record"


def from_json(text: str | bytes) -> tuple[Record | None, list[Diagnostic]]:
    """Read one record from JSON: ``(record, [])`` or ``(None, [SJ107, …])``."""
    try:
        record = Record.model_validate_json(text)
    except ValidationError as exc:
        diags = []
        for err in exc.errors(include_url=False):
            message = err.get("msg", "invalid")
            m = _POSITION.search(message) if err.get("type") == "json_invalid" else None
            if m:
                line, column = int(m.group(1)), int(m.group(2))
                span = Span(line, column, line, column + 1)
                diags.append(Diagnostic.at("SJ107", span, message))
            else:
                diags.append(Diagnostic.at("SJ107", None, f"{_where(err.get('loc', ()))}: {message}"))
        return None, diags
    except Exception as exc:  # never raise to the caller
        return None, [Diagnostic.at("SJ107", None, f"unreadable JSON ({type(exc).__name__}: {exc})")]
    problems = representable_problems(record)
    if problems:
        return None, [Diagnostic.at("SJ107", None, f"the record cannot be written as SJN: {p}")
                      for p in problems]
    return record, []
