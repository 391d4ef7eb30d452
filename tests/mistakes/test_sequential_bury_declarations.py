"""Sequential sampling of the bury and the declarations (analyzer.review.mistakes.bury,
declarations): as for the plays (test_sequential.py), a bury or a declaration unsure after
its first 8 deals is valued again on new deals only; a clear one keeps its first valuation.

Cases from the bundled samples (their first-look figures, native core or not, are the
review's: docs/performance.md, "Twenty-first session: bury and declarations sampled
sequentially"): standard hand 2's bury is clear (0 in every deal), hand 3's unsure (21 ± 8
at 8 deals: a verdict at the t quantile, not beyond the interim 3.54 standard errors);
shengji-io-friends hand 3's bury unsure; titanic hand 1's first declaration a clear
verdict (58 ± 11), its second unsure (43 ± 13); standard hand 2's declaration unsure.
"""

from __future__ import annotations

import random
import types
from pathlib import Path

import pytest

import analyzer.play.generate as G
from analyzer.review.mistakes import bury as B
from analyzer.review.mistakes import decisions as DM
from analyzer.review.mistakes import declarations as DC
from analyzer.review.mistakes import review_full
from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.decisions import MAX_SAMPLES, SAMPLES, unsure
from notation import parse
from replay.game import replay

ROOT = Path(__file__).resolve().parents[2]


def _sample(name: str):
    recs, _ = parse((ROOT / f"samples/matches/{name}.sjn").read_text(encoding="utf-8"))
    return recs[0], replay(recs[0])


def _ctx(name: str, i: int) -> HandContext:
    rec, m = _sample(name)
    return HandContext(m.hands[i], record_hand=rec.hands[i], match=m, samples=0)


#: (sample, hand index, unsure after the first 8 deals)
BURIES = [("standard", 1, False), ("standard", 2, True), ("shengji-io-friends", 2, True)]


@pytest.mark.parametrize("name,i,again", BURIES)
def test_bury_clear_stops_unsure_extends(name, i, again):
    ctx = _ctx(name, i)
    first = B.value_bury(ctx)                                  # 8 deals, fixed
    seq = B.value_bury(ctx, max_samples=24)
    assert first is not None and seq is not None and first.judged and unsure(first) is again
    if again:
        assert seq.samples == 16 and seq.screened == 8          # the new deals only; the first set aside
        assert seq.as_dict(ctx.order)["screen_samples"] == 8
        assert seq.considered == first.considered
        assert (seq.friends is not None) == (first.friends is not None)
        assert seq.as_dict(ctx.order) != first.as_dict(ctx.order)
    else:
        assert seq.as_dict(ctx.order) == first.as_dict(ctx.order)
        assert seq.as_dict(ctx.order)["screen_samples"] == 0
    assert B.value_bury(ctx, max_samples=24).as_dict(ctx.order) == seq.as_dict(ctx.order)   # deterministic


def test_bury_maximum_and_fixed():
    ctx = _ctx("standard", 2)
    fixed = B.value_bury(ctx).as_dict(ctx.order)
    for top in (None, 2, 8, 9):
        assert B.value_bury(ctx, max_samples=top).as_dict(ctx.order) == fixed
    assert B.value_bury(ctx, max_samples=12).samples == 4
    assert B.value_bury(ctx, max_samples=13).samples == 4      # even


def test_bury_second_valuation_leaves_the_first_deals_out(monkeypatch):
    """Other first deals (another seed), the bury looked at again anyway: the same result;
    the sampler is asked for batch 0 (8 deals), then batch 1 (16)."""
    ctx = _ctx("standard", 2)
    want = B.value_bury(ctx, max_samples=24).as_dict(ctx.order)
    calls = []
    real = B.sample_deals

    def other_first(ctx, seat, ti, k, n, seed, *, batch=0):
        calls.append((n, batch))
        return real(ctx, seat, ti, k, n, seed + (0 if batch else 1), batch=batch)
    monkeypatch.setattr(B, "sample_deals", other_first)
    monkeypatch.setattr(DM, "unsure", lambda d: True)   # (the second look: decisions.second_look)
    assert B.value_bury(ctx, max_samples=24).as_dict(ctx.order) == want
    assert calls == [(8, 0), (16, 1)]


