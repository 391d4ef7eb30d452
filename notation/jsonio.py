"""JSON in and out, through the pydantic record model.

``to_json`` writes exactly the model (spans included unless ``spans=False``);
``from_json`` validates it back. Problems become SJ107 diagnostics, never
exceptions. A record is returned only when it is valid *and* can be written
as SJN (see :func:`notation.writer.representable_problems`), so converting
JSON to SJN never fails.

Writing is one call into pydantic-core (Rust), indented or not: the source
spans are left out by an ``exclude`` tree derived once from the model's own
fields (:func:`span_exclude`), so no copy of the record and no Python-side
JSON encoding is made. The text is, character for character, what
``json.dumps(to_data(record, spans=...), indent=..., ensure_ascii=False)``
gives (tests compare the two on generated records); should pydantic-core
refuse a value (a string that is not valid Unicode), that slower path is
taken after all.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from primitives.diagnostics import Diagnostic, Span

from .model import Record
from .writer import representable_problems

__all__ = ["to_json", "to_data", "from_json", "from_data", "span_exclude", "ExcludeTree"]

_POSITION = re.compile(r"line (\d+) column (\d+)")

#: a pydantic ``exclude`` argument: field name → ``True`` (leave out) or a nested tree
#: (``"__all__"`` for every item of a list or every value of a dict)
ExcludeTree = dict[str, Any]



def is_span_key(name: str) -> bool:
    """The keys ``spans=False`` leaves out: ``span`` and ``*_span`` (the flags
    ``declare_none`` and ``redeal`` hold a span too, but they stay)."""
    return name == "span" or name.endswith("_span")


#: a class whose fields pydantic serializes: a model or a (stdlib) dataclass,
#: like the record's slotted line nodes (:class:`notation.model.LineNode`)
Fielded = type[Any]


def _is_fielded(tp: Any) -> bool:
    return isinstance(tp, type) and (issubclass(tp, BaseModel) or dataclasses.is_dataclass(tp))


def _fields_of(model: Fielded) -> list[tuple[str, Any]]:
    """``(name, annotation)`` of each field of a model or dataclass, in order."""
    if issubclass(model, BaseModel):
        return [(name, field.annotation) for name, field in model.model_fields.items()]
    hints = typing.get_type_hints(model, include_extras=True)
    return [(f.name, hints[f.name]) for f in dataclasses.fields(model)]


def _models_in(annotation: Any) -> tuple[list[Fielded], bool]:
    """The model (or dataclass) classes an annotation can hold, and whether
    they sit inside a container (list, tuple, dict values) rather than in the
    field itself."""
    found: list[Fielded] = []
    nested = False

    def walk(tp: Any, inside: bool) -> None:
        nonlocal nested
        if _is_fielded(tp):
            found.append(tp)
            nested = nested or inside
            return
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            walk(typing.get_args(tp)[0], inside)
            return
        args = typing.get_args(tp)
        container = origin in (list, tuple, dict, set, frozenset) or (
            isinstance(origin, type) and origin not in (typing.Union, types.UnionType))
        if origin is dict:
            args = args[1:]  # the values (keys are strings)
        for a in args:
            if a is not Ellipsis:
                walk(a, inside or container)

    walk(annotation, False)
    return found, nested


def _merge(a: ExcludeTree, b: ExcludeTree) -> ExcludeTree:
    out = dict(a)
    for k, v in b.items():
        old = out.get(k)
        if old is True or v is True:
            out[k] = True
        elif isinstance(old, dict):
            out[k] = _merge(old, v)
        else:
            out[k] = v
    return out


@cache
def span_exclude(model: Fielded, is_span: Callable[[str], bool] = is_span_key) -> ExcludeTree:
    """The ``exclude`` tree leaving out every span field (as told by
    ``is_span``) of ``model`` and of every model (or dataclass) below it."""
    return _span_exclude(model, is_span, frozenset())


def _span_exclude(model: Fielded, is_span: Callable[[str], bool],
                  seen: frozenset[Fielded]) -> ExcludeTree:
    tree: ExcludeTree = {}
    seen = seen | {model}
    for name, annotation in _fields_of(model):
        if is_span(name):
            tree[name] = True
            continue
        models, nested = _models_in(annotation)
        sub: ExcludeTree = {}
        for m in models:
            if m not in seen:
                sub = _merge(sub, _span_exclude(m, is_span, seen))
        if sub:
            tree[name] = {"__all__": sub} if nested else sub
    return tree


def dump_json(node: BaseModel, *, indent: int | None, exclude: ExcludeTree | None) -> str | None:
    """``node`` as JSON text by pydantic-core, or None when it refuses."""
    try:
        return node.model_dump_json(indent=indent, exclude=exclude)
    except Exception:  # e.g. a lone surrogate in a comment: the caller takes the json module's path
        return None


def to_json(record: Record, *, indent: int | None = None, spans: bool = True) -> str:
    """The record as JSON (the pydantic model's own serialisation); with
    ``spans=False`` the source positions are left out altogether."""
    text = dump_json(record, indent=indent, exclude=None if spans else span_exclude(type(record)))
    if text is not None:
        return text
    return json.dumps(to_data(record, spans=spans), indent=indent, ensure_ascii=False,
                      separators=None if indent is not None else (",", ":"))


def to_data(record: Record, *, spans: bool = True) -> dict[str, Any]:
    """The record as plain JSON data; ``spans=False`` drops every ``span`` and
    ``*_span`` key (the flags ``declare_none`` and ``redeal`` stay)."""
    if spans:
        return record.model_dump(mode="json")
    return record.model_dump(mode="json", exclude=span_exclude(type(record)))


def drop_spans(value: Any, is_span: Callable[[str], bool] = is_span_key) -> Any:
    """Plain JSON data without span keys at any depth (the reference that
    :func:`to_data` with ``spans=False`` is tested against)."""
    if isinstance(value, dict):
        return {k: drop_spans(v, is_span) for k, v in value.items() if not is_span(k)}
    if isinstance(value, list):
        return [drop_spans(v, is_span) for v in value]
    return value


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the record"


def from_json(text: str | bytes) -> tuple[Record | None, list[Diagnostic]]:
    """Read one record from JSON: ``(record, [])`` or ``(None, [SJ107, …])``."""
    return _validated(lambda: Record.model_validate_json(text), from_text=True)


def from_data(data: object) -> tuple[Record | None, list[Diagnostic]]:
    """Read one record from parsed JSON data (a dict): ``(record, [])`` or ``(None, [SJ107, …])``."""
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", bool: "true/false", type(None): "null"}.get(
            type(data), "a number")
        return None, [Diagnostic.at("SJ107", None, f"a record must be a JSON object, not {kind}")]
    return _validated(lambda: Record.model_validate(data))


#: the slotted line nodes are dataclasses to pydantic: their errors in a
#: model's words (as they read when the nodes were models)
_MODEL_WORDING = {"unexpected_keyword_argument": "Extra inputs are not permitted"}
_UNKNOWN_KEY = "unexpected_keyword_argument"


def _loc_key(err: ErrorDetails) -> tuple[tuple[int, int, str], ...]:
    """An error's place in the record, as a sort key (indexes by number, keys by name)."""
    return tuple((0, part, "") if isinstance(part, int) else (1, 0, str(part)) for part in err.get("loc", ()))


def _in_record_order(errors: list[ErrorDetails]) -> list[ErrorDetails]:
    """Errors sorted by their place in the record (stable): pydantic's own order
    is incidental (it changed between 2.13 and 2.14, and differs between JSON
    text and Python data), so the tool gives its own, the same from both."""
    return sorted(errors, key=_loc_key)


def validation_diagnostics(exc: ValidationError, *, from_text: bool = False) -> list[Diagnostic]:
    """SJ107 diagnostics of a pydantic validation error (a position when the
    JSON itself is bad); ``from_text``: the error of JSON text (not data)."""
    diags = []
    errors = exc.errors(include_url=False)
    for err in _in_record_order(errors):
        message = _MODEL_WORDING.get(err.get("type", ""), err.get("msg", "invalid"))
        if err.get("type") == "dataclass_type" and message.startswith("Input should be a dictionary or"):
            message = f"Input should be a valid dictionary or instance of {err.get('ctx', {}).get('class_name')}"
        m = _POSITION.search(message) if err.get("type") == "json_invalid" else None
        if m:
            line, column = int(m.group(1)), int(m.group(2))
            diags.append(Diagnostic.at("SJ107", Span(line, column, line, column + 1), message))
        else:
            diags.append(Diagnostic.at("SJ107", None, f"{_where(tuple(err.get('loc', ())))}: {message}"))
    return diags


#: a record model (SJN's Record, GJN's GoujiRecord)
M = TypeVar("M", bound=BaseModel)


def internal_error(exc: Exception) -> Diagnostic:
    """SJ901: a bug of ours met while reading a JSON record (never the user's SJ107)."""
    return Diagnostic.at("SJ901", None,
                         f"internal error while reading this JSON record ({type(exc).__name__}: {exc}); "
                         f"the record is skipped; please report this bug with the record")


def validated(make: Callable[[], M], problems_of: Callable[[M], list[str]], notation: str,
              *, from_text: bool = False) -> tuple[M | None, list[Diagnostic]]:
    """``make()`` a record model from JSON and check it can be written in
    ``notation`` (``problems_of``): ``(record, [])`` or ``(None, [SJ107, …])``;
    a bug of ours on the way is SJ901. Both games' JSON readers use it."""
    try:
        record = make()
    except ValidationError as exc:
        return None, validation_diagnostics(exc, from_text=from_text)
    except RecursionError:
        return None, [Diagnostic.at("SJ107", None, "the JSON is nested too deeply to be a record")]
    except MemoryError:
        return None, [Diagnostic.at("SJ107", None, "the JSON is too large to be read as one record")]
    except Exception as exc:  # pydantic turns the user's faults into ValidationError: this is ours
        return None, [internal_error(exc)]
    try:
        problems = problems_of(record)
    except Exception as exc:
        return None, [internal_error(exc)]
    if problems:
        return None, [Diagnostic.at("SJ107", None, f"the record cannot be written as {notation}: {p}")
                      for p in problems]
    return record, []


def _validated(make: Callable[[], Record], *, from_text: bool = False) -> tuple[Record | None, list[Diagnostic]]:
    # (looked up at call time: tests patch representable_problems)
    return validated(make, lambda r: representable_problems(r), "SJN", from_text=from_text)
