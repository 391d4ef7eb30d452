"""``shengji replay``: a match as the players saw it (Shengji and Gouji)."""

import sys
from collections.abc import Callable, Iterator
from typing import Annotated, Any

import typer

from analyzer.cli._core import FROM_HELP, command, echo_err, fail


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
    from analyzer.io.inputs import Source, check_preset, diag_line
    from analyzer.io.safetext import styled
    from analyzer.report import render
    from replay.game import replay as run_replay
    check_preset(rules)
    src = Source(file, source_format)
    if src.gouji():
        _replay_gjn(src, file, game=hand, record=record, rules=rules)
        return
    console = render.make_console()
    waiter: Callable[[str], None] | None = None
    if step:
        if sys.stdin.isatty():
            def waiter(prompt: str) -> None:
                console.input(styled((prompt, "dim"), " "))  # type: ignore[arg-type, unused-ignore]  # Rich takes Text too
        else:
            def waiter(prompt: str) -> None:
                return None

    reading_errors = 0

    def records() -> Iterator[Any]:
        """The records, one at a time (with ``--record N``: only up to N, unreplayed)."""
        nonlocal reading_errors
        for rec, diags in src.records():
            for d in diags:
                echo_err(diag_line(file, d))
                reading_errors += d.severity == "error" and d.code.startswith(("SJ1", "SJ7", "SJ9"))
            if rec is not None:
                yield rec

    count = 0
    shown = 0
    it = records()
    nxt = next(it, None)
    while nxt is not None:
        rec, nxt = nxt, next(it, None)
        count += 1
        if record is not None and count != record:
            if count > record:
                break
            continue
        if shown:
            console.print()
        if count > 1 or nxt is not None:
            console.print(render.record_title(rec, count, file))
        shown += 1
        match = run_replay(rec, rules=rules)
        try:
            render.render_replay(console, rec, match, hand=hand, trick=trick, step=waiter)
        except IndexError as exc:
            fail(str(exc))
        except (KeyboardInterrupt, EOFError):
            raise typer.Exit(130) from None
        if record is not None:
            break
    src.check()
    if not count:
        # reading errors (shown above) are findings: 1, as lint and convert say; an input that held nothing, 2
        fail(f"{file}: no record found", 1 if reading_errors else 2)
    if record is not None and not shown:
        fail(f"{file} has {count} record(s); there is no record {record}")
    if reading_errors:
        # a part could not be read (shown above): 1, as lint, report and convert say
        fail(f"{file}: {reading_errors} reading error{'s' if reading_errors != 1 else ''}", 1)


def _replay_gjn(src: Any, file: str, *, game: int | None, record: int | None, rules: str | None) -> None:
    """``replay`` of a GJN file (or the JSON of Gouji records): every game, play by play."""
    from analyzer.games.gouji import analysis as gouji
    from analyzer.io.inputs import diag_line, reading_errors
    from analyzer.io.safetext import styled
    from analyzer.report import render
    records, diags = src.load()
    for d in diags:
        echo_err(diag_line(file, d))
    bad = reading_errors(diags)
    if not records:
        fail(f"{file}: no record found", 1 if bad else 2)
    chosen = list(enumerate(records, 1))
    if record is not None:
        if record > len(records):
            fail(f"{file} has {len(records)} record(s); there is no record {record}")
        chosen = [(record, records[record - 1])]
    console = render.make_console()
    for n, (index, rec) in enumerate(chosen):
        if n:
            console.print()
        if len(records) > 1:
            console.print(styled((f"Record {index}", "bold"), f" {rec.tag('Event') or ''}"))
        result = gouji.run_engine(rec, rules if gouji.is_gouji_preset(rules) else None)
        for d in result.diagnostics:
            echo_err(diag_line(file, d))
        try:
            gouji.render_replay(console, rec, result, game=game)
        except IndexError as exc:
            fail(str(exc))
    if bad:
        fail(f"{file}: {bad} reading error{'s' if bad != 1 else ''}", 1)
