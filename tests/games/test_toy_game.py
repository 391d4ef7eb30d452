"""A third game is a plug-in (docs/extending.md, "A game"): the toy "high card"
game of tests/games/toy.py, registered here, is linted, replayed, reported,
converted, formatted, generated and exported by every command, in-process,
found through the registry (no command knows its name)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from toy import TOY
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.games import by_kind, by_preset, detect, register, suffixes, unregister

GOOD = '[Event "toy night"]\nN:7 E:K S:2 W:10\nN:A   E:3 S:Q W:J\n'
BAD = '[Event "bad"]\nN:7 E:7 S:X W:10\n'


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[Path]:
    register(TOY)
    (tmp_path / "good.toy").write_text(GOOD, encoding="utf-8")
    (tmp_path / "bad.toy").write_text(BAD, encoding="utf-8")
    try:
        yield tmp_path
    finally:
        unregister(TOY)


def run(*args: str, code: int = 0) -> object:
    r = CliRunner().invoke(app, list(args))
    assert r.exit_code == code, (args, r.exit_code, r.output, r.stderr)
    return r


def test_the_registry_finds_the_toy_game(toy: Path) -> None:
    assert ".toy" in suffixes() and by_kind("toy") is TOY and by_preset("toy-high") is TOY
    assert detect("N:7", str(toy / "good.toy")) == "toy"
    unregister(TOY)
    assert ".toy" not in suffixes() and by_preset("toy-high") is None
    register(TOY)


def test_lint_reads_the_toy_game_and_its_engine(toy: Path) -> None:
    r = run("lint", str(toy), "--format", "json", code=1)     # (a directory: every *.toy below)
    found = {(Path(f["path"]).name, f["line"], f["code"]) for f in json.loads(r.stdout)}
    assert found == {("bad.toy", 2, "SJ102"), ("bad.toy", 2, "SJ202")}
    run("lint", str(toy / "good.toy"))
    run("lint", str(toy / "bad.toy"), "--ignore", "SJ1,SJ2")


def test_replay_report_convert_and_fmt(toy: Path) -> None:
    good = str(toy / "good.toy")
    assert run("replay", good).stdout.splitlines() == ["hand 1: N 7 E K S 2 W 10 -> E wins",
                                                     "hand 2: N A E 3 S Q W J -> N wins"]
    assert run("replay", good, "--hand", "2").stdout.startswith("hand 2:")
    assert run("report", good).stdout == "E: 1 hand(s) won\nN: 1 hand(s) won\n"
    assert json.loads(run("report", good, "-f", "json").stdout) == {"game": "toy", "wins": {"E": 1, "N": 1}}
    data = json.loads(run("convert", good, "--to", "json").stdout)
    assert data["game_type"] == "toy" and data["hands"][1] == {"N": "A", "E": "3", "S": "Q", "W": "J"}
    assert "converts to toy or json" in run("convert", good, "--to", "sjn", code=2).stderr
    assert "would reformat" in run("fmt", good, "--check", code=1).stderr      # (the extra spaces)
    run("fmt", good, "--write")
    assert (toy / "good.toy").read_text(encoding="utf-8") == GOOD.replace("   ", " ")
    run("fmt", good, "--check")


def test_rules_generate_and_export(toy: Path) -> None:
    assert "toy-high" in run("rules").stdout and "Toy preset toy-high" in run("rules", "toy-high").stdout
    out = toy / "gen"
    out.mkdir()
    run("generate", "--rules", "toy-high", "--hands", "3", "--seed", "1", "-o", str(out))
    made = out / "toy-high-3h-seed1.toy"
    assert len(made.read_text(encoding="utf-8").splitlines()) == 4
    run("lint", str(made))
    pytest.importorskip("pyarrow")
    r = run("export", "--to", "parquet", "--no-progress", str(toy / "store"), str(toy / "good.toy"))
    assert "skipped" in r.stderr and "the Parquet store has no table for it" in r.stderr


def test_annotate_refuses_a_game_without_mistake_rules(toy: Path) -> None:
    r = run("annotate", str(toy / "good.toy"), code=2)
    assert "a Toy (TOY) record: the mistake rules are for Shengji records" in r.stderr
