"""``shengji fmt`` as library functions: a record file rewritten in canonical
SJN (or GJN), streamed record by record, checked, diffed or written back
atomically. Messages for the user go to ``err`` (one line each); files with
reading errors are never rewritten."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from analyzer.io.errors import UserError
from analyzer.io.inputs import Source, diag_line
from analyzer.io.linediff import unified_diff
from analyzer.io.outputs import Discard, open_output
from analyzer.io.safetext import terminal_stream

PROG = "shengji"

Echo = Callable[[str], None]
#: a file's canonical text in pieces: (source, unicode, problems) → pieces
Pieces = Callable[[Source, bool, list[str]], Iterator[str]]


def _stderr(line: str) -> None:
    sys.stderr.write(line + "\n")


class Unreadable(Exception):
    """A file fmt could not read (reported, counted, and the other files go on)."""


class Compare:
    """A writer that only checks whether what is written equals ``original`` (a text stream)."""

    def __init__(self, original: IO[str]) -> None:
        self.original = original
        self.same = True

    def write(self, text: str) -> None:
        if self.same:
            try:
                self.same = self.original.read(len(text)) == text
            except ValueError:  # not UTF-8: the reader reports it
                self.same = False

    def finish(self) -> bool:
        if self.same:
            try:
                self.same = not self.original.read(1)
            except ValueError:
                self.same = False
        return self.same


class Tee:
    """Writes to every target."""

    def __init__(self, *targets: Any) -> None:
        self.targets = targets

    def write(self, text: str) -> None:
        for t in self.targets:
            t.write(text)


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def keep_ends(text: str) -> list[str]:
    """The reader's lines of ``text`` with their line ends (for diffs)."""
    return _LINE.findall(text)


def iter_lines(text: str) -> Iterator[str]:
    """:func:`keep_ends` one line at a time."""
    return (m.group() for m in _LINE.finditer(text))


def split_pieces(pieces: Iterable[str]) -> Iterator[str]:
    """The lines (with their line ends, as :func:`keep_ends` cuts them) of the
    text ``pieces`` make when joined, one at a time."""
    carry = ""
    for piece in pieces:
        text = carry + piece
        lines = _LINE.findall(text)
        # the last line is not complete when it has no end, or ends in \r (\r\n may follow)
        if lines and (not lines[-1].endswith(("\n", "\r")) or lines[-1].endswith("\r")):
            carry = lines.pop()
        else:
            carry = ""
        yield from lines
    if carry:
        yield carry


def canonical_pieces(src: Source, unicode: bool, problems: list[str]) -> Iterator[str]:
    """The canonical SJN of ``src``, record by record (as :func:`notation.write`
    joins them); reading errors go into ``problems`` and stop the output."""
    from notation.writer import WriteStyle as _Style
    from notation.writer import write_record
    style = _Style(unicode, True)
    written = False
    for record, diags in src.records():
        bad = [d for d in diags if d.severity == "error" and d.code.startswith(("SJ1", "SJ9"))]
        for d in bad:
            problems.append(diag_line(src.name if src.path != "-" else "-", d))
        if problems or record is None:
            continue
        try:
            text = write_record(record, style)
        except ValueError as exc:  # a record SJN cannot represent
            problems.append(f"{PROG}: error: {src.name}: not formatted: {exc}")
            continue
        if text:
            yield ("\n" if written else "") + text
            written = True


def record_pieces(write_record: Callable[..., str], codes: tuple[str, ...] = ("SJ1",)) -> Pieces:
    """A game's canonical text of ``src``, record by record, by its ``write_record``
    (one record → its text; records joined by a blank line, as a game's ``write``
    joins them): what :func:`format_streamed` walks for a game other than SJN.
    Reading errors (``codes``) go into ``problems`` and stop the output."""

    def pieces(src: Source, unicode: bool, problems: list[str]) -> Iterator[str]:
        written = False
        name = src.name if src.path != "-" else "-"
        for record, diags in src.records():
            for d in diags:
                if d.severity == "error" and d.code.startswith(codes):
                    problems.append(diag_line(name, d))
            if problems or record is None:
                continue
            try:
                text = write_record(record, unicode=unicode)
            except ValueError as exc:  # a record the notation cannot represent
                problems.append(f"{PROG}: error: {src.name}: not formatted: {exc}")
                continue
            if text:
                yield ("\n" if written else "") + text
                written = True
    return pieces


def format_whole(src: Source, path: str, parse: Callable[[str], tuple[list[Any], list[Any]]],
                 write: Callable[..., str], *, unicode: bool, check: bool, diff: bool,
                 write_back: bool, err: Echo = _stderr) -> bool | None:
    """``fmt`` of a file read whole by a game's ``parse`` (text → records,
    diagnostics) and tidied by its ``write`` (records → text): GJN."""
    from analyzer.io.atomic import write_text_atomic
    text = src.text()
    records, diags = parse(text)
    syntax = [d for d in diags if d.code.startswith("SJ1") and d.severity == "error"]
    if syntax:
        for d in syntax:
            err(diag_line(path, d))
        err(f"{PROG}: error: {path}: not formatted: {len(syntax)} syntax error(s) "
            f"(the writer would drop the bad lines)")
        return None
    try:
        new = write(records, unicode=unicode) if records else ""
    except ValueError as exc:
        err(f"{PROG}: error: {path}: not formatted: {exc}")
        return None
    if new and not new.endswith("\n"):
        new += "\n"
    same = new == text
    if check or diff:
        if not same:
            if diff:
                terminal_stream().writelines(unified_diff(iter_lines(text), iter_lines(new),
                                                           fromfile=path, tofile=path))
            if check:
                err(f"would reformat {path}")
        return not same
    if write_back and path != "-":
        if same:
            return False
        try:
            write_text_atomic(path, new)
        except OSError as exc:
            raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
        err(f"reformatted {path}")
        return True
    terminal_stream().write(new)
    return False


