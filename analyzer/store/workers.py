"""The export's worker processes (``shengji export --to parquet``, ``--jobs N``; by default
one per core, as ``shengji lint``): the chunks of :func:`analyzer.lint.iter_jobs` run in a
pool, their tables come back **in the order of the chunks**, so the store's rows are in
the same order whatever ``--jobs``.

The workers come from a *forkserver*, never forked from the exporting process: that one
has pyarrow's (and, in a notebook, DuckDB's) thread pools, which a fork can leave
half-held (a forked worker crashed in the garbage collector once, under the test suite);
and workers forked from the command (before its first thread) ran their chunks about
14 % slower than the forkserver's (docs/performance.md, "Nineteenth session"). The
command starts the forkserver first thing (:func:`start_early`), before it imports
pyarrow; it imports the reader, the engine and the rows' code (:data:`PRELOAD`, pure
Python, no thread) once and each worker forks from it with them loaded. A worker never imports
pyarrow: it sends its chunk's rows back as plain columns (lists; card lists, integers and booleans as bytes,
the tricks' and plays' strings as codes: :meth:`analyzer.store.rows.Rows.columns`) and the exporting process makes the Arrow
tables (:func:`analyzer.store.rows.arrow_tables`), which keeps about 30 MB of pyarrow
out of every worker (issue 35: the whole export under 200 MB at the default ``--jobs``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from analyzer.store.chunk import ChunkExport, ExportOptions
    from analyzer.store.cluster import Job

#: below this much input, an export runs in its own process whatever ``--jobs``: starting
#: the workers (a forkserver, then each worker's imports: about 0.5 s of CPU a worker)
#: costs more than the work shared (about 1.2 s of CPU a MB of SJN, on bench/bench_store.py)
MIN_PARALLEL_BYTES = 1024 * 1024

#: the modules the forkserver imports once for all its workers (no thread at import)
PRELOAD = ("analyzer.store.chunk", "analyzer.store.rows", "analyzer.lint", "analyzer.lint.check",
           "notation.detect", "replay.game")


def effective_jobs(jobs: int, sizes: Sequence[int], split_bytes: int,
                   min_parallel_bytes: int = MIN_PARALLEL_BYTES) -> int:
    """How many processes an export of files of ``sizes`` uses when given ``jobs``: 1 (this
    process) when there is too little to share (under ``min_parallel_bytes`` in all, or
    one file too small to be cut into chunks), else ``jobs``."""
    if jobs <= 1 or sum(sizes) < min_parallel_bytes:
        return 1
    if len(sizes) == 1 and sizes[0] < split_bytes:
        return 1
    return jobs


def run_processes(job_iter: Iterator[Job], options: ExportOptions, jobs: int,
                  on_result: Callable[[Job, ChunkExport], None],
                  on_started: Callable[[], object] | None = None) -> None:
    """``export_chunk(job, options)`` for every job in ``jobs`` worker processes, at most
    ``2 * jobs`` in flight; ``on_result`` is called in the jobs' order (a chunk done early
    waits for the ones before it: the window bounds what is held). ``on_started``: called
    once the first chunks are sent (or there are none), before waiting for any (the export
    imports pyarrow there, while the workers read)."""
    window: deque[tuple[Future[bytes], Job]] = deque()
    with worker_pool(jobs) as pool:
        for job in job_iter:
            if on_started is not None and len(window) >= 2 * jobs:
                on_started()
                on_started = None
            while len(window) >= 2 * jobs:
                fut, done = window.popleft()
                on_result(done, unpack(fut.result()))
            window.append((pool.submit(export_chunk_pickled, job, options), job))
        if on_started is not None:
            on_started()
        while window:
            fut, done = window.popleft()
            on_result(done, unpack(fut.result()))


#: a chunk's pickle is compressed past this size (below it, the window of ``2 * jobs`` chunks
#: holds a few MB at most, and zlib would cost the workers and the command 2 % of the export's CPU)
COMPRESS_BYTES = 1024 * 1024


def export_chunk_pickled(job: Job, options: ExportOptions) -> bytes:
    """:func:`~analyzer.store.chunk.export_chunk` in a worker, its result pickled (and compressed
    there when the pickle passes :data:`COMPRESS_BYTES`: zlib level 1, a 1 MB file of SJN's
    2.5 MB of pickle becomes 0.45 MB): the chunks that wait in the window are held as these
    bytes, and only the one being written is unpacked into Python lists (:func:`unpack`).
    A split file's chunks (256 KB of SJN, about 0.65 MB of pickle) go uncompressed."""
    import pickle

    from analyzer.store.chunk import export_chunk
    data = pickle.dumps(export_chunk(job, options), protocol=pickle.HIGHEST_PROTOCOL)
    if len(data) > COMPRESS_BYTES:
        import zlib
        data = zlib.compress(data, 1)
    return data


def unpack(data: bytes) -> ChunkExport:
    """A worker's :func:`export_chunk_pickled` bytes → its chunk's result (a pickle begins with
    its protocol's opcode, 0x80; a zlib stream with 0x78)."""
    import pickle
    if data[:1] != b"\x80":
        import zlib
        data = zlib.decompress(data)
    result: ChunkExport = pickle.loads(data)
    return result


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    """The pool of ``jobs`` export workers: from a forkserver that has imported
    :data:`PRELOAD` (where the platform has one; else the platform's default start)."""
    from concurrent.futures import ProcessPoolExecutor
    return ProcessPoolExecutor(max_workers=jobs, mp_context=_forkserver())


def _forkserver() -> Any:
    """The forkserver context, its preload set (None where the platform has no forkserver)."""
    import multiprocessing as mp
    if "forkserver" not in mp.get_all_start_methods():
        return None
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(list(PRELOAD))    # (ignored if this process's forkserver runs already)
    return ctx


def start_early(jobs: int | None, sizes: Sequence[int], split_bytes: int) -> bool:
    """Start the forkserver now if an export of files of ``sizes`` with ``jobs`` will use
    workers (:func:`effective_jobs`; None: one per core): it imports :data:`PRELOAD` while
    this process goes on (the command: before it imports pyarrow), so the workers fork
    from it sooner (docs/performance.md, "Nineteenth session"). True when it was started
    (or runs already). Workers forked from the command itself instead (no forkserver)
    started sooner still but ran their chunks about 14 % slower, measured: not kept."""
    if jobs is None:
        from analyzer.lint.pool import default_jobs
        jobs = default_jobs()
    if effective_jobs(jobs, sizes, split_bytes) <= 1 or _forkserver() is None:
        return False
    from multiprocessing import forkserver
    try:
        forkserver.ensure_running()
    except OSError:             # (no process could be started: the pool says so later, as before)
        return False
    return True
