"""HandContext.state: the engine's position the mistake rules ask, one shared
HandState per trick (issue 15), its questions about the trick in progress
and the two compositions of base.py over them.

The cached state must answer exactly as a fresh one would, whatever order the
rules ask in: a holding's iteration order decides ties between equally cheap
follows (SJ604's and SJ606's suggestions), so the cache never puts cards back
with ``pop`` (one state per play, each a copy of the one before with the play
pushed), and "what if" is asked on a copy.
"""

from __future__ import annotations

import pytest

from analyzer.play.generate import generate_match
from analyzer.review.mistakes.context import HandContext, best_so_far
from analyzer.review.mistakes.pov import voids
from analyzer.review.mistakes.rules._shared import unbeatable_by
from replay.game import replay
from replay.legal import beating_follow, follow_extremes, shown_void
from replay.order import TRUMP
from replay.trick import lead_suit, trick_winner


def _hand(preset: str, seed: int):
    match = replay(generate_match(preset, hands=2, seed=seed))
    return next(h for h in match.hands if h.complete and h.team is None)


def _snapshot(st):
    return (st.turn, st.plays, st.attempted, st.trick_number,
            {s: list(h.items()) for s, h in st.holdings.items()})


def _fresh(hand, ti: int, k: int):
    return HandContext(hand).state(ti, k)


@pytest.mark.parametrize("preset, seed", [("standard", 3), ("one-deck", 5), ("tractor97", 8)])
def test_cached_state_answers_as_a_fresh_one(preset, seed):
    hand = _hand(preset, seed)
    ctx = HandContext(hand)
    n = len(hand.tricks)
    # forward, backward and jumping, as three rules sweeping the tricks would ask
    for ti in (0, n // 2, n - 1):
        for k in (1, 2, 3, 1, 3, 0, 2, 4, 0):
            got = _snapshot(ctx.state(ti, k))
            assert got == _snapshot(_fresh(hand, ti, k)), (ti, k)
            t = hand.tricks[ti]
            if k < 4:
                st = ctx.state(ti, k)
                assert st.turn == t.plays[k].seat and st.trick_number == t.number


def test_state_after_the_whole_trick():
    hand = _hand("standard", 3)
    st = HandContext(hand).state(0, 4)
    t = hand.tricks[0]
    assert st.last_trick is not None and st.last_trick.winner == t.winner and st.last_trick.points == t.points
    assert st.turn == t.winner and not st.plays


@pytest.mark.parametrize("preset, seed", [("standard", 3), ("one-deck", 5)])
def test_questions_answer_as_the_engine_functions(preset, seed):
    # each question answers what the engine's functions answer for the recorded position
    hand = _hand(preset, seed)
    ctx = HandContext(hand)
    order, rs = hand.order, hand.ruleset
    for ti, t in enumerate(hand.tricks):
        for k in range(1, 4):
            st = ctx.state(ti, k)
            plays = [p.cards for p in t.plays[:k]]
            before = _snapshot(st)
            assert best_so_far(st) == trick_winner(plays, order, rs).index
            assert st.to_play == tuple(p.seat for p in t.plays[k:])
            for p in t.plays[k:]:
                held = st.holding(p.seat)
                assert st.can_beat(p.seat) == (beating_follow(plays, held, order, rs) is not None)
            me = t.plays[k].seat
            assert unbeatable_by(st, me, ctx.mates, partners=False) == all(
                beating_follow(plays, st.holding(p.seat), order, rs) is None
                for p in t.plays[k:] if not ctx.mates(p.seat, me))
            assert st.follow_extremes() == follow_extremes(t.plays[0].cards, st.holding(me), order, rs)
            won = st.winner_if(t.plays[k].cards)
            assert won == t.plays[trick_winner(plays + [t.plays[k].cards], order, rs).index].seat
            if k == 3:
                assert won == t.winner
            follows = st.legal_follows(limit=20)
            assert [st.winner_if(f) for f in follows] == [
                t.plays[trick_winner(plays + [f], order, rs).index].seat for f in follows]
            assert st.lead_is_plain == (lead_suit(t.plays[0].cards, order) not in (None, TRUMP))
            assert all(st.shown_voids(s) == {v for q in t.plays[1:k] if q.seat == s
                                             if (v := shown_void(t.plays[0].cards, q.cards, order, rs)) is not None}
                       for s in "NWSE")
            # "what if" leaves the shared state as it was (holdings in the same order)
            assert _snapshot(st) == before


@pytest.mark.parametrize("preset, seed", [("standard", 3), ("one-deck", 5), ("titanic", 2)])
def test_the_cached_questions_answer_as_the_state(preset, seed):
    # follow_extremes and forced are kept per play: every play asked (twice, in two
    # orders) answers what its own state answers
    hand = _hand(preset, seed)
    ctx = HandContext(hand)
    plays = [(ti, k) for ti, t in enumerate(hand.tricks) for k in range(len(t.plays))]
    for ti, k in [*plays, *reversed(plays)]:
        st = ctx.state(ti, k)
        if k:
            assert ctx.follow_extremes(ti, k) == st.follow_extremes()
            assert ctx.forced(ti, k) == (len(st.legal_follows()) <= 1)
        else:
            lead = hand.tricks[ti].plays[0]
            assert ctx.forced(ti, k) == (len(st.unit_leads()) <= 1 and not ctx.is_throw(lead.attempted or lead.cards))
    assert any(ctx.forced(ti, k) for ti, k in plays) and not all(ctx.forced(ti, k) for ti, k in plays)


def test_teams_are_the_engines():
    hand = _hand("standard", 3)
    ctx = HandContext(hand)
    dealer = hand.dealer
    partner = {"N": "S", "S": "N", "E": "W", "W": "E"}[dealer]
    assert not ctx.is_attacker(dealer) and not ctx.is_attacker(partner)
    assert all(ctx.is_attacker(s) for s in "NWSE" if s not in (dealer, partner))
    a, b = (s for s in "NWSE" if s not in (dealer, partner))
    assert ctx.mates(dealer, partner) and ctx.mates(a, b) and not ctx.mates(dealer, a) and not ctx.mates(b, partner)


@pytest.mark.parametrize("preset, seed", [("standard", 3), ("one-deck", 5)])
def test_pov_voids_are_the_tricks_shown_voids(preset, seed):
    # pov.voids asks the engine's states; the same as shown_void over the recorded follows
    hand = _hand(preset, seed)
    ctx = HandContext(hand)
    order, rs = hand.order, hand.ruleset
    for ti in range(len(hand.tricks)):
        for k in range(4):
            want: dict[str, set[int]] = {s: set() for s in "NWSE"}
            for tj, t in enumerate(hand.tricks[:ti + 1]):
                for q in t.plays[1:(k if tj == ti else 4)]:
                    v = shown_void(t.plays[0].cards, q.cards, order, rs)
                    if v is not None:
                        want[q.seat].add(v)
            assert voids(ctx, ti, k) == want
    assert any(voids(ctx, len(hand.tricks) - 1, 3).values())   # the hand shows some void
