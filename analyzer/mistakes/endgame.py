"""SJ610: a play of the endgame that lost points against the best play."""

from __future__ import annotations

from collections.abc import Iterator

from replay.trick import cards_text

from ..search import SearchBudgetExceeded
from .base import MIN_COST, HandContext, Mistake, Rule, make, rule


@rule
class EndgameError(Rule):
    """A play in the last tricks that loses points against the best play.

    Over the last K tricks (``endgame_tricks``, default 6) all four hands are
    known, so the endgame is solved exactly (analyzer.search: alpha-beta over
    the engine's legal plays, valuing the attackers' points to the end of the
    hand including the kitty × multiplier of the last trick; the attackers
    maximise, the dealers minimise). Each recorded play is compared with the
    best play in its position, both followed by best play to the end.

    Bad pattern: any play whose value is at least 5 points worse for the
    player's side than the best play's.

    Better play: the best play shown in the message, with the totals the
    attackers end with after each.

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
                before = ctx.value(ti, k)
                after = ctx.play_value(ti, k)
                if before is None or after is None:
                    return
                att = ctx.is_attacker(p.seat)
                cost = before - after if att else after - before
                if cost < MIN_COST:
                    continue
                try:
                    pos = ctx.node(ti, k)
                    best, _ = ctx.ask("points", lambda s: s.best_move(pos, before))
                except SearchBudgetExceeded:
                    best = None
                base = ctx.points_before(ti) + (t.penalty if k > 0 else 0)
                best_total, total = base + before, base + after
                change = ctx.level_change(total, best_total)
                played = cards_text(p.attempted or p.cards, order)
                if p.attempted:
                    played += f" (a failed throw: {cards_text(p.cards, order)} played)"
                text = f"{p.seat} played {played}"
                if best is not None:
                    text += f"; best was {cards_text(best, order)}"
                text += (f": with best play from here the attackers finish with {best_total} points, "
                         f"after this play with {total}")
                yield make(self.code, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=cost,
                           level_change=change, best=best)
