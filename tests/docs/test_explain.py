"""`shengji rule CODE`, the SARIF help and docs/diagnostics.md's "Every code explained"
come from one table (analyzer.lint.explain): every code has an entry, and the page's
section is the table's (run `python -m analyzer.lint.explain` to rewrite it)."""

import json

from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.lint import explain as X
from primitives.diagnostics import CODES

ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}


def test_every_code_is_explained():
    assert set(X.EXPLANATIONS) == set(CODES)
    for code, ex in X.EXPLANATIONS.items():
        assert ex.text and ex.example and ex.fix, code
        assert ex.text.endswith((".", ")")) and ex.fix.endswith((".", ")")), code


def test_the_page_is_the_table():
    page = X.PAGE.read_text(encoding="utf-8")
    assert X.render(page) == page, "docs/diagnostics.md is stale: python -m analyzer.lint.explain"
    for code in CODES:
        assert f"\n#### {code}\n" in page, code


def test_rule_prints_the_explanation_an_example_and_the_fix():
    r = CliRunner().invoke(app, ["rule", "SJ403"], env=ENV)
    assert r.exit_code == 0
    ex = X.EXPLANATIONS["SJ403"]
    assert r.stdout.startswith("SJ403 revoke (error)\n")
    assert ex.text in r.stdout and ex.fix in r.stdout and "Example:" in r.stdout
    assert all(line in r.stdout for line in ex.example.splitlines())
    assert CliRunner().invoke(app, ["rule", "sj403"], env=ENV).stdout == r.stdout
    data = json.loads(CliRunner().invoke(app, ["rule", "GJ303", "--format", "json"], env=ENV).stdout)
    assert data["name"] == "gouji-does-not-beat" and data["fix"] == X.EXPLANATIONS["GJ303"].fix
    every = CliRunner().invoke(app, ["rule", "--all"], env=ENV)
    assert every.exit_code == 0 and all(f"\n{c} " in "\n" + every.stdout for c in CODES)


def test_unknown_codes_and_rules_with_a_code():
    r = CliRunner().invoke(app, ["rule", "SJ999"], env=ENV)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "unknown code" in r.stderr
    r = CliRunner().invoke(app, ["rules", "SJ403"], env=ENV)
    assert r.exit_code == 2 and "shengji rule SJ403" in r.stderr


def test_sarif_rules_carry_the_explanation():
    from analyzer.lint.sarif import rule_entry
    entry = rule_entry("SJ501")
    ex = X.EXPLANATIONS["SJ501"]
    assert entry["fullDescription"]["text"] == ex.text
    assert ex.fix in entry["help"]["text"] and ex.example in entry["help"]["markdown"]
    assert entry["helpUri"].endswith("/diagnostics.md#sj501")
