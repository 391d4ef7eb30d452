"""The ``shengji`` application: the Typer app, its one-line error handling and
the help's plain metavars. The commands live in the sibling modules."""

import atexit
import errno
import gc
import os
import sys
from collections.abc import Callable
from typing import IO, Annotated, Any, NoReturn, TypeVar

import typer
from typer.core import TyperCommand, TyperGroup

from analyzer.cli._params import as_written, plain_params
from analyzer.io.echo import PROG
from analyzer.io.errors import UsageError, UserError

CLUSTER_HELP = ("Run on a Dask cluster: local:N (N worker processes here) or a scheduler's host:port; "
                "the paths must be readable by every worker. Needs pip install 'shengji[cluster]'.")

NO_PROGRESS_HELP = ("No progress on stderr (by default a bar on a terminal, else a line every "
                    "10 s once the work has run for 2 s).")

#: ``report --mistakes`` and ``annotate``: the review's ``--jobs``
REVIEW_JOBS_HELP = ("worker processes reviewing the hands (default: all cores; one process for a "
                    "one-hand record). The review is the same whatever N.")


def review_jobs(jobs: int | None) -> int:
    """``--jobs`` of the review: all cores when not given (as ``lint``)."""
    if jobs is not None:
        return jobs
    from analyzer.lint.pool import default_jobs
    return default_jobs()

F = TypeVar("F", bound=Callable[..., Any])


def version() -> str:
    """The installed version (:mod:`analyzer.io.version`: without ``importlib.metadata``'s import)."""
    from analyzer.io.version import package_version
    return package_version("shengji") or "0.1.0"


class Command(TyperCommand):
    """Every ``shengji`` command: its parameters shown with plain metavars."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        plain_params(self.params)
        as_written(self)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        plain_params([option])
        return option


# -- one line for every failure ---------------------------------------------------------------

class _Group(TyperGroup):
    """Usage errors as one line (``shengji lint: error: …``), exit status 2; every
    other failure too: I/O errors (a full disk, a closed pipe: stdout and stderr
    included), inputs too deep or too big for memory, and — a bug — any other
    exception, reported as internal error SJ901 with a request to report it.
    Never a traceback."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        plain_params(self.params)
        as_written(self)
        #: the command being run (``shengji lint``), for usage errors raised inside it
        self.command_path: str | None = None

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        plain_params([option])
        return option

    def get_params(self, ctx: Any) -> list[Any]:
        plain_params(self.params)    # (the completion options are added after __init__)
        params: list[Any] = super().get_params(ctx)
        return params

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None:
            self.command_path = f"{ctx.command_path} {name}"
        return name, cmd, rest

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,  # type: ignore[override]  # click's main, its keyword arguments passed on
             standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                                standalone_mode=False, **extra)
        self.command_path = None
        _freeze_at_exit()
        _open_closed_std()
        # pydantic plugins (third-party instrumentation of every pydantic model) are
        # found by reading the entry points of every installed distribution, at the
        # first model a process builds: 3–15 ms of each start, for a tool that has
        # no use for them. A value the user set is kept.
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
        global _EXIT_IF_CLOSED
        _EXIT_IF_CLOSED = 0
        rv = None
        try:
            rv = super().main(args=args, prog_name=prog_name or PROG, complete_var=complete_var,
                              standalone_mode=False, **extra)
            _flush_std()
        except (BrokenPipeError, _Failed) as exc:
            error = exc.error if isinstance(exc, _Failed) else exc
            if not _closed_pipe(error):
                _exit(2, failure_message(error))
            # the reader (head, less) has what it wanted: stop quietly, with the status
            # the command would have had (``lint``: 1 when it found errors)
            _silence(sys.stdout)
            _exit(rv if isinstance(rv, int) else _EXIT_IF_CLOSED)
        except typer.TyperException as exc:  # click's own errors (Typer vendors click)
            if type(exc).__name__ == "NoArgsIsHelpError":
                exc.show()  # type: ignore[attr-defined]  # a click UsageError: the help
                _exit(2)
            ctx = getattr(exc, "ctx", None)  # a usage error knows its command
            where = ctx.command_path if ctx else PROG
            hint = f" (see '{where} --help')" if ctx else ""
            _exit(getattr(exc, "exit_code", 1), f"{where}: error: {_one_line(exc.format_message())}{hint}")
        except UserError as exc:
            _exit(exc.code, f"{PROG}: error: {exc.message}")
        except UsageError as exc:
            where = self.command_path or PROG
            hint = f" (see '{where} --help')" if self.command_path else ""
            _exit(2, f"{where}: error: {_one_line(str(exc))}{hint}")
        except (typer.Abort, KeyboardInterrupt):
            _exit(130, "Aborted.")
        except SystemExit as exc:
            if exc.code == 1 and isinstance(exc.__context__, BrokenPipeError):
                # Rich's own answer to a closed pipe (it exits 1, the status of findings)
                _silence(sys.stdout)
                _exit(rv if isinstance(rv, int) else _EXIT_IF_CLOSED)
            raise
        except BaseException as exc:
            _exit(2, failure_message(exc))
        _exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx: Any) -> Any:
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


#: the exit status of the command being run should its reader close the pipe
#: (:func:`exit_if_closed`); 0 unless the command knows better
_EXIT_IF_CLOSED = 0


def exit_if_closed(code: int) -> None:
    """The status to exit with, quietly, should the reader of the output close the
    pipe from now on (``shengji lint … | head``: 1 when errors were found)."""
    global _EXIT_IF_CLOSED
    _EXIT_IF_CLOSED = code


