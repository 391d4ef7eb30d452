"""The export's worker processes (``shengji export --to parquet``, ``--jobs N``; by default
one per core, as ``shengji lint``): the chunks of :func:`analyzer.lint.iter_jobs` run in a
pool, their tables come back **in the order of the chunks**, so the store's rows are in
the same order whatever ``--jobs``.

The command starts its workers first thing (:func:`start_early`), before it imports
pyarrow: while it still runs one thread, it imports the reader, the engine and the rows'
code (:data:`PRELOAD`, pure Python, no thread) and **forks** the workers from itself, so
they read their first chunks while it imports pyarrow. Otherwise (a process that has
imported pyarrow, whose thread pools a fork can leave half-held: a forked worker crashed
in the garbage collector once, under the test suite; a notebook's DuckDB) the workers come
from a *forkserver*, never forked from the exporting process: it imports :data:`PRELOAD`
once and each worker forks from it with them loaded. A worker never imports
pyarrow: it sends its chunk's rows back as plain columns (lists; card lists, integers and booleans as bytes:
:meth:`analyzer.store.rows.Rows.columns`) and the exporting process makes the Arrow
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


def export_chunk_pickled(job: Job, options: ExportOptions) -> bytes:
    """:func:`~analyzer.store.chunk.export_chunk` in a worker, its result pickled and
    compressed there (zlib level 1: 3.9 MB of pickle a 1 MB chunk of SJN becomes 0.5 MB, for
    24 ms of the chunk's 1.6 s): the chunks that wait in the window are held as these bytes,
    and only the one being written is unpacked into Python lists (:func:`unpack`)."""
    import pickle
    import zlib

    from analyzer.store.chunk import export_chunk
    return zlib.compress(pickle.dumps(export_chunk(job, options), protocol=pickle.HIGHEST_PROTOCOL), 1)


def unpack(data: bytes) -> ChunkExport:
    """A worker's :func:`export_chunk_pickled` bytes → its chunk's result."""
    import pickle
    import zlib
    result: ChunkExport = pickle.loads(zlib.decompress(data))
    return result


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    """The pool of ``jobs`` export workers: the one :func:`start_early` forked when it has
    ``jobs`` workers, else from a forkserver that has imported :data:`PRELOAD` (where the
    platform has one; else the platform's default start)."""
    global _early
    from concurrent.futures import ProcessPoolExecutor
    if _early is not None:
        early, _early = _early, None
        if early[0] == jobs:
            return early[1]
        early[1].shutdown(cancel_futures=True)
    return ProcessPoolExecutor(max_workers=jobs, mp_context=_forkserver())


def _forkserver() -> Any:
    """The forkserver context, its preload set (None where the platform has no forkserver)."""
    import multiprocessing as mp
    if "forkserver" not in mp.get_all_start_methods():
        return None
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(list(PRELOAD))    # (ignored if this process's forkserver runs already)
    return ctx


#: the pool :func:`start_early` forked, with its number of workers: the next :func:`worker_pool` of
#: that many takes it (:func:`stop_early` shuts it down if none did)
_early: tuple[int, ProcessPoolExecutor] | None = None


def _one_thread() -> bool:
    """Does this process run one thread (every thread counted, not only Python's: ``/proc``)?
    False where that cannot be told."""
    import os
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def start_early(jobs: int | None, sizes: Sequence[int], split_bytes: int) -> bool:
    """Start the workers now if an export of files of ``sizes`` with ``jobs`` will use them
    (:func:`effective_jobs`; None: one per core), before this process imports pyarrow: the
    command's start and the workers' run side by side (docs/performance.md, "Nineteenth
    session"). The command calls it first thing, while it runs one thread: then the workers
    are **forked from this process** with :data:`PRELOAD` imported here (no forkserver to
    start and import them again, no resource tracker), and the next :func:`worker_pool` of
    ``jobs`` takes them; a process with another thread (pyarrow's, a notebook's) gets the
    forkserver started instead (imported while this process goes on). True when either was
    started."""
    global _early
    import multiprocessing as mp
    if jobs is None:
        from analyzer.lint.pool import default_jobs
        jobs = default_jobs()
    if effective_jobs(jobs, sizes, split_bytes) <= 1 or _early is not None:
        return False
    try:
        if "fork" in mp.get_all_start_methods() and _one_thread():
            import importlib
            import sys
            from concurrent.futures import ProcessPoolExecutor
            for name in PRELOAD:
                importlib.import_module(name)
            for stream in (sys.stdout, sys.stderr):     # (a worker flushes its copy of their buffers at exit)
                if stream is not None:
                    stream.flush()
            pool = ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("fork"))
            pool.submit(int)        # forks every worker now, then starts the pool's own thread
            _early = (jobs, pool)
            return True
        if _forkserver() is None:
            return False
        from multiprocessing import forkserver
        forkserver.ensure_running()
    except (OSError, ImportError):      # (no process could be started: the pool says so later, as before)
        return False
    return True


def stop_early() -> None:
    """Shut down the pool :func:`start_early` forked if no export took it."""
    global _early
    if _early is not None:
        _early[1].shutdown(cancel_futures=True)
        _early = None
