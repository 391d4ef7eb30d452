"""An independent audit of the Gouji engine: small hand-made positions whose
outcome is derived by hand from the contract (GOUJI.md, section cited per
case), table-driven. Each case asserts the diagnostics (code, line) and the
engine's view after chosen actions (ask list, 够级, burns, places, score)."""

from __future__ import annotations

import re

import pytest

from notation import gjn
from replay.gouji import replay
from replay.gouji.sets import beats, info, unbeatable

# ranks: 3..14 = 3..A, 15 = 2, 16 = LJ, 17 = BJ
R = {"2": 15, "LJ": 16, "BJ": 17, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}


def rk(text: str) -> tuple[int, ...]:
    return tuple(R[t] if t in R else int(t) for t in re.findall(r"LJ|BJ|[2-9TJQKA]", text))


def text_of(hands: dict[str, str], actions: list[str], *, lead: str, finished: str = "",
            rules: str = "gouji", tags: str = "", full: bool = False, pre: str = "",
            tail: str = "") -> str:
    lines = [f'[Rules "{rules}"]{tags}', "game 1"]
    if not full:
        lines.append(f"position {finished}".rstrip())
    for seat, cards in hands.items():
        lines.append(f"{seat}: {cards}")
    if pre:
        lines.append(pre)
    lines.append(f"lead {lead}")
    n = 0
    for a in actions:
        if a.startswith("#"):  # raw line, numbered by hand
            lines.append(a[1:])
            continue
        n += 1
        lines.append(f"{n}. {a}")
    if tail:
        lines.append(tail)
    return "\n".join(lines) + "\n"


def run(text: str):
    records, diags = gjn.parse(text)
    assert diags == [], diags
    (record,) = records
    rp = replay(record)
    return rp, rp.games[0]


def codes(rp, drop=("GJ503", "GJ201")) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in rp.diagnostics if d.code not in drop]


def aline(text: str, k: int) -> int:
    """The line number of the ``k``-th action line (1-based, counting raw lines too)."""
    lines = text.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("lead ")) + 1
    return start + k


def step(g, n: int):
    """The timeline step of counted action ``n``."""
    for s in g.timeline:
        if s.number == n:
            return s
    raise AssertionError(n)


SIX = {"P1": "QQQ 99 5", "P2": "KKK 6 4", "P3": "JJ 7 4", "P4": "AA 8 4", "P5": "TT 6 4", "P6": "KK 7 4"}


# -- §3 sets: thresholds, compare, unbeatable --------------------------------------
@pytest.mark.parametrize("cards,gouji", [
    ("TTTTT", True), ("TTTT2", True), ("TTTT", False), ("TT222", True),
    ("JJJJ", True), ("JJJ2", True), ("JJJ", False),
    ("QQQ", True), ("Q22", True), ("QQ", False),
    ("KK", True), ("K2", True), ("K", False),
    ("AA", True), ("A2", True), ("A", False),
    ("2", True), ("22", True), ("LJ", True), ("9 LJ", True), ("333 BJ", True),
    ("99999999", False), ("3333333333", False), ("999922", False),
])
def test_gouji_thresholds(cards, gouji):  # §3 够级 set table
    assert info(rk(cards)).gouji is gouji


@pytest.mark.parametrize("b,t,position,wild", [
    ("AAA", "KK2", True, True),       # KK2 counts as KKK under position
    ("AA2", "KKK", True, True),
    ("222", "A22", True, True),       # A22 = AAA; 222 has no base
    ("LJ22", "222", False, False),    # position: 2 vs 2 in the last place; wild: 2 vs 2
    ("666", "LJ55", False, True),     # wild: rank 6 beats base 5
    ("BJ 55", "LJ 66", False, False),  # position 5 < 6; wild 5 < 6
    ("KK", "AA", False, False),
    ("AAA", "AAA", False, False),
    ("LJ LJ", "22", True, True),
    ("BJ 2", "LJ 2", False, False),   # position: 2 vs 2; wild: rank 2 (lowest) equal
])
def test_compare(b, t, position, wild):  # §3 beating
    assert beats(info(rk(b)), info(rk(t)), "position") is position
    assert beats(info(rk(b)), info(rk(t)), "wild") is wild


@pytest.mark.parametrize("cards,position,wild", [
    ("BJ", True, True), ("BJ 5", True, False), ("BJBJ", True, True), ("BJ LJ", True, False),
    ("LJ", False, False), ("2222", False, False),
])
def test_unbeatable(cards, position, wild):  # §3 unbeatable sets
    assert unbeatable(info(rk(cards)), "position") is position
    assert unbeatable(info(rk(cards)), "wild") is wild


