"""The bury as a decision valued from the burier's view (analyzer.review.mistakes.bury).

Table cases: a bury that throws the point cards into the kitty of a hand whose
last trick the dealer's side loses is flagged; a bury equal to the bots' own is
not. Property: the valued options never read the hidden hands (moving a card
between two other players leaves the sampled deals and the values unchanged).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mistake_helpers import THREE, replayed, swapped_context

from analyzer.review.mistakes import review_full
from analyzer.review.mistakes.bury import candidates, pickup, value_bury
from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.pov import sample_deals

#: N (dealer) keeps ♠873 and buries every point card; W takes the last trick with a joker:
#: the kitty (200 points) × 2 goes to the attackers (keeping trumps instead wins the last trick)
FEED = [["N: S3", "W: SA", "S: S4", "E: SJ"], ["W: BJ", "S: S6", "E: LJ", "N: S7"],
        ["W: BJ", "S: S9", "E: SQ", "N: S8"]]
#: N keeps LJ ♥2 ♥2 (the bots' own bury: Bot.bury keeps them too) and takes the last trick
KEEP = [["N: H2", "W: BJ", "S: S4", "E: SJ"], ["W: BJ", "S: S6", "E: LJ", "N: H2"],
        ["W: SA", "S: S9", "E: SQ", "N: LJ"]]


def _ctx(tricks, **kw):
    rec, match = replayed(tricks, bury=True, **kw)
    return HandContext(match.hands[0], record_hand=rec.hands[0], match=match, samples=0), rec, match


CASES = [
    # (name, tricks, flagged)  source: docs/rules.md (the kitty to the last trick's winners × multiplier)
    ("points buried, the last trick lost", FEED, True),
    ("the bots' own bury", KEEP, False),
]


@pytest.mark.parametrize("name,tricks,flagged", CASES, ids=[c[0] for c in CASES])
def test_bury_cases(name, tricks, flagged):
    ctx, rec, match = _ctx(tricks, **THREE)
    d = value_bury(ctx, samples=8)
    assert d is not None and d.kind == "bury" and d.trick == 0 and d.seat == "N"
    assert (d.band is not None) == flagged
    out = d.as_dict(ctx.order)
    assert out["options_considered"]["all_buries"] is False
    assert "made" in out["options_considered"]["candidates"]
    findings, hands = review_full(match, record=rec)
    bury = [f for f in findings if f.target == "bury" and f.band != "note"]
    assert bool(bury) == flagged
    if flagged:
        f = bury[0]
        assert f.code == "SJ603" and f.cost == round(d.loss) and (f.line, f.column) == (8, 1)
        assert "candidate buries" in f.message and ("(the bots' bury)" in f.message or "(the point-free bury)" in f.message)
        assert "SJ603" in " ".join(hands[0].decisions[0].explanations)   # the pattern explains it
        assert hands[0].decisions[0].judged


def test_the_bots_bury_is_a_candidate():
    ctx, _rec, _match = _ctx(KEEP, **THREE)
    cards = pickup(ctx)
    assert cards is not None
    cands = candidates(ctx, cards, ctx.hand.bury)
    kept = sorted((Counter(cards) - Counter(cands["made"])).elements())
    assert len(kept) == 3 and "bot" not in cands   # equal to the bury made: one option


def test_no_bury_line_is_no_decision():
    _rec, match = replayed(KEEP, **THREE)
    ctx = HandContext(match.hands[0], match=match, samples=0)
    assert value_bury(ctx) is None


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 40))
def test_the_bury_never_reads_the_hidden_hands(seed):
    """Moving an unseen card between two players other than the burier (any
    deal consistent with the burier's view) changes neither the sampled deals'
    pool nor the values of the candidate buries."""
    from analyzer.play.generate import generate_match
    from replay.game import replay
    match = replay(generate_match("one-deck", hands=1, seed=seed))
    h = match.hands[0]
    ctx = HandContext(h, match=match, samples=0)
    if not ctx.searchable or ctx.burier is None or h.bury is None:
        return
    burier = ctx.burier
    a, b = [s for s in h.seats if s != burier][:2]
    hands = dict(zip(h.seats, ctx.hands_before(0), strict=True))
    x, y = hands[a][0], hands[b][0]
    if x == y:
        return

    moved = swapped_context(h, match, 0, a, b, x, y)
    assert [p.hands for p, _ in sample_deals(ctx, burier, 0, 0, 4, 5)] == \
        [p.hands for p, _ in sample_deals(moved, burier, 0, 0, 4, 5)]
    real, other = value_bury(ctx, samples=4), value_bury(moved, samples=4)
    assert real is not None and other is not None
    assert [(o.play, o.expected, o.stderr) for o in real.options] == \
        [(o.play, o.expected, o.stderr) for o in other.options]
    assert real.band == other.band


def test_a_bury_decision_reads_bury_in_the_verdict_tables():
    """A bury decision is trick 0 in the JSON; the Markdown/terminal/text tables say "bury"."""
    from analyzer.report.text import decision_rows
    d = {"hand": 2, "trick": 0, "seat": "W", "chosen": "♠43", "loss": 28.0, "loss_stderr": 10.0,
         "band": "inaccuracy", "exact": False, "alternatives": [], "explanation": []}
    play = {**d, "trick": 5}
    rows = decision_rows({"hands": [{"decisions": [d, play]}]})
    assert [r[1] for r in rows] == ["bury", "5"]


@pytest.mark.parametrize("valued", [False, True], ids=["not valued", "valued, no verdict"])
def test_a_pattern_kept_as_a_note_says_whether_the_bury_was_valued(monkeypatch, valued):
    """A risky-bury pattern with no significant expected loss behind it is kept as a
    note; the note says "not valued" only when the bury really had no value (a bury
    valued within noise says so, with its loss and the deals)."""
    import analyzer.review.mistakes.bury as B
    from analyzer.review.mistakes.decisions import Decision
    from analyzer.review.mistakes.findings import Mistake

    d = Decision(1, 0, 0, "W", "bury", (1, 2))
    d.samples, d.loss, d.loss_se = 8, 3.2, 4.1
    monkeypatch.setattr(B, "value_bury", lambda ctx, samples, max_samples=None: d if valued else None)
    monkeypatch.setattr(B, "bury_finding", lambda *a: None)
    pat = Mistake("SJ603", "blunder (40 points): W buried 10 points (♦10)", 5, 1, 5, 9, "info", 1, None, "W",
                  "bury", 40, "blunder", None, None, None)
    out: list = []
    hr = type("HR", (), {"decisions": []})()
    B.review_bury(None, hr, [pat], out, None, 8)
    (note,) = out
    assert note.cost == 0 and note.band == "note"
    assert ("not valued" in note.message) != valued
    assert ("3 ± 4 points over 8 deals" in note.message) == valued
    assert note.message.endswith("W buried 10 points (♦10)")
    assert "first look" not in note.message
    if valued:   # valued again on new deals (sequential sampling): the note says so
        d.screened = 8
        out.clear()
        B.review_bury(None, hr, [pat], out, None, 8)
        assert "3 ± 4 points over 8 deals (new deals, after a first look over 8 left it unsure)" in out[0].message
