"""``shengji rules``: the rule presets of every game (:meth:`analyzer.games.Game.preset_rows`)."""

from typing import Annotated

import typer

from analyzer.cli._core import command
from analyzer.io.echo import usage


@command(epilog="""Examples:

  shengji rules              every preset and what it changes

  shengji rules campus       every option of the campus preset, with its source""")
def rules(
    name: Annotated[str | None, typer.Argument(metavar="PRESET", help="A preset name.")] = None,
) -> None:
    """List the rule presets, or every option of one preset with its source."""
    from analyzer.io.gamekit import all_presets, by_preset, games
    from analyzer.report import render
    from analyzer.report.console import make_console
    console = make_console()
    if name is None:
        console.print(render.presets_table([row for game in games() for row in game.preset_rows()]))
        return
    game = by_preset(name)
    if game is not None:
        rows, title = game.option_table(name)
        console.print(render.options_table(rows, title=title))
        return
    if name.strip().upper() in _codes():
        usage(f"{name} is a diagnostic code, not a preset: 'shengji rule {name.strip().upper()}' explains it")
    usage(f"unknown preset {name!r}; known: {', '.join(all_presets())}")


def _codes() -> set[str]:
    from primitives.diagnostics import CODES
    return set(CODES)
