"""The ``shengji`` command line: thin Typer commands over library calls.

Every command reads its input (:mod:`analyzer.io.inputs`), calls ``notation`` /
``replay`` / :mod:`analyzer.lint` / :mod:`analyzer.report.model` …, and writes
(:mod:`analyzer.io.outputs`). Exit status: 0 success, 1 findings (lint errors,
files that fmt would change), 2 usage or I/O errors, always with a one-line
message on stderr and no traceback (:mod:`._core`).

One module per command group; :data:`COMMANDS` lists them in the order
``shengji --help`` shows them. A command module imports only Typer and light
modules at its top: everything else inside the command (start-up time). The
command modules do not use ``from __future__ import annotations``: Typer would
evaluate every ``Annotated[…, typer.Option(…)]`` string again each time it
builds the command line (a tenth of ``shengji --version``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from analyzer.cli._core import app, failure_message, version
from analyzer.io.echo import PROG, fail

if TYPE_CHECKING:
    from analyzer.io.inputs import diag_line as _diag_line
    from analyzer.io.inputs import load_records, read_bytes, read_text
    from analyzer.report.presets import SOURCE_NAMES, cite

#: the command modules, in the order of ``shengji --help``
COMMANDS = ("lint", "replay", "report", "fmt", "convert", "rules", "rule", "generate", "annotate", "import_export",
            "stats")

for _name in COMMANDS:
    importlib.import_module(f"{__name__}.{_name}")


#: library names still reachable here (``analyzer.io.export`` uses them), loaded on first use
_LIBRARY = {"_diag_line": ("io.inputs", "diag_line"), "load_records": ("io.inputs", "load_records"),
            "read_bytes": ("io.inputs", "read_bytes"), "read_text": ("io.inputs", "read_text"),
            "SOURCE_NAMES": ("report.presets", "SOURCE_NAMES"), "cite": ("report.presets", "cite")}


def __getattr__(name: str) -> Any:
    if name not in _LIBRARY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attr = _LIBRARY[name]
    value = getattr(importlib.import_module(f"analyzer.{module}"), attr)
    globals()[name] = value
    return value


def main() -> None:  # pragma: no cover - the console script calls ``app``
    app(prog_name=PROG)


__all__ = ["PROG", "SOURCE_NAMES", "app", "cite", "fail", "failure_message", "load_records", "main", "read_bytes",
           "read_text", "version", "_diag_line"]
