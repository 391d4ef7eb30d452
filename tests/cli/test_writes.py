"""Where the commands write (issue 35, docs/security.md): never into one of
their inputs (``--force`` overrides "exists" only), through a symbolic link to
its target, to a device without replacing it, into a hard-linked file's own
inode, and the temporary file of a killed write is removed by the next one."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import ENV
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.io.atomic import remove_stale_temps, write_text_atomic

ROOT = Path(__file__).resolve().parents[2]
STANDARD = (ROOT / "samples" / "matches" / "standard.sjn").read_text(encoding="utf-8")
MATCH = (ROOT / "samples" / "docs" / "match.sjn").read_text(encoding="utf-8")
SAVE = (ROOT / "samples" / "docs" / "GAME.SAV").read_bytes()
UNFORMATTED = STANDARD.replace("\nhand 1\n", "\nhand   1\n")
RUNNER = CliRunner()


def run(*args: str):
    return RUNNER.invoke(app, list(args), env=ENV, catch_exceptions=False)


@pytest.mark.parametrize("via_link", [False, True])
def test_export_game_sav_never_writes_into_its_record_even_with_force(tmp_path, via_link):
    rec = tmp_path / "rec.sjn"
    rec.write_text(STANDARD, encoding="utf-8")
    into = rec
    if via_link:
        into = tmp_path / "link.SAV"
        into.symlink_to(rec)
    r = run("export", "game-sav", str(rec), "--into", str(into), "--force")
    assert r.exit_code == 2, r.stderr
    assert "refusing" in r.stderr and "even with --force" in r.stderr
    assert rec.read_text(encoding="utf-8") == STANDARD


def test_fmt_write_goes_through_a_symlink(tmp_path):
    real = tmp_path / "real.sjn"
    real.write_text(UNFORMATTED, encoding="utf-8")
    link = tmp_path / "link.sjn"
    link.symlink_to(real)
    r = run("fmt", "--write", str(link))
    assert r.exit_code == 0, r.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "\nhand 1\n" in real.read_text(encoding="utf-8")


def test_export_into_a_symlinked_save_writes_its_target(tmp_path):
    (tmp_path / "match.sjn").write_text(MATCH, encoding="utf-8")
    save = tmp_path / "GAME.SAV"
    save.write_bytes(SAVE)
    link = tmp_path / "linkG.SAV"
    link.symlink_to(save)
    r = run("export", "game-sav", str(tmp_path / "match.sjn"), "--into", str(link), "--force")
    assert r.exit_code in (0, 1), r.stderr
    assert link.is_symlink()
    if r.exit_code == 0:
        assert save.read_bytes() != SAVE


@pytest.mark.parametrize("args", [["convert", "{f}", "--to", "json"], ["report", "{f}", "--format", "json"]])
def test_an_output_that_is_a_device_is_written_not_replaced(tmp_path, args):
    f = tmp_path / "m.sjn"
    f.write_text(STANDARD, encoding="utf-8")
    before = os.stat("/dev/null")
    r = run(*[a.replace("{f}", str(f)) for a in args], "-o", "/dev/null", "--force")
    assert r.exit_code in (0, 1), r.stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_an_output_fifo_is_written_not_replaced(tmp_path):
    import threading
    f = tmp_path / "m.sjn"
    f.write_text(STANDARD, encoding="utf-8")
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    r = run("convert", str(f), "--to", "json", "-o", str(fifo), "--force")
    reader.join(30)
    assert r.exit_code == 0, r.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got and got[0].startswith(b"{")


def test_hard_links_are_kept(tmp_path):
    real = tmp_path / "real.sjn"
    real.write_text(UNFORMATTED, encoding="utf-8")
    other = tmp_path / "other.sjn"
    os.link(real, other)
    r = run("fmt", "--write", str(real))
    assert r.exit_code == 0, r.stderr
    assert os.stat(real).st_ino == os.stat(other).st_ino and os.stat(real).st_nlink == 2
    assert "\nhand 1\n" in other.read_text(encoding="utf-8")
    out = tmp_path / "out.json"
    out.write_text("old", encoding="utf-8")
    twin = tmp_path / "twin.json"
    os.link(out, twin)
    r = run("convert", str(real), "--to", "json", "-o", str(out), "--force")
    assert r.exit_code == 0, r.stderr
    assert twin.read_text(encoding="utf-8").startswith("{")


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_a_killed_writes_temp_file_is_removed_by_the_next_write(tmp_path):
    target = tmp_path / "out.sjn"
    code = ("import sys, time\n"
            "from analyzer.io.atomic import atomic_writer\n"
            "with atomic_writer(sys.argv[1]) as f:\n"
            "    f.write('x' * 100000); f.flush(); print('ready', flush=True); time.sleep(60)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    p = subprocess.Popen([sys.executable, "-c", code, str(target)], stdout=subprocess.PIPE, env=env)
    assert p.stdout is not None and p.stdout.readline().strip() == b"ready"
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    left = [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
    assert len(left) == 1 and not target.exists()
    r = run("convert", str(ROOT / "samples" / "matches" / "standard.sjn"), "--to", "sjn", "-o", str(target))
    assert r.exit_code == 0, r.stderr
    assert [n for n in os.listdir(tmp_path) if n.endswith(".tmp")] == []
    assert target.read_text(encoding="utf-8").startswith("[")


def test_stale_temps_of_other_live_processes_and_other_files_are_kept(tmp_path):
    mine = tmp_path / f".a.sjn.{os.getpid()}.abcdefgh.tmp"
    dead = tmp_path / f".a.sjn.{_dead_pid()}.abcdefgh.tmp"
    other = tmp_path / f".b.sjn.{_dead_pid()}.abcdefgh.tmp"
    for p in (mine, dead, other):
        p.write_text("x")
    assert remove_stale_temps(str(tmp_path), "a.sjn") == [str(dead)]
    assert mine.exists() and other.exists()
    write_text_atomic(tmp_path / "b.sjn", "y")
    assert not other.exists()
