"""The full review in worker processes (``review_full(jobs=N)``, issue 32): the
same findings and per-hand reviews as in one process, gathered in hand order;
progress once per hand; a worker that dies is one error, not a hang."""

from __future__ import annotations

import os
import pickle
import signal
import time
from pathlib import Path

import pytest

from analyzer.io.inputs import Source
from analyzer.review.mistakes import full, review_full, workers
from analyzer.review.mistakes.workers import WorkerDied
from replay.game import replay

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "matches"


def _match(name: str):
    rec = next(r for r, _ in Source(str(SAMPLES / name)).records() if r is not None)
    return rec, replay(rec)


@pytest.mark.parametrize("name, samples", [
    ("one-deck.sjn", 2),             # three fixed-partner hands (exact window, bury, declarations)
    ("shengji-io-friends.sjn", 1),   # three finding-friends hands (play-outs, no window)
])
def test_workers_give_the_review_of_one_process(name, samples):
    rec, match = _match(name)
    assert len(match.hands) >= 3
    seen: list[int] = []
    one = review_full(match, record=rec, samples=samples, jobs=1)
    two = review_full(match, record=rec, samples=samples, jobs=2, on_hand=lambda i, n: seen.append((i, n)))
    assert two.findings == one.findings and two.findings
    assert [h.number for h in two.hands] == [h.number for h in one.hands] == [h.number for h in match.hands]
    assert two.hands == one.hands          # every decision, its options and values
    assert two.summary == one.summary
    # progress: once per hand, as each comes back (whatever the order)
    assert sorted(seen) == [(i, len(match.hands)) for i in range(len(match.hands))]


def test_one_process_reports_each_hand_after_it_is_reviewed(monkeypatch):
    rec, match = _match("one-deck.sjn")
    events: list[tuple[str, int]] = []
    real = full.review_hand

    def spy(m, index, **kw):
        events.append(("review", index))
        return real(m, index, **kw)
    monkeypatch.setattr(full, "review_hand", spy)
    review_full(match, record=rec, samples=0, endgame_tricks=0, on_hand=lambda i, n: events.append(("done", i)))
    assert events == [(what, i) for i in range(len(match.hands)) for what in ("review", "done")]


def test_one_hand_or_one_job_uses_no_worker(monkeypatch):
    rec, match = _match("one-deck.sjn")

    def no_workers(*a, **k):
        raise AssertionError("workers started")
    import analyzer.review.mistakes.workers as W
    monkeypatch.setattr(W, "review_in_workers", no_workers)
    review_full(match, record=rec, samples=0, endgame_tricks=0, jobs=1)
    one = replay(rec)
    one.hands[:] = one.hands[:1]
    review_full(one, record=rec, samples=0, endgame_tricks=0, jobs=4)
    with pytest.raises(AssertionError, match="workers started"):
        review_full(match, record=rec, samples=0, endgame_tricks=0, jobs=2)


def _die(match, index, **kw):
    """A hand's review whose worker dies (as one killed, or out of memory, would)."""
    os._exit(1)


def test_a_worker_that_dies_ends_the_review_with_one_error(monkeypatch):
    rec, match = _match("one-deck.sjn")
    monkeypatch.setattr(full, "review_hand", _die)
    with pytest.raises(WorkerDied) as err:
        review_full(match, record=rec, samples=0, jobs=2)
    assert err.value.code == 2 and "\n" not in err.value.message
    assert "review worker process ended abruptly" in err.value.message


def _fails(match, index, **kw):
    raise ValueError(f"hand {index}")


def test_an_error_in_a_hand_comes_back_as_it_would_in_one_process(monkeypatch):
    rec, match = _match("one-deck.sjn")
    monkeypatch.setattr(full, "review_hand", _fails)
    with pytest.raises(ValueError, match=r"hand \d"):
        review_full(match, record=rec, samples=0, jobs=2)


def _last_first(match, index, **kw):
    """A stand-in hand review that ends sooner the later its hand: the workers
    finish the hands in reverse order."""
    time.sleep(1.0 * (len(match.hands) - 1 - index))
    return [index], index


def test_results_come_in_hand_order_whatever_order_the_workers_finish():
    _rec, match = _match("one-deck.sjn")
    n = len(match.hands)
    seen: list[int] = []
    got = workers.review_in_workers(_last_first, match, None, {}, n, on_hand=lambda i, _n: seen.append(i))
    assert got == [([i], i) for i in range(n)]
    assert seen == list(reversed(range(n)))     # progress as they finish


def test_a_worker_ignores_ctrl_c():
    old = signal.getsignal(signal.SIGINT)
    try:
        workers._init(pickle.dumps((_die, None, None, {})))
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert workers._STATE is not None and workers._STATE[0] is _die
    finally:
        signal.signal(signal.SIGINT, old)
        workers._STATE = None


_FORKSERVER_PROBE = """
import os, sys
from analyzer.review.mistakes import workers
workers._start_forkserver()
for d in os.listdir('/proc'):
    if d.isdigit():
        try:
            stat = open(f'/proc/{d}/stat').read()
            cmd = open(f'/proc/{d}/cmdline', 'rb').read()
        except OSError:
            continue
        if int(stat.rsplit(')', 1)[1].split()[1]) == os.getpid() and b'forkserver' in cmd:
            status = open(f'/proc/{d}/status').read()
            ignored = int(next(l for l in status.splitlines() if l.startswith('SigIgn:')).split()[1], 16)
            print(os.readlink(f'/proc/{d}/fd/2'), bool(ignored & (1 << 1)))
print(os.readlink('/proc/self/fd/2') != '/dev/null', __import__('signal').getsignal(2) is not __import__('signal').SIG_IGN)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
def test_the_forkserver_is_quiet_and_ignores_ctrl_c():
    """The workers' forkserver (and so every worker) writes nowhere and ignores
    SIGINT from its start; this process has its stderr and Ctrl-C back."""
    import signal
    import subprocess
    import sys

    def terminal_sigint() -> None:   # as from a terminal (a background job inherits SIGINT ignored)
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    r = subprocess.run([sys.executable, "-c", _FORKSERVER_PROBE], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
                       preexec_fn=terminal_sigint)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["/dev/null True", "True True"]
