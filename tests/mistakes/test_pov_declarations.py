"""The player's-view sampler knows what the declarations showed (issue 32: deals
"sampled consistently with everything that player had seen (their hand, the
bidding, …)"): a card another seat showed in an accepted declaration and has not
played since is in that seat's hand in every sampled deal; the burier's may be in
the kitty; a refused declaration pins nothing."""

from __future__ import annotations

from collections import Counter

import pytest

from analyzer.play.generate import generate_match
from analyzer.review.mistakes import pov
from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.pov import declared_cards, pinned, sample_deals
from notation import parse, write
from primitives.cards import parse_cards as C
from replay.game import replay as run
from replay.seats import SEATS


def _ctx(seed: int, hand: int, text_edit=None) -> HandContext:
    rec = generate_match("standard", hands=2, seed=seed)
    if text_edit is not None:
        rec = parse(text_edit(write([rec])))[0][0]
    match = run(rec)
    return HandContext(match.hands[hand], record_hand=rec.hands[hand])


def _first_play_of(ctx: HandContext, seat: str) -> tuple[int, int]:
    for k, p in enumerate(ctx.hand.tricks[0].plays):
        if p.seat == seat:
            return 0, k
    raise AssertionError(seat)


def _held_in_every_deal(ctx: HandContext, seat: str, ti: int, k: int, n: int = 24) -> dict[str, bool]:
    """For each other seat that declared (and did not bury): are its declared
    cards, less what it played before the decision, in its hand in every deal?"""
    shown = declared_cards(ctx)
    deals = sample_deals(ctx, seat, ti, k, n, seed=3)
    assert len(deals) == n
    out = {}
    for who, cards in shown.items():
        if who in (seat, ctx.burier):
            continue
        played = Counter(c for t in ctx.hand.tricks[:ti + 1] for p in (t.plays[:k] if t is ctx.hand.tricks[ti]
                                                                        else t.plays) if p.seat == who
                         for c in p.cards)
        rest = Counter(cards) - played
        i = SEATS.index(who)
        out[who] = all(not rest - Counter(pos.hands[i]) for pos, _ in deals)
    return out


@pytest.mark.parametrize("seed, hand, want", [
    # (generated standard matches; their declarations as the engine read them)
    (1, 1, {"E": ["D3"], "S": ["C3", "C3"], "W": ["BJ", "BJ"]}),   # declare, override, override
    (2, 0, {"W": ["S2", "BJ", "BJ"]}),                             # a declare line lists all shown cards
    (5, 1, {"E": ["S3"], "S": ["LJ", "LJ"]}),
])
def test_declared_cards_are_the_accepted_lines(seed, hand, want):
    ctx = _ctx(seed, hand)
    got = declared_cards(ctx)
    assert got == {s: tuple(sorted(C(" ".join(v)))) for s, v in want.items()}


def test_declared_cards_are_in_their_holders_hand_in_every_deal(monkeypatch):
    ctx = _ctx(1, 1)   # dealer S; E showed D3, W showed BJ BJ (E plays D3 in trick 1, W keeps BJ BJ)
    assert ctx.burier == "S"
    ti, k = _first_play_of(ctx, "N")
    assert _held_in_every_deal(ctx, "N", ti, k) == {"E": True, "W": True}
    assert _held_in_every_deal(ctx, "N", 0, 0) == {"E": True, "W": True}   # N's view before the first lead
    # the test can fail: without the pins, the random deals do not keep them there
    monkeypatch.setattr(pov, "pinned", lambda *a, **kw: [])
    assert _held_in_every_deal(ctx, "N", ti, k) == {"E": True, "W": False}  # E had played its D3
    assert _held_in_every_deal(ctx, "N", 0, 0) == {"E": False, "W": False}


