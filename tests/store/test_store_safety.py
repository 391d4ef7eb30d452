"""The store is crash-safe, compacted, and its schema is an analyst's: a batch is
visible whole or not at all (a fault-injection test kills the export at every
rename and fsync), re-running an interrupted export neither loses nor duplicates
rows, parts are few, cards are lists, keys are content-derived, and Gouji
records go to Gouji's tables, never read as Shengji."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")
import pyarrow.parquet as pq  # noqa: E402

from analyzer.play.generate import generate_match  # noqa: E402
from analyzer.store import parquet as S  # noqa: E402
from analyzer.store import schema as SC  # noqa: E402
from analyzer.store import stats as St  # noqa: E402
from notation import parse, write  # noqa: E402
from replay.game import replay  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def counts(store) -> dict[str, int]:
    con = St.connect(store)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in SC.TABLES}
    finally:
        con.close()


def add(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    return {t: a[t] + b[t] for t in SC.TABLES}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("safety")
    a = "\n".join(write(generate_match("standard", hands=2, seed=s)) for s in range(3))
    b = "\n".join(write(generate_match(p, hands=2, seed=s)) for s, p in enumerate(["standard", "tractor97", "campus"]))
    b = re.sub(r"^points \d+", "points 5", b, count=1, flags=re.M)           # a diagnostic too
    (root / "a.sjn").write_text(a, encoding="utf-8")
    (root / "b.sjn").write_text(b, encoding="utf-8")
    base = root / "base"
    S.export_paths([str(root / "a.sjn")], str(base))
    alone = root / "alone"
    S.export_paths([str(root / "b.sjn")], str(alone))
    return root, base, counts(base), counts(alone)


_CHILD = r"""
import os, signal, sys
what, n = sys.argv[3], int(sys.argv[4])
calls = [0]
def killing(real):
    def call(*args, **kwargs):
        calls[0] += 1
        if calls[0] == n:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)
    return call
if what == "rename":
    os.replace, os.rename = killing(os.replace), killing(os.rename)
else:
    os.fsync = killing(os.fsync)
