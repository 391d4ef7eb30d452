"""``shengji import`` (other programs' logs → SJN) and ``shengji export`` (the 1997
game's save, the Parquet store)."""

from typing import Annotated

import typer

from analyzer.cli._core import CLUSTER_HELP, NO_PROGRESS_HELP, command
from analyzer.io.echo import echo_err, fail, usage, wrote
from analyzer.io.importers.registry import FORMATS_HELP, FROM_HELP, IMPORT_FORMATS_TEXT


@command("import", epilog=f"""Examples:

  shengji import fly room.jsonl -o room.sjn

  shengji import botzone match.json

  shengji import auto chat.txt              detect the format from the content

  shengji import game-sav GAME.SAV -o match.sjn   start a record from the 1997 Tractor game's save

{FORMATS_HELP}
Findings about the log (unreadable parts, unknown events, claims the rules contradict)
are printed to stderr with their position in the log.
Exit status: 0, or 1 when a log had error findings, 2 on usage or I/O errors.""")
def import_(
    fmt: Annotated[str, typer.Argument(metavar="FORMAT", help=f"{IMPORT_FORMATS_TEXT} or auto.")],
    files: Annotated[list[str], typer.Argument(metavar="FILE", help="Log files (- for stdin).")],
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write the SJN here instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output file.")] = False,
    unicode: Annotated[bool, typer.Option("--unicode", help="Write suits as ♠ ♥ ♦ ♣.")] = False,
) -> None:
    """Convert other programs' game logs to SJN."""
    from analyzer.io.importers import FORMATS, detect_format, format_name, import_text, is_binary
    from analyzer.io.inputs import diag_line, read_bytes, read_text
    from analyzer.io.outputs import check_output, open_output
    from notation import write
    if fmt != "auto" and format_name(fmt) is None:
        usage(f"unknown log format {fmt!r}; known: auto, {', '.join(FORMATS)}")
    check_output(output, force=force, inputs=files)
    records, errors = [], False
    for path in files:
        name = "<stdin>" if path == "-" else path
        chosen = format_name(fmt) if fmt != "auto" else None
        if chosen is not None and is_binary(chosen):            # game-sav: the file's bytes, not text
            got, diags = import_text(chosen, read_bytes(path), source=name)
        else:
            text = read_text(path)
            chosen = chosen or detect_format(text, path)
            if chosen is None:
                fail(f"{name}: the log format cannot be told from its content; name it (see --help)")
            got, diags = import_text(chosen, text, source=name)
        for d in diags:
            echo_err(diag_line(name, d))
            errors = errors or d.severity == "error"
        records.extend(got)
    if not records:
        fail("no record could be imported", 1)
    text = write(records, unicode=unicode)
    with open_output(output, inert=True) as out:
        out.write(text if text.endswith("\n") else text + "\n")
    wrote(output)
    raise typer.Exit(1 if errors else 0)


@command(epilog="""Examples:

  shengji export game-sav match.sjn --into GAME.SAV --dry-run   the bytes before and after

  shengji export game-sav match.sjn --into GAME.SAV             continue the match in the 1997 game

  shengji export --to parquet store/ games/                       tables for shengji stats

The format comes first (game-sav, parquet) or as --to FORMAT; the rest are its arguments.
game-sav: RECORD --into SAVE writes the levels and the next dealer after the record's last
hand into bytes 0-2 of the save, atomically, and nothing else; it refuses (exit 1) when the
save does not hold the record's start (unless --force), when the last hand is incomplete, or
when the levels cannot be written in the save.""")
def export(
    args: Annotated[list[str], typer.Argument(metavar="[FORMAT] ARG...", help="The format (unless --to), then its arguments: game-sav RECORD; parquet OUTDIR FILE...")],
    to: Annotated[str | None, typer.Option("--to", metavar="FORMAT", help="The format: game-sav or parquet.")] = None,
    into: Annotated[str | None, typer.Option("--into", metavar="SAVE", help="game-sav: the save file to write into (changed in place).")] = None,
    force: Annotated[bool, typer.Option("--force", help="game-sav: write even when the save does not hold the record's start.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would be written; write nothing.")] = False,
    record: Annotated[int | None, typer.Option("--record", "-r", min=1, metavar="N", help="game-sav: the record of the file to continue (1-based).")] = None,
    rules: Annotated[str | None, typer.Option("--rules", metavar="PRESET", help="A preset that overrides each record's [Rules] tag.")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, metavar="N", help="parquet: worker processes (default: all cores; a small input runs in one).")] = None,
    cluster: Annotated[str | None, typer.Option("--cluster", metavar="ADDRESS", help="parquet: " + CLUSTER_HELP)] = None,
    source_format: Annotated[str | None, typer.Option("--from", metavar="FORMAT", help="parquet: " + FROM_HELP)] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="parquet: " + NO_PROGRESS_HELP)] = False,
) -> None:
    """Write records out: the state after a match into the 1997 Tractor game's save, or a corpus as Parquet tables."""
    from analyzer import lint as L
    from analyzer.io.export import FORMATS
    from analyzer.io.inputs import check_preset
    fmt = to
    rest = list(args)
    if fmt is None:
        if not rest or rest[0] not in FORMATS:
            usage(f"name the format first or with --to: {', '.join(FORMATS)}")
        fmt, rest = rest[0], rest[1:]
    elif fmt not in FORMATS:
        usage(f"unknown export format {fmt!r}; known: {', '.join(FORMATS)}")
    check_preset(rules)
    if fmt == "game-sav":
        if into is None:
            usage("game-sav needs --into SAVE (the save file to write into)")
        if len(rest) != 1:
            usage("game-sav takes one record file: shengji export game-sav RECORD --into SAVE")
        if jobs is not None or cluster is not None or source_format is not None:
            usage("--jobs, --cluster and --from are parquet options")
        from analyzer.io.export.gamesav import run_command
        raise typer.Exit(run_command(rest[0], into, force=force, dry_run=dry_run, record_index=record,
                                     rules=rules))
    if into is not None or dry_run or record is not None or force:
        usage("--into, --dry-run, --force and --record are game-sav options")
    if len(rest) < 2:
        usage("parquet takes a store directory and the files: shengji export parquet OUTDIR FILE...")
    if jobs is not None and cluster is not None:
        usage("--jobs and --cluster cannot be used together")
    L.LintOptions(source_format=source_format).validate()
    from analyzer.store.export import run_command as run_parquet
    raise typer.Exit(run_parquet(rest[0], rest[1:], rules=rules, jobs=jobs, cluster=cluster,
                                 source_format=source_format, progress=not no_progress))
