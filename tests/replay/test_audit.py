"""Independent audit of the rules engine against RULES.md (the contract).

Every expected outcome below was derived by hand from the contract's text (the
section or seed is cited per case), not from the engine. Positions are small
hand-made holdings; seats in play order N W S E.
"""

from collections import Counter

import pytest

from primitives.cards import parse_cards as C
from replay.order import NT, TRUMP, Order
from replay.ruleset import PRESETS, Ruleset
from replay.scoring import advancement, hand_outcome, kitty_multiplier, raise_level
from replay.trick import check_throw, trick_winner
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


# -- §6 following ----------------------------------------------------------------------------

def legal(rs, level, trump, lead, hold, play) -> bool:
    from replay.legal import is_legal_follow
    return is_legal_follow(C(lead), Counter(C(hold)), C(play), order(rs, level, trump), rs)


IO, FLY = rules("shengji-io"), rules("shengji-fly")


@pytest.mark.parametrize("rs,level,trump,lead,hold,play,ok,source", [
    (STD, 2, H, "SQ SQ SJ SJ", "SA SA S5 S5 S3 H4", "SA SA S5 S5", True, "§6.3 no tractor: both pairs"),
    (STD, 2, H, "SQ SQ SJ SJ", "SA SA S5 S5 S3 H4", "SA SA S5 S3", False, "§6.3 a tractor counts 2 pairs"),
    (STD, 2, H, "SQ SQ SJ SJ", "SA SA S8 S7 S3", "SA SA S8 S7", True, "§6.3 one pair, then any spades"),
    (STD, 2, H, "SQ SQ SJ SJ", "SA SA S8 S7 S3", "SA S8 S7 S3", False, "§6.3 the pair held is owed"),
    (STD, 2, H, "SQ SQ SJ SJ", "S9 S9 S8 S8 SA SA", "SA SA S9 S9", False, "§6.3 the tractor held is owed"),
    (STD, 2, H, "SQ SQ SJ SJ", "S9 S9 S8 S8 SA SA", "S9 S9 S8 S8", True, "§6.3 tractor for tractor"),
    (STD, 7, H, "SQ SQ SJ SJ", "S8 S8 S6 S6 SA SA", "SA SA S8 S8", False, "§3 8866 is a tractor at level 7"),
    (STD, 2, H, "S10 S10 S9 S9 S8 S8", "SA SA SK SK S5 S5 S3 S3", "SA SA S5 S5 S3 S3", True,
     "§6.3 pairs: any three pairs when no 3-tractor"),
    (IO, 2, H, "S10 S10 S9 S9 S8 S8", "SA SA SK SK S5 S5 S3 S3", "SA SA S5 S5 S3 S3", False,
     "§6.3 strict: the 2-pair tractor held is owed first"),
    (IO, 2, H, "S10 S10 S9 S9 S8 S8", "SA SA SK SK S5 S5 S3 S3", "SA SA SK SK S3 S3", True,
     "§6.3 strict: 2-tractor + a pair"),
    (STD, 2, H, "SQ SQ SJ SJ SA", "SK SK S10 S10 S9 S9 S3", "SK SK S10 S10 S3", False,
     "§6.3 pairs: a throw's tractor obliges a held tractor"),
    (FLY, 2, H, "SQ SQ SJ SJ SA", "SK SK S10 S10 S9 S9 S3", "SK SK S10 S10 S3", True,
     "§8b pure_tractor: only a lone tractor lead obliges a tractor"),
    (FLY, 2, H, "SQ SQ SJ SJ SA", "SK SK S10 S10 S9 S9 S3", "SK S10 S9 S9 S3", False,
     "§8b pure_tractor: the pairs are still owed"),
    (FLY, 2, H, "SQ SQ SJ SJ", "S10 S10 S9 S9 SA SA", "SA SA S10 S10", False,
     "§8b pure_tractor: a lone tractor lead obliges the tractor"),
    (STD, 7, H, "H7 H7", "S7 D7 H3 C5", "S7 D7", True, "§3 off-suit level cards of two suits are no pair"),
    (STD, 7, H, "H7 H7", "S7 S7 H3", "S7 H3", False, "§6.3 an off-suit level pair is a trump pair"),
    (STD, 2, H, "HA HA", "BJ LJ S2 S2 H5", "BJ LJ", False, "§6.3 the level pair S2S2 is a trump pair"),
    (STD, 2, H, "SA", "S2 D3", "D3", True, "§2 the level ♠2 is trump: void in spades"),
    (STD, 2, H, "SA", "S2 D3 S5", "S2", False, "§6.2 ♠5 is owed"),
    (T97_2, 5, S, "HA", "H2 D3", "D3", True, "§2 two_is_trump: ♥2 is trump, void in hearts"),
    (T97_2, 5, S, "S3", "H2 D3", "H2", True, "§2 two_is_trump: ♥2 follows a trump lead"),
    (T97_2, 5, S, "S3", "H2 D3", "D3", False, "§2 two_is_trump: ♥2 is owed to a trump lead"),
    (TIT, 2, S, "H9 H9 H9", "HK HK H5 H3", "HK HK H5", True, "seed 004: triple → pair + single"),
    (TIT, 2, S, "H9 H9 H9", "HK HK H5 H3", "HK H5 H3", False, "seed 004: the pair is owed"),
    (TIT, 2, S, "H9 H9 H9", "HK HK HK H5", "HK HK H5", False, "§6.3 the triple is owed"),
    (TIT, 2, S, "H9 H9", "HK HK HK H3", "HK HK", True, "§6.3 a pair from a triple"),
    (TIT, 2, S, "H9 H9", "HK HK HK H3", "HK H3", False, "§6.3 a triple holds the owed pair"),
    (TIT, 2, S, "H9 H9 H8 H8", "HK HK HK HQ HQ HQ H3", "HK HK HQ HQ", True, "§6.3 a Titanic holds the tractor"),
    (TIT, 2, S, "H9 H9 H8 H8", "HK HK HK HQ HQ HQ H3", "HK HK HK H3", False, "§6.3 the tractor is owed"),
    (TIT, 2, S, "H9 H9 H9 H8 H8 H8", "HA HA HA H6 H6 H6 H4 H4 H3", "HA HA HA H6 H6 H6", True,
     "seed 004: no Titanic: both triples first"),
    (TIT, 2, S, "H9 H9 H9 H8 H8 H8", "HA HA HA H6 H6 H6 H4 H4 H3", "HA HA HA H6 H4 H4", False,
     "seed 004: both triples are owed"),
    (BOT, 2, H, "H2 H2", "H5 H6 S2 S2", "H5 H6", True, "§8b printed: a ♥2 pair asks for plain hearts"),
    (BOT, 2, H, "H2 H2", "H5 H6 S2 S2", "S2 S2", False, "§8b printed: hearts are owed, not trumps"),
    (STD, 2, H, "H2 H2", "H5 H6 S2 S2", "H5 H6", False, "§6.3 effective: the trump pair S2S2 is owed"),
    (BOT, 2, H, "H5", "H3 BJ", "BJ", False, "§8b printed: the ♥ lead asks for ♥ non-level cards"),
    (BOT, 2, H, "H5", "S2 BJ C3", "C3", True, "§8b printed: jokers and level cards do not follow"),
])
def test_follow(rs, level, trump, lead, hold, play, ok, source):
    assert legal(rs, level, trump, lead, hold, play) == ok, source


