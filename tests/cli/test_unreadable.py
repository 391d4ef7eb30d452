"""Unreadable input as an unprivileged user (issue 35): a file of mode 000, a directory
given as input, a directory of mode 000 inside a recursive run. Every command says
``shengji: error: PATH: Permission denied`` (or ``is a directory``), exits 2, and prints
no traceback; a directory that cannot be listed is never passed over in silence.

Root reads a file of mode 000 anyway, so the commands run as ``nobody`` (``setpriv``,
else ``runuser``); the test skips, saying why, when that is not possible (not root, no
tool, or ``nobody`` cannot run this Python). The sweep (bench/hostile_sweep.py) runs as
root, so this is where mode 000 is really tried."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
NOBODY = 65534


def _drop() -> list[str] | None:
    """The argv prefix that runs a command as ``nobody``, or None."""
    if os.geteuid() != 0:
        return None
    if shutil.which("setpriv"):
        return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    if shutil.which("runuser"):
        return ["runuser", "-u", "nobody", "--"]
    return None


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV_"))}
    env.update(HOME=str(home), TMPDIR=str(home), PYTHONPATH=str(ROOT), COLUMNS="100", NO_COLOR="1")
    env.pop("SHENGJI_NATIVE", None)
    return env


@pytest.fixture(scope="module")
def place() -> Iterator[tuple[list[str], Path]]:
    prefix = _drop()
    if prefix is None:
        pytest.skip("cannot run a command as an unprivileged user (not root, or no setpriv/runuser)")
    d = Path(tempfile.mkdtemp(prefix="shengji-unreadable-"))
    try:
        d.chmod(0o755)
        home = d / "home"
        home.mkdir()
        home.chmod(0o777)
        probe = subprocess.run([*prefix, sys.executable, "-c", "import analyzer.cli"], cwd=d,
                               env=_env(home), capture_output=True, text=True, timeout=60)
        if probe.returncode != 0:
            pytest.skip(f"nobody cannot run this Python with the project: {probe.stderr[-200:]}")
        for name, src in (("u.sjn", "docs/errors.sjn"), ("u.gjn", "matches/gouji.gjn"),
                          ("U.SAV", "docs/GAME.SAV")):
            shutil.copyfile(SAMPLES / src, d / name)
        for name in ("u.sjn", "u.gjn", "U.SAV"):
            (d / name).chmod(0)
        (d / "out").mkdir()
        (d / "out").chmod(0o777)
        for sub in ("tree/ok", "tree/sub", "plain"):
            (d / sub).mkdir(parents=True)
        shutil.copyfile(SAMPLES / "docs/match.sjn", d / "tree/ok/a.sjn")
        shutil.copyfile(SAMPLES / "docs/match.sjn", d / "tree/sub/b.sjn")
        (d / "tree/sub").chmod(0)
        for sub in ("tree", "tree/ok", "plain"):
            (d / sub).chmod(0o755)
        (d / "tree/ok/a.sjn").chmod(0o644)
        yield [*prefix, sys.executable, "-m", "analyzer"], d
    finally:
        (d / "tree/sub").chmod(stat.S_IRWXU) if (d / "tree/sub").exists() else None
        shutil.rmtree(d, ignore_errors=True)


# `{f}` the input, `{o}` a directory nobody may write in
FILE_COMMANDS = [
    ["lint", "--no-cache", "{f}"],
    ["lint", "--no-cache", "--mistakes", "-j", "1", "{f}"],
    ["lint", "--no-cache", "-f", "json", "{f}"],
    ["replay", "{f}"],
    ["report", "{f}"],
    ["report", "-f", "html", "-o", "{o}/r.html", "{f}"],
    ["convert", "{f}", "--to", "json"],
    ["fmt", "{f}"],
    ["fmt", "--check", "{f}"],
    ["fmt", "--diff", "{f}"],
    ["fmt", "--write", "{f}"],
    ["annotate", "--endgame", "0", "--no-progress", "{f}"],
    ["import", "auto", "{f}"],
    ["export", "game-sav", "{f}", "--into", "{o}/x.SAV"],
    ["export", "--to", "parquet", "{o}/store", "{f}", "-j", "1", "--no-progress"],
]
GJN_COMMANDS = ("lint", "replay", "report", "convert")
CASES: list[tuple[list[str], str, str]] = (
    [(argv, "u.sjn", "Permission denied") for argv in FILE_COMMANDS]
    + [(argv, "u.gjn", "Permission denied") for argv in FILE_COMMANDS if argv[0] in GJN_COMMANDS]
    + [(["import", "game-sav", "U.SAV"], "U.SAV", "Permission denied"),
       (["lint", "--no-cache", "--from", "auto", "U.SAV"], "U.SAV", "Permission denied"),
       # a directory where a file is read
       (["replay", "plain"], "plain", "is a directory"),
       (["report", "plain"], "plain", "is a directory"),
       (["convert", "plain", "--to", "json"], "plain", "is a directory"),
       (["annotate", "--endgame", "0", "--no-progress", "plain"], "plain", "is a directory"),
       (["import", "auto", "plain"], "plain", "is a directory"),
       # a directory that cannot be listed, given or met in a recursive run
       (["lint", "--no-cache", "tree/sub"], "tree/sub", "Permission denied"),
       (["lint", "--no-cache", "tree"], "tree/sub", "Permission denied"),
       (["lint", "--no-cache", "-f", "json", "tree"], "tree/sub", "Permission denied"),
       (["fmt", "--check", "tree"], "tree/sub", "Permission denied"),
       (["export", "--to", "parquet", "{o}/store2", "tree", "-j", "1", "--no-progress"], "tree/sub",
        "Permission denied"),
       (["report", "tree/sub"], "tree/sub", "Permission denied")]
)


#: run as nobody, once: every case through the commands in one process (a start each would
#: cost half a second a case); prints [exit code, stderr, an exception that escaped] a case
CHILD = """
import json, sys
from typer.testing import CliRunner
from analyzer.cli import app
out = []
for argv in json.loads(sys.argv[1]):
    r = CliRunner().invoke(app, argv, env={"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"})
    escaped = None if r.exception is None or isinstance(r.exception, SystemExit) else repr(r.exception)
    out.append([r.exit_code, r.stdout + r.stderr, escaped])
print(json.dumps(out))
"""


def test_every_command_says_which_input_it_cannot_read(place):
    import json
    exe, d = place
    argvs = [[a.replace("{f}", target).replace("{o}", str(d / "out")) for a in argv]
             for argv, target, _ in CASES]
    r = subprocess.run(exe[:-2] + ["-c", CHILD, json.dumps(argvs)], cwd=d, env=_env(d / "home"),
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    wrong = []
    for (_argv, target, said), shown, (code, text, escaped) in zip(CASES, argvs, json.loads(r.stdout)):
        if code != 2 or f"shengji: error: {target}: {said}" not in text or escaped \
                or "Traceback" in text or "SJ901" in text:
            wrong.append(f"{' '.join(shown)}: exit {code}: {escaped or ''} {text.strip()[-300:]}")
    assert not wrong, "\n".join(wrong)
    assert not (d / "out" / "x.SAV").exists()   # nothing written for an input that was not read
