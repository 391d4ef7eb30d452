"""The review's sampler draws as ``random.Random.choices`` would (issue 32, speed): its
hand-rolled weighted draw (``pov._weighted``) gives the same slot from the same generator
state, so the sampled deals — and every figure of the review — are those of the library
call it replaced; the per-decision bot of a deal (``decisions._option_rollouts``) values every
option as a fresh bot with the deal's seed would."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from analyzer.review.mistakes.pov import _weighted


@given(st.lists(st.integers(0, 30), min_size=1, max_size=8).filter(lambda w: sum(w) > 0),
       st.integers(0, 2**32), st.integers(1, 20))
def test_weighted_draw_is_the_librarys(weights, seed, draws):
    items = list(range(10, 10 + len(weights)))
    a, b = random.Random(seed), random.Random(seed)
    for _ in range(draws):
        assert _weighted(items, weights, a.random) == b.choices(items, weights=weights)[0]
    assert a.getstate() == b.getstate()


def test_option_rollouts_are_fresh_bots_play_outs():
    from analyzer.play.bot import Bot
    from analyzer.play.generate import generate_match
    from analyzer.review.mistakes.context import HandContext
    from analyzer.review.mistakes.decisions import _option_rollouts, _rollout, options_of
    from replay.game import replay
    rec = generate_match("standard", hands=1, seed=11)
    match = replay(rec)
    ctx = HandContext(match.hands[0], match=match, samples=0)
    checked = 0
    for ti in (2, 9):
        for k in range(4):
            st0 = ctx.node(ti, k)
            opts, _ = options_of(ctx, ti, k, st0)
            bot = Bot(ctx.ruleset, random.Random(f"t:{ti}:{k}"))
            got = _option_rollouts(st0, opts, bot)
            want = [_rollout(st0, m, lambda: Bot(ctx.ruleset, random.Random(f"t:{ti}:{k}"))) for m in opts]
            assert got == want
            checked += len(opts) > 1
    assert checked
