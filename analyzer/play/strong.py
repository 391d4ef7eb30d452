"""A stronger bot for the record generator: the plain :class:`~analyzer.play.bot.Bot`
with an exact endgame (opt-in: ``generate --bot strong``).

The bots are omniscient (the generator shows them every holding), so in the
last tricks the real position can be solved exactly. :class:`StrongBot`
decides as the plain bot does (same draws from the generator's random
stream, same declarations and bury), and when the seat to play holds at most
``tricks`` cards (so at most that many tricks remain) it asks an
:class:`Endgame` search about the position: the plain bot's own choice is
kept when it is among the best moves (fewest changes), else the search's
cheapest best move is played. When the search is cut by its node budget, or
the table is not one the search plays (finding friends: the teams are not
known; tables not seated N W S E), the plain bot's move stands.

The search is given, not imported (the exact search lives in
:mod:`analyzer.review.search`, which itself plays the bots; this package
does not import it): :class:`analyzer.review.search.endgame.ExactEndgame`
is the one the commands and the benches give.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from analyzer.play.bot import Bot
from analyzer.play.views import BotParams, TrickView
from replay.ruleset import Ruleset
from replay.seats import SEATS
from replay.state import HandState

#: tricks from the end at which :class:`StrongBot` solves by default (the seat to play holds at most
#: this many cards); measured in docs/performance.md, "Eighteenth session"
ENDGAME_TRICKS = 6


class Endgame(Protocol):
    """An exact endgame search as :class:`StrongBot` asks it."""

    def __call__(self, state: HandState, proposal: Sequence[int]) -> tuple[int, ...] | None:
        """A best move of the seat to play in ``state`` (a four-seat, fixed-partner
        hand): ``proposal`` when it is among the best, else the search's choice;
        None when the search is cut (the caller keeps ``proposal``)."""
        ...


class StrongBot(Bot):
    """:class:`~analyzer.play.bot.Bot` with an exact endgame in the last ``tricks`` tricks."""

    def __init__(self, ruleset: Ruleset, rng: random.Random, params: BotParams | None = None, *,
                 endgame: Endgame, tricks: int = ENDGAME_TRICKS) -> None:
        super().__init__(ruleset, rng, params)
        self.endgame = endgame
        self.tricks = tricks
        #: decisions asked of the search / kept as the plain bot had them / changed / cut
        self.asked = self.kept = self.changed = self.cut = 0

    @classmethod
    def factory(cls, endgame: Endgame, tricks: int = ENDGAME_TRICKS
                ) -> Callable[[Ruleset, random.Random, BotParams | None], Bot]:
        """A ``make_bot`` for :func:`analyzer.play.generate.generate_match`."""
        def make(ruleset: Ruleset, rng: random.Random, params: BotParams | None = None) -> Bot:
            return cls(ruleset, rng, params, endgame=endgame, tricks=tricks)
        return make

    def lead(self, view: TrickView) -> tuple[int, ...]:
        return self._exact(view, super().lead(view))

    def follow(self, view: TrickView) -> tuple[int, ...]:
        return self._exact(view, super().follow(view))

    def _exact(self, view: TrickView, proposal: tuple[int, ...]) -> tuple[int, ...]:
        """``proposal`` (the plain bot's move), or the search's best move when it is not among the best."""
        state = view.state
        if (state is None or view.team is not None or state.seats != SEATS
                or view.cards_left > self.tricks or self.tricks <= 0):
            return proposal
        self.asked += 1
        got = self.endgame(state, proposal)
        if got is None:
            self.cut += 1
            return proposal
        if sorted(got) == sorted(proposal):
            self.kept += 1
            return proposal
        self.changed += 1
        return tuple(got)


__all__ = ["ENDGAME_TRICKS", "Endgame", "StrongBot"]
