"""Sets, beating and 够级 sets (GOUJI.md §3), table-driven."""

from __future__ import annotations

import pytest

from primitives.gjcards import parse_cards
from replay.gouji.sets import GOUJI_THRESHOLDS, beats, info, is_gouji_set, unbeatable


def R(text: str) -> tuple[int, ...]:
    return tuple(c >> 3 for c in parse_cards(text))


# (B, T, compare, B beats T) — §3 Beating
BEATING = [
    ("KKK", "QQQ", "position", True),
    ("QQQ", "QQQ", "position", False),            # strictly higher
    ("KK2", "QQQ", "position", True),             # a 2 counts as the base rank
    ("Q22", "JJJ", "position", True),
    ("BJ 99", "LJ 88", "position", True),          # §11 example 2
    ("LJ 99", "BJ 88", "position", False),         # card by card: LJ < BJ
    ("LJ 99", "BJ 88", "wild", True),              # wild: the base decides
    ("2222", "AAAA", "position", True),
    ("A2", "KK", "position", True),
    ("A2", "K LJ", "position", False),             # the LJ is above A
    ("A2", "K LJ", "wild", True),
    ("22", "AA", "wild", True),                    # no base: the lowest card
    ("LJ 2", "BJ A", "wild", True),                # rank 2 (lowest card) > A
    ("KKKK", "QQQ", "position", False),            # count must match
    ("99", "88", "position", True),
    ("99", "99", "wild", False),
]


@pytest.mark.parametrize("b,t,compare,want", BEATING)
def test_beating(b, t, compare, want):
    assert beats(info(R(b)), info(R(t)), compare) is want


@pytest.mark.parametrize("text,compare,want", [
    ("BJ", "position", True), ("BJ 33", "position", True), ("BJ LJ", "position", True),
    ("BJ 33", "wild", False), ("BJBJ", "wild", True), ("LJ", "position", False), ("2222", "position", False),
])
def test_unbeatable(text, compare, want):  # §3 Unbeatable
    assert unbeatable(info(R(text)), compare) is want


@pytest.mark.parametrize("text,want", [
    ("1010101010", True), ("10101010", False), ("10101010 2", True),
    ("JJJJ", True), ("JJJ", False), ("JJ22", True),
    ("QQQ", True), ("QQ", False), ("Q2", False), ("Q22", True),
    ("KK", True), ("K", False), ("K2", True),
    ("AA", True), ("A", False),
    ("999999999", False), ("9 LJ", True), ("3 BJ", True),
    ("2", True), ("22", True), ("LJ", True), ("BJ", True),
])
def test_gouji_thresholds(text, want):  # §3 够级 set table
    assert is_gouji_set(R(text)) is want


def test_threshold_table_is_the_contract():
    assert GOUJI_THRESHOLDS == {10: 5, 11: 4, 12: 3, 13: 2, 14: 2}


@pytest.mark.parametrize("text,ok,base", [
    ("KKK", True, 13), ("KK2", True, 13), ("BJ LJ 22", True, 0), ("K Q", False, None), ("K Q 2", False, None),
])
def test_wellformed(text, ok, base):  # §3 Set (GJ301)
    s = info(R(text))
    assert s.wellformed is ok
    if ok:
        assert s.base == base