def test_the_buriers_declared_cards_may_be_in_the_kitty():
    ctx = _ctx(1, 1)   # S, the dealer and burier, showed C3 C3
    ti, k = 0, 0       # before S's first lead (which plays both C3 and E's D3): what N knows then
    slot_of = {s: i for i, s in enumerate(SEATS) if s != "N"}
    st = ctx.state(ti, k)
    pool = sorted(c for s in SEATS if s != "N" for c in st.holding(s).elements()) + sorted(ctx.kitty_cards or ())
    sizes = {i: st.holding(s).total() for s, i in slot_of.items()} | {4: len(ctx.kitty_cards or ())}
    voids = {i: set() for i in range(5)}
    pins = dict(Counter(pinned(ctx, "N", ti, k, slot_of, 4, pool, sizes, voids)))
    s_slot, e_slot, w_slot = SEATS.index("S"), SEATS.index("E"), SEATS.index("W")
    assert pins == {(C("C3")[0], (s_slot, 4)): 2, (C("D3")[0], (e_slot,)): 1, (C("BJ")[0], (w_slot,)): 2}
    # the burier itself knows the kitty: no kitty slot, and its own cards are not pinned
    slot_s = {s: i for i, s in enumerate(SEATS) if s != "S"}
    got = pinned(ctx, "S", ti, k, slot_s, None, pool, sizes, voids)
    assert {c for c, _ in got} == {C("D3")[0], C("BJ")[0]}


def test_a_refused_declaration_pins_nothing():
    # N "declares" a single SA: not a level card, the engine refuses it
    def edit(text: str) -> str:
        first = text.index("declare ")
        return text[:first] + "declare N SA\n" + text[first:]
    ctx = _ctx(1, 0, edit)
    assert "refused" in ctx.hand.declaration_acts
    assert "N" not in declared_cards(ctx) or C("SA")[0] not in declared_cards(ctx)["N"]


def _pins_at(ctx: HandContext, ti: int, k: int) -> tuple[str, list[tuple[int, tuple[int, ...]]]]:
    st = ctx.state(ti, k)
    me = ctx.hand.tricks[ti].plays[k].seat
    slot_of = {s: i for i, s in enumerate(SEATS) if s != me}
    pool = sorted(c for s in SEATS if s != me for c in st.holding(s).elements()) + sorted(ctx.kitty_cards or ())
    sizes = {i: st.holding(s).total() for s, i in slot_of.items()} | {4: len(ctx.kitty_cards or ())}
    return me, pinned(ctx, me, ti, k, slot_of, 4 if me != ctx.burier else None, pool, sizes,
                      {i: set() for i in range(5)})


def test_played_cards_are_no_longer_pinned():
    ctx = _ctx(1, 1)   # W showed BJ BJ
    bj = C("BJ")[0]
    plays = [(ti, k, p) for ti, t in enumerate(ctx.hand.tricks) for k, p in enumerate(t.plays)]
    gone = 0
    checked = 0
    for ti, k, p in plays:
        if p.seat != "W":
            _me, pins = _pins_at(ctx, ti, k)
            assert sum(1 for c, _ in pins if c == bj) == 2 - gone
            checked += 1
        if p.seat == "W":
            gone += p.cards.count(bj)
    assert gone == 2 and checked > 0   # W played both: the count went 2 → 1 → 0 along the hand


def test_finding_friends_deals_keep_the_declared_card_with_its_holder(monkeypatch):
    """The friends sampler pins the same way (friends.sample_states): P1 declared D2
    (and plays it only in trick 10); before that, P3's sampled deals all give it to P1."""
    from analyzer.review.mistakes import friends as F
    from analyzer.review.mistakes.friends import FriendsContext, FriendsHand, sample_states
    rec = generate_match("shengji-io-friends", players=5, hands=1, seed=3)
    text = write([rec])
    assert "trump D\n" in text and "P1: D2" in text
    recs, _ = parse(text.replace("trump D\n", "declare P1 D2\n"))
    match = run(recs[0])
    h = match.hands[0]
    assert h.declaration_acts == ("declare",) and h.dealer == "P2" and not h.diagnostics
    ctx = FriendsContext(h, record_hand=recs[0].hands[0], match=match)
    fh = FriendsHand(ctx)
    assert fh.why_not() is None
    d2 = C("D2")[0]
    ti, k = 1, 1
    assert ctx.hand.tricks[ti].plays[k].seat == "P3"
    real = ctx.state(ti, k)

    def p1_keeps(states) -> bool:
        return all(st.holding("P1")[d2] >= 1 for st in states)
    got = sample_states(fh, real, "P3", ti, k, 16)
    assert len(got) >= 8 and p1_keeps(got)
    monkeypatch.setattr(F, "pinned", lambda *a, **kw: [])
    assert not p1_keeps(sample_states(fh, real, "P3", ti, k, 16))
