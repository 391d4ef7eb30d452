"""The native endgame search against the Python one (``analyzer.review.search``): the
same answers to every question — value, each move's value, the best and the
cheapest best move, the principal variation, the last-trick objective — and the
same node count, so a node budget cuts both at the same place (the mistake
review's output does not depend on which search ran)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from native_positions import deal, orders, rulesets

from analyzer.review.search import SearchBudgetExceeded, Solver
from analyzer.review.search.position import position
from replay import native
from replay.scoring import SEAT_ORDER


def _ask(make, questions):
    """Each engine's answers to ``questions(solver)`` (a fresh solver each), and its nodes."""
    out = []
    for enabled in (True, False):
        native.set_enabled(enabled)
        try:
            s = make()
            assert s.engine == ("native" if enabled and native.ported(s.ruleset) else "python")
            try:
                got = questions(s)
            except SearchBudgetExceeded:
                got = "budget"
            out.append((got, s.nodes))
        finally:
            native.set_enabled(True)
    return out


@st.composite
def endgames(draw, max_cards: int = 4):
    rs = draw(rulesets(fixed_only=True))
    order = draw(orders(rs))
    seed = draw(st.integers(0, 2 ** 32))
    hands = deal(rs, seed, draw(st.integers(1, max_cards)), 4)
    leader = draw(st.integers(0, 3))
    dealer = draw(st.sampled_from(SEAT_ORDER))
    kitty = draw(st.sampled_from([0, 5, 25, 40]))
    return rs, order, hands, leader, dealer, kitty, seed


def _questions(pos_of):
    def ask(s):
        pos = pos_of(s)
        v = s.value(pos)
        return (v, s.move_values(pos), s.best_move(pos), s.cheapest_best(pos),
                s.principal_variation(pos, tricks=2), s.value(pos))
    return ask


@settings(max_examples=200)
@given(endgames())
def test_every_answer_agrees(case):
    rs, order, hands, leader, dealer, kitty, _seed = case
    native_answer, python_answer = _ask(lambda: Solver(order, rs, dealer, kitty),
                                        _questions(lambda s: position(hands, leader)))
    assert native_answer == python_answer


@settings(max_examples=120)
@given(endgames(), st.data())
def test_mid_trick_and_last_trick_objective_agree(case, data):
    rs, order, hands, leader, dealer, kitty, seed = case
    probe = Solver(order, rs, dealer, kitty)
    pos = position(hands, leader)
    rng = random.Random(seed)
    for _ in range(rng.randint(1, 3)):
        if pos.terminal:
            break
        pos, _ = probe.after(pos, rng.choice(probe.moves(pos)))
    if pos.terminal:
        return
    for objective in ("points", "last_trick"):
        a, b = _ask(lambda: Solver(order, rs, dealer, kitty, objective), _questions(lambda s: pos))
        assert a == b


@settings(max_examples=80)
@given(endgames(max_cards=6), st.integers(1, 400))
def test_a_node_budget_cuts_both_at_the_same_place(case, budget):
    rs, order, hands, leader, dealer, kitty, _seed = case

    def make():
        s = Solver(order, rs, dealer, kitty)
        s.node_limit = budget
        return s
    a, b = _ask(make, lambda s: s.value(position(hands, leader)))
    assert a == b


@pytest.mark.parametrize("rules", ["standard", "shengji-io", "campus", "80fen", "titanic", "botzone",
                                   "one-deck", "tractor97", "shengji-fly"])
def test_engine_played_hands_agree(rules):
    """The last 4 tricks of bot-played hands (questions asked of HandStates, as the review asks)."""
    from analyzer.play.generate import generate_match
    from analyzer.review.mistakes.context import HandContext
    from primitives.cards import points
    from replay.game import replay
    from replay.state import HandState

    record = generate_match(rules, hands=2, seed=7)
    checked = 0
    for h in replay(record).hands:
        if not HandContext(h).searchable:
            continue
        kitty = points(h.bury or ())
        t = h.tricks[-4]

        def ask(s, h=h, t=t, kitty=kitty):
            st_ = HandState(h.ruleset, h.order, dict(zip(h.seats, t.hands_before, strict=True)), leader=t.leader,
                            dealer=h.dealer, seats=h.seats, kitty_points=kitty)
            out = []
            for j, p in enumerate(t.plays):
                out.append((s.value(st_), s.cheapest_best(st_), s.moves(st_)))
                st_.push(p.attempted or p.cards if j == 0 else p.cards, check=False)
            return out
        a, b = _ask(lambda h=h, kitty=kitty: Solver.for_state(
            HandState(h.ruleset, h.order, dict(zip(h.seats, h.tricks[-4].hands_before, strict=True)),
                      leader=h.tricks[-4].leader, dealer=h.dealer, seats=h.seats, kitty_points=kitty)), ask)
        assert a == b
        checked += 1
    assert checked


