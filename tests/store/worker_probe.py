"""Run in an export worker by tests/store/test_worker_columns.py (importable there: pytest
puts this directory on ``sys.path``, which the forkserver is given)."""

from __future__ import annotations

import sys
from typing import Any


def export_and_modules(job: Any, options: Any) -> tuple[bytes, list[str]]:
    """A chunk exported as the worker exports it (packed bytes), and the heavy modules loaded in the worker then."""
    from analyzer.store.workers import export_chunk_pickled
    result = export_chunk_pickled(job, options)
    return result, sorted(m for m in sys.modules if m.split(".")[0] in ("pyarrow", "duckdb", "pandas", "numpy"))
