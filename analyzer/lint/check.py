"""Linting one text, one file (or a byte range of it), or standard input:
read → replay (→ mistakes) → select / ignore / noqa → sort."""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from analyzer.io.gamekit import UNKNOWN, Checker, Game, by_kind
from analyzer.io.sources import (
    STDIN,
    decode_utf8,
    describe_decode_error,
    input_kind,
    is_stream,
    open_lines,
    read_stream,
    unknown_format_message,
)
from analyzer.lint.findings import FileResult, Finding
from analyzer.lint.gcpace import PACED_YOUNG, gc_count, paced_collect, records_paced_gc
from analyzer.lint.noqa import NoqaLines, noqa_map, silenced
from analyzer.lint.options import LintOptions, mistake_hook, parse_codes, selected
from primitives.diagnostics import Diagnostic

# -- one text / one file -------------------------------------------------------------------

def record_diagnostics(record: Any, parse_diags: Sequence[Diagnostic], options: LintOptions,
                       mistakes: Callable[..., Any] | None = None) -> list[Diagnostic]:
    """Every diagnostic of one Shengji record: reading, replay (and mistakes when asked)."""
    from replay.game import replay
    return replay_checker(replay, shengji_rules(options.rules), mistakes)(record, parse_diags, 1)


def shengji_rules(rules: str | None) -> str | None:
    """`--rules` names a preset of any game; a Shengji replay takes only its own."""
    from replay.ruleset import PRESETS
    return rules if rules is None or rules in PRESETS else None


def replay_checker(replay: Callable[..., Any], rules: str | None, mistakes: Callable[..., Any] | None) -> Checker:
    """The check of one record by an engine's ``replay(record, rules=…)`` (a match with
    ``.diagnostics``) and the mistake rules: what a game gives lint (looked up once a file)."""
    def check(record: Any, parse_diags: Sequence[Diagnostic], start_line: int) -> list[Diagnostic]:
        diags = list(parse_diags)
        if record is not None:
            try:
                match = replay(record, rules=rules)
                diags.extend(match.diagnostics)
                if mistakes is not None:
                    diags.extend(mistakes(record, match))
            except (MemoryError, KeyboardInterrupt):
                raise
            except Exception as exc:  # a bug in the engine: say so, and go on with the next record
                diags.append(internal_error(record, exc))
        return diags
    return check


def internal_error(record: Any, exc: BaseException) -> Diagnostic:
    """SJ901 on a record's first line: an exception the tool did not expect."""
    from primitives.diagnostics import Span
    line = record.span.line if record is not None and record.span.line else 0
    return Diagnostic.at("SJ901", Span(line, 1, line, 2) if line else None,
                         f"internal error while checking this record ({type(exc).__name__}: {exc}); "
                         f"this is a bug in shengji, please report it with the record")


def _lint_lines(lines: Iterable[str], path: str, options: LintOptions, *, start_line: int = 1,
                first_record: int = 1, on_bytes: Callable[[int], None] | None = None,
                kind: str = "sjn") -> FileResult:
    game = by_kind(kind)
    result = FileResult(path)
    wrapped = NoqaLines(lines, start_line, on_bytes)
    mistakes = mistake_hook() if options.mistakes else None
    index = first_record - 1
    with records_paced_gc():
        _lint_records(game.read(wrapped, kind, start_line=start_line), result, wrapped.noqa, path, options,
                      mistakes, index, start_line, game)
    if wrapped.error is not None:
        result.drop_findings()
        return FileResult(path, error=wrapped.error)
    # records never overlap in lines, but a reader may report a record's
    # trailing diagnostics late: a stable sort keeps the file in position order
    result.sort()
    return result


