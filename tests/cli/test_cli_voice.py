"""One voice across the command line (issue 28): the same data in every
output, help that shows what it means, the same names for the same things,
quiet closed pipes, a word for every request not fully met and every file
written, layouts that fit 80 columns."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import FIXTURES, Run

ROOT = Path(__file__).resolve().parents[2]
MATCHES = ROOT / "samples" / "matches"


def test_players_list_every_mistake_the_review_counts() -> None:
    """A bury (SJ603) is no trick's play: the player's mistakes still list it,
    as many as the review counts for the player."""
    run = Run(MATCHES)
    out = json.loads(run("report", "standard.sjn", "--mistakes", "--format", "json").stdout)
    m = out["matches"][0]
    for seat, player in m["players"].items():
        counted = m["review"]["players"][seat]
        total = counted["inaccuracy"] + counted["mistake"] + counted["blunder"] + counted["notes"]
        assert len(player["mistakes"]) == total, (seat, player["mistakes"], counted)
    assert "SJ603" in [d["code"] for d in m["players"]["W"]["mistakes"]]
    text = run("report", "standard.sjn", "--mistakes").stdout
    assert "SJ603" in text.split("Players")[1]


# -- closed pipes and a closed stdout -----------------------------------------------------------

def _shell(cmd: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb", "PYTHONPATH": str(ROOT)}
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    """A file far bigger than a pipe's buffer: 40 copies of a match, and 40 of a record with errors."""
    where = tmp_path_factory.mktemp("pipes")
    match = (FIXTURES / "match.sjn").read_text(encoding="utf-8")
    (where / "big.sjn").write_text("\n".join([match] * 40), encoding="utf-8")
    errors = (FIXTURES / "errors.sjn").read_text(encoding="utf-8")
    (where / "errors.sjn").write_text("\n".join([errors] * 40), encoding="utf-8")
    return where


@pytest.mark.parametrize("args, code", [
    ("report big.sjn", 0), ("replay big.sjn", 0), ("report big.sjn --format md", 0),
    ("report big.sjn --format json", 0), ("fmt big.sjn", 0), ("convert big.sjn --to json", 0),
    ("lint errors.sjn", 1), ("lint big.sjn --format json", 0), ("--help", 0), ("rules", 0),
])
def test_a_closed_pipe_stops_quietly_with_the_commands_status(big: Path, args: str, code: int) -> None:
    py = f"'{sys.executable}' -m analyzer"
    r = _shell(f"{py} {args} | head -1 > /dev/null; exit ${{PIPESTATUS[0]}}", big)
    assert (r.returncode, r.stderr) == (code, ""), (args, r.returncode, r.stderr)


@pytest.mark.parametrize("args, code", [
    ("lint match.sjn", 0), ("lint errors.sjn", 1), ("report match.sjn", 0), ("convert match.sjn --to json", 0),
    ("generate --hands 1", 0), ("fmt clean.sjn", 0), ("replay clean.sjn", 0),
])
def test_a_closed_stdout_is_no_internal_error(args: str, code: int) -> None:
    r = _shell(f"'{sys.executable}' -m analyzer {args} >&-", FIXTURES)
    assert "SJ901" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert r.returncode == code, (args, r.returncode, r.stderr)
