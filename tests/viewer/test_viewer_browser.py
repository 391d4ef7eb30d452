"""The replay page end to end in headless chromium (Playwright): opened from
file://, stepped with the keyboard and the buttons, every shown winner,
score, trick and holding checked against :func:`replay.game.replay`, with no
console error and no request but the page's own file:// URL."""

from __future__ import annotations

import re

import pytest
from viewer_helpers import SAMPLES, dom_cards, expected_steps, page_for, record_text

from analyzer.play.generate import generate_match
from primitives.diagnostics import Diagnostic

ROOT_SAMPLES = SAMPLES[0].parent
DIAGNOSTICS = ROOT_SAMPLES.parent / "diagnostics"


def check_step(opened, exp, where: str) -> None:
    st = opened.state()
    a = st["attrs"]
    ctx = f"{where}, hand #{exp.hand_number} step {exp.step}"
    assert (a["hand-index"], a["hand"], a["step"], a["kind"]) == \
        (str(exp.hand_index), str(exp.hand_number), str(exp.step), exp.kind), ctx
    assert a["trick"] == ("" if exp.trick is None else str(exp.trick)), ctx
    assert a["winner"] == exp.winner, ctx
    assert int(a["score"]) == exp.score, ctx
    assert int(st["score"]) == exp.score, ctx            # the score box on the table
    if exp.kind == "trick":
        assert [p["seat"] for p in st["plays"] if p["winner"]] == [exp.winner], ctx
        assert st["winnerSeat"] == [exp.winner], ctx
        assert {p["seat"]: dom_cards(p["cards"]) for p in st["plays"]} == exp.plays, ctx
    else:
        assert st["plays"] == [] and st["winnerSeat"] == [], ctx
    assert set(st["seats"]) == set(exp.hands), ctx       # every seat of the table, N W S E or P1…Pn
    for seat in exp.hands:
        assert dom_cards(st["seats"][seat]) == exp.hands[seat], f"{ctx}: {seat}'s cards"


def step_through(opened, steps, where: str) -> None:
    """From the first step, → through every step of every hand, checking each."""
    for i, exp in enumerate(steps):
        if i:
            opened.press("ArrowDown")
        check_step(opened, exp, where)
    opened.press("ArrowDown")                       # past the end: nothing moves
    check_step(opened, steps[-1], where + " (past the end)")
    assert opened.page.is_disabled("#next")


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_every_preset_steps_like_the_engine(open_page, sample):
    text = sample.read_text(encoding="utf-8")
    _, html = page_for(text, str(sample))
    opened = open_page(html, sample.stem + ".html")
    steps = expected_steps(text)
    step_through(opened, steps, sample.stem)
    opened.assert_clean()


@pytest.fixture(scope="module")
def four_hands():
    text = record_text(generate_match("standard", hands=4, seed=11))
    return text, expected_steps(text)


def test_full_match_with_screenshot(open_page, four_hands, artifact_dir):
    text, steps = four_hands
    _, html = page_for(text, "generated-standard-4.sjn")
    assert len({e.hand_index for e in steps}) >= 4
    (artifact_dir / "viewer-standard-4.html").write_text(html, encoding="utf-8")
    opened = open_page(html, "match.html")
    step_through(opened, steps, "generated 4-hand match")
    for exp in reversed(steps[:-1]):                 # and back with ←, to the very start
        opened.press("ArrowUp")
        a = opened.status()
        assert (a["hand-index"], a["step"], a["score"]) == (str(exp.hand_index), str(exp.step), str(exp.score))
    assert opened.page.is_disabled("#prev")
    # a trick in the middle of hand 2, for the eye
    opened.page.click('.hand-tab[data-hand="1"]')
    opened.press("ArrowDown", 7)
    a = opened.status()
    assert (a["hand-index"], a["step"], a["kind"]) == ("1", "7", "trick")
    png = opened.screenshot("viewer-standard-4-hand2-trick7.png", artifact_dir)
    assert png.stat().st_size > 20_000
    opened.assert_clean()


