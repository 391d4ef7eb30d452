"""A file's findings past ``SPILL_FINDINGS`` wait on disk, in sorted runs merged
back when written (issue 35: ``lint --mistakes`` on one huge file no longer holds
every finding): every output format, ``--statistics``, the cache's entries and
what a warm run reads back from them are, byte for byte, those of a run that
held every finding in memory."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.lint import LintOptions, cache, findings, lint_file

ERRORS = Path(__file__).parent / "fixtures" / "errors.sjn"
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}


@pytest.fixture(autouse=True)
def cache_on(monkeypatch):
    monkeypatch.delenv("SHENGJI_NO_CACHE", raising=False)
    monkeypatch.delenv("SHENGJI_CACHE_DIR", raising=False)


@pytest.fixture
def files(tmp_path):
    text = ERRORS.read_text(encoding="utf-8")
    (tmp_path / "big.sjn").write_text("\n".join([text] * 12), encoding="utf-8")
    (tmp_path / "small.sjn").write_text(text, encoding="utf-8")
    return [str(tmp_path / "big.sjn"), str(tmp_path / "small.sjn")]


def run(args, monkeypatch, spill, whole_entry=cache.WHOLE_ENTRY):
    monkeypatch.setattr(findings, "SPILL_FINDINGS", spill)
    monkeypatch.setattr(cache, "WHOLE_ENTRY", whole_entry)
    r = CliRunner().invoke(app, ["lint", "--isolated", "--jobs", "1", *args], env=ENV)
    return r.exit_code, r.stdout


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "github", "sarif"])
def test_spilled_findings_are_written_as_held_ones(files, monkeypatch, fmt):
    held = run(["--no-cache", "-f", fmt, *files], monkeypatch, 10**9)
    spilled = run(["--no-cache", "-f", fmt, *files], monkeypatch, 4)
    assert held[0] == 1 and held[1].count("SJ") > 40
    assert spilled == held


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_statistics_of_spilled_findings(files, monkeypatch, fmt):
    held = run(["--no-cache", "--statistics", "-f", fmt, *files], monkeypatch, 10**9)
    assert run(["--no-cache", "--statistics", "-f", fmt, *files], monkeypatch, 4) == held


def test_one_file_holds_at_most_spill_findings(files, monkeypatch):
    whole = lint_file(files[0], LintOptions())
    monkeypatch.setattr(findings, "SPILL_FINDINGS", 4)
    result = lint_file(files[0], LintOptions())
    assert result.spilled is not None and len(result.findings) < 4
    assert list(result.iter_findings()) == whole.findings and len(whole.findings) > 40
    assert result.tally() == whole.tally()
    assert result.held() is result and result.findings == whole.findings and result.spilled is None


def test_the_cache_of_a_spilled_file(files, tmp_path, monkeypatch):
    """The entry is the same bytes; read back a row at a time (a big entry), it gives the same output."""
    held = run(["--cache-dir", str(tmp_path / "a"), *files], monkeypatch, 10**9)
    spilled = run(["--cache-dir", str(tmp_path / "b"), *files], monkeypatch, 4)
    entries = [{p.name: p.read_bytes() for p in (tmp_path / d).rglob("*") if p.is_file() and len(p.name) > 30}
               for d in ("a", "b")]
    assert held == spilled and entries[0] == entries[1] and len(entries[0]) == 2
    monkeypatch.setattr(findings, "SPILL_FINDINGS", 10**9)
    whole = lint_file(files[0], LintOptions())
    monkeypatch.setattr(findings, "SPILL_FINDINGS", 4)
    for whole_entry in (10**9, 64, 1):
        monkeypatch.setattr(cache, "WHOLE_ENTRY", whole_entry)
        got = cache.LintCache(tmp_path / "b", LintOptions()).get(files[0], files[0])
        assert got is not None and list(got.iter_findings()) == whole.findings and got.records == whole.records
        assert run(["--cache-dir", str(tmp_path / "b"), *files], monkeypatch, 4, whole_entry) == held
        assert run(["--cache-dir", str(tmp_path / "b"), *files], monkeypatch, 10**9, whole_entry) == held


@pytest.mark.parametrize("cut", [1, 30, 200, -2, -1])
def test_a_damaged_big_entry_is_a_miss(files, tmp_path, monkeypatch, cut):
    held = run(["--no-cache", *files], monkeypatch, 10**9)
    run(["--cache-dir", str(tmp_path / "c"), *files], monkeypatch, 4)
    for p in (tmp_path / "c").rglob("*"):
        if p.is_file() and len(p.name) > 30:
            p.write_bytes(p.read_bytes()[:cut] if cut > 0 else p.read_bytes()[:cut] + b"x]}")
    c = cache.LintCache(tmp_path / "c", LintOptions())
    monkeypatch.setattr(cache, "WHOLE_ENTRY", 64)
    assert c.get(files[0], files[0]) is None and c.misses == 1
    assert run(["--cache-dir", str(tmp_path / "c"), *files], monkeypatch, 4, 64) == held


def test_chunks_of_a_big_file_are_folded_in_as_they_come(files, monkeypatch):
    """``--jobs 2`` on a file cut into record chunks: each chunk is folded into the
    file's result once the chunks before it are in (its findings spilled like
    one file's), not all held until the last; the report is ``--jobs 1``'s."""
    from analyzer.lint import lint_paths, pool
    whole = lint_paths(files, LintOptions(), jobs=1)
    monkeypatch.setattr(findings, "SPILL_FINDINGS", 4)
    held_at_once: list[int] = []
    real_fold = pool._Parts._fold

    def fold(self, part):  # type: ignore[no-untyped-def]
        held_at_once.append(sum(1 for r in self.values() if r is not pool._FOLDED))
        real_fold(self, part)

    def in_order(files, sizes, options, jobs, results, stdin, progress, chunk_bytes, split_bytes):  # type: ignore[no-untyped-def]
        for job in pool.iter_jobs(files, sizes, options, jobs, results, stdin, chunk_bytes, split_bytes):
            results[job.index][job.part] = pool._run_job(job, options)

    monkeypatch.setattr(pool._Parts, "_fold", fold)
    for runner in (in_order, None):   # (a runner in order: one chunk held at a time; worker processes)
        held_at_once.clear()
        report = lint_paths(files, LintOptions(), jobs=2, min_parallel_bytes=0, split_bytes=3000, chunk_bytes=2000,
                            runner=runner)
        assert len(held_at_once) >= 5 and (runner is None or max(held_at_once) == 1), held_at_once
        assert report.files[0].spilled is not None
        assert report.findings == whole.findings and report.summary() == whole.summary()
        assert [r.records for r in report.files] == [r.records for r in whole.files]