def test_friends_bury_second_valuation_leaves_the_first_deals_out(monkeypatch):
    ctx = _ctx("shengji-io-friends", 2)
    want = B.value_bury(ctx, max_samples=24).as_dict(ctx.order)
    calls = []
    real = B.friends_deals

    def other_first(fh, seat, n, seed=B.SEED, *, batch=0):
        calls.append((n, batch))
        return real(fh, seat, n, seed + (0 if batch else 1), batch=batch)
    monkeypatch.setattr(B, "friends_deals", other_first)
    monkeypatch.setattr(DM, "unsure", lambda d: True)   # (the second look: decisions.second_look)
    got = B.value_bury(ctx, max_samples=24)
    assert got.as_dict(ctx.order) == want and got.friends is not None and "dealer_team_deals" in got.friends
    assert calls == [(8, 0), (16, 1)]


def _setting(name: str, i: int) -> DC.DeclarationSetting:
    st = DC.DeclarationSetting(_ctx(name, i))
    assert st.why is None
    return st


#: (sample, hand index, line, unsure after the first 8 deals)
DECLARATIONS = [("titanic", 0, 0, False), ("titanic", 0, 1, True), ("standard", 1, 0, True)]


@pytest.mark.parametrize("name,i,j,again", DECLARATIONS)
def test_declaration_clear_stops_unsure_extends(name, i, j, again):
    st = _setting(name, i)
    first = DC.value_declaration(st, j)
    seq = DC.value_declaration(st, j, max_samples=24)
    assert first.judged and unsure(first) is again
    order = st.ctx.order
    if again:
        assert seq.samples == 16 and seq.screened == 8
        assert seq.as_dict(order)["screen_samples"] == 8
        assert list(seq.considered) == list(first.considered)   # the same keys, in the same order
        assert seq.considered["options"] == first.considered["options"]
        assert seq.as_dict(order) != first.as_dict(order)
    else:
        assert seq.as_dict(order) == first.as_dict(order)
        assert seq.as_dict(order)["screen_samples"] == 0


def test_declaration_second_valuation_leaves_the_first_deals_out(monkeypatch):
    """Every generator of the first look (its deals and its bots) seeded otherwise, the
    declaration looked at again anyway: the same result (the second look's generators are
    its own: ``…:batch1``)."""
    st = _setting("standard", 1)
    want = DC.value_declaration(st, 0, max_samples=24).as_dict(st.ctx.order)
    seen = []

    def rng(tag=None):
        seen.append(str(tag))
        return random.Random(tag if ":batch1" in str(tag) else f"{tag}:other")
    monkeypatch.setattr(DC, "random", types.SimpleNamespace(Random=rng))
    monkeypatch.setattr(DM, "unsure", lambda d: True)
    assert DC.value_declaration(st, 0, max_samples=24).as_dict(st.ctx.order) == want
    assert any(":batch1" in t for t in seen) and any(":batch1" not in t for t in seen)


def test_the_full_review_samples_bury_and_declarations_sequentially():
    """The full review passes its maximum on: fixed at SAMPLES, every bury and declaration
    valued once; at the default the unsure ones again (a verdict there says so)."""
    rec, m = _sample("standard")

    def pre(**kw):
        rv = review_full(m, record=rec, **kw)
        return ([d for h in rv.summary["hands"] for d in h["decisions"] if d["kind"] in ("bury", "declare")],
                rv.findings)
    fixed, _ = pre(max_samples=SAMPLES)
    default, _findings = pre()
    assert default == pre(max_samples=MAX_SAMPLES)[0]
    assert {d["screen_samples"] for d in fixed} == {0}
    assert {d["screen_samples"] for d in default} == {0, SAMPLES}
    changed = [a for a, b in zip(default, fixed, strict=True) if a != b]
    assert all(d["screen_samples"] == SAMPLES for d in changed)
    assert {d["kind"] for d in changed} == {"bury", "declare"}   # (hand 3's bury, hand 2's declaration)


