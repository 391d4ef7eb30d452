"""Streamed lint output (issue 34): text, json, jsonl and github are written file by
file as the files are linted, and the findings let go; the output, the summary, the
exit status and --statistics are the ones of the whole report, for any --jobs."""

import io
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.lint import LintOptions, lint_paths
from analyzer.lint import formats as F

ERRORS = Path(__file__).parent / "fixtures" / "errors.sjn"
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}


@pytest.fixture
def corpus(tmp_path):
    text = ERRORS.read_text(encoding="utf-8")
    for k in range(5):
        (tmp_path / f"f{k}.sjn").write_text("\n".join([text] * (k + 1)), encoding="utf-8")
    (tmp_path / "clean.sjn").write_text("", encoding="utf-8")
    return sorted(str(p) for p in tmp_path.glob("*.sjn"))


@pytest.mark.parametrize("jobs", [1, 2])
def test_files_are_passed_on_in_order_and_let_go(corpus, jobs):
    whole = lint_paths(corpus, LintOptions(), jobs=1)
    seen = []
    report = lint_paths(corpus, LintOptions(), jobs=jobs, min_parallel_bytes=0, split_bytes=3000, chunk_bytes=4000,
                        on_file=lambda r: seen.append((r.path, list(r.findings), r.records)), keep_findings=False)
    assert [(r.path, r.findings, r.records) for r in whole.files] == seen
    assert all(not r.findings for r in report.files) and report.streamed
    assert (report.summary(), report.exit_code, report.codes(), report.records) == \
        (whole.summary(), whole.exit_code, whole.codes(), whole.records)
    assert F.statistics(report) == F.statistics(whole)


@pytest.mark.parametrize("name", ["text", "json", "jsonl", "github"])
def test_a_streamed_format_writes_what_the_whole_report_gives(corpus, name):
    whole = lint_paths(corpus, LintOptions(), jobs=1)
    buf = io.StringIO()
    stream = F.formatter(name).stream(buf, version="1", quiet=False)
    report = lint_paths(corpus, LintOptions(), jobs=1, on_file=stream.file, keep_findings=False)
    stream.end(report)
    assert buf.getvalue() == F.formatter(name).render(whole, version="1", quiet=False)


def test_the_cli_streams(corpus, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(ERRORS, tmp_path / "more.sjn")
    for fmt in ("text", "json", "jsonl", "github", "sarif"):
        r = CliRunner().invoke(app, ["lint", "--isolated", "-f", fmt, "."], env=ENV)
        whole = lint_paths(["."], LintOptions(), jobs=1)
        assert r.exit_code == 1 and r.stdout == F.formatter(fmt).render(whole, version=_version(), quiet=False), fmt


def _version():
    from analyzer.cli import version
    return version()
