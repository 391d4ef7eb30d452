"""SJ603: points buried in the kitty and then lost with the last trick."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from analyzer.review.mistakes.base import Rule, rule
from analyzer.review.mistakes.context import HandContext, make
from analyzer.review.mistakes.findings import MIN_COST, Mistake
from primitives.cards import POINTS, points
from primitives.diagnostics import Span
from replay.texts import cards_text


@rule
class RiskyBury(Rule):
    """Points buried in the kitty (扣底) and then lost with the last trick.

    Bad pattern: the dealer buries point cards (5, 10, K) and the attackers
    win the last trick, scoring the kitty's points × the multiplier.

    Better play: bury cards without points (low side-suit cards) unless the
    last trick is safe; the message shows the saving a point-free bury (or the
    least-points bury the dealer's hand allowed) would have made, the rest of
    the play being the same.

    Cost: (points buried − points of that alternative) × the multiplier.
    From the burier's own view: at the start of the searched endgame (the
    earliest point the hand can be solved), the hidden hands are sampled
    consistently with what the burier has seen and each deal is solved for
    "can the attackers take the last trick?"; when the saving times that
    share is under 5 points the finding is marked as needing the hidden
    cards.
    Reported on the `bury` line when the record is given (`find_mistakes`),
    else at the hand.
    """

    code = "SJ603"
    name = "risky-bury"

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        h = ctx.hand
        if not ctx.playable or not h.complete or h.bury is None or h.kitty_points <= 0:
            return
        buried = tuple(h.bury)
        pts = points(buried)
        if pts <= 0:
            return
        mult = h.multiplier
        seat, span = ctx.burier, None
        assert seat is not None  # the hand has a bury
        node = ctx.record_hand.buries[-1] if ctx.record_hand is not None and ctx.record_hand.buries else None
        if node is not None:
            span = node.span
        if span is None or span == Span():
            span = h.span
        alt = self._least_points_bury(ctx, seat, buried)
        alt_pts = points(alt) if alt is not None else 0
        saved = (pts - alt_pts) * mult
        if saved < MIN_COST:
            return
        actual = h.attacker_points
        change = ctx.level_change(actual, actual - saved, better_label="with that bury")
        order = ctx.order
        buried_pts = [c for c in order.sorted(buried) if POINTS[c]]
        text = (f"{seat} buried {pts} points ({cards_text(buried_pts, order)}) and "
                f"{h.tricks[-1].winner} took the last trick: {pts} × {mult} = {pts * mult} to the attackers; ")
        if alt is None:
            text += f"a point-free bury would have saved {saved}"
        else:
            kept = order.sorted((Counter(buried) - Counter(alt)).elements())
            instead = order.sorted((Counter(alt) - Counter(buried)).elements())
            swap = f"keeping {cards_text(kept, order)} and burying {cards_text(instead, order)} instead"
            what = "a point-free bury" if alt_pts == 0 else f"the least-points bury ({alt_pts} points)"
            text += f"{what}, {swap}, would have saved {saved}"
        hidden = None
        start = ctx.window_start if ctx.samples > 0 and ctx.searchable else None
        if start is not None:
            # from the burier's own view when the endgame began: how likely was the
            # last trick (and the kitty) to be lost? (sampled hidden hands, solved)
            from analyzer.review.mistakes.pov import average_value
            got = average_value(ctx, seat, start, 0, "last_trick")
            if got is not None:
                share, solved, _ = got
                expected = saved * share
                lost_in = round(share * solved)
                if expected < MIN_COST:
                    hidden = True
                    text += (f" [needed the hidden cards: from what {seat} could see when the searched endgame "
                             f"began (trick {start + 1}), the attackers could take the last trick in {lost_in} of "
                             f"{solved} sampled deals]")
                else:
                    hidden = False
                    text += (f" [from {seat}'s own view when the searched endgame began (trick {start + 1}), the "
                             f"attackers could take the last trick in {lost_in} of {solved} sampled deals: "
                             f"about {int(expected)} points at risk]")
        yield make(self.code, text, ctx=ctx, span=span, trick=None, seat=seat, cost=saved, level_change=change,
                   target="bury", best=alt, hidden=hidden)

    @staticmethod
    def _least_points_bury(ctx: HandContext, seat: str, buried: tuple[int, ...]) -> tuple[int, ...] | None:
        """The burier's cheapest bury closest to the actual one: its cards without
        points stay, its point cards are swapped for the cheapest cards of the
        hand (fewest points, then side suits, then low cards)."""
        h = ctx.hand
        if not h.known.get(seat) or seat not in h.start_hands:
            return None
        order = ctx.order
        keep = [c for c in buried if not POINTS[c]]
        pool = list(h.start_hands[seat]) + [c for c in buried if POINTS[c]]
        pool.sort(key=lambda c: (POINTS[c], ctx.is_trump(c), ctx.rank(c), c))
        return tuple(order.sorted(keep + pool[:len(buried) - len(keep)]))
