"""Mistake analysis (SJ6xx): legal plays that cost points, like a chess
engine's game review marking inaccuracies, mistakes and blunders.

Public API::

    review(match_result, *, endgame_tricks=4, select=None, record=None,
           search_budget=SEARCH_BUDGET, samples=6, pov_budget=POV_BUDGET) -> list[Mistake]
    review_match(...)                               -> Review (findings, per-hand HandReview, .summary)
    find_mistakes(record, match_result)             -> list[Mistake]   (the lint hook: fast pass)
    review_mistakes(record, match_result, *, jobs=1) -> list[Mistake]  (the report hook: full review)
    annotate(record, findings, *, replace=True)     -> Record          ({SJ6xx …} commentaries)
    RULES                                           code → rule (code, name, docstring, check)
    band(cost, level_change=False)                  -> "note" | "inaccuracy" | "mistake" | "blunder"

Inside the exactly searched window (the last ``endgame_tricks`` tricks) the
search decides every verdict and cost; at most one finding is kept per play;
earlier decisions are judged by the pattern rules and, for the leads just
before the window, from the player's own view (:mod:`.pov`).

A :class:`Mistake` is a :class:`primitives.diagnostics.Diagnostic` of severity
``info`` (mistakes never fail a lint) positioned at the play it is about, with
``hand`` and ``trick`` set, whose message starts with the severity band and
the cost in points; it also carries ``seat``, ``target`` (``play``, ``bury``
or ``hand``), ``cost``, ``band``, ``level_change``, ``best`` (the better
play) and ``hidden`` (whether the loss needed the hidden cards).

Bands: note (under 5 points), inaccuracy 5–15 points, mistake 20–35, blunder
40 or more or any change of the hand's level outcome. The rules and their
exact detection logic are in the rule modules' docstrings
(:mod:`analyzer.review.mistakes.rules`, one module per rule), generated into
docs/diagnostics.md ("Mistakes (SJ6xx)").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from analyzer.review.mistakes import rules as _rules
from analyzer.review.mistakes.annotate import annotate, comment_text
from analyzer.review.mistakes.base import RULES, Rule, one_per_play, run_rules, selected
from analyzer.review.mistakes.context import ENDGAME_TRICKS, SEARCH_BUDGET, HandContext, make
from analyzer.review.mistakes.findings import FRIENDS_CODE, MIN_COST, PRIORITY, WINDOW_CODE, Mistake, band
from analyzer.review.mistakes.pov import POV_BUDGET, SAMPLES, mark
from analyzer.review.mistakes.summary import FRIENDS_NO_WINDOW, HandReview, hand_review, summarize
from primitives.diagnostics import INFO, Diagnostic

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Record
    from replay.results import HandResult, MatchResult

_rules.load()  # every module of analyzer/review/mistakes/rules/ registers its rule


class Findings(list[Diagnostic]):
    """The findings of :func:`find_mistakes` (a list of :class:`Mistake`)
    with the review's ``summary`` (:func:`analyzer.review.mistakes.summary.summarize`)."""

    summary: dict[str, Any] | None = None


class Review(NamedTuple):
    findings: list[Mistake]
    hands: list[HandReview]

    @property
    def summary(self) -> dict[str, Any]:
        return summarize(self.findings, self.hands)


def review_match(match_result: MatchResult, *, endgame_tricks: int = ENDGAME_TRICKS, select: Iterable[str] | None = None,
                 record: Record | None = None, search_budget: int | None = SEARCH_BUDGET, samples: int = SAMPLES,
                 pov_budget: int = POV_BUDGET, on_hand: Callable[[], object] | None = None) -> Review:
    """:func:`review` with what each hand's review covered (:class:`HandReview`:
    the window searched, the evaluation over the tricks, decisions judged).
    ``on_hand()`` is called after each hand of the match (a command's progress)."""
    select = list(select) if select is not None else None
    out: list[Mistake] = []
    hands: list[HandReview] = []
    for hand in match_result.hands:
        if hand.team is not None:
            # finding friends: the exact search plays fixed partners at four seats, so this
            # pass judges none of the hand's plays; it says so (SJ691) and the full review
            # (report --mistakes) values them by play-outs
            if hand.tricks:
                hands.append(HandReview(hand.number, len(hand.tricks), None, 0, False, 0, judged={},
                                        seats=tuple(hand.seats), no_window=FRIENDS_NO_WINDOW))
                if selected(FRIENDS_CODE, select):
                    out.append(friends_note(hand))
            if on_hand is not None:
                on_hand()
            continue
        node = None
        if record is not None and 1 <= hand.number <= len(record.hands):
            node = record.hands[hand.number - 1]
        ctx = HandContext(hand, record_hand=node, endgame_tricks=endgame_tricks,
                          search_budget=search_budget, match=match_result, samples=samples,
                          pov_budget=pov_budget)
        found = from_players_view(ctx, one_per_play(run_rules(ctx, select)))
        out.extend(found)
        hr = hand_review(ctx, ctx.endgame_tricks)
        hands.append(hr)
        if hr.budget_cut and selected(WINDOW_CODE, select):
            # one finding per play: a play a pattern already explains keeps that finding
            flagged = {(f.trick, f.seat) for f in found if f.target == "play"}
            out.extend(f for f in window_notes(ctx, search_budget) if (f.trick, f.seat) not in flagged)
        if on_hand is not None:
            on_hand()
    out.sort(key=lambda d: (d.hand or 0, d.trick or 0, d.line, d.column, d.code))
    return Review(out, hands)


