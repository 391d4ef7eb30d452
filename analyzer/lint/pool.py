"""Many paths: the work split by file (and a huge file by record chunks), run in
worker processes (or by a runner such as :mod:`analyzer.cluster`'s), merged into
a :class:`LintReport` whose order never depends on the number of workers."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .check import WHOLE_BYTES, lint_file, lint_stdin
from .findings import FileResult, Finding, LintReport
from .options import LintOptions
from .paths import expand_paths
from .sources import STDIN, input_kind
from .split import CHUNK_BYTES, MIN_CHUNK_BYTES, split_file

#: files at least this large are split into record chunks when jobs > 1
SPLIT_BYTES = 512 * 1024
#: below this much input in all, worker processes cost more than they save
MIN_PARALLEL_BYTES = 256 * 1024


@dataclass(frozen=True)
class _Job:
    index: int          # file index in input order
    part: int           # chunk index within the file
    path: str
    display: str
    start: int
    end: int | None
    start_line: int
    size: int


def _run_job(job: _Job, options: LintOptions) -> FileResult:
    return lint_file(job.path, options, display=job.display, start=job.start, end=job.end,
                     start_line=job.start_line)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _merge(parts: list[FileResult]) -> FileResult:
    """Join a file's chunks (in order): renumber records and keep the first error."""
    first = parts[0]
    out = FileResult(first.path)
    offset = 0
    for p in parts:
        if p.error and not out.error:
            out.error = p.error
        for f in p.findings:
            rec = f.record + offset if f.record is not None else None
            out.findings.append(Finding(f.path, f.line, f.column, f.end_line, f.end_column, f.code,
                                        f.severity, f.message, f.name, f.hand, f.trick, rec))
        offset += p.records
        out.records += p.records
    if out.error:  # an unreadable file reports the error only
        out.findings, out.records = [], 0
    return out


def lint_paths(paths: Iterable[str], options: LintOptions = LintOptions(), *, jobs: int | None = None,
               stdin: Iterable[str] | None = None, progress: Progress | None = None,
               chunk_bytes: int = CHUNK_BYTES, split_bytes: int = SPLIT_BYTES,
               min_parallel_bytes: int = MIN_PARALLEL_BYTES, runner: Callable[..., None] | None = None) -> LintReport:
    """Lint files, directories, globs and ``-`` (stdin); the same report for any ``jobs``.

    ``jobs`` defaults to every core; with more than one (and at least
    ``min_parallel_bytes`` of input), files (and record chunks of files of at
    least ``split_bytes``) run in worker processes.
    ``progress`` receives ``start(total_bytes)``, ``advance(nbytes)`` and
    ``stop()`` calls (see :class:`Progress`). ``runner`` replaces the worker
    processes (same signature as ``_lint_parallel``; :mod:`analyzer.cluster`
    gives one that runs the same jobs on a Dask cluster, always used).
    """
    options.validate()
    files, missing = expand_paths(paths)
    report = LintReport(missing=missing)
    jobs = default_jobs() if jobs is None or jobs <= 0 else jobs

    sizes: dict[int, int] = {}
    for i, (p, _) in enumerate(files):
        if p != STDIN:
            try:
                sizes[i] = os.path.getsize(p)
            except OSError:
                sizes[i] = 0
    on_bytes = progress.advance if progress is not None else None
    if progress is not None:
        progress.start(sum(sizes.values()))

    parallel = runner is not None or (jobs > 1 and sum(sizes.values()) >= min_parallel_bytes
                                      and (len(sizes) > 1 or any(s >= split_bytes for s in sizes.values())))
    results: dict[int, dict[int, FileResult]] = {i: {} for i in range(len(files))}
    try:
        if not parallel:
            for i, (p, display) in enumerate(files):
                if p == STDIN:
                    source = stdin if stdin is not None else sys.stdin
                    results[i][0] = lint_stdin(source, display, options)
                elif on_bytes is not None and sizes.get(i, 0) <= WHOLE_BYTES:
                    # a file read whole (the fast path): its progress in one step
                    results[i][0] = lint_file(p, options, display=display)
                    on_bytes(sizes.get(i, 0))
                else:
                    results[i][0] = lint_file(p, options, display=display, on_bytes=on_bytes)
        else:
            (runner or _lint_parallel)(files, sizes, options, jobs, results, stdin, progress,
                                       chunk_bytes, split_bytes)
    finally:
        if progress is not None:
            progress.stop()

    for i in range(len(files)):
        parts = [results[i][k] for k in sorted(results[i])]
        report.files.append(_merge(parts))
    return report


def _lint_parallel(files: list[tuple[str, str]], sizes: dict[int, int], options: LintOptions, jobs: int,
                   results: dict[int, dict[int, FileResult]], stdin: Iterable[str] | None,
                   progress: Progress | None, chunk_bytes: int, split_bytes: int) -> None:
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
    pending: dict[Any, _Job] = {}

    def collect(block: bool) -> None:
        if not pending:
            return
        done, _ = wait(list(pending), timeout=None if block else 0, return_when=FIRST_COMPLETED)
        for fut in done:
            job = pending.pop(fut)
            results[job.index][job.part] = fut.result()
            if progress is not None:
                progress.advance(job.size)

    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        for job in iter_jobs(files, sizes, options, jobs, results, stdin, chunk_bytes, split_bytes):
            # keep a bounded number of jobs in flight: a huge file is split as it is read
            while len(pending) >= 4 * jobs:
                collect(True)
            pending[pool.submit(_run_job, job, options)] = job
            collect(False)
        while pending:
            collect(True)


def _kind_or_none(path: str, options: LintOptions) -> str | None:
    try:
        kind, fmt = input_kind(path, options)
    except OSError:
        return None
    return kind if fmt is None else None


def iter_jobs(files: Sequence[tuple[str, str]], sizes: dict[int, int], options: LintOptions, jobs: int,
              results: dict[int, dict[int, FileResult]], stdin: Iterable[str] | None,
              chunk_bytes: int = CHUNK_BYTES, split_bytes: int = SPLIT_BYTES) -> Iterator[_Job]:
    """The work units of a parallel run, in input order: one per file, or record
    chunks (:func:`split_file`) of a file of at least ``split_bytes``, about 4 per
    worker. Standard input is linted here and files that fail midway are put in
    ``results`` directly. Shared by ``--jobs`` and ``--cluster`` (analyzer.cluster)."""
    for i, (p, display) in enumerate(files):
        if p == STDIN:
            source = stdin if stdin is not None else sys.stdin
            results[i][0] = lint_stdin(source, display, options)
            continue
        size = sizes.get(i, 0)
        if size >= split_bytes and _kind_or_none(p, options) == "sjn":
            try:
                chunk = min(chunk_bytes, max(MIN_CHUNK_BYTES, size // (4 * jobs)))
                for k, (start, end, line) in enumerate(split_file(p, chunk)):
                    n = (end if end is not None else size) - start
                    yield _Job(i, k, p, display, start, end, line, max(n, 0))
                continue
            except OSError as exc:
                # reading failed midway: part -1 sorts first, and _merge keeps only the error
                results[i][-1] = FileResult(display, error=exc.strerror or str(exc))
                continue
        yield _Job(i, 0, p, display, 0, None, 1, size)


class Progress(Protocol):
    """The progress protocol of :func:`lint_paths` (a no-op base)."""

    def start(self, total: int) -> None:  # pragma: no cover - protocol
        pass

    def advance(self, n: int) -> None:  # pragma: no cover - protocol
        pass

    def stop(self) -> None:  # pragma: no cover - protocol
        pass
