"""Card order, units, tractors, throws, follows and trick winners.

Each case cites the section of RULES.md (the contract) or the seed text it
comes from (seeds 000 Wikipedia 升级, 001 Tractor 1997, 002 campus, 004 one-deck/Titanic).
"""

from collections import Counter

import pytest

from primitives.cards import BJ
from primitives.cards import parse_cards as C
from replay.follow import check_follow
from replay.order import NT, TRUMP, Order
from replay.ruleset import preset
from replay.trick import check_throw, trick_winner
from replay.units import cover, decompose

S, H, D, CL = 0, 1, 2, 3
ALL = frozenset({"joker", "joker_level", "level", "level_top"})
CAMPUS = preset("campus").tractor_links


def shapes(cards, order):
    return [(u.width, u.length) for u in decompose(C(cards), order)]


# -- card order (RULES §2) ------------------------------------------------------------

@pytest.mark.parametrize("level,trump,two,high,low,source", [
    (2, H, False, "BJ", "LJ", "§2 big joker > little joker"),
    (2, H, False, "LJ", "H2", "§2 jokers > trump-suit level card"),
    (2, H, False, "H2", "S2", "§2 trump-suit level > other level cards"),
    (2, H, False, "S2", "HA", "§2 level cards > trump suit A"),
    (5, S, True, "S5", "S2", "§2 / seed 001: level cards > trump-suit 2 (2 is trump)"),
    (5, S, True, "S2", "H2", "§2 / seed 001: trump-suit 2 > other 2s"),
    (5, S, True, "H2", "SA", "§2 / seed 001: 2s > trump suit A"),
    (9, S, False, "SA", "SK", "§2 trump suit A K … in order"),
])
def test_trump_order(level, trump, two, high, low, source):
    o = Order(level, trump, two)
    (h,), (lo,) = C(high), C(low)
    assert o.eff[h] == o.eff[lo] == TRUMP, source
    assert o.key[h] > o.key[lo], source


def test_off_suit_level_cards_are_equal():
    # RULES §2: other level cards are equal to each other; the first played wins
    o = Order(7, H)
    assert o.key[C("S7")[0]] == o.key[C("D7")[0]] == o.key[C("C7")[0]]
    w = trick_winner([C("S7"), C("D7"), C("C7"), C("S3")], o, preset("standard"))
    assert w.index == 0


def test_nt_has_no_trump_suit():
    # RULES §2: with no trump suit only jokers and level cards (and 2s) are trump
    o = Order(9, NT)
    assert o.eff[C("SA")[0]] == S
    assert o.eff[C("S9")[0]] == TRUMP and o.eff[BJ] == TRUMP
    assert o.key[C("S9")[0]] == o.key[C("H9")[0]]


def test_joker_level_is_always_nt():
    # RULES §2: at the Joker level the hand is always NT
    o = Order(15, H)
    assert o.trump == NT and o.eff[C("HA")[0]] == H


def test_plain_suits_skip_level_rank():
    # RULES §2: plain suits A K … 2 without the level rank
    o = Order(4, H)
    assert o.key[C("S5")[0]] == o.key[C("S3")[0]] + 1


# -- tuples and tractors (RULES §3) ----------------------------------------------------

