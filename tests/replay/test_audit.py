"""Independent audit of the rules engine against RULES.md (the contract).

Every expected outcome below was derived by hand from the contract's text (the
section or seed is cited per case), not from the engine. Positions are small
hand-made holdings; seats in play order N W S E.
"""

from collections import Counter

import pytest

from replay.cards import BJ, LJ, parse_cards as C
from replay.order import NT, TRUMP, Order
from replay.ruleset import PRESETS, Ruleset, preset
from replay.scoring import advancement, hand_outcome, kitty_multiplier, raise_level
from replay.trick import check_follow, check_throw, lead_suit, trick_winner
from replay.units import decompose

S, H, D, CL = 0, 1, 2, 3
J, Q, K, A, JOKER = 11, 12, 13, 14, 15


def rules(name: str = "standard", **over) -> Ruleset:
    return Ruleset(**{"name": name, **PRESETS[name], **over})


def order(rs: Ruleset, level: int, trump: int) -> Order:
    return Order.for_ruleset(level, trump, rs)


def shapes(cards: str, o: Order) -> list[tuple[int, int]]:
    return sorted(((u.width, u.length) for u in decompose(C(cards), o)), reverse=True)


# -- §2 card order under every preset -------------------------------------------------------

@pytest.mark.parametrize("rs,level,trump,high,low,source", [
    (rules("tractor97", two_is_trump=True), 5, S, "S5", "H5", "§2 trump-suit level > off-suit level (2 trump)"),
    (rules("tractor97", two_is_trump=True), 5, S, "D5", "S2", "§2 off-suit level > trump-suit 2"),
    (rules("tractor97", two_is_trump=True), 5, S, "S2", "C2", "§2 trump-suit 2 > other 2s"),
    (rules("tractor97", two_is_trump=True), 5, S, "C2", "SA", "§2 other 2s > trump-suit A"),
    (rules("tractor97", two_is_trump=True), 5, S, "H3", None, "§2 plain 3 is the lowest (2 and 5 removed)"),
    (rules(), A, H, "CA", "HK", "§2 level A: off-suit A > trump K, the top plain trump"),
    (rules(), A, H, "SK", "SQ", "§2 level A: plain spades top out at K"),
    (rules("tractor97"), JOKER, H, "BJ", "LJ", "§2 Joker level: NT, jokers on top"),
    (rules(), 9, NT, "LJ", "S9", "§2 NT: LJ > level cards"),
])
def test_order(rs, level, trump, high, low, source):
    o = order(rs, level, trump)
    (h,) = C(high)
    if low is None:
        assert o.eff[h] != TRUMP and o.key[h] == 0, source
        return
    (lo,) = C(low)
    assert o.eff[h] == o.eff[lo], source
    assert o.key[h] > o.key[lo], source


def test_off_suit_twos_equal_and_plain_gaps():
    # §2 with two_is_trump: the 2s of non-trump suits are equal; plain hearts skip 5 and 2
    o = order(rules("tractor97", two_is_trump=True), 5, S)
    assert o.key[C("H2")[0]] == o.key[C("D2")[0]] == o.key[C("C2")[0]]
    assert o.key[C("H6")[0]] == o.key[C("H4")[0]] + 1 and o.eff[C("H4")[0]] == H
    assert o.eff[C("C5")[0]] == TRUMP and o.eff[C("C2")[0]] == TRUMP
    # joker level: every plain A is plain (no level cards at Joker)
    o = order(rules("tractor97"), JOKER, H)
    assert o.trump == NT and o.eff[C("HA")[0]] == H and o.eff[C("H2")[0]] == H


# -- §3 tuples and tractors across the ladder, per preset -------------------------------

STD, CAMPUS, ONE, TIT, BOT = rules(), rules("campus"), rules("one-deck"), rules("titanic"), rules("botzone")
T97_2 = rules("tractor97", two_is_trump=True)


