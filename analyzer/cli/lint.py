"""``shengji lint``: check records (a thin layer over :mod:`analyzer.lint`)."""

import sys
from typing import Annotated

import typer

from ..lint.formats import LintFormat
from ._core import CLUSTER_HELP, FROM_HELP, NO_PROGRESS_HELP, PROG, command, exit_if_closed, fail, version

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

A '; noqa: SJ404' comment silences SJ404 on its line ('; noqa' alone: every code).
Exit status: 0 no error-severity finding, 1 errors found, 2 usage or I/O error.""")
def lint(
    paths: Annotated[list[str], typer.Argument(metavar="PATH", help="Files, directories (every *.sjn and *.gjn below), globs, or - for stdin.")],
    fmt: Annotated[LintFormat, typer.Option("--format", "-f", help="Output format.")] = LintFormat('text'),
    select: Annotated[list[str] | None, typer.Option("--select", metavar="PREFIXES", help="Only codes starting with these prefixes (comma-separated, repeatable).")] = None,
    ignore: Annotated[list[str] | None, typer.Option("--ignore", metavar="PREFIXES", help="Skip codes starting with these prefixes (comma-separated, repeatable).")] = None,
    rules: Annotated[str | None, typer.Option("--rules", metavar="PRESET", help="A preset that overrides each record's [Rules] tag.")] = None,
    mistakes: Annotated[bool, typer.Option("--mistakes", help="Also run the mistake rules (SJ6xx; slower: endgame search).")] = False,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, metavar="N", help="Worker processes (default: all cores).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Text format: print the findings only, no summary.")] = False,
    source_format: Annotated[str | None, typer.Option("--from", metavar="FORMAT", help=FROM_HELP)] = None,
    cluster: Annotated[str | None, typer.Option("--cluster", metavar="ADDRESS", help=CLUSTER_HELP)] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help=NO_PROGRESS_HELP)] = False,
) -> None:
    """Check records: syntax, deal, declarations, play legality, score and levels."""
    from .. import lint as L
    from ..errors import UsageError
    from ..lint.formats import formatter
    options = L.LintOptions(rules, L.parse_codes(select), L.parse_codes(ignore), mistakes,
                            source_format).validate()
    if mistakes and not L.mistakes_available():
        typer.echo(f"{PROG}: mistake rules are not available yet; --mistakes is ignored", err=True)
        options = L.LintOptions(options.rules, options.select, options.ignore, False)
    if cluster is not None:
        if jobs is not None:
            raise UsageError("--jobs and --cluster cannot be used together")
        from .. import cluster as C
        try:
            report = C.lint_on_cluster(paths, options, cluster, progress=C.ChunkProgress("chunks linted"))
        except C.ClusterError as exc:
            fail(str(exc))
    else:
        from ..progress import Progress
        progress = Progress(f"{PROG} lint", "bytes", min_total=PROGRESS_THRESHOLD) if not no_progress else None
        report = L.lint_paths(paths, options, jobs=jobs, progress=progress)
    if not report.files and not report.missing:
        typer.echo(f"{PROG}: warning: no *.sjn or *.gjn files found under the given path(s)", err=True)
    exit_if_closed(report.exit_code)
    out = sys.stdout
    out.write(formatter(fmt.value).render(report, version=version(), quiet=quiet))
    out.flush()
    for line in report.errors:
        typer.echo(f"{PROG}: error: {line}", err=True)
    raise typer.Exit(report.exit_code)
