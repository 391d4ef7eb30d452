"""``report --mistakes --jobs N`` and ``annotate --jobs N`` (issue 32): the review
in worker processes writes what one process writes, byte for byte; a worker that
dies is one line and exit 2; Ctrl-C stops the workers with no traceback."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import ENV, FIXTURES

from analyzer.review.mistakes import full

ROOT = Path(__file__).resolve().parents[2]
_TURN = {"S": "E", "E": "N", "N": "W", "W": "S"}


def two_hands() -> str:
    """clean.sjn's hand, then the same deal turned one seat on (E deals hand 2, as
    the first hand makes it): a small two-hand match (one-deck, 12 tricks a hand)."""
    text = (FIXTURES / "clean.sjn").read_text(encoding="utf-8")
    head, hand = text.split("\nhand 1\n")
    turned = re.sub(r"\b([SENW])(?=:)", lambda m: _TURN[m.group(1)], hand)
    turned = re.sub(r"^dealer ([SENW])", lambda m: f"dealer {_TURN[m.group(1)]}", turned, flags=re.M)
    return f"{head}\nhand 1\n{hand}\nhand 2\n{turned}"


@pytest.fixture
def match2(work: Path) -> Path:
    path = work / "two.sjn"
    path.write_text(two_hands(), encoding="utf-8")
    return path


def test_the_two_hand_match_is_clean(run_in, match2):
    r = run_in("lint", "two.sjn")
    assert "All checks passed" in r.stdout


@pytest.mark.parametrize("command", ["report", "annotate"])
def test_jobs_is_in_the_help(run, command):
    out = run(command, "--help").stdout
    assert "--jobs" in out and "-j" in out and "all cores" in out


def test_report_json_with_two_workers_is_the_one_process_report(run_in, match2):
    one = run_in("report", "two.sjn", "--mistakes", "-f", "json", "--jobs", "1", "--no-progress")
    two = run_in("report", "two.sjn", "--mistakes", "-f", "json", "-j", "2", "--no-progress")
    assert '"review"' in one.stdout and one.stdout.count('"number":') >= 2
    assert two.stdout == one.stdout and two.stderr == one.stderr


def test_annotate_with_two_workers_is_the_one_process_annotate(run_in, match2):
    one = run_in("annotate", "two.sjn", "-j", "1", "--no-progress")
    two = run_in("annotate", "two.sjn", "-j", "2", "--no-progress")
    assert "{SJ6" in one.stdout and "hand 2 (" in one.stderr
    assert (two.stdout, two.stderr) == (one.stdout, one.stderr)


def test_jobs_must_be_positive(run_in, match2):
    r = run_in("annotate", "two.sjn", "-j", "0", code=2)
    assert "--jobs" in r.stderr


def _die(match, index, **kw):
    """A hand's review whose worker dies (as one killed, or out of memory, would)."""
    os._exit(1)


@pytest.mark.parametrize("args", [("annotate", "two.sjn"), ("report", "two.sjn", "--mistakes")])
def test_a_worker_that_dies_is_one_line_and_exit_2(run_in, match2, monkeypatch, args):
    monkeypatch.setattr(full, "review_hand", _die)
    r = run_in(*args, "-j", "2", "--no-progress", code=2)
    assert r.stdout == ""
    assert r.stderr == ("shengji: error: a review worker process ended abruptly (killed, or out of memory?); "
                        "the review stopped (--jobs 1 reviews in one process)\n")


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text(encoding="ascii", errors="replace")
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:   # (field 4: the parent)
                out.append(int(d))
    return out


def _forkserver(pid: int, *, workers: bool) -> bool:
    """Has ``pid`` a multiprocessing forkserver (with a worker forked from it)?"""
    for c in _children(pid):
        try:
            cmd = Path(f"/proc/{c}/cmdline").read_bytes()
        except OSError:
            continue
        if b"forkserver" in cmd and (not workers or _children(c)):
            return True
    return False


def _terminal_sigint() -> None:
    """In the child, before the command starts: Ctrl-C as a terminal's shell leaves it to a
    foreground command (a test run from a background job inherits SIGINT ignored, which a
    Python process keeps)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _long_match(tmp_path: Path) -> Path:
    """The standard sample four times over (twelve two-deck hands): a review that lasts
    seconds even with the native core."""
    text = (ROOT / "samples" / "matches" / "standard.sjn").read_text(encoding="utf-8").strip() + "\n"
    path = tmp_path / "long.sjn"
    path.write_text("\n".join([text] * 4), encoding="utf-8")
    return path


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
@pytest.mark.parametrize("when", [
    "starting",   # the first worker was just forked: it is still starting
    "working",    # the workers review hands (two-deck hands: seconds each)
])
def test_ctrl_c_stops_the_workers_at_once_with_no_traceback(when, tmp_path):
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    match = _long_match(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "annotate", str(match), "-j", "2", "--no-progress"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_terminal_sigint)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and not _forkserver(proc.pid, workers=True):
        time.sleep(0.005)
    assert proc.poll() is None, "the review ended before its workers were seen"
    if when == "working":
        time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)     # as a terminal's Ctrl-C: to the whole process group
    sent = time.monotonic()
    try:
        out, err = proc.communicate(timeout=60)
        # the hands under review are dropped, not waited for (a two-deck hand takes seconds)
        assert time.monotonic() - sent < 3
        assert proc.returncode == 130, err
        assert "Traceback" not in out + err and 'File "' not in err, err
        assert out == ""
        _group_ends(proc.pid, 3, "processes of the review are left after Ctrl-C")   # the forkserver and the workers too
    finally:
        _kill_group(proc.pid)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_a_command_killed_outright_leaves_no_worker(tmp_path):
    """SIGKILL (or the out-of-memory killer) gives the command no chance to stop its
    workers: each ends by itself with the command, and the forkserver with them."""
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    match = _long_match(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "annotate", str(match), "-j", "2", "--no-progress"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and not _forkserver(proc.pid, workers=True):
        time.sleep(0.01)
    assert proc.poll() is None, "the review ended before its workers were seen"
    time.sleep(0.5)
    proc.kill()
    proc.wait()
    try:
        _group_ends(proc.pid, 5, "workers of a killed command are left")
    finally:
        _kill_group(proc.pid)


def _group_ends(pgid: int, within: float, message: str) -> None:
    """Fails with ``message`` unless process group ``pgid`` is gone within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    pytest.fail(message)


def _kill_group(pgid: int) -> None:
    """Whatever is left of process group ``pgid`` (so that a failure leaves nothing)."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass
