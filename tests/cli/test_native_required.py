"""``SHENGJI_NATIVE=1`` with the extension missing is a set-up error the user can act on
(one line, exit 2, what to do), not internal error SJ901 ("a bug in shengji"), and no
command quietly works around it (``report --mistakes`` used to say the review was "not
available yet" and go on without it). Found by ``bench/hostile_sweep.py`` run with
``SHENGJI_NATIVE=1`` and no extension on the path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "matches" / "one-deck.sjn"

#: run before the command: the extension cannot be imported whether or not it is installed
HIDE = ("import sys, runpy; sys.modules['shengji_native'] = None; sys.argv[0] = 'shengji'; "
        "runpy.run_module('analyzer', run_name='__main__')")


def shengji(*args: str, setting: str = "1") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SHENGJI_NATIVE": setting, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", HIDE, *args], capture_output=True, text=True, env=env,
                          timeout=120, cwd=ROOT)


@pytest.mark.parametrize("args", [
    ("report", str(SAMPLE), "--mistakes"),
    ("annotate", str(SAMPLE), "--endgame", "0", "-o", "-"),
])
def test_required_but_missing_is_one_line_not_a_bug(args):
    r = shengji(*args)
    assert r.returncode == 2, r.stderr
    assert "SHENGJI_NATIVE=1 but the shengji-native extension is missing" in r.stderr
    assert "unset SHENGJI_NATIVE" in r.stderr
    assert "SJ901" not in r.stderr and "Traceback" not in r.stderr and "not available yet" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_version_says_no_search_when_required_but_missing():
    r = shengji("--version")
    assert r.returncode == 0
    assert "search: none (SHENGJI_NATIVE=1 but the shengji-native extension is missing)" in r.stdout


def test_not_required_falls_back_to_python():
    r = shengji("--version", setting="")
    assert r.returncode == 0 and "search: python (the shengji-native extension is not installed)" in r.stdout
    # (every command without the extension: the suite's Python leg, SHENGJI_NATIVE=0)
