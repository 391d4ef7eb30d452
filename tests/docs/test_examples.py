"""Every ``$ command`` example in README.md and docs/ runs as written, from the
files shipped in ``samples/docs/``, and prints what the docs show.

A block's ``$ …`` lines are run in order in one scratch directory (README's
first command writes the ``match.sjn`` the next ones read). The lines after a
command are its output (stderr, then stdout); a line ``...`` or ``…`` stands for
any number of lines. ``echo $?`` prints the last exit status; ``head -N FILE``
is run too.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer.cli import app

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "samples" / "docs"
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
ELLIPSIS = ("...", "…")


def examples(path: Path) -> list[list[tuple[str, list[str]]]]:
    """The blocks of ``path`` that hold ``$`` commands: [(command, expected lines)]."""
    blocks = []
    for body in re.findall(r"^```[a-z]*\n(.*?)^```", path.read_text(encoding="utf-8"), re.M | re.S):
        if not body.startswith("$ "):
            continue
        steps: list[tuple[str, list[str]]] = []
        for line in body.rstrip("\n").split("\n"):
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line.rstrip())
        blocks.append(steps)
    return blocks


def matches(expected: list[str], actual: list[str]) -> bool:
    """Do the ``actual`` lines read as ``expected`` (``...`` skips lines)?"""
    while expected and not expected[-1]:
        expected = expected[:-1]
    while actual and not actual[-1]:
        actual = actual[:-1]
    segments: list[list[str]] = [[]]
    for line in expected:
        if line.strip() in ELLIPSIS:
            segments.append([])
        else:
            segments[-1].append(line)
    pos = 0
    for k, seg in enumerate(segments):
        if not seg:
            continue
        if k == 0:
            if actual[:len(seg)] != seg:
                return False
            pos = len(seg)
            continue
        for i in range(pos, len(actual) - len(seg) + 1):
            if actual[i:i + len(seg)] == seg:
                pos = i + len(seg)
                break
        else:
            return False
    return not segments[-1] or pos == len(actual)


def run_block(steps, cwd: Path) -> None:
    runner = CliRunner()
    status = 0
    for command, expected in steps:
        words = shlex.split(command)
        if words[0] == "shengji":
            old = os.getcwd()
            os.chdir(cwd)
            try:
                r = runner.invoke(app, words[1:], env=ENV, catch_exceptions=False)
            finally:
                os.chdir(old)
            status = r.exit_code
            actual = r.output.split("\n")  # stdout and stderr as a terminal shows them
        elif words[0] == "echo" and words[1] == "$?":
            actual = [str(status)]
        elif words[0] == "head":
            n = int(words[1].lstrip("-"))
            actual = (cwd / words[2]).read_text(encoding="utf-8").split("\n")[:n]
        else:  # pragma: no cover - a new kind of example: teach this test
            raise AssertionError(f"cannot run the example {command!r}")
        actual = [line.rstrip() for line in actual]
        assert matches(expected, actual), (
            f"$ {command}\n--- the docs show:\n" + "\n".join(expected) + "\n--- it prints:\n" + "\n".join(actual))


DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: examples whose input is not shipped in samples/docs (a Parquet store of a
#: whole corpus): listed here, so a new example is run unless named
NOT_SHIPPED = ("store/",)


def _shipped(block) -> bool:
    return not any(marker in step for step, _ in block for marker in NOT_SHIPPED)


CASES = [(path, blocks) for path in DOCS if (blocks := [b for b in examples(path) if _shipped(b)])]


@pytest.mark.parametrize("path, blocks", CASES, ids=[p.name for p, _ in CASES])
def test_documented_examples_run_as_written(path, blocks, tmp_path):
    """A file's blocks run in order in one directory (a later example may read
    what an earlier one wrote, as a reader following the text would)."""
    work = tmp_path / "work"
    shutil.copytree(SHIPPED, work)
    for block in blocks:
        for step, _ in block:
            # a command that writes a file finds the place free, as in a fresh directory
            out = re.search(r"(?:-o|--output)\s+(\S+)", step)
            if out and (work / out.group(1)).exists():
                (work / out.group(1)).unlink()
        run_block(block, work)


def test_every_documented_command_is_tested():
    assert sum(len(b) for _, blocks in CASES for b in blocks) >= 14
    names = {p.name for p, _ in CASES}
    assert {"README.md", "cli.md"} <= names


def test_matching_rules():
    assert matches(["a", "...", "c"], ["a", "b", "b", "c"])
    assert not matches(["a", "c"], ["a", "b", "c"])
    assert matches(["a", "…"], ["a", "b"])
    assert not matches(["x"], ["a"])
