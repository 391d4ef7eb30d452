"""``shengji lint``: check records (a thin layer over :mod:`analyzer.lint`)."""

import sys
from typing import Annotated, Any

import typer

from analyzer.cli._core import CLUSTER_HELP, NO_PROGRESS_HELP, command, exit_if_closed, version
from analyzer.io.echo import PROG, echo_err, fail
from analyzer.io.importers.registry import FROM_HELP
from analyzer.lint.formats import LintFormat

#: below this many bytes of input, no progress (a few records)
PROGRESS_THRESHOLD = 512 * 1024


@command(epilog="""Examples:

  shengji lint games/                      every *.sjn below games/

  shengji lint a.sjn --select SJ4 --ignore SJ404

  cat a.sjn | shengji lint - --format json

  shengji lint "logs/**/*.sjn" --format sarif > lint.sarif

  shengji lint room.jsonl chat.txt          other programs' logs (format detected)

  shengji lint --from botzone match.json

  shengji lint corpus/ --cluster local:4        the same chunks as --jobs, on a Dask cluster

  shengji lint games/ --statistics --exit-zero     counts per code, never exit 1

  shengji lint games/ -f sarif -o lint.sarif --force

Settings come from [tool.shengji] in pyproject.toml or a shengji.toml (the nearest
one upward); the command line wins. Results are cached in .shengji_cache (--no-cache).
A '; noqa: SJ404' comment silences SJ404 on its line ('; noqa' alone: every code).
Exit status: 0 no error-severity finding, 1 errors found, 2 usage or I/O error.""")
def lint(
    paths: Annotated[list[str], typer.Argument(metavar="PATH", help="Files, directories (every *.sjn and *.gjn below), globs, or - for stdin.")],
    fmt: Annotated[LintFormat | None, typer.Option("--format", "-f", help="Output format (default: text).")] = None,
    select: Annotated[list[str] | None, typer.Option("--select", metavar="PREFIXES", help="Only codes starting with these prefixes (comma-separated, repeatable).")] = None,
    ignore: Annotated[list[str] | None, typer.Option("--ignore", metavar="PREFIXES", help="Skip codes starting with these prefixes (comma-separated, repeatable).")] = None,
    extend_select: Annotated[list[str] | None, typer.Option("--extend-select", metavar="PREFIXES", help="Add these prefixes to the selected codes (of --select or the configuration).")] = None,
    exclude: Annotated[list[str] | None, typer.Option("--exclude", metavar="PATTERNS", help="Skip files found in directories that match these .gitignore-style patterns (comma-separated, repeatable; replaces the configuration's).")] = None,
    rules: Annotated[str | None, typer.Option("--rules", metavar="PRESET", help="A preset that overrides each record's [Rules] tag.")] = None,
    mistakes: Annotated[bool, typer.Option("--mistakes", help="Also run the mistake rules (SJ6xx; slower: endgame search).")] = False,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, metavar="N", help="Worker processes (default: all cores).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Text format: print the findings only, no summary.")] = False,
    output: Annotated[str | None, typer.Option("--output-file", "--output", "-o", metavar="FILE", help="Write the findings here (atomically) instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output-file.")] = False,
    exit_zero: Annotated[bool, typer.Option("--exit-zero", help="Exit 0 even when errors are found (2 still means the input could not be read).")] = False,
    statistics: Annotated[bool, typer.Option("--statistics", help="Print a count per code instead of the findings (text, json, jsonl).")] = False,
    config: Annotated[str | None, typer.Option("--config", metavar="FILE", help="Read the settings from this file (a pyproject.toml or shengji.toml) instead of the nearest one.")] = None,
    isolated: Annotated[bool, typer.Option("--isolated", help="Ignore every configuration file.")] = False,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Neither read nor write the lint cache.")] = False,
    cache_dir: Annotated[str | None, typer.Option("--cache-dir", metavar="DIR", help="Where the lint cache lives (default: .shengji_cache next to the configuration file, or here).")] = None,
    source_format: Annotated[str | None, typer.Option("--from", metavar="FORMAT", help=FROM_HELP)] = None,
    cluster: Annotated[str | None, typer.Option("--cluster", metavar="ADDRESS", help=CLUSTER_HELP)] = None,
    cluster_timeout: Annotated[int, typer.Option("--cluster-timeout", metavar="SECONDS", min=1, help="With --cluster: give up (exit 2) when the scheduler has had no worker this long.")] = 60,
    dashboard: Annotated[str | None, typer.Option("--dashboard", metavar="HOST:PORT", help="With --cluster local:N: where its Dask dashboard listens (default 127.0.0.1, a free port; 'none' for no dashboard).")] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help=NO_PROGRESS_HELP)] = False,
) -> None:
    """Check records: syntax, deal, declarations, play legality, score and levels."""
    from analyzer import lint as L
    from analyzer.io.errors import UsageError
    from analyzer.io.outputs import check_output, open_output
    from analyzer.lint import config as K
    from analyzer.lint.formats import FORMATS, formatter
    settings = K.resolve(K.discover(paths, config, isolated), select=select or (), ignore=ignore or (),
                         extend_select=extend_select or (), rules=rules, exclude=exclude or (), jobs=jobs,
                         fmt=fmt.value if fmt is not None else None, mistakes=mistakes, no_cache=no_cache,
                         cache_dir=cache_dir, formats=FORMATS)
    if statistics and settings.format not in ("text", "json", "jsonl"):
        raise UsageError(f"--statistics writes text, json or jsonl, not {settings.format}")
    options = L.LintOptions(settings.rules, settings.select, settings.ignore, settings.mistakes,
                            source_format).validate()
    if settings.mistakes and not L.mistakes_available():
        typer.echo(f"{PROG}: mistake rules are not available yet; --mistakes is ignored", err=True)
        options = L.LintOptions(options.rules, options.select, options.ignore, False, options.source_format)
    check_output(output, force=force, inputs=[p for p in paths if p != "-"])
    cache = None
    if settings.cache:
        from analyzer.lint.cache import LintCache
        cache = LintCache(settings.cache_dir, options)
    fm = formatter(settings.format)
    with open_output(output) as out:
        # a streamed format is written file by file as the files are linted, their findings let go
        stream = fm.stream(out, version=version(), quiet=quiet) if fm.stream and not statistics else None
        walk: dict[str, Any] = {"exclude": settings.exclude, "gitignore": settings.gitignore, "cache": cache}
        if stream is not None:
            walk.update(on_file=_closing_status(stream.file, exit_zero), keep_findings=False)
        elif statistics:  # (counts only: every file's findings let go once counted)
            walk.update(keep_findings=False)
        if cluster is not None:
            if jobs is not None:
                raise UsageError("--jobs and --cluster cannot be used together")
            from analyzer.store import cluster as C
            try:
                report = C.lint_on_cluster(paths, options, cluster, progress=C.ChunkProgress("chunks linted"),
                                           worker_timeout=cluster_timeout, dashboard=dashboard or C.DASHBOARD,
                                           on_dashboard=lambda link: typer.echo(f"{PROG}: Dask dashboard: {link}",
                                                                                err=True), **walk)
            except C.ClusterError as exc:
                fail(str(exc))
        else:
            from analyzer.io.progress import Progress
            progress = Progress(f"{PROG} lint", "bytes", min_total=PROGRESS_THRESHOLD) if not no_progress else None
            report = L.lint_paths(paths, options, jobs=settings.jobs, progress=progress, **walk)
        if not report.files and not report.missing:
            typer.echo(f"{PROG}: warning: no *.sjn or *.gjn files found under the given path(s)", err=True)
        exit_if_closed(0 if exit_zero and report.exit_code == 1 else report.exit_code)
        if statistics:
            from analyzer.lint.formats import write_statistics
            write_statistics(report, out, settings.format, quiet=quiet)
        elif stream is not None:
            stream.end(report)
        else:
            fm.write(report, out, version=version(), quiet=quiet)
    sys.stdout.flush()
    for line in report.errors:
        echo_err(f"{PROG}: error: {line}")
    code = report.exit_code
    raise typer.Exit(0 if exit_zero and code == 1 else code)


def _closing_status(on_file: Any, exit_zero: bool) -> Any:
    """``on_file`` that also keeps the status to exit with should the reader close
    the pipe while the findings stream out (``lint … | head``): 1 from the first
    file with an error (unless ``--exit-zero``), 2 from a file that could not be read."""
    worst = [0]

    def each(result: Any) -> None:
        if result.error is not None:
            worst[0] = 2
        elif not exit_zero and worst[0] == 0 and any(sev == "error" for _code, _name, sev in result.tally()):
            worst[0] = 1
        exit_if_closed(worst[0])
        on_file(result)
    return each
