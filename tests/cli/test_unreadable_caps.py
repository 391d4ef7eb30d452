"""Unreadable inputs as root without its DAC override (issue 35); beside test_unreadable.py (run as nobody).

Root ignores a file's mode, so a mode-000 file is only unreadable once the
process has lost ``CAP_DAC_OVERRIDE`` and ``CAP_DAC_READ_SEARCH``: the commands
run under ``setpriv --bounding-set -dac_override,-dac_read_search`` (as root),
or as they are (any other user). Every command must stop with a clear error that
names the file, exit 2, and no traceback; a directory that cannot be listed in a
recursive ``lint`` or ``fmt`` is reported, never skipped silently; an unreadable
store part is not called damaged (nothing to remove).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.cli_helpers import ENV

ROOT = Path(__file__).resolve().parents[2]
MATCH = ROOT / "samples" / "docs" / "match.sjn"
SAV = ROOT / "samples" / "docs" / "GAME.SAV"
DROP = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]


def _prefix(probe: Path) -> list[str]:
    """The argv prefix under which ``probe`` (mode 000) cannot be read; skip when none."""
    if os.geteuid() != 0:
        prefix: list[str] = []
    elif shutil.which("setpriv"):
        prefix = DROP
    else:
        pytest.skip("running as root without setpriv: a mode-000 file cannot be made unreadable")
    try:
        r = subprocess.run([*prefix, sys.executable, "-c", f"open({str(probe)!r}).read()"],
                           capture_output=True, text=True, timeout=60)
    except OSError as exc:
        pytest.skip(f"cannot drop the capabilities: {exc}")
    if "PermissionError" not in r.stderr:
        pytest.skip(f"cannot drop privileges here (the probe read a mode-000 file): {r.stderr[-200:]}")
    return prefix


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory):
    d = tmp_path_factory.mktemp("unreadable")
    shutil.copy(MATCH, d / "ok.sjn")
    shutil.copy(SAV, d / "G.SAV")
    for name, src in (("m.sjn", MATCH), ("m.gjn", ROOT / "samples" / "matches" / "gouji.gjn"),
                      ("m.json", MATCH), ("U.SAV", SAV), ("room.jsonl", ROOT / "samples" / "docs" / "room.jsonl")):
        shutil.copy(src, d / name)
        (d / name).chmod(0)
    (d / "tree" / "sub").mkdir(parents=True)
    (d / "tree" / "locked").mkdir()
    shutil.copy(MATCH, d / "tree" / "sub" / "a.sjn")
    shutil.copy(MATCH, d / "tree" / "locked" / "b.sjn")
    (d / "tree" / "locked").chmod(0)
    prefix = _prefix(d / "m.sjn")
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT), "HOME": str(d)}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*prefix, sys.executable, "-m", "analyzer", *args], cwd=d, env=env,
                              capture_output=True, text=True, timeout=120)
    yield d, run
    (d / "tree" / "locked").chmod(0o755)


def _stopped_clearly(r: subprocess.CompletedProcess[str], name: str, why: str = "Permission denied") -> None:
    assert r.returncode == 2, (r.returncode, r.stdout[-500:], r.stderr[-500:])
    assert f"{name}: {why}" in r.stderr, r.stderr
    assert "Traceback" not in r.stdout + r.stderr and "SJ901" not in r.stdout + r.stderr


COMMANDS = [
    ("m.sjn", ["lint", "--no-cache", "{f}"]),
    ("m.sjn", ["lint", "--no-cache", "-f", "json", "{f}"]),
    ("m.sjn", ["lint", "--no-cache", "-f", "sarif", "{f}"]),
    ("m.sjn", ["lint", "--no-cache", "--mistakes", "-j", "1", "{f}"]),
    ("m.gjn", ["lint", "--no-cache", "{f}"]),
    ("m.json", ["lint", "--no-cache", "{f}"]),
    ("m.sjn", ["replay", "{f}"]),
    ("m.gjn", ["replay", "{f}"]),
    ("m.sjn", ["report", "{f}"]),
    ("m.sjn", ["report", "-f", "html", "-o", "r.html", "{f}"]),
    ("m.sjn", ["report", "--mistakes", "--no-progress", "{f}"]),
    ("m.json", ["convert", "{f}", "--to", "sjn"]),
    ("m.gjn", ["convert", "{f}", "--to", "json"]),
    ("m.sjn", ["fmt", "{f}"]),
    ("m.sjn", ["fmt", "--check", "{f}"]),
    ("m.sjn", ["fmt", "--diff", "{f}"]),
    ("m.sjn", ["annotate", "--endgame", "0", "--no-progress", "{f}"]),
    ("room.jsonl", ["import", "auto", "{f}"]),
    ("room.jsonl", ["import", "fly", "{f}", "-o", "i.sjn"]),
    ("room.jsonl", ["lint", "--no-cache", "--from", "auto", "{f}"]),
    ("U.SAV", ["import", "game-sav", "{f}"]),
    ("m.sjn", ["export", "game-sav", "{f}", "--into", "G.SAV", "--dry-run"]),
    ("U.SAV", ["export", "game-sav", "ok.sjn", "--into", "{f}"]),
    ("m.sjn", ["export", "--to", "parquet", "store-x", "{f}", "-j", "1", "--no-progress"]),
]


@pytest.mark.parametrize(("name", "argv"), COMMANDS, ids=[" ".join(a).replace("{f}", n) for n, a in COMMANDS])
def test_a_mode_000_file_stops_every_command_clearly(place, name, argv):
    _d, run = place
    _stopped_clearly(run(*[a.replace("{f}", name) for a in argv]), name)


@pytest.mark.parametrize("argv", [["lint", "--no-cache", "tree"], ["lint", "--no-cache", "-j", "2", "tree"],
                                  ["fmt", "--check", "tree"]])
def test_an_unreadable_directory_in_a_recursive_read_is_reported(place, argv):
    """It was skipped: ``lint tree`` said "All checks passed (1 record)" and exited 0."""
    _d, run = place
    r = run(*argv)
    _stopped_clearly(r, os.path.join("tree", "locked"))
    assert "1 file could not be read" in r.stdout + r.stderr


@pytest.mark.parametrize("argv", [["replay", "tree"], ["report", "tree"], ["convert", "tree", "--to", "json"],
                                  ["import", "auto", "tree"], ["annotate", "tree"]])
def test_a_directory_as_a_single_input_is_named(place, argv):
    _d, run = place
    _stopped_clearly(run(*argv), "tree", "is a directory")


def test_an_unreadable_store_part_is_not_called_damaged(place):
    d, run = place
    r = run("export", "--to", "parquet", "st", "ok.sjn", "-j", "1", "--no-progress")
    assert r.returncode == 0, r.stderr
    part = next((d / "st").rglob("*.parquet"))
    part.chmod(0)
    r = run("stats", "st")
    assert r.returncode == 2 and "cannot be read: Permission denied" in r.stderr, r.stderr
    assert "remove" not in r.stderr and "damaged" not in r.stderr
    assert "Traceback" not in r.stderr