# -- §6 winning ------------------------------------------------------------------------------

@pytest.mark.parametrize("rs,level,trump,plays,winner,source", [
    (STD, 2, H, ["SK SK", "H3 H3", "S2 S2", "SA SA"], 2, "§6 毙 then 盖毙 with a level pair"),
    (STD, 2, H, ["SK SK", "SA SA", "H3 H4", "S3 S3"], 1, "§6 two trump singles are no pair: a discard"),
    (STD, 2, H, ["SK SK", "SA SA", "H3 H3", "S3 S3"], 2, "§6 a trump pair ruffs a beaten plain pair"),
    (STD, 7, H, ["SA", "S7", "D7", "C7"], 1, "§2 equal off-suit level cards: the first wins"),
    (STD, 7, H, ["SA", "D7", "H7", "C7"], 2, "§2 trump-suit level card beats off-suit"),
    (STD, 5, H, ["SQ SQ SJ SJ", "H6 H6 H4 H4", "SA SA S3 S3", "S6 S6 S4 S4"], 1,
     "§3/§6 ruff with a tractor across the level gap"),
    (STD, 2, H, ["SQ SQ SJ SJ", "H5 H5 H7 H7", "S3 S3 S4 S4", "SA SK S8 S7"], 0,
     "§6 non-adjacent trump pairs do not match a tractor"),
    (STD, 2, H, ["S9 S9 S8 S8", "SA SA SK SK", "SQ SQ SJ SJ", "S3 S4 S5 S6"], 1,
     "§6 normal lead: the higher tractor wins"),
    (STD, 2, H, ["S9 S9 S8 S8", "SA SA S5 S5", "S3 S3 S4 S4", "S6 S7 S10 SJ"], 0,
     "§6 pairs do not match a tractor"),
    (STD, 2, H, ["SA SK SK", "H3 H4 H4", "HA H6 H6", "H8 H5 H5"], 2, "§6 largest_unit: the pairs decide"),
    (IO, 2, H, ["SA SK SK", "HA H6 H6", "H3 H8 H8", "D3 D4 D4"], 1,
     "§6 all_units: ♥3 < ♥A, the later ruff does not win"),
    (STD, 2, H, ["SA SK SK", "HA H6 H6", "H3 H8 H8", "D3 D4 D4"], 2, "§6 largest_unit: 88 > 66"),
    (IO, 2, H, ["SA SK SK", "H3 H6 H6", "H5 H8 H8", "D3 D4 D4"], 2, "§6 all_units: each unit beats"),
    (STD, 2, H, ["SA SK SK", "SQ SQ S3", "S4 S5 S6", "D3 D4 D4"], 0, "§6 a throw is never beaten in suit"),
    (STD, 2, H, ["HA HK HK", "BJ BJ LJ", "H3 H4 H5", "H6 H7 H8"], 0, "§6 a trump throw cannot be beaten"),
    (TIT, 2, S, ["H9 H9 H9", "S3 S3 S3", "S4 S4 H10", "HA HA HA"], 1, "§6 a trump triple ruffs a triple"),
    (TIT, 2, S, ["H9 H9 H9 H8 H8 H8", "BJ BJ BJ LJ LJ LJ", "S3 S3 S3 S4 S4 S4", "HA HA HA HK HK HK"], 1,
     "§3/§6 a joker Titanic ruffs"),
    (T97_2, 5, S, ["HA", "C2", "S3", "D5"], 3, "§2 two_is_trump: D5 > C2 > S3"),
    (T97_2, 5, S, ["HA", "S3", "C2", "H2"], 2, "§2 two_is_trump: off-suit 2s equal, first wins"),
])
def test_winner(rs, level, trump, plays, winner, source):
    o = order(rs, level, trump)
    assert trick_winner([C(p) for p in plays], o, rs).index == winner, source


