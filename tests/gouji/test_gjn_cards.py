"""GJN card spelling (GOUJI.md §10 "Cards") and the Gouji card ints of primitives.gjcards."""

import pytest

from primitives import gjcards as g
from primitives.gjcards import ANY, BJ, HEARTS, LJ, SPADES, TWO, CardError, make, parse_group


@pytest.mark.parametrize("text, expected", [
    ("9999", (make(9),) * 4),
    ("KK2", (make(13), make(13), make(TWO))),
    ("BJLJ", (BJ, LJ)),
    ("S33", (make(3, SPADES),) * 2),
    ("♥3", (make(3, HEARTS),)),
    ("10", (make(10),)),
    ("T10", (make(10),) * 2),
    ("kk2", (make(13), make(13), make(TWO))),
    ("bjlj", (BJ, LJ)),
    ("大王小王", (BJ, LJ)),
    ("s3", (make(3, SPADES),)),
    ("JBJ", (make(11), BJ)),
    ("QLJ", (make(12), LJ)),
])
def test_groups(text, expected):
    assert parse_group(text) == expected


@pytest.mark.parametrize("text", ["S", "X3", "3S3", "SBJ", "1", "11", "K+", ""])
def test_bad_groups(text):
    with pytest.raises(CardError):
        parse_group(text)


def test_no_suit_carries():  # §10: unlike SJN, a group without suit is suit-free
    assert g.parse_cards("S33 3") == (make(3, SPADES),) * 2 + (make(3),)


def test_order_is_gouji_order():  # §1: BJ > LJ > 2 > A > K > … > 3
    ranks = [g.rank_of(c) for c in g.parse_cards("BJ LJ 2 A K Q J 10 9 8 7 6 5 4 3")]
    assert ranks == sorted(ranks, reverse=True)
    assert len(set(ranks)) == 15


def test_tidy_text():  # §10 tidy form: high→low, one group per rank, 3s keep suits
    cards = g.parse_cards("3 10 BJ S3 2 10 LJ BJ 2 2 10 H3 S3")
    assert g.cards_text(cards) == "BJBJ LJ 222 101010 3 S33 H3"


def test_matches():
    assert g.matches(make(3), make(3, SPADES))
    assert g.matches(make(3, SPADES), make(3, SPADES))
    assert not g.matches(make(3, HEARTS), make(3, SPADES))
    assert not g.matches(make(4), make(3))
    assert g.suit_of(BJ) == ANY and g.is_joker(LJ) and not g.is_joker(make(TWO))
