"""What a file is, and the one place where its reader is chosen.

Every command (``lint``, ``replay``, ``report``, ``fmt``, ``convert``,
``annotate``) asks :func:`detect` what a text is and reads it with
:func:`read`, so they all see the same records at the same lines.

Kinds (:data:`KINDS`):

* ``sjn`` — Shengji notation (``notation.reader``), streamed line by line;
* ``json`` — the tool's own JSON (``shengji convert --to json``): one record
  object or an array of them;
* ``gjn`` — Gouji notation (``docs/gouji.md``: GJN), streamed line by line;
* ``gjn-json`` — the tool's own JSON of Gouji records (``shengji convert
  gouji.gjn --to json``): the first record says ``"game_type": "gouji"`` (or
  holds ``"games"``);
* ``unknown`` — none of these (:func:`detect` says so only with
  ``strict=True``): the commands say the format could not be told instead of
  reading it as SJN (or JSON that holds no record key as a record).

The rule (:func:`detect`): the suffix decides the notation (``.sjn``,
``.json``, ``.gjn``); with another suffix (or none, or stdin) the content does:
JSON when it starts with ``{`` or ``[`` then ``{``/``]``; GJN when a tag
``[Game "gouji"]`` or ``[Rules "gouji"]`` comes before the first non-tag
line; SJN otherwise. A ``.sjn`` file that is tagged ``gouji`` is GJN too; JSON
(``.json`` or not) whose first record is a Gouji record is ``gjn-json``.
Lines are cut as the reader cuts them (``\n``, ``\r\n``, ``\r``; never at
U+2028 or the other breaks ``str.splitlines`` knows).

A reader is ``reader(source, *, start_line=1) -> Iterator[(Record | None,
list[Diagnostic])]`` where ``source`` is a str or an iterable of lines; it
never raises for bad input.

This is the one module of ``notation`` that knows both games, on purpose:
telling a Shengji file from a Gouji one is its job, so it must know what marks
each (the suffix, the ``[Game "gouji"]`` tag, a Gouji JSON record) and hand
each kind to its own reader. It imports those readers only inside the
functions that read (a caller that only asks :func:`detect` loads neither);
nothing else of Shengji's notation or engine imports ``notation.gjn*`` or
``replay.gouji``, and the Gouji side imports nothing of Shengji's engine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import PurePath
from typing import Any

from primitives.diagnostics import NO_SPAN, Diagnostic, Span

__all__ = ["KINDS", "GOUJI_KINDS", "UNKNOWN", "looks_like_sjn", "SUFFIXES", "DIRECTORY_SUFFIXES", "detect", "detect_text", "read", "register_reader", "reader_for",
           "HEAD_BYTES", "gouji_tag_line", "GAME_TAG", "is_gjn", "is_gjn_file"]

KINDS = ("sjn", "json", "gjn", "gjn-json")
#: the kinds of Gouji records (the Gouji commands read them)
GOUJI_KINDS = ("gjn", "gjn-json")
SUFFIXES = {".sjn": "sjn", ".json": "json", ".gjn": "gjn"}
#: the files a directory argument gives (``shengji lint games/``): SJN and Gouji
#: records
DIRECTORY_SUFFIXES = (".sjn", ".gjn")
#: how much of the start of a file :func:`detect` looks at
HEAD_BYTES = 64 * 1024

_GOUJI_TAG = re.compile(r'\[[ \t]*(?:Game|Rules)[ \t]+"gouji"[ \t]*\]', re.IGNORECASE)
#: ``[Game "gouji"]`` (or a Gouji preset in ``[Rules]``) marks a GJN text whatever its file name
#: (``notation.gjn`` re-exports it: it lives here so that asking needs no GJN reader)
GAME_TAG = re.compile(r'\[[ \t]*(?:Game[ \t]+"gouji"|Rules[ \t]+"gouji(?:-[a-z0-9]+)*")[ \t]*\]',
                      re.IGNORECASE)

#: JSON whose first record is a Gouji one: ``"game_type": "gouji"`` (a key; a tag
#: value holding those words has its quotes escaped), or a ``"games"`` list
_GOUJI_JSON = re.compile(r'(?<!\\)"(?:game_type"\s*:\s*"gouji"|games"\s*:\s*\[)')
#: a key of a record object (Shengji or Gouji) in JSON
_RECORD_KEY = re.compile(r'(?<!\\)"(?:tags|hands|games|game_type|comments|line_comment)"\s*:')
_ANY_KEY = re.compile(r'(?<!\\)"(?:[^"\\]|\\.)*"\s*:')
#: what :func:`detect` says (``strict=True``) of a text that is none of the notations
UNKNOWN = "unknown"
#: the first word of an SJN line that is not a tag, a comment or a play
_SJN_WORD = re.compile(r"(?:hand|levels|dealer|first|kitty|declare|trump|bury|points|redeal|friend)\b"
                       r"|(?:[0-9]+\.[ \t]*)?(?:[NWSE]|P[1-8]):")

#: ``(record or None, diagnostics)`` for each record read
ReadResult = tuple[Any, list[Diagnostic]]
Reader = Callable[..., Iterator[ReadResult]]


def _looks_like_json(head: str) -> bool:
    s = head.lstrip("\ufeff \t\r\n")
    if s.startswith("{"):
        return True
    if s.startswith("["):
        rest = s[1:].lstrip(" \t\r\n")
        return rest.startswith("{") or rest.startswith("]")
    return False


def gouji_tag_line(head: str) -> int:
    """The line (1-based) of a ``[Game "gouji"]`` / ``[Rules "gouji"]`` tag in
    the tag section at the start of ``head``, or 0."""
    from ._records import split_lines
    for n, line in enumerate(split_lines(head), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith((";", "{")):
            continue
        if not stripped.startswith("["):
            return 0
        if _GOUJI_TAG.match(stripped):
            return n
    return 0


def is_gjn(path: str | None = None, text: str | None = None) -> bool:
    """A ``.gjn`` file, or a text whose first tag section (before its first
    line that is not a tag, a comment or blank) holds ``[Game "gouji"]`` or
    ``[Rules "gouji…"]`` (lines cut as the reader cuts them: a U+2028 inside a
    tag value is no line break)."""
    if path is not None and str(path).lower().endswith(".gjn"):
        return True
    if not text:
        return False
    from ._records import split_lines
    for line in split_lines(text[:HEAD_BYTES]):
        stripped = line.strip().lstrip("\ufeff")
        if not stripped or stripped[0] in ";{":
            continue
        if stripped[0] != "[":
            return False
        if GAME_TAG.search(stripped):
            return True
    return False


def is_gjn_file(path: str) -> bool:
    """A ``.gjn`` file, or one whose first tags say ``[Game "gouji"]`` (or a Gouji ``[Rules]``)."""
    if is_gjn(path, None):
        return True
    try:
        with open(path, "rb") as f:
            head = f.read(HEAD_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return False
    return is_gjn(None, head)


def looks_like_sjn(head: str) -> bool:
    """Does ``head`` start as SJN (or GJN) does: its first line that is not blank
    or a comment is a tag, a keyword line (``hand 1``, ``dealer S``) or plays?
    An empty text or one of comments only does too (it holds no record)."""
    from ._records import split_lines
    inside = False
    for line in split_lines(head):
        stripped = line.strip().lstrip("\ufeff").strip()
        if inside:
            inside = "}" not in stripped
            continue
        if not stripped or stripped[0] == ";":
            continue
        if stripped[0] == "{":
            inside = "}" not in stripped
            continue
        return stripped[0] == "[" or bool(_SJN_WORD.match(stripped.lower() if stripped[:1].islower() else stripped))
    return True


def _json_game(head: str) -> str:
    """``gjn-json`` for JSON whose first record is a Gouji one, else ``json``."""
    return "gjn-json" if _GOUJI_JSON.search(head) else "json"


def detect(head: str, path: str = "", *, strict: bool = False) -> str:
    """``"sjn"``, ``"json"``, ``"gjn"`` or ``"gjn-json"`` for a file named ``path``
    that starts with ``head``. With ``strict`` (no other program's log was found in
    it): ``"unknown"`` for JSON that holds keys but none of a record's, and, when
    the name's suffix tells nothing, for a text that starts as none of them."""
    suffix = PurePath(path).suffix.lower() if path and path != "-" else ""
    kind = SUFFIXES.get(suffix)
    if kind == "gjn":
        return kind
    if kind == "json" or (kind is None and _looks_like_json(head)):
        if strict and _ANY_KEY.search(head) and not _RECORD_KEY.search(head):
            return UNKNOWN  # JSON, but not a record's (``.json`` says JSON, not whose)
        return _json_game(head)
    if gouji_tag_line(head):
        return "gjn"
    if strict and kind is None and not looks_like_sjn(head):
        return UNKNOWN
    return "sjn"


