"""Card spellings: every accepted way of writing cards, and the bad ones."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation import parse
from notation.reader import CardError, split_cards
from primitives.cards import BJ, LJ, make

SA, SK, H10, H9, HQ, D2, C3 = make(0, 14), make(0, 13), make(1, 10), make(1, 9), make(1, 12), make(2, 2), make(3, 3)

SPELLINGS = [
    # (written, cards)
    ("SA", (SA,)),
    ("♠A", (SA,)),
    ("♤A", (SA,)),
    ("sa", (SA,)),             # case does not matter in cards
    ("Sa", (SA,)),
    ("SAKK", (SA, SK, SK)),
    ("SA SK SK", (SA, SK, SK)),
    ("♠A♠K♠K", (SA, SK, SK)),  # the suit may be repeated inside a group
    ("♠AKK", (SA, SK, SK)),
    ("SASKSK", (SA, SK, SK)),
    ("H10109", (H10, H10, H9)),
    ("H10 10 9", (H10, H10, H9)),  # three groups: ranks alone continue the suit
    ("HT", (H10,)),
    ("HTT9", (H10, H10, H9)),
    ("H10 T 9", (H10, H10, H9)),
    ("♥Q", (HQ,)),
    ("♡Q", (HQ,)),
    ("D2D2", (D2, D2)),
    ("♦2 ♢2", (D2, D2)),
    ("♣3", (C3,)),
    ("♧3", (C3,)),
    ("BJ", (BJ,)),
    ("bj", (BJ,)),
    ("大王", (BJ,)),
    ("LJ", (LJ,)),
    ("lj", (LJ,)),
    ("小王", (LJ,)),
    ("BJ BJ LJ", (BJ, BJ, LJ)),
    ("SA K", (SA, SK)),
    ("H9 10 SA K", (H9, H10, SA, SK)),
]


@pytest.mark.parametrize("written, cards", SPELLINGS)
def test_spelling(written, cards):
    assert split_cards(written) == cards


@pytest.mark.parametrize("written, cards", SPELLINGS)
def test_spelling_in_every_card_position(written, cards):
    text = (f"hand 1\nN: {written}\nkitty {written}\ndeclare W {written} @3\n"
            f"bury S: {written}\n1. E: {written}  S: {written} -> {written}\n")
    (record,), diags = parse(text)
    assert diags == []
    hand = record.hands[0]
    assert hand.deal[0].cards == cards
    assert hand.kitty == cards
    assert hand.events[0].cards == cards and hand.events[1].cards == cards
    plays = hand.tricks[0].plays
    assert plays[0].cards == cards and plays[1].attempted == cards and plays[1].cards == cards


BAD = [
    # (written, index of the bad group, words in the message)
    ("H11", 0, "bad rank"),
    ("XA", 0, "unknown suit"),
    ("SA XA", 1, "unknown suit"),
    ("10", 0, "no suit"),
    ("BJ 10", 1, "no suit"),
    ("S", 0, "not a card"),
    ("♠", 0, "without a rank"),
    ("SAHK", 0, "one suit"),
    ("H1", 0, "bad rank"),
    ("SA1", 0, "bad rank"),
    ("W", 0, "not a card"),
]


@pytest.mark.parametrize("written, index, words", BAD)
def test_bad_spelling(written, index, words):
    with pytest.raises(CardError) as info:
        split_cards(written)
    assert info.value.index == index
    assert words in str(info.value)


def test_card_lists_read_again_with_their_groups_cached():
    """Once its groups are cached, a list is read in one go; a group of ranks
    alone must still continue the suit before it, and errors stay the same."""
    from notation import reader
    reader._GROUP_CACHE.clear()
    for _ in range(2):  # the second round finds every good group cached
        for written, cards in SPELLINGS:
            assert split_cards(written) == cards, written
        for written, index, words in BAD:
            with pytest.raises(CardError) as info:
                split_cards(written)
            assert info.value.index == index and words in str(info.value), written


def test_seat_is_never_spades():
    """`S:` introduces South's cards; `S…` without a colon is spades."""
    (record,), diags = parse("hand\n1. S: SA  E: S9  N: S5 S10  W: S3\nS: SAKQ\n")
    assert diags == []
    trick = record.hands[0].tricks[0]
    assert [p.seat for p in trick.plays] == ["S", "E", "N", "W"]
    assert trick.plays[2].cards == (make(0, 5), make(0, 10))
    assert record.hands[0].deal[0].seat == "S"


def test_a_bad_card_list_is_reported_every_time():
    """Regression: a cache must never remember a card list that failed."""
    for _ in range(2):
        _, diags = parse("hand\n1. E: 2  S: H3\n")
        assert [d.code for d in diags] == ["SJ102"]


GROUP = st.sampled_from(["SA", "SAKK", "H10109", "10", "9", "K", "BJ", "LJ", "sa", "♠AK", "♠A♠K", "HTT9", "D2D2",
                         "C3", "X9", "S", "S1", "SA♥K", "大王", "1", "H10", "ST", "ßA"])


def _outcome(text):
    try:
        return split_cards(text)
    except CardError as exc:
        return ("CardError", exc.index, str(exc))


@given(st.lists(st.lists(GROUP, min_size=1, max_size=6), min_size=1, max_size=6))
@settings(max_examples=200, deadline=None)
def test_card_lists_read_the_same_whatever_the_cache_holds(lists):
    """A card list reads the same (cards, or the bad group's index and message)
    with no group cached, and again once other lists have filled the cache."""
    from notation import reader
    texts = [" ".join(groups) for groups in lists]
    reader._GROUP_CACHE.clear()
    first = [_outcome(text) for text in texts]
    again = [_outcome(text) for text in reversed(texts)][::-1]
    reader._GROUP_CACHE.clear()
    alone = []
    for text in texts:
        reader._GROUP_CACHE.clear()
        alone.append(_outcome(text))
    assert first == again == alone


def _general_outcome(text):
    from notation.reader._cards import _split_general
    try:
        return _split_general(text.split())
    except CardError as exc:
        return ("CardError", exc.index, str(exc))


@given(st.lists(st.text("SHDCshdc0123456789TJQKAtjqkaBLX♠ß", min_size=1, max_size=7), min_size=1, max_size=5))
@settings(max_examples=300, deadline=None)
def test_groups_read_directly_as_the_general_way_reads_them(groups):
    """A group not cached is read directly when it is an ASCII suit letter and
    ranks (a deal line's long groups): the same cards, or the same error, as
    the general way (`primitives.cards.parse_group`) gives."""
    from notation import reader
    from notation.reader._cards import _usual_groups
    text = " ".join(groups)
    reader._GROUP_CACHE.clear()
    assert _outcome(text) == _general_outcome(text)
    reader._GROUP_CACHE.update(_usual_groups())
    assert _outcome(text) == _general_outcome(text)
