"""The review's options of a decision and its play-outs in the native core against Python.

* ``NativeRules.follow_options`` (``native/src/options.rs``, through
  :func:`analyzer.review.mistakes.decisions.position_options`): the options of a follow
  are the same options in the same order as the Python path's (the search's legal follows,
  the play made first, past ``MAX_OPTIONS`` the cheapest by ``Solver.cheap_key``, ties in
  sorted order) and the same count left out, on random positions of 2–4 decks (every
  fixed-partners and finding-friends preset, the trick options varied), after leads of one
  unit and throws (standing or failed: the forced unit is the lead then), with voids
  (a seat that cannot follow discards from every other suit: many follows), whatever play
  was made (a legal follow or not).
* ``NativeRules.bot_playouts`` (:func:`analyzer.review.mistakes.decisions.option_ends`):
  every option of a deal played out from one generator state ends as ``bot_playout`` and
  the Python bot end it (points, hook-back, plays made).
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from native_positions import deal, orders, rulesets

from analyzer.play.bot import Bot
from analyzer.review.mistakes import decisions
from analyzer.review.mistakes.decisions import MAX_OPTIONS, PlayedOut, option_ends, position_options
from replay import native
from replay.ruleset import PRESETS, Ruleset
from replay.seats import SEATS
from replay.state import HandState
from replay.trick import throw_leads, throw_options


@pytest.fixture(autouse=True)
def _native_on():
    native.set_enabled(True)
    yield
    native.set_enabled(True)


def _seats(rs: Ruleset) -> tuple[str, ...]:
    return SEATS if rs.partners == "fixed" else tuple(f"P{i}" for i in range(1, rs.players + 1))


@st.composite
def follows(draw):
    """A position with a lead on the table (a unit or a throw), some seats followed, and
    the play made by the seat to play."""
    rs: Ruleset = draw(rulesets())
    if rs.decks < 2 or draw(st.booleans()):
        rs = rs.model_copy(update={"decks": draw(st.integers(2, 4))})
    order = draw(orders(rs))
    seats = _seats(rs)
    seed = draw(st.integers(0, 10**6))
    per_seat = draw(st.sampled_from((5, 12, 20, 20)))
    hands = deal(rs, seed, per_seat, len(seats))
    leader = draw(st.integers(0, len(seats) - 1))
    state = HandState(rs, order, dict(zip(seats, hands, strict=True)), leader=seats[leader], dealer=seats[0],
                      seats=seats, team=None if rs.partners == "fixed" else (seats[0],))
    rng = random.Random(seed)
    # the lead: a unit, or a throw (one that fails plays its forced unit)
    hold = state.holding(state.turn)
    cards = sorted(hold.elements())
    others = [list(state.holding(s).elements()) for s in seats if s != state.turn]
    throws = [lead for opts in throw_options(cards, others, order, rs) for lead in throw_leads(opts, order)] \
        if rs.throws else []
    big = [m for m in state.unit_leads() if len(m) > 1]
    pool = {0: state.unit_leads(), 1: throws or big or state.unit_leads(), 2: big or state.unit_leads()}
    lead = tuple(draw(st.sampled_from(pool[draw(st.sampled_from((0, 1, 1, 2)))])))
    state.push(lead, check=False)
    for _ in range(draw(st.integers(0, len(seats) - 2))):
        legal = state.legal_follows(limit=60)
        state.push(rng.choice(legal), check=False)
    legal = state.legal_follows(limit=200)
    kind = draw(st.integers(0, 3))
    if kind == 0 or not legal:   # a play that is not a legal follow (a record at fault)
        mine = sorted(state.holding(state.turn).elements())
        chosen = tuple(sorted(rng.sample(mine, min(len(mine), len(state.lead or ())))))
    else:
        chosen = tuple(sorted(rng.choice(legal)))
    return state, chosen


def _python_options(state: HandState, chosen: tuple[int, ...]):
    native.set_enabled(False)
    try:
        return position_options(state, chosen, state.order, state.ruleset, "N")
    finally:
        native.set_enabled(True)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(follows())
def test_the_native_options_of_a_follow_are_pythons(case):
    state, chosen = case
    want = _python_options(state, chosen)
    assert decisions._native_follow_options(state, chosen) is not None, "the native core lists this follow"
    got = position_options(state, chosen, state.order, state.ruleset, "N")
    assert got == want
    opts, capped = got
    assert opts[0] == chosen and len(opts) <= MAX_OPTIONS and capped >= 0
    event("capped" if capped else "all listed")
    event(f"{state.ruleset.decks} decks, {len(state.seats)} seats")
    event("after a failed throw" if state.attempted is not None else "a lead that stands")


def test_a_void_seats_many_follows_are_capped_alike():
    """Three decks, a tractor of three pairs led to a seat void in its suit: C(20, 6)
    discards, the cheapest seven kept (ties among equal keys in sorted order)."""
    rs = Ruleset(**{"name": "titanic", **PRESETS["titanic"]})
    from replay.order import Order
    order = Order.for_ruleset(2, 0, rs)     # hearts... suit 0 trumps, 2s level: suit 1 is 14..25 (13: a trump)
    tractor = [23, 23, 24, 24, 25, 25]      # Q Q K K A A of suit 1
    hands = {"N": tractor + list(range(14, 23)) + [27, 28, 29, 30, 31],
             "W": [c for c in range(27, 52) if c != 39][:20],      # void in suit 1
             "S": list(range(14, 23)) * 2 + [52, 53],
             "E": list(range(0, 13)) + [40, 41, 42, 43, 44, 45, 46]}
    state = HandState(rs, order, hands, leader="N", dealer="N")
    state.push(tuple(tractor))
    assert state.turn == "W"
    legal = state.legal_follows()
    assert len(legal) == 38760
    for chosen in (tuple(sorted(legal[len(legal) // 2])), tuple(sorted(legal[0])), (27, 28, 29, 30, 31, 32)):
        want = _python_options(state, chosen)
        got = position_options(state, chosen, order, rs, "N")
        assert got == want and want[1] == 38760 - MAX_OPTIONS + (chosen not in legal)


@st.composite
def deals(draw):
    """A four-seat hand part played, and some options of the seat to play."""
    names = tuple(n for n, v in PRESETS.items() if v.get("partners", "fixed") == "fixed" and v.get("players", 4) == 4)
    rs: Ruleset = draw(rulesets(fixed_only=True, presets=names))
    if draw(st.booleans()):
        rs = rs.model_copy(update={"decks": draw(st.integers(2, 4))})
    order = draw(orders(rs))
    seed = draw(st.integers(0, 10**6))
    hands = deal(rs, seed, draw(st.sampled_from((3, 8, 15))), 4)
    state = HandState(rs, order, dict(zip(SEATS, hands, strict=True)), leader=draw(st.sampled_from(SEATS)),
                      dealer=draw(st.sampled_from(SEATS)), kitty_points=draw(st.sampled_from((0, 10, 25))))
    rng = random.Random(seed)
    for _ in range(draw(st.integers(0, 3))):
        if state.is_over:
            break
        state.push(rng.choice(list(itertools.islice(state.legal_plays(), 30))), check=False)
    opts = list(itertools.islice(state.legal_plays(), 12)) if not state.is_over else []
    opts = [tuple(sorted(m)) for m in rng.sample(opts, min(len(opts), draw(st.integers(1, 8))))] if opts else []
    if opts and draw(st.integers(0, 4)) == 0:
        opts.append((99,) if draw(st.booleans()) else opts[0])   # one that may not cross, or twice the same
    return state, opts, f"{seed}:x"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals())
def test_the_options_of_a_deal_end_alike_in_one_call(case):
    state, opts, seed = case
    if state.is_over or not opts:
        return
    bot = Bot(state.ruleset, random.Random(seed))
    before = bot.rng.getstate()
    got = option_ends(state, opts, bot)
    # one option at a time (bot_playout), and Python
    singles = []
    for m in opts:
        b = Bot(state.ruleset, random.Random(seed))
        singles.append(decisions.native_play_to_end(state, m, b, rng_state=before))
    native.set_enabled(False)
    try:
        py = option_ends(state, opts, Bot(state.ruleset, random.Random(seed)))
    finally:
        native.set_enabled(True)
    for m, g, one, p in zip(opts, got, singles, py, strict=True):
        if p is None:
            assert g is None, m
            continue
        assert g is not None and g.final_points == p.final_points and g.hooked == p.hooked, m
        if isinstance(g, PlayedOut):
            assert one is not None and (one.final_points, one.hooked, one.count) == (g.final_points, g.hooked, g.count)
            assert isinstance(p, HandState)
            assert g.count == sum(len(t.plays) for t in p.tricks[len(state.tricks):]) - len(state.plays)
        else:
            assert one is None   # the native core gave this option to Python


@st.composite
def deal_inputs(draw):
    """The sampler's input: hidden cards of 2–4 decks, 3–8 slots (a kitty among them), the
    suits each slot showed void in, cards pinned to one or two slots (one off the table too)."""
    decks = draw(st.integers(2, 4))
    rs = Ruleset(**{"name": "standard", **PRESETS["standard"], "decks": decks})
    order = draw(orders(rs))
    seed = draw(st.integers(0, 10**6))
    rng = random.Random(seed)
    n = draw(st.integers(3, 8))
    sizes = {i: draw(st.integers(0, 12)) for i in range(n)}
    cards = [c for c in range(54) for _ in range(decks)]
    rng.shuffle(cards)
    total = sum(sizes.values())
    npins = draw(st.integers(0, 4)) if total else 0
    pool = sorted(cards[:max(0, total - npins + draw(st.sampled_from((0, 0, 0, 1, -1))))])
    pins = [(cards[total + p], tuple(sorted(rng.sample(range(n + 1), draw(st.integers(1, 2))))))
            for p in range(npins)]
    void_of = {i: set(draw(st.sets(st.integers(0, 4), max_size=2))) if draw(st.booleans()) else set() for i in range(n)}
    return pool, sizes, void_of, order.eff, pins, f"{seed}", draw(st.sampled_from((1, 3, 40)))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal_inputs())
def test_the_native_deal_is_the_samplers_draw_for_draw(case):
    from analyzer.review.mistakes import pov
    pool, sizes, void_of, eff, pins, seed, tries = case
    a, b = random.Random(seed), random.Random(seed)
    got = pov._native_deal(pool, sizes, void_of, eff, a, tries, pins)
    assert got is not pov._PYTHON
    native.set_enabled(False)
    try:
        want = pov._deal(pool, sizes, void_of, eff, b, tries, pins=pins)
    finally:
        native.set_enabled(True)
    assert got == want
    assert a.getstate() == b.getstate()
    event("dealt" if want is not None else "a dead end")


def test_bad_input_to_the_new_entry_points_is_refused_not_a_crash():
    """What may not cross is refused with a ValueError, TypeError or OverflowError (the callers
    then take the Python path), never a panic."""
    from replay.order import Order
    from replay.ruleset import preset
    rules = native.rules_for(Order(2, 1), preset("standard"))
    mod = native.module()
    bad = (ValueError, TypeError, OverflowError)
    words = list(random.Random(1).getstate()[1])
    for args in (([54], [(1, 1)], [], 7), ([1], [(1, -1)], [], 7), ([], [(1, 1)], [], 7), ([1, 2], [(1, 1)], [], 7),
                 ([1], [(1, 9)], [], 7), ([1], [(1, 1)], [60], 7), ([1], [(1, 1)], [], -1)):
        with pytest.raises(bad):
            rules.follow_options(*args)
    hands = [[(c, 1)] for c in (1, 2, 3, 4)]
    for h, mt in ((hands[:3], words), (hands, words[:600]), (hands, words[:624] + [700]), ([[(60, 1)]] * 4, words)):
        with pytest.raises(bad):
            rules.bot_playouts(h, 0, [], 0, 0, 0, 0, mt, (0.1, 0.1, 0.1, 4), [[1]])
    got = rules.bot_playouts(hands, 0, [], 0, 0, 0, 0, words, (0.1, 0.1, 0.1, 4), [[], [99], list(range(60)), [1]])
    assert got[:3] == [None, None, None] and len(got) == 4
    eff = list(Order(2, 1).eff)
    for args in ((eff[:53], [1], [1], [[]], [], words, 3), (eff, [60], [1], [[]], [], words, 3),
                 (eff, [1], [1, 1], [[]], [], words, 3), (eff, [1], [1], [[]], [], words[:624] + [625], 3),
                 (eff, [1], [-1], [[]], [], words, 3), ([9] * 54, [1], [1], [[]], [], words, 3)):
        with pytest.raises(bad):
            mod.sample_deal(*args)
    # a pin to no slot, a slot of nothing: dealt or a dead end, never a panic
    dealt, after = mod.sample_deal(eff, [1, 2], [2, 0], [[], []], [(3, [5])], words, 3)
    assert dealt is None and len(after) == 625
