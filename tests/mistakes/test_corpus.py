"""The search overrules the heuristics, checked on a corpus: generated hands
(two-deck and one-deck presets, fixed seeds) and the bundled samples.

For every finding inside a hand's searched window an independent solver
(fresh table, no node budget) recomputes the play's cost: the finding's cost
must equal it and be at least 5 points (no reported SJ604/SJ605/… disagrees
with the search), its suggested play must reach the best value and be the
cheapest play that does. Every play carries at most one finding.
"""

from collections import Counter
from pathlib import Path

import pytest

from analyzer.play.generate import generate_match
from analyzer.review.mistakes import MIN_COST, review_match
from analyzer.review.search import Solver
from analyzer.review.search.position import position
from notation import parse
from primitives.cards import points
from replay.game import replay

ROOT = Path(__file__).resolve().parents[2]


def _records():
    for rules, seed in (("standard", 11), ("standard", 12), ("shengji-io", 3), ("one-deck", 5), ("campus", 7)):
        yield f"{rules}-{seed}", generate_match(rules, hands=3, seed=seed)
    for p in sorted((ROOT / "samples" / "matches").glob("*.sjn")):
        got = parse(p.read_text(encoding="utf-8"))
        recs = got[0] if isinstance(got, tuple) else got
        for i, r in enumerate(recs):
            yield f"{p.stem}-{i}", r


CORPUS = list(_records())


@pytest.mark.parametrize("name,record", CORPUS, ids=[c[0] for c in CORPUS])
def test_window_findings_agree_with_an_independent_search(name, record):
    match = replay(record)
    rv = review_match(match, record=record)
    hands = {h.number: h for h in match.hands}
    windows = {h.number: h for h in rv.hands}
    keys = Counter((f.hand, f.trick, f.seat, f.target) for f in rv.findings)
    assert all(n == 1 for n in keys.values()), "one finding per play"
    checked = 0
    for f in rv.findings:
        if f.target != "play" or f.trick is None:
            continue
        h, w = hands[f.hand], windows[f.hand]
        if "node budget ran out" in f.message:
            continue  # said in the message: judged by the pattern (checked not to happen here below)
        if w.window is None or f.trick <= w.tricks - w.window:
            continue  # judged by the pattern rules, before the window
        ti = f.trick - 1
        t = h.tricks[ti]
        k = next(i for i, p in enumerate(t.plays) if p.seat == f.seat)
        kitty = h.bury if h.bury is not None else ()
        solver = Solver(h.order, h.ruleset, h.dealer, points(kitty))
        pos = position(t.hands_before, t.leader, [p.cards for p in t.plays[:k]])
        before = solver.value(pos)
        p = t.plays[k]
        after = solver.play_value(pos, p.cards, p.attempted if k == 0 else None)
        att = solver.attacker[pos.to_move]
        cost = before - after if att else after - before
        assert f.cost == cost, (f.code, f.message)
        if f.band == "note":  # a failed throw that cost nothing: a note, not a mistake
            assert f.code == "SJ601" and cost < MIN_COST
            continue
        assert cost >= MIN_COST, (f.code, f.message)
        # the suggestion reaches the best value and is the cheapest play that does
        values = dict(solver.move_values(pos))
        best = [m for m, v in values.items() if v == before]
        assert f.best is not None and tuple(sorted(f.best)) in best
        assert solver.cheap_key(tuple(sorted(f.best))) == min(solver.cheap_key(m) for m in best)
        checked += 1
    assert not [f for f in rv.findings if "node budget ran out" in f.message]


def test_the_corpus_has_window_findings_to_check():
    """The test above is not vacuous: the corpus holds SJ604 findings inside windows."""
    n = 0
    for _, record in CORPUS[:5]:
        rv = review_match(replay(record), record=record)
        n += sum(1 for f in rv.findings if f.trick and any(
            h.number == f.hand and h.window and f.trick > h.tricks - h.window for h in rv.hands))
    assert n > 0


from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from analyzer.review.mistakes import band  # noqa: E402


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), rules=st.sampled_from(["standard", "one-deck", "shengji-io"]))
@example(seed=6740, rules="standard")  # a failed throw's SJ601 note and the window's SJ690 on one play (found by CI)
def test_review_invariants(seed, rules):
    """On any generated hand: one finding per play, one band rule for every code
    (notes below 5 points), and a suggestion on every searched finding."""
    record = generate_match(rules, hands=1, seed=seed)
    rv = review_match(replay(record), record=record, samples=0)
    keys = [(f.hand, f.trick, f.seat, f.target) for f in rv.findings]
    assert len(keys) == len(set(keys))
    for f in rv.findings:
        assert f.severity == "info"
        if f.code == "SJ690":
            continue
        assert f.band == band(f.cost, f.level_change is not None) or "cost not measured" in f.message
        assert f.message.startswith(f.band)
        h = next(h for h in rv.hands if h.number == f.hand)
        if "node budget ran out" in f.message:
            continue  # inside the window but unsearched: said in the message, judged by the pattern
        if f.trick and h.window and f.trick > h.tricks - h.window and f.band != "note":
            assert f.cost >= MIN_COST and ("best was" in f.message or f.best is None)
