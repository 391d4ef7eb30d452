"""One chunk of an export (a file, or record chunks of a big one): read as every
command reads it, its game asked whether the store holds its tables, its rows made
(:mod:`analyzer.store.parquet`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

if TYPE_CHECKING:
    from analyzer.store.cluster import Job

from analyzer.store.rows import (
    Columns,
    Rows,
    add_record,
)

# -- one chunk ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ExportOptions:
    """What the chunks need (picklable: sent to worker processes and cluster workers)."""

    rules: str | None = None
    source_format: str | None = None


class ChunkExport(TypedDict):
    """What :func:`export_chunk` sends back: plain data, pickled from a worker (no pyarrow
    there; the exporting process makes the Arrow tables: :func:`analyzer.store.rows.arrow_tables`)."""

    #: table → column → values (:meth:`analyzer.store.rows.Rows.columns`)
    columns: Columns
    records: int
    error: str | None
    #: why the file is not exported though it could be read (a record of a game that has
    #: no store tables: its :attr:`analyzer.games.Game.store_note`), else None
    refused: NotRequired[str | None]


class _Recorder:
    """Wraps a line iterator and keeps the lines it gave (one chunk's: the records' texts)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = lines
        self.lines: list[str] = []

    def __iter__(self) -> Iterator[str]:
        keep = self.lines.append
        for line in self._lines:
            keep(line)
            yield line


def _export_sjn(rows: Rows, job: Job, options: ExportOptions) -> tuple[int, str | None]:
    """The records of an SJN chunk: its text read whole (as lint reads it) when it
    reads cleanly and is not too big, else streamed line by line."""
    from analyzer import lint as L
    from analyzer.lint.check import small_text
    from notation._records import split_lines
    from notation.detect import read
    records = 0
    first = job.start_line
    text = small_text(job.path, job.start, job.end)
    if text is not None:
        lines = split_lines(text)
        for record, parse_diags in read(text, "sjn", start_line=first):
            if record is not None and not record.tags and not record.hands:
                record = None
            own = lines[record.span.line - first:record.span.end_line - first + 1] \
                if record is not None and record.span.line else None
            add_record(rows, record, parse_diags, job.display, rules=options.rules, fallback_line=first,
                       lines=own)
            records += record is not None
        return records, None
    # the lint reader's line wrapper: it stops at bytes that are not UTF-8 and says why
    seen = _Recorder(L._open_lines(job.path, job.start, job.end))
    stream = L._NoqaLines(seen, first)
    for record, parse_diags in read(stream, "sjn", start_line=job.start_line):
        if record is not None and not record.tags and not record.hands:
            record = None
        own = None
        if record is not None and record.span.line:
            own = split_lines("".join(seen.lines[record.span.line - first:record.span.end_line - first + 1]))
        add_record(rows, record, parse_diags, job.display, rules=options.rules, fallback_line=job.start_line,
                   lines=own)
        records += record is not None
        if len(seen.lines) > 4096:          # keep only the lines of the records still being read
            keep = max(0, (record.span.end_line if record is not None else first) - first)
            del seen.lines[:keep]
            first += keep
    return records, stream.error


def _export_game(rows: Any, game: Any, kind: str, job: Job, options: ExportOptions) -> int:
    """The records of a chunk of another game's notation (Gouji), read by its plug-in
    and turned into its own rows (:meth:`analyzer.games.Game.store_rows`)."""
    from analyzer.io.sources import decode_utf8
    from notation._records import split_lines
    with open(job.path, "rb") as f:
        f.seek(job.start)
        raw = f.read() if job.end is None else f.read(max(0, job.end - job.start))
    text = decode_utf8(raw) if not job.start else raw.decode("utf-8")
    lines = split_lines(text) if kind not in ("json", "gjn-json") else None
    first = job.start_line
    records = 0
    for record, parse_diags in game.read(text, kind, start_line=first):
        if record is not None and not game.holds(record):
            record = None
        own = lines[record.span.line - first:record.span.end_line - first + 1] \
            if lines is not None and record is not None and record.span.line else None
        rows.add(record, parse_diags, job.display, rules=options.rules, fallback_line=first, lines=own)
        records += record is not None
    return records


def export_chunk(job: Job, options: ExportOptions) -> ChunkExport:
    """One chunk (an :class:`analyzer.lint._Job`) → ``{"columns": {table: {column: values}}, "records": n,
    "error": str | None}``. Runs in a worker; reads the file itself; imports no pyarrow.

    The cyclic garbage collector is paused for the chunk, as lint pauses it for its
    records (:func:`analyzer.lint.gcpace.records_paced_gc`): the records and replay
    results hold no cycles, and the chunk's growing columns would otherwise be
    rescanned again and again (a tenth of the export's time)."""
    from analyzer.lint.gcpace import records_paced_gc
    with records_paced_gc():
        return _export_chunk(job, options)


def _export_chunk(job: Job, options: ExportOptions) -> ChunkExport:
    from analyzer.io.gamekit import UNKNOWN, by_kind, claimant
    from analyzer.io.sources import Reading, decode_utf8, describe_decode_error, input_kind
    rows: Any = Rows()
    records = 0
    error = None
    try:
        # what the file is: the one rule of every command (``shengji lint`` reads it the same;
        # a byte range of a big file: record chunks of a notation its game splits)
        kind, fmt = input_kind(job.path, Reading(options.source_format))
        game = by_kind(kind) if kind != UNKNOWN else None
        if game is not None and fmt is None:
            game = claimant(job.path, kind) or game     # (a Gouji record in a misnamed .sjn, in JSON)
        if game is None:
            from analyzer.io.sources import unknown_format_message
            error = unknown_format_message()
        elif not game.store_tables:     # a game the store holds no table of: its plug-in says why
            return {"columns": rows.columns(), "records": 0, "error": None, "refused": game.store_note}
        elif (own := game.store_rows()) is not None:     # a game with its own tables (Gouji)
            rows = own
            if kind not in game.kinds:      # claimed by its tags: read as the game's own text or JSON
                kind = next((k for k in game.kinds if k.endswith("json")) if kind == "json" else iter(()),
                            game.kinds[0])
            records = _export_game(rows, game, kind, job, options)
        elif fmt is not None:
            from analyzer.io.importers import import_log, is_binary
            raw = Path(job.path).read_bytes()
            # import_log reads a binary format's bytes as they are, though its annotation says str
            given: Any = raw if is_binary(fmt) else decode_utf8(raw)
            imported = import_log(fmt, given, source=job.display)
            first = True
            for record in imported.records:
                add_record(rows, record, imported.diagnostics if first else [], job.display,
                           rules=options.rules)
                first = False
                records += 1
        elif kind == "json":
            from notation.detect import read
            text = decode_utf8(Path(job.path).read_bytes())
            for record, diags in read(text, "json"):
                add_record(rows, record, diags, job.display, rules=options.rules)
                records += record is not None
        else:
            records, error = _export_sjn(rows, job, options)
    except UnicodeDecodeError as exc:
        error = describe_decode_error(exc)
    except OSError as exc:
        error = exc.strerror or str(exc)
    if error is not None:        # an unreadable file gives its error only (as lint does)
        rows, records = Rows(), 0
    return {"columns": rows.columns(), "records": records, "error": error}
