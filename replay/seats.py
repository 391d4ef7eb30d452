"""The one seat type of the engine: :class:`Seat`.

Fixed partners play with the compass seats ``N W S E`` (in play order,
counter-clockwise); finding friends (找朋友) numbers the table ``P1``…``Pn``
(4–8 players). One :class:`~enum.IntEnum` covers both, so a seat is a small
int on the hot path and prints as its name::

    >>> Seat.N.next(), Seat.N.partner()
    (<Seat.W: 1>, <Seat.S: 2>)
    >>> Seat.P6.next(6)
    <Seat.P1: 4>

Records and the notation keep seats as strings (``"N"``, ``"P3"``):
``Seat[name]`` and ``str(seat)`` convert.
"""

from __future__ import annotations

from enum import IntEnum


class Seat(IntEnum):
    """A seat: compass ``N W S E`` (values 0–3, play order) or numbered ``P1``…``P8`` (4–11)."""

    N = 0
    W = 1
    S = 2
    E = 3
    P1 = 4
    P2 = 5
    P3 = 6
    P4 = 7
    P5 = 8
    P6 = 9
    P7 = 10
    P8 = 11

    def __str__(self) -> str:
        return self.name

    @property
    def numbered(self) -> bool:
        """``P1``…``P8`` (a finding-friends table), not a compass seat."""
        return self.value >= 4

    @property
    def index(self) -> int:
        """The seat's place at its table, 0-based (``N`` 0 … ``E`` 3; ``P1`` 0 … ``P8`` 7)."""
        return self.value - 4 if self.value >= 4 else self.value

    def next(self, players: int = 4, k: int = 1) -> Seat:
        """The seat ``k`` turns after this one at a table of ``players``
        (compass seats: always 4)."""
        if self.value < 4:
            return _COMPASS[(self.value + k) % 4]
        if not 4 <= players <= 8 or self.value - 4 >= players:
            raise ValueError(f"{self.name} does not sit at a table of {players}")
        return _NUMBERED[(self.value - 4 + k) % players]

    def partner(self) -> Seat:
        """The seat opposite (fixed partners: four seats only; ``P1``↔``P3`` at a numbered table of 4)."""
        if self.value < 4:
            return _COMPASS[(self.value + 2) % 4]
        if self.value >= 8:
            raise ValueError(f"{self.name}: partners exist at a table of four only")
        return _NUMBERED[(self.value - 4 + 2) % 4]

    @property
    def team(self) -> str:
        """Fixed partners: ``NS`` or ``EW``."""
        if self.value >= 4:
            raise ValueError(f"{self.name}: fixed teams exist for compass seats only")
        return "NS" if self.value % 2 == 0 else "EW"


_COMPASS: tuple[Seat, ...] = (Seat.N, Seat.W, Seat.S, Seat.E)
_NUMBERED: tuple[Seat, ...] = (Seat.P1, Seat.P2, Seat.P3, Seat.P4, Seat.P5, Seat.P6, Seat.P7, Seat.P8)

#: the compass seats in play order
COMPASS: tuple[Seat, ...] = _COMPASS
#: the numbered seats of the largest table
NUMBERED: tuple[Seat, ...] = _NUMBERED
#: the compass seats' names in play order (records write seats as strings)
SEATS: tuple[str, ...] = tuple(s.name for s in _COMPASS)
#: the numbered seats' names
NUMBERED_SEATS: tuple[str, ...] = tuple(s.name for s in _NUMBERED)


def table(players: int = 4, numbered: bool = False) -> tuple[Seat, ...]:
    """The seats of a table in play order: ``N W S E``, or ``P1``…``Pn``."""
    if players == 4 and not numbered:
        return COMPASS
    if not 4 <= players <= 8:
        raise ValueError(f"a table seats 4–8 players, not {players}")
    return _NUMBERED[:players]


def table_names(players: int = 4, numbered: bool = False) -> tuple[str, ...]:
    """:func:`table` as the seats' names (``("N", "W", "S", "E")``, ``("P1", …)``)."""
    if players == 4 and not numbered:
        return SEATS
    return NUMBERED_SEATS[:players] if 4 <= players <= 8 else tuple(s.name for s in table(players, numbered))


__all__ = ["Seat", "COMPASS", "NUMBERED", "SEATS", "NUMBERED_SEATS", "table", "table_names"]
