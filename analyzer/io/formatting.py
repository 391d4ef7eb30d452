"""``shengji fmt`` as library functions: a record file rewritten in canonical
SJN (or GJN), streamed record by record, checked, diffed or written back
atomically. Messages for the user go to ``err`` (one line each); files with
reading errors are never rewritten."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any

from analyzer.io.errors import UserError
from analyzer.io.inputs import Source, diag_line
from analyzer.io.linediff import unified_diff
from analyzer.io.outputs import Discard, open_output
from analyzer.io.safetext import terminal_stream

PROG = "shengji"

Echo = Callable[[str], None]


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


def keep_ends(text: str) -> list[str]:
    """The reader's lines of ``text`` with their line ends (for diffs)."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text)


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
                terminal_stream().writelines(unified_diff(keep_ends(text), keep_ends(new),
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
                    write_back: bool, err: Echo = _stderr) -> bool | None:
    """``fmt`` of an SJN file, streamed record by record (:func:`canonical_pieces`)."""
    from analyzer.io.atomic import atomic_writer
    problems: list[str] = []

    def report_problems() -> None:
        for line in problems:
            err(line)
        n = sum(1 for p in problems if not p.startswith(f"{PROG}:"))
        if n:
            err(f"{PROG}: error: {path}: not formatted: {n} reading error(s) "
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

    pieces = canonical_pieces(src, unicode, problems)
    if diff:
        new = "".join(pieces)
        if src.error:
            raise Unreadable(f"{path}: {src.error}")
        if problems:
            report_problems()
            return None
        old = src.text()
        if new == old:
            return False
        terminal_stream().writelines(unified_diff(keep_ends(old), keep_ends(new),
                                                   fromfile=path, tofile=path))
        if check:
            err(f"would reformat {path}")
        return True
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
