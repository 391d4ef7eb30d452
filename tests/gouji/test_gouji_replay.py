"""Record replay: the GOUJI.md §11 examples, the pre-play steps (§2, §7) and
the result lines (§6), table-driven on small GJN texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation import gjn
from replay.gouji import replay

FIX = Path(__file__).with_name("fixtures")
EX3 = (FIX / "example_tribute_revolution.gjn").read_text(encoding="utf-8")


def run(text: str, rules: str | None = None):
    records, diags = gjn.parse(text)
    assert diags == [], diags
    (record,) = records
    return replay(record, rules=rules)


def found(text: str, *, keep_503: bool = True, rules: str | None = None) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in run(text, rules).diagnostics if keep_503 or d.code != "GJ503"]


def line_of(text: str, needle: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if line.startswith(needle):
            return i
    raise AssertionError(needle)


# -- §11 examples ----------------------------------------------------------------
def test_example_endgame():
    rp = run((FIX / "example_endgame.gjn").read_text(encoding="utf-8"))
    assert rp.diagnostics == []
    (g,) = rp.games
    assert g.complete and g.score == {"odd": 4, "even": 0}
    assert g.places == {"P1": 1, "P4": 2, "P3": 3, "P5": 4, "P2": 5, "P6": 6}


def test_example_burn_sweep():
    rp = run((FIX / "example_burn_sweep.gjn").read_text(encoding="utf-8"))
    assert rp.diagnostics == []
    (g,) = rp.games
    assert g.sweep and g.score == {"odd": 12, "even": 0}
    assert [(p.seat, p.burned) for p in g.burns] == [("P2", "P1")]
    assert [(p.seat, p.target) for p in g.gouji_plays] == [("P1", "P4"), ("P2", "P5"), ("P2", "P5"),
                                                           ("P5", "P2")]
    assert g.gouji_made["P2"] == ["P5", "P5"] and g.gouji_suffered["P4"] == ["P1"]


def test_example_tribute_revolution_warns_only_game_two():
    rp = run(EX3)
    assert [(d.code, d.line, d.severity) for d in rp.diagnostics] == [("GJ503", 6, "warning")]
    g2 = rp.games[1]
    assert g2.revolutionary == "P4" and g2.leader == "P5"
    assert [(p.seat, p.target) for p in g2.gouji_plays] == [("P1", "P4")]


# -- §7 tribute ------------------------------------------------------------------
@pytest.mark.parametrize("edit,code,where", [
    (("tribute P5 P2: LJ 2   ; 大落 → 头科\n", ""), "GJ206", "game 2"),                # missing
    (("tribute P5 P2: LJ 2", "tribute P5 P2: 22"), "GJ207", "tribute P5"),            # not highest
    (("tribute P5 P2: LJ 2", "tribute P5 P2: LJ"), "GJ206", "tribute P5"),            # wrong size
    (("tribute P6 P1: 2", "tribute P6 P3: 2"), "GJ206", "tribute P6"),                # misdirected
    (("return P1 P6: 5\n", ""), "GJ206", "game 2"),                                   # return missing
    (("return P2 P5: 44", "return P2 P5: 4"), "GJ206", "return P2"),                  # return size
    (("return P2 P5: 44", "return P2 P5: 3333"[:15]), "GJ206", "return P2"),
    (("lead P5", "lead P1"), "GJ205", "lead P1"),                                     # the 大落 leads
    (("revolt P4", "revolt P1"), "GJ208", "revolt P1"),                               # holds jokers
])
def test_tribute_and_preplay(edit, code, where):
    text = EX3.replace(*edit)
    assert text != EX3
    got = found(text, keep_503=False)
    assert (code, line_of(text, where)) in got, got


def test_tribute_lines_out_of_order():
    text = EX3.replace("tribute P5 P2: LJ 2   ; 大落 → 头科\ntribute P6 P1: 2      ; 二落 → 二科\n",
                       "tribute P6 P1: 2\ntribute P5 P2: LJ 2\n")
    assert found(text, keep_503=False) == [("GJ206", line_of(text, "tribute P5"))]


def test_tribute_off_makes_tribute_lines_extra():
    text = EX3.replace(' [Rule.tribute "on"]', "")
    got = found(text, keep_503=False)
    assert [c for c, _ in got].count("GJ206") == 4


@pytest.mark.parametrize("pre,want", [
    ("revolt P1\nrevolt P2\nredeal\n", []),                    # void: dealt again
    ("revolt P1\nrevolt P2\n", [("GJ208", 2)]),                 # several revolts, no redeal
    ("revolt P1\n", [("GJ503", 2)]),
])
def test_two_revolts_void_the_deal(pre, want):  # §2.4
    text = f'[Rules "gouji"]\ngame 1\n{pre}'
    rp = run(text)
    assert [(d.code, d.line) for d in rp.diagnostics] == want
    if "redeal" in pre:
        assert rp.games[0].kind == "void"


def test_redeal_without_revolts():
    text = EX3.replace("revolt P4             ; no joker, no 2\n", "revolt P4\nredeal\n")
    assert ("GJ208", line_of(text, "redeal")) in found(text, keep_503=False)


# -- §2.7 first leader -------------------------------------------------------------
SHEET = '[Rules "gouji"]\ngame 1\nresult {r}\n\ngame 2\n{pre}1. {first}: 9\n'


@pytest.mark.parametrize("result,pre,first,want", [
    ("P2 P1 P4 P3 P6 P5", "", "P5", []),                       # the previous 大落 leads
    ("P2 P1 P4 P3 P6 P5", "", "P1", [("GJ205", 6)]),
    ("P2 P1 P4 P3 P6 P5", "lead P3\n", "P3", [("GJ205", 6)]),
    ("P1 P3 P5 P2 P4 P6", "", "P4", []),                       # after 串三户: a 亮3 game, no show
    ("P1 P3 P5 P2 P4 P6", "show P2 S33\n", "P2", []),          # the last shower leads
    ("P1 P3 P5 P2 P4 P6", "show P2 S33\n", "P4", [("GJ205", 7)]),
    ("P1 P3 P5 P2 P4 P6", "show P2 S33\nshow P4 H33\n", "P4", [("GJ204", 7), ("GJ205", 8)]),  # not above
    ("P1 P3 P5 P2 P4 P6", "show P2 S33\nshow P4 H333\n", "P4", []),
])
def test_first_leader(result, pre, first, want):
    text = SHEET.format(r=result, pre=pre, first=first)
    assert found(text, keep_503=False) == want


def test_first_leader_given_and_liang3():
    text = SHEET.format(r="P2 P1 P4 P3 P6 P5", pre="", first="P1")
    assert found(text.replace('"gouji"]', '"gouji"] [Rule.first_leader "given"]'), keep_503=False) == []
    text = SHEET.format(r="P2 P1 P4 P3 P6 P5", pre="show P2 S33\nshow P4 H333\n", first="P2")
    got = found(text, keep_503=False, rules="gouji-online")
    assert got == [("GJ204", 7)]                              # liang3: one show only


# -- §2 pre-play options -------------------------------------------------------------
@pytest.mark.parametrize("rules,pre,code", [
    ("gouji-bie3", "remove 3\n", "GJ210"),
    ("gouji-online", "remove 4\n", "GJ210"),
    ("gouji", "point P1\n", "GJ211"),
    ("gouji-online", "revolt P1\n", "GJ208"),
    ("gouji", "buy P1 P4: 2\n", "GJ209"),
])
def test_preplay_not_allowed(rules, pre, code):
    text = f'[Rules "{rules}"]\ngame 1\n{pre}lead P1\n1. P1: 9\n'
    assert found(text, keep_503=False) == [(code, 3)]


def test_preplay_in_position_game_is_gj212():
    text = '[Rules "gouji"]\ngame 1\nposition P1\nP2: 9\nremove 3\nlead P2\n1. P2: 9\n'
    assert found(text, keep_503=False) == [("GJ212", 5)]


# -- §6 results ------------------------------------------------------------------
def test_result_order_of_the_losers_is_free():
    text = (FIX / "example_endgame.gjn").read_text(encoding="utf-8")
    assert found(text.replace("result P1 P4 P3 P5 P2 P6", "result P1 P4 P3 P5 P6 P2")) == []


def test_wrong_finish_mark():
    text = (FIX / "example_endgame.gjn").read_text(encoding="utf-8").replace("7 =3", "7 =2")
    assert found(text) == [("GJ501", line_of(text, "4. P3"))]


def test_zero_sum_score():
    text = (FIX / "example_endgame.gjn").read_text(encoding="utf-8")
    assert found(text, rules="gouji-online") == [("GJ502", line_of(text, "score"))]
    fixed = text.replace("score odd 4 even 0", "score odd 4 even -4")
    assert found(fixed, rules="gouji-online") == []
