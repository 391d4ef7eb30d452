"""``shengji convert``: records between SJN, GJN and JSON."""

from __future__ import annotations

import json
from enum import Enum
from typing import Annotated

import typer

from ._core import command, echo_err, fail


class ConvertTo(str, Enum):
    json = "json"
    sjn = "sjn"
    gjn = "gjn"


@command(epilog="""Examples:

  shengji convert match.sjn --to json -o match.json

  shengji convert match.json --to sjn

The input format (SJN or JSON) is told by the suffix, else by the content. Several
records become a JSON array; a JSON array becomes several SJN records.""")
def convert(
    file: Annotated[str, typer.Argument(metavar="FILE", help="An SJN or JSON file (- for stdin).")],
    to: Annotated[ConvertTo, typer.Option("--to", help="Output format.")],
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write here instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output file.")] = False,
    spans: Annotated[bool, typer.Option("--spans", help="JSON: keep the source positions of every element.")] = False,
    unicode: Annotated[bool, typer.Option("--unicode", help="SJN: write suits as ♠ ♥ ♦ ♣.")] = False,
) -> None:
    """Convert records between SJN and JSON."""
    from notation.jsonio import to_data
    from notation.writer import _Style, write_record

    from ..inputs import Source, diag_line
    from ..outputs import Discard, check_output, open_output
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
                    echo_err(diag_line(file, d))
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
                item = json.dumps(to_data(record, spans=spans), indent=2, ensure_ascii=False)
                if count == 1:
                    held = item
                    continue
                if held is not None:
                    out.write("[\n  " + held.replace("\n", "\n  "))
                    held = None
                out.write(",\n  " + item.replace("\n", "\n  "))
            src.check()
            if errors:
                raise Discard
            if not count:
                fail(f"{file}: no record found", 1)
            if to == ConvertTo.json:
                out.write(held + "\n" if held is not None else "\n]\n")
    except Discard:
        fail(f"{file}: not converted: {errors} reading error(s)", 1)


def _convert_gjn(src: object, file: str, to: ConvertTo, output: str | None, spans: bool,
                 unicode: bool) -> None:
    """``convert`` of a Gouji record (GJN, or JSON written from GJN): to gjn or json."""
    from notation import gjn

    from ..inputs import Source, diag_line, load_gjn
    from ..outputs import open_output
    assert isinstance(src, Source)
    if to == ConvertTo.sjn:
        fail(f"{file}: a Gouji record converts to gjn or json, not sjn", 2)
    records, diags = load_gjn(src.text(), file)
    errors = [d for d in diags if d.severity == "error" and d.code.startswith("SJ1")]
    for d in diags:
        echo_err(diag_line(file, d))
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
