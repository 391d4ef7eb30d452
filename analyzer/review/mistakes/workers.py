"""The full review in worker processes (``shengji report --mistakes --jobs N``,
``shengji annotate --jobs N``; :func:`analyzer.review.mistakes.full.full_review`
with ``jobs``): one task per hand, the results gathered **in hand order**, so the
review is the same whatever the number of workers (every hand's review is
deterministic: its samples are seeded per decision, and it reads its own hand only).

What crosses to a worker: the match's result, its record and the review's options
(with the function that reviews a hand, by name), pickled **once** in this process
(about 14 KB and 1–2 ms a hand) and handed to each worker's initializer as bytes; a
task is then only a hand's index, and a result is that hand's findings and
:class:`~analyzer.review.mistakes.summary.HandReview` with its decisions. Re-reading
and replaying the record in each worker would cost about as little (a few ms a
match), but the match may have been replayed under other rules (``--rules``), read
from another program's log, or built by a library caller: the result itself is what
the review was asked about, and it needs no reader in the worker.

The workers come from a *forkserver* (where the platform has one; else the
platform's default start), never forked from the reviewing process: that one may
run a progress bar's thread (Rich), which a fork can leave half-held. The
forkserver imports the review once (:data:`PRELOAD`); each worker forks from it,
and one forkserver serves every record of a file. A worker ignores Ctrl-C (SIGINT
goes to the whole process group): this process stops the workers and the command
exits as any interrupted command does (130). A worker that dies (killed, out of
memory) ends the review with :class:`WorkerDied` (one line, exit status 2); a
reviewing process killed outright (SIGKILL: it cannot stop its workers) leaves
none behind, each worker watching it (:func:`_end_with`); an
error inside a hand's review comes back to this process and is told as with one
process (an internal error, SJ901)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from analyzer.io.errors import UserError

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import ProcessPoolExecutor

    from analyzer.review.mistakes.findings import Mistake
    from analyzer.review.mistakes.summary import HandReview
    from notation.model import Record
    from replay.results import MatchResult

#: the modules the forkserver imports once for all its workers
PRELOAD = ("analyzer.review.mistakes", "analyzer.review.mistakes.full", "analyzer.review.mistakes.workers")

HandResult = tuple[list["Mistake"], "HandReview"]


class WorkerDied(UserError):
    """A review worker process ended abruptly (killed, out of memory): exit status 2."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"a review worker process ended abruptly ({detail}); the review stopped "
                         f"(--jobs 1 reviews in one process)", 2)


#: in a worker: (a hand's review, match result, record, review options), from the initializer
_STATE: tuple[Callable[..., HandResult], Any, Any, dict[str, Any]] | None = None


def _init(blob: bytes, owner: int | None = None) -> None:
    """A worker's start: Ctrl-C is the reviewing process's to handle; the match, once;
    the worker ends with ``owner`` (the reviewing process), however that one ends."""
    import pickle
    import signal
    global _STATE
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if owner is not None:
        import threading
        threading.Thread(target=_end_with, args=(owner,), name="owner-watch", daemon=True).start()
    _STATE = pickle.loads(blob)


def _end_with(pid: int) -> None:
    """In a worker: exit as soon as process ``pid`` has ended. A worker waits for its
    next hand on a pipe it holds both ends of, so a reviewing process killed outright
    (SIGKILL, the out-of-memory killer: no chance to stop its workers) would leave it
    waiting for ever, and its forkserver with it."""
    import os
    import select
    import time
    try:
        fd = os.pidfd_open(pid)      # (Linux 5.3+: readable once the process has ended)
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        select.select([fd], [], [])
    else:
        while True:
            time.sleep(1.0)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            except OSError:
                pass
    os._exit(3)


def _review(index: int) -> HandResult:
    """Hand ``index``'s review, in a worker."""
    assert _STATE is not None
    review_hand, match, record, kw = _STATE
    return review_hand(match, index, record=record, **kw)


def pool(jobs: int, blob: bytes) -> ProcessPoolExecutor:
    """``jobs`` review workers, each given ``blob`` (the pickled match) once, each
    ending with this process."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor
    ctx = None
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(list(PRELOAD))    # (ignored if this process's forkserver runs already)
        _start_forkserver()
    import os
    return ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init, initargs=(blob, os.getpid()))


def _start_forkserver() -> None:
    """The forkserver (and multiprocessing's resource tracker, started with it) as
    quiet helpers: started with Ctrl-C ignored from their first instruction (they
    inherit SIGINT's disposition, and so do the workers forked from the forkserver),
    and with their stderr on the null device. A Ctrl-C while the forkserver imports
    :data:`PRELOAD`, or a worker still starting when this process stops, would
    otherwise print a traceback; a worker's own error comes back to this process
    (its hand's exception, or :class:`WorkerDied`), never through its stderr. This
    process ignores SIGINT, and its stderr goes nowhere, only for the few
    milliseconds of the start (nothing happens if the forkserver runs already)."""
    import os
    import signal
    import threading
    from multiprocessing import forkserver
    main = threading.current_thread() is threading.main_thread()   # (signal.signal: the main thread's)
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    saved = None
    try:
        try:
            sys.stderr.flush()
            saved = os.dup(2)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 2)
            os.close(null)
        except (OSError, ValueError, AttributeError):   # (no stderr, or a closed one: nothing to quiet)
            pass
        forkserver.ensure_running()
    finally:
        if saved is not None:
            os.dup2(saved, 2)
            os.close(saved)
        if main:
            signal.signal(signal.SIGINT, old if old is not None else signal.SIG_DFL)


def review_in_workers(review_hand: Callable[..., HandResult], match_result: MatchResult, record: Record | None,
                      kw: dict[str, Any], jobs: int, *,
                      on_hand: Callable[[int, int], None] | None = None) -> list[HandResult]:
    """Every hand's ``review_hand(match_result, i, record=record, **kw)``
    (:func:`analyzer.review.mistakes.full.review_hand`: a module's function, which
    pickles by name) in ``jobs`` worker processes (at most one a hand), in hand
    order; ``on_hand(i, total)`` as each hand comes back."""
    import pickle
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool
    total = len(match_result.hands)
    blob = pickle.dumps((review_hand, match_result, record, kw), protocol=pickle.HIGHEST_PROTOCOL)
    results: dict[int, HandResult] = {}
    workers = pool(min(jobs, total), blob)
    try:
        pending = {workers.submit(_review, i): i for i in range(total)}
        while pending:
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in sorted(done, key=lambda f: pending[f]):
                i = pending.pop(fut)
                results[i] = fut.result()
                if on_hand is not None:
                    on_hand(i, total)
    except BrokenProcessPool:
        _stop(workers)
        raise WorkerDied("killed, or out of memory?") from None
    except BaseException:   # Ctrl-C, a closed pipe in on_hand, a bug in a hand's review: no worker is left
        _stop(workers)
        raise
    workers.shutdown(wait=True)
    return [results[i] for i in range(total)]


def _stop(workers: ProcessPoolExecutor) -> None:
    """The workers ended now, their queued hands dropped (not waited for)."""
    procs = dict(getattr(workers, "_processes", None) or {})   # (shutdown lets go of them)
    workers.shutdown(wait=False, cancel_futures=True)
    for p in list(procs.values()):
        try:
            p.terminate()
        except (OSError, ValueError, AttributeError):   # (already gone)
            pass
    for p in list(procs.values()):
        try:
            p.join(5)
        except (OSError, ValueError, AttributeError, AssertionError):
            pass


__all__ = ["review_in_workers", "WorkerDied", "PRELOAD", "pool"]
