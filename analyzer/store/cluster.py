"""Run the work of ``shengji lint`` and ``shengji export`` on a Dask cluster.

``--cluster ADDRESS`` names a running ``dask.distributed`` scheduler
(``tcp://host:8786``, or ``host:8786``); ``--cluster local:N`` starts a
``LocalCluster`` of N single-threaded worker processes on this machine for the
length of the command. The work units are exactly the ones ``--jobs`` runs
(:func:`analyzer.lint.iter_jobs`: a file, or a record chunk of a big file), and
their results are put together in input order, so the findings, their order
and the exit status are the ones ``--jobs 1`` gives.

Workers open the input files themselves: every path must be readable, under
the same name, on every worker (a shared file system, or one machine). Only
the job description (path, byte range, first line) travels to the worker, and
only the findings come back.

A chunk whose worker dies is run again on another worker by the scheduler
(up to ``distributed.scheduler.allowed-failures`` times, 3 by default); a chunk
whose code raises is retried ``RETRIES`` times. A chunk's result is taken once,
whichever run gave it, so nothing is lost or counted twice.

``dask.distributed`` is an optional dependency (``pip install
'shengji[cluster]'``); it is imported only here, only when asked for.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from distributed import Client
    from rich.progress import Progress, TaskID

    from analyzer.lint import FileResult, LintOptions, LintReport

#: retries of a chunk whose code raised (a dead worker is the scheduler's business)
RETRIES = 2
#: seconds to wait for a scheduler to answer
CONNECT_TIMEOUT = 20
#: seconds a run waits while the scheduler has no worker before it gives up (``--cluster-timeout``)
WORKER_TIMEOUT = 60.0
#: seconds between two looks at the cluster while waiting for a result
POLL = 0.5
#: where a local cluster's dashboard listens unless told otherwise (``--dashboard``)
DASHBOARD = "127.0.0.1:0"
#: the loggers of dask.distributed whose lines (and tracebacks) are not the user's output
_LOGGERS = ("distributed", "distributed.client", "distributed.nanny", "distributed.scheduler",
            "distributed.worker", "distributed.core", "distributed.comm", "distributed.batched",
            "distributed.utils_perf", "distributed.shuffle", "distributed.deploy")


class ClusterError(RuntimeError):
    """The cluster cannot be used (not installed, bad address, unreachable); the message says why."""


class Job(Protocol):
    """A work unit of :func:`analyzer.lint.iter_jobs` as the cluster and the store use it:
    a file, or the byte range ``start``–``end`` of a big one, beginning at ``start_line``."""

    @property
    def index(self) -> int: ...       # the file's place in input order
    @property
    def part(self) -> int: ...        # the chunk's place within the file
    @property
    def path(self) -> str: ...
    @property
    def display(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int | None: ...
    @property
    def start_line(self) -> int: ...
    @property
    def size(self) -> int: ...


J = TypeVar("J", bound=Job)
R_ = TypeVar("R_")


class _Advance(Protocol):
    """What the lint runner needs of ``lint_paths``'s progress."""

    def advance(self, n: int) -> None: ...


#: the ``runner`` of :func:`analyzer.lint.lint_paths`: (files, sizes, options, jobs, results, stdin,
#: progress, chunk_bytes, split_bytes)
LintRunner = Callable[[Sequence[tuple[str, str]], dict[int, int], "LintOptions", int,
                       dict[int, dict[int, "FileResult"]], "Iterable[str] | None", "_Advance | None", int, int],
                      None]


def require_distributed() -> ModuleType:
    """The ``distributed`` module, or :class:`ClusterError` with the install hint."""
    try:
        import distributed
    except ImportError:
        raise ClusterError("--cluster needs dask.distributed, an optional extra: "
                           "pip install 'shengji[cluster]'") from None
    module: ModuleType = distributed  # (Any where distributed is not installed)
    return module


@dataclass(frozen=True)
class Address:
    """A parsed ``--cluster`` value: ``local`` with ``workers``, or a scheduler ``address``."""

    local: bool
    workers: int = 0
    address: str = ""

    @classmethod
    def parse(cls, text: str) -> Address:
        t = (text or "").strip()
        if t == "local" or t.startswith("local:"):
            n = t[6:] if t.startswith("local:") else ""
            if n == "":
                return cls(True, max(1, os.cpu_count() or 1))
            if not n.isdigit() or int(n) < 1:
                raise ClusterError(f"--cluster {text!r}: local:N needs a number of workers, at least 1")
            return cls(True, int(n))
        if not t:
            raise ClusterError("--cluster needs an address: local:N or a scheduler's host:port")
        if "://" not in t:
            if ":" not in t:
                raise ClusterError(f"--cluster {text!r}: a scheduler address is host:port "
                                   f"(e.g. tcp://10.0.0.5:8786), or local:N")
            t = "tcp://" + t
        return cls(False, address=t)


