"""``shengji convert`` of Shengji records as a library function: a
:class:`~analyzer.io.inputs.Source`'s records written to a text stream, one record
at a time (``annotate``: :mod:`analyzer.games.shengji.annotate`; Gouji:
:mod:`analyzer.games.gouji.commands`). Reading errors are told to ``err`` (one line each) and then refuse
the whole output (:class:`~analyzer.io.errors.UserError`, exit status 1), so a
caller writing through :func:`analyzer.io.outputs.open_output` gets all or nothing."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import IO

from analyzer.io.errors import UserError
from analyzer.io.inputs import Source, diag_line

Echo = Callable[[str], None]


def _stderr(line: str) -> None:
    sys.stderr.write(line + "\n")


def _reading_error(d: object) -> bool:
    return getattr(d, "severity", "") == "error" and str(getattr(d, "code", "")).startswith(("SJ1", "SJ9"))


def convert_records(src: Source, to: str, out: IO[str], *, name: str, spans: bool = False,
                    unicode: bool = False, err: Echo = _stderr) -> int:
    """Write the Shengji records of ``src`` to ``out`` as ``sjn`` or ``json`` (one
    object, or an array for several records); the number of records. Every
    reading error is told to ``err`` before the output is refused."""
    from notation.jsonio import to_json
    from notation.writer import WriteStyle, write_record
    style = WriteStyle(unicode, True)
    errors = 0
    count = 0
    held: str | None = None  # JSON: the first record, until we know whether an array is needed
    for record, diags in src.records():
        for d in diags:
            err(diag_line(name, d))
            if _reading_error(d):
                errors += 1
        if errors or record is None:
            continue  # keep reading: every reading error is reported
        count += 1
        if to == "sjn":
            try:
                text = write_record(record, style)
            except ValueError as exc:
                raise UserError(f"{name}: not converted: {exc}", 1) from None
            out.write(("\n" if count > 1 else "") + text)
            continue
        item = to_json(record, indent=2, spans=spans)
        if count == 1:
            held = item
            continue
        if held is not None:
            out.write("[\n  " + held.replace("\n", "\n  "))
            held = None
        out.write(",\n  " + item.replace("\n", "\n  "))
    src.check()
    if errors:
        raise UserError(f"{name}: not converted: {errors} reading error(s)", 1)
    if not count:
        raise UserError(f"{name}: no record found", 1)
    if to == "json":
        out.write(held + "\n" if held is not None else "\n]\n")
    return count
