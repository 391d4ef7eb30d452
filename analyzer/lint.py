"""The lint pipeline: read → replay → filter → sort, as library functions.

``shengji lint`` is a thin layer over this module:

* :func:`lint_text` lints one text (a file's content or stdin) and returns the
  sorted :class:`Finding` list;
* :func:`lint_file` streams one file (or a line range of it) record by record
  through :func:`notation.iter_records`, so a 1 GB file stays flat in memory:
  each record is replayed, its findings kept, and the replay dropped;
* :func:`lint_paths` expands paths (files, directories searched recursively
  for ``*.sjn``, globs, ``-`` for stdin), splits the work by file (and a huge
  file by record chunks), runs it on ``jobs`` processes and returns a
  :class:`LintReport` whose order never depends on ``jobs``.

Rules are never re-implemented here: every finding is a
:class:`replay.diagnostics.Diagnostic` from ``notation`` or ``replay``. This
module only decides which ones are shown (``select``/``ignore`` code prefixes
and ``; noqa`` comments) and in what order.
"""

from __future__ import annotations

import contextlib
import gc
import glob as _glob
import importlib
import importlib.util
import io
import itertools
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from notation.detect import DIRECTORY_SUFFIXES
from replay.diagnostics import CODES, ERROR, INFO, WARNING, Diagnostic

#: the display name of standard input
STDIN = "-"
#: files at least this large are split into record chunks when jobs > 1
SPLIT_BYTES = 512 * 1024
#: the largest chunk of a split file (a file is cut into about 4 chunks per
#: worker, so the workers finish together, but chunks of at least MIN_CHUNK_BYTES)
CHUNK_BYTES = 2 * 1024 * 1024
MIN_CHUNK_BYTES = 128 * 1024
#: below this much input in all, worker processes cost more than they save
MIN_PARALLEL_BYTES = 256 * 1024


class LintUsageError(ValueError):
    """Bad lint arguments (an unknown preset, a malformed code prefix)."""


# -- findings --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Finding:
    """One diagnostic located in a file (the unit of ``shengji lint`` output)."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    severity: str
    message: str
    name: str = ""
    hand: int | None = None
    trick: int | None = None
    #: 1-based index of the record in its file (chunk-independent)
    record: int | None = None

    @classmethod
    def from_diagnostic(cls, d: Diagnostic, path: str, record: int | None = None,
                        fallback_line: int = 0) -> Finding:
        line, col, end_line, end_col = d.line, d.column, d.end_line, d.end_column
        if line <= 0:  # a finding without a position: put it on the record's first line
            line, col, end_line, end_col = fallback_line, 1 if fallback_line else 0, fallback_line, 0
        return cls(path, line, col, end_line, end_col, d.code, d.severity, d.message, d.name,
                   d.hand, d.trick, record)

    def sort_key(self) -> tuple:
        return (self.line, self.column, self.code, self.end_line, self.end_column, self.message)

    def to_dict(self) -> dict:
        return asdict(self)

    def text(self) -> str:
        """``path:line:col: CODE message`` (control characters shown escaped)."""
        from notation.reader import escape_controls
        return escape_controls(f"{self.path}:{self.line}:{self.column}: {self.code} {self.message}")


@dataclass
class FileResult:
    """What linting one file (or stdin) gave."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    records: int = 0
    #: an I/O or decoding error: the file could not be read (exit status 2)
    error: str | None = None


