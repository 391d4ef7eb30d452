"""The Gouji replay page end to end in headless chromium (issue 18): a
generated match of each preset (gouji, gouji-bie3, gouji-online) opened from
file://, stepped with the keyboard and the buttons; at every action what the
page shows (actor, top and owner, 够级 target, ask order, passes, burns,
places, cards left) is checked against the engine's timeline
(:func:`replay.gouji.replay`), the pre-play lines before the first play and the
places / 串三户 / score at the end; no console error, no request but the page's
own file:// URL. Screenshots of a 够级 play, a burn, a 接风 and the result are kept."""

from __future__ import annotations

import pytest

from analyzer.games.gouji import analysis as gouji
from analyzer.games.gouji.generate import generate_match
from analyzer.games.gouji.viewer import render_html
from notation import gjn
from replay.gouji import replay
from replay.gouji.table import PLACE_NAMES
from replay.gouji.table import SEAT_NAMES as SEATS

#: (preset, seed): a generated match of two games each
CASES = [("gouji", 3), ("gouji-bie3", 4), ("gouji-online", 5)]

TABLE_JS = """() => {
  const seats = {};
  for (const el of document.querySelectorAll('#table .gseat')) {
    seats[el.dataset.seat] = {
      cls: [...el.classList],
      count: el.querySelector('.count').dataset.count,
      badges: [...el.querySelectorAll('.badge')].map(b => Array.from(b.childNodes).filter(n => !(n.classList && n.classList.contains('gl')))
        .map(n => n.textContent).join('')),   // the text without its English glosses
      opp: el.querySelector('.opp').textContent,
    };
  }
  const status = Object.fromEntries([...document.getElementById('status').attributes]
    .filter(a => a.name.startsWith('data-')).map(a => [a.name.slice(5), a.value]));
  return {seats, status, center: document.getElementById('gcenter').textContent,
          pre: [...document.querySelectorAll('#gcenter li[data-pre]')].map(li => li.dataset.pre)};
}"""


def build(preset: str, seed: int):
    text = gjn.write([generate_match(preset, games=2, seed=seed)])
    records, diags = gjn.parse(text)
    assert not diags
    (record,) = records
    rp = replay(record)
    assert not rp.diagnostics, rp.diagnostics
    report = gouji.build_report([(record, diags)], f"{preset}.gjn")
    return record, rp, render_html(report)


def check_action(opened, game, k: int, st, where: str) -> None:
    got = opened.page.evaluate(TABLE_JS)
    a, seats = got["status"], got["seats"]
    ctx = f"{where}: action step {k} ({st.seat} {st.kind} {st.cards})"
    assert (a["step"], a["kind"], a["seat"]) == (str(k), st.kind, st.seat), ctx
    assert (a["top"], a["owner"]) == (st.top, st.owner), ctx
    assert a["ask"] == " ".join(st.ask) and a["passed"] == " ".join(st.passed), ctx
    assert a["gouji"] == ("1" if st.gouji else ""), ctx
    assert a["target"] == (st.aim if st.gouji else st.target), ctx
    assert a["burn"] == ("fail" if st.fail else "burn" if st.burn else ""), ctx
    assert a["leads"] == st.leads and a["jiefeng"] == ("1" if st.jiefeng else ""), ctx
    assert a["finished"] == " ".join(f"{s}:{p}" for s, p in st.finished), ctx
    for i, seat in enumerate(SEATS):
        s = seats[seat]
        assert s["count"] == str(st.counts[i]), f"{ctx}: {seat}'s cards"
        assert ("owner" in s["cls"]) == (st.owner == seat), f"{ctx}: {seat} owner mark"
        target = st.target or (st.aim if st.gouji else "")
        assert ("target" in s["cls"]) == (target == seat), f"{ctx}: {seat} 够级 target mark"
        assert ("passed" in s["badges"]) == (seat in st.passed), f"{ctx}: {seat} passed"
        place = dict(st.finished).get(seat)
        assert (PLACE_NAMES[place] in s["badges"]) if place else not any(
            b in PLACE_NAMES[1:] for b in s["badges"]), f"{ctx}: {seat} place"
        burning = dict(st.burning).get(seat)
        assert (f"burning {burning}" in s["badges"]) == bool(burning), f"{ctx}: {seat} burning"
    if st.gouji:
        assert "够级" in got["center"] and st.aim in got["center"], ctx
    if st.burn:
        assert f"{st.seat} burns {st.burned}" in got["center"], ctx
    if st.jiefeng:
        assert "接风" in got["center"], ctx
    if st.kind == "let":
        assert "让牌" in got["center"], ctx
    if st.place and not st.fail:
        assert PLACE_NAMES[st.place] in got["center"], ctx


