"""The Parquet store: a corpus of records as tables (``shengji export --to parquet``): five
for Shengji, and the tables of each other game's plug-in (Gouji: ``gouji_matches``,
``gouji_games``, ``gouji_plays``; :func:`tables`).

Layout of a store directory (``OUTDIR``)::

    OUTDIR/matches/batch=B/part-00000.parquet
    OUTDIR/hands/batch=B/…      OUTDIR/tricks/batch=B/…
    OUTDIR/plays/batch=B/…      OUTDIR/diagnostics/batch=B/…
    OUTDIR/_batches/B.json      the batch's manifest: its parts, files, row counts

Each export run is one batch ``B`` (a hive partition: readers see a
``batch`` column). Running the export again with more files appends a new
batch; files already in the store (same path, size and modification time) are
skipped.

**Crash safety.** A batch's parts are written (and fsynced) under
``OUTDIR/.staging-B``, moved into the table directories, and the batch is
*committed* by writing its manifest ``_batches/B.json`` last (atomically,
fsynced). Readers (:mod:`analyzer.store.stats`) see committed batches only (the
parts their manifests list). An export holds ``OUTDIR/.lock`` while it runs
and first rolls back what an interrupted one left (a ``.staging-*``
directory, ``batch=B`` directories without a manifest): re-running an
interrupted export neither loses nor duplicates rows.

**Compaction.** Each table of a batch is written as few files as its size
allows: row groups of about :data:`ROW_GROUP_ROWS` rows, a new part file once
one holds :data:`PART_BYTES` bytes — not one file per chunk.

Rows are extracted from the engine's replay results (``MatchResult``,
``HandResult``, ``TrickResult``) — nothing is recomputed here — into column
lists, and turned into Arrow arrays per chunk (card lists as flat card numbers
taken from one array of card names). Work goes chunk by chunk (the chunks of
``shengji lint --jobs``), in this process, in ``--jobs`` worker processes, or
on a Dask cluster (``--cluster``).

The schemas (:data:`SCHEMAS`) are documented in ``docs/store.md`` (a test
keeps the two in step). ``pyarrow`` is an optional dependency (``pip install
'shengji[stats]'``), imported only when a store is written; reading it
(``shengji stats``) needs DuckDB alone.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from distributed import Client

    from analyzer.lint import FileResult
    from analyzer.store.cluster import Job

from analyzer.store import workers as W
from analyzer.store.chunk import ChunkExport, ExportOptions, export_chunk
from analyzer.store.rows import arrow_tables
from analyzer.store.schema import (
    CHUNK_BYTES,
    PART_BYTES,
    ROW_GROUP_ROWS,
    SPLIT_BYTES,
    STORE_FORMAT,
    TABLES,
    StoreError,
    arrow_schema,
    check_pyarrow,
    require_pyarrow,
    tables,
)

#: the most a table's pending row group holds (Arrow bytes) before it is written
PENDING_BYTES = 1024 * 1024

# -- writing a batch ---------------------------------------------------------------------------

def _fsync_dir(path: str | os.PathLike[str]) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class _TableWriter:
    """One table of a batch: chunks' rows buffered into row groups of about
    :data:`ROW_GROUP_ROWS`, written to ``part-NNNNN.parquet`` files of at most
    about :data:`PART_BYTES` each, each fsynced when closed."""

    def __init__(self, directory: Path, table: str, *, row_group_rows: int, part_bytes: int) -> None:
        self.dir = directory
        self.table = table
        self.row_group_rows = row_group_rows
        self.part_bytes = part_bytes
        self.pending: list[Any] = []
        self.pending_rows = 0
        self.pending_bytes = 0
        self.parts: list[dict[str, Any]] = []       # {"file", "rows", "bytes"} of each closed part
        self._file: IO[bytes] | None = None
        self._writer: Any = None
        self._rows = 0

    def add(self, table: Any) -> None:
        if not table.num_rows:
            return
        self.pending.append(table)
        self.pending_rows += table.num_rows
        self.pending_bytes += table.nbytes
        # a row group is written once it has its rows, or once it holds PENDING_BYTES: the
        # one-row-a-hand tables (matches, hands) would otherwise wait 131,072 hands (issue 35)
        if self.pending_rows >= self.row_group_rows or self.pending_bytes >= PENDING_BYTES:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq
        if not self.pending:
            return
        data = pa.concat_tables(self.pending)
        self.pending, self.pending_rows, self.pending_bytes = [], 0, 0
        if self._writer is None:
            name = f"part-{len(self.parts):05d}.parquet"
            self._file = open(self.dir / name, "wb")
            self._writer = pq.ParquetWriter(self._file, arrow_schema(self.table), compression="zstd")
            self._rows = 0
        self._writer.write_table(data, row_group_size=max(self.row_group_rows, data.num_rows))
        self._rows += data.num_rows
        assert self._file is not None
        if self._file.tell() >= self.part_bytes:
            self._close_part()

    def _close_part(self) -> None:
        if self._writer is None or self._file is None:
            return
        self._writer.close()
        self._file.flush()
        os.fsync(self._file.fileno())
        size = self._file.tell()
        name = os.path.basename(self._file.name)
        self._file.close()
        self.parts.append({"file": name, "rows": self._rows, "bytes": size})
        self._writer = self._file = None

    def close(self) -> None:
        self._flush()
        self._close_part()

    def abort(self) -> None:
        with contextlib.suppress(Exception):
            if self._writer is not None:
                self._writer.close()
        with contextlib.suppress(Exception):
            if self._file is not None:
                self._file.close()


# -- a whole export ----------------------------------------------------------------------------

@dataclass
class ExportReport:
    batch: str
    outdir: str
    files: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: what an interrupted export had left and this one removed
    recovered: list[str] = field(default_factory=list)
    records: int = 0
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))

    @property
    def exit_code(self) -> int:
        return 2 if self.errors or self.missing else 0

    def summary(self) -> str:
        if not self.batch:
            if self.errors or self.missing:
                return f"nothing exported into {self.outdir}"
            return f"nothing new to export into {self.outdir}"
        # Shengji's tables always, another game's when they got rows
        counts = ", ".join(f"{n} {t if n != 1 else _SINGULAR.get(t, t)}" for t, n in self.rows.items()
                           if t in TABLES or n)
        return (f"batch {self.batch}: {self.records} record{'s' if self.records != 1 else ''} from "
                f"{len(self.files)} file{'s' if len(self.files) != 1 else ''} ({counts}) in {self.outdir}")


#: a table's name for one row, in the export's summary line ("1 match, 3 hands")
_SINGULAR = {"matches": "match", "hands": "hand", "tricks": "trick", "plays": "play", "diagnostics": "diagnostic",
             "gouji_matches": "gouji_match", "gouji_games": "gouji_game", "gouji_plays": "gouji_play"}


class FileKey(TypedDict):
    """A file as a batch's manifest records it (with ``records`` added there)."""

    path: str
    size: int
    mtime_ns: int


