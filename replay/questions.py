"""What a position answers about legality and the trick in progress: :class:`PositionQuestions`.

The part of :class:`replay.state.HandState`'s API that only reads the
position: the legal plays of the seat to play (:meth:`~PositionQuestions.is_legal`,
:meth:`~PositionQuestions.legal_plays` and the like, by :mod:`replay.legal`)
and the questions the bots, the search and the mistake rules ask about the
trick in progress (who is still to play, who can beat it, what a play would
change, the voids shown). :class:`~replay.state.HandState` inherits it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from replay.holdings import Cards
from replay.legal import (
    beating_follow,
    follow_extremes,
    is_legal_follow,
    legal_follows,
    multisets,
    shown_void,
    single_unit_leads,
)
from replay.order import TRUMP, Order
from replay.ruleset import Ruleset
from replay.trick import lead_suit, trick_winner
from replay.units import decompose


class _Finished(Protocol):
    """A finished trick as these questions read it (:class:`replay.state.TrickDone`)."""

    @property
    def plays(self) -> tuple[tuple[str, Cards], ...]: ...


class PositionQuestions:
    """The read-only questions of :class:`replay.state.HandState` (see the module doc)."""

    __slots__ = ()

    if TYPE_CHECKING:  # what HandState provides
        ruleset: Ruleset
        order: Order
        seats: tuple[str, ...]
        _n: int
        _leader: int
        _plays: list[tuple[str, Cards]]

        @property
        def turn(self) -> str: ...

        @property
        def lead(self) -> Cards | None: ...

        @property
        def is_over(self) -> bool: ...

        def holding(self, seat: str) -> Counter[int]: ...

        def _finished(self) -> Sequence[_Finished]: ...

    def is_legal(self, play: Sequence[int]) -> bool:
        """May the seat to play play ``play`` now? A lead is any cards held of
        one effective suit (a throw may fail: :meth:`push` then plays the forced unit)."""
        cards = tuple(play)
        if not cards or self.is_over:
            return False
        hand = self.holding(self.turn)
        if not self._plays:
            if Counter(cards) - hand:
                return False
            if lead_suit(cards, self.order) is None:
                return False
            return self.ruleset.throws or len(cards) == 1 or len(decompose(cards, self.order)) == 1
        return is_legal_follow(self._plays[0][1], hand, cards, self.order, self.ruleset)

    def unit_leads(self) -> list[Cards]:
        """Every distinct single-unit lead of the seat to play (singles, tuples, tractors)."""
        seen: dict[Cards, None] = {}
        for u in single_unit_leads(self.holding(self.turn), self.order):
            seen.setdefault(tuple(sorted(u.cards)), None)
        return list(seen)

    def legal_leads(self) -> Iterator[Cards]:
        """Every distinct legal lead of the seat to play (cards ascending): each
        non-empty multiset of one effective suit, throws included (lazily: a long
        suit has very many)."""
        eff = self.order.eff
        suits: dict[int, dict[int, int]] = {}
        for c, k in self.holding(self.turn).items():
            if k > 0:
                suits.setdefault(eff[c], {})[c] = k
        if not self.ruleset.throws:  # throws: no: a lead is one unit
            yield from sorted(self.unit_leads(), key=lambda m: (eff[m[0]], len(m), m))
            return
        for suit in sorted(suits):
            held = suits[suit]
            for size in range(1, sum(held.values()) + 1):
                yield from multisets(held, size)

    def legal_follows(self, limit: int | None = None) -> list[Cards]:
        """Every distinct legal follow of the seat to play to the current lead (cards ascending)."""
        if not self._plays:
            return []
        return [tuple(sorted(p)) for p in
                legal_follows(self._plays[0][1], self.holding(self.turn), self.order, self.ruleset, limit)]

    def legal_plays(self) -> Iterator[Cards]:
        """Every distinct legal play of the seat to play: :meth:`legal_leads` or :meth:`legal_follows`."""
        if self.is_over:
            return iter(())
        if not self._plays:
            return self.legal_leads()
        return iter(self.legal_follows())

    # -- questions about the trick in progress (what the mistake rules ask) ------------------------

    @property
    def to_play(self) -> tuple[str, ...]:
        """The seats still to play in the current trick, the seat to play
        first (before the lead: every seat, the leader first)."""
        seats, n = self.seats, self._n
        i = (self._leader + len(self._plays)) % n
        return tuple(seats[(i + j) % n] for j in range(n - len(self._plays)))

    @property
    def lead_is_plain(self) -> bool:
        """The current trick's lead is of one plain (non-trump) suit (False before the lead)."""
        lead = self.lead
        return lead is not None and lead_suit(lead, self.order) not in (None, TRUMP)

    def can_beat(self, seat: str) -> bool:
        """Has ``seat`` (still to play in the current trick) a legal follow that
        would beat the best play so far if played next? (RULES §6; the trick has
        a lead: :func:`replay.legal.beating_follow`)"""
        return beating_follow([c for _, c in self._plays], self.holding(seat), self.order, self.ruleset) is not None

    def follow_extremes(self) -> tuple[Cards, Cards]:
        """The seat to play's legal follow with the fewest points and the one
        with the most (ties: the fewest trumps, then the weakest cards;
        :func:`replay.legal.follow_extremes`). The trick has a lead."""
        lead = self.lead
        if lead is None:
            raise ValueError("follow_extremes: the trick has no lead")
        low, high = follow_extremes(lead, self.holding(self.turn), self.order, self.ruleset)
        return tuple(low), tuple(high)

    def winner_if(self, play: Sequence[int]) -> str:
        """The seat that would be winning the current trick had the seat to play
        played ``play`` (the whole trick's winner when ``play`` completes it);
        the state is not moved. A lead wins the trick so far (a throw, failed or not)."""
        if not self._plays:
            return self.turn
        w = trick_winner([c for _, c in self._plays] + [tuple(play)], self.order, self.ruleset)
        return self.turn if w.index == len(self._plays) else self._plays[w.index][0]

    def shown_voids(self, seat: str) -> frozenset[int]:
        """The effective suits (0..3, :data:`replay.order.TRUMP`) ``seat`` has
        shown to be out of in the tricks this state has seen (finished and in
        progress): a follow with fewer cards of the led suit than the lead
        (RULES §6; nothing under ``follow_suit: printed``:
        :func:`replay.legal.shown_void`)."""
        seat = str(seat)
        out: set[int] = set()
        tricks = [t.plays for t in self._finished()]
        if self._plays:
            tricks.append(tuple(self._plays))
        for plays in tricks:
            lead = plays[0][1]
            for s, cards in plays[1:]:
                if s == seat:
                    v = shown_void(lead, cards, self.order, self.ruleset)
                    if v is not None:
                        out.add(v)
        return frozenset(out)


__all__ = ["PositionQuestions"]
