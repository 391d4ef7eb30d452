"""``shengji rules``: the rule presets (a thin layer over :mod:`analyzer.report.presets`)."""

from typing import Annotated

import typer

from analyzer.cli._core import command, usage


@command(epilog="""Examples:

  shengji rules              every preset and what it changes

  shengji rules campus       every option of the campus preset, with its source""")
def rules(
    name: Annotated[str | None, typer.Argument(metavar="PRESET", help="A preset name.")] = None,
) -> None:
    """List the rule presets, or every option of one preset with its source."""
    from analyzer.games.gouji import analysis as gouji
    from analyzer.report import render
    from analyzer.report.presets import option_rows, preset_rows
    from replay.ruleset import PRESETS
    console = render.make_console()
    if name is None:
        console.print(render.presets_table(preset_rows()))
        return
    if gouji.is_gouji_preset(name):
        console.print(render.options_table(gouji.option_rows(name),
                                           title=f"Gouji preset {name} (* differs from gouji)"))
        return
    if name not in PRESETS and name.strip().upper() in _codes():
        usage(f"{name} is a diagnostic code, not a preset: 'shengji rule {name.strip().upper()}' explains it")
    if name not in PRESETS:
        known = list(PRESETS) + list(gouji.presets())
        usage(f"unknown preset {name!r}; known: {', '.join(known)}")
    console.print(render.options_table(option_rows(name), title=f"Preset {name} (* differs from standard)"))


def _codes() -> set[str]:
    from primitives.diagnostics import CODES
    return set(CODES)
