"""SJ604: a point card fed to a trick the opponents were certain to win."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from analyzer.review.mistakes.base import Rule, rule
from analyzer.review.mistakes.context import HandContext, best_so_far, make
from analyzer.review.mistakes.findings import MIN_COST, Mistake
from analyzer.review.mistakes.rules._shared import follows, known_sides, unbeatable_by
from analyzer.review.mistakes.rules.sj605_points_withheld import PointsWithheld
from primitives.cards import POINTS, points
from replay.texts import cards_text

if TYPE_CHECKING:  # pragma: no cover
    from replay.results import PlayResult, TrickResult


@rule
class PointsFed(Rule):
    """A point card fed to a trick the opponents were already certain to win.

    Bad pattern: an opponent's play is winning the trick and nobody on your
    side who is still to play (you included) has a legal play that beats it,
    yet you play a 5, 10 or K into it.

    Better play: follow with the legal play carrying the fewest points (the
    message shows it) and keep the point card for a trick your side can win.

    Inside the searched endgame the exact search decides: the cost is the
    best play's value against the play made (both followed by best play) and
    a feed the search finds harmless (under 5 points: the card falls anyway)
    is not reported. Earlier: points played − the fewest points a legal
    follow could carry, less the point cards that would have fallen to the
    opponents later anyway (the low card kept instead went into a trick the
    opponents won, where the point card could have gone in its place).

    Finding friends: only when you knew the winner was an opponent (the
    sides as revealed by then, your play included: see "The full review");
    a player whose side you could not know yet counts as a possible partner
    still to play, and a later trick counts as the opponents' unless you knew
    its winner was a partner.
    """

    code = "SJ604"
    name = "points-fed"

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        order = ctx.order
        tricks = ctx.hand.tricks
        for ti, t, k, p in follows(ctx):
            fed = points(p.cards)
            if fed < MIN_COST:
                continue
            st = ctx.state(ti, k)
            w = t.plays[best_so_far(st)]
            sides = known_sides(ctx, p.seat, ti, k)
            if sides(w.seat, p.seat) is not False:
                continue  # a partner's play, or one of a side p cannot know yet (finding friends)
            if not unbeatable_by(st, p.seat, sides, partners=True):
                continue
            low, _ = ctx.follow_extremes(ti, k)
            if fed - points(low) < MIN_COST:
                continue
            fed_cards = [c for c in order.sorted(p.cards) if POINTS[c]]
            text = (f"{p.seat} fed {cards_text(fed_cards, order)} ({fed} points) to {w.seat}'s "
                    f"{cards_text(w.cards, order)}, which {p.seat}'s side could not beat")
            v = ctx.judge(ti, k)
            if v is not None:
                # inside the searched window the exact search decides
                if v.cost < MIN_COST:
                    continue
                yield ctx.verdict_finding(self.code, text, ti, k, v)
                continue
            cost, anyway = self._cost_outside(ctx, tricks, ti, p, low)
            if cost < MIN_COST:
                continue
            text += (f"; {cards_text(low, order)} was legal and gave "
                     + (f"{points(low)} points" if points(low) else "nothing"))
            if anyway:
                text += "; " + ", ".join(anyway) + " (counted as falling anyway)"
            text += ctx.pattern_note(ti)
            yield make(self.code, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=cost,
                       level_change=ctx.signed_change(p.seat, cost), best=low)

    @staticmethod
    def _cost_outside(ctx: HandContext, tricks: Sequence[TrickResult], ti: int, p: PlayResult,
                      low: Sequence[int]) -> tuple[int, list[str]]:
        """Before the searched window: the points fed beyond the cheapest legal
        follow, less the point cards that would have fallen to the opponents
        later anyway. The cheap follow keeps a point card and spends a card
        ``x`` of the same suit instead; the player later played ``x`` into a
        trick (the swap of the two cards); when the opponents won that trick,
        the point card would have gone to them there: it falls anyway."""
        order = ctx.order
        saved = sorted((Counter(p.cards) - Counter(low)).elements(), key=lambda c: -POINTS[c])
        instead = list((Counter(low) - Counter(p.cards)).elements())
        fates = dict(PointsWithheld._fate_map(tricks, ti, p.seat, Counter(instead)))
        cost, notes = 0, []
        used: set[int] = set()
        for c in saved:
            if not POINTS[c]:
                continue
            gain = POINTS[c]
            for j, x in enumerate(instead):
                if j in used or ctx.suit(x) != ctx.suit(c):
                    continue
                used.add(j)
                gain = POINTS[c] - POINTS[x]
                fate = fates.get((x, j))
                if fate is not None and known_sides(ctx, p.seat, fate.number - 1,
                                                    len(fate.plays) - 1)(fate.winner, p.seat) is not True:
                    notes.append(f"{cards_text([c], order)} would have fallen to {fate.winner} in trick "
                                 f"{fate.number} in place of {cards_text([x], order)}")
                    gain = 0
                break
            cost += gain
        return cost, notes
