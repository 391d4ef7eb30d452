"""``shengji replay``: a match as the players saw it (each game's own view: :meth:`analyzer.games.Game.replay`)."""

from typing import Annotated

import typer

from analyzer.cli._core import command
from analyzer.io.importers.registry import FROM_HELP


@command(epilog="""Examples:

  shengji replay match.sjn

  shengji replay match.sjn --hand 2 --trick 5     the table before trick 5 of hand 2

  shengji replay match.sjn --step                 Enter for the next trick""")
def replay(
    file: Annotated[str, typer.Argument(metavar="FILE", help="An SJN, GJN or JSON record file, or another program's log (- for stdin).")],
    hand: Annotated[int | None, typer.Option("--hand", "--game", min=1, metavar="N", help="Only this hand (Gouji: game), 1-based.")] = None,
    trick: Annotated[int | None, typer.Option("--trick", "-t", min=1, metavar="K", help="The table before this trick, and the tricks up to it.")] = None,
    step: Annotated[bool, typer.Option("--step", help="Wait for Enter between tricks (when stdin is a terminal).")] = False,
    record: Annotated[int | None, typer.Option("--record", "-r", min=1, metavar="N", help="Only this record of the file (1-based).")] = None,
    rules: Annotated[str | None, typer.Option("--rules", metavar="PRESET", help="A preset that overrides the record's [Rules] tag.")] = None,
    source_format: Annotated[str | None, typer.Option("--from", metavar="FORMAT", help=FROM_HELP)] = None,
) -> None:
    """Show a match as the players saw it: hands in trump order, tricks, points, kitty."""
    from analyzer.io.inputs import Source, check_preset
    check_preset(rules)
    src = Source(file, source_format)
    src.game.replay(src, file, hand=hand, trick=trick, step=step, record=record, rules=rules)
