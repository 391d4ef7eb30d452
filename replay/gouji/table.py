"""Seats and teams (GOUJI.md §1): seats are ints 0..5 for P1..P6.

Play goes P1 → P2 → … → P6 → P1; ``nxt(x)`` is x's 下家, ``opp(x)`` (three
seats on) x's 对头. Teams (联邦): odd P1 P3 P5 (team 0), even P2 P4 P6 (team 1).
"""

from __future__ import annotations

SEAT_NAMES: tuple[str, ...] = ("P1", "P2", "P3", "P4", "P5", "P6")
SEAT_OF: dict[str, int] = {n: i for i, n in enumerate(SEAT_NAMES)}
TEAM_NAMES: tuple[str, str] = ("odd", "even")
#: seats of each team
TEAMS: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 2, 4), (1, 3, 5))
#: the other seats in play order from next(x): RING[x] = (x+1, …, x+5)
RING: tuple[tuple[int, ...], ...] = tuple(tuple((x + i) % 6 for i in range(1, 6)) for x in range(6))
#: place → points (§6): 头科 4, 二科 2, 三科 0, 四科 0, 二落 −2, 大落 −4
PLACE_POINTS: tuple[int, ...] = (0, 4, 2, 0, 0, -2, -4)
PLACE_NAMES: tuple[str, ...] = ("", "头科", "二科", "三科", "四科", "二落", "大落")


def nxt(x: int) -> int:
    return (x + 1) % 6


def opp(x: int) -> int:
    return (x + 3) % 6


def team(x: int) -> int:
    return x & 1


def name(x: int) -> str:
    return SEAT_NAMES[x]


__all__ = [
    "PLACE_NAMES",
    "PLACE_POINTS",
    "RING",
    "SEAT_NAMES",
    "SEAT_OF",
    "TEAMS",
    "TEAM_NAMES",
    "name",
    "nxt",
    "opp",
    "team",
]
