"""Sequential sampling of the full review (analyzer.review.mistakes.decisions.unsure,
value_decision, friends.value_friends_decision): a decision unsure after its first batch of
deals is valued again on new deals only, up to the maximum; a clear one stops at the first.

Table cases of the rule (:func:`unsure`, :func:`interim_critical`), then decisions of a
generated one-deck hand and of a finding-friends sample: a clear decision keeps its first
valuation, an unsure one is valued again on ``max − first`` new deals (the first ones left
out: changing them changes nothing), the maximum is respected, and the result is the same
from run to run and with the native core on or off.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import analyzer.play.generate as G
from analyzer.review.mistakes import decisions as D
from analyzer.review.mistakes import friends as F
from analyzer.review.mistakes import review_full
from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.decisions import Decision, interim_critical, unsure, value_decision
from notation import parse
from primitives.cards import points
from replay import native
from replay.game import replay

ROOT = Path(__file__).resolve().parents[2]


def _d(raw: float, se: float, samples: int = 8, *, judged: bool = True, forced: bool = False) -> Decision:
    d = Decision(1, 1, 0, "N", "lead", (1,), judged=judged, forced=forced, samples=samples)
    d.raw_loss, d.loss, d.loss_se = raw, max(0.0, raw), se
    return d


UNSURE = [
    # (name, decision, unsure)
    ("the play was best in every deal: clear", _d(0.0, 0.0), False),
    ("a loss clearly under MIN_COST: clear", _d(1.0, 1.0), False),
    ("a loss plus one standard error just under MIN_COST: clear", _d(2.0, 2.9), False),
    ("a loss plus one standard error at MIN_COST: unsure", _d(2.0, 3.0), True),
    ("a negative estimate whose error reaches MIN_COST: unsure", _d(-3.0, 9.0), True),
    ("a large negative estimate: clear", _d(-12.5, 7.3), False),
    ("a verdict at 8 deals (2.6 se) but not beyond 3.54 se: unsure", _d(13.0, 5.0), True),
    ("a loss just under the interim value: unsure", _d(10.0, 10.0 / 3.54 + 0.01), True),
    ("a verdict beyond the interim value: clear", _d(10.0, 10.0 / 3.54 - 0.01), False),
    ("beyond 3.54 se, one se under MIN_COST: clear (no verdict can come of it)", _d(3.5, 1.0), False),
    ("beyond 3.54 se, within one se of MIN_COST: unsure", _d(4.0, 1.0), True),
    ("a loss of MIN_COST, beyond the interim value: clear", _d(5.0, 1.0), False),
    ("a big loss, far beyond: clear", _d(60.0, 4.0), False),
    ("not judged", _d(10.0, 5.0, judged=False), False),
    ("forced", _d(10.0, 5.0, forced=True), False),
]


@pytest.mark.parametrize("name,d,want", UNSURE, ids=[c[0] for c in UNSURE])
def test_unsure(name, d, want):
    assert unsure(d) is want


@pytest.mark.parametrize("n,want", [(8, 3.54), (16, 3.195), (24, 3.06), (31, 3.06), (32, 3.0), (100, 3.0)])
def test_interim_critical(n, want):
    assert interim_critical(n) == pytest.approx(want, abs=1e-9)
    assert interim_critical(n) > D.critical(n)   # stricter than the last look's


@pytest.fixture(scope="module")
def one_deck():
    """A generated one-deck hand (its decisions: docs/performance.md, twentieth session)."""
    rec = G.generate_match("one-deck", hands=1, seed=3)
    m = replay(rec)
    return HandContext(m.hands[0], record_hand=rec.hands[0], match=m, samples=0)


#: decisions of that hand: (trick index, play index, unsure after its first 8 deals)
PLAYS = [(0, 0, True), (1, 0, True), (1, 2, True), (2, 0, False), (2, 1, False), (5, 2, False)]


@pytest.mark.parametrize("ti,k,again", PLAYS)
def test_clear_stops_unsure_extends(one_deck, ti, k, again):
    first = value_decision(one_deck, ti, k)                      # 8 deals, fixed
    seq = value_decision(one_deck, ti, k, max_samples=24)
    assert first.judged and unsure(first) is again
    if again:
        assert seq.samples == 16                                  # the new deals only
        assert seq.as_dict(None)["screen_samples"] == 8           # the first look's, set aside
        assert seq.as_dict(None) != first.as_dict(None)
    else:
        assert seq.as_dict(None) == first.as_dict(None)           # the first valuation, as it was
        assert seq.as_dict(None)["screen_samples"] == 0


def test_the_maximum_is_respected(one_deck):
    assert value_decision(one_deck, 0, 0, max_samples=12).samples == 4
    assert value_decision(one_deck, 0, 0, max_samples=13).samples == 4          # even
    fixed = value_decision(one_deck, 0, 0).as_dict(None)
    for top in (None, 2, 8, 9):
        assert value_decision(one_deck, 0, 0, max_samples=top).as_dict(None) == fixed
    assert value_decision(one_deck, 0, 0, samples=16, max_samples=24).samples == 8


def test_the_second_valuation_leaves_the_first_deals_out(one_deck, monkeypatch):
    """Other first deals (another seed), the same decision to look again: the same result;
    and the sampler is asked for batch 0 (8 deals), then batch 1 (16)."""
    want = value_decision(one_deck, 0, 0, max_samples=24).as_dict(None)
    calls = []
    real = D.sample_deals

    def other_first(ctx, seat, ti, k, n, seed, *, batch=0):
        calls.append((n, batch))
        return real(ctx, seat, ti, k, n, seed + (0 if batch else 1), batch=batch)
    monkeypatch.setattr(D, "sample_deals", other_first)
    monkeypatch.setattr(D, "unsure", lambda d: True)
    assert value_decision(one_deck, 0, 0, max_samples=24).as_dict(None) == want
    assert calls == [(8, 0), (16, 1)]


def test_batches_have_their_own_deals(one_deck):
    a = D.sample_deals(one_deck, "E", 0, 0, 8, D.SEED)
    assert D.sample_deals(one_deck, "E", 0, 0, 8, D.SEED) == a
    assert D.sample_deals(one_deck, "E", 0, 0, 8, D.SEED, batch=0) == a
    assert D.sample_deals(one_deck, "E", 0, 0, 8, D.SEED, batch=1) != a
    assert D.sample_deals(one_deck, "E", 0, 0, 8, D.SEED, batch=2) != D.sample_deals(one_deck, "E", 0, 0, 8, D.SEED, batch=1)


@pytest.mark.skipif(not native.available(), reason="the native core is not built")
def test_the_same_with_either_engine(one_deck):
    got = []
    for on in (True, False, True):
        native.set_enabled(on)
        try:
            got.append([value_decision(one_deck, ti, k, max_samples=24).as_dict(None) for ti, k in ((0, 0), (2, 0))])
        finally:
            native.set_enabled(True)
    assert got[0] == got[1] == got[2]


def test_the_full_review_samples_sequentially():
    rec = G.generate_match("one-deck", hands=1, seed=3)
    m = replay(rec)

    def plays(**kw):
        hands = review_full(m, record=rec, **kw).summary["hands"]
        return [d for d in hands[0]["decisions"] if d["judged"] and d["kind"] not in ("bury", "declare")]
    default, fixed = plays(), plays(max_samples=D.SAMPLES)
    assert D.MAX_SAMPLES > D.SAMPLES and default == plays(max_samples=D.MAX_SAMPLES)
    assert {d["samples"] for d in fixed} == {D.SAMPLES}
    assert {d["samples"] for d in plays(max_samples=24)} == {D.SAMPLES, 16}
    changed = sum(a != b for a, b in zip(default, fixed, strict=True))
    assert 0 < changed < len(fixed)   # the unsure ones only
    assert {d["screen_samples"] for d in fixed} == {0}
    assert {d["screen_samples"] for d in default} == {0, D.SAMPLES}


def test_a_finding_says_it_was_valued_again():
    """A verdict on new deals says a first look left it unsure; a verdict of the first look does not."""
    recs, _ = parse((ROOT / "samples/matches/standard.sjn").read_text(encoding="utf-8"))
    m = replay(recs[0])
    rv = review_full(m, record=recs[0])
    said = {(d["hand"], d["trick"], d["seat"]): d["screen_samples"]
            for h in rv.summary["hands"] for d in h["decisions"] if d["band"] and d["kind"] not in ("bury", "declare")}
    seen = {True: 0, False: 0}
    for f in rv.findings:
        key = (f.hand, f.trick, f.seat)
        if key in said and "played" in f.message:
            again = said[key] > 0
            seen[again] += 1
            assert (f"after a first look over {said[key]} left it unsure" in f.message) is again
    assert seen[True] and seen[False]


@pytest.fixture(scope="module")
def friends_hand():
    recs, _ = parse((ROOT / "samples/matches/shengji-io-friends.sjn").read_text(encoding="utf-8"))
    m = replay(recs[0])
    ctx = HandContext(m.hands[0], record_hand=recs[0].hands[0], match=m, samples=0)
    fh = F.FriendsHand(ctx)
    h = ctx.hand
    real = fh.start_state(dict(zip(fh.seats, h.tricks[0].hands_before, strict=True)),
                          points(ctx.kitty_cards or ()))
    return fh, real


def test_friends_clear_and_unsure(friends_hand):
    fh, real = friends_hand
    seen = {True: 0, False: 0}
    for k in range(len(fh.hand.tricks[0].plays)):
        first = F.value_friends_decision(fh, real, 0, k)
        if not first.judged:
            fh.push(real, 0, k)
            continue
        seq = F.value_friends_decision(fh, real, 0, k, max_samples=24)
        again = unsure(first)
        seen[again] += 1
        if again:
            assert seq.samples == 16 and seq.friends is not None and "dealer_team_deals" in seq.friends
            assert seq.screened == 8
        else:
            assert seq.as_dict(None) == first.as_dict(None)
        assert F.value_friends_decision(fh, real, 0, k, max_samples=24).as_dict(None) == seq.as_dict(None)
        fh.push(real, 0, k)
    assert seen[True] and seen[False]


def test_friends_batches_have_their_own_deals(friends_hand):
    fh, real = friends_hand
    seat = fh.hand.tricks[0].plays[0].seat

    def hands(batch):
        return [tuple(tuple(sorted(st.holding(s).elements())) for s in fh.seats)
                for st in F.sample_states(fh, real, seat, 0, 0, 8, batch=batch)]
    assert hands(0) == hands(0)
    assert hands(1) != hands(0) and hands(2) != hands(1)