# -- §7 kitty multipliers ------------------------------------------------------------------

@pytest.mark.parametrize("policy,cards,expect,source", [
    ("by_unit", "SQ SQ SJ SJ SA", 8, "§7 by_unit: a throw counts its largest unit (tractor 2^3)"),
    ("by_unit", "SA SK", 2, "§7 by_unit: a throw of singles ×2"),
    ("times_unit", "SA SK SK", 4, "§7 times_unit: 2 × 2 cards in the pair"),
    ("times_unit", "SQ SQ SJ SJ SA", 8, "§7 times_unit: 2 × 4 cards of the tractor"),
    ("times_unit", "SA", 2, "§7 times_unit: single ×2"),
    ("times_lead_cards", "SA SK SK", 6, "§8b times_lead_cards: 2 × 3 lead cards"),
    ("botzone", "SA SK SK", 4, "§8b botzone: a throw with a pair ×4"),
    ("botzone", "SQ SQ SJ SJ SA", 8, "§8b botzone: a throw with a tractor: 2 × 4"),
    ("botzone", "SQ SQ SJ SJ", 4, "§8b botzone: a non-throw: × its 4 cards"),
    ("botzone", "SA SK", 2, "§8b botzone: a throw of singles ×2"),
    ("by_cards", "S3 S3 S3 S4 S4 S4 S5 S5 S5", 64, "§7 by_cards: 2^9 capped at 64"),
    ("titanic", "S3 S3 S3 S4 S4 S4 S5 S5 S5", 54, "§7 titanic: 2·3^3"),
    ("titanic", "S3 S3 S3 S8 S8", 6, "§7 titanic: a throw with a triple ×6"),
    ("linear", "SQ SQ SJ SJ SA", 5, "§7 linear: 5 cards"),
])
def test_kitty(policy, cards, expect, source):
    o = Order(2, H)
    units = decompose(C(cards), o)
    n = len(C(cards))
    assert kitty_multiplier(policy, units, play_cards=n, lead_cards=n) == expect, source