@pytest.mark.parametrize("cards,level,trump,links,expect,source", [
    ("S5 S5 S3 S3", 4, H, ALL, [(2, 2)], "§3: level 4 makes ♠5♠5♠3♠3 a tractor (seed 001 5533)"),
    ("S5 S5 S4 S4", 2, H, ALL, [(2, 2)], "§3 plain tractor"),
    ("S5 S5 S3 S3", 2, H, ALL, [(2, 1), (2, 1)], "§3 non-adjacent pairs"),
    ("BJ BJ LJ LJ", 2, H, ALL, [(2, 2)], "§3 joker link"),
    ("BJ BJ LJ LJ", 2, H, CAMPUS, [(2, 2)], "seed 002 规定1: 对大王+对小王 is a tractor"),
    ("LJ LJ H2 H2", 2, H, CAMPUS, [(2, 2)], "seed 002 规定1: 对小王+对主级牌 is a tractor"),
    ("S2 S2 HA HA", 2, H, CAMPUS, [(2, 2)], "seed 002 规定1: 对副级牌+主花色最大对 is a tractor"),
    ("H2 H2 S2 S2", 2, H, CAMPUS, [(2, 1), (2, 1)], "campus has no `level` link"),
    ("H2 H2 S2 S2", 2, H, ALL, [(2, 2)], "§3 level link: trump-suit level pair + off-suit level pair"),
    ("S2 S2 D2 D2", 2, H, ALL, [(2, 1), (2, 1)], "§3 two off-suit level pairs are never adjacent"),
    ("BJ BJ LJ LJ", 2, H, frozenset(), [(2, 1), (2, 1)], "links off: no joker tractor"),
    ("LJ LJ S2 S2", 2, NT, ALL, [(2, 2)], "§3: in NT joker_level joins any level pair to LJ"),
    ("H6 H6 H4 H4", 5, S, ALL, [(2, 2)], "seed 004: when playing 5, 4466 is a tractor"),
    ("S5 S5 H5 H5", 5, H, ALL, [(2, 2)], "seed 004: 副5主5 is a tractor"),
    ("HA HA S5 S5", 5, H, ALL, [(2, 2)], "seed 004: AA副5 is a tractor"),
    ("H5 H5 LJ LJ", 5, H, ALL, [(2, 2)], "seed 004: 主5小王 is a tractor"),
    ("S5 S5 S6 S6", 5, H, ALL, [(2, 1), (2, 1)], "seed 004: 5566 is not a tractor when playing 5"),
    ("S3 S3 S3 S4 S4 S4", 2, H, ALL, [(3, 2)], "seed 004: 333444 is a Titanic"),
    ("S4 S4 S4 S6 S6 S6", 5, H, ALL, [(3, 2)], "seed 004: 444666 is a Titanic when playing 5"),
    ("S5 S5 S5 S6 S6 S6", 5, H, ALL, [(3, 1), (3, 1)], "seed 004: 555666 is not a Titanic when playing 5"),
    ("SA SK SK", 2, H, ALL, [(2, 1), (1, 1)], "§6 a throw AKK: pair + single"),
])
def test_units(cards, level, trump, links, expect, source):
    assert sorted(shapes(cards, Order(level, trump, False, links))) == sorted(expect), source


# -- winners (RULES §6; seed 000 examples; seed 001 throw ruffs) -------------------------

STD = preset("standard")


def winner(order, ruleset, *plays):
    return trick_winner([C(p) for p in plays], order, ruleset).index


def test_seed000_single_ruff_and_over_ruff():
    # seed 000 table row 1 (♠9 trump): W ♣K, S ♠5 ruffs, E ♠9 over-ruffs, N ♣5
    o = Order(9, S)
    assert winner(o, STD, "CK", "S5", "S9", "C5") == 2


def test_seed000_throw_followed_short():
    # seed 000 row 2: E throws ♥AKK; S has only two hearts and fills with ♦3
    o = Order(9, S)
    lead = decompose(C("HA HK HK"), o)
    assert check_follow(lead, H, Counter(C("HA HQ D3 D4")), C("HA HQ D3"), o, STD) is None
    assert winner(o, STD, "HA HK HK", "H2 H4 H6", "H3 H5 H10", "HA HQ D3") == 0


def test_seed000_tractor_ruffed_by_trump_tractor():
    # seed 000 row 3: E ♦77881010 (9 is the level), N ruffs with ♠223344
    o = Order(9, S)
    assert winner(o, STD, "D7 D7 D8 D8 D10 D10", "S2 S2 S3 S3 S4 S4",
                  "D4 D6 D9 DJ DQ DK", "D2 D4 D5 D5 D6 DJ") == 1


def test_seed000_non_matching_trumps_are_discards():
    # seed 000: only the same shape can ruff: trump pair ruffs a pair, two odd trumps do not
    o = Order(9, S)
    assert winner(o, STD, "HK HK", "S3 S4", "H2 H3", "C4 C5") == 0
    assert winner(o, STD, "HK HK", "S3 S3", "H2 H3", "S4 S4") == 3


@pytest.mark.parametrize("lead,expect,source", [
    ("CA CK CQ", 2, "seed 001: plain AKQ ruffed by QJJ and by K88 → K88 wins (highest single)"),
    ("CA CK CK", 1, "seed 001: plain AKK ruffed by QJJ and by K88 → QJJ wins (higher pair)"),
])
def test_seed001_throw_ruffs(lead, expect, source):
    o = Order(2, H)
    assert winner(o, STD, lead, "HQ HJ HJ", "HK H8 H8", "C3 C4 C5") == expect, source


