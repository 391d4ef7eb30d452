"""GJN records as JSON, in and out, through the pydantic model (mirrors
:mod:`notation.jsonio`).

``to_json`` writes exactly the model (spans only with ``spans=True``: JSON
written for tools usually does not want them); ``from_json`` validates it
back. Problems become SJ107 diagnostics, never exceptions; a record is
returned only when it is valid *and* can be written as GJN.

As in :mod:`notation.jsonio`, the spans are left out by an ``exclude`` tree
(no copy of the record); indented text is written by pydantic-core, compact
text by the json module's C encoder (its ``", "`` and ``": "`` separators).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from primitives.diagnostics import Diagnostic

from .gjn_model import GoujiRecord
from .gjn_writer import representable_problems
from .jsonio import drop_spans, dump_json, span_exclude, validated

__all__ = ["to_json", "from_json", "from_data"]


_SPAN_KEYS = frozenset(("span", "cards_span", "marks_span"))


def is_span_key(name: str) -> bool:
    """The keys left out of span-free JSON."""
    return name in _SPAN_KEYS


def _without_spans(value: Any) -> Any:
    return drop_spans(value, is_span_key)


def to_json(record: GoujiRecord, *, indent: int | None = None, spans: bool = False) -> str:
    """The record as JSON (the model's own serialisation); the source spans
    (``span``, ``cards_span``, ``marks_span``) only when asked."""
    if spans:
        return record.model_dump_json(indent=indent)
    exclude = span_exclude(type(record), is_span_key)
    if indent is not None:
        text = dump_json(record, indent=indent, exclude=exclude)
        if text is not None:
            return text
        return json.dumps(_without_spans(record.model_dump(mode="json")), indent=indent, ensure_ascii=False)
    return json.dumps(record.model_dump(mode="json", exclude=exclude), ensure_ascii=False)


def from_data(data: object) -> tuple[GoujiRecord | None, list[Diagnostic]]:
    """One record from an already decoded JSON value (a dict), as :func:`from_json`."""
    return _validated(lambda: GoujiRecord.model_validate(data))


def from_json(text: str | bytes) -> tuple[GoujiRecord | None, list[Diagnostic]]:
    """One record from JSON: ``(record, [])`` or ``(None, [SJ107, …])``."""
    return _validated(lambda: GoujiRecord.model_validate_json(text))


def _validated(make: Callable[[], GoujiRecord]) -> tuple[GoujiRecord | None, list[Diagnostic]]:
    # (looked up at call time: tests patch representable_problems)
    return validated(make, lambda r: representable_problems(r), "GJN")