# -- §7 advancement -----------------------------------------------------------------------------

@pytest.mark.parametrize("table,decks,points,keep,levels,source", [
    ("standard", 2, 0, True, 3, "§7 0 → +3"), ("standard", 2, 5, True, 2, "§7 5–35 → +2"),
    ("standard", 2, 35, True, 2, "§7 5–35"), ("standard", 2, 40, True, 1, "§7 40–75 → +1"),
    ("standard", 2, 75, True, 1, "§7 40–75"), ("standard", 2, 80, False, 0, "§7 80 → take the deal"),
    ("standard", 2, 115, False, 0, "§7 80–115"), ("standard", 2, 120, False, 1, "§7 120 → +1"),
    ("standard", 2, 155, False, 1, "§7 120–155"), ("standard", 2, 160, False, 2, "§7 every further 40"),
    ("standard", 2, 200, False, 3, "§7 every further 40"), ("standard", 2, -20, True, 3, "§7 penalties below 0"),
    ("standard", 3, 55, True, 2, "§7 general: step 60"), ("standard", 3, 60, True, 1, "§7 general"),
    ("standard", 3, 120, False, 0, "§7 general: threshold 120"), ("standard", 3, 180, False, 1, "§7 general"),
    ("standard", 1, 0, True, 3, "§7 general, 1 deck"), ("standard", 1, 40, False, 0, "§7 general: 40"),
    ("standard", 1, 60, False, 1, "§7 general: +1 at 60"),
    ("one-deck", 1, 0, True, 2, "§7 one-deck 0 → +2"), ("one-deck", 1, 35, True, 1, "§7 one-deck 5–35"),
    ("one-deck", 1, 40, False, 0, "§7 one-deck 40–75"), ("one-deck", 1, 75, False, 0, "§7 one-deck"),
    ("one-deck", 1, 80, False, 1, "§7 one-deck 80–95"), ("one-deck", 1, 95, False, 1, "§7 one-deck"),
    ("one-deck", 1, 100, False, 2, "§7 one-deck 100–115"), ("one-deck", 1, 120, False, 3, "§7 +1 per 20"),
    ("titanic", 3, 0, True, 3, "§7 titanic 0"), ("titanic", 3, 55, True, 2, "§7 titanic < 60"),
    ("titanic", 3, 60, True, 1, "§7 titanic 60–115"), ("titanic", 3, 115, True, 1, "§7 titanic"),
    ("titanic", 3, 120, False, 0, "§7 titanic 120"), ("titanic", 3, 175, False, 0, "§7 titanic"),
    ("titanic", 3, 180, False, 1, "§7 titanic +1 per 60"), ("titanic", 3, 240, False, 2, "§7 titanic"),
    ("campus", 2, 120, False, 1, "§7 campus"), ("campus", 2, 160, False, 2, "§7 campus 160–200"),
    ("campus", 2, 200, False, 2, "§7 campus 200"), ("campus", 2, 205, False, 3, "§7 campus > 200"),
    ("campus", 2, 300, False, 3, "§7 campus cap +3"), ("campus", 2, 40, True, 1, "§7 campus as standard below"),
])
def test_advancement(table, decks, points, keep, levels, source):
    assert tuple(advancement(table, points, decks)) == (keep, levels), source


