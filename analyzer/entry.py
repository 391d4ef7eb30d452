"""The ``shengji`` console script (and ``python -m analyzer``).

The command line's own modules are imported here, inside ``main``, so that a
Ctrl-C while they are still loading ends as one during a command does: the
status 130 and one line, never a traceback (:mod:`analyzer.cli._core` handles
the rest of the run)."""

from __future__ import annotations

import sys


def main() -> None:
    """Run the ``shengji`` command line."""
    try:
        from analyzer.cli import app
        from analyzer.io.echo import PROG
    except KeyboardInterrupt:
        sys.stderr.write("Aborted.\n")
        raise SystemExit(130) from None
    app(prog_name=PROG)


__all__ = ["main"]