@contextlib.contextmanager
def connect(text: str, *, silence: bool = True, dashboard: str | None = DASHBOARD,
            on_dashboard: Callable[[str], None] | None = None) -> Iterator[Client]:
    """A ``distributed.Client`` for a ``--cluster`` value; a local cluster lives as long as the block.

    A local cluster's dashboard listens on ``dashboard`` (``host:port``; 127.0.0.1 on a free
    port by default, None for no dashboard) and ``on_dashboard(link)`` is told its address."""
    distributed = require_distributed()
    addr = Address.parse(text)
    import logging
    if silence:  # the scheduler's, workers' and client's own log lines are not the user's output
        for name in _LOGGERS:
            logging.getLogger(name).setLevel(logging.CRITICAL)
    if addr.local:
        where = _dashboard_address(dashboard)
        try:
            cluster = distributed.LocalCluster(n_workers=addr.workers, threads_per_worker=1, processes=True,
                                               dashboard_address=where, silence_logs=logging.CRITICAL)
        except Exception as exc:
            raise ClusterError(f"cannot start a local cluster of {addr.workers} workers: {exc}") from None
        try:
            link = cluster.dashboard_link if where is not None else ""
            if link and on_dashboard is not None:
                on_dashboard(link)
            with distributed.Client(cluster) as client:
                client._shengji_address = "the local cluster"  # type: ignore[attr-defined, unused-ignore]  # for messages
                yield client
        finally:
            cluster.close()
        return
    try:
        client = distributed.Client(addr.address, timeout=CONNECT_TIMEOUT)
    except Exception as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {addr.address}: {_one_line(exc)}") from None
    client._shengji_address = f"the Dask scheduler at {addr.address}"  # type: ignore[attr-defined, unused-ignore]
    try:
        yield client
    finally:
        with contextlib.suppress(Exception):
            client.close(timeout=2)


def _dashboard_address(value: str | None) -> str | None:
    """``--dashboard`` → LocalCluster's ``dashboard_address`` (None: no dashboard)."""
    if value is None or value.strip().lower() in ("", "none", "off", "no"):
        return None
    v = value.strip()
    if v.isdigit():                      # a port alone: on the loopback interface
        return f"127.0.0.1:{v}"
    if ":" not in v:
        raise ClusterError(f"--dashboard {value!r}: expected host:port (e.g. 127.0.0.1:8787), a port, or none")
    return v


def _one_line(exc: BaseException | str) -> str:
    text = exc if isinstance(exc, str) else (str(exc) or type(exc).__name__)
    return " ".join(text.split())


def _where(client: Client) -> str:
    return getattr(client, "_shengji_address", "the Dask scheduler")


def threads(client: Client) -> int:
    """Worker threads of the cluster (at least 1): how many chunks run at once."""
    try:
        n: int = sum(client.nthreads().values())  # type: ignore[no-untyped-call, unused-ignore]
        return max(1, n)
    except Exception:  # pragma: no cover - a scheduler that does not answer
        return 1


def _workers(client: Client) -> int:
    """How many workers the scheduler has now (:class:`ClusterError` when it is gone)."""
    if client.status not in ("running", "newly-created"):
        raise ClusterError(f"lost the connection to {_where(client)}")
    try:
        return len(client.scheduler_info(n_workers=-1).get("workers", {}))  # type: ignore[no-untyped-call, unused-ignore]  # (untyped in distributed 2024.1, the floor)
    except TypeError:  # pragma: no cover - an older distributed without n_workers
        return len(client.scheduler_info().get("workers", {}))  # type: ignore[no-untyped-call, unused-ignore]
    except Exception:
        raise ClusterError(f"lost the connection to {_where(client)}") from None


def run_jobs(client: Client, jobs_iter: Iterable[J], fn: Callable[..., R_], args: tuple[object, ...],
             on_result: Callable[[J, R_], None], *, in_flight: int, key_prefix: str = "shengji",
             worker_timeout: float = WORKER_TIMEOUT) -> None:
    """Submit ``fn(job, *args)`` for every job of ``jobs_iter`` (at most ``in_flight`` at
    once) and call ``on_result(job, result)`` once per job, as they finish.

    Never waits for ever: :class:`ClusterError` when the scheduler has had no worker
    for ``worker_timeout`` seconds while work is pending, or when the scheduler is lost."""
    distributed = require_distributed()
    import time
    import uuid
    from concurrent.futures import CancelledError
    run = uuid.uuid4().hex[:8]
    pending: dict[Any, J] = {}   # future → its job
    no_worker_since: list[float | None] = [None]

    def check() -> None:
        if _workers(client):
            no_worker_since[0] = None
            return
        now = time.monotonic()
        since = no_worker_since[0]
        if since is None:
            no_worker_since[0] = now
        elif now - since >= worker_timeout:
            raise ClusterError(f"no Dask worker at {_where(client)} for {worker_timeout:g} s; "
                               f"start workers (dask worker ADDRESS) or raise --cluster-timeout")

    def take_one() -> None:
        while True:
            try:
                done, _ = distributed.wait(list(pending), timeout=POLL, return_when="FIRST_COMPLETED")
            except (TimeoutError, distributed.TimeoutError):
                check()
                continue
            except CancelledError:
                done = {f for f in pending if f.done()}
            if done:
                break
        for fut in done:
            job = pending.pop(fut)
            try:
                result = fut.result()
            except CancelledError:
                raise ClusterError(f"lost the connection to {_where(client)}") from None
            except Exception as exc:
                if client.status not in ("running",):
                    raise ClusterError(f"lost the connection to {_where(client)}") from None
                where = getattr(job, "display", "?")
                chunked = getattr(job, "end", None) is not None or bool(getattr(job, "part", 0))
                part = f" (chunk {job.part + 1})" if chunked else ""
                raise ClusterError(f"{where}{part} failed on the cluster after retries: "
                                   f"{type(exc).__name__}: {_one_line(exc)}") from None
            finally:
                fut.release()
            on_result(job, result)

    for n, job in enumerate(jobs_iter):
        while len(pending) >= in_flight:
            take_one()
        try:
            fut = client.submit(fn, job, *args, key=f"{key_prefix}-{run}-{n}", pure=False, retries=RETRIES)  # type: ignore[no-untyped-call, unused-ignore]
        except Exception:
            if client.status != "running":
                raise ClusterError(f"lost the connection to {_where(client)}") from None
            raise
        pending[fut] = job
    while pending:
        take_one()


