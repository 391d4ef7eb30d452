"""`lint --cluster` against real `dask scheduler` / `dask worker` processes on loopback
(issue 34): it never hangs, a lost scheduler is one line, workers started in another
directory see the files, a local cluster's dashboard is on 127.0.0.1 and printed.

Every process is started here, bounded by timeouts, and killed at the end.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from analyzer.play.generate import generate_match
from notation import write

ROOT = Path(__file__).resolve().parents[2]
DASK = shutil.which("dask") or str(Path(sys.executable).with_name("dask"))
pytestmark = pytest.mark.skipif(not os.path.exists(DASK), reason="no dask command")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError("the scheduler exited")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the scheduler did not start")


class Procs:
    def __init__(self) -> None:
        self.procs: list[subprocess.Popen] = []

    def start(self, args: list[str], cwd: Path) -> subprocess.Popen:
        p = subprocess.Popen(args, cwd=cwd, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
        self.procs.append(p)
        return p

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                with_suppress_kill(p)


def with_suppress_kill(p: subprocess.Popen) -> None:
    try:
        os.killpg(p.pid, signal.SIGKILL)   # the worker's nanny and its child too
    except OSError:
        pass
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover
        pass


@pytest.fixture
def procs():
    ps = Procs()
    try:
        yield ps
    finally:
        ps.stop()


@pytest.fixture
def scheduler(procs, tmp_path):
    port = _free_port()
    p = procs.start([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], tmp_path)
    _wait_port(port, p)
    return f"tcp://127.0.0.1:{port}", p


def lint(args: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "analyzer", "lint", *args], cwd=cwd, env=_env(),
                          capture_output=True, text=True, timeout=timeout)


def _corpus(root: Path) -> list[str]:
    games = root / "games"
    games.mkdir()
    for k in range(2):
        text = write(generate_match("standard", hands=1, seed=40 + k))
        text = text.replace("points ", "points 1", 1)          # a finding (SJ501)
        (games / f"g{k}.sjn").write_text(text, encoding="utf-8")
    return [f"games/g{k}.sjn" for k in range(2)]


def test_no_worker_is_one_line_and_exit_2(scheduler, tmp_path):
    address, _ = scheduler
    paths = _corpus(tmp_path)
    t = time.monotonic()
    r = lint(["--cluster", address, "--cluster-timeout", "2", *paths], tmp_path, timeout=90)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "no Dask worker" in lines[0] and "--cluster-timeout" in lines[0], r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert time.monotonic() - t < 60


def test_a_lost_scheduler_is_one_line_and_exit_2(scheduler, tmp_path):
    address, sched = scheduler
    paths = _corpus(tmp_path)
    p = subprocess.Popen([sys.executable, "-m", "analyzer", "lint", "--cluster", address, *paths], cwd=tmp_path,
                         env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(6)                      # connected, waiting for a worker (none: the default wait is 60 s)
        assert p.poll() is None
        os.killpg(sched.pid, signal.SIGKILL)
        _out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "lost the connection to the Dask scheduler at" in lines[0], err
    assert "Traceback" not in err


def test_a_worker_in_another_directory_reads_relative_paths(scheduler, procs, tmp_path):
    address, _ = scheduler
    paths = _corpus(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    procs.start([DASK, "worker", address, "--nthreads", "1", "--no-dashboard", "--local-directory",
                 str(elsewhere)], elsewhere)
    one = lint(["--jobs", "1", *paths], tmp_path)
    many = lint(["--cluster", address, "--cluster-timeout", "60", *paths], tmp_path)
    assert one.returncode == 1 and "SJ501" in one.stdout
    assert (many.returncode, many.stdout) == (one.returncode, one.stdout), many.stderr
    assert "games/g0.sjn:" in many.stdout          # the names as given, not the absolute paths


def test_a_local_cluster_dashboard_is_on_loopback_and_printed(tmp_path):
    paths = _corpus(tmp_path)
    r = lint(["--cluster", "local:1", *paths], tmp_path)
    assert r.returncode == 1, r.stderr
    dash = [ln for ln in r.stderr.splitlines() if "Dask dashboard" in ln]
    assert len(dash) == 1 and "http://127.0.0.1:" in dash[0], r.stderr
    assert "Traceback" not in r.stderr
    off = lint(["--cluster", "local:1", "--dashboard", "none", *paths], tmp_path)
    assert off.returncode == 1 and "Dask dashboard" not in off.stderr
    bad = lint(["--cluster", "local:1", "--dashboard", "nowhere", *paths], tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--dashboard" in bad.stderr


def test_the_cluster_extra_brings_the_dashboard():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(d.startswith("dask[distributed]") for d in extras["cluster"])
    assert any(d.startswith("bokeh") for d in extras["cluster"])   # the dashboard needs bokeh
