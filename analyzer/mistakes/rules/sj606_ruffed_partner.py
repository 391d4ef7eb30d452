"""SJ606: a trick the partner was certain to win, ruffed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from replay.cards import points
from replay.order import TRUMP
from replay.scoring import team_of
from replay.seats import SEATS as SEAT_ORDER
from replay.seats import Seat
from replay.trick import cards_text, lead_suit

from ..base import MIN_COST, HandContext, Mistake, Rule, make, rule
from ..tricks import winning_index
from ._shared import certain_for, follows


@rule
class RuffedPartner(Rule):
    """Ruffing (毙) a trick the partner was already certain to win.

    Bad pattern: a plain suit is led, your partner's play is winning and no
    opponent still to play can beat it, yet you play trumps that take the
    trick from your partner: a trump spent for nothing, and the lead moves to
    you.

    Better play: discard (the message shows a legal play that leaves the trick
    to the partner), keeping the trump for a trick that needs it.

    Inside the searched endgame (all hands known, complete hand) the exact
    search decides: the cost is the best play's value against the ruff's,
    and a ruff the search finds harmless (cost < 5) is not reported. Earlier
    in the hand the pattern is reported as a *note* (cost not measured).
    """

    code = "SJ606"
    name = "ruffed-partner"

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        order, rs = ctx.order, ctx.ruleset
        for ti, t, k, p, holds in follows(ctx):
            lead = t.plays[0].cards
            if lead_suit(lead, order) in (None, TRUMP) or any(order.eff[c] != TRUMP for c in p.cards):
                continue
            so_far = [q.cards for q in t.plays[:k]]
            w = t.plays[winning_index(so_far, order, rs)]
            if w.seat != Seat[p.seat].partner().name:
                continue
            if winning_index(so_far + [p.cards], order, rs) != k:
                continue  # a trump discard that does not take the trick
            other = "EW" if team_of(p.seat) == "NS" else "NS"
            if not certain_for(ctx, t, k, holds, other, from_k=k + 1):
                continue
            alt = self._alternative(ctx, ti, k, so_far)
            if alt is None:
                continue
            text = (f"{p.seat} ruffed with {cards_text(p.cards, order)} a trick {w.seat} was sure to win with "
                    f"{cards_text(w.cards, order)}")
            v = ctx.judge(ti, k)
            if v is not None:
                # inside the searched window the exact search decides
                if v.cost < MIN_COST:
                    continue
                best, why = ctx.verdict_text(ti, k, v)
                yield make(self.code, f"{text}; {why}", ctx=ctx, span=p.span, trick=t.number, seat=p.seat,
                           cost=v.cost, level_change=ctx.verdict_change(v, cards_text(p.cards, order)),
                           best=best)
                continue
            text += (f"; {cards_text(alt, order)} would have left it to the partner (a trump spent for "
                     f"nothing; its cost in points is only measured by the search of the endgame)"
                     + ctx.pattern_note(ti))
            yield make(self.code, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=0, best=alt,
                       show_cost=False)

    @staticmethod
    def _alternative(ctx: HandContext, ti: int, k: int, so_far) -> tuple[int, ...] | None:
        """The cheapest legal play that leaves the trick to the partner, or None."""
        order, rs = ctx.order, ctx.ruleset
        t = ctx.hand.tricks[ti]
        p = t.plays[k]
        from replay.legal import legal_follows
        alts = [f for f in legal_follows(t.plays[0].cards, Counter(ctx.hands_before(ti)[SEAT_ORDER.index(p.seat)]),
                                         order, rs, limit=200)
                if winning_index(so_far + [f], order, rs) != k]
        if not alts:
            return None
        return tuple(min(alts, key=lambda f: (sum(order.eff[c] == TRUMP for c in f), points(f),
                                              sum(order.key[c] for c in f))))
