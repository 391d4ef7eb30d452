"""A damaged batch manifest (found by tests/fuzz, issue 35) is a StoreError naming
it — `stats` exits 2 with one line, `export` refuses the store — never an
internal error, and never a reason to read outside the store or to roll back
(delete) a batch another manifest's damage made look uncommitted."""

import json
import shutil

import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.store import parquet as S

ENV = {"NO_COLOR": "1", "COLUMNS": "120", "TERM": "dumb"}
SAMPLE = "samples/matches/standard.sjn"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("damaged")
    S.export_paths([SAMPLE], str(root / "store"))
    return root / "store"


def _set(path, value):
    def edit(m):
        target = m
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return edit


#: (name, an edit of the manifest's JSON object, the words of the message)
CASES = [
    ("parts-of-a-table-null", _set(("parts", "tricks"), None), "its tricks parts are not a list"),
    ("a-part-a-string", _set(("parts", "hands"), ["x"]), "a hands part is not a file inside the store"),
    ("a-part-outside-the-store", _set(("parts", "hands", 0, "file"), "../../../etc/hostname"),
     "a hands part is not a file inside the store"),
    ("a-part-an-absolute-path", _set(("parts", "hands", 0, "file"), "/etc/hostname"),
     "a hands part is not a file inside the store"),
    # found by tests/fuzz (store manifest, 10,000 examples): a UnicodeEncodeError opening the part
    ("a-part-a-lone-surrogate", _set(("parts", "hands", 0, "file"), "\ud800"),
     "a hands part is not a file inside the store"),
    ("another-batch-name", _set(("batch",), "19990101T000000-000000"), "is not its file's name"),
    ("files-a-list-of-lists", _set(("files", 0, "path"), []), "its files are not a list"),
]


@pytest.mark.parametrize("name, edit, words", CASES, ids=[c[0] for c in CASES])
def test_a_damaged_manifest_is_named(store, tmp_path, name, edit, words):
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    manifest = next((copy / "_batches").glob("*.json"))
    data = json.loads(manifest.read_text(encoding="utf-8"))
    edit(data)
    manifest.write_text(json.dumps(data), encoding="utf-8")
    parts_before = sorted(p.relative_to(copy) for p in copy.rglob("*.parquet"))
    for args in (["stats", str(copy)], ["export", "--to", "parquet", str(copy), SAMPLE]):
        r = CliRunner().invoke(app, args, env=ENV)
        out = r.stdout + r.stderr
        assert r.exit_code == 2, (args, out)
        assert "SJ901" not in out and "Traceback" not in out
        assert "a damaged batch manifest" in out and words in out, out
    # nothing rolled back: every part is still there
    assert sorted(p.relative_to(copy) for p in copy.rglob("*.parquet")) == parts_before