# -- §4 ask lists -------------------------------------------------------------------
ASK_CASES = [
    # (id, rules, tags, actions, action no., expected ask list)
    ("seed gouji order", "gouji", "", ["P1: QQQ"], 1, ("P3", "P5", "P2", "P6", "P4")),
    ("online gouji order + last word", "gouji-online", "", ["P1: QQQ"], 1,
     ("P2", "P3", "P4", "P5", "P6", "P4")),
    ("online gouji order, no last word", "gouji", '[Rule.burn_order "online"]', ["P1: QQQ"], 1,
     ("P2", "P3", "P4", "P5", "P6")),
    ("plain, no last word", "gouji", "", ["P1: 5"], 1, ("P2", "P3", "P4", "P5", "P6")),
    ("plain, last word", "gouji-online", "", ["P1: 5"], 1, ("P2", "P3", "P4", "P5", "P6", "P4")),
    # Z asked in a 够级 list after passing: P5's AA targets P2, who passed
    ("seed: Z asked after passing", "gouji", "",
     ["P1: 99", "P2: pass", "P3: pass", "P4: pass", "P5: TT"], 5, ("P6", "P1")),
    ("seed: Z asked after passing (够级)", "gouji", "",
     ["P1: 5", "P2: pass", "P3: pass", "P4: pass", "P5: 6"], 5, ("P6", "P1")),
    # last word with Z passed and others: Z asked once more even after passing
    ("plain last word, Z passed", "gouji-online", "",
     ["P1: 99", "P2: pass", "P3: pass", "P4: pass", "P5: TT"], 5, ("P6", "P1", "P2")),
    # last word when Z is already last
    ("plain last word, Z already last", "gouji-online", "",
     ["P1: 5", "P2: pass", "P3: pass", "P4: pass", "P5: pass", "P6: pass", "P4: 8"], 7, ("P1",)),
    # online 够级 list with nobody after Z: no extra last word
    ("online gouji, nobody after Z", "gouji-online", "",
     ["P1: 5", "P2: 6", "P3: pass", "P4: pass", "P5: pass", "P6: pass", "P1: 9"], 7, ("P2", "P4")),
]


@pytest.mark.parametrize("name,rules,tags,actions,n,want", ASK_CASES, ids=[c[0] for c in ASK_CASES])
def test_ask_lists(name, rules, tags, actions, n, want):  # §4
    hands = dict(SIX)
    hands["P5"] = "TT AA 6 4"
    hands["P1"] = "QQQ 99 9 5"
    rp, g = run(text_of(hands, actions, lead="P1", rules=rules, tags=tags))
    assert codes(rp) == []
    assert step(g, n).ask == want


def test_seed_gouji_z_asked_after_passing():  # §4: Z asked in a 够级 list even after passing
    hands = dict(SIX, P5="AA 6 4")
    rp, g = run(text_of(hands, ["P1: 99", "P2: pass", "P3: pass", "P4: pass", "P5: AA"], lead="P1"))
    assert codes(rp) == []
    s = step(g, 5)
    assert s.gouji and s.target == "P2"
    assert s.ask == ("P1", "P6", "P2")  # teammates (P1), other opponents (P6; P4 passed), Z


def test_online_gouji_z_asked_after_passing():  # §4 online order
    hands = dict(SIX, P5="AA 6 4")
    rp, g = run(text_of(hands, ["P1: 99", "P2: pass", "P3: pass", "P4: pass", "P5: AA"], lead="P1",
                        rules="gouji", tags='[Rule.burn_order "online"]'))
    assert codes(rp) == []
    assert step(g, 5).ask == ("P6", "P1", "P2")


# -- §9 GJ401 / GJ402 overlap, "go on as recorded" ------------------------------------
def test_gj402_not_gj401_out_of_turn_gouji_answer():  # §9 overlap
    t = text_of(SIX, ["P1: QQQ", "P2: KKK", "P4: pass", "P6: pass", "P1: pass", "P5: pass"], lead="P1")
    rp, g = run(t)
    assert codes(rp) == [("GJ402", aline(t, 2))]
    s = step(g, 2)
    assert "P3" in s.passed and "P5" in s.passed  # skipped players count as passed
    # P2 burns (head, not the target) even out of turn: applied as recorded
    assert s.burn and s.burning == (("P2", "P1"),)


def test_gj401_out_of_turn_plain_answer():  # §9
    t = text_of(SIX, ["P1: 5", "P3: 7"], lead="P1")
    rp, g = run(t)
    assert codes(rp) == [("GJ401", aline(t, 2))]
    assert step(g, 2).ask == ("P4", "P5", "P6", "P1")  # P2 skipped, counts as passed


def test_gj402_by_a_finished_seat():  # §9 overlap: an answer to a 够级 play by a seat not asked
    hands = {"P2": "KKK 6 4", "P3": "JJ 7 4", "P4": "AA 8 4", "P5": "QQQ 6 4", "P6": "KK 7 4"}
    t = text_of(hands, ["P5: QQQ", "P1: pass"], lead="P5", finished="P1")
    rp, _g = run(t)
    assert codes(rp) == [("GJ402", aline(t, 2))]


# -- §3/§10 unbeatable sets and ignored passes; GJ407 ---------------------------------
def test_unbeatable_trailing_passes_uncounted():  # §3, §10
    hands = dict(SIX, P1="BJ 9 5")
    t = text_of(hands, ["P1: BJ", "#P2: pass", "#P3: pass", "#P1: pass", "P1: 5"], lead="P1")
    rp, g = run(t)
    assert codes(rp) == []
    assert [s.ignored for s in g.timeline] == [False, True, True, True, False]
    assert g.timeline[-1].number == 2


def test_ignored_passes_are_unchecked_even_numbered_wrong():  # §10: ignored passes unchecked
    hands = dict(SIX, P1="BJ 9 5")
    t = text_of(hands, ["P1: BJ", "#7. P2: pass", "#9. P4: pass", "P1: 5"], lead="P1")
    rp, _g = run(t)
    assert codes(rp) == []


def test_gj407_if_ignored_passes_are_counted():  # §10
    hands = dict(SIX, P1="BJ 9 5")
    t = text_of(hands, ["P1: BJ", "#2. P2: pass", "#3. P3: pass", "#4. P1: 5"], lead="P1")
    rp, _g = run(t)
    assert codes(rp) == [("GJ407", aline(t, 4))]


def test_ignored_pass_by_a_seat_out_of_play():  # §3: ignored passes are unchecked
    hands = {"P2": "KKK 6 4", "P3": "JJ 7 4", "P4": "AA 8 4", "P5": "BJ 6 4", "P6": "KK 7 4"}
    t = text_of(hands, ["P5: BJ", "#P6: pass", "#P1: pass", "#P2: pass", "P5: 6"],
                lead="P5", finished="P1")
    rp, _g = run(t)
    assert codes(rp) == []


def test_pass_on_a_lead_is_gj403():  # §3: only after an unbeatable set are lead passes ignored
    t = text_of(SIX, ["P1: 5", "P2: pass", "P3: pass", "P4: pass", "P5: pass", "P6: pass",
                      "P1: pass"], lead="P1")
    rp, _g = run(t)
    assert codes(rp) == [("GJ403", aline(t, 7))]


# -- §1 heads and timing -----------------------------------------------------------
def test_head_kept_in_the_round_the_opposite_finishes():  # §1 timing
    hands = {"P1": "22 QQQ 5", "P2": "6 4", "P3": "7 4", "P4": "AA", "P5": "6 4", "P6": "7 4"}
    acts = ["P4: AA =1",          # the 对头's finishing 够级 set is a 够级 play (target P1)
            "P6: pass", "P2: pass", "P5: pass", "P3: pass",
            "P1: 22",             # target; 22 is 够级 while P4 is still present (target P4)
            "P1: QQQ"]            # next round: no head, plain
    rp, g = run(text_of(hands, acts, lead="P4"))
    assert codes(rp) == []
    assert step(g, 1).gouji and step(g, 1).target == "P1"
    assert step(g, 1).ask == ("P6", "P2", "P5", "P3", "P1")
    s6 = step(g, 6)
    assert s6.gouji and not s6.burn and s6.round_end  # nobody left to ask
    assert [(p.seat, p.target) for p in g.gouji_plays] == [("P4", "P1"), ("P1", "P4")]
    s7 = step(g, 7)
    assert not s7.gouji and s7.ask == ("P2", "P3", "P5", "P6")


# -- §5 burning ----------------------------------------------------------------------
def test_burn_jieshao_by_headless_player():  # §5 解烧
    hands = {"P1": "QQQ 5 4", "P2": "KKK LJ 8 4", "P3": "BJ 9 7 4", "P4": "7 4", "P5": "6 4"}
    acts = ["P1: QQQ",
            "P3: pass", "P5: pass", "P2: KKK burn",   # seed: P3 P5, then P2 (P6 out), then P4
            "P4: pass", "P1: pass", "P5: pass",
            "P2: LJ 8",                                # a burner leads with a joker
            "P4: pass", "P3: BJ 9"]                    # P3 has no head (P6 out): 解烧
    rp, g = run(text_of(hands, acts, lead="P1", finished="P6"))
    assert codes(rp) == []
    assert step(g, 1).ask == ("P3", "P5", "P2", "P4")
    assert step(g, 4).ask == ("P4", "P1", "P5")
    assert step(g, 8).ask == ("P4", "P3", "P1", "P5") and step(g, 8).burning == (("P2", "P1"),)
    s = step(g, 10)
    assert not s.burn and s.burning == () and s.round_end and s.ask == ("P3",)


def test_burner_burns_again():  # §5: a burner who burns again burns the new owner instead
    hands = {"P1": "QQQ 5 4", "P2": "KKK 222 8 4", "P3": "7 4", "P4": "7 4", "P5": "6 4",
             "P6": "AAA 7 4"}
    acts = ["P1: QQQ", "P3: pass", "P5: pass",
            "P2: KKK burn",            # burns P1; asks P4 P6 (teammates), P1, then P5
            "P4: pass",
            "P6: AAA burn",            # burns P2; asks P2, P1, then P3
            "P2: 222 burn",            # P2 burns again: now P6, not P1 (no 解烧: P2 has a head)
            "P6: pass", "P1: pass", "P5: pass",
            "P2: 8 fail"]              # failure: the burned player P6 leads
    rp, g = run(text_of(hands, acts, lead="P1"))
    assert codes(rp) == []
    assert step(g, 4).ask == ("P4", "P6", "P1", "P5")
    assert step(g, 6).ask == ("P2", "P1", "P3") and step(g, 6).burning == (("P2", "P1"), ("P6", "P2"))
    assert step(g, 7).ask == ("P6", "P1", "P5") and step(g, 7).burning == (("P2", "P6"), ("P6", "P2"))
    s = step(g, 11)
    assert s.fail and s.place == 6 and s.ask == ("P6",)


def test_burn_success():  # §5 success: the burner empties his hand
    hands = {"P1": "QQQ 5 4", "P2": "KKK 22 LJ 8", "P3": "AA 7 4", "P4": "7 4", "P5": "6 4",
             "P6": "7 4"}
    acts = ["P1: QQQ", "P3: pass", "P5: pass", "P2: KKK burn",
            "P4: pass", "P6: pass", "P1: pass", "P5: pass",
            "P2: LJ 8", "P4: pass", "P6: pass", "P3: pass", "P1: pass", "P5: pass",
            "P2: 22 =1"]                                       # success: empties his hand
    rp, g = run(text_of(hands, acts, lead="P1"))
    assert codes(rp) == []
    assert step(g, 15).place == 1 and step(g, 15).burning == ()


