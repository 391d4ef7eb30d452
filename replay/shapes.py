"""The unit, the value every rule of play is written in (RULES.md §3, §6):
``width`` identical cards repeated over ``length`` adjacent ranks, and the
names of its shapes for messages. Below :mod:`replay.order` (which builds each
card's single once per hand), :mod:`replay.units` (the project's unit rules)
and :mod:`replay.sjio` (shengji.io's), which all speak of units."""

from __future__ import annotations

from typing import NamedTuple


class Unit(NamedTuple):
    width: int
    length: int
    top: int
    cards: tuple[int, ...]

    @property
    def size(self) -> int:
        return self.width * self.length

    @property
    def shape(self) -> tuple[int, int]:
        return (self.width, self.length)

    @property
    def is_tractor(self) -> bool:
        return self.length >= 2


def shape_name(width: int, length: int) -> str:
    if length >= 2:
        base = "Titanic" if width == 3 else "tractor" if width == 2 else f"{width}-wide tractor"
        return f"{base} of {length} {'triples' if width == 3 else 'pairs' if width == 2 else 'tuples'}"
    return {1: "single", 2: "pair", 3: "triple", 4: "quadruple"}.get(width, f"{width}-tuple")
