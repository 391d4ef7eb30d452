"""Reading a file as every command reads it: its lines cut where the reader cuts
them, and what it is (a game's notation as :mod:`analyzer.games` tells, or
another program's log)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol

from analyzer.io.errors import UsageError


class SourceOptions(Protocol):
    """What telling an input needs of a command's options (``LintOptions`` has it)."""

    @property
    def source_format(self) -> str | None: ...


@dataclass(frozen=True)
class Reading:
    """The options of telling an input, for what has no ``LintOptions``."""

    source_format: str | None = None

    def validate(self) -> Reading:
        check_source_format(self.source_format)
        return self

#: the display name of standard input
STDIN = "-"


_RAW_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def raw_lines(f: IO[bytes]) -> Iterator[bytes]:
    """The byte lines of a binary file, cut where the reader cuts (``\\n``,
    ``\\r\\n`` and a lone ``\\r``), each with its line end."""
    for raw in f:
        if b"\r" not in raw:
            yield raw
        else:
            yield from _RAW_LINE.findall(raw)


def count_lines(block: bytes) -> int:
    """Line ends in ``block`` as the reader counts them (``\\r\\n`` is one)."""
    cr = block.count(b"\r")
    return block.count(b"\n") + (cr - block.count(b"\r\n") if cr else 0)


class NotUtf8(UnicodeDecodeError):
    """Bytes that are not UTF-8, with their place in the file: line and column
    (1-based, the column in characters) and the byte offset (0-based)."""

    def __init__(self, exc: UnicodeDecodeError, line: int, column: int, offset: int) -> None:
        super().__init__(exc.encoding, exc.object, exc.start, exc.end, exc.reason)
        self.line, self.column, self.offset = line, column, offset

    def __str__(self) -> str:
        return describe_decode_error(self)


def describe_decode_error(exc: UnicodeDecodeError) -> str:
    """What every command says of bytes that are not UTF-8 (with their line and
    column when known: see :class:`NotUtf8`)."""
    if isinstance(exc, NotUtf8):
        return f"not UTF-8 text at line {exc.line}, column {exc.column} (byte {exc.offset}): {exc.reason}"
    return f"not UTF-8 text ({exc.reason} at byte {exc.start})"


def _placed(exc: UnicodeDecodeError, raw: bytes, line: int, line_offset: int) -> NotUtf8:
    """``exc`` raised decoding ``raw`` (the line numbered ``line``, at byte ``line_offset``)."""
    column = len(raw[:exc.start].decode("utf-8", "replace")) + 1
    return NotUtf8(exc, line, column, line_offset + exc.start)


