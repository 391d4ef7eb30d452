"""The full review: every decision valued from the deciding player's own view
(analyzer.review.mistakes.decisions, analyzer.review.mistakes.full).

Table cases per decision kind (lead, follow, throw, forced), the property
that a player's-view value equals the exact search's where the player's view
leaves nothing hidden, and the property that hidden information never leaks
into a player's-view value (moving an unseen card between two other players
changes nothing).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mistake_helpers import THREE, TWO, replayed, swapped_context

from analyzer.review.mistakes import review_full
from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.decisions import level_score, value_decision, verdict_band
from analyzer.review.search import Solver
from primitives.cards import parse_cards as C

#: N (dealer) holds ♥A ♣5 ♣3; the rest of the decks is in the kitty (3 cards a seat)
GAMBLE = [["N: C3", "W: CJ", "S: C2", "E: CQ"], ["S: S5", "E: CA", "N: HA", "W: CA"],
          ["N: C5", "W: H3", "S: H5", "E: D10"]]
#: S feeds ♣10 to W's ♣K (the last to play in trick 2 is N)
FED = [["N: D3", "W: DA", "S: D4", "E: D5"], ["W: CK", "S: C10", "E: C6", "N: C3"],
       ["W: S3", "S: C4", "E: S5", "N: SA"]]


#: N (dealer) leads ♥A (trump) and then loses the last trick, and the kitty, with ♠3
GUARD_LEAD = [["N: HA", "W: S4", "S: S6", "E: S8"], ["N: S3", "W: SA", "S: S7", "E: S9"]]
#: N ruffs trick 1 with ♥A (instead of discarding ♦3) and then loses the last trick
GUARD_FOLLOW = [["W: S4", "S: S6", "E: S8", "N: HA"], ["N: D3", "W: SA", "S: S7", "E: S9"]]


def _ctx(tricks, **kw):
    _rec, match = replayed(tricks, **kw)
    h = match.hands[0]
    return HandContext(h, match=match, samples=0)


CASES = [
    # (name, tricks, rules, trick index, play index, kind, forced, banded)
    # the kitty swings the value by hundreds of points over the deals N cannot tell apart: within noise
    ("lead: the gamble ♣3 is within noise", GAMBLE, {"kitty_size": 96}, 0, 0, "lead", False, False),
    # from S's view the ♣10 falls later anyway in most deals: no verdict (hindsight only, see below)
    ("follow: a ♣10 fed to W's ♣K", FED, THREE, 1, 1, "follow", False, False),
    ("lead: the trump that guarded the last trick", GUARD_LEAD, TWO, 0, 0, "lead", False, True),
    ("follow: a ruff that spends the last trick's guard", GUARD_FOLLOW, TWO, 0, 3, "follow", False, True),
    ("follow: one legal card is no decision", FED, THREE, 2, 3, "follow", True, False),
    ("lead: the last trick's lead is forced", FED, THREE, 2, 0, "lead", True, False),
]


@pytest.mark.parametrize("name,tricks,kw,ti,k,kind,forced,banded", CASES, ids=[c[0] for c in CASES])
def test_decision_kinds(name, tricks, kw, ti, k, kind, forced, banded):
    ctx = _ctx(tricks, **kw)
    d = value_decision(ctx, ti, k, samples=32)
    assert d.kind == kind and d.forced is forced
    if forced:
        assert not d.judged and d.band is None
        return
    assert d.judged and len(d.options) >= 2
    assert (d.band is not None) is banded
    if banded:
        # a verdict is significant: above MIN_COST and above Z standard errors
        assert d.loss >= 5 and d.loss > 2 * d.loss_se
        assert d.options[0].play != d.chosen
    # every option carries expected points and a standard error; best first for the seat's side
    att = ctx.is_attacker(d.seat)
    exp = [o.expected for o in d.options]
    assert exp == sorted(exp, reverse=att)
    assert all(o.stderr >= 0 for o in d.options)


def test_a_throw_is_a_decision():
    # W throws ♠A ♠K: both stand (the highest singles of the suit); leading them one at a time is an option
    tricks = [["W: SA SK", "S: S3 S4", "E: S5 S6", "N: S7 S8"], ["W: D3", "S: D4", "E: D5", "N: DA"]]
    ctx = _ctx(tricks, kitty_size=100, decks=2)
    d = value_decision(ctx, 0, 0, samples=8)
    assert d.kind == "throw" and not d.forced
    plays = {o.play for o in d.options} | {p for o in d.options for p in o.same}
    assert tuple(sorted(C("SA SK"))) in plays and len(plays) >= 2


def test_bands_follow_the_level_change():
    assert verdict_band(6, 0.6) == "blunder" and verdict_band(6, 0.25) == "mistake"
    assert verdict_band(35, 0.0) == "mistake" and verdict_band(10, 0.0) == "inaccuracy"


def test_level_score_is_the_dealers_side():
    ctx = _ctx(FED, **THREE)
    assert level_score(ctx, 0) > 0 > level_score(ctx, 200)


def test_full_review_findings_and_summary():
    rec, match = replayed(GUARD_LEAD, **TWO)
    rv = review_full(match, record=rec, samples=32)
    assert [(f.trick, f.seat, f.band) for f in rv.findings] == [(1, "N", "blunder")]
    f = rv.findings[0]
    assert f.code == "SJ602" and "points expected" in f.message and f.cost > 40  # the pattern explains it
    s = rv.summary
    assert s["full"] and s["players"]["N"]["judged"] == 1 and s["players"]["N"]["accuracy"] < 50
    d = s["hands"][0]["decisions"][0]
    assert d["band"] == "blunder" and d["alternatives"][0]["play"] == "♠3" and d["exact"] and d["actual"]["judged"]


def test_a_hindsight_loss_is_a_note_about_luck():
    # S's ♣10 to W's ♣K: with all hands known it costs 10; from S's view it falls anyway
    rec, match = replayed(FED, **THREE)
    rv = review_full(match, record=rec, samples=16)
    got = [(f.trick, f.seat, f.band, f.cost, f.hidden) for f in rv.findings]
    assert (2, "S", "note", 0, True) in got
    assert all(f.band == "note" for f in rv.findings)
    note = next(f for f in rv.findings if (f.trick, f.seat) == (2, "S"))
    assert "luck, not a mistake" in note.message


# -- properties ----------------------------------------------------------------------------------

@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["standard", "one-deck", "campus"]), st.integers(0, 50))
def test_fully_known_positions_value_like_the_solver(rules, seed):
    """The last play of the last trick: nothing is hidden from the player, so
    each option's player's-view value is the exact search's, without noise."""
    from analyzer.play.generate import generate_match
    from replay.game import replay
    match = replay(generate_match(rules, hands=1, seed=seed))
    h = match.hands[0]
    ctx = HandContext(h, match=match, samples=0)
    if not ctx.searchable:
        return
    ti, k = len(h.tricks) - 1, len(h.tricks[-1].plays) - 1
    d = value_decision(ctx, ti, k, samples=4)
    if d.forced:
        return
    s = Solver(ctx.order, ctx.ruleset, h.dealer, sum(0 for _ in ()) + ctx.hand.kitty_points)
    base = ctx.points_before(ti)
    for o in d.options:
        assert o.stderr == 0
        assert o.expected == base + s.play_value(ctx.node(ti, k), o.play)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 40))
