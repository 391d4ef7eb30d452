"""Where an element stands in its source text: a line and column span."""

from __future__ import annotations

from typing import NamedTuple


class Span(NamedTuple):
    """Source position of an element: 1-based line and column, end exclusive.

    ``Span()`` (all zeros) means "no position" (a record built in code).
    """

    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0


NO_SPAN = Span()