from analyzer.store import parquet as S
from analyzer.store import schema as SC
S.export_paths([sys.argv[1]], sys.argv[2], chunk_bytes=3000, split_bytes=2000, row_group_rows=50)
print(calls[0])
"""


def child(src: Path, store: Path, what: str, n: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", _CHILD, str(src), str(store), what, str(n)],
                          capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.parametrize("what", ["rename", "fsync"])
def test_killed_at_every_rename_and_fsync_the_batch_is_whole_or_absent(files, tmp_path, what):
    root, base, before, alone = files
    full = add(before, alone)
    dry = child(root / "b.sjn", tmp_path / "count", what, 0)
    assert dry.returncode == 0, dry.stderr
    total = int(dry.stdout.split()[-1])
    assert total >= (6 if what == "rename" else 5)         # the table directories and the manifest
    for k in range(1, total + 1):
        store = tmp_path / f"s{k}"
        shutil.copytree(base, store)
        killed = child(root / "b.sjn", store, what, k)
        assert killed.returncode == -signal.SIGKILL, (k, killed.stderr)
        seen = counts(store)
        assert seen in (before, full), (what, k, seen)
        again = S.export_paths([str(root / "b.sjn")], str(store))
        assert counts(store) == full, (what, k)            # nothing lost, nothing twice
        assert again.batch == "" or seen == before
        assert not list(store.glob(".staging-*"))
        committed = {m["batch"] for m in S.manifests(store)}
        for t in SC.TABLES:
            if (store / t).is_dir():
                assert {p.name[6:] for p in (store / t).iterdir()} <= committed
        shutil.rmtree(store)


def test_leftovers_of_an_interrupted_export_are_rolled_back(files, tmp_path):
    root, base, before, alone = files
    store = tmp_path / "s"
    shutil.copytree(base, store)
    (store / ".staging-X" / "hands" / "batch=X").mkdir(parents=True)
    shutil.copytree(next((store / "hands").iterdir()), store / "hands" / "batch=Y")   # no manifest: not committed
    assert counts(store) == before                          # readers see committed batches only
    rep = S.export_paths([str(root / "b.sjn")], str(store))
    assert any(".staging-X" in r for r in rep.recovered) and any("batch=Y" in r for r in rep.recovered)
    assert not (store / ".staging-X").exists() and not (store / "hands" / "batch=Y").exists()
    assert counts(store) == add(before, alone)


def test_one_export_at_a_time(files, tmp_path):
    fcntl = pytest.importorskip("fcntl")
    root, base, _, _ = files
    store = tmp_path / "s"
    shutil.copytree(base, store)
    fd = os.open(store / ".lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(SC.StoreError, match="another export is writing"):
            S.export_paths([str(root / "b.sjn")], str(store))
    finally:
        os.close(fd)
    assert not list(store.glob(".staging-*"))


def test_parts_are_compacted(files, tmp_path, monkeypatch):
    import analyzer.lint.pool as pool
    monkeypatch.setattr(pool, "MIN_CHUNK_BYTES", 500)
    root, _, _, alone = files
    store = tmp_path / "s"
    chunks = []
    rep = S.export_paths([str(root / "b.sjn")], str(store), chunk_bytes=1000, split_bytes=2000,
                         on_chunk=chunks.append)
    assert len(chunks) >= 2
    for t in SC.TABLES:
        parts = list((store / t).glob("batch=*/*.parquet"))
        assert len(parts) == (1 if rep.rows[t] else 0), t     # many chunks, one file per table
    few = tmp_path / "few"
    S.export_paths([str(root / "b.sjn")], str(few), chunk_bytes=1000, split_bytes=2000, row_group_rows=100,
                   part_bytes=2_000)
    plays = sorted((few / "plays").glob("batch=*/*.parquet"))
    assert len(plays) > 1 and counts(few) == alone
    meta = pq.ParquetFile(plays[0]).metadata
    assert all(meta.row_group(i).num_rows >= 100 for i in range(meta.num_row_groups))    # no tiny row groups
    manifest = S.manifests(few)[0]
    assert [p["file"] for p in manifest["parts"]["plays"]] == [str(p.relative_to(few)) for p in plays]


def test_an_old_store_asks_for_a_new_one(files, tmp_path):
    _, base, _, _ = files
    store = tmp_path / "s"
    shutil.copytree(base, store)
    m = next((store / "_batches").glob("*.json"))
    data = json.loads(m.read_text())
    del data["format"], data["parts"]
    m.write_text(json.dumps(data))
    with pytest.raises(SC.StoreError, match=r"older shengji.*new store"):
        St.connect(store)
    with pytest.raises(SC.StoreError, match="older shengji"):
        S.export_paths([str(files[0] / "b.sjn")], str(store))


# -- the schema ---------------------------------------------------------------------------------

def table(store, name) -> list[dict]:
    files = sorted((Path(store) / name).glob("batch=*/*.parquet"))
    return pa.concat_tables([pq.read_table(f) for f in files]).to_pylist() if files else []


def test_an_analysts_schema(tmp_path):
    rec = write(generate_match("standard", hands=2, seed=4))
    rec = rec.replace('[Rules "standard"]', '[Rules "standard"]\n[Date "2026.11.24"]\n[North "Ann"]\n'
                      '[Round "3"]\n[Table "7"]\n[White "x"]', 1)
    (tmp_path / "m.sjn").write_text(rec, encoding="utf-8")
    S.export_paths([str(tmp_path / "m.sjn")], str(tmp_path / "s"))
    (m,) = table(tmp_path / "s", "matches")
    import datetime
    assert m["date"] == datetime.date(2026, 11, 24)
    tags = dict(m["tags"])
    assert {"Round": "3", "Table": "7", "White": "x", "North": "Ann"}.items() <= tags.items()
    assert m["seats"] == ["N", "W", "S", "E"] and m["players"] == ["Ann", None, None, None]
    hands = table(tmp_path / "s", "hands")
    (record,), _ = parse(rec)
    match = replay(record)
    from primitives.cards import to_str
    for h, hr in zip(hands, match.hands):
        assert h["kitty"] == [to_str(c) for c in hr.kitty]
        assert h["bury"] == [to_str(c) for c in hr.bury]
        assert sorted(h["dealer_team"] + h["attackers"]) == ["E", "N", "S", "W"]
        assert hr.dealer in h["dealer_team"]
    plays = table(tmp_path / "s", "plays")
    assert all(isinstance(p["cards"], list) and len(p["cards"]) == p["n_cards"] for p in plays)
    assert {p["match_id"] for p in plays} == {m["match_id"]} and re.fullmatch(r"[0-9a-f]{20}", m["match_id"])
    tricks = table(tmp_path / "s", "tricks")
    assert all(t["lead"] == next(p["cards"] for p in plays if (p["hand"], p["trick"], p["position"]) ==
                             (t["hand"], t["trick"], 0)) for t in tricks)


def test_the_structures_are_the_engines(tmp_path):
    """The quick paths of the play structures (one card, two cards) agree with the engine's decomposition."""
    from replay.shapes import shape_name
    from replay.units import decompose
    text = "\n".join(write(generate_match(p, hands=2, seed=9)) for p in ("standard", "tractor97"))
    (tmp_path / "m.sjn").write_text(text, encoding="utf-8")
    S.export_paths([str(tmp_path / "m.sjn")], str(tmp_path / "s"))
    plays = table(tmp_path / "s", "plays")
    records, _ = parse(text)
    want = []
    for r in records:
        for hr in replay(r).hands:
            for t in hr.tricks:
                for p in t.plays:
                    by: dict[int, list[int]] = {}
                    for c in p.cards:
                        by.setdefault(hr.order.eff[c], []).append(c)
                    want.append(" + ".join(shape_name(u.width, u.length) for cs in by.values()
                                           for u in decompose(cs, hr.order)))
    assert [p["structure"] for p in plays] == want
    assert {"pair", "single", "single + single"} <= set(want)


