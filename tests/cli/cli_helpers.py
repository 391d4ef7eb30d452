"""Shared helpers of the command-line tests (imported by conftest.py and the tests).

Commands run in-process through Typer's ``CliRunner``, in the fixtures
directory (so paths in the output are short and stable), with ``NO_COLOR``
and a fixed width. Golden files live in ``golden/``; rewrite them with
``UPDATE_GOLDEN=1 python -m pytest tests/cli``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer.cli import app

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
GOLDEN = HERE / "golden"
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}


class Run:
    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None, code: int | None = 0):
        old = os.getcwd()
        os.chdir(self.cwd)
        try:
            result = self.runner.invoke(app, list(args), input=input, env=ENV, catch_exceptions=False)
        finally:
            os.chdir(old)
        if code is not None:
            assert result.exit_code == code, (
                f"exit {result.exit_code} != {code}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}")
        return result


@pytest.fixture
def run() -> Run:
    """Run ``shengji ARGS`` in the fixtures directory."""
    return Run(FIXTURES)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A scratch copy of the fixtures (for commands that write files)."""
    dst = tmp_path / "work"
    shutil.copytree(FIXTURES, dst)
    return dst


@pytest.fixture
def run_in(work: Path) -> Run:
    """Run ``shengji ARGS`` in the scratch copy."""
    return Run(work)


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path.name}: run with UPDATE_GOLDEN=1"
    want = path.read_text(encoding="utf-8")
    assert text == want, f"output differs from golden/{path.name} (UPDATE_GOLDEN=1 rewrites it)"


@pytest.fixture
def golden():
    return check_golden
