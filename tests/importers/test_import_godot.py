"""shengji-godot: the GameLogger JSON log and the HTML report (issue 36).

The fixtures (tests/importers/fixtures/godot/) are the project's own: a match
dealt and played by make_fixtures.py under the shengji-godot preset and written
in the two forms FORMAT.md describes (shared/real-logs/qian-loong-shengji-godot).
"""

from __future__ import annotations

import json

import pytest
from importer_testlib import codes, errors, fixture, line_of, lint, notation_io

from analyzer.io.importers import detect_format, import_log, import_text

LOG = fixture("godot", "game_log.json")
HTML = fixture("godot", "report.html")


@pytest.mark.parametrize("text,name,hands", [(LOG, "game_log.json", 4), (HTML, "report.html", 3)])
def test_both_forms_import_and_lint_clean(text, name, hands):
    assert detect_format(text, name) == "shengji-godot"
    assert detect_format(text) == "shengji-godot"
    records, diags = import_text("shengji-godot", text)
    assert not errors(diags), diags
    [rec] = records
    assert rec.tag("Rules") == "shengji-godot" and len(rec.hands) == hands
    assert not lint(rec)
    res = import_log("shengji-godot", text)
    kinds = {c.kind for c in res.claims}
    assert kinds == {"trick", "running", "dealer", "total", "kitty", "outcome"}


def test_json_deal_in_draw_order_and_html_seat_lines_only():
    write, _ = notation_io()
    sjn_log = write(import_text("shengji-godot", LOG)[0])
    sjn_html = write(import_text("shengji-godot", HTML)[0])
    assert "first S" in sjn_log and "@25" in sjn_log
    assert "first S" not in sjn_html
    assert not [line for line in sjn_html.split("\n") if line.startswith("declare") and "@" in line]
    assert "the draw order is lost" in sjn_html
    # the same deal: the JSON's seat lines in draw order, the report's sorted
    log_hands = import_log("shengji-godot", LOG).records[0].hands
    html_hands = import_log("shengji-godot", HTML).records[0].hands
    for a, b in zip(log_hands[:3], html_hands):
        assert {s.seat: sorted(s.cards) for s in a.deal} == {s.seat: sorted(s.cards) for s in b.deal}
        assert [[p.cards for p in t.plays] for t in a.tricks] == [[p.cards for p in t.plays] for t in b.tricks]
    log = json.loads(LOG)
    first = log["rounds"][0]["debug"]["initial_hands"][0][:3]
    from analyzer.io.importers._godot_common import card
    south = next(s for s in log_hands[0].deal if s.seat == "S")
    assert list(south.cards[:3]) == [card(c) for c in first]


@pytest.mark.parametrize("text", [LOG, HTML])
def test_the_round_is_played_at_the_declarers_level(text):
    from replay.game import replay
    rec = import_log("shengji-godot", text).records[0]
    mr = replay(rec)
    for hr, hand in zip(mr.hands, rec.hands):
        assert hand.dealer == "?"
        team = "NS" if hr.dealer in ("N", "S") else "EW"
        assert hr.level == hr.levels[team]


def _one_trick_winner_changed(text, is_html):
    if is_html:
        i = text.index("赢家 S")
        seat = text[i + 4]
        return text[:i + 4] + str((int(seat) + 1) % 4) + text[i + 5:], seat
    doc = json.loads(text)
    t = doc["rounds"][0]["tricks"][0]
    seat = str(t["winner"])
    t["winner"] = (t["winner"] + 1) % 4
    return json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True), seat


@pytest.mark.parametrize("text,is_html", [(LOG, False), (HTML, True)])
def test_a_wrong_trick_winner_is_one_sj704_naming_both(text, is_html):
    bad, seat = _one_trick_winner_changed(text, is_html)
    _, diags = import_text("shengji-godot", bad)
    [d] = [x for x in diags if x.code == "SJ704"]
    assert "wins trick 1" in d.message and f"S{seat}" not in d.message.split(";")[0]
    assert "by the shengji-godot rules" in d.message and "wins it with" in d.message


