"""``shengji convert``: records between SJN, GJN and JSON."""

from enum import Enum
from typing import Annotated

import typer

from analyzer.cli._core import command


class ConvertTo(str, Enum):
    json = "json"
    sjn = "sjn"
    gjn = "gjn"


@command(epilog="""Examples:

  shengji convert match.sjn --to json -o match.json

  shengji convert match.json --to sjn

The input format (SJN, GJN or JSON) is told by the suffix, else by the content. Several
records become a JSON array; a JSON array becomes several SJN records. A Gouji (GJN)
record converts to gjn or json.""")
def convert(
    file: Annotated[str, typer.Argument(metavar="FILE", help="An SJN, GJN or JSON record file (- for stdin).")],
    to: Annotated[ConvertTo, typer.Option("--to", help="Output format.")],
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write here instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output file.")] = False,
    spans: Annotated[bool, typer.Option("--spans", help="JSON: keep the source positions of every element.")] = False,
    unicode: Annotated[bool, typer.Option("--unicode", help="SJN: write suits as ♠ ♥ ♦ ♣.")] = False,
) -> None:
    """Convert records between SJN, GJN and JSON."""
    from analyzer.io.inputs import Source
    from analyzer.io.outputs import check_output
    check_output(output, force=force, inputs=(file,))
    src = Source(file)
    src.game.convert(src, to.value, output, spans=spans, unicode=unicode)
