"""Mistake analysis (SJ6xx): legal plays that cost points, like a chess
engine's game review marking inaccuracies, mistakes and blunders.

Public API::

    review(match_result, *, endgame_tricks=6, select=None, record=None,
           search_budget=SEARCH_BUDGET)             -> list[Mistake]
    find_mistakes(record, match_result)             -> list[Mistake]   (the lint / report hook)
    annotate(record, findings, *, replace=True)     -> Record          ({SJ6xx …} commentaries)
    RULES                                           code → rule (code, name, docstring, check)
    band(cost, level_change=False)                  -> "inaccuracy" | "mistake" | "blunder"

A :class:`Mistake` is a :class:`replay.diagnostics.Diagnostic` of severity
``info`` (mistakes never fail a lint) positioned at the play it is about, with
``hand`` and ``trick`` set, whose message starts with the severity band and
the cost in points; it also carries ``seat``, ``target`` (``play`` or
``bury``), ``cost``, ``band``, ``level_change`` and ``best`` (the better play).

Bands: inaccuracy 5–15 points, mistake 20–35, blunder 40 or more or any change
of the hand's level outcome. The rules and their exact detection logic are in
the rule classes' docstrings and docs/diagnostics.md ("Mistakes (SJ6xx)").
"""

from __future__ import annotations

from collections.abc import Iterable

from replay.diagnostics import Diagnostic

from . import endgame, feeding, kitty, throws  # noqa: F401  (register the rules)
from .annotate import annotate, comment_text
from .base import (ENDGAME_TRICKS, MIN_COST, RULES, SEARCH_BUDGET, HandContext, Mistake, Rule, band,
                   run_rules)


def review(match_result, *, endgame_tricks: int = ENDGAME_TRICKS, select: Iterable[str] | None = None,
           record=None, search_budget: int | None = SEARCH_BUDGET) -> list[Mistake]:
    """Every mistake of every hand of ``match_result`` (a :class:`replay.game.MatchResult`).

    ``endgame_tricks``: the last K tricks of each hand are solved exactly
    (SJ602, SJ606's cost, SJ610); 0 turns the search off. ``select``: codes
    or code prefixes to run (``["SJ604", "SJ61"]``), None for all. ``record``:
    the replayed record, used to place SJ603 on its ``bury`` line.
    ``search_budget``: nodes one search question may visit; a hand whose
    K-trick endgame needs more is searched over fewer tricks (None: no limit).
    """
    select = list(select) if select is not None else None
    out: list[Mistake] = []
    for hand in match_result.hands:
        node = None
        if record is not None and 1 <= hand.number <= len(record.hands):
            node = record.hands[hand.number - 1]
        ctx = HandContext(hand, record_hand=node, endgame_tricks=endgame_tricks,
                          search_budget=search_budget, match=match_result)
        out.extend(run_rules(ctx, select))
    out.sort(key=lambda d: (d.hand or 0, d.trick or 0, d.line, d.column, d.code))
    return out


def find_mistakes(record, match_result) -> list[Diagnostic]:
    """The hook ``shengji lint --mistakes`` and ``shengji report --mistakes``
    call: :func:`review` with the record (default options)."""
    return list(review(match_result, record=record))


__all__ = ["review", "find_mistakes", "annotate", "comment_text", "RULES", "Rule", "Mistake", "band",
           "HandContext", "ENDGAME_TRICKS", "MIN_COST", "SEARCH_BUDGET"]