def test_throw_compare_policies():
    # RULES §6 throw_compare: largest_unit vs all_units vs highest_card
    o = Order(2, H)
    plays = ["CA CK CK", "H9 H9 H3", "H8 H8 HA", "C3 C4 C5"]
    assert winner(o, STD, *plays) == 1  # largest_unit: pair 99 > 88
    io = preset("shengji-io")
    assert winner(o, io, *plays) == 1  # all_units: 88 A does not beat 99 and 3 on every unit
    hc = STD.model_copy(update={"throw_compare": "highest_card"})
    assert winner(o, hc, *plays) == 2  # highest card: A


def test_in_suit_cannot_beat_a_throw():
    # RULES §6: in the led suit only normal leads can be beaten
    o = Order(2, H)
    assert winner(o, STD, "CK CQ", "CA C3", "C4 C5", "C6 C7") == 0


def test_trump_lead_higher_trump_wins():
    o = Order(2, H)
    assert winner(o, STD, "H5", "H7", "BJ", "S2") == 2


def test_tie_goes_to_first():
    # RULES §2 / seed 001: identical cards: the one played first wins
    o = Order(2, H)
    assert winner(o, STD, "SA", "SA", "S3", "S4") == 0


# -- follow obligations (RULES §6 Following) ------------------------------------------

@pytest.mark.parametrize("lead,hand,play,code,source", [
    ("SK SK", "SQ SQ S3 H4", "SQ S3", "SJ404", "§6: must play a pair when holding one"),
    ("SK SK", "SQ SQ S3 H4", "SQ SQ", None, "§6: pair followed by pair"),
    ("SK SK", "SQ S3 H4", "SQ H4", "SJ403", "§6: revoke: two spades held, one played"),
    ("SK SK", "SQ H4 H5", "SQ H4", None, "§6: one spade: play it and fill"),
    ("SK SK SQ SQ", "SJ SJ S10 S10 S3 S5", "SJ SJ S3 S5", "SJ404", "§6: must play a held tractor"),
    ("SK SK SQ SQ", "SJ SJ S9 S9 S3 S5", "SJ SJ S9 S9", None, "§6: no tractor: as many pairs as held"),
    ("SK SK SQ SQ", "SJ SJ S9 S9 S3 S5", "SJ SJ S3 S5", "SJ404", "§6: both pairs were required"),
    ("SA SK SK", "SQ SQ S3 H4", "SQ S3 H4", "SJ403", "§6 throw: three spades held, two played"),
    ("SA SK SK", "SQ SQ S3 H4", "SQ SQ S3", None, "§6 throw: pair for the pair"),
    ("SA SK SK", "SQ S4 S3 H4", "SQ S4 S3", None, "§6 throw: no pair held"),
    ("H5 H5", "H8 H9 S2 S2", "H8 H9", "SJ404", "trump lead (level 2, ♥): the off-suit level pair S2 S2 is a trump pair"),
    ("H5 H5", "H8 S2 S2", "S2 S2", None, "trump lead: off-suit level cards are trumps"),
])
def test_follow(lead, hand, play, code, source):
    o = Order(2, H)
    units = decompose(C(lead), o)
    suit = o.eff[C(lead)[0]]
    err = check_follow(units, suit, Counter(C(hand)), C(play), o, STD)
    assert (err.code if err else None) == code, source


def test_follow_strict_vs_pairs():
    # RULES §6: strict (shengji.io) obliges a held shorter tractor before plain pairs
    o = Order(2, H)
    lead = decompose(C("SK SK SQ SQ SJ SJ"), o)
    hand = Counter(C("S9 S9 S8 S8 S6 S6 S4 S4"))
    play = C("S9 S9 S6 S6 S4 S4")
    assert check_follow(lead, S, hand, play, o, STD) is None
    assert check_follow(lead, S, hand, play, o, preset("shengji-io")).code == "SJ404"
    assert check_follow(lead, S, hand, C("S9 S9 S8 S8 S4 S4"), o, preset("shengji-io")) is None


