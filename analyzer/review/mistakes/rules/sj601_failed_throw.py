"""SJ601: a failed throw."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from analyzer.review.mistakes.base import Rule, rule
from analyzer.review.mistakes.context import HandContext, make
from analyzer.review.mistakes.findings import Mistake
from analyzer.review.mistakes.rules._shared import known_sides
from replay.texts import cards_text, unit_text

if TYPE_CHECKING:  # pragma: no cover
    from replay.shapes import Unit


@rule
class FailedThrow(Rule):
    """A throw (甩牌: several units led at once) that another player could beat.

    Bad pattern: leading several units when an opponent holds a higher unit of
    the same shape in that suit (a higher single, pair or tractor); the throw
    fails, the thrower must lead the smallest failing unit instead, pays the
    ruleset's throw penalty (`throw_penalty`) and usually loses the trick and
    the lead to the blocker.

    Better play: throw only units that are the highest of their shape still
    out (count the cards played), or lead the units one at a time.

    Reported for every failed throw (a known fact of the record). Cost:
    inside the searched endgame, the exact search's (the best lead's value
    against the failed throw's, penalty included); earlier, the penalty
    only: the forced unit gives the same trick as leading that unit would
    have, so where the rules have no throw penalty the failure costs nothing
    (a *note*, not a mistake). In the full review the throw is valued like
    every decision, from the thrower's view, and this text is its explanation.
    The message names each blocker with the unit that beats the throw.
    Finding friends: the trick is said to be won for the thrower's team only
    when the thrower knew the winner's side by the end of the trick.
    """

    code = "SJ601"
    name = "failed-throw"

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        if not ctx.playable:
            return
        order = ctx.order
        for t in ctx.hand.tricks:
            if not t.failed_throw or not t.plays:
                continue
            lead = t.plays[0]
            attempted = lead.attempted or lead.cards
            by_unit: dict[Unit, list[str]] = {}
            for b in t.blockers:
                beaters = by_unit.setdefault(b.unit, [])
                text = f"{b.seat} holds {unit_text(b.by, order)}"
                if text not in beaters:
                    beaters.append(text)
            blocks = [f"{' and '.join(beaters)}, which beat{'s' if len(beaters) == 1 else ''} the "
                      f"{unit_text(u, order)}" for u, beaters in by_unit.items()]
            blocked = "; ".join(blocks) if blocks else "another player holds a higher unit"
            penalty = abs(t.penalty)
            ti = t.number - 1
            # the sides as the thrower knows them once the trick is played (finding friends: a
            # winner of unknown side is not said to have won for the thrower's team)
            lost = known_sides(ctx, lead.seat, ti, len(t.plays) - 1)(t.winner, lead.seat) is not True
            # the forced unit gives the same trick as leading it would have: the
            # failure itself costs the penalty only (none where the rules have none)
            cost = penalty
            text = (f"{lead.seat}'s throw {cards_text(attempted, order)} failed: {blocked}; "
                    f"{lead.seat} had to lead {cards_text(lead.cards, order)}")
            text += f", penalty {penalty} points" if penalty else ", no penalty under these rules"
            if lost:
                text += f"; {t.winner} won the trick"
                text += f" ({t.points} points)" if t.points else ""
                text += " and the lead"
            else:
                text += f"; {t.winner} still won the trick for {lead.seat}'s team"
            v = ctx.judge(ti, 0) if ctx.searchable else None
            if v is not None:
                # inside the searched window: what the throw cost against the best lead
                yield ctx.verdict_finding(self.code, text, ti, 0, v, cards_text(attempted, order))
                continue
            change = ctx.signed_change(lead.seat, cost)
            yield make(self.code, text, ctx=ctx, span=lead.span, trick=t.number, seat=lead.seat, cost=cost,
                       level_change=change)
