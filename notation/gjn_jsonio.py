"""GJN records as JSON, in and out, through the pydantic model (mirrors
:mod:`notation.jsonio`).

``to_json`` writes exactly the model (spans only with ``spans=True``: JSON
written for tools usually does not want them); ``from_json`` validates it
back. Problems become SJ107 diagnostics, never exceptions; a record is
returned only when it is valid *and* can be written as GJN.
"""

from __future__ import annotations

import json

from pydantic import ValidationError

from replay.diagnostics import Diagnostic, Span

from .gjn_model import GoujiRecord
from .gjn_writer import representable_problems
from .jsonio import _POSITION, _where

__all__ = ["to_json", "from_json", "from_data"]


_SPAN_KEYS = frozenset(("span", "cards_span", "marks_span"))


def _without_spans(value):
    if isinstance(value, dict):
        return {k: _without_spans(v) for k, v in value.items() if k not in _SPAN_KEYS}
    if isinstance(value, list):
        return [_without_spans(v) for v in value]
    return value


def to_json(record: GoujiRecord, *, indent: int | None = None, spans: bool = False) -> str:
    """The record as JSON (the model's own serialisation); the source spans
    (``span``, ``cards_span``, ``marks_span``) only when asked."""
    if spans:
        return record.model_dump_json(indent=indent)
    return json.dumps(_without_spans(record.model_dump(mode="json")), indent=indent, ensure_ascii=False)


def from_data(data) -> tuple[GoujiRecord | None, list[Diagnostic]]:
    """One record from an already decoded JSON value (a dict), as :func:`from_json`."""
    return _validated(lambda: GoujiRecord.model_validate(data))


def from_json(text: str | bytes) -> tuple[GoujiRecord | None, list[Diagnostic]]:
    """One record from JSON: ``(record, [])`` or ``(None, [SJ107, …])``."""
    return _validated(lambda: GoujiRecord.model_validate_json(text))


def _validated(make) -> tuple[GoujiRecord | None, list[Diagnostic]]:
    try:
        record = make()
    except ValidationError as exc:
        diags = []
        for err in exc.errors(include_url=False):
            message = err.get("msg", "invalid")
            m = _POSITION.search(message) if err.get("type") == "json_invalid" else None
            if m:
                line, column = int(m.group(1)), int(m.group(2))
                diags.append(Diagnostic.at("SJ107", Span(line, column, line, column + 1), message))
            else:
                diags.append(Diagnostic.at("SJ107", None, f"{_where(err.get('loc', ()))}: {message}"))
        return None, diags
    except Exception as exc:  # never raise to the caller
        return None, [Diagnostic.at("SJ107", None, f"unreadable JSON ({type(exc).__name__}: {exc})")]
    problems = representable_problems(record)
    if problems:
        return None, [Diagnostic.at("SJ107", None, f"the record cannot be written as GJN: {p}")
                      for p in problems]
    return record, []