def test_burn_failure_burned_player_out():  # §5 failure: burned not in play → next in play after him
    hands = {"P1": "QQQ", "P2": "KKK 6 4", "P3": "7 4", "P4": "7 4", "P5": "6 4", "P6": "7 4"}
    acts = ["P1: QQQ =1", "P3: pass", "P5: pass", "P2: KKK burn",
            "P4: pass", "P6: pass", "P5: pass",
            "P2: 6 fail"]
    rp, g = run(text_of(hands, acts, lead="P1"))
    assert codes(rp) == []
    assert step(g, 4).burning == (("P2", "P1"),)
    s = step(g, 8)
    assert s.fail and s.place == 6 and s.ask == ("P3",)


def test_unmarked_failure_is_gj406():  # §5, §9 GJ406 (warning, applied)
    hands = {"P1": "QQQ 5 4", "P2": "KKK 6 4", "P3": "7 4", "P4": "7 4", "P5": "6 4", "P6": "7 4"}
    acts = ["P1: QQQ", "P3: pass", "P5: pass", "P2: KKK burn",
            "P4: pass", "P6: pass", "P1: pass", "P5: pass", "P2: 6"]
    t = text_of(hands, acts, lead="P1")
    rp, g = run(t)
    assert codes(rp) == [("GJ406", aline(t, 9))]
    assert step(g, 9).fail and step(g, 9).place == 6


def test_teammate_burns():  # §5: any player with a head other than Z burns (teammates too)
    hands = {"P1": "QQQ 5 4", "P2": "6 4", "P3": "KKK 7 4", "P4": "7 4", "P5": "6 4", "P6": "7 4"}
    rp, g = run(text_of(hands, ["P1: QQQ", "P3: KKK burn"], lead="P1"))
    assert codes(rp) == []
    assert step(g, 2).burning == (("P3", "P1"),)


def test_target_never_burns():  # §5
    hands = {"P1": "QQQ 5 4", "P2": "6 4", "P3": "7 4", "P4": "KKK 7 4", "P5": "6 4", "P6": "7 4"}
    t = text_of(hands, ["P1: QQQ", "P3: pass", "P5: pass", "P2: pass", "P6: pass", "P4: KKK burn"],
                lead="P1")
    rp, g = run(t)
    assert codes(rp) == [("GJ405", aline(t, 6))]
    assert step(g, 6).burning == ()


def test_beating_a_plain_play_never_burns():  # §5
    hands = {"P1": "QQ 5 4", "P2": "KK 6 4", "P3": "7 4", "P4": "7 4", "P5": "6 4", "P6": "7 4"}
    rp, g = run(text_of(hands, ["P1: QQ", "P2: KK"], lead="P1"))
    assert codes(rp) == []
    assert step(g, 2).burning == () and step(g, 2).gouji  # KK is itself a 够级 play


# -- §6 finishing, 接风, end ---------------------------------------------------------
def test_jiefeng_owner_finished():  # §4 接风
    hands = {"P1": "5 4", "P2": "9", "P3": "7 4", "P4": "7 4", "P5": "6 4", "P6": "8 4"}
    acts = ["P1: 5", "P2: 9 =1", "P3: pass", "P4: pass", "P5: pass", "P6: pass", "P1: pass",
            "P3: 7"]
    rp, g = run(text_of(hands, acts, lead="P1"))
    assert codes(rp) == []
    assert step(g, 7).ask == ("P3",)


def test_sweep_positive_and_zero_sum():  # §6 串三户
    hands = {"P1": "5", "P2": "6 4", "P3": "7", "P4": "8 4", "P5": "9", "P6": "T 4"}
    acts = ["P1: 5 =1", "P2: pass", "P3: 7 =2", "P4: pass", "P5: 9 =3"]
    for rules, tags, score in (("gouji", "", {"odd": 12, "even": 0}),
                               ("gouji-online", "", {"odd": 12, "even": -12}),
                               ("gouji", '[Rule.score "zero_sum"]', {"odd": 12, "even": -12})):
        rp, g = run(text_of(hands, acts, lead="P1", rules=rules, tags=tags))
        assert codes(rp) == []
        assert g.sweep and g.score == score
        assert g.places == {"P1": 1, "P3": 2, "P5": 3, "P2": 4, "P4": 5, "P6": 6}


def test_positive_and_zero_sum_plain():  # §6 points, fill order
    hands = {"P1": "5", "P2": "6", "P3": "7 4", "P4": "8", "P5": "9 4", "P6": "T"}
    acts = ["P1: 5 =1", "P2: 6 =2", "P3: pass", "P4: 8 =3", "P5: pass", "P6: T =4"]
    rp, g = run(text_of(hands, acts, lead="P1"))
    assert codes(rp) == []
    # P3 and P5 hold 2 cards each: lower seat first
    assert g.places == {"P1": 1, "P2": 2, "P4": 3, "P6": 4, "P3": 5, "P5": 6}
    assert not g.sweep and g.score == {"odd": 0, "even": 2}  # odd 4-2-4, even 2+0+0
    rp, g = run(text_of(hands, acts, lead="P1", rules="gouji-online",
                        tail="result P1 P2 P4 P6 P5 P3\nscore odd -2 even 2"))
    assert codes(rp) == []  # the losers' order of a result line is accepted
    assert g.places["P5"] == 5 and g.score == {"odd": -2, "even": 2}