@pytest.mark.parametrize("rs,level,trump,cards,expect,source", [
    (STD, 7, H, "S7 S7 H7 H7", [(2, 2)], "§3 link level: off-suit level pair + trump-suit level pair"),
    (STD, 7, H, "S7 S7 D7 D7", [(2, 1), (2, 1)], "§3 two off-suit level pairs are never adjacent"),
    (STD, 7, H, "S7 S7 HA HA", [(2, 2)], "§3 link level_top: off-suit level pair + trump A pair"),
    (STD, 7, H, "LJ LJ H7 H7 S7 S7 HA HA", [(2, 4)], "§3 LJ..trump A: four pairs across three links"),
    (STD, 7, H, "BJ BJ LJ LJ H7 H7 S7 S7 HA HA HK HK", [(2, 6)], "§3 all four links"),
    (STD, 7, H, "S7 S7 D7 D7 HA HA", [(2, 2), (2, 1)], "§3 equal off-suit pairs: one joins HA, one stays"),
    (STD, 7, H, "S8 S8 S6 S6", [(2, 2)], "§3 adjacency skips the level rank (plain)"),
    (STD, 7, H, "H8 H8 H6 H6", [(2, 2)], "§3 adjacency skips the level rank (trump suit)"),
    (STD, 7, H, "H7 H7 H6 H6", [(2, 1), (2, 1)], "§3 trump 6 is not adjacent to the trump-suit 7"),
    (STD, 9, NT, "S9 S9 LJ LJ", [(2, 2)], "§3 NT: joker_level joins any level pair to LJ"),
    (STD, 9, NT, "S9 S9 H9 H9", [(2, 1), (2, 1)], "§3 NT: level pairs are equal"),
    (STD, 9, NT, "SA SA S9 S9", [(2, 1), (2, 1)], "§3 NT: plain A is not trump"),
    (CAMPUS, 7, H, "S7 S7 H7 H7", [(2, 1), (2, 1)], "§8 campus: no level link"),
    (CAMPUS, 7, H, "S7 S7 HA HA", [(2, 2)], "§8 campus: level_top on"),
    (CAMPUS, 7, H, "LJ LJ H7 H7", [(2, 2)], "§8 campus: joker_level on"),
    (CAMPUS, 7, H, "BJ BJ LJ LJ", [(2, 2)], "§8 campus: joker on"),
    (BOT, 7, H, "LJ LJ H7 H7", [(2, 1), (2, 1)], "§8b botzone: joker link only"),
    (BOT, 7, H, "S7 S7 HA HA", [(2, 1), (2, 1)], "§8b botzone: joker link only"),
    (BOT, 7, H, "BJ BJ LJ LJ", [(2, 2)], "§8b botzone: joker link"),
    (T97_2, 5, S, "H4 H4 H3 H3", [(2, 2)], "§2/§3 two_is_trump: plain 4-3 adjacent"),
    (T97_2, 5, S, "H6 H6 H4 H4", [(2, 2)], "§3 skip the level rank"),
    (T97_2, 5, S, "S3 S3 S4 S4", [(2, 2)], "§3 trump suit 4-3 adjacent (2 removed)"),
    (T97_2, 5, S, "H2 H2 D2 D2", [(2, 1), (2, 1)], "§2 off-suit 2s are equal: never adjacent"),
    (T97_2, 5, S, "H5 H5 S5 S5", [(2, 2)], "§3 level link"),
    (TIT, 2, S, "BJ BJ BJ LJ LJ LJ", [(3, 2)], "§3 Titanic across the joker link"),
    (TIT, 2, S, "S2 S2 S2 H2 H2 H2", [(3, 2)], "§3 Titanic across the level link"),
    (TIT, 2, S, "SA SA SA H2 H2 H2", [(3, 2)], "§3 Titanic across level_top"),
    (TIT, 2, S, "LJ LJ LJ S2 S2 S2 H2 H2 H2", [(3, 3)], "§3 Titanic of three across two links"),
    (TIT, 9, H, "D10 D10 D10 D8 D8 D8", [(3, 2)], "§3 Titanic skips the level rank"),
    (TIT, 9, H, "D5 D5 D5 D4 D4", [(2, 2), (1, 1)], "§6 split: longest tractors first (5544), then the 5 left"),
    (TIT, 9, H, "D5 D5 D5 D4 D4 D4 D3 D3", [(3, 2), (2, 1)], "§6 split: 6-card Titanic vs 6-card tractor; reading: wider"),
])
def test_units(rs, level, trump, cards, expect, source):
    assert shapes(cards, order(rs, level, trump)) == expect, source


# -- §6 throw check, forced unit, penalty ------------------------------------------------