def test_titanic_and_one_deck_screenshots(open_page, artifact_dir):
    for name, steps in (("titanic", 6), ("one-deck", 4)):
        text = (ROOT_SAMPLES / f"{name}.sjn").read_text(encoding="utf-8")
        opened = open_page(page_for(text, name)[1], f"{name}.html")
        opened.press("ArrowDown", steps)
        assert opened.status()["kind"] == "trick"
        opened.screenshot(f"viewer-{name}.png", artifact_dir)
        opened.assert_clean()


def test_buttons_keys_tabs_log_and_charts(open_page, four_hands):
    text, steps = four_hands
    by_hand: dict[int, list] = {}
    for e in steps:
        by_hand.setdefault(e.hand_index, []).append(e)
    opened = open_page(page_for(text)[1])
    page = opened.page

    def at() -> tuple[int, int]:
        a = opened.status()
        return int(a["hand-index"]), int(a["step"])

    assert at() == (0, 0) and page.is_disabled("#prev") and page.is_disabled("#first")
    for _ in range(3):
        page.click("#next-trick")
    assert at() == (0, 3)
    page.click("#prev-trick")
    assert at() == (0, 2)
    page.click("#last")
    assert at() == (0, len(by_hand[0]) - 1)
    page.click("#next-trick")                                  # into the next hand
    assert at() == (1, 0)
    page.click("#prev-trick")                                  # back to the last step of hand 1
    assert at() == (0, len(by_hand[0]) - 1)
    opened.press("Home")
    assert at() == (0, 0)
    opened.press("End")
    assert at() == (0, len(by_hand[0]) - 1)
    opened.press("PageDown")
    assert at() == (1, 0)
    opened.press("PageDown", 5)
    assert at() == (3, 0)
    opened.press("PageUp")
    assert at() == (2, 0)
    page.click('.hand-tab[data-hand="0"]')
    assert at() == (0, 0)
    assert page.get_attribute(".hand-tab.current", "data-hand") == "0"
    page.click('#log tr[data-step="4"]')
    assert at() == (0, 4)
    assert page.get_attribute("#log tr.current", "data-step") == "4"
    page.click('#points-chart circle[data-step="2"]')
    assert at() == (0, 2)
    # one dot per trick, the cursor on the current one; a level chart of the whole match
    assert page.locator("#points-chart circle[data-step]").count() == len(by_hand[0]) - 2
    assert page.locator("#level-chart path.line").count() == 2
    assert page.locator("#level-chart circle").count() == 2 * (len(by_hand) + 1)
    page.click('#level-chart circle[data-hand="2"]')
    assert at() == (2, 0)
    opened.press("End")
    opened.press("PageDown")
    opened.press("End")
    assert page.is_disabled("#next") and at() == (3, len(by_hand[3]) - 1)
    opened.assert_clean()


def _annotate(record, match):
    """A stand-in for the mistake rules: one annotation on the second play of hand 1, trick 3."""
    play = match.hands[0].tricks[2].plays[1]
    return [Diagnostic.at("SJ604", play.span, "fed 10 points to a trick the opponents were certain to win",
                          hand=1, trick=3)]


def _notes(opened) -> list[tuple[str, str]]:
    return [(el.get_attribute("data-code"), el.get_attribute("data-kind"))
            for el in opened.page.query_selector_all("#notes .note-item")]