@dataclass
class LintReport:
    """All files, in input order; findings sorted by position within each file."""

    files: list[FileResult] = field(default_factory=list)
    #: path arguments that named nothing (no such file, a glob that matched nothing)
    missing: list[str] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return [f for r in self.files for f in r.findings]

    @property
    def records(self) -> int:
        return sum(r.records for r in self.files)

    @property
    def errors(self) -> list[str]:
        """One line per file that could not be read or path that named nothing."""
        out = [f"{p}: no such file or directory" for p in self.missing]
        out += [f"{r.path}: {r.error}" for r in self.files if r.error]
        return out

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 with an error-severity finding, 2 when something could not be read."""
        if self.errors:
            return 2
        return 1 if self.count(ERROR) else 0

    def summary(self) -> str:
        """``Found 3 errors, 1 warning in 2 files (57 records).`` / ``All checks passed (12 records).``;
        with files that could not be read: ``… 1 file could not be read.`` (never "All checks passed")."""
        unread = len(self.missing) + sum(1 for r in self.files if r.error)
        return summary_line(self.findings, sum(1 for r in self.files if not r.error), self.records, unread)


def _plural(n: int, word: str) -> str:
    if word == "info":
        return f"{n} info"
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summary_line(findings: Sequence[Finding], files: int, records: int, unread: int = 0) -> str:
    recs = _plural(records, "record")
    if unread:
        tail = f"; {_plural(unread, 'file')} could not be read."
        if not findings:
            return f"No findings in {_plural(files, 'file')} read ({recs}){tail}"
    elif not findings:
        return f"All checks passed ({recs})."
    counts = {ERROR: 0, WARNING: 0, INFO: 0}
    for f in findings:
        counts[f.severity if f.severity in counts else ERROR] += 1
    parts = [_plural(counts[s], s) for s in (ERROR, WARNING, INFO) if counts[s]]
    return f"Found {', '.join(parts)} in {_plural(files, 'file')} ({recs})" + (tail if unread else ".")


# -- options: select / ignore / noqa -----------------------------------------------------

_PREFIX = re.compile(r"SJ\d{0,3}")


def parse_codes(values: Iterable[str] | str | None) -> tuple[str, ...]:
    """``["SJ4,SJ503", "sj1"]`` → ``("SJ4", "SJ503", "SJ1")``; LintUsageError if malformed."""
    if values is None:
        return ()
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for v in values:
        for part in re.split(r"[,\s]+", v):
            if not part:
                continue
            p = part.upper()
            if not _PREFIX.fullmatch(p):
                raise LintUsageError(f"not a code or code prefix: {part!r} (expected e.g. SJ4 or SJ404)")
            if p not in out:
                out.append(p)
    return tuple(out)


def _longest(prefixes: Sequence[str], code: str) -> int:
    return max((len(p) for p in prefixes if code.startswith(p)), default=-1)


def selected(code: str, select: Sequence[str] = (), ignore: Sequence[str] = ()) -> bool:
    """Is ``code`` shown under ``select``/``ignore`` prefixes?

    No ``select`` selects every code. When both match, the more specific
    (longer) prefix wins, and ``ignore`` wins a tie: ``--select SJ4 --ignore
    SJ404`` shows SJ4xx but SJ404; ``--ignore SJ4 --select SJ404`` shows SJ404.
    """
    s = _longest(select, code) if select else 0
    if s < 0:
        return False
    return _longest(ignore, code) < s or (not select and _longest(ignore, code) < 0)


#: ``; noqa`` or ``; noqa: SJ404, SJ5`` in a line's ``;`` comment (flake8 style)
NOQA = re.compile(r";[^\n]*?\bnoqa\b(?::[ \t]*(?P<codes>[A-Za-z]+\d*(?:[ \t]*,?[ \t]*[A-Za-z]+\d*)*))?",
                  re.IGNORECASE)


def noqa_codes(line: str) -> tuple[str, ...] | None:
    """None: no noqa here; ``()``: a bare ``noqa`` (every code); else the code prefixes."""
    if "noqa" not in line.lower():
        return None
    m = NOQA.search(line)
    if not m:
        return None
    codes = m.group("codes")
    if not codes:
        return ()
    return tuple(c.upper() for c in re.split(r"[\s,]+", codes) if c)


def noqa_map(lines: Iterable[str], start_line: int = 1) -> dict[int, tuple[str, ...]]:
    """Line number → noqa codes for the lines that carry a ``noqa`` comment."""
    out: dict[int, tuple[str, ...]] = {}
    for n, line in enumerate(lines, start_line):
        codes = noqa_codes(line)
        if codes is not None:
            out[n] = codes
    return out


def silenced(code: str, line: int, noqa: dict[int, tuple[str, ...]]) -> bool:
    codes = noqa.get(line)
    if codes is None:
        return False
    return not codes or any(code.startswith(c) for c in codes)


@dataclass(frozen=True)
class LintOptions:
    """What to check and what to show (picklable: sent to worker processes)."""

    #: a preset that overrides every record's ``[Rules]`` tag
    rules: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    #: run the analyzer's mistake rules (``analyzer.mistakes``) when available
    mistakes: bool = False
    #: read files as another program's logs (``analyzer.importers.FORMATS``), ``auto`` to
    #: detect; None: SJN, except explicitly named non-``.sjn`` files whose format is detected
    source_format: str | None = None

    def validate(self) -> LintOptions:
        from replay.ruleset import PRESETS

        from .gouji import presets as gouji_presets
        if self.rules is not None and self.rules not in PRESETS and self.rules not in gouji_presets():
            known = list(PRESETS) + list(gouji_presets())
            raise LintUsageError(f"unknown preset {self.rules!r}; known: {', '.join(known)}")
        if self.source_format in (None, "auto", "sjn"):
            return self  # (the importers are imported only when a log needs them)
        from .importers import FORMATS, format_name
        if format_name(self.source_format) is None:
            raise LintUsageError(f"unknown log format {self.source_format!r}; known: sjn, auto, "
                                 f"{', '.join(FORMATS)}")
        return self


#: the entry point the mistake rules provide: ``find_mistakes(record, match) -> Iterable[Diagnostic]``
MISTAKES_ENTRY = "find_mistakes"


def mistakes_available() -> bool:
    """True when the mistake rules (``analyzer.mistakes``) are installed."""
    try:
        if importlib.util.find_spec("analyzer.mistakes") is None:
            return False
        mod = importlib.import_module("analyzer.mistakes")
    except (ImportError, ValueError):
        return False
    return callable(getattr(mod, MISTAKES_ENTRY, None))


#: the entry ``shengji report --mistakes`` prefers: the full review (also judging
#: decisions from the player's own view, slower than the lint pass)
REVIEW_ENTRY = "review_mistakes"


def mistake_hook(entry: str = MISTAKES_ENTRY) -> Callable | None:
    """``analyzer.mistakes.find_mistakes`` (or ``entry`` when it exists) when
    the mistake rules are installed, else None."""
    if not mistakes_available():
        return None
    mod = importlib.import_module("analyzer.mistakes")
    hook = getattr(mod, entry, None) or getattr(mod, MISTAKES_ENTRY, None)
    return hook if callable(hook) else None


_mistake_hook = mistake_hook


# -- one text / one file -------------------------------------------------------------------

def record_diagnostics(record, parse_diags: Sequence[Diagnostic], options: LintOptions,
                       mistakes: Callable | None = None) -> list[Diagnostic]:
    """Every diagnostic of one record: reading, replay (and mistakes when asked)."""
    from replay.game import replay
    from replay.ruleset import PRESETS
    diags = list(parse_diags)
    if record is not None:
        # `--rules` names a Shengji or a Gouji preset; each applies to its own game only
        rules = options.rules if options.rules is None or options.rules in PRESETS else None
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


def internal_error(record, exc: BaseException) -> Diagnostic:
    """SJ901 on a record's first line: an exception the tool did not expect."""
    from replay.diagnostics import Span
    line = record.span.line if record is not None and record.span.line else 0
    return Diagnostic.at("SJ901", Span(line, 1, line, 2) if line else None,
                         f"internal error while checking this record ({type(exc).__name__}: {exc}); "
                         f"this is a bug in shengji, please report it with the record")


