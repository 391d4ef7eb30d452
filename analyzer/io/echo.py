"""What a command says on stderr, and how it stops: one line, the record's text in
it inert, an exit status. Library code that runs a command's work (a game's
``replay`` or ``report``, an export) says it here, so it needs nothing of
:mod:`analyzer.cli`, which re-exports these."""

from __future__ import annotations

from typing import NoReturn

import typer

from analyzer.io.errors import UsageError

PROG = "shengji"


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on stderr and exit (2: usage or I/O error)."""
    echo_err(f"{PROG}: error: {message}")
    raise typer.Exit(code)


def usage(message: str) -> NoReturn:
    """A usage error of the command being run (exit 2)."""
    raise UsageError(message)


def echo_err(line: str) -> None:
    """A line on stderr, a record's text in it inert (:func:`analyzer.io.safetext.inert`: the
    reader's ``escape_controls``, taken from there so that no Rich is imported for a line)."""
    from notation.reader import escape_controls
    typer.echo(escape_controls(line), err=True)


def wrote(output: str | None) -> None:
    """``wrote FILE`` on stderr when a command wrote ``output`` (not stdout)."""
    if output not in (None, "-"):
        echo_err(f"wrote {output}")
