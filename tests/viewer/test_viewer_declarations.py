"""The declarations' review in the viewer (issue 32): the full review's
declaration decisions (kind ``declare``, trick 0) are listed at the
declarations & bury step, before trick 1, each with its verdict and its
options (every declaration the rules allowed then, and passing) with the
expected attacker points ± standard error; the options show in the
declarer's view or All hands only (they were worked out from the declarer's
cards). A real report: a generated standard hand reviewed by
``report --mistakes``'s hook; a verdict is given by hand for the mark test."""

from __future__ import annotations

import copy
from functools import cache

from viewer_helpers import page_for

from analyzer.play.generate import generate_match
from analyzer.report.viewer import render_html
from analyzer.review.mistakes import review_mistakes
from notation import write


@cache
def _reviewed() -> tuple[str, dict]:
    report, page = page_for(write([generate_match("standard", hands=1, seed=3)]), "gen.sjn", annotate=review_mistakes)
    return page, report


def _decls(report: dict) -> list[dict]:
    return [d for d in report["matches"][0]["review"]["hands"][0]["decisions"] if d["kind"] == "declare"]


def test_the_declarations_at_the_deal_step(open_page):
    page_html, report = _reviewed()
    decls = _decls(report)
    assert len(decls) == 2 and all(d["judged"] or d["forced"] for d in decls)
    opened = open_page(page_html, "declarations.html")
    page = opened.page
    assert opened.status()["kind"] == "deal"
    blocks = page.locator("#decision div.decl")
    assert blocks.count() == len(decls)
    for k, d in enumerate(decls):
        rows = blocks.nth(k).locator("table.decl-alts tbody tr")
        assert rows.count() == len(d["alternatives"])
        assert f"{d['seat']} wrote" in blocks.nth(k).inner_text()
        for i, o in enumerate(d["alternatives"]):
            cells = rows.nth(i).inner_text()
            assert f"{o['expected']:.1f}" in cells and f"± {o['stderr']:.1f}" in cells
        assert "pass" in blocks.nth(k).inner_text() and blocks.nth(k).locator("tr.chosen").count() == 1
    # another seat's view: the options (worked out from the declarer's cards) are not shown
    d = decls[0]
    other = next(s for s in "NWSE" if s != d["seat"])
    page.select_option("#seat-pick", other)
    first = page.locator("#decision div.decl").nth(0)
    assert "seen in" in first.inner_text() and first.locator("table.decl-alts").count() == 0
    opened.assert_clean()


def test_a_declaration_verdict_marks_the_deal_step(open_page, artifact_dir):
    _page, report = _reviewed()
    r = copy.deepcopy(report)
    d = _decls(r)[1]
    d.update(band="blunder", judged=True, loss=29.0, loss_stderr=7.0)
    for dd in r["matches"][0]["review"]["hands"][0]["decisions"]:
        if dd["kind"] != "declare":
            dd["band"] = None                          # only the declaration is marked
    r["matches"][0]["annotations"] = [a for a in r["matches"][0]["annotations"] if a.get("trick") is None
                                      and not a["code"].startswith("SJ6")]
    opened = open_page(render_html(r), "declaration-verdict.html")
    page = opened.page
    assert opened.status()["mistake"] == "1"          # a mark at the deal, before trick 1
    block = page.locator("#decision div.decl").nth(1).inner_text()
    assert "BLUNDER" in block.upper() and "29.0 ± 7.0" in block
    opened.screenshot("board-declarations-review.png", artifact_dir)
    opened.assert_clean()


def test_the_declarers_side_column_where_the_declaration_decides_who_deals(open_page):
    """The match's first hand: who deals follows from each play-out, so the attackers'
    final is not always the same side's; the options are ordered by the declarer's
    side's value (the alternatives' ``side``), which gets a column of its own and a
    hint. Where the sides are fixed (no ``side``) there is no such column."""
    page_html, report = _reviewed()
    decls = _decls(report)
    sided = [d for d in decls if not d["forced"] and d["alternatives"]]
    assert sided and all("side" in o for d in sided for o in d["alternatives"])
    page = open_page(page_html, "declarations-side.html").page
    for k, d in enumerate(decls):
        block = page.locator("#decision div.decl").nth(k)
        if d not in sided:
            continue
        assert block.locator("th.side").inner_text() == f"{d['seat']}\u2019s side"
        cells = block.locator("table.decl-alts tbody tr td.side")
        assert cells.count() == len(d["alternatives"])
        for i, o in enumerate(d["alternatives"]):
            assert cells.nth(i).inner_text() == f"{'+' if o['side'] > 0 else ''}{o['side']:.1f} ± {o['side_stderr']:.1f}"
        assert "ordered by it" in block.inner_text()
    # the same report without the side values: the plain table
    r = copy.deepcopy(report)
    for d in _decls(r):
        for o in d["alternatives"]:
            o.pop("side", None)
            o.pop("side_stderr", None)
    plain = open_page(render_html(r), "declarations-plain.html").page
    assert plain.locator("#decision th.side").count() == 0
    assert "ordered by it" not in plain.inner_text("#decision")
