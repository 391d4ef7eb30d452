"""The exact endgame move of an omniscient bot (:class:`analyzer.play.strong.StrongBot`'s search).

:class:`ExactEndgame` answers, for the real position of a four-seat,
fixed-partner hand, a best move of the seat to play: the bot's own proposal
when its exact value (:meth:`Solver.play_value`, a failed throw as the engine
plays it) is the position's value, else the solver's cheapest best move
(:meth:`Solver.cheapest_best`). One :class:`Solver` serves every question
of a hand (its transposition table stays valid for the whole hand), under a
node budget per question: a cut search answers None.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzer.review.search.position import SearchBudgetExceeded
from analyzer.review.search.solver import Solver
from replay.state import HandState

#: the node budget of one question (a cut search keeps the bot's move)
ENDGAME_NODES = 200_000


class ExactEndgame:
    """A best move of the seat to play, exactly (see the module doc)."""

    def __init__(self, max_nodes: int = ENDGAME_NODES) -> None:
        self.max_nodes = max_nodes
        #: the hand's state and its solver (the state is held, so its id is never another hand's)
        self._state: HandState | None = None
        self._solver: Solver | None = None

    def solver(self, state: HandState) -> Solver:
        """The solver of ``state``'s hand (one per hand: the generator plays a hand on one state)."""
        if self._solver is None or self._state is not state:
            self._state, self._solver = state, Solver.for_state(state, max_nodes=self.max_nodes)
        return self._solver

    def __call__(self, state: HandState, proposal: Sequence[int]) -> tuple[int, ...] | None:
        s = self.solver(state)
        try:
            target = s.value(state)
            if s.play_value(state, proposal) == target:
                return tuple(proposal)
            return s.cheapest_best(state, target)[0]
        except SearchBudgetExceeded:
            return None


__all__ = ["ENDGAME_NODES", "ExactEndgame"]
