"""``shengji fmt / convert / rules / replay / report / generate`` and ``--help`` / ``--version``."""

from __future__ import annotations

import json
import re

import pytest

from analyzer.report.presets import SOURCE_NAMES, cite

# -- fmt ------------------------------------------------------------------------------------

def test_fmt_stdout(run, golden):
    r = run("fmt", "clean.sjn")
    golden("fmt_clean", r.stdout)
    # canonical text is a fixed point
    r2 = run("fmt", "-", input=r.stdout)
    assert r2.stdout == r.stdout


def test_fmt_check_and_write(run_in, work):
    before = (work / "clean.sjn").read_text(encoding="utf-8")
    r = run_in("fmt", "clean.sjn", "match.sjn", "--check", code=1)
    assert "would reformat clean.sjn" in r.stderr
    assert (work / "clean.sjn").read_text(encoding="utf-8") == before  # --check writes nothing
    r = run_in("fmt", "clean.sjn", "--write")
    assert "reformatted clean.sjn" in r.stderr
    after = (work / "clean.sjn").read_text(encoding="utf-8")
    assert after != before
    run_in("fmt", "clean.sjn", "--check", code=0)
    r = run_in("fmt", "clean.sjn", "--write")
    assert (work / "clean.sjn").read_text(encoding="utf-8") == after
    assert "1 file left unchanged" in r.stderr


def test_fmt_refuses_syntax_errors(run_in, work):
    before = (work / "errors.sjn").read_text(encoding="utf-8")
    r = run_in("fmt", "errors.sjn", "--write", code=1)
    assert "errors.sjn:29:1: SJ105" in r.stderr
    assert "not formatted" in r.stderr
    assert (work / "errors.sjn").read_text(encoding="utf-8") == before
    run_in("fmt", "errors.sjn", "--check", code=1)


def test_fmt_check_write_exclusive(run):
    r = run("fmt", "clean.sjn", "--check", "--write", code=2)
    assert "cannot be used together" in r.stderr


def test_fmt_diff(run):
    r = run("fmt", "clean.sjn", "--diff")
    assert r.stdout.startswith("--- clean.sjn\n+++ clean.sjn\n")


@pytest.mark.parametrize("name", ["clean", "match", "partial"])
def test_fmt_diff_golden(run, golden, name):
    """The linear diff (analyzer/io/linediff.py) prints what difflib printed: the
    golden files were written by difflib.unified_diff before it (issue 35)."""
    golden(f"fmt_diff_{name}", run("fmt", f"{name}.sjn", "--diff").stdout)


# -- convert --------------------------------------------------------------------------------

def test_convert_round_trip(run_in, work):
    canonical = run_in("fmt", "match.sjn").stdout
    run_in("convert", "match.sjn", "--to", "json", "-o", "match.json")
    data = json.loads((work / "match.json").read_text(encoding="utf-8"))
    assert data["tags"][0] == {"name": "Rules", "value": "one-deck", "span": [0, 0, 0, 0],
                               "comments": [], "line_comment": None} or data["tags"][0]["name"] == "Rules"
    back = run_in("convert", "match.json", "--to", "sjn").stdout
    assert back == canonical
    # detected by content too
    back2 = run_in("convert", "-", "--to", "sjn", input=(work / "match.json").read_text()).stdout
    assert back2 == canonical


def test_convert_several_records(run_in, work):
    (work / "two.sjn").write_text((work / "clean.sjn").read_text() + "\n" + (work / "match.sjn").read_text())
    out = run_in("convert", "two.sjn", "--to", "json").stdout
    data = json.loads(out)
    assert isinstance(data, list) and len(data) == 2
    (work / "two.json").write_text(out)
    back = run_in("convert", "two.json", "--to", "sjn").stdout
    assert back == run_in("fmt", "two.sjn").stdout


def test_convert_no_overwrite(run_in, work):
    run_in("convert", "match.sjn", "--to", "json", "-o", "out.json")
    r = run_in("convert", "match.sjn", "--to", "json", "-o", "out.json", code=2)
    assert "exists; use --force" in r.stderr
    run_in("convert", "match.sjn", "--to", "json", "-o", "out.json", "--force")


def test_convert_refuses_syntax_errors(run):
    r = run("convert", "errors.sjn", "--to", "json", code=1)
    assert "SJ105" in r.stderr and r.stdout == ""


# -- rules ----------------------------------------------------------------------------------

@pytest.fixture
def fixed_presets(monkeypatch):
    """A small frozen preset table, so the golden files test the rendering only
    (the real presets change as the rules grow; see test_rules_lists_everything)."""
    import replay.ruleset as R
    monkeypatch.setattr(R, "PRESETS", {
        "standard": {},
        "club": {"decks": 1, "throw_penalty": "per_card", "tractor_links": frozenset({"joker"}),
                 "must_play": (2, 14), "match_end": "hands:3"},
    })
    monkeypatch.setattr(R, "OPTION_NAMES", ("decks", "kitty_size", "throw_penalty", "tractor_links",
                                            "must_play", "match_end"))
    monkeypatch.setattr(R, "SOURCES", {"decks": "RULES §1", "kitty_size": "RULES §1",
                                       "throw_penalty": "RULES §6; a long source text that wraps in the "
                                                        "last column of the table",
                                       "tractor_links": "RULES §3", "must_play": "RULES §7",
                                       "match_end": "RULES §7"})


def test_rules_table(run, golden, fixed_presets):
    golden("rules", run("rules").stdout)


def test_rules_preset(run, golden, fixed_presets):
    golden("rules_club", run("rules", "club").stdout)


