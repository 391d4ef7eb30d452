"""The command starts its workers first thing (``analyzer.store.workers.start_early``):
forked from its own process while that runs one thread, else from the forkserver; an
export then takes that pool, and one that does not need it shuts it down."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_PROBE = """
import json, sys, threading
from analyzer.store import workers as W
if sys.argv[1] == "thread":                 # a thread runs already (as pyarrow's would)
    stop = threading.Event()
    threading.Thread(target=stop.wait, daemon=True).start()
jobs, size = int(sys.argv[2]), int(sys.argv[3])
started = W.start_early(jobs, [size], 1 << 20)
early = W._early
method = early[1]._mp_context.get_start_method() if early else None
taken = W.worker_pool(int(sys.argv[5]) if len(sys.argv) > 5 else jobs) if sys.argv[4] == "take" else None
if taken is not None:
    answer = taken.submit(sum, [1, 2]).result()
    taken.shutdown()
else:
    answer = None
W.stop_early()
from multiprocessing import forkserver
print(json.dumps({"started": started, "method": method, "taken": taken is not None and early is not None
                  and taken is early[1], "answer": answer, "left": W._early is not None,
                  "forkserver": forkserver._forkserver._forkserver_pid is not None}))
if sys.argv[1] == "thread":
    stop.set()
"""


def probe(*args: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, env=env,
                       timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="threads counted from /proc (Linux)")
@pytest.mark.parametrize(("threads", "jobs", "size", "take", "expected"), [
    # the export's pool has another number of workers: one of its own (from the forkserver), the early one
    # shut down
    ("one", 2, 4 << 20, ("take", "3"), {"started": True, "method": "fork", "taken": False, "answer": 3,
                                        "left": False, "forkserver": True}),
    # one thread: the workers forked from this process, the export's pool is that one
    ("one", 2, 4 << 20, "take", {"started": True, "method": "fork", "taken": True, "answer": 3,
                                 "left": False, "forkserver": False}),
    # not taken (nothing new to export): shut down at the end
    ("one", 2, 4 << 20, "leave", {"started": True, "method": "fork", "taken": False, "answer": None,
                                  "left": False, "forkserver": False}),
    # a thread runs: no fork; the forkserver started instead
    ("thread", 2, 4 << 20, "take", {"started": True, "method": None, "taken": False, "answer": 3,
                                    "left": False, "forkserver": True}),
    # too little to share, or --jobs 1: nothing started
    ("one", 2, 100 << 10, "leave", {"started": False, "method": None, "taken": False, "answer": None,
                                    "left": False, "forkserver": False}),
    ("one", 1, 4 << 20, "leave", {"started": False, "method": None, "taken": False, "answer": None,
                                  "left": False, "forkserver": False}),
])
def test_start_early(threads, jobs, size, take, expected):
    assert probe(threads, str(jobs), str(size), *([take] if isinstance(take, str) else take)) == expected
