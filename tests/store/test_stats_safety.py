"""`shengji stats` reads the store and nothing else: `--sql` is one SELECT on a
read-only connection with DuckDB's external access off (tries to escape fail),
results are written by DuckDB (no row through Python), CSV cells that a
spreadsheet would run are neutralised, no output goes into the store, a damaged
part is named, and reading needs DuckDB alone."""

import builtins
import csv
import io
import re
import shutil

import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.play.generate import generate_match
from analyzer.store import parquet as S
from analyzer.store import stats as St
from notation import write

ENV = {"NO_COLOR": "1", "COLUMNS": "120", "TERM": "dumb"}


def run(*args, code=0):
    r = CliRunner().invoke(app, list(args), env=ENV)
    assert r.exit_code == code, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "SJ901" not in r.stderr
    return r


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("statsafe")
    texts = [write(generate_match("standard", hands=2, seed=s)) for s in range(3)]
    hostile = ['[North "=HYPERLINK(\\"http://x\\")"]', '[West "+1+2"]', '[South "-cmd"]', '[East "@SUM(A1)"]']
    texts[0] = texts[0].replace('[Rules "standard"]', '[Rules "standard"]\n' + "\n".join(hostile), 1)
    (root / "a.sjn").write_text("\n".join(texts), encoding="utf-8")
    (root / "secret.txt").write_text("top secret\n", encoding="utf-8")
    S.export_paths([str(root / "a.sjn")], str(root / "store"))
    return root


ESCAPES = [
    "SELECT * FROM read_text('{secret}')",
    "SELECT content FROM read_text('/etc/hostname')",
    "SELECT * FROM glob('{root}/*')",
    "SELECT * FROM read_csv('{secret}')",
    "COPY (SELECT 1 AS a) TO '{root}/out.csv'",
    "COPY (SELECT 1 AS a) TO '{store}/hands/evil.csv'",
    "ATTACH '{root}/x.duckdb' AS x",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "SELECT 1; COPY (SELECT 1) TO '{root}/out.csv'",
    "CREATE TABLE t AS SELECT 1",
    "SELECT * FROM 'https://example.invalid/x.parquet'",
]


@pytest.mark.parametrize("sql", ESCAPES)
def test_sql_cannot_escape_the_store(store, sql):
    q = sql.format(root=store, store=store / "store", secret=store / "secret.txt")
    before = sorted(p.relative_to(store) for p in store.rglob("*"))
    r = run("stats", str(store / "store"), "--sql", q, "-f", "csv", code=2)
    assert "top secret" not in r.stdout and "shengji: error:" in r.stderr
    assert sorted(p.relative_to(store) for p in store.rglob("*")) == before      # nothing written anywhere


def test_the_flag_gives_full_access(store):
    r = run("stats", str(store / "store"), "--sql", f"SELECT content FROM read_text('{store / 'secret.txt'}')",
            "--sql-allow-external-access", "-f", "csv")
    assert "top secret" in r.stdout
    help_text = run("stats", "--help").stdout
    assert "--sql-allow-external-access" in help_text and "read-only" in help_text


def test_the_store_itself_can_be_queried(store):
    r = run("stats", str(store / "store"), "--sql", "SELECT count(*) AS n FROM matches", "-f", "csv")
    assert r.stdout == "n\n3\n"


def test_csv_cells_a_spreadsheet_would_run_are_neutralised(store):
    out = run("stats", str(store / "store"), "--sql",
              "SELECT DISTINCT player, -3 AS n, '\tx' AS tab, '\rx' AS cr, 'ok=1' AS fine, '=x' AS \"=head\" "
              "FROM plays ORDER BY player", "-f", "csv").stdout
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["player", "n", "tab", "cr", "fine", "'=head"]
    players = {r[0] for r in rows[1:]}
    assert {'\'=HYPERLINK("http://x")', "'+1+2", "'-cmd", "'@SUM(A1)"} <= players
    assert all(r[1] == "-3" and r[2] == "'\tx" and r[3] == "'\rx" and r[4] == "ok=1" for r in rows[1:])
    named = run("stats", str(store / "store"), "failed-throws", "-f", "csv").stdout
    assert "'-cmd" in named and not re.search(r"^[=+@-]", named, re.M)


def test_no_output_into_the_store(store, tmp_path):
    copy = tmp_path / "store"
    shutil.copytree(store / "store", copy)
    part = next((copy / "hands").glob("batch=*/part-*.parquet"))
    before = part.read_bytes()
    for target in (part, copy / "hands" / "new.csv", copy):
        r = run("stats", str(copy), "dealer-hold", "-o", str(target), "--force", "-f", "csv", code=2)
        assert "inside the store" in r.stderr and "even with --force" in r.stderr
    assert part.read_bytes() == before
    run("stats", str(copy))                                   # still readable


def test_a_damaged_part_is_named(store, tmp_path):
    copy = tmp_path / "store"
    shutil.copytree(store / "store", copy)
    part = next((copy / "tricks").glob("batch=*/part-*.parquet"))
    part.write_bytes(part.read_bytes()[:100])
    r = run("stats", str(copy), code=2)
    assert "damaged store part tricks/batch=" in r.stderr and "export its files again" in r.stderr
    data = bytearray(part.read_bytes())
    part.write_bytes(b"XXXX" + bytes(data[4:]) + b"\0" * 0)
    run("stats", str(copy), code=2)
    part.unlink()
    assert "missing" in run("stats", str(copy), code=2).stderr


def test_rows_do_not_go_through_python(store, tmp_path, monkeypatch):
    """csv, json and parquet are DuckDB's COPY: the Python row path is never used."""
    def no(*a, **k):
        raise AssertionError("rows read into Python")
    monkeypatch.setattr(St.Session, "result", no)
    monkeypatch.setattr(St, "_plain", no)
    out = tmp_path / "plays.csv"
    run("stats", str(store / "store"), "--sql", "SELECT * FROM plays", "-f", "csv", "-o", str(out))
    con = St.connect(store / "store")
    n = con.execute("SELECT count(*) FROM plays").fetchone()[0]
    assert len(list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))) == n + 1
    for fmt in ("json", "parquet"):
        run("stats", str(store / "store"), "--sql", "SELECT * FROM plays", "-f", fmt, "-o", str(tmp_path / f"p.{fmt}"))
    assert con.execute(f"SELECT count(*) FROM '{tmp_path / 'p.parquet'}'").fetchone()[0] == n
    assert con.execute(f"SELECT count(*) FROM read_json('{tmp_path / 'p.json'}')").fetchone()[0] == n


def test_reading_needs_duckdb_alone(store, monkeypatch, tmp_path):
    real = builtins.__import__

    def no_pyarrow(name, *args, **kwargs):
        if name.split(".")[0] == "pyarrow":
            raise ImportError(name)
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    for fmt in ("table", "csv", "json", "parquet", "html"):
        run("stats", str(store / "store"), "-f", fmt, "-o", str(tmp_path / fmt), "--force")
    empty = tmp_path / "empty"
    (empty / "_batches").mkdir(parents=True)
    err = run("stats", str(empty), "-f", "csv", "-o", str(tmp_path / "e")).stderr
    assert all(line.startswith("wrote ") for line in err.splitlines()), err   # no complaint, only confirmations
    assert (tmp_path / "e" / "dealer-hold.csv").read_text(encoding="utf-8").startswith("rules,level,hands")
