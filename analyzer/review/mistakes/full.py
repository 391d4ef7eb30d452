"""The full review (``shengji report --mistakes``, ``shengji annotate``):
every decision of every hand valued from the deciding player's own view
(:mod:`analyzer.review.mistakes.decisions`; finding-friends hands:
:mod:`analyzer.review.mistakes.friends`, by the bots' play-outs, no exact window).

* A finding is a decision whose expected loss is significant (its band:
  :func:`analyzer.review.mistakes.decisions.verdict_band`); its cost is that
  expected loss, never a hindsight figure. Its code is the pattern rule's
  that explains it (SJ601–SJ606, SJ611: the pattern's text is attached as the
  explanation), else SJ610 when every sampled deal was solved exactly, else SJ611.
* A pattern finding with no significant expected loss behind it is no
  finding: its text stays attached to the decision as an explanation.
* A play the exact search on the real deal (all hands known, inside the
  window) finds costly while the player's view finds no loss is a *note about
  luck* (band note, cost 0, ``hidden=True``).
* A play the review could not judge is said per play (the decision's
  ``reason``) and left out of accuracy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from analyzer.review.mistakes.base import one_per_play, run_rules
from analyzer.review.mistakes.bury import review_bury
from analyzer.review.mistakes.context import ENDGAME_TRICKS, SEARCH_BUDGET, HandContext
from analyzer.review.mistakes.decisions import EXACT_TRICKS, MAX_SAMPLES, NODE_BUDGET, SAMPLES, Decision, value_decision
from analyzer.review.mistakes.declarations import review_declarations
from analyzer.review.mistakes.findings import MIN_COST, Mistake, pattern_text
from analyzer.review.mistakes.summary import FRIENDS_NO_WINDOW, HandReview, hand_review
from primitives.diagnostics import INFO
from replay.texts import cards_text

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Hand as RecordHand
    from notation.model import Record
    from replay.results import HandResult, MatchResult


def full_review(match_result: MatchResult, *, record: Record | None = None, select: Iterable[str] | None = None,
                samples: int = SAMPLES, max_samples: int | None = MAX_SAMPLES, node_budget: int = NODE_BUDGET,
                exact_tricks: int = EXACT_TRICKS, endgame_tricks: int = ENDGAME_TRICKS,
                search_budget: int | None = SEARCH_BUDGET, on_hand: Callable[[int, int], None] | None = None,
                jobs: int = 1) -> tuple[list[Mistake], list[HandReview]]:
    """(findings, per-hand reviews with their decisions) of every hand of ``match_result``.

    ``on_hand(i, total)`` is called as each hand's review is done (hand ``i``,
    0-based: in hand order in this process, as they finish with workers).
    ``jobs``: the hands are reviewed in that many worker processes
    (:mod:`analyzer.review.mistakes.workers`) when there are two or more hands; the
    result is the same as with one (every hand's review is deterministic and
    depends on its hand only) and is gathered in hand order. ``samples``: deals a decision
    first; ``max_samples``: the most, batches of ``samples`` more while a decision is unsure
    (sequential sampling: :func:`analyzer.review.mistakes.decisions.unsure`; None or at most
    ``samples``: ``samples`` deals, fixed)."""
    select = list(select) if select is not None else None
    kw: dict[str, Any] = {"select": select, "samples": samples, "max_samples": max_samples, "node_budget": node_budget, "exact_tricks": exact_tricks,
          "endgame_tricks": endgame_tricks, "search_budget": search_budget}
    total = len(match_result.hands)
    if jobs > 1 and total > 1:
        from analyzer.review.mistakes.workers import review_in_workers
        per_hand = review_in_workers(review_hand, match_result, record, kw, jobs, on_hand=on_hand)
    else:
        per_hand = []
        for i in range(total):
            per_hand.append(review_hand(match_result, i, record=record, **kw))
            if on_hand is not None:
                on_hand(i, total)
    out: list[Mistake] = []
    hands: list[HandReview] = []
    for found, hr in per_hand:   # (in hand order: the sort below keeps a hand's own order)
        out.extend(found)
        hands.append(hr)
    out.sort(key=lambda d: (d.hand or 0, d.trick or 0, d.line, d.column, d.code))
    return out, hands


def review_hand(match_result: MatchResult, index: int, *, record: Record | None = None,
                select: list[str] | None = None, samples: int = SAMPLES, max_samples: int | None = MAX_SAMPLES,
                node_budget: int = NODE_BUDGET, exact_tricks: int = EXACT_TRICKS, endgame_tricks: int = ENDGAME_TRICKS,
                search_budget: int | None = SEARCH_BUDGET) -> tuple[list[Mistake], HandReview]:
    """(findings, review) of hand ``index`` (0-based) of ``match_result``: what
    :func:`full_review` gathers, one hand at a time (in this process or a worker's)."""
    hand = match_result.hands[index]
    out: list[Mistake] = []
    node = None
    if record is not None and 1 <= hand.number <= len(record.hands):
        node = record.hands[hand.number - 1]
    if hand.team is not None:
        return out, _friends_hand(match_result, hand, node, out, select, samples, max_samples)
    ctx = HandContext(hand, record_hand=node, endgame_tricks=endgame_tricks, search_budget=search_budget,
                      match=match_result, samples=0)
    patterns = one_per_play(run_rules(ctx, select)) if ctx.playable else []
    hr = hand_review(ctx, ctx.endgame_tricks)
    hr.decisions = []
    hr.order = ctx.order
    if not ctx.searchable:
        hr.skipped = "the four hands are not all known (or the hand is incomplete or has rule errors)"
        hr.judged = {}
        return out, hr
    by_play = {(f.trick, f.seat): f for f in patterns if f.target == "play"}
    for ti, t in enumerate(hand.tricks):
        for k, p in enumerate(t.plays):
            d = value_decision(ctx, ti, k, samples=samples, max_samples=max_samples, node_budget=node_budget,
                               exact_tricks=exact_tricks)
            pat = by_play.get((t.number, p.seat))
            if pat is not None and pat.code == "SJ610":
                pat = None  # the search's own verdict on the real deal: d.actual says it
            if pat is not None:
                d.explanations.append(f"{pat.code} {pattern_text(pat)}")
            _with_actual(ctx, d, ti, k)
            hr.decisions.append(d)
            f = finding_of(ctx, d, pat)
            if f is not None and (select is None or any(f.code.startswith(s) for s in select)):
                out.append(f)
    # the bury: valued from the burier's view (analyzer.review.mistakes.bury); the
    # pattern (SJ603) is its explanation, a note when the bury has no verdict
    review_bury(ctx, hr, [f for f in patterns if f.target == "bury"], out, select, samples, max_samples)
    # the declarations: valued from the declarer's view (analyzer.review.mistakes.declarations)
    review_declarations(ctx, hr, out, select, samples=samples, max_samples=max_samples)
    hr.judged = {}
    for d in hr.decisions:
        if d.judged:
            hr.judged[d.seat] = hr.judged.get(d.seat, 0) + 1
    return out, hr


def _friends_hand(match_result: MatchResult, hand: HandResult, node: RecordHand | None, out: list[Mistake],
                  select: list[str] | None, samples: int, max_samples: int | None = None) -> HandReview:
    """A finding-friends hand (:mod:`analyzer.review.mistakes.friends`): every
    decision valued by the bots' play-outs from its player's view; its findings
    go to ``out``. No exact window. The pattern rules run on the sides as each
    player knew them at that play (:class:`~analyzer.review.mistakes.friends.FriendsContext`:
    a friend not yet revealed is of unknown side, and no pattern fires on a guess);
    a pattern is attached to its decision as the 4-seat review attaches it. The
    bury is valued as at four seats (:func:`analyzer.review.mistakes.bury.review_bury`),
    the declarations from the declarer's draw
    (:mod:`analyzer.review.mistakes.friends_declarations`)."""
    from analyzer.review.mistakes.friends import FriendsContext, FriendsHand, review_friends_hand
    ctx = HandContext(hand, record_hand=node, endgame_tricks=0, search_budget=None, match=match_result, samples=0)
    hr = HandReview(hand.number, len(hand.tricks), None, 0, False, 0, seats=tuple(hand.seats),
                    no_window=FRIENDS_NO_WINDOW)
    hr.order = ctx.order
    hr.judged = {}
    why = FriendsHand(ctx).why_not()
    if why is not None:
        hr.skipped = f"finding friends: {why}"
        return hr
    hr.actual = [ctx.points_before(ti) for ti in range(len(hand.tricks))] + [hand.attacker_points]
    hr.eval = [None] * len(hr.actual)
    hr.decisions = review_friends_hand(ctx, samples=samples, max_samples=max_samples)
    try:
        patterns = one_per_play(run_rules(FriendsContext(hand, record_hand=node, match=match_result), select))
    except ValueError:   # a record play the engine would not take: no pattern; the valued decisions stand
        patterns = []
    by_play = {(f.trick, f.seat): f for f in patterns if f.target == "play"}
    for d in hr.decisions:
        pat = by_play.get((d.trick, d.seat))
        if pat is not None:
            d.explanations.append(f"{pat.code} {pattern_text(pat)}")
        f = finding_of(ctx, d, pat)
        if f is not None and (select is None or any(f.code.startswith(s) for s in select)):
            out.append(f)
    # the bury: valued from the burier's view as at four seats (the friends unknown to them)
    review_bury(ctx, hr, [f for f in patterns if f.target == "bury"], out, select, samples, max_samples)
    # the declarations: valued from the declarer's view (analyzer.review.mistakes.friends_declarations)
    review_declarations(ctx, hr, out, select, samples=samples, max_samples=max_samples)
    for d in hr.decisions:
        if d.judged:
            hr.judged[d.seat] = hr.judged.get(d.seat, 0) + 1
    return hr


def _with_actual(ctx: HandContext, d: Decision, ti: int, k: int) -> None:
    """Inside the exact window: the values with all four hands known and the best line."""
    if not ctx.in_window(ti):
        return
    v = ctx.judge(ti, k)
    if v is None:
        d.actual = {"judged": False, "reason": "node budget"}
        return
    best, line = (None, "")
    if v.cost >= MIN_COST:
        best, line = ctx.best_line(ti, k)
    d.actual = {"judged": True, "cost": v.cost, "best_total": v.best_total, "after_total": v.after_total,
                "best": None if best is None else cards_text(best, ctx.order), "line": line}
    d.hindsight = v.cost >= MIN_COST and d.band is None


def finding_of(ctx: HandContext, d: Decision, pat: Mistake | None) -> Mistake | None:
    """The finding of a decision: a verdict (band set), a note about luck, or None."""
    t = ctx.hand.tricks[d.trick - 1]
    p = t.plays[d.index]
    order = ctx.order
    span = p.span
    line, col = (span.line, span.column) if span else (0, 0)
    eline, ecol = (span.end_line, span.end_column) if span else (0, 0)
    chosen = cards_text(d.chosen, order)
    if d.band is not None:
        code = pat.code if pat is not None else ("SJ610" if d.exact else "SJ611")
        best = d.options[0]
        mine = next(o for o in d.options if o.play == d.chosen or d.chosen in o.same)
        how = "each solved exactly" if d.exact else "each solved exactly or played out by the bots"
        view = f"{d.samples} deals of the hidden cards, {how}"
        if d.friends is not None:   # finding friends: the sides as each deal turns out
            view = (f"{d.samples} deals of the hidden cards and the friends not yet revealed, each played out "
                    f"by the bots, no exact window; {p.seat} on the dealer's team in "
                    f"{d.friends.get('dealer_team_deals', 0)} of them")
        if d.screened:   # sequential sampling: valued again on new deals (decisions' module doc)
            view += f"; new deals, after a first look over {d.screened} left it unsure"
        text = (f"{d.band} ({d.loss:.0f} ± {d.loss_se:.0f} points expected)"
                + (f", expected level outcome −{d.level_loss:.2f} ± {d.level_loss_se:.2f}" if d.level_loss >= 0.05 else "")
                + f": {p.seat} played {chosen}; from {p.seat}'s view ({view}) "
                f"{cards_text(best.play, order)} was better: the attackers finish with {best.expected:.0f} ± "
                f"{best.stderr:.0f} after it, {mine.expected:.0f} ± {mine.stderr:.0f} after {chosen}")
        if pat is not None:
            text += f"; {pattern_text(pat)}"
        if d.actual and d.actual.get("judged"):
            text += f"; with all hands known the play cost {d.actual['cost']} points"
        return Mistake(code, text, line, col, eline, ecol, INFO, d.hand, d.trick, p.seat, "play",
                       round(d.loss), d.band, None, best.play, False)
    if d.hindsight and d.actual is not None:
        text = (f"note (no expected loss from {p.seat}'s view: {d.loss:.0f} ± {d.loss_se:.0f} points over "
                f"{d.samples} deals): with all hands known {chosen} cost {d.actual['cost']} points"
                + (f", best was {d.actual['best']}" if d.actual.get("best") else "")
                + (f" ({d.actual['line']})" if d.actual.get("line") else "")
                + "; it needed the hidden cards to be seen: luck, not a mistake")
        return Mistake("SJ610", text, line, col, eline, ecol, INFO, d.hand, d.trick, p.seat, "play", 0, "note",
                       None, None, True)
    return None


__all__ = ["full_review", "review_hand", "finding_of"]
