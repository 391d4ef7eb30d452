"""Many paths: the work split by file (and a huge file by record chunks), run in
worker processes (or by a runner such as :mod:`analyzer.store.cluster`'s), merged into
a :class:`LintReport` whose order never depends on the number of workers."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from analyzer.io.sources import STDIN, changed_message, file_state, input_kind, is_stream
from analyzer.lint.check import WHOLE_BYTES, lint_file, lint_stdin
from analyzer.lint.findings import FileResult, Finding, LintReport
from analyzer.lint.options import LintOptions
from analyzer.lint.paths import expand_paths
from analyzer.lint.split import CHUNK_BYTES, MIN_CHUNK_BYTES, split_file

if TYPE_CHECKING:
    from analyzer.lint.cache import LintCache
    from analyzer.lint.ignore import Pattern

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
                     start_line=job.start_line).held()


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _merge(parts: list[FileResult]) -> FileResult:
    """Join a file's chunks (in order): renumber records and keep the first error."""
    first = parts[0]
    if len(parts) == 1:  # (nothing to renumber: its findings, on disk too, as they are)
        return first if not first.error else FileResult(first.path, error=first.error)
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
               min_parallel_bytes: int = MIN_PARALLEL_BYTES, runner: Callable[..., None] | None = None,
               exclude: Sequence[Pattern] = (), gitignore: bool = False,
               cache: LintCache | None = None, on_file: Callable[[FileResult], None] | None = None,
               keep_findings: bool = True) -> LintReport:
    """Lint files, directories, globs and ``-`` (stdin); the same report for any ``jobs``.

    ``jobs`` defaults to every core; with more than one (and at least
    ``min_parallel_bytes`` of input), files (and record chunks of files of at
    least ``split_bytes``) run in worker processes.
    ``progress`` receives ``start(total_bytes)``, ``advance(nbytes)`` and
    ``stop()`` calls (see :class:`Progress`). ``runner`` replaces the worker
    processes (same signature as ``_lint_parallel``; :mod:`analyzer.store.cluster`
    gives one that runs the same jobs on a Dask cluster, always used).
    ``exclude`` and ``gitignore`` filter the files found in directories
    (:func:`expand_paths`); a file whose result ``cache`` holds is not linted
    again, and every other file's result is put in it (:mod:`.cache`).
    ``on_file(result)`` is called for each file in input order as soon as it
    and every file before it are done (a streamed output); with
    ``keep_findings=False`` each file's findings are then let go and only
    their counts kept (:meth:`FileResult.drop_findings`), so memory does not
    grow with the findings of a run. Within one file, findings past
    :data:`~analyzer.lint.findings.SPILL_FINDINGS` wait on disk
    (:class:`~analyzer.lint.findings.Runs`), with ``jobs=1``.
    """
    options.validate()
    files, missing = expand_paths(paths, exclude=exclude, gitignore=gitignore)
    report = LintReport(missing=missing)
    jobs = default_jobs() if jobs is None or jobs <= 0 else jobs

    sizes: dict[int, int] = {}
    states: dict[int, tuple[int, int, int] | None] = {}  # to tell a file that changed while it was read
    for i, (p, _) in enumerate(files):
        if p != STDIN:
            states[i] = file_state(p)
            try:
                sizes[i] = os.path.getsize(p)
            except OSError:
                sizes[i] = 0
    on_bytes = progress.advance if progress is not None else None
    if progress is not None:
        progress.start(sum(sizes.values()))

    done = _InOrder(files, cache, on_file, keep_findings, states)
    todo = list(range(len(files)))
    if cache is not None:   # the cached files are done; the others are linted as if alone
        todo = []
        for i, (p, display) in enumerate(files):
            hit = cache.get(p, display) if not is_stream(p) else None  # (a stream is read once: by lint)
            if hit is not None:
                done.add(i, hit, cached=True)
                if on_bytes is not None:
                    on_bytes(sizes.get(i, 0))
            else:
                todo.append(i)
    rest = [files[i] for i in todo]
    rest_sizes = {k: sizes[i] for k, i in enumerate(todo) if i in sizes}
    parallel = runner is not None or (jobs > 1 and sum(rest_sizes.values()) >= min_parallel_bytes
                                      and (len(rest_sizes) > 1 or any(s >= split_bytes
                                                                      for s in rest_sizes.values())))
    try:
        if not parallel:
            for k, (p, display) in enumerate(rest):
                if p == STDIN:
                    source = stdin if stdin is not None else sys.stdin
                    one = lint_stdin(source, display, options)
                elif on_bytes is not None and rest_sizes.get(k, 0) <= WHOLE_BYTES:
                    # a file read whole (the fast path): its progress in one step
                    one = lint_file(p, options, display=display)
                    on_bytes(rest_sizes.get(k, 0))
                else:
                    one = lint_file(p, options, display=display, on_bytes=on_bytes)
                done.add(todo[k], _merge([one]))
        else:
            results = _Results(todo, done)
            (runner or _lint_parallel)(rest, rest_sizes, options, jobs, results, stdin, progress,
                                       chunk_bytes, split_bytes)
            results.finish()
    finally:
        if progress is not None:
            progress.stop()
    report.files.extend(done.results())
    return report


