"""The shengji-godot preset's options (issue 36), one table per option.

Each case cites shared/real-logs/qian-loong-shengji-godot/FORMAT.md ("Rules of
this engine"; docs/rules.md "shengji-godot: the evidence" adds the game's code
and what its logs show). The records here are the project's own; nothing reads
the shared logs.
"""

from __future__ import annotations

from collections import Counter

import pytest

from notation import parse as parse_records
from primitives.cards import ACE, JACK, KING, QUEEN
from primitives.cards import parse_cards as C
from replay.declare import resolve_declarations
from replay.declare_state import DeclEvent
from replay.game import replay
from replay.order import NT, Order
from replay.ruleset import preset
from replay.scoring import advancement, hand_outcome, kitty_multiplier, raise_level
from replay.state import HandState
from replay.units import decompose

GD = preset("shengji-godot")
S, H, D, CL = 0, 1, 2, 3


def parse(text):
    records, diags = parse_records(text)
    assert not diags, diags
    return records[0]


def ev(seat, cards, at=None):
    return DeclEvent(seat, C(cards), at)


def declare(events, *, levels=None, first_hand=True, dealer=None, rs=GD):
    levels = levels or {"NS": 2, "EW": 2}
    level = levels["NS"] if dealer is None else levels["NS" if dealer in "NS" else "EW"]
    return resolve_declarations(rs, level, list(events), first_hand=first_hand, dealer=dealer, first_drawer="S",
                                deal=None, kitty=None, declare_none=False, team_levels=levels)


# -- joker_colour (+ declare_joker): FORMAT.md "a declaration is a joker + a level card of the suit ... With
#    trump_joker_color_match the joker's colour must match the suit's colour: the big joker is red (♥♦), the
#    small one black (♠♣)"; "a pair of identical jokers = 公主 (no trump)"

@pytest.mark.parametrize("cards,accepted,trump,source", [
    ("S2 LJ", True, S, "FORMAT.md: the small (black) joker with ♠"),
    ("C2 LJ", True, CL, "FORMAT.md: the small (black) joker with ♣"),
    ("H2 BJ", True, H, "FORMAT.md: the big (red) joker with ♥"),
    ("D2 BJ", True, D, "FORMAT.md: the big (red) joker with ♦"),
    ("S2 BJ", False, None, "FORMAT.md trump_joker_color_match: ♠ is black, BJ red"),
    ("H2 LJ", False, None, "FORMAT.md trump_joker_color_match: ♥ is red, LJ black"),
    ("S2", False, None, "FORMAT.md bid_requires_joker: a bare level card cannot declare"),
    ("S2 S2 LJ", True, S, "FORMAT.md: a joker + a level pair"),
    ("BJ BJ", True, NT, "FORMAT.md: a pair of identical jokers = 公主 (no trump)"),
    ("LJ LJ", True, NT, "FORMAT.md: 公主 with the small jokers"),
    ("LJ BJ", False, None, "FORMAT.md: the jokers of 公主 are identical"),
    ("S3 LJ", False, None, "not a level card (level 2)"),
])
def test_joker_colour(cards, accepted, trump, source):
    res = declare([ev("S", cards)])
    assert res.accepted == [accepted], source
    if accepted:
        assert res.trump == trump and res.dealer == "S", source
    either = declare([ev("S", cards)], rs=GD.model_copy(update={"joker_colour": False}))
    if cards in ("S2 BJ", "H2 LJ"):
        assert either.accepted == [True], "joker_colour off: either joker (seed 000)"


def test_joker_colour_refusal_names_the_joker():
    res = declare([ev("S", "S2 BJ")])
    assert res.diagnostics[0].code == "SJ301" and "LJ" in res.diagnostics[0].message


# -- declaration: first — FORMAT.md "First round: the first valid declaration wins (first come, first served)"

@pytest.mark.parametrize("events,accepted,trump,dealer,source", [
    ([ev("S", "S2 LJ"), ev("E", "H2 H2 BJ")], [True, False], S, "S", "FORMAT.md: first come, first served"),
    ([ev("S", "S2 LJ"), ev("E", "BJ BJ")], [True, False], S, "S", "FORMAT.md: not even 公主 overrides"),
    ([ev("S", "S2 LJ"), ev("S", "S2 S2 LJ")], [True, False], S, "S", "no reinforcement either"),
    ([ev("E", "S2 BJ"), ev("N", "C2 LJ")], [False, True], CL, "N", "a refused bid is no bid: the next one stands"),
])
def test_first_declaration_stands(events, accepted, trump, dealer, source):
    res = declare(events)
    assert res.accepted == accepted and res.trump == trump and res.dealer == dealer, source


