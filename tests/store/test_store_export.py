"""`shengji export --to parquet`: the store's rows are the engine's replay results.

Each value checked here is read back from Parquet and compared with what
``replay.game.replay`` says about the same record (never recomputed)."""

import json
import re
from collections import Counter
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

from analyzer.play.generate import generate_match  # noqa: E402
from analyzer.store import parquet as S  # noqa: E402
from analyzer.store import schema as SC  # noqa: E402
from notation import parse, write  # noqa: E402
from replay.game import replay  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs"


def corpus(root: Path) -> list[str]:
    """Three files: two generated matches, and one with a wrong points line and a bad line."""
    a = write(generate_match("standard", hands=3, seed=11)) + "\n" + write(generate_match("tractor97", hands=2, seed=5))
    b = write(generate_match("campus", hands=2, seed=8))
    c = write(generate_match("standard", hands=1, seed=2))
    c = re.sub(r"^points \d+", "points 5", c, flags=re.M).replace("\n1. ", "\ndealr S\n1. ", 1)
    paths = []
    for name, text in (("a.sjn", a), ("b.sjn", b), ("c.sjn", c)):
        (root / name).write_text(text, encoding="utf-8")
        paths.append(str(root / name))
    return paths


def read(store: Path, table: str) -> list[dict]:
    files = sorted((store / table).glob("batch=*/*.parquet"))
    if not files:
        return []
    return pa.concat_tables([pq.read_table(f, schema=SC.arrow_schema(table)) for f in files]).to_pylist()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("store")
    paths = corpus(root)
    report = S.export_paths(paths, str(root / "store"))
    return root, paths, report


def ids(store):
    """(file, line) → match_id (the key is a hash of the record's text)."""
    return {(m["file"], m["line"]): m["match_id"] for m in read(store, "matches")}


def replays(paths):
    out = []
    for p in paths:
        records, _ = parse(Path(p).read_text(encoding="utf-8"))
        for r in records:
            out.append((p, r, replay(r)))
    return out


def test_counts_match_the_replays(built):
    root, paths, report = built
    store = root / "store"
    rs = replays(paths)
    assert report.records == len(rs) == 4 and report.exit_code == 0
    assert report.rows["matches"] == len(read(store, "matches")) == 4
    assert len(read(store, "hands")) == sum(len(m.hands) for _, _, m in rs)
    assert len(read(store, "tricks")) == sum(len(h.tricks) for _, _, m in rs for h in m.hands)
    assert len(read(store, "plays")) == sum(len(t.plays) for _, _, m in rs for h in m.hands for t in h.tricks)
    diags = read(store, "diagnostics")
    assert Counter(d["code"] for d in diags) == Counter(
        d.code for p in paths for d in parse(Path(p).read_text(encoding="utf-8"))[1]) + Counter(
        d.code for _, _, m in rs for d in m.diagnostics)
    assert {"SJ501", "SJ104"} <= {d["code"] for d in diags}


def test_hand_and_trick_values_are_the_engines(built):
    root, paths, _ = built
    store = root / "store"
    hands = {(h["match_id"], h["hand"]): h for h in read(store, "hands")}
    tricks = {(t["match_id"], t["hand"], t["trick"]): t for t in read(store, "tricks")}
    plays = read(store, "plays")
    keys = ids(store)
    for path, record, match in replays(paths):
        mid = keys[(path, record.span.line)]
        for i, hr in enumerate(match.hands, 1):
            h = hands[(mid, i)]
            assert (h["rules"], h["ns_level"], h["ew_level"], h["level"], h["dealer"]) == (
                match.ruleset.name, hr.levels["NS"], hr.levels["EW"], hr.level, hr.dealer)
            assert (h["complete"], h["card_points"], h["kitty_points"], h["multiplier"]) == (
                hr.complete, hr.card_points, hr.kitty_points, hr.multiplier)
            if hr.outcome:
                assert (h["next_ns_level"], h["next_ew_level"], h["next_dealer"], h["dealers_keep"],
                        h["levels_gained"], h["attacker_points"]) == (
                    hr.outcome.levels["NS"], hr.outcome.levels["EW"], hr.outcome.next_dealer,
                    hr.outcome.dealers_keep, hr.outcome.gained, hr.attacker_points)
                assert h["last_trick_multiplier"] == hr.last_trick_multiplier >= 2
                assert h["last_trick_attackers"] == hr.tricks[-1].to_attackers
            assert h["n_declarations"] == len(record.hands[i - 1].declarations)
            for t in hr.tricks:
                row = tricks[(mid, i, t.number)]
                assert (row["leader"], row["winner"], row["points"], row["is_throw"], row["failed_throw"],
                        row["penalty"], row["ruffed"], row["attacker_points"]) == (
                    t.leader, t.winner, t.points, t.is_throw, t.failed_throw, t.penalty, t.ruffed,
                    t.attacker_points)
                assert (row["failed_throw_cost"] is None) == (not t.failed_throw)
    assert {p["position"] for p in plays} == {0, 1, 2, 3}
    assert all(p["structure"] for p in plays) and any("pair" in p["structure"] for p in plays)
    assert any(p["attempted"] for p in plays) == any(t["failed_throw"] for t in tricks.values())


