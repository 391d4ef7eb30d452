"""A panic in the native core during a command (issue 35): the extension turns it into
``shengji_native.InternalError`` (tests/native/test_native_boundary.py); here the whole
way: the commands whose endgame search runs in the extension (``lint --mistakes``,
``report --mistakes``, ``annotate``) report it as internal error SJ901 and go on, with
an exit status of 1 or 2 and no traceback. Skipped without the extension. First in one
process (``-j 1``, the panic patched into this process), then with the review in worker
processes (``-j 2``, the panic patched into every process of the command by a
``sitecustomize`` module on its ``PYTHONPATH``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import ENV
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.review.search import tree
from replay import native

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "matches" / "standard.sjn"


class _Panicking:
    """Stands for the extension's solver: every search panics inside the extension."""

    def __getattr__(self, name: str):
        mod = native.module()
        assert mod is not None

        def call(*args, **kwargs):
            mod._panic_for_tests()
        return call


@pytest.mark.skipif(not native.available(), reason=f"no native core: {native.backend()}")
@pytest.mark.parametrize("args", [["lint", "--no-cache", "--mistakes", "-j", "1", "{f}"],
                                  ["report", "--mistakes", "--no-progress", "-j", "1", "{f}"],
                                  ["annotate", "--endgame", "2", "--no-progress", "-j", "1", "{f}"]])
def test_a_native_panic_is_sj901_not_a_crash(monkeypatch, args):
    monkeypatch.setattr(tree.Tree, "_native_solver", lambda self: _Panicking())
    r = CliRunner().invoke(app, [a.replace("{f}", str(SAMPLE)) for a in args], env=ENV)
    out = r.stdout + r.stderr
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in out
    assert "SJ901" in out and "a test panic" in out, out[-1500:]
    assert r.exit_code in (1, 2), (r.exit_code, out[-800:])


#: loaded at start by every process of the command (the forkserver and each review worker
#: inherit PYTHONPATH): the same panicking solver, patched in before any hand is reviewed
_SITECUSTOMIZE = '''
from analyzer.review.search import tree
from replay import native


class _Panicking:
    def __getattr__(self, name):
        def call(*args, **kwargs):
            native.module()._panic_for_tests()
        return call


tree.Tree._native_solver = lambda self: _Panicking()
'''


@pytest.mark.skipif(not native.available(), reason=f"no native core: {native.backend()}")
@pytest.mark.parametrize("command", [["report", "--mistakes", "--no-progress"],
                                     ["annotate", "--endgame", "2", "--no-progress"]])
def test_a_native_panic_in_a_review_worker_is_sj901_not_a_crash(tmp_path, command):
    """The same with the review in two worker processes (``-j 2``), the panic inside a worker."""
    import os
    import subprocess
    import sys

    (tmp_path / "sitecustomize.py").write_text(_SITECUSTOMIZE, encoding="utf-8")
    env = {**os.environ, **ENV, "SHENGJI_NATIVE": "1",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([sys.executable, "-m", "analyzer", *command, "-j", "2", str(SAMPLE)], env=env,
                       cwd=tmp_path, capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    assert "Traceback" not in out
    assert "SJ901" in out and "a test panic" in out, out[-1500:]
    assert r.returncode in (1, 2), (r.returncode, out[-800:])
