"""HandState.push then pop is exactly transparent (issue 15).

After any sequence of pushes and as many pops, the state equals the one
before: the holdings with their iteration order (a card whose last copy was
played goes back in its place: the bots and the mistake rules break ties by
that order), the order of legal_plays(), and every property. Positions are
taken from generated matches (fixed partners and finding friends), in the
strict mode and in the record mode (RecordState, tricks recorded leniently first).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from itertools import islice

from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.play.generate import generate_match
from primitives.cards import points
from replay.game import replay
from replay.record import RecordState
from replay.recorded import Recorded
from replay.state import HandState
from replay.teams import FriendResult, assign_holders

RULES = [("standard", None), ("one-deck", None), ("tractor97", None), ("shengji-io-friends", 6)]


@lru_cache(maxsize=16)
def _hand(rules: str, players: int | None, seed: int):
    match = replay(generate_match(rules, hands=2, seed=seed, players=players))
    return next((h for h in match.hands if h.complete and not h.redeal), None)


def _strict(h) -> HandState:
    friends = h.team is not None
    calls = [FriendResult(c.ordinal, c.card, None, None, c.span) for c in h.friends] if friends else None
    if calls and h.ruleset.friend_rule == "held":
        i = h.seats.index(h.dealer)
        ring = [h.seats[(i + k) % len(h.seats)] for k in range(len(h.seats))]
        assign_holders(calls, ring, {s: Counter(c) for s, c in h.start_hands.items()})
    return HandState(h.ruleset, h.order, h.start_hands, leader=h.dealer, dealer=h.dealer, seats=h.seats,
                     team=(h.dealer,) if friends else None, calls=calls, kitty_points=points(h.bury or ()))


def _snapshot(s: HandState) -> tuple:
    over = s.is_over
    return (
        {seat: list(h.items()) for seat, h in s.holdings.items()},
        list(islice(s.legal_plays(), 300)),
        s.unit_leads() if not over else None,
        s.legal_follows(),
        s.turn, s.leader, s.plays, s.lead, s.attempted, s.trick_number, s.tricks, s.last_trick, over,
        s.winning(), s.winner_so_far, s.team, [(c.seat, c.trick) for c in s.calls], s.trick_points,
        s.attacker_points, s.kitty_multiplier, s.hooked, s.final_points, s.to_play, s.lead_is_plain,
        [s.shown_voids(seat) for seat in s.seats],
        s.follow_extremes() if s.plays and not over else None,
        [s.can_beat(seat) for seat in s.to_play] if s.plays else None,
    )


def _start(h, record: bool, tricks: int, plays: int) -> HandState:
    """The hand's position after ``tricks`` tricks (recorded leniently in the
    record mode, pushed otherwise) and ``plays`` more plays pushed."""
    if record and h.team is None:
        s: HandState = RecordState(h.ruleset, h.order, h.start_hands, dealer=h.dealer, seats=h.seats,
                                   kitty_points=points(h.bury or ()))
        assert isinstance(s, RecordState)
        s.record_tricks([[Recorded(p.seat, p.cards, p.attempted) for p in t.plays] for t in h.tricks[:tricks]])
    else:
        s = _strict(h)
        for t in h.tricks[:tricks]:
            for p in t.plays:
                s.push(p.attempted or p.cards)
    if tricks < len(h.tricks):
        for p in h.tricks[tricks].plays[:plays]:
            s.push(p.attempted or p.cards if not s.plays else p.cards)
    return s


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RULES), st.integers(0, 3), st.booleans(), st.integers(0, 30), st.integers(0, 3),
       st.integers(1, 12), st.integers(0, 2**32))
def test_push_then_pop_is_exact(rules, seed, record, tricks, plays, depth, rseed):
    h = _hand(*rules, seed)
    if h is None:
        return
    s = _start(h, record, min(tricks, len(h.tricks)), plays)
    before = _snapshot(s)
    rng = random.Random(rseed)
    pushed = 0
    for _ in range(depth):
        moves = list(islice(s.legal_plays(), 40))
        if not moves:
            break
        s.push(rng.choice(moves))
        pushed += 1
    for _ in range(pushed):
        s.pop()
    assert _snapshot(s) == before


def test_pop_puts_an_emptied_card_back_in_its_place():
    # the case that used to differ: the last copy of a card that is not the holding's last key
    h = _hand("standard", None, 0)
    s = _strict(h)
    seat = s.turn
    keys = list(s.holding(seat))
    lead = next(p for p in s.legal_plays() if len(p) == 1 and s.holding(seat)[p[0]] == 1 and p[0] != keys[-1])
    s.push(lead)
    s.pop()
    assert list(s.holding(seat)) == keys


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(RULES), st.integers(0, 3), st.booleans(), st.integers(0, 30), st.integers(0, 3),
       st.integers(1, 40), st.integers(0, 2**32))
def test_a_copy_without_undo_pushes_the_same(rules, seed, record, tricks, plays, depth, rseed):
    # copy(undo=False) (the review's play-outs) skips only pop's bookkeeping: every push
    # leaves it in the position a full copy reaches, and it keeps none of that bookkeeping
    h = _hand(*rules, seed)
    if h is None:
        return
    s = _start(h, record, min(tricks, len(h.tricks)), plays)
    full, lean = s.copy(), s.copy(undo=False)
    rng = random.Random(rseed)
    for _ in range(depth):
        moves = list(islice(full.legal_plays(), 40))
        if not moves:
            break
        m = rng.choice(moves)
        assert full.push(m) == lean.push(m)
        assert _snapshot(lean) == _snapshot(full)
    assert lean._undo is None and s._undo is not None
