"""GoujiState: ask lists, passes, 让牌, burning, places (GOUJI.md §1, §4–§6).

Hands are rank counts; seats are 0..5 for P1..P6. Each case cites its section.
"""

from __future__ import annotations

import pytest

from primitives.gjcards import parse_cards
from replay.gouji.board import FAILED, LET, PASS, PLAY, counts_of
from replay.gouji.rules import GoujiRuleset, preset
from replay.gouji.state import GoujiState

P1, P2, P3, P4, P5, P6 = range(6)
FULL = "BJ LJ 2222 AAA KKK QQQ JJJJ 101010101010 999 888 777 666"


def R(text: str) -> tuple[int, ...]:
    return tuple(c >> 3 for c in parse_cards(text))


def state(rules: GoujiRuleset | str = "gouji", hands=None, **kw) -> GoujiState:
    rs = preset(rules) if isinstance(rules, str) else rules
    hands = hands or [FULL] * 6
    return GoujiState(rs, [counts_of(R(h)) if h is not None else None for h in hands], **kw)


def rules(**kw) -> GoujiRuleset:
    return GoujiRuleset(**kw)


def names(seats):
    return [f"P{s + 1}" for s in seats]


# -- §4 the ask list after a play --------------------------------------------------
@pytest.mark.parametrize("rs,lead,want", [
    # plain play: all others from next(Y)
    (rules(), "9", ["P2", "P3", "P4", "P5", "P6"]),
    # plain + last_word: the 对头 once more at the end
    (rules(last_word="opposite"), "9", ["P2", "P3", "P4", "P5", "P6", "P4"]),
    # 够级, burn_order seed: teammates, other opponents, then the target
    (rules(), "QQQ", ["P3", "P5", "P2", "P6", "P4"]),
    # 够级, burn_order online: from next(Y) round to Y, target in his place
    (rules(burn_order="online"), "QQQ", ["P2", "P3", "P4", "P5", "P6"]),
    # online + last_word: the target again after the players after him
    (rules(burn_order="online", last_word="opposite"), "QQQ", ["P2", "P3", "P4", "P5", "P6", "P4"]),
])
def test_ask_list_after_a_lead(rs, lead, want):
    st = state(rs, leader=P1)
    assert st.push(P1, PLAY, R(lead)) == []
    assert names(st.asklist) == want
    assert st.top_gouji is (lead == "QQQ")


def test_passed_players_are_skipped_but_the_target_is_asked():  # §4 L
    st = state(leader=P1)
    st.push(P1, PLAY, R("9"))
    st.push(P2, PASS)
    st.push(P3, PASS)
    st.push(P4, PASS)
    assert st.push(P5, PLAY, R("10")) == []  # plain
    assert names(st.asklist) == ["P6", "P1"]
    st.push(P6, PASS)
    assert st.push(P1, PLAY, R("QQQ")[:1]) == []  # Q single: plain
    assert names(st.asklist) == ["P5"]


def test_target_asked_after_passing_in_a_gouji_list():  # §4 L, Z after passing
    st = state(leader=P1)
    st.push(P1, PLAY, R("99"))
    for s in (P2, P3):
        st.push(s, PASS)
    st.push(P4, PASS)           # P4 passed
    st.push(P5, PASS)
    st.push(P6, PLAY, R("KK"))  # 够级 at P3 (seed): teammates P2 P4 passed, P1, then P3 (P5 passed)
    assert names(st.asklist) == ["P1", "P3"]


def test_revolted_target_is_never_asked():  # §4, §11 example 3
    st = state(leader=P1, revolutionary=P4)
    assert st.has_head(P1)                    # the revolutionary is present for his 对头
    assert not st.has_head(P3) or st.present(P6)
    st.push(P1, PLAY, R("KK"))
    assert st.top_gouji and st.target == P4
    assert names(st.asklist) == ["P3", "P5", "P2", "P6"]


def test_chaos_asks_everyone_and_forgets_passes():  # §1 四户乱缠, §4 chaos
    st = state(leader=P2, status=[1, 0, 0, 1, 0, 0], places=[1, 0, 0, 2, 0, 0])
    assert st.chaos()
    st.push(P2, PLAY, R("KK"))                # a 够级 set, but chaos: plain
    assert not st.top_gouji
    assert names(st.asklist) == ["P3", "P5", "P6"]
    st.push(P3, PASS)
    st.push(P5, PLAY, R("AA"))
    assert names(st.asklist) == ["P6", "P2", "P3"]   # P3's pass is forgotten


