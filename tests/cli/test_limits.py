"""Hard limits (issue 35, notation/limits.py, docs/security.md): the same
positioned diagnostic in every command, never unbounded time or memory."""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

import pytest
from cli_helpers import ENV
from typer.testing import CliRunner

from analyzer.cli import app
from notation.limits import MAX_DECOMPRESSED, MAX_DIGITS, MAX_LINE, MAX_MESSAGE, cap_messages, long_lines
from primitives.diagnostics import Diagnostic

ROOT = Path(__file__).resolve().parents[2]
STANDARD = (ROOT / "samples" / "matches" / "standard.sjn").read_text(encoding="utf-8")
GOUJI = (ROOT / "samples" / "matches" / "gouji.gjn").read_text(encoding="utf-8")
RUNNER = CliRunner()
COMMANDS = [["lint", "{f}"], ["replay", "{f}"], ["report", "{f}"], ["fmt", "{f}"], ["convert", "{f}", "--to", "json"],
            ["annotate", "{f}", "--endgame", "0"]]


def run(args, path):
    return RUNNER.invoke(app, [a.replace("{f}", str(path)) for a in args], env=ENV, catch_exceptions=False)


@pytest.mark.parametrize("where", ["tag", "seat line", "comment"])
def test_a_line_past_the_limit_is_one_positioned_sj101_in_every_command(tmp_path, where):
    long = "x" * (MAX_LINE + 10)
    if where == "tag":
        text = STANDARD.replace('[Event "Generated match"]', f'[Event "{long}"]')
    elif where == "seat line":
        text = STANDARD.replace("\nN: ", f"\nN: S{long} ", 1)
    else:
        text = STANDARD.replace("\nhand 1\n", f"\nhand 1 ; {long}\n", 1)
    line = text[:text.index(long)].count("\n") + 1
    path = tmp_path / "long.sjn"
    path.write_text(text, encoding="utf-8")
    expected = f"long.sjn:{line}:{MAX_LINE + 1}: SJ101 this line is {len(text.split(chr(10))[line - 1]):,} characters"
    for args in COMMANDS:
        r = run(args, path)
        out = r.stdout + r.stderr
        assert "SJ901" not in out and r.exit_code in (0, 1, 2), (args, out[-800:])
        assert len(out) < 200_000, (args, len(out))  # the line is never quoted whole
        if args[0] != "report":
            assert expected in out, (args, out[-800:])
        else:
            assert f":{MAX_LINE + 1}: SJ101 this line is" in out, out[-800:]


def test_a_gjn_line_past_the_limit(tmp_path):
    text = GOUJI.replace("[Seed \"2026\"]", f"[Seed \"{'9' * (MAX_LINE + 1)}\"]")
    path = tmp_path / "long.gjn"
    path.write_text(text, encoding="utf-8")
    for args in (["lint", "{f}"], ["replay", "{f}"]):  # (Gouji report shows no reading diagnostics: issue 35, h28a)
        r = run(args, path)
        out = r.stdout + r.stderr
        assert "SJ901" not in out and f":{MAX_LINE + 1}: SJ101 this line is" in out, (args, out[-800:])


def test_long_lines_and_messages_are_cut():
    lines, diags = long_lines(["a", "b" * (MAX_LINE + 1), "c"], 7, "SJ101")
    assert lines == ["a", "", "c"] and [(d.line, d.column) for d in diags] == [(8, MAX_LINE + 1)]
    same = ["a" * MAX_LINE]
    assert long_lines(same, 1, "SJ101") == (same, []) and long_lines(same, 1, "SJ101")[0] is same
    (d,) = cap_messages([Diagnostic("SJ101", "m" * 10_000, 1, 1)])
    assert len(d.message) == MAX_MESSAGE and d.message.endswith("…")


def test_a_gzip_bomb_in_an_80fen_log_is_not_expanded(tmp_path):
    bomb = b'{"a":"' + b" " * (MAX_DECOMPRESSED + 1024) + b'"}'
    path = tmp_path / "bomb.json"
    path.write_text(json.dumps({"encoding": "gzip+base64",
                                "data": base64.b64encode(gzip.compress(bomb, 9)).decode()}), encoding="utf-8")
    r = run(["import", "auto", "{f}"], path)
    assert r.exit_code == 1 and "SJ701 the replay data expands past" in r.stderr, r.stderr[-500:]


def test_a_compressed_80fen_log_within_the_limit_is_read(tmp_path):
    data = (ROOT / "tests" / "importers" / "fixtures" / "80fen" / "deal_v2.json").read_bytes()
    path = tmp_path / "ok.json"
    path.write_text(json.dumps({"encoding": "gzip+base64", "data": base64.b64encode(gzip.compress(data)).decode()}),
                    encoding="utf-8")
    r = run(["import", "auto", "{f}"], path)
    assert r.exit_code == 0 and r.stdout.startswith("["), r.stderr[-500:]


BIG = "9" * (MAX_DIGITS + 1)  # past Python's own limit too (4,300): int() raised ValueError -> SJ901


@pytest.mark.parametrize(("name", "old", "new", "suffix"), [  # found by bench/hostile_sweep.py (twelfth session)
    ("trick number", "\n4. N: D44", f"\n{BIG}4. N: D44", ".sjn"),
    ("points", "\npoints 85", f"\npoints {BIG}", ".sjn"),
    ("levels", "levels NS 2 EW 2", f"levels NS {BIG} EW 2", ".sjn"),
    ("declaration", "declare N D2 @16", f"declare N D2 @{BIG}", ".sjn"),
    ("seed tag", '[Seed "2026"]', f'[Seed "{BIG}"]', ".sjn"),
    ("gjn play number", "\n9. P2: 6666", f"\n{BIG}. P2: 6666", ".gjn"),
    ("gjn game", "\ngame 1\n", f"\ngame {BIG}\n", ".gjn"),
])
def test_a_number_past_the_digit_limit_is_a_positioned_sj101(tmp_path, name, old, new, suffix):
    text = (STANDARD if suffix == ".sjn" else GOUJI)
    assert old in text, name
    text = text.replace(old, new, 1)
    line = text[:text.index(BIG)].count("\n") + 1
    column = len(text.split("\n")[line - 1][:text.split("\n")[line - 1].index(BIG)]) + MAX_DIGITS + 1
    path = tmp_path / f"n{suffix}"
    path.write_text(text, encoding="utf-8")
    for args in COMMANDS if suffix == ".sjn" else COMMANDS[:2] + COMMANDS[3:5]:
        r = run(args, path)
        out = r.stdout + r.stderr
        assert "SJ901" not in out and r.exit_code in (0, 1, 2), (args, out[-800:])
        if args[0] != "report":
            assert f"n{suffix}:{line}:{column}: SJ101 a number of 4,00" in out, (args, out[-800:])


def test_a_number_of_max_digits_is_read():
    line = "points " + "9" * MAX_DIGITS
    assert long_lines([line], 1, "SJ101") == ([line], [])
    lines, (d,) = long_lines(["a", "x" * 10 + "9" * (MAX_DIGITS + 1)], 3, "SJ101")
    assert lines == ["a", ""] and (d.line, d.column) == (4, 10 + MAX_DIGITS + 1)