# -- revolution (§1, §6), chaos starting mid-round ----------------------------------
def full(hands, actions, *, pre="revolt P4", tags='[Rule.first_leader "given"]', lead="P1",
         tail=""):
    return text_of(hands, actions, lead=lead, tags=tags, full=True, pre=pre, tail=tail)


def test_chaos_starts_mid_round_when_revolutionary_leaves():  # §1 presence, chaos timing
    hands = {"P1": "QQQ 55 8", "P2": "KKK 6 8", "P3": "99", "P4": "44", "P5": "T J", "P6": "AA 7"}
    acts = ["P1: QQQ",                             # 够级 at P4 (revolted, never asked)
            "P3: pass", "P5: pass", "P2: KKK burn",
            "P6: pass", "P1: pass", "P5: pass",
            "P2: 6 fail",                          # P2 takes 6th; burned P1 leads
            "P1: 55",
            "P3: 99 =1",                           # P4 leaves at once: 4 present from the next play
            "P5: pass",
            "P6: AA",                              # chaos: plain, everyone in play asked
            "P1: pass", "P5: pass",
            "P6: 7 =2"]
    rp, g = run(full(hands, acts, tail="result P3 P6 P1 P4 P5 P2\nscore odd 2 even 0"))
    assert codes(rp) == []
    assert step(g, 1).gouji and step(g, 1).target == "P4" and step(g, 1).ask == ("P3", "P5", "P2", "P6")
    assert step(g, 4).ask == ("P6", "P1", "P5")
    assert step(g, 8).fail and step(g, 8).place == 6 and step(g, 8).ask == ("P1",)
    assert step(g, 9).ask == ("P3", "P5", "P6")
    assert step(g, 10).place == 1 and step(g, 10).ask == ("P5", "P6", "P1")
    s = step(g, 12)
    assert not s.gouji and s.ask == ("P1", "P5")
    assert g.places == {"P3": 1, "P6": 2, "P1": 3, "P4": 4, "P5": 5, "P2": 6}
    assert g.score == {"odd": 2, "even": 0}


@pytest.mark.parametrize("acts,places", [
    # teammates take 头科 and 二科: the revolutionary takes 三科 (串三户)
    (["P2: 5 =1", "P3: pass", "P5: pass", "P6: 7 =2"],
     {"P2": 1, "P6": 2, "P4": 3, "P1": 4, "P3": 5, "P5": 6}),
    # otherwise 四科; finishers skip place 4
    (["P2: 5 =1", "P3: 9 =2", "P5: pass", "P6: pass", "P1: T =3", "P5: 6", "P6: 7 =5"],
     {"P2": 1, "P3": 2, "P1": 3, "P4": 4, "P6": 5, "P5": 6}),
])
def test_revolutionary_place(acts, places):  # §6
    hands = {"P1": "T", "P2": "5", "P3": "9", "P4": "44", "P5": "6 4", "P6": "7"}
    rp, g = run(full(hands, acts, lead="P2"))
    assert codes(rp) == []
    assert g.places == places


def test_revolutionary_sweep_scores():  # §6 串三户 with the revolutionary
    hands = {"P1": "T", "P2": "5", "P3": "9", "P4": "44", "P5": "6 4", "P6": "7"}
    _rp, g = run(full(hands, ["P2: 5 =1", "P3: pass", "P5: pass", "P6: 7 =2"], lead="P2"))
    assert g.sweep and g.score == {"odd": 0, "even": 12}


# -- §4 让牌 ----------------------------------------------------------------------
def test_let_players_after_z_do_not_burn():  # §4 让牌, §5
    hands = {"P1": "QQQ 5 4", "P2": "6 4", "P3": "7 4", "P4": "8 4", "P5": "KKK 6 4", "P6": "7 4"}
    acts = ["P1: QQQ", "P2: pass", "P3: pass", "P4: let", "P5: KKK"]
    rp, g = run(text_of(hands, acts, lead="P1", rules="gouji-online"))
    assert codes(rp) == []
    assert step(g, 4).ask == ("P5", "P6", "P4")
    assert not step(g, 5).burn and step(g, 5).burning == ()


def test_let_then_z_beats_seed_only_opposite():  # §4 让牌 seed
    hands = {"P1": "99 5 4", "P2": "6 4", "P3": "7 4", "P4": "TT 8 4", "P5": "6 4", "P6": "7 4"}
    acts = ["P1: 99", "P2: pass", "P3: pass", "P4: let", "P5: pass", "P6: pass", "P4: TT"]
    rp, g = run(text_of(hands, acts, lead="P1"))
    assert codes(rp) == []
    assert step(g, 4).ask == ("P5", "P6", "P4")
    assert step(g, 7).ask == ("P1",)


