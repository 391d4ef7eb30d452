"""The command starts the workers' forkserver first thing (``analyzer.store.workers.start_early``),
before it imports pyarrow, when the export will use workers; never for ``--jobs 1`` or a
small input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_PROBE = """
import json, sys
from multiprocessing import forkserver
from analyzer.store import workers as W
jobs, size = int(sys.argv[1]), int(sys.argv[2])
started = W.start_early(jobs, [size], 1 << 20)
running = forkserver._forkserver._forkserver_pid is not None
answer = None
if sys.argv[3] == "use":            # the export's pool forks from that forkserver
    with W.worker_pool(jobs) as pool:
        answer = pool.submit(sum, [1, 2]).result()
print(json.dumps({"started": started, "running": running, "answer": answer,
                  "pyarrow": "pyarrow" in sys.modules}))
"""


def probe(*args: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, env=env,
                       timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(sys.platform == "win32", reason="no forkserver")
@pytest.mark.parametrize(("jobs", "size", "use", "expected"), [
    (2, 4 << 20, "use", {"started": True, "running": True, "answer": 3, "pyarrow": False}),
    (2, 4 << 20, "leave", {"started": True, "running": True, "answer": None, "pyarrow": False}),
    # too little to share, or --jobs 1: nothing started
    (2, 100 << 10, "leave", {"started": False, "running": False, "answer": None, "pyarrow": False}),
    (1, 4 << 20, "leave", {"started": False, "running": False, "answer": None, "pyarrow": False}),
])
def test_start_early(jobs, size, use, expected):
    assert probe(str(jobs), str(size), use) == expected
