"""``shengji stats``: statistics over a Parquet store (DuckDB; the ``stats`` extra)."""

from pathlib import Path
from typing import Annotated

import typer

from ..stats_formats import StatsFormat, canonical
from ._core import command, fail, refuse_page_on_terminal, usage, wrote


@command(epilog="""Examples:

  shengji stats store/                              every analysis, as tables

  shengji stats store/ failed-throws --format csv

  shengji stats store/ --format html -o stats.html  tables and the attackers' points chart

  shengji stats store/ --sql "SELECT rules, count(*) FROM hands GROUP BY rules"

Analyses: failed-throws, kitty-protection, dealer-hold, attacker-points, diagnostics.
The tables (matches, hands, tricks, plays, diagnostics) are in docs/store.md.
Needs pip install 'shengji[stats]' (DuckDB, embedded; no server).""")
def stats(
    store: Annotated[str, typer.Argument(metavar="STORE", help="A store written by shengji export --to parquet.")],
    names: Annotated[list[str] | None, typer.Argument(metavar="[ANALYSIS]...", help="Analyses to run (default: all).")] = None,
    fmt: Annotated[StatsFormat, typer.Option("--format", "-f", help="Output format (table: the same as text).")] = StatsFormat('text'),
    sql: Annotated[str | None, typer.Option("--sql", metavar="QUERY", help="Run this query against the store's tables instead.")] = None,
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write here instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --output file.")] = False,
) -> None:
    """Statistics over a Parquet store of many games (DuckDB): failed throws, kitty protection, dealer holds, points."""
    from .. import stats as St
    from ..stats_formats import WRITERS
    from ..store import StoreError
    names = names or []
    if canonical(fmt.value) == "html":
        refuse_page_on_terminal(output, "--format html")
    unknown = [n for n in names if n not in St.ANALYSES]
    if unknown:
        usage(f"unknown analysis {unknown[0]!r}; known: {', '.join(St.ANALYSES)}")
    if sql is not None and names:
        usage("--sql runs instead of the named analyses: give one or the other")
    if output not in (None, "-") and Path(output).exists() and not force:
        fail(f"{output} exists; use --force to overwrite it")
    try:
        results = St.run(store, names, sql)
    except StoreError as exc:
        fail(str(exc))
    WRITERS[canonical(fmt.value)](results, store, output, force)
    wrote(output)