class _InOrder:
    """Files' results as they are done, passed on (``on_file``) in input order."""

    def __init__(self, files: Sequence[tuple[str, str]], cache: LintCache | None,
                 on_file: Callable[[FileResult], None] | None, keep: bool,
                 states: dict[int, tuple[int, int, int] | None] | None = None) -> None:
        self.files = files
        self.states = states or {}
        self.cache = cache
        self.on_file = on_file
        self.keep = keep
        self.ready: dict[int, FileResult] = {}
        self.out: list[FileResult] = []

    def add(self, i: int, result: FileResult, *, cached: bool = False) -> None:
        changed = None if cached else changed_message(self.files[i][0], self.states.get(i))
        if changed is not None and not result.error:
            result = FileResult(result.path, error=changed)  # what was read is not the file: no findings
        if self.cache is not None and not cached and changed is None and not is_stream(self.files[i][0]):
            self.cache.put(self.files[i][0], result)
        self.ready[i] = result
        while len(self.out) in self.ready:
            r = self.ready.pop(len(self.out))
            if self.on_file is not None:
                self.on_file(r)
            if not self.keep:
                r.drop_findings()
            self.out.append(r)

    def results(self) -> list[FileResult]:
        if self.ready or len(self.out) != len(self.files):  # pragma: no cover - a runner that lost a file
            raise RuntimeError("lint: a file's result is missing")
        return self.out


class _Parts(dict[int, FileResult]):
    """One file's chunk results (a runner sets ``parts[job.part] = result``),
    folded into the file's result as soon as the chunks before them are in
    (renumbered as :func:`_merge` does; the findings past
    :data:`~analyzer.lint.findings.SPILL_FINDINGS` wait on disk), so a huge
    file's findings are not all held in memory until its last chunk is done."""

    def __init__(self, owner: _Results, k: int) -> None:
        super().__init__()
        self.owner = owner
        self.k = k
        self.out: FileResult | None = None
        self.taken = 0     # the chunks 0 .. taken-1 are folded in
        self.offset = 0

    def __setitem__(self, part: int, result: FileResult) -> None:
        super().__setitem__(part, result)
        while self.taken in self:
            self._fold(self.taken)
            self.taken += 1
        self.owner.check(self.k)

    def _fold(self, part: int) -> None:
        p = dict.__getitem__(self, part)
        dict.__setitem__(self, part, _FOLDED)   # (counted as in, let go)
        out = self.out
        if out is None:
            out = self.out = FileResult(p.path)
        if p.error and not out.error:
            out.error = p.error
        if not out.error:
            offset = self.offset
            out.add([f if f.record is None or not offset else
                     Finding(f.path, f.line, f.column, f.end_line, f.end_column, f.code, f.severity, f.message,
                             f.name, f.hand, f.trick, f.record + offset)
                     for f in p.iter_findings()])
        self.offset += p.records
        out.records += p.records

    def result(self) -> FileResult:
        """The file's result (every chunk in; one that failed midway: its error only)."""
        for part in sorted(self):
            if part >= self.taken:   # (a runner that skipped a chunk: fold the rest in order)
                self._fold(part)
        out = self.out if self.out is not None else FileResult(next(iter(self.values())).path)
        first_error = next((r.error for p, r in sorted(self.items()) if p < 0 and r.error), None)
        error = first_error or out.error
        if error:  # an unreadable file reports the error only
            out.drop_findings()
            return FileResult(out.path, error=error)
        out.sort()
        return out


