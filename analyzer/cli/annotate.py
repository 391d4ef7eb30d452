"""``shengji annotate``: the record written back with mistake annotations (SJ6xx)."""

from __future__ import annotations

from typing import Annotated

import typer

from ._core import FROM_HELP, command, echo_err, fail


@command(epilog="""Examples:

  shengji annotate match.sjn                      print the record with {SJ6xx …} comments

  shengji annotate match.sjn -o reviewed.sjn

  shengji annotate match.sjn --select SJ610 --endgame 8

The comments are SJN commentary attached to the play they are about; the
annotated record reads back like any other (shengji fmt keeps them). Running
annotate again replaces the earlier annotations.""")
def annotate(
    file: Annotated[str, typer.Argument(metavar="FILE", help="An SJN or JSON record file, or another program's log.")],
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write here instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output file.")] = False,
    select: Annotated[list[str] | None, typer.Option("--select", metavar="PREFIXES", help="Only mistake codes starting with these prefixes.")] = None,
    endgame: Annotated[int | None, typer.Option("--endgame", min=0, show_default=False, metavar="K",
                                                help="Tricks from the end searched exactly (default 4): there the search "
                                                     "decides every verdict.")] = None,
    rules: Annotated[str | None, typer.Option("--rules", metavar="PRESET", help="A preset that overrides the record's [Rules] tag.")] = None,
    source_format: Annotated[str | None, typer.Option("--from", metavar="FORMAT", help=FROM_HELP)] = None,
    unicode: Annotated[bool, typer.Option("--unicode", help="Write suits as ♠ ♥ ♦ ♣.")] = False,
) -> None:
    """Review the plays and write the record back with mistake annotations (SJ6xx)."""
    from notation.writer import _Style, write_record
    from replay.game import replay as run_replay

    from .. import lint as L
    from ..inputs import Source, check_preset, diag_line
    from ..mistakes import ENDGAME_TRICKS, review_match, summarize
    from ..mistakes import annotate as annotate_record
    from ..outputs import Discard, check_output, open_output
    from ..report import TAG_OF_SEAT, summary_lines
    if endgame is None:
        endgame = ENDGAME_TRICKS
    check_preset(rules)
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
                    echo_err(diag_line(name, d))
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
                raise Discard
            if not records:
                fail(f"{name}: no record found")
    except Discard:
        fail(f"{name}: fix the reading errors first (shengji lint shows them)", 1)
    for line in lines:
        echo_err(line)
    echo_err(f"{count} annotation{'s' if count != 1 else ''} in {records} record"
             f"{'s' if records != 1 else ''}")
