"""The teams of a hand: :class:`Teams`, who is on the dealer's side, as known now.

Teams are a function of the hand. At a fixed-partner table they are known
from the start (the dealer and the seat opposite; :meth:`Teams.fixed`); at a
finding-friends table (找朋友) the dealer starts alone and the team grows as
the friend calls are answered (:meth:`Teams.forming`; :class:`FriendResult`
is one call and its answer). The trick loops ask this one object: the
engine's position (:class:`replay.state.HandState`), its record mode
(:class:`replay.record.RecordState`) and the record replay (:mod:`replay.game`).

Answering a call (shengji.io's ``played`` rule, seed 001's ``held`` rule) is
defined here once: :func:`answer_calls`, :func:`assign_holders`,
:func:`answer_held_calls`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from primitives.cards import to_str
from primitives.diagnostics import Span
from replay.seats import SEATS, Seat


@dataclass(slots=True)
class FriendResult:
    """One friend call and its answer."""

    ordinal: int | None        # the k-th copy (None: the ``held`` rule, or not written)
    card: int
    seat: str | None           # who answered (the dealer: the call is used up); None: nobody
    trick: int | None          # the trick of the reveal
    span: Span

    @property
    def text(self) -> str:
        ordinal = f"{ordinal_text(self.ordinal)} " if self.ordinal else ""
        return f"{ordinal}{to_str(self.card, unicode=True)}"


def ordinal_text(k: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``…"""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def answer_calls(calls: list[FriendResult], skips: list[int], team: list[str], trick: int,
                 plays: Iterable[tuple[str, Sequence[int]]]) -> None:
    """The ``played`` rule for one trick (shengji.io): each copy of a called card,
    in play order, counts down its call's ordinal; the copy that reaches it answers
    the call. A player already on the team (the dealer, or a friend) uses the call
    up without adding anyone. ``plays``: ``(seat, cards)`` in play order; ``skips``
    and ``team`` (dealer first) are updated in place."""
    for seat, cards in plays:
        for card in cards:
            for k, call in enumerate(calls):
                if call.card != card or call.seat is not None:
                    continue
                if skips[k] > 0:
                    skips[k] -= 1
                    continue
                call.seat, call.trick = seat, trick
                if seat not in team:
                    team.append(seat)


def assign_holders(calls: list[FriendResult], ring: Sequence[str], holdings: Mapping[str, Mapping[int, int]]) -> None:
    """The ``held`` rule before play (seed 001 §4): each call's partner is the
    holder of the card nearest the dealer in play order (``ring``: the dealer
    first); None when the dealer holds every copy."""
    for call in calls:
        call.seat = next((s for s in ring[1:] if holdings[s][call.card]), None)


def answer_held_calls(calls: list[FriendResult], team: list[str], trick: int,
                      plays: Iterable[tuple[str, Sequence[int]]]) -> None:
    """The ``held`` rule for one trick (seed 001 §4): a call whose holder is
    known (:func:`assign_holders`) is revealed when the holder first plays the
    card; the holder joins ``team`` (updated in place)."""
    for call in calls:
        if call.seat is not None and call.trick is None and any(
                s == call.seat and call.card in p for s, p in plays):
            call.trick = trick
            if call.seat not in team:
                team.append(call.seat)


#: a snapshot of :class:`Teams` before a trick: each call's answer, the skips left, the team
Snapshot = tuple[tuple[tuple[str | None, int | None], ...], tuple[int, ...], tuple[str, ...]]


class Teams:
    """The dealer's team of one hand, as known now (see the module doc).

    ``members``: the dealer's team (dealer first; empty when the dealer is not
    known). ``settled``: the teams are known from the start and never change
    (fixed partners), so a trick can be given to a side as it is played;
    ``attackers``: then the seats outside the team (None when not settled, or
    no dealer is known). ``calls``: the friend calls (finding friends), answered
    by :meth:`answer` as the tricks are played (``held``: by seed 001's rule).
    """

    __slots__ = ("members", "settled", "attackers", "calls", "skips", "held")

    def __init__(self, members: Sequence[str], *, settled: bool, attackers: frozenset[str] | None = None,
                 calls: list[FriendResult] | None = None, held: bool = False) -> None:
        self.members: list[str] = list(members)
        self.settled = settled
        self.attackers = attackers
        self.calls: list[FriendResult] = calls if calls is not None else []
        self.skips: list[int] = [(c.ordinal or 1) - 1 for c in self.calls] if calls else []
        self.held = held

    @classmethod
    def fixed(cls, dealer: str | None, seats: tuple[str, ...] = SEATS) -> Teams:
        """Fixed partners: the dealer and the seat opposite against the other two
        (nobody known when ``dealer`` is None)."""
        if dealer is None:
            return cls((), settled=True)
        sides = _SIDES.get((seats, dealer)) or fixed_sides(seats, dealer)
        # (built without __init__: once a hand, on lint's path)
        new = object.__new__(cls)
        new.members, new.attackers = list(sides[0]), sides[1]
        new.settled, new.calls, new.skips, new.held = True, [], [], False
        return new

    @classmethod
    def forming(cls, dealer: str | None, calls: list[FriendResult] | None = None, *, held: bool = False) -> Teams:
        """Finding friends: the dealer alone, joined by whoever answers a call
        (``held``: seed 001's rule, the holders named before play)."""
        return cls(() if dealer is None else (dealer,), settled=False, calls=calls, held=held)

    @classmethod
    def given(cls, members: Sequence[str]) -> Teams:
        """A team given as it stands (a position set up from the middle of a hand)."""
        return cls(members, settled=True)

    @property
    def team(self) -> tuple[str, ...]:
        return tuple(self.members)

    def defends(self, seat: str) -> bool:
        """Is ``seat`` on the dealer's team (as known now)?"""
        return seat in self.members

    def answer(self, trick: int, plays: Sequence[tuple[str, Sequence[int]]]) -> None:
        """The calls answered by a finished trick's plays (nothing without calls)."""
        if self.calls:
            if self.held:
                answer_held_calls(self.calls, self.members, trick, plays)
            else:
                answer_calls(self.calls, self.skips, self.members, trick, plays)

    def snapshot(self) -> Snapshot:
        """What :meth:`restore` puts back (taken before a trick is answered)."""
        return tuple([(c.seat, c.trick) for c in self.calls]), tuple(self.skips), tuple(self.members)

    def restore(self, snap: Snapshot) -> None:
        answers, skips, members = snap
        for call, (seat, trick) in zip(self.calls, answers):
            call.seat, call.trick = seat, trick
        self.skips = list(skips)
        self.members = list(members)

    def copy(self) -> Teams:
        """An independent copy (the calls copied too)."""
        new = object.__new__(Teams)
        new.members = list(self.members)
        new.settled = self.settled
        new.attackers = self.attackers
        new.calls = [FriendResult(c.ordinal, c.card, c.seat, c.trick, c.span) for c in self.calls]
        new.skips = list(self.skips)
        new.held = self.held
        return new


_SIDES: dict[tuple[tuple[str, ...], str], tuple[tuple[str, ...], frozenset[str]]] = {}


def fixed_sides(seats: tuple[str, ...], dealer: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """Fixed partners at four seats: the dealer's team (dealer, partner) and the attackers."""
    sides = _SIDES.get((seats, dealer))
    if sides is None:
        team = (dealer, str(Seat[dealer].partner()))
        sides = _SIDES[(seats, dealer)] = (team, frozenset(s for s in seats if s not in team))
    return sides


__all__ = ["Teams", "FriendResult", "answer_calls", "assign_holders", "answer_held_calls", "fixed_sides",
           "ordinal_text"]