@pytest.mark.parametrize("rules,tags,acts,bad", [
    ("gouji", "", ["P1: QQQ", "P3: pass", "P5: pass", "P2: pass", "P6: pass", "P4: let"], 6),  # Z last
    ("gouji", "", ["P1: 5", "P2: let"], 2),                          # not Z
    ("gouji", '[Rule.yield "off"]', ["P1: 5", "P2: pass", "P3: pass", "P4: let"], 4),
    ("gouji-online", "", ["P1: 5", "P2: pass", "P3: pass", "P4: pass", "P5: pass", "P6: pass",
                          "P4: let"], 7),                            # last word: nobody follows
])
def test_let_not_allowed(rules, tags, acts, bad):  # §4 让牌, GJ404
    hands = {"P1": "QQQ 5 4", "P2": "6 4", "P3": "7 4", "P4": "8 4", "P5": "6 4", "P6": "7 4"}
    t = text_of(hands, acts, lead="P1", rules=rules, tags=tags)
    rp, _g = run(t)
    assert codes(rp) == [("GJ404", aline(t, bad))]


def test_let_in_chaos_is_gj404():  # §4 让牌 outside chaos only
    hands = {"P2": "6 4", "P3": "7 4", "P5": "9 4", "P6": "7 4"}
    t = text_of(hands, ["P2: 6", "P3: pass", "P5: let"], lead="P2", finished="P1 P4")
    rp, _g = run(t)
    assert codes(rp) == [("GJ404", aline(t, 3))]


# -- bie3 (§3) --------------------------------------------------------------------
@pytest.mark.parametrize("hand,act,want", [
    ("33", "P1: 33 =1", []),
    ("33 5", "P1: 33", ["GJ304"]),
    ("333 2", "P1: 333 2", ["GJ304"]),
])
def test_bie3_threes_only_last(hand, act, want):  # §3 bie3
    hands = {"P1": hand, "P2": "6 4", "P3": "7 4", "P4": "8 4", "P5": "6 4", "P6": "7 4"}
    rp, _g = run(text_of(hands, [act], lead="P1", rules="gouji-bie3"))
    assert [c for c, _ in codes(rp)] == want


def test_bie3_gj304_does_not_hide_gj303():  # §9: one finding per fault; only GJ301 hides GJ302/303
    hands = {"P1": "55 4", "P2": "33 5", "P3": "7 4", "P4": "8 4", "P5": "6 4", "P6": "7 4"}
    t = text_of(hands, ["P1: 55", "P2: 33"], lead="P1", rules="gouji-bie3")
    rp, _g = run(t)
    assert sorted(codes(rp)) == [("GJ303", aline(t, 2)), ("GJ304", aline(t, 2))]
    t = text_of(hands, ["P1: 55", "P2: 335"], lead="P1", rules="gouji-bie3")
    assert [c for c, _ in codes(run(t)[0])] == ["GJ301"]


def test_threes_fine_without_bie3():
    hands = {"P1": "33 5", "P2": "6 4", "P3": "7 4", "P4": "8 4", "P5": "6 4", "P6": "7 4"}
    rp, _g = run(text_of(hands, ["P1: 33"], lead="P1"))
    assert codes(rp) == []


# -- wild compare in play (§3) --------------------------------------------------------
def test_wild_compare_in_play():
    hands = {"P1": "LJ 5 4", "P2": "7 4", "P3": "66 4", "P4": "8 4", "P5": "6 4", "P6": "7 4"}
    t = text_of(hands, ["P1: LJ 5", "P3: 66"], lead="P1", tags='[Rule.compare "wild"]')
    rp, _g = run(t)
    assert codes(rp) == []
    t = text_of(hands, ["P1: LJ 5", "P3: 66"], lead="P1")
    rp, _g = run(t)
    assert codes(rp) == [("GJ303", aline(t, 2))]


# -- §2 pre-play: 买3 seller, first leader, revolted leader --------------------------
BIE3_HANDS = {"P1": "2 9 8", "P2": "33 K", "P3": "3 Q", "P4": "3 J", "P5": "3 T", "P6": "33 7"}


@pytest.mark.parametrize("hands,buy,want", [
    ({}, "buy P1 P4: 2", ["GJ209"]),                       # P4 holds one 3: a teammate of P4 sells
    ({}, "buy P1 P2: 2", []),                              # P2 holds two
    ({}, "buy P1 P6: 2", []),                              # so does P6 (any teammate of opp(P1))
    ({"P4": "33 J"}, "buy P1 P2: 2", ["GJ209"]),           # opp(P1) holds two: he sells
    ({"P4": "33 J"}, "buy P1 P4: 2", []),
    ({"P4": "33 J"}, "buy P1 P4: 9", ["GJ209"]),           # pays a 2
    ({"P1": "LJ 9 8", "P4": "33 J"}, "buy P1 P4: LJ", []),  # no 2: a joker
    ({}, "", ["GJ209"]),                                   # missing: P2/P6 can sell
    ({"P2": "3 K", "P6": "3 7"}, "", []),                  # nobody can sell: no buy owed
])
def test_buy3_seller(hands, buy, want):  # §2.3 买3
    h = dict(BIE3_HANDS, **hands)
    t = text_of(h, [], lead="P1", rules="gouji-bie3", full=True, pre=buy)
    rp, _g = run(t)
    assert [c for c, _ in codes(rp)] == want


def test_buy3_lines_apply_in_order():  # §2.3: each buy on holdings after the earlier ones
    h = dict(BIE3_HANDS, P1="2 9 8", P3="2 Q", P4="33 J")
    # P1 buys P4's first 3; P4 keeps one, so P3 (opp P6 has two) buys from P6
    t = text_of(h, [], lead="P1", rules="gouji-bie3", full=True, pre="buy P1 P4: 2\nbuy P3 P6: 2")
    rp, _g = run(t)
    assert codes(rp) == []


