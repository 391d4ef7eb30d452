"""Kitty multipliers, advancement tables, level jumps, next dealer, match end (RULES §7)."""

import pytest

from primitives.cards import parse_cards as C
from replay.order import Order
from replay.ruleset import preset
from replay.scoring import advancement, hand_outcome, kitty_multiplier, next_seat, partner, raise_level
from replay.units import decompose

O = Order(2, 1)  # level 2, hearts trump


def mult(policy, cards, *, lead=None):
    units = decompose(C(cards), O)
    n = len(C(cards))
    return kitty_multiplier(policy, units, play_cards=n, lead_cards=lead or n)


@pytest.mark.parametrize("policy,cards,expect,source", [
    ("by_unit", "SA", 2, "§7 by_unit single ×2 (seed 001)"),
    ("by_unit", "SA SA", 4, "§7 by_unit pair ×4 (seed 001)"),
    ("by_unit", "S5 S5 S6 S6", 8, "§7 by_unit tractor of 2 pairs ×8 (seed 001, 002)"),
    ("by_unit", "S5 S5 S6 S6 S7 S7", 16, "§7 by_unit tractor of 3 pairs ×16 (seed 001, 002)"),
    ("by_unit", "SA SK SK", 4, "§7 by_unit throw: its largest unit (seed 001 甩牌)"),
    ("by_cards", "S4 S4 S5 S5", 16, "seed 004: 4455 → 16"),
    ("by_cards", "S4 S4 S4 S5 S5 S5", 64, "seed 004: 444555 → 64"),
    ("by_cards", "S4 S4 S5 S5 S6 S6", 64, "seed 004: 445566 → 64 (cap 64)"),
    ("by_cards", "S5 S5 S5", 8, "seed 004: 555 → 8"),
    ("by_cards", "SA SK SQ SJ S10 S9 S8 S7 S7", 4, "seed 004: throw AKQJ10 9 8 77 → 4"),
    ("by_cards", "SA SK SQ SJ", 2, "seed 004: throw AKQJ → 2"),
    ("by_cards", "SA SA SJ SJ", 4, "seed 004: throw AAJJ → 4 (pairs, not a tractor)"),
    ("by_play_cards", "SA SA", 4, "§7 by_play_cards 2^cards (seed 000 variant)"),
    ("by_play_cards", "SA SK SQ", 8, "§7 by_play_cards"),
    ("linear", "SA SK SQ", 3, "§7 linear: cards in the winning play (seed 000 variant)"),
    ("titanic", "S4 S4 S4 S5 S5 S5", 18, "seed 004: Titanic ×18"),
    ("titanic", "S4 S4 S4", 6, "seed 004: triple ×6"),
    ("titanic", "S4 S4 S5 S5", 8, "seed 004: tractor ×8"),
    ("titanic", "S4 S4", 4, "seed 004: pair ×4"),
    ("titanic", "S4", 2, "seed 004: single ×2"),
    ("times_unit", "S4 S4 S5 S5", 8, "§7 times_unit: 2 × cards in the largest unit"),
    ("times_unit", "SA", 2, "§7 times_unit single"),
    ("times_lead_cards", "SA SK SQ", 6, "§8b times_lead_cards: 2 × lead cards"),
])
def test_kitty_multiplier(policy, cards, expect, source):
    assert mult(policy, cards) == expect, source


def test_botzone_multiplier_reads_last_play():
    # §8b botzone: non-throw ×cards; throw: 2 × tractor cards, else 4 for a pair, else 2
    win = decompose(C("S4 S4 S5 S5"), O)
    assert kitty_multiplier("botzone", win, play_cards=4, lead_cards=4, last_play=win) == 4
    last = decompose(C("SA SK SK"), O)
    assert kitty_multiplier("botzone", win, play_cards=3, lead_cards=3, last_play=last) == 4


@pytest.mark.parametrize("p,keep,levels", [
    (0, True, 3), (5, True, 2), (35, True, 2), (40, True, 1), (75, True, 1),
    (80, False, 0), (115, False, 0), (120, False, 1), (155, False, 1), (160, False, 2),
    (200, False, 3), (235, False, 3), (240, False, 4),
])
def test_advancement_standard(p, keep, levels):
    # RULES §7 table (seed 000, 001 五)
    assert tuple(advancement("standard", p)) == (keep, levels)


