"""The endgame search asked through the engine's position API (``replay.state.HandState``).

The search walks a lean copy of the position inside its tree (see the module
doc of ``analyzer.review.search``); these tests hold it to the state:

* at random positions its moves are the moves derived from
  ``HandState.legal_plays()`` after the search's reductions (a failed throw
  dropped: the engine plays its forced unit, which is a move; interchangeable
  cards merged);
* every question asked of a state answers as when asked of its lean
  ``Position``, and leaves the state as it was;
* its values equal a plain minimax that plays through ``HandState.push`` /
  ``pop`` and scores with ``HandState.final_points`` (no rule written here:
  the failed throw, its penalty, the winner and the kitty multiplier are the
  state's).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mistake_helpers import tiny_deal

from analyzer.review.search import Position, Solver, position_of
from analyzer.review.search.position import position
from primitives.cards import parse_cards as C
from replay.order import Order
from replay.ruleset import preset
from replay.scoring import penalty_delta
from replay.seats import SEATS
from replay.state import HandState

PRESETS = ["standard", "campus", "shengji-io", "one-deck", "botzone", "titanic", "tractor97"]


@st.composite
def states(draw, max_cards: int = 3, max_plays: int = 6):
    """A random tiny endgame as a HandState, after 0..max_plays plays drawn
    from its legal plays (failed throws included)."""
    rs, order, n, cards = tiny_deal(draw, PRESETS, max_cards)
    holdings = {s: cards[i * n:(i + 1) * n] for i, s in enumerate(SEATS)}
    state = HandState(rs, order, holdings, leader=draw(st.sampled_from(SEATS)),
                      dealer=draw(st.sampled_from(SEATS)), kitty_points=draw(st.sampled_from([0, 5, 25])))
    for _ in range(draw(st.integers(0, max_plays))):
        if state.is_over:
            break
        state.push(draw(st.sampled_from(sorted(state.legal_plays()))))
    return state


def snapshot(state: HandState) -> tuple:
    return (tuple((s, tuple(sorted(state.holding(s).elements()))) for s in state.seats), state.plays,
            state.attempted, state.tricks, state.trick_number, state.attacker_points)


def brute(state: HandState, objective: str = "points") -> int:
    """Plain minimax through HandState: every legal play (failed throws
    included: push plays the forced unit and counts the penalty), scored by
    the state. Returns the hand's final attacker total (or 1/0: the attackers
    won the last trick)."""
    if state.is_over:
        if objective == "last_trick":
            return int(not state.defends(state.tricks[-1].winner))
        return state.final_points
    vals = []
    for play in list(state.legal_plays()):
        state.push(play)
        vals.append(brute(state, objective))
        state.pop()
    return min(vals) if state.defends(state.turn) else max(vals)


def pending(state: HandState) -> int:
    """The current trick's failed-throw penalty (signed, for the attackers):
    counted by the state once the trick ends, not part of a search value."""
    if state.attempted is None:
        return 0
    return penalty_delta(state.ruleset, len(state.attempted), state.defends(state.plays[0][0]))


@settings(max_examples=200)
@given(states())
def test_moves_are_the_states_legal_plays_after_the_reductions(state):
    if state.is_over:
        return
    solver = Solver.for_state(state)
    pos = position_of(state)
    got = solver.moves(state)
    assert got == solver.moves(pos)                      # the tree's generator agrees, order included
    assert all(list(m) == sorted(m) for m in got)
    legal = sorted(state.legal_plays())
    if state.plays:
        assert got == legal                              # every legal follow, nothing merged
        return
    reps = dict(solver._trick_reps(pos.hands)[pos.leader])

    def cls(m):
        return tuple(sorted(reps.get(c, c) for c in m))

    standing, forced = [], []
    for m in legal:
        played = state.push(m)
        (forced if state.attempted is not None else standing).append(tuple(sorted(played)))
        state.pop()
    classes = [cls(m) for m in got]
    assert len(set(classes)) == len(classes)             # one move per class of interchangeable leads
    assert set(classes) == {cls(m) for m in standing}    # and every standing lead's class
    assert {cls(m) for m in forced} <= set(classes)      # a failed throw's forced unit is a move


@settings(max_examples=150)
@given(states(max_cards=3))
def test_values_match_a_minimax_through_the_state(state):
    solver = Solver.for_state(state)
    before = snapshot(state)
    # the value leaves out what was scored before (the kitty too, once the hand is over)
    want = brute(state) - (state.final_points if state.is_over else state.attacker_points) - pending(state)
    assert snapshot(state) == before
    assert solver.value(state) == want
    assert Solver.for_state(state, "last_trick").value(state) == (brute(state, "last_trick") if not state.is_over
                                                                 else 0)


@settings(max_examples=120)
@given(states(max_cards=3))
def test_questions_asked_of_a_state_answer_as_of_its_position(state):
    if state.is_over:
        return
    before = snapshot(state)
    a, b = Solver.for_state(state), Solver.for_state(state)
    pos = position_of(state)
    assert a.value(state) == b.value(pos)
    assert a.move_values(state) == b.move_values(pos)
    assert a.best_move(state) == b.best_move(pos)
    assert a.cheapest_best(state) == b.cheapest_best(pos)
    assert a.principal_variation(state, 2) == b.principal_variation(pos, 2)
    if not state.plays:
        assert a.key(state) == b.key(pos)
    for m in sorted(state.legal_plays()):
        nxt, gain = a.after(state, m)
        assert isinstance(nxt, HandState)
        played = nxt.plays[-1][1] if nxt.plays else nxt.last_trick.plays[-1][1]
        lean, lean_gain = b.after(pos, played)
        assert (position_of(nxt), gain) == (lean, lean_gain)
        if nxt.attempted is not None and not state.plays:
            # a failed throw: the engine played the forced unit; the penalty counts
            assert a.play_value(state, m) == b.play_value(pos, played, attempted=m)
        else:
            assert a.play_value(state, m) == b.play_value(pos, m)
    assert snapshot(state) == before                     # every question left the state as it was


def test_failed_throw_asked_of_the_state():
    # campus: per_card penalty. N (dealer team) throws ♠A ♠Q; E holds ♠K: it fails.
    rs = preset("campus")
    hands = {"N": C("SA SQ"), "W": C("S3 S4"), "S": C("S5 S6"), "E": C("SK S8")}
    state = HandState.new(rs, level=2, trump=1, holdings=hands, leader="N", dealer="N")
    solver = Solver.for_state(state)
    assert C("SA SQ") not in solver.moves(state)         # not a standing throw
    forced = solver.play_value(state, C("SQ"))
    assert solver.play_value(state, C("SA SQ")) == forced + 20   # the engine plays ♠Q; a defender's penalty adds
    assert solver.play_value(state, C("SQ"), attempted=C("SA SQ")) == forced + 20
    assert solver.value(state) == brute(state)


def test_kitty_multiplier_read_from_the_state():
    # EW attack; W wins the last trick with a pair: by_unit ×4 on 25 kitty points
    hands = {"N": C("S3 S4"), "W": C("SA SA"), "S": C("S5 S6"), "E": C("S7 S8")}
    state = HandState.new(preset("standard"), level=2, trump=1, holdings=hands, leader="W", dealer="N",
                          kitty_points=25)
    solver = Solver.for_state(state)
    assert solver.after(state, C("SA SA"))[1] == 0
    assert solver.value(state) == 5 + 25 * 4 == brute(state)
    assert solver.principal_variation(state) == [(1, C("SA SA")), (2, C("S5 S6")), (3, C("S7 S8")),
                                                 (0, C("S3 S4"))]
    assert Solver.for_state(state, "last_trick").value(state) == 1


def test_only_four_fixed_seats():
    state = HandState(preset("standard"), Order(2, 1), {"P1": C("SA"), "P2": C("S3"), "P3": C("S4"),
                                                        "P4": C("S5"), "P5": C("S6")},
                      leader="P1", dealer="P1", seats=("P1", "P2", "P3", "P4", "P5"))
    with pytest.raises(ValueError):
        Solver.for_state(state).value(state)
    assert Solver.position(position([C("SA")] * 4, "N")) == Position((C("SA"),) * 4, 0)
