"""SJ611: a lead just before the searched endgame, judged from the leader's
own point of view (imperfect information: analyzer.review.mistakes.pov)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.review.mistakes.base import Rule, rule
from analyzer.review.mistakes.context import HandContext, make
from analyzer.review.mistakes.findings import Mistake
from replay.texts import cards_text

#: tricks before the searched window whose leads are judged this way
POV_TRICKS = 1


@rule
class LeadError(Rule):
    """A lead before the endgame that loses points on average over the deals
    the leader could not tell apart.

    Before the searched window the leader cannot see the other hands, so the
    lead is judged as the leader could have judged it (the full review's
    valuation, analyzer.review.mistakes.decisions): the hidden cards (the other
    hands, and the kitty unless the leader buried it) are dealt again at
    random, consistently with every card played so far and the suits each
    player has shown to be out of; every legal lead is valued in every deal
    (the same deals for every lead), each deal solved exactly or played out
    by the bots.

    Bad pattern: a lead whose expected loss against the best lead is at
    least 5 points and above twice its standard error, the best lead chosen
    on one half of the deals and judged on the other (never the best of
    several noisy averages): e.g. cashing a high card that would have won
    later anyway while giving up the lead to a point run.

    Better play: the best lead (the message shows it, with both expected
    totals and their standard errors).

    Cost: the expected loss, rounded down to a multiple of 5 points. The
    message also says what both leads give with all hands known (when the
    search budget allows), since a gamble can happen to work. Judged for the
    leads of the last trick(s) before the searched window (``POV_TRICKS``).
    Failed throws are SJ601's. In the full review every decision is valued
    this way and this text is the explanation of a lead's verdict.
    """

    code = "SJ611"
    name = "lead-error"
    needs_search = True

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        start = ctx.window_start
        if start is None or ctx.samples <= 0:
            return
        from analyzer.review.mistakes.decisions import value_decision
        order = ctx.order
        for ti in range(max(0, start - POV_TRICKS), start):
            t = ctx.hand.tricks[ti]
            if not t.plays:
                continue
            lead = t.plays[0]
            if lead.attempted or ctx.is_throw(lead.cards):
                continue  # failed throws are SJ601's; a standing throw is not second-guessed
            d = value_decision(ctx, ti, 0, samples=max(2, ctx.samples))
            if d.band is None:
                continue  # no loss above noise from the leader's view
            best = d.options[0].play
            played = tuple(sorted(lead.cards))
            mine = next(o for o in d.options if o.play == played or played in o.same)
            text = (f"{lead.seat} led {cards_text(lead.cards, order)}; from what {lead.seat} could see "
                    f"({d.samples} deals of the hidden cards sampled, the same deals for every lead), "
                    f"{cards_text(best, order)} was the better lead: the attackers finish with "
                    f"{d.options[0].expected:.0f} ± {d.options[0].stderr:.0f} points on average after it, "
                    f"{mine.expected:.0f} ± {mine.stderr:.0f} after {cards_text(lead.cards, order)} "
                    f"(expected loss {d.loss:.0f} ± {d.loss_se:.0f}, judged on deals apart from those "
                    f"that chose the better lead)")
            text += "; " + self._actual(ctx, ti, played, best)
            yield make(self.code, text, ctx=ctx, span=lead.span, trick=t.number, seat=lead.seat,
                       cost=int(d.loss // 5) * 5, best=best, hidden=False)

    @staticmethod
    def _actual(ctx: HandContext, ti: int, played: tuple[int, ...], best: tuple[int, ...]) -> str:
        """What the two leads give with all hands known (when the budget allows)."""
        from analyzer.review.search import SearchBudgetExceeded
        pos = ctx.node(ti, 0)
        try:
            a, b = ctx.ask("points", lambda s: (s.play_value(pos, played), s.play_value(pos, best)))
        except SearchBudgetExceeded:
            return "with all hands known: not measured (search budget)"
        if a == b:
            return "with all hands known both leads give the same (this deal forgave the lead)"
        return f"with all hands known: {b} after {cards_text(best, ctx.order)}, {a} after the lead made"
