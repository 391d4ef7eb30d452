"""Helpers the follow rules (SJ604, SJ605, SJ606) share.

"Certain" is exact: all four hands are known, and no player still to play on
the other side has a legal follow that beats the best play so far (asked of
the engine: ``legal`` and ``trick_winner``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from replay.scoring import team_of
from replay.seats import SEATS as SEAT_ORDER

from ..base import HandContext
from ..tricks import team_certain

if TYPE_CHECKING:
    from replay.game import PlayResult, TrickResult


def follows(ctx: HandContext) -> Iterator[tuple[int, TrickResult, int, PlayResult, dict[str, Counter[int]]]]:
    """(trick index, trick, k, play, holdings by seat at the trick's start) for
    every follow of a hand whose four hands are known."""
    if not (ctx.playable and ctx.clean and ctx.all_known and ctx.consistent):
        return
    for ti, t in enumerate(ctx.hand.tricks):
        if len(t.plays) != 4 or not t.plays[0].cards:
            continue
        hb = ctx.hands_before(ti)
        holds = {s: Counter(hb[i]) for i, s in enumerate(SEAT_ORDER)}
        for k in range(1, 4):
            yield ti, t, k, t.plays[k], holds


def certain_for(ctx: HandContext, t: TrickResult, k: int, holds: dict[str, Counter[int]], team: str, *,
                from_k: int) -> bool:
    """The best of plays[:k] cannot be beaten by any player of ``team`` playing
    at positions ``from_k``..3."""
    plays = [p.cards for p in t.plays[:k]]
    rivals = [(p.seat, holds[p.seat]) for p in t.plays[from_k:] if team_of(p.seat) == team]
    return team_certain(plays, rivals, ctx.order, ctx.ruleset)