def _file_key(path: str) -> FileKey:
    st = os.stat(path)
    return {"path": os.path.abspath(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def manifests(outdir: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The committed batches of a store (their manifests, oldest first); unreadable ones raise StoreError."""
    out = []
    for manifest in sorted(Path(outdir, "_batches").glob("*.json")):
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise StoreError(f"{manifest}: a damaged batch manifest ({exc}); remove it and that batch's "
                             f"batch={manifest.stem} directories, then export its files again") from None
        if not isinstance(data, dict):
            raise StoreError(f"{manifest}: a damaged batch manifest (not a JSON object)")
        data.setdefault("batch", manifest.stem)
        problem = _manifest_problem(data, manifest.stem)
        if problem is not None:
            raise StoreError(f"{manifest}: a damaged batch manifest ({problem}); remove it and that batch's "
                             f"batch={manifest.stem} directories, then export its files again")
        out.append(data)
    return out


def _manifest_problem(data: dict[str, Any], stem: str) -> str | None:
    """What is wrong with the shape of a manifest (found by tests/fuzz), else None: the
    batch is its file's name, the files and the parts are lists of objects, a part is a
    relative path inside the store (a manifest never makes the tool read elsewhere)."""
    if data["batch"] != stem:
        return f"its batch {data['batch']!r} is not its file's name"
    files = data.get("files", [])
    if not isinstance(files, list) or not all(
            isinstance(f, dict) and isinstance(f.get("path"), str) and type(f.get("size")) is int
            and type(f.get("mtime_ns")) is int for f in files):
        return "its files are not a list of {path, size, mtime_ns}"
    parts = data.get("parts")
    if not isinstance(parts, dict):
        return None  # an older store's manifest: its readers say so
    for table, listed in parts.items():
        if not isinstance(listed, list):
            return f"its {table} parts are not a list"
        for part in listed:
            file = part.get("file") if isinstance(part, dict) else None
            # (not printable: a control character, a lone surrogate `\ud800` no file name can hold)
            if not isinstance(file, str) or not file.isprintable() or Path(file).is_absolute() \
                    or ".." in Path(file).parts:
                return f"a {table} part is not a file inside the store"
    return None


def stored_files(outdir: str | os.PathLike[str]) -> dict[tuple[str, int, int], str]:
    """``(abs path, size, mtime_ns)`` → batch, for every file already in the store."""
    out: dict[tuple[str, int, int], str] = {}
    for data in manifests(outdir):
        for f in data.get("files", []):
            out[(f.get("path"), f.get("size"), f.get("mtime_ns"))] = data["batch"]
    return out


@contextlib.contextmanager
def _locked(out: Path) -> Iterator[None]:
    """``OUTDIR/.lock`` held for the whole export: one writer at a time."""
    try:
        import fcntl
    except ImportError:         # no advisory locks here: one writer at a time is up to the user
        yield
        return
    fd = os.open(out / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise StoreError(f"another export is writing into {out} (it holds {out / '.lock'}); "
                             f"wait for it to finish") from None
        yield
    finally:
        os.close(fd)


def recover(out: Path) -> list[str]:
    """Roll back what an interrupted export left in ``out`` (under its lock): its
    ``.staging-*`` directory, and ``batch=B`` directories that no manifest commits."""
    done = []
    committed = {m["batch"] for m in manifests(out)}
    for p in sorted(out.glob(".staging-*")):
        shutil.rmtree(p, ignore_errors=True)
        done.append(f"removed {p.name} (an interrupted export's staging directory)")
    for t in tables():
        for p in sorted((out / t).glob("batch=*")) if (out / t).is_dir() else []:
            if p.is_dir() and p.name[len("batch="):] not in committed:
                shutil.rmtree(p, ignore_errors=True)
                done.append(f"removed {t}/{p.name} (a batch an interrupted export had not committed)")
    for p in sorted((out / "_batches").glob(".*.tmp")) if (out / "_batches").is_dir() else []:
        with contextlib.suppress(OSError):
            p.unlink()
    return done


def export_paths(paths: Iterable[str], outdir: str, *, options: ExportOptions = ExportOptions(),
                 jobs: int | None = None, client: Client | None = None,
                 on_chunk: Callable[[Job], None] | None = None,
                 chunk_bytes: int = CHUNK_BYTES, split_bytes: int = SPLIT_BYTES,
                 row_group_rows: int = ROW_GROUP_ROWS, part_bytes: int = PART_BYTES,
                 min_parallel_bytes: int | None = None) -> ExportReport:
    """Export files (directories give their ``*.sjn`` and ``*.gjn``) into the store ``outdir`` as one new batch.

    ``client``: a ``distributed.Client`` to run the chunks on; else ``jobs``
    worker processes (default: every core, as ``lint``; 1: in this process, as is any
    export of less than ``min_parallel_bytes``, default
    :data:`analyzer.store.workers.MIN_PARALLEL_BYTES`; :func:`~analyzer.store.workers.effective_jobs`).
    The rows are stored in input order (the files as given, each one's records in
    order) whatever ``jobs``; on a cluster, chunk by chunk as they finish. The workers
    start from a forkserver, which imports the calling script as any multiprocessing
    program does: a script calling this with more than one job keeps its work under
    ``if __name__ == "__main__":``.
    Raises :class:`StoreError`.
    """
    from analyzer import lint as L
    check_pyarrow()             # (imported once the workers have their chunks: W.run_processes)
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise StoreError(f"{outdir} exists and is not a directory")
    files, missing = L.expand_paths(paths)
    if any(p == L.STDIN for p, _ in files):
        raise StoreError("export reads files, not standard input (the chunks are read by the workers)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot write into {outdir}: {exc.strerror or exc}") from None
    old = [m for m in manifests(out) if m.get("format", 1) != STORE_FORMAT]
    if old:
        raise StoreError(f"{outdir} was written by an older shengji (store format {old[0].get('format', 1)}, "
                         f"now {STORE_FORMAT}); export into a new directory (docs/store.md: migrating)")
    from analyzer.lint.pool import default_jobs
    with _locked(out):
        return _export_locked(out, files, missing, options, default_jobs() if jobs is None else jobs, client,
                              on_chunk, chunk_bytes, split_bytes, row_group_rows, part_bytes, min_parallel_bytes)


class _FailedAfterRows(Exception):
    """A file failed (a chunk could not be read) after rows of its earlier chunks were
    written into the staged batch: that batch is dropped and the export run again without
    the file (:func:`_export_locked`)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def _export_locked(out: Path, files: list[tuple[str, str]], missing: list[str], options: ExportOptions,
                   jobs: int, client: Client | None, on_chunk: Callable[[Job], None] | None,
                   chunk_bytes: int, split_bytes: int, row_group_rows: int, part_bytes: int,
                   min_parallel_bytes: int | None) -> ExportReport:
    """One batch of ``files``. A file that cannot be read (whole or a chunk of it) is
    recorded nowhere: no rows, not in the manifest (a later export reads it again), its
    error in the report; a batch that would record no file is not committed. A file that
    fails after rows of it were written (a chunk past the first of a big file) makes the
    batch start again without it (rare: the work done so far is done twice)."""
    recovered = recover(out)
    failed: dict[str, str] = {}
    while True:
        try:
            report = _export_batch(out, files, missing, options, jobs, client, on_chunk, chunk_bytes, split_bytes,
                                   row_group_rows, part_bytes, min_parallel_bytes, failed)
        except _FailedAfterRows as exc:
            failed[exc.path] = exc.message
            continue
        report.recovered = recovered
        return report


def _export_batch(out: Path, files: list[tuple[str, str]], missing: list[str], options: ExportOptions,
                  jobs: int, client: Client | None, on_chunk: Callable[[Job], None] | None,
                  chunk_bytes: int, split_bytes: int, row_group_rows: int, part_bytes: int,
                  min_parallel_bytes: int | None, failed: dict[str, str]) -> ExportReport:
    from analyzer import lint as L
    outdir = str(out)
    batch = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + "-" + uuid.uuid4().hex[:6]
    report = ExportReport(batch=batch, outdir=outdir, missing=missing)
    known = stored_files(out)
    todo: list[tuple[str, str]] = []
    keys: list[FileKey] = []
    from analyzer.io.sources import is_stream
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
        if p in failed:             # failed midway in an earlier attempt of this batch
            report.errors.append(f"{display}: {failed[p]}")
            continue
        todo.append((p, display))
        keys.append(key)
    if not todo:
        report.batch = ""
        return report
    staging = out / f".staging-{batch}"
    writers: dict[str, _TableWriter] = {}
    try:
        for t in TABLES:
            (staging / t / f"batch={batch}").mkdir(parents=True, exist_ok=True)
            writers[t] = _TableWriter(staging / t / f"batch={batch}", t, row_group_rows=row_group_rows,
                                      part_bytes=part_bytes)
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
    #: files that could not be read (a chunk's error): recorded nowhere
    unreadable: set[int] = set()
    #: files that gave rows so far
    gave_rows: set[int] = set()

    def writer(t: str) -> _TableWriter:
        """The writer of table ``t`` (another game's tables: made when their first rows come)."""
        w = writers.get(t)
        if w is None:
            (staging / t / f"batch={batch}").mkdir(parents=True, exist_ok=True)
            w = writers[t] = _TableWriter(staging / t / f"batch={batch}", t, row_group_rows=row_group_rows,
                                          part_bytes=part_bytes)
        return w

    def file_failed(i: int, message: str) -> None:
        if i in unreadable:
            return
        if i in gave_rows:
            raise _FailedAfterRows(todo[i][0], message)
        unreadable.add(i)
        report.errors.append(f"{todo[i][1]}: {message}")

    def on_result(job: Job, result: ChunkExport) -> None:
        if result.get("refused"):
            report.skipped.append(f"{job.display} ({result.get('refused')})")
            refused.add(job.index)
        if result["error"]:
            file_failed(job.index, result["error"])
        if job.index not in unreadable:
            per_file_records[job.index] += result["records"]
            for t, table in arrow_tables(result["columns"]).items():
                if table.num_rows or t in writers:
                    writer(t).add(table)
                    report.rows[t] = report.rows.get(t, 0) + table.num_rows
                    if table.num_rows:
                        gave_rows.add(job.index)
        if on_chunk is not None:
            on_chunk(job)

    try:
        if client is not None:
            from analyzer.store.cluster import threads
            jobs = threads(client)
        else:
            jobs = W.effective_jobs(jobs, list(sizes.values()), split_bytes,
                                    W.MIN_PARALLEL_BYTES if min_parallel_bytes is None else min_parallel_bytes)
        job_iter = L.iter_jobs(todo, sizes, lint_options, max(1, jobs), results, None, chunk_bytes, split_bytes)
        if client is not None:
            from analyzer.store.cluster import run_jobs
            run_jobs(client, job_iter, export_chunk, (options,), on_result, in_flight=2 * jobs,
                     key_prefix="shengji-export")
        elif jobs > 1:
            W.run_processes(job_iter, options, jobs, on_result, on_started=require_pyarrow)
        else:
            for job in job_iter:
                on_result(job, export_chunk(job, options))
        for i, split_parts in results.items():          # files that failed while being split
            for r in split_parts.values():
                if r.error:
                    file_failed(i, r.error)
        recorded = [i for i in range(len(todo)) if i not in refused and i not in unreadable]
        if not recorded:            # nothing to commit: no batch (its errors and notes are in the report)
            report.batch = ""
            return report
        for w in writers.values():
            w.close()
        # commit: the parts move into the table directories, then the manifest is written last
        parts = {}
        for t in list(writers):
            if not writers[t].parts:
                continue
            _fsync_dir(staging / t / f"batch={batch}")
            (out / t).mkdir(parents=True, exist_ok=True)
            os.replace(staging / t / f"batch={batch}", out / t / f"batch={batch}")
            _fsync_dir(out / t)
            parts[t] = [dict(p, file=f"{t}/batch={batch}/{p['file']}") for p in writers[t].parts]
        report.files = [todo[i][1] for i in recorded]
        report.records = sum(per_file_records)
        manifest = {"batch": batch, "format": STORE_FORMAT,
                    "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "rules": options.rules,
                    "files": [dict(keys[i], records=per_file_records[i]) for i in recorded],
                    "rows": report.rows, "parts": parts}
        (out / "_batches").mkdir(parents=True, exist_ok=True)
        from analyzer.io.atomic import write_text_atomic
        write_text_atomic(out / "_batches" / f"{batch}.json", json.dumps(manifest, indent=2) + "\n")
        _fsync_dir(out / "_batches")
    except OSError as exc:
        raise StoreError(f"cannot write into {outdir}: {exc.strerror or exc}") from None
    finally:
        for w in writers.values():
            w.abort()
        shutil.rmtree(staging, ignore_errors=True)
    return report
