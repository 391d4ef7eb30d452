"""Reading a command's inputs the way every command reads them.

Another program's log (:mod:`analyzer.io.importers`), or SJN / JSON / GJN as
:mod:`notation.detect` tells, record by record. A file that cannot be read
raises :class:`analyzer.io.errors.UserError` (one line for the user); a bad
``--from`` format or preset raises :class:`analyzer.io.errors.UsageError`.
Nothing here prints or exits: :mod:`analyzer.cli` does.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from analyzer.io.errors import UsageError, UserError


def read_text(path: str) -> str:
    """A file's text (``-``: stdin) without a byte-order mark; UserError when it cannot be read
    (bytes that are not UTF-8: with their line and column)."""
    from analyzer.lint.sources import decode_utf8, describe_decode_error
    data = read_bytes(path)
    try:
        return decode_utf8(data)
    except UnicodeDecodeError as exc:
        raise UserError(f"{'<stdin>' if path == '-' else path}: {describe_decode_error(exc)}") from None


def read_bytes(path: str) -> bytes:
    """A file's bytes (``-``: stdin); UserError when it cannot be read."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory") from None
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror or exc}") from None


def is_json(text: str, path: str = "") -> bool:
    """Is this the tool's JSON? (:func:`notation.detect.detect`, the one rule every command uses)."""
    from notation.detect import detect_text
    return detect_text(text, path) == "json"


def diag_line(path: str, d: Any) -> str:
    """``path:line:col: CODE message`` (control characters shown escaped)."""
    from notation.reader import escape_controls
    return escape_controls(f"{path}:{d.line}:{d.column}: {d.code} {d.message}")


def check_preset(rules: str | None) -> None:
    """UsageError unless ``rules`` is None or a Shengji or Gouji preset."""
    from analyzer.games.gouji.analysis import presets as gouji_presets
    from replay.ruleset import PRESETS
    if rules is not None and rules not in PRESETS and rules not in gouji_presets():
        raise UsageError(f"unknown preset {rules!r}; known: {', '.join(list(PRESETS) + list(gouji_presets()))}")


def log_format(text: str, path: str, source_format: str | None) -> str | None:
    """The importer to read ``text`` with (see ``analyzer.lint.import_format``), or None for
    the notations (SJN, JSON, GJN: :mod:`notation.detect`). UsageError for an unknown format."""
    from analyzer import lint as L
    options = L.LintOptions(source_format=source_format).validate()
    return L.import_format(path or "-", options, text)


class Source:
    """One input of a command, read the way every command reads it
    (:func:`analyzer.lint.input_kind`, the one rule: another program's log, or
    SJN / JSON / GJN / Gouji JSON as :mod:`notation.detect` tells), record by record.

    An input that can be read only once (``-``, ``/dev/stdin``, a pipe, a FIFO,
    a process substitution) is read once, whole, here, and told and read from
    what was read. A file that cannot be opened, bytes that are not UTF-8 in
    such a stream, and an input whose format cannot be told raise
    :class:`UserError` at once; an error while a file is read (bytes that are
    not UTF-8, an I/O error, the file changing meanwhile) stops the records there
    and is kept in :attr:`error` for the caller to report (:meth:`check`).
    """

    def __init__(self, path: str, source_format: str | None = None) -> None:
        from analyzer import lint as L
        from analyzer.lint.sources import (
            decode_utf8,
            describe_decode_error,
            file_state,
            is_stream,
            read_stream,
            unknown_format_message,
        )
        self.path = path
        self.name = "<stdin>" if path == "-" else path
        self.error: str | None = None
        self._text: str | None = None
        self._state: tuple[int, int, int] | None = None
        self.source_format = source_format
        self.options = L.LintOptions(source_format=source_format).validate()
        if os.path.isdir(path):
            raise UserError(f"{path}: is a directory")
        if is_stream(path):
            try:
                data = read_stream(path)
            except OSError as exc:
                raise UserError(f"{self.name}: {exc.strerror or exc}") from None
            try:
                self._text = decode_utf8(data)
            except UnicodeDecodeError as exc:
                raise UserError(f"{self.name}: {describe_decode_error(exc)}") from None
        else:
            try:
                with open(path, "rb"):
                    pass
            except OSError as exc:
                raise UserError(f"{path}: {exc.strerror or exc}") from None
            self._state = file_state(path)
        try:
            self.kind, self.log = L.input_kind(path, self.options, self._text)
        except OSError as exc:
            raise UserError(f"{path}: {exc.strerror or exc}") from None
        if self.kind == "unknown":
            raise UserError(f"{self.name}: {unknown_format_message()}")

    @property
    def held_text(self) -> str | None:
        """The text when it is already in memory (a stream), else None."""
        return self._text

    def _lines(self) -> Iterator[str]:
        from analyzer.lint.sources import describe_decode_error, open_lines
        try:
            yield from open_lines(self.path)
        except UnicodeDecodeError as exc:
            self.error = describe_decode_error(exc)
        except OSError as exc:
            self.error = exc.strerror or str(exc)

    def text(self) -> str:
        """The whole text (for what cannot stream: another program's log, a diff)."""
        if self._text is None:
            self._text = read_text(self.path)
        return self._text

    def records(self) -> Iterator[tuple[Any, list[Any]]]:
        """``(record | None, diagnostics)`` one record at a time; a record is None
        where a stretch of the input held no record (its diagnostics only).
        Shengji or Gouji records, as :attr:`kind` says (:meth:`gouji`)."""
        from notation.detect import read
        if self.log is not None:
            from analyzer.io.importers import import_text
            records, diags = import_text(self.log, self.text(), source=self.name)
            if diags:
                yield None, diags
            for r in records:
                yield r, []
            return
        source = self._text if self._text is not None else self._lines()
        gouji = self.gouji()
        for record, diags in read(source, self.kind):
            if record is not None and not record.tags and not (record.games if gouji else record.hands):
                record = None
            yield record, diags

    def load(self) -> tuple[list[Any], list[Any]]:
        """Every record and every diagnostic (for what needs them all: a Gouji report);
        UserError when reading stopped on an error (:meth:`check`)."""
        records, diags = [], []
        for record, found in self.records():
            diags.extend(found)
            if record is not None:
                records.append(record)
        self.check()
        return records, diags

    def gouji(self) -> bool:
        """Is this a Gouji record (GJN, or JSON written from GJN)? Those go to the
        Gouji commands (:mod:`analyzer.games.gouji.analysis`)."""
        from notation.detect import GOUJI_KINDS
        return self.log is None and self.kind in GOUJI_KINDS

    def check(self) -> None:
        """UserError if reading stopped on an error, or the file changed while it was read."""
        from analyzer.lint.sources import changed_message
        if not self.error and self._state is not None:
            self.error = changed_message(self.path, self._state)
        if self.error:
            raise UserError(f"{self.name}: {self.error}")