# -- declarer_deals — FORMAT.md "Later rounds: the seats are polled from the expected dealer on. A seat that can
#    declare does so and deals." "The round is played at the dealer team's level."

@pytest.mark.parametrize("events,accepted,dealer,level,source", [
    ([ev("W", "H2 BJ")], [True], "W", 2, "FORMAT.md: an attacker declares with its own level (EW 2) and deals"),
    ([ev("S", "S5 LJ")], [True], "S", 5, "FORMAT.md: the expected dealer's partner declares and deals"),
    ([ev("N", "D5 BJ")], [True], "N", 5, "the expected dealer declares: the deal stays"),
    ([ev("W", "H5 BJ")], [False], "N", None, "a seat declares with its own team's level only (EW is at 2)"),
    ([ev("E", "LJ LJ")], [True], "E", 2, "FORMAT.md: 公主 by an attacker takes the deal, at its level"),
])
def test_declarer_deals(events, accepted, dealer, level, source):
    res = declare(events, levels={"NS": 5, "EW": 2}, first_hand=False, dealer="N")
    assert res.accepted == accepted and res.dealer == dealer and res.level == level, source


def test_declarer_deals_in_a_record():
    """The hand's level and dealer follow the declaration; `dealer ?` or the declarer's seat are both fine."""
    base = '[Rules "shengji-godot"]\n\nhand 1\nlevels NS 5 EW 2\ndealer {d}\ndeclare W H2 BJ\n'
    for written, codes in (("?", []), ("W", []), ("N", ["SJ502"])):
        rec = parse(base.format(d=written) + "hand 2\ndealer N\n")
        hr = replay(rec)
        assert [d.code for d in hr.diagnostics if d.hand == 1 and d.severity == "error"] == codes, written
    hand = replay(parse(base.format(d="?"))).hands[0]
    assert (hand.dealer, hand.level, hand.trump) == ("W", 2, H)


# -- throws: no — FORMAT.md "No throws (allow_dump=false)"

def _throw_record(rules):
    deal = ("N: SA SK H3\nW: S2 S3 H4\nS: S4 S5 H5\nE: S6 S7 H6\n")
    return parse(f'[Rules "{rules}"]\n[Rule.kitty_size "96"]\n\nhand 1\nlevels NS 3 EW 3\ndealer N\n'
                 f'{deal}trump C\n1. N: SAK  W: S23  S: S45  E: S67\n')


@pytest.mark.parametrize("rules,code,source", [
    ("shengji-godot", "SJ410", "FORMAT.md: no throws: ♠AK led at once is not a lead"),
    ("standard", None, "RULES §6: the throw ♠AK stands (nobody beats it)"),
])
def test_no_throws(rules, code, source):
    got = [d.code for d in replay(_throw_record(rules)).diagnostics if d.code.startswith("SJ4")]
    assert got == ([code] if code else []), source


def test_no_throws_in_the_legal_moves():
    order = Order(3, CL, False, frozenset())
    hands = {"N": Counter(C("SA SK S9 S9 H3")), "W": Counter(C("S2 S3 S4 S5 H4")),
             "S": Counter(C("S6 S7 S8 D2 H5")), "E": Counter(C("S10 SJ SQ D3 H6"))}
    st = HandState(GD, order, {s: list(h.elements()) for s, h in hands.items()}, leader="N", dealer="N")
    leads = set(st.legal_leads())
    assert tuple(sorted(C("S9 S9"))) in leads and not st.is_legal(C("SA SK")), "a throw is no lead"
    assert all(len(decompose(m, order)) == 1 for m in leads)
    assert HandState(preset("standard"), order, {s: list(h.elements()) for s, h in hands.items()}, leader="N",
                     dealer="N").is_legal(C("SA SK"))


# -- kitty_multiplier: unit_cards — FORMAT.md "single 1, pair 2, tractor 2×pairs, dump = the largest component"

