"""``shengji report``: per hand, per match and per player summaries (Shengji and Gouji)."""

import itertools
from collections.abc import Iterator
from typing import Annotated, Any

import typer

from ..report_formats import ReportFormat
from ._core import FROM_HELP, PROG, command, fail


@command(epilog="""Examples:

  shengji report match.sjn

  shengji report match.sjn --format md -o match.md

  shengji report match.sjn --format html -o match.html --force

  shengji report club.gjn --format html -o club.html    the six-seat Gouji replay page""")
def report(
    file: Annotated[str, typer.Argument(metavar="FILE", help="An SJN or JSON record file (- for stdin).")],
    fmt: Annotated[ReportFormat, typer.Option("--format", "-f", help="Output format.")] = ReportFormat('term'),
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write here instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output file.")] = False,
    rules: Annotated[str | None, typer.Option("--rules", metavar="PRESET", help="A preset that overrides the record's [Rules] tag.")] = None,
    mistakes: Annotated[bool, typer.Option("--mistakes", help="Also list mistakes (SJ6xx) per hand and player.")] = False,
    source_format: Annotated[str | None, typer.Option("--from", metavar="FORMAT", help=FROM_HELP)] = None,
) -> None:
    """Per hand, per match and per player summary of a record file."""
    from .. import lint as L
    from .. import report as R
    from ..inputs import Source, check_preset
    from ..outputs import check_output, open_output
    from ..report_formats import WRITERS
    check_preset(rules)
    check_output(output, force=force, inputs=(file,))
    annotate = None
    if mistakes:
        if not L.mistakes_available():
            typer.echo(f"{PROG}: mistake rules are not available yet; --mistakes is ignored", err=True)
        else:
            annotate = L.mistake_hook(L.REVIEW_ENTRY)
    src = Source(file, source_format)
    if src.gouji():
        _report_gjn(src, file, fmt.value, output, force, rules)
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

    matches = iter(R.iter_matches(pairs(), rules=rules, annotate=annotate, fmt=fmt.value))
    first = next(matches, None)
    src.check()
    if first is None:
        fail(f"{file}: no record found")
    matches = itertools.chain([first], matches)
    name = src.name
    with open_output(output) as out:
        WRITERS[fmt.value](out, name, matches)
        src.check()
    if seen["reading_errors"]:
        # a part could not be read: the report shows where, and the exit status says so (as lint's does)
        n = seen["reading_errors"]
        typer.echo(f"{PROG}: error: {name}: {n} reading error{'s' if n != 1 else ''}"
                   f"{'; no record could be read' if not seen['records'] else ''}", err=True)
        raise typer.Exit(1)


def _report_gjn(src: Any, file: str, fmt: str, output: str | None, force: bool, rules: str | None) -> None:
    """``report`` of a GJN file (or the JSON of Gouji records): places, score, 够级 plays and burns per game."""
    from ..inputs import reading_errors
    records, diags = src.load()
    bad = reading_errors(diags)
    if not records:
        from ..inputs import diag_line
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
    from .. import gouji, render
    from ..outputs import write_output
    name = "<stdin>" if file == "-" else file
    rep = gouji.build_report([(r, diags if k == 0 else []) for k, r in enumerate(records)], name,
                             rules=rules if gouji.is_gouji_preset(rules) else None)
    if fmt == "html":
        from ..gouji_viewer import render_html
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
