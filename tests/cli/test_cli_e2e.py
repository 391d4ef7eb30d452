"""End to end: the installed ``shengji`` console script in a subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from cli_helpers import FIXTURES

SCRIPT = shutil.which("shengji")

pytestmark = pytest.mark.skipif(SCRIPT is None, reason="the shengji console script is not on PATH "
                                                       "(run `pip install -e .` first)")


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    return subprocess.run([SCRIPT, *args], cwd=FIXTURES, env=env, input=stdin, capture_output=True,
                          text=True, timeout=60)


def test_version():
    p = _run("--version")
    assert p.returncode == 0 and p.stdout.startswith("shengji ")


def test_lint_exit_codes():
    p = _run("lint", "clean.sjn")
    assert p.returncode == 0 and p.stdout == "All checks passed (1 record).\n"
    p = _run("lint", "errors.sjn", "partial.sjn", "--jobs", "2")
    assert p.returncode == 1
    assert p.stdout.splitlines()[0].startswith("errors.sjn:21:11: SJ403 ")
    assert p.stdout.splitlines()[-1] == "Found 3 errors, 2 warnings in 2 files (3 records)."
    assert p.stderr == ""  # no progress bar and no colour in a pipe
    p = _run("lint", "missing.sjn")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