class _NoqaLines:
    """Wraps a line iterator: records ``noqa`` comments while the reader consumes lines."""

    def __init__(self, lines: Iterable[str], start_line: int = 1,
                 on_bytes: Callable[[int], None] | None = None) -> None:
        self._lines = lines
        self._n = start_line
        self.noqa: dict[int, tuple[str, ...]] = {}
        self._on_bytes = on_bytes
        #: why reading stopped early (an I/O or decoding error), else None
        self.error: str | None = None

    def __iter__(self) -> Iterator[str]:
        it = iter(self._lines)
        while True:
            try:
                line = next(it)
            except StopIteration:
                return
            except UnicodeDecodeError as exc:
                # stop reading here; the caller reports the file as unreadable (exit status 2)
                self.error = f"not UTF-8 text ({exc.reason} at byte {exc.start})"
                return
            except OSError as exc:
                self.error = exc.strerror or str(exc)
                return
            if ";" in line:  # (a noqa is in a `;` comment: most lines have none)
                codes = noqa_codes(line)
                if codes is not None:
                    self.noqa[self._n] = codes
            self._n += 1
            if self._on_bytes is not None:
                self._on_bytes(len(line.encode("utf-8")) if not line.isascii() else len(line))
            yield line


def _lint_lines(lines: Iterable[str], path: str, options: LintOptions, *, start_line: int = 1,
                first_record: int = 1, on_bytes: Callable[[int], None] | None = None,
                kind: str = "sjn") -> FileResult:
    from notation.detect import read
    result = FileResult(path)
    wrapped = _NoqaLines(lines, start_line, on_bytes)
    mistakes = _mistake_hook() if options.mistakes else None
    index = first_record - 1
    with _records_paced_gc():
        _lint_records(read(wrapped, kind, start_line=start_line), result, wrapped, path, options,
                      mistakes, index, start_line)
    if wrapped.error is not None:
        return FileResult(path, error=wrapped.error)
    # records never overlap in lines, but a reader may report a record's
    # trailing diagnostics late: a stable sort keeps the file in position order
    result.findings.sort(key=Finding.sort_key)
    return result


