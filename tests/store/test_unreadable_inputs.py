"""An input the export cannot read is recorded nowhere (issue 35): no rows, not in the
batch's manifest (so a later export reads it again once it can be read), its error
said, exit 2; the other inputs of the same run are exported; a run that records no
file commits no batch (it wrote an empty manifest before).

Unreadable here: bytes that are not UTF-8 (the whole file, or a chunk past the first
of a file cut into chunks: the rows of its earlier chunks must go too), an unknown
format, and a file of mode 000 read without root's DAC override (the helper of
``tests/cli/test_unreadable_caps.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")

from analyzer.play.generate import generate_match
from analyzer.store import parquet as S
from analyzer.store import schema as SC
from analyzer.store import stats as St
from notation import write
from tests.cli.cli_helpers import ENV

ROOT = Path(__file__).resolve().parents[2]


def counts(store: Path) -> dict[str, int]:
    con = St.connect(str(store))
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in SC.TABLES}
    finally:
        con.close()


def manifests(store: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((store / "_batches").glob("*.json"))]


def recorded(store: Path) -> list[str]:
    return [os.path.basename(f["path"]) for m in manifests(store) for f in m["files"]]


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    d = tmp_path_factory.mktemp("unreadable-export")
    ok = write(generate_match("standard", hands=2, seed=1))
    (d / "ok.sjn").write_text(ok, encoding="utf-8")
    big = "\n".join(write(generate_match("standard", hands=2, seed=s)) for s in range(2, 8))
    (d / "big.sjn").write_text(big, encoding="utf-8")
    (d / "bad.sjn").write_bytes(b'[Event "x"]\n\xff\xfe\n')
    # cut into chunks of about 3,000 bytes below: the bad byte is in the last record, past the first chunk
    cut = big.rindex('[Event')
    (d / "bad-late.sjn").write_bytes(big[:cut].encode() + b'[Event "\xff"]\n' + big[cut:].encode())
    (d / "junk.bin").write_bytes(bytes(range(256)) * 4)
    alone = d / "alone"
    S.export_paths([str(d / "ok.sjn")], str(alone), jobs=1)
    return d, counts(alone)


#: (the inputs, how many of them the export records)
CASES = [
    (["bad.sjn"], []),
    (["bad.sjn", "ok.sjn"], ["ok.sjn"]),
    (["ok.sjn", "bad.sjn"], ["ok.sjn"]),
    (["bad-late.sjn"], []),
    (["bad-late.sjn", "ok.sjn"], ["ok.sjn"]),
    (["ok.sjn", "bad-late.sjn", "bad.sjn"], ["ok.sjn"]),
    (["junk.bin", "ok.sjn"], ["ok.sjn"]),
]


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(("inputs", "kept"), CASES, ids=[" ".join(i) for i, _ in CASES])
def test_an_unreadable_input_is_recorded_nowhere(place, tmp_path, inputs, kept, jobs):
    d, alone = place
    store = tmp_path / "store"
    report = S.export_paths([str(d / n) for n in inputs], str(store), jobs=jobs, chunk_bytes=3000,
                            split_bytes=2000, min_parallel_bytes=0)
    bad = [n for n in inputs if n not in kept]
    assert report.exit_code == 2
    assert sorted(os.path.basename(e.split(": ")[0]) for e in report.errors) == sorted(bad), report.errors
    assert recorded(store) == kept
    if kept:
        assert counts(store) == alone and report.rows == alone and report.records == 1
        assert len(manifests(store)) == 1 and report.files == [str(d / n) for n in kept]
    else:                                       # no batch at all
        assert report.batch == "" and "nothing exported" in report.summary()
        assert not manifests(store)
        assert not [p for p in store.rglob("*.parquet")]
    assert not [p for p in store.iterdir() if p.name.startswith(".staging")]


def test_a_file_made_readable_is_exported_by_the_next_run(place, tmp_path):
    """The file failed, so it is not in the store: the next export reads it."""
    d, _ = place
    f = tmp_path / "later.sjn"
    f.write_bytes(b'[Event "x"]\n\xff\n')
    store = tmp_path / "store"
    S.export_paths([str(f), str(d / "ok.sjn")], str(store), jobs=1)
    f.write_text(write(generate_match("standard", hands=1, seed=9)), encoding="utf-8")
    again = S.export_paths([str(f), str(d / "ok.sjn")], str(store), jobs=1)
    assert again.exit_code == 0 and again.files == [str(f)] and again.records == 1, again
    assert sorted(recorded(store)) == ["later.sjn", "ok.sjn"]


def test_a_mode_000_file_is_recorded_nowhere(place, tmp_path):
    """The command, without root's DAC override: the error by name, exit 2, the readable
    input exported; once readable the file is exported by the next run."""
    from tests.cli.test_unreadable_caps import _prefix
    d, alone = place
    f = tmp_path / "m.sjn"
    f.write_text((d / "ok.sjn").read_text() + "\n" + write(generate_match("campus", hands=1, seed=3)))
    f.chmod(0)
    prefix = _prefix(f)
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}

    def run(*names: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*prefix, sys.executable, "-m", "analyzer", "export", "--to", "parquet", "st",
                               *names, "-j", "1", "--no-progress"], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120)
    (tmp_path / "ok.sjn").write_bytes((d / "ok.sjn").read_bytes())
    r = run("m.sjn")
    assert r.returncode == 2 and "m.sjn: Permission denied" in r.stderr and "nothing exported" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and not manifests(tmp_path / "st")
    r = run("m.sjn", "ok.sjn")
    assert r.returncode == 2 and "m.sjn: Permission denied" in r.stderr, r.stderr
    assert recorded(tmp_path / "st") == ["ok.sjn"] and counts(tmp_path / "st") == alone
    f.chmod(0o644)
    r = run("m.sjn", "ok.sjn")
    assert r.returncode == 0 and "1 file" in r.stderr and "skipped ok.sjn" in r.stderr, r.stderr
    assert sorted(recorded(tmp_path / "st")) == ["m.sjn", "ok.sjn"]
