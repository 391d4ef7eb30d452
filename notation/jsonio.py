"""JSON in and out, through the pydantic record model.

``to_json`` writes exactly the model (spans included unless ``spans=False``);
``from_json`` validates it back. Problems become SJ107 diagnostics, never
exceptions. A record is returned only when it is valid *and* can be written
as SJN (see :func:`notation.writer.representable_problems`), so converting
JSON to SJN never fails.
"""

from __future__ import annotations

import json
import re

from pydantic import ValidationError

from replay.diagnostics import Diagnostic, Span

from .model import Record
from .writer import representable_problems

__all__ = ["to_json", "to_data", "from_json", "from_data"]

_POSITION = re.compile(r"line (\d+) column (\d+)")


def to_json(record: Record, *, indent: int | None = None, spans: bool = True) -> str:
    """The record as JSON (the pydantic model's own serialisation); with
    ``spans=False`` the source positions are left out altogether."""
    if not spans:
        return json.dumps(to_data(record, spans=False), indent=indent, ensure_ascii=False,
                          separators=None if indent is not None else (",", ":"))
    return record.model_dump_json(indent=indent)


def to_data(record: Record, *, spans: bool = True) -> dict:
    """The record as plain JSON data; ``spans=False`` drops every ``span`` and
    ``*_span`` key (the flags ``declare_none`` and ``redeal`` stay)."""
    data = record.model_dump(mode="json")
    return data if spans else _drop_spans(data)


def _drop_spans(value):
    if isinstance(value, dict):
        return {k: _drop_spans(v) for k, v in value.items() if k != "span" and not k.endswith("_span")}
    if isinstance(value, list):
        return [_drop_spans(v) for v in value]
    return value


def _where(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the record"


def from_json(text: str | bytes) -> tuple[Record | None, list[Diagnostic]]:
    """Read one record from JSON: ``(record, [])`` or ``(None, [SJ107, …])``."""
    return _validated(Record.model_validate_json, text)


def from_data(data) -> tuple[Record | None, list[Diagnostic]]:
    """Read one record from parsed JSON data (a dict): ``(record, [])`` or ``(None, [SJ107, …])``."""
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", bool: "true/false", type(None): "null"}.get(
            type(data), "a number")
        return None, [Diagnostic.at("SJ107", None, f"a record must be a JSON object, not {kind}")]
    return _validated(Record.model_validate, data)


def _validated(validate, text) -> tuple[Record | None, list[Diagnostic]]:
    try:
        record = validate(text)
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
    except RecursionError:
        return None, [Diagnostic.at("SJ107", None, "the JSON is nested too deeply to be a record")]
    except Exception as exc:  # never raise to the caller
        return None, [Diagnostic.at("SJ107", None, f"unreadable JSON ({type(exc).__name__}: {exc})")]
    problems = representable_problems(record)
    if problems:
        return None, [Diagnostic.at("SJ107", None, f"the record cannot be written as SJN: {p}")
                      for p in problems]
    return record, []