def detect_text(text: str, path: str = "") -> str:
    return detect(text[:HEAD_BYTES], path)


# -- readers -----------------------------------------------------------------------------

def _read_sjn(source: Any, *, start_line: int = 1) -> Iterator[ReadResult]:
    from .reader import read_records
    return read_records(source, start_line)


def _text_of(source: Any) -> str:
    if isinstance(source, str):
        return source
    if isinstance(source, bytes):
        return source.decode("utf-8", "replace")
    return "".join(p if p.endswith(("\n", "\r")) else p + "\n" for p in source)


class _Where:
    """1-based (line, column) of offsets in ``text``, lines cut as the reader cuts
    them; asked in increasing order, it counts each stretch of text once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.line_start = 0

    def __call__(self, pos: int) -> tuple[int, int]:
        if pos < self.pos:
            self.pos, self.line, self.line_start = 0, 1, 0
        piece = self.text[self.pos:pos]
        breaks = piece.count("\n")
        cr = piece.count("\r")
        if cr:
            breaks += cr - piece.count("\r\n")
        if breaks:
            self.line += breaks
            self.line_start = self.pos + max(piece.rfind("\n"), piece.rfind("\r")) + 1
        self.pos = pos
        return self.line, pos - self.line_start + 1


def _end(m: re.Match[str] | None) -> int:
    """Where a match of a pattern that always matches (``[ \t\r\n]*``) ends."""
    assert m is not None
    return m.end()


def _line_at(text: str, pos: int) -> tuple[int, int]:
    return _Where(text)(pos)


def _json_error(text: str, exc: ValueError, where: _Where | None = None) -> Diagnostic:
    pos = getattr(exc, "pos", 0) or 0
    line, col = (where or _Where(text))(pos)
    msg = getattr(exc, "msg", str(exc))
    return Diagnostic.at("SJ107", Span(line, col, line, col + 1), f"not valid JSON: {msg}")


#: a ``\\uXXXX`` escape of a UTF-16 surrogate, with the backslashes before it
_SURROGATE_ESCAPE = re.compile(r"(\\+)u([dD][89a-fA-F][0-9a-fA-F]{2})")


def lone_surrogate(text: str, start: int = 0, end: int | None = None) -> int | None:
    """Where, in JSON ``text[start:end]``, a ``\\ud800``-style escape names half of
    a UTF-16 pair with no other half (a lone surrogate: not a character, it
    cannot be written as UTF-8); None when there is none. Linear; fast when
    the text holds no such escape."""
    end = len(text) if end is None else end
    if text.find("\\ud", start, end) < 0 and text.find("\\uD", start, end) < 0:
        return None
    skip = -1
    for m in _SURROGATE_ESCAPE.finditer(text, start, end):
        if len(m.group(1)) % 2 == 0 or m.start() < skip:  # an escaped backslash, or a pair's low half
            continue
        code = int(m.group(2), 16)
        at = m.end(1) - 1
        if code < 0xDC00:
            low = _SURROGATE_ESCAPE.match(text, m.end(), end)
            if low is not None and len(low.group(1)) == 1 and int(low.group(2), 16) >= 0xDC00:
                skip = low.end()
                continue
        return at
    return None


def _read_json(source: Any, *, start_line: int = 1, gouji: bool = False) -> Iterator[ReadResult]:
    """The tool's own JSON: a record object, or an array of record objects
    (read one element at a time; each record's diagnostics without a position
    go on the line where its object starts). ``gouji``: Gouji records (GJN's
    JSON), read the same way."""
    from . import gjn_jsonio, jsonio
    from_data: Callable[[object], tuple[Any, list[Diagnostic]]] = (
        gjn_jsonio.from_data if gouji else jsonio.from_data)
    text = _text_of(source)
    decoder = json.JSONDecoder()
    ws = re.compile(r"[ \t\r\n]*")
    i = _end(ws.match(text, 1 if text.startswith("\ufeff") else 0))
    offset = start_line - 1
    where = _Where(text)

    def located(diags: list[Diagnostic], pos: int) -> list[Diagnostic]:
        line, col = where(pos)
        out = []
        for d in diags:
            if d.line <= 0:
                d = Diagnostic(d.code, d.message, line + offset, col, line + offset, col + 1, d.severity)
            out.append(d)
        return out

    def one(pos: int, prefix: str = "") -> tuple[Any, list[Diagnostic], int | None]:
        try:
            value, end = decoder.raw_decode(text, pos)
        except RecursionError:
            return None, located([Diagnostic.at("SJ107", None, f"{prefix}the JSON is nested too deeply "
                                                "to be a record")], pos), None
        except ValueError as exc:
            return None, [_json_error(text, exc, where)], None
        bad = lone_surrogate(text, pos, end)
        if bad is not None:
            line, col = where(bad)
            return None, [Diagnostic.at("SJ107", Span(line + offset, col, line + offset, col + 6),
                                        f"{prefix}not valid JSON text: `{text[bad:bad + 6]}` is half of a "
                                        "UTF-16 surrogate pair, not a character")], end
        record, diags = from_data(value)
        if record is not None and record.span == NO_SPAN:
            line, col = where(pos)
            end_line, end_col = where(end)
            record.span = Span(line + offset, col, end_line + offset, end_col)
        if record is not None and not record.tags and not (record.games if gouji else record.hands):
            record, diags = None, [Diagnostic.at("SJ107", None, "the JSON object holds no record "
                                                 f"(no tags and no {'games' if gouji else 'hands'})")]
        if prefix:
            diags = [Diagnostic(d.code, prefix + d.message, d.line, d.column, d.end_line, d.end_column,
                                d.severity) for d in diags]
        return record, located(diags, pos), end

    if i >= len(text):
        yield None, [Diagnostic.at("SJ107", Span(start_line, 1, start_line, 1), "empty JSON input: no record")]
        return
    if text[i] != "[":
        record, diags, end = one(i)
        if end is not None:
            rest = _end(ws.match(text, end))
            if rest < len(text):
                line, col = _line_at(text, rest)
                diags.append(Diagnostic.at("SJ107", Span(line, col, line, col + 1),
                                           "extra data after the JSON record"))
        yield record, diags
        return
    i = _end(ws.match(text, i + 1))
    if text.startswith("]", i):
        return
    k = 0
    while True:
        k += 1
        record, diags, end = one(i, f"record {k}: ")
        yield record, diags
        if end is None:
            return
        i = _end(ws.match(text, end))
        if text.startswith(",", i):
            i = _end(ws.match(text, i + 1))
            continue
        if text.startswith("]", i):
            rest = _end(ws.match(text, i + 1))
            if rest < len(text):
                line, col = _line_at(text, rest)
                yield None, [Diagnostic.at("SJ107", Span(line, col, line, col + 1),
                                           "extra data after the JSON array")]
            return
        line, col = _line_at(text, i)
        yield None, [Diagnostic.at("SJ107", Span(line, col, line, col + 1),
                                   "not valid JSON: expected `,` or `]` after a record")]
        return


def _read_gjn(source: Any, *, start_line: int = 1) -> Iterator[ReadResult]:
    from .gjn_reader import read_records
    return read_records(source, start_line)


def _read_gjn_json(source: Any, *, start_line: int = 1) -> Iterator[ReadResult]:
    return _read_json(source, start_line=start_line, gouji=True)


_READERS: dict[str, Reader] = {"sjn": _read_sjn, "json": _read_json, "gjn": _read_gjn, "gjn-json": _read_gjn_json}


def register_reader(kind: str, reader: Reader) -> None:
    """Plug in the reader of ``kind`` (e.g. the GJN reader: ``register_reader("gjn", read_gjn)``)."""
    _READERS[kind] = reader


def reader_for(kind: str) -> Reader:
    return _READERS[kind]


def read(source: str | Iterable[str], kind: str, *, start_line: int = 1) -> Iterator[ReadResult]:
    """``(record | None, diagnostics)`` for each record of ``source`` read as ``kind``."""
    return _READERS[kind](source, start_line=start_line)
