"""The static checks are part of the suite: ``ruff check .`` and ``mypy``.

Both read their configuration from ``pyproject.toml`` (``[tool.ruff]``,
``[tool.mypy]``: strict for every package). Each test fails with the
tool's own findings; ``docs/development.md`` says how to run them by hand.
Both tools come with the ``dev`` extra, which ``.ci/run`` installs.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)


def _tool(module: str) -> None:
    if shutil.which(module) is None and _run(sys.executable, "-m", module, "--version").returncode != 0:
        pytest.fail(f"{module} is not installed: pip install -e '.[dev]' (docs/development.md)")


def test_ruff_check_passes() -> None:
    _tool("ruff")
    res = _run(sys.executable, "-m", "ruff", "check", "--no-cache", ".")
    assert res.returncode == 0, res.stdout + res.stderr


def test_mypy_passes() -> None:
    _tool("mypy")
    res = _run(sys.executable, "-m", "mypy", "primitives", "notation", "replay", "analyzer")
    assert res.returncode == 0, res.stdout + res.stderr
