"""Where a command writes: a file (atomically, never over an input or, without
``force``, over an existing file) or stdout. Problems raise
:class:`analyzer.io.errors.UserError`; nothing here prints or exits."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from analyzer.io.errors import UserError


class Discard(Exception):
    """Raised inside an :func:`open_output` block: drop what was written."""


def check_output(out: str | None, *, force: bool, inputs: Sequence[str] = ()) -> None:
    """Refuse an output file before any work: an existing file without ``force``,
    a directory, or one of the inputs (even with ``force``: only ``fmt --write``
    rewrites its input)."""
    if out is None or out == "-":
        return
    from analyzer.io.atomic import same_file
    for source in inputs:
        if source != "-" and same_file(out, source):
            raise UserError(f"{out} is the input file {source}; refusing to overwrite it (even with --force)")
    p = Path(out)
    if p.is_dir():
        raise UserError(f"{out} is a directory")
    if p.exists() and not force:
        raise UserError(f"{out} exists; use --force to overwrite it")


@contextlib.contextmanager
def open_output(out: str | None, *, spool: bool = False, inert: bool = False) -> Iterator[IO[str]]:
    """Where a command writes: ``out`` (written atomically: a temporary file in
    the same directory, fsynced, renamed over ``out`` only when the block ends
    cleanly) or stdout. With ``spool``, stdout gets the text only when the block
    ends cleanly (kept in a temporary file meanwhile, so memory stays flat):
    for all-or-nothing commands like ``convert``. With ``inert``, a record's text
    written to a terminal has its control characters shown escaped
    (:func:`analyzer.io.safetext.terminal_stream`; a file or a pipe gets the bytes as they are)."""
    import tempfile

    from analyzer.io.atomic import atomic_writer
    if out is None or out == "-":
        stdout: IO[str] = sys.stdout
        if inert and _is_terminal(stdout):   # (safetext imports Rich: only for a terminal)
            from analyzer.io.safetext import terminal_stream
            stdout = terminal_stream(stdout)
        if not spool:
            yield stdout
            stdout.flush()
            return
        with tempfile.SpooledTemporaryFile(max_size=4 << 20, mode="w+", encoding="utf-8", newline="") as buf:
            yield buf  # type: ignore[misc,unused-ignore]  # a text-mode spooled file is a text stream
            buf.seek(0)
            while True:
                piece = buf.read(1 << 16)
                if not piece:
                    break
                stdout.write(piece)
            stdout.flush()
        return
    try:
        with atomic_writer(out) as f:
            yield f
    except OSError as exc:  # the old file, if any, is left as it was
        raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None


def _is_terminal(stream: IO[str]) -> bool:
    """:func:`analyzer.io.safetext.is_terminal`, without importing that module."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def write_output(out: str | None, text: str, *, force: bool, inputs: Sequence[str] = (),
                 inert: bool = False) -> None:
    """Write ``text`` to ``out`` (atomically; never over an existing file without
    ``force``, never over an input), or stdout."""
    check_output(out, force=force, inputs=inputs)
    with open_output(out, inert=inert) as f:
        f.write(text)


def output_in_dir(output: str | None, name: str) -> str | None:
    """``output`` itself, or ``output/name`` when ``output`` is a directory (or ends
    with a separator: then it is made)."""
    import os
    if output is not None and output != "-" and (Path(output).is_dir() or output.endswith(("/", os.sep))):
        Path(output).mkdir(parents=True, exist_ok=True)
        return str(Path(output) / name)
    return output