def test_mistakes_and_diagnostics_appear_at_their_trick(open_page):
    text = (ROOT_SAMPLES / "standard.sjn").read_text(encoding="utf-8")
    report, html = page_for(text, "standard.sjn", annotate=_annotate)
    assert report["matches"][0]["annotations"][0]["trick"] == 3
    opened = open_page(html)
    seen = {}
    for step in range(6):
        seen[step] = _notes(opened)
        opened.press("ArrowDown")
    assert seen[3] == [("SJ604", "mistake")]
    assert all(not v for k, v in seen.items() if k != 3)
    opened.press("Home")
    opened.press("ArrowDown", 3)
    assert opened.status()["notes"] == "1"
    assert "fed 10 points" in opened.page.inner_text("#notes")
    assert opened.page.locator('#log tr[data-step="3"] .flag').count() == 1
    seat = report["matches"][0]["hands"][0]["tricks"][2]["plays"][1]["seat"]
    assert [s for s in "NWSE" if report["matches"][0]["players"][s]["mistakes"]] == [seat]
    assert opened.page.get_attribute("#notes .note-item", "data-seat") == seat
    assert opened.page.locator(f'#center .play[data-seat="{seat}"] .flagged').inner_text() == "\u26a0 SJ604"
    assert opened.page.locator("#center .flagged").count() == 1
    opened.assert_clean()

    # a lint diagnostic at a trick (SJ403 on trick 1), one before the tricks (SJ301), one on the record (SJ101)
    for code, step in (("SJ403", 1), ("SJ301", 0), ("SJ409", 3)):
        sample = (DIAGNOSTICS / f"{code}.sjn").read_text(encoding="utf-8")
        opened = open_page(page_for(sample, f"{code}.sjn")[1], f"{code}.html")
        found = {}
        for k in range(int(opened.status()["steps"])):
            found[k] = [c for c, _ in _notes(opened)]
            opened.press("ArrowDown")
        assert found[step] == [code], (code, found)
        assert all(not v for k, v in found.items() if k != step), (code, found)
        opened.press("Home")
        opened.press("ArrowDown", step)
        assert code in opened.page.inner_text("#notes")
        opened.assert_clean()
    opened = open_page(page_for((DIAGNOSTICS / "SJ101.sjn").read_text(encoding="utf-8"), "SJ101.sjn")[1])
    assert "SJ101" in opened.page.inner_text("#match-notes")
    opened.assert_clean()


def test_several_records_in_one_file(open_page):
    a = record_text(generate_match("one-deck", hands=1, seed=1))
    b = record_text(generate_match("tractor97", hands=2, seed=2))
    text = a + "\n" + b
    opened = open_page(page_for(text, "two.sjn")[1])
    assert opened.page.locator("#match option").count() == 2
    assert opened.status()["match"] == "1"
    opened.page.select_option("#match", "1")
    assert opened.status()["match"] == "2"
    step_through(opened, expected_steps(text, record_index=1), "second record")
    opened.assert_clean()


def test_empty_report_and_unreadable_text(open_page):
    from analyzer.report.viewer import render_html, render_text
    opened = open_page(render_html({"schema": 1, "path": "", "matches": []}), "empty.html")
    assert opened.status()["kind"] == "empty"
    opened.press("ArrowDown")
    opened.assert_clean()
    opened = open_page(render_text("nothing here\n", "junk.sjn"), "junk.html")
    opened.press("ArrowDown")
    opened.assert_clean()


def test_the_network_guard_sees_an_outside_request(open_page):
    """The check is real: a page that asks for anything is caught (and the request is aborted)."""
    _, html = page_for((ROOT_SAMPLES / "one-deck.sjn").read_text(encoding="utf-8"))
    html = html.replace("</body>", '<img alt="" src="http://127.0.0.1:9/pixel.png"></body>')
    # without the page's Content-Security-Policy (which blocks the request itself: tested on its own),
    # so that it is the guard that must see the request
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    opened = open_page(html, "leaky.html")
    opened.page.wait_for_timeout(200)
    assert opened.blocked == ["http://127.0.0.1:9/pixel.png"]
    with pytest.raises(AssertionError):
        opened.assert_clean()


def test_cards_are_drawn_with_suit_colours(open_page):
    _, html = page_for((ROOT_SAMPLES / "standard.sjn").read_text(encoding="utf-8"))
    opened = open_page(html)
    colours = opened.page.evaluate("""() => {
      const out = {};
      for (const c of document.querySelectorAll('#table .card')) {
        const k = c.dataset.card.length === 2 && c.dataset.card.endsWith('J') && 'BL'.includes(c.dataset.card[0])
          ? c.dataset.card : c.dataset.card[0];
        out[k] = getComputedStyle(c).color;
      }
      return out;
    }""")
    red, black = "rgb(200, 16, 46)", "rgb(21, 23, 26)"
    for suit, colour in colours.items():
        if suit in "HD":
            assert colour == red, suit
        elif suit in "SC":
            assert colour == black, suit
    jokers = {k: v for k, v in colours.items() if k in ("BJ", "LJ")}
    assert jokers and all(v not in (red, black) for v in jokers.values())
    assert len(set(jokers.values())) == len(jokers)
    # trump cards are marked
    assert opened.page.locator("#table .hand .card.trump").count() > 0
    opened.assert_clean()