def _lint_records(records: Iterable[tuple[Any, list[Diagnostic]]], result: FileResult,
                  noqa: dict[int, tuple[str, ...]], path: str, options: LintOptions, mistakes: Callable[..., Any] | None, index: int,
                  start_line: int, game: Game) -> None:
    check = game.lint_checker(options.rules, mistakes)
    holds = game.holds
    for record, parse_diags in records:
        if record is not None and not holds(record):
            record = None  # a chunk that held no record (every line was bad): its diagnostics only
        if record is not None:
            index += 1
            result.records += 1
        diags = check(record, parse_diags, start_line)
        if diags:  # (a clean record: nothing to keep)
            fallback = record_line(record, parse_diags, start_line)
            result.add(kept_findings(diags, path, index if record is not None else None, fallback,
                                     options, noqa))
        if gc_count()[0] > PACED_YOUNG:
            paced_collect()


def kept_findings(diags: Iterable[Diagnostic], path: str, index: int | None, fallback: int,
                  options: LintOptions, noqa: dict[int, tuple[str, ...]]) -> list[Finding]:
    """A record's findings as lint reports them, in order: ``--select`` /
    ``--ignore`` applied, ``; noqa`` lines silenced (SJN and GJN alike)."""
    found = []
    for d in diags:
        if not selected(d.code, options.select, options.ignore):
            continue
        f = Finding.from_diagnostic(d, path, index, fallback)
        if silenced(f.code, f.line, noqa):
            continue
        found.append(f)
    found.sort(key=Finding.sort_key)
    return found


def record_line(record: Any, parse_diags: Sequence[Diagnostic], start_line: int) -> int:
    if record is not None and getattr(record, "span", None) and record.span.line:
        return int(record.span.line)
    for d in parse_diags:
        if d.line:
            return int(d.line)
    return start_line


def lint_text(text: str, path: str = STDIN, *, rules: str | None = None, select: Sequence[str] = (),
              ignore: Sequence[str] = (), mistakes: bool = False) -> list[Finding]:
    """Lint one text; the findings sorted by position."""
    options = LintOptions(rules, parse_codes(list(select)), parse_codes(list(ignore)), mistakes).validate()
    return list(lint_text_result(text, path, options).iter_findings())


def lint_text_result(text: str, path: str, options: LintOptions) -> FileResult:
    """Lint one text: findings and the record count."""
    if "\r" in text:  # (`NoqaLines` counts a lone `\r` as no line end: keep its numbers)
        return _lint_lines(io.StringIO(text), path, options)
    return _lint_whole(text, path, options, by_kind("sjn"), "sjn")


def _lint_whole(text: str, path: str, options: LintOptions, game: Game, kind: str, *, start_line: int = 1,
                first_record: int = 1) -> FileResult:
    """Lint a text held in memory whole (whose first line is line ``start_line``
    of its file): the reader cuts it itself (no line-by-line streaming layers),
    the ``; noqa`` comments are read beforehand, on the lines as the reader cuts them."""
    from notation._records import split_lines
    noqa = noqa_map(split_lines(text), start_line) if ";" in text else {}
    return _lint_read(text, path, options, game, kind, noqa, start_line=start_line, first_record=first_record)


def _lint_read(text: str, path: str, options: LintOptions, game: Game, kind: str, noqa: dict[int, tuple[str, ...]],
               *, start_line: int = 1, first_record: int = 1) -> FileResult:
    """Lint a text its game's reader reads whole, with the ``; noqa`` lines ``noqa``."""
    result = FileResult(path)
    mistakes = mistake_hook() if options.mistakes else None
    with records_paced_gc():
        _lint_records(game.read(text, kind, start_line=start_line), result, noqa, path, options, mistakes,
                      first_record - 1, start_line, game)
    result.sort()
    return result