def decode_utf8(data: bytes) -> str:
    """``data`` decoded strictly as UTF-8 (a leading byte-order mark dropped, one:
    a second is text, as every reader keeps it); :class:`NotUtf8` at a bad byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        cr = data.rfind(b"\r", 0, exc.start) + 1
        line_start = max(start, cr)
        raise _placed(exc, data[line_start:], count_lines(data[:line_start]) + 1, line_start) from None
    return text[1:] if text.startswith("\ufeff") else text


def open_lines(path: str, start: int = 0, end: int | None = None, *, start_line: int = 1) -> Iterator[str]:
    """The text lines of ``path`` (bytes ``start``..``end``; ``start_line``: the
    number of the line at ``start``), decoded strictly as UTF-8, one per reader
    line (see :func:`raw_lines`); :class:`NotUtf8` at a bad byte, with its place."""
    with open(path, "rb") as f:
        if start:
            f.seek(start)
        yield from stream_lines(f, start, end, start_line=start_line)


def stream_lines(f: IO[bytes], start: int = 0, end: int | None = None, *, start_line: int = 1) -> Iterator[str]:
    """:func:`open_lines` of an open binary file (standard input, a pipe) from where it is."""
    pos = start
    line = start_line
    first = start == 0
    for raw in raw_lines(f):
        if end is not None and pos >= end:
            break
        at = pos
        pos += len(raw)
        if first:
            first = False
            if raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
                at += 3
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _placed(exc, raw, line, at) from None
        line += 1


def is_stream(path: str) -> bool:
    """Standard input (``-``), ``/dev/stdin``, a pipe, a FIFO, a process
    substitution, a device: an input that can be read only once (so it is read
    once, whole, and every step works on what was read). A name that cannot be
    looked at is not one (opening it reports why)."""
    if path == STDIN:
        return True
    import stat
    try:
        return not stat.S_ISREG(os.stat(path).st_mode) and not stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


def read_stream(path: str) -> bytes:
    """The bytes of a stream (:func:`is_stream`), read once."""
    if path == STDIN:
        import sys
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def file_state(path: str) -> tuple[int, int, int] | None:
    """``(size, mtime_ns, inode)`` of a regular file, to tell whether it changed
    while it was read (:func:`changed_message`); None for what is not a file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    import stat
    return (st.st_size, st.st_mtime_ns, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def changed_message(path: str, before: tuple[int, int, int] | None) -> str | None:
    """Why what was read of ``path`` may not be the file (it changed while it was
    read: another size, another modification time, another file), or None."""
    if before is None:
        return None
    after = file_state(path)
    if after == before:
        return None
    if after is None:
        return "the file went away while it was read; what was read is not reported"
    if after[0] != before[0]:
        return (f"the file changed while it was read ({before[0]} bytes at the start, {after[0]} now); "
                f"run again on a file that is not being written")
    return "the file changed while it was read; run again on a file that is not being written"


def check_source_format(source_format: str | None) -> None:
    """UsageError unless ``source_format`` is None, ``auto``, ``sjn`` or a log format."""
    if source_format in (None, "auto", "sjn"):
        return  # (the importers are imported only when a log needs them)
    from analyzer.io.importers import FORMATS, format_name
    if format_name(source_format) is None:
        raise UsageError(f"unknown log format {source_format!r}; known: sjn, auto, {', '.join(FORMATS)}")


def import_format(path: str, options: SourceOptions, text: str | None = None) -> str | None:
    """The log format to import ``path`` with, or None to read it as a notation.

    ``--from FORMAT`` decides; otherwise (and with ``--from auto``) a file
    whose name does not end in a game's suffix (``.sjn``, ``.gjn``:
    :func:`analyzer.games.suffixes`; standard input too) is detected from its
    content, only when unambiguous.
    """
    fmt = options.source_format
    if fmt == "sjn":
        return None
    if fmt is None and Path(path).suffix.lower() in _suffixes():
        return None
    from analyzer.io.importers import detect_format, format_name
    if fmt not in (None, "auto"):
        return format_name(fmt)
    if text is None:
        try:
            with open(path, "rb") as f:
                text = f.read(1 << 20).decode("utf-8", errors="replace")
        except OSError:
            return None
    return detect_format(text, path)


def _suffixes() -> tuple[str, ...]:
    from analyzer.io.gamekit import suffixes
    return suffixes()


def input_kind(path: str, options: SourceOptions, text: str | None = None) -> tuple[str, str | None]:
    """What ``path`` is, the one rule of every command that reads records
    (``text``: its content when already read, as a stream's is):
    ``("log", FORMAT)`` for another program's log (:func:`import_format`), else
    ``(kind, None)`` with the kind a game gives (``sjn``, ``json``, ``gjn``,
    ``gjn-json``, … :func:`analyzer.games.detect`; ``--from sjn`` forces SJN), or
    ``unknown`` when the name's suffix does not tell and the content is none of
    them (the commands say the format could not be told)."""
    from analyzer.io.gamekit import detect
    from notation.detect import HEAD_BYTES
    if options.source_format == "sjn":
        return "sjn", None
    fmt = import_format(path, options, text)
    if fmt is not None:
        return "log", fmt
    if text is not None:
        head = text[:HEAD_BYTES]
    else:
        with open(path, "rb") as f:
            head = f.read(HEAD_BYTES).decode("utf-8", errors="replace")
    return detect(head, path), None


def unknown_format_message() -> str:
    """What every command says of an input whose format could not be told (after its name)."""
    from analyzer.io.importers.registry import TEXT_NAMES
    return (f"the format cannot be told from its content (not SJN, GJN or the tool's JSON, "
            f"and no other program's log that can be told); if it is a log, name its format "
            f"with --from ({', '.join(TEXT_NAMES)})")
