"""The ``shengji`` command line: thin Typer commands over library calls.

Every command reads its input, calls ``notation`` / ``replay`` /
:mod:`analyzer.lint` / :mod:`analyzer.report`, and prints. Exit status: 0
success, 1 findings (lint errors, files that fmt would change), 2 usage or
I/O errors, always with a one-line message on stderr and no traceback.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import itertools
import json
import os
import re
import sys
from enum import Enum
from pathlib import Path
from typing import NoReturn

import typer
from typer.core import TyperGroup

# Typer ≥ 0.2x vendors click as ``typer._click``; older ones use click itself.
try:
    from typer._click import exceptions as _cx
    from typer._click.globals import get_current_context as _current_context
except ImportError:  # pragma: no cover - older Typer
    from click import exceptions as _cx
    from click import get_current_context as _current_context

PROG = "shengji"


def version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as _v
        try:
            return _v("shengji")
        except PackageNotFoundError:
            pass
    except ImportError:  # pragma: no cover
        pass
    return "0.1.0"


class _Group(TyperGroup):
    """Usage errors as one line (``shengji lint: error: …``), exit status 2; every
    other failure too: I/O errors (a full disk, a closed pipe: stdout and stderr
    included), inputs too deep or too big for memory, and — a bug — any other
    exception, reported as internal error SJ901 with a request to report it.
    Never a traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                                standalone_mode=False, **extra)
        try:
            rv = super().main(args=args, prog_name=prog_name or PROG, complete_var=complete_var,
                              standalone_mode=False, **extra)
            _flush_std()
        except _cx.UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":
                exc.show()  # the help
                _exit(2)
            where = exc.ctx.command_path if exc.ctx else PROG
            hint = f" (see '{where} --help')" if exc.ctx else ""
            _exit(exc.exit_code, f"{where}: error: {_one_line(exc.format_message())}{hint}")
        except _cx.ClickException as exc:
            _exit(exc.exit_code, f"{PROG}: error: {_one_line(exc.format_message())}")
        except (typer.Abort, KeyboardInterrupt):
            _exit(130, "Aborted.")
        except SystemExit:
            raise
        except _Failed as failed:
            _exit(2, failure_message(failed.error))
        except BaseException as exc:
            _exit(2, failure_message(exc))
        _exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except OSError as exc:
            # click itself would swallow a broken pipe (exit 1, no word): carry it past click
            raise _Failed(exc) from exc


class _Failed(Exception):
    """An OSError carried past click's own handling to :class:`_Group`."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


def failure_message(exc: BaseException) -> str:
    """One line for an exception that ended a command (see :class:`_Group`)."""
    if isinstance(exc, BrokenPipeError):
        return f"{PROG}: error: cannot write the output: the reader closed the pipe"
    if isinstance(exc, OSError) and exc.errno == errno.ENOMEM:
        return f"{PROG}: error: out of memory (the input is too large for the memory available)"
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        what = exc.strerror or str(exc) or type(exc).__name__
        if not where and exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EIO, errno.EPIPE, errno.EDQUOT):
            return f"{PROG}: error: cannot write the output: {what}"
        return f"{PROG}: error: {where}{what}"
    if isinstance(exc, RecursionError):
        return f"{PROG}: error: the input is nested too deeply to be read (recursion limit)"
    if _memory_error(exc):
        return f"{PROG}: error: out of memory (the input is too large for the memory available)"
    detail = _one_line(f"{type(exc).__name__}: {exc}")[:300]
    return (f"{PROG}: error: SJ901 internal error ({detail}); this is a bug in shengji, "
            f"please report it with the command and its input")


def _memory_error(exc: BaseException) -> bool:
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, MemoryError):
            return True
        if isinstance(exc, SystemError) and "memory" in str(exc).lower():
            return True
        if isinstance(exc, ImportError) and ("failed to map" in str(exc) or "allocate memory" in str(exc)):
            return True  # a module could not be loaded under a memory limit
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def _flush_std() -> None:
    """Flush stdout and stderr now, so a failed write is reported here and not at exit."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()


def _silence(stream) -> None:
    """Point a failed standard stream at /dev/null, so Python's own flush at exit
    cannot fail again (and print "Exception ignored …")."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except OSError:
        pass


def _exit(code: int, message: str | None = None) -> NoReturn:
    """Print ``message`` (one line on stderr, if stderr still works) and exit with ``code``."""
    if message is not None:
        try:
            sys.stderr.write(message + "\n")
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):
            _silence(sys.stderr)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            _silence(stream)
    sys.exit(code)


def _plain_metavar(self, ctx) -> str | None:
    """The value column of ``--help``: a plain metavar (FILE, PRESET, N) or the
    choices (``text|json``), never a Python type (``<list[str]>``, ``<bool>``)."""
    from typer.core import TyperArgument
    if isinstance(self, TyperArgument):
        return None  # the name column already says FILE, PATH...
    if getattr(self, "is_flag", False) or getattr(self, "count", False):
        return None
    if self.metavar is not None:
        return self.metavar
    try:
        choices = self.type_descriptor.choices if self.type_descriptor.is_choice else None
    except AttributeError:  # pragma: no cover - another Typer
        choices = None
    if choices:
        return "|".join(str(getattr(c, "value", c)) for c in choices)
    return (self.name or "value").upper()


def _install_plain_metavars() -> None:
    try:
        from typer import core as tcore
    except ImportError:  # pragma: no cover
        return
    for cls_name in ("TyperArgument", "TyperOption"):
        cls = getattr(tcore, cls_name, None)
        if cls is not None and hasattr(cls, "display_type_rich"):
            cls.display_type_rich = _plain_metavar
    arg = getattr(tcore, "TyperArgument", None)
    if arg is not None and hasattr(arg, "_usage_display_name"):
        arg._usage_display_name = _usage_name


def _usage_name(self) -> str:
    """An argument in the usage line: ``FILE``, ``[PRESET]``, ``PATH...`` (no braces)."""
    name = self.display_name_raw
    if not self.required:
        name = f"[{name}]"
    return name + ("..." if self.nargs != 1 else "")


_install_plain_metavars()


def _one_line(text: str) -> str:
    return " ".join(text.split())


app = typer.Typer(
    cls=_Group,
    name=PROG,
    help="Shengji / Tractor (升级, 拖拉机) records: lint, replay, report, format, convert, annotate mistakes, import other logs.",
    epilog="Example: shengji lint games/ --format github",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode="rich",
)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"{PROG} {version()}")
        raise typer.Exit(0)


@app.callback()
def _main(
    show_version: bool = typer.Option(False, "--version", "-V", help="Show the version and exit.",
                                      callback=_version_callback, is_eager=True),
) -> None:
    """Shengji / Tractor (升级, 拖拉机) records: lint, replay, report, format, convert, annotate mistakes, import other logs."""


# -- helpers ------------------------------------------------------------------------------

def fail(message: str, code: int = 2) -> NoReturn:
    """One line on stderr and exit (2: usage or I/O error)."""
    typer.echo(f"{PROG}: error: {message}", err=True)
    raise typer.Exit(code)


def _usage(message: str) -> NoReturn:
    raise _cx.UsageError(message, _current_context(silent=True))


def read_text(path: str) -> str:
    """A file's text (``-``: stdin), or exit 2 with a one-line message."""
    if path == "-":
        return sys.stdin.read()
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        fail(f"{path}: is a directory")
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        fail(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})")
    return text[1:] if text.startswith("\ufeff") else text