@contextlib.contextmanager
def _records_paced_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while records are linted.

    A record's objects (the parsed record, the replay's results) hold no
    reference cycles, so reference counting frees them as soon as the next
    record replaces them; left on, the collector would only rescan the record
    being worked on, every few hundred allocations (about a tenth of the lint
    time). :func:`_paced_collect` runs it between records should young objects
    pile up all the same (e.g. cycles from an unusual record)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _paced_collect(young_limit: int = 100_000) -> None:
    """Collect between records when more than ``young_limit`` young objects
    are left over (cycles, or findings kept)."""
    if gc.get_count()[0] > young_limit:
        gc.collect()


def _lint_records(records, result: FileResult, wrapped: _NoqaLines, path: str, options: LintOptions,
                  mistakes, index: int, start_line: int) -> None:
    for record, parse_diags in records:
        if record is not None and not record.tags and not record.hands:
            record = None  # a chunk that held no record (every line was bad): its diagnostics only
        if record is not None:
            index += 1
            result.records += 1
        fallback = _record_line(record, parse_diags, start_line)
        diags = record_diagnostics(record, parse_diags, options, mistakes)
        found = []
        for d in diags:
            if not selected(d.code, options.select, options.ignore):
                continue
            f = Finding.from_diagnostic(d, path, index if record is not None else None, fallback)
            if silenced(f.code, f.line, wrapped.noqa):
                continue
            found.append(f)
        found.sort(key=Finding.sort_key)
        result.findings.extend(found)
        _paced_collect()


def _record_line(record, parse_diags, start_line: int) -> int:
    if record is not None and getattr(record, "span", None) and record.span.line:
        return record.span.line
    for d in parse_diags:
        if d.line:
            return d.line
    return start_line


def lint_text(text: str, path: str = STDIN, *, rules: str | None = None, select: Sequence[str] = (),
              ignore: Sequence[str] = (), mistakes: bool = False) -> list[Finding]:
    """Lint one text; the findings sorted by position."""
    options = LintOptions(rules, parse_codes(list(select)), parse_codes(list(ignore)), mistakes).validate()
    return lint_text_result(text, path, options).findings


def lint_text_result(text: str, path: str, options: LintOptions) -> FileResult:
    """Lint one text: findings and the record count."""
    return _lint_lines(io.StringIO(text), path, options)


_RAW_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def raw_lines(f) -> Iterator[bytes]:
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


_open_lines = open_lines


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
    from .importers import detect_format, format_name
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


def lint_import_text(text: str, path: str, fmt: str, options: LintOptions) -> FileResult:
    """Lint another program's log: the importer's findings (positions in the log,
    including the log's own claims that the rules contradict), then each
    imported record's replay."""
    from replay.game import replay

    from .importers import check_claims, import_log
    result = FileResult(path)
    imported = import_log(fmt, text, source=path)
    mistakes = _mistake_hook() if options.mistakes else None
    matches = [replay(record, rules=options.rules) for record in imported.records]
    diags = list(imported.diagnostics) + check_claims(imported.records, imported.claims, matches)
    found: list[Finding] = []
    for d in diags:
        if selected(d.code, options.select, options.ignore):
            found.append(Finding.from_diagnostic(d, path, None, 1))
    for index, (record, match) in enumerate(zip(imported.records, matches), 1):
        result.records += 1
        more = list(match.diagnostics) + (list(mistakes(record, match)) if mistakes else [])
        for d in more:
            if selected(d.code, options.select, options.ignore):
                found.append(Finding.from_diagnostic(d, path, index, _record_line(record, (), 1)))
    found.sort(key=Finding.sort_key)
    result.findings = found
    return result


