"""Gouji in the Parquet store (issue 34): a generated Gouji corpus exported through the
Gouji plug-in's tables, read back with DuckDB, every count and value checked against
what Gouji's engine (``replay.gouji.replay``) says of the same records; a mixed store
(Shengji and Gouji) keeps each game's rows in its own tables, and ``stats`` says what
its default analyses cover."""

from pathlib import Path

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")

from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.games.gouji.generate import generate_match as gouji_match
from analyzer.play.generate import generate_match
from analyzer.store import parquet as S
from analyzer.store import schema as SC
from analyzer.store import stats as St
from notation import gjn, write
from replay.gouji import replay as gouji_replay

ENV = {"NO_COLOR": "1", "COLUMNS": "200"}

#: (preset, games, seed) of each generated file (the two-record file: the first two)
CORPUS = (("gouji", 3, 1), ("gouji-bie3", 2, 4), ("gouji-online", 2, 9))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("gouji-store")
    records = [gouji_match(rules, games, seed) for rules, games, seed in CORPUS]
    (root / "two.gjn").write_text(gjn.write(records[:2]), encoding="utf-8")
    (root / "one.gjn").write_text(gjn.write(records[2:]), encoding="utf-8")
    (root / "s.sjn").write_text(write(generate_match("standard", hands=2, seed=3)), encoding="utf-8")
    return root, records


def count(con, sql):
    return con.execute(sql).fetchone()[0]


def test_a_gouji_corpus_counts_match_the_engine(corpus, tmp_path):
    root, records = corpus
    rep = S.export_paths([str(root / "two.gjn"), str(root / "one.gjn")], str(tmp_path / "st"))
    assert rep.exit_code == 0 and rep.records == 3 and not rep.skipped, (rep.errors, rep.skipped)
    results = [gouji_replay(r) for r in records]
    con = St.connect(tmp_path / "st")
    assert count(con, "SELECT count(*) FROM gouji_matches") == 3 == rep.rows["gouji_matches"]
    assert count(con, "SELECT count(*) FROM gouji_games") == sum(len(r.games) for r in records)
    assert count(con, "SELECT count(*) FROM gouji_plays") == sum(len(g.actions) for r in records for g in r.games)
    assert count(con, "SELECT count(*) FROM gouji_plays WHERE gouji") == \
        sum(len(g.gouji_plays) for res in results for g in res.games)
    assert count(con, "SELECT count(*) FROM gouji_plays WHERE burn") == \
        sum(len(g.burns) for res in results for g in res.games)
    assert count(con, "SELECT count(*) FROM gouji_plays WHERE place IS NOT NULL") == \
        sum(sum(1 for s in g.timeline if s.place) for res in results for g in res.games)
    assert count(con, "SELECT count(*) FROM diagnostics") == sum(len(res.diagnostics) for res in results)
    # no Shengji row from a Gouji file
    assert count(con, "SELECT count(*) FROM matches") == 0 == count(con, "SELECT count(*) FROM plays")
    # the places and scores of each game, as the engine gives them
    got = con.execute("SELECT m.rules, g.game, g.finish_order, g.odd_score, g.even_score, g.complete "
                      "FROM gouji_games g JOIN gouji_matches m USING (match_id) ORDER BY m.file, m.line, g.game"
                      ).fetchall()
    want = []
    for res in (results[0], results[1], results[2]):     # two.gjn (its two records), then one.gjn
        for i, g in enumerate(res.games, 1):
            score = g.score if g.complete else None
            want.append((res.rules.name, i, sorted(g.places, key=g.places.__getitem__),
                         score["odd"] if score else None, score["even"] if score else None, g.complete))
    assert sorted(got) == sorted(want)
    assert {r[0] for r in got} == {"gouji", "gouji-bie3", "gouji-online"}
    # cards are lists of card names, as the record wrote them
    first = records[0].games[0].actions[0]
    cards = con.execute("SELECT cards FROM gouji_plays p JOIN gouji_matches m USING (match_id) "
                        "WHERE m.rules = 'gouji' AND game = 1 AND action = 1").fetchone()[0]
    from primitives.gjcards import to_str
    assert cards == [to_str(c) for c in first.cards] and cards


def test_a_mixed_store_keeps_each_games_rows_apart(corpus, tmp_path):
    root, _ = corpus
    alone = S.export_paths([str(root / "s.sjn")], str(tmp_path / "sj"))
    rep = S.export_paths([str(root / "s.sjn"), str(root / "two.gjn")], str(tmp_path / "mixed"))
    assert rep.records == 3 and rep.exit_code == 0
    for t in ("matches", "hands", "tricks", "plays"):
        assert rep.rows[t] == alone.rows[t], t
    assert rep.rows["gouji_matches"] == 2
    assert "2 gouji_matches" in rep.summary() and "gouji" not in alone.summary()
    # then a batch of Gouji only, appended: both batches read
    more = S.export_paths([str(root / "one.gjn")], str(tmp_path / "mixed"))
    assert more.rows["gouji_matches"] == 1
    con = St.connect(tmp_path / "mixed")
    assert count(con, "SELECT count(*) FROM gouji_matches") == 3
    assert count(con, "SELECT count(DISTINCT batch) FROM gouji_matches") == 2
    assert count(con, "SELECT count(*) FROM matches") == alone.rows["matches"]

    r = CliRunner().invoke(app, ["stats", str(tmp_path / "mixed")], env=ENV)
    assert r.exit_code == 0 and "Failed throws by player" in r.stdout and "Gouji" not in r.stdout
    assert "3 Gouji records" in r.stderr and "gouji-places" in r.stderr
    r = CliRunner().invoke(app, ["stats", str(tmp_path / "mixed"), "gouji-places", "gouji-burns",
                                 "--format", "csv", "-o", str(tmp_path / "out")], env=ENV)
    assert r.exit_code == 0, r.stderr
    places = (tmp_path / "out" / "gouji-places.csv").read_text(encoding="utf-8").splitlines()
    assert places[0] == "rules,seat,games,avg_place,first,last" and len(places) == 1 + 3 * 6
    # a Shengji-only store: no note
    r = CliRunner().invoke(app, ["stats", str(tmp_path / "sj")], env=ENV)
    assert r.exit_code == 0 and "Gouji" not in r.stderr


def test_jobs_2_writes_the_same_gouji_rows(corpus, tmp_path):
    root, _ = corpus
    paths = [str(root / "two.gjn"), str(root / "s.sjn"), str(root / "one.gjn")]
    S.export_paths(paths, str(tmp_path / "a"))
    S.export_paths(paths, str(tmp_path / "b"), jobs=2, min_parallel_bytes=0)
    for t in SC.tables():
        q = f"SELECT * EXCLUDE (batch) FROM {t} ORDER BY ALL"
        assert St.connect(tmp_path / "a").execute(q).fetchall() == St.connect(tmp_path / "b").execute(q).fetchall()


def test_every_table_of_every_game_is_documented():
    import re
    text = (Path(__file__).resolve().parents[2] / "docs" / "store.md").read_text(encoding="utf-8")
    assert SC.tables()[:5] == SC.TABLES and {"gouji_matches", "gouji_games", "gouji_plays"} <= set(SC.tables())
    for table in SC.tables():
        section = text.split(f"### `{table}`", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
        documented = re.findall(r"^\| `(\w+)` \| `?([\w<>,:]+)`? \|", section, re.M)
        assert documented == [(c, t) for c, t, _ in SC.columns(table)], table