@pytest.mark.parametrize("p,keep,levels", [
    (0, True, 3), (35, True, 2), (75, True, 1), (80, False, 0), (120, False, 1),
    (160, False, 2), (200, False, 2), (205, False, 3), (235, False, 3), (300, False, 3),
])
def test_advancement_campus(p, keep, levels):
    # seed 002 九: 160–200 → +2, above 200 → +3 (capped)
    assert tuple(advancement("campus", p)) == (keep, levels)


@pytest.mark.parametrize("p,keep,levels", [
    (0, True, 2), (5, True, 1), (35, True, 1), (40, False, 0), (75, False, 0), (80, False, 1),
    (95, False, 1), (100, False, 2), (115, False, 2), (120, False, 3),
])
def test_advancement_one_deck(p, keep, levels):
    # RULES §7 one-deck (seed 004)
    assert tuple(advancement("one-deck", p, 1)) == (keep, levels)


@pytest.mark.parametrize("p,keep,levels", [
    (0, True, 3), (5, True, 2), (55, True, 2), (60, True, 1), (115, True, 1), (120, False, 0),
    (175, False, 0), (180, False, 1), (240, False, 2),
])
def test_advancement_titanic(p, keep, levels):
    # seed 004 上下台规则: 0 大光 +3, < 60 小光 +2, 120 上台, +1 per 60
    assert tuple(advancement("titanic", p, 3)) == (keep, levels)


def test_next_dealer():
    # RULES §7: keep → partner deals; lose → next seat counter-clockwise
    rs = preset("standard")
    out = hand_outcome(rs, {"NS": 2, "EW": 2}, "N", 40)
    assert out.next_dealer == partner("N") == "S" and out.levels == {"NS": 3, "EW": 2}
    out = hand_outcome(rs, {"NS": 2, "EW": 2}, "N", 120)
    assert out.next_dealer == next_seat("N") == "W" and out.levels == {"NS": 2, "EW": 3}


def test_must_play_stops_a_jump():
    # RULES §7 / seed 001: a jump stops at the first must-play level
    rs = preset("tractor97").model_copy(update={"must_play": (2, 5, 10, 13)})
    assert raise_level(rs, 3, 3, defended=True) == 5
    assert raise_level(rs, 5, 3, defended=True) == 8   # leaving a must-play level
    assert raise_level(rs, 5, 2, defended=False) == 7  # 001: only jumps stop
    fen = preset("80fen")  # §8b: the gate must be defended
    assert raise_level(fen, 3, 3, defended=True) == 5
    assert raise_level(fen, 5, 2, defended=False) == 5
    assert raise_level(fen, 5, 2, defended=True) == 7


def test_tractor97_cycles_after_joker():
    # seed 001: no-winner play: after Joker the level starts again at 2
    rs = preset("tractor97")
    assert raise_level(rs, 14, 1, defended=True) == 15
    assert raise_level(rs, 15, 1, defended=True) in (2, 3)


def test_reach_top_ends_match():
    rs = preset("standard")
    out = hand_outcome(rs, {"NS": 13, "EW": 5}, "N", 0)
    assert out.match_over and out.winner == "NS" and out.levels["NS"] == 14


def test_defend_top():
    rs = preset("titanic").model_copy(update={"decks": 2, "advancement": "standard"})   # match_end defend_top
    out = hand_outcome(rs, {"NS": 14, "EW": 5}, "N", 40)
    assert out.match_over and out.winner == "NS"
    out = hand_outcome(rs, {"NS": 14, "EW": 5}, "N", 80)
    assert not out.match_over


def test_hands_limit():
    rs = preset("botzone")  # hands:1
    out = hand_outcome(rs, {"NS": 2, "EW": 2}, "N", 40, hands_played=1)
    assert out.match_over and out.winner == "NS"


def test_hook_back():
    # seed 000 note 钩回去: at level J, attackers take the last trick with a J → dealers back to start
    rs = preset("standard").model_copy(update={"hook_back": (11,)})
    out = hand_outcome(rs, {"NS": 11, "EW": 5}, "N", 60, last_trick_rank_hook=True)
    assert out.hooked_back and out.levels["NS"] == 2
