"""`shengji lint`'s linter conventions (issue 34): the configuration file found upward
as ruff finds its own, the command line over it, --extend-select, --exclude and
.gitignore, --exit-zero, --statistics, -o, shell completion, the pre-commit hooks."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.lint import config as K
from analyzer.lint import ignore as I

ROOT = Path(__file__).resolve().parents[2]
ERRORS = Path(__file__).parent / "fixtures" / "errors.sjn"   # SJ403, SJ501, SJ105, SJ503
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}


def lint(cwd: Path, *args: str, code: int | None = None):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        r = CliRunner().invoke(app, ["lint", *args], env=ENV, catch_exceptions=False)
    finally:
        os.chdir(old)
    if code is not None:
        assert r.exit_code == code, r.stdout + r.stderr
    return r


def codes(text: str) -> list[str]:
    return sorted({ln.split()[1] for ln in text.splitlines() if ": SJ" in ln})


@pytest.fixture
def proj(tmp_path):
    """A project: games/a.sjn, games/sub/b.sjn, drafts/c.sjn."""
    for rel in ("games/a.sjn", "games/sub/b.sjn", "drafts/c.sjn"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ERRORS, tmp_path / rel)
    return tmp_path


def test_pyproject_tool_shengji_is_read_from_a_subdirectory(proj):
    (proj / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.shengji]\nignore = ["SJ503", "SJ1"]\n'
                                         'exclude = ["drafts/"]\n', encoding="utf-8")
    r = lint(proj / "games", ".", code=1)
    assert codes(r.stdout) == ["SJ403", "SJ501"]
    r = lint(proj, ".", code=1)                                  # drafts/ excluded by the file
    assert "drafts" not in r.stdout and "games/sub/b.sjn" in r.stdout
    r = lint(proj, "drafts/c.sjn", code=1)                       # a file named is always linted
    assert "drafts/c.sjn:21" in r.stdout


def test_the_nearest_file_wins_and_shengji_toml_before_pyproject(proj):
    (proj / "pyproject.toml").write_text('[tool.shengji]\nselect = ["SJ4"]\n', encoding="utf-8")
    assert codes(lint(proj, "games", code=1).stdout) == ["SJ403"]
    (proj / "shengji.toml").write_text('select = ["SJ5"]\n', encoding="utf-8")
    assert codes(lint(proj, "games", code=1).stdout) == ["SJ501", "SJ503"]
    (proj / "games" / "sub" / ".shengji.toml").write_text('select = ["SJ1"]\nformat = "jsonl"\n', encoding="utf-8")
    r = lint(proj / "games" / "sub", "b.sjn", code=1)
    assert [json.loads(ln)["code"] for ln in r.stdout.splitlines()] == ["SJ105"]
    # a pyproject.toml without [tool.shengji] is passed over
    (proj / "games" / "pyproject.toml").write_text('[project]\nname = "y"\n', encoding="utf-8")
    assert K.find(proj / "games") == proj / "shengji.toml"
    assert lint(proj, "games", "--isolated", code=1).stdout.count(": SJ") == 8
    alt = proj / "alt.toml"
    alt.write_text('select = ["SJ403"]\n', encoding="utf-8")
    assert codes(lint(proj, "games", "--config", str(alt), code=1).stdout) == ["SJ403"]


def test_the_command_line_wins_over_the_file(proj):
    (proj / "shengji.toml").write_text('select = ["SJ4", "SJ5"]\nignore = ["SJ503"]\nformat = "json"\n'
                                       'rules = "nonesuch"\njobs = 2\n', encoding="utf-8")
    r = lint(proj, "games", code=2)                              # the file's preset is checked
    assert "nonesuch" in r.stderr
    r = lint(proj, "games", "--rules", "one-deck", "--select", "SJ1,SJ5", "-f", "text", code=1)
    assert codes(r.stdout) == ["SJ105", "SJ501"]                 # select replaced, ignore kept
    r = lint(proj, "games", "--rules", "one-deck", "--ignore", "SJ501", "-f", "text", code=1)
    assert codes(r.stdout) == ["SJ403"]                          # ignore added to the file's
    r = lint(proj, "games", "--rules", "one-deck", "--extend-select", "SJ105,SJ503", "-f", "text", code=1)
    assert codes(r.stdout) == ["SJ105", "SJ403", "SJ501", "SJ503"]   # extend-select takes SJ503 back too


def test_extend_select_without_select_keeps_every_code(proj):
    every = lint(proj, "games", "--isolated", code=1).stdout
    assert lint(proj, "games", "--isolated", "--extend-select", "SJ4", code=1).stdout == every
    r = lint(proj, "games", "--isolated", "--ignore", "SJ4", "--extend-select", "SJ403", code=1)
    assert r.stdout == every


@pytest.mark.parametrize("text,message", [
    ('selekt = ["SJ4"]\n', "unknown key 'selekt'"),
    ('select = "SJ4x"\n', "not a code"),
    ('jobs = 0\n', "jobs must be"),
    ('format = "xml"\n', "format 'xml'"),
    ('select = [\n', "not valid TOML"),
])
def test_a_bad_file_is_one_line_naming_it(proj, text, message):
    (proj / "shengji.toml").write_text(text, encoding="utf-8")
    r = lint(proj, "games", code=2)
    assert r.stderr.count("\n") == 1 and message in r.stderr and "shengji.toml" in r.stderr, r.stderr


def test_exclude_on_the_command_line(proj):
    r = lint(proj, ".", "--isolated", "--exclude", "sub,drafts/", code=1)
    assert "games/a.sjn" in r.stdout and "sub/" not in r.stdout and "drafts" not in r.stdout
    r = lint(proj, "**/*.sjn", "--isolated", "--exclude", "a.sjn", code=1)          # a glob's matches too
    assert "games/a.sjn" not in r.stdout and "games/sub/b.sjn" in r.stdout


def test_gitignore_is_respected_in_directories(proj):
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    (proj / ".gitignore").write_text("drafts/\n*.sjn\n!games/**/*.sjn\n", encoding="utf-8")
    (proj / "games" / "sub" / ".gitignore").write_text("b.sjn\n", encoding="utf-8")
    shutil.copy(ERRORS, proj / "top.sjn")
    r = lint(proj, ".", "--isolated", code=1)
    assert "games/a.sjn" in r.stdout
    assert "drafts" not in r.stdout and "top.sjn" not in r.stdout and "b.sjn" not in r.stdout
    r = lint(proj / "games", ".", "--isolated", code=1)         # the parents' .gitignore count too
    assert "a.sjn" in r.stdout and "b.sjn" not in r.stdout
    assert "top.sjn" in lint(proj, "top.sjn", "--isolated", code=1).stdout   # named: linted
    (proj / "shengji.toml").write_text("respect-gitignore = false\n", encoding="utf-8")
    assert "drafts/c.sjn" in lint(proj, ".", code=1).stdout


@pytest.mark.parametrize("pattern,path,is_dir,hit", [
    ("x.sjn", "a/b/x.sjn", False, True),
    ("/x.sjn", "a/x.sjn", False, False),
    ("a/*.sjn", "a/x.sjn", False, True),
    ("a/*.sjn", "a/b/x.sjn", False, False),
    ("a/**/x.sjn", "a/b/c/x.sjn", False, True),
    ("**/b", "a/b", True, True),
    ("b/", "a/b", False, False),
    ("b/", "a/b", True, True),
    ("[!x]*.sjn", "y.sjn", False, True),
    ("[!x]*.sjn", "x.sjn", False, False),
    ("?.sjn", "ab.sjn", False, False),
])
def test_gitignore_patterns(tmp_path, pattern, path, is_dir, hit):
    rules = I.compile_patterns([pattern], str(tmp_path))
    assert I.ignored(str(tmp_path / path), is_dir, rules) is hit


def test_exit_zero_statistics_and_output_file(proj):
    r = lint(proj, "games", "--isolated", "--exit-zero", code=0)
    assert "SJ403" in r.stdout
    assert lint(proj, "games", "missing.sjn", "--isolated", "--exit-zero", code=2)
    r = lint(proj, "games", "--isolated", "--statistics", code=1)
    assert r.stdout.splitlines()[:4] == ["2  SJ105  bad-tag", "2  SJ403  revoke", "2  SJ501  points-mismatch",
                                         "2  SJ503  incomplete-hand"]
    assert r.stdout.splitlines()[-1].startswith("Found 6 errors, 2 warnings")
    stats = json.loads(lint(proj, "games", "--isolated", "--statistics", "-f", "json", code=1).stdout)
    assert stats[1] == {"code": "SJ403", "name": "revoke", "severity": "error", "count": 2}
    assert "--statistics" in lint(proj, "games", "--isolated", "--statistics", "-f", "sarif", code=2).stderr
    r = lint(proj, "games", "--isolated", "-f", "sarif", "-o", "out.sarif", code=1)
    assert r.stdout == "" and json.loads((proj / "out.sarif").read_text(encoding="utf-8"))["version"] == "2.1.0"
    r = lint(proj, "games", "--isolated", "-o", "out.sarif", code=2)            # never over a file unasked
    assert "exists" in r.stderr and (proj / "out.sarif").read_text(encoding="utf-8").startswith("{")
    lint(proj, "games", "--isolated", "-o", "out.sarif", "--force", code=1)
    assert (proj / "out.sarif").read_text(encoding="utf-8").startswith("games/a.sjn:")
    r = lint(proj, "games/a.sjn", "--isolated", "-o", "games/a.sjn", "--force", code=2)    # never over an input
    assert "input" in r.stderr


def test_shell_completion_is_on(tmp_path):
    r = CliRunner().invoke(app, ["--help"], env=ENV)
    assert "--install-completion" in r.stdout and "--show-completion" in r.stdout
    env = {**os.environ, "PYTHONPATH": str(ROOT), "_SHENGJI_COMPLETE": "complete_bash",
           "COMP_WORDS": "shengji lint --exit", "COMP_CWORD": "2"}
    out = subprocess.run([sys.executable, "-c", "from analyzer.cli import app; app(prog_name='shengji')"],
                         env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["--exit-zero"], out.stdout + out.stderr


def test_the_pre_commit_hooks_run_commands_that_exist():
    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    ids = [ln.split(":", 1)[1].strip() for ln in text.splitlines() if ln.startswith("- id:")]
    entries = [ln.split(":", 1)[1].strip() for ln in text.splitlines() if ln.strip().startswith("entry:")]
    assert ids == ["shengji-lint", "shengji-fmt"] and len(entries) == 2
    for entry in entries:
        prog, command, *opts = entry.split()
        assert prog == "shengji"
        r = CliRunner().invoke(app, [command, "--help"], env=ENV)
        assert r.exit_code == 0 and all(o in r.stdout for o in opts), entry
