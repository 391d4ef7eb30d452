"""Sets, beating and 够级 sets (GOUJI.md §3), on rank ints.

A set is handled as its ranks (:mod:`primitives.gjcards` order: 3..14 for 3…A,
15 the 2, 16 LJ, 17 BJ), sorted high → low. :func:`info` analyses a set once
(cached) into a :class:`SetInfo` tuple; the hot path compares those.
"""

from __future__ import annotations

from typing import NamedTuple

from primitives.gjcards import BJ_RANK, LJ_RANK, TWO

#: 够级 thresholds (§3): base rank → base cards + 2s needed (bases 3–9 need a joker)
GOUJI_THRESHOLDS: dict[int, int] = {10: 5, 11: 4, 12: 3, 13: 2, 14: 2}


class SetInfo(NamedTuple):
    n: int
    #: the base rank; 0 when the set has only 2s and jokers
    base: int
    #: False when cards other than 2s and jokers have two ranks (GJ301)
    wellformed: bool
    #: ranks high → low with 2s counted as the base (compare=position)
    pos_key: tuple[int, ...]
    #: the set's rank under compare=wild: its base, else its lowest card
    wild_rank: int
    jokers: int
    has_bj: bool
    only_bj: bool
    #: holds a 3 (bie3)
    threes: int
    #: a 够级 set (§3 table)
    gouji: bool


_CACHE: dict[tuple[int, ...], SetInfo] = {}


def info(ranks: tuple[int, ...]) -> SetInfo:
    """The analysis of the set of ``ranks`` (any order)."""
    got = _CACHE.get(ranks)
    if got is not None:
        return got
    key = tuple(sorted(ranks, reverse=True))
    got = _CACHE.get(key)
    if got is None:
        got = _analyse(key)
        if len(_CACHE) < 200_000:  # (bounded: a file of many different sets does not grow it)
            _CACHE[key] = got
    if len(_CACHE) < 200_000:
        _CACHE[ranks] = got
    return got


def _analyse(desc: tuple[int, ...]) -> SetInfo:
    n = len(desc)
    plain = [r for r in desc if r < TWO]
    kinds = sorted(set(plain))
    wellformed = len(kinds) <= 1
    if not kinds:
        base = 0
    elif wellformed:
        base = kinds[0]
    else:  # malformed: judge by its most frequent rank (highest on ties)
        base = max(kinds, key=lambda r: (plain.count(r), r))
    twos = desc.count(TWO)
    jokers = sum(1 for r in desc if r >= LJ_RANK)
    has_bj = BJ_RANK in desc
    if base:
        pos = tuple(sorted((base if r == TWO else r for r in desc), reverse=True))
        wild = base if wellformed else min(kinds)
    else:
        pos = desc
        wild = desc[-1] if desc else 0
    if jokers:
        gouji = True
    elif not base:
        gouji = n > 0
    else:
        need = GOUJI_THRESHOLDS.get(base)
        gouji = need is not None and plain.count(base) + twos >= need
    return SetInfo(n, base, wellformed, pos, wild, jokers, has_bj,
                   n > 0 and all(r == BJ_RANK for r in desc), desc.count(3), gouji)


def beats(b: SetInfo, t: SetInfo, compare: str) -> bool:
    """Does set ``b`` beat top ``t`` (same size required)?"""
    if b.n != t.n:
        return False
    if compare == "wild":
        return b.wild_rank > t.wild_rank
    for x, y in zip(b.pos_key, t.pos_key):
        if x <= y:
            return False
    return True


def unbeatable(s: SetInfo, compare: str) -> bool:
    """Nothing can beat it (position: any BJ; wild: only BJs): it ends the round."""
    return s.only_bj if compare == "wild" else s.has_bj


def is_gouji_set(ranks: tuple[int, ...]) -> bool:
    return info(ranks).gouji


__all__ = ["GOUJI_THRESHOLDS", "SetInfo", "beats", "info", "is_gouji_set", "unbeatable"]
