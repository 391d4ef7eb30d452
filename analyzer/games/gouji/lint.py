"""Gouji's check of one record for :mod:`analyzer.lint` (the pipeline reads,
filters and sorts; this says what the engine finds in a record)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analyzer.games import Checker
from primitives.diagnostics import Diagnostic


def checker(rules: str | None) -> Checker:
    """The check of one GJN record (reading, then the engine's findings); an engine
    bug becomes SJ901 at the record's line, and the run goes on."""
    from analyzer.games.gouji.analysis import record_diagnostics
    from analyzer.lint.check import record_line

    def check(record: Any, parse_diags: Sequence[Diagnostic], start_line: int) -> list[Diagnostic]:
        try:
            return record_diagnostics(record, parse_diags, rules)
        except (MemoryError, KeyboardInterrupt):
            raise
        except Exception as exc:  # an engine bug must not stop the run
            line = record_line(record, parse_diags, start_line)
            return list(parse_diags) + [Diagnostic(
                "SJ901",
                f"internal error while checking this record ({type(exc).__name__}: {exc}); "
                f"this is a bug in shengji, please report it with the record", line, 1, line, 2)]
    return check