def load_records(text: str, path: str = "", source_format: str | None = None) -> tuple[list[Any], list[Any]]:
    """``(records, diagnostics)`` of a whole text, read as every command reads it
    (Shengji records; a Gouji text gives no record and says so)."""
    from analyzer.lint import LintOptions, input_kind
    from analyzer.lint.sources import unknown_format_message
    from notation.detect import GOUJI_KINDS, read
    from primitives.diagnostics import Diagnostic, Span
    kind, fmt = input_kind(path or "-", LintOptions(source_format=source_format).validate(), text)
    if fmt is not None:
        from analyzer.io.importers import import_text
        return import_text(fmt, text, source=path)
    if kind == "unknown":
        return [], [Diagnostic.at("SJ107", Span(1, 1, 1, 2), unknown_format_message())]
    if kind in GOUJI_KINDS:
        return [], [Diagnostic.at("SJ902", Span(1, 1, 1, 2), "a Gouji record: this reads Shengji records")]
    records, diags = [], []
    for record, found in read(text, kind):
        if record is not None and (record.tags or record.hands):
            records.append(record)
        diags.extend(found)
    return records, diags


def load_gjn(text: str, path: str = "") -> tuple[list[Any], list[Any]]:
    """``(records, diagnostics)`` from GJN text, or from the tool's JSON of Gouji
    records, read by the one reader of each (:func:`notation.detect.read`)."""
    from notation.detect import detect_text, read
    kind = "gjn-json" if detect_text(text, path) in ("json", "gjn-json") else "gjn"
    records, diags = [], []
    for record, found in read(text, kind):
        if record is not None and (record.tags or record.games):
            records.append(record)
        diags.extend(found)
    return records, diags


def is_gjn_input(text: str, path: str = "", source_format: str | None = None) -> bool:
    """Gouji records (GJN, or the tool's JSON of Gouji records), as every command
    tells (:func:`analyzer.lint.input_kind`)."""
    from analyzer.lint import LintOptions, input_kind
    from notation.detect import GOUJI_KINDS
    kind, fmt = input_kind(path or "-", LintOptions(source_format=source_format).validate(), text)
    return fmt is None and kind in GOUJI_KINDS


def reading_errors(diags: Any) -> int:
    """How many of ``diags`` say a part of the input could not be read (error
    severity, SJ1xx reading, SJ7xx import, SJ9xx): commands that show records
    exit 1 after them, as lint does."""
    return sum(1 for d in diags if d.severity == "error" and d.code.startswith(("SJ1", "SJ7", "SJ9")))