def test_matches_table(built):
    root, paths, _ = built
    rows = {(m["file"], m["line"]): m for m in read(root / "store", "matches")}
    for path, record, match in replays(paths):
        m = rows[(path, record.span.line)]
        assert (m["rules"], m["hands"], m["event"], m["winner"]) == (
            match.ruleset.name, len(match.hands), record.tag("Event"), match.winner)


def test_appending_and_skipping(built, tmp_path):
    root, paths, _first = built
    store = tmp_path / "store"
    one = S.export_paths(paths[:1], str(store))
    two = S.export_paths(paths, str(store))                 # a.sjn is already there
    assert len(two.skipped) == 1 and "a.sjn" in two.skipped[0] and two.records == 2
    assert len(list((store / "_batches").glob("*.json"))) == 2
    assert {p.name for p in (store / "hands").iterdir()} == {f"batch={one.batch}", f"batch={two.batch}"}
    assert sorted(p.name for p in (store / "hands" / f"batch={two.batch}").iterdir()) == ["part-00000.parquet"]
    assert len(read(store, "hands")) == len(read(root / "store", "hands"))
    again = S.export_paths(paths, str(store))
    assert again.batch == "" and again.records == 0 and "nothing new" in again.summary()
    assert not [p for p in store.iterdir() if p.name.startswith(".staging")]
    manifest = json.loads(next((store / "_batches").glob(f"{one.batch}.json")).read_text())
    assert manifest["files"][0]["records"] == 2 and manifest["rows"]["matches"] == 2


@pytest.fixture
def pools(monkeypatch):
    """The worker pools an export starts: the ``jobs`` of each."""
    from analyzer.store import workers as W
    started: list[int] = []
    real = W.run_processes

    def spy(job_iter, options, jobs, on_result, **kwargs):
        started.append(jobs)
        real(job_iter, options, jobs, on_result, **kwargs)
    monkeypatch.setattr(W, "run_processes", spy)
    return started


def test_jobs_2_writes_the_same_rows_in_the_same_order(built, tmp_path, pools):
    """docs/store.md: the rows are in input order whatever --jobs (the chunks' tables are
    taken in their order, not as the workers finish)."""
    root, paths, _ = built
    S.export_paths(paths, str(tmp_path / "s2"), jobs=2, chunk_bytes=3000, split_bytes=2000, min_parallel_bytes=0)
    assert pools == [2]
    for t in SC.TABLES:
        assert read(tmp_path / "s2", t) == read(root / "store", t), t


def test_jobs_1_and_the_default_write_the_same_bytes_of_rows(built, tmp_path, pools, monkeypatch):
    """The default is every core (as lint); the order of the rows is the same."""
    from analyzer.lint import pool as LP
    root, paths, _ = built
    monkeypatch.setattr(LP, "default_jobs", lambda: 3)
    S.export_paths(paths, str(tmp_path / "d"), chunk_bytes=2000, split_bytes=2000, min_parallel_bytes=0)
    S.export_paths(paths, str(tmp_path / "one"), jobs=1, chunk_bytes=2000, split_bytes=2000, min_parallel_bytes=0)
    assert pools == [3]
    for t in SC.TABLES:
        assert read(tmp_path / "d", t) == read(tmp_path / "one", t) == read(root / "store", t), t


