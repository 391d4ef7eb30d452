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

from analyzer.cli._core import app, failure_message, version
from analyzer.io.echo import PROG

#: the command modules, in the order of ``shengji --help``
COMMANDS = ("lint", "replay", "report", "fmt", "convert", "rules", "rule", "generate", "annotate", "import_export",
            "stats")

for _name in COMMANDS:
    importlib.import_module(f"{__name__}.{_name}")


def main() -> None:  # pragma: no cover - the console script calls ``app``
    app(prog_name=PROG)


__all__ = ["app", "failure_message", "main", "version"]
