"""The mistake rules: one module per rule, ``sjNNN_<name>.py``, found here by
:func:`load` (no list to keep: a new module is a new rule).

A rule module defines one :class:`analyzer.review.mistakes.base.Rule` subclass
decorated with :func:`analyzer.review.mistakes.base.rule`: its ``code`` (an SJ6xx
row of ``primitives.diagnostics.CODES``), its ``name`` (the row's name) and its
docstring, which IS the rule's documentation: a first line, then
``Bad pattern:`` (the anti-pattern), ``Better play:`` and how the cost is
measured. ``python -m analyzer.review.mistakes.docs`` writes the docstrings into
docs/diagnostics.md (a test fails when the page is out of date). Modules whose
name starts with ``_`` hold shared helpers and are not rules.
"""

from __future__ import annotations

import importlib
import pkgutil


def load() -> list[str]:
    """Import every rule module of this package (registering its rule); their names."""
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    for name in names:
        importlib.import_module(f"{__name__}.{name}")
    return names
