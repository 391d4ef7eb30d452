"""The native play phase against the Python engine on random hands of every
preset: each hand is played out through :class:`replay.state.HandState`, and at
every step the extension must give what the engine gives — the card order, the
unit leads, the throw candidates and every throw's verdict (blockers and forced
units), the legal follows, the winner so far, and at each trick's end its
winner, winning units, ruff, points, penalty and last-trick multiplier."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from native_positions import deal, orders, rulesets

from primitives.cards import points
from replay import native
from replay.legal import multisets
from replay.scoring import last_trick_multiplier
from replay.seats import SEATS
from replay.state import HandState
from replay.trick import throw_leads, throw_options
from replay.units import decompose


def _units(units):
    return tuple((u[0], u[1], u[2], tuple(u[3])) for u in units)


def _seats(rs):
    return SEATS if rs.partners == "fixed" else tuple(f"P{i}" for i in range(1, rs.players + 1))


def _check_lead(nat, state, rng, order, rs):
    seat = state.turn
    seats = state.seats
    hold = state.holding(seat)
    cards = sorted(hold.elements())
    assert sorted(tuple(p) for p in nat.unit_leads(cards)) == sorted(state.unit_leads())
    others = [list(state.holding(s).elements()) for s in seats if s != seat]
    want = [(lead, opts[0]) for opts in throw_options(cards, others, order, rs) for lead in throw_leads(opts, order)]
    got = [(tuple(lead), suit) for lead, suit in nat.throw_candidates(cards, others)]
    assert got == want
    # the throw check of some candidates and of random leads of one suit (failing ones too)
    leads = [lead for lead, _ in want]
    rng.shuffle(leads)
    leads = leads[:4]
    by_suit: dict[int, dict[int, int]] = {}
    for c, k in hold.items():
        by_suit.setdefault(order.eff[c], {})[c] = k
    for held in by_suit.values():
        size = sum(held.values())
        for k in range(2, min(size, 5) + 1):
            options = list(multisets(held, k))
            leads += rng.sample(options, min(2, len(options)))
    n = len(seats)
    ring = [seats[(seats.index(seat) + k) % n] for k in range(n)]
    for lead in leads:
        chk = state.throw_check(lead)
        blockers, allowed = nat.check_throw(list(lead), [list(state.holding(s).items()) for s in ring])
        assert [(tuple(u), ring.index(s), tuple(b)) for u, s, b in
                [(b.unit, b.seat, b.by) for b in chk.blockers]] == \
            [(_units([u])[0], i, _units([b])[0]) for u, i, b in blockers]
        assert tuple(chk.allowed) == _units(allowed)
    return leads


def play_hand(rs, order, hands, leader_i, rng):
    nat = native.rules_for(order, rs)
    assert nat is not None, "every preset's trick options are ported"
    seats = _seats(rs)
    state = HandState(rs, order, dict(zip(seats, hands)), leader=seats[leader_i], dealer=seats[0], seats=seats,
                      team=None if rs.partners == "fixed" else (seats[0],))
    while not state.is_over:
        if not state.plays:
            leads = _check_lead(nat, state, rng, order, rs) if rs.throws else []   # (throws: no: one unit)
            if not rs.throws:
                _check_lead(nat, state, rng, order, rs)
            play = rng.choice(leads + state.unit_leads())
        else:
            lead = state.lead
            hold = state.holding(state.turn)
            want = sorted(state.legal_follows())
            assert sorted(tuple(p) for p in nat.legal_follows(list(lead), list(hold.elements()))) == want
            play = rng.choice(want)
        before = state.trick_number
        state.push(play)
        if state.trick_number == before and len(state.plays) >= 2:
            idx = nat.trick_result([list(c) for _, c in state.plays])[0]
            assert idx == state.winning().index
        if state.trick_number != before:
            t = state.last_trick
            plays = [list(c) for _, c in t.plays]
            idx, units, ruffed, pts, mult = nat.trick_result(plays)
            assert t.plays[idx][0] == t.winner
            assert _units(units) == tuple(t.units)
            assert (ruffed, pts) == (t.ruffed, t.points)
            assert mult == last_trick_multiplier(rs, order, t.units, len(plays[0]), plays[-1])
            if t.attempted is not None:
                assert nat.throw_penalty(len(t.attempted)) == t.penalty
                assert t.attempted and len(decompose(t.attempted, order)) >= 2


@settings(max_examples=300)
@given(rulesets(), st.data())
def test_hands_played_out_agree(rs, data):
    order = data.draw(orders(rs))
    nat = native.rules_for(order, rs)
    eff, key = nat.order()
    assert tuple(eff) == order.eff and tuple(key) == order.key
    seed = data.draw(st.integers(0, 2 ** 32))
    hands = deal(rs, seed, data.draw(st.integers(1, 6)), rs.players)
    play_hand(rs, order, hands, data.draw(st.integers(0, rs.players - 1)), random.Random(seed))


@settings(max_examples=150)
@given(rulesets(vary_options=False), st.data())
def test_decompositions_agree(rs, data):
    order = data.draw(orders(rs))
    nat = native.rules_for(order, rs)
    suit = data.draw(st.integers(0, 4))
    pool = [c for c in order.suit_cards[suit] for _ in range(rs.decks)]
    cards = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=12)) if pool else []
    counts: dict[int, int] = {}
    cards = [c for c in cards if counts.setdefault(c, 0) < rs.decks and not counts.update({c: counts[c] + 1})]
    if cards:
        assert _units(nat.decompose(cards)) == tuple(decompose(tuple(cards), order))


@settings(max_examples=400)
@given(rulesets(), st.data())
def test_trick_winners_agree(rs, data):
    """Any plays (legal or not) of the lead's size: the winner, its units and the
    ruff, the points and the multiplier. Plays are drawn from the led suit and the
    trumps, with copies repeated, so tractors meet tractors and throws meet ruffs."""
    check_trick_winners(rs, data)


def check_trick_winners(rs, data, max_lead: int = 6):
    """:func:`test_trick_winners_agree` of one ruleset (leads of up to ``max_lead`` cards)."""
    from replay.trick import trick_winner

    order = data.draw(orders(rs))
    nat = native.rules_for(order, rs)
    rng = random.Random(data.draw(st.integers(0, 2 ** 32)))
    suit = rng.randrange(5)
    pools = [[c for c in order.suit_cards[s] for _ in range(rs.decks)] for s in (suit, 4, rng.randrange(5))]
    if not pools[0]:
        return
    # a narrow band of ranks (so pairs and tractors form) from each pool
    def band(pool):
        if not pool:
            return pool
        lo = rng.randrange(len(pool))
        return pool[lo:lo + rng.randint(2, 4) * rs.decks]
    lead_pool = band(pools[0])
    n = rng.randint(1, min(max_lead, len(lead_pool)))
    lead = rng.sample(lead_pool, n)
    plays = [lead]
    for _ in range(rs.players - 1):
        pool = band(pools[rng.choice((0, 1, 1, 2))])
        if len(pool) < n:
            pool = pools[0] + pools[1]
        plays.append(rng.sample(pool, n) if len(pool) >= n else lead[:])
    w = trick_winner([tuple(p) for p in plays], order, rs)
    idx, units, ruffed, pts, mult = nat.trick_result(plays)
    assert (idx, _units(units), ruffed) == (w.index, tuple(w.units), w.ruffed)
    assert pts == sum(points(p) for p in plays)
    assert mult == last_trick_multiplier(rs, order, w.units, n, plays[-1])
