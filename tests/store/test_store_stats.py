"""`shengji stats`: the named analyses agree with the replay results they summarise,
and the command's formats (table, csv, json, html, --sql) and errors."""

import builtins
import csv
import io
import json
import re
import sys
from collections import Counter, defaultdict

import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.play.generate import generate_match
from analyzer.store import parquet as S
from analyzer.store import stats as St
from notation import parse, write
from replay.game import replay
from replay.scoring import team_of

ENV = {"NO_COLOR": "1", "COLUMNS": "120", "TERM": "dumb"}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("stats")
    texts = [write(generate_match(p, hands=4, seed=s)) for s, p in
             enumerate(["standard", "standard", "tractor97", "campus", "shengji-io", "one-deck"])]
    texts[0] = re.sub(r"^points \d+", "points 5", texts[0], count=1, flags=re.M)      # one SJ501
    (root / "a.sjn").write_text("\n".join(texts[:3]), encoding="utf-8")
    (root / "b.sjn").write_text("\n".join(texts[3:]), encoding="utf-8")
    S.export_paths([str(root / "a.sjn")], str(root / "store"))
    S.export_paths([str(root / "b.sjn")], str(root / "store"))                 # two batches
    matches = []
    for name in ("a.sjn", "b.sjn"):
        records, _ = parse((root / name).read_text(encoding="utf-8"))
        matches += [(r, replay(r)) for r in records]
    return root / "store", matches


def result(store, name) -> list[dict]:
    (r,) = St.run(store, [name])
    return r.dicts()


def test_failed_throws_per_player(store):
    path, matches = store
    throws, failed, cost = Counter(), Counter(), defaultdict(list)
    for record, m in matches:
        for h in m.hands:
            for t in h.tricks:
                who = record.tag({"N": "North", "W": "West", "S": "South", "E": "East"}[t.leader]) or t.leader
                throws[who] += t.is_throw
                if t.failed_throw:
                    failed[who] += 1
                    lost = t.points if team_of(t.winner) != team_of(t.leader) else 0
                    cost[who].append(abs(t.penalty) + lost)
    rows = {r["player"]: r for r in result(path, "failed-throws")}
    assert set(rows) == {p for p, n in throws.items() if n}
    for p, r in rows.items():
        assert (r["throws"], r["failed"]) == (throws[p], failed[p])
        assert r["failed_rate"] == pytest.approx(failed[p] / throws[p], abs=1e-3)
        if cost[p]:
            assert r["avg_cost"] == pytest.approx(sum(cost[p]) / len(cost[p]), abs=0.05)
    assert sum(failed.values()) > 0                 # the corpus has failed throws to count


def test_kitty_protection_by_multiplier(store):
    path, matches = store
    want = Counter()
    lost = Counter()
    for _, m in matches:
        for h in m.hands:
            if h.complete and not h.redeal:
                key = (m.ruleset.name, h.last_trick_multiplier)
                want[key] += 1
                lost[key] += h.tricks[-1].to_attackers
    rows = result(path, "kitty-protection")
    assert {(r["rules"], r["multiplier"]): (r["hands"], r["attackers_won_last"]) for r in rows} == {
        k: (n, lost[k]) for k, n in want.items()}


def test_dealer_hold_by_level_and_preset(store):
    path, matches = store
    want = Counter()
    held = Counter()
    names = {11: "J", 12: "Q", 13: "K", 14: "A", 15: "Joker"}
    for _, m in matches:
        for h in m.hands:
            if h.outcome is not None:
                key = (m.ruleset.name, names.get(h.level, str(h.level)))
                want[key] += 1
                held[key] += h.outcome.dealers_keep
    rows = result(path, "dealer-hold")
    assert {(r["rules"], r["level"]): (r["hands"], r["held"]) for r in rows} == {
        k: (n, held[k]) for k, n in want.items()}