def test_chaos_off():
    st = state(rules(chaos="off"), leader=P2, status=[1, 0, 0, 1, 0, 0], places=[1, 0, 0, 2, 0, 0])
    assert not st.chaos()


def test_no_head_no_gouji_play():  # §3 够级 play needs a head
    st = state(leader=P1, status=[0, 0, 0, 1, 0, 0], places=[0, 0, 0, 1, 0, 0])
    assert not st.has_head(P1)
    st.push(P1, PLAY, R("QQQ"))
    assert not st.top_gouji


# -- §4 让牌 --------------------------------------------------------------------
def test_let_then_players_after_beat_without_burning_and_seed_reask():
    st = state(rules(burn_order="online"), leader=P1)
    st.push(P1, PLAY, R("QQQ"))              # 够级 at P4; online: P2 P3 P4 P5 P6
    st.push(P2, PASS)
    st.push(P3, PASS)
    assert st.can_let(P4)
    assert st.push(P4, LET) == []
    assert names(st.asklist) == ["P5", "P6", "P4"]
    assert st.push(P5, PLAY, R("KKK")) == []
    assert not st.ev_burn                    # asked after a let: no burn


def test_seed_let_reask_beat_asks_only_the_opposite():
    st = state(leader=P1)
    st.push(P1, PLAY, R("9"))
    st.push(P2, PASS)
    st.push(P3, PASS)
    st.push(P4, LET)
    assert names(st.asklist) == ["P5", "P6", "P4"]
    st.push(P5, PASS)
    st.push(P6, PASS)
    assert st.push(P4, PLAY, R("10")) == []  # Z asked again beats
    assert names(st.asklist) == ["P1"]       # only opp(Z)


@pytest.mark.parametrize("case", ["not_target", "yield_off", "twice", "nobody_after", "lead"])
def test_let_not_allowed(case):  # §4 让牌, GJ404 / GJ403
    rs = rules(yield_="off") if case == "yield_off" else rules()
    st = state(rs, leader=P1)
    if case == "lead":
        assert st.push(P1, LET)[0][0] == "GJ403"
        return
    st.push(P1, PLAY, R("QQQ" if case == "nobody_after" else "9"))
    if case == "nobody_after":               # seed 够级 list: the target is last
        for s in (P3, P5, P2, P6):
            st.push(s, PASS)
        assert st.push(P4, LET)[0][0] == "GJ404"
        return
    st.push(P2, PASS)
    if case == "not_target":
        assert st.push(P3, LET)[0][0] == "GJ404"
        return
    st.push(P3, PASS)
    if case == "twice":
        st.push(P4, LET)
        st.push(P5, PASS)
        st.push(P6, PASS)
        assert st.push(P4, LET)[0][0] == "GJ404"
        return
    assert st.push(P4, LET)[0][0] == "GJ404"


# -- §5 burning ------------------------------------------------------------------
def burn_position():
    # §11 example 2
    hands = ["QQQ 5", "LJ KKK 88 7", None, "66", "BJ 99 4", "9"]
    hands[2] = ""
    return state(hands=hands, leader=P1, status=[0, 0, 1, 0, 0, 0], places=[0, 0, 1, 0, 0, 0])


def test_burn_and_jieshao_by_the_opposite():
    st = burn_position()
    st.push(P1, PLAY, R("QQQ"))
    assert names(st.asklist) == ["P5", "P2", "P6", "P4"]
    st.push(P5, PASS)
    st.push(P2, PLAY, R("KKK"))
    assert st.ev_burn and st.burning == {P2: P1}
    assert names(st.asklist) == ["P4", "P6", "P1", "P5"]
    for s in (P4, P6, P1, P5):
        st.push(s, PASS)
    st.push(P2, PLAY, R("LJ 88"))            # a burner leads with a joker
    assert not st.ev_fail
    for s in (P4, P6, P1):
        st.push(s, PASS)
    st.push(P5, PLAY, R("BJ 99"))            # 解烧 by opp(P2); unbeatable
    assert st.ev_jieshao == P2 and st.burning == {}
    assert st.ev_unbeatable and st.leader == P5


