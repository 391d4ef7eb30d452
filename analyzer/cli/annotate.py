"""``shengji annotate``: the record written back with mistake annotations (SJ6xx)."""

from typing import Annotated

import typer

from analyzer.cli._core import NO_PROGRESS_HELP, REVIEW_JOBS_HELP, command, review_jobs
from analyzer.io.echo import PROG, echo_err, fail, wrote
from analyzer.io.importers.registry import FROM_HELP


@command(epilog="""Examples:

  shengji annotate match.sjn                      print the record with {SJ6xx …} comments

  shengji annotate match.sjn -o reviewed.sjn

  shengji annotate match.sjn --select SJ610 --endgame 8

  shengji annotate match.sjn -j 1                 the review in this one process

The comments are SJN commentary attached to the play they are about; the
annotated record reads back like any other (shengji fmt keeps them). Running
annotate again replaces the earlier annotations.""")
def annotate(
    file: Annotated[str, typer.Argument(metavar="FILE", help="An SJN or JSON record file, or another program's log (- for stdin).")],
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write here instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output file.")] = False,
    select: Annotated[list[str] | None, typer.Option("--select", metavar="PREFIXES", help="Only mistake codes starting with these prefixes.")] = None,
    endgame: Annotated[int | None, typer.Option("--endgame", min=0, show_default=False, metavar="K",
                                                help="Tricks from the end searched exactly (default 4): there the search "
                                                     "decides every verdict.")] = None,
    rules: Annotated[str | None, typer.Option("--rules", metavar="PRESET", help="A preset that overrides the record's [Rules] tag.")] = None,
    source_format: Annotated[str | None, typer.Option("--from", metavar="FORMAT", help=FROM_HELP)] = None,
    unicode: Annotated[bool, typer.Option("--unicode", help="Write suits as ♠ ♥ ♦ ♣.")] = False,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, metavar="N", help=REVIEW_JOBS_HELP[0].upper() + REVIEW_JOBS_HELP[1:])] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help=NO_PROGRESS_HELP)] = False,
) -> None:
    """Review the plays and write the record back with mistake annotations (SJ6xx)."""
    from analyzer import lint as L
    from analyzer.io.inputs import Source, check_preset
    from analyzer.io.outputs import check_output, open_output
    check_preset(rules)
    check_output(output, force=force, inputs=(file,))
    prefixes = L.parse_codes(select)
    src = Source(file, source_format)
    annotate_records = getattr(src.game, "annotate", None)
    if annotate_records is None:
        fail(f"{file}: a {src.game.title} ({src.game.notation.upper()}) record: the mistake rules are for "
             f"Shengji records", 2)
    from analyzer.io.progress import Progress
    progress = Progress(f"{PROG} annotate: reviewing", "hands", enabled=not no_progress)
    from analyzer.io.spool import SpooledLines
    lines = SpooledLines()   # (the summary, printed at the end: a temporary file past 1 MB)
    try:
        with open_output(output, spool=True, inert=True) as out:
            count, records, _ = annotate_records(src, out, rules=rules, endgame=endgame, prefixes=prefixes,
                                                 unicode=unicode, err=echo_err, progress=progress, lines=lines,
                                                 jobs=review_jobs(jobs))
    finally:
        progress.stop()
    wrote(output)
    for line in lines:
        echo_err(line)
    lines.close()
    echo_err(f"{count} annotation{'s' if count != 1 else ''} in {records} record"
             f"{'s' if records != 1 else ''}")
