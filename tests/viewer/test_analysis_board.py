"""The viewer as an analysis board (issue 33), in headless chromium: play by play
with a link to every play, seat views (hidden hands, voids, friends as revealed),
next/previous mistake, the review panel of a decision, finding friends' call and
teams, Gouji hands, links and glosses, and no clipping from 360 px to 1280 px."""

from __future__ import annotations

import copy
import re
from collections import Counter

import pytest
from viewer_helpers import SAMPLES, dom_cards, expected_steps, page_for

from analyzer.report.viewer import render_html, trump_cards
from notation import parse
from primitives.cards import parse_cards
from primitives.diagnostics import Diagnostic
from replay.game import replay

MATCHES = SAMPLES[0].parent
STANDARD = MATCHES / "standard.sjn"
FRIENDS = MATCHES / "shengji-io-friends.sjn"


def _engine_hand(text: str):
    records, _ = parse(text)
    return replay(records[0]).hands[0]


def test_play_by_play_holdings_and_links(open_page, artifact_dir):
    text = STANDARD.read_text(encoding="utf-8")
    steps = expected_steps(text)
    hr = _engine_hand(text)
    opened = open_page(page_for(text, "standard.sjn")[1], "std.html")
    opened.press("ArrowDown", 2)                       # trick 2, complete
    assert (opened.status()["kind"], opened.status()["step"]) == ("trick", "2")
    trick3 = hr.tricks[2]
    for p in range(1, len(trick3.plays) + 1):
        opened.press("ArrowRight")
        st = opened.state()
        a = st["attrs"]
        assert (a["step"], a["play"], a["plays"]) == ("3", str(p), str(len(trick3.plays)))
        assert a["kind"] == ("trick" if p == len(trick3.plays) else "play")
        assert [x["seat"] for x in st["plays"]] == [x.seat for x in trick3.plays[:p]]
        want = {s: Counter(c) for s, c in steps[2].hands.items()}   # holdings after trick 2 …
        for x in trick3.plays[:p]:                                   # … less the plays made so far
            want[x.seat] -= Counter(x.cards)
        for seat in want:
            assert dom_cards(st["seats"][seat]) == want[seat], (p, seat)
        if p < len(trick3.plays):
            assert a["winner"] == "" and int(a["score"]) == steps[2].score
            assert opened.page.locator(f'#table .seat.to-play[data-seat="{trick3.plays[p].seat}"]').count() == 1
    # every position has its link; the link opens that position
    href = opened.page.get_attribute("#permalink", "href")
    assert href == "#m1-h1-t3"
    opened.press("ArrowLeft")
    assert opened.page.get_attribute("#permalink", "href") == f"#m1-h1-t3-p{len(trick3.plays) - 1}"
    opened.page.goto(opened.url + "#m1-h1-t5-p2")
    opened.page.wait_for_selector("html[data-ready=true]")
    a = opened.status()
    assert (a["step"], a["play"], a["kind"]) == ("5", "2", "play")
    # ↑ ↓ trick by trick, the buttons too
    opened.press("ArrowDown")
    assert (opened.status()["step"], opened.status()["kind"]) == ("5", "trick")
    opened.page.click("#prev-trick")
    assert (opened.status()["step"], opened.status()["kind"]) == ("4", "trick")
    opened.page.click("#next")
    assert (opened.status()["step"], opened.status()["play"]) == ("5", "1")
    opened.assert_clean()


def _voids(text: str, upto_trick: int) -> dict[str, set[str]]:
    """The suits each seat showed void in during tricks 1..upto_trick (from the engine's plays)."""
    from analyzer.report.reading import build_report
    report = build_report(text)
    m = report["matches"][0]
    trumps = set(parse_cards(trump_cards(m, m["hands"][0])))
    hr = _engine_hand(text)

    def suit(c: int) -> str:
        from primitives.cards import format_cards
        return "T" if c in trumps else format_cards([c])[0]
    out: dict[str, set[str]] = {}
    for t in hr.tricks[:upto_trick]:
        led = suit(t.plays[0].cards[0])
        for p in t.plays[1:]:
            if any(suit(c) != led for c in p.cards):
                out.setdefault(p.seat, set()).add(led)
    return out


