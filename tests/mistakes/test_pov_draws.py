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


def _throw_hands():
    """Hands of generated two-deck matches with throws led (some stood, some failed)."""
    from analyzer.play.generate import generate_match
    from analyzer.review.mistakes.context import HandContext
    from replay.game import replay
    out = []
    for seed in range(1, 9):
        rec = generate_match("standard", hands=3, seed=seed)
        match = replay(rec)
        for h, rh in zip(match.hands, rec.hands, strict=False):
            ctx = HandContext(h, record_hand=rh, match=match, samples=0)
            throws = [(ti, t.plays[0]) for ti, t in enumerate(h.tricks)
                      if t.plays and ctx.is_throw(t.plays[0].attempted or t.plays[0].cards)]
            if throws:
                out.append((ctx, throws))
    return out


def test_sampled_deals_judge_every_throw_as_the_table_saw_it():
    """Issue 32: the deals are consistent with everything the player saw. A throw that stood
    says nobody after the thrower could beat a unit of it; one that failed, that someone could
    (and which unit the thrower had to play); the cards it took back are in the thrower's hand.
    Every sampled deal agrees (the engine judges the throw again on it), and so every sampled
    position replays the trick as it was played (no follow longer than its lead)."""
    from collections import Counter

    from analyzer.review.mistakes.decisions import _sample_state
    from analyzer.review.mistakes.pov import sample_deals, throws_agree, throws_seen
    from replay.seats import SEATS
    from replay.trick import check_throw
    stood = failed = 0
    for ctx, throws in _throw_hands():
        for ti, lead in throws:
            if ti + 1 >= len(ctx.hand.tricks):
                continue
            nxt = ctx.hand.tricks[ti + 1]
            seat = next(p.seat for p in nxt.plays if p.seat != lead.seat)
            deals = sample_deals(ctx, seat, ti + 1, 0, 6, 19)
            assert deals
            seen = throws_seen(ctx, ti + 1, 0)
            for pos, kp in deals:
                assert throws_agree(ctx, ti + 1, 0, pos.hands, seen)
                # the engine's verdict on the sampled holdings at the throw
                held = [Counter(h) for h in pos.hands]
                for p in ctx.hand.tricks[ti].plays:
                    held[SEATS.index(p.seat)].update(p.cards)
                first = SEATS.index(lead.seat)
                order = [SEATS[(first + n) % 4] for n in range(4)]
                chk = check_throw(lead.attempted or lead.cards, 0, [held[SEATS.index(x)] for x in order], order,
                                  ctx.order, ctx.ruleset)
                assert (not chk.blockers) == (lead.attempted is None)
                if lead.attempted is not None:
                    back = Counter(lead.attempted) - Counter(lead.cards)
                    assert not back - Counter(held[SEATS.index(lead.seat)])
                st = _sample_state(ctx, ti + 1, 0, pos.hands, kp)
                assert len({sum(h.values()) for h in st.holdings.values()}) == 1
            stood += lead.attempted is None
            failed += lead.attempted is not None
    assert stood and failed
