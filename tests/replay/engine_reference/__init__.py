# ruff: noqa
# mypy: ignore-errors
"""The rules engine's hot functions as they were before the speed work of
issue 22 (``replay/units.py``, ``trick.py``, ``legal.py``, ``order.py``, ``cards.py`` at
that point, unchanged but for the imports): the reference that
``test_fast_engine.py`` compares the rewritten functions with, on random
holdings. Not used by the project itself."""