def lint_runner(client: Client, *, on_chunk: Callable[[Job], None] | None = None,
                fn: Callable[[Any, LintOptions], FileResult] | None = None,
                worker_timeout: float = WORKER_TIMEOUT) -> LintRunner:
    """A ``runner`` for :func:`analyzer.lint.lint_paths` that runs its jobs on ``client``'s cluster.

    ``on_chunk(job)`` is called as each chunk's findings come back (progress per
    chunk). ``fn(job, options)`` replaces the chunk function (tests wrap it).
    Workers get absolute paths (they may run in another directory); the
    findings keep the names as given."""
    from analyzer import lint as L
    fn = fn or L._run_job

    def runner(files: Sequence[tuple[str, str]], sizes: dict[int, int], options: LintOptions, jobs: int,
               results: dict[int, dict[int, FileResult]], stdin: Iterable[str] | None, progress: _Advance | None,
               chunk_bytes: int, split_bytes: int) -> None:
        n = threads(client)

        def on_result(job: Job, result: FileResult) -> None:
            results[job.index][job.part] = result
            if progress is not None:
                progress.advance(job.size)
            if on_chunk is not None:
                on_chunk(job)

        jobs_iter = (_absolute(job) for job in
                     L.iter_jobs(files, sizes, options, n, results, stdin, chunk_bytes, split_bytes))
        run_jobs(client, jobs_iter, fn, (options,), on_result, in_flight=4 * n, key_prefix="shengji-lint",
                 worker_timeout=worker_timeout)
    return runner


def _absolute(job: J) -> J:
    """``job`` with an absolute path (its display name unchanged)."""
    import dataclasses
    path = os.path.abspath(job.path)
    if path == job.path or not dataclasses.is_dataclass(job):
        return job
    return dataclasses.replace(job, path=path)  # type: ignore[type-var, unused-ignore]  # a dataclass Job


class ChunkProgress:
    """Progress per chunk on stderr: a Rich bar on a terminal, else nothing (a
    ``progress`` for :func:`analyzer.lint.lint_paths` plus ``on_chunk``)."""

    def __init__(self, label: str = "chunks") -> None:
        self.label = label
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        self.chunks = 0

    def start(self, total: int) -> None:
        import sys
        if not sys.stderr.isatty():
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )
        progress = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(),
                            TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        self._progress = progress
        progress.start()
        self._task = progress.add_task(f"0 {self.label}", total=max(total, 1))

    def advance(self, n: int) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task, n)

    def on_chunk(self, job: Job) -> None:
        self.chunks += 1
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, description=f"{self.chunks} {self.label}")

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def lint_on_cluster(paths: Iterable[str], options: LintOptions, address: str, *,  # (kwargs: lint_paths')
                    progress: ChunkProgress | None = None, worker_timeout: float = WORKER_TIMEOUT,
                    dashboard: str | None = DASHBOARD, on_dashboard: Callable[[str], None] | None = None,
                    **kwargs: Any) -> LintReport:
    """:func:`analyzer.lint.lint_paths` with its chunks run on the cluster at ``address``.

    Raises :class:`ClusterError` when the cluster cannot be used, has had no
    worker for ``worker_timeout`` seconds, was lost, or a chunk failed on every try."""
    from analyzer import lint as L
    with connect(address, dashboard=dashboard, on_dashboard=on_dashboard) as client:
        try:
            # ChunkProgress has every method of lint's Progress, a base class rather than a Protocol
            return L.lint_paths(paths, options, progress=progress, runner=lint_runner(  # type: ignore[arg-type, unused-ignore]
                client, on_chunk=getattr(progress, "on_chunk", None), worker_timeout=worker_timeout), **kwargs)
        except ClusterError:
            raise
        except Exception as exc:   # the scheduler went away (CancelledError, OSError, TimeoutError …)
            if client.status != "running":
                raise ClusterError(f"lost the connection to {_where(client)}") from None
            raise ClusterError(f"the cluster run failed: {type(exc).__name__}: {_one_line(exc)}") from None
