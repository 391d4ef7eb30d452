"""What the SJN and GJN readers share: cutting text into lines, record chunks
and logical lines; streaming records from chunks (folding a record with no
hand or game into the next); the place of a syntax error; comments and spans."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple, Protocol, TypeVar

from primitives.diagnostics import Diagnostic, Span

# -- splitting into records and logical lines -------------------------------------------

_OUTSIDE = re.compile(r'[";{]')
_BRACE = re.compile(r"[{}]")
_QUOTED_REST = re.compile(r'(?:[^"\\]|\\.)*"')


def _open_at_end(line: str, inside: bool) -> bool:
    """Is a ``{`` commentary still open at the end of ``line``?"""
    i = 0
    while True:
        if inside:
            m = _BRACE.search(line, i)
            if m is None:
                return True
            inside = m.group() == "{"
            i = m.end()
        else:
            m = _OUTSIDE.search(line, i)
            if m is None:
                return False
            ch = m.group()
            if ch == ";":
                return False
            if ch == '"':
                q = _QUOTED_REST.match(line, m.end())
                if q is None:
                    return False
                i = q.end()
            else:
                inside = True
                i = m.end()


#: full-width letters and digits (``Ａ``, ``Ｈ３`` typed with a Chinese IME) are
#: read as their ASCII forms, on every path of the SJN reader (:func:`parse_chunk`
#: translates a chunk's lines before the shortcut or Lark sees them); columns do
#: not move
FULLWIDTH = {c: c - 0xFEE0 for c in (*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B),
                                     *range(0xFF41, 0xFF5B))}

#: the reader's line breaks: ``\n``, ``\r\n`` and a lone ``\r``, nothing else (not
#: U+2028, U+0085, a form feed or a vertical tab, which ``str.splitlines`` breaks on)
LINE_BREAKS = ("\r\n", "\r", "\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as the reader cuts them, without their line ends
    (a final line end does not start another line). Every command that shows
    line numbers cuts text with this, never with ``str.splitlines``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _ascii(line: str, _table: dict[int, int] = FULLWIDTH) -> str:
    return line if line.isascii() else line.translate(_table)


def _lines_of(source: Any, held: Callable[[], tuple[int, list[str]]]) -> Iterator[str]:
    """The lines of a str, bytes, file or iterable of lines, without line ends
    (``\n``, ``\r\n`` or ``\r``: :func:`split_lines`; an iterable's pieces may hold
    several lines).

    An error raised while a file or an iterable is read is raised again as
    :class:`_InputFailed`, carrying ``held()`` (the chunk held then)."""
    if isinstance(source, (str, bytes)):
        text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        start = 0
        n = len(text)
        while start < n:
            end = text.find("\n", start)
            if end < 0:
                yield text[start:]
                return
            yield text[start:end]
            start = end + 1
        return
    # one `for` inside one `try` (not a `next()` in a `try` a piece): an error
    # the consumer raises never enters a generator at its `yield`, so what
    # the `try` catches comes from the input or from cutting its pieces
    try:
        for piece in source:
            if isinstance(piece, bytes):
                piece = piece.decode("utf-8", "replace")
            # the usual piece: one line and its `\n` (a file's line), or a last
            # line without one: cut in one call
            line, _, rest = piece.partition("\n")
            if rest or "\r" in line:  # several lines, or a `\r`
                if piece.endswith("\n"):
                    piece = piece[:-1]
                if piece.endswith("\r"):
                    piece = piece[:-1]
                if "\n" in piece or "\r" in piece:
                    yield from piece.replace("\r\n", "\n").replace("\r", "\n").split("\n")
                    continue
                line = piece
            yield line
    except MemoryError:
        raise
    except Exception as exc:
        raise _InputFailed(exc, held()) from exc


#: what reading the input itself may raise that is the input's fault, not a bug:
#: I/O (OSError, EOFError) and decoding (UnicodeError); anything else is SJ901
INPUT_ERRORS: tuple[type[Exception], ...] = (OSError, EOFError, UnicodeError)


class _InputFailed(Exception):
    """The input raised while being read; ``pending`` is the chunk held then."""

    def __init__(self, error: BaseException, pending: tuple[int, list[str]]):
        super().__init__(str(error))
        self.error = error
        self.pending = pending


def split_records(source: Any, start_line: int = 1) -> Iterator[tuple[int, list[str]]]:
    """Cut the input into record chunks: ``(first line number, lines)``.

    A line whose first non-blank character is ``[`` starts a new record when
    the current one already has hand content (any line that is not a tag,
    comment, commentary or blank). Comment lines separated from the hand
    above by a blank line go with the record that follows. A commentary
    cannot hold a line starting with ``[``: such a line ends an open
    commentary (reported unterminated), which bounds the memory a chunk takes.
    """
    try:
        yield from _split_records(source, start_line)
    except _InputFailed as failed:
        first, buf = failed.pending
        if any(s.strip() for s in buf):
            yield first, list(buf)
        raise failed.error from None


def _split_records(source: Any, start_line: int) -> Iterator[tuple[int, list[str]]]:
    buf: list[str] = []
    first = start_line
    has_content = False
    inside = False
    cut: int | None = None
    lines: Iterable[str]
    if isinstance(source, (str, bytes)):  # all in memory already: cut it at once
        lines = split_lines(source.decode("utf-8", "replace") if isinstance(source, bytes) else source)
    else:
        lines = _lines_of(source, lambda: (first, buf))
    for number, line in enumerate(lines):
        if number == 0 and line.startswith("\ufeff"):
            line = line[1:]
        head = line[:1]
        if head.isspace():
            head = line.lstrip()[:1]
        if inside and head != "[":
            buf.append(line)
            inside = _open_at_end(line, True)
            continue
        inside = False  # a line starting with `[` always ends a commentary
        if not head:
            if has_content and cut is None:
                cut = len(buf)
        elif head == "[":
            if has_content:
                if cut is None:
                    cut = len(buf)
                yield first, buf[:cut]
                buf = buf[cut:]
                first += cut
                has_content = False
        elif head not in ";{":
            has_content = True
            cut = None
        buf.append(line)
        if "{" in line:
            inside = _open_at_end(line, False)
        if number % 4096 == 4095 and not has_content and not any(s.strip() for s in buf):
            first += len(buf)  # do not hold long runs of blank lines
            buf = []
    if any(s.strip() for s in buf):
        yield first, buf


class _Logical:
    """A logical line of a chunk: lines ``first..last`` (0-based in the chunk),
    its ``text``, and an unterminated commentary found on it, if any."""

    __slots__ = ("first", "text", "open_line", "open_column", "open_text")

    def __init__(self, first: int, text: str):
        self.first = first
        self.text = text
        self.open_line = -1
        self.open_column = 0
        self.open_text = ""


def _find_close(lines: list[str], j: int, i: int) -> tuple[int, int] | None:
    """From line ``j`` column ``i`` (inside a commentary), where is the ``}``?

    ``(line, index after it)``, or None when a ``{``, a line starting with
    ``[`` or the end of the chunk comes first: the commentary is unterminated.
    """
    while j < len(lines):
        m = _BRACE.search(lines[j], i)
        if m is not None:
            return (j, m.end()) if m.group() == "}" else None
        j, i = j + 1, 0
        if j < len(lines) and lines[j].lstrip().startswith("["):
            return None
    return None


def logical_lines(lines: list[str]) -> Iterator[_Logical]:
    """Group a chunk's lines into logical lines (multi-line commentaries)."""
    j = 0
    n = len(lines)
    while j < n:
        first = j
        i = 0
        while True:
            line = lines[j]
            m = _OUTSIDE.search(line, i)
            if m is None or m.group() == ";":
                item = _Logical(first, "\n".join(lines[first:j + 1]))
                break
            if m.group() == '"':
                q = _QUOTED_REST.match(line, m.end())
                if q is None:
                    item = _Logical(first, "\n".join(lines[first:j + 1]))
                    break
                i = q.end()
                continue
            close = _find_close(lines, j, m.end())
            if close is not None:
                j, i = close
                continue
            # unterminated: parse what is before the `{`, keep the text after it
            item = _Logical(first, "\n".join(lines[first:j] + [line[:m.start()]]))
            item.open_line = j
            item.open_column = m.start()
            rest = line[m.end():]
            item.open_text = _BRACE.split(rest, 1)[0].strip()
            break
        yield item
        j += 1




# -- streaming records from chunks --------------------------------------------------------------

class _RecordLike(Protocol):
    """What folding needs of a record (SJN's ``Record``, GJN's ``GoujiRecord``)."""

    tags: list[Any]
    header_comments: list[str]
    line_comment: str | None
    span: Span

    def model_copy(self: _R, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> _R: ...


_R = TypeVar("_R", bound=_RecordLike)

#: what a reader's ``parse_chunk`` gives: the chunk's records and diagnostics
ChunkParser = Callable[[list[str], int], tuple[list[_R], list[Diagnostic]]]


def join_comment(old: str | None, new: str) -> str:
    """A ``;`` comment added to the one already held (one line each)."""
    return new if old is None else old + "\n" + new


def merge_spans(a: Span, b: Span) -> Span:
    """From the start of ``a`` to the end of ``b``."""
    return tuple.__new__(Span, (a[0], a[1], b[2], b[3]))


def stream_records(source: Any, start_line: int, parse_chunk: ChunkParser[_R],
                   empty: Callable[[Span], _R], has_body: Callable[[_R], bool],
                   ) -> Iterator[tuple[_R, list[Diagnostic]]]:
    """Stream ``(record, diagnostics)`` from any input; never raises.

    Each chunk of :func:`split_records` is read by ``parse_chunk``. What a
    chunk gives without a body (``has_body``: a hand, a game; tags or comments
    whose other lines were all bad, or a chunk of errors only) is not a record
    of its own: it is folded into the record that follows (its tags and
    comments first), as reading the written text again would do. Only at the
    very end is a body-less record yielded alone. ``empty(span)`` makes a
    record with nothing in it.
    """
    chunks = split_records(source, start_line)
    line = start_line
    pending: tuple[_R, list[Diagnostic]] | None = None
    while True:
        failed: Diagnostic | None = None
        try:
            first, lines = next(chunks)
        except StopIteration:
            break
        except INPUT_ERRORS as exc:  # reading the input itself failed: the user's to fix
            failed = Diagnostic.at("SJ101", Span(line, 1, line, 1),
                                   f"the input could not be read past this line ({type(exc).__name__}: {exc})")
        except MemoryError:
            raise  # out of memory: the command's exit 2, not a bug
        except Exception as exc:  # a bug in the splitter: not the user's error
            failed = Diagnostic.at("SJ901", Span(line, 1, line, 1),
                                   f"internal error while reading the input past this line "
                                   f"({type(exc).__name__}: {exc}); the rest is skipped; "
                                   f"please report this bug with the input")
        if failed is not None:
            diag = failed
            if pending is not None:
                pending[1].append(diag)
            else:
                pending = (empty(Span(line, 1, line, 1)), [diag])
            break
        line = first + len(lines)
        records, diags = parse_chunk(lines, first)
        if not records:
            records = [empty(Span(first, 1, first, 1))]
        if len(records) == 1:
            parts = [(records[0], diags)]
        else:  # several records in one chunk: hand each its own diagnostics
            starts = [r.span.line for r in records]
            parts = []
            for k, record in enumerate(records):
                lo = starts[k] if k else 0
                hi = starts[k + 1] if k + 1 < len(records) else None
                parts.append((record, [d for d in diags if d.line >= lo and (hi is None or d.line < hi)]))
        for record, found in parts:
            if pending is not None:
                record, found = fold_records(pending, (record, found))
                pending = None
            if has_body(record):
                yield record, found
            else:
                pending = (record, found)
    if pending is not None:
        yield pending


def fold_records(before: tuple[_R, list[Diagnostic]], after: tuple[_R, list[Diagnostic]],
                 ) -> tuple[_R, list[Diagnostic]]:
    """Put a body-less record in front of the record that follows it."""
    head, head_diags = before
    rec, diags = after
    line_comment = rec.line_comment
    if head.line_comment is not None:
        line_comment = head.line_comment if line_comment is None else join_comment(head.line_comment,
                                                                                   line_comment)
    merged = rec.model_copy(update={
        "tags": head.tags + rec.tags,
        "header_comments": head.header_comments + rec.header_comments,
        "line_comment": line_comment,
        "span": merge_spans(head.span, rec.span) if head.span.line else rec.span,
    })
    return merged, head_diags + diags


def attach_notes(rec: _RecordLike, in_body: bool, target: Any, notes: list[str] | None,
                 line_comment: str | None) -> None:
    """A line of its own holding commentaries (``notes``) or a ``;`` comment:
    commentaries before the first hand or game are the record's header
    commentaries, later ones go to ``target`` (the element before); a comment
    goes to ``target``, or to the record when there is none yet."""
    if notes is not None:
        if not in_body:
            rec.header_comments.extend(notes)
        else:
            target.comments.extend(notes)
    if line_comment is not None:
        owner = rec if target is None else target
        owner.line_comment = join_comment(owner.line_comment, line_comment)


def unterminated_commentary(logical: _Logical, first_line: int) -> Diagnostic:
    """SJ103 for the ``{`` that ``logical`` (of a chunk from ``first_line``) leaves open."""
    line_no = first_line + logical.open_line
    return Diagnostic.at(
        "SJ103", Span(line_no, logical.open_column + 1, line_no, logical.open_column + 2),
        "`{` opens a commentary that is never closed (its `}` must come before any "
        "other `{` and before a line starting with `[`); it is taken to end with its line")


# -- where a syntax error is --------------------------------------------------------------------

_WORD = re.compile(r"\S+")


class DiagnosticAt(Protocol):
    """``diag(code, message[, span])``: a diagnostic, on the error's word by default."""

    def __call__(self, code: str, message: str, s: Span = ...) -> Diagnostic: ...


class ErrorPlace(NamedTuple):
    """Where Lark stopped in a logical line: ``line`` and ``col`` (0-based) of
    the source, the text of that line, what is left of it from there, the word
    found there, a span on that word, and the logical line's first word."""

    line: int
    col: int
    line_text: str
    rest: str
    word: str
    span: Span
    head: str


def error_place(text: str, exc: Exception, line_offset: int) -> ErrorPlace:
    """Where the Lark error ``exc`` is in ``text`` (one logical line + "\\n")."""
    pos = getattr(exc, "pos_in_stream", None)
    token = getattr(exc, "token", None)
    if token is not None and getattr(token, "start_pos", None) is not None:
        pos = token.start_pos
    if pos is None:
        pos = len(text.rstrip("\n"))
    line_start = text.rfind("\n", 0, pos) + 1
    line_end = text.find("\n", pos)
    if line_end < 0:
        line_end = len(text)
    line_text = text[line_start:line_end]
    line = text.count("\n", 0, pos) + 1 + line_offset
    col = pos - line_start
    rest = line_text[col:]
    word_m = _WORD.match(rest)
    word = word_m.group() if word_m else ""
    span = Span(line, col + 1, line, col + 1 + max(len(word), 1))
    stripped = text.lstrip()
    head = stripped.split(None, 1)[0] if stripped else ""
    return ErrorPlace(line, col, line_text, rest, word, span, head)
