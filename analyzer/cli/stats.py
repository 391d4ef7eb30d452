"""``shengji stats``: statistics over a Parquet store (DuckDB; the ``stats`` extra)."""

import os
from typing import Annotated

import typer

from analyzer.cli._core import command, refuse_page_on_terminal
from analyzer.io.echo import echo_err, fail, usage, wrote
from analyzer.store.stats_formats import StatsFormat, canonical


@command(epilog="""Examples:

  shengji stats store/                              every analysis, as tables

  shengji stats store/ failed-throws --format csv

  shengji stats store/ -f csv -o results/           every analysis, one CSV file each

  shengji stats store/ --format html -o stats.html  tables and the attackers' points chart

  shengji stats store/ --sql "SELECT rules, count(*) FROM hands GROUP BY rules"

Analyses: failed-throws, kitty-protection, dealer-hold, attacker-points, diagnostics
(run when none is named); Gouji's, by name: gouji-places, gouji-burns.
The tables (matches, hands, tricks, plays, diagnostics; gouji_matches, gouji_games,
gouji_plays) are in docs/store.md.
csv, json and parquet are written by DuckDB, one file per analysis (several analyses:
-o DIRECTORY). --sql runs one SELECT on a read-only connection that can open the
store's files and nothing else (no other file, no COPY/ATTACH/INSTALL, no network);
--sql-allow-external-access gives DuckDB's full access (any statement, any file,
extensions, the network): only for queries you trust.
Needs pip install 'shengji[stats]' (DuckDB, embedded; no server).""")
def stats(
    store: Annotated[str, typer.Argument(metavar="STORE", help="A store written by shengji export --to parquet.")],
    names: Annotated[list[str] | None, typer.Argument(metavar="[ANALYSIS]...", help="Analyses to run (default: all).")] = None,
    fmt: Annotated[StatsFormat, typer.Option("--format", "-f", help="Output format (table: the same as text).")] = StatsFormat('text'),
    sql: Annotated[str | None, typer.Option("--sql", metavar="QUERY", help="Run this SELECT query against the store's tables instead (read-only, the store's files only).")] = None,
    allow_external_access: Annotated[bool, typer.Option("--sql-allow-external-access", help="Let --sql do anything DuckDB can: any statement, any file, extensions, the network.")] = False,
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write here instead of stdout (a directory for several analyses in csv, json, parquet).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output file.")] = False,
) -> None:
    """Statistics over a Parquet store of many games (DuckDB): failed throws, kitty protection, dealer holds, points."""
    from analyzer.store import stats as St
    from analyzer.store.schema import StoreError
    from analyzer.store.stats_formats import ONE_FILE_EACH, WRITERS
    names = names or []
    form = canonical(fmt.value)
    if form == "html":
        refuse_page_on_terminal(output, "--format html")
    unknown = [n for n in names if n not in St.ANALYSES]
    if unknown:
        usage(f"unknown analysis {unknown[0]!r}; known: {', '.join(St.ANALYSES)}")
    if sql is not None and names:
        usage("--sql runs instead of the named analyses: give one or the other")
    if allow_external_access and sql is None:
        usage("--sql-allow-external-access goes with --sql")
    queries = St.queries(names, sql)
    several = len(queries) > 1 and form in ONE_FILE_EACH
    if output not in (None, "-"):
        _refuse_inside(output, store)
    if several:
        if output in (None, "-"):
            usage(f"{form} is one file per analysis: name one analysis, or give -o DIRECTORY "
                  f"for all ({len(queries)} files)")
        assert output is not None
        if os.path.exists(output) and not os.path.isdir(output):
            usage(f"{output} is not a directory: several analyses in {form} are one file each")
        os.makedirs(output, exist_ok=True)
        targets = [os.path.join(output, f"{q.name}.{ONE_FILE_EACH[form]}") for q in queries]
    else:
        targets = [] if output in (None, "-") else [output]
    if not force:
        for t in targets:
            if os.path.exists(t) and not os.path.isdir(t):
                fail(f"{t} exists; use --force to overwrite it")
    try:
        with St.open_store(store, allow_external_access=allow_external_access) as session:
            WRITERS[form](session, St.checked(session, queries), output, force)
            note = St.other_games_note(session) if not names and sql is None else None
    except StoreError as exc:
        fail(str(exc))
    for t in targets:
        wrote(t)
    if note is not None:
        echo_err(f"shengji stats: {note}")


def _refuse_inside(output: str, store: str) -> None:
    """No output inside the store the command reads, whatever --force says."""
    out = os.path.realpath(output)
    root = os.path.realpath(store)
    if out == root or out.startswith(root.rstrip(os.sep) + os.sep):
        fail(f"{output} is inside the store {store} that stats reads; refusing to write there (even with --force)")
