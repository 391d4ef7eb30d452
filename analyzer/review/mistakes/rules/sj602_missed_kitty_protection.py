"""SJ602: the kitty lost with the last trick although the dealers could have kept it."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.review.mistakes.base import Rule, rule
from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.findings import MIN_COST, Mistake
from analyzer.review.search import SearchBudgetExceeded
from primitives.cards import points
from replay.texts import cards_text


def _kitty_text(ctx: HandContext) -> str:
    h = ctx.hand
    kitty = ctx.kitty_cards or ()
    return f"{points(kitty)} × {h.multiplier} = {h.kitty_points} points"


@rule
class MissedKittyProtection(Rule):
    """The attackers won the last trick (抠底) although the dealers could have kept it (保底).

    Bad pattern: a dealer-team play in the endgame that turns a position where
    the dealers can force the last trick, whatever the attackers do, into one
    where the attackers can take it — typically spending the trump or the
    high card that would have guarded the last trick, or giving up the lead.

    Better play: keep the guard for the last trick; the message shows a play
    that kept the ending protected.

    Found by exact search over the last tricks (all four hands known, complete
    hand): for each dealer-team play in the window, "can the dealers force the
    last trick?" before and after it. The earliest play that turned yes into no
    is reported. Cost: like every play in the window, the exact points it
    lost (best play's value − the play's, both followed by best play); a
    play that gave up the last trick but lost fewer than 5 points overall is
    not reported. When the ending was already lost before the searched
    window nothing is reported.
    """

    code = "SJ602"
    name = "missed-kitty-protection"
    needs_search = True

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        h = ctx.hand
        if not h.tricks or not h.tricks[-1].to_attackers:
            return
        start = ctx.window_start
        if start is None:
            return
        for ti in range(start, len(h.tricks)):
            t = h.tricks[ti]
            for k, p in enumerate(t.plays):
                if ctx.is_attacker(p.seat):
                    continue
                before = ctx.value(ti, k, "last_trick")
                after = ctx.play_value(ti, k, "last_trick")
                if before is None or after is None:
                    continue
                if before == 0 and after == 1:
                    found = self._finding(ctx, ti, k)
                    if found is not None:
                        yield found
                    return

    def _finding(self, ctx: HandContext, ti: int, k: int) -> Mistake | None:
        """The finding on the play that gave up the last trick, costed like
        every other play in the window (points, by the exact search): a play
        that gave up the last trick but lost no points overall (keeping it
        would have cost as much elsewhere) is not a mistake."""
        h = ctx.hand
        t = h.tricks[ti]
        p = t.plays[k]
        order = ctx.order
        v = ctx.judge(ti, k)
        if v is None or v.cost < MIN_COST:
            return None
        keeper = None
        try:
            pos = ctx.node(ti, k)
            keeper, _ = ctx.ask("last_trick", lambda s: s.best_move(pos, 0))
        except SearchBudgetExceeded:
            pass
        played = cards_text(p.attempted or p.cards, order)
        text = (f"{p.seat}'s {played} in trick {t.number} gave up the last trick: until then the dealers "
                f"could force it"
                + (f" (e.g. with {cards_text(keeper, order)})" if keeper else "")
                + f"; {h.tricks[-1].winner} took the last trick and the kitty, {_kitty_text(ctx)}")
        return ctx.verdict_finding(self.code, text, ti, k, v, played)