# -- §7 level jumps, must-play, hook back, next dealer, match end ------------------------------------

T97_SW = rules("tractor97", must_play=(2, 5, 10, K, J, A))


@pytest.mark.parametrize("rs,level,steps,defended,expect,source", [
    (STD, 9, 3, True, Q, "§7 plain jump"),
    (STD, K, 3, True, A, "§7 stays at the top"),
    (T97_SW, 3, 3, True, 5, "§7 001 不可越級: stop at 5"),
    (T97_SW, 5, 2, True, 7, "§7 leaving a must-play level"),
    (T97_SW, 8, 3, False, 10, "§7 stop at 10"),
    (T97_SW, Q, 3, True, K, "§7 stop at K"),
    (T97_SW, K, 3, True, A, "§7 J/A switch: stop at A"),
    (T97_SW, A, 2, True, JOKER, "§7 J/A + joker_override: Joker is must-play"),
    (rules("tractor97", must_play=(2, J, A), joker_override=False), A, 2, True, 2,
     "§7 J/A without joker_override: Joker not must-play; match_end none cycles"),
    (rules("tractor97"), A, 1, True, JOKER, "§2 Joker level after A"),
    (rules("tractor97"), JOKER, 1, True, 2, "§7 001 cycles"),
    (rules("tractor97", two_is_trump=True), 3, 2, True, 5, "§7 two_is_trump: start at 3"),
    (rules("tractor97", two_is_trump=True, must_play=(2, 5)), 3, 3, True, 5,
     "§7 two_is_trump: 3 must-play, 5 stops"),
    (rules("80fen"), 5, 2, False, 5, "§8b 80fen: a gate left only after defending it"),
    (rules("80fen"), 5, 2, True, 7, "§8b 80fen: defended gate"),
    (rules("80fen"), 3, 4, True, 5, "§8b 80fen: stop at the gate 5"),
    (rules("shengji-io"), J, 4, True, A, "§8 shengji-io: must_play A"),
])
def test_raise(rs, level, steps, defended, expect, source):
    assert raise_level(rs, level, steps, defended=defended) == expect, source


def test_hand_outcome_cases():
    # §7 next dealer: the dealers keep → partner deals; attackers take → the next seat (N → W)
    out = hand_outcome(STD, {"NS": 5, "EW": 3}, "N", 40)
    assert out.next_dealer == "S" and out.levels == {"NS": 6, "EW": 3}
    out = hand_outcome(STD, {"NS": 5, "EW": 3}, "N", 120)
    assert out.next_dealer == "W" and out.levels == {"NS": 5, "EW": 4}
    out = hand_outcome(STD, {"NS": 5, "EW": 3}, "E", 0)
    assert out.next_dealer == "W" and out.levels == {"NS": 5, "EW": 6}
    # §7 hook back at J: the dealers fall back to the start level
    hb = rules(hook_back=(J, A))
    out = hand_outcome(hb, {"NS": J, "EW": 6}, "S", 60, last_trick_rank_hook=True)
    assert out.hooked_back and out.levels["NS"] == 2
    out = hand_outcome(hb, {"NS": 10, "EW": 6}, "S", 60, last_trick_rank_hook=True)
    assert not out.hooked_back and out.levels["NS"] == 11
    # §7 reach_top: the first team to rise to A wins
    out = hand_outcome(STD, {"NS": K, "EW": 6}, "N", 0)
    assert out.match_over and out.winner == "NS"
    out = hand_outcome(STD, {"NS": K, "EW": Q}, "N", 120)
    assert out.levels["EW"] == K and not out.match_over
    # §7 defend_top: dealers at the top level keep the deal → match won (the shengji-io
    # preset's former ending: it now plays on past NoTrump, tests/replay/test_sjio.py)
    io = rules("shengji-io", joker_level=False, match_end="defend_top", must_play=(2, A), must_defend=False)
    out = hand_outcome(io, {"NS": K, "EW": 6}, "N", 0)
    assert not out.match_over and out.levels["NS"] == A
    out = hand_outcome(io, {"NS": A, "EW": 6}, "N", 75)
    assert out.match_over and out.winner == "NS"
    out = hand_outcome(io, {"NS": A, "EW": 6}, "N", 80)
    assert not out.match_over
    # §7 hands:17 (002): highest level; a tie to the side that deals next (台上一方)
    cp = rules("campus")
    out = hand_outcome(cp, {"NS": 7, "EW": 8}, "N", 40, hands_played=17)
    assert out.match_over and out.winner == "NS" and out.next_dealer == "S"  # NS 8 = EW 8, NS deal next
    out = hand_outcome(cp, {"NS": 7, "EW": 8}, "N", 40, hands_played=16)
    assert not out.match_over
    out = hand_outcome(cp, {"NS": 7, "EW": 7}, "N", 80, hands_played=17)
    assert out.match_over and out.winner == "EW"  # tie 7/7, EW (W) deals next
    # §7 none (001) never ends
    out = hand_outcome(rules("tractor97"), {"NS": JOKER, "EW": 6}, "N", 0)
    assert not out.match_over


