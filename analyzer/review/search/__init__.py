"""Exact perfect-information endgame search for one hand (the analyzer's
"engine eval", like a chess engine's: all four hands are known).

The position is the engine's: a :class:`replay.state.HandState` (four fixed
seats N W S E), as a python-chess engine takes a ``chess.Board``. Its
**value** is the number of points the attackers (the non-dealer team) score
from this position to the end of the hand under best play by both teams: the
point cards of the tricks they win, plus, when they win the last trick, the
kitty's points × the ruleset's kitty multiplier for that trick's winning
play. The attackers maximise, the dealers minimise. The points scored before
the position (a failed throw's penalty in the current trick included) are not
part of the value (the rest of the hand is additive), so one
transposition-table entry serves every route into a position.

Asking about a state
--------------------

Every public question of :class:`Solver` (:meth:`~Solver.value`,
:meth:`~Solver.moves`, :meth:`~Solver.after`, :meth:`~Solver.play_value`,
:meth:`~Solver.move_values`, :meth:`~Solver.best_move`,
:meth:`~Solver.cheapest_best`, :meth:`~Solver.principal_variation`,
:meth:`~Solver.key`) takes a :class:`~replay.state.HandState`
(:meth:`Solver.for_state` builds the solver of its hand). At that root, the
state is asked for everything: the moves are its
:meth:`~replay.state.HandState.legal_follows`, or its
:meth:`~replay.state.HandState.unit_leads` and the throws its
:meth:`~replay.state.HandState.throw_check` lets stand; a move is
:meth:`~replay.state.HandState.push`-ed and :meth:`~replay.state.HandState.pop`-ped,
and what it gains is read from the state (the finished trick's winner and
points, :attr:`~replay.state.HandState.kitty_multiplier`, the pending
failed throw). The state is left as it was found.

Inside the tree: a lean node, checked against the state
-------------------------------------------------------

Below the root the search walks a lean copy of the position: a
:class:`Position` (the four holdings as sorted card tuples, the leader's
seat index and the current trick's plays), built from the state by
:func:`position_of`, hashed by the table and the move caches directly. Walking
the tree through ``HandState.push``/``pop`` instead was measured
(``bench/bench_endgame.py --state-walk``, 36 two-deck hands): the search costs
10.8–12.8 µs per node in all, the moves, a push, a pop and the table key of a
``HandState`` alone 10.8–12.6 µs per node, and they would replace only the
part of the search's node that they do (move generation, the card removal and
the trick's winner: about a third of its time, profiled), so the tree through
``HandState`` would cost about ×1.7, past the ×1.25 the search may give up.

The lean node decides no rule: its moves, winners and multipliers come from
the same engine functions ``HandState`` itself calls (cached per holding):

* leads are :func:`replay.legal.single_unit_leads` (``HandState.unit_leads``)
  plus the multi-unit throws that :func:`replay.trick.check_throw`
  (``HandState.throw_check``) lets stand. A throw that fails is a legal lead
  whose outcome is forced: the forced unit is played and the penalty goes
  against the thrower's team. That outcome is the same as leading the forced
  unit (a single-unit lead the search already tries) with the penalty on top,
  so failed throws never improve on a move the search has and are not
  searched; :meth:`Solver.play_value` values a failed throw as the engine
  plays it: ``penalty + value(forced unit)``;
* follows are :func:`replay.legal.legal_follows` (``HandState.legal_follows``);
* the winner is :func:`replay.trick.trick_winner`, the multiplier
  :func:`replay.scoring.last_trick_multiplier`, the penalty
  :func:`replay.scoring.penalty_delta` (what ``HandState`` uses).

``tests/mistakes/test_search_state.py`` holds the two views together: at
random positions the search's moves equal the moves derived from
``HandState.legal_plays()`` after the search's reductions (failed throws
dropped, interchangeable cards merged), the answers asked of a state equal
those asked of its :class:`Position`, and the values equal a plain minimax
that plays through ``HandState.push``/``pop`` and scores with
``HandState.final_points``.

A play is a tuple of cards in ascending order (the order
``HandState.legal_follows`` gives); moves come in a fixed order (the
engine's enumeration, the cards ascending), so the answers never depend on
how a holding was built.

The search is alpha-beta over those moves with a transposition table keyed on
the canonical key of a trick-start position (:meth:`Solver.key`: the leader
and each holding described up to interchangeable cards); entries are value
bounds and the best lead, which is tried first on a revisit. A trick start is
cut without a node when a bound settles its window: the points still held (and
the kitty at the largest multiplier the hands allow) above, nothing below, and
the points the leader's side surely takes by leading single cards nobody can
beat or ruff (``Tables._sure_rounds``). The value of a
node depends only on the cards still held, so the table stays valid for the
whole hand and is shared by every question asked of one :class:`Solver` (the
review asks for the value before and after each play of the last tricks).

Two objectives: ``"points"`` (the value above) and ``"last_trick"`` (1 when
the attackers win the last trick, else 0: "can the dealers still protect the
kitty?", used by SJ602).
"""


from __future__ import annotations

from analyzer.review.search.position import Position, SearchBudgetExceeded, position_of
from analyzer.review.search.solver import Solver, solve

__all__ = ["Position", "SearchBudgetExceeded", "Solver", "position_of", "solve"]