def test_match_id_is_the_records_content(tmp_path):
    recs = [write(generate_match("standard", hands=1, seed=s)) for s in range(2)]
    (tmp_path / "one.sjn").write_text("\n".join(recs), encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "other.sjn").write_text(";; a comment first\n\n" + recs[1], encoding="utf-8")
    S.export_paths([str(tmp_path / "one.sjn")], str(tmp_path / "s1"))
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path / "sub")
        S.export_paths(["other.sjn"], str(tmp_path / "s2"))
    finally:
        os.chdir(cwd)
    first = {m["line"]: m["match_id"] for m in table(tmp_path / "s1", "matches")}
    (second,) = table(tmp_path / "s2", "matches")
    assert len(set(first.values())) == 2
    assert second["match_id"] == sorted(first.items())[1][1]        # same record: same key


@pytest.mark.parametrize("players", [5, 6, 8])
def test_five_to_eight_players_keep_their_names_and_teams(tmp_path, players):
    rec = write(generate_match("shengji-io-friends", hands=2, seed=1, players=players))
    seats = re.findall(r"^(P\d):", rec, re.M)
    names = "\n".join(f'[{s} "name{s}"]' for s in sorted(set(seats)))
    rec = re.sub(r"^(\[Rules [^\n]*\])", lambda m: m[1] + "\n" + names, rec, count=1, flags=re.M)
    (tmp_path / "f.sjn").write_text(rec, encoding="utf-8")
    S.export_paths([str(tmp_path / "f.sjn")], str(tmp_path / "s"))
    (m,) = table(tmp_path / "s", "matches")
    assert len(m["seats"]) >= 5 and m["players"] == [f"name{s}" for s in m["seats"]]
    for h in table(tmp_path / "s", "hands"):
        if h["dealer_team"] is not None:
            assert isinstance(h["dealer_team"], list) and set(h["dealer_team"]) <= set(m["seats"])
    assert {p["player"] for p in table(tmp_path / "s", "plays")} <= {f"name{s}" for s in m["seats"]}


def test_pandas_reads_nullable_integers_as_such(files):
    _, base, _, _ = files
    schema = pq.read_schema(next((base / "hands").glob("batch=*/*.parquet")))
    meta = json.loads(schema.metadata[b"pandas"])
    dtypes = {c["name"]: c["numpy_type"] for c in meta["columns"]}
    assert dtypes["number"] == "Int32" and dtypes["ns_level"] == "Int8" and dtypes["dealers_keep"] == "boolean"
    pd = pytest.importorskip("pandas")
    df = pd.read_parquet(next((base / "hands").glob("batch=*/*.parquet")))
    assert str(df["number"].dtype) == "Int32" and str(df["next_ns_level"].dtype) == "Int8"


