"""Which throws are worth a throw check: replay.trick.throw_options / throw_leads,
what the endgame search asks instead of pruning throws by a rule of its own (issue 15).

RULES.md §6 "Throw check": a throw fails when another player beats any of its
units; a card that appears once is a single unit, so a single another player
beats (a higher card of its effective suit) makes the throw fail, unless the
ruleset checks no throws (``throw_check: none``, botzone).
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primitives.cards import parse_cards as C
from replay.order import Order
from replay.ruleset import preset
from replay.trick import check_throw, throw_leads, throw_options
from replay.units import decompose

STD = preset("standard")            # two decks, level 2
ORDER = Order.for_ruleset(2, 1, STD)   # ♥ trump


def _leads(holding, others, rs=STD, order=ORDER):
    return {tuple(sorted(x)) for opts in throw_options(C(holding), [C(o) for o in others], order, rs)
            for x in throw_leads(opts, order)}


@pytest.mark.parametrize(("holding", "others", "rs", "want"), [
    # ♠A ♠K: W holds no higher spade, so both singles may go in (§6: nobody beats them)
    ("SA SK C3", ["SQ", "D4", "D5"], "standard", {"SKA"}),
    # W holds ♠A: the single ♠K would be beaten, so no candidate holds it once
    ("SA SK C3", ["SA", "D4", "D5"], "standard", set()),
    # a pair may go in whoever holds higher cards (the throw check decides)
    ("SA S3 S3", ["SK", "D4", "D5"], "standard", {"S33A"}),
    ("SK S3 S3", ["SA", "D4", "D5"], "standard", set()),      # ♠K single beaten; ♠33 alone is one unit
    # throw_check none (botzone): every multi-unit lead of one suit is a candidate
    ("SK S3 C3", ["SA", "D4", "D5"], "botzone", {"S3K"}),
    # one card of a suit: nothing to throw
    ("SA C3 D3", ["SK", "D4", "D5"], "standard", set()),
])
def test_throw_candidates_table(holding, others, rs, want):
    r = preset(rs)
    order = Order.for_ruleset(2, 1, r)
    assert _leads(holding, others, r, order) == {tuple(sorted(C(w))) for w in want}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=2, max_size=7), st.lists(st.integers(1, 12), max_size=8),
       st.sampled_from(["standard", "botzone", "one-deck"]))
def test_every_throw_that_stands_is_a_candidate(mine, theirs, rs):
    # complete: no multi-unit lead of one suit that the throw check lets stand is left out
    r = preset(rs)
    order = Order.for_ruleset(2, 1, r)
    held = Counter(mine)             # plain spades only (♠3..♠A; ♠2 is the level card), two decks
    held = Counter({c: min(k, r.decks) for c, k in held.items()})
    other = Counter({c: min(k, r.decks - held.get(c, 0)) for c, k in Counter(theirs).items()})
    other = +other
    cands = {tuple(sorted(x)) for opts in throw_options(held.elements(), [other.elements(), [], []], order, r)
             for x in throw_leads(opts, order)}
    cards = sorted(held)
    for counts in product(*(range(held[c] + 1) for c in cards)):
        lead = tuple(c for c, n in zip(cards, counts, strict=True) for _ in range(n))
        if len(lead) < 2 or len(decompose(lead, order)) < 2:
            continue
        chk = check_throw(lead, 0, [dict(held), dict(other), {}, {}], ["N", "W", "S", "E"], order, r)
        if not chk.blockers:
            assert lead in cands
