"""SJ605: a point card kept back from a trick the partner was certain to win."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from analyzer.review.mistakes.base import Rule, rule
from analyzer.review.mistakes.context import HandContext, best_so_far, make
from analyzer.review.mistakes.findings import MIN_COST, Mistake
from analyzer.review.mistakes.rules._shared import follows, known_sides, unbeatable_by
from primitives.cards import POINTS, points
from replay.texts import cards_text

if TYPE_CHECKING:  # pragma: no cover
    from replay.results import TrickResult


@rule
class PointsWithheld(Rule):
    """A point card kept back from a trick the partner was already certain to win.

    Bad pattern: your partner's play is winning the trick and no opponent still
    to play can beat it, yet you follow with a play carrying fewer points than
    a legal one you held; the point card kept back later falls to the
    opponents.

    Better play: give your partner the points (the message shows the legal
    play with the most points).

    Inside the searched endgame the exact search decides (cost: the best
    play's value against the play made; a withheld card whose gift would
    have lost as much elsewhere is not reported). Earlier: the points of the
    withheld cards that the opponents later won (a card kept back and later
    won by your own side cost nothing, and is not reported).

    Finding friends: only when you knew the winner was your partner (a friend
    revealed by then: see "The full review"); a player whose side you could
    not know yet counts as a possible opponent still to play, and a kept card
    counts as lost only to a player you knew was an opponent.
    """

    code = "SJ605"
    name = "points-withheld"

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        order = ctx.order
        tricks = ctx.hand.tricks
        for ti, t, k, p in follows(ctx):
            st = ctx.state(ti, k)
            w = t.plays[best_so_far(st)]
            if points(st.holding(p.seat).elements()) - points(p.cards) < MIN_COST:
                continue
            sides = known_sides(ctx, p.seat, ti, k)
            if sides(w.seat, p.seat) is not True:  # a partner's play is winning (never p's own: p is to play)
                continue
            if not unbeatable_by(st, p.seat, sides, partners=False):
                continue
            _, high = ctx.follow_extremes(ti, k)
            if points(high) - points(p.cards) < MIN_COST:
                continue
            kept = Counter(c for c in high if POINTS[c]) - Counter(p.cards)
            v = ctx.judge(ti, k)
            if v is not None:
                # inside the searched window the exact search decides
                if v.cost < MIN_COST:
                    continue
                text = (f"{p.seat} kept {cards_text(order.sorted(kept.elements()), order)} back from "
                        f"{w.seat}'s {cards_text(w.cards, order)}, which no opponent could beat")
                yield ctx.verdict_finding(self.code, text, ti, k, v)
                continue
            lost, where = 0, []
            for c, fate in self._fates(tricks, ti, p.seat, kept):
                if known_sides(ctx, p.seat, fate.number - 1, len(fate.plays) - 1)(fate.winner, p.seat) is False:
                    lost += POINTS[c]
                    where.append(f"{cards_text([c], order)} fell to {fate.winner} in trick {fate.number}")
            if lost < MIN_COST:
                continue
            text = (f"{p.seat} kept {cards_text([c for c in order.sorted(kept.elements())], order)} back from "
                    f"{w.seat}'s {cards_text(w.cards, order)}, which no opponent could beat "
                    f"({cards_text(high, order)} was legal); later " + ", ".join(where)) + ctx.pattern_note(ti)
            yield make(self.code, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=lost,
                       level_change=ctx.signed_change(p.seat, lost), best=high)

    @staticmethod
    def _fate_map(tricks: Sequence[TrickResult], ti: int, seat: str,
                  cards: Counter[int]) -> Iterator[tuple[tuple[int, int], TrickResult]]:
        """((card, index among ``cards``' copies of the list), later trick where ``seat`` played it)."""
        seen: Counter[int] = Counter()
        order_list = list(cards.elements())
        for c, t in PointsWithheld._fates(tricks, ti, seat, cards):
            # the j-th occurrence of c in order_list
            idx = [j for j, x in enumerate(order_list) if x == c][seen[c]]
            seen[c] += 1
            yield (c, idx), t

    @staticmethod
    def _fates(tricks: Sequence[TrickResult], ti: int, seat: str,
               kept: Counter[int]) -> Iterator[tuple[int, TrickResult]]:
        """(card, later trick where ``seat`` played it) for each kept card played later."""
        left = Counter(kept)
        for t in tricks[ti + 1:]:
            for q in t.plays:
                if q.seat != seat:
                    continue
                for c in q.cards:
                    if left[c] > 0:
                        left[c] -= 1
                        yield c, t
