"""The full review's accuracy and points lost (analyzer.review.mistakes.summary.weighted,
docs/diagnostics.md "Accuracy"): the sum of the decisions' cross-fitted losses, each
clipped at 0 (as its finding shows it), over the sum of their stakes (best − worst option).

A table of hands given by their decisions' raw losses and stakes, and properties of
decisions valued by ``decisions.finish`` on fully known positions (every sampled deal the
same): the player who picks the valued best option everywhere gets 100 %, the one who
picks the worst gets 0 %.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mistake_helpers import THREE, replayed

from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.decisions import Decision, finish
from analyzer.review.mistakes.summary import weighted

#: S feeds ♣10 to W's ♣K (a complete three-trick hand to give finish a context)
FED = [["N: D3", "W: DA", "S: D4", "E: D5"], ["W: CK", "S: C10", "E: C6", "N: C3"],
       ["W: S3", "S: C4", "E: S5", "N: SA"]]


def _decision(raw: float, stake: float, judged: bool = True, se: float = 0.0) -> Decision:
    return Decision(1, 1, 0, "N", "lead", (), judged=judged, loss=max(0.0, raw), raw_loss=raw, stake=stake,
                    loss_se=se)


CASES = [
    # (name, [(raw loss, stake)], points lost, accuracy)
    # each loss clipped at 0 before the sum (the unclipped sum, 5, would give 83.3: not kept, see the doc)
    ("raw +3, -2, +4: 3 + 0 + 4", [(3, 10), (-2, 10), (4, 10)], 7, 76.7),
    ("estimates below 0 count 0", [(-3, 10), (-2, 10), (4, 10)], 4, 86.7),
    ("the stakes summed", [(3, 10), (-2, 0), (4, 0)], 7, 30.0),
    ("more lost than at stake is 0 %", [(8, 4), (3, 2)], 11, 0.0),
    ("nothing at stake: no accuracy", [(1, 0), (-1, 0)], 1, None),
    ("one decision", [(2.5, 10)], 2, 75.0),
]


@pytest.mark.parametrize("name,decisions,lost,accuracy", CASES, ids=[c[0] for c in CASES])
def test_accuracy_from_the_clipped_losses(name, decisions, lost, accuracy):
    got = weighted([_decision(r, s) for r, s in decisions])
    assert got["points_lost"] == lost and got["accuracy"] == accuracy
    assert got["judged"] == len(decisions)


def test_the_standard_error_of_the_points_lost():
    # the decisions' estimates are independent (their deals drawn apart): the variances add
    got = weighted([_decision(3, 10, se=3.0), _decision(-2, 10, se=4.0), _decision(9, 1, judged=False, se=12.0)])
    assert got["points_lost_stderr"] == 5.0 and got["points_lost"] == 3


def test_decisions_not_judged_are_left_out():
    got = weighted([_decision(3, 10), _decision(-2, 10), _decision(4, 10), _decision(50, 1, judged=False)])
    assert (got["points_lost"], got["accuracy"], got["judged"], got["not_judged"]) == (7, 76.7, 3, 1)
    assert got["lost_per_decision"] == round(7 / 3, 2)


def _ctx() -> HandContext:
    _rec, match = replayed(FED, **THREE)
    return HandContext(match.hands[0], match=match, samples=0)


#: a decision on a fully known position: each option's value (the deciding seat's side), at
#: least two distinct
VALUES = st.lists(st.integers(-40, 120), min_size=2, max_size=6).filter(lambda v: len(set(v)) > 1)


def _known(ctx: HandContext, seat: str, values: list[int], chosen: int, deals: int) -> Decision:
    """The decision whose options are worth ``values`` (for ``seat``'s side) in every one of
    ``deals`` deals, option ``chosen`` played, valued by :func:`finish`."""
    sign = 1 if ctx.is_attacker(seat) else -1
    order = [chosen] + [i for i in range(len(values)) if i != chosen]
    opts = [(i + 1,) for i in order]
    row = [float(sign * values[i]) for i in order]
    d = Decision(1, 1, 0, seat, "lead", opts[0])
    finish(ctx, d, opts, [list(row) for _ in range(deals)], [[0.0] * len(row) for _ in range(deals)], 0)
    return d


@settings(max_examples=60, deadline=None)
@given(st.lists(VALUES, min_size=1, max_size=12), st.sampled_from(["N", "W"]),
       st.sampled_from([2, 4, 8, 32]))
def test_the_valued_best_everywhere_is_100_percent(hands, seat, deals):
    ctx = _ctx()
    best = [_known(ctx, seat, v, max(range(len(v)), key=v.__getitem__), deals) for v in hands]
    worst = [_known(ctx, seat, v, min(range(len(v)), key=v.__getitem__), deals) for v in hands]
    assert all(d.judged for d in best + worst)
    stakes = [max(v) - min(v) for v in hands]
    assert [d.stake for d in best] == stakes == [d.stake for d in worst]
    got = weighted(best)
    assert got["accuracy"] == 100.0 and got["points_lost"] == 0
    got = weighted(worst)
    assert got["accuracy"] == 0.0 and got["points_lost"] == round(sum(stakes))


FINISH_CASES = [
    # (name, per deal: each option's value for the seat's side (option 0 played), raw loss, stake)
    ("the best played: nothing lost", [[10, 0], [10, 0], [10, 0], [10, 0]], 0.0, 10.0),
    ("the worst played: the stake lost", [[0, 10], [0, 10], [0, 10], [0, 10]], 10.0, 10.0),
    # each half picks the option the other half rates worse: the loss below 0 (clipped in `loss`)
    ("options that trade places between the halves", [[10, 0], [10, 0], [0, 10], [0, 10]], -5.0, 0.0),
    # the halves disagree; the stake is the averages' best − worst (5 − 2.5)
    ("noise: the halves disagree", [[10, 0], [10, 0], [0, 5], [0, 5]], -5.0, 2.5),
    # three options: the halves agree on the best (averages 10, 3, 2: the stake 8)
    ("three options, the worst in doubt", [[10, 0, 4], [10, 0, 4], [10, 6, 0], [10, 6, 0]], 0.0, 8.0),
    ("the halves agree: the stake as averaged", [[10, 0], [0, 5], [10, 0], [0, 5]], 0.0, 2.5),
]


@pytest.mark.parametrize("name,rows,raw,stake", FINISH_CASES, ids=[c[0] for c in FINISH_CASES])
def test_cross_fitted_loss_and_stake(name, rows, raw, stake):
    ctx = _ctx()
    seat = "W"
    sign = 1 if ctx.is_attacker(seat) else -1
    d = Decision(1, 1, 0, seat, "lead", (1,))
    opts = [(i + 1,) for i in range(len(rows[0]))]
    finish(ctx, d, opts, [[float(sign * v) for v in r] for r in rows], [[0.0] * len(opts) for _ in rows], 0)
    assert d.judged and (d.raw_loss, d.stake, d.loss) == (raw, stake, max(0.0, raw))
