"""The search's lean node (:class:`Position`, from a state by :func:`position_of`),
the types of its tables and :class:`SearchBudgetExceeded` (see the package doc)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from replay.seats import SEATS as SEAT_ORDER
from replay.seats import Seat
from replay.state import HandState

INF = 10 ** 9

Hands = tuple[tuple[int, ...], ...]
Play = tuple[int, ...]
#: per seat index: (card, representative) pairs of interchangeable single cards
Reps = tuple[tuple[tuple[int, int], ...], ...]
#: a transposition-table key (:meth:`Solver.key`)
TableKey = tuple[int, tuple[tuple[int, ...], ...]]


class SearchBudgetExceeded(RuntimeError):
    """The solver's node budget (``max_nodes``) ran out before an answer.

    The solver stays usable: its table holds only proven bounds, so a later
    question (with a larger budget) goes on from what was learnt.
    """


class Position(NamedTuple):
    """A node of the search: holdings by seat index (``SEAT_ORDER`` N W S E),
    the leader's seat index and the plays already made in this trick (cards
    removed from ``hands``)."""

    hands: Hands
    leader: int
    plays: tuple[Play, ...] = ()

    @property
    def to_move(self) -> int:
        """Seat index of the player to move."""
        return (self.leader + len(self.plays)) % 4

    @property
    def terminal(self) -> bool:
        return not self.plays and not any(self.hands)


#: what a question is asked about: the engine's state, or the search's lean copy of it
Node = HandState | Position


def position(hands: Sequence[Iterable[int]], leader: int | str, plays: Sequence[Iterable[int]] = ()) -> Position:
    """A :class:`Position` from any card iterables; ``leader`` a seat letter or index.

    ``hands`` are the holdings at the start of the trick; the cards of
    ``plays`` are taken out of them here.
    """
    lead_i = Seat[leader].value if isinstance(leader, str) else int(leader)
    hs = [list(h) for h in hands]
    ps = tuple(tuple(sorted(p)) for p in plays)
    for k, p in enumerate(ps):
        h = hs[(lead_i + k) % 4]
        for c in p:
            h.remove(c)
    return Position(tuple(tuple(sorted(h)) for h in hs), lead_i, ps)


def position_of(state: HandState) -> Position:
    """The search's :class:`Position` of a four-seat :class:`replay.state.HandState`
    (its holdings now, its leader and the current trick's plays)."""
    if state.seats != SEAT_ORDER:
        raise ValueError("the endgame search plays fixed partners at N W S E")
    hands = tuple(tuple(sorted(state.holding(s).elements())) for s in SEAT_ORDER)
    return Position(hands, Seat[state.leader].value, tuple(tuple(sorted(c)) for _, c in state.plays))


def minus(hand: tuple[int, ...], play: Play) -> tuple[int, ...]:
    if len(play) == 1:
        i = hand.index(play[0])
        return hand[:i] + hand[i + 1:]
    h = list(hand)
    for c in play:
        h.remove(c)
    return tuple(h)