def test_gouji_records_go_to_gouji_tables_never_read_as_shengji(tmp_path):
    gjn = ROOT / "samples" / "matches" / "gouji-online.gjn"
    (tmp_path / "g.sjn").write_text(gjn.read_text(encoding="utf-8"), encoding="utf-8")   # tagged, misnamed
    from typer.testing import CliRunner

    from analyzer.cli import app
    r = CliRunner().invoke(app, ["convert", str(gjn), "--to", "json", "-o", str(tmp_path / "g.json")])
    assert r.exit_code == 0, r.stderr
    keys = {}
    for f in (gjn, tmp_path / "g.sjn", tmp_path / "g.json"):
        rep = S.export_paths([str(f)], str(tmp_path / f"s-{f.name}"))
        # read by Gouji's reader into Gouji's tables; no Shengji row, nothing skipped
        assert rep.exit_code == 0 and rep.records == 1 and not rep.errors and not rep.skipped, (f, rep.errors)
        assert all(rep.rows[t] == 0 for t in SC.TABLES if t != "diagnostics"), rep.rows
        assert rep.rows["gouji_matches"] == 1 and rep.rows["gouji_games"] >= 1 and rep.rows["gouji_plays"] > 0
        keys[f.suffix] = table(tmp_path / f"s-{f.name}", "gouji_matches")[0]["match_id"]
    assert keys[".gjn"] == keys[".sjn"]          # the same text, the same key, whatever the file's name


def test_streamed_chunks_give_the_same_rows(files, tmp_path, monkeypatch):
    """A chunk too big to read whole is streamed line by line: same rows, same keys."""
    root, _, _, _ = files
    S.export_paths([str(root / "b.sjn")], str(tmp_path / "whole"))
    import analyzer.lint.check as check
    monkeypatch.setattr(check, "WHOLE_BYTES", 10)
    S.export_paths([str(root / "b.sjn")], str(tmp_path / "streamed"))
    for t in SC.TABLES:
        assert table(tmp_path / "streamed", t) == table(tmp_path / "whole", t), t


class _UndecodableCon:
    """A DuckDB connection whose error message cannot be decoded (DuckDB quotes a damaged
    part's bytes in its message; its Python side then raises UnicodeDecodeError)."""

    def execute(self, sql):
        raise UnicodeDecodeError("utf-8", b"\x80", 0, 1, "invalid start byte")

    sql = extract_statements = execute


@pytest.mark.parametrize("call", [
    lambda s: s.result(St.Query("q", "Q", "SELECT 1")),
    lambda s: s.relation("SELECT 1"),
    lambda s: s.check("SELECT 1"),
])
def test_an_undecodable_duckdb_message_is_a_store_error(tmp_path, call):
    """Found by tests/fuzz (a mutated part, .ci/run 2026-11-28): UnicodeDecodeError out of
    DuckDB became a traceback; it is the one-line StoreError of a damaged store."""
    import duckdb
    session = St.Session(str(tmp_path), _UndecodableCon(), tmp_path, True, duckdb)
    with pytest.raises(SC.StoreError, match="a file of the store is damaged"):
        call(session)


def test_one_row_a_hand_tables_do_not_wait_for_a_full_row_group(files, tmp_path, monkeypatch):
    """Issue 35 (memory): matches and hands get one row a hand, so a row group of
    131,072 rows held every one of their rows until the export's end (+0.72 KB a
    hand). A table's pending rows are written once they hold PENDING_BYTES too; the
    rows stored are the same."""
    root, _, _, alone = files
    whole = tmp_path / "whole"
    S.export_paths([str(root / "b.sjn")], str(whole), jobs=1)
    monkeypatch.setattr(S, "PENDING_BYTES", 1)
    small = tmp_path / "small"
    S.export_paths([str(root / "b.sjn")], str(small), jobs=1, chunk_bytes=1000, split_bytes=2000)
    for t in ("hands", "plays"):
        part = next((small / t).glob("batch=*/*.parquet"))
        assert pq.ParquetFile(part).metadata.num_row_groups > 1, t   # written as they came
        one = next((whole / t).glob("batch=*/*.parquet"))
        assert pq.ParquetFile(one).metadata.num_row_groups == 1, t
        assert pq.read_table(part).equals(pq.read_table(one)), t
    assert counts(small) == alone
