"""The lint pipeline: read → replay → filter → sort, as library functions.

``shengji lint`` is a thin layer over this package:

* :func:`lint_text` lints one text (a file's content or stdin) and returns the
  sorted :class:`Finding` list;
* :func:`lint_file` streams one file (or a line range of it) record by record
  through :func:`notation.iter_records`, so a 1 GB file stays flat in memory:
  each record is replayed, its findings kept, and the replay dropped;
* :func:`lint_paths` expands paths (files, directories searched recursively
  for ``*.sjn``, globs, ``-`` for stdin), splits the work by file (and a huge
  file by record chunks), runs it on ``jobs`` processes and returns a
  :class:`LintReport` whose order never depends on ``jobs``.

Rules are never re-implemented here: every finding is a
:class:`primitives.diagnostics.Diagnostic` from ``notation`` or ``replay``. This
package only decides which ones are shown (``select``/``ignore`` code prefixes
and ``; noqa`` comments) and in what order.

One module per concern: :mod:`.findings` (Finding, FileResult, LintReport),
:mod:`.options` (LintOptions, code prefixes, the mistakes hook), :mod:`.noqa`,
:mod:`.sources` (reading lines, telling what a file is), :mod:`.check` (one
text / file / stdin), :mod:`.gcpace` (garbage-collector pacing), :mod:`.paths`,
:mod:`.split` (record chunks of a huge file), :mod:`.pool` (many paths, worker
processes) and :mod:`.formats` (the output formats, a registry).

The names below are loaded on first use (so ``import analyzer.lint.formats``
at the command line's start costs nothing else).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analyzer.io.sources import STDIN, count_lines, import_format, input_kind, open_lines, raw_lines
    from analyzer.lint.check import (
        internal_error,
        lint_file,
        lint_import_text,
        lint_stdin,
        lint_text,
        lint_text_result,
        record_diagnostics,
        record_line,
    )
    from analyzer.lint.findings import FileResult, Finding, LintReport, summary_line
    from analyzer.lint.formats import FORMATS, FORMATTERS, Formatter, LintFormat, to_github, to_json, to_sarif, to_text
    from analyzer.lint.gcpace import paced_collect, records_paced_gc
    from analyzer.lint.noqa import NOQA, NoqaLines, noqa_codes, noqa_map, silenced
    from analyzer.lint.options import (
        MISTAKES_ENTRY,
        REVIEW_ENTRY,
        LintOptions,
        LintUsageError,
        mistake_hook,
        mistakes_available,
        parse_codes,
        selected,
    )
    from analyzer.lint.paths import expand_paths
    from analyzer.lint.pool import MIN_PARALLEL_BYTES, SPLIT_BYTES, Progress, default_jobs, iter_jobs, lint_paths
    from analyzer.lint.split import CHUNK_BYTES, MIN_CHUNK_BYTES, split_file

#: public name → the module that defines it
_WHERE = {
    "check": ("internal_error", "lint_file", "lint_import_text", "lint_stdin", "lint_text", "lint_text_result",
              "record_diagnostics", "record_line", "_lint_lines"),
    "findings": ("FileResult", "Finding", "LintReport", "summary_line"),
    "formats": ("FORMATS", "FORMATTERS", "Formatter", "LintFormat", "SARIF_SCHEMA", "to_github", "to_json",
                "to_sarif", "to_text"),
    "gcpace": ("paced_collect", "records_paced_gc"),
    "noqa": ("NOQA", "NoqaLines", "noqa_codes", "noqa_map", "silenced"),
    "options": ("MISTAKES_ENTRY", "REVIEW_ENTRY", "LintOptions", "LintUsageError", "mistake_hook",
                "mistakes_available", "parse_codes", "selected"),
    "paths": ("expand_paths",),
    "pool": ("MIN_PARALLEL_BYTES", "SPLIT_BYTES", "Progress", "default_jobs", "iter_jobs", "lint_paths",
             "_Job", "_run_job", "_merge", "_lint_parallel"),
    "io_sources": ("STDIN", "count_lines", "import_format", "input_kind", "open_lines", "raw_lines"),
    "split": ("CHUNK_BYTES", "MIN_CHUNK_BYTES", "split_file"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}
#: the old private names other modules still use
_ALIASES = {"_NoqaLines": "NoqaLines", "_open_lines": "open_lines", "_record_line": "record_line",
            "_records_paced_gc": "records_paced_gc", "_paced_collect": "paced_collect",
            "_mistake_hook": "mistake_hook", "_lint_stdin": "lint_stdin"}


def __getattr__(name: str) -> Any:
    real = _ALIASES.get(name, name)
    module = _MODULE_OF.get(real)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}" if module != "io_sources" else "analyzer.io.sources"), real)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_MODULE_OF) | set(_ALIASES))


__all__ = ["internal_error", "lint_file", "lint_import_text", "lint_stdin", "lint_text", "lint_text_result",
           "record_diagnostics", "record_line", "FileResult", "Finding", "LintReport", "summary_line",
           "FORMATS", "FORMATTERS", "Formatter", "LintFormat", "to_github", "to_json", "to_sarif", "to_text",
           "paced_collect", "records_paced_gc", "NOQA", "NoqaLines", "noqa_codes", "noqa_map", "silenced",
           "MISTAKES_ENTRY", "REVIEW_ENTRY", "LintOptions", "LintUsageError", "mistake_hook",
           "mistakes_available", "parse_codes", "selected", "expand_paths", "MIN_PARALLEL_BYTES",
           "SPLIT_BYTES", "Progress", "default_jobs", "iter_jobs", "lint_paths", "STDIN", "count_lines",
           "import_format", "input_kind", "open_lines", "raw_lines", "CHUNK_BYTES", "MIN_CHUNK_BYTES",
           "split_file"]
