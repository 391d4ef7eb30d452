"""The finding-friends review's sampled deals built from one replay of the record
(:class:`analyzer.review.mistakes.friends.DealReplay`, the review's path) equal the
deals replayed whole from trick 1 (:meth:`FriendsHand.replayed`, ``replay_once=False``):
the same deals kept, each state slot for slot (the holdings in the same key order,
the finished tricks with the teams before each, the calls as assigned and answered,
the kitty's points), but the undo log (a sampled state is only played out: none).

Generated finding-friends hands of 4–8 players, the decks drawn or the table's own,
both ``friend_rule``s, and strict throw checks with a penalty (failed throws the deals
must agree with), at any decision of the hand.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from analyzer.play.generate import _friends_match
from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.friends import DealReplay, FriendsHand, sample_states
from notation.model import Tag
from primitives.cards import points
from replay.game import replay
from replay.ruleset import Ruleset, preset
from replay.state import HandState, _all_slots


def slots(st: HandState) -> dict[str, object]:
    """Every slot of ``st`` but the undo log, in a form that compares (the holdings with their key order)."""
    out: dict[str, object] = {}
    for name in _all_slots(HandState):
        v = getattr(st, name)
        if name == "_undo":
            continue
        if name == "_hands":
            v = [(s, list(h.items())) for s, h in v.items()]
        elif name == "_teams":
            v = (v.members, [(c.ordinal, c.card, c.seat, c.trick) for c in v.calls], v.skips, v.held, v.settled,
                 v.attackers)
        elif name == "_index":
            v = list(v.items())
        out[name] = v
    return out


def friends_record(players: int, decks: int | None, seed: int, rule: dict[str, str]):
    """One generated finding-friends hand under ``shengji-io-friends`` with the rule tags ``rule``."""
    base = preset("shengji-io-friends")
    rs = Ruleset(**{**base.model_dump(), "players": players, "decks": decks, **rule})
    rec = _friends_match(rs, "shengji-io-friends", 1, seed, None, players)
    tags = [rec.tags[0], *(Tag(name=f"Rule.{k}", value=v) for k, v in rule.items()), *rec.tags[1:]]
    if decks is not None and not any(t.name == "Rule.decks" for t in tags):
        tags.insert(1, Tag(name="Rule.decks", value=str(decks)))
    return rec.model_copy(update={"tags": tags})


@st.composite
def decisions(draw):
    """A generated hand, its real state before some play, and that play's (trick, index)."""
    players = draw(st.integers(4, 8))
    decks = draw(st.sampled_from((None, 2, 3)))
    rule: dict[str, str] = {}
    if draw(st.booleans()):
        rule["friend_rule"] = "held"
    if draw(st.booleans()):   # throws checked strictly, a failed one costs: deals that disagree with one
        rule |= {"throw_check": "strict", "throw_penalty": "per_card"}
    rec = friends_record(players, decks, draw(st.integers(0, 10**4)), rule)
    match = replay(rec)
    h = match.hands[0]
    ctx = HandContext(h, record_hand=rec.hands[0], match=match, samples=0)
    fh = FriendsHand(ctx)
    assert fh.why_not() is None, fh.why_not()
    ti = draw(st.integers(0, len(h.tricks) - 1))
    k = draw(st.integers(0, len(h.tricks[ti].plays) - 1))
    real = fh.start_state(dict(zip(fh.seats, h.tricks[0].hands_before, strict=True)), points(ctx.kitty_cards or ()))
    for i, j in fh.plays(ti, k):   # as the review pushes the record's plays on the real state
        fh.push(real, i, j)
    return fh, real, ti, k, draw(st.integers(0, 10**6))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(decisions())
def test_the_deals_replayed_once_are_the_deals_replayed_whole(case):
    fh, real, ti, k, seed = case
    seat = fh.hand.tricks[ti].plays[k].seat
    fast = DealReplay.of(fh, real, ti, k)
    assert fast is not None   # the review's real state is the record's plays: the fast path runs
    event(f"throws before the decision: {min(len(fast.throws), 3)}")
    event(f"held: {fh.held}")
    got = sample_states(fh, real, seat, ti, k, 8, seed)
    want = sample_states(fh, real, seat, ti, k, 8, seed, replay_once=False)
    event(f"deals kept: {len(want)}")
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        assert a._undo is None
        assert slots(a) == slots(b)


def test_any_deal_of_the_hidden_cards_comes_out_as_replayed_whole():
    """Deals of the hidden cards at random (no void kept, so some contradict a throw that
    stood in the record; once a decision the last thrower is given the suit's cards):
    :meth:`DealReplay.state` refuses exactly the deals the whole replay refuses, and
    gives the same state for the others (a generated six-player hand under the ``held``
    rule, every 7th decision)."""
    rec = friends_record(6, None, 2, {"friend_rule": "held"})
    match = replay(rec)
    h = match.hands[0]
    ctx = HandContext(h, record_hand=rec.hands[0], match=match, samples=0)
    fh = FriendsHand(ctx)
    real = fh.start_state(dict(zip(fh.seats, h.tricks[0].hands_before, strict=True)), points(ctx.kitty_cards or ()))
    rng = random.Random(5)
    refused = kept = 0
    for n, (ti, k) in enumerate(list(fh.plays(len(h.tricks) - 1, len(h.tricks[-1].plays)))):
        if n % 7 == 6:
            fast = DealReplay.of(fh, real, ti, k)
            assert fast is not None
            played = fh.played_before(ti, k)
            me = h.tricks[ti].plays[k].seat
            for m in range(6):
                pool = [c for s in fh.seats if s != me for c in real.holding(s).elements()]
                rng.shuffle(pool)
                seats = list(fh.seats)
                if m == 0 and fast.throws:   # the last thrower takes the suit's cards: a throw stands
                    cards, _, ring, _, _ = fast.throws[-1]
                    eff = ctx.order.eff
                    pool.sort(key=lambda c: eff[c] != eff[cards[0]])
                    if ring[0] != me:
                        seats.remove(ring[0])
                        seats.insert(0, ring[0])
                hands: dict[str, list[int]] = {}
                for s in seats:
                    if s == me:
                        hands[s] = list(real.holding(s).elements())
                    else:
                        size = sum(real.holding(s).values())
                        hands[s], pool = pool[:size], pool[size:]
                got = fast.state(hands, 5)
                want = fh.replayed({s: played[s] + hands[s] for s in fh.seats}, 5, ti, k)
                assert (got is None) == (want is None)
                if got is None:
                    refused += 1
                else:
                    assert want is not None and slots(got) == slots(want)
                    kept += 1
        fh.push(real, ti, k)
    assert refused and kept   # both kinds of deal met
