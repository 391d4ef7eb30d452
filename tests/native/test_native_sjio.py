"""shengji.io's unit rules in the native core (native/src/sjio*.rs) against the
Python engine (replay/sjio.py, sjio_fallbacks.py, sjio_winner.py): the
``shengji-io`` presets drawn alone, as they are or with their trick options
varied, on longer hands than the every-preset tests deal (so leads are read
several ways, throws are checked against tractors and follows walk several
fallback shapes). Every preset already draws ``unit_split`` and
``follow_policy: shengji_io`` now and then (native_positions.TRICK_OPTIONS)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from native_positions import SJIO_PRESETS, deal, orders, rulesets
from test_native_rules import _units, check_trick_winners, play_hand
from test_native_solver import _ask, _questions

from analyzer.review.search import Solver
from analyzer.review.search.position import position
from replay import native
from replay.scoring import SEAT_ORDER
from replay.units import decompose


def test_the_shengji_io_presets_are_drawn():
    assert set(SJIO_PRESETS) >= {"shengji-io", "shengji-io-friends"}


@settings(max_examples=150)
@given(rulesets(presets=SJIO_PRESETS), st.data())
def test_shengji_io_hands_played_out_agree(rs, data):
    """Every lead's throw verdict, every legal follow, every winner (tests/native/test_native_rules.py)."""
    order = data.draw(orders(rs))
    seed = data.draw(st.integers(0, 2 ** 32))
    hands = deal(rs, seed, data.draw(st.integers(4, 10)), rs.players)
    play_hand(rs, order, hands, data.draw(st.integers(0, rs.players - 1)), random.Random(seed))


@settings(max_examples=300)
@given(rulesets(presets=SJIO_PRESETS), st.data())
def test_shengji_io_trick_winners_agree(rs, data):
    check_trick_winners(rs, data, max_lead=8)


@settings(max_examples=300)
@given(rulesets(presets=SJIO_PRESETS, vary_options=False), st.data())
def test_shengji_io_readings_agree(rs, data):
    """The reading of a lead of one suit (``split``, largest unit first), tractors and triples mixed."""
    order = data.draw(orders(rs))
    nat = native.rules_for(order, rs)
    suit = data.draw(st.integers(0, 4))
    ranks = order.suit_cards[suit]
    if not ranks:
        return
    lo = data.draw(st.integers(0, len(ranks) - 1))
    band = ranks[lo:lo + data.draw(st.integers(1, 5))]
    cards = [c for c in band for _ in range(data.draw(st.integers(0, rs.decks)))]
    if cards:
        assert _units(nat.decompose(cards)) == tuple(decompose(tuple(cards), order))


@settings(max_examples=120)
@given(rulesets(presets=("shengji-io",)), st.data())
def test_shengji_io_search_agrees(rs, data):
    """The exact search: value, each move's value, the best and cheapest moves, the
    principal variation, and the node count."""
    order = data.draw(orders(rs))
    seed = data.draw(st.integers(0, 2 ** 32))
    hands = deal(rs, seed, data.draw(st.integers(1, 4)), 4)
    leader = data.draw(st.integers(0, 3))
    dealer = data.draw(st.sampled_from(SEAT_ORDER))
    kitty = data.draw(st.sampled_from([0, 5, 25, 40]))
    native_answer, python_answer = _ask(lambda: Solver(order, rs, dealer, kitty),
                                        _questions(lambda s: position(hands, leader)))
    assert native_answer == python_answer


@settings(max_examples=300)
@given(rulesets(presets=SJIO_PRESETS), st.data())
def test_shengji_io_follows_agree(rs, data):
    """The legal follows to a lead of one suit (tractors, tuples, throws) of a holding rich
    in that suit (pairs, triples, runs): shengji.io's walk over fallback shapes, step by step."""
    from replay.legal import legal_follows

    order = data.draw(orders(rs))
    nat = native.rules_for(order, rs)
    suit = data.draw(st.integers(0, 4))
    ranks = order.suit_cards[suit]
    if not ranks:
        return

    def band(width: int) -> list[int]:
        lo = data.draw(st.integers(0, len(ranks) - 1))
        return [c for c in ranks[lo:lo + width] for _ in range(data.draw(st.integers(0, rs.decks)))]

    lead = band(data.draw(st.integers(1, 4)))
    held = band(data.draw(st.integers(2, 7)))
    pool = [c for c in range(54) if order.eff[c] != suit]
    extra = data.draw(st.lists(st.sampled_from(pool), max_size=4))
    # a card held no more often than the decks have it, the lead's copies included
    counts: dict[int, int] = {}
    for c in lead:
        counts[c] = counts.get(c, 0) + 1
    holding: dict[int, int] = {}
    for c in held + extra:
        if counts.get(c, 0) + holding.get(c, 0) < rs.decks:
            holding[c] = holding.get(c, 0) + 1
    if not lead or sum(holding.values()) < len(lead):
        return
    want = sorted(tuple(sorted(p)) for p in legal_follows(tuple(lead), holding, order, rs))
    cards = [c for c, k in holding.items() for _ in range(k)]
    assert sorted(tuple(p) for p in nat.legal_follows(lead, cards)) == want


