"""The Parquet store: a corpus of records as five tables (``shengji export --to parquet``).

Layout of a store directory (``OUTDIR``)::

    OUTDIR/matches/batch=B/part-00000-00000.parquet
    OUTDIR/hands/batch=B/…      OUTDIR/tricks/batch=B/…
    OUTDIR/plays/batch=B/…      OUTDIR/diagnostics/batch=B/…
    OUTDIR/_batches/B.json      what batch B holds (files, sizes, row counts)

Each export run is one batch ``B`` (a hive partition: readers see a
``batch`` column). Running the export again with more files appends a new
batch; files already in the store (same path, size and modification time) are
skipped. A batch is staged under ``OUTDIR/.staging-B`` and moved into place
when it is complete, so an interrupted run leaves no partial batch behind.

Rows are extracted from the engine's replay results (``MatchResult``,
``HandResult``, ``TrickResult``, ``HandOutcome``) — nothing is recomputed
here. Work goes chunk by chunk (the chunks of ``shengji lint --jobs``,
:func:`analyzer.lint.iter_jobs`, cut smaller), each chunk becoming one part
file per table, so memory is bounded by a few chunks whatever the corpus size;
the chunks run in this process, in ``--jobs`` worker processes, or on a Dask
cluster (``--cluster``).

The schemas (:data:`SCHEMAS`) are documented in ``docs/store.md`` (a test
keeps the two in step). ``pyarrow`` is an optional dependency (``pip install
'shengji[stats]'``), imported only when a store is written or read.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NotRequired, TypedDict

if TYPE_CHECKING:
    import pyarrow as pa  # untyped: Any to mypy (pyproject's ignore_missing_imports)
    from distributed import Client

    from notation.model import Hand, Record
    from replay.diagnostics import Diagnostic
    from replay.game import HandResult
    from replay.order import Order

    from .cluster import Job
    from .lint import FileResult

#: chunks of at most this many bytes of SJN (about 500 hands): bounds the memory per chunk
CHUNK_BYTES = 1024 * 1024
#: files at least this large are cut into chunks
SPLIT_BYTES = 1024 * 1024

TABLES: tuple[str, ...] = ("matches", "hands", "tricks", "plays", "diagnostics")

#: table → ((column, arrow type, meaning), …). Types: string, bool, int8, int16, int32.
SCHEMAS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "matches": (
        ("match_id", "string", "`file:line` of the record's first line: the key every table joins on"),
        ("file", "string", "the input file as named on the command line"),
        ("line", "int32", "the record's first line in the file"),
        ("rules", "string", "the ruleset the record was replayed by (its `[Rules]` preset, or `--rules`)"),
        ("event", "string", "the `[Event]` tag"),
        ("date", "string", "the `[Date]` tag"),
        ("north", "string", "the `[North]` tag (player name)"),
        ("west", "string", "the `[West]` tag"),
        ("south", "string", "the `[South]` tag"),
        ("east", "string", "the `[East]` tag"),
        ("hands", "int32", "hands in the record (redeals included)"),
        ("hands_played", "int32", "hands that were played (not redealt)"),
        ("winner", "string", "the team that won the match (`NS`/`EW`), null while it goes on"),
        ("errors", "int32", "error-severity diagnostics of the record"),
    ),
    "hands": (
        ("match_id", "string", "the match"),
        ("hand", "int32", "1-based place of the hand in the record"),
        ("number", "int32", "the number written after `hand`, null when none"),
        ("rules", "string", "the ruleset (the match's, repeated for grouping)"),
        ("ns_level", "int8", "North–South's level before the hand (2–14, 15 = Joker)"),
        ("ew_level", "int8", "East–West's level before the hand"),
        ("level", "int8", "the hand's level rank"),
        ("dealer", "string", "the dealer's seat (N, W, S, E), null when unknown"),
        ("dealer_team", "string", "`NS` or `EW`"),
        ("declarer", "string", "the seat whose declaration set the trump, null when none"),
        ("trump", "string", "`S`, `H`, `D`, `C` or `NT`; null when unknown"),
        ("declarations", "string", "the declarations as written (`W S2 @10; S C22 @25`)"),
        ("n_declarations", "int16", "how many declarations were written"),
        ("redeal", "bool", "the hand was redealt (not played)"),
        ("complete", "bool", "every card was played"),
        ("kitty", "string", "the kitty as dealt (cards)"),
        ("bury", "string", "the cards buried (the final kitty)"),
        ("bury_points", "int16", "points in the buried cards"),
        ("card_points", "int16", "the attackers' points won in tricks"),
        ("penalties", "int16", "failed-throw penalties added to the attackers' total (signed)"),
        ("kitty_points", "int16", "kitty points × multiplier won by the attackers"),
        ("multiplier", "int16", "the kitty multiplier applied (0 when the dealers won the last trick)"),
        ("last_trick_multiplier", "int16", "the multiplier the last trick carried, whoever won it"),
        ("last_trick_attackers", "bool", "the attackers won the last trick (the kitty was not protected)"),
        ("attacker_points", "int32", "the attackers' total (tricks + penalties + kitty)"),
        ("next_ns_level", "int8", "North–South's level after the hand (null when not complete)"),
        ("next_ew_level", "int8", "East–West's level after the hand"),
        ("next_dealer", "string", "the next hand's dealer"),
        ("dealers_keep", "bool", "the dealers held the deal"),
        ("levels_gained", "int8", "levels the winning side rose"),
        ("level_change", "string", "who rose how far: `NS +2`, `EW +0`…"),
        ("match_over", "bool", "the match was decided by this hand"),
    ),
    "tricks": (
        ("match_id", "string", "the match"),
        ("hand", "int32", "the hand (its place in the record)"),
        ("trick", "int16", "1-based trick number"),
        ("leader", "string", "the seat that led"),
        ("leader_player", "string", "the leader's name from the tags (the seat when none)"),
        ("lead", "string", "the lead's cards (a failed throw: the unit it was forced to play)"),
        ("lead_structure", "string", "the lead's units: `pair`, `tractor of 2 pairs + single`…"),
        ("winner", "string", "the seat that won the trick"),
        ("points", "int16", "point cards in the trick"),
        ("to_attackers", "bool", "the attackers won the trick"),
        ("is_throw", "bool", "the lead was a throw (several units)"),
        ("failed_throw", "bool", "the throw failed"),
        ("penalty", "int16", "signed change to the attackers' total from a failed throw"),
        ("failed_throw_cost", "int16", "a failed throw's cost to the thrower's side: the penalty, plus the trick's points when the opponents won it"),
        ("ruffed", "bool", "a plain-suit lead won by trumps"),
        ("attacker_points", "int32", "the attackers' running total after the trick"),
    ),
    "plays": (
        ("match_id", "string", "the match"),
        ("hand", "int32", "the hand"),
        ("trick", "int16", "the trick"),
        ("position", "int8", "0 for the lead, then 1–3 in turn order"),
        ("seat", "string", "the seat that played"),
        ("player", "string", "its name from the tags (the seat when none)"),
        ("cards", "string", "the cards played (a failed throw: the forced unit)"),
        ("n_cards", "int16", "how many cards"),
        ("attempted", "string", "a failed throw's attempted cards, else null"),
        ("structure", "string", "the play's units by effective suit (`pair + single`)"),
        ("points", "int16", "point cards in the play"),
    ),
    "diagnostics": (
        ("match_id", "string", "the match, null for a finding outside any record"),
        ("file", "string", "the input file"),
        ("line", "int32", "1-based line (0: no position)"),
        ("column", "int32", "1-based column"),
        ("end_line", "int32", "end of the span"),
        ("end_column", "int32", "end of the span (exclusive)"),
        ("code", "string", "the diagnostic code (docs/diagnostics.md)"),
        ("severity", "string", "error, warning or info"),
        ("message", "string", "the message"),
        ("hand", "int32", "the hand it is about, when known"),
        ("trick", "int16", "the trick it is about, when known"),
    ),
}


class StoreError(RuntimeError):
    """The store cannot be written or read (the message says why)."""


#: one cell of a table (the arrow types of :data:`SCHEMAS`: string, bool, intN; None is null)
Cell = str | int | bool | None


def require_pyarrow() -> ModuleType:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise StoreError("the Parquet store needs pyarrow, an optional extra: pip install 'shengji[stats]'") from None
    return pyarrow


def arrow_schema(table: str) -> pa.Schema:
    pa = require_pyarrow()
    types = {"string": pa.string(), "bool": pa.bool_(), "int8": pa.int8(), "int16": pa.int16(),
             "int32": pa.int32()}
    return pa.schema([(name, types[t]) for name, t, _ in SCHEMAS[table]])


# -- rows from replay results -----------------------------------------------------------------

_TRUMP: dict[int | None, str] = {0: "S", 1: "H", 2: "D", 3: "C", 4: "NT"}
_SEAT_TAG = {"N": "North", "W": "West", "S": "South", "E": "East"}


class Rows:
    """Column lists of the five tables for one chunk."""

    def __init__(self) -> None:
        self.cols: dict[str, dict[str, list[Cell]]] = {t: {c: [] for c, _, _ in SCHEMAS[t]} for t in TABLES}
        self.counts: dict[str, int] = dict.fromkeys(TABLES, 0)

    def add(self, table: str, **values: Cell) -> None:
        cols = self.cols[table]
        for name, column in cols.items():
            column.append(values.get(name))
        self.counts[table] += 1

    def tables(self) -> dict[str, pa.Table]:
        pa = require_pyarrow()
        return {t: pa.Table.from_pydict(self.cols[t], schema=arrow_schema(t)) for t in TABLES}


def _cards(cards: Iterable[int] | None) -> str | None:
    from replay.cards import format_cards
    return format_cards(cards) if cards is not None else None


def _structure(cards: Sequence[int] | None, order: Order | None) -> str | None:
    """The units of a play, by effective suit, largest first (the engine's decomposition)."""
    if order is None or not cards:
        return None
    from replay.units import decompose, shape_name
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(order.eff[c], []).append(c)
    names = [shape_name(u.width, u.length) for suit_cards in by_suit.values()
             for u in decompose(suit_cards, order)]
    return " + ".join(names)


def add_record(rows: Rows, record: Record | None, parse_diags: Iterable[Diagnostic], path: str, *,
               rules: str | None = None, fallback_line: int = 1) -> None:
    """The rows of one record (and its reading diagnostics), from one replay."""
    from replay.cards import points
    from replay.game import replay
    from replay.scoring import team_of
    line = record.span.line if record is not None and record.span.line else fallback_line
    match_id = f"{path}:{line}"
    diags = list(parse_diags)
    if record is not None:
        match = replay(record, rules=rules)
        diags.extend(match.diagnostics)
        names = {s: record.tag(tag) or s for s, tag in _SEAT_TAG.items()}
        names.update({f"P{k}": record.tag(f"P{k}") or f"P{k}" for k in range(1, 9)})   # finding friends
        played = sum(1 for h in match.hands if not h.redeal)
        rows.add("matches", match_id=match_id, file=path, line=line, rules=match.ruleset.name,
                 event=record.tag("Event"), date=record.tag("Date"), north=record.tag("North"),
                 west=record.tag("West"), south=record.tag("South"), east=record.tag("East"),
                 hands=len(match.hands), hands_played=played, winner=match.winner,
                 errors=sum(1 for d in diags if d.severity == "error"))
        for i, (hr, hand) in enumerate(zip(match.hands, record.hands), 1):
            _add_hand(rows, match_id, i, hr, hand, match.ruleset.name, names, points, team_of)
    diag_match_id = match_id if record is not None else None
    for d in diags:
        rows.add("diagnostics", match_id=diag_match_id, file=path, line=d.line, column=d.column,
                 end_line=d.end_line, end_column=d.end_column, code=d.code, severity=d.severity,
                 message=d.message, hand=d.hand, trick=d.trick)


def _add_hand(rows: Rows, match_id: str, i: int, hr: HandResult, hand: Hand, rules: str, names: dict[str, str],
              points: Callable[[Iterable[int]], int], team_of: Callable[[str], str]) -> None:
    out = hr.outcome
    team = hr.team
    friends = team is not None      # finding friends: the dealer's team (seats) as it ended the hand
    if team is not None:
        dealer_team = " ".join(team) or None
    else:
        dealer_team = team_of(hr.dealer) if hr.dealer else None
    decls = hand.declarations
    change = None
    if out is not None and friends:
        change = f"{dealer_team if out.dealers_keep else hr.attackers} +{out.gained}"
    elif out is not None and dealer_team is not None:
        side = dealer_team if out.dealers_keep else ("EW" if dealer_team == "NS" else "NS")
        change = f"{side} +{out.gained}"
    last = hr.tricks[-1] if hr.tricks else None
    rows.add("hands", match_id=match_id, hand=i, number=hand.number, rules=rules,
             ns_level=hr.levels.get("NS") if hr.levels else None,
             ew_level=hr.levels.get("EW") if hr.levels else None, level=hr.level, dealer=hr.dealer,
             dealer_team=dealer_team, declarer=hr.declarer, trump=_TRUMP.get(hr.trump),
             declarations="; ".join(f"{d.seat} {_cards(d.cards)}" + (f" @{d.at}" if d.at else "")
                                    for d in decls) or None,
             n_declarations=len(decls), redeal=hr.redeal, complete=hr.complete, kitty=_cards(hr.kitty),
             bury=_cards(hr.bury), bury_points=points(hr.bury) if hr.bury is not None else None,
             card_points=hr.card_points, penalties=hr.penalties, kitty_points=hr.kitty_points,
             multiplier=hr.multiplier, last_trick_multiplier=hr.last_trick_multiplier or None,
             last_trick_attackers=(last.to_attackers if (last is not None and hr.complete) else None),
             attacker_points=hr.attacker_points if hr.complete else None,
             next_ns_level=out.levels.get("NS") if out else None,
             next_ew_level=out.levels.get("EW") if out else None,
             next_dealer=out.next_dealer if out else None, dealers_keep=out.dealers_keep if out else None,
             levels_gained=out.gained if out else None, level_change=change,
             match_over=out.match_over if out else None)
    attackers = hr.attackers
    for t in hr.tricks:
        plays = t.plays
        lead = plays[0] if plays else None
        thrower_team = team_of(t.leader) if t.leader in _SEAT_TAG and not friends else None
        cost = None
        if t.failed_throw and thrower_team is not None:
            # the engine's penalty is signed for the attackers: its size is what the thrower's side lost
            won_by_opponents = t.winner in _SEAT_TAG and team_of(t.winner) != thrower_team
            cost = abs(t.penalty) + (t.points if won_by_opponents else 0)
        rows.add("tricks", match_id=match_id, hand=i, trick=t.number, leader=t.leader,
                 leader_player=names.get(t.leader, t.leader), lead=_cards(lead.cards) if lead else None,
                 lead_structure=_structure(lead.cards, hr.order) if lead else None, winner=t.winner,
                 points=t.points, to_attackers=t.to_attackers if attackers else None, is_throw=t.is_throw,
                 failed_throw=t.failed_throw, penalty=t.penalty, failed_throw_cost=cost, ruffed=t.ruffed,
                 attacker_points=t.attacker_points)
        for k, p in enumerate(plays):
            rows.add("plays", match_id=match_id, hand=i, trick=t.number, position=k, seat=p.seat,
                     player=names.get(p.seat, p.seat), cards=_cards(p.cards), n_cards=len(p.cards),
                     attempted=_cards(p.attempted) if p.attempted else None,
                     structure=_structure(p.cards, hr.order), points=points(p.cards))


# -- one chunk ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ExportOptions:
    """What the chunks need (picklable: sent to worker processes and cluster workers)."""

    rules: str | None = None
    source_format: str | None = None


class ChunkExport(TypedDict):
    """What :func:`export_chunk` sends back."""

    tables: dict[str, pa.Table]
    records: int
    error: str | None
    #: why the file is not exported though it could be read (a Gouji record), else None
    refused: NotRequired[str | None]


def export_chunk(job: Job, options: ExportOptions) -> ChunkExport:
    """One chunk (an :class:`analyzer.lint._Job`) → ``{"tables": {table: pyarrow.Table}, "records": n,
    "error": str | None}``. Runs in a worker; reads the file itself."""
    from notation.detect import GOUJI_KINDS, read

    from . import lint as L
    from .lint.sources import decode_utf8, describe_decode_error
    rows = Rows()
    records = 0
    error = None
    try:
        fmt, kind = None, "sjn"       # a byte range of a big file: SJN (``iter_jobs`` splits nothing else)
        if job.start == 0 and job.end is None:
            # what the file is: the one rule of every command (``shengji lint`` reads it the same)
            kind, fmt = L.input_kind(job.path, L.LintOptions(source_format=options.source_format))
        if kind == "unknown":
            from .lint.sources import unknown_format_message
            error = unknown_format_message()
        elif kind in GOUJI_KINDS:
            return {"tables": rows.tables(), "records": 0, "error": None,
                    "refused": "a Gouji record: the store holds Shengji records only"}
        elif fmt is not None:
            from .importers import import_log, is_binary
            raw = Path(job.path).read_bytes()
            # import_log reads a binary format's bytes as they are, though its annotation says str
            imported = import_log(fmt, raw if is_binary(fmt) else decode_utf8(raw),  # type: ignore[arg-type]
                                  source=job.display)
            first = True
            for record in imported.records:
                add_record(rows, record, imported.diagnostics if first else [], job.display,
                           rules=options.rules)
                first = False
                records += 1
        else:
            # the lint reader's line wrapper: it stops at bytes that are not UTF-8 and says why
            lines = L._NoqaLines(L._open_lines(job.path, job.start, job.end, start_line=job.start_line),
                                 job.start_line)
            for record, parse_diags in read(lines, kind, start_line=job.start_line):
                if record is not None and not record.tags and not record.hands:
                    record = None
                add_record(rows, record, parse_diags, job.display, rules=options.rules,
                           fallback_line=job.start_line)
                records += record is not None
            if lines.error is not None:
                error = lines.error
    except UnicodeDecodeError as exc:
        error = describe_decode_error(exc)
    except OSError as exc:
        error = exc.strerror or str(exc)
    if error is not None:        # an unreadable file gives its error only (as lint does)
        rows, records = Rows(), 0
    return {"tables": rows.tables(), "records": records, "error": error}


# -- a whole export ----------------------------------------------------------------------------

@dataclass
class ExportReport:
    batch: str
    outdir: str
    files: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    records: int = 0
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))

    @property
    def exit_code(self) -> int:
        return 2 if self.errors or self.missing else 0

    def summary(self) -> str:
        if not self.batch:
            return f"nothing new to export into {self.outdir}"
        counts = ", ".join(f"{self.rows[t]} {t if self.rows[t] != 1 else _SINGULAR.get(t, t)}" for t in TABLES)
        return (f"batch {self.batch}: {self.records} record{'s' if self.records != 1 else ''} from "
                f"{len(self.files)} file{'s' if len(self.files) != 1 else ''} ({counts}) in {self.outdir}")