def lint_import_text(text: str | bytes, path: str, fmt: str, options: LintOptions) -> FileResult:
    """Lint another program's log: the importer's findings (positions in the log,
    including the log's own claims that the rules contradict), then each
    imported record's replay."""
    from analyzer.io.importers import check_claims, import_log
    from replay.game import replay
    result = FileResult(path)
    imported = import_log(fmt, text, source=path)
    mistakes = mistake_hook() if options.mistakes else None
    matches: list[Any] = []
    bugs: dict[int, Diagnostic] = {}  # record index → SJ901: a bug in the engine, not in the log
    for k, record in enumerate(imported.records):
        try:
            matches.append(replay(record, rules=options.rules))
        except (MemoryError, KeyboardInterrupt):
            raise
        except Exception as exc:
            matches.append(None)
            bugs[k] = internal_error(record, exc)
    claims = [c for c in imported.claims if c.record not in bugs]
    diags = list(imported.diagnostics) + check_claims(imported.records, claims, matches)
    found: list[Finding] = []
    for d in diags:
        if selected(d.code, options.select, options.ignore):
            found.append(Finding.from_diagnostic(d, path, None, 1))
    for index, (record, match) in enumerate(zip(imported.records, matches), 1):
        result.records += 1
        if match is None:
            more = [bugs[index - 1]]
        else:
            more = list(match.diagnostics)
            if mistakes is not None:
                try:
                    more.extend(mistakes(record, match))
                except (MemoryError, KeyboardInterrupt):
                    raise
                except Exception as exc:
                    more.append(internal_error(record, exc))
        for d in more:
            if selected(d.code, options.select, options.ignore):
                found.append(Finding.from_diagnostic(d, path, index, record_line(record, (), 1)))
    found.sort(key=Finding.sort_key)
    result.findings = found
    return result


#: a file up to this size is linted from its text read whole (see `small_text`)
WHOLE_BYTES = 4 * 1024 * 1024


def small_text(path: str, start: int = 0, end: int | None = None) -> str | None:
    """The text of a file (or of its byte range ``start..end``, cut at line
    starts, as :func:`~analyzer.lint.split.split_file` cuts) of at most
    `WHOLE_BYTES` that reads cleanly as UTF-8 (a leading BOM of the file
    dropped by the reader, as `open_lines` drops it), else None: a bigger text
    is streamed (flat memory), and one that fails to read is streamed too,
    which reports its error as it always has."""
    try:
        size = (os.path.getsize(path) if end is None else end) - start
        if size > WHOLE_BYTES:
            return None
        with open(path, "rb") as f:
            if start:
                f.seek(start)
            raw = f.read(WHOLE_BYTES + 1 if end is None else size)
        if len(raw) > WHOLE_BYTES:
            return None
        if start and raw.startswith(b"\xef\xbb\xbf"):
            return None  # a BOM inside the file: the stream keeps it, the reader would drop it
        if end is not None and raw and not raw.endswith(b"\n"):
            return None  # not cut at a line start: the stream reads the line across ``end`` whole
        return decode_utf8(raw) if not start else raw.decode("utf-8")  # (the file's BOM dropped, as streamed)
    except (OSError, UnicodeDecodeError):
        return None