def test_first_leader_after_sweep_is_liang3():  # §2.7 seed: a game after 串三户 is a 亮3 game
    t = ('[Rules "gouji"]\ngame 1\nresult P1 P3 P5 P2 P4 P6\nscore odd 12 even 0\n\n'
         'game 2\nshow P2 S33\nlead P2\n1. P2: 5\n')
    rp = run(t)[0]
    assert [c for c, _ in codes(rp)] == []
    t = t.replace("lead P2", "lead P6")   # the 大落 leads only after an ordinary game
    assert [c for c, _ in codes(run(t)[0])] == ["GJ205", "GJ401"]  # the lead line is taken


def test_first_leader_previous_daluo_and_revolted():  # §2.7: 大落 leads; revolted → next in play
    base = ('[Rules "gouji"]\ngame 1\nresult P1 P2 P5 P4 P3 P6\nscore odd 2 even 0\n\n'
            'game 2\nP6: 44\n{pre}lead {lead}\n1. {lead}: 4\n')
    assert codes(run(base.format(pre="", lead="P6"))[0]) == []
    assert [c for c, _ in codes(run(base.format(pre="", lead="P1"))[0])] == ["GJ205"]
    assert [c for c, _ in codes(run(base.format(pre="revolt P6\n", lead="P1"))[0])] == []


# -- §3/§9 the game's end: ignored passes, GJ408 ------------------------------------
def test_passes_after_a_final_unbeatable_set_are_ignored():  # §3, §9 GJ408 alone
    hands = {"P2": "6 4", "P3": "BJ", "P5": "9 4", "P6": "7 4"}
    acts = ["P2: 6", "P3: BJ =3", "#P5: pass", "#P6: pass"]
    t = text_of(hands, acts, lead="P2", finished="P1 P4")
    rp, g = run(t)
    # P1, P4 out before, P3 3rd, P5 still in play: the game goes on; the passes are ignored
    assert codes(rp) == [] and [s.ignored for s in g.timeline] == [False, False, True, True]
    hands = {"P2": "6 4", "P3": "BJ", "P5": "9 4", "P6": "7 4"}
    t = text_of(hands, ["P2: 6", "P3: BJ =3", "#P5: pass", "P6: 7"], lead="P2", finished="P1 P5")
    rp, g = run(t)
    # odd is out with P3's BJ: the pass is ignored, P6's play is GJ408 alone
    assert codes(rp) == [("GJ408", aline(t, 4))]
    assert g.places == {"P1": 1, "P5": 2, "P3": 3, "P2": 4, "P6": 5, "P4": 6}  # fewer cards first


def test_let_then_another_beats():  # §4 让牌: a beat after the let forms a new list
    hands = {"P1": "99 5 4", "P2": "6 4", "P3": "7 4", "P4": "TT 8 4", "P5": "JJ 6 4", "P6": "7 4"}
    acts = ["P1: 99", "P2: pass", "P3: pass", "P4: let", "P5: JJ", "P6: pass", "P1: pass",
            "P5: 6"]
    t = text_of(hands, acts, lead="P1")
    rp, g = run(t)
    assert codes(rp) == []
    # after P5's JJ (plain; its Z is P2, who passed): P6, P1 asked; the let is spent
    assert step(g, 5).ask == ("P6", "P1") and step(g, 7).ask == ("P5",)


def test_revolutionary_leaves_after_the_third_gouji_round():  # §1: present until the end of the
    # round of his 对头's third 够级 play
    hands = {"P1": "KKKKKKKK 5", "P2": "6 4", "P3": "7 4", "P4": "44", "P5": "6 4", "P6": "7 4"}
    acts = []
    for _ in range(3):
        acts += ["P1: KK", "P3: pass", "P5: pass", "P2: pass", "P6: pass"]
    acts += ["P1: KK"]
    rp, g = run(full(hands, acts))
    assert codes(rp) == []
    assert [s.gouji for s in g.timeline if s.kind == "play"] == [True, True, True, False]
    assert step(g, 11).ask == ("P3", "P5", "P2", "P6")
    assert step(g, 16).ask == ("P2", "P3", "P5", "P6")


@pytest.mark.parametrize("p1,acts,bukai_p1", [
    # P1's KK lives (the round ends with it on top): 开点 before he finishes 头科
    ("KK 5", ["P1: KK", "P3: pass", "P5: pass", "P2: pass", "P6: pass", "P4: pass", "P1: 5 =1"], False),
    # his finishing KK is still open when he becomes 头科: 不开点
    ("KK", ["P1: KK =1", "P3: pass", "P5: pass", "P2: pass", "P6: pass", "P4: pass"], True),
])
def test_kaidian(p1, acts, bukai_p1):  # §7 开点 / 不开点
    hands = {"P1": p1, "P2": "6", "P3": "7 4", "P4": "8", "P5": "9 4", "P6": "T"}
    acts = acts + ["P2: 6 =2", "P3: pass", "P4: 8 =3", "P5: pass", "P6: T =4"]
    rp, g = run(full(hands, acts, pre="", tags='[Rule.first_leader "given"] [Rule.dadian "on"]'))
    assert codes(rp) == []
    assert g.places == {"P1": 1, "P2": 2, "P4": 3, "P6": 4, "P3": 5, "P5": 6}
    assert g.bukaidian == {"P1": bukai_p1, "P2": True, "P3": True, "P4": True, "P5": True, "P6": True}


