"""``shengji lint``: formats, exit codes, select/ignore, noqa, stdin, directories, jobs."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest
from cli_helpers import FIXTURES, Run

from analyzer import lint as L

# -- output formats (golden) ---------------------------------------------------------------

def test_lint_text(run, golden):
    r = run("lint", "clean.sjn", "errors.sjn", "partial.sjn", code=1)
    golden("lint_text", r.stdout)
    assert r.stderr == ""


def test_lint_clean_passes(run):
    r = run("lint", "clean.sjn", "match.sjn", code=0)
    assert r.stdout == "All checks passed (2 records).\n"


def test_lint_warnings_only_exit_0(run):
    r = run("lint", "partial.sjn", code=0)
    assert r.stdout.endswith("Found 1 warning in 1 file (1 record).\n")


def test_lint_json(run, golden):
    r = run("lint", "errors.sjn", "partial.sjn", "--format", "json", code=1)
    golden("lint_json", r.stdout)
    data = json.loads(r.stdout)
    for item in data:
        assert {"path", "line", "column", "end_line", "end_column", "code", "severity", "message",
                "name", "hand", "trick"} <= set(item)
    assert [d["code"] for d in data] == ["SJ403", "SJ501", "SJ105", "SJ503", "SJ503"]


def test_lint_sarif(run, golden):
    r = run("lint", "errors.sjn", "--format", "sarif", code=1)
    golden("lint_sarif", r.stdout.replace(f'"version": "{_version()}"', '"version": "X"'))
    log = json.loads(r.stdout)
    assert log["version"] == "2.1.0" and "$schema" in log
    run0 = log["runs"][0]
    rules = run0["tool"]["driver"]["rules"]
    for res in run0["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] in ("error", "warning", "note")
        region = res["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1


def _version() -> str:
    from analyzer.cli import version
    return version()


def test_lint_github(run, golden):
    r = run("lint", "errors.sjn", "--format", "github", code=1)
    golden("lint_github", r.stdout)
    lines = r.stdout.splitlines()
    assert lines[0].startswith("::error file=errors.sjn,line=21,col=11,")
    assert "title=SJ403::" in lines[0]
    assert any(line.startswith("::warning ") for line in lines)


# -- exit codes ---------------------------------------------------------------------------------

def test_exit_2_missing_file(run):
    r = run("lint", "clean.sjn", "nope.sjn", code=2)
    assert r.stderr == "shengji: error: nope.sjn: no such file or directory\n"
    assert r.stdout.endswith("No findings in 1 file read (1 record); 1 file could not be read.\n")
    assert "All checks passed" not in r.stdout


def test_exit_2_bad_option(run):
    r = run("lint", "clean.sjn", "--format", "xml", code=2)
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("shengji lint: error:")


def test_exit_2_unknown_preset(run):
    r = run("lint", "clean.sjn", "--rules", "nosuch", code=2)
    assert "unknown preset 'nosuch'" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_exit_2_bad_code_prefix(run):
    r = run("lint", "clean.sjn", "--select", "E501", code=2)
    assert "not a code or code prefix" in r.stderr


def test_exit_2_unreadable(tmp_path):
    bad = tmp_path / "latin1.sjn"
    bad.write_bytes('[Event "Caf\xe9"]\n'.encode("latin-1"))
    r = Run(tmp_path)("lint", "latin1.sjn", code=2)
    assert r.stderr.startswith("shengji: error: latin1.sjn: not UTF-8 text")
    assert "Traceback" not in r.stderr


def test_no_paths_is_usage_error(run):
    r = run("lint", code=2)
    assert "Missing argument" in r.stderr


# -- select / ignore / noqa / rules -----------------------------------------------------------------

def test_select_ignore(run):
    r = run("lint", "errors.sjn", "--select", "SJ4,SJ5", "--ignore", "SJ503", code=1)
    assert [line.split()[1] for line in r.stdout.splitlines()[:-1]] == ["SJ403", "SJ501"]
    r = run("lint", "errors.sjn", "--select", "SJ5", "--select", "SJ1", code=1)
    assert [line.split()[1] for line in r.stdout.splitlines()[:-1]] == ["SJ501", "SJ105", "SJ503"]
    r = run("lint", "errors.sjn", "--ignore", "SJ4", "--ignore", "SJ1,SJ501", code=0)
    assert r.stdout.splitlines()[-1] == "Found 1 warning in 1 file (2 records)."
    # the more specific prefix wins
    r = run("lint", "errors.sjn", "--ignore", "SJ4", "--select", "SJ403", code=1)
    assert [line.split()[1] for line in r.stdout.splitlines()[:-1]] == ["SJ403"]


def test_noqa(run, tmp_path):
    # errors.sjn has `; noqa: SJ408` and a bare `; noqa` on mis-numbered tricks:
    # neither SJ408 shows; `; noqa: SJ404` does not hide the SJ403 on its line
    r = run("lint", "errors.sjn", "--select", "SJ408,SJ403", code=1)
    assert [line.split()[1] for line in r.stdout.splitlines()[:-1]] == ["SJ403"]
    text = (FIXTURES / "errors.sjn").read_text(encoding="utf-8")
    stripped = "\n".join(line.split(";")[0].rstrip() for line in text.splitlines()) + "\n"
    (tmp_path / "x.sjn").write_text(stripped, encoding="utf-8")
    r = Run(tmp_path)("lint", "x.sjn", "--select", "SJ408", code=1)
    assert [line.split()[:2] for line in r.stdout.splitlines()[:-1]] == [
        ["x.sjn:23:1:", "SJ408"], ["x.sjn:26:1:", "SJ408"]]


def test_noqa_parsing():
    assert L.noqa_codes("1. S: SA  ; noqa") == ()
    assert L.noqa_codes("1. S: SA  ; NOQA: SJ404, sj5") == ("SJ404", "SJ5")
    assert L.noqa_codes("1. S: SA  ; ok; noqa:SJ404 SJ403") == ("SJ404", "SJ403")
    assert L.noqa_codes("1. S: SA  ; nothing") is None
    assert L.noqa_codes("1. S: SA") is None
    assert L.silenced("SJ404", 3, {3: ("SJ4",)}) and not L.silenced("SJ503", 3, {3: ("SJ4",)})
    assert L.silenced("SJ503", 3, {3: ()}) and not L.silenced("SJ503", 4, {3: ()})


def test_selected_precedence():
    assert L.selected("SJ404")
    assert not L.selected("SJ404", ignore=("SJ4",))
    assert L.selected("SJ404", select=("SJ4",), ignore=("SJ40",)) is False
    assert L.selected("SJ404", select=("SJ404",), ignore=("SJ4",))
    assert L.selected("SJ501", select=("SJ4",)) is False


def test_rules_override(run):
    # the partial record is one-deck; read as standard its deal is the wrong size
    r = run("lint", "partial.sjn", "--rules", "standard", code=1)
    assert "SJ201" in r.stdout


def test_mistakes_flag(run):
    # mistakes are findings of severity info: reported, and the exit status stays 0
    assert L.mistakes_available()
    plain = run("lint", "clean.sjn", code=0)
    assert plain.stdout.endswith("All checks passed (1 record).\n")
    r = run("lint", "clean.sjn", "--mistakes", code=0)
    codes = [line.split()[1] for line in r.stdout.splitlines()[:-1]]
    assert codes and all(c.startswith("SJ6") for c in codes)
    assert r.stdout.splitlines()[-1].endswith("info in 1 file (1 record).")
    r = run("lint", "clean.sjn", "--mistakes", "--ignore", "SJ6", code=0)
    assert r.stdout.endswith("All checks passed (1 record).\n")


# -- inputs -------------------------------------------------------------------------------------

def test_stdin(run):
    text = (FIXTURES / "errors.sjn").read_text(encoding="utf-8")
    r = run("lint", "-", input=text, code=1)
    assert r.stdout.splitlines()[0].startswith("-:21:11: SJ403 ")
    r = run("lint", "-", "--format", "json", input=text, code=1)
    assert json.loads(r.stdout)[0]["path"] == "-"


def _tree(root: Path) -> None:
    (root / "a" / "b").mkdir(parents=True)
    shutil.copy(FIXTURES / "errors.sjn", root / "a" / "b" / "deep.sjn")
    shutil.copy(FIXTURES / "clean.sjn", root / "a" / "top.sjn")
    shutil.copy(FIXTURES / "partial.sjn", root / "z.sjn")
    (root / "a" / "notes.txt").write_text("not a record\n")


def test_directory_recursion_and_globs(tmp_path, golden):
    _tree(tmp_path)
    run = Run(tmp_path)
    r = run("lint", ".", code=1)
    golden("lint_directory", r.stdout)
    assert "notes.txt" not in r.stdout
    r2 = run("lint", "a", "z.sjn", code=1)
    assert r2.stdout.replace("a/", "").count("\n") == r.stdout.count("\n")
    r3 = run("lint", "**/*.sjn", code=1)
    assert r3.stdout.splitlines()[-1] == r.stdout.splitlines()[-1]
    r4 = run("lint", "nothing/*.sjn", code=2)
    assert "nothing/*.sjn: no such file or directory" in r4.stderr


def test_jobs_same_output(tmp_path):
    _tree(tmp_path)
    run = Run(tmp_path)
    one = run("lint", ".", "--jobs", "1", "--format", "json", code=1).stdout
    two = run("lint", ".", "--jobs", "2", "--format", "json", code=1).stdout
    assert one == two
    # the same through worker processes (small inputs normally stay in-process)
    files = [str(tmp_path / p) for p in ("a/b/deep.sjn", "a/top.sjn", "z.sjn")]
    serial = L.lint_paths(files, jobs=1)
    pooled = L.lint_paths(files, jobs=2, min_parallel_bytes=0)
    assert serial.findings == pooled.findings and serial.records == pooled.records == 4


def test_split_huge_file_same_findings(tmp_path):
    """A file split into record chunks gives exactly the findings of one pass."""
    parts = [(FIXTURES / n).read_text(encoding="utf-8") for n in ("errors.sjn", "clean.sjn", "match.sjn",
                                                                 "partial.sjn")]
    big = tmp_path / "big.sjn"
    big.write_text("\n".join(parts * 6), encoding="utf-8")
    ranges = list(L.split_file(str(big), chunk_bytes=3000))
    assert len(ranges) > 3 and ranges[0][0] == 0 and ranges[-1][1] is None
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
    one = L.lint_paths([str(big)], jobs=1)
    two = L.lint_paths([str(big)], jobs=2, chunk_bytes=3000, split_bytes=1000, min_parallel_bytes=0)
    assert one.findings == two.findings
    assert one.records == two.records == 30  # errors.sjn holds two records
    assert [f.record for f in two.findings if f.code == "SJ403"] == [1, 6, 11, 16, 21, 26]


def test_split_cuts_are_reader_cuts(tmp_path):
    """Every range split_file hands out starts where the reader starts a record,
    also around multi-line commentaries, comment lines and blank runs (the
    splitter reads only a window after each approximate cut)."""
    from notation.reader import split_records
    clean = (FIXTURES / "clean.sjn").read_text(encoding="utf-8")
    odd = [
        clean,
        "; a comment line after a blank line goes with the next record\n\n" + clean,
        clean.replace("\n1.", "\n{ a commentary\nover lines\n[not a tag inside it }\n1.", 1),
        "\n" * 50 + clean,
        clean.replace("\n", "\r\n"),
    ]
    big = tmp_path / "odd.sjn"
    big.write_text("\n".join(odd * 8), encoding="utf-8")
    with open(big, encoding="utf-8", newline="") as f:
        starts = {first for first, _ in split_records(f, 1)}
    data = big.read_bytes()
    for chunk_bytes in (200, 700, 1500, 4000):
        ranges = list(L.split_file(str(big), chunk_bytes=chunk_bytes))
        assert len(ranges) > 2
        for start, _end, line in ranges:
            assert line in starts, (chunk_bytes, line)
            assert data[:start].count(b"\n") + 1 == line
        assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
    one = L.lint_paths([str(big)], jobs=1)
    two = L.lint_paths([str(big)], jobs=2, chunk_bytes=700, split_bytes=100, min_parallel_bytes=0)
    assert one.findings == two.findings and one.records == two.records


def test_lint_text_api():
    text = (FIXTURES / "errors.sjn").read_text(encoding="utf-8")
    found = L.lint_text(text, "e.sjn", select=["SJ4"])
    assert [(f.code, f.line, f.column, f.hand, f.trick) for f in found] == [("SJ403", 21, 11, 1, 7)]
    assert found[0].text().startswith("e.sjn:21:11: SJ403 ")
    with pytest.raises(L.LintUsageError):
        L.lint_text(text, rules="nosuch")


@pytest.fixture
def fake_mistakes(monkeypatch):
    """A stand-in ``analyzer.review.mistakes`` whose one rule flags every trick-1 lead."""
    import importlib.machinery
    import sys
    import types

    from primitives.diagnostics import Diagnostic

    def find_mistakes(record, match):
        for hand in match.hands:
            if hand.tricks:
                lead = hand.tricks[0].plays[0]
                yield Diagnostic.at("SJ604", lead.span, f"{lead.seat} led into trouble",
                                    hand=hand.number, trick=1)

    mod = types.ModuleType("analyzer.review.mistakes")
    mod.__spec__ = importlib.machinery.ModuleSpec("analyzer.review.mistakes", None)
    mod.find_mistakes = find_mistakes
    monkeypatch.setitem(sys.modules, "analyzer.review.mistakes", mod)
    return mod


def test_mistakes_hook(run, fake_mistakes):
    r = run("lint", "clean.sjn", "--mistakes", "--jobs", "1", code=0)
    assert r.stdout == ("clean.sjn:15:4: SJ604 S led into trouble\n"
                        "Found 1 info in 1 file (1 record).\n")
    assert r.stderr == ""
    r = run("lint", "clean.sjn", "--jobs", "1", code=0)
    assert "SJ604" not in r.stdout
    r = run("report", "clean.sjn", "--mistakes", "--format", "json")
    m = json.loads(r.stdout)["matches"][0]
    assert [d["code"] for d in m["players"]["S"]["mistakes"]] == ["SJ604"]
    assert [d["code"] for d in m["annotations"]] == ["SJ604"]


def test_directory_without_records(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing to lint\n")
    r = Run(tmp_path)("lint", ".", code=0)
    assert r.stdout == "All checks passed (0 records).\n"
    assert "no *.sjn or *.gjn files found" in r.stderr