def _closed_pipe(exc: BaseException) -> bool:
    return isinstance(exc, BrokenPipeError) or (isinstance(exc, OSError) and exc.errno == errno.EPIPE)


def _open_closed_std() -> None:
    """A standard stream closed before the start (``shengji lint x >&-``: Python
    makes it None) is pointed at /dev/null: the output goes nowhere, as it would
    into a closed pipe, and the command runs to its own exit status."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # lives as long as the process


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
    if type(exc).__name__ == "NativeRequired":   # replay.native's set-up error (not imported here: --version stays fast)
        return f"{PROG}: error: {_one_line(str(exc))}"
    if isinstance(exc, RecursionError):
        return f"{PROG}: error: the input is nested too deeply to be read (recursion limit)"
    if _memory_error(exc):
        return f"{PROG}: error: out of memory (the input is too large for the memory available)"
    detail = _one_line(f"{type(exc).__name__}: {exc}")[:300]
    return (f"{PROG}: error: SJ901 internal error ({detail}); this is a bug in shengji, "
            f"please report it with the command and its input")


def _memory_error(exc: BaseException | None) -> bool:
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


_FREEZE_REGISTERED = False


def _freeze_at_exit() -> None:
    """At the interpreter's exit, freeze the garbage collector's objects.

    The teardown would run a full collection over every object the imports
    made (pydantic's classes and schemas: ~35,000 objects, 25–40 ms, a sixth of
    a one-hand lint); frozen objects are not scanned. The modules are still
    torn down and the memory goes back with the process. Registered by the
    command line only (``atexit`` runs before the teardown's collection), and
    once, however often ``main`` runs in one process (tests)."""
    global _FREEZE_REGISTERED
    if not _FREEZE_REGISTERED:
        atexit.register(_freeze)
        _FREEZE_REGISTERED = True


#: optional extras whose objects must be collected at exit: DuckDB (nanobind)
#: reports every object still alive at its teardown as a leak on stderr, and
#: dask's clients and clusters close in finalizers
_COLLECT_AT_EXIT = ("duckdb", "dask", "distributed", "pyarrow")


def _freeze() -> None:
    """:func:`_freeze_at_exit`'s hook: freeze, unless an extra that needs the
    teardown's collection was imported (``stats``, ``export``, ``--cluster``:
    their run dwarfs the collection's 25–40 ms)."""
    if not any(name in sys.modules for name in _COLLECT_AT_EXIT):
        gc.freeze()


def _flush_std() -> None:
    """Flush stdout and stderr now, so a failed write is reported here and not at exit."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()


def _silence(stream: IO[str]) -> None:
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
    """Print ``message`` (one line on stderr, if stderr still works) and exit with ``code``.
    Control characters in it (a file name's, a record's) are shown escaped."""
    if message is not None:
        try:
            from notation.reader import escape_controls
            sys.stderr.write(escape_controls(message) + "\n")
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


def _one_line(text: str) -> str:
    return " ".join(text.split())


# -- the app ------------------------------------------------------------------------------------

HELP = ("Shengji / Tractor (升级, 拖拉机) and Gouji (够级) records: lint, replay, report, format, convert, "
        "annotate mistakes, import other logs.")

app = typer.Typer(
    cls=_Group,
    name=PROG,
    help=HELP,
    epilog="Example: shengji lint games/ --format github",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode="rich",
)


def search_backend() -> str:
    """Which endgame search this process uses, in words (the second line of ``--version``):
    the native one when the ``shengji-native`` extension imports and ``SHENGJI_NATIVE`` is not
    ``0``, else the pure-Python one (what :func:`replay.native.backend` says, without importing
    the engine: ``--version`` stays fast)."""
    import os
    setting = os.environ.get("SHENGJI_NATIVE", "").strip().lower()
    if setting in ("0", "no", "off", "false"):
        return f"python (native core disabled: SHENGJI_NATIVE={os.environ['SHENGJI_NATIVE']})"
    try:
        import shengji_native
    except ImportError:
        if setting in ("1", "yes", "on", "true"):
            return f"none (SHENGJI_NATIVE={os.environ['SHENGJI_NATIVE']} but the shengji-native extension is missing)"
        return "python (the shengji-native extension is not installed)"
    return f"native (shengji-native {getattr(shengji_native, '__version__', '?')})"


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"{PROG} {version()}\nsearch: {search_backend()}")
        raise typer.Exit(0)


@app.callback()
def _main(
    show_version: Annotated[bool, typer.Option("--version", "-V", help="Show the version and exit.",
                                               callback=_version_callback, is_eager=True)] = False,
) -> None:
    """Shengji / Tractor (升级, 拖拉机) and Gouji (够级) records: lint, replay, report, format, convert, annotate mistakes, import other logs."""


def command(name: str | None = None, *, epilog: str | None = None) -> Callable[[F], F]:
    """Register a ``shengji`` command (shown with plain metavars)."""
    return app.command(name, epilog=epilog, cls=Command)


# -- helpers of the commands ------------------------------------------------------------------

# (fail, usage, echo_err, wrote: analyzer.io.echo, imported above)


def refuse_page_on_terminal(output: str | None, what: str) -> None:
    """A page (HTML) is not for a terminal: with no ``-o`` and stdout a terminal,
    a usage error that says how to get it."""
    if output is None and sys.stdout.isatty():
        raise UsageError(f"{what} is a page for a browser, not for the terminal: write it to a file "
                         f"with -o FILE (or pipe it: -o - or | ...)")