def read_bytes(path: str) -> bytes:
    """A file's bytes (``-``: stdin), or exit 2 with a one-line message."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except IsADirectoryError:
        fail(f"{path}: is a directory")
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}")


def is_json(text: str, path: str = "") -> bool:
    """Is this the tool's JSON? (:func:`notation.detect.detect`, the one rule every command uses)."""
    from notation.detect import detect_text
    return detect_text(text, path) == "json"


FROM_HELP = ("Read another program's log: fly, botzone, shengji-io-chat, 80fen-v2, or auto "
             "(detected; also the default for named files that are not .sjn).")


CLUSTER_HELP = ("Run on a Dask cluster: local:N (N worker processes here) or a scheduler's host:port; "
                "the paths must be readable by every worker. Needs pip install 'shengji[cluster]'.")


def log_format(text: str, path: str, source_format: str | None) -> str | None:
    """The importer to read ``text`` with (see ``analyzer.lint.import_format``), or None for
    the notations (SJN, JSON, GJN: :mod:`notation.detect`)."""
    from . import lint as L
    try:
        options = L.LintOptions(source_format=source_format).validate()
    except L.LintUsageError as exc:
        _usage(str(exc))
    return L.import_format(path or "-", options, text)


class Source:
    """One input of a command, read the way every command reads it
    (:func:`analyzer.lint.input_kind`: another program's log, or SJN / JSON / GJN
    as :mod:`notation.detect` tells), record by record.

    A file that cannot be opened ends the command at once (exit 2); an error
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
        try:
            self.options = L.LintOptions(source_format=source_format).validate()
        except L.LintUsageError as exc:
            _usage(str(exc))
        if path == "-":
            text = sys.stdin.read()
            self._text = text[1:] if text.startswith("\ufeff") else text
        else:
            if os.path.isdir(path):
                fail(f"{path}: is a directory")
            try:
                with open(path, "rb"):
                    pass
            except OSError as exc:
                fail(f"{path}: {exc.strerror or exc}")
        try:
            self.kind, self.log = L.input_kind(path, self.options, self._text)
        except OSError as exc:
            fail(f"{path}: {exc.strerror or exc}")

    def _lines(self):
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

    def records(self):
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
        """Exit 2 if reading stopped on an error."""
        if self.error:
            fail(f"{self.name}: {self.error}")


def load_records(text: str, path: str = "", source_format: str | None = None):
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


def _diag_line(path: str, d) -> str:
    from notation.reader import escape_controls
    return escape_controls(f"{path}:{d.line}:{d.column}: {d.code} {d.message}")


def _check_preset(rules: str | None) -> None:
    from replay.ruleset import PRESETS

    from .gouji import presets as gouji_presets
    if rules is not None and rules not in PRESETS and rules not in gouji_presets():
        _usage(f"unknown preset {rules!r}; known: {', '.join(list(PRESETS) + list(gouji_presets()))}")


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


def load_gjn(text: str, path: str = ""):
    """``(records, diagnostics)`` from GJN text, or from JSON written from GJN."""
    from notation import gjn
    if not is_json(text, "" if gjn.is_gjn(path, None) else path):
        records, diags = gjn.parse(text)
        return [r for r in records if r.tags or r.games], diags
    data = json.loads(text)
    items = data if isinstance(data, list) else [data]
    records, diags = [], []
    from replay.diagnostics import Diagnostic
    for k, item in enumerate(items, 1):
        record, found = gjn.from_json(json.dumps(item))
        if record is not None:
            records.append(record)
        for d in found:
            diags.append(Diagnostic(d.code, (f"record {k}: " if len(items) > 1 else "") + d.message,
                                    d.line, d.column, d.end_line, d.end_column, d.severity))
    return records, diags


def check_output(out: str | None, *, force: bool, inputs: tuple[str, ...] | list[str] = ()) -> None:
    """Refuse an output file before any work: an existing file without ``force``,
    a directory, or one of the inputs (even with ``force``: only ``fmt --write``
    rewrites its input)."""
    if out is None or out == "-":
        return
    from .atomic import same_file
    for source in inputs:
        if source != "-" and same_file(out, source):
            fail(f"{out} is the input file {source}; refusing to overwrite it (even with --force)")
    p = Path(out)
    if p.is_dir():
        fail(f"{out} is a directory")
    if p.exists() and not force:
        fail(f"{out} exists; use --force to overwrite it")


class _Discard(Exception):
    """Raised inside an :func:`open_output` block: drop what was written."""


@contextlib.contextmanager
def open_output(out: str | None, *, spool: bool = False):
    """Where a command writes: ``out`` (written atomically: a temporary file in
    the same directory, fsynced, renamed over ``out`` only when the block ends
    cleanly) or stdout. With ``spool``, stdout gets the text only when the block
    ends cleanly (kept in a temporary file meanwhile, so memory stays flat):
    for all-or-nothing commands like ``convert``."""
    import tempfile

    from .atomic import atomic_writer
    if out is None or out == "-":
        if not spool:
            yield sys.stdout
            sys.stdout.flush()
            return
        with tempfile.SpooledTemporaryFile(max_size=4 << 20, mode="w+", encoding="utf-8", newline="") as buf:
            yield buf
            buf.seek(0)
            while True:
                piece = buf.read(1 << 16)
                if not piece:
                    break
                sys.stdout.write(piece)
            sys.stdout.flush()
        return
    try:
        with atomic_writer(out) as f:
            yield f
    except OSError as exc:  # the old file, if any, is left as it was
        fail(f"cannot write {out}: {exc.strerror or exc}")


def write_output(out: str | None, text: str, *, force: bool, inputs: tuple[str, ...] = ()) -> None:
    """Write ``text`` to ``out`` (atomically; never over an existing file without
    ``force``, never over an input), or stdout."""
    check_output(out, force=force, inputs=inputs)
    with open_output(out) as f:
        f.write(text)


# -- lint ---------------------------------------------------------------------------------

class LintFormat(str, Enum):
    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


class _RichProgress:
    """A Rich progress bar on stderr (only made when stderr is a terminal)."""

    #: below this many bytes of input, no bar (a few records)
    THRESHOLD = 512 * 1024

    def __init__(self) -> None:
        self._progress = None
        self._task = None
        self._pending = 0

    def start(self, total: int) -> None:
        if total < self.THRESHOLD:
            return
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn
        self._progress = Progress(TextColumn("linting"), BarColumn(), DownloadColumn(), TimeRemainingColumn(),
                                  console=Console(stderr=True), transient=True)
        self._progress.start()
        self._task = self._progress.add_task("lint", total=total)

    def advance(self, n: int) -> None:
        if self._progress is None:
            return
        self._pending += n
        if self._pending >= 16 * 1024:
            self._progress.advance(self._task, self._pending)
            self._pending = 0

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, self._pending)
            self._progress.stop()
            self._progress = None


@app.command(epilog="""Examples:

  shengji lint games/                      every *.sjn below games/

  shengji lint a.sjn --select SJ4 --ignore SJ404

  cat a.sjn | shengji lint - --format json

  shengji lint "logs/**/*.sjn" --format sarif > lint.sarif

  shengji lint room.jsonl chat.txt          other programs' logs (format detected)

  shengji lint --from botzone match.json

  shengji lint corpus/ --cluster local:4        the same chunks as --jobs, on a Dask cluster