def test_a_seats_view(open_page, artifact_dir):
    text = STANDARD.read_text(encoding="utf-8")
    opened = open_page(page_for(text, "standard.sjn")[1], "view.html")
    page = opened.page
    page.select_option("#seat-pick", "S")
    assert opened.status()["view"] == "S"
    # at the deal: only South's cards are face up, the kitty is the dealer's (N) secret
    st = opened.state()
    assert st["seats"]["S"] and all(not st["seats"][s] for s in "NWE")
    for s in "NWE":
        seat = page.locator(f'#table .seat[data-seat="{s}"]')
        assert seat.locator(".back").count() == int(seat.get_attribute("data-count"))
    assert "seen by the dealer only" in page.inner_text("#center")
    opened.press("ArrowDown", 8)
    assert page.get_attribute("#permalink", "href") == "#m1-h1-t8-vS"
    shown = {s: set(v) for s, v in
             ((el.get_attribute("data-seat"), el.query_selector(".voids").get_attribute("data-voids"))
              for el in page.query_selector_all("#table .seat") if el.query_selector(".voids"))}
    want = _voids(text, 8)
    assert shown == want and want, (shown, want)
    opened.screenshot("board-standard-south-view-t8.png", artifact_dir)
    page.select_option("#seat-pick", "")
    assert all(opened.state()["seats"][s] for s in "NWSE")
    opened.assert_clean()


def _annotate(record, match):
    play = match.hands[0].tricks[2].plays[1]
    later = match.hands[0].tricks[6].plays[0]
    return [Diagnostic.at("SJ604", play.span, "mistake (20 points): fed 10 points", hand=1, trick=3),
            Diagnostic.at("SJ603", later.span, "blunder (40 points): led into a ruff", hand=1, trick=7)]


def test_next_and_previous_mistake(open_page):
    text = STANDARD.read_text(encoding="utf-8")
    opened = open_page(page_for(text, "standard.sjn", annotate=_annotate)[1], "mistakes.html")
    page = opened.page
    assert page.is_disabled("#prev-mistake") and not page.is_disabled("#next-mistake")
    page.click("#next-mistake")
    a = opened.status()
    assert (a["step"], a["play"], a["mistake"]) == ("3", "2", "1")
    assert "fed 10 points" in page.inner_text("#notes")
    opened.press("n")
    a = opened.status()
    assert (a["step"], a["play"], a["mistake"]) == ("7", "1", "1")
    assert page.is_disabled("#next-mistake")
    opened.press("p")
    assert (opened.status()["step"], opened.status()["play"]) == ("3", "2")
    assert page.is_disabled("#prev-mistake")
    opened.assert_clean()


def _with_decisions(report: dict) -> dict:
    """A report with the full review's per-decision JSON (the shape of analyzer.review.mistakes.decisions.Decision.as_dict)."""
    r = copy.deepcopy(report)
    m = r["matches"][0]
    h = m["hands"][0]
    t3 = h["tricks"][2]
    play = t3["plays"][1]
    alt = "BJ" if play["cards"] != "BJ" else "LJ"
    decisions = [{"hand": 1, "seat": play["seat"], "trick": 3, "play_index": 1, "kind": "follow",
                  "chosen": play["cards"], "alternatives": [
                      {"play": alt, "expected": 62.5, "stderr": 3.1, "level": 0.1},
                      {"play": play["cards"], "expected": 81.0, "stderr": 4.2, "level": -0.4}],
                  "forced": False, "judged": True, "reason": None, "loss": 18.5, "loss_stderr": 4.0,
                  "level_loss": 0.5, "stake": 30, "band": "blunder",
                  "explanation": ["fed 10 points to a trick the opponents were certain to win"],
                  "exact": True, "samples": 20, "screen_samples": 8, "hindsight": False,
                  "actual": {"judged": True, "cost": 20, "best_total": 60, "after_total": 80, "best": alt, "line": "S: " + alt}},
                 {"hand": 1, "seat": h["tricks"][0]["plays"][0]["seat"], "trick": 1, "play_index": 0, "kind": "lead",
                  "chosen": h["tricks"][0]["plays"][0]["cards"], "alternatives": [
                      {"play": h["tricks"][0]["plays"][0]["cards"], "expected": 70.0, "stderr": 5.0, "level": 0}],
                  "forced": False, "judged": True, "reason": None, "loss": 0, "loss_stderr": 0, "level_loss": 0, "stake": 0,
                  "band": None, "explanation": [], "exact": False, "samples": 20, "hindsight": False, "actual": None}]
    m["review"] = {"players": {s: {} for s in "NWSE"}, "hands": [{"hand": 1, "window": None, "requested": 4,
                                                                   "players": {}, "decisions": decisions}]}
    return r


