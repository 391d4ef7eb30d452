"""The CLI on GJN files (issue 16 "CLI"): lint, replay, report, fmt, convert and
rules choose GJN by the `.gjn` suffix or a `[Game "gouji"]` tag (GOUJI.md §10),
mixed SJN and GJN files lint in one run (any --jobs, every format, noqa)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer import lint as L
from analyzer.cli import app
from analyzer.games.gouji import analysis as gouji
from notation import gjn

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
SJN_CLEAN = HERE.parent / "cli" / "fixtures" / "clean.sjn"
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}

BAD = """[Rules "gouji"]
game 1
1. P1: KX
2. P2: QZ ; noqa: SJ102
3. P3: pass
Result P1 P2 P3 P4 P5 P6
"""


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "games"
    d.mkdir()
    for name in ("example_endgame.gjn", "example_burn_sweep.gjn", "syntax_every_line.gjn"):
        shutil.copy(FIXTURES / name, d / name)
    shutil.copy(SJN_CLEAN, d / "clean.sjn")
    (d / "bad.gjn").write_text(BAD, encoding="utf-8")
    # a Gouji record in a file without the .gjn suffix: the tag decides
    (d / "tagged.sjn").write_text('[Game "gouji"]\ngame 1\n1. P1: 7\n2. P2: ZZ\n', encoding="utf-8")
    return d


def run(cwd, *args, input=None, code=0):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(args), input=input, env=ENV, catch_exceptions=False)
    finally:
        os.chdir(old)
    if code is not None:
        assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    return result


def test_lint_mixed_folder(folder):
    r = run(folder.parent, "lint", "games", "--select", "SJ1", "--jobs", "1", code=1)
    lines = r.stdout.splitlines()
    assert lines[:4] == [
        "games/bad.gjn:3:8: SJ102 `KX` is not a card group: bad rank 'X' in 'KX'",
        "games/bad.gjn:6:1: SJ104 keywords are written in lowercase: `result`",
        "games/tagged.sjn:4:8: SJ102 `ZZ` is not a card group: bad rank 'ZZ' in 'ZZ'",
        "Found 3 errors in 6 files (6 records).",
    ]


def test_lint_same_for_any_jobs_and_format(folder):
    for fmt in ("text", "json", "sarif", "github"):
        one = run(folder.parent, "lint", "games", "--select", "SJ1", "-f", fmt, "--jobs", "1", code=1).stdout
        two = run(folder.parent, "lint", "games", "--select", "SJ1", "-f", fmt, "--jobs", "2", code=1).stdout
        assert one == two
        assert "bad.gjn" in one and "SJ102" in one
    found = json.loads(run(folder.parent, "lint", "games", "--select", "SJ1", "-f", "json", code=1).stdout)
    assert {(f["path"], f["line"], f["code"]) for f in found} == {
        ("games/bad.gjn", 3, "SJ102"), ("games/bad.gjn", 6, "SJ104"), ("games/tagged.sjn", 4, "SJ102")}


def test_lint_stdin_by_tag(folder):
    r = run(folder, "lint", "-", "--select", "SJ1", input=(folder / "tagged.sjn").read_text(), code=1)
    assert r.stdout.startswith("-:4:8: SJ102")


def test_lint_huge_gjn_file_in_chunks(tmp_path):
    path = tmp_path / "many.gjn"
    with path.open("w", encoding="utf-8") as f:
        for k in range(2500):
            f.write(f'[Event "{k}"]\ngame 1\n1. P1: KK\n2. P2: {"AA" if k % 97 else "A?"}\n'
                    f'result P1 P2 P3 P4 P5 P6\n\n')
    options = L.LintOptions(select=("SJ1",))
    whole = L.lint_paths([str(path)], options, jobs=1)
    split = L.lint_paths([str(path)], options, jobs=2, split_bytes=1000, min_parallel_bytes=0)
    assert [f.text() for f in whole.findings] == [f.text() for f in split.findings]
    assert [f.record for f in whole.findings] == [f.record for f in split.findings]
    assert whole.records == split.records == 2500 and len(whole.findings) == 26


def test_fmt_check_and_write(folder):
    r = run(folder, "fmt", "syntax_every_line.gjn", "--check", code=1)
    assert "would reformat syntax_every_line.gjn" in r.stderr
    run(folder, "fmt", "syntax_every_line.gjn", "--write")
    text = (folder / "syntax_every_line.gjn").read_text(encoding="utf-8")
    assert text == gjn.write(gjn.parse((FIXTURES / "syntax_every_line.gjn").read_text(encoding="utf-8"))[0])
    run(folder, "fmt", "syntax_every_line.gjn", "--check")
    r = run(folder, "fmt", "bad.gjn", "--write", code=1)
    assert "not formatted" in r.stderr and (folder / "bad.gjn").read_text() == BAD
    assert run(folder, "fmt", "example_endgame.gjn", "--unicode").stdout.startswith('[Rules "gouji"]\n\ngame 1\n')


def test_convert_round_trip(folder):
    run(folder, "convert", "example_burn_sweep.gjn", "--to", "json", "-o", "burn.json")
    data = json.loads((folder / "burn.json").read_text(encoding="utf-8"))
    assert data["game_type"] == "gouji" and "span" not in data
    back = run(folder, "convert", "burn.json", "--to", "gjn").stdout
    assert back == run(folder, "fmt", "example_burn_sweep.gjn").stdout
    spans = json.loads(run(folder, "convert", "example_burn_sweep.gjn", "--to", "json", "--spans").stdout)
    assert spans["games"][0]["actions"][0]["span"] == [10, 1, 10, 11]
    r = run(folder, "convert", "example_burn_sweep.gjn", "--to", "sjn", code=2)
    assert "converts to gjn or json" in r.stderr
    r = run(folder, "convert", "bad.gjn", "--to", "json", code=1)
    assert "not converted" in r.stderr


def test_replay_shows_every_action(folder):
    out = run(folder, "replay", "example_burn_sweep.gjn").stdout
    assert "3. P2: KKK burn" in out and "12. P5: BJ 99" in out
    out = run(folder, "replay", "syntax_every_line.gjn", "--game", "3").stdout
    assert out.startswith("Game 3 (position)") and "1. P5: A =2" in out
    r = run(folder, "replay", "syntax_every_line.gjn", "--game", "9", code=2)
    assert "no game 9" in r.stderr


def test_report_json_per_game(folder):
    rep = json.loads(run(folder, "report", "example_burn_sweep.gjn", "-f", "json").stdout)
    assert rep["game"] == "gouji"
    (game,) = rep["matches"][0]["games"]
    assert game["places"] == ["P3", "P5", "P1", "P2", "P6", "P4"]
    assert game["score"] == {"odd": 12, "even": 0} and game["stats"]["sweep"] is True
    assert [(p["action"], p["seat"], p["target"]) for p in game["gouji_plays"]][:3] == [
        (1, "P1", "P4"), (3, "P2", "P5"), (8, "P2", "P5")]
    assert game["burns"][0]["burned"] == "P1"
    assert [b["seat"] for b in game["burns"]] == ["P2"]
    assert "gouji_plays" in game
    md = run(folder, "report", "example_burn_sweep.gjn", "-f", "md").stdout
    assert "| 1 | position | P3 P5 P1 P2 P6 P4 | odd 12 even 0 |" in md
    term = run(folder, "report", "example_burn_sweep.gjn").stdout
    assert "P3 P5 P1 P2 P6 P4" in term
    page = run(folder, "report", "example_burn_sweep.gjn", "-f", "html").stdout
    assert page.startswith("<!DOCTYPE html>") and "Gouji replay" in page


@pytest.mark.skipif(not gouji.presets(), reason="the Gouji engine (replay.gouji) is not installed")
def test_rules_lists_the_gouji_presets(folder):
    out = run(folder, "rules").stdout
    for name in ("gouji", "gouji-bie3", "gouji-online"):
        assert name in out
    out = run(folder, "rules", "gouji-online").stdout
    assert "burn_order" in out and "online" in out


@pytest.mark.skipif(not gouji.presets(), reason="the Gouji engine (replay.gouji) is not installed")
def test_rules_option_applies_to_its_own_game(folder):
    shutil.copy(FIXTURES / "scoresheet.gjn", folder / "sheet.gjn")
    # scoresheet.gjn scores by `gouji` (只记正分); under gouji-online (zero sum) its scores are wrong
    shengji = run(folder, "lint", "sheet.gjn", "clean.sjn", "--rules", "standard", code=None).stdout
    assert "sheet.gjn" not in shengji  # a Shengji preset leaves Gouji records alone
    online = run(folder, "lint", "sheet.gjn", "clean.sjn", "--rules", "gouji-online", code=1).stdout
    assert "sheet.gjn:" in online and "GJ502" in online and "clean.sjn" not in online
    r = run(folder, "lint", "sheet.gjn", "--rules", "nope", code=2)
    assert "gouji-online" in r.stderr
