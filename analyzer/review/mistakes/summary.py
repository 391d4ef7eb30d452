"""The player summary of a review: per player and per hand, the points lost,
the findings by band, an accuracy over the decisions judged and the worst
mistakes first; per hand, the window the exact search covered and the
evaluation over the tricks (the attackers' final total under best play, like
a chess engine's evaluation graph).

*Decisions judged*, fast pass (``lint --mistakes``): the plays of the exact
window that the search reached and that had more than one legal option;
*accuracy* there is the share of those decisions without a mistake (a
finding of band inaccuracy, mistake or blunder; notes do not count).

Full review (``report --mistakes``, ``annotate``: :mod:`analyzer.review.mistakes.full`):
every play with more than one option valued from its player's view;
*points lost* is the sum of the expected losses, and *accuracy* is
points-weighted: ``100 × (1 − Σ loss / Σ stake)`` over the decisions judged,
``stake`` being a decision's expected points between its best and worst
option (:func:`weighted`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.findings import MISTAKE_BANDS, Mistake
from replay.seats import SEATS as SEAT_ORDER

if TYPE_CHECKING:  # pragma: no cover
    from analyzer.review.mistakes.decisions import Decision
    from replay.order import Order

#: how many worst mistakes a player's summary lists
WORST = 5
#: why a finding-friends hand has no exact window (the per-hand table says it)
FRIENDS_NO_WINDOW = "finding friends"


@dataclass(slots=True)
class HandReview:
    """What the review of one hand covered."""

    number: int
    tricks: int
    #: tricks searched exactly (from the end), None when the hand was not searched
    window: int | None
    #: tricks asked for (``endgame_tricks``, at most the hand's tricks)
    requested: int
    #: the node budget cut the window short
    budget_cut: bool
    #: nodes the search visited for this hand
    nodes: int
    #: per trick boundary (before trick 1 … after the last): the attackers' final
    #: total under best play from there, None before the window
    eval: list[int | None] = field(default_factory=list)
    #: per trick boundary: the attackers' points so far in the hand as played
    actual: list[int] = field(default_factory=list)
    #: decisions judged per seat
    judged: dict[str, int] = field(default_factory=dict)
    #: the full review: every play valued from its player's view
    #: (:class:`analyzer.review.mistakes.decisions.Decision`); None in the fast pass
    decisions: list[Decision] | None = None
    #: why the hand was not reviewed (None when it was)
    skipped: str | None = None
    #: the hand's order (to write the decisions' cards)
    order: Order | None = None
    #: the fast pass: (trick, seat) of the decisions judged (the exact window's)
    judged_keys: set[tuple[int, str]] = field(default_factory=set)
    #: the hand's table (P1…Pn in finding friends)
    seats: tuple[str, ...] = tuple(SEAT_ORDER)
    #: why the hand has no exact window although it was reviewed (finding friends), else None
    no_window: str | None = None

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"hand": self.number, "tricks": self.tricks, "window": self.window,
             "requested": self.requested,
             "budget_cut": self.budget_cut, "nodes": self.nodes, "eval": list(self.eval),
             "actual": list(self.actual), "judged": dict(self.judged)}
        if self.skipped is not None:
            d["skipped"] = self.skipped
        if self.no_window is not None:
            d["no_window"] = self.no_window
        if self.decisions is not None:
            d["decisions"] = [x.as_dict(self.order) for x in self.decisions if not x.forced]
        return d


def hand_review(ctx: HandContext, endgame_tricks: int) -> HandReview:
    h = ctx.hand
    n = len(h.tricks)
    start = ctx.window_start if ctx.searchable and endgame_tricks else None
    evals: list[int | None] = []
    actual: list[int] = []
    for ti in range(n):
        actual.append(ctx.points_before(ti))
        v = ctx.value(ti, 0) if start is not None and ti >= start else None
        evals.append(None if v is None else ctx.points_before(ti) + v)
    if n:
        actual.append(h.attacker_points if h.complete else h.tricks[-1].attacker_points)
        evals.append(h.attacker_points if (start is not None and h.complete) else None)
    judged = {s: 0 for s in SEAT_ORDER}
    keys: set[tuple[int, str]] = set()
    if start is not None:
        # the fast pass judges the plays of the exact window that the search reached
        # and that had more than one option
        for ti in range(start, n):
            for k, p in enumerate(h.tricks[ti].plays):
                if p.seat in judged and ctx.judge(ti, k) is not None and not ctx.forced(ti, k):
                    judged[p.seat] += 1
                    keys.add((h.tricks[ti].number, p.seat))
    nodes = sum(s.nodes for s in ctx._solvers.values())
    return HandReview(h.number, n, None if start is None else n - start,
                      min(endgame_tricks, n), ctx.budget_cut, nodes, evals, actual, judged, judged_keys=keys)


def _counts(findings: Sequence[Mistake], judged: int, decisions: Sequence[Decision] | None = None,
            keys: set[tuple[int, int, str]] | None = None) -> dict[str, Any]:
    bands = {b: sum(1 for f in findings if f.band == b) for b in MISTAKE_BANDS}
    # accuracy counts the mistakes on the decisions judged only
    mistakes = sum(1 for f in findings if f.band in MISTAKE_BANDS
                   and (keys is None or (f.hand, f.trick, f.seat) in keys))
    lost = sum(f.cost for f in findings if f.band in MISTAKE_BANDS)
    acc = round(100.0 * max(0, judged - mistakes) / judged, 1) if judged else None
    out = {"points_lost": lost, **bands, "notes": sum(1 for f in findings if f.band == "note"),
           "judged": judged, "accuracy": acc}
    if decisions is not None:
        out.update(weighted(decisions))
    return out


def weighted(decisions: Sequence[Decision]) -> dict[str, Any]:
    """The full review's figures over a seat's judged decisions (docs/diagnostics.md,
    "Accuracy"): points lost (the sum of the decisions' expected losses, each the
    cross-fitted estimate clipped at 0, as its finding shows it) with the standard error
    of that sum (``points_lost_stderr``: ``√Σ loss_se²``), per decision, and the
    points-weighted accuracy ``100 × (1 − Σ loss / Σ stake)``, ``stake`` the expected
    points between the decision's best and worst option; None when nothing was at stake.

    The unclipped sum (``Σ raw_loss``, the total clipped at 0) over cross-fitted stakes was
    measured twice (the ninth and the nineteenth sessions; docs/performance.md): kinder to
    a careful player (93–94 % against 85–86 %) and harsher to the worst option, but the
    cross-fitted loss is itself biased downward where options are close, and a uniformly
    random seat's sum fell to 0 or below — "100 %" — in 20–24 % of two-deck hands at the
    default 8 deals (5 % at 32), while a player's points lost could fall below one of its
    own findings. The clipped sum is kept: conservative (about 0.4 standard error a
    decision charged to noise), consistent with the findings, and never calling noise a
    perfect hand."""
    judged = [d for d in decisions if d.judged]
    loss = sum(d.loss for d in judged)
    stake = sum(d.stake for d in judged)
    acc = round(100.0 * max(0.0, 1.0 - loss / stake), 1) if stake > 0 else None
    unjudged = sum(1 for d in decisions if not d.judged and not d.forced)
    se = math.sqrt(sum(d.loss_se ** 2 for d in judged))   # the decisions' deals are drawn apart
    return {"points_lost": round(loss), "points_lost_stderr": round(se, 1), "judged": len(judged), "accuracy": acc,
            "lost_per_decision": round(loss / len(judged), 2) if judged else None,
            "not_judged": unjudged, "forced": sum(1 for d in decisions if d.forced)}


def worst_first(findings: Iterable[Mistake]) -> list[Mistake]:
    """Mistakes (not notes) by cost, a level outcome change first."""
    return sorted((f for f in findings if f.band in MISTAKE_BANDS),
                  key=lambda f: (f.level_change is None, -f.cost, f.hand or 0, f.trick or 0))


def finding_dict(f: Mistake) -> dict[str, Any]:
    return {"code": f.code, "hand": f.hand, "trick": f.trick, "seat": f.seat, "cost": f.cost, "band": f.band,
            "level_change": f.level_change, "line": f.line, "column": f.column, "message": f.message}


def _table(reviews: Sequence[HandReview]) -> list[str]:
    """The seats of the reviewed hands, in table order (N W S E, or P1…Pn)."""
    out: list[str] = []
    for r in reviews:
        for s in r.seats:
            if s not in out:
                out.append(s)
    return out or list(SEAT_ORDER)


def _keys(reviews: Sequence[HandReview]) -> set[tuple[int, int, str]]:
    return {(r.number, t, s) for r in reviews for t, s in r.judged_keys}


def summarize(findings: Sequence[Mistake], reviews: Sequence[HandReview]) -> dict[str, Any]:
    """The JSON-able summary: ``{"players": {seat: …}, "hands": [...]}``."""
    table = _table(reviews)
    by_seat = {s: [f for f in findings if getattr(f, "seat", None) == s] for s in table}
    full = any(r.decisions is not None for r in reviews)

    def decs(s: str, rs: Sequence[HandReview]) -> list[Decision] | None:
        if not full:
            return None
        return [d for r in rs for d in (r.decisions or ()) if d.seat == s]

    players = {}
    for s in table:
        judged = sum(r.judged.get(s, 0) for r in reviews)
        entry = _counts(by_seat[s], judged, decs(s, reviews), _keys(reviews))
        entry["worst"] = [finding_dict(f) for f in worst_first(by_seat[s])[:WORST]]
        players[s] = entry
    hands = []
    for r in reviews:
        d = r.as_dict()
        d["players"] = {s: _counts([f for f in by_seat[s] if f.hand == r.number], r.judged.get(s, 0),
                                   decs(s, [r]), _keys([r]))
                        for s in table}
        hands.append(d)
    return {"players": players, "hands": hands, **({"full": True} if full else {})}


__all__ = ["FRIENDS_NO_WINDOW", "HandReview", "hand_review", "summarize", "worst_first", "finding_dict", "WORST"]