def test_hidden_information_never_leaks(seed):
    """Moving unseen cards between two other players (consistent with all the
    decider has seen: same suit, none of them played yet) leaves the decider's
    values unchanged."""
    from analyzer.play.generate import generate_match
    from replay.game import replay
    match = replay(generate_match("one-deck", hands=1, seed=seed))
    h = match.hands[0]
    ctx = HandContext(h, match=match, samples=0)
    if not ctx.searchable or len(h.tricks) < 6:
        return
    ti = len(h.tricks) - 5
    t = h.tricks[ti]
    k = 1
    seat = t.plays[k].seat
    others = [s for s in h.seats if s != seat and s not in {p.seat for p in t.plays[:k]}]
    hands = dict(zip(h.seats, ctx.hands_before(ti), strict=True))
    a, b = others[0], others[1]
    eff = ctx.order.eff
    swap = next(((x, y) for x in hands[a] for y in hands[b] if eff[x] == eff[y] and x != y), None)
    if swap is None:
        return
    x, y = swap

    real = value_decision(ctx, ti, k, samples=4, exact_tricks=0)
    moved = value_decision(swapped_context(h, match, ti, a, b, x, y), ti, k, samples=4, exact_tricks=0)
    assert [(o.play, o.expected, o.stderr) for o in real.options] == \
        [(o.play, o.expected, o.stderr) for o in moved.options]