def lint_file(path: str | os.PathLike, options: LintOptions = LintOptions(), *, display: str | None = None,
              start: int = 0, end: int | None = None, start_line: int = 1, first_record: int = 1,
              on_bytes: Callable[[int], None] | None = None) -> FileResult:
    """Lint a file (or its byte range ``start..end`` beginning at line ``start_line``), streaming.

    Logs of other programs (see :func:`import_format`) are imported whole first."""
    name = display if display is not None else str(path)
    if options.source_format in (None, "auto") and _is_gjn_file(os.fspath(path)):
        from .gouji import lint_gjn_lines  # GJN (Gouji): a `.gjn` file or a `[Game "gouji"]` tag
        try:
            return lint_gjn_lines(_open_lines(os.fspath(path), start, end), name, options,
                                  start_line=start_line, first_record=first_record, on_bytes=on_bytes)
        except UnicodeDecodeError as exc:
            return FileResult(name, error=f"not UTF-8 text ({exc.reason} at byte {exc.start})")
        except OSError as exc:
            return FileResult(name, error=exc.strerror or str(exc))
    kind = "sjn"
    if start == 0 and end is None:
        try:
            kind, fmt = input_kind(os.fspath(path), options)
        except OSError as exc:
            return FileResult(name, error=exc.strerror or str(exc))
        if fmt is not None:
            from .importers import is_binary
            try:
                raw = Path(path).read_bytes()
                text = raw if is_binary(fmt) else raw.decode("utf-8")   # game-sav: bytes
            except UnicodeDecodeError as exc:
                return FileResult(name, error=f"not UTF-8 text ({exc.reason} at byte {exc.start})")
            except OSError as exc:
                return FileResult(name, error=exc.strerror or str(exc))
            if on_bytes is not None:
                on_bytes(len(raw))
            return lint_import_text(text, name, fmt, options)
    try:
        return _lint_lines(open_lines(os.fspath(path), start, end), name, options,
                           start_line=start_line, first_record=first_record, on_bytes=on_bytes, kind=kind)
    except UnicodeDecodeError as exc:
        return FileResult(name, error=f"not UTF-8 text ({exc.reason} at byte {exc.start})")
    except OSError as exc:
        return FileResult(name, error=exc.strerror or str(exc))


def _is_gjn_file(path: str) -> bool:
    from .gouji import is_gjn_file
    return is_gjn_file(path)


# -- paths -----------------------------------------------------------------------------------

_GLOB_CHARS = re.compile(r"[*?\[]")


def _record_files(folder: Path) -> list[str]:
    """Every ``*.sjn`` and ``*.gjn`` (Gouji) file below ``folder``, sorted
    (``notation.detect.DIRECTORY_SUFFIXES``)."""
    return sorted(str(p) for suffix in DIRECTORY_SUFFIXES for p in folder.rglob(f"*{suffix}") if p.is_file())


