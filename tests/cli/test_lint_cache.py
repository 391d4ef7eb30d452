"""The lint cache (issue 34): a second run reads the findings instead of linting;
anything that could change them (content, options, the tool's code) misses; entries
are written atomically, so concurrent runs agree and leave no partial file."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.lint import LintOptions, lint_paths, pool
from analyzer.lint import cache as Cache

ROOT = Path(__file__).resolve().parents[2]
ERRORS = Path(__file__).parent / "fixtures" / "errors.sjn"


@pytest.fixture(autouse=True)
def cache_on(monkeypatch):
    monkeypatch.delenv("SHENGJI_NO_CACHE", raising=False)
    monkeypatch.delenv("SHENGJI_CACHE_DIR", raising=False)


@pytest.fixture
def corpus(tmp_path):
    for k in range(3):
        shutil.copy(ERRORS, tmp_path / f"g{k}.sjn")
    (tmp_path / "g2.sjn").write_text(ERRORS.read_text(encoding="utf-8").replace("points 50", "points 40"),
                                     encoding="utf-8")
    return tmp_path


def run(paths, options=LintOptions(), cache_dir=None, **kw):
    cache = Cache.LintCache(cache_dir, options) if cache_dir else None
    return lint_paths(paths, options, cache=cache, **kw), cache


def test_a_second_run_reads_the_cache(corpus, tmp_path, monkeypatch):
    paths = [str(corpus / f"g{k}.sjn") for k in range(3)]
    cdir = tmp_path / "cache"
    first, c1 = run(paths, cache_dir=cdir, jobs=1)
    assert (c1.hits, c1.misses) == (0, 3) and len(list((cdir / Cache.FORMAT).rglob("*"))) >= 3

    def no_lint(*a, **k):
        raise AssertionError("linted again")
    monkeypatch.setattr(pool, "lint_file", no_lint)
    second, c2 = run(paths, cache_dir=cdir, jobs=1)
    assert c2.hits == 3
    assert second.findings == first.findings and second.summary() == first.summary()
    assert (second.records, second.exit_code) == (first.records, first.exit_code)


def test_the_same_content_under_another_name_is_named_right(corpus, tmp_path):
    cdir = tmp_path / "cache"
    run([str(corpus / "g0.sjn")], cache_dir=cdir, jobs=1)
    report, c = run([str(corpus / "g1.sjn")], cache_dir=cdir, jobs=1)
    assert c.hits == 1 and {f.path for f in report.findings} == {str(corpus / "g1.sjn")}


def test_what_could_change_the_findings_misses(corpus, tmp_path, monkeypatch):
    cdir = tmp_path / "cache"
    path = str(corpus / "g0.sjn")
    base, _ = run([path], cache_dir=cdir, jobs=1)
    # other options
    for options in (LintOptions(select=("SJ4",)), LintOptions(ignore=("SJ4",)), LintOptions(rules="standard")):
        report, c = run([path], options, cache_dir=cdir, jobs=1)
        assert c.hits == 0 and report.findings == lint_paths([path], options, jobs=1).findings
    # other content (one byte)
    text = Path(path).read_text(encoding="utf-8")
    Path(path).write_text(text.replace("points 50", "points 45"), encoding="utf-8")
    report, c = run([path], cache_dir=cdir, jobs=1)
    assert c.hits == 0 and report.findings != base.findings
    # another version of the tool's code
    monkeypatch.setattr(Cache, "_STAMP", "another build")
    _, c = run([path], cache_dir=cdir, jobs=1)
    assert c.hits == 0


def test_the_code_stamp_follows_the_code(monkeypatch, tmp_path):
    monkeypatch.setattr(Cache, "_STAMP", None)
    a = Cache.code_stamp()
    monkeypatch.setattr(Cache, "_STAMP", None)
    assert Cache.code_stamp() == a
    import replay.trick as T
    st = os.stat(T.__file__)
    try:
        os.utime(T.__file__, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
        monkeypatch.setattr(Cache, "_STAMP", None)
        assert Cache.code_stamp() != a
    finally:
        os.utime(T.__file__, ns=(st.st_atime_ns, st.st_mtime_ns))
        monkeypatch.setattr(Cache, "_STAMP", None)


def test_damaged_entries_and_a_file_changed_while_linted(corpus, tmp_path):
    cdir = tmp_path / "cache"
    path = str(corpus / "g0.sjn")
    base, _ = run([path], cache_dir=cdir, jobs=1)
    for entry in (cdir / Cache.FORMAT).rglob("*"):
        if entry.is_file():
            entry.write_text('{"records": 1, "findings": [[1', encoding="utf-8")
    report, c = run([path], cache_dir=cdir, jobs=1)
    assert c.hits == 0 and report.findings == base.findings
    c = Cache.LintCache(tmp_path / "other", LintOptions())
    assert c.get(path, path) is None                  # keyed now …
    with open(path, "a", encoding="utf-8") as f:
        f.write("\n")                                 # … changed before its result is stored
    c.put(path, base.files[0])
    assert not [e for e in (tmp_path / "other").rglob("*") if e.is_file()]     # nothing stored


def test_parallel_and_chunked_runs_use_the_cache(corpus, tmp_path, monkeypatch):
    paths = [str(corpus / f"g{k}.sjn") for k in range(3)]
    big = corpus / "big.sjn"
    big.write_text("\n".join([ERRORS.read_text(encoding="utf-8")] * 40), encoding="utf-8")
    paths.append(str(big))
    cdir = tmp_path / "cache"
    want = lint_paths(paths, LintOptions(), jobs=1)
    first, _ = run(paths, cache_dir=cdir, jobs=2, min_parallel_bytes=0, split_bytes=2000, chunk_bytes=3000)
    assert first.findings == want.findings
    (corpus / "g1.sjn").write_text("; changed\n" + ERRORS.read_text(encoding="utf-8"), encoding="utf-8")
    want = lint_paths(paths, LintOptions(), jobs=1)
    second, c = run(paths, cache_dir=cdir, jobs=2, min_parallel_bytes=0, split_bytes=2000, chunk_bytes=3000)
    assert c.hits == 3 and second.findings == want.findings and second.summary() == want.summary()


def test_the_cli_cache_directory(corpus):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("SHENGJI_NO_CACHE", None)

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "analyzer", "lint", "--isolated", *args], cwd=corpus, env=env,
                              capture_output=True, text=True, timeout=120)
    a = cli("g0.sjn", "--no-cache")
    assert not (corpus / ".shengji_cache").exists()
    b = cli("g0.sjn")
    assert (a.stdout, a.returncode) == (b.stdout, b.returncode)
    d = corpus / ".shengji_cache"
    assert (d / ".gitignore").read_text(encoding="utf-8").strip().endswith("*")
    assert (d / "CACHEDIR.TAG").read_text(encoding="utf-8").startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert cli("g0.sjn").stdout == b.stdout
    cli("g0.sjn", "--cache-dir", "elsewhere")
    assert (corpus / "elsewhere" / Cache.FORMAT).is_dir()
    assert ".shengji_cache" not in cli(".").stdout      # never linted nor walked into


def test_concurrent_runs_agree_and_leave_whole_entries(corpus, tmp_path):
    for k in range(3, 12):
        (corpus / f"g{k}.sjn").write_text(ERRORS.read_text(encoding="utf-8").replace("points 50", f"points {k}0"),
                                          encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SHENGJI_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("SHENGJI_NO_CACHE", None)
    want = subprocess.run([sys.executable, "-m", "analyzer", "lint", "--isolated", "--no-cache", "-f", "json",
                           "--jobs", "1", "."], cwd=corpus, env=env, capture_output=True, text=True, timeout=120)
    procs = [subprocess.Popen([sys.executable, "-m", "analyzer", "lint", "--isolated", "-f", "json", "--jobs", "1",
                               "."], cwd=corpus, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    outs = [p.communicate(timeout=180) for p in procs]
    assert all(out == want.stdout for out, _ in outs) and all(p.returncode == 1 for p in procs)
    entries = [e for e in (tmp_path / "cache" / Cache.FORMAT).rglob("*") if e.is_file()]
    contents = {p.read_bytes() for p in corpus.glob("*.sjn")}          # one entry per content
    assert len(entries) == len(contents) == 9 and not list((tmp_path / "cache").rglob("*.tmp"))
    for e in entries:
        assert set(json.loads(e.read_text(encoding="utf-8"))) == {"records", "findings"}
    again = subprocess.run([sys.executable, "-m", "analyzer", "lint", "--isolated", "-f", "json", "--jobs", "1", "."],
                           cwd=corpus, env=env, capture_output=True, text=True, timeout=120)
    assert again.stdout == want.stdout


def test_a_read_only_cache_directory_is_passed_over(corpus, tmp_path):
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    cdir = tmp_path / "ro"
    cdir.mkdir()
    cdir.chmod(0o500)
    try:
        report, _ = run([str(corpus / "g0.sjn")], cache_dir=cdir, jobs=1)
        assert report.findings
    finally:
        cdir.chmod(0o700)
