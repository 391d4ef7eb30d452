"""SJ606: a trick the partner was certain to win, ruffed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from analyzer.review.mistakes.base import Rule, rule
from analyzer.review.mistakes.context import HandContext, best_so_far, make
from analyzer.review.mistakes.findings import MIN_COST, Mistake
from analyzer.review.mistakes.rules._shared import follows, known_sides, unbeatable_by
from primitives.cards import points
from replay.texts import cards_text

if TYPE_CHECKING:  # pragma: no cover
    from replay.state import HandState


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

    Finding friends: only when you knew the winner was your partner (a friend
    revealed by then: see "The full review"); a player whose side you could
    not know yet counts as a possible opponent still to play.
    """

    code = "SJ606"
    name = "ruffed-partner"

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        order = ctx.order
        for ti, t, k, p in follows(ctx):
            if not all(ctx.is_trump(c) for c in p.cards):
                continue
            st = ctx.state(ti, k)
            if not st.lead_is_plain:
                continue
            w = t.plays[best_so_far(st)]
            sides = known_sides(ctx, p.seat, ti, k)
            if sides(w.seat, p.seat) is not True:  # a partner's play is winning (never p's own: p is to play)
                continue
            if st.winner_if(p.cards) != p.seat:
                continue  # a trump discard that does not take the trick
            if not unbeatable_by(st, p.seat, sides, partners=False):
                continue
            alt = self._alternative(ctx, st)
            if alt is None:
                continue
            text = (f"{p.seat} ruffed with {cards_text(p.cards, order)} a trick {w.seat} was sure to win with "
                    f"{cards_text(w.cards, order)}")
            v = ctx.judge(ti, k)
            if v is not None:
                # inside the searched window the exact search decides
                if v.cost < MIN_COST:
                    continue
                yield ctx.verdict_finding(self.code, text, ti, k, v)
                continue
            text += (f"; {cards_text(alt, order)} would have left it to the partner (a trump spent for "
                     f"nothing; its cost in points is only measured by the search of the endgame)"
                     + ctx.pattern_note(ti))
            yield make(self.code, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=0, best=alt,
                       show_cost=False)

    @staticmethod
    def _alternative(ctx: HandContext, st: HandState) -> tuple[int, ...] | None:
        """The cheapest legal play of the seat to play that leaves the trick to
        the partner (fewest trumps, fewest points, weakest cards), or None."""
        seat = st.turn
        follows_ = st.legal_follows(limit=200)
        alts = [f for f, win in zip(follows_, map(st.winner_if, follows_), strict=True) if win != seat]
        if not alts:
            return None
        return min(alts, key=lambda f: (sum(ctx.is_trump(c) for c in f), points(f), sum(ctx.rank(c) for c in f)))