@settings(max_examples=300)
@given(rulesets(presets=SJIO_PRESETS), st.data())
def test_shengji_io_throw_checks_agree(rs, data):
    """The throw check of a lead of one suit against others rich in that suit: the
    blockers (each unit in the engine's order against each player in turn, tractors from
    the lead's second card) and the one unit forced."""
    from replay.trick import check_throw

    order = data.draw(orders(rs))
    nat = native.rules_for(order, rs)
    suit = data.draw(st.integers(0, 4))
    ranks = order.suit_cards[suit]
    if not ranks:
        return
    left = {c: rs.decks for c in ranks}
    base = data.draw(st.integers(0, len(ranks) - 1))   # (every band near the lead's: blockers of its units)

    def band(width: int) -> dict[int, int]:
        lo = min(len(ranks) - 1, max(0, base + data.draw(st.integers(-2, 2))))
        got: dict[int, int] = {}
        for c in ranks[lo:lo + width]:
            k = min(left[c], data.draw(st.integers(0, rs.decks)))
            if k:
                got[c] = k
                left[c] -= k
        return got

    holdings = [band(data.draw(st.integers(1, 5))) for _ in range(data.draw(st.integers(2, 5)))]
    lead = tuple(c for c, k in holdings[0].items() for _ in range(k))
    if len(lead) < 2:
        return
    seats = [f"P{i}" for i in range(1, len(holdings) + 1)]
    chk = check_throw(lead, 0, holdings, seats, order, rs)
    blockers, allowed = nat.check_throw(list(lead), [list(h.items()) for h in holdings])
    assert [(tuple(b.unit), seats.index(b.seat), tuple(b.by)) for b in chk.blockers] == \
        [(_units([u])[0], i, _units([b])[0]) for u, i, b in blockers]
    assert tuple(chk.allowed) == _units(allowed)


# table cases (replay/sjio.py, replay/sjio_winner.py; each also a place a mutant of the port
# survived the random draws): ♠ ranks at level 2, ♥ trump, four decks
def _s(*ranks: int) -> list[int]:
    return [r - 2 for r in ranks]


@pytest.mark.parametrize(("lead", "others"), [
    # a tractor is beaten from the lead's *second* card up: its own ranks held again do not block
    (_s(5, 5, 6, 6, 9), [_s(5, 5, 6, 6)]),
    (_s(5, 5, 6, 6, 9), [_s(6, 6, 7, 7)]),
    (_s(5, 5, 6, 6, 9), [_s(3), _s(10), _s(6, 6, 7, 7)]),     # the first blocker forces its smallest unit
    (_s(7, 7, 7, 8, 8, 8, 4), [_s(8, 8, 8, 9, 9, 9)]),
])
def test_shengji_io_throw_table(lead, others):
    from replay.order import Order
    from replay.ruleset import PRESETS, Ruleset
    from replay.trick import check_throw

    rs = Ruleset(**{**PRESETS["shengji-io"], "name": "shengji-io", "decks": 4})
    order = Order.for_ruleset(2, 1, rs)
    holdings = [_counts(lead)] + [_counts(o) for o in others]
    seats = [f"P{i}" for i in range(1, len(holdings) + 1)]
    chk = check_throw(tuple(lead), 0, holdings, seats, order, rs)
    blockers, allowed = native.rules_for(order, rs).check_throw(lead, [list(h.items()) for h in holdings])
    assert [(tuple(b.unit), seats.index(b.seat), tuple(b.by)) for b in chk.blockers] == \
        [(_units([u])[0], i, _units([b])[0]) for u, i, b in blockers]
    assert tuple(chk.allowed) == _units(allowed)


@pytest.mark.parametrize("plays", [
    # a pair + two singles led; ♠6677 reads as ♠66 + ♠7 ♠7 or ♠77 + ♠6 ♠6: the matcher's first wins
    [_s(5, 5, 4, 3), _s(6, 6, 7, 7)],
    [_s(5, 5, 4, 3), _s(6, 6, 7, 7), _s(8, 8, 6, 7)],
    [_s(5, 5, 4, 3), _s(6, 6, 6, 7), _s(7, 7, 7, 6)],
    [_s(4, 4, 3, 3, 9), _s(10, 10, 11, 11, 12), _s(12, 12, 13, 13, 14)],
])
def test_shengji_io_winner_table(plays):
    from replay.order import Order
    from replay.ruleset import preset
    from replay.trick import trick_winner

    rs = preset("shengji-io")
    order = Order.for_ruleset(2, 1, rs)
    w = trick_winner([tuple(p) for p in plays], order, rs)
    idx, units, ruffed, _pts, _mult = native.rules_for(order, rs).trick_result(plays)
    assert (idx, _units(units), ruffed) == (w.index, tuple(w.units), w.ruffed)


def _counts(cards: list[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out
