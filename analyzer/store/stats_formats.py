"""The output formats of ``shengji stats``: each one a function registered once
with :func:`register`, writing the results of the analyses (or of ``--sql``)
to the command's output. The order here is the order ``--help`` lists them in;
the first is the default. Imported when the command line starts: keep the
top-level imports light (the queries run in :mod:`analyzer.store.stats`).

CSV, JSON and Parquet are written by DuckDB's own writers (``COPY … TO``), one
file per analysis: a single analysis (or ``--sql``) goes to stdout or ``-o
FILE``; several need ``-o DIRECTORY`` (``NAME.csv``… in it). The table is
DuckDB's box renderer; HTML is one page made here from the (small) results.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from analyzer.store.stats import Query, Session

#: ``write(session, queries, output, force)``: the results of ``queries`` over the open
#: store ``session`` written to ``output`` (a file or, for the one-file-per-analysis
#: formats, a directory; written atomically; None or ``-``: stdout)
Writer = Callable[["Session", "list[Query]", "str | None", bool], None]

#: name → writer, in registration order
WRITERS: dict[str, Writer] = {}
#: the formats that write one file per analysis (DuckDB's writers), with their file suffix
ONE_FILE_EACH: dict[str, str] = {}


def register(name: str, *, suffix: str | None = None) -> Callable[[Writer], Writer]:
    """Decorator: register ``write(session, queries, output, force)`` as stats format
    ``name``; ``suffix``: the format writes one file per analysis (``NAME.suffix``)."""
    def add(write: Writer) -> Writer:
        if name in WRITERS:
            raise ValueError(f"stats format {name!r} is registered twice")
        WRITERS[name] = write
        if suffix is not None:
            ONE_FILE_EACH[name] = suffix
        return write
    return add


def _to_stdout(output: str | None) -> bool:
    return output in (None, "-")


def _targets(queries: list[Query], output: str | None, suffix: str) -> list[str | None]:
    """Where each query's file goes: stdout or ``output`` for one, ``output/NAME.suffix`` for several."""
    import os
    if len(queries) == 1 and not (output is not None and os.path.isdir(output)):
        return [output]
    assert output is not None
    return [os.path.join(output, f"{q.name}.{suffix}") for q in queries]


def _deliver(path: Path, output: str | None, force: bool, *, binary: bool = False) -> None:
    """A file DuckDB wrote, copied to stdout or atomically to ``output``."""
    import sys

    from analyzer.io.errors import UserError
    from analyzer.io.outputs import check_output
    from analyzer.store.stats import copy_to
    if _to_stdout(output):
        if binary and sys.stdout.isatty():
            raise UserError("Parquet is binary: write it to a file with -o FILE")
        sys.stdout.flush()
        copy_to(path, sys.stdout.buffer)
        sys.stdout.buffer.flush()
        return
    assert output is not None
    check_output(output, force=force)
    from analyzer.io.atomic import atomic_writer
    try:
        with atomic_writer(output, encoding=None) as f:
            copy_to(path, f)
    except OSError as exc:
        raise UserError(f"cannot write {output}: {exc.strerror or exc}") from None


@register("text")
def _text(session: Session, queries: list[Query], output: str | None, force: bool) -> None:
    """DuckDB's table rendering, a title above each (at most 200 rows shown: -f csv gives all)."""
    import shutil
    width = shutil.get_terminal_size((120, 24)).columns
    parts = []
    for q in queries:
        parts.append(f"{q.title}\n{session.box(q, max_width=max(width, 40), max_rows=200)}")
    text = "\n".join(parts)
    if _to_stdout(output):
        import sys
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    from analyzer.io.outputs import write_output
    write_output(output, text, force=force)


@register("csv", suffix="csv")
def _csv(session: Session, queries: list[Query], output: str | None, force: bool) -> None:
    """CSV with a header line (DuckDB's writer), one file per analysis; text cells that
    a spreadsheet would read as a formula are prefixed with ``'``."""
    for q, target in zip(queries, _targets(queries, output, "csv")):
        _deliver(session.copy(q, "FORMAT csv, HEADER true", csv_safe=True), target, force)


@register("json", suffix="json")
def _json(session: Session, queries: list[Query], output: str | None, force: bool) -> None:
    """A JSON array of row objects (DuckDB's writer), one file per analysis."""
    for q, target in zip(queries, _targets(queries, output, "json")):
        _deliver(session.copy(q, "FORMAT json, ARRAY true"), target, force)


@register("parquet", suffix="parquet")
def _parquet(session: Session, queries: list[Query], output: str | None, force: bool) -> None:
    """Parquet (DuckDB's writer), one file per analysis."""
    for q, target in zip(queries, _targets(queries, output, "parquet")):
        _deliver(session.copy(q, "FORMAT parquet"), target, force, binary=True)


@register("html")
def _html(session: Session, queries: list[Query], output: str | None, force: bool) -> None:
    """One self-contained page: the tables and the attackers' points chart."""
    from analyzer.io.outputs import write_output
    from analyzer.store.stats import to_html
    write_output(output, to_html([session.result(q) for q in queries], session.store), force=force)


#: older names still accepted (``table``: the readable format is ``text`` in every command)
ALIASES = {"table": "text"}

#: the ``--format`` choices of ``shengji stats`` (one member per registered writer, then
#: the aliases, which ``--help`` leaves out)
StatsFormat = Enum("StatsFormat", {name: name for name in [*WRITERS, *ALIASES]}, type=str)  # type: ignore[misc]  # built from the registry
StatsFormat.aliases = ALIASES  # type: ignore[attr-defined]


def canonical(name: str) -> str:
    """The format ``name`` stands for (``table`` → ``text``)."""
    return ALIASES.get(name, name)