def test_a_bury_or_declaration_finding_says_it_was_valued_again():
    """The finding of a verdict on new deals says a first look left it unsure (bury and
    declaration); one of a first look does not."""
    ctx = _ctx("titanic", 0)
    st = DC.DeclarationSetting(ctx)
    d = DC.value_declaration(st, 0, max_samples=24)
    assert d.band and not d.screened
    assert "first look" not in DC.declaration_finding(st, d).message
    d.screened = 8
    assert "; new deals, after a first look over 8 left it unsure)" in DC.declaration_finding(st, d).message
    bctx = _ctx("standard", 2)
    d = B.value_bury(bctx)
    assert d.band
    assert "first look" not in B.bury_finding(bctx, d, None, None).message
    d.screened = 8
    assert "; new deals, after a first look over 8 left it unsure)" in B.bury_finding(bctx, d, None, None).message


def test_the_full_review_of_friends_samples_the_bury_sequentially():
    rec, m = _sample("shengji-io-friends")

    def buries(**kw):
        return [d for h in review_full(m, record=rec, **kw).summary["hands"] for d in h["decisions"]
                if d["kind"] == "bury"]
    assert [d["screen_samples"] for d in buries(max_samples=SAMPLES)] == [0, 0, 0]
    assert [d["screen_samples"] for d in buries()] == [0, 0, SAMPLES]     # hand 3's, unsure at 8 deals


def test_chosen_is_valued_in_the_place_of_the_bury_or_line_made():
    """``chosen`` (the honesty test's): the bury or the line made as chosen gives the review's
    own decision; another candidate or pass is valued first, the rest as before."""
    ctx = _ctx("standard", 2)
    d = B.value_bury(ctx)
    assert B.value_bury(ctx, chosen=d.chosen).as_dict(ctx.order) == d.as_dict(ctx.order)
    other = next(o.play for o in d.options if o.play != d.chosen)
    got = B.value_bury(ctx, chosen=other)
    assert got.chosen == other and other in [o.play for o in got.options] and got.judged
    st = _setting("titanic", 0)
    line = DC.value_declaration(st, 1)
    assert DC.value_declaration(st, 1, chosen=line.chosen).as_dict(st.ctx.order) == line.as_dict(st.ctx.order)
    passing = DC.value_declaration(st, 1, chosen=DC.PASS)
    assert passing.chosen == DC.PASS and passing.considered["options"][0] == "pass"
    assert passing.considered["options"].count("pass") == 1
    assert sorted(passing.considered["options"]) == sorted(line.considered["options"])


def test_a_friends_declaration_is_sampled_sequentially():
    """At a table of friends (test_friends_declarations' generated records, seed 6): hand 2's
    declaration is unsure at 8 deals (2 ± 15), hand 3's clear (0 in every deal)."""
    from test_friends_declarations import _declared, _settings
    rec, m = _declared(G.generate_match("shengji-io-friends", players=5, decks=1, hands=3, seed=6))
    settings = list(_settings(rec, m))
    for i, again in ((1, True), (2, False)):
        st = settings[i]
        first = DC.value_declaration(st, 0)
        seq = DC.value_declaration(st, 0, max_samples=24)
        assert first.judged and first.friends is not None and unsure(first) is again
        if again:
            assert seq.samples == 16 and seq.screened == 8 and "dealer_team_deals" in seq.friends
            assert list(seq.considered) == list(first.considered)
        else:
            assert seq.as_dict(st.ctx.order) == first.as_dict(st.ctx.order)