def expand_paths(paths: Iterable[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """Paths → ``([(file path, display name)], missing)``, in argument order, without duplicates.

    A directory gives every ``*.sjn`` and ``*.gjn`` below it (sorted); a pattern with
    ``* ? [`` that names no file is expanded as a glob (``**`` recursive);
    ``-`` is standard input.
    """
    out: list[tuple[str, str]] = []
    missing: list[str] = []
    seen: set[str] = set()

    def add(p: str) -> None:
        key = p if p == STDIN else os.path.normpath(os.path.abspath(p))
        if key not in seen:
            seen.add(key)
            out.append((p, p))

    for arg in paths:
        if arg == STDIN:
            add(STDIN)
        elif os.path.isdir(arg):
            found = _record_files(Path(arg))
            for p in found:
                add(p)
        elif os.path.exists(arg) or os.path.islink(arg):
            add(arg)
        elif _GLOB_CHARS.search(arg):
            matches = sorted(_glob.glob(arg, recursive=True))
            files: list[str] = []
            for m in matches:
                if os.path.isdir(m):
                    files.extend(_record_files(Path(m)))
                else:
                    files.append(m)
            if not files:
                missing.append(arg)
            for p in files:
                add(p)
        else:
            missing.append(arg)
    return out, missing


# -- splitting a huge file into record chunks -------------------------------------------------

def split_file(path: str, chunk_bytes: int = CHUNK_BYTES) -> Iterator[tuple[int, int | None, int]]:
    """Byte ranges ``(start, end, start_line)`` of about ``chunk_bytes`` that hold whole records.

    Each cut is one the reader makes too, so linting the ranges one by one
    gives what linting the whole file gives; the last range has ``end=None``.
    The file is not read through the reader: the lines of each range are
    counted in bytes, and only a window after each approximate cut is read to
    find the next record start (:func:`_next_cut`), so the process that hands
    out the ranges leaves the cores to the workers. Ranges are yielded as they
    are found, so work can start at once.
    """
    size = os.path.getsize(path)
    start, start_line = 0, 1
    with open(path, "rb") as f:
        while start + chunk_bytes < size:
            f.seek(start)
            block = f.read(chunk_bytes)
            last_nl = block.rfind(b"\n")
            if last_nl < 0:
                break  # one very long line: no cut in this range
            cut = _next_cut(f, start + last_nl + 1, start_line + count_lines(block[:last_nl + 1]))
            if cut is None:
                break
            yield start, cut[0], start_line
            start, start_line = cut
    yield start, None, start_line


def _next_cut(f, pos: int, line: int) -> tuple[int, int] | None:
    """The first record start the reader makes after byte ``pos`` (a line start,
    line number ``line``): ``(byte offset, line number)``, or None at the end of
    the file (or at bytes that are not UTF-8, which the last range reports).

    The reader's record splitter (:func:`notation.reader.split_records`) is in a
    known state at any line starting with ``[`` (a tag line: it closes any open
    commentary, and the record so far either ends there or the line joins its
    tags), so a fresh split run from such a line cuts wherever the whole-file
    run cuts after it. Its first cut is therefore one of the reader's cuts.
    """
    from notation.reader import split_records

    f.seek(pos)
    offsets: list[int] = []  # byte offset of each line given to the splitter
    at_end = False

    def lines() -> Iterator[str]:
        nonlocal pos, line, at_end
        started = False
        for raw in raw_lines(f):
            text = raw.decode("utf-8")
            if not started and not text.lstrip().startswith("["):
                pos += len(raw)
                line += 1  # ends as the number of the first line given to the splitter
                continue
            started = True
            offsets.append(pos)
            pos += len(raw)
            yield text
        at_end = True

    try:
        # the first chunk is yielded when the line that starts the next record is read
        got = next(split_records(lines(), 1), None)
    except UnicodeDecodeError:
        return None
    if got is None or at_end:
        return None  # the end of the file: no record starts after this one
    first, chunk_lines = got
    k = first - 1 + len(chunk_lines)  # the cut's index among the lines given
    return offsets[k], line + k


# -- many paths ------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Job:
    index: int          # file index in input order
    part: int           # chunk index within the file
    path: str
    display: str
    start: int
    end: int | None
    start_line: int
    size: int


def _run_job(job: _Job, options: LintOptions) -> FileResult:
    return lint_file(job.path, options, display=job.display, start=job.start, end=job.end,
                     start_line=job.start_line)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _merge(parts: list[FileResult]) -> FileResult:
    """Join a file's chunks (in order): renumber records and keep the first error."""
    first = parts[0]
    out = FileResult(first.path)
    offset = 0
    for p in parts:
        if p.error and not out.error:
            out.error = p.error
        for f in p.findings:
            rec = f.record + offset if f.record is not None else None
            out.findings.append(Finding(f.path, f.line, f.column, f.end_line, f.end_column, f.code,
                                        f.severity, f.message, f.name, f.hand, f.trick, rec))
        offset += p.records
        out.records += p.records
    if out.error:  # an unreadable file reports the error only
        out.findings, out.records = [], 0
    return out


def lint_paths(paths: Iterable[str], options: LintOptions = LintOptions(), *, jobs: int | None = None,
               stdin: Iterable[str] | None = None, progress: Progress | None = None,
               chunk_bytes: int = CHUNK_BYTES, split_bytes: int = SPLIT_BYTES,
               min_parallel_bytes: int = MIN_PARALLEL_BYTES, runner: Callable | None = None) -> LintReport:
    """Lint files, directories, globs and ``-`` (stdin); the same report for any ``jobs``.

    ``jobs`` defaults to every core; with more than one (and at least
    ``min_parallel_bytes`` of input), files (and record chunks of files of at
    least ``split_bytes``) run in worker processes.
    ``progress`` receives ``start(total_bytes)``, ``advance(nbytes)`` and
    ``stop()`` calls (see :class:`Progress`). ``runner`` replaces the worker
    processes (same signature as ``_lint_parallel``; :mod:`analyzer.cluster`
    gives one that runs the same jobs on a Dask cluster, always used).
    """
    options.validate()
    files, missing = expand_paths(paths)
    report = LintReport(missing=missing)
    jobs = default_jobs() if jobs is None or jobs <= 0 else jobs

    sizes: dict[int, int] = {}
    for i, (p, _) in enumerate(files):
        if p != STDIN:
            try:
                sizes[i] = os.path.getsize(p)
            except OSError:
                sizes[i] = 0
    on_bytes = progress.advance if progress is not None else None
    if progress is not None:
        progress.start(sum(sizes.values()))

    parallel = runner is not None or (jobs > 1 and sum(sizes.values()) >= min_parallel_bytes
                                      and (len(sizes) > 1 or any(s >= split_bytes for s in sizes.values())))
    results: dict[int, dict[int, FileResult]] = {i: {} for i in range(len(files))}
    try:
        if not parallel:
            for i, (p, display) in enumerate(files):
                if p == STDIN:
                    source = stdin if stdin is not None else sys.stdin
                    results[i][0] = _lint_stdin(source, display, options)
                else:
                    results[i][0] = lint_file(p, options, display=display, on_bytes=on_bytes)
        else:
            (runner or _lint_parallel)(files, sizes, options, jobs, results, stdin, progress,
                                       chunk_bytes, split_bytes)
    finally:
        if progress is not None:
            progress.stop()

    for i in range(len(files)):
        parts = [results[i][k] for k in sorted(results[i])]
        report.files.append(_merge(parts))
    return report


def _lint_stdin(source: Iterable[str], display: str, options: LintOptions) -> FileResult:
    """Standard input: SJN, streamed; JSON or GJN when the content says so; or,
    with ``--from``, another program's log."""
    from notation.detect import HEAD_BYTES, detect
    if options.source_format not in (None, "sjn"):
        text = "".join(source)
        fmt = import_format(STDIN, options, text)
        if fmt is not None:
            return lint_import_text(text, display, fmt, options)
        source = io.StringIO(text)
    if options.source_format == "sjn":
        return _lint_lines(source, display, options)
    it = iter(source)
    head: list[str] = []
    size = 0
    try:
        for line in it:  # the start decides what the input is (notation.detect)
            head.append(line)
            size += len(line)
            if size >= HEAD_BYTES:
                break
    except UnicodeDecodeError as exc:
        return FileResult(display, error=f"not UTF-8 text ({exc.reason} at byte {exc.start})")
    except OSError as exc:
        return FileResult(display, error=exc.strerror or str(exc))
    kind = detect("".join(head), STDIN)
    if kind == "gjn" and options.source_format in (None, "auto"):
        from .gouji import lint_gjn_lines  # GJN (Gouji): a `[Game "gouji"]` tag
        return lint_gjn_lines(itertools.chain(head, it), display, options)
    return _lint_lines(itertools.chain(head, it), display, options, kind=kind)


def _lint_parallel(files, sizes, options, jobs, results, stdin, progress, chunk_bytes, split_bytes) -> None:
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
    pending: dict = {}

    def collect(block: bool) -> None:
        if not pending:
            return
        done, _ = wait(list(pending), timeout=None if block else 0, return_when=FIRST_COMPLETED)
        for fut in done:
            job = pending.pop(fut)
            results[job.index][job.part] = fut.result()
            if progress is not None:
                progress.advance(job.size)

    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        for job in iter_jobs(files, sizes, options, jobs, results, stdin, chunk_bytes, split_bytes):
            # keep a bounded number of jobs in flight: a huge file is split as it is read
            while len(pending) >= 4 * jobs:
                collect(True)
            pending[pool.submit(_run_job, job, options)] = job
            collect(False)
        while pending:
            collect(True)


def _kind_or_none(path: str, options: LintOptions) -> str | None:
    try:
        kind, fmt = input_kind(path, options)
    except OSError:
        return None
    return kind if fmt is None else None


def iter_jobs(files, sizes, options, jobs, results, stdin, chunk_bytes=CHUNK_BYTES,
              split_bytes=SPLIT_BYTES) -> Iterator[_Job]:
    """The work units of a parallel run, in input order: one per file, or record
    chunks (:func:`split_file`) of a file of at least ``split_bytes``, about 4 per
    worker. Standard input is linted here and files that fail midway are put in
    ``results`` directly. Shared by ``--jobs`` and ``--cluster`` (analyzer.cluster)."""
    for i, (p, display) in enumerate(files):
        if p == STDIN:
            source = stdin if stdin is not None else sys.stdin
            results[i][0] = _lint_stdin(source, display, options)
            continue
        size = sizes.get(i, 0)
        if size >= split_bytes and _kind_or_none(p, options) == "sjn":
            try:
                chunk = min(chunk_bytes, max(MIN_CHUNK_BYTES, size // (4 * jobs)))
                for k, (start, end, line) in enumerate(split_file(p, chunk)):
                    n = (end if end is not None else size) - start
                    yield _Job(i, k, p, display, start, end, line, max(n, 0))
                continue
            except OSError as exc:
                # reading failed midway: part -1 sorts first, and _merge keeps only the error
                results[i][-1] = FileResult(display, error=exc.strerror or str(exc))
                continue
        yield _Job(i, 0, p, display, 0, None, 1, size)


class Progress:
    """The progress protocol of :func:`lint_paths` (a no-op base)."""

    def start(self, total: int) -> None:  # pragma: no cover - protocol
        pass

    def advance(self, n: int) -> None:  # pragma: no cover - protocol
        pass

    def stop(self) -> None:  # pragma: no cover - protocol
        pass


# -- output formats ---------------------------------------------------------------------------

def to_json(findings: Sequence[Finding]) -> str:
    # json.dumps(…, indent=2, ensure_ascii=False) + "\n", faster
    from .jsonout import dumps
    return dumps([f.to_dict() for f in findings])


_SARIF_LEVEL = {ERROR: "error", WARNING: "warning", INFO: "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def to_sarif(findings: Sequence[Finding], *, version: str = "0") -> str:
    """A minimal valid SARIF 2.1.0 log: one run, the rules used, one result per finding."""
    import json
    used = sorted({f.code for f in findings})
    index = {code: i for i, code in enumerate(used)}
    rules = []
    for code in used:
        info = CODES.get(code)
        rule = {"id": code}
        if info:
            rule.update({"name": info.name, "shortDescription": {"text": info.summary},
                         "defaultConfiguration": {"level": _SARIF_LEVEL.get(info.severity, "error")}})
        rules.append(rule)
    results = []
    for f in findings:
        loc: dict = {"artifactLocation": {"uri": _uri(f.path)}}
        if f.line > 0:
            region = {"startLine": f.line}
            if f.column > 0:
                region["startColumn"] = f.column
            if f.end_line >= f.line and f.end_line > 0:
                region["endLine"] = f.end_line
                if f.end_column > 0 and (f.end_line > f.line or f.end_column > f.column):
                    region["endColumn"] = f.end_column
            loc["region"] = region
        res = {"ruleId": f.code, "ruleIndex": index[f.code], "level": _SARIF_LEVEL.get(f.severity, "error"),
               "message": {"text": f.message}, "locations": [{"physicalLocation": loc}]}
        props = {k: v for k, v in (("hand", f.hand), ("trick", f.trick), ("record", f.record)) if v is not None}
        if props:
            res["properties"] = props
        results.append(res)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "shengji", "version": version, "rules": rules}},
            "results": results,
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _uri(path: str) -> str:
    if path == STDIN:
        return "stdin"
    return Path(path).as_posix()


def _gh_escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_escape_prop(s: str) -> str:
    return _gh_escape_data(s).replace(":", "%3A").replace(",", "%2C")


_GH_KIND = {ERROR: "error", WARNING: "warning", INFO: "notice"}


def to_github(findings: Sequence[Finding]) -> str:
    """GitHub Actions workflow commands: ``::error file=…,line=…,col=…,title=CODE::message``."""
    lines = []
    for f in findings:
        props = [f"file={_gh_escape_prop(_uri(f.path))}"]
        if f.line > 0:
            props.append(f"line={f.line}")
            if f.column > 0:
                props.append(f"col={f.column}")
            if f.end_line > 0:
                props.append(f"endLine={f.end_line}")
                if f.end_column > 0:
                    props.append(f"endColumn={f.end_column}")
        props.append(f"title={_gh_escape_prop(f.code)}")
        lines.append(f"::{_GH_KIND.get(f.severity, 'error')} {','.join(props)}::"
                     f"{_gh_escape_data(f.code + ' ' + f.message)}")
    return "".join(line + "\n" for line in lines)


def to_text(findings: Sequence[Finding]) -> str:
    return "".join(f.text() + "\n" for f in findings)


FORMATS = ("text", "json", "sarif", "github")


__all__ = ["Finding", "FileResult", "LintReport", "LintOptions", "LintUsageError", "Progress",
           "lint_text", "lint_text_result", "lint_file", "lint_paths", "expand_paths", "split_file",
           "parse_codes", "selected", "noqa_codes", "noqa_map", "silenced", "summary_line",
           "to_json", "to_sarif", "to_github", "to_text", "mistakes_available", "default_jobs",
           "record_diagnostics", "mistake_hook", "FORMATS", "STDIN", "iter_jobs"]
