"""A bug in shengji is reported as internal error SJ901 with a request to report
it, never as the user's syntax or import error (SJ101, SJ701) and never as
"the format cannot be told": failures injected with monkeypatch."""

from __future__ import annotations

import json

import pytest
from cli_helpers import FIXTURES

import analyzer.io.importers as imp
from analyzer.io.importers import import_text
from analyzer.lint import LintOptions, lint_file

ROOM = FIXTURES / "logs" / "room.jsonl"


def boom(*args, **kwargs):
    raise RuntimeError("injected bug")


def codes(diags):
    return [d.code for d in diags]


def test_a_bug_in_detection_is_sj901_not_an_undetectable_log(run, monkeypatch):
    monkeypatch.setattr(imp.botzone, "looks_like", boom)
    r = run("import", "auto", "logs/room.jsonl", code=2)
    assert "SJ901 internal error (RuntimeError: injected bug)" in r.stderr
    assert "please report" in r.stderr and "cannot be told" not in r.stderr


def test_a_bug_in_an_importer_is_sj901_in_lint(run, monkeypatch):
    monkeypatch.setattr(imp.fly, "import_log", boom)
    r = run("lint", "logs/room.jsonl", code=1)
    assert "SJ901 internal error: the fly importer failed" in r.stdout
    assert "SJ701" not in r.stdout and "please report" in r.stdout


def test_a_bug_in_the_json_scanner_is_sj901_not_sj701(monkeypatch):
    text = ROOM.read_text(encoding="utf-8")
    monkeypatch.setattr(json.decoder, "scanstring", boom)
    _, diags = import_text("fly", text)
    assert codes(diags) == ["SJ901"] and "RuntimeError" in diags[0].message


def test_an_engine_bug_while_checking_claims_is_sj901(monkeypatch):
    import replay.game
    text = ROOM.read_text(encoding="utf-8")
    monkeypatch.setattr(replay.game, "replay", boom)
    records, diags = import_text("fly", text)
    assert records
    bugs = [d for d in diags if d.code == "SJ901"]
    assert len(bugs) == len(records) and "claims are not checked" in bugs[0].message
    assert "please report" in bugs[0].message


def test_an_engine_bug_while_linting_a_log_is_sj901_on_each_record(monkeypatch):
    import replay.game
    monkeypatch.setattr(replay.game, "replay", boom)
    result = lint_file(ROOM, LintOptions())
    assert result.error is None and result.records >= 1
    assert [f.code for f in result.findings] == ["SJ901"] * result.records
    assert all(f.record is not None for f in result.findings)


@pytest.mark.parametrize("args", [["replay", "logs/room.jsonl"], ["report", "logs/room.jsonl"],
                                  ["import", "fly", "logs/room.jsonl"]])
def test_an_engine_bug_under_any_command_is_one_sj901_line(run, monkeypatch, args):
    import replay.game
    monkeypatch.setattr(replay.game, "replay", boom)
    r = run(*args, code=None)
    assert r.exit_code in (1, 2)
    assert "SJ901" in r.stderr and "Traceback" not in r.stderr + r.stdout
    assert "SJ701" not in r.stderr and "SJ101" not in r.stderr