# -- §6 throw_forced lowest (80fen), penalties in a replayed hand -----------------------------

def test_forced_lowest_vs_smallest():
    # §6 smallest: the single ♠Q (1 card); §8b/docs 80fen `lowest`: the failing unit with the lowest top, ♠99
    others = ["SK", "S10 S10", ""]
    assert sorted(throw(STD, 2, H, "SQ S9 S9", others).forced.cards) == sorted(C("SQ"))
    assert sorted(throw(rules("80fen"), 2, H, "SQ S9 S9", others).forced.cards) == sorted(C("S9 S9"))


def _game(rules_name, dealer, tricks, **tags):
    from notation.model import Hand, Levels, Play, Record, Tag, Trick
    from primitives.diagnostics import Span
    from replay.game import replay
    ts = []
    for line, plays in enumerate(tricks, 10):
        out = []
        for i, p in enumerate(plays):
            seat, _, cards = p.partition(":")
            attempted = None
            if "->" in cards:
                a, _, cards = cards.partition("->")
                attempted = C(a)
            out.append(Play(seat=seat.strip(), cards=C(cards), attempted=attempted,
                            span=Span(line, 1 + 10 * i, line, 10 + 10 * i)))
        ts.append(Trick(number=None, plays=out, span=Span(line, 1, line, 40)))
    rec = Record(tags=[Tag(name="Rules", value=rules_name)] + [Tag(name=f"Rule.{k}", value=v) for k, v in tags.items()],
                 hands=[Hand(number=1, levels=Levels(ns=2, ew=2), dealer=dealer, trump=H, tricks=ts)])
    return replay(rec)


@pytest.mark.parametrize("rules_name,tags,thrower_is_dealer_team,expect,source", [
    ("campus", {}, True, +20, "§6 per_card: a defender's failed 2-card throw adds 20 to the attackers"),
    ("campus", {}, False, -20, "§6 per_card: an attacker's failed throw subtracts 20"),
    ("shengji-io", {}, True, 0, "§8 table: shengji-io throw_penalty none (§6 names per_attempt as "
     "shengji.io's option; the preset table wins: ambiguity noted)"),
    ("shengji-io", {"throw_penalty": "per_attempt"}, True, +10, "§6 per_attempt: 10 per failed throw"),
    ("standard", {"throw_penalty": "per_attempt"}, False, -10, "§6 per_attempt against the attackers"),
    ("standard", {}, True, 0, "§6 none"),
])
def test_penalty_sign(rules_name, tags, thrower_is_dealer_team, expect, source):
    # 2-card hands (kitty 100): N leads ♠A♠Q (fails: E holds ♠K), forced ♠Q
    dealer = "N" if thrower_is_dealer_team else "E"
    t1 = ["N: SA SQ -> SQ", "W: S3", "S: S4", "E: SK"]
    t2 = ["E: C2", "N: SA", "W: C4", "S: C5"]
    if not thrower_is_dealer_team:
        # E deals; N must lead trick 1 for the check: let E lead a card N wins first
        t1 = ["E: C3", "N: CA", "W: C4", "S: C5"]
        t2 = ["N: SA SQ -> SQ", "W: S3", "S: S4", "E: SK"]
    m = _game(rules_name, dealer, [t1, t2], kitty_size="100", **tags)
    assert not [d for d in m.diagnostics if d.code in ("SJ406", "SJ407", "SJ401", "SJ403")], m.diagnostics
    assert m.hands[0].penalties == expect, source


