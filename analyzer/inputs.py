"""Reading a command's inputs the way every command reads them.

Another program's log (:mod:`analyzer.importers`), or SJN / JSON / GJN as
:mod:`notation.detect` tells, record by record. A file that cannot be read
raises :class:`analyzer.errors.UserError` (one line for the user); a bad
``--from`` format or preset raises :class:`analyzer.errors.UsageError`.
Nothing here prints or exits: :mod:`analyzer.cli` does.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .errors import UsageError, UserError


def read_text(path: str) -> str:
    """A file's text (``-``: stdin) without a byte-order mark; UserError when it cannot be read."""
    if path == "-":
        return sys.stdin.read()
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory") from None
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return text[1:] if text.startswith("\ufeff") else text


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
    from replay.ruleset import PRESETS

    from .gouji import presets as gouji_presets
    if rules is not None and rules not in PRESETS and rules not in gouji_presets():
        raise UsageError(f"unknown preset {rules!r}; known: {', '.join(list(PRESETS) + list(gouji_presets()))}")


def log_format(text: str, path: str, source_format: str | None) -> str | None:
    """The importer to read ``text`` with (see ``analyzer.lint.import_format``), or None for
    the notations (SJN, JSON, GJN: :mod:`notation.detect`). UsageError for an unknown format."""
    from . import lint as L
    options = L.LintOptions(source_format=source_format).validate()
    return L.import_format(path or "-", options, text)


class Source:
    """One input of a command, read the way every command reads it
    (:func:`analyzer.lint.input_kind`: another program's log, or SJN / JSON / GJN
    as :mod:`notation.detect` tells), record by record.

    A file that cannot be opened raises :class:`UserError` at once; an error
    while it is read (bytes that are not UTF-8, an I/O error) stops the
    records there and is kept in :attr:`error` for the caller to report.
    """

    def __init__(self, path: str, source_format: str | None = None) -> None:
        from . import lint as L
        self.path = path
        self.name = "<stdin>" if path == "-" else path
        self.error: str | None = None
        self._text: str | None = None
        self.source_format = source_format
        self.options = L.LintOptions(source_format=source_format).validate()
        if path == "-":
            text = sys.stdin.read()
            self._text = text[1:] if text.startswith("\ufeff") else text
        else:
            if os.path.isdir(path):
                raise UserError(f"{path}: is a directory")
            try:
                with open(path, "rb"):
                    pass
            except OSError as exc:
                raise UserError(f"{path}: {exc.strerror or exc}") from None
        try:
            self.kind, self.log = L.input_kind(path, self.options, self._text)
        except OSError as exc:
            raise UserError(f"{path}: {exc.strerror or exc}") from None

    @property
    def held_text(self) -> str | None:
        """The text when it is already in memory (stdin), else None."""
        return self._text

    def _lines(self) -> Iterator[str]:
        from . import lint as L
        try:
            yield from L.open_lines(self.path)
        except UnicodeDecodeError as exc:
            self.error = f"not UTF-8 text ({exc.reason} at byte {exc.start})"
        except OSError as exc:
            self.error = exc.strerror or str(exc)

    def text(self) -> str:
        """The whole text (for what cannot stream: another program's log, a diff)."""
        if self._text is None:
            self._text = read_text(self.path)
        return self._text

    def records(self) -> Iterator[tuple[Any, list[Any]]]:
        """``(record | None, diagnostics)`` one record at a time; a record is None
        where a stretch of the input held no record (its diagnostics only)."""
        from notation.detect import read
        if self.log is not None:
            from .importers import import_text
            records, diags = import_text(self.log, self.text(), source=self.name)
            if diags:
                yield None, diags
            for r in records:
                yield r, []
            return
        source = self._text if self._text is not None else self._lines()
        for record, diags in read(source, self.kind):
            if record is not None and not record.tags and not record.hands:
                record = None
            yield record, diags

    def gouji(self) -> bool:
        """Is this a Gouji record (GJN, or JSON written from GJN)? Those go to the
        Gouji commands (:mod:`analyzer.gouji`)."""
        if self.log is not None or self.kind not in ("gjn", "json"):
            return False
        if self.kind == "gjn" and self.source_format in (None, "auto"):
            return True
        return is_gjn_input(self.text(), self.path, self.source_format)

    def check(self) -> None:
        """UserError if reading stopped on an error."""
        if self.error:
            raise UserError(f"{self.name}: {self.error}")


def load_records(text: str, path: str = "", source_format: str | None = None) -> tuple[list[Any], list[Any]]:
    """``(records, diagnostics)`` of a whole text, read as every command reads it."""
    from notation.detect import detect_text, read
    fmt = log_format(text, path, source_format)
    if fmt is not None:
        from .importers import import_text
        return import_text(fmt, text, source=path)
    records, diags = [], []
    for record, found in read(text, detect_text(text, path)):
        if record is not None and (record.tags or record.hands):
            records.append(record)
        diags.extend(found)
    return records, diags


def is_gjn_input(text: str, path: str = "", source_format: str | None = None) -> bool:
    """Gouji notation: a ``.gjn`` file or a ``[Game "gouji"]`` tag (GOUJI.md §10);
    JSON written from GJN (``"game_type": "gouji"``) too."""
    from notation.gjn import is_gjn
    if source_format not in (None, "auto"):
        return False
    if is_gjn(path, text[:65536]):
        return True
    return is_json(text, path) and '"game_type"' in text[:65536] and _gouji_json(text)


def _gouji_json(text: str) -> bool:
    try:
        data = json.loads(text)
    except ValueError:
        return False
    items = data if isinstance(data, list) else [data]
    return bool(items) and all(isinstance(i, dict) and i.get("game_type") == "gouji" for i in items)


def load_gjn(text: str, path: str = "") -> tuple[list[Any], list[Any]]:
    """``(records, diagnostics)`` from GJN text, or from JSON written from GJN."""
    from notation import gjn
    if not is_json(text, "" if gjn.is_gjn(path, None) else path):
        records, diags = gjn.parse(text)
        return [r for r in records if r.tags or r.games], diags
    from replay.diagnostics import Diagnostic, Span
    try:
        data = json.loads(text)
    except RecursionError:
        return [], [Diagnostic.at("SJ107", Span(1, 1, 1, 2), "the JSON is nested too deeply to be a record")]
    except ValueError as exc:  # not JSON after all (a .gjn file that starts with `{`): where it breaks
        from notation.detect import _json_error
        return [], [_json_error(text, exc)]
    from notation.detect import _line_at, lone_surrogate
    bad = lone_surrogate(text)
    if bad is not None:
        line, col = _line_at(text, bad)
        return [], [Diagnostic.at("SJ107", Span(line, col, line, col + 6), f"not valid JSON text: "
                                  f"`{text[bad:bad + 6]}` is half of a UTF-16 surrogate pair, not a character")]
    items = data if isinstance(data, list) else [data]
    records, diags = [], []
    for k, item in enumerate(items, 1):
        record, found = gjn.from_json(json.dumps(item))
        if record is not None:
            records.append(record)
        for d in found:
            diags.append(Diagnostic(d.code, (f"record {k}: " if len(items) > 1 else "") + d.message,
                                    d.line, d.column, d.end_line, d.end_column, d.severity))
    return records, diags
