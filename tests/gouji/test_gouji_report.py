"""Gouji reports and the replay page's data (issue 18): the engine's timeline
fields the viewer and the text reports use (cards left, next leader, 接风,
解烧, 够级 target, burned player), the term/md story (rounds, places and
score, per player 够级 made and suffered, burns won and lost, cards left),
and the HTML page (self-contained, written like every other output)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.games.gouji import analysis as gouji
from analyzer.games.gouji import render as gouji_render
from analyzer.games.gouji.generate import generate_match
from analyzer.games.gouji.viewer import render_html, table_data
from notation import gjn
from replay.gouji import replay
from replay.gouji.table import PLACE_NAMES
from replay.gouji.table import SEAT_NAMES as SEATS

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ENV = {"NO_COLOR": "1", "COLUMNS": "200", "TERM": "dumb"}


def parsed(text: str):
    records, diags = gjn.parse(text)
    assert not diags
    return records


def generated(preset: str, seed: int, games: int = 2):
    return parsed(gjn.write([generate_match(preset, games=games, seed=seed)]))[0]


# -- the timeline the viewer reads -----------------------------------------------------------

@pytest.mark.parametrize("preset,seed", [("gouji", 3), ("gouji-bie3", 4), ("gouji-online", 5), ("gouji", 11)])
def test_timeline_counts_leads_and_marks(preset, seed):
    rec = generated(preset, seed)
    for res in replay(rec).games:
        prev = list(res.start_counts)
        assert len(prev) == 6
        owner = None
        for st in res.timeline:
            # cards left: a play takes its cards from its player, nothing else moves (§4)
            want = list(prev)
            if st.kind == "play" and not st.ignored:
                want[SEATS.index(st.seat)] -= len(st.cards.replace("10", "T").replace(" ", "").replace("BJ", "B")
                                                  .replace("LJ", "L"))
            if st.place and st.fail:   # a failed burner's cards stay counted (cards left at the end)
                pass
            assert list(st.counts) == want, st
            prev = list(st.counts)
            # 够级: the target is the player's 对头 (GOUJI.md §3, §1)
            if st.gouji:
                assert st.aim == SEATS[(SEATS.index(st.seat) + 3) % 6]
            else:
                assert st.aim == ""
            if st.burn:
                assert st.burned == owner and (st.seat, st.burned) in st.burning
            if st.kind == "play" and not st.fail:
                owner = st.seat   # the set just played is the top (or ended the round as its owner)
            # the next leader: the owner, or with him out the next in play (接风, §4)
            if st.round_end and st.leads:
                assert st.jiefeng == (st.leads != owner)
                if st.jiefeng:
                    assert owner in dict(st.finished)
            else:
                assert not st.jiefeng
            if st.owner:
                owner = st.owner
        assert prev == [res.cards_left[s] for s in SEATS]


def test_burn_sweep_fixture_steps():
    (rec,) = parsed((FIXTURES / "example_burn_sweep.gjn").read_text(encoding="utf-8"))
    (res,) = replay(rec).games
    burns = [st for st in res.timeline if st.burn]
    assert [(st.seat, st.burned) for st in burns] == [("P2", "P1")]
    assert [st.jieshao for st in res.timeline if st.jieshao] == ["P2"]   # P5 beats his 对头 P2's set (§5 解烧)
    assert [(st.seat, st.place) for st in res.timeline if st.place] == [("P5", 2), ("P1", 3)]


# -- the text reports -------------------------------------------------------------------------

def report_of(text: str, path: str = "x.gjn") -> dict:
    return gouji.build_report([(r, []) for r in parsed(text)], path)


def test_markdown_tells_the_story():
    rep = report_of((FIXTURES / "example_burn_sweep.gjn").read_text(encoding="utf-8"))
    md = gouji_render.render_markdown(rep)
    assert ("- result: places 1 头科 P3, 2 二科 P5, 3 三科 P1, 4 四科 P2, 5 二落 P6, 6 大落 P4; 串三户 (sweep); "
            "score odd 12 even 0") in md
    assert "| P2 | 4 四科 | 2 (P5 P5) | 1 (P5) | 1 | 0 | 0 | 1 |" in md        # made, suffered, burns, cards left
    assert "| P1 | 3 三科 | 1 (P4) | 0 | 0 | 1 | 0 | 0 |" in md
    assert ("1. P1 QQQ (够级 at P4), P5 pass, P2 KKK (够级 at P5, burns P1), P4 pass, P6 pass, P1 pass, "
            "P5 pass → P2 leads") in md
    assert "(够级 at P2, ends P2's burn) → P5 leads" in md


def test_term_and_md_tell_the_same_rounds():
    rec = generated("gouji-online", 5, games=1)
    rep = gouji.build_report([(rec, [])], "g.gjn")
    md = gouji_render.render_markdown(rep)
    import io

    from analyzer.report.console import make_console
    buf = io.StringIO()
    gouji_render.render_report(make_console(file=buf, color=False, width=400), rep)
    term = buf.getvalue()
    rounds = gouji_render.rounds(rep["matches"][0]["games"][0])
    assert rounds and any("接风" in r for r in rounds)
    for k, r in enumerate(rounds, 1):
        assert f"\n{k}. {r}\n" in md
        assert f"round {k}: {r}" in term
    for row in gouji_render.player_rows(rep["matches"][0]["games"][0]):
        assert "| " + " | ".join(row) + " |" in md


def test_let_and_fail_in_the_rounds():
    rec = generated("gouji", 2, games=3)
    rep = gouji.build_report([(rec, [])], "g.gjn")
    text = "\n".join(r for g in rep["matches"][0]["games"] for r in gouji_render.rounds(g))
    assert "让牌" in text and "fails" in text


# -- the page ---------------------------------------------------------------------------------

def test_page_is_self_contained_and_holds_the_engine_table():
    rec = generated("gouji", 3)
    page = render_html(gouji.build_report([(rec, [])], "g.gjn"))
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"(src|href)\s*=|<link|@import|url\(|https?://", page)
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.DOTALL).group(1))
    assert data["viewer"]["table"] == table_data()
    assert data["viewer"]["table"]["opp"]["P2"] == "P5" and data["viewer"]["table"]["team"]["P3"] == "odd"
    assert [data["viewer"]["table"]["places"][str(k)] for k in range(1, 7)] == list(PLACE_NAMES[1:])
    game = data["matches"][0]["games"][0]
    assert len(game["steps"]) == len(replay(rec).games[0].timeline)
    # the shared scaffolding is in the page
    templates = Path(gouji.__file__).parents[2] / "report" / "templates"
    assert (templates / "stepper.js").read_text(encoding="utf-8").strip()[:200] in page
    assert (templates / "base.css").read_text(encoding="utf-8").strip()[:200] in page


def test_cli_writes_the_page_and_keeps_what_exists(tmp_path):
    src = tmp_path / "m.gjn"
    src.write_text(gjn.write([generate_match("gouji-bie3", games=1, seed=4)]), encoding="utf-8")
    out = tmp_path / "m.html"
    r = CliRunner().invoke(app, ["report", str(src), "-f", "html", "-o", str(out)], env=ENV)
    assert r.exit_code == 0, r.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".") or p.suffix == ".tmp"] == []
    r = CliRunner().invoke(app, ["report", str(src), "-f", "html", "-o", str(out)], env=ENV)
    assert r.exit_code != 0 and "exists" in r.output + (r.stderr if r.stderr_bytes is not None else "")
    r = CliRunner().invoke(app, ["report", str(src), "-f", "html", "-o", str(out), "--force"], env=ENV)
    assert r.exit_code == 0