def test_burn_failure_discards_and_burned_leads():
    st = burn_position()
    st.push(P1, PLAY, R("QQQ"))
    st.push(P5, PASS)
    st.push(P2, PLAY, R("KKK"))
    for s in (P4, P6, P1, P5):
        st.push(s, PASS)
    st.push(P2, PLAY, R("88"))               # no joker, does not empty his hand
    assert st.ev_fail and st.status[P2] == FAILED and st.place[P2] == 6
    assert st.phase == 0 and st.leader == P1


def test_target_beating_is_no_burn_and_headless_player_does_not_burn():
    st = burn_position()
    st.push(P1, PLAY, R("QQQ"))
    for s in (P5, P2, P6):
        st.push(s, PASS)
    # P4 is the target
    st2 = state(leader=P1, status=[0, 0, 0, 0, 0, 0])
    st2.push(P1, PLAY, R("QQQ"))
    for s in (P3, P5, P2, P6):
        st2.push(s, PASS)
    st2.push(P4, PLAY, R("KKK"))
    assert not st2.ev_burn


def test_burner_burns_again_the_new_owner():
    st = state(leader=P1)
    st.push(P1, PLAY, R("QQQ"))
    st.push(P3, PASS)
    st.push(P5, PASS)
    st.push(P2, PLAY, R("KKK"))              # P2 burns P1
    assert st.burning == {P2: P1}
    st.push(P4, PASS)
    st.push(P6, PASS)
    st.push(P1, PLAY, R("AAA"))              # P1 (with a head) burns P2
    assert st.burning == {P2: P1, P1: P2}
    st.push(P3, PASS)
    st.push(P5, PASS)
    st.push(P2, PLAY, R("222"))              # the burner P2 burns again: now P1
    assert st.burning[P2] == P1 and st.ev_burned == P1


# -- §6 places, game end, revolutionary ----------------------------------------------
def test_revolutionary_makes_finishers_skip_fourth():  # §6 finishing
    st = state(hands=["9", "10", "J", "", "AA", "QQ"], leader=P1, revolutionary=P4)
    st.push(P1, PLAY, R("9"))
    st.push(P2, PLAY, R("10"))
    st.push(P3, PLAY, R("J"))
    assert st.place[:3] == [1, 2, 3]
    st.push(P5, PASS)
    st.push(P6, PASS)
    assert st.leader == P5                   # 接风: the next in play after P3
    st.push(P5, PLAY, R("AA"))
    assert st.place[P5] == 5                 # place 4 is skipped
    assert st.over and st.place[P4] == 4 and st.place[P6] == 6


def test_revolutionary_takes_third_when_his_mates_hold_first_and_second():  # §6 game end
    st = state(hands=["5 9", "8", "99 3", "", "7", "7"], leader=P6, revolutionary=P4)
    st.push(P6, PLAY, R("7"))
    assert st.place[P6] == 1
    for s in (P1, P2, P3, P5):
        st.push(s, PASS)
    assert st.leader == P1                   # 接风 after P6
    st.push(P1, PLAY, R("5"))
    st.push(P2, PLAY, R("8"))
    assert st.over
    assert st.place[P4] == 3
    assert (st.place[P1], st.place[P5], st.place[P3]) == (4, 5, 6)  # fewer cards first, then seat


def test_game_end_fills_places_and_score():
    from replay.gouji.results import score_of
    places = [1, 4, 2, 5, 3, 6]
    assert score_of(places, preset("gouji")) == (12, 0, True)        # 串三户
    assert score_of(places, preset("gouji-online")) == (12, -12, True)
    places = [2, 1, 4, 3, 6, 5]
    assert score_of(places, preset("gouji")) == (0, 2, False)        # §11 example 3
    assert score_of(places, preset("gouji-online")) == (-2, 2, False)


def test_pop_takes_back():
    st = GoujiState(preset("gouji"), [counts_of(R(FULL))] * 6, leader=P1, keep_history=True)
    before = (list(st.cnt), st.phase, st.leader)
    st.push(P1, PLAY, R("QQQ"))
    st.push(P3, PASS)
    st.pop()
    st.pop()
    assert (list(st.cnt), st.phase, st.leader) == before


def test_legal_actions_are_legal():
    st = state(hands=["KK 9 2", "QQ 8", "AA", "JJ 7", "LJ 66", "BJ 5"], leader=P1)
    st.push(P1, PLAY, R("9"))
    acts = list(st.legal_actions())
    assert (PASS, ()) in acts
    for kind, ranks in acts:
        assert st.is_legal(P2, kind, ranks)
    assert not st.is_legal(P2, PLAY, R("8 8"))