#: a table's name for one row, in the export's summary line ("1 match, 3 hands")
_SINGULAR = {"matches": "match", "hands": "hand", "tricks": "trick", "plays": "play", "diagnostics": "diagnostic"}


class FileKey(TypedDict):
    """A file as a batch's manifest records it (with ``records`` added there)."""

    path: str
    size: int
    mtime_ns: int


def _file_key(path: str) -> FileKey:
    st = os.stat(path)
    return {"path": os.path.abspath(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def stored_files(outdir: str | os.PathLike[str]) -> dict[tuple[str, int, int], str]:
    """``(abs path, size, mtime_ns)`` → batch, for every file already in the store."""
    out: dict[tuple[str, int, int], str] = {}
    for manifest in sorted(Path(outdir, "_batches").glob("*.json")):
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for f in data.get("files", []):
            out[(f.get("path"), f.get("size"), f.get("mtime_ns"))] = data.get("batch", manifest.stem)
    return out


def export_paths(paths: Iterable[str], outdir: str, *, options: ExportOptions = ExportOptions(),
                 jobs: int = 1, client: Client | None = None, on_chunk: Callable[[Job], None] | None = None,
                 chunk_bytes: int = CHUNK_BYTES, split_bytes: int = SPLIT_BYTES) -> ExportReport:
    """Export files (directories give their ``*.sjn``) into the store ``outdir`` as one new batch.

    ``client``: a ``distributed.Client`` to run the chunks on; else ``jobs``
    worker processes (1: in this process). Raises :class:`StoreError`.
    """
    from . import lint as L
    require_pyarrow()
    import pyarrow.parquet as pq
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise StoreError(f"{outdir} exists and is not a directory")
    files, missing = L.expand_paths(paths)
    if any(p == L.STDIN for p, _ in files):
        raise StoreError("export reads files, not standard input (the chunks are read by the workers)")
    batch = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + "-" + uuid.uuid4().hex[:6]
    report = ExportReport(batch=batch, outdir=str(out), missing=missing)
    known = stored_files(out) if out.exists() else {}
    todo: list[tuple[str, str]] = []
    keys: list[FileKey] = []
    from .lint.sources import is_stream
    for p, display in files:
        if is_stream(p):
            report.errors.append(f"{display}: not a regular file (a pipe, a FIFO or a device): export reads "
                                 f"files, which its workers open themselves; write it to a file first")
            continue
        try:
            key = _file_key(p)
        except OSError as exc:
            report.errors.append(f"{display}: {exc.strerror or exc}")
            continue
        if (key["path"], key["size"], key["mtime_ns"]) in known:
            report.skipped.append(f"{display} (already in batch {known[(key['path'], key['size'], key['mtime_ns'])]})")
            continue
        todo.append((p, display))
        keys.append(key)
    if not todo:
        report.batch = ""
        return report
    staging = out / f".staging-{batch}"
    try:
        for t in TABLES:
            (staging / t / f"batch={batch}").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot write into {outdir}: {exc.strerror or exc}") from None
    sizes = {}
    for i, (p, _) in enumerate(todo):
        try:
            sizes[i] = os.path.getsize(p)
        except OSError:
            sizes[i] = 0
    results: dict[int, dict[int, FileResult]] = {i: {} for i in range(len(todo))}   # files failed while split
    lint_options = L.LintOptions(rules=options.rules, source_format=options.source_format)
    per_file_records = [0] * len(todo)

    refused: set[int] = set()

    def on_result(job: Job, result: ChunkExport) -> None:
        if result.get("refused"):
            report.skipped.append(f"{job.display} ({result.get('refused')})")
            refused.add(job.index)
        if result["error"]:
            report.errors.append(f"{job.display}: {result['error']}")
        per_file_records[job.index] += result["records"]
        for t, table in result["tables"].items():
            if table.num_rows:
                final = staging / t / f"batch={batch}" / f"part-{job.index:05d}-{job.part:05d}.parquet"
                tmp = final.with_name("." + final.name + ".tmp")
                pq.write_table(table, tmp)
                os.replace(tmp, final)
                report.rows[t] += table.num_rows
        if on_chunk is not None:
            on_chunk(job)

    try:
        if client is not None:
            from .cluster import threads
            jobs = threads(client)
        job_iter = L.iter_jobs(todo, sizes, lint_options, max(1, jobs), results, None, chunk_bytes, split_bytes)
        if client is not None:
            from .cluster import run_jobs
            run_jobs(client, job_iter, export_chunk, (options,), on_result, in_flight=2 * jobs,
                     key_prefix="shengji-export")
        elif jobs > 1:
            _run_processes(job_iter, options, jobs, on_result)
        else:
            for job in job_iter:
                on_result(job, export_chunk(job, options))
        for parts in results.values():            # files that failed while being split
            for r in parts.values():
                if r.error:
                    report.errors.append(f"{r.path}: {r.error}")
        # the batch is complete: move it into place, then write its manifest
        for t in TABLES:
            (out / t).mkdir(parents=True, exist_ok=True)
            os.replace(staging / t / f"batch={batch}", out / t / f"batch={batch}")
        report.files = [d for i, (_, d) in enumerate(todo) if i not in refused]
        report.records = sum(per_file_records)
        manifest = {"batch": batch, "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "rules": options.rules, "files": [dict(k, records=n) for i, (k, n) in enumerate(zip(keys, per_file_records))
                              if i not in refused],
                    "rows": report.rows}
        (out / "_batches").mkdir(parents=True, exist_ok=True)
        from .atomic import write_text_atomic
        write_text_atomic(out / "_batches" / f"{batch}.json", json.dumps(manifest, indent=2) + "\n")
    except OSError as exc:
        raise StoreError(f"cannot write into {outdir}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return report


def _run_processes(job_iter: Iterator[Job], options: ExportOptions, jobs: int,
                   on_result: Callable[[Job, ChunkExport], None]) -> None:
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
    pending: dict[Future[ChunkExport], Job] = {}

    def collect(block: bool) -> None:
        done, _ = wait(list(pending), timeout=None if block else 0, return_when=FIRST_COMPLETED)
        for fut in done:
            on_result(pending.pop(fut), fut.result())

    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        for job in job_iter:
            while len(pending) >= 2 * jobs:
                collect(True)
            pending[pool.submit(export_chunk, job, options)] = job
        while pending:
            collect(True)
