"""SJ611: a lead just before the searched endgame, judged from the leader's
own point of view (imperfect information: analyzer.mistakes.pov)."""

from __future__ import annotations

from collections.abc import Iterator

from replay.trick import cards_text

from ..base import MIN_COST, HandContext, Mistake, Rule, make, rule
from ..pov import evaluate, pov_cost

#: tricks before the searched window whose leads are judged this way
POV_TRICKS = 1


@rule
class LeadError(Rule):
    """A lead before the endgame that loses points on average over the deals
    the leader could not tell apart.

    Before the searched window the leader cannot see the other hands, so the
    lead is judged as the leader could have judged it: the hidden cards (the
    other hands, and the kitty unless the leader buried it) are dealt again
    at random, consistently with every card played so far and the suits each
    player has shown to be out of; each deal is solved exactly to the end of
    the hand, and every candidate lead (the lead made, and each deal's own
    best single-unit lead) is valued in every deal. The candidate with the
    best average is the better play.

    Bad pattern: a lead whose average value is at least 5 points worse for
    the leader's side than the best candidate's: e.g. cashing a high card
    that would have won later anyway while giving up the lead to a point
    run, or opening a suit the opponents are known to be out of.

    Better play: the best candidate lead (the message shows it, with both
    averages and the number of deals sampled and solved).

    Cost: the difference of the averages, rounded down to a multiple of 5
    points. The message also says what both leads give with all hands known
    (when the search budget allows), since a gamble can happen to work. Judged for the
    leads of the last trick(s) before the searched window (``POV_TRICKS``),
    within the hand's imperfect-information node budget; not judged when
    fewer than half the sampled deals could be solved. Failed throws are
    SJ601's.
    """

    code = "SJ611"
    name = "lead-error"
    needs_search = True

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        start = ctx.window_start
        if start is None or ctx.samples <= 0:
            return
        order = ctx.order
        for ti in range(max(0, start - POV_TRICKS), start):
            t = ctx.hand.tricks[ti]
            if not t.plays:
                continue
            lead = t.plays[0]
            if lead.attempted or ctx.is_throw(lead.cards):
                continue  # failed throws are SJ601's; a standing throw is not second-guessed
            res = evaluate(ctx, lead.seat, ti, 0, [lead.cards], add_best=True)
            if res is None:
                continue
            got = pov_cost(ctx, lead.seat, res, lead.cards)
            if got is None or got[0] < MIN_COST:
                continue
            cost, best = got
            played = tuple(sorted(lead.cards))
            text = (f"{lead.seat} led {cards_text(lead.cards, order)}; from what {lead.seat} could see "
                    f"({res.solved} deals of the hidden cards sampled and solved to the end), "
                    f"{cards_text(best, order)} was the better lead: the attackers score "
                    f"{res.values[best]:.0f} points from here on average after it, {res.values[played]:.0f} "
                    f"after {cards_text(lead.cards, order)}")
            text += "; " + self._actual(ctx, ti, played, best)
            yield make(self.code, text, ctx=ctx, span=lead.span, trick=t.number, seat=lead.seat, cost=cost,
                       best=best, hidden=False)

    @staticmethod
    def _actual(ctx: HandContext, ti: int, played: tuple[int, ...], best: tuple[int, ...]) -> str:
        """What the two leads give with all hands known (when the budget allows)."""
        from ...search import SearchBudgetExceeded
        pos = ctx.node(ti, 0)
        try:
            a, b = ctx.ask("points", lambda s: (s.play_value(pos, played), s.play_value(pos, best)))
        except SearchBudgetExceeded:
            return "with all hands known: not measured (search budget)"
        if a == b:
            return "with all hands known both leads give the same (this deal forgave the lead)"
        return f"with all hands known: {b} after {cards_text(best, ctx.order)}, {a} after the lead made"