def test_review_panel_alternatives_and_the_whole_hand_graph(open_page, artifact_dir):
    from analyzer.report.reading import build_report
    text = STANDARD.read_text(encoding="utf-8")
    plain = build_report(text, "standard.sjn")
    opened = open_page(render_html(plain), "plain.html")
    opened.press("ArrowRight")
    assert "not reviewed" in opened.page.inner_text("#decision")
    assert "blue" not in opened.page.inner_text("#points-caption")       # no line, no promise of one
    assert opened.page.locator("#points-chart path.eval").count() == 0
    opened.assert_clean()

    report = _with_decisions(plain)
    opened = open_page(render_html(report), "decisions.html")
    page = opened.page
    assert page.locator("#points-chart path.full-eval").count() == 1
    assert "blue" in page.inner_text("#points-caption")
    assert page.locator("#points-chart circle.band-blunder").count() == 1
    page.click("#next-mistake")
    assert (opened.status()["step"], opened.status()["play"]) == ("3", "2")
    box = page.inner_text("#decision")
    assert "BLUNDER" in box.upper() and "62.5" in box and "3.1" in box and "81.0" in box and "fed 10 points" in box
    assert "best line" in box
    assert "over 20 new deals (a first look over 8 deals left it unsure)" in box   # sequential sampling
    assert page.get_attribute("#decision", "data-reviewed") == "yes"
    d = report["matches"][0]["review"]["hands"][0]["decisions"][0]
    page.click("#decision tr.alt:not(.chosen)")
    seat = d["seat"]
    shown = page.locator(f'#center .play.alternative[data-seat="{seat}"] .card')
    assert dom_cards(shown.evaluate_all("els => els.map(e => e.dataset.card)")) == dom_cards(
        re.findall(r"BJ|LJ|[SHDC](?:10|[2-9JQKA])", d["alternatives"][0]["play"]))
    opened.screenshot("board-review-alternative.png", artifact_dir)
    page.click("#decision tr.alt:not(.chosen)")                          # again: back to the play made
    assert page.locator("#center .play.alternative").count() == 0
    opened.press("ArrowUp")
    opened.press("ArrowRight")
    assert "not reviewed" in page.inner_text("#decision") or page.get_attribute("#decision", "data-reviewed") == "yes"
    opened.assert_clean()


def test_finding_friends_call_and_hidden_teams(open_page, artifact_dir):
    text = FRIENDS.read_text(encoding="utf-8")
    report, html = page_for(text, "friends.sjn")
    H = report["matches"][0]["hands"][0]
    f = H["friends"][0]
    opened = open_page(html, "friends.html")
    page = opened.page
    assert f["call"] in page.inner_text("#center") and f["call"] in page.inner_text(".callbox")
    attackers = H["attackers"]
    friend_play = [p["seat"] for p in H["tricks"][f["trick"] - 1]["plays"]].index(f["seat"]) + 1
    page.goto(opened.url + f"#m1-h1-t{f['trick']}-p{friend_play - 1}")
    page.wait_for_selector("html[data-ready=true]")
    for where in ("#status", ".scorebox", "#info"):
        assert attackers not in page.inner_text(where), where
    assert "not yet known" in page.inner_text(".scorebox")
    opened.press("ArrowRight")                                        # the friend card is played
    assert attackers in page.inner_text(".scorebox")
    assert page.locator(f'#table .seat[data-seat="{f["seat"]}"] .role.friend').count() == 1
    # the Players table's seat column, the level grid (one row per player)
    bg = page.evaluate("() => getComputedStyle(document.querySelector('#players td .team')).backgroundColor")
    assert bg not in ("rgba(0, 0, 0, 0)", "transparent")
    assert page.locator("#level-grid tbody tr").count() == len(H["seats"])
    opened.assert_clean()


