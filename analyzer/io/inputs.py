"""Reading a command's inputs the way every command reads them.

Another program's log (:mod:`analyzer.io.importers`), or a game's notation as
the registry of games tells (:func:`analyzer.games.detect`), record by record. A file that cannot be read
raises :class:`analyzer.io.errors.UserError` (one line for the user); a bad
``--from`` format or preset raises :class:`analyzer.io.errors.UsageError`.
Nothing here prints or exits: :mod:`analyzer.cli` does.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.io.errors import UsageError, UserError

if TYPE_CHECKING:
    from analyzer.io.gamekit import Game


def read_text(path: str) -> str:
    """A file's text (``-``: stdin) without a byte-order mark; UserError when it cannot be read
    (bytes that are not UTF-8: with their line and column)."""
    from analyzer.io.sources import decode_utf8, describe_decode_error
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
        raise UserError(directory_error(path)) from None
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror or exc}") from None


def directory_error(path: str) -> str:
    """What a directory given where a file is read says: that it cannot be listed when so
    (mode 000: lint's walk hands such a directory on to be reported, as ``lint`` does),
    else that it is a directory."""
    try:
        os.scandir(path).close()
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    return f"{path}: is a directory"


def is_json(text: str, path: str = "") -> bool:
    """Is this the tool's JSON? (:func:`notation.detect.detect`, the one rule every command uses)."""
    from notation.detect import detect_text
    return detect_text(text, path) == "json"


def diag_line(path: str, d: Any) -> str:
    """``path:line:col: CODE message`` (control characters shown escaped)."""
    from notation.reader import escape_controls
    return escape_controls(f"{path}:{d.line}:{d.column}: {d.code} {d.message}")


def check_preset(rules: str | None) -> None:
    """UsageError unless ``rules`` is None or a preset of a game (:func:`analyzer.games.by_preset`)."""
    from analyzer.io.gamekit import all_presets, by_preset
    if rules is not None and by_preset(rules) is None:
        raise UsageError(f"unknown preset {rules!r}; known: {', '.join(all_presets())}")


def log_format(text: str, path: str, source_format: str | None) -> str | None:
    """The importer to read ``text`` with (see :func:`analyzer.io.sources.import_format`), or
    None for the games' notations (:func:`analyzer.games.detect`). UsageError for an unknown format."""
    from analyzer.io.sources import Reading, import_format
    return import_format(path or "-", Reading(source_format).validate(), text)


class Source:
    """One input of a command, read the way every command reads it
    (:func:`analyzer.io.sources.input_kind`, the one rule: another program's log, or
    a game's notation as :func:`analyzer.games.detect` tells), record by record;
    :attr:`game` is the game whose records they are (:func:`analyzer.games.by_kind`).

    An input that can be read only once (``-``, ``/dev/stdin``, a pipe, a FIFO,
    a process substitution) is read once, whole, here, and told and read from
    what was read. A file that cannot be opened, bytes that are not UTF-8 in
    such a stream, and an input whose format cannot be told raise
    :class:`UserError` at once; an error while a file is read (bytes that are
    not UTF-8, an I/O error, the file changing meanwhile) stops the records there
    and is kept in :attr:`error` for the caller to report (:meth:`check`).
    """

    def __init__(self, path: str, source_format: str | None = None) -> None:
        from analyzer.io.gamekit import by_kind
        from analyzer.io.sources import (
            Reading,
            decode_utf8,
            describe_decode_error,
            file_state,
            input_kind,
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
        self.options = Reading(source_format).validate()
        if os.path.isdir(path):
            raise UserError(directory_error(path))
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
            self.kind, self.log = input_kind(path, self.options, self._text)
        except OSError as exc:
            raise UserError(f"{path}: {exc.strerror or exc}") from None
        if self.kind == "unknown":
            raise UserError(f"{self.name}: {unknown_format_message()}")
        #: the game whose records these are (another program's log: the game its importer reads into)
        self.game: Game = by_kind(self.kind)

    @property
    def held_text(self) -> str | None:
        """The text when it is already in memory (a stream), else None."""
        return self._text

    def _lines(self) -> Iterator[str]:
        from analyzer.io.sources import describe_decode_error, open_lines
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
        The records of :attr:`game`, read by its reader."""
        if self.log is not None:
            from analyzer.io.importers import import_text
            records, diags = import_text(self.log, self.text(), source=self.name)
            if diags:
                yield None, diags
            for r in records:
                yield r, []
            return
        source = self._text if self._text is not None else self._lines()
        game = self.game
        for record, diags in game.read(source, self.kind):
            if record is not None and not game.holds(record):
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

    def check(self) -> None:
        """UserError if reading stopped on an error, or the file changed while it was read."""
        from analyzer.io.sources import changed_message
        if not self.error and self._state is not None:
            self.error = changed_message(self.path, self._state)
        if self.error:
            raise UserError(f"{self.name}: {self.error}")


def load_records(text: str, path: str = "", source_format: str | None = None) -> tuple[list[Any], list[Any]]:
    """``(records, diagnostics)`` of a whole text, read as every command reads it
    (Shengji records, another program's log too; another game's text gives no record and says so)."""
    from analyzer.io.gamekit import by_kind
    from analyzer.io.sources import Reading, input_kind, unknown_format_message
    from primitives.diagnostics import Diagnostic, Span
    kind, fmt = input_kind(path or "-", Reading(source_format).validate(), text)
    if fmt is not None:
        from analyzer.io.importers import import_text
        return import_text(fmt, text, source=path)
    if kind == "unknown":
        return [], [Diagnostic.at("SJ107", Span(1, 1, 1, 2), unknown_format_message())]
    game = by_kind(kind)
    if game is not by_kind("log"):
        return [], [Diagnostic.at("SJ902", Span(1, 1, 1, 2), f"a {game.title} record: this reads Shengji records")]
    return _read_all(game, text, kind)


def _read_all(game: Game, text: str, kind: str) -> tuple[list[Any], list[Any]]:
    records, diags = [], []
    for record, found in game.read(text, kind):
        if record is not None and game.holds(record):
            records.append(record)
        diags.extend(found)
    return records, diags


def load_game_records(text: str, path: str = "", kind: str | None = None) -> tuple[list[Any], list[Any]]:
    """``(records, diagnostics)`` of a whole text of any game (GJN, the tool's JSON
    of Gouji records, SJN…) read as ``kind``, else as :func:`analyzer.games.detect`
    tells, by the game's one reader (no log import)."""
    from analyzer.io.gamekit import by_kind, detect
    kind = kind or detect(text[:64 * 1024], path)
    if kind == "unknown":
        return [], []
    return _read_all(by_kind(kind), text, kind)


def game_of_input(text: str, path: str = "", source_format: str | None = None) -> Game | None:
    """The game of an input's records, as every command tells it
    (:func:`analyzer.io.sources.input_kind`), or None when its format cannot be told."""
    from analyzer.io.gamekit import by_kind
    from analyzer.io.sources import Reading, input_kind
    kind, _ = input_kind(path or "-", Reading(source_format).validate(), text)
    return None if kind == "unknown" else by_kind(kind)


def reading_errors(diags: Any) -> int:
    """How many of ``diags`` say a part of the input could not be read (error
    severity, SJ1xx reading, SJ7xx import, SJ9xx): commands that show records
    exit 1 after them, as lint does."""
    return sum(1 for d in diags if d.severity == "error" and d.code.startswith(("SJ1", "SJ7", "SJ9")))