#: a chunk already folded into its file's result
_FOLDED = FileResult("")


class _Results(dict[int, dict[int, FileResult]]):
    """The ``results`` a runner fills (by the index among the files it was given):
    a file is passed on as soon as :func:`iter_jobs` has said how many parts it
    has (:meth:`expect`) and they are all in."""

    def __init__(self, todo: Sequence[int], done: _InOrder) -> None:
        super().__init__({k: _Parts(self, k) for k in range(len(todo))})
        self.todo = todo
        self.done = done
        self.expected: dict[int, int] = {}
        self.finished: set[int] = set()

    def expect(self, k: int, parts: int) -> None:
        self.expected[k] = parts
        self.check(k)

    def check(self, k: int) -> None:
        if k in self.finished or k not in self.expected or len(self[k]) < self.expected[k]:
            return
        self.finished.add(k)
        self.done.add(self.todo[k], self._parts(k).result())

    def _parts(self, k: int) -> _Parts:
        parts = self[k]
        assert isinstance(parts, _Parts)
        return parts

    def finish(self) -> None:
        """After the runner: every file not passed on yet (a runner without ``expect``)."""
        for k in range(len(self.todo)):
            if k not in self.finished:
                self.finished.add(k)
                self.done.add(self.todo[k], self._parts(k).result())


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


def _splits(path: str, options: LintOptions) -> bool:
    """Is ``path`` a notation its game lints in record chunks (:meth:`analyzer.games.Game.splits`)?"""
    from analyzer.io.gamekit import UNKNOWN, by_kind
    try:
        kind, fmt = input_kind(path, options)
    except OSError:
        return False
    return fmt is None and kind != UNKNOWN and by_kind(kind).splits(kind)


def iter_jobs(files: Sequence[tuple[str, str]], sizes: dict[int, int], options: LintOptions, jobs: int,
              results: dict[int, dict[int, FileResult]], stdin: Iterable[str] | None,
              chunk_bytes: int = CHUNK_BYTES, split_bytes: int = SPLIT_BYTES) -> Iterator[_Job]:
    """The work units of a parallel run, in input order: one per file, or record
    chunks (:func:`split_file`) of a file of at least ``split_bytes``, about 4 per
    worker. Standard input is linted here and files that fail midway are put in
    ``results`` directly. Shared by ``--jobs`` and ``--cluster`` (analyzer.store.cluster)."""
    expect = getattr(results, "expect", None)   # (a _Results: files passed on as they are done)
    for i, (p, display) in enumerate(files):
        if p == STDIN:
            source = stdin if stdin is not None else sys.stdin
            results[i][0] = lint_stdin(source, display, options)
            if expect is not None:
                expect(i, 1)
            continue
        size = sizes.get(i, 0)
        if size >= split_bytes and _splits(p, options):
            k = -1
            try:
                chunk = min(chunk_bytes, max(MIN_CHUNK_BYTES, size // (4 * jobs)))
                for k, (start, end, line) in enumerate(split_file(p, chunk)):
                    n = (end if end is not None else size) - start
                    yield _Job(i, k, p, display, start, end, line, max(n, 0))
            except OSError as exc:
                # reading failed midway: part -1 sorts first, and _merge keeps only the error
                results[i][-1] = FileResult(display, error=exc.strerror or str(exc))
                k += 1
            if expect is not None:
                expect(i, k + 1)
            continue
        yield _Job(i, 0, p, display, 0, None, 1, size)
        if expect is not None:
            expect(i, 1)


class Progress(Protocol):
    """The progress protocol of :func:`lint_paths` (a no-op base)."""

    def start(self, total: int) -> None:  # pragma: no cover - protocol
        pass

    def advance(self, n: int) -> None:  # pragma: no cover - protocol
        pass

    def stop(self) -> None:  # pragma: no cover - protocol
        pass