def test_rules_lists_everything(run):
    from replay.ruleset import OPTION_NAMES, PRESETS, SOURCES, option_text, preset
    table = run("rules").stdout
    flat = " ".join(table.split())
    for name in PRESETS:
        assert re.search(rf"^{re.escape(name)}\s", table, re.M), name
        rs, std = preset(name), preset("standard")
        for option in OPTION_NAMES:
            if getattr(rs, option) != getattr(std, option):
                assert f"{option}={option_text(getattr(rs, option))}" in flat, (name, option)
    for name in PRESETS:
        out = run("rules", name).stdout
        rows = {line.split()[0] for line in out.splitlines()[3:] if line.strip() and not line.startswith(" ")}
        assert set(OPTION_NAMES) <= rows, name
        flat = " ".join(out.split())
        for option in OPTION_NAMES:
            assert " ".join(cite(SOURCES.get(option, "")).split()[:2]) in flat
        assert "RULES §" not in out and "seed 0" not in out and "seeds 0" not in out


def test_rules_cites_the_projects_own_docs():
    """Sources are docs/rules.md sections and source names that docs/rules.md lists."""
    from pathlib import Path

    from replay.ruleset import OPTION_NAMES, SOURCES
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^## (\d+)\.", doc, re.M))
    for option in OPTION_NAMES:
        text = cite(SOURCES.get(option, ""))
        for section in re.findall(r"§(\d+)", text):
            assert section in headings, (option, text)
    for name in SOURCE_NAMES.values():
        if name != "够级大纲":
            assert f"**{name}**" in doc, name
    assert cite("RULES §4, §8b; seed 001 'Zi Fan'") == "docs/rules.md §4, §8; Tractor 1997 'Zi Fan'"


def test_rules_unknown(run):
    r = run("rules", "nosuch", code=2)
    assert "unknown preset 'nosuch'" in r.stderr


# -- replay ---------------------------------------------------------------------------------

def test_replay(run, golden):
    golden("replay_clean", run("replay", "clean.sjn").stdout)


def test_replay_hand_trick(run, golden):
    golden("replay_match_h2_t6", run("replay", "match.sjn", "--hand", "2", "--trick", "6").stdout)


def test_replay_step_without_terminal(run):
    r = run("replay", "match.sjn", "--hand", "1", "--step")
    assert r.stdout.count("Before trick") == 11


def test_replay_out_of_range(run):
    r = run("replay", "match.sjn", "--hand", "9", code=2)
    assert "no hand 9" in r.stderr


# -- report ---------------------------------------------------------------------------------

def test_report_md(run, golden):
    golden("report_match_md", run("report", "match.sjn", "--format", "md").stdout)


def test_report_json(run, golden):
    out = run("report", "match.sjn", "--format", "json").stdout
    golden("report_match_json", out)
    data = json.loads(out)
    m = data["matches"][0]
    assert [h["number"] for h in m["hands"]] == [1, 2]
    assert m["progression"][-1]["after"] == {"NS": "4", "EW": "2"}
    assert m["players"]["W"]["failed_throws"] == 1


def test_report_term(run, golden):
    golden("report_errors_term", run("report", "errors.sjn", code=1).stdout)  # (a reading error: SJ105)


def test_report_html(run_in, work):
    run_in("report", "match.sjn", "--format", "html", "-o", "r.html")
    page = (work / "r.html").read_text(encoding="utf-8")
    assert page.lower().startswith("<!doctype html>") and "<style>" in page
    # the interactive viewer: inline script and data, nothing fetched
    assert not re.search(r"(src|href)=[\"']?(https?:|//)|https?://", page)
    assert '<script type="application/json" id="data">' in page
    r = run_in("report", "match.sjn", "--format", "html", "-o", "r.html", code=2)
    assert "exists; use --force" in r.stderr
    run_in("report", "match.sjn", "--format", "md", "-o", "r.html", "--force")
    assert (work / "r.html").read_text(encoding="utf-8").startswith("# Match 1")


# -- generate -------------------------------------------------------------------------------

def test_generate(run_in, work):
    try:
        import analyzer.play.generate  # noqa: F401
    except ImportError:
        r = run_in("generate", "--rules", "one-deck", "--hands", "1", "--seed", "3", code=2)
        assert "not available" in r.stderr
        return
    a = run_in("generate", "--rules", "one-deck", "--hands", "2", "--seed", "3").stdout
    b = run_in("generate", "--rules", "one-deck", "--hands", "2", "--seed", "3").stdout
    assert a == b and a.startswith("[")
    (work / "out").mkdir()
    r = run_in("generate", "--rules", "one-deck", "--hands", "1", "--seed", "3", "-o", "out")
    files = list((work / "out").glob("*.sjn"))
    assert len(files) == 1 and "wrote" in r.stderr
    run_in("lint", str(files[0]), code=0)


def test_generate_unknown_preset(run):
    run("generate", "--rules", "nosuch", code=2)


# -- help and version -------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["lint", "replay", "report", "fmt", "convert", "rules", "generate"])
def test_help_has_example(run, command):
    r = run(command, "--help")
    assert "Example" in r.stdout and f"shengji {command}" in r.stdout


def test_version(run):
    r = run("--version")
    assert re.fullmatch(r"shengji \d+\.\d+\.\d+\S*\nsearch: (native \(shengji-native \S+\)|python \(.*\))\n",
                        r.stdout)
    from replay import native
    assert r.stdout.splitlines()[1] == f"search: {native.backend()}"   # what the search itself uses


def test_no_command_shows_help(run):
    r = run(code=2)
    assert "lint" in r.stdout + r.stderr