A '; noqa: SJ404' comment silences SJ404 on its line ('; noqa' alone: every code).
Exit status: 0 no error-severity finding, 1 errors found, 2 usage or I/O error.""")
def lint(
    paths: list[str] = typer.Argument(..., metavar="PATH", help="Files, directories (every *.sjn and *.gjn below), globs, or - for stdin."),
    fmt: LintFormat = typer.Option(LintFormat.text, "--format", "-f", help="Output format."),
    select: list[str] = typer.Option([], "--select", metavar="PREFIXES", help="Only codes starting with these prefixes (comma-separated, repeatable)."),
    ignore: list[str] = typer.Option([], "--ignore", metavar="PREFIXES", help="Skip codes starting with these prefixes (comma-separated, repeatable)."),
    rules: str | None = typer.Option(None, "--rules", metavar="PRESET", help="A preset that overrides each record's [Rules] tag."),
    mistakes: bool = typer.Option(False, "--mistakes", help="Also run the mistake rules (SJ6xx; slower: endgame search)."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", min=1, metavar="N", help="Worker processes (default: all cores)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Text format: print the findings only, no summary."),
    source_format: str | None = typer.Option(None, "--from", metavar="FORMAT", help=FROM_HELP),
    cluster: str | None = typer.Option(None, "--cluster", metavar="ADDRESS", help=CLUSTER_HELP),
) -> None:
    """Check records: syntax, deal, declarations, play legality, score and levels."""
    from . import lint as L
    try:
        options = L.LintOptions(rules, L.parse_codes(select), L.parse_codes(ignore), mistakes,
                                source_format).validate()
    except L.LintUsageError as exc:
        _usage(str(exc))
    if mistakes and not L.mistakes_available():
        typer.echo(f"{PROG}: mistake rules are not available yet; --mistakes is ignored", err=True)
        options = L.LintOptions(options.rules, options.select, options.ignore, False)
    if cluster is not None:
        if jobs is not None:
            _usage("--jobs and --cluster cannot be used together")
        from . import cluster as C
        try:
            report = C.lint_on_cluster(paths, options, cluster, progress=C.ChunkProgress("chunks linted"))
        except C.ClusterError as exc:
            fail(str(exc))
    else:
        progress = _RichProgress() if sys.stderr.isatty() else None
        report = L.lint_paths(paths, options, jobs=jobs, progress=progress)
    if not report.files and not report.missing:
        typer.echo(f"{PROG}: warning: no *.sjn or *.gjn files found under the given path(s)", err=True)
    findings = report.findings
    out = sys.stdout
    if fmt == LintFormat.text:
        out.write(L.to_text(findings))
        if not quiet:
            out.write(report.summary() + "\n")
    elif fmt == LintFormat.json:
        out.write(L.to_json(findings))
    elif fmt == LintFormat.sarif:
        out.write(L.to_sarif(findings, version=version()))
    else:
        out.write(L.to_github(findings))
    out.flush()
    for line in report.errors:
        typer.echo(f"{PROG}: error: {line}", err=True)
    raise typer.Exit(report.exit_code)


# -- replay -------------------------------------------------------------------------------

@app.command(epilog="""Examples:

  shengji replay match.sjn

  shengji replay match.sjn --hand 2 --trick 5     the table before trick 5 of hand 2

  shengji replay match.sjn --step                 Enter for the next trick""")
def replay(
    file: str = typer.Argument(..., metavar="FILE", help="An SJN or JSON record file (- for stdin)."),
    hand: int | None = typer.Option(None, "--hand", "--game", min=1, metavar="N", help="Only this hand (Gouji: game), 1-based."),
    trick: int | None = typer.Option(None, "--trick", "-t", min=1, metavar="K", help="The table before this trick, and the tricks up to it."),
    step: bool = typer.Option(False, "--step", help="Wait for Enter between tricks (when stdin is a terminal)."),
    record: int | None = typer.Option(None, "--record", "-r", min=1, metavar="N", help="Only this record of the file (1-based)."),
    rules: str | None = typer.Option(None, "--rules", metavar="PRESET", help="A preset that overrides the record's [Rules] tag."),
    source_format: str | None = typer.Option(None, "--from", metavar="FORMAT", help=FROM_HELP),
) -> None:
    """Show a match as the players saw it: hands in trump order, tricks, points, kitty."""
    from replay.game import replay as run_replay

    from . import render
    _check_preset(rules)
    src = Source(file, source_format)
    if src.gouji():
        _replay_gjn(src.text(), file, game=hand, record=record, rules=rules)
        return
    console = render.make_console()
    waiter = None
    if step:
        if sys.stdin.isatty():
            def waiter(prompt: str) -> None:
                console.input(f"[dim]{prompt}[/dim] ")
        else:
            def waiter(prompt: str) -> None:
                return None

    def records():
        """The records, one at a time (with ``--record N``: only up to N, unreplayed)."""
        for rec, diags in src.records():
            for d in diags:
                typer.echo(_diag_line(file, d), err=True)
            if rec is not None:
                yield rec

    count = 0
    shown = 0
    it = records()
    nxt = next(it, None)
    while nxt is not None:
        rec, nxt = nxt, next(it, None)
        count += 1
        if record is not None and count != record:
            if count > record:
                break
            continue
        if shown:
            console.print()
        if count > 1 or nxt is not None:
            console.print(render.record_title(rec, count, file))
        shown += 1
        match = run_replay(rec, rules=rules)
        try:
            render.render_replay(console, rec, match, hand=hand, trick=trick, step=waiter)
        except IndexError as exc:
            fail(str(exc))
        except (KeyboardInterrupt, EOFError):
            raise typer.Exit(130) from None
        if record is not None:
            break
    src.check()
    if not count:
        fail(f"{file}: no record found")
    if record is not None and not shown:
        fail(f"{file} has {count} record(s); there is no record {record}")


def _replay_gjn(text: str, file: str, *, game: int | None, record: int | None, rules: str | None) -> None:
    """``replay`` of a GJN file: every game, play by play."""
    from . import gouji, render
    records, diags = load_gjn(text, file)
    for d in diags:
        typer.echo(_diag_line(file, d), err=True)
    if not records:
        fail(f"{file}: no record found")
    chosen = list(enumerate(records, 1))
    if record is not None:
        if record > len(records):
            fail(f"{file} has {len(records)} record(s); there is no record {record}")
        chosen = [(record, records[record - 1])]
    console = render.make_console()
    for n, (index, rec) in enumerate(chosen):
        if n:
            console.print()
        if len(records) > 1:
            console.print(f"[bold]Record {index}[/bold] {rec.tag('Event') or ''}")
        result = gouji.run_engine(rec, rules if gouji.is_gouji_preset(rules) else None)
        for d in result.diagnostics:
            typer.echo(_diag_line(file, d), err=True)
        try:
            gouji.render_replay(console, rec, result, game=game)
        except IndexError as exc:
            fail(str(exc))


# -- report -------------------------------------------------------------------------------

class ReportFormat(str, Enum):
    term = "term"
    md = "md"
    json = "json"
    html = "html"


@app.command(epilog="""Examples:

  shengji report match.sjn

  shengji report match.sjn --format md -o match.md

  shengji report match.sjn --format html -o match.html --force

  shengji report club.gjn --format html -o club.html    the six-seat Gouji replay page""")
def report(
    file: str = typer.Argument(..., metavar="FILE", help="An SJN or JSON record file (- for stdin)."),
    fmt: ReportFormat = typer.Option(ReportFormat.term, "--format", "-f", help="Output format."),
    output: str | None = typer.Option(None, "--output", "-o", metavar="FILE", help="Write here instead of stdout."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing --output file."),
    rules: str | None = typer.Option(None, "--rules", metavar="PRESET", help="A preset that overrides the record's [Rules] tag."),
    mistakes: bool = typer.Option(False, "--mistakes", help="Also list mistakes (SJ6xx) per hand and player."),
    source_format: str | None = typer.Option(None, "--from", metavar="FORMAT", help=FROM_HELP),
) -> None:
    """Per hand, per match and per player summary of a record file."""
    from . import lint as L
    from . import render
    from . import report as R
    _check_preset(rules)
    check_output(output, force=force, inputs=(file,))
    annotate = None
    if mistakes:
        if not L.mistakes_available():
            typer.echo(f"{PROG}: mistake rules are not available yet; --mistakes is ignored", err=True)
        else:
            annotate = L.mistake_hook(L.REVIEW_ENTRY)
    src = Source(file, source_format)
    if src.gouji():
        _report_gjn(src.text(), file, fmt.value, output, force, rules)
        return

    def pairs():
        for rec, diags in src.records():
            if rec is None:  # what held no record: its diagnostics go on the report
                yield None, diags
            else:
                yield rec, diags

    matches = R.iter_matches(pairs(), rules=rules, annotate=annotate)
    first = next(matches, None)
    src.check()
    if first is None:
        fail(f"{file}: no record found")
    matches = itertools.chain([first], matches)
    name = src.name
    with open_output(output) as out:
        if fmt == ReportFormat.term:
            console = (render.make_console() if out is sys.stdout
                       else render.make_console(file=out, color=False))
            for k, m in enumerate(matches):
                if k:
                    console.print()
                render.render_report(console, {"schema": R.SCHEMA, "path": name, "matches": [m]})
        elif fmt == ReportFormat.md:
            for piece in R.stream_markdown(name, matches):
                out.write(piece)
        elif fmt == ReportFormat.json:
            for piece in R.stream_json(name, matches):
                out.write(piece)
        else:  # one page holds every match
            out.write(R.render({"schema": R.SCHEMA, "path": name, "matches": list(matches)}, fmt.value))
        src.check()


def _report_gjn(text: str, file: str, fmt: str, output: str | None, force: bool, rules: str | None) -> None:
    """``report`` of a GJN file: places, score, 够级 plays and burns per game."""
    from . import gouji, render
    records, diags = load_gjn(text, file)
    if not records:
        fail(f"{file}: no record found")
    name = "<stdin>" if file == "-" else file
    rep = gouji.build_report([(r, diags if k == 0 else []) for k, r in enumerate(records)], name,
                             rules=rules if gouji.is_gouji_preset(rules) else None)
    if fmt == "html":
        from .gouji_viewer import render_html
        write_output(output, render_html(rep), force=force)
        return
    if fmt == "term":
        if output in (None, "-"):
            gouji.render_report(render.make_console(), rep)
            return
        import io
        buf = io.StringIO()
        gouji.render_report(render.make_console(file=buf, color=False), rep)
        write_output(output, buf.getvalue(), force=force)
        return
    write_output(output, gouji.render(rep, fmt), force=force)


# -- fmt ----------------------------------------------------------------------------------

@app.command(epilog="""Examples:

  shengji fmt match.sjn                 print the canonical form

  shengji fmt games/*.sjn --check       exit 1 if a file would change

  shengji fmt games/*.sjn --write       rewrite the files in place

Files with syntax errors (SJ1xx) are never rewritten: the writer would drop the bad lines.""")
def fmt(
    files: list[str] = typer.Argument(..., metavar="FILE", help="SJN or GJN files (- for stdin); directories give every *.sjn and *.gjn below."),
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 if a file would change, and list it."),
    write_back: bool = typer.Option(False, "--write", "-w", help="Rewrite the files in place."),
    diff: bool = typer.Option(False, "--diff", help="Print a unified diff instead of the canonical text."),
    unicode: bool = typer.Option(False, "--unicode", help="Write suits as ♠ ♥ ♦ ♣."),
) -> None:
    """Rewrite records in canonical SJN (like black)."""
    from .lint import expand_paths
    if check and write_back:
        _usage("--check and --write cannot be used together")
    targets, missing = expand_paths(files)
    changed: list[str] = []
    unchanged = 0
    refused = 0
    unread = 0
    for m in missing:
        typer.echo(f"{PROG}: error: {m}: no such file or directory", err=True)
        unread += 1
    for path, _ in targets:
        try:
            result = _format_file(path, unicode=unicode, check=check, diff=diff, write_back=write_back)
        except _Unreadable as exc:
            if str(exc):
                typer.echo(f"{PROG}: error: {exc}", err=True)
            unread += 1
            continue
        if result is None:
            refused += 1
        elif result:
            changed.append(path)
        else:
            unchanged += 1
    if check or write_back or diff:
        verb = "would be reformatted" if (check or diff) else "reformatted"
        parts = []
        if changed:
            parts.append(f"{len(changed)} file{'s' if len(changed) != 1 else ''} {verb}")
        if unchanged:
            parts.append(f"{unchanged} file{'s' if unchanged != 1 else ''} "
                         f"{'would be left' if check or diff else 'left'} unchanged")
        if refused:
            parts.append(f"{refused} file{'s' if refused != 1 else ''} not formatted (reading errors)")
        if unread:
            parts.append(f"{unread} file{'s' if unread != 1 else ''} could not be read")
        if parts:
            typer.echo(", ".join(parts) + ".", err=True)
    if unread:
        raise typer.Exit(2)
    if refused or (check and changed):
        raise typer.Exit(1)


class _Unreadable(Exception):
    """A file fmt could not read (reported, counted, and the other files go on)."""


class _Compare:
    """A writer that only checks whether what is written equals ``original`` (a text stream)."""

    def __init__(self, original) -> None:
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


class _Tee:
    def __init__(self, *targets) -> None:
        self.targets = targets

    def write(self, text: str) -> None:
        for t in self.targets:
            t.write(text)


def _keep_ends(text: str) -> list[str]:
    """The reader's lines of ``text`` with their line ends (for diffs)."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text)


def _canonical_pieces(src: Source, unicode: bool, problems: list[str]):
    """The canonical SJN of ``src``, record by record (as :func:`notation.write`
    joins them); reading errors go into ``problems`` and stop the output."""
    from notation.writer import _Style, write_record
    style = _Style(unicode, True)
    written = False
    for record, diags in src.records():
        bad = [d for d in diags if d.severity == "error" and d.code.startswith(("SJ1", "SJ9"))]
        for d in bad:
            problems.append(_diag_line(src.name if src.path != "-" else "-", d))
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


def _format_gjn(src: Source, path: str, *, unicode: bool, check: bool, diff: bool,
                write_back: bool) -> bool | None:
    """``fmt`` of a GJN file: its own reader and tidy writer (the whole file at once)."""
    from notation import gjn

    from .atomic import write_text_atomic
    text = src.text()
    records, diags = gjn.parse(text)
    syntax = [d for d in diags if d.code.startswith("SJ1") and d.severity == "error"]
    if syntax:
        for d in syntax:
            typer.echo(_diag_line(path, d), err=True)
        typer.echo(f"{PROG}: error: {path}: not formatted: {len(syntax)} syntax error(s) "
                   f"(the writer would drop the bad lines)", err=True)
        return None
    try:
        new = gjn.write(records, unicode=unicode) if records else ""
    except ValueError as exc:
        typer.echo(f"{PROG}: error: {path}: not formatted: {exc}", err=True)
        return None
    if new and not new.endswith("\n"):
        new += "\n"
    same = new == text
    if check or diff:
        if not same:
            if diff:
                sys.stdout.writelines(difflib.unified_diff(_keep_ends(text), _keep_ends(new),
                                                           fromfile=path, tofile=path))
            if check:
                typer.echo(f"would reformat {path}", err=True)
        return not same
    if write_back and path != "-":
        if same:
            return False
        try:
            write_text_atomic(path, new)
        except OSError as exc:
            fail(f"cannot write {path}: {exc.strerror or exc}")
        typer.echo(f"reformatted {path}", err=True)
        return True
    sys.stdout.write(new)
    return False


def _format_file(path: str, *, unicode: bool, check: bool, diff: bool, write_back: bool) -> bool | None:
    """Format one file: True if it changed (or would), False if not, None if it
    was not formatted (reading errors: reported here). Streams record by record."""
    import io

    from .atomic import atomic_writer
    try:
        src = Source(path)
    except typer.Exit:  # Source has said why
        raise _Unreadable("") from None
    if src.gouji():
        return _format_gjn(src, path, unicode=unicode, check=check, diff=diff, write_back=write_back)
    if src.log is not None or src.kind != "sjn":
        what = {"json": "JSON (use shengji convert --to sjn)", "gjn": "a Gouji (GJN) record"}.get(
            src.kind, f"a {src.log} log (use shengji import)")
        typer.echo(f"{PROG}: error: {path}: not formatted: {what}; fmt formats SJN", err=True)
        return None
    problems: list[str] = []

    def report_problems() -> None:
        for line in problems:
            typer.echo(line, err=True)
        n = sum(1 for p in problems if not p.startswith(f"{PROG}:"))
        if n:
            typer.echo(f"{PROG}: error: {path}: not formatted: {n} reading error(s) "
                       f"(the writer would drop the bad lines)", err=True)

    def original():
        if src._text is not None:
            return io.StringIO(src._text)
        f = open(path, encoding="utf-8", newline="")
        try:
            if f.read(1) not in ("\ufeff", ""):
                f.seek(0)
        except ValueError:  # not UTF-8: the reader reports it
            f.seek(0)
        return f

    pieces = _canonical_pieces(src, unicode, problems)
    if diff:
        new = "".join(pieces)
        if src.error:
            raise _Unreadable(f"{path}: {src.error}")
        if problems:
            report_problems()
            return None
        old = src.text()
        if new == old:
            return False
        sys.stdout.writelines(difflib.unified_diff(_keep_ends(old), _keep_ends(new),
                                                   fromfile=path, tofile=path))
        if check:
            typer.echo(f"would reformat {path}", err=True)
        return True
    if check or (write_back and path != "-"):
        with original() as orig:
            cmp = _Compare(orig)
            try:
                if check:
                    for piece in pieces:
                        cmp.write(piece)
                    if src.error:
                        raise _Unreadable(f"{path}: {src.error}")
                    if problems:
                        raise _Discard
                else:
                    with atomic_writer(path) as f:
                        tee = _Tee(f, cmp)
                        for piece in pieces:
                            tee.write(piece)
                        if src.error:
                            raise _Unreadable(f"{path}: {src.error}")
                        if problems or cmp.finish():
                            raise _Discard  # nothing to write: the old file stays as it is
            except _Discard:
                if problems:
                    report_problems()
                    return None
                return False
            except OSError as exc:
                if isinstance(exc, UnicodeDecodeError):
                    raise _Unreadable(f"{path}: not UTF-8 text") from None
                fail(f"cannot write {path}: {exc.strerror or exc}")
            same = cmp.finish()
        if same:
            return False
        if check:
            typer.echo(f"would reformat {path}", err=True)
        else:
            typer.echo(f"reformatted {path}", err=True)
        return True
    # print the canonical text (stdin with --write too); nothing when the file has reading errors
    try:
        with open_output(None, spool=True) as out:
            for piece in pieces:
                out.write(piece)
            if src.error:
                raise _Unreadable(f"{path}: {src.error}")
            if problems:
                raise _Discard
    except _Discard:
        report_problems()
        return None
    return False


# -- convert ------------------------------------------------------------------------------

class ConvertTo(str, Enum):
    json = "json"
    sjn = "sjn"
    gjn = "gjn"


@app.command(epilog="""Examples:

  shengji convert match.sjn --to json -o match.json

  shengji convert match.json --to sjn

The input format (SJN or JSON) is told by the suffix, else by the content. Several
records become a JSON array; a JSON array becomes several SJN records.""")
def convert(
    file: str = typer.Argument(..., metavar="FILE", help="An SJN or JSON file (- for stdin)."),
    to: ConvertTo = typer.Option(..., "--to", help="Output format."),
    output: str | None = typer.Option(None, "--output", "-o", metavar="FILE", help="Write here instead of stdout."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing --output file."),
    spans: bool = typer.Option(False, "--spans", help="JSON: keep the source positions of every element."),
    unicode: bool = typer.Option(False, "--unicode", help="SJN: write suits as ♠ ♥ ♦ ♣."),
) -> None:
    """Convert records between SJN and JSON."""
    from notation.jsonio import to_json
    from notation.writer import _Style, write_record
    check_output(output, force=force, inputs=(file,))
    src = Source(file)
    if src.gouji():
        _convert_gjn(src, file, to, output, spans, unicode)
        return
    if to == ConvertTo.gjn:
        fail(f"{file}: a Shengji record converts to sjn or json, not gjn", 2)
    style = _Style(unicode, True)
    errors = 0
    count = 0
    try:
        with open_output(output, spool=True) as out:
            held: str | None = None  # JSON: the first record, until we know whether an array is needed
            for record, diags in src.records():
                for d in diags:
                    typer.echo(_diag_line(file, d), err=True)
                    if d.severity == "error" and d.code.startswith(("SJ1", "SJ9")):
                        errors += 1
                if errors or record is None:
                    continue  # keep reading: every reading error is reported
                count += 1
                if to == ConvertTo.sjn:
                    try:
                        text = write_record(record, style)
                    except ValueError as exc:
                        fail(f"{file}: not converted: {exc}", 1)
                    out.write(("\n" if count > 1 else "") + text)
                    continue
                item = to_json(record, indent=2, spans=spans)
                if count == 1:
                    held = item
                    continue
                if held is not None:
                    out.write("[\n  " + held.replace("\n", "\n  "))
                    held = None
                out.write(",\n  " + item.replace("\n", "\n  "))
            src.check()
            if errors:
                raise _Discard
            if not count:
                fail(f"{file}: no record found", 1)
            if to == ConvertTo.json:
                out.write(held + "\n" if held is not None else "\n]\n")
    except _Discard:
        fail(f"{file}: not converted: {errors} reading error(s)", 1)


def _convert_gjn(src: Source, file: str, to: ConvertTo, output: str | None, spans: bool,
                 unicode: bool) -> None:
    """``convert`` of a Gouji record (GJN, or JSON written from GJN): to gjn or json."""
    from notation import gjn
    if to == ConvertTo.sjn:
        fail(f"{file}: a Gouji record converts to gjn or json, not sjn", 2)
    records, diags = load_gjn(src.text(), file)
    errors = [d for d in diags if d.severity == "error" and d.code.startswith("SJ1")]
    for d in diags:
        typer.echo(_diag_line(file, d), err=True)
    if errors:
        fail(f"{file}: not converted: {len(errors)} reading error(s)", 1)
    if not records:
        fail(f"{file}: no record found", 1)
    if to == ConvertTo.gjn:
        try:
            out = gjn.write(records, unicode=unicode)
        except ValueError as exc:
            fail(f"{file}: not converted: {exc}", 1)
        if not out.endswith("\n"):
            out += "\n"
    else:
        dumped = [json.loads(gjn.to_json(r, spans=spans)) for r in records]
        data = dumped[0] if len(dumped) == 1 else dumped
        out = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    with open_output(output) as f:
        f.write(out)


# -- rules --------------------------------------------------------------------------------

@app.command(epilog="""Examples:

  shengji rules              every preset and what it changes

  shengji rules campus       every option of the campus preset, with its source""")
def rules(
    name: str | None = typer.Argument(None, metavar="PRESET", help="A preset name."),
) -> None:
    """List the rule presets, or every option of one preset with its source."""
    from replay.ruleset import OPTION_NAMES, PRESETS, SOURCES, option_text, preset

    from . import gouji, render
    console = render.make_console()
    standard = preset("standard")
    if name is None:
        rows = []
        for pname in PRESETS:
            rs = preset(pname)
            diff = [f"{o}={option_text(getattr(rs, o))}" for o in OPTION_NAMES
                    if getattr(rs, o) != getattr(standard, o)]
            rows.append((pname, ", ".join(diff) if diff else "(the reference rules)"))
        rows.extend(gouji.preset_rows())
        console.print(render.presets_table(rows))
        return
    if gouji.is_gouji_preset(name):
        console.print(render.options_table(gouji.option_rows(name),
                                           title=f"Gouji preset {name} (* differs from gouji)"))
        return
    if name not in PRESETS:
        known = list(PRESETS) + list(gouji.presets())
        _usage(f"unknown preset {name!r}; known: {', '.join(known)}")
    rs = preset(name)
    rows = [(o, option_text(getattr(rs, o)), cite(SOURCES.get(o, "")), getattr(rs, o) != getattr(standard, o))
            for o in OPTION_NAMES]
    console.print(render.options_table(rows, title=f"Preset {name} (* differs from standard)"))


#: the source texts by the names docs/rules.md ("Sources") gives them
SOURCE_NAMES = {"000": "Wikipedia 升级", "001": "Tractor 1997", "002": "campus 双升",
                "003": "够级大纲", "004": "one-deck page"}


def cite(source: str) -> str:
    """A rule's source as a user can look it up: the sections of docs/rules.md and
    the sources by name (``RULES §4, §8b; seed 001 'Zi Fan'`` →
    ``docs/rules.md §4, §8; Tractor 1997 'Zi Fan'``)."""
    parts = []
    for part in source.split(";"):
        part = part.strip()
        if part.startswith("RULES"):
            part = "docs/rules.md" + re.sub(r"§(\d+)[a-z]\b", r"§\1", part[len("RULES"):])
            part = re.sub(r"(§\d+)(?:, \1\b)+", r"\1", part)
        elif re.match(r"seeds? ", part):
            part = re.sub(r"\b00\d\b", lambda m: SOURCE_NAMES.get(m.group(), m.group()), part.split(" ", 1)[1])
        if part:
            parts.append(part)
    return "; ".join(parts)


# -- generate -----------------------------------------------------------------------------

@app.command(epilog="""Examples:

  shengji generate --rules standard --hands 3 --seed 7

  shengji generate --rules one-deck --hands 1 --seed 1 -o games/

  shengji generate --rules shengji-io-friends --players 6 --hands 3 --seed 2""")
def generate(
    rules_name: str = typer.Option("standard", "--rules", metavar="PRESET", help="The preset to play by."),
    players: int | None = typer.Option(None, "--players", min=4, max=8, metavar="N",
                                       help="Players at the table (4-8), for a finding-friends preset "
                                            "such as shengji-io-friends; the decks follow the count."),
    hands: int = typer.Option(1, "--hands", "-n", min=1, metavar="N", help="Hands to play."),
    seed: int = typer.Option(0, "--seed", "-s", metavar="S", help="Random seed (the same seed gives the same match)."),
    output: str | None = typer.Option(None, "--output", "-o", metavar="FILE", help="A file, or a directory to write into."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing output file."),
    games: int | None = typer.Option(None, "--games", min=1, metavar="N", help="Games to play (Gouji presets; as --hands)."),
) -> None:
    """Generate a legal random match (bots play every seat)."""
    from notation import write
    if rules_name.startswith("gouji"):
        _generate_gouji(rules_name, games or hands, seed, output, force)
        return
    from replay.ruleset import preset
    _check_preset(rules_name)
    try:
        from . import generate as gen
    except ImportError:
        fail("generate is not available: analyzer.generate is not installed yet")
    try:
        if players is not None and players != 4 and preset(rules_name).partners != "friends":
            fail(f"--players {players}: the {rules_name} rules have fixed partners (four players); "
                 f"use a finding-friends preset such as shengji-io-friends")
        record = gen.generate_match(rules_name, hands, seed, players=players)
    except getattr(gen, "GenerationError", RuntimeError) as exc:
        fail(f"generation failed: {exc}", 1)
    text = write(record)
    if not text.endswith("\n"):
        text += "\n"
    if output is not None and output != "-" and (Path(output).is_dir() or output.endswith(("/", os.sep))):
        Path(output).mkdir(parents=True, exist_ok=True)
        output = str(Path(output) / f"{rules_name}-{hands}h-seed{seed}.sjn")
    write_output(output, text, force=force)
    if output not in (None, "-"):
        typer.echo(f"wrote {output}", err=True)


def _generate_gouji(rules_name: str, games: int, seed: int, output: str | None, force: bool) -> None:
    """``shengji generate --rules gouji|gouji-bie3|gouji-online``: a GJN match."""
    from notation.gjn import write as write_gjn
    from replay.gouji.rules import PRESETS as GOUJI_PRESETS

    from . import gouji_generate as ggen
    if rules_name not in GOUJI_PRESETS:
        _usage(f"unknown Gouji preset {rules_name!r}; known: {', '.join(GOUJI_PRESETS)}")
    try:
        record = ggen.generate_match(rules_name, games, seed)
    except ggen.GenerationError as exc:
        fail(f"generation failed: {exc}", 1)
    text = write_gjn(record)
    if not text.endswith("\n"):
        text += "\n"
    if output is not None and output != "-" and (Path(output).is_dir() or output.endswith(("/", os.sep))):
        Path(output).mkdir(parents=True, exist_ok=True)
        output = str(Path(output) / f"{rules_name}-{games}g-seed{seed}.gjn")
    write_output(output, text, force=force)
    if output not in (None, "-"):
        typer.echo(f"wrote {output}", err=True)


# -- annotate ---------------------------------------------------------------------------------

@app.command(epilog="""Examples:

  shengji annotate match.sjn                      print the record with {SJ6xx …} comments

  shengji annotate match.sjn -o reviewed.sjn

  shengji annotate match.sjn --select SJ610 --endgame 8

The comments are SJN commentary attached to the play they are about; the
annotated record reads back like any other (shengji fmt keeps them). Running
annotate again replaces the earlier annotations.""")
def annotate(
    file: str = typer.Argument(..., metavar="FILE", help="An SJN or JSON record file, or another program's log."),
    output: str | None = typer.Option(None, "--output", "-o", metavar="FILE", help="Write here instead of stdout."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing --output file."),
    select: list[str] = typer.Option([], "--select", metavar="PREFIXES", help="Only mistake codes starting with these prefixes."),
    endgame: int | None = typer.Option(None, "--endgame", min=0, show_default=False, metavar="K",
                                       help="Tricks from the end searched exactly (default 4): there the search "
                                            "decides every verdict."),
    rules: str | None = typer.Option(None, "--rules", metavar="PRESET", help="A preset that overrides the record's [Rules] tag."),
    source_format: str | None = typer.Option(None, "--from", metavar="FORMAT", help=FROM_HELP),
    unicode: bool = typer.Option(False, "--unicode", help="Write suits as ♠ ♥ ♦ ♣."),
) -> None:
    """Review the plays and write the record back with mistake annotations (SJ6xx)."""
    from notation.writer import _Style, write_record
    from replay.game import replay as run_replay

    from . import lint as L
    from .mistakes import ENDGAME_TRICKS, review_match, summarize
    from .mistakes import annotate as annotate_record
    from .report import TAG_OF_SEAT, summary_lines
    if endgame is None:
        endgame = ENDGAME_TRICKS
    _check_preset(rules)
    check_output(output, force=force, inputs=(file,))
    prefixes = L.parse_codes(select)
    src = Source(file, source_format)
    if src.gouji():
        fail(f"{file}: a Gouji (GJN) record: the mistake rules are for Shengji records", 2)
    name = src.name
    style = _Style(unicode, True)
    count = records = 0
    reading = False
    lines: list[str] = []
    try:
        with open_output(output, spool=True) as out:
            for record, diags in src.records():
                for d in diags:
                    typer.echo(_diag_line(name, d), err=True)
                    reading = reading or d.code.startswith(("SJ1", "SJ9"))
                if reading or record is None:
                    continue
                match = run_replay(record, rules=rules)
                rv = review_match(match, record=record, endgame_tricks=endgame)
                found = [d for d in rv.findings if not prefixes or any(d.code.startswith(p) for p in prefixes)]
                count += len(found)
                text = write_record(annotate_record(record, found), style)
                if text:
                    out.write(("\n" if records else "") + text)
                records += 1
                players = {s: {"name": record.tag(tag)} for s, tag in TAG_OF_SEAT.items()}
                lines.append(f"record {records}:")
                lines.extend("  " + line for line in summary_lines(summarize(found, rv.hands), players))
            src.check()
            if reading:
                raise _Discard
            if not records:
                fail(f"{name}: no record found")
    except _Discard:
        fail(f"{name}: fix the reading errors first (shengji lint shows them)", 1)
    for line in lines:
        typer.echo(line, err=True)
    typer.echo(f"{count} annotation{'s' if count != 1 else ''} in {records} record"
               f"{'s' if records != 1 else ''}", err=True)


# -- import -------------------------------------------------------------------------------

@app.command("import", epilog="""Examples:

  shengji import fly room.jsonl -o room.sjn

  shengji import botzone match.json

  shengji import auto chat.txt              detect the format from the content

  shengji import game-sav GAME.SAV -o match.sjn   start a record from the 1997 Tractor game's save

Formats: fly (shengji.fly.dev JSONL room logs), botzone (Botzone Tractor match logs),
shengji-io-chat (pasted shengji.io chat), 80fen-v2 (80fen completed-deal replay JSON),
game-sav (the 1997 Tractor game's GAME.SAV: its levels and dealer, never detected: name it).
Findings about the log (unreadable parts, unknown events, claims the rules contradict)
are printed to stderr with their position in the log.
Exit status: 0, or 1 when a log had error findings, 2 on usage or I/O errors.""")
def import_(
    fmt: str = typer.Argument(..., metavar="FORMAT", help="fly, botzone, shengji-io-chat, 80fen-v2, game-sav or auto."),
    files: list[str] = typer.Argument(..., metavar="FILE", help="Log files (- for stdin)."),
    output: str | None = typer.Option(None, "--output", "-o", metavar="FILE", help="Write the SJN here instead of stdout."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing --output file."),
    unicode: bool = typer.Option(False, "--unicode", help="Write suits as ♠ ♥ ♦ ♣."),
) -> None:
    """Convert other programs' game logs to SJN."""
    from notation import write

    from .importers import FORMATS, detect_format, format_name, import_text, is_binary
    if fmt != "auto" and format_name(fmt) is None:
        _usage(f"unknown log format {fmt!r}; known: auto, {', '.join(FORMATS)}")
    check_output(output, force=force, inputs=files)
    records, errors = [], False
    for path in files:
        name = "<stdin>" if path == "-" else path
        if fmt != "auto" and is_binary(fmt):            # game-sav: the file's bytes, not text
            got, diags = import_text(format_name(fmt), read_bytes(path), source=name)
            for d in diags:
                typer.echo(_diag_line(name, d), err=True)
                errors = errors or d.severity == "error"
            records.extend(got)
            continue
        text = read_text(path)
        chosen = format_name(fmt) if fmt != "auto" else detect_format(text, path)
        if chosen is None:
            fail(f"{name}: the log format cannot be told from its content; name it (see --help)")
        got, diags = import_text(chosen, text, source=name)
        for d in diags:
            typer.echo(_diag_line(name, d), err=True)
            errors = errors or d.severity == "error"
        records.extend(got)
    if not records:
        fail("no record could be imported", 1)
    text = write(records, unicode=unicode)
    with open_output(output) as out:
        out.write(text if text.endswith("\n") else text + "\n")
    raise typer.Exit(1 if errors else 0)


# -- export -------------------------------------------------------------------------------

@app.command(epilog="""Examples:

  shengji export game-sav match.sjn --into GAME.SAV --dry-run   the bytes before and after

  shengji export game-sav match.sjn --into GAME.SAV             continue the match in the 1997 game

  shengji export --to parquet store/ games/                       tables for shengji stats

The format comes first (game-sav, parquet) or as --to FORMAT; the rest are its arguments.
game-sav: RECORD --into SAVE writes the levels and the next dealer after the record's last
hand into bytes 0-2 of the save, atomically, and nothing else; it refuses (exit 1) when the
save does not hold the record's start (unless --force), when the last hand is incomplete, or
when the levels cannot be written in the save.""")
def export(
    args: list[str] = typer.Argument(..., metavar="[FORMAT] ARG...", help="The format (unless --to), then its arguments: game-sav RECORD; parquet OUTDIR FILE..."),
    to: str | None = typer.Option(None, "--to", help="The format: game-sav or parquet."),
    into: str | None = typer.Option(None, "--into", help="game-sav: the save file to write into (changed in place)."),
    force: bool = typer.Option(False, "--force", help="game-sav: write even when the save does not hold the record's start."),
    dry_run: bool = typer.Option(False, "--dry-run", "-n", help="Show what would be written; write nothing."),
    record: int | None = typer.Option(None, "--record", "-r", min=1, help="game-sav: the record of the file to continue (1-based)."),
    rules: str | None = typer.Option(None, "--rules", help="A preset that overrides each record's [Rules] tag."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", min=1, help="parquet: worker processes (default 1)."),
    cluster: str | None = typer.Option(None, "--cluster", metavar="ADDRESS", help="parquet: " + CLUSTER_HELP),
    source_format: str | None = typer.Option(None, "--from", help="parquet: " + FROM_HELP),
) -> None:
    """Write records out: the state after a match into the 1997 Tractor game's save, or a corpus as Parquet tables."""
    from .export import FORMATS
    fmt = to
    rest = list(args)
    if fmt is None:
        if not rest or rest[0] not in FORMATS:
            _usage(f"name the format first or with --to: {', '.join(FORMATS)}")
        fmt, rest = rest[0], rest[1:]
    elif fmt not in FORMATS:
        _usage(f"unknown export format {fmt!r}; known: {', '.join(FORMATS)}")
    _check_preset(rules)
    if fmt == "game-sav":
        if into is None:
            _usage("game-sav needs --into SAVE (the save file to write into)")
        if len(rest) != 1:
            _usage("game-sav takes one record file: shengji export game-sav RECORD --into SAVE")
        if jobs is not None or cluster is not None or source_format is not None:
            _usage("--jobs, --cluster and --from are parquet options")
        from .export.gamesav import run_command
        raise typer.Exit(run_command(rest[0], into, force=force, dry_run=dry_run, record_index=record,
                                     rules=rules))
    if into is not None or dry_run or record is not None or force:
        _usage("--into, --dry-run, --force and --record are game-sav options")
    if len(rest) < 2:
        _usage("parquet takes a store directory and the files: shengji export parquet OUTDIR FILE...")
    if jobs is not None and cluster is not None:
        _usage("--jobs and --cluster cannot be used together")
    from . import lint as L
    try:
        L.LintOptions(source_format=source_format).validate()
    except L.LintUsageError as exc:
        _usage(str(exc))
    from .export.parquet import run_command
    raise typer.Exit(run_command(rest[0], rest[1:], rules=rules, jobs=jobs or 1, cluster=cluster,
                                 source_format=source_format))


# -- stats --------------------------------------------------------------------------------

class StatsFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"
    html = "html"


@app.command(epilog="""Examples:

  shengji stats store/                              every analysis, as tables

  shengji stats store/ failed-throws --format csv

  shengji stats store/ --format html -o stats.html  tables and the attackers' points chart

  shengji stats store/ --sql "SELECT rules, count(*) FROM hands GROUP BY rules"

Analyses: failed-throws, kitty-protection, dealer-hold, attacker-points, diagnostics.
The tables (matches, hands, tricks, plays, diagnostics) are in docs/store.md.
Needs pip install 'shengji[stats]' (DuckDB, embedded; no server).""")
def stats(
    store: str = typer.Argument(..., metavar="STORE", help="A store written by shengji export --to parquet."),
    names: list[str] = typer.Argument(None, metavar="[ANALYSIS]...", help="Analyses to run (default: all)."),
    fmt: StatsFormat = typer.Option(StatsFormat.table, "--format", "-f", help="Output format."),
    sql: str | None = typer.Option(None, "--sql", help="Run this query against the store's tables instead."),
    output: str | None = typer.Option(None, "--output", "-o", help="Write here instead of stdout."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing --output file."),
) -> None:
    """Statistics over a Parquet store of many games (DuckDB): failed throws, kitty protection, dealer holds, points."""
    from . import stats as St
    from .store import StoreError
    names = names or []
    unknown = [n for n in names if n not in St.ANALYSES]
    if unknown:
        _usage(f"unknown analysis {unknown[0]!r}; known: {', '.join(St.ANALYSES)}")
    if sql is not None and names:
        _usage("--sql runs instead of the named analyses: give one or the other")
    if output not in (None, "-") and Path(output).exists() and not force:
        fail(f"{output} exists; use --force to overwrite it")
    try:
        results = St.run(store, names, sql)
    except StoreError as exc:
        fail(str(exc))
    if fmt == StatsFormat.table:
        from . import render
        if output in (None, "-"):
            St.render_tables(render.make_console(), results)
            return
        import io
        buf = io.StringIO()
        St.render_tables(render.make_console(file=buf, color=False), results)
        write_output(output, buf.getvalue(), force=force)
        return
    text = {StatsFormat.csv: St.to_csv, StatsFormat.json: St.to_json}.get(fmt)
    out = text(results) if text else St.to_html(results, store)
    write_output(output, out, force=force)


def main() -> None:  # pragma: no cover - the console script calls ``app``
    app(prog_name=PROG)


if __name__ == "__main__":  # pragma: no cover
    main()