def test_wrong_settlement_claims():
    doc = json.loads(LOG)
    st = doc["rounds"][0]["settlement"]
    st["final_score"] += 5
    st["bottom_bonus"], st["bottom_score"], st["bottom_multiplier"] = 20, 10, 2
    st["new_dealer"] = 2 if st["new_dealer"] != 2 else 1
    st["upgrade_levels"] += 1
    text = json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True)
    _, diags = import_text("shengji-godot", text)
    msgs = [d.message for d in diags if d.code == "SJ704"]
    assert any("gives the attackers" in m for m in msgs)
    assert any(m.startswith("the log gives a kitty bonus of 10 × 2 = 20") and "it is nothing" in m for m in msgs)
    assert any(m.startswith("the log says the") and "deals next" in m and "by the shengji-godot rules" in m
               for m in msgs)
    kitty = next(d for d in diags if "kitty bonus" in d.message)
    assert kitty.line == line_of(text, '"bottom_bonus": 20')


def test_html_kitty_and_level_claims():
    i = HTML.index("<span>底牌奖励</span><b>")
    j = HTML.index("</b>", i)
    bad = HTML[:i] + "<span>底牌奖励</span><b>5 × 2 = 10" + HTML[j:]
    i = bad.index("<span>新级</span><b>")
    j = bad.index("</b>", i)
    bad = bad[:i] + "<span>新级</span><b>K" + bad[j:]
    _, diags = import_text("shengji-godot", bad)
    msgs = sorted(d.message for d in diags if d.code == "SJ704")
    assert len(msgs) == 2, msgs
    assert "kitty bonus of 5 × 2 = 10 in hand 1" in msgs[0] and "stand at K" in msgs[1]


@pytest.mark.parametrize("name,path", [
    ("fly", ("fly", "room_QZXW.jsonl")), ("botzone", ("botzone", "match_complete.json")),
    ("chat", ("chat", "paste_ok.txt")), ("80fen", ("80fen", "deal_v2.json")),
])
def test_a_foreign_file_is_one_sj701(name, path):
    text = fixture(*path)
    assert detect_format(text) != "shengji-godot", name
    records, diags = import_text("shengji-godot", text)
    assert records == [] and codes(diags) == ["SJ701"], name


@pytest.mark.parametrize("text", ["", "hello\nworld\n", "<!doctype html><html><body>hi</body></html>",
                                  "[1, 2, 3]", '{"rounds": 3}', "{\n  \"rou"])
def test_junk_is_one_sj701(text):
    records, diags = import_text("shengji-godot", text)
    assert records == [] and codes(diags) == ["SJ701"]


def test_truncated_log_keeps_the_rounds_before_the_cut():
    cut = LOG[:LOG.index('"round_num": 3')]
    records, diags = import_text("shengji-godot", cut)
    assert "SJ701" in codes(diags)
    assert len(records[0].hands) >= 2
    assert not [d for d in errors(lint(records[0])) if d.hand in (1,)]


def test_bad_card_is_sj703_at_its_place():
    at = LOG.index('"initial_hands"')
    bad = LOG[:at] + LOG[at:].replace('"RedJoker"', '"PurpleJoker"', 1)
    _, diags = import_text("shengji-godot", bad)
    d = next(x for x in diags if x.code == "SJ703")
    assert d.line == line_of(bad, "PurpleJoker") and "PurpleJoker" in d.message


@pytest.mark.parametrize("key,value,tag,expect", [
    ("allow_dump", True, "Rule.throws", "yes"),
    ("trump_joker_color_match", False, "Rule.joker_colour", "no"),
    ("bid_requires_joker", False, "Rule.declare_joker", "no"),
    ("no_skip_enabled", False, "Rule.must_play", "2"),
])
def test_rule_config_switches_become_rule_tags(key, value, tag, expect):
    doc = json.loads(LOG)
    doc["rule_config"][key] = value
    rec = import_log("shengji-godot", json.dumps(doc, ensure_ascii=False)).records[0]
    assert rec.tag(tag) == expect
    assert import_log("shengji-godot", LOG).records[0].tag(tag) is None


def test_round_trip_through_sjn():
    write, parse = notation_io()
    for text in (LOG, HTML):
        records = import_text("shengji-godot", text)[0]
        again, diags = parse(write(records))
        assert not diags and not lint(again[0])
