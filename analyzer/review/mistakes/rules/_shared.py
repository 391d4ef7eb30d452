"""Helpers the follow rules (SJ604, SJ605, SJ606) share.

"Certain" is exact: all four hands are known, and no player still to play on
the other side has a legal follow that beats the best play so far (asked of
the engine's :class:`replay.state.HandState` at that play:
:func:`analyzer.review.mistakes.context.unbeatable`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from analyzer.review.mistakes.context import HandContext

if TYPE_CHECKING:  # pragma: no cover
    from replay.results import PlayResult, TrickResult


def follows(ctx: HandContext) -> Iterator[tuple[int, TrickResult, int, PlayResult]]:
    """(trick index, trick, k, play) for every follow of a hand whose four
    hands are known; a rule asks ``ctx.state(ti, k)`` (the engine's state
    before the play) once the play's own cards do not rule it out already."""
    if not (ctx.playable and ctx.clean and ctx.all_known and ctx.consistent):
        return
    for ti, t in enumerate(ctx.hand.tricks):
        if len(t.plays) != 4 or not t.plays[0].cards:
            continue
        for k in range(1, 4):
            yield ti, t, k, t.plays[k]