def format_file(path: str, *, unicode: bool = False, check: bool = False, diff: bool = False,
                write_back: bool = False, err: Echo = _stderr) -> bool | None:
    """Format one file: True if it changed (or would), False if not, None if it
    was not formatted (reading errors: reported to ``err``), by its game's
    formatter (:meth:`analyzer.games.Game.fmt`). :class:`Unreadable` when the
    file cannot be read."""
    from analyzer.io.gamekit import notation_names
    try:
        src = Source(path)
    except UserError as exc:
        err(f"{PROG}: error: {exc.message}")
        raise Unreadable("") from None
    why = f"a {src.log} log (use shengji import)" if src.log is not None else src.game.not_formatted(src.kind)
    if why is None:
        return src.game.fmt(src, path, unicode=unicode, check=check, diff=diff, write_back=write_back, err=err)
    err(f"{PROG}: error: {path}: not formatted: {why}; fmt formats {notation_names()}")
    return None


def format_streamed(src: Source, path: str, *, unicode: bool, check: bool, diff: bool,
                    write_back: bool, err: Echo = _stderr, pieces_of: Pieces | None = None,
                    errors: str = "reading") -> bool | None:
    """``fmt`` of a file, streamed record by record: SJN by :func:`canonical_pieces`,
    another game by ``pieces_of`` (e.g. :func:`record_pieces`); ``errors`` names
    its reading errors in the message that says the file was not formatted."""
    from analyzer.io.atomic import atomic_writer
    problems: list[str] = []

    def report_problems() -> None:
        for line in problems:
            err(line)
        n = sum(1 for p in problems if not p.startswith(f"{PROG}:"))
        if n:
            err(f"{PROG}: error: {path}: not formatted: {n} {errors} error(s) "
                f"(the writer would drop the bad lines)")

    def original() -> IO[str]:
        if src.held_text is not None:
            return io.StringIO(src.held_text)
        f = open(path, encoding="utf-8", newline="")
        try:
            if f.read(1) not in ("\ufeff", ""):
                f.seek(0)
        except ValueError:  # not UTF-8: the reader reports it
            f.seek(0)
        return f

    pieces = (pieces_of or canonical_pieces)(src, unicode, problems)
    if diff:
        return _diff_streamed(src, path, pieces, problems, report_problems, check=check, err=err)
    if check or (write_back and path != "-"):
        with original() as orig:
            cmp = Compare(orig)
            try:
                if check:
                    for piece in pieces:
                        cmp.write(piece)
                    if src.error:
                        raise Unreadable(f"{path}: {src.error}")
                    if problems:
                        raise Discard
                else:
                    with atomic_writer(path) as f:
                        tee = Tee(f, cmp)
                        for piece in pieces:
                            tee.write(piece)
                        if src.error:
                            raise Unreadable(f"{path}: {src.error}")
                        if problems or cmp.finish():
                            raise Discard  # nothing to write: the old file stays as it is
            except Discard:
                if problems:
                    report_problems()
                    return None
                return False
            except OSError as exc:
                if isinstance(exc, UnicodeDecodeError):
                    raise Unreadable(f"{path}: not UTF-8 text") from None
                raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
            same = cmp.finish()
        if same:
            return False
        err(f"would reformat {path}" if check else f"reformatted {path}")
        return True
    # print the canonical text (stdin with --write too); nothing when the file has reading errors
    try:
        with open_output(None, spool=True, inert=True) as out:
            for piece in pieces:
                out.write(piece)
            if src.error:
                raise Unreadable(f"{path}: {src.error}")
            if problems:
                raise Discard
    except Discard:
        report_problems()
        return None
    return False


def _diff_streamed(src: Source, path: str, pieces: Iterator[str], problems: list[str],
                   report_problems: Callable[[], None], *, check: bool, err: Echo) -> bool | None:
    """``fmt --diff`` of an SJN file: the file's lines (read again, as a stream)
    against the canonical text's (made record by record) through the linear walk
    of :mod:`analyzer.io.linediff`, which holds a window of lines and a hunk;
    the diff is spooled (:func:`open_output`: a temporary file past a few MB)
    and printed only when the whole file read cleanly, as before."""
    from analyzer.io.sources import describe_decode_error, open_lines
    old_lines = iter_lines(src.held_text) if src.held_text is not None else open_lines(path)
    bad_old: list[str] = []

    def old() -> Iterator[str]:
        try:
            for line in old_lines:
                if problems:  # no diff will be printed: stop walking
                    return
                yield line
        except UnicodeDecodeError as exc:  # (the reader of the new text stops there too)
            bad_old.append(f"{path}: {describe_decode_error(exc)}")
        except OSError as exc:
            bad_old.append(f"{path}: {exc.strerror or exc}")

    changed = False
    try:
        with open_output(None, spool=True, inert=True) as out:
            for piece in unified_diff(old(), split_pieces(pieces), fromfile=path, tofile=path):
                changed = True
                out.write(piece)
            for _ in pieces:  # (the new text read to its end: its reading errors)
                pass
            if src.error:
                raise Unreadable(f"{path}: {src.error}")
            if bad_old:
                raise Unreadable(bad_old[0])
            if problems:
                raise Discard
    except Discard:
        report_problems()
        return None
    if not changed:
        return False
    if check:
        err(f"would reformat {path}")
    return True
