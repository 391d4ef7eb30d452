"""Questions about a trick in progress (replay.legal): can a seat still beat
the trick with a legal follow, and which legal follows carry the fewest and
the most points. Cases follow RULES.md §6 ("Following", "Winning")."""

from collections import Counter

import pytest

from primitives.cards import parse_cards as C
from replay.legal import beating_follow, follow_extremes
from replay.order import Order
from replay.ruleset import preset

H = 1
ORDER = Order(2, H)  # level 2, hearts trump
RS = preset("standard")


@pytest.mark.parametrize("plays,holding,expect,source", [
    (["SK"], "SA S3", "SA", "§6 a higher card of the led suit wins"),
    (["SK"], "SQ S3", None, "§6 holding the suit but nothing higher: cannot win"),
    (["SK"], "H5 D3", "H5", "§6 void in a plain led suit: any trump ruffs"),
    (["SK"], "D3 CA", None, "§6 void and no trump: an off-suit card never wins"),
    (["SK", "SA"], "S3 H5", None, "§6 holding the led suit, a trump may not be played"),
    (["SKK"], "SAA S3", "SAA", "§6 a higher pair beats a pair"),
    (["SKK"], "SA SQ S3", None, "§6 no pair of the suit: a pair lead cannot be beaten"),
    (["H5"], "SA BJ", "BJ", "§2 the big joker is the highest trump"),
    (["H5", "BJ"], "LJ HA", None, "§6 nothing beats the big joker"),
])
def test_beating_follow(plays, holding, expect, source):
    got = beating_follow([tuple(C(p)) for p in plays], Counter(C(holding)), ORDER, RS)
    assert (tuple(sorted(got)) if got else None) == (tuple(sorted(C(expect))) if expect else None), source


@pytest.mark.parametrize("lead,holding,low,high,source", [
    ("SK", "S10 S3 H5", "S3", "S10", "§6 a single must be of the led suit when one is held"),
    ("SK", "HK H3 D5", "H3", "HK", "§6 void: any card, from the fewest points to the most"),
    ("SKK", "S55 S10 S3", "S55", "S55", "§6 a pair lead obliges the pair held, even at 10 points"),
    ("SKK", "S10 S3 D55", "S10 S3", "S10 S3", "§6 the whole suit when it is short of the lead"),
    ("SK", "H2 S2 C3 D4", "C3", "C3", "§2 void: a level card or trump is never the cheapest zero-point discard"),
    ("SK", "BJ C9 D3", "D3", "D3", "§2 void: the joker is not spent when a low plain card does"),
    ("H5", "H3 HA BJ", "H3", "H3", "§6 trump lead: the weakest zero-point trump"),
])
def test_follow_extremes(lead, holding, low, high, source):
    lo, hi = follow_extremes(C(lead), Counter(C(holding)), ORDER, RS)
    assert (sorted(lo), sorted(hi)) == (sorted(C(low)), sorted(C(high))), source


@pytest.mark.parametrize("lead,play,void,source", [
    ("SK", "S3", None, "§6 followed suit: nothing shown"),
    ("SK", "D3", "S", "§6 a single off-suit: out of spades"),
    ("SK", "H5", "S", "§6 a ruff: out of spades"),
    ("SKK", "S3 S5", None, "§6 two spades to a pair: nothing shown"),
    ("SKK", "S3 D5", "S", "§6 one spade to a pair: no spade left"),
    ("H5", "S2", None, "§2 a level card is trump: it follows a trump lead"),
    ("H5", "SA", "T", "§6 a side card on a trump lead: out of trumps"),
])
def test_shown_void(lead, play, void, source):
    from replay.legal import shown_void
    from replay.order import TRUMP
    want = {None: None, "S": 0, "T": TRUMP}[void]
    assert shown_void(C(lead), C(play), ORDER) == want, source
    assert shown_void(C(lead), C(play), ORDER, RS) == want, source
    # follow_suit printed (botzone): the obligation is by printed suit, no effective void is shown
    assert shown_void(C(lead), C(play), ORDER, preset("botzone")) is None
