"""``shengji report``: per hand, per match and per player summaries (each game's own: :meth:`analyzer.games.Game.report`)."""

from collections.abc import Callable
from typing import Annotated, Any

import typer

from analyzer.cli._core import NO_PROGRESS_HELP, REVIEW_JOBS_HELP, command, refuse_page_on_terminal, review_jobs
from analyzer.io.echo import PROG
from analyzer.io.importers.registry import FROM_HELP
from analyzer.report.formats import ReportFormat, canonical


@command(epilog="""Examples:

  shengji report match.sjn

  shengji report match.sjn --format md -o match.md

  shengji report match.sjn --format html -o match.html --force

  shengji report match.sjn --mistakes -j 4      the review in 4 worker processes

  shengji report club.gjn --format html -o club.html    the six-seat Gouji replay page""")
def report(
    file: Annotated[str, typer.Argument(metavar="FILE", help="An SJN, GJN or JSON record file, or another program's log (- for stdin).")],
    fmt: Annotated[ReportFormat, typer.Option("--format", "-f", help="Output format (term: the same as text).")] = ReportFormat('text'),
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write here instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output file.")] = False,
    rules: Annotated[str | None, typer.Option("--rules", metavar="PRESET", help="A preset that overrides the record's [Rules] tag.")] = None,
    mistakes: Annotated[bool, typer.Option("--mistakes", help="Also list mistakes (SJ6xx) per hand and player.")] = False,
    source_format: Annotated[str | None, typer.Option("--from", metavar="FORMAT", help=FROM_HELP)] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, metavar="N", help="With --mistakes: " + REVIEW_JOBS_HELP)] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="With --mistakes: " + NO_PROGRESS_HELP[0].lower() + NO_PROGRESS_HELP[1:])] = False,
) -> None:
    """Per hand, per match and per player summary of a record file."""
    from analyzer import lint as L
    from analyzer.io.inputs import Source, check_preset
    from analyzer.io.outputs import check_output
    form = canonical(fmt.value)
    if form == "html":
        refuse_page_on_terminal(output, "--format html")
    check_preset(rules)
    check_output(output, force=force, inputs=(file,))
    if mistakes and not L.mistakes_available():
        typer.echo(f"{PROG}: mistake rules are not available yet; --mistakes is ignored", err=True)
        mistakes = False
    src = Source(file, source_format)
    more = {}
    if mistakes and _takes_jobs(src.game.report):   # (a game whose report has no review workers: none)
        more["jobs"] = review_jobs(jobs)
    src.game.report(src, file, form, output, force=force, rules=rules, mistakes=mistakes, progress=not no_progress,
                    **more)


def _takes_jobs(report: Callable[..., Any]) -> bool:
    """Does a game's ``report`` take ``jobs`` (the review's worker processes)? A game
    added before ``--jobs`` (docs/extending.md) has the older signature."""
    import inspect
    try:
        params = inspect.signature(report).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "jobs" or p.kind is p.VAR_KEYWORD for p in params)