# -- §6 winning: a play is compared by its highest matching units (found by this audit) ----------

@pytest.mark.parametrize("rs,level,trump,plays,winner,source", [
    # lead ♠77 + three singles; E's ♣10♣10♣10♣8♣8 holds the pair of 10s, above W's ♣99
    (TIT, 3, CL, ["SJ S7 S7 S6 S2", "CK C9 C9 C4 C4", "C5 C5 C5 C4 C2", "C10 C10 C10 C8 C8"], 3,
     "§6 largest_unit (seed 001: compare pairs): E's pair of 10s beats W's 9s"),
    (TIT, K, S, ["HA HQ HQ HJ H8 H7", "DK SJ S8 S8 S7 S7", "S10 S10 S10 S8 S8 S3", "SQ SJ SJ SJ S8 S8"], 3,
     "§6 largest_unit: ♠JJ (from a triple) > ♠10 10 > ♠88"),
    (TIT, 6, NT, ["CA CQ C10 C8 C4 C4", "LJ LJ LJ D6 C6 C6", "BJ LJ LJ LJ S6 C6", "LJ S6 S6 H6 H6 D6"], 1,
     "§6 largest_unit: W's LJ pair ties S's and came first"),
    (rules(decks=3), 2, H, ["SA SK SK", "H5 H5 H5", "H3 H4 H4", "D3 D4 D4"], 1,
     "§6 a ruff H5H5H5 is pair 55 + single 5 for a pair + single lead"),
])
def test_winner_highest_units(rs, level, trump, plays, winner, source):
    o = order(rs, level, trump)
    assert trick_winner([C(p) for p in plays], o, rs).index == winner, source


@pytest.mark.parametrize("plays,winner,source", [
    (["SA SK SQ", "HQ HJ HJ", "HK H8 H8", "S3 S4 S5"], 2,
     "seed 001 甩牌: AKQ ruffed by QJJ and K88: singles compared, K wins, the later ruff"),
    (["SA SK SK", "HQ HJ HJ", "HK H8 H8", "S3 S4 S5"], 1,
     "seed 001 甩牌: AKK ruffed by QJJ and K88: pairs compared, JJ wins, the earlier ruff"),
])
def test_seed001_throw_ruffs(plays, winner, source):
    rs = rules("tractor97")
    assert trick_winner([C(p) for p in plays], order(rs, 2, H), rs).index == winner, source


def test_cover_fallback_four_decks():
    # §6 four decks: ♥KKKK♥QQQ covers a triple + two pairs only as QQQ + KK + KK (the
    # highest-first choice KKK leaves one pair); the ruff matches and wins
    rs = rules(decks=4)
    plays = ["SA SA SA S9 S9 S6 S6", "HK HK HK HK HQ HQ HQ", "S2 S3 S4 S5 S7 S8 S10", "D3 D4 D5 D6 D7 D8 D9"]
    o = order(rs, 2, H)
    assert [(u.width, u.length) for u in decompose(C(plays[0]), o)] == [(3, 1), (2, 1), (2, 1)]
    w = trick_winner([C(p) for p in plays], o, rs)
    assert w.index == 1 and w.ruffed
