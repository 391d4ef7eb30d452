"""``shengji report``: per hand, per match and per player summaries (Shengji and Gouji)."""

import itertools
from collections.abc import Iterator
from typing import Annotated, Any

import typer

from analyzer.cli._core import FROM_HELP, NO_PROGRESS_HELP, PROG, command, fail, refuse_page_on_terminal, wrote
from analyzer.report.formats import ReportFormat, canonical


@command(epilog="""Examples:

  shengji report match.sjn

  shengji report match.sjn --format md -o match.md

  shengji report match.sjn --format html -o match.html --force

  shengji report club.gjn --format html -o club.html    the six-seat Gouji replay page""")
def report(
    file: Annotated[str, typer.Argument(metavar="FILE", help="An SJN, GJN or JSON record file, or another program's log (- for stdin).")],
    fmt: Annotated[ReportFormat, typer.Option("--format", "-f", help="Output format (term: the same as text).")] = ReportFormat('text'),
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write here instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output file.")] = False,
    rules: Annotated[str | None, typer.Option("--rules", metavar="PRESET", help="A preset that overrides the record's [Rules] tag.")] = None,
    mistakes: Annotated[bool, typer.Option("--mistakes", help="Also list mistakes (SJ6xx) per hand and player.")] = False,
    source_format: Annotated[str | None, typer.Option("--from", metavar="FORMAT", help=FROM_HELP)] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="With --mistakes: " + NO_PROGRESS_HELP[0].lower() + NO_PROGRESS_HELP[1:])] = False,
) -> None:
    """Per hand, per match and per player summary of a record file."""
    from analyzer import lint as L
    from analyzer.io.inputs import Source, check_preset
    from analyzer.io.outputs import check_output, open_output
    from analyzer.report import model as R
    from analyzer.report.formats import WRITERS
    form = canonical(fmt.value)
    if form == "html":
        refuse_page_on_terminal(output, "--format html")
    check_preset(rules)
    check_output(output, force=force, inputs=(file,))
    annotate = None
    progress = None
    if mistakes:
        if not L.mistakes_available():
            typer.echo(f"{PROG}: mistake rules are not available yet; --mistakes is ignored", err=True)
        else:
            annotate, progress = _reviewed(L.mistake_hook(L.REVIEW_ENTRY), not no_progress)
    src = Source(file, source_format)
    if src.gouji():
        if mistakes:
            typer.echo(f"{PROG}: the mistake review of Gouji (GJN) records is not available yet; "
                       "--mistakes is ignored", err=True)
        _report_gjn(src, file, form, output, force, rules)
        return

    seen = {"records": 0, "reading_errors": 0}

    def pairs() -> Iterator[tuple[Any, list[Any]]]:
        for rec, diags in src.records():
            seen["reading_errors"] += sum(1 for d in diags if d.severity == "error"
                                          and d.code.startswith(("SJ1", "SJ7", "SJ9")))
            if rec is None:  # what held no record: its diagnostics go on the report
                yield None, diags
            else:
                seen["records"] += 1
                yield rec, diags

    matches = iter(R.iter_matches(pairs(), rules=rules, annotate=annotate, fmt=form))
    first = next(matches, None)
    src.check()
    if first is None:
        fail(f"{file}: no record found")
    matches = itertools.chain([first], matches)
    name = src.name
    try:
        with open_output(output, inert=form != "text") as out:  # (text: the console escapes)
            WRITERS[form](out, name, matches)
            src.check()
    finally:
        if progress is not None:
            progress.stop()
    wrote(output)
    if seen["reading_errors"]:
        # a part could not be read: the report shows where, and the exit status says so (as lint's does)
        n = seen["reading_errors"]
        typer.echo(f"{PROG}: error: {name}: {n} reading error{'s' if n != 1 else ''}"
                   f"{'; no record could be read' if not seen['records'] else ''}", err=True)
        raise typer.Exit(1)


def _reviewed(hook: Any, shown: bool) -> tuple[Any, Any]:
    """The mistake review (the slow part of ``report --mistakes``) with its
    progress in hands: ``(annotate, progress)``."""
    import inspect

    from analyzer.io.progress import Progress
    progress = Progress(f"{PROG} report: reviewing", "hands", enabled=shown)
    if hook is None or "on_hand" not in inspect.signature(hook).parameters:
        return hook, None

    def annotate(record: Any, match: Any) -> Any:
        progress.add_total(len(match.hands))
        return hook(record, match, on_hand=progress.advance)
    return annotate, progress


def _report_gjn(src: Any, file: str, fmt: str, output: str | None, force: bool, rules: str | None) -> None:
    """``report`` of a GJN file (or the JSON of Gouji records): places, score, 够级 plays and burns per game."""
    from analyzer.io.inputs import reading_errors
    records, diags = src.load()
    bad = reading_errors(diags)
    if not records:
        from analyzer.io.inputs import diag_line
        for d in diags:
            typer.echo(diag_line(file, d), err=True)
        fail(f"{file}: no record found", 1 if bad else 2)
    _write_gjn_report(records, diags, file, fmt, output, force, rules)
    if bad:
        # a part could not be read: the report shows where, and the exit status says so (as lint's does)
        typer.echo(f"{PROG}: error: {file}: {bad} reading error{'s' if bad != 1 else ''}", err=True)
        raise typer.Exit(1)


def _write_gjn_report(records: list[Any], diags: list[Any], file: str, fmt: str, output: str | None, force: bool,
                      rules: str | None) -> None:
    from analyzer.games.gouji import analysis as gouji
    from analyzer.io.outputs import write_output
    from analyzer.report import render
    name = "<stdin>" if file == "-" else file
    rep = gouji.build_report([(r, diags if k == 0 else []) for k, r in enumerate(records)], name,
                             rules=rules if gouji.is_gouji_preset(rules) else None)
    if fmt == "html":
        from analyzer.games.gouji.viewer import render_html
        write_output(output, render_html(rep), force=force, inert=True)
    elif fmt == "text":
        if output in (None, "-"):
            gouji.render_report(render.make_console(), rep)
            return
        import io
        buf = io.StringIO()
        gouji.render_report(render.make_console(file=buf, color=False), rep)
        write_output(output, buf.getvalue(), force=force)
    else:
        write_output(output, gouji.render(rep, fmt), force=force, inert=True)
    wrote(output)