def throw(rs, level, trump, lead, others, seats=("N", "W", "S", "E")):
    o = order(rs, level, trump)
    holdings = [Counter()] + [Counter(C(h)) for h in others]
    return check_throw(C(lead), 0, holdings, list(seats), o, rs)


@pytest.mark.parametrize("rs,level,trump,lead,others,fails,forced,source", [
    (STD, 2, H, "SA SK SK", ["SQ SQ", "S3", "D4"], False, None, "§6 nobody beats A or KK"),
    (STD, 2, H, "SA SK SK", ["SA SA", "S3", "D4"], True, "SK SK", "§6 a higher pair blocks KK"),
    (STD, 2, H, "SK SQ SQ", ["H3 H3", "", "SA"], True, "SK", "§6 a single A blocks K; trumps never block"),
    (STD, 2, H, "SA SQ SQ S5", ["SK SK", "S6", ""], True, "S5", "§6 smallest failing unit: the single"),
    (STD, 2, H, "SK S9 S9", ["S10 S10", "SA", ""], True, "SK", "§6 smallest: the single K"),
    (rules("shengji-io"), 2, H, "SK S9 S9", ["S10 S10", "SA", ""], True, "S9 S9",
     "§6 first_blocker: W (first after N) beats only the pair"),
    (rules("shengji-io"), 2, H, "SK S9 S9", ["", "SA", "S10 S10"], True, "SK",
     "§6 first_blocker: W blocks nothing; S is first and beats only the single"),
    (rules("shengji-io"), 2, H, "SA SQ SQ S5", ["S3", "SK SK", "S6"], True, "S5",
     "§6 first_blocker: W is no blocker; S beats pair and single: the smaller"),
    (STD, 2, H, "S10 S10 S9 S9 SA", ["SJ SJ SQ SQ", "", ""], True, "S10 S10 S9 S9",
     "§6 a higher tractor of the same shape blocks"),
    (STD, 2, H, "S10 S10 S9 S9 SA", ["SK SK SQ SQ SJ SJ", "", ""], True, "S10 S10 S9 S9",
     "§6 a longer higher tractor holds a higher one of the same length"),
    (STD, 2, H, "S10 S10 S9 S9 SA", ["SJ SJ SK SK", "SQ", ""], False, None,
     "§6 two non-adjacent pairs do not beat a tractor"),
    (STD, 7, H, "S8 S8 S6 S6 SA", ["S9 S9 S8", "", ""], False, None,
     "§3/§6 99 + one 8 is no tractor: nothing blocks 8866 (level 7 skipped)"),
    (STD, 7, H, "S8 S8 S6 S6 SA", ["S9 S9 S8 S8", "", ""], True, "S8 S8 S6 S6",
     "§3/§6 9988 beats 8866 (adjacent across the level 7)"),
    (STD, 7, H, "S7 D7", ["H7", "", ""], True, "S7", "§6 equal off-suit level singles: the trump-suit 7 blocks"),
    (STD, 2, H, "BJ LJ LJ", ["BJ BJ", "", ""], True, "LJ LJ", "§6 trump throw: BJ pair blocks LJ pair"),
    (STD, 2, H, "BJ LJ LJ", ["BJ", "", ""], False, None, "§6 equal BJ does not block"),
    (TIT, 2, S, "HA HA HA HK", ["HQ HQ HQ", "HA HA", ""], True, "HK",
     "§6 Titanic deck: the triple stands, the HA held beats the single K"),
    (TIT, 2, S, "HK HK HK HA", ["HA HA", "", ""], False, None, "§6 a pair does not beat a triple"),
    (TIT, 2, S, "HK HK HK HA", ["HA HA HA", "", ""], True, "HK HK HK", "§6 a higher triple blocks"),
    (TIT, 2, S, "HK HK H9 H9 HA", ["HA HA HA HJ", "", ""], True, "H9 H9",
     "§6 a triple holds a higher pair; the lower failing pair is forced"),
    (BOT, 2, H, "SA SQ SQ S5", ["SK SK", "S6", ""], False, None, "§8b botzone: throw_check none"),
])
def test_throw(rs, level, trump, lead, others, fails, forced, source):
    tc = throw(rs, level, trump, lead, others)
    assert (tc.forced is not None) == fails, source
    if fails:
        assert any(sorted(u.cards) == sorted(C(forced)) for u in tc.allowed), (source, tc.allowed)
