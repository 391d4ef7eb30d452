"""Filling pydantic model instances directly, without validation: shared by
the SJN and GJN readers.

Parsed values are already typed (seats come from a regex, cards are ints), so
validation would only cost time, and pydantic's ``model_construct`` is slow in
the versions we run on (it inspects each ``default_factory`` on every call).
The readers fill the instances directly instead: :func:`fill` sets the field
dict and pydantic's three per-instance slots. Each reader compares its direct
builds with validated models at import (its ``_self_check``) and falls back to
validation if pydantic's internals ever differ.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

_M = TypeVar("_M", bound=BaseModel)

new_object = object.__new__
#: sets an instance's field dict: the ``__dict__`` slot's own setter, which
#: ``object.__setattr__`` would look up on every call
set_dict: Callable[[object, dict[str, Any]], None] = vars(BaseModel)["__dict__"].__set__
# pydantic's per-instance slots: their descriptors' setters (mypy sees the
# slots' value types, not the slot descriptors the class holds)
set_fields_set: Callable[[object, set[str]], None] = vars(BaseModel)["__pydantic_fields_set__"].__set__
set_extra: Callable[[object, None], None] = vars(BaseModel)["__pydantic_extra__"].__set__
set_private: Callable[[object, None], None] = vars(BaseModel)["__pydantic_private__"].__set__


def fill(cls: type[_M], fields: dict[str, Any], given: set[str]) -> _M:
    """An instance of ``cls`` holding ``fields`` (all of them, in field order);
    ``given`` are the fields set explicitly (``model_fields_set``)."""
    obj = new_object(cls)
    set_dict(obj, fields)
    set_fields_set(obj, given)
    set_extra(obj, None)
    set_private(obj, None)
    return obj