@settings(max_examples=150)
@given(endgames(max_cards=8))
def test_playouts_agree(case):
    """The fast play-out (the search's first move at every turn) gives the same points in both."""
    rs, order, hands, leader, dealer, kitty, seed = case
    probe = Solver(order, rs, dealer, kitty)
    pos = position(hands, leader)
    rng = random.Random(seed)
    for _ in range(rng.randint(0, 3)):
        if pos.terminal:
            break
        pos, _ = probe.after(pos, rng.choice(probe.moves(pos)))
    a, b = _ask(lambda: Solver(order, rs, dealer, kitty), lambda s: s.playout(pos))
    assert a == b
    if not pos.plays and len(pos.hands[0]) == 1:   # one card each: one line, the exact value
        assert a[0] == Solver(order, rs, dealer, kitty).value(pos)


def test_the_kitty_bound_holds_for_a_throw_in_the_last_trick():
    """The bound a trick start cuts with (points held + the kitty × the largest multiplier)
    must hold for throws: under ``botzone`` a last play of a pair and a single is × 4 where
    any one unit of three cards is × 3 at most. W throws ♣A♣A♣K and N, last to play, follows
    with ♣J♣J♣Q: 10 + 20 × 4 = 90, and a window from 70 up must still get 90 (a bound of
    × 3, 10 + 60 = 70, answered 70: "at most 70")."""
    from primitives.cards import CLUBS, HEARTS, make
    from replay.order import Order
    from replay.ruleset import PRESETS, Ruleset

    rs = Ruleset(name="botzone", **{k: v for k, v in PRESETS["botzone"].items() if k != "name"})
    assert rs.kitty_multiplier == "botzone"
    order = Order.for_ruleset(2, HEARTS, rs)
    c = lambda r: make(CLUBS, r)
    hands = [(c(11), c(11), c(12)), (c(14), c(14), c(13)), (c(7), c(8), c(9)), (c(3), c(4), c(6))]
    pos = position(hands, 1)

    def ask(s):
        return [s._root(pos.hands, pos.leader, pos.plays, alpha, 10 ** 9) for alpha in (0, 61, 70, 85, 89)] + [
            s.value(pos)]
    a, b = _ask(lambda: Solver(order, rs, "N", 20), ask)
    assert a == b
    assert a[0] == [90, 90, 90, 90, 90, 90]


@settings(max_examples=150)
@given(endgames(max_cards=5))
def test_the_sure_rounds_keep_the_value(case):
    """The leader's sure rounds (``Tables._sure_rounds``, ``Solver::sure_rounds``) cut a
    trick start only with a true bound: in the Python search (the native one is pinned to
    it node for node above, and by its own cargo tests), every window's fail-soft answer
    with the bound bounds the value without it, and the full window's is that value."""
    rs, order, hands, leader, dealer, kitty, _seed = case
    native.set_enabled(False)
    try:
        plain = Solver(order, rs, dealer, kitty)
        plain._sure_bound = False
        pos = position(hands, leader)
        v = plain.value(pos)
        for lo, hi in ((-10 ** 9, 10 ** 9), (v - 1, v), (v, v + 1), (v - 5, v + 5), (v + 4, v + 6), (v - 6, v - 4)):
            got = Solver(order, rs, dealer, kitty)._root(pos.hands, pos.leader, pos.plays, lo, hi)
            if got <= lo:
                assert v <= got
            elif got >= hi:
                assert v >= got
            else:
                assert got == v
    finally:
        native.set_enabled(True)