@pytest.mark.parametrize("rules,shows,lead,want", [
    ("gouji", ["show P2 S33", "show P5 H333"], "P5", []),
    ("gouji", ["show P2 S33", "show P5 H33"], "P2", ["GJ204"]),          # not above the last
    ("gouji", ["show P2 S33", "show P5 H33"], "P5", ["GJ204", "GJ205"]),
    ("gouji", ["show P2 S3 H3"], "P6", ["GJ204"]),    # two suits: no valid show, no leader derived
    ("gouji-online", ["show P2 S33", "show P5 H333"], "P2", ["GJ204"]),  # liang3: one show only
    ("gouji", [], "P4", []),                                             # no show: no leader derived
    ("gouji-bie3", ["show P2 S33"], "P6", []),                            # bie3: show ignored
])
def test_liang3_shows(rules, shows, lead, want):  # §2.1, §2.7
    t = f'[Rules "{rules}"]\ngame 1\n' + "".join(s + "\n" for s in shows) + f"lead {lead}\n1. {lead}: 5\n"
    rp = run(t)[0]
    assert [c for c, _ in codes(rp)] == want


TRIB_OK = ["tribute P5 P2: LJ 2", "tribute P6 P1: 2", "return P2 P5: 44", "return P1 P6: 5"]


@pytest.mark.parametrize("p6,lines,want", [
    ("2 A 7", TRIB_OK, []),
    ("2 A 7", ["tribute P5 P2: 22"] + TRIB_OK[1:], ["GJ207"]),                   # not his highest
    ("2 A 7", [TRIB_OK[1], TRIB_OK[0]] + TRIB_OK[2:], ["GJ206"]),                # 大落 first
    ("2 A 7", TRIB_OK[:3], ["GJ206"]),                                          # a return missing
    ("2 A 7", TRIB_OK[:2] + ["return P2 P5: 4"] + TRIB_OK[3:], ["GJ206"]),       # returns as many
    ("A 7", [TRIB_OK[0], TRIB_OK[2]], []),                                     # no 2, no joker: no line
    # an extra tribute line is GJ206, then applied as recorded (so its return is owed)
    ("A 7", [TRIB_OK[0], "tribute P6 P1: A", TRIB_OK[2], "return P1 P6: 5"], ["GJ206"]),
])
def test_tribute(p6, lines, want):  # §7 落贡 / 还贡 (tribute_cards: jokers_twos)
    t = ('[Rules "gouji"] [Rule.tribute "on"]\ngame 1\nresult P2 P1 P4 P3 P6 P5\nscore odd 0 even 2\n\n'
         f'game 2\nP5: LJ 22 5\nP6: {p6}\n' + "".join(x + "\n" for x in lines) + "lead P5\n1. P5: 5\n")
    rp = run(t)[0]
    assert sorted(c for c, _ in codes(rp)) == want


SWEEP_PREV = ('[Rules "gouji"] [Rule.tribute "on"]{tags}\ngame 1\nresult P1 P3 P5 P2 P4 P6\n'
              'score odd 12 even 0\n\ngame 2\n')


@pytest.mark.parametrize("tags,lines,want", [
    ("", [], []),                                                      # sweep_tribute: none
    ("", ["tribute P6 P1: 2", "return P1 P6: 5"], ["GJ206", "GJ206"]),
    ('[Rule.sweep_tribute "opposite"]',
     ["tribute P6 P3: 2", "tribute P4 P1: 2", "tribute P2 P5: 2",
      "return P1 P4: 5", "return P3 P6: 5", "return P5 P2: 5"], []),   # returns 头科 first
    ('[Rule.sweep_tribute "opposite"]',
     ["tribute P6 P3: 2", "tribute P4 P1: 2", "tribute P2 P5: 2",
      "return P3 P6: 5", "return P1 P4: 5", "return P5 P2: 5"], ["GJ206"]),
    ('[Rule.sweep_tribute "normal"]',
     ["tribute P6 P1: 22", "tribute P4 P3: 2", "return P1 P6: 55", "return P3 P4: 5"], []),
])
def test_sweep_tribute(tags, lines, want):  # §7 after a 串三户
    t = SWEEP_PREV.format(tags=tags) + "".join(x + "\n" for x in lines) + "lead P1\n1. P1: 5\n"
    rp = run(t)[0]
    assert sorted(c for c, _ in codes(rp)) == want


@pytest.mark.parametrize("rules", ["gouji", "gouji-online"])
def test_chaos_lists(rules):  # §4 chaos: all others from next(Y), passes forgotten, no last word
    hands = {"P2": "AA 6 4", "P3": "7 4", "P5": "9 5 4", "P6": "8 4"}
    acts = ["P2: 6", "P3: 7", "P5: pass", "P6: 8", "P2: pass", "P3: pass", "P5: 9"]
    t = text_of(hands, acts, lead="P2", finished="P1 P4", rules=rules)
    rp, g = run(t)
    assert codes(rp) == []
    assert step(g, 1).ask == ("P3", "P5", "P6")
    assert step(g, 4).ask == ("P2", "P3", "P5")      # P5's pass is forgotten
    assert step(g, 7).ask == ("P6", "P2", "P3")
    t = text_of(hands, ["P2: AA"], lead="P2", finished="P1 P4", rules=rules)
    rp, g = run(t)
    assert not step(g, 1).gouji and step(g, 1).ask == ("P3", "P5", "P6")