def test_attacker_points_distribution(store):
    path, matches = store
    want = Counter(h.attacker_points // 10 * 10 for _, m in matches for h in m.hands if h.complete and not h.redeal)
    rows = result(path, "attacker-points")
    assert {r["points_from"]: r["hands"] for r in rows} == dict(want)
    assert sum(r["share"] for r in rows) == pytest.approx(1, abs=0.01)


def test_most_common_diagnostics(store):
    path, matches = store
    want = Counter(d.code for _, m in matches for d in m.diagnostics)
    rows = result(path, "diagnostics")
    assert {r["code"]: r["findings"] for r in rows} == dict(want.most_common(20))
    assert "SJ501" in want


def run(*args, code=0):
    r = CliRunner().invoke(app, list(args), env=ENV)
    assert r.exit_code == code, (r.stdout, r.stderr)
    return r


def test_cli_formats(store, tmp_path):
    path, _ = store
    table = run("stats", str(path)).stdout
    for a in St.ANALYSES.values():
        assert (a.title in table) == a.default
    rows = list(csv.reader(io.StringIO(run("stats", str(path), "dealer-hold", "--format", "csv").stdout)))
    assert rows[0] == ["rules", "level", "hands", "held", "hold_rate"] and len(rows) > 2
    data = json.loads(run("stats", str(path), "attacker-points", "--format", "json").stdout)
    assert isinstance(data, list) and data and set(data[0]) == {"points_from", "hands", "share"}
    # one analysis = one file: several in csv/json/parquet need a directory
    r = run("stats", str(path), "failed-throws", "diagnostics", "--format", "csv", code=2)
    assert "-o DIRECTORY" in r.stderr and not r.stdout
    run("stats", str(path), "--format", "csv", "-o", str(tmp_path / "all"))
    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == sorted(f"{n}.csv" for n in St.DEFAULT)
    for name in St.DEFAULT:
        text = (tmp_path / "all" / f"{name}.csv").read_text(encoding="utf-8")
        assert "#" not in text.splitlines()[0] and len({len(r) for r in csv.reader(io.StringIO(text))}) == 1
    assert "exists" in run("stats", str(path), "--format", "csv", "-o", str(tmp_path / "all"), code=2).stderr
    run("stats", str(path), "--format", "csv", "-o", str(tmp_path / "all"), "--force")


def test_cli_sql(store):
    path, matches = store
    out = run("stats", str(path), "--sql", "SELECT count(*) AS n, count(DISTINCT batch) AS batches FROM hands",
              "--format", "json").stdout
    assert json.loads(out) == [{"n": sum(len(m.hands) for _, m in matches), "batches": 2}]
    bad = run("stats", str(path), "--sql", "SELECT nope FROM hands", code=2)
    assert "the query failed" in bad.stderr and "Traceback" not in bad.stderr
    run("stats", str(path), "failed-throws", "--sql", "SELECT 1", code=2)
    assert "goes with --sql" in run("stats", str(path), "--sql-allow-external-access", code=2).stderr


def test_cli_html_is_self_contained_and_atomic(store, tmp_path):
    path, _ = store
    out = tmp_path / "stats.html"
    run("stats", str(path), "--format", "html", "-o", str(out))
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and page.count("<rect") >= 3
    assert "<script" not in page and not re.search(r"(src|href)=\"https?:", page)
    assert [p.name for p in tmp_path.iterdir()] == ["stats.html"]        # no temp file left
    assert "exists" in run("stats", str(path), "--format", "html", "-o", str(out), code=2).stderr
    run("stats", str(path), "--format", "html", "-o", str(out), "--force")


def test_cli_errors(tmp_path):
    assert "no such store" in run("stats", str(tmp_path / "none"), code=2).stderr
    assert "not a store" in run("stats", str(tmp_path), code=2).stderr
    assert "unknown analysis" in run("stats", str(tmp_path), "nope", code=2).stderr


def test_cli_export_parquet(tmp_path):
    (tmp_path / "m.sjn").write_text(write(generate_match("standard", hands=2, seed=1)), encoding="utf-8")
    r = run("export", "--to", "parquet", str(tmp_path / "s"), str(tmp_path / "m.sjn"))
    assert "1 record from 1 file" in r.stderr
    r = run("export", "parquet", str(tmp_path / "s"), str(tmp_path / "m.sjn"))
    assert "skipped" in r.stderr and "nothing new" in r.stderr
    run("export", "parquet", str(tmp_path / "s"), code=2)
    run("export", "parquet", str(tmp_path / "s"), str(tmp_path / "m.sjn"), "--into", "x", code=2)
    r = run("export", "parquet", str(tmp_path / "s2"), str(tmp_path / "none.sjn"), code=2)
    assert "none.sjn: no such file" in r.stderr
    (tmp_path / "s" / ".staging-X").mkdir()                     # an interrupted export's leftovers
    (tmp_path / "m2.sjn").write_text(write(generate_match("standard", hands=1, seed=2)), encoding="utf-8")
    r = run("export", "parquet", str(tmp_path / "s"), str(tmp_path / "m2.sjn"))
    assert "note: removed .staging-X" in r.stderr and not (tmp_path / "s" / ".staging-X").exists()


def test_missing_extras_give_a_clear_message(monkeypatch, tmp_path):
    real = builtins.__import__

    def no_duckdb(name, *args, **kwargs):
        if name.split(".")[0] in ("duckdb", "pyarrow", "distributed"):
            raise ImportError(name)
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_duckdb)
    for name in [m for m in sys.modules if m.split(".")[0] in ("duckdb", "pyarrow", "distributed")] + \
            ["duckdb", "pyarrow", "distributed"]:
        monkeypatch.setitem(sys.modules, name, None)     # not installed: not found either (importlib.util.find_spec)
    r = run("stats", str(tmp_path), code=2)
    assert "pip install 'shengji[stats]'" in r.stderr
    r = run("export", "parquet", str(tmp_path / "s"), str(tmp_path), code=2)
    assert "pip install 'shengji[stats]'" in r.stderr
    r = run("lint", "--cluster", "local:1", str(tmp_path), code=2)
    assert "pip install 'shengji[cluster]'" in r.stderr


