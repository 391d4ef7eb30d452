"""The review's sampler of successive deals (:class:`analyzer.review.mistakes.pov.Dealer`)
against :func:`~analyzer.review.mistakes.pov._deal` called once a deal: the same deals in
the same order, whichever way the native core deals them (``sample_deals``, many deals a
call; ``sample_deal``, one a call, the generator's state carried between calls) and in
pure Python."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_native_options import deal_inputs

from analyzer.review.mistakes import pov
from replay import native


@pytest.fixture(autouse=True)
def _native_on():
    native.set_enabled(True)
    yield
    native.set_enabled(True)


def _python_deals(case, wants):
    """The deals of ``_deal`` called once for each of ``wants``, in pure Python."""
    pool, sizes, void_of, eff, pins, seed, tries = case
    rng = random.Random(seed)
    native.set_enabled(False)
    try:
        return [pov._deal(pool, sizes, void_of, eff, rng, tries, pins=pins) for _ in wants]
    finally:
        native.set_enabled(True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal_inputs(), st.lists(st.integers(1, 90), min_size=1, max_size=12))
def test_the_dealer_deals_what_deal_would_deal_by_deal(case, wants):
    pool, sizes, void_of, eff, pins, seed, tries = case
    want = _python_deals(case, wants)
    one = pov.Dealer(pool, sizes, void_of, eff, random.Random(seed), tries, pins=pins)
    assert one.args is not None   # the native core deals these
    one.many = None               # one deal a native call
    assert [one(w) for w in wants] == want
    many = pov.Dealer(pool, sizes, void_of, eff, random.Random(seed), tries, pins=pins)
    if many.many is not None:     # the deals wanted in one call
        assert [many(w) for w in wants] == want
    event(f"{'many' if many.many is not None else 'one'}: {sum(d is None for d in want)} dead ends of {len(want)}")


def test_the_dealer_without_the_native_core_is_the_python_deal():
    rng = random.Random(3)
    pool = sorted(rng.choices(range(54), k=60))
    sizes = {0: 20, 1: 20, 2: 12, 3: 8}
    void_of = {0: {1}, 1: set(), 2: {4}, 3: set()}
    eff = [c // 13 if c < 52 else 4 for c in range(54)]
    case = (pool, sizes, void_of, eff, (), "7", 40)
    want = _python_deals(case, range(20))
    native.set_enabled(False)
    try:
        dealer = pov.Dealer(pool, sizes, void_of, eff, random.Random("7"))
        assert dealer.args is None
        assert [dealer(20 - i) for i in range(20)] == want
    finally:
        native.set_enabled(True)
    many = pov.Dealer(pool, sizes, void_of, eff, random.Random("7"))
    assert [many(20 - i) for i in range(20)] == want


def test_sample_deals_refuses_what_sample_deal_refuses():
    mod = native.module()
    if getattr(mod, "sample_deals", None) is None:
        pytest.skip("this native core has no sample_deals")
    words = list(random.Random(1).getstate()[1])
    eff = [c // 13 if c < 52 else 4 for c in range(54)]
    bad = (ValueError, TypeError, OverflowError)
    for args in ((eff[:53], [1], [1], [[]], [], words, 3, 2), (eff, [60], [1], [[]], [], words, 3, 2),
                 (eff, [1], [1, 1], [[]], [], words, 3, 2), (eff, [1], [1], [[]], [], words[:624] + [625], 3, 2),
                 (eff, [1], [1], [[]], [], words, 3, 5000), (eff, [1], [1], [[]], [], words, 3, -1)):
        with pytest.raises(bad):
            mod.sample_deals(*args)
    dealt, after = mod.sample_deals(eff, [1, 2], [2, 0], [[], []], [(3, [5])], words, 3, 3)
    assert dealt == [None, None, None] and len(after) == 625
    dealt, after = mod.sample_deals(eff, [1, 2], [1, 1], [[], []], [], words, 3, 0)
    assert dealt == [] and list(after) == words
