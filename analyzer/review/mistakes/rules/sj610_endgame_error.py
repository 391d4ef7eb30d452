"""SJ610: a play of the endgame that lost points against the best play."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.review.mistakes.base import Rule, rule
from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.findings import MIN_COST, Mistake
from replay.texts import cards_text


@rule
class EndgameError(Rule):
    """A play in the last tricks that loses points against the best play.

    Over the last K tricks (``endgame_tricks``, default 6) all four hands are
    known, so the endgame is solved exactly (analyzer.review.search: alpha-beta over
    the engine's legal plays, valuing the attackers' points to the end of the
    hand including the kitty × multiplier of the last trick; the attackers
    maximise, the dealers minimise). Each recorded play is compared with the
    best play in its position, both followed by best play to the end.

    Bad pattern: any play whose value is at least 5 points worse for the
    player's side than the best play's.

    Better play: the cheapest best play (fewest points, fewest trumps, weakest
    cards among the plays reaching the best value) and the line that follows
    it (the rest of the trick and the next one under best play), with the
    attackers' final totals with it and after the play made, both followed
    by best play, and the total the hand actually gave.

    Cost: the difference of the two values. A failed throw counts its penalty.
    """

    code = "SJ610"
    name = "endgame-error"
    needs_search = True

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        start = ctx.window_start
        if start is None:
            return
        h = ctx.hand
        order = ctx.order
        for ti in range(start, len(h.tricks)):
            t = h.tricks[ti]
            for k, p in enumerate(t.plays):
                v = ctx.judge(ti, k)
                if v is None:
                    continue  # said per play (SJ690)
                if v.cost < MIN_COST:
                    continue
                played = cards_text(p.attempted or p.cards, order)
                if p.attempted:
                    played += f" (a failed throw: {cards_text(p.cards, order)} played)"
                yield ctx.verdict_finding(self.code, f"{p.seat} played {played}", ti, k, v, played)
