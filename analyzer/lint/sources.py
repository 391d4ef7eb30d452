"""Reading a file as the linter (and every command) reads it: its lines cut where
the reader cuts them, and what it is (SJN, JSON, GJN, or another program's log)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from .options import LintOptions

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


def open_lines(path: str, start: int = 0, end: int | None = None) -> Iterator[str]:
    """The text lines of ``path`` (bytes ``start``..``end``), decoded strictly as
    UTF-8, one per reader line (see :func:`raw_lines`)."""
    with open(path, "rb") as f:
        if start:
            f.seek(start)
        pos = start
        first = start == 0
        for raw in raw_lines(f):
            if end is not None and pos >= end:
                break
            pos += len(raw)
            if first:
                first = False
                if raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
            yield raw.decode("utf-8")




def import_format(path: str, options: LintOptions, text: str | None = None) -> str | None:
    """The log format to import ``path`` with, or None to read it as SJN.

    ``--from FORMAT`` decides; ``--from auto`` and explicitly named files that
    are not ``.sjn`` are detected from their content (only when unambiguous).
    """
    fmt = options.source_format
    if fmt == "sjn":
        return None
    if fmt is None and (path == STDIN or Path(path).suffix.lower() == ".sjn"):
        return None
    from ..importers import detect_format, format_name
    if fmt not in (None, "auto"):
        return format_name(fmt)
    if text is None:
        try:
            with open(path, "rb") as f:
                text = f.read(1 << 20).decode("utf-8", errors="replace")
        except OSError:
            return None
    return detect_format(text, path)


def input_kind(path: str, options: LintOptions, text: str | None = None) -> tuple[str, str | None]:
    """How every command reads ``path`` (``text``: its content when already read):
    ``("log", FORMAT)`` for another program's log (:func:`import_format`), else
    ``(kind, None)`` with kind ``sjn``, ``json`` or ``gjn`` as
    :func:`notation.detect.detect` tells (``--from sjn`` forces SJN)."""
    from notation.detect import HEAD_BYTES, detect
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