def lint_file(path: str | os.PathLike[str], options: LintOptions = LintOptions(), *, display: str | None = None,
              start: int = 0, end: int | None = None, start_line: int = 1, first_record: int = 1,
              on_bytes: Callable[[int], None] | None = None) -> FileResult:
    """Lint a file (or its byte range ``start..end`` beginning at line ``start_line``), streaming.

    What the file is comes from :func:`input_kind`, the rule of every command;
    logs of other programs (see :func:`import_format`) are imported whole first;
    a stream (``/dev/stdin``, a pipe, a FIFO: :func:`is_stream`) is read once, whole.
    The game of the file (:func:`analyzer.games.by_kind`) reads it and checks each record."""
    name = display if display is not None else str(path)
    p = os.fspath(path)
    whole_file = start == 0 and end is None
    if whole_file and is_stream(p):
        try:
            data = read_stream(p)
        except OSError as exc:
            return FileResult(name, error=exc.strerror or str(exc))
        if on_bytes is not None:
            on_bytes(len(data))
        return lint_bytes(data, name, options, path=p)
    try:
        kind, fmt = input_kind(p, options)   # (a byte range: record chunks its game splits)
    except OSError as exc:
        return FileResult(name, error=exc.strerror or str(exc))
    if kind == UNKNOWN:
        return FileResult(name, error=unknown_format_message())
    if fmt is not None and whole_file:
        from analyzer.io.importers import is_binary
        try:
            raw = Path(path).read_bytes()
            text: str | bytes = raw if is_binary(fmt) else decode_utf8(raw)   # game-sav: bytes
        except UnicodeDecodeError as exc:
            return FileResult(name, error=describe_decode_error(exc))
        except OSError as exc:
            return FileResult(name, error=exc.strerror or str(exc))
        if on_bytes is not None:
            on_bytes(len(raw))
        return lint_import_text(text, name, fmt, options)
    game = by_kind(kind)
    mode = game.lint_mode(kind)
    try:
        if mode == "records":  # (JSON is read whole, as its reader reads it)
            return lint_held_text(decode_utf8(Path(p).read_bytes()), name, options, kind)
        if mode == "whole" and on_bytes is None:
            # a small file, or a byte range of a big one (a `--jobs` worker's chunk),
            # read whole: as streamed, without the per-line layers
            whole = small_text(p, start, end)
            if whole is not None:
                return _lint_whole(whole, name, options, game, kind, start_line=start_line,
                                   first_record=first_record)
        return _lint_lines(open_lines(p, start, end, start_line=start_line), name, options,
                           start_line=start_line, first_record=first_record, on_bytes=on_bytes, kind=kind)
    except UnicodeDecodeError as exc:
        return FileResult(name, error=describe_decode_error(exc))
    except OSError as exc:
        return FileResult(name, error=exc.strerror or str(exc))


def lint_bytes(data: bytes, display: str, options: LintOptions, *, path: str = STDIN) -> FileResult:
    """Lint an input read whole (standard input, a pipe): what it is is told by
    :func:`input_kind` from what was read (``path``: its name, for the suffix),
    and nothing is read again."""
    try:
        named = options.source_format
        if named is not None and named not in ("sjn", "auto"):
            from analyzer.io.importers import format_name, is_binary
            fmt = format_name(named)
            if fmt is not None and is_binary(fmt):
                return lint_import_text(data, display, fmt, options)
        text = decode_utf8(data)
    except UnicodeDecodeError as exc:
        return FileResult(display, error=describe_decode_error(exc))
    return lint_decoded(text, display, options, path=path)


def lint_decoded(text: str, display: str, options: LintOptions, *, path: str = STDIN) -> FileResult:
    """:func:`lint_bytes` of a text already decoded (its byte-order mark dropped)."""
    kind, fmt = input_kind(path, options, text)
    if kind == UNKNOWN:
        return FileResult(display, error=unknown_format_message())
    if fmt is not None:
        return lint_import_text(text, display, fmt, options)
    return lint_held_text(text, display, options, kind)


def lint_held_text(text: str, display: str, options: LintOptions, kind: str) -> FileResult:
    """Lint a text held in memory, read as ``kind`` (``sjn``, ``json``, ``gjn``, ``gjn-json``, …)."""
    game = by_kind(kind)
    mode = game.lint_mode(kind)
    if mode == "records":
        return _lint_read(text, display, options, game, kind, {})
    if mode == "whole" and "\r" not in text:
        return _lint_whole(text, display, options, game, kind)
    return _lint_lines(io.StringIO(text), display, options, kind=kind)


def lint_stdin(source: Iterable[str], display: str, options: LintOptions) -> FileResult:
    """Standard input, read once: told as a named file's content is
    (:func:`input_kind`; SJN, JSON, GJN or another program's log). ``source``:
    the process's standard input (read as bytes), or an iterable of lines."""
    import sys
    if source is sys.stdin:
        try:
            data = read_stream(STDIN)
        except OSError as exc:
            return FileResult(display, error=exc.strerror or str(exc))
        return lint_bytes(data, display, options)
    try:
        text = "".join(source)
    except UnicodeDecodeError as exc:
        return FileResult(display, error=describe_decode_error(exc))
    except OSError as exc:
        return FileResult(display, error=exc.strerror or str(exc))
    return lint_decoded(text[1:] if text.startswith("\ufeff") else text, display, options)