@pytest.mark.parametrize("cards,expect,source", [
    ("SA", 1, "FORMAT.md: single ×1 (the report's hand 5: 5 × 1 = 5)"),
    ("SA SA", 2, "FORMAT.md: pair ×2"),
    ("S5 S5 S6 S6", 4, "FORMAT.md: tractor 2 × 2 pairs"),
    ("S5 S5 S6 S6 S7 S7", 6, "FORMAT.md: tractor 2 × 3 pairs"),
    ("SA SK SK", 2, "FORMAT.md: dump = its largest component (a pair)"),
])
def test_kitty_unit_cards(cards, expect, source):
    o = Order(2, H)
    n = len(C(cards))
    assert kitty_multiplier("unit_cards", decompose(C(cards), o), play_cards=n, lead_cards=n) == expect, source


# -- advancement: capped — FORMAT.md "attackers 0 → dealers +3; 1–39 +2; 40–79 +1. At 80–119 the attackers take
#    over without going up; 120–159 +1; 160–199 +2; ≥200 +3"

@pytest.mark.parametrize("p,keep,levels", [
    (0, True, 3), (5, True, 2), (35, True, 2), (40, True, 1), (75, True, 1), (80, False, 0), (115, False, 0),
    (120, False, 1), (155, False, 1), (160, False, 2), (195, False, 2), (200, False, 3), (240, False, 3),
    (300, False, 3),
])
def test_advancement_capped(p, keep, levels):
    assert tuple(advancement("capped", p)) == (keep, levels), "FORMAT.md Levels: ≥200 +3"


# -- must_play 2,5,10,K — FORMAT.md "Ranks 5, 10 and K cannot be skipped (a rise stops on them). The HTML match
#    shows this: 4→5 and Q→K, where each rise was +2."

@pytest.mark.parametrize("start,steps,end,source", [
    (4, 2, 5, "FORMAT.md: the report's 4 → 5 on a +2"),
    (QUEEN, 2, KING, "FORMAT.md: the report's Q → K on a +2"),
    (9, 1, 10, "the report's 9 → 10 (+1)"),
    (3, 2, 5, "FORMAT.md: the log's 3 → 5 (+2) lands on 5"),
    (5, 2, 7, "a rise from 5 leaves it (the report's 5 → 7)"),
    (10, 2, QUEEN, "the report's 10 → Q"),
    (JACK, 3, KING, "a +3 from J stops at K"),
    (KING, 3, ACE, "past A the level stays at A"),
])
def test_must_play(start, steps, end, source):
    assert raise_level(GD, start, steps, defended=True) == end, source


# -- kept_deal: dealer — FORMAT.md "Dealer rotation: if the dealers hold, the dealer stays. Otherwise the seat
#    after the dealer, an attacker, becomes the expected dealer."

@pytest.mark.parametrize("points,next_dealer,source", [
    (30, "S", "FORMAT.md: the dealers hold: the dealer stays (不换庄)"),
    (80, "E", "FORMAT.md: the attackers take over: the seat after the dealer"),
])
def test_kept_deal(points, next_dealer, source):
    out = hand_outcome(GD, {"NS": 4, "EW": 2}, "S", points)
    assert out.next_dealer == next_dealer, source
    assert hand_outcome(preset("standard"), {"NS": 4, "EW": 2}, "S", 30).next_dealer == "N"


# -- match_end: pass_top — the game's upgrade_settlement.gd: game over when the rising side's own level is A and it
#    rises (FORMAT.md: the report's match climbs to A; its last hand: NS, attackers at A, score 165)

@pytest.mark.parametrize("levels,dealer,points,over,winner,source", [
    ({"NS": ACE, "EW": 2}, "W", 165, True, "NS", "the report's hand 9: attackers at A rise: NS win"),
    ({"NS": ACE, "EW": 2}, "N", 75, True, "NS", "dealers at A defend it"),
    ({"NS": KING, "EW": 2}, "N", 75, False, None, "K → A: at A, not past it"),
    ({"NS": ACE, "EW": 2}, "W", 100, False, None, "attackers at A take the deal without rising"),
])
def test_pass_top(levels, dealer, points, over, winner, source):
    out = hand_outcome(GD, levels, dealer, points)
    assert (out.match_over, out.winner) == (over, winner), source