@pytest.mark.parametrize("preset,seed", CASES, ids=[c[0] for c in CASES])
def test_each_preset_steps_like_the_engine(open_page, artifact_dir, preset, seed):
    record, rp, html = build(preset, seed)
    opened = open_page(html, f"gouji-{preset}.html")
    for gi, (game, res) in enumerate(zip(record.games, rp.games)):
        got = opened.page.evaluate(TABLE_JS)
        a = got["status"]
        # before the first play: the pre-play lines (tribute, 还贡, 革命, …) and who leads
        assert (a["game-index"], a["step"], a["kind"]) == (str(gi), "0", "pre"), preset
        assert a["ask"] == res.leader
        assert got["pre"] == [p.kind for p in game.preplay]
        for seat in SEATS:   # two teams marked, each seat's 对头 visible
            n = int(seat[1])
            assert got["seats"][seat]["opp"] == f"{'odd' if n % 2 else 'even'} team · 对头 (opposite) P{(n + 2) % 6 + 1}"
        if gi == 0:
            opened.screenshot(f"gouji-{preset}-pre.png", artifact_dir)
        shots = {"gouji": False, "burn": False, "jiefeng": False}
        for k, st in enumerate(res.timeline, 1):
            opened.press("ArrowRight")
            check_action(opened, game, k, st, f"{preset} game {gi + 1}")
            for key, hit in (("gouji", st.gouji), ("burn", st.burn or st.fail), ("jiefeng", st.jiefeng)):
                if hit and not shots[key] and gi == 0:
                    shots[key] = True
                    opened.screenshot(f"gouji-{preset}-{key}.png", artifact_dir)
        opened.press("ArrowRight")   # the result: places, 串三户, score
        a = opened.status()
        places = [s for s, _ in sorted(res.places.items(), key=lambda kv: kv[1])]
        assert a["kind"] == "result" and a["places"] == " ".join(places)
        assert a["score"] == f"{res.score['odd']}-{res.score['even']}"
        assert a["sweep"] == ("1" if res.sweep else "")
        center = opened.page.text_content("#gcenter")
        assert all(PLACE_NAMES[k] in center for k in range(1, 7))
        if gi == 0:
            opened.screenshot(f"gouji-{preset}-result.png", artifact_dir)
        if gi + 1 < len(record.games):
            opened.press("ArrowRight")   # on to the next game
    assert opened.page.is_disabled("#next")
    opened.press("ArrowRight")                 # past the end: nothing moves
    assert opened.status()["kind"] == "result"
    # the charts: one line per seat, one per team
    assert opened.page.locator("#cards-svg path.line").count() == 6
    assert opened.page.locator("#score-svg path.line").count() == 2
    opened.assert_clean()


def test_tribute_return_and_revolt_before_the_first_play(open_page, artifact_dir):
    """GOUJI.md §2: 落贡, 还贡 and 革命 are shown at step 0 of the game, with who leads."""
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "gouji" / "fixtures" / "example_tribute_revolution.gjn"
    records, diags = gjn.parse(path.read_text(encoding="utf-8"))
    opened = open_page(render_html(gouji.build_report([(r, diags) for r in records], path.name)), "trib.html")
    opened.press("PageDown")
    got = opened.page.evaluate(TABLE_JS)
    assert got["status"]["game-index"] == "1" and got["status"]["kind"] == "pre"
    assert got["pre"] == ["tribute", "tribute", "return", "return", "revolt", "lead"]
    assert "革命" in got["seats"]["P4"]["badges"] and got["status"]["ask"] == "P5"
    assert "落贡" in got["center"] and "还贡" in got["center"] and "革命 (revolt): P4 revolts" in got["center"]
    opened.screenshot("gouji-tribute-revolt-pre.png", artifact_dir)
    opened.assert_clean()


def test_buttons_and_keys_move_between_games(open_page):
    _record, rp, html = build("gouji", 3)
    opened = open_page(html, "gouji-keys.html")
    n0 = len(rp.games[0].timeline)
    opened.page.click("#next")
    assert opened.status()["step"] == "1"
    opened.page.click("#last")
    assert opened.status()["kind"] == "result" and opened.status()["step"] == str(n0 + 1)
    opened.page.click("#first")
    assert opened.status()["step"] == "0"
    opened.press("PageDown")
    assert opened.status()["game-index"] == "1" and opened.status()["step"] == "0"
    opened.press("ArrowLeft")                  # back into game 1's result
    assert opened.status()["game-index"] == "0" and opened.status()["kind"] == "result"
    opened.press("End")
    opened.press("Home")
    assert opened.status()["step"] == "0"
    opened.page.click("#hand-tabs [data-section='1']")
    assert opened.status()["game-index"] == "1"
    opened.page.click("#log tr[data-step='5']")
    st = rp.games[1].timeline[4]
    assert (opened.status()["step"], opened.status()["seat"]) == ("5", st.seat)
    opened.assert_clean()