@pytest.mark.parametrize(("jobs", "sizes", "expected"), [
    (1, [10 << 20], 1),                          # --jobs 1: this process
    (4, [10 << 20], 4),                          # one big file: cut into chunks for 4 workers
    (4, [200 << 10] * 10, 4),                    # many files, 2 MB in all
    (4, [100 << 10, 100 << 10], 1),              # under MIN_PARALLEL_BYTES in all: starting workers costs more
    (4, [1 << 20], 1),                           # one file too small to be cut (split_bytes 2 MB here)
])
def test_small_exports_run_in_one_process(jobs, sizes, expected):
    from analyzer.store.workers import effective_jobs
    assert effective_jobs(jobs, sizes, split_bytes=2 << 20) == expected


def test_the_commands_default_is_every_core(built, tmp_path, pools, monkeypatch):
    from typer.testing import CliRunner

    from analyzer.cli import app
    from analyzer.lint import pool as LP
    from analyzer.store import workers as W
    root, paths, _ = built
    monkeypatch.setattr(LP, "default_jobs", lambda: 2)
    monkeypatch.setattr(W, "MIN_PARALLEL_BYTES", 0)
    r = CliRunner().invoke(app, ["export", "--to", "parquet", str(tmp_path / "s"), *paths, "--no-progress"])
    assert r.exit_code == 0 and pools == [2], r.output
    r = CliRunner().invoke(app, ["export", "--to", "parquet", str(tmp_path / "t"), *paths, "--jobs", "1"])
    assert pools == [2]                                       # --jobs 1: no pool
    for t in SC.TABLES:
        assert read(tmp_path / "s", t) == read(tmp_path / "t", t) == read(root / "store", t), t


def test_other_programs_logs_are_exported_too(tmp_path):
    fixture = Path(__file__).resolve().parents[1] / "cli" / "fixtures" / "logs" / "room.jsonl"
    report = S.export_paths([str(fixture)], str(tmp_path / "s"))
    rows = read(tmp_path / "s", "matches")
    assert report.records == len(rows) >= 1 and rows[0]["rules"] == "shengji-fly"


def test_missing_and_unreadable_inputs(tmp_path):
    (tmp_path / "bad.sjn").write_bytes(b"[Event \"x\"]\n\xff\xfe\n")
    report = S.export_paths([str(tmp_path / "none.sjn"), str(tmp_path / "bad.sjn")], str(tmp_path / "s"))
    assert report.exit_code == 2 and report.missing and any("UTF-8" in e for e in report.errors)


def test_schemas_are_documented():
    text = (DOCS / "store.md").read_text(encoding="utf-8")
    for table, columns in SC.SCHEMAS.items():
        section = text.split(f"### `{table}`", 1)[1].split("\n### ", 1)[0]
        documented = re.findall(r"^\| `(\w+)` \| `?([\w<>,:]+)`? \|", section, re.M)
        assert documented == [(c, t) for c, t, _ in columns], table


def test_the_summary_counts_in_words(tmp_path):
    (tmp_path / "one.sjn").write_text(write(generate_match("standard", hands=1, seed=3)), encoding="utf-8")
    rep = S.export_paths([str(tmp_path / "one.sjn")], str(tmp_path / "store"))
    text = rep.summary()
    assert re.search(r": 1 record from 1 file \(1 match, 1 hand, \d+ tricks, \d+ plays, 0 diagnostics\) in ", text), text


def test_the_default_chunks_are_small_enough_for_the_memory_bound(built, tmp_path, monkeypatch):
    """Issue 35: the whole export with two workers stays under 200 MB because a chunk is at
    most 256 KB of SJN (a worker's rows and the exporting process's unpacked chunk are about
    11 MB of Python lists a MB; at 1 MB chunks it measured 239 MB at 20,000 hands)."""
    from analyzer import lint as L
    seen = []
    real = L.iter_jobs

    def spy(*args, **kwargs):
        seen.append(args[6] if len(args) > 6 else kwargs["chunk_bytes"])
        return real(*args, **kwargs)
    monkeypatch.setattr(L, "iter_jobs", spy)
    _, paths, _ = built
    S.export_paths(paths[:1], str(tmp_path / "s"), jobs=1)
    assert seen and all(0 < c <= 256 * 1024 for c in seen), seen