def test_points_chart_shows_empty_steps():
    r = St.Result("attacker-points", "Attackers' points", ["points_from", "hands", "share"],
                  [(0, 3, 0.5), (40, 3, 0.5)])
    svg = St.points_chart(r)
    assert svg.count("<rect") == 5 and "10–19 points: 0 hands" in svg


def test_every_registered_format_is_a_choice_and_writes_its_output(store, tmp_path):
    """The formats are a registry (``analyzer.store.stats_formats``): each registered
    writer is a ``--format`` choice, in registration order, and writes to stdout
    and, the same text, to ``-o`` (the table without colour)."""
    from analyzer.cli.stats import StatsFormat
    from analyzer.store.stats_formats import WRITERS
    assert [f.value for f in StatsFormat] == list(WRITERS) + ["table"] == ["text", "csv", "json", "parquet", "html", "table"]
    path, _ = store
    for name in WRITERS:
        shown = run("stats", str(path), "dealer-hold", "--format", name).stdout_bytes
        out = tmp_path / f"dealer-hold.{name}"
        run("stats", str(path), "dealer-hold", "--format", name, "-o", str(out))
        assert out.read_bytes() == shown and b"\x1b[" not in shown, name


def test_a_registered_format_needs_no_other_change(store, monkeypatch):
    """Registering a writer is all a new format needs (the command looks it up)."""
    from analyzer.store import stats_formats as F
    with pytest.raises(ValueError, match="twice"):
        F.register("csv")(lambda *a: None)
    got = []
    monkeypatch.setitem(F.WRITERS, "csv", lambda session, queries, output, force: got.append(
        (sorted(q.name for q in queries), output, force)))
    path, _ = store
    run("stats", str(path), "failed-throws", "--format", "csv", "-o", "x.csv", "--force")
    assert got == [(["failed-throws"], "x.csv", True)]


def test_the_command_exits_quietly_after_duckdb(store):
    """A whole `shengji stats` process (and `export parquet`) writes nothing to
    stderr: the command line's exit-time GC freeze (a start-up saving) is
    skipped once DuckDB is loaded, whose nanobind teardown would otherwise list
    every object still alive as a leak."""
    import os
    import subprocess
    import sys

    path, _ = store
    env = {**os.environ, **ENV}
    for args in (["stats", str(path)], ["stats", str(path), "dealer-hold", "--format", "json"]):
        r = subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True,
                           env=env, timeout=120)
        assert r.returncode == 0, r.stderr
        assert r.stdout and r.stderr == ""