def test_partly_known_hands(open_page):
    """A seat without its seat line holds what it plays (NOTATION "Omissions"): shown as the engine knows it."""
    import re
    text = re.sub(r"(?m)^W: .*\n", "", (ROOT_SAMPLES / "one-deck.sjn").read_text(encoding="utf-8"), count=1)
    opened = open_page(page_for(text, "partial.sjn")[1])
    step_through(opened, expected_steps(text), "one-deck without W's seat line")
    opened.assert_clean()


@pytest.mark.parametrize("sample", sorted(DIAGNOSTICS.glob("*.sjn")), ids=lambda p: p.stem)
def test_faulty_records_step_like_the_engine(open_page, sample):
    """The lint samples (wrong plays, bad bury, redeals, …) show what the engine made of them."""
    text = sample.read_text(encoding="utf-8")
    report, html = page_for(text, sample.name)
    opened = open_page(html, sample.stem + ".html")
    records = [m for m in report["matches"] if m["record"] is not None]
    if records and records[0]["hands"]:
        step_through(opened, expected_steps(text), sample.stem)
    else:
        opened.press("ArrowDown")
    opened.assert_clean()


def test_mistake_review_panel_eval_graph_and_links(open_page):
    """The real mistake rules: the review panel (per player), the evaluation line over the
    tricks, the mistake plays marked on the table, and links (#m1-h1-t10) into the viewer."""
    from analyzer.review.mistakes import find_mistakes

    text = (ROOT_SAMPLES.parent.parent / "tests" / "cli" / "fixtures" / "clean.sjn").read_text(encoding="utf-8")
    report, html = page_for(text, "clean.sjn", annotate=find_mistakes)
    review = report["matches"][0]["review"]
    worst = review["players"]["N"]["worst"][0]
    opened = open_page(html, "review.html")
    page = opened.page
    assert page.is_visible("#review")
    assert page.locator("#review table:not(.per-hand) tbody tr").count() == 4
    assert page.locator("#review table.per-hand tbody tr").count() == len(review["hands"])
    assert "last 4 of 4 tricks" in page.inner_text("#review table.per-hand")
    assert page.inner_text('#review tr[data-seat="N"] td.accuracy') == f"{review['players']['N']['accuracy']:.1f}%"
    assert page.locator("#points-chart path.eval").count() == 1
    assert page.locator("#points-chart circle.eval-dot").count() == sum(v is not None for v in review["hands"][0]["eval"])
    page.click("#review li.worst a")
    assert opened.status()["step"] == str(worst["trick"])
    assert page.locator('#center .play[data-seat="N"].mistake-play').count() == 1
    assert page.get_attribute('#center .play[data-seat="N"]', "data-band") == worst["band"]
    # a link opened from elsewhere: the fragment picks match, hand and trick
    page.goto(opened.url + "#m1-h1-t3")
    page.wait_for_selector("html[data-ready=true]")
    assert opened.status()["step"] == "3"
    opened.assert_clean()


def test_worst_mistake_links_are_readable_in_every_band(open_page):
    """A blunder's row in "Worst mistakes first" is red with white text: its link (seat,
    hand, trick) was drawn in the same red, invisible. Every band's link and list number
    must differ in colour from the row's background."""
    from analyzer.review.mistakes import find_mistakes

    text = (ROOT_SAMPLES.parent.parent / "tests" / "cli" / "fixtures" / "clean.sjn").read_text(encoding="utf-8")
    _report, html = page_for(text, "clean.sjn", annotate=find_mistakes)
    opened = open_page(html, "review-bands.html")
    got = opened.page.evaluate("""() => {
      const ol = document.createElement("ol");
      document.querySelector("#review").appendChild(ol);
      return ["inaccuracy", "mistake", "blunder"].map(band => {
        const li = document.createElement("li");
        li.className = "worst band-" + band;
        li.innerHTML = '<a href="#m1-h1-t1">N · hand 1, trick 1</a> text';
        ol.appendChild(li);
        const a = li.querySelector("a");
        return [band, getComputedStyle(li).backgroundColor, getComputedStyle(a).color,
                getComputedStyle(li, "::marker").color];
      });
    }""")
    for band, background, link, marker in got:
        assert link != background, (band, link, background)
        assert marker != "rgb(255, 255, 255)", (band, marker)   # the number sits on the page's white