def review(match_result: MatchResult, *, endgame_tricks: int = ENDGAME_TRICKS, select: Iterable[str] | None = None,
           record: Record | None = None, search_budget: int | None = SEARCH_BUDGET, samples: int = SAMPLES,
           pov_budget: int = POV_BUDGET) -> list[Mistake]:
    """Every finding of every hand of ``match_result`` (a :class:`replay.results.MatchResult`),
    at most one per play.

    ``endgame_tricks``: the last K tricks of each hand are solved exactly
    and, there, the search decides every verdict and cost; 0 turns the
    search off. ``select``: codes or code prefixes to run (``["SJ604",
    "SJ61"]``), None for all. ``record``: the replayed record, used to place
    SJ603 on its ``bury`` line. ``search_budget``: nodes one hand's searches
    may visit; a hand whose K-trick endgame needs more is searched over fewer
    tricks, and an SJ690 note says so (None: no limit). ``samples``: hidden
    deals sampled per decision judged from the player's own view (0: none;
    see :mod:`analyzer.review.mistakes.pov`), within ``pov_budget`` nodes per hand.
    """
    return review_match(match_result, endgame_tricks=endgame_tricks, select=select, record=record,
                        search_budget=search_budget, samples=samples, pov_budget=pov_budget).findings


def from_players_view(ctx: HandContext, findings: list[Mistake]) -> list[Mistake]:
    """Each mistake on a play inside the searched window judged again from
    its player's point of view (:func:`analyzer.review.mistakes.pov.mark`)."""
    if ctx.samples <= 0:
        return findings
    out = []
    for f in findings:
        if (f.target == "play" and f.trick is not None and f.band != "note" and f.hidden is None
                and ctx.in_window(f.trick - 1)):
            t = ctx.hand.tricks[f.trick - 1]
            k = next((i for i, p in enumerate(t.plays) if p.seat == f.seat), None)
            if k is not None:
                f = mark(ctx, f, f.trick - 1, k)
        out.append(f)
    return out


def window_notes(ctx: HandContext, budget: int | None) -> list[Mistake]:
    """SJ690, per play: the node budget ran out before the exact search
    reached this play of the window; it has no exact verdict and is left out
    of accuracy."""
    out = []
    for ti, k in ctx.unjudged():
        t = ctx.hand.tricks[ti]
        p = t.plays[k]
        text = (f"trick {t.number}, {p.seat}: not judged exactly: the node budget ({budget} nodes) ran out "
                f"before the search reached this play of the window (left out of accuracy)")
        out.append(make(WINDOW_CODE, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=0))
    return out


def friends_note(hand: HandResult) -> Mistake:
    """SJ691, once per finding-friends hand: the exact window (and so the fast
    pass) is four-seat only; the full review values the hand's plays."""
    sp = hand.span
    text = (f"note (no points lost): hand {hand.number}, finding friends ({len(hand.seats)} players): no exact "
            f"window (the exact search plays fixed partners at four seats), so none of its plays is judged here; "
            f"`shengji report --mistakes` reviews them from each player's view")
    return Mistake(FRIENDS_CODE, text, sp.line, sp.column, sp.end_line, sp.end_column, INFO, hand.number, None,
                   None, "hand", 0, "note", None, None, None)


def find_mistakes(record: Record | None, match_result: MatchResult) -> list[Diagnostic]:
    """The hook ``shengji lint --mistakes`` calls: the fast pass (exact
    endgame search and the pattern rules; no sampling of hidden hands). The
    list also carries the player summary (``.summary``)."""
    rv = review_match(match_result, record=record, samples=0)
    out = Findings(rv.findings)
    out.summary = rv.summary
    return out


def review_full(match_result: MatchResult, *, record: Record | None = None, select: Iterable[str] | None = None,
                endgame_tricks: int = ENDGAME_TRICKS, **budgets: Any) -> Review:
    """The full review: every decision of every hand valued from the deciding
    player's own view (:mod:`analyzer.review.mistakes.full`,
    :mod:`analyzer.review.mistakes.decisions`); ``budgets``: ``samples``,
    ``node_budget``, ``exact_tricks``, ``search_budget``, ``on_hand(i, total)``
    (as each hand is done), ``jobs`` (worker processes, one a hand at most:
    :mod:`analyzer.review.mistakes.workers`; the review is the same whatever the number)."""
    from analyzer.review.mistakes.full import full_review
    findings, hands = full_review(match_result, record=record, select=select, endgame_tricks=endgame_tricks,
                                  **budgets)
    return Review(findings, hands)


def review_mistakes(record: Record | None, match_result: MatchResult, *,
                    on_hand: Callable[[], object] | None = None, jobs: int = 1) -> list[Diagnostic]:
    """The hook ``shengji report --mistakes`` calls: the full review
    (:func:`review_full`: every decision valued from its player's view).
    ``on_hand()``: called after each hand (the command's progress); ``jobs``:
    worker processes (``report --jobs``)."""
    rv = review_full(match_result, record=record, jobs=jobs,
                     on_hand=(lambda _i, _n: on_hand()) if on_hand is not None else None)
    out = Findings(rv.findings)
    out.summary = rv.summary
    return out


__all__ = ["review", "review_match", "review_full", "Review", "Findings", "summarize", "HandReview", "find_mistakes", "review_mistakes", "annotate", "comment_text", "RULES", "Rule", "Mistake", "band",
           "HandContext", "ENDGAME_TRICKS", "MIN_COST", "SEARCH_BUDGET", "PRIORITY", "one_per_play"]
