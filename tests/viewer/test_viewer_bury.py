"""The bury's review in the viewer (issue 32): the full review's bury decision
(kind ``bury``, trick 0, no ``play_index``) reaches the page's data and is shown
at the declarations & bury step, before trick 1: its verdict, the candidate
buries with their expected attacker points ± standard error, the explanation
and the SJ603 finding; a seat that is not the burier's sees no bury review.

The report is a real one: a generated one-deck hand reviewed by
``report --mistakes``'s hook (:func:`analyzer.review.mistakes.review_mistakes`).
A verdict is rare on a bots' bury, so the browser test also gives the decision
a band, an explanation and its SJ603 annotation by hand (the shape of
:meth:`analyzer.review.mistakes.decisions.Decision.as_dict`).
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from functools import cache

import pytest
from viewer_helpers import dom_cards, page_for

from analyzer.play.generate import generate_match
from analyzer.report.viewer import render_html
from analyzer.review.mistakes import review_mistakes
from analyzer.review.mistakes.findings import Mistake, as_note, pattern_text
from notation import parse, write
from primitives.cards import parse_cards
from primitives.diagnostics import INFO
from replay.game import replay

BLOB = re.compile(r'<script type="application/json" id="data">(.*?)</script>', re.S)
#: a one-deck hand whose bury the review judges (two candidates valued)
SEED = 0
TOKEN = re.compile(r"^(BJ|LJ|[SHDC](10|[2-9JQKA]))$")


@cache
def _text() -> str:
    return write([generate_match("one-deck", hands=1, seed=SEED)])


@cache
def _reviewed() -> tuple[str, dict]:
    report, page = page_for(_text(), "gen.sjn", annotate=review_mistakes)
    return page, report


def _bury_of(report: dict) -> dict:
    (d,) = [d for d in report["matches"][0]["review"]["hands"][0]["decisions"] if d["kind"] == "bury"]
    return d


def _sym(text: str) -> str:
    """The review's card text (suit symbols) in SJN letters."""
    return text.translate(str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"}))


def test_the_bury_decision_is_in_the_pages_data():
    page, _report = _reviewed()
    (found,) = BLOB.findall(page)
    data = json.loads(found)
    hand = data["matches"][0]["hands"][0]
    d = _bury_of(data)
    assert (d["trick"], d["play_index"], d["seat"]) == (0, None, hand["dealer"])
    assert Counter(parse_cards(_sym(d["chosen"]))) == Counter(parse_cards(hand["bury"]))
    assert d["judged"] and len(d["alternatives"]) >= 2
    for o in d["alternatives"]:
        assert isinstance(o["expected"], float) and isinstance(o["stderr"], float) and o["stderr"] >= 0
        assert len(parse_cards(_sym(o["play"]))) == len(parse_cards(hand["bury"]))
    cands = d["options_considered"]["candidates"]
    assert "made" in cands and d["options_considered"]["all_buries"] is False
    assert {_sym(o["play"]) for o in d["alternatives"]} <= {_sym(v) for v in cands.values()}


def _with_verdict(report: dict) -> dict:
    """The same report with the bury judged a mistake, explained, and its SJ603 finding."""
    r = copy.deepcopy(report)
    m = r["matches"][0]
    d = _bury_of(r)
    alts = d["alternatives"]
    alts[0]["expected"], alts[0]["stderr"] = 41.5, 3.2
    alts[-1]["expected"], alts[-1]["stderr"] = 67.0, 4.5
    d["chosen"] = alts[-1]["play"]
    d.update(band="mistake", loss=25.5, loss_stderr=5.5, level_loss=0.5, level_loss_stderr=0.25,
             explanation=["SJ603 buried 10 points and lost the last trick"])
    m["annotations"] = [a for a in m["annotations"] if a.get("trick") is not None] + [
        {"code": "SJ603", "name": "risky-bury", "severity": "info", "line": 9, "column": 1, "end_line": 9,
         "end_column": 20, "hand": 1, "trick": None,
         "message": f"mistake (26 ± 6 points expected): {d['seat']} buried {d['chosen']}; the finding's text"}]
    return r


def test_the_bury_review_at_the_bury_step(open_page, artifact_dir):
    page_html, report = _reviewed()
    d = _bury_of(report)
    opened = open_page(page_html, "bury.html")
    page = opened.page
    assert opened.status()["kind"] == "deal"
    assert page.get_attribute("#decision", "data-reviewed") == "yes"
    box = page.inner_text("#decision")
    assert f"{d['seat']} buries".upper() in box.upper()
    rows = page.locator("#decision table.bury-alts tbody tr")
    assert rows.count() == len(d["alternatives"])
    for k, o in enumerate(d["alternatives"]):
        cells = rows.nth(k).inner_text()
        assert f"{o['expected']:.1f}" in cells and f"± {o['stderr']:.1f}" in cells
    names = {"made": "the bury made", "bot": "the bots’ bury", "no_points": "no point cards",
             "void_short": "voids a short suit"}
    shown = [rows.nth(k).locator("td.cand").inner_text() for k in range(rows.count())]
    by_cards = {tuple(sorted(parse_cards(_sym(v)))): k for k, v in d["options_considered"]["candidates"].items()}
    assert shown == [names[by_cards[tuple(sorted(parse_cards(_sym(o["play"]))))]] for o in d["alternatives"]]
    assert page.locator("#decision table.bury-alts tr.chosen").count() == 1 and "buried" in page.inner_text("#decision table.bury-alts tr.chosen")
    # a play's review: the alternatives' card text (suit symbols) is drawn as cards on the table
    page.click("#next")
    play = next(x for x in report["matches"][0]["review"]["hands"][0]["decisions"]
                if x["trick"] == 1 and x["play_index"] == 0)
    others = [o for o in play["alternatives"] if Counter(parse_cards(_sym(o["play"]))) != Counter(parse_cards(_sym(play["chosen"])))]
    if others:
        page.click(f'#decision tr.alt[data-play="{others[0]["play"]}"]')
        tokens = page.locator("#center .play.alternative .card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert tokens and all(TOKEN.match(t) for t in tokens), tokens
        assert dom_cards(tokens) == Counter(parse_cards(_sym(others[0]["play"])))
    opened.assert_clean()


def test_a_bury_verdict_marks_the_bury_step(open_page, artifact_dir):
    _page_html, report = _reviewed()
    report = _with_verdict(report)
    d = _bury_of(report)
    opened = open_page(render_html(report), "bury-verdict.html")
    page = opened.page
    assert opened.status()["mistake"] == "1"                       # a mark at the deal, before trick 1
    box = page.inner_text("#decision")
    assert "MISTAKE" in box.upper() and "25.5 ± 5.5" in box and "41.5" in box and "± 3.2" in box
    assert "buried 10 points and lost the last trick" in box
    assert page.locator('#decision details.finding[data-code="SJ603"]').count() == 1
    page.click("#decision details.finding summary")                 # unfolded: the finding's whole text
    assert "the finding's text" in page.locator("#decision details.finding").inner_text()
    assert page.locator("#center .bury-row .band-mistake").count() == 1
    assert page.locator("#points-chart circle.bury-dot.band-mistake").count() == 1
    opened.screenshot("board-bury-review.png", artifact_dir)
    # next / previous mistake come back to the bury step
    opened.press("End")
    while not page.is_disabled("#prev-mistake"):
        page.click("#prev-mistake")
    assert (opened.status()["step"], opened.status()["mistake"]) == ("0", "1")
    # another seat's view: the bury is the burier's secret
    other = next(s for s in "NWSE" if s != d["seat"])
    page.select_option("#seat-pick", other)
    assert page.get_attribute("#decision", "data-reviewed") == "hidden"
    assert "41.5" not in page.inner_text("#decision") and "seen by" in page.inner_text("#decision")
    page.select_option("#seat-pick", d["seat"])
    assert page.get_attribute("#decision", "data-reviewed") == "yes"
    opened.assert_clean()


def test_a_bury_not_judged_says_why(open_page):
    _page_html, report = _reviewed()
    r = copy.deepcopy(report)
    d = _bury_of(r)
    d.update(judged=False, alternatives=[], band=None, reason="no other candidate bury (every candidate is the bury made)")
    opened = open_page(render_html(r), "bury-unjudged.html")
    page = opened.page
    assert page.get_attribute("#decision", "data-reviewed") == "no"
    box = page.inner_text("#decision")
    assert "NOT JUDGED" in box.upper() and "no other candidate bury" in box
    assert page.locator("#decision table.bury-alts tbody tr").count() == len(d["options_considered"]["candidates"])
    assert opened.status()["mistake"] == ""
    opened.assert_clean()


def test_the_bury_decisions_band_alone_marks_it(open_page):
    """The mark comes from the decision too (a report whose SJ603 annotation was left out, e.g. by --select)."""
    _page, report = _reviewed()
    r = _with_verdict(report)
    m = r["matches"][0]
    m["annotations"] = [a for a in m["annotations"] if a["code"] != "SJ603"]
    opened = open_page(render_html(r), "bury-band.html")
    assert opened.status()["mistake"] == "1"
    assert opened.page.locator("#decision details.finding").count() == 0
    opened.assert_clean()


def test_a_friends_review_lists_its_players(open_page):
    """Finding friends: the Mistake review tables list P1…Pn (they showed N W S E with nothing)."""
    from viewer_helpers import SAMPLES
    text = (SAMPLES[0].parent / "shengji-io-friends.sjn").read_text(encoding="utf-8")
    report, _ = page_for(text, "friends.sjn")
    m = report["matches"][0]
    seats = m["hands"][0]["seats"]
    m["review"] = {"players": {s: {"points_lost": 10 + k, "judged": 3, "accuracy": 90.0 - k} for k, s in enumerate(seats)},
                   "hands": [{"hand": h["number"], "window": None, "no_window": "finding friends",
                              "players": {s: {"points_lost": k, "accuracy": 80.0} for k, s in enumerate(seats)}}
                             for h in m["hands"]]}
    opened = open_page(render_html(report), "friends-review.html")
    page = opened.page
    assert page.locator("#review tbody tr[data-seat]").evaluate_all("els => els.map(e => e.dataset.seat)") == seats
    assert "91.0%" not in page.inner_text("#review") and f"{90.0 - len(seats) + 1:.1f}%" in page.inner_text("#review")
    heads = page.locator("#review table.per-hand th").all_inner_texts()
    assert [h.split()[0] for h in heads[2:]] == seats
    opened.assert_clean()


def _engine_hand():
    """The engine's hand of :func:`_text`: the hands at trick 1 (after the bury), the bury, the display order."""
    records, _ = parse(_text())
    return replay(records[0]).hands[0]


def test_the_page_has_the_display_order_where_a_bury_was_reviewed():
    """The burier's hand with another candidate in it is sorted by the engine's order, which the page's
    data holds for a hand whose bury was reviewed only (a page without the review is unchanged)."""
    page, _report = _reviewed()
    (found,) = BLOB.findall(page)
    (orders,) = json.loads(found)["viewer"]["orders"]
    assert list(parse_cards(orders[0])) == _engine_hand().order.sorted(range(54))
    _plain, plain_page = page_for(_text(), "gen.sjn")
    (found,) = BLOB.findall(plain_page)
    assert json.loads(found)["viewer"]["orders"] == [[None]]


def _hand_tokens(opened, seat: str) -> list[str]:
    return opened.page.locator(f'#table .seat[data-seat="{seat}"] .hand .card').evaluate_all("els => els.map(e => e.dataset.card)")


def test_clicking_a_candidate_bury_shows_it_on_the_board(open_page, artifact_dir):
    """As a play's alternative shows the table after it: a candidate bury clicked shows it as the kitty and
    the burier's hand with the cards actually buried back in (marked), in the engine's display order; a
    second click, or the bury made, shows the bury made again; another seat's view does not show it."""
    page_html, report = _reviewed()
    d = _bury_of(report)
    hr = _engine_hand()
    seat = d["seat"]
    before = {s: Counter(c) for s, c in zip(hr.seats, hr.tricks[0].hands_before, strict=True)}
    made = Counter(hr.bury)
    opened = open_page(page_html, "bury-click.html")
    page = opened.page
    shown = {s: dom_cards(t) for s, t in opened.state()["seats"].items()}
    assert shown == before and page.locator("#center .bury-row.alternative").count() == 0
    others = [o for o in d["alternatives"] if Counter(parse_cards(_sym(o["play"]))) != made]
    assert others
    for o in others:
        cand = Counter(parse_cards(_sym(o["play"])))
        page.click(f'#decision table.bury-alts tr[data-bury="{o["play"]}"]')
        state = opened.state()
        assert state["attrs"]["kind"] == "deal" and "buried instead" in page.inner_text("#status")
        kitty = page.locator("#center .bury-row.alternative .card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert dom_cards(kitty) == cand
        want = before[seat] + made - cand
        assert dom_cards(state["seats"][seat]) == want
        tokens = _hand_tokens(opened, seat)
        assert [c for t in tokens for c in parse_cards(t)] == hr.order.sorted(want.elements())
        back = page.locator(f'#table .seat[data-seat="{seat}"] .card.returned').evaluate_all("els => els.map(e => e.dataset.card)")
        assert dom_cards(back) == made - cand
        for s in hr.seats:
            if s != seat:
                assert dom_cards(state["seats"][s]) == before[s]
        assert page.locator("#decision table.bury-alts tr.shown").get_attribute("data-bury") == o["play"]
        # the bury made is still there, below
        made_row = page.locator("#center .bury-row.made .card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert dom_cards(made_row) == made
    opened.screenshot("board-bury-candidate.png", artifact_dir)
    # another seat's view: the bury is the burier's secret, so is the candidate
    other = next(s for s in hr.seats if s != seat)
    page.select_option("#seat-pick", other)
    assert page.locator("#center .bury-row.alternative").count() == 0
    assert "buried instead" not in page.inner_text("#status")
    page.select_option("#seat-pick", "")
    assert dom_cards(opened.state()["seats"][seat]) != before[seat]    # back in All hands: still shown
    # the same row again: back to the bury made
    page.click(f'#decision table.bury-alts tr[data-bury="{others[-1]["play"]}"]')
    assert dom_cards(opened.state()["seats"][seat]) == before[seat]
    assert page.locator("#center .bury-row.alternative").count() == 0 and page.locator("#decision tr.shown").count() == 0
    # a candidate, then the bury made: back too
    page.click(f'#decision table.bury-alts tr[data-bury="{others[0]["play"]}"]')
    page.click("#decision table.bury-alts tr.chosen")
    assert dom_cards(opened.state()["seats"][seat]) == before[seat] and page.locator("#center .bury-row.alternative").count() == 0
    # stepping away and back: the bury made
    page.click(f'#decision table.bury-alts tr[data-bury="{others[0]["play"]}"]')
    page.click("#next")
    page.click("#prev")
    assert dom_cards(opened.state()["seats"][seat]) == before[seat] and page.locator("#center .bury-row.alternative").count() == 0
    assert page.locator(f'#table .seat[data-seat="{seat}"] .card.returned').count() == 0
    opened.assert_clean()


def _pattern(seat: str, hand: int) -> Mistake:
    """An SJ603 pattern finding as the pattern rule writes it (band and hindsight cost, then its text)."""
    return Mistake("SJ603", f"mistake (40 points): {seat} buried 10 points (♦10) and N took the last trick: 10 × 4 = 40 "
                   "to the attackers; a point-free bury, keeping ♦10 and burying ♥4 instead, would have saved 40",
                   9, 1, 9, 20, INFO, hand, None, seat, "bury", 40, "mistake")


def _with_pattern(report: dict, valued: bool) -> tuple[dict, str]:
    """The report with the bury's SJ603 pattern attached as the full review attaches it
    (:func:`analyzer.review.mistakes.bury.review_bury`): the decision's explanation, and the
    finding (the valued verdict's text then the pattern's, or the pattern kept as a note)."""
    r = copy.deepcopy(report)
    m = r["matches"][0]
    d = _bury_of(r)
    pat = _pattern(d["seat"], m["hands"][0]["number"])
    text = pattern_text(pat)
    d["explanation"] = [f"{pat.code} {text}"]
    if valued:
        d.update(band="mistake", loss=25.5, loss_stderr=5.5)
        message = f"mistake (26 ± 6 points expected): {d['seat']} buried {d['chosen']}; from its view … was better; {text}"
    else:
        message = as_note(pat).message
    m["annotations"] = [a for a in m["annotations"] if a["code"] != "SJ603"] + [
        {"code": "SJ603", "name": "risky-bury", "severity": "info", "line": 9, "column": 1, "end_line": 9,
         "end_column": 20, "hand": pat.hand, "trick": None, "message": message}]
    return r, text


@pytest.mark.parametrize("valued", [False, True], ids=["note", "verdict"])
def test_the_bury_findings_text_is_shown_once(open_page, artifact_dir, valued):
    """The explanation is the SJ603 pattern's text, which the finding repeats: the Review panel shows it once."""
    _page_html, report = _reviewed()
    r, text = _with_pattern(report, valued)
    opened = open_page(render_html(r), "bury-once.html")
    page = opened.page
    page.click("#decision details.finding summary")
    box = page.inner_text("#decision")
    assert box.count(text) == 1, box
    assert text in page.inner_text("#decision ul.explain")
    finding = page.inner_text("#decision details.finding")
    assert "the explanation above" in finding
    assert ("note (a pattern seen in hindsight, not valued)" in finding) != valued
    assert ("26 ± 6 points expected" in finding) == valued
    # a candidate clicked redraws the panel: the finding stays unfolded, its text still once
    d = _bury_of(r)
    other = next(o["play"] for o in d["alternatives"] if Counter(parse_cards(_sym(o["play"]))) != Counter(parse_cards(_sym(d["chosen"]))))
    page.click(f'#decision table.bury-alts tr[data-bury="{other}"]')
    assert page.locator("#decision table.bury-alts tr.shown").count() == 1
    assert page.locator("#decision details.finding").evaluate("el => el.open") is True
    assert page.inner_text("#decision").count(text) == 1
    page.click("#next")
    page.click("#prev")                                            # another step and back: folded again
    assert page.locator("#decision details.finding").evaluate("el => el.open") is False
    if valued:   # the panel alone (a full-page shot resizes the window: the page redraws, the finding folds)
        shot = artifact_dir / "review-bury-finding-once.png"
        page.locator("#decision").screenshot(path=str(shot))
        print(f"viewer screenshot: {shot}")
    opened.assert_clean()
