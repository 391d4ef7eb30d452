"""`lint --cluster` and `export --cluster`: the --jobs chunks on a dask.distributed
cluster give what --jobs 1 gives (findings, order, exit status, rows).

One LocalCluster of two worker processes serves the whole module (starting one
takes seconds); hypothesis keeps its example count small for the same reason.
"""

import os
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("distributed")

from analyzer import lint as L
from analyzer.play.generate import generate_match
from analyzer.store import cluster as C
from notation import write

PRESETS = ["standard", "tractor97", "campus", "one-deck"]


@pytest.fixture(scope="module")
def client():
    with C.connect("local:2") as c:
        yield c


def record_text(seed: int, preset: str, hands: int, mutation: int) -> str:
    """A generated match, sometimes broken so that lint has findings (SJ1xx, SJ4xx, SJ5xx)."""
    text = write(generate_match(preset, hands=hands, seed=seed))
    lines = text.splitlines()
    if mutation == 1:                                  # a wrong points line
        lines = [ln.replace("points ", "points 1", 1) if ln.startswith("points ") else ln for ln in lines]
    elif mutation == 2:                                # a line that is not SJN
        lines.insert(len(lines) // 2, "dealr S")
    elif mutation == 3:                                # a trick goes missing: wrong leaders, revokes
        tricks = [i for i, ln in enumerate(lines) if ln[:1].isdigit() and ". " in ln]
        if tricks:
            del lines[tricks[len(tricks) // 2]]
    elif mutation == 4:                                # written levels the previous hand contradicts
        lv = [i for i, ln in enumerate(lines) if ln.startswith("levels ")]
        if len(lv) > 1:
            lines[lv[-1]] = "levels NS A EW A"
    return "\n".join(lines) + "\n"


corpora = st.lists(
    st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(PRESETS), st.integers(1, 3), st.integers(0, 4)),
             min_size=1, max_size=4),
    min_size=1, max_size=3)


def write_corpus(root: Path, corpus) -> list[str]:
    paths = []
    for k, records in enumerate(corpus):
        p = root / f"f{k}.sjn"
        p.write_text("\n".join(record_text(*r) for r in records), encoding="utf-8")
        paths.append(str(p))
    return paths


def same(a: L.LintReport, b: L.LintReport) -> None:
    assert a.findings == b.findings                   # the same findings, in the same order
    assert (a.records, a.exit_code, a.summary()) == (b.records, b.exit_code, b.summary())


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(corpora)
def test_cluster_gives_what_jobs_1_gives(client, corpus):
    with tempfile.TemporaryDirectory() as d:
        paths = write_corpus(Path(d), corpus)
        options = L.LintOptions()
        one = L.lint_paths(paths, options, jobs=1)
        # small chunks: every file of more than a record is cut into several
        chunks = []
        on_cluster = L.lint_paths(paths, options, runner=C.lint_runner(client, on_chunk=chunks.append),
                                  chunk_bytes=3000, split_bytes=2000)
        same(one, on_cluster)
        assert len(chunks) >= len(paths)             # progress: one call per chunk
        assert len({(j.index, j.part) for j in chunks}) == len(chunks)


def test_a_worker_killed_mid_run_loses_nothing(client, tmp_path):
    corpus = [[(s, PRESETS[s % 4], 2, s % 5) for s in range(k * 10, k * 10 + 8)] for k in range(3)]
    paths = write_corpus(tmp_path, corpus)
    options = L.LintOptions()
    expected = L.lint_paths(paths, options, jobs=1)
    runs = tmp_path / "runs"
    runs.mkdir()

    def slow(job, opts):                      # each run of a chunk leaves a mark, then takes a while
        (runs / f"{job.index}-{job.part}-{uuid.uuid4().hex}").touch()
        time.sleep(0.4)
        return L._run_job(job, opts)

    killed = []

    def on_chunk(job):
        if killed:
            return
        busy = {w: list(keys) for w, keys in client.processing().items() if keys}
        if not busy:
            return
        worker = sorted(busy)[0]

        async def die():                       # wait=False takes a coroutine function
            os._exit(1)

        client.run(die, workers=[worker], wait=False)
        killed.append((worker, busy[worker]))

    report = L.lint_paths(paths, options, runner=C.lint_runner(client, on_chunk=on_chunk, fn=slow),
                          chunk_bytes=6000, split_bytes=4000)
    assert killed and killed[0][1], "no worker was busy when the first chunk came back"
    same(expected, report)
    marks = [p.name.rsplit("-", 1)[0] for p in runs.iterdir()]
    chunks = set(marks)
    assert len(chunks) >= 6
    assert len(marks) > len(chunks)               # the killed worker's chunk ran again elsewhere
    # the cluster is whole again for the rest of the module (the nanny restarts the worker)
    client.wait_for_workers(2, timeout=60)


def test_export_on_the_cluster_writes_the_rows_jobs_1_writes(client, tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from analyzer.store import parquet as S
    from analyzer.store import schema as SC
    corpus = [[(s, PRESETS[s % 4], 2, s % 5) for s in range(k * 7, k * 7 + 5)] for k in range(2)]
    paths = write_corpus(tmp_path, corpus)
    local = S.export_paths(paths, str(tmp_path / "one"), jobs=1)
    remote = S.export_paths(paths, str(tmp_path / "two"), client=client, chunk_bytes=3000, split_bytes=2000)
    assert local.rows == remote.rows and local.records == remote.records == 10
    for t in SC.TABLES:
        def rows(root):
            files = sorted((root / t).glob("batch=*/*.parquet"))
            if not files:
                return []
            table = pa.concat_tables([pq.read_table(f, schema=SC.arrow_schema(t)) for f in files])
            return sorted(map(repr, table.to_pylist()))
        assert rows(tmp_path / "one") == rows(tmp_path / "two"), t


def test_cli_lint_cluster_local(tmp_path):
    from typer.testing import CliRunner

    from analyzer.cli import app
    paths = write_corpus(tmp_path, [[(1, "standard", 2, 1), (2, "campus", 1, 2)]])
    runner = CliRunner()
    one = runner.invoke(app, ["lint", "--jobs", "1", *paths])
    many = runner.invoke(app, ["lint", "--cluster", "local:1", *paths])
    assert (many.exit_code, many.stdout) == (one.exit_code, one.stdout) and one.exit_code == 1
    bad = runner.invoke(app, ["lint", "--cluster", "local:x", *paths])
    assert bad.exit_code == 2 and "local:N" in bad.stderr
    both = runner.invoke(app, ["lint", "--cluster", "local:1", "--jobs", "2", *paths])
    assert both.exit_code == 2 and "cannot be used together" in both.stderr


@pytest.mark.parametrize("text,local,workers,address", [
    ("local:3", True, 3, ""),
    ("tcp://10.0.0.5:8786", False, 0, "tcp://10.0.0.5:8786"),
    ("sched:8786", False, 0, "tcp://sched:8786"),
])
def test_addresses(text, local, workers, address):
    a = C.Address.parse(text)
    assert (a.local, a.address) == (local, address) and (not local or a.workers == workers)


@pytest.mark.parametrize("text", ["", "local:0", "local:-1", "nohost"])
def test_bad_addresses(text):
    with pytest.raises(C.ClusterError):
        C.Address.parse(text)


def test_a_chunk_that_always_fails_is_one_clear_error(client, tmp_path):
    paths = write_corpus(tmp_path, [[(3, "standard", 1, 0)]])

    def boom(job, opts):
        raise ValueError("engine bug")

    with pytest.raises(C.ClusterError, match=r"f0\.sjn failed on the cluster after retries: ValueError: engine bug"):
        L.lint_paths(paths, L.LintOptions(), runner=C.lint_runner(client, fn=boom))