@pytest.mark.parametrize("hand,good,bad,source", [
    ("S9 S9 S9 S7 S7 S7 SA", "S9 S9 S9 S7 S7 S7", "S9 S9 S7 S7 SA S9", "seed 004 Titanic lead: two triples"),
    ("S9 S9 S8 S8 S6 S6 S6", "S9 S9 S8 S8 S6 S6", "S6 S6 S6 S9 S9 S8",
     "seed 004: tractor + two singles ranks above triple + pair + single"),
    ("S9 S9 S9 S6 S5 S4 S3", "S9 S9 S9 S6 S5 S4", "S6 S5 S4 S3 S9 S9",
     "seed 004: triple + 3 singles ranks above two pairs... (one pair + singles here)"),
])
def test_titanic_follow_order(hand, good, bad, source):
    o = Order(2, H)
    rs = preset("titanic")
    lead = decompose(C("SK SK SK SQ SQ SQ"), o)
    assert check_follow(lead, S, Counter(C(hand)), C(good), o, rs) is None, source
    assert check_follow(lead, S, Counter(C(hand)), C(bad), o, rs).code == "SJ404", source


def test_triple_lead_falls_back_to_pair():
    # seed 004: a triple lead: triple, else pair + single, else three singles
    o = Order(2, H)
    rs = preset("titanic")
    lead = decompose(C("SK SK SK"), o)
    hand = Counter(C("S9 S9 S5 S4"))
    assert check_follow(lead, S, hand, C("S9 S9 S4"), o, rs) is None
    assert check_follow(lead, S, hand, C("S9 S5 S4"), o, rs).code == "SJ404"


# -- throw check (RULES §6) -----------------------------------------------------------------

def test_throw_fails_and_forces_smallest():
    o = Order(2, H)
    seats = ["N", "W", "S", "E"]
    holds = [Counter(C("SA SK SK S3")), Counter(C("SQ SQ")), Counter(C("SA")), Counter(C("S5"))]
    chk = check_throw(C("SA SK SK S3"), 0, holds, seats, o, STD)
    # S's ♠A beats the single ♠3 — wait: S's A is equal to N's A, not higher; W's QQ does not beat KK
    # the single ♠3 is beaten by W's Q (single), so the forced unit is ♠3
    assert chk.forced is not None and chk.forced.cards == C("S3")
    assert {b.seat for b in chk.blockers} >= {"W"}


def test_throw_stands_and_void_trumping_does_not_count():
    o = Order(2, H)
    seats = ["N", "W", "S", "E"]
    holds = [Counter(), Counter(C("H3 H3")), Counter(C("S4")), Counter(C("S5"))]
    assert check_throw(C("SA SK SK"), 0, holds, seats, o, STD).forced is None


def test_throw_forced_first_blocker():
    # RULES §6: shengji.io's first_blocker: the first blocking player in turn order
    o = Order(2, H)
    seats = ["N", "W", "S", "E"]
    # W (first after the thrower) can beat only the pair; S's ♠A beats the single ♠K
    holds = [Counter(), Counter(C("S10 S10")), Counter(C("SA")), Counter()]
    lead = C("SA SK S9 S9")
    assert check_throw(lead, 0, holds, seats, o, STD).forced.cards == C("SK")
    assert check_throw(lead, 0, holds, seats, o, preset("shengji-io")).forced.cards == C("S9 S9")


def test_throw_tractor_blocked_by_higher_tractor():
    o = Order(2, H)
    seats = ["N", "W", "S", "E"]
    holds = [Counter(), Counter(C("SQ SQ SJ SJ")), Counter(), Counter()]
    chk = check_throw(C("S10 S10 S9 S9 SA"), 0, holds, seats, o, STD)
    assert chk.forced is not None and sorted(chk.forced.cards) == sorted(C("S10 S10 S9 S9"))


def test_botzone_never_checks_throws():
    o = Order(2, H)
    holds = [Counter(), Counter(C("SA SA")), Counter(), Counter()]
    assert check_throw(C("SK SK SJ"), 0, holds, ["N", "W", "S", "E"], o, preset("botzone")).forced is None


def test_cover_matches_structure():
    o = Order(2, H)
    assert cover([(2, 2)], C("H5 H5 H6 H6"), o) is not None
    assert cover([(2, 2)], C("H5 H5 H7 H7"), o) is None
    assert cover([(2, 1), (1, 1)], C("H9 H8 H8"), o) is not None