SHOTS = [("standard", STANDARD, "#m1-h1-t6-p2"), ("friends", FRIENDS, "#m1-h1-t4-p3-vP3")]


@pytest.mark.parametrize("width", [360, 800, 1280])
def test_nothing_clipped_at_any_width(open_page, artifact_dir, width):
    for name, path, frag in SHOTS:
        opened = open_page(page_for(path.read_text(encoding="utf-8"), path.name)[1], f"{name}-{width}.html",
                           viewport=(width, 900))
        page = opened.page
        page.goto(opened.url + frag)
        page.wait_for_selector("html[data-ready=true]")
        page.wait_for_timeout(200)
        if "-v" in frag:
            assert page.input_value("#seat-pick") == frag.rsplit("-v", 1)[1]
        out = page.evaluate("""() => {
          const W = document.documentElement.clientWidth, bad = [];
          for (const el of document.querySelectorAll('#table .seat, #table .corner, #center, #table .card, #table .back, #steppers button'))
            { const r = el.getBoundingClientRect(); if (r.width && (r.left < -1 || r.right > W + 1)) bad.push(el.className + ' ' + r.left + '-' + r.right); }
          return {W, scroll: document.documentElement.scrollWidth, bad};
        }""")
        assert out["scroll"] <= out["W"] + 1 and not out["bad"], (name, width, out)
        opened.screenshot(f"board-{name}-{width}.png", artifact_dir)
        opened.assert_clean()


def test_print_css_hides_the_controls(open_page):
    opened = open_page(page_for(STANDARD.read_text(encoding="utf-8"))[1], "print.html")
    opened.page.emulate_media(media="print")
    assert not opened.page.is_visible("#steppers") and opened.page.is_visible("#table")
    opened.assert_clean()


# -- Gouji ----------------------------------------------------------------------------------------

def _gouji_page():
    from analyzer.games.gouji.analysis import build_report
    from analyzer.games.gouji.viewer import render_html as gouji_html
    from notation import gjn
    records, diags = gjn.parse((MATCHES / "gouji.gjn").read_text(encoding="utf-8"))
    report = build_report([(r, diags if k == 0 else []) for k, r in enumerate(records)], "gouji.gjn")
    return report, gouji_html(report)


@pytest.mark.parametrize("width", [360, 1280])
def test_gouji_hands_views_links_and_glosses(open_page, artifact_dir, width):
    report, html = _gouji_page()
    game = report["matches"][0]["games"][0]
    opened = open_page(html, f"gouji-{width}.html", viewport=(width, 900))
    page = opened.page
    for k in (0, 1, 16, 40):
        if k:
            page.goto(opened.url + f"#g1-s{k}")
            page.wait_for_selector("html[data-ready=true]")
            page.wait_for_timeout(50)
        assert opened.status()["step"] == str(k)
        counts = game["start_counts"] if k == 0 else game["steps"][k - 1]["counts"]
        got = page.evaluate("() => Object.fromEntries(Array.from(document.querySelectorAll('#table .ghand[data-seat]'),"
                            " el => [el.dataset.seat, el.querySelectorAll('.card').length]))")
        assert got == {f"P{i + 1}": n for i, n in enumerate(counts)}, k
        assert page.get_attribute("#permalink", "href") == f"#g1-s{k}"
    page.select_option("#seat-pick", "P4")
    assert page.locator("#table .ghand[data-seat]").count() == 1
    assert page.locator("#table .ghand.hidden").count() == 5
    assert page.get_attribute("#permalink", "href") == "#g1-s40-vP4"
    # every Chinese term of the table, the panels and the status has its English gloss beside it
    text = page.evaluate("() => ['table','info','log','players','status','subtitle'].map(i => document.getElementById(i).innerText).join('\\n')")
    cjk = re.findall(r"[\u4e00-\u9fff][\u4e00-\u9fff0-9]*", text)
    assert cjk
    zh = page.evaluate("() => Array.from(document.querySelectorAll('.zh'), z => [z.textContent, (z.nextElementSibling || {}).className || ''])")
    assert zh and all(cls == "gl" for _, cls in zh)
    assert sum(1 for _ in zh) >= len(cjk)
    out = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert out[0] <= out[1] + 1, out
    opened.screenshot(f"board-gouji-{width}.png", artifact_dir)
    opened.assert_clean()
