"""shengji.io's unit rules in the native core (native/src/sjio*.rs) against the
Python engine (replay/sjio.py, sjio_fallbacks.py, sjio_winner.py): the
``shengji-io`` presets drawn alone, as they are or with their trick options
varied, on longer hands than the every-preset tests deal (so leads are read
several ways, throws are checked against tractors and follows walk several
fallback shapes). Every preset already draws ``unit_split`` and
``follow_policy: shengji_io`` now and then (native_positions.TRICK_OPTIONS)."""

from __future__ import annotations

import random

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
